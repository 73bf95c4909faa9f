"""A plan row re-timed for other device specs: the role's counts simulated once, its value recomputed per device.

:func:`role_retimers` runs, for one workload, the part of each role's model that does not depend on the
device's timings (LRU hits of the file cache, the HALO write cache's HDD streams, the paging profile and
its fault rate, the memory extension's fault and write-back counts, the replayed trace itself) and returns
for every evaluated ``(role, device)`` a :class:`Retimer`: ``values(variants)`` gives the role's value
(baseline / device [x], the plan's ``value``) for a list of variants of the device
(:meth:`models.devices.DeviceProfile.with_updates`), through the models' own timing functions:

==================  =====================================================================================
role                re-timed with (per variant, counts fixed)
==================  =====================================================================================
file-cache          :func:`models.storage.file_cache.timings_from_device` and
                    :func:`~models.storage.file_cache.cache_run_time_ns` on the LRU hits
storage (block)     :func:`models.planner.replay.replay_mean_response_many_ns` (the FIFO replay, one pass)
storage (fio)       :func:`models.planner.fio.fio_ns_per_io`
storage (Filebench) :func:`models.storage.workload.evaluate` on the device's configuration
paging              :func:`models.memory.paging.fault_service_ns` and :func:`~models.memory.paging.amat` on the
                    profile's fault and TLB-miss rates
memory-extension    :func:`models.memory.uncertainty.memext_model` (counts of one simulation, the bounded
                    eviction buffer's stalls by replaying only the misses), page times of
                    :meth:`~models.devices.DeviceProfile.transfer_ns`
write-cache         :func:`models.devices.transfer_time_ns` of every written request, summed in closed form
                    (``n_w * latency + bytes beyond the first unit / bandwidth``), plus the HALO run's HDD time
==================  =====================================================================================

At the device's own specs each retimer gives the plan's value (``tests/models/planner/test_targets.py``).
A row the retimer cannot follow says why (``Retimer.why_not``): a catalogue HDD replayed with the HDD model
(seek, rotation), whose latency and bandwidth columns do not drive that model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from models.devices import DeviceProfile, get_device
from models.planner.roles import LIKE_FOR_LIKE, is_volatile
from models.provenance import param

__all__ = ["Retimer", "role_retimers", "block_retimers", "memory_retimers"]


@dataclass(frozen=True)
class Retimer:
    """The value of one plan row (workload x role x device) as a function of the device's specs."""

    #: The workload's name.
    workload: str
    #: The role.
    role: str
    #: The device (its own specs: the plan's row).
    device: DeviceProfile
    #: ``values(variants) -> ndarray``: the role's value [x] for each variant of :attr:`device`.
    values: Callable[[Sequence[DeviceProfile]], np.ndarray]
    #: Device columns the role's model reads (the others leave the value unchanged).
    uses: tuple[str, ...]
    #: Why specs cannot be re-timed ("" : they can).
    why_not: str = ""
    #: The baseline device the value is measured against (None: none, e.g. no write cache), re-timed through the
    #: same ``values`` when ``values([baseline])`` is 1 (the spec targets' uncertainty bands read it).
    baseline: DeviceProfile | None = None

    def value(self, variant: DeviceProfile) -> float:
        """The role's value [x] for one variant."""
        return float(np.asarray(self.values([variant]), dtype=float)[0])


@dataclass(frozen=True)
class _ReplayArrays:
    """A block trace's columns converted once for the replays [ns, -, bytes, bytes]."""

    time_ns: np.ndarray
    is_write: np.ndarray
    size_bytes: np.ndarray
    offset_bytes: np.ndarray


def _ratio(ref: float, times) -> np.ndarray:
    t = np.asarray(times, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(t > 0, ref / np.where(t > 0, t, 1.0), np.inf)


def block_retimers(name: str, tr, devs, base) -> list[Retimer]:
    """Retimers of the file-cache, storage and write-cache rows of block trace ``tr`` (workload ``name``)."""
    from models.planner.replay import (
        is_modelled_hdd,
        replay_mean_response_many_ns,
        replay_mean_response_ns,
    )
    from models.storage import file_cache as fc
    from models.storage import file_cache_sim as fcs
    from models.storage import write_cache as wc
    from models.traces import split_blocks

    out = []
    # --- file cache: LRU hits of a DRAM cache of planner.file_cache_fraction of the footprint, simulated once
    fbase = base or get_device(LIKE_FOR_LIKE["file-cache"])
    frac = float(param("planner.file_cache_fraction").value)
    ids = split_blocks(tr).block
    lru = fcs.file_cache_curves(ids, fbase, cache_fractions=[frac]).query("policy == 'lru'").iloc[0]
    hits, n = int(lru.hits), len(ids)
    miss = n - hits

    def fc_time(d):
        be = fc.timings_from_device(d, 4096)
        return fc.cache_run_time_ns(hits, miss, miss, be.t_ns, be.T_ns, be.Tm_ns)

    t_fb = fc_time(fbase)
    for d in devs:
        if not is_volatile(d) and d.name != fbase.name:
            out.append(Retimer(name, "file-cache", d, lambda vs: _ratio(t_fb, [fc_time(v) for v in vs]),
                               ("read_latency_ns", "read_bandwidth_MBps", "access_unit_bytes"), baseline=fbase))
    # --- storage: the trace replayed (one FIFO pass per variant)
    if getattr(tr, "op_known", True):
        sbase = base or get_device(LIKE_FOR_LIKE["storage"])
        rb, _ = replay_mean_response_ns(tr, sbase)
        arrays = _ReplayArrays(np.asarray(tr.time_ns, dtype=float), np.asarray(tr.is_write, dtype=np.bool_),
                               np.asarray(tr.size_bytes, dtype=float), tr.offset_bytes)
        for d in devs:
            if is_volatile(d) or d.name == sbase.name:
                continue
            why = ("a catalogue HDD is replayed with the HDD model (seek from the previous request, half a rotation, "
                   "media transfer), which its latency and bandwidth columns do not drive" if is_modelled_hdd(d)
                   else "")
            out.append(Retimer(name, "storage", d,
                               lambda vs: _ratio(rb, replay_mean_response_many_ns(arrays, vs)),
                               ("read_latency_ns", "write_latency_ns", "read_bandwidth_MBps", "write_bandwidth_MBps",
                                "access_unit_bytes"), why, sbase))
    # --- write cache: the HALO run's HDD time once; the device's absorb time in closed form
    if getattr(tr, "op_known", True) and len(tr) and np.asarray(tr.is_write).any() and \
            (base is None or base.kind not in ("dram", "hdd")):
        mb = float(param("planner.write_cache_mb").value)
        req = wc.prepare_requests(tr)
        halo_s = float(wc.run_write_cache(req, "halo", mb).exec_time_s)
        sizes = np.asarray(tr.size_bytes, float)[np.asarray(tr.is_write, bool)]

        beyond: dict[int, float] = {}  # bytes written beyond the first access unit, per unit size [B]

        def absorb_s(v):  # sum of transfer_time_ns over the written requests, in closed form [s]
            if v.access_unit_bytes not in beyond:
                beyond[v.access_unit_bytes] = float(np.maximum(0.0, sizes - v.access_unit_bytes).sum())
            extra = beyond[v.access_unit_bytes]
            return (len(sizes) * v.write_latency_ns + extra / (v.effective_write_bandwidth_MBps * 1e6) * 1e9) / 1e9

        t_ref = float(wc.run_write_cache(req, "none", 0.0).exec_time_s) if base is None else halo_s + absorb_s(base)
        for d in devs:
            if d.kind in ("dram", "hdd") or (base is not None and d.name == base.name):
                continue
            out.append(Retimer(name, "write-cache", d, lambda vs: _ratio(t_ref, [halo_s + absorb_s(v) for v in vs]),
                               ("write_latency_ns", "write_bandwidth_MBps", "access_unit_bytes"), baseline=base))
    return out


def memory_retimers(name: str, mt, devs, base) -> list[Retimer]:
    """Retimers of the paging and memory-extension rows of memory trace ``mt`` (workload ``name``)."""
    from models.memory import memory_extension as me
    from models.memory import paging as pg
    from models.memory.uncertainty import memext_model

    out = []
    # --- paging: the profile's TLB-miss and fault rates once; the fault service time per variant
    pbase = base or get_device(LIKE_FOR_LIKE["paging"])
    frac = float(param("planner.paging_memory_fraction").value)
    prof = pg.paging_profile(mt, pg.paging_inputs(memory_fraction=frac, page_sizes_bytes=(4096,)))
    inp = pg.paging_inputs(memory_fraction=frac, page_sizes_bytes=(4096,), device=pbase)
    row = pg.paging_table(prof, inp).iloc[0]

    def amat(v):
        tpf = pg.fault_service_ns([4096], pg.storage_from_device(v, t_r_ns=inp.t_r), inp.fault_overhead_ns,
                                  fault_model=inp.fault_model)
        return float(np.ravel(pg.amat(row.tlb_miss_rate, row.fault_rate, t_e_ns=inp.t_e_ns, t_r_ns=inp.t_r,
                                      t_pf_ns=tpf)[2])[0])

    a_b = amat(pbase)
    for d in devs:
        if not is_volatile(d) and d.name != pbase.name:
            out.append(Retimer(name, "paging", d, lambda vs: _ratio(a_b, [amat(v) for v in vs]),
                               ("read_latency_ns", "read_bandwidth_MBps"), baseline=pbase))
    # --- memory extension: fault and write-back counts once (they do not depend on any time)
    mbase = base or get_device(LIKE_FOR_LIKE["memory-extension"])
    stream = me.page_stream(mt)
    cfg = me.MemExtConfig()
    rb = me.simulate_memext(stream, cfg, device=mbase)
    local = get_device("dram")
    for d in devs:
        if (is_volatile(d) and d.read_latency_ns <= local.read_latency_ns) or d.name == mbase.name:
            continue
        r0, w0 = cfg.latencies(d)
        r = me.simulate_memext(stream, cfg, device=d)
        m = memext_model(stream, cfg.model_copy(update={"read_ns": r0, "write_ns": w0}), device=d, baseline=None,
                         result=r)
        point = {i.name: np.asarray(i.point, float) for i in m.inputs}
        kr, kw = f"{d.name}.read_latency_ns", f"{d.name}.write_latency_ns"

        def slow(vs, m=m, point=point, kr=kr, kw=kw):
            lat = np.array([cfg.latencies(v) for v in vs], dtype=float).reshape(-1, 2)
            vals = {**point, kr: lat[:, 0], kw: lat[:, 1]}
            return np.asarray(m.evaluate(_broadcast(vals)), dtype=float)

        out.append(Retimer(name, "memory-extension", d, lambda vs, slow=slow: float(rb.slowdown) / slow(vs),
                           ("read_latency_ns", "write_latency_ns", "read_bandwidth_MBps", "write_bandwidth_MBps",
                            "access_unit_bytes"), baseline=mbase))
    return out


def _broadcast(vals: dict) -> dict:
    """An adapter's values mapping with every array broadcast to the variants' count."""
    n = max(np.size(v) for v in vals.values())
    return {k: np.broadcast_to(np.asarray(v, float), (n,)) for k, v in vals.items()}


def _filebench(w, devs, base) -> list[Retimer]:
    from models.planner.role_storage import _storage_config
    from models.storage import workload as wf

    wl = wf.as_workload(w.source)
    bcfg = wf.get_config("ssd") if base is None else _storage_config(base)
    ref = float(wf.evaluate(wl, bcfg, curve=False).ops_per_s)
    out = []
    for d in devs:
        if is_volatile(d) or (base is not None and d.name == base.name):
            continue
        cfg = _storage_config(d)

        def ops(vs, cfg=cfg):
            return np.array([wf.evaluate(wl, cfg.model_copy(update={"device": v}), curve=False).ops_per_s
                             for v in vs], dtype=float) / ref

        out.append(Retimer(w.name, "storage", d, ops, ("read_latency_ns", "write_latency_ns", "read_bandwidth_MBps",
                                                       "write_bandwidth_MBps", "access_unit_bytes"), baseline=base))
    return out


def _fio(w, devs, base) -> list[Retimer]:
    from models.planner.fio import fio_ns_per_io, read_fio_jobs

    jobs = read_fio_jobs(w.source)
    bdev = base or get_device(LIKE_FOR_LIKE["storage"])

    def mean_ns(v):
        return float(np.mean([fio_ns_per_io(j, v) for j in jobs]))

    tb = mean_ns(bdev)
    return [Retimer(w.name, "storage", d, lambda vs: _ratio(tb, [mean_ns(v) for v in vs]),
                    ("read_latency_ns", "write_latency_ns", "read_bandwidth_MBps", "write_bandwidth_MBps",
                     "access_unit_bytes"), baseline=bdev)
            for d in devs if not is_volatile(d) and d.name != bdev.name]


def role_retimers(w, devs: Sequence[DeviceProfile], base: DeviceProfile | None, *, n_requests: int | None = None,
                  memory_refs: int | None = None) -> list[Retimer]:
    """The :class:`Retimer` of every evaluable ``(role, device)`` of workload ``w``
    (:class:`~models.planner.workloads.PlanWorkload`), the trace read as :func:`models.planner.plan.plan` reads it.

    Parameters
    ----------
    w : PlanWorkload
        The workload.
    devs : sequence of DeviceProfile
        The devices.
    base : DeviceProfile or None
        The baseline device (None: each role's like-for-like baseline).
    n_requests, memory_refs : int or None, keyword-only
        As :func:`models.planner.plan.plan`.

    Returns
    -------
    list of Retimer
        Rows the plan marks not applicable or needs data have none, nor a device that is the baseline.
    """
    return workload_retimers(w, devs, base, n_requests=n_requests, memory_refs=memory_refs)[0]


def workload_retimers(w, devs, base, *, n_requests: int | None = None,
                      memory_refs: int | None = None) -> tuple[list[Retimer], str]:
    """:func:`role_retimers` and why a block or memory workload has none: ``""``, or why its trace is planned by
    streaming (:func:`models.planner.plan.read_block`, :func:`models.planner.plan.read_memory`: too large to load
    whole) -- a re-timer needs the trace's counts in
    memory, and a verdict re-timed on a cut trace would not be the plan's."""
    from models import traces
    from models.budget import BudgetExceeded
    from models.planner.plan import read_block, read_memory

    if w.kind == "block":
        tr, _, why = read_block(traces, w, n_requests)
        if tr is None:
            return [], why
        return (block_retimers(w.name, tr, devs, base) if len(tr) else []), ""
    if w.kind == "memory":
        try:  # the plan read it the same way: a trace refused there (needs data) has no re-timer here either
            mt, _, why = read_memory(w, memory_refs)
        except BudgetExceeded:
            return [], ""
        if mt is None:  # streamed by the plan (models/planner/stream_memory.py): no re-timer from a cut trace
            return [], why
        return (memory_retimers(w.name, mt, devs, base) if len(mt) else []), ""
    if w.kind == "filebench":
        return _filebench(w, devs, base), ""
    return _fio(w, devs, base), ""

