"""Benchmark: 1,000 uncertainty samples per model vs naive re-simulation, measured in the same run.

For each model: "ours" = building the adapter (trace-driven ones run their simulation ONCE) plus
:func:`models.uncertainty.analyze` with 1,000 samples (band, verdict and tornado; the tornado's
re-simulated HALO ends included for the write cache). "naive" = running the model itself once
per sample with that sample's inputs (closed-form models: the model's own scalar functions on
all 1,000 samples; trace-driven models: a full re-simulation per sample, timed on ``--naive-k``
samples and scaled to 1,000 -- said in the table).

The Filebench workload model (``workload``) is closed form per sample with fixed points and an exact
MVA: ours = the adapter over :func:`models.storage.workload.evaluate_many` (demand walk once with arrays,
fixed points + MVA per sample in numba, same arithmetic); naive = two ``evaluate`` calls per sample
on validated configurations with all the sample's values (timed on 20 samples and scaled). A line
below the table gives one ``evaluate`` [ms] and ``evaluate_many`` per sample [ms] of the same run.

Targets (issue 16): 1,000 samples in <= 1 s for closed-form models and <= 5 s for trace-driven
models on the bundled traces. The last line is ``ratio: N`` = naive time / our time summed over
the trace-driven models.

  .venv/bin/python bench/bench_uncertainty.py [--samples 1000] [--naive-k 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _common import print_ratio

from models import traces
from models.devices import get_device
from models.endurance import lifetime as lt
from models.endurance.uncertainty import lifetime_model
from models.memory import memory_extension as me
from models.memory import paging as pg
from models.memory.uncertainty import amat_model, memext_model
from models.storage import file_cache as fc
from models.storage import write_cache as wc
from models.storage.uncertainty import (
    _WORKLOAD_DEVICE_COLUMNS,
    breakeven_model,
    file_cache_time_model,
    hdd_model,
    workload_model,
    writecache_model,
)
from models.uncertainty import analyze


def _ours(build, n):
    """(build time [s], sampling time [s], model, result)."""
    t = time.perf_counter()
    m = build()
    t1 = time.perf_counter()
    r = analyze(m, n=n, seed=0)
    return (t1 - t, time.perf_counter() - t1), m, r


def _naive(m, r, run_one, k, n):
    """Time ``run_one(values)`` on the first ``k`` samples (all inputs at the sample's values); scale to n."""
    pts = m.points()
    k = min(k, len(r.inputs)) if len(r.inputs) else k
    t = time.perf_counter()
    for j in range(k):
        v = dict(pts)
        if len(r.inputs.columns):
            v.update(r.inputs.iloc[j].to_dict())
        run_one(v)
    return (time.perf_counter() - t) * n / k


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--naive-k", type=int, default=5, help="samples the naive re-simulation is timed on")
    args = ap.parse_args(argv)
    n = args.samples
    rows = []

    # warm-up: numba kernels compiled, catalogue and tables loaded
    breakeven_model(device="optane-dcpmm", storage_path="paper-factor").point()
    small = traces.load("synthetic:fin1", kind="block", n_requests=500)
    writecache_model(small, cache_mb=1.0).point()
    me.simulate_memext(me.page_stream(traces.load("sqlite", kind="memory", max_requests=5000)))
    workload_model("varmail", "pcm-dax", ref="hdd", threads=2).point()  # evaluate_many's numba kernels

    # ---- closed form: naive = the model's own scalar functions, one call per sample (all n)
    dev = get_device("optane-dcpmm")

    def be_one(v):
        d = dev.with_updates(read_latency_ns=v["device:optane-dcpmm.read_latency_ns"])
        fc.break_even(fc.timings_from_device(d, io_stack_factor=v["file_cache.io_stack_factor"],
                                             storage_path="paper-factor"))

    t, m, r = _ours(lambda: breakeven_model(device="optane-dcpmm", storage_path="paper-factor"), n)
    rows.append(("breakeven", "closed form", t, _naive(m, r, be_one, n, n), 1.0))

    def lt_one(v):
        return lt.LifetimeInputs(capacity_bytes=16e9, endurance_writes_per_cell=v["endurance"],
                          write_rate_bytes_per_s=v["write_rate"],
                          wear_efficiency=v["lifetime.wear_efficiency"]).years

    t, m, r = _ours(lambda: lifetime_model(capacity_bytes=16e9, endurance_writes_per_cell=1e7,
                                             write_rate_bytes_per_s=1e9), n)
    rows.append(("lifetime", "closed form", t, _naive(m, r, lt_one, n, n), 1.0))

    def hdd_one(v):
        return float(v["device:hdd-7200.avg_seek_ns"]) * 1e-6 + 30000.0 / float(v["device:hdd-7200.rpm"])

    t, m, r = _ours(lambda: hdd_model("hdd-7200"), n)
    rows.append(("hdd", "closed form", t, _naive(m, r, hdd_one, n, n), 1.0))

    # ---- Filebench workload: evaluate_many over the samples (ours) vs evaluate() per sample (naive)
    from models.storage import workload as wfm

    wl = wfm.as_workload("varmail")
    wl_cfgs = (wfm.get_config("pcm-dax"), wfm.get_config("hdd"))

    def wl_config(c, v):  # the configuration with the sample's values, validated (the reference path)
        ch = {}
        for target in ("device", "host_device"):
            d = getattr(c, target)
            if d is not None:
                ch[target] = d.with_updates(**{col: v[f"device:{d.name}.{col}"] for col in _WORKLOAD_DEVICE_COLUMNS
                                               if f"device:{d.name}.{col}" in v})
        if c.mode == "pagecache":
            ch["page_cache_bytes"] = v["workload.page_cache_bytes"]
        return wfm.get_config(c, **ch)

    def wl_one(v):
        a, b = (wfm.evaluate(wl, wl_config(c, v), curve=False).ops_per_s for c in wl_cfgs)
        return a / b

    t, m, r = _ours(lambda: workload_model(wl, "pcm-dax", ref="hdd"), n)
    rows.append(("workload varmail pcm-dax/hdd (50 threads)", "closed form", t, _naive(m, r, wl_one, 20, n), 1.0))
    assert wl_one({**m.points(), **r.inputs.iloc[0].to_dict()}) == r.samples[0]  # same numbers, not just faster
    k = 20
    t0 = time.perf_counter()
    for _ in range(k):
        wfm.evaluate(wl, "hdd", curve=False)
    one_ms = (time.perf_counter() - t0) / k * 1e3
    lat = wl_cfgs[1].device.write_latency_ns * np.linspace(0.5, 2.0, n)
    t0 = time.perf_counter()
    wfm.evaluate_many(wl, "hdd", {"device.write_latency_ns": lat})
    many_ms = (time.perf_counter() - t0) / n * 1e3
    wl_line = (f"workload varmail on hdd, 50 threads: one evaluate() {one_ms:.2f} ms; evaluate_many {many_ms:.3f} ms "
               f"per sample ({n} samples); ratio {one_ms / many_ms:.0f}x")

    # ---- trace-driven: naive = full re-simulation per sample
    block = traces.load("synthetic:fin1", kind="block", n_requests=20_000)
    req = wc.prepare_requests(block)

    def wc_one(v):
        wc.run_write_cache(req, "none", 0.0)
        wc.run_write_cache(req, "halo", 64.0)

    t, m, r = _ours(lambda: writecache_model(req, cache_mb=64.0), n)
    rows.append(("writecache synthetic:fin1 (20k requests)", "trace", t, _naive(m, r, wc_one, args.naive_k, n), 5.0))

    from models.storage import file_cache_sim as fcs

    fids = traces.split_blocks(block).block
    fp = int(fids.max()) + 1

    def fct_one(v):
        d = get_device("optane-dcpmm").with_updates(read_latency_ns=v["device:optane-dcpmm.read_latency_ns"])
        fcs.file_cache_curves(fids, d, cache_fractions=[0.1])

    t, m, r = _ours(lambda: file_cache_time_model(fids, "optane-dcpmm", cache_blocks=max(1, round(0.1 * fp)),
                                                    policy="ac"), n)
    rows.append(("file-cache time synthetic:fin1 (AC, 20k req.)", "trace", t, _naive(m, r, fct_one, args.naive_k, n),
                 5.0))

    mem = traces.load("sqlite", kind="memory")
    stream = me.page_stream(mem)

    def mx_one(v):
        cfg = me.MemExtConfig(fault_overhead_ns=v["memext.fault_overhead_ns"],
                              base_ns_per_ref=v["memext.base_ns_per_ref"])
        d = get_device("pcm-memext").with_updates(read_latency_ns=v["device:pcm-memext.read_latency_ns"],
                                                  write_latency_ns=v["device:pcm-memext.write_latency_ns"])
        me.simulate_memext(stream, cfg, device=d)
        me.simulate_memext(stream, cfg.model_copy(update={"device": "nand-flash"}))

    t, m, r = _ours(lambda: memext_model(stream, me.MemExtConfig()), n)
    rows.append((f"memext lackey:sqlite ({len(stream):,} refs)", "trace", t, _naive(m, r, mx_one, args.naive_k, n),
                 5.0))

    inp = pg.paging_inputs(memory_fraction=0.25, latency_multiple=100, page_sizes_bytes=(4096,))

    for refs in (1_000_000, len(mem)):  # the paging page profiles the first 2M references by default
        sub = mem.subset(slice(None, refs))

        def pg_one(v, sub=sub):
            pg.paging_table(pg.paging_profile(sub, inp),
                            inp.model_copy(update={"tlb_entries": int(v["paging.tlb_entries"])}))

        t, m, r = _ours(lambda sub=sub: amat_model(pg.paging_profile(sub, inp), inp), n)
        rows.append((f"amat lackey:sqlite ({refs:,} refs)", "trace", t,
                     _naive(m, r, pg_one, max(1, args.naive_k // 2), n), 5.0))

    print(f"{'model':44s} {'kind':12s} {'build [s]':>9s} {'sample [s]':>10s} {'ours [s]':>9s} {'naive [s]':>10s} "
          f"{'naive/ours':>11s} {'target':>7s}  ok")
    for name, kind, (build, sample), naive, target in rows:
        ours = build + sample
        print(f"{name:44s} {kind:12s} {build:9.3f} {sample:10.3f} {ours:9.3f} {naive:10.2f} {naive / ours:11.1f} "
              f"{target:6.0f}s  {'yes' if ours <= target else 'NO'}")
    print("build = the adapter (trace-driven: the one simulation / profile the page or CLI runs anyway); sample = "
          "analyze() with the band, verdict and tornado")
    print(f"({n} samples; naive trace-driven times are {args.naive_k} re-simulations scaled to {n}; closed-form naive "
          f"times are all {n} scalar model calls; the workload row's naive time is 20 re-evaluations scaled)")
    print(wl_line)
    tr = [(sum(o), nv) for _, k, o, nv, _ in rows if k == "trace"]
    print_ratio(float(np.sum([nv for _, nv in tr])), float(np.sum([o for o, _ in tr])), digits=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
