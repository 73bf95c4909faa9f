"""The memory models' registrations (:mod:`models.spec`): virtual memory on SCM and the NVM memory extension."""

from __future__ import annotations

from models.spec import REQUIRED, ModelSpec, SweepHook, register


def sweep_memext(ctx, device, p: dict):
    """Sweep adapter: a DRAM + NVM memory extension on a memory trace."""
    from models.devices import get_device
    from models.memory.memory_extension import MemExtConfig, page_stream, simulate_memext

    stream = page_stream(ctx.trace, include_instructions=bool(p.pop("include_instructions")))
    dev = get_device(device)
    cfg = MemExtConfig(device=dev.name, **p)
    return simulate_memext(stream, cfg, device=dev).to_frame()


register(ModelSpec(
    name="amat",
    title="AMAT = TLB term + page-fault term vs page size and storage latency (seed 004 eqs. 4-6)",
    module="models.memory.paging",
    evaluate="models.memory.paging:amat",
    inputs="models.memory.paging:PagingInputs",
    result="models.memory.paging:PagingProfile",
    provenance=("paging.",),
    seeds=("004",),
    cli=("amat",),
    page="paging",
    uncertainty="models.memory.uncertainty:amat_model",
    roles=("paging",),
))

register(ModelSpec(
    name="memext",
    title="DRAM + NVM memory extension: faults x latencies vs DRAM:NVM ratio, prefetcher, FIFO/CLOCK/age (seed 002)",
    module="models.memory.memory_extension",
    evaluate="models.memory.memory_extension:simulate_memext",
    inputs="models.memory.memory_extension:MemExtConfig",
    result="models.memory.memory_extension:MemExtResult",
    provenance=("memext.",),
    seeds=("002",),
    cli=("memext",),
    page="memory-extension",
    uncertainty="models.memory.uncertainty:memext_model",
    sweep=(SweepHook("memext", "memory", "catalogue",
                     {"dram_frac": REQUIRED, "policy": "fifo", "accounting": "inclusive", "prefetch_depth": 0,
                      "writeback": "buffered", "include_instructions": False},
                     "models.memory.specs:sweep_memext", "DRAM + NVM memory extension on a memory trace"),),
    roles=("memory-extension",),
))
