"""The error of a plan's block roles evaluated from a SHARDS sample of the blocks, measured (issue 41).

A streamed file-cache or storage role whose exact per-block state passes its share of the memory budget falls back
to a spatial sample of the 4 KiB blocks (:class:`models.traces.block_table.BlockTable`). This bench runs the exact
and the sampled streams (:class:`~models.planner.role_file_cache.FileCacheStream`,
:class:`~models.planner.role_storage.StorageReplayStream`) over the same chunks of traces where the exact state fits
-- the generated MSR CSV ``--msr`` (default ``/tmp/rdr/m2.csv.gz``, 2 M requests: ``bench/_gen_msr.py``) and the
bundled real block traces -- at forced rates ``1/2 .. 1/64`` (the table halved before the first chunk) and writes,
per trace, role, metric and rate, the error against the exact rows:

- file cache: the LRU hit ratio (absolute error), the footprint, the value (baseline / device time) and the share of
  blocks reused past n* (relative error; the share absolute);
- storage: the footprint (relative; the replay is exact at any rate) and the value (relative).

Output: ``data/measurements/plan_sampling_error.csv`` (``--out``), read by
:func:`models.planner.sampling_error.error_text` (the bound a sampled row says). About 5 minutes on 2 shared cores.
Run from the repository root: ``PYTHONPATH=. python bench/bench_plan_sampling.py``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

RATES = [2.0**-k for k in range(1, 7)]
DEVICE = "pcm-samsung-20nm"
REAL = ("mqsim:tpcc-small", "mqsim:wsrch-small", "disksim:cheetah4LP", "disksim:atlas10k")


def _run(streams_cls, tr, rate, devs, chunk):
    """Both passes of ``streams_cls`` (file cache, storage) sharing one table, the table sampled at ``rate``."""
    from models.planner.role_stream import trace_chunks

    fc, sr = streams_cls[0](), streams_cls[1](devs, None)
    sr.block_table = fc.block_table
    k = int(round(-math.log2(rate)))
    for _ in range(k):
        fc.block_table.downsample("forced by the bench")
    for c in trace_chunks(tr, [chunk]):
        fc.first(c)
        sr.first(c)
    meta = dict(tr.meta)
    fc.end_first(meta, 0)
    sr.end_first(meta, 0)
    for c in trace_chunks(tr, [chunk]):
        fc.second(c)
        sr.second(c)
    return fc, sr


def _facts(fc, sr, w, tr, devs):
    """What the rows read from the streams: hit ratio of the (sampled) accesses, footprint, values, the share of
    blocks reused past n*."""
    from models.storage import file_cache_sim as fcs

    t = fc.block_table
    frow = next(r for r in fc.rows(w, tr, devs, None, None) if r["device"] == DEVICE)
    srow = next(r for r in sr.rows(w, tr, devs, None, None) if r["device"] == DEVICE)
    kept = t.sampled_accesses
    share = fcs.break_even_of_histogram(fcs.reuse_histogram_of_counts(t.counts), devs[0]).share_blocks
    return {"hit_ratio": fc._lru_result.hits / kept if kept else math.nan, "footprint": t.footprint_blocks,
            "file_cache_value": frow["value"], "storage_value": srow["value"], "break_even_share": float(share)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--msr", default="/tmp/rdr/m2.csv.gz", help="generated MSR CSV (gzip) where exact fits")
    ap.add_argument("--real", default=",".join(REAL), help="bundled block traces, comma-separated")
    ap.add_argument("--chunk", type=int, default=200_000, help="requests per chunk")
    ap.add_argument("--out", default="data/measurements/plan_sampling_error.csv")
    a = ap.parse_args(argv)

    from models import traces
    from models.budget import limit
    from models.devices import get_device
    from models.planner.plan import workload_from_path
    from models.planner.role_file_cache import FileCacheStream
    from models.planner.role_storage import StorageReplayStream

    devs = [get_device(DEVICE)]
    names = [x for x in a.real.split(",") if x] + ([a.msr] if a.msr and os.path.exists(a.msr) else [])
    rows = []
    print(f"load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
    with limit(0):  # exact state, whatever its size (the traces are chosen so that it fits)
        for name in names:
            t0 = time.perf_counter()
            tr = traces.load(name, kind="block")
            w = workload_from_path(name)
            label = os.path.basename(name)
            ex = _facts(*_run((FileCacheStream, StorageReplayStream), tr, 1.0, devs, a.chunk), w, tr, devs)
            for rate in RATES:
                sm = _facts(*_run((FileCacheStream, StorageReplayStream), tr, rate, devs, a.chunk), w, tr, devs)
                out = [("file-cache", "hit_ratio", "abs", abs(sm["hit_ratio"] - ex["hit_ratio"])),
                       ("file-cache", "footprint", "rel", abs(sm["footprint"] / ex["footprint"] - 1)),
                       ("file-cache", "value", "rel", abs(sm["file_cache_value"] / ex["file_cache_value"] - 1)),
                       ("file-cache", "break_even_share", "abs", abs(sm["break_even_share"] - ex["break_even_share"])),
                       ("storage", "footprint", "rel", abs(sm["footprint"] / ex["footprint"] - 1)),
                       ("storage", "value", "rel", abs(sm["storage_value"] / ex["storage_value"] - 1))]
                for role, metric, kind, err in out:
                    rows.append((label, len(tr), int(round(ex["footprint"])), role, metric, kind, rate, float(err)))
            print(f"{label}: {len(tr):,} requests, {ex['footprint']:,.0f} distinct blocks, exact hit ratio "
                  f"{ex['hit_ratio']:.4f}; {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    import pandas as pd

    df = pd.DataFrame(rows, columns=["trace", "requests", "distinct_blocks", "role", "metric", "kind", "rate",
                                     "error"])
    with open(a.out, "w") as fh:
        fh.write("# Error of a plan's block roles from a SHARDS sample of the 4 KiB blocks vs the exact streams "
                 "(bench/bench_plan_sampling.py, issue 41); kind abs = absolute, rel = relative\n")
        df.to_csv(fh, index=False, float_format="%.6g")
    worst = df.groupby(["role", "metric", "rate"]).error.max().unstack("rate")
    print(worst.to_string(float_format=lambda x: f"{x:.3g}"))
    print(f"load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
