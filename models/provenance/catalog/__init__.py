"""Every registry declaration, one module per domain, and the order the registry runs them in.

- :mod:`~models.provenance.catalog.storage`: file cache, PCM write cache, HDD, device characterization, workload;
- :mod:`~models.provenance.catalog.memory`: memory extension, paging;
- :mod:`~models.provenance.catalog.endurance`: lifetime, write reduction, wear leveling;
- :mod:`~models.provenance.catalog.traces`: trace presets, cache simulators;
- :mod:`~models.provenance.catalog.planner`: planner, uncertainty layer.
"""

from __future__ import annotations

from models.provenance.catalog import endurance, memory, planner, storage, traces

__all__ = ["DECLARATIONS"]

#: The declarations in the order they run: the order of :data:`models.provenance.PARAMS` and of
#: :func:`models.provenance.params_frame`.
DECLARATIONS = (
    traces.declare_sim,
    storage.declare_file_cache,
    memory.declare_memext,
    endurance.declare_lifetime,
    memory.declare_paging,
    endurance.declare_write_reduction,
    endurance.declare_wear,
    storage.declare_write_cache,
    storage.declare_hdd,
    storage.declare_device_char,
    storage.declare_workload,
    planner.declare_planner,
    traces.declare_traces,
    planner.declare_uncertainty,
)
