"""The memory extension's one replay loop (``models.memory.memory_extension._memext_resume``): the whole-stream path
(:func:`~models.memory.memory_extension.simulate_memext`) against the resumable one
(:class:`~models.memory.memory_extension.MemExtRun`, the streamed planner's) on the same page stream.

On the bundled ``lackey:xz`` trace's page stream (``--trace``; its first ``--references``, default 10 M,
instruction fetches dropped), after a warm-up call that compiles the kernel, for each configuration (the default
one, with the bounded eviction buffer, so the dedicated kernel runs; the age policy with stride prefetching), best
of ``--repeat`` (default 3) of:

- whole: ``simulate_memext(stream, cfg, use_sim_kernels=False)``;
- resumable, one piece: ``MemExtRun(...).feed(ids, is_write)`` (the kernel and ``feed``'s id check);
- resumable, ``--piece`` references at a time (default 1 M), as the streamed planner feeds its chunks.

Both run the same compiled loop, so the resumable path costs only its id check and the calls per piece; the results
must be equal (asserted). Prints wall and CPU time (this thread's, less disturbed by the shared machine's other
processes) [ms] of each and the load average before and after. Last line ``ratio:``: the resumable path in pieces
over the whole-stream path (wall, default configuration); before the loops were folded into one (2026-12-05) the
resumable kernel alone took ~1.3-1.5x the whole-stream kernel's time here.

  .venv/bin/python bench/bench_memext_resume.py [--references 10000000] [--piece 1000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from _common import print_ratio

from models.memory import memory_extension as me
from models.traces.loader import load

CONFIGS = {"default": {}, "age + prefetch d=4": {"policy": "age", "age_max": 3, "prefetch_depth": 4}}


def _best(repeat: int, f, *a) -> tuple[float, float, object]:
    """Best wall [s] and best CPU time of this thread [s] of ``repeat`` calls of ``f(*a)``, and its last result."""
    wall, cpu, out = float("inf"), float("inf"), None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.thread_time()
        out = f(*a)
        cpu = min(cpu, time.thread_time() - c)
        wall = min(wall, time.perf_counter() - w)
    return wall, cpu, out


def _whole(s, cfg):
    return me.simulate_memext(s, cfg, use_sim_kernels=False)


def _resumable(s, cfg, piece: int):
    run = me.MemExtRun(s.vpn, cfg, use_sim_kernels=False)
    for a in range(0, len(s), piece):
        run.feed(s.ids[a:a + piece], s.is_write[a:a + piece])
    return run.result()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trace", default="lackey:xz", help="a memory trace (bundled name or file; default lackey:xz)")
    ap.add_argument("--references", type=int, default=10_000_000, help="references used (default 10 M)")
    ap.add_argument("--piece", type=int, default=1_000_000, help="references per piece of the resumable run")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs (default 3)")
    args = ap.parse_args(argv)
    s = me.page_stream(load(args.trace, kind="memory", max_requests=args.references))
    print(f"{args.trace}: {len(s):,} references, {s.footprint_pages:,} pages; load average before: {os.getloadavg()}")
    small = me.PageStream(s.ids[:1000].copy(), s.vpn, s.is_write[:1000].copy())
    ratio = None
    for name, kw in CONFIGS.items():
        cfg = me.MemExtConfig(**kw)
        _whole(small, cfg)  # compile
        _resumable(small, cfg, 100)
        tw, cw, whole = _best(args.repeat, _whole, s, cfg)
        t1, c1, one = _best(args.repeat, _resumable, s, cfg, len(s))
        tp, cp, pieces = _best(args.repeat, _resumable, s, cfg, args.piece)
        assert whole == one == pieces, "the resumable path disagrees with the whole-stream path"
        print(f"{name}: whole {tw * 1e3:.0f} ms (CPU {cw * 1e3:.0f}); resumable one piece {t1 * 1e3:.0f} ms "
              f"(CPU {c1 * 1e3:.0f}, x{c1 / cw:.2f}); {args.piece:,}-reference pieces {tp * 1e3:.0f} ms "
              f"(CPU {cp * 1e3:.0f}, x{cp / cw:.2f}); {len(s) / cw / 1e6:.0f} M refs/s whole (CPU)")
        if ratio is None:
            ratio = (tp, tw)
    print(f"load average after: {os.getloadavg()}")
    print_ratio(*ratio)
    return 0


if __name__ == "__main__":
    sys.exit(main())
