"""The file-cache role of a plan: storage access time of a block trace under a DRAM LRU file cache.

Each device holds the trace's blocks under a DRAM LRU cache of ``planner.file_cache_fraction`` of
the footprint (:func:`models.storage.file_cache_sim.file_cache_curves`); the value is the
baseline's (like-for-like: ``hdd-7200``, seed 004 Fig. 3 vs Fig. 4) time over the device's [x].
"""

from __future__ import annotations

from models.devices import get_device
from models.planner.economics import block_trace_writes, footprint_bytes, role_usage
from models.planner.roles import LIKE_FOR_LIKE, is_volatile, role_metric
from models.planner.uncertainty import row_band
from models.planner.verdicts import compare, plan_row, verdict_of
from models.provenance import param

__all__ = ["file_cache_rows", "file_cache_band_model"]


def file_cache_rows(w, tr, devs, base, uq):
    """File-cache rows of block workload ``w`` (its trace ``tr``) for ``devs`` against ``base`` (None:
    like-for-like); ``uq = (samples, seed)`` or None."""
    from models.storage import file_cache_sim as fcs
    from models.traces import split_blocks

    role = "file-cache"
    frac = float(param("planner.file_cache_fraction").value)
    acc = split_blocks(tr)
    ids = acc.block
    base_dev = base or get_device(LIKE_FOR_LIKE[role])
    ok = [d for d in devs if not is_volatile(d)]
    curves = fcs.file_cache_curves(ids, [base_dev, *ok], cache_fractions=[frac]) if ok else None
    written, dur, how = block_trace_writes(tr)
    usage = role_usage(footprint_bytes(ids), written, dur, how)  # the device is the storage under the DRAM cache
    out = []
    blabel = f"{base_dev.name} under the same DRAM LRU cache" + (" (like-for-like, seed 004)" if base is None else "")
    for d in devs:
        if is_volatile(d):
            out.append(plan_row(w.name, role, d.name, blabel, role_metric(role), verdict="not applicable",
                                reason=f"not applicable: {d.name} is DRAM, volatile: it cannot be the storage under a "
                                       "DRAM file cache"))
            continue
        lru = curves[curves.policy == "lru"]
        t_dev = float(lru[lru.device == d.name].time_ns.iloc[0])
        t_base = float(lru[lru.device == base_dev.name].time_ns.iloc[0])
        v = t_base / t_dev
        be = fcs.break_even_share(ids, d)
        hit = float(lru[lru.device == d.name].hit_ratio.iloc[0])
        hits = int(lru[lru.device == d.name].hits.iloc[0])
        band = row_band(lambda d=d, hits=hits: file_cache_band_model(hits, len(ids), d, base_dev), uq)
        reason = (f"{hit:.0%} LRU hits with a DRAM cache of {frac:.0%} of the footprint; "
                  f"{be.share_blocks:.1%} of blocks are reused more than n* = {be.n_star:.3g} times on {d.name} "
                  f"(a DRAM cache over it pays only for them) -> "
                  f"{compare(v, d.name, f'{base_dev.name} (the storage under the cache)', 'faster', band)}")
        out.append(plan_row(w.name, role, d.name, blabel, role_metric(role), v, verdict_of(v, band), reason, band,
                            usage))
    return out


def file_cache_band_model(hits: int, n: int, dev, base_dev):
    """Time ratio baseline / device of the LRU file cache (``hits * t + misses * Tm`` on each device,
    the hit count simulated once), with the timings of the break-even adapter
    (:func:`models.storage.uncertainty.file_cache_timings`: page-cache costs, I/O-stack factor and the
    devices' latency and bandwidth varied by provenance)."""
    from models.storage.file_cache import cache_run_time_ns
    from models.storage.uncertainty import file_cache_timings
    from models.uncertainty import UncertainModel, Verdict

    if dev.name == base_dev.name:
        raise ValueError("the baseline is the device itself")
    _, ins_d, tim_d = file_cache_timings(dev, 4096)
    _, ins_b, tim_b = file_cache_timings(base_dev, 4096)
    ins = {i.name: i for i in ins_d}
    for i in ins_b:
        if i.name in ins and ins[i.name].point != i.point:
            raise ValueError(f"input {i.name} differs between the two devices")
        ins.setdefault(i.name, i)
    miss = n - hits

    def ev(v):
        t, T, tm = tim_d(v)
        tb, Tb, tmb = tim_b(v)  # every miss inserts: no bypassing miss
        return cache_run_time_ns(hits, miss, miss, tb, Tb, tmb) / cache_run_time_ns(hits, miss, miss, t, T, tm)

    return UncertainModel("file-cache", "time_ratio", "x", tuple(ins.values()), ev,
                          Verdict(1.0, False, f"{dev.name} under a DRAM LRU cache beats {base_dev.name}"),
                          notes=(f"LRU hits simulated once ({hits:,} of {n:,}); timings vary analytically",),
                          output_label="storage access time baseline / device")


