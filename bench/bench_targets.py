"""Benchmark: spec targets (issue 37 item 5) -- 5 specs x 5 roles on a 1M-request trace.

Measured in the same run, after a warm-up on a small slice that compiles the numba kernels:

1. **fast**: :mod:`models.planner.targets` on one device (``pcm-samsung-20nm``): the roles' counts
   simulated once (:mod:`models.planner.retime`: file-cache, storage and write-cache on a 1M-request
   Fin1-like synthetic block trace, paging and memory-extension on a 1M-reference lackey trace), then
   the break-even of each of the 5 specs for each of the 5 roles (:func:`models.planner.targets.row_targets`);
   the number of value evaluations each root find made is counted. The break-evens carry their uncertainty bands
   (:mod:`models.planner.target_bands`: two corners of the provenance ranges, root-found near the point); the
   same targets without bands are timed too (``fast`` line, in brackets).
2. **naive** (extrapolated, said so): the same root finds with a full rerun of the role's plan evaluator
   (``file_cache_rows``, ``block_storage_rows``, ``write_cache_rows``, ``memory_rows``: simulation included)
   per evaluation. One rerun per role is timed on the same traces (a few steps, not the whole loop) and
   multiplied by the number of evaluations the fast path made for that role; ``memory_rows`` computes both
   memory roles, so its time is split evenly between them.

``endurance_writes_per_cell`` and ``price_usd_per_GB`` are closed form from the plan row's economics columns
(:func:`models.planner.targets.economic_break_even`); this bench runs no plan, so those two specs answer "needs
data: the plan's economics" here and cost nothing: the 25 targets timed are 15 root finds plus 10 of those.

The last line is ``ratio: N`` = naive (extrapolated) / fast.

  .venv/bin/python bench/bench_targets.py [--requests 1000000] [--refs 1000000]
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from _common import print_ratio

from models import traces
from models.devices import get_device
from models.planner.retime import block_retimers, memory_retimers
from models.planner.role_file_cache import file_cache_rows
from models.planner.role_memory import memory_rows
from models.planner.role_storage import block_storage_rows
from models.planner.role_write_cache import write_cache_rows
from models.planner.targets import SPECS, row_targets
from models.planner.workloads import PlanWorkload
from models.traces.synthetic import preset


def _counting(rt, counts, spent):
    def values(vs, f=rt.values, role=rt.role):
        counts[role] = counts.get(role, 0) + len(vs)
        t = time.perf_counter()
        out = f(vs)
        spent[role] = spent.get(role, 0.0) + time.perf_counter() - t
        return out

    return dataclasses.replace(rt, values=values)


def fast(tr, mt, dev, bands=True):
    counts: dict[str, int] = {}
    spent: dict[str, float] = {}
    t0 = time.perf_counter()
    rts = block_retimers("block", tr, [dev], None) + memory_retimers("mem", mt, [dev], None)
    t_build = time.perf_counter() - t0
    rows = []
    for rt in rts:
        rows += row_targets(_counting(rt, counts, spent), specs=tuple(SPECS), bands=bands)
    return time.perf_counter() - t0, t_build, counts, spent, rows


def naive_step_s(tr, mt, dev) -> dict[str, float]:
    """One full rerun of each role's plan evaluator with a variant device [s]."""
    v = dev.with_updates(name="variant", write_latency_ns=dev.write_latency_ns * 1.1)
    w = PlanWorkload(name="b", kind="block", source="bench")
    out = {}
    for role, f in (("file-cache", lambda: file_cache_rows(w, tr, [v], None, None)),
                    ("storage", lambda: block_storage_rows(w, tr, [v], None, None)),
                    ("write-cache", lambda: write_cache_rows(w, tr, [v], None, None))):
        t = time.perf_counter()
        f()
        out[role] = time.perf_counter() - t
    t = time.perf_counter()
    memory_rows(w, mt, [v], None, None, lambda: None)
    out["paging"] = out["memory-extension"] = (time.perf_counter() - t) / 2
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=1_000_000)
    ap.add_argument("--refs", type=int, default=1_000_000)
    args = ap.parse_args()
    dev = get_device("pcm-samsung-20nm")
    tr = preset("fin1", args.requests, seed=0, scale=0.05)
    mt = traces.load("lackey:lulesh", kind="memory", max_requests=args.refs)
    fast(tr.subset(slice(0, 5000)), mt.subset(slice(0, 20000)) if hasattr(mt, "subset") else mt, dev)  # warm-up
    t_point = fast(tr, mt, dev, bands=False)[0]
    t_fast, t_build, counts, spent, rows = fast(tr, mt, dev)
    print(f"trace: {len(tr):,} block requests, {len(mt):,} memory references; device {dev.name}")
    print(f"fast: {t_fast:.2f} s for {len(rows)} targets (5 specs x {len(rows) // 5} roles); simulate-once part "
          f"{t_build:.2f} s (the simulations the plan itself runs), root finding {t_fast - t_build:.2f} s, with the "
          f"uncertainty bands (without them, same run: {t_point:.2f} s)")
    print("  value evaluations per role: " + ", ".join(f"{r} {counts[r]} ({spent[r]:.2f} s)" for r in counts))
    step = naive_step_s(tr, mt, dev)
    naive = sum(step[r] * counts.get(r, 0) for r in step)
    print("naive (extrapolated: one full rerun per role timed, x the evaluations above): "
          + ", ".join(f"{r} {step[r]:.3f} s x {counts.get(r, 0)}" for r in step) + f" = {naive:.1f} s")
    print_ratio(naive, t_fast, 1)


if __name__ == "__main__":
    main()
