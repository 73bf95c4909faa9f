"""The write-cache role of a plan: HDD time saved by a HALO write cache on the device (block traces with writes).

The value is the HDD time without the cache (like-for-like, seed 003 §V-A; or with the same cache
on the baseline device) over the HDD time behind a ``planner.write_cache_mb`` HALO cache plus the
device's time to absorb every write (:func:`models.storage.write_cache.run_write_cache`) [x].
"""

from __future__ import annotations

import math

import numpy as np

from models.devices import get_device, transfer_time_ns
from models.planner.economics import block_trace_writes, role_usage
from models.planner.roles import role_metric
from models.planner.uncertainty import row_band
from models.planner.verdicts import compare, plan_row, verdict_of
from models.provenance import param

__all__ = ["write_cache_rows", "writecache_band_model"]


def write_cache_rows(w, tr, devs, base, uq):
    """Write-cache rows of block workload ``w`` (its trace ``tr``) for ``devs`` against ``base`` (None:
    no cache); ``uq = (samples, seed)`` or None."""
    from models.storage import write_cache as wc

    role = "write-cache"
    mb = float(param("planner.write_cache_mb").value)
    blabel = ("no cache: HDD hdd-7200 alone (like-for-like, seed 003)" if base is None
              else f"the same {mb:g} MB HALO cache on {base.name}")
    metric = role_metric(role)
    if not getattr(tr, "op_known", True):
        return [plan_row(w.name, role, d.name, blabel, metric, verdict="needs data",
                         reason="needs data: a trace with reads/writes (this trace's format has no read/write "
                                "field: operation unknown, so its writes cannot be told)") for d in devs]
    if not len(tr) or not np.asarray(tr.is_write).any():
        return [plan_row(w.name, role, d.name, blabel, metric, verdict="not applicable",
                         reason="not applicable: the trace has no writes, so a write cache has nothing to absorb")
                for d in devs]
    if base is not None and base.kind in ("dram", "hdd"):
        return [plan_row(w.name, role, d.name, blabel, metric, verdict="not applicable",
                         reason=f"not applicable: the baseline {base.name} ({base.kind}) cannot be a durable write cache "
                                "in front of an HDD; compare like-for-like (no cache) instead") for d in devs]
    req = wc.prepare_requests(tr, passthrough_reads=True)  # a read of unwritten blocks: one extent, same results
    none = wc.run_write_cache(req, "none", 0.0)
    halo = wc.run_write_cache(req, "halo", mb)
    sizes = np.asarray(tr.size_bytes, float)[np.asarray(tr.is_write, bool)]
    wshare = float(np.mean(tr.is_write))
    written, dur, how = block_trace_writes(tr)
    usage = role_usage(mb * 1e6, written, dur, how, base_capacity_bytes=0.0 if base is None else mb * 1e6)

    def dev_s(d):  # write time of every written request at the media write bandwidth (not the interface rate) [s]
        return float(transfer_time_ns(d.write_latency_ns, sizes, d.access_unit_bytes,
                                      d.effective_write_bandwidth_MBps).sum()) / 1e9

    out = []
    for d in devs:
        if d.kind in ("dram", "hdd"):
            why = ("DRAM is volatile: a write cache in front of an HDD must keep the writes across a crash"
                   if d.kind == "dram" else "an HDD cannot cache writes for an HDD")
            out.append(plan_row(w.name, role, d.name, blabel, metric, verdict="not applicable", reason=f"not applicable: {why}"))
            continue
        t_with = float(halo.exec_time_s) + dev_s(d)
        t_ref = float(none.exec_time_s) if base is None else float(halo.exec_time_s) + dev_s(base)
        v = t_ref / t_with if t_with > 0 else math.inf
        band = row_band(lambda d=d: writecache_band_model(req, sizes, d, base, mb), uq)
        reason = (f"{wshare:.0%} writes; a {mb:g} MB HALO cache on {d.name} cuts HDD traffic to "
                  f"{halo.traffic_rate:.0%} and absorbs the writes in {dev_s(d) * 1e3:.3g} ms of device time -> "
                  + compare(v, d.name, "no cache (hdd-7200 alone)" if base is None
                            else f"{base.name} (the same cache)", "less time", band))
        out.append(plan_row(w.name, role, d.name, blabel, metric, v, verdict_of(v, band), reason, band, usage))
    return out


def writecache_band_model(req, wsizes, dev, base, mb):
    """HDD figures varied (:func:`models.storage.uncertainty.writecache_streams` and
    :func:`~models.storage.uncertainty.hdd_stream_time_ms`, the adapter's scaling) plus the cache device's write
    latency; same value as the row at the points."""
    from models.storage.uncertainty import hdd_stream_time_ms, writecache_streams
    from models.uncertainty import UncertainModel, Verdict, device_input

    hdd = get_device("hdd-7200")
    parts = writecache_streams(req, cache_mb=mb, policy="halo", drive=hdd.name)
    k = f"device:{hdd.name}"
    ins = [device_input(hdd, "avg_seek_ns", label="HDD mean seek time"),
           device_input(hdd, "rpm", label="HDD spindle speed"),
           device_input(hdd, "read_bandwidth_MBps", label="HDD media bandwidth"),
           device_input(dev, "write_latency_ns", label=f"{dev.name} write latency")]
    if base is not None:
        if base.name == dev.name:
            raise ValueError("the baseline is the device itself")
        ins.append(device_input(base, "write_latency_ns", label=f"{base.name} write latency"))

    def total_ms(v, p):
        return hdd_stream_time_ms(p, hdd, v[f"{k}.avg_seek_ns"], v[f"{k}.rpm"], v[f"{k}.read_bandwidth_MBps"])

    def dev_ms(v, d):
        lat = np.asarray(v[f"device:{d.name}.write_latency_ns"], float)
        extra = float(np.maximum(0.0, wsizes - d.access_unit_bytes).sum()) / (d.effective_write_bandwidth_MBps * 1e6) * 1e9
        return (len(wsizes) * lat + extra) / 1e6

    def ev(v):
        t_c = total_ms(v, parts["halo"]) + dev_ms(v, dev)
        t_ref = total_ms(v, parts["none"]) if base is None else total_ms(v, parts["halo"]) + dev_ms(v, base)
        return t_ref / t_c

    return UncertainModel("writecache", "speedup", "x", tuple(ins), ev,
                          Verdict(1.0, False, f"a {mb:g} MB HALO cache on {dev.name} saves time"),
                          notes=("HDD streams simulated once (writecache_streams); HDD figures and the cache "
                                 "device's write latency vary analytically",),
                          output_label="time without / with the write cache")


