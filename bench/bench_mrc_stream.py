"""The exact LRU hit-ratio curve streamed over a trace file vs read whole (issue 41, ``pcm-planner mrc``).

Generates gzip MSR Cambridge CSVs of ``--sizes`` requests (default 2 M and 10 M; ``bench/_gen_msr.py``) and
measures, each in a child process (its own peak RSS, ``VmHWM``; wall time including the interpreter's start):

- ``pcm-planner mrc FILE --points 50`` streamed (:mod:`models.traces.stream_mrc`, the default for a file) with
  no memory budget (``--memory-budget 0``: the exact curve whatever its state), on every size;
- the same command through today's in-memory path (the whole trace loaded, split into blocks, one
  stack-distance pass) on the smallest size only (the whole read is bounded by the memory budget; the machine is shared);
- a child that only imports the modules (the empty run's RSS), and one that only reads each file (its blocks
  handed to a consumer that keeps nothing: the reader's own peak), to give the streamed curve's memory per
  distinct block ``(peak - reader's peak) / footprint``, next to the state's own arrays
  (``LruStream.state_bytes``) per distinct block.

Each path also runs on a 1,000-request file: its fixed cost (start, imports, compiled kernels loaded from
numba's cache -- seconds on a loaded machine), subtracted for the ratio beyond it. The two outputs on the
smallest size must be equal (printed). Last line: ``ratio:`` streamed wall time over the in-memory one on the
smallest size (the peak RSS ratio and the ratio beyond the fixed costs are printed above it).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from _common import print_ratio
from _gen_msr import write_msr_csv
from bench_stream import _child

_CLI = "from cli.main import main\n"
_IN_MEMORY = "import cli.commands.mrc as _m\n_m._streamed = lambda *a: None  # today's path: the trace read whole\n"


def _mrc(path: Path, in_memory: bool) -> tuple[float, float, str]:
    code = (_IN_MEMORY if in_memory else "") + _CLI + (
        f"main(['mrc', {str(path)!r}, '--points', '50', '--no-progress', '--memory-budget', '0'])\n")
    wall, peak, out = _child(code)
    return wall, peak, "\n".join(ln for ln in out.splitlines() if ln and not ln.startswith("peak_rss_bytes="))


def _reader(path: Path) -> tuple[float, float]:
    """(wall [s], peak RSS [MB]) of reading ``path`` with nothing kept (the reader's own cost)."""
    code = ("from models.traces.chunks import chunk_sink\nfrom models.traces.readers import read_trace\n"
            f"with chunk_sink(lambda cols: None):\n    read_trace({str(path)!r}, 'msr')\n")
    wall, peak, _ = _child(code)
    return wall, peak


def _state(path: Path) -> tuple[int, int]:
    """(distinct blocks, bytes of the streamed state's arrays) of ``path`` (in a child: nothing kept here)."""
    code = ("from models.budget import limit\nfrom models.traces.chunks import chunk_sink\n"
            "from models.traces.readers import read_trace\nfrom models.traces.stream_mrc import LruStream\n"
            f"s = LruStream(4096)\nwith limit(0), chunk_sink(s.add_chunk):\n    read_trace({str(path)!r}, 'msr')\n"
            "s.flush()\nprint(s.n_keys, s.state_bytes)\n")
    _, _, out = _child(code)
    keys, nbytes = out.split()[:2]
    return int(keys), int(nbytes)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="2000000,10000000", help="comma-separated request counts (the smallest "
                                                               "also runs in memory)")
    ap.add_argument("--dir", default=None, help="work folder (default: a temporary one)")
    a = ap.parse_args()
    sizes = sorted(int(x) for x in a.sizes.split(","))
    print(f"load average before: {os.getloadavg()}", flush=True)
    tmp = Path(a.dir or tempfile.mkdtemp(prefix="bench_mrc_stream_"))
    tmp.mkdir(parents=True, exist_ok=True)
    files = {}
    for n in sizes:
        files[n] = tmp / f"msr_{n}.csv.gz"
        if not files[n].exists():
            t = time.perf_counter()
            write_msr_csv(files[n], n, compress=True)
            print(f"generated {files[n].name}: {files[n].stat().st_size / 1e6:.0f} MB gzip in "
                  f"{time.perf_counter() - t:.0f} s", flush=True)
    _mrc(files[sizes[0]], False)  # compiled kernels cached before any timing
    _mrc(files[sizes[0]], True)
    empty_wall, empty_peak, _ = _child("import cli.commands.mrc, models.traces.stream_mrc, models.traces.readers\n")
    print(f"empty run (imports only): {empty_wall:.1f} s, peak RSS {empty_peak:.0f} MB", flush=True)
    tiny = tmp / "tiny.csv.gz"  # the fixed cost of a run: start, imports, the compiled kernels loaded from the cache
    write_msr_csv(tiny, 1000, compress=True)
    tiny_s, _, _ = _mrc(tiny, False)
    tiny_m, _, _ = _mrc(tiny, True)
    print(f"1,000-request file: streamed {tiny_s:.1f} s, in memory {tiny_m:.1f} s (each run's fixed cost)", flush=True)
    rows, outs = [], {}
    for n in sizes:
        wall, peak, out = _mrc(files[n], False)
        outs[n] = out
        keys, state = _state(files[n])
        r_wall, r_peak = _reader(files[n])
        rows.append((n, wall, peak, keys, state, r_wall, r_peak))
        print(f"mrc streamed (exact), {n:,} requests: {wall:.1f} s ({n / wall / 1e6:.2f} M requests/s end to end, "
              f"{n / max(wall - empty_wall, 1e-9) / 1e6:.2f} M requests/s after the empty run's start), "
              f"peak RSS {peak:.0f} MB; {keys:,} distinct blocks; state arrays {state / 1e6:.0f} MB = "
              f"{state / keys:.1f} bytes per distinct block; (peak - empty run) / distinct = "
              f"{(peak - empty_peak) * 1e6 / keys:.0f} bytes", flush=True)
        print(f"reader only, {n:,} requests: {r_wall:.1f} s, peak RSS {r_peak:.0f} MB; the curve's own memory "
              f"(peak - reader's peak) / distinct = {(peak - r_peak) * 1e6 / keys:.0f} bytes", flush=True)
    n0 = sizes[0]
    wall_m, peak_m, out_m = _mrc(files[n0], True)
    print(f"mrc in memory (exact), {n0:,} requests: {wall_m:.1f} s, peak RSS {peak_m:.0f} MB", flush=True)
    print(f"outputs equal (streamed vs in memory, {n0:,} requests, 50 sizes): {out_m == outs[n0]}", flush=True)
    print("requests      wall [s]  reader alone [s]  peak RSS [MB]  reader alone [MB]  distinct blocks  "
          "state [B/block]  (peak - reader) [B/block]")
    for n, wall, peak, keys, state, r_wall, r_peak in rows:
        print(f"{n:>12,}  {wall:8.1f}  {r_wall:16.1f}  {peak:13.0f}  {r_peak:17.0f}  {keys:15,}  {state / keys:15.1f}  "
              f"{(peak - r_peak) * 1e6 / keys:25.0f}")
    w0, p0 = rows[0][1], rows[0][2]
    print(f"streamed / in memory on {n0:,} requests: time {w0 / wall_m:.2f}x (beyond each path's 1,000-request run "
          f"{(w0 - tiny_s) / max(wall_m - tiny_m, 1e-9):.2f}x), peak RSS {p0 / peak_m:.2f}x")
    print(f"load average after: {os.getloadavg()}")
    print_ratio(w0, wall_m)


if __name__ == "__main__":
    main()
