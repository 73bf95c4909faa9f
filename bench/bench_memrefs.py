"""A plan's memory trace used whole (issue 41): peak RSS and wall of ``pcm-planner plan --mem-trace`` per reference.

For a bundled memory trace (``--bundled``, default ``lackey:xz``, 10 M references) and a generated one of ``--refs``
references (default 10 M: :func:`models.traces.synthetic.mem_trace` written with ``save_memtrace_npz``), runs the
plan (paging and memory-extension roles, two devices) in a child process each:

- at 1,000 references (``--mem-refs 1000``): the fixed cost of the run, the reference;
- at the old default cut (``--mem-refs 2000000``);
- whole (the default now), with ``--memory-budget`` large enough for the trace when ``--budget`` is given.

Prints wall [s], the child's peak RSS (VmHWM) [MB] and the bytes per reference above the 1,000-reference run, beside
:data:`models.planner.memory_read.BYTES_PER_REFERENCE` (the figure the budget charges). Last line ``ratio:``: the
whole plan's wall over the cut plan's, on the generated trace. The machine is shared: the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from _common import PEAK_RSS_CODE, ROOT, print_ratio

PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(ROOT / ".numba_cache")}
OLD_DEFAULT = 2_000_000  # the --mem-refs default before issue 41


def _plan(trace: str, *extra: str) -> tuple[float, float, int]:
    """``plan`` of ``trace`` in a child: (wall [s], peak RSS [MB], references used)."""
    import subprocess

    args = ["plan", "--mem-trace", trace, "--device", "pcm-samsung-20nm", "--device", "optane-dcpmm",
            "--format", "json", *extra]
    code = ("import json, io, contextlib\nfrom cli.main import main\nbuf = io.StringIO()\n"
            f"with contextlib.redirect_stdout(buf): rc = main({args!r})\n"
            "rows = json.loads(buf.getvalue() or '[]')\n"
            "print('used=' + str(max((r.get('requests_used') or 0) for r in rows) if rows else 0))\n")
    t = time.perf_counter()
    out = subprocess.run([PY, "-c", code + PEAK_RSS_CODE], env=ENV, capture_output=True, text=True).stdout
    wall = time.perf_counter() - t
    vals = dict(ln.split("=", 1) for ln in out.splitlines() if "=" in ln)
    return wall, float(vals.get("peak_rss_bytes", "nan")) / 1e6, int(float(vals.get("used", 0) or 0))


def _row(label: str, trace: str, budget: str | None) -> tuple[float, float]:
    from models.planner.memory_read import BYTES_PER_REFERENCE

    w0, p0, _ = _plan(trace, "--mem-refs", "1000")
    wc, pc, nc = _plan(trace, "--mem-refs", str(OLD_DEFAULT))
    ww, pw, nw = _plan(trace, *(["--memory-budget", budget] if budget else []))
    print(f"{label}: 1,000 refs {w0:.1f} s {p0:.0f} MB | old default cut {nc:,} refs {wc:.1f} s {pc:.0f} MB "
          f"({(pc - p0) * 1e6 / max(nc - 1000, 1):.0f} B/ref) | whole {nw:,} refs {ww:.1f} s {pw:.0f} MB "
          f"({(pw - p0) * 1e6 / max(nw - 1000, 1):.0f} B/ref; charged {BYTES_PER_REFERENCE} B/ref)")
    return wc, ww


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bundled", default="lackey:xz", help="bundled memory trace (default lackey:xz)")
    ap.add_argument("--refs", type=int, default=10_000_000, help="references of the generated trace")
    ap.add_argument("--budget", default="3GB", help="--memory-budget of the whole runs (default 3GB)")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    _row(args.bundled, args.bundled, args.budget)
    from models.traces.formats.npz import save_memtrace_npz
    from models.traces.synthetic import mem_trace

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"mem_{args.refs}.npz"
        t = mem_trace(args.refs, data_bytes=256 << 20, seed=1)
        save_memtrace_npz(path, t.address, t.kind, t.size)
        del t
        wc, ww = _row(f"generated {args.refs:,}", str(path), args.budget)
    print(f"load average after: {os.getloadavg()}")
    print_ratio(ww, wc)


if __name__ == "__main__":
    main()
