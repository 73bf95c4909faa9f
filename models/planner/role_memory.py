"""The memory roles of a plan (memory traces): the device as the paging store and as a memory extension.

- paging: AMAT with the device as the paging store, 4 KiB pages, memory
  ``planner.paging_memory_fraction`` of the footprint (seed 004 eqs. 4-6, :mod:`models.memory.paging`),
  baseline (like-for-like: ``sata-ssd``, NAND swap) / device [x];
- memory-extension: slowdown of a DRAM + device memory extension (``memext.dram_frac`` in DRAM,
  :func:`models.memory.memory_extension.simulate_memext`), baseline (like-for-like: ``nand-flash``,
  seed 002) / device [x].
"""

from __future__ import annotations

import math

from models.devices import get_device
from models.planner.economics import role_usage
from models.planner.paper_gap import memext_note
from models.planner.roles import LIKE_FOR_LIKE, is_volatile, role_metric
from models.planner.uncertainty import inverted, ratio_model, row_band
from models.planner.verdicts import compare, plan_row, short_num, verdict_of
from models.provenance import param

__all__ = ["memory_rows", "memext_rows", "paging_rows", "paging_role_inputs", "paging_amat_model"]


def memory_rows(w, mt, devs, base, uq, progress_step):
    """Paging and memory-extension rows of memory workload ``w`` (its trace ``mt``) for ``devs`` against
    ``base`` (None: like-for-like); ``progress_step()`` after each role."""
    from models.memory import memory_extension as me
    from models.memory import paging as pg

    out = paging_rows(w, pg.paging_profile(mt, paging_role_inputs()), devs, base, uq)
    progress_step()
    # --- memory extension
    stream = me.page_stream(mt)
    cfg = me.MemExtConfig()

    def band_model(d, r, base_dev):
        from models.memory.uncertainty import memext_model

        return inverted(memext_model(stream, cfg, device=d, baseline=base_dev, result=r))

    out += memext_rows(w, devs, base, uq, cfg, lambda d: me.simulate_memext(stream, cfg, device=d), band_model)
    progress_step()
    return out


def memext_rows(w, devs, base, uq, cfg, result_of, band_model) -> list[dict]:
    """The memory-extension rows of memory workload ``w`` for ``devs`` against ``base`` (None: like-for-like):
    ``result_of(device)`` its :class:`~models.memory.memory_extension.MemExtResult` under ``cfg`` (simulated in memory
    by :func:`memory_rows` or streamed by :class:`models.planner.role_memext_stream.MemExtRoleStream`),
    ``band_model(device, result, baseline)`` the row's uncertainty model (:func:`models.planner.uncertainty.row_band`)."""
    out = []
    role = "memory-extension"
    base_dev = base or get_device(LIKE_FOR_LIKE[role])
    blabel = f"{base_dev.name} extension" + (" (like-for-like, seed 002: PCM vs Flash)" if base is None else "")
    rb = result_of(base_dev)
    local = get_device("dram")
    for d in devs:
        if is_volatile(d) and d.read_latency_ns <= local.read_latency_ns:
            out.append(plan_row(w.name, role, d.name, blabel, role_metric(role), verdict="not applicable",
                                reason=f"not applicable: {d.name} is as fast as the local DRAM ({local.name}), the fast "
                                       "tier itself; the extension behind DRAM is a slower device (PCM, Flash, "
                                       "CXL-attached memory)"))
            continue
        r = result_of(d)
        v = float(rb.slowdown) / float(r.slowdown)

        def build(d=d, r=r):
            if d.name == base_dev.name:
                raise ValueError("the baseline is the device itself")
            return band_model(d, r, base_dev)

        band = row_band(build, uq)
        reason = (f"{r.footprint_pages:,} pages, {r.full_misses / max(r.references, 1):.2%} of references fault with "
                  f"{cfg.dram_frac:.0%} of the footprint in DRAM -> slowdown {short_num(float(r.slowdown))}× on {d.name} vs "
                  f"{short_num(float(rb.slowdown))}× on {base_dev.name}: "
                  f"{compare(v, d.name, f'{base_dev.name} (as the extension)', 'faster', band)}")
        row = plan_row(w.name, role, d.name, blabel, role_metric(role), v, verdict_of(v, band), reason, band,
                       memext_usage(r, rb))
        row["paper_note"] = memext_note(d, r, cfg)
        out.append(row)
    return out


def paging_role_inputs():
    """The paging role's :class:`~models.memory.paging.PagingInputs` of the profile: 4 KiB pages, memory
    ``planner.paging_memory_fraction`` of the footprint, the default policy (CLOCK) and TLB."""
    from models.memory import paging as pg

    return pg.paging_inputs(memory_fraction=float(param("planner.paging_memory_fraction").value),
                            page_sizes_bytes=(4096,))


def paging_rows(w, prof, devs, base, uq) -> list[dict]:
    """The paging rows of memory workload ``w`` from its :class:`~models.memory.paging.PagingProfile` ``prof``
    (:func:`paging_role_inputs`; made in memory by :func:`memory_rows` or streamed by
    :class:`models.planner.role_paging_stream.PagingRoleStream`) for ``devs`` against ``base``."""
    from models.memory import paging as pg

    out = []
    role = "paging"
    frac = float(param("planner.paging_memory_fraction").value)
    base_dev = base or get_device(LIKE_FOR_LIKE[role])
    blabel = f"{base_dev.name} as the paging store" + (" (like-for-like: NAND SSD swap)" if base is None else "")

    def amat(d):
        inp = pg.paging_inputs(memory_fraction=frac, page_sizes_bytes=(4096,), device=d)
        return inp, float(pg.paging_table(prof, inp).amat_ns.iloc[0])

    b_inp, b_amat = amat(base_dev)
    fault = float(pg.paging_table(prof, b_inp).fault_rate.iloc[0])
    try:
        swap = float(prof.reference_footprint_bytes()) * (1 - frac)
    except KeyError:
        swap = math.nan
    outs = fault * prof.n_refs * 4096.0  # page-outs <= faults: the paging model tracks no dirty pages (an upper bound)

    def paging_usage(a):
        return role_usage(swap, outs, prof.n_refs * a / 1e9, f"the modelled run time ({prof.n_refs:,} references x "
                          f"AMAT {short_num(a)} ns; every fault counted as a 4 KiB page-out, an upper bound)",
                          base_duration_s=prof.n_refs * b_amat / 1e9)
    for d in devs:
        if is_volatile(d):
            out.append(plan_row(w.name, role, d.name, blabel, role_metric(role), verdict="not applicable",
                                reason=f"not applicable: {d.name} is DRAM, the memory itself: paging to it is no paging"))
            continue
        inp, a = amat(d)
        v = b_amat / a
        band = row_band(lambda inp=inp: ratio_model(
            paging_amat_model(prof, b_inp), paging_amat_model(prof, inp), f"paging to {inp.device or 'the device'} is faster",
            "AMAT baseline / device"), uq)
        reason = (f"{fault:.2%} of references fault with {frac:.0%} of the footprint in memory (4 KiB pages, CLOCK); "
                  f"AMAT {short_num(a)} ns on {d.name} vs {short_num(b_amat)} ns -> "
                  f"{compare(v, d.name, f'{base_dev.name} (as the paging store)', 'faster', band)}")
        out.append(plan_row(w.name, role, d.name, blabel, role_metric(role), v, verdict_of(v, band), reason, band,
                            paging_usage(a)))
    return out


def memext_usage(r, rb):
    """Economics of a memory-extension row (:func:`models.planner.economics.role_usage`): the device holds the
    footprint not in DRAM and absorbs the write-backs, over the modelled run time of ``r`` (the device's
    :class:`~models.memory.memory_extension.MemExtResult`; ``rb`` the baseline's)."""
    from models.memory.memory_extension import PAGE_BYTES

    cap = max(r.footprint_pages - r.dram_pages, 0) * PAGE_BYTES
    return role_usage(cap, r.writebacks * PAGE_BYTES, r.time_ns / 1e9,
                      f"the modelled run time ({short_num(r.time_ns / 1e6)} ms: {r.references:,} references; "
                      f"{r.writebacks:,} page write-backs)",
                      base_bytes_written=rb.writebacks * PAGE_BYTES, base_duration_s=rb.time_ns / 1e9,
                      base_capacity_bytes=max(rb.footprint_pages - rb.dram_pages, 0) * PAGE_BYTES)


def paging_amat_model(prof, inputs):
    """AMAT adapter of the paging profile; custom devices by their typed latency (see amat_model)."""
    from models.memory.uncertainty import amat_model

    return amat_model(prof, inputs)


