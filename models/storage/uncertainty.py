"""Uncertainty adapters of the storage models: their uncertain inputs and headline output, vectorised
over samples (:mod:`models.uncertainty`; the table of what each simulates once is in ``docs/uncertainty.md``), each
registered with its model (:mod:`models.spec`).

Each adapter evaluates the model's own vectorised equations on the sample arrays
(:func:`models.storage.file_cache.break_even_hits`, :func:`models.storage.file_cache.uncached_time_ns`,
:func:`models.storage.file_cache.cache_run_time_ns`, :func:`models.devices.transfer_time_ns`,
:func:`models.storage.workload.evaluate_many`, :func:`models.storage.device_char.mix_sensitivity`), so at
the central inputs it gives the model's result (``tests/models/uncertainty/test_point_equals_model.py``).

References
----------
.. [1] Seeds 000, 001, 003, 004 (the models' own references, in their modules).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from models.uncertainty.core import (
    UncertainInput,
    UncertainModel,
    Verdict,
    device_input,
    fixed_input,
    param_input,
    user_input,
)
from models.uncertainty.core import sample_values as _v

__all__ = [
    "breakeven_model",
    "file_cache_timings",
    "file_cache_time_model",
    "file_cache_share_model",
    "hdd_model",
    "writecache_streams",
    "stream_parts_ms",
    "hdd_stream_time_ms",
    "writecache_model",
    "workload_model",
    "device_mix_model",
]




# ----------------------------------------------------------------------------- break-even
def _n_star(t, T, Tm):
    """n* of the model (:func:`models.storage.file_cache.break_even_hits`) on samples: no validation
    (sampled timings may leave the model's domain; n* is ``inf`` where ``T <= t``)."""
    from models.storage.file_cache import break_even_hits

    return break_even_hits(t, T, Tm, check=False)


def _breakeven_verdict(point: float) -> Verdict | None:
    if not np.isfinite(point):
        return None
    k = math.floor(point) + 1
    return Verdict(float(k), True, f"caching pays for a block accessed {k} times (n* < {k})")


def breakeven_model(*, device=None, block_size_bytes: int = 4096, t_ns: float | None = None,
                    T_ns: float | None = None, Tm_ns: float | None = None,
                    insertion: str | None = None, io_stack_factor: float | None = None,
                    storage_path: str | None = None) -> UncertainModel:
    """File-cache break-even n* (seed 004 eq. 3) with uncertain timings.

    With ``device`` (name or profile): ``t`` and the insertion cost are the measured page-cache
    latencies (scaled with the registry's 4 KiB values ``file_cache.pagecache_*_4k_ns``), the
    same run's page-cache hit and direct read ``file_cache.samerun_*`` (the default storage path,
    ``"same-run"``; with ``storage_path="paper-factor"`` the factor ``file_cache.io_stack_factor``
    and the page-cache read) and the device's and DRAM's
    read latency and bandwidth vary by their provenance. With ``t_ns, T_ns, Tm_ns`` typed by the
    user: ``t``, ``T - t`` and ``Tm - T`` vary by +-20 % (user-defined values).

    >>> from models.storage.file_cache import break_even, timings_from_device
    >>> m = breakeven_model(device="optane-dcpmm")
    >>> bool(np.isclose(m.point(), break_even(timings_from_device("optane-dcpmm")).n_star))
    True
    >>> [i.name for i in breakeven_model(t_ns=100, T_ns=130, Tm_ns=160).inputs]
    ['t_ns', 'gap_ns', 'insert_ns']
    """
    if device is None:
        if None in (t_ns, T_ns, Tm_ns):
            raise ValueError("give a device or all of t_ns, T_ns and Tm_ns")
        if not (0 < t_ns and T_ns > 0 and Tm_ns >= T_ns):
            raise ValueError("timings must be > 0 with Tm_ns >= T_ns")
        ins = [user_input("t_ns", "file-cache access time t", "ns", t_ns)]
        gap = T_ns - t_ns
        ins.append(user_input("gap_ns", "storage minus cache time T - t", "ns", gap) if gap > 0
                   else fixed_input("gap_ns", "storage minus cache time T - t", "ns", gap))
        ins.append(user_input("insert_ns", "cache insertion cost Tm - T", "ns", Tm_ns - T_ns))

        def ev(v):  # t, T - t and Tm - T: the typed timings at the point, to rounding (t + (T - t))
            t = _v(v, "t_ns")
            T = t + _v(v, "gap_ns")
            return _n_star(t, T, T + _v(v, "insert_ns"))

        pt = float(_n_star(t_ns, T_ns, Tm_ns))
        return UncertainModel("breakeven", "n_star", "-", tuple(ins), ev, _breakeven_verdict(pt),
                              notes=("closed form, timings as typed (+-20 %)",), output_label="break-even accesses n*")
    dev, ins, timings = file_cache_timings(device, block_size_bytes, insertion, io_stack_factor,
                                           storage_path=storage_path)

    def ev(v):
        return _n_star(*timings(v))

    m = UncertainModel("breakeven", "n_star", "-", tuple(ins), ev,
                       notes=(f"closed form: timings derived from {dev.name} at {float(block_size_bytes):g}-byte "
                              f"blocks, storage path {storage_path or _default_storage_path()}",),
                       output_label="break-even accesses n*")
    return UncertainModel(**{**m.__dict__, "verdict": _breakeven_verdict(m.point())})


def _default_storage_path() -> str:
    """:data:`models.storage.file_cache.DEFAULT_STORAGE_PATH` (imported when used, like the model)."""
    from models.storage.file_cache import DEFAULT_STORAGE_PATH

    return DEFAULT_STORAGE_PATH


def file_cache_timings(device, block_size_bytes, insertion=None, io_stack_factor=None, *, storage_path=None):
    """``(device, inputs, timings)`` of the file-cache timings derived from ``device``:
    ``timings(values) -> (t, T, Tm)`` [ns], vectorised, equal to
    :func:`models.storage.file_cache.timings_from_device` at the inputs' values (the same
    functions: :func:`models.devices.transfer_time_ns`, :func:`models.storage.file_cache.uncached_time_ns`).

    The page-cache read and insertion costs scale the model's values at the block size; the
    storage-path factor and the device's and DRAM's read latency (and bandwidth, when the block
    spans more than one access unit) vary by their provenance. With ``storage_path="same-run"`` (the
    default, :data:`models.storage.file_cache.DEFAULT_STORAGE_PATH`) the same run's page-cache hit
    (``t``) and direct read (the DRAM-speed ``T``) scale the model's values by their registry entries at
    the nearest measured size, and no factor enters; with ``"paper-factor"`` the factor varies.

    >>> from models.storage.file_cache import timings_from_device
    >>> dev, ins, timings = file_cache_timings("optane-dcpmm", 4096)
    >>> be = timings_from_device("optane-dcpmm", 4096)
    >>> tuple(float(x) for x in timings({i.name: i.point for i in ins})) == (be.t_ns, be.T_ns, be.Tm_ns)
    True
    >>> dev, ins, timings = file_cache_timings("optane-dcpmm", 8192, storage_path="same-run")
    >>> be = timings_from_device("optane-dcpmm", 8192, storage_path="same-run")
    >>> tuple(float(x) for x in timings({i.name: i.point for i in ins})) == (be.t_ns, be.T_ns, be.Tm_ns)
    True
    """
    from models.devices import DeviceProfile, get_device, transfer_time_ns
    from models.provenance import PARAMS
    from models.storage import file_cache as fc

    dev = device if isinstance(device, DeviceProfile) else get_device(device)
    ref = get_device("dram")
    bs = float(block_size_bytes)
    if bs <= 0:
        raise ValueError(f"block_size_bytes must be > 0, got {block_size_bytes}")
    insertion = insertion or fc.DEFAULT_INSERTION
    storage_path = storage_path or fc.DEFAULT_STORAGE_PATH
    be = fc.timings_from_device(dev, int(bs), insertion=insertion, storage_path=storage_path)
    # the model's page-cache time and insertion cost at this block size, scaled by sample / point (the model's
    # values at the point, to rounding: t0 * p / p)
    t0, i0 = be.t_ns, be.Tm_ns - be.T_ns
    steady = f"file_cache.insert_steady_{int(bs)}_ns"
    ins_key = (steady if insertion == "steady" and steady in PARAMS
               else "file_cache.insert_steady_4096_ns" if insertion == "steady"
               else "file_cache.pagecache_insert_4k_ns")
    wr = param_input(ins_key, label=f"cache insertion ({insertion})")
    if storage_path == "same-run":
        hit_key, direct_key = fc.storage_path_keys("same-run", int(bs))
        rd = param_input(hit_key, label="page-cache hit, same run (t)")
        dr = param_input(direct_key, label="direct read on zram, same run (T at DRAM speed)")
        d0 = fc.same_run_timings(int(bs))[1]
        ins = [rd, wr, dr]
    else:
        rd = param_input("file_cache.pagecache_read_4k_ns", label="page-cache read (t)")
        ins = [rd, wr, param_input("file_cache.io_stack_factor", value=io_stack_factor, label="storage-path factor")]
    ins.append(device_input(dev, "read_latency_ns", label=f"{dev.name} read latency"))
    dev_bw = bs > dev.access_unit_bytes and dev.read_bandwidth_MBps is not None
    if dev_bw:
        ins.append(device_input(dev, "read_bandwidth_MBps", label=f"{dev.name} read bandwidth"))
    ref_bw = bs > ref.access_unit_bytes and ref.read_bandwidth_MBps is not None
    if dev.name != ref.name:  # DRAM as the storage itself: one set of inputs (its extra over itself is 0)
        ins.append(device_input(ref, "read_latency_ns", label="DRAM read latency"))
        if ref_bw:
            ins.append(device_input(ref, "read_bandwidth_MBps", label="DRAM read bandwidth"))
    dk, rk = f"device:{dev.name}", f"device:{ref.name}"

    def transfer(v, key, d, use_bw):  # DeviceProfile.transfer_ns with the sampled latency (and bandwidth)
        bw = _v(v, f"{key}.read_bandwidth_MBps") if use_bw else d.effective_read_bandwidth_MBps
        return transfer_time_ns(_v(v, f"{key}.read_latency_ns"), bs, d.access_unit_bytes, bw)

    def timings(v):
        t = t0 * _v(v, rd.name) / rd.point
        insert = i0 * _v(v, wr.name) / wr.point
        if storage_path == "same-run":  # T = the same run's direct read + the device's extra over DRAM
            T = fc.uncached_time_ns(d0 * _v(v, dr.name) / dr.point, 1.0, transfer(v, dk, dev, dev_bw),
                                    transfer(v, rk, ref, ref_bw))
        else:
            T = fc.uncached_time_ns(t, _v(v, "file_cache.io_stack_factor"), transfer(v, dk, dev, dev_bw),
                                    transfer(v, rk, ref, ref_bw))
        return t, T, T + insert

    return dev, ins, timings


def file_cache_time_model(ids, device, *, cache_blocks: int, policy: str = "lru", block_size_bytes: int = 4096,
                          insertion: str | None = None, ghost_blocks: int | None = None,
                          storage_path: str | None = None) -> UncertainModel:
    """Mean storage access time [ns] of a DRAM file cache of ``cache_blocks`` over ``device`` (seed 004
    Figs. 3-5, :func:`models.storage.file_cache_sim.file_cache_curves`), the cache simulated once.

    The hits and insertions of the trace at that size (a point of its miss-ratio curve: LRU by
    stack distances, ``"ac"`` or ``"none"``) do not depend on any time; the page-cache and
    device timings of :func:`breakeven_model` vary over them analytically:
    ``(hits t + inserts Tm + (misses - inserts) T) / accesses``. No verdict.

    >>> from models.storage.file_cache_sim import file_cache_curves
    >>> ids = np.array([0, 1, 2, 0, 1, 3, 4, 0, 1, 5])
    >>> m = file_cache_time_model(ids, "hdd-7200", cache_blocks=3)
    >>> row = file_cache_curves(ids, "hdd-7200", cache_fractions=[0.5]).query("policy == 'lru'").iloc[0]
    >>> bool(np.isclose(m.point(), row.mean_access_ns, rtol=1e-12))
    True
    """
    from models.sim import simulate
    from models.sim.primitives import as_ids
    from models.sim.stack_distance import lru_hits
    from models.storage.file_cache import cache_run_time_ns

    a = as_ids(ids)
    n = len(a)
    if n == 0:
        raise ValueError("ids is empty: no accesses to replay")
    c = int(cache_blocks)
    if c < 1:
        raise ValueError(f"cache_blocks must be >= 1 (got {cache_blocks!r})")
    if policy == "none":
        hits = ins = 0
    elif policy == "lru":
        hits = int(np.asarray(lru_hits(a, [c])).reshape(-1)[0])
        ins = n - hits
    elif policy == "ac":
        r = simulate(a, c, "ac", ghost_blocks=c if ghost_blocks is None else int(ghost_blocks))
        hits, ins = int(r.hits), int(r.inserts)
    else:
        raise ValueError(f"policy must be 'none', 'lru' or 'ac' (got {policy!r})")
    miss = n - hits
    dev, ins_list, timings = file_cache_timings(device, block_size_bytes, insertion, None, storage_path=storage_path)

    def ev(v):
        t, T, Tm = timings(v)
        return cache_run_time_ns(hits, ins, miss, t, T, Tm) / n

    return UncertainModel("file-cache-time", "mean_access_ns", "ns", tuple(ins_list), ev,
                          notes=(f"{policy.upper()} cache of {c:,} blocks simulated once ({hits:,} hits, {ins:,} "
                                 f"insertions of {n:,} accesses); timings vary analytically",),
                          output_label=f"mean access time, {policy.upper()} cache over {dev.name}")


# ----------------------------------------------------------------------------- HDD
def hdd_model(device="hdd-7200", *, size_bytes: float = 4096.0) -> UncertainModel:
    """Mean service time of a random request on a catalogue HDD [ms]: ``seek + 30000 / rpm +
    size / bandwidth`` (the calibration of :func:`models.storage.hdd.generic_drive`).

    >>> round(hdd_model().point(), 2)
    8.24
    """
    from models.devices import DeviceProfile, get_device

    dev = device if isinstance(device, DeviceProfile) else get_device(device)
    if dev.kind != "hdd" or dev.avg_seek_ns is None or dev.rpm is None or dev.read_bandwidth_MBps is None:
        raise ValueError(f"device {dev.name!r} must be an HDD with avg_seek_ns, rpm and read_bandwidth_MBps")
    k = f"device:{dev.name}"
    ins = (device_input(dev, "avg_seek_ns", label=f"{dev.name} mean seek time"),
           device_input(dev, "rpm", label=f"{dev.name} spindle speed"),
           device_input(dev, "read_bandwidth_MBps", label=f"{dev.name} media bandwidth"))
    size = float(size_bytes)
    if not (np.isfinite(size) and 0 < size <= 1 << 40):
        raise ValueError(f"size_bytes must be a finite size in bytes within (0, 2^40] (got {size_bytes!r})")

    def ev(v):
        return (_v(v, f"{k}.avg_seek_ns") * 1e-6 + 30000.0 / _v(v, f"{k}.rpm")
                + size / (_v(v, f"{k}.read_bandwidth_MBps") * 1e3))

    return UncertainModel("hdd", "service_ms", "ms", ins, ev, notes=("closed form: random request",),
                          output_label=f"random {size / 1024:g} KiB service time")


# ----------------------------------------------------------------------------- write cache
def writecache_streams(trace, *, cache_mb: float, policy: str = "halo", drive: str = "hdd-7200", params=None,
                       lru_granularity: str = "sector", baseline: str = "none", hdd_rotation: str = "positioned"):
    """The HDD request streams of the ``baseline`` (default no cache) and the cache, split into time
    components [ms].

    Returns ``{baseline: (seek_ms, rot_ms, xfer_ms, other_ms), policy: (...)}``: sums over the
    stream of the seek time, the rotational latency (``hdd_rotation`` as in
    :func:`models.storage.write_cache.run_write_cache`: from the platter position, or half a
    rotation), the media transfer and the rest (overheads, write settle), at the drive's point
    values. Their total equals the execution time of
    :func:`models.storage.write_cache.run_write_cache` with the same ``hdd_rotation``
    (``exec_time_s`` x 1000). Varying the rpm scales the rotational sum (the platter positions
    are held at the point: a second-order effect).
    """
    from models.storage import write_cache as wc

    if hdd_rotation not in ("positioned", "expected"):
        raise ValueError(f"hdd_rotation must be 'positioned' or 'expected', got {hdd_rotation!r}")
    req = trace if isinstance(trace, wc.Requests) else wc.prepare_requests(trace)
    spec = wc._drive_spec(drive)
    out = {}
    for pol in (baseline, policy):
        run = wc.simulate_cache(req, pol, cache_mb, params=params if pol == "halo" else None,
                                lru_granularity=lru_granularity)
        if not len(run.hdd_lbn):
            out[pol] = (0.0, 0.0, 0.0, 0.0)
            continue
        parts = stream_parts_ms(spec, wc._drive_lbns(spec, run.hdd_lbn), run.hdd_nsect, run.hdd_write, hdd_rotation)
        out[pol] = tuple(float(x.sum()) for x in parts)
    return out


def stream_parts_ms(spec, lbn, nsect, is_write, hdd_rotation: str = "positioned"):
    """The seek, rotational latency, media transfer and other (overheads, write settle) time of each request of an
    HDD stream [ms] (``lbn`` folded onto the drive; arrays of :func:`writecache_streams`' sums, which a stream
    taken in chunks sums chunk by chunk with the previous request prepended)."""
    from models.storage.hdd.layout import lbn_to_chs
    from models.storage.hdd.seek import seek_time_ms
    from models.storage.hdd.stream import _positioned_latency_ms

    lb = np.minimum(np.asarray(lbn, np.int64), spec.block_count - 1)
    nb = np.asarray(nsect, np.int64)
    w = np.asarray(is_write, bool)
    cyl, _, _, bpt = lbn_to_chs(spec, lb)
    end_cyl = lbn_to_chs(spec, np.minimum(lb + nb - 1, spec.block_count - 1))[0]
    prev_end_cyl = np.concatenate([[cyl[0]], end_cyl[:-1]])
    prev_end_lbn = np.concatenate([[-1], (lb + nb)[:-1]])
    rnd = lb != prev_end_lbn
    dist = cyl - prev_end_cyl
    settle = np.where(w & (dist != 0), spec.write_settle_ms, 0.0)
    seek_raw = seek_time_ms(spec, dist)
    seek = np.maximum(seek_raw + settle, 0.0)
    oh = np.where(w, spec.write_miss_after_write_ms, spec.read_miss_after_read_ms) + spec.per_request_overhead_ms
    rot = spec.rotation_ms
    xfer = nb / bpt * rot
    seek_part = np.where(seek_raw + settle > 0, seek_raw, 0.0)
    lat = (_positioned_latency_ms(spec, lb, nb, oh + seek) if hdd_rotation == "positioned"
           else np.full(len(lb), 0.5 * rot))
    return seek_part * rnd, lat * rnd, xfer, (oh + seek - seek_part) * rnd


def hdd_stream_time_ms(parts, drive, avg_seek_ns, rpm, bandwidth_MBps):
    """HDD time of a request stream [ms] with the drive's mean seek time, rpm and bandwidth changed, vectorised:
    the stream's seek, half-rotation and transfer sums of :func:`writecache_streams` (``parts``, at the
    catalogue ``drive``'s values) scaled by ``seek / seek0``, ``rpm0 / rpm`` and ``bandwidth0 / bandwidth``,
    plus the rest. The one implementation: :func:`writecache_model`, the write-cache page's band and the
    planner call it.

    >>> from models.devices import get_device
    >>> d = get_device("hdd-7200")
    >>> float(hdd_stream_time_ms((10.0, 4.0, 2.0, 1.0), d, d.avg_seek_ns * 2, d.rpm, d.read_bandwidth_MBps))
    27.0
    """
    seek, rot, xfer, other = parts
    return (seek * np.asarray(avg_seek_ns, dtype=float) / drive.avg_seek_ns + rot * drive.rpm / np.asarray(rpm, dtype=float)
            + xfer * drive.read_bandwidth_MBps / np.asarray(bandwidth_MBps, dtype=float) + other)


def writecache_model(trace, *, cache_mb: float, policy: str = "halo", drive: str = "hdd-7200",
                     halo_inputs: bool = True, lru_granularity: str = "sector", params=None,
                     baseline: str = "none") -> UncertainModel:
    """HDD-time speedup of a PCM write cache over ``baseline`` (no cache, or ``"lru"``) [x] (seed 003
    §V-A), streams simulated once; ``params`` are HALO's constants (default: the registry's).

    The catalogue HDD's mean seek time scales the seek component, its rpm the rotational
    latency, its bandwidth the transfer time (the drive geometry stays at the point: a
    second-order effect). With ``halo_inputs`` HALO's destage threshold, TH_BCOUNTS and
    TH_RECENCY re-simulate at their range ends (tornado only).
    """
    from models.devices import get_device
    from models.storage import write_cache as wc

    if not str(drive).startswith("hdd-"):
        raise ValueError(f"the write-cache uncertainty varies a catalogue HDD (hdd-...), got {drive!r}")
    req = trace if isinstance(trace, wc.Requests) else wc.prepare_requests(trace)
    dev = get_device(drive)
    if baseline == policy:
        raise ValueError(f"baseline and policy are both {policy!r}")
    params = params or wc.HaloParams()
    parts = writecache_streams(req, cache_mb=cache_mb, policy=policy, drive=drive, params=params,
                               lru_granularity=lru_granularity, baseline=baseline)
    k = f"device:{dev.name}"
    ins = [device_input(dev, "avg_seek_ns", label="HDD mean seek time"),
           device_input(dev, "rpm", label="HDD spindle speed"),
           device_input(dev, "read_bandwidth_MBps", label="HDD media bandwidth")]
    rmap = {}
    if halo_inputs and policy == "halo":
        cap = wc.cache_blocks(cache_mb)
        for name, field, lab, val in (
                ("write_cache.destage_threshold", "threshold", "HALO destage threshold", params.threshold),
                ("write_cache.th_bcounts", "th_bcounts", "HALO TH_BCOUNTS", params.th_bcounts),
                ("write_cache.th_recency_per_capacity", "th_recency", "HALO TH_RECENCY",
                 None if params.th_recency is None else params.th_recency / max(cap, 1))):
            ins.append(param_input(name, value=val, label=lab, resimulates=True))
            rmap[name] = field

    def total(v, p):
        return hdd_stream_time_ms(p, dev, _v(v, f"{k}.avg_seek_ns"), _v(v, f"{k}.rpm"),
                                  _v(v, f"{k}.read_bandwidth_MBps"))

    def ev(v):
        t_none, t_c = total(v, parts[baseline]), total(v, parts[policy])
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(t_c > 0, t_none / np.where(t_c > 0, t_c, 1.0), np.inf)

    def resim(overrides):
        kw = {}
        for name, val in overrides.items():
            if name == "write_cache.th_recency_per_capacity":
                kw["th_recency"] = val * wc.cache_blocks(cache_mb)
            else:
                kw[rmap[name]] = val
        p = writecache_streams(req, cache_mb=cache_mb, policy=policy, drive=drive,
                               params=params.model_copy(update=kw), lru_granularity=lru_granularity,
                               baseline=baseline)
        pts = {i.name: i.point for i in ins}
        return float(np.asarray(ev_parts(pts, p)).reshape(-1)[0])

    def ev_parts(v, p):
        t_none, t_c = total(v, p[baseline]), total(v, p[policy])
        return np.where(t_c > 0, t_none / np.where(t_c > 0, t_c, 1.0), np.inf)

    return UncertainModel(
        "writecache", "speedup", "x", tuple(ins), ev,
        Verdict(1.0, False, f"a {cache_mb:.3g} MB PCM write cache ({policy}) beats "
                            + ("no cache" if baseline == "none" else f"a {baseline} one")),
        resimulate=resim if rmap else None,
        notes=("HDD request streams without and with the cache simulated once and split into seek, rotation "
               "and transfer time; HDD figures vary analytically (drive geometry held at the point)",),
        output_label=("HDD time without / with the PCM write cache" if baseline == "none"
                      else f"HDD time {baseline} / {policy}"))


# ----------------------------------------------------------------------------- file-cache share (planner)
def file_cache_share_model(ids, device, *, block_size_bytes: int = 4096, insertion: str | None = None,
                           storage_path: str | None = None) -> UncertainModel:
    """Share of blocks a DRAM cache over ``device`` cannot help (``1 - share reused more than
    n*``), the planner's file-cache role; reuse histogram once, n* from :func:`breakeven_model`."""
    from models.storage.file_cache_sim import reuse_histogram

    h = reuse_histogram(ids)
    counts = h["access_count"].to_numpy(float)
    blocks = h["blocks"].to_numpy(float)
    order = np.argsort(counts)
    counts, blocks = counts[order], blocks[order]
    cum = np.concatenate([[0.0], np.cumsum(blocks)])
    total = cum[-1]
    be = breakeven_model(device=device, block_size_bytes=block_size_bytes, insertion=insertion,
                         storage_path=storage_path)

    def ev(v):
        ns = np.asarray(be.evaluate(v), dtype=float)
        idx = np.searchsorted(counts, ns, side="right")  # blocks with count <= n* cannot gain
        return cum[idx] / total

    return UncertainModel("file-cache", "share_not_helped", "-", be.inputs, ev,
                          Verdict(0.5, False, "a DRAM cache over PCM cannot help most blocks"),
                          notes=("reuse histogram of the trace once; n* varies analytically",),
                          output_label="share of blocks a DRAM cache cannot help")


# ----------------------------------------------------------------------------- Filebench workload (storage roles)
#: Device columns of a storage configuration's devices that the Filebench model reads (the latencies and
#: bandwidths of :meth:`models.devices.DeviceProfile.transfer_ns`).
_WORKLOAD_DEVICE_COLUMNS = ("read_latency_ns", "write_latency_ns", "read_bandwidth_MBps", "write_bandwidth_MBps")


def _workload_config_inputs(cfg, ins: dict, setters: list) -> None:
    """Add the uncertain inputs of one storage configuration to ``ins`` (name -> input, shared between the
    configurations of a ratio when they name the same value) and ``setters`` (how a sample becomes a
    configuration: ``(input name, target, column)``, target ``"device"``, ``"host_device"`` or a
    :class:`~models.storage.workload.StorageConfig` field)."""
    from models.provenance import param

    def add(inp, target, column):
        if inp.name in ins and ins[inp.name].point != inp.point:  # same name, another value: one input each
            inp = dataclasses.replace(inp, name=f"{inp.name}@{cfg.name}", label=f"{inp.label} ({cfg.name})")
        ins.setdefault(inp.name, inp)
        setters.append((inp.name, target, column))

    for target in ("device", "host_device"):
        dev = getattr(cfg, target)
        if dev is None:
            continue
        for col in _WORKLOAD_DEVICE_COLUMNS:
            if getattr(dev, col) is not None:
                add(device_input(dev, col, label=f"{dev.name} {col.replace('_MBps', '').replace('_ns', '').replace('_', ' ')}"),
                    target, col)
    for field, key, label, integer, applies in (
            ("virt_per_op_ns", "workload.virt_per_op_ns", "VM overhead per data/sync call", False,
             cfg.virt_per_op_ns > 0),
            ("page_cache_bytes", "workload.page_cache_bytes", "guest page cache", False, cfg.mode == "pagecache"),
            ("host_memory_bytes", "workload.host_memory_bytes", "host memory mapping the vPCM file", False,
             cfg.mode == "dax" and cfg.host_device is not None),
            ("device_servers", "workload.ssd_servers", "SSD parallel units", True,
             cfg.device.name == "sata-ssd" and cfg.device_servers == param("workload.ssd_servers").value),
            ("host_device_servers", "workload.ssd_servers", "SSD parallel units", True,
             cfg.host_device is not None and cfg.host_device.name == "sata-ssd"
             and cfg.host_device_servers == param("workload.ssd_servers").value)):
        if not applies:
            continue
        v = getattr(cfg, field)
        add(param_input(key, value=v, label=label, integer=integer), "config", field)


def workload_model(workload, config, *, ref=None, threads: int | None = None) -> UncertainModel:
    """Filebench throughput [ops/s] of ``workload`` on ``config``, or its speedup over ``ref`` [x]
    (seed 000; :func:`models.storage.workload.evaluate`), evaluated at every sample.

    The mean-value model is closed form per sample (demands, then exact MVA with the group-commit and
    write-back fixed points), so nothing is simulated once: all samples go through
    :func:`~models.storage.workload.evaluate_many`, which gives what
    :func:`~models.storage.workload.evaluate` (``curve=False``, the largest thread count) gives on the
    configuration(s) with each sample's values, with the same arithmetic, vectorised (the demand walk
    once with arrays, the fixed points and MVA per sample in numba; ``bench/bench_uncertainty.py``).

    Uncertain inputs: the read/write latency and bandwidth of each configuration's device and VM
    host device (catalogue, by provenance kind; a device shared by ``config`` and ``ref`` is one
    input), the VM overhead per call (``workload.virt_per_op_ns``, assumed) of the vPCM
    configurations, the page cache (``workload.page_cache_bytes``, assumed) of page-cached ones,
    the host memory of vPCM-on-a-device ones and the SATA SSD's parallel units
    (``workload.ssd_servers``, assumed, integer). Held at their points (said in ``notes``): the
    measured system-call, page-cache and fsync costs (read once by the model's cached cost tables),
    the DRAM reference of the DAX copy, ``workload.gated_wait`` and the CPU cores.

    Parameters
    ----------
    workload : str or Workload
        Personality name (Table 1 preset for the four of seed 000) or parsed workload.
    config : str or StorageConfig
        Storage configuration (``"pcm-dax"``, ``"hdd"``, ...).
    ref : str or StorageConfig, keyword-only
        Reference configuration: the output is ``ops(config) / ops(ref)`` with the verdict
        "``config`` beats ``ref``" (speedup > 1).
    threads : int, keyword-only
        Threads (default: the workload's).

    Returns
    -------
    UncertainModel

    >>> from models.storage import workload as wf
    >>> m = workload_model("varmail", "pcm-dax", ref="hdd", threads=4)
    >>> r = wf.evaluate(wf.as_workload("varmail"), "pcm-dax", threads=4, curve=False).ops_per_s
    >>> r0 = wf.evaluate(wf.as_workload("varmail"), "hdd", threads=4, curve=False).ops_per_s
    >>> m.point() == r / r0, m.verdict.statement
    (True, 'pcm-dax beats hdd (Filebench varmail throughput)')
    """
    from models.storage import workload as wf

    w = wf.as_workload(workload)
    cfgs = [wf.get_config(config)] + ([wf.get_config(ref)] if ref is not None else [])
    n_threads = int(threads) if threads is not None else w.nthreads
    ins: dict[str, UncertainInput] = {}
    setters = []
    for c in cfgs:
        s = []
        _workload_config_inputs(c, ins, s)
        setters.append(s)
    names = list(ins)

    def ev(v):
        arrs = np.broadcast_arrays(*(np.asarray(v[k], dtype=float) for k in names))
        shape = arrs[0].shape if arrs else ()
        vals = {k: a.reshape(-1) for k, a in zip(names, arrs, strict=True)}
        out = None
        for c, sets in zip(cfgs, setters, strict=True):
            ch = {}
            for name, target, col in sets:  # servers: int(round(v)) per sample (half to even, as np.rint)
                a = np.rint(vals[name]) if col.endswith("servers") else vals[name]
                ch[col if target == "config" else f"{target}.{col}"] = a
            o = np.asarray(wf.evaluate_many(w, c, ch, threads=n_threads), dtype=float).reshape(-1)
            out = o if out is None else out / o
        return out.reshape(shape) if shape else out[0]

    held = ("held at their points: the measured system-call, page-cache and fsync costs, the DRAM reference of the "
            "DAX copy, workload.gated_wait and the CPU cores")
    each = ("every sample re-evaluates the Filebench mean-value model (demands + exact MVA, " f"{n_threads} threads; "
            "vectorised over the samples: models.storage.workload.evaluate_many)")
    if ref is None:
        return UncertainModel("workload", "ops_per_s", "ops/s", tuple(ins.values()), ev, notes=(each, held),
                              output_label=f"{w.name} throughput on {cfgs[0].name}")
    return UncertainModel("workload", "speedup", "x", tuple(ins.values()), ev,
                          Verdict(1.0, False, f"{cfgs[0].name} beats {cfgs[1].name} (Filebench {w.name} throughput)"),
                          notes=(each, held), output_label=f"{w.name} throughput {cfgs[0].name} / {cfgs[1].name}")


# ----------------------------------------------------------------------------- device characterization (fio mix)
def device_mix_model(profile="psd", pattern: str = "seq", write_fraction: float = 0.1, *, output: str = "write_rel",
                     depth: float = 64, reference: float = 0.5, scheduling=None, requests: int | None = None,
                     seed=0) -> UncertainModel:
    """Read or write latency at ``write_fraction`` relative to a 50/50 mix [-] (seed 001 Fig. 3,
    :func:`models.storage.device_char.mix_sensitivity`): a queue simulation, so every input
    re-simulates (tornado only; the band is the point, as for any re-simulating input).

    Inputs of a preset (registry ``device_char.*``): the read service time, the write/read ratio
    of the pattern and, for the SSD, its parallel units and sequential parallelism (the PSD's
    three controllers are exact). A custom :class:`~models.storage.device_char.CharProfile`:
    its read and write service times of the pattern, +-20 % (user-defined). The simulation's
    random request kinds are the same at every input value (``seed``: common random numbers),
    so the tornado's differences are the inputs' effect, not noise.

    >>> from models.storage import device_char as dc
    >>> m = device_mix_model("psd", "seq", 0.1, scheduling="fcfs", requests=20_000)
    >>> want = dc.mix_sensitivity(dc.get_profile("psd"), "seq", [0.1], scheduling="fcfs", requests=20_000)
    >>> m.point() == float(want.write_rel.iloc[0]), [i.resimulates for i in m.inputs]
    (True, [True, True])
    """
    from models.storage import device_char as dc

    if output not in ("write_rel", "read_rel"):
        raise ValueError(f"output must be 'write_rel' or 'read_rel' (got {output!r})")
    dc._check("read", pattern)
    preset = isinstance(profile, str)
    prof = dc.get_profile(profile) if preset else profile
    req = int(requests if requests is not None else param_input("device_char.mix_requests").point)
    if preset and prof.name == "psd":
        spec = [param_input("device_char.psd.read_us", label="PSD read service time"),
                param_input("device_char.psd.write_read_ratio", label="PSD write/read service time")]
    elif preset and prof.name == "ssd":
        spec = [param_input("device_char.ssd.read_us", label="SSD read service time"),
                param_input(f"device_char.ssd.write_read_ratio_{pattern}",
                            label=f"SSD write/read service time ({pattern})"),
                param_input("device_char.ssd.servers_rand", label="SSD parallel units", integer=True)]
        if pattern == "seq":
            spec.append(param_input("device_char.ssd.seq_parallelism", label="SSD sequential parallelism"))
    else:
        spec = [user_input(f"{pattern}.read_us", f"{prof.name} {pattern} read service time", "us",
                           prof.service_us("read", pattern)),
                user_input(f"{pattern}.write_us", f"{prof.name} {pattern} write service time", "us",
                           prof.service_us("write", pattern))]
    ins = tuple(dataclasses.replace(i, resimulates=True) for i in spec)
    names = [i.name for i in ins]

    def profile_at(v: dict):
        if preset and prof.name == "psd":
            r, x = v["device_char.psd.write_read_ratio"], v["device_char.psd.read_us"]
            ch = {"read_rand_us": x, "read_seq_us": x, "write_rand_us": x * r, "write_seq_us": x * r}
        elif preset and prof.name == "ssd":
            x = v["device_char.ssd.read_us"]
            servers = float(round(v["device_char.ssd.servers_rand"]))
            ch = {f"read_{pattern}_us": x, f"write_{pattern}_us": x * v[f"device_char.ssd.write_read_ratio_{pattern}"],
                  "servers_rand": servers}
            if pattern == "seq":
                ch["servers_seq"] = servers * v["device_char.ssd.seq_parallelism"]
        else:
            ch = {f"read_{pattern}_us": v[names[0]], f"write_{pattern}_us": v[names[1]]}
        return prof.model_copy(update=ch)

    def one(v: dict) -> float:
        df = dc.mix_sensitivity(profile_at(v), pattern, [float(write_fraction)], depth=depth, reference=reference,
                                scheduling=scheduling, requests=req, seed=seed)
        return float(df[output].iloc[0])

    def ev(v):
        arrs = np.broadcast_arrays(*(np.asarray(v[k], dtype=float) for k in names))
        flat = [a.reshape(-1) for a in arrs]
        out = np.array([one({k: float(f[i]) for k, f in zip(names, flat, strict=True)}) for i in range(flat[0].size)])
        return out.reshape(arrs[0].shape) if arrs[0].shape else out[0]

    pts = {i.name: i.point for i in ins}

    def resim(overrides):
        return one({**pts, **overrides})

    kind = "write" if output == "write_rel" else "read"
    return UncertainModel("device-mix", output, "-", ins, ev, resimulate=resim,
                          notes=(f"a queue simulation of {req:,} requests per mix (seed {seed}): every input re-runs it",),
                          output_label=f"{prof.name} {pattern} {kind} latency at {write_fraction:.0%} writes / at "
                                       f"{reference:.0%}")


#: The former private name of :func:`file_cache_timings` (``models.planner.plan`` imports it from the adapters).
_device_timings = file_cache_timings
