"""Full-size traces in bounded memory, readers at library speed (issue 41).

Generates a gzip MSR Cambridge CSV of ``--requests`` requests (default 10 M; ``--requests 100000000``
for the 100 M run, ~4 GB of gzip) and measures, in this run:

- the kept library's bare parse of the file (``pyarrow.csv.open_csv``, streaming) [requests/s];
- our MSR reader on the same file (blocks handed to a counting consumer, nothing kept) [requests/s]
  and its ratio to the bare parse;
- ``pcm-planner trace-stats`` streamed (the default for a file) vs in memory (``load`` +
  ``trace_stats``, only up to the loader's request limit): wall time and peak RSS of each
  (a child process each; its own ``VmHWM`` from ``/proc/self/status``: ``ru_maxrss`` of children
  is the largest child so far, and a child inherits its parent's peak across ``exec``);
- ``--rss-sizes 10000000,100000000``: ``trace-stats`` streamed over a gzip MSR CSV of each size side by
  side (wall, peak RSS, the statistics' method: exact, or sampled at a named rate when the exact per-block
  state needs more than the memory budget), and the sampled estimates' error against the exact statistics
  on the smallest size (run with a budget large enough for the exact state) -- the error bound of the
  fallback, measured;
- ``--plan-sizes 10000000,100000000``: ``pcm-planner plan`` (the block roles: file cache, write cache, storage
  replay on one device) over a gzip MSR CSV of each size, side by side: wall, the child's peak RSS (VmHWM), how
  the trace was used (requests used / read, streamed or in memory) and the verdicts. ``--plan-compare`` also
  plans each size in memory where the loader's request limit allows (same file, rows compared: verdicts equal,
  largest relative difference of the values); ``--plan-force-stream`` streams files under the in-memory byte
  limit too (to measure the driver at a size the in-memory plan also takes); ``--plan-collecting`` lets a role
  without a stream class run the in-memory reference stream (``PCM_TEST_COLLECTING_STREAMS=1``: memory grows
  with the trace -- for sizes the in-memory plan could take, never 100 M);
- the oracleGeneral reader (memory-mapped) on ``--requests`` generated records [requests/s], and its time over
  the bare memory-mapped column view's (``np.memmap`` with the record dtype, each field read once);
- ``--readers-only``: only the readers beside their references, each the best of ``--repeat`` runs (warm page
  cache): our MSR reader (streamed) vs Arrow's bare parse on the gzip CSV and on the same CSV uncompressed
  (wall and CPU time of each, ratios of both); gzip inflation alone with zlib (the standard library's ``gzip``,
  Arrow's ``CompressedInputStream``) and ISA-L (``isal.igzip``, our readers' inflater); the ceiling two cores put
  on a gzip CSV reader at the CPU cost per request of inflation and our parse measured here;
  the oracleGeneral reader's stages on ``--og-requests`` generated records (or ``--og-file``) beside the
  bare view: the decode alone (one thread, and split over the cores), the object placement alone, both one after
  the other on one thread, both end to end (decode split and one block ahead; :func:`oracle_stages`;
  ``--og-only``: these alone).
  Last line: our plain-CSV time over Arrow's.

The fleet on Dask (1 worker vs 2, rows equal to the serial run's) is ``bench/bench_fleet.py``.

The machine is shared: the load average is printed before and after. Last line: ``ratio:`` our
reader's time over the bare parse's on the CSV.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import PEAK_RSS_CODE, ROOT, print_ratio
from _gen_msr import write_msr_csv

PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(ROOT / ".numba_cache")}
NAMES = ["timestamp", "hostname", "disk", "type", "offset", "size", "response_time"]


def _child(code: str) -> tuple[float, float, str]:
    """Run ``code`` in a fresh interpreter: (wall [s], the child's own peak RSS (VmHWM) [MB], stdout)."""
    t = time.perf_counter()
    out = subprocess.run([PY, "-c", code + PEAK_RSS_CODE], env=ENV, capture_output=True, text=True,
                         check=True).stdout
    wall = time.perf_counter() - t
    peak = next((float(ln.split("=", 1)[1]) for ln in reversed(out.splitlines()) if ln.startswith("peak_rss_bytes=")),
                float("nan"))
    return wall, peak / 1e6, out


def bare_arrow(path: Path) -> tuple[float, int]:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    t = time.perf_counter()
    types = {n: pa.string() if n in ("hostname", "type") else pa.int64() for n in NAMES}
    with pa.input_stream(str(path), compression="gzip" if path.suffix == ".gz" else None) as fh:
        r = pcsv.open_csv(fh, read_options=pcsv.ReadOptions(column_names=NAMES, block_size=8 << 20),
                          convert_options=pcsv.ConvertOptions(column_types=types))
        n = sum(b.num_rows for b in r)
    return time.perf_counter() - t, n


def our_reader(path: Path, fmt: str) -> tuple[float, int]:
    from models.traces.chunks import chunk_sink
    from models.traces.readers import read_trace

    n = [0]
    t = time.perf_counter()
    with chunk_sink(lambda cols: n.__setitem__(0, n[0] + len(cols["time_ns"]))):
        read_trace(path, fmt)
    return time.perf_counter() - t, n[0]


def inflate_only(path: Path, inflater: str = "arrow") -> tuple[float, int]:
    """A gzip file inflated to the end, nothing parsed: (wall [s], bytes out). ``inflater``: ``"arrow"`` (Arrow's
    ``CompressedInputStream``, zlib: what the bare parse reads through), ``"zlib"`` (the standard library's
    ``gzip``) or ``"isal"`` (ISA-L's ``isal.igzip``, what our readers use)."""
    import gzip

    import pyarrow as pa

    opener = {"arrow": lambda p: pa.input_stream(str(p), compression="gzip"),
              "zlib": lambda p: gzip.open(p, "rb"), "isal": _isal_open}[inflater]
    t, n = time.perf_counter(), 0
    with opener(path) as fh:
        while b := fh.read(8 << 20):
            n += len(b)
    return time.perf_counter() - t, n


def _isal_open(path: Path):
    from isal import igzip

    return igzip.open(path, "rb")


def bare_view(path: Path) -> tuple[float, int]:
    """The bare memory-mapped column view of an oracleGeneral file (``np.memmap`` with the record dtype), every
    time, id and size read once (summed): (wall [s], records)."""
    from models.traces.formats.oracle import RECORD

    t = time.perf_counter()
    rec = np.memmap(path, RECORD, "r")
    int(rec["time"].sum()) + int(rec["id"].sum()) + int(rec["size"].sum())
    return time.perf_counter() - t, len(rec)


def _best(fn, path: Path, repeat: int) -> tuple[float, int]:
    """Best wall of ``repeat`` calls of ``fn(path)`` (warm page cache after the first): (wall [s], count)."""
    return min(fn(path) for _ in range(repeat))


def readers(tmp: Path, n: int, repeat: int) -> tuple[float, float]:
    """Each reader beside its reference, best of ``repeat`` (see ``--readers-only``): (our plain-CSV time, the bare
    parse's) [s]."""
    csv, plain = _msr_file(tmp, n), tmp / f"msr_{n}.csv"
    if not plain.exists():
        write_msr_csv(plain, n)
    rows, t_plain = csv_readers(csv, plain, n, repeat)
    print("format                          reference [M req/s]  ours [M req/s]  ours / reference time")
    for label, ref, ours, ratio in rows:
        print(f"{label:<30}  {ref:19.2f}  {ours:14.2f}  {ratio:21.2f}")
    return t_plain


def _best_cpu(fn, repeat: int) -> tuple[float, float, int]:
    """``fn()`` run ``repeat`` times (warm page cache after the first): the fastest run's (wall [s], process CPU
    time, every thread [s], count). The machine is shared: CPU time is what the work costs, wall what it took."""
    best = None
    for _ in range(repeat):
        c = _cpu()
        wall, n = fn()
        run = (wall, _cpu() - c, n)
        best = run if best is None or run[0] < best[0] else best
    return best


def csv_readers(csv: Path, plain: Path, n: int, repeat: int) -> tuple[list, tuple[float, float]]:
    """The MSR CSV rows of ``--readers-only``, best of ``repeat`` each, in this run: gzip inflation alone (zlib,
    Arrow's zlib stream, ISA-L), Arrow's bare parse and our reader on the gzip and the plain file, their ratios of
    time, and the ceiling two cores put on a gzip CSV reader at the CPU each part measured here costs.

    Returns the rows of the summary table and (our plain-CSV time, the bare parse's) [s].
    """
    def load() -> str:
        return f"load {os.getloadavg()[0]:.2f}"

    inf = {}
    for name in ("zlib", "arrow", "isal"):
        inf[name] = _best_cpu(lambda name=name: inflate_only(csv, name), repeat)
        wall, cpu, nb = inf[name]
        print(f"gzip inflation alone ({name}{', stdlib gzip' if name == 'zlib' else ''}): {nb / wall / 1e6:.0f} MB/s "
              f"out = {n / wall / 1e6:.2f} M requests/s ({n / cpu / 1e6:.2f} M per CPU second; {load()})", flush=True)
    got = {}
    for label, path in (("MSR CSV, gzip", csv), ("MSR CSV, plain", plain)):
        ref = _best_cpu(lambda p=path: bare_arrow(p), repeat)
        ours = _best_cpu(lambda p=path: our_reader(p, "msr"), repeat)
        got[label] = (ref, ours)
        print(f"{label}: Arrow's bare parse {ref[2] / ref[0] / 1e6:.2f} M requests/s ({ref[2] / ref[1] / 1e6:.2f} M "
              f"per CPU s), ours {ours[2] / ours[0] / 1e6:.2f} M requests/s ({ours[2] / ours[1] / 1e6:.2f} M per CPU "
              f"s): {ours[0] / ref[0]:.2f}x the bare parse's time, {ours[1] / ref[1]:.2f}x its CPU time ({load()})",
              flush=True)
    ours_gz, (ref_pl, ours_pl) = got["MSR CSV, gzip"][1], got["MSR CSV, plain"]
    print(f"MSR CSV, gzip: ours {ours_gz[0] / inf['isal'][0]:.2f}x the time of ISA-L's inflation alone, "
          f"{ours_gz[0] / inf['zlib'][0]:.2f}x zlib's", flush=True)
    per_req = (inf["isal"][1] + ours_pl[1]) / n  # CPU [s] per request: inflate + our parse of the plain text
    print(f"ceiling on {os.cpu_count()} cores at these CPU costs (ISA-L inflation {inf['isal'][1] / n * 1e9:.0f} ns + "
          f"our parse {ours_pl[1] / n * 1e9:.0f} ns per request): {os.cpu_count() / per_req / 1e6:.2f} M requests/s "
          f"for a gzip MSR CSV; Arrow's bare parse alone {os.cpu_count() * n / ref_pl[1] / 1e6:.2f} M", flush=True)
    rows = [(label, ref[2] / ref[0] / 1e6, ours[2] / ours[0] / 1e6, ours[0] / ref[0])
            for label, (ref, ours) in got.items()]
    return rows, (ours_pl[0], ref_pl[0])


def oracle_stages(og: Path, repeat: int) -> None:
    """The oracleGeneral reader's stages beside the bare mapped column view (:func:`bare_view`), each the best of
    ``repeat`` warm rounds (wall and CPU time), in one table: the decode alone
    (:func:`~models.traces.formats.records.record_blocks`, the raw columns of every block, nothing kept) on one
    thread and split over the cores; the placement alone (:class:`~models.traces.formats.objects.ObjectSlots` over
    the decoded ids, in the reader's blocks, a new table each run) on one thread and with the look-ups shared by the
    cores; decode and placement one after the other, block by block, on one thread (the reader before the threads);
    and both end to end (the streamed read, a counting consumer) with the threads forced on (decode split and one
    block ahead of the placement) and as a read decides (threads only where a core is idle when it opens,
    :func:`~models.traces.formats.records.spare_core`): M records/s and the time over the bare view's."""
    from models.traces.formats import objects, records
    from models.traces.formats.objects import ObjectSlots
    from models.traces.formats.oracle import RECORD, _decode
    from models.traces.formats.records import record_blocks

    def threads(on: bool, fn):
        """``fn`` with the threads on or off whatever the load (:func:`~models.traces.formats.records.spare_core`)."""
        def run(path: Path) -> tuple[float, int]:
            keep = records.spare_core
            records.spare_core = objects.spare_core = lambda: on
            try:
                return fn(path)
            finally:
                records.spare_core = objects.spare_core = keep
        return run

    def decode(path: Path) -> tuple[float, int]:
        t, n = time.perf_counter(), 0
        with record_blocks(path, RECORD, _decode, fmt="oracleGeneral") as (_, blocks, _report):
            for cols, _records, _lo in blocks:
                n += len(cols["time_ns"])
        return time.perf_counter() - t, n

    with record_blocks(og, RECORD, _decode, fmt="oracleGeneral") as (_, blocks, _report):
        decoded = [{k: cols[k].copy() for k in ("meta:object_id", "size_bytes")} for cols, _r, _lo in blocks]

    def place(_path: Path) -> tuple[float, int]:
        t, slots = time.perf_counter(), ObjectSlots("oracleGeneral")
        for cols in decoded:
            slots.place(cols)
        return time.perf_counter() - t, sum(len(c["size_bytes"]) for c in decoded)

    def in_turn(path: Path) -> tuple[float, int]:
        t, n, slots = time.perf_counter(), 0, ObjectSlots("oracleGeneral")
        with record_blocks(path, RECORD, _decode, fmt="oracleGeneral") as (_, blocks, _report):
            for cols, _records, _lo in blocks:
                n += len(slots.place(cols)["offset_bytes"])
        return time.perf_counter() - t, n

    threads(True, decode)(og), place(og)  # warm: the compiled kernels loaded, the file in the page cache
    spare = records.spare_core()
    stages = (("bare mapped column view", bare_view), ("our decode alone, one thread", threads(False, decode)),
              (f"our decode alone, {records.cores()} cores", threads(True, decode)),
              ("our placement alone, one thread", threads(False, place)),
              (f"our placement alone, {records.cores()} cores", threads(True, place)),
              ("decode then placement, one thread", threads(False, in_turn)),
              (f"end to end, {records.cores()} cores + ahead", threads(True, lambda p: our_reader(p, "oracleGeneral"))),
              (f"end to end as read (threads {'on' if spare else 'off'})",
               lambda p: our_reader(p, "oracleGeneral")))
    best = {label: (float("inf"), float("inf"), 0) for label, _ in stages}
    loads = []
    for _ in range(repeat):  # the stages in turn each round: a burst of load on the shared machine hits them all
        for label, fn in stages:
            c = time.process_time()
            wall, n = fn(og)
            cpu = time.process_time() - c
            best[label] = (min(best[label][0], wall), min(best[label][1], cpu), n)
        loads.append(os.getloadavg()[0])
    ref_wall, ref_cpu, _ = best[stages[0][0]]
    print(f"oracleGeneral ({og.name}, best of {repeat} warm rounds; load (1 min) {min(loads):.2f} to {max(loads):.2f}; "
          "CPU: this process's CPU time, every thread, less sensitive to the machine's load than the wall)")
    print("stage                                     M records/s  time / bare's   M records/s (CPU)  CPU / bare's CPU")
    for label, (wall, cpu, n) in best.items():
        print(f"{label:<40}  {n / wall / 1e6:11.1f}  {wall / ref_wall:13.2f}  {n / cpu / 1e6:18.1f}  "
              f"{cpu / ref_cpu:16.2f}", flush=True)


def _write_og(path: Path, n: int) -> None:
    """``n`` generated oracleGeneral records (1 M distinct objects at most, seeded)."""
    from models.traces.formats.oracle import write_oracle_general

    rng = np.random.default_rng(1)
    with open(path, "wb") as fh:
        for s in range(0, n, 1_000_000):
            m = min(1_000_000, n - s)
            fh.write(write_oracle_general(np.arange(s, s + m) // 1000, rng.integers(0, 10**6, m),
                                          rng.integers(1, 10**5, m)))


def _cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def rss_sizes(tmp: Path, sizes: list[int]) -> None:
    """``trace-stats`` streamed over a generated gzip MSR CSV of each size, side by side; then the sampled
    statistics' error against the exact ones on the smallest size."""
    rows = []
    for n in sizes:
        csv = _msr_file(tmp, n)
        code = (f"from models.traces.stream_stats import stream_trace_stats\n"
                f"s, _ = stream_trace_stats({str(csv)!r})\nprint(s.requests, s.footprint_blocks)\n"
                f"print(s.percentiles)")
        wall, peak, out = _child(code)
        req, foot = out.splitlines()[0].split()
        method = out.splitlines()[1]
        rows.append((n, wall, peak, method))
        print(f"trace-stats streamed, {int(req):,} requests: {wall:.0f} s ({int(req) / wall / 1e6:.2f} M requests/s), "
              f"peak RSS (VmHWM) {peak:.0f} MB, footprint {int(foot):,} blocks, method: {method[:120]}", flush=True)
    print("requests      wall [s]  peak RSS [MB]  method")
    for n, wall, peak, method in rows:
        print(f"{n:>12,}  {wall:8.0f}  {peak:13.0f}  {method.split(':')[0]}"
              + (f" ({method.split('rate ')[1].split(' ')[0]})" if "rate " in method else ""))
    from models.budget import limit
    from models.traces.stream_stats import stream_trace_stats

    csv = tmp / f"msr_{min(sizes)}.csv.gz"
    with limit(0):  # no budget: the exact state whatever it takes
        exact, _ = stream_trace_stats(str(csv))
    for rate in (1 / 4, 1 / 16):
        with limit(0):
            est, _ = stream_trace_stats(str(csv), sample_rate=rate)
        errs = {k: getattr(est, k) / getattr(exact, k) - 1 for k in (
            "footprint_blocks", "blocks_accessed_once", "reuses", "reuse_distance_mean_accesses",
            "reuse_distance_p50_accesses", "reuse_distance_p90_accesses", "reuse_time_mean_ns", "reuse_time_p50_ns")}
        print(f"sampled at rate {rate:g} vs exact on {exact.requests:,} requests (relative error): "
              + ", ".join(f"{k} {v:+.2%}" for k, v in errs.items()), flush=True)


def _msr_file(tmp: Path, n: int) -> Path:
    """The generated gzip MSR CSV of ``n`` requests in ``tmp`` (made once, kept for the next run)."""
    csv = tmp / f"msr_{n}.csv.gz"
    if not csv.exists():
        t = time.perf_counter()
        write_msr_csv(csv, n, compress=True)
        print(f"generated {csv.name}: {csv.stat().st_size / 1e6:.0f} MB gzip in {time.perf_counter() - t:.0f} s",
              flush=True)
    return csv


def _plan_child(csv: Path, out: Path, *, streamed: bool, collecting: bool) -> tuple[float, float]:
    """``pcm-planner plan`` of ``csv`` (block roles, one device) in a child: (wall [s], its peak RSS [MB]);
    ``streamed``: the in-memory byte limit at 0 (every file streamed), else out of the way (in memory while the
    request limit and the budget allow)."""
    code = (f"import os\nos.environ[{'PCM_TEST_COLLECTING_STREAMS'!r}] = {'1' if collecting else '0'!r}\n"
            f"from models.planner import stream_plan\n"
            f"stream_plan.IN_MEMORY_MAX_BYTES = {0 if streamed else 1 << 62}\n"
            f"from cli.main import main\n"
            f"main(['plan', '--block-trace', {str(csv)!r}, '--device', 'pcm-samsung-20nm', '--csv', {str(out)!r}, "
            f"'--no-progress'])\n")
    wall, peak, _ = _child(code)
    return wall, peak


def plan_sizes(tmp: Path, sizes: list[int], *, compare: bool, force_stream: bool, collecting: bool) -> None:
    """``pcm-planner plan`` over a generated gzip MSR CSV of each size, side by side (see the module docstring)."""
    import pandas as pd

    from models.budget import budget_bytes
    from models.planner.stream_plan import IN_MEMORY_MAX_BYTES
    from models.traces.source import PARSED_REQUEST_BYTES

    block = ["file-cache", "write-cache", "storage"]
    table = []
    for n in sizes:
        csv = _msr_file(tmp, n)
        fits = not budget_bytes() or n * PARSED_REQUEST_BYTES <= budget_bytes()  # its whole read within the budget
        modes = (["in memory"] if compare and fits else []) + ["streamed"]
        got = {}
        for mode in modes:
            out = tmp / f"plan_{n}_{mode.replace(' ', '')}.csv"
            streamed = mode == "streamed" and (force_stream or csv.stat().st_size > IN_MEMORY_MAX_BYTES)
            wall, peak = _plan_child(csv, out, streamed=streamed, collecting=collecting)
            df = pd.read_csv(out)
            df = df[df.role.isin(block)].reset_index(drop=True)
            got[mode] = df
            how = "streamed" if df.reason.str.contains("streamed in two passes", regex=False).any() else "in memory"
            used, read = df.requests_used.max(), df.requests_read.max()
            verdicts = ", ".join(f"{r.role} {r.verdict}" + (f" {r.value:.3g}x" if r.value == r.value else "")
                                 for r in df.itertuples())
            table.append((n, mode, how, wall, peak, used, read))
            print(f"plan, {n:,} requests ({mode}): {wall:.0f} s ({n / wall:,.0f} requests/s end to end), "
                  f"peak RSS (VmHWM) {peak:.0f} MB, {how}, requests used {used:,.0f} of {read:,.0f}; {verdicts}",
                  flush=True)
        if len(got) == 2:
            a, b = got["in memory"], got["streamed"]
            same = (a.verdict == b.verdict).all()
            rel = ((a.value - b.value).abs() / a.value.abs()).max()
            print(f"plan, {n:,} requests: streamed vs in memory: verdicts equal {same}, largest relative "
                  f"difference of the values {rel:.2e}", flush=True)
    print("requests      mode        read as     wall [s]  peak RSS [MB]  used / read")
    for n, mode, how, wall, peak, used, read in table:
        print(f"{n:>12,}  {mode:<10}  {how:<10}  {wall:8.0f}  {peak:13.0f}  {used:,.0f} / {read:,.0f}")


def stats_children(path: Path, in_memory: bool) -> tuple[float, float]:
    if in_memory:
        code = (f"from models.traces import load; from models.traces.stats import trace_stats; "
                f"print(trace_stats(load({str(path)!r})).requests)")
    else:
        code = f"from cli.main import main; main(['trace-stats', {str(path)!r}, '--no-progress'])"
    wall, peak_mb, _ = _child(code)  # the child's own peak (VmHWM), not the largest child's so far
    return wall, peak_mb


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=10_000_000)
    ap.add_argument("--skip-in-memory", action="store_true", help="skip the in-memory trace-stats run")
    ap.add_argument("--dir", default=None, help="work folder (default: a temporary one)")
    ap.add_argument("--rss-only", action="store_true", help="only the --rss-sizes runs (no reader or oracleGeneral "
                                                              "timing)")
    ap.add_argument("--rss-sizes", default="", help="comma-separated request counts: trace-stats streamed over "
                                                       "each, side by side (e.g. 10000000,100000000)")
    ap.add_argument("--plan-sizes", default="", help="comma-separated request counts: pcm-planner plan (block roles) "
                                                        "over each, side by side (e.g. 10000000,100000000)")
    ap.add_argument("--plan-only", action="store_true", help="only the --plan-sizes runs")
    ap.add_argument("--plan-compare", action="store_true", help="also plan each size in memory (up to the request "
                                                                  "limit) and compare the rows")
    ap.add_argument("--plan-force-stream", action="store_true", help="stream files under the in-memory byte limit too")
    ap.add_argument("--plan-collecting", action="store_true",
                    help="roles without a stream class use the in-memory reference stream (memory grows with the "
                         "trace: small sizes only)")
    ap.add_argument("--readers-only", action="store_true",
                    help="only the readers beside their references, best of --repeat: MSR CSV gzip and plain vs "
                         "Arrow's bare parse, gzip inflation alone, oracleGeneral vs the bare mapped column view")
    ap.add_argument("--og-requests", type=int, default=10_000_000, help="oracleGeneral records in --readers-only")
    ap.add_argument("--og-file", default=None, help="the oracleGeneral file of --readers-only (default: generated, "
                                                     "--og-requests records, in --dir)")
    ap.add_argument("--og-only", action="store_true", help="--readers-only: the oracleGeneral stages only")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each timing in --readers-only (the best is kept)")
    a = ap.parse_args()
    print(f"load average before: {os.getloadavg()}", flush=True)
    tmp = Path(a.dir or tempfile.mkdtemp(prefix="bench_stream_"))
    tmp.mkdir(parents=True, exist_ok=True)
    if a.readers_only:
        warm = tmp / "warm.csv.gz"  # first calls import their modules and load the compiled kernels
        write_msr_csv(warm, 1000, compress=True)
        bare_arrow(warm)
        our_reader(warm, "msr")
        og = Path(a.og_file) if a.og_file else tmp / f"trace_{a.og_requests}.oracleGeneral"
        if not og.exists():
            _write_og(og, a.og_requests)
        oracle_stages(og, max(1, a.repeat))
        if a.og_only:
            print(f"load average after: {os.getloadavg()}")
            return
        t_ours, t_ref = readers(tmp, a.requests, max(1, a.repeat))
        print(f"load average after: {os.getloadavg()}")
        print_ratio(t_ours, t_ref)
        return
    if a.plan_only:
        plan_sizes(tmp, [int(x) for x in a.plan_sizes.split(",")], compare=a.plan_compare,
                   force_stream=a.plan_force_stream, collecting=a.plan_collecting)
        print(f"load average after: {os.getloadavg()}")
        return
    if a.rss_only:
        rss_sizes(tmp, [int(x) for x in a.rss_sizes.split(",")])
        print(f"load average after: {os.getloadavg()}")
        return
    csv = tmp / f"msr_{a.requests}.csv.gz"
    if not csv.exists():
        t = time.perf_counter()
        write_msr_csv(csv, a.requests, compress=True)
        print(f"generated {csv.name}: {csv.stat().st_size / 1e6:.0f} MB gzip in {time.perf_counter() - t:.0f} s")
    warm = tmp / "warm.csv.gz"  # first calls import their modules: not part of a parse's time
    write_msr_csv(warm, 1000, compress=True)
    bare_arrow(warm)
    our_reader(warm, "msr")
    c = _cpu()
    t_arrow, n = bare_arrow(csv)
    c_arrow = _cpu() - c
    print(f"bare pyarrow.csv parse: {n:,} requests in {t_arrow:.1f} s = {n / t_arrow / 1e6:.2f} M requests/s "
          f"({c_arrow:.1f} CPU s)", flush=True)
    c = _cpu()
    t_ours, n2 = our_reader(csv, "msr")
    c_ours = _cpu() - c
    print(f"our MSR reader: {n2:,} requests in {t_ours:.1f} s = {n2 / t_ours / 1e6:.2f} M requests/s "
          f"({c_ours:.1f} CPU s; {t_ours / t_arrow:.2f}x the bare parse's time, {c_ours / c_arrow:.2f}x its CPU time)",
          flush=True)
    wall, rss = stats_children(csv, in_memory=False)
    print(f"trace-stats streamed: {wall:.1f} s, peak RSS {rss:.0f} MB", flush=True)
    if not a.skip_in_memory:
        wall_m, rss_m = stats_children(csv, in_memory=True)
        print(f"trace-stats in memory: {wall_m:.1f} s, peak RSS {rss_m:.0f} MB",
              flush=True)
    og = tmp / "trace.oracleGeneral"
    _write_og(og, a.requests)
    t_view, _ = bare_view(og)
    t_og, n3 = our_reader(og, "oracleGeneral")
    print(f"oracleGeneral reader (memory-mapped, objects placed): {n3:,} requests in {t_og:.1f} s = "
          f"{n3 / t_og / 1e6:.2f} M requests/s ({t_og / t_view:.1f}x the bare mapped column view's time, "
          f"{n3 / t_view / 1e6:.0f} M records/s)", flush=True)
    if a.rss_sizes:
        rss_sizes(tmp, [int(x) for x in a.rss_sizes.split(",")])
    if a.plan_sizes:
        plan_sizes(tmp, [int(x) for x in a.plan_sizes.split(",")], compare=a.plan_compare,
                   force_stream=a.plan_force_stream, collecting=a.plan_collecting)
    print(f"load average after: {os.getloadavg()}")
    print_ratio(t_ours, t_arrow)


if __name__ == "__main__":
    main()
