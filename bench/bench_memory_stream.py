"""A plan's memory trace streamed in two passes (issue 41): peak RSS and wall of ``pcm-planner plan --mem-trace``
streamed at the default budget against the same plan read whole in memory (a large ``--memory-budget``).

On a generated memory trace of ``--refs`` references (default 30 M: :func:`models.traces.synthetic.mem_trace`, 60 %
instruction fetches, 256 MiB of data lines, written with ``save_memtrace_npz``; or ``--trace FILE``), runs in a child
process each:

- ``--mem-refs 1000``: the fixed cost of the run;
- streamed: the default budget, ``IN_MEMORY_MAX_BYTES`` set to 0 in the child so that any trace streams
  (``models.planner.stream_memory``; a file over the limit, or a whole read refused by the budget, streams anyway);
- whole: ``--memory-budget --whole-budget`` (default 4GB) with ``IN_MEMORY_MAX_BYTES`` lifted in the child, as before
  the streamed path existed.

Prints wall [s] and the child's peak RSS (VmHWM) [MB] of each, and whether the paging rows of the streamed and the
whole plans are equal (their reasons but for ``(streamed in two passes)``). Last line ``ratio:``: the streamed plan's
wall over the whole plan's. The whole plan also runs the memory-extension role in memory; the streamed one runs it
only when its stream (``MEMORY_STREAM_ROLES``) is available, so the wall ratio is said with the roles each ran.
The machine is shared: the load average is printed.

``--paging-only``: the paging role's own work in this process, best of ``--repeat``: the two passes of
:class:`models.memory.paging_stream.PagingStream` over chunks of ``--chunk`` references (each pass timed) against
:func:`models.memory.paging.paging_profile` of the whole trace (4 KiB pages, the plan's memory fraction), and whether
the two profiles are equal (LRU hits at every size, CLOCK faults). Last line ``ratio:``: the streamed passes over the
in-memory profile.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import PEAK_RSS_CODE, ROOT, print_ratio

PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(ROOT / ".numba_cache")}


def _plan(trace: str, *extra: str, whole: bool = False) -> tuple[float, float, str]:
    """``plan`` of ``trace`` in a child: (wall [s], peak RSS [MB], the CSV)."""
    args = ["plan", "--mem-trace", trace, "--device", "pcm-samsung-20nm", "--device", "optane-dcpmm",
            "--format", "csv", *extra]
    code = ("import io, contextlib\nfrom models.planner import stream_plan\n"
            f"stream_plan.IN_MEMORY_MAX_BYTES = {1 << 62 if whole else 0}\n"
            "from cli.main import main\nbuf = io.StringIO()\n"
            f"with contextlib.redirect_stdout(buf): rc = main({args!r})\n"
            "print('@@CSV@@' + buf.getvalue() + '@@END@@')\n")
    t = time.perf_counter()
    out = subprocess.run([PY, "-c", code + PEAK_RSS_CODE], env=ENV, capture_output=True, text=True).stdout
    wall = time.perf_counter() - t
    csv = out.split("@@CSV@@", 1)[-1].split("@@END@@", 1)[0] if "@@CSV@@" in out else ""
    vals = dict(ln.split("=", 1) for ln in out.splitlines() if ln.startswith("peak_rss_bytes="))
    return wall, float(vals.get("peak_rss_bytes", "nan")) / 1e6, csv


def _paging(csv: str):
    import pandas as pd

    if not csv.strip():
        return None
    df = pd.read_csv(io.StringIO(csv))
    p = df[df.role == "paging"].reset_index(drop=True)
    p["reason"] = p.reason.str.replace(" (streamed in two passes)]", "]", regex=False)
    return p


def _evaluated(csv: str) -> str:
    import pandas as pd

    if not csv.strip():
        return "none"
    df = pd.read_csv(io.StringIO(csv))
    got = df[df.role.isin(["paging", "memory-extension"]) & df.value.notna()]
    how = " (streamed in two passes)" if got.reason.str.contains("(streamed in two passes)", regex=False).all() else ""
    return (", ".join(sorted(set(got.role))) or "none") + how


def _paging_only(path: str, chunk: int, repeat: int) -> None:
    """Time the paging stream's two passes against the in-memory profile (see the module docstring)."""
    from _common import timed

    from models.memory.paging import PagingInputs, paging_profile
    from models.memory.paging_stream import PagingStream
    from models.provenance import param
    from models.traces.formats.npz import read_memtrace_npz

    t = read_memtrace_npz(path)
    frac = float(param("planner.paging_memory_fraction").value)
    cols = {"address": t.address, "size": t.size, "kind": t.kind}
    parts = [{k: v[i:i + chunk] for k, v in cols.items()} for i in range(0, len(t), chunk)]
    s = PagingStream(frac)

    def first():
        s.__init__(frac)
        for c in parts:
            s.first(c)
        s.end_first()

    def second():
        first()
        t0 = time.perf_counter()
        for c in parts:
            s.second(c)
        return time.perf_counter() - t0

    w1, _ = timed(first, repeat=repeat)
    w2 = min(second() for _ in range(repeat))
    got = s.profile()
    wm, want = timed(paging_profile, t, PagingInputs(page_sizes_bytes=(4096,), memory_fraction=(frac,)), repeat=repeat)
    a, b = got.pages[4096], want.pages[4096]
    same = bool(np.array_equal(a.lru_hits, b.lru_hits)) and a.clock_faults == b.clock_faults
    print(f"{got.n_refs:,} data references, {a.footprint_pages:,} pages; chunks of {chunk:,} references")
    print(f"streamed: first pass {w1:.3f} s, second pass {w2:.3f} s; in memory: {wm:.3f} s (best of {repeat})")
    print(f"profiles streamed == in memory: {same}")
    print(f"load average after: {os.getloadavg()}")
    print_ratio(w1 + w2, wm)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--refs", type=int, default=30_000_000, help="references of the generated trace (default 30 M)")
    ap.add_argument("--trace", default=None, help="a memory trace file instead of the generated one")
    ap.add_argument("--whole-budget", default="4GB", help="--memory-budget of the whole plan (default 4GB)")
    ap.add_argument("--no-whole", action="store_true", help="skip the plan read whole in memory")
    ap.add_argument("--paging-only", action="store_true",
                    help="time the paging stream's passes against the in-memory profile, in this process")
    ap.add_argument("--chunk", type=int, default=1 << 20, help="references per chunk of --paging-only (default 2**20)")
    ap.add_argument("--repeat", type=int, default=3, help="best of N of --paging-only (default 3)")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as d:
        path = args.trace
        if path is None:
            from models.traces.formats.npz import save_memtrace_npz
            from models.traces.synthetic import mem_trace

            path = str(Path(d) / f"mem_{args.refs}.npz")
            t = mem_trace(args.refs, data_bytes=256 << 20, seed=1)
            save_memtrace_npz(path, t.address, t.kind, t.size)
            del t
        print(f"trace: {path} ({os.path.getsize(path) / 1e6:.1f} MB)")
        if args.paging_only:
            return _paging_only(path, args.chunk, args.repeat)
        w0, p0, _ = _plan(path, "--mem-refs", "1000")
        print(f"--mem-refs 1000: {w0:.1f} s, {p0:.0f} MB")
        ws, ps, cs = _plan(path)
        print(f"streamed (default budget): {ws:.1f} s, {ps:.0f} MB; roles evaluated: {_evaluated(cs)}")
        if args.no_whole:
            return
        ww, pw, cw = _plan(path, "--memory-budget", args.whole_budget, whole=True)
        print(f"whole (--memory-budget {args.whole_budget}): {ww:.1f} s, {pw:.0f} MB; roles evaluated: "
              f"{_evaluated(cw)}")
        a, b = _paging(cs), _paging(cw)
        same = a is not None and b is not None and a.equals(b)
        print(f"paging rows streamed == whole: {same}")
    print(f"load average after: {os.getloadavg()}")
    print_ratio(ws, ww)


if __name__ == "__main__":
    main()
