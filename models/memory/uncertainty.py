"""Uncertainty adapters of the memory models (paging AMAT, memory extension): their uncertain inputs
and headline output, vectorised over samples (:mod:`models.uncertainty`; the table of what each
simulates once is in ``docs/uncertainty.md``), each registered with its model (:mod:`models.spec`).

The memory-extension adapter prices the model's counts with the model's own page transfer time
(:func:`models.devices.transfer_time_ns`); with a bounded eviction buffer it replays only the misses
(:mod:`models.memory.memext_events`, whose events come from the model's kernel).

References
----------
.. [1] Seeds 002 and 004 (the models' own references, in their modules).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from models.uncertainty.core import (
    UncertainModel,
    Verdict,
    device_input,
    param_input,
    user_input,
)
from models.uncertainty.core import sample_values as _v

__all__ = ["amat_model", "memext_model"]


# ----------------------------------------------------------------------------- AMAT (paging)
def amat_model(profile, inputs, *, page_size: int | None = None, memory_index: int = 0) -> UncertainModel:
    """AMAT [ns] of one page size and memory size from a :class:`~models.memory.paging.PagingProfile`
    computed once (seed 004 eqs. 4-6).

    The TLB miss rate at any TLB size comes from the profile's stack distances, so the TLB
    size varies without re-simulation; the fault rate is the profile's (CLOCK or LRU) at the
    memory size. Storage: a device's read latency and bandwidth vary by their provenance; a
    latency multiple ``k`` is held and moves with ``t_r``; a typed latency varies +-20 %.
    """
    from models.devices import get_device
    from models.memory import paging as pg

    ps = int(page_size or (4096 if 4096 in inputs.page_sizes_bytes else inputs.page_sizes_bytes[0]))
    if ps not in profile.pages:
        raise ValueError(f"page size {ps} not in the profile: {profile.page_sizes}")
    pp = profile.pages[ps]
    mem = float(profile.memory_bytes(**inputs.memory_kwargs())[memory_index])
    rf = float((pp.clock_fault_rate(mem) if inputs.policy == "clock" else pp.lru_fault_rate(mem)).reshape(-1)[0])
    ins = [param_input("paging.tlb_entries", value=inputs.tlb_entries, label="TLB entries", integer=True),
           param_input("paging.tlb_access_ns", value=inputs.t_e_ns, label="TLB access time t_e"),
           param_input("paging.fault_overhead_ns", value=inputs.fault_overhead_ns, label="page-fault overhead")]
    if inputs.t_r_ns is None or inputs.t_r_ns == pg.default_memory_ns():
        ins.append(device_input("dram", "read_latency_ns", label="DRAM access time t_r"))
    else:
        ins.append(user_input("t_r_ns", "memory access time t_r", "ns", inputs.t_r_ns))
    tr_name = ins[-1].name
    storage = inputs.storages()[0]
    if inputs.device is not None:
        dev = get_device(inputs.device)
        ins.append(device_input(dev, "read_latency_ns", label=f"{dev.name} read latency"))
        lat = lambda v: _v(v, f"device:{dev.name}.read_latency_ns")  # noqa: E731
        if dev.read_bandwidth_MBps is not None:
            ins.append(device_input(dev, "read_bandwidth_MBps", label=f"{dev.name} read bandwidth"))
            bw = lambda v: _v(v, f"device:{dev.name}.read_bandwidth_MBps")  # noqa: E731
        else:  # bandwidth = access unit / latency
            bw = lambda v: dev.access_unit_bytes / lat(v) * 1e3  # noqa: E731
    elif inputs.storage_latency_ns is not None:
        ins.append(user_input("storage_latency_ns", "storage latency", "ns", storage.latency_ns))
        lat = lambda v: _v(v, "storage_latency_ns")  # noqa: E731
        b0, l0 = storage.bandwidth_MBps, storage.latency_ns
        bw = ((lambda v: b0 + 0 * lat(v)) if inputs.storage_bandwidth_MBps is not None
              else (lambda v: b0 * l0 / lat(v)))
    else:  # latency multiple k of t_r
        kmul, b0 = storage.latency_multiple, storage.bandwidth_MBps
        lat = lambda v: kmul * _v(v, tr_name)  # noqa: E731
        bw = lambda v: b0 + 0 * _v(v, tr_name)  # noqa: E731
    hits, nref, fp = pp.lru_hits, pp.n_refs, pp.footprint_pages

    def ev(v):
        e = np.minimum(np.maximum(_v(v, "paging.tlb_entries"), 0), fp).astype(np.int64)
        rt = 1.0 - hits[e] / nref
        te, t_r = _v(v, "paging.tlb_access_ns"), _v(v, tr_name)
        if inputs.fault_model == "transfer":  # latency per 64-B line (issue 15)
            from models.provenance import param

            tpf = _v(v, "paging.fault_overhead_ns") + lat(v) * np.ceil(ps / param("nvm.line_bytes").value)
        else:
            tpf = _v(v, "paging.fault_overhead_ns") + lat(v) + ps / (bw(v) * 1e6) * 1e9
        return te + rt * t_r + t_r + rf * tpf

    return UncertainModel(
        "amat", "amat_ns", "ns", tuple(ins), ev,
        notes=(f"one profile of the trace: TLB sizes from stack distances, fault rate {rf:.4g} at "
               f"{mem / 2**20:.4g} MiB ({inputs.policy}) simulated once; costs vary analytically",),
        output_label=f"AMAT at {ps} B pages")


# ----------------------------------------------------------------------------- memory extension
def _tref_input(stream, value: float, *, resimulates: bool):
    """The DRAM-only time per reference as an uncertain input (named ``memext.base_ns_per_ref``).

    When ``value`` is the measured time base of the stream's own program
    (``memext.ns_per_ref.<program>``, :func:`models.memory.measured.ns_per_ref`), its spread is that
    program's measured runs, not the spread across all programs of the generic default.
    """
    from models.memory.measured import _program, ns_per_ref

    name = getattr(stream, "name", "") or ""
    own = ns_per_ref(name) if name else None
    if own is not None and math.isclose(own, value, rel_tol=1e-9):
        i = param_input(f"memext.ns_per_ref.{_program(name)}", value=value,
                        label=f"DRAM-only time per reference ({_program(name)}, measured)", resimulates=resimulates)
        return dataclasses.replace(i, name="memext.base_ns_per_ref")
    return param_input("memext.base_ns_per_ref", value=value, label="DRAM-only time per reference",
                       resimulates=resimulates)


def memext_model(stream, cfg=None, *, device=None, baseline="nand-flash",
                 result=None, times=None, events=None) -> UncertainModel:
    """Slowdown of a DRAM + NVM memory extension [x] (seed 002 §5-6), counts simulated once.

    FIFO/CLOCK without prefetching: fault and write-back counts do not depend on any time and the run time is closed
    form; with a bounded eviction buffer its stalls come from replaying only the misses per
    sample (:mod:`models.memory.memext_events`). So ``memext.fault_overhead_ns``,
    ``memext.base_ns_per_ref`` and the device's page read and write latencies vary without
    re-simulation; the verdict compares with ``baseline`` (default NAND Flash) on the same
    counts ("PCM is faster than Flash"). With prefetching or the age policy every input
    re-simulates (tornado only).

    ``times``: a callable ``(base_ns, fault_ns, read_ns, write_ns) -> critical-path times [ns]`` standing for the
    bounded eviction buffer's replay of the misses (:func:`models.memory.memext_events.run_times` over the
    stream's events): the replay a streamed trace ran in its second pass
    (:mod:`models.planner.role_memext_stream`), ``stream`` then only naming the trace (``.name``).

    ``events``: the stream's miss events under ``cfg`` (:func:`models.memory.memext_events.miss_events`) when the
    caller has them already (they depend on neither the device nor any time: a page's two devices share them);
    recorded here otherwise. Used only where the bounded eviction buffer needs them; checked against ``result``'s
    counts either way.
    """
    from models.devices import DeviceProfile, get_device, transfer_time_ns
    from models.memory import memory_extension as me

    cfg = cfg or me.MemExtConfig()
    dev = device if isinstance(device, DeviceProfile) else get_device(cfg.device)
    # counts of FIFO/CLOCK without prefetching do not depend on any time; the run time is then
    # closed form, or with a bounded eviction buffer a queue over the misses only (memext_events)
    bounded = cfg.writeback == "buffered" and cfg.eviction_buffer_pages is not None
    analytic = cfg.prefetch_depth == 0 and cfg.policy in ("fifo", "clock")
    r = result or me.simulate_memext(stream, cfg, device=dev)
    if analytic and bounded and times is None:
        from models.memory.memext_events import miss_events

        events = miss_events(stream, cfg) if events is None else events
        if int(events[1].sum()) != r.full_misses or int(events[2].sum()) != r.writebacks:
            raise RuntimeError("memory-extension miss replay disagrees with the model's counts")
    else:
        events = None
    writes, full, n = r.writebacks, r.full_misses, r.references
    ins = [param_input("memext.fault_overhead_ns", value=cfg.fault_overhead_ns, label="OS page-fault overhead",
                       resimulates=not analytic),
           _tref_input(stream, cfg.base_ns_per_ref, resimulates=not analytic)]

    def lat_inputs(d, override_r, override_w):
        out = []
        for col, ov in (("read_latency_ns", override_r), ("write_latency_ns", override_w)):
            if ov is not None:
                i = user_input(f"{d.name}.{col}", f"{d.name} page {col.split('_')[0]} latency", "ns", ov)
                out.append(dataclasses.replace(i, resimulates=not analytic))
            else:
                i = device_input(d, col, label=f"{d.name} page {col.split('_')[0]} latency",
                                 resimulates=not analytic)
                out.append(i)
        return out

    ins += lat_inputs(dev, cfg.read_ns, cfg.write_ns)
    base = None
    if baseline is not None and analytic:
        base = baseline if isinstance(baseline, DeviceProfile) else get_device(baseline)
        base = None if base.name == dev.name else base
    if base is not None:
        ins += lat_inputs(base, None, None)
    names = [i.name for i in ins]

    def page_ns(v, d, k_lat, write):  # MemExtConfig.latencies (DeviceProfile.transfer_ns) at the sampled latency
        bw = d.effective_write_bandwidth_MBps if write else d.effective_read_bandwidth_MBps
        return transfer_time_ns(_v(v, k_lat), me.PAGE_BYTES, d.access_unit_bytes, bw)

    def slowdown(v, d, k_r, k_w):
        rd = page_ns(v, d, k_r, False) if k_r.startswith("device:") else _v(v, k_r)
        wr = page_ns(v, d, k_w, True) if k_w.startswith("device:") else _v(v, k_w)
        tref = _v(v, "memext.base_ns_per_ref")
        if events is not None:  # bounded eviction buffer: replay the misses for every sample
            from models.memory.memext_events import run_times

            # the buffer drains one page per write + MFWR compression (MemExtConfig.mfwr_ns), as in the model
            now = run_times(events, n, base_ns=tref, fault_ns=_v(v, "memext.fault_overhead_ns"), read_ns=rd,
                            write_ns=wr + cfg.mfwr_ns, sync=False, buf_cap=int(cfg.eviction_buffer_pages))
            tref = np.broadcast_to(tref, now.shape)
        elif analytic and bounded:  # the same replay, run by the caller (a streamed trace's second pass)
            now = np.asarray(times(tref, _v(v, "memext.fault_overhead_ns"), rd, wr + cfg.mfwr_ns), float).reshape(-1)
            tref = np.broadcast_to(tref, now.shape)
        else:
            wb_stall = wr + cfg.mfwr_ns if cfg.writeback == "sync" else 0.0
            now = n * tref + full * (_v(v, "memext.fault_overhead_ns") + rd) + writes * wb_stall
        busy = full * rd + writes * wr
        total = np.maximum(now, busy) if cfg.writeback == "buffered" else now
        return total / (n * tref)

    def ev(v):
        return slowdown(v, dev, names[2], names[3])

    verdict = None
    if base is not None:
        def ev(v):  # noqa: F811 - the verdict needs the baseline's slowdown on the same samples
            return slowdown(v, dev, names[2], names[3]) / slowdown(v, base, names[4], names[5])

        verdict = Verdict(1.0, True, f"a {dev.name} extension is faster than a {base.name} one")

    def resim(overrides):
        o = dict(overrides)
        kw = {"fault_overhead_ns": o.get(names[0], cfg.fault_overhead_ns),
              "base_ns_per_ref": o.get(names[1], cfg.base_ns_per_ref)}
        d = dev
        for k, col, field in ((names[2], "read_latency_ns", "read_ns"), (names[3], "write_latency_ns", "write_ns")):
            if k in o and getattr(cfg, field) is not None:  # a typed override of the device's latency
                kw[field] = o[k]
            elif k in o:
                d = d.with_updates(**{col: o[k]})
        return me.simulate_memext(stream, cfg.model_copy(update=kw), device=d).slowdown

    out = "slowdown_ratio" if base is not None else "slowdown"
    label = (f"slowdown of {dev.name} / slowdown of {base.name}" if base is not None
             else f"slowdown of the {dev.name} extension")
    notes = ((f"fault and write-back counts from one simulation ({full:,} faults, {writes:,} write-backs); "
              "times vary analytically" + (" (the bounded eviction buffer's stalls by replaying only the misses)"
                                           if analytic and bounded else ""),) if analytic else
             ("prefetching or the age policy: the counts depend on the times, every input re-simulates",))
    return UncertainModel("memext", out, "x", tuple(ins), ev, verdict, resimulate=None if analytic else resim,
                          notes=notes, output_label=label)
