"""The write-cache role of a plan: HDD time saved by a HALO write cache on the device (block traces with writes).

The value is the HDD time without the cache (like-for-like, seed 003 §V-A; or with the same cache
on the baseline device) over the HDD time behind a ``planner.write_cache_mb`` HALO cache plus the
device's time to absorb every write (:func:`models.storage.write_cache.run_write_cache`) [x].

One implementation for a trace in memory and a trace taken chunk by chunk (issue 41): :class:`WriteCacheStream`
(a :class:`~models.planner.role_stream.RoleStream`) runs the cache and the HDD over the chunks in bounded memory
(:class:`models.storage.write_cache_stream.WriteCacheStream`); :func:`write_cache_rows` feeds it the whole trace as
one chunk. Both make their rows in :func:`_rows`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.devices import get_device, transfer_time_ns
from models.planner.economics import role_usage, writes_and_duration
from models.planner.role_stream import trace_chunks
from models.planner.roles import role_metric
from models.planner.uncertainty import row_band
from models.planner.verdicts import compare, plan_row, verdict_of
from models.provenance import param

__all__ = ["write_cache_rows", "writecache_band_model", "WriteCacheStream", "sampling_sentence"]

ROLE = "write-cache"


@dataclass(frozen=True)
class _Summary:
    """What the rows need from a trace's write-cache runs (:func:`_rows`)."""

    requests: int
    writes: int
    #: HDD time without a cache and behind the HALO cache [s].
    none_s: float
    halo_s: float
    #: HDD sectors behind the HALO cache / requested sectors [-].
    halo_traffic: float
    #: Distinct write sizes [bytes] and their counts.
    sizes: np.ndarray
    size_counts: np.ndarray
    written_bytes: float
    span_ns: int
    #: HDD time components (seek, rotation, transfer, other) [ms] without a cache and with it; None: not summed.
    parts: dict | None


def _blabel(base, mb: float) -> str:
    return ("no cache: HDD hdd-7200 alone (like-for-like, seed 003)" if base is None
            else f"the same {mb:g} MB HALO cache on {base.name}")


def _not_applicable(w, devs, base, mb, op_known: bool, has_writes: bool) -> list[dict] | None:
    """The rows when the role cannot run on this trace or against this baseline (None: it can)."""
    blabel, metric = _blabel(base, mb), role_metric(ROLE)
    if not op_known:
        return [plan_row(w.name, ROLE, d.name, blabel, metric, verdict="needs data",
                         reason="needs data: a trace with reads/writes (this trace's format has no read/write "
                                "field: operation unknown, so its writes cannot be told)") for d in devs]
    if not has_writes:
        return [plan_row(w.name, ROLE, d.name, blabel, metric, verdict="not applicable",
                         reason="not applicable: the trace has no writes, so a write cache has nothing to absorb")
                for d in devs]
    if base is not None and base.kind in ("dram", "hdd"):
        return [plan_row(w.name, ROLE, d.name, blabel, metric, verdict="not applicable",
                         reason=f"not applicable: the baseline {base.name} ({base.kind}) cannot be a durable write cache "
                                "in front of an HDD; compare like-for-like (no cache) instead") for d in devs]
    return None


def write_cache_rows(w, tr, devs, base, uq):
    """Write-cache rows of block workload ``w`` (its trace ``tr``) for ``devs`` against ``base`` (None:
    no cache); ``uq = (samples, seed)`` or None. The trace goes through :class:`WriteCacheStream` as one chunk."""
    mb = float(param("planner.write_cache_mb").value)
    has_writes = bool(len(tr)) and bool(np.asarray(tr.is_write).any())
    early = _not_applicable(w, devs, base, mb, getattr(tr, "op_known", True), has_writes)
    if early is not None:
        return early
    s = WriteCacheStream(bands=bool(uq))
    chunks = trace_chunks(tr, [len(tr)])
    for c in chunks:
        s.first(c)
    s.end_first(dict(getattr(tr, "meta", {}) or {}), int(np.min(tr.time_ns)))
    for c in chunks:
        s.second(c)
    rows = s.rows(w, tr, devs, base, uq)
    if s.sampling is not None:  # (the streamed driver says so itself, from ``sampling``)
        note = sampling_sentence(s.sampling)
        rows = [{**r, "reason": f"{r['reason']}; {note}"} if not math.isnan(r["value"]) else r for r in rows]
    return rows


def sampling_sentence(sampling: dict) -> str:
    """The sentence a row sampled by the budget carries: method, rate, why, measured error."""
    r = sampling["rate"]
    return (f"HALO estimated by a {sampling['method']} at rate {r:g} (1 in {1 / r:,.0f}) because {sampling['why']}; "
            f"its error: {sampling['error']}")


def _rows(w, s: _Summary, devs, base, uq, mb: float) -> list[dict]:
    """The rows of a trace with writes whose baseline can hold a write cache (:func:`_not_applicable` first)."""
    blabel, metric = _blabel(base, mb), role_metric(ROLE)
    wshare = s.writes / s.requests
    written, dur, how = writes_and_duration(s.written_bytes, s.span_ns)
    usage = role_usage(mb * 1e6, written, dur, how, base_capacity_bytes=0.0 if base is None else mb * 1e6)

    def dev_s(d):  # write time of every written request at the media write bandwidth (not the interface rate) [s]
        return float((transfer_time_ns(d.write_latency_ns, s.sizes.astype(float), d.access_unit_bytes,
                                       d.effective_write_bandwidth_MBps) * s.size_counts).sum()) / 1e9

    out = []
    for d in devs:
        if d.kind in ("dram", "hdd"):
            why = ("DRAM is volatile: a write cache in front of an HDD must keep the writes across a crash"
                   if d.kind == "dram" else "an HDD cannot cache writes for an HDD")
            out.append(plan_row(w.name, ROLE, d.name, blabel, metric, verdict="not applicable", reason=f"not applicable: {why}"))
            continue
        t_with = s.halo_s + dev_s(d)
        t_ref = s.none_s if base is None else s.halo_s + dev_s(base)
        v = t_ref / t_with if t_with > 0 else math.inf
        band = row_band(lambda d=d: _band_model(s.parts, (s.sizes, s.size_counts), d, base, mb), uq)
        reason = (f"{wshare:.0%} writes; a {mb:g} MB HALO cache on {d.name} cuts HDD traffic to "
                  f"{s.halo_traffic:.0%} and absorbs the writes in {dev_s(d) * 1e3:.3g} ms of device time -> "
                  + compare(v, d.name, "no cache (hdd-7200 alone)" if base is None
                            else f"{base.name} (the same cache)", "less time", band))
        out.append(plan_row(w.name, ROLE, d.name, blabel, metric, v, verdict_of(v, band), reason, band, usage))
    return out


class WriteCacheStream:
    """The write-cache role over a trace's chunks (:class:`~models.planner.role_stream.RoleStream`): the cache and
    the HDD simulated in memory bounded by the distinct blocks (:class:`models.storage.write_cache_stream.
    WriteCacheStream`); :meth:`rows` equals :func:`write_cache_rows` on the whole trace. ``devs``, ``base``: not
    needed before the rows (the simulation does not depend on the device). ``bands``: sum the HDD time components
    the uncertainty band needs (four sums per stream, about as much work again as the service times; off only when
    no band is asked)."""

    role = ROLE

    def __init__(self, devs=None, base=None, *, bands: bool = True):
        from models.storage.write_cache_stream import WriteCacheStream as Model

        self.mb = float(param("planner.write_cache_mb").value)
        self.model = Model(self.mb, parts=bands)
        self.op_known = True

    @property
    def state_share(self) -> float:
        """Share of the run's memory budget the state may hold (:attr:`models.storage.write_cache_stream.
        WriteCacheStream.state_share`; set before the first pass) [-]."""
        return self.model.state_share

    @state_share.setter
    def state_share(self, share: float) -> None:
        self.model.state_share = float(share)

    @property
    def state_bytes(self) -> int:
        """The state held now [bytes] (the model's)."""
        return self.model.state_bytes

    @property
    def sampling(self) -> dict | None:
        """None when exact; else the model's region sample (method, rate, why, error)."""
        return self.model.sampling

    def first(self, chunk) -> None:
        self.model.first(chunk)

    def end_first(self, meta: dict, t_min_ns: int) -> None:
        self.op_known = not bool((meta or {}).get("op_unknown", False))
        self.model.end_first()

    def _simulated(self) -> bool:
        return self.op_known and self.model.writes > 0

    def second(self, chunk) -> None:
        if self._simulated():  # without writes (or knowing them) the rows need no simulation
            self.model.second(chunk)

    def summary(self) -> _Summary:
        m = self.model
        none, halo = m.result("none"), m.result("halo")
        return _Summary(requests=m.requests, writes=m.writes, none_s=float(none.exec_time_s),
                        halo_s=float(halo.exec_time_s), halo_traffic=halo.traffic_rate, sizes=m.sizes,
                        size_counts=m.size_counts, written_bytes=float(m.written_bytes),
                        span_ns=int(m.t_max - m.t_min) if m.requests else 0,
                        parts={"none": m.parts("none"), "halo": m.parts("halo")} if m.want_parts else None)

    def rows(self, w, meta_trace, devs, base, uq) -> list[dict]:
        early = _not_applicable(w, devs, base, self.mb, self.op_known, self.model.writes > 0)
        if early is not None:
            return early
        return _rows(w, self.summary(), devs, base, uq, self.mb)


def writecache_band_model(req, wsizes, dev, base, mb):
    """HDD figures varied (:func:`models.storage.uncertainty.writecache_streams` and
    :func:`~models.storage.uncertainty.hdd_stream_time_ms`, the adapter's scaling) plus the cache device's write
    latency; same value as the row at the points. ``req``: the trace's requests, ``wsizes``: its write sizes [bytes]."""
    from models.storage.uncertainty import writecache_streams

    parts = writecache_streams(req, cache_mb=mb, policy="halo", drive="hdd-7200")
    sizes, counts = np.unique(np.asarray(wsizes, float), return_counts=True)
    return _band_model(parts, (sizes, counts), dev, base, mb)


def _band_model(parts, wsizes, dev, base, mb):
    """:func:`writecache_band_model` from the HDD streams' time components ``parts`` ({"none": ..., "halo": ...},
    [ms]) and the write sizes ``(distinct sizes [bytes], counts)``; ValueError (the band is not sampled) when the
    components were not summed."""
    from models.storage.uncertainty import hdd_stream_time_ms
    from models.uncertainty import UncertainModel, Verdict, device_input

    if parts is None:
        raise ValueError("the HDD streams' time components were not summed")
    hdd = get_device("hdd-7200")
    k = f"device:{hdd.name}"
    sizes, counts = (np.asarray(x, float) for x in wsizes)
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
        extra = float((np.maximum(0.0, sizes - d.access_unit_bytes) * counts).sum()) / (d.effective_write_bandwidth_MBps * 1e6) * 1e9
        return (float(counts.sum()) * lat + extra) / 1e6

    def ev(v):
        t_c = total_ms(v, parts["halo"]) + dev_ms(v, dev)
        t_ref = total_ms(v, parts["none"]) if base is None else total_ms(v, parts["halo"]) + dev_ms(v, base)
        return t_ref / t_c

    return UncertainModel("writecache", "speedup", "x", tuple(ins), ev,
                          Verdict(1.0, False, f"a {mb:g} MB HALO cache on {dev.name} saves time"),
                          notes=("HDD streams simulated once (writecache_streams); HDD figures and the cache "
                                 "device's write latency vary analytically",),
                          output_label="time without / with the write cache")
