"""One adapter per model: its uncertain inputs and its headline output, vectorised over samples.

The adapters live beside their models, by domain: :mod:`models.storage.uncertainty` (break-even,
file-cache share and time, HDD, write cache, Filebench workload, device mix),
:mod:`models.memory.uncertainty` (AMAT, memory extension) and :mod:`models.endurance.uncertainty`
(lifetime, wear lifetime, write-reduction lifetime); the shared helpers (:func:`user_input`, the
input builders) are :mod:`models.uncertainty.core`'s. This module re-exports them all. Each adapter
calls its model's own vectorised equations, so at the central inputs it gives the model's result.

Closed-form models evaluate their formula on the sample arrays. Trace-driven models run
their simulation ONCE at the point and vary the cost parameters analytically:

================  ==================  ===========================================================
adapter           output              simulated once / varied analytically / re-simulated
================  ==================  ===========================================================
breakeven         n* [-]              closed form (eq. 3 with the device-derived timings)
lifetime          lifetime [years]    closed form ``C E eta / W``
hdd               random request      closed form ``seek + rotation / 2 + transfer``
                  service time [ms]
amat              AMAT [ns]           stack distances (every TLB size) and CLOCK faults of the
                                      memory size once; TLB entries, t_e, t_r, fault overhead and
                                      storage latency/bandwidth analytically
memext            slowdown [x]        fault and write-back counts once (FIFO/CLOCK without
                                      prefetch: they do not depend on any time); fault overhead,
                                      t_ref and device latencies analytically. With prefetching
                                      or the age policy the counts depend on the times: every
                                      input re-simulates (tornado only)
writecache        HDD-time speedup    the HDD request streams without and with the cache once,
                  [x]                 split into seek, rotation and transfer time; mean seek, rpm
                                      and bandwidth scale them analytically (drive geometry held
                                      at the point); HALO's thresholds re-simulate (tornado only)
file-cache share  share of blocks     reuse histogram once; n* analytically
file-cache time   mean access [ns]    hits and insertions of one cache size (a point of the
                                      miss-ratio curve) once; page-cache and device timings
                                      analytically
wear              lifetime [years]    the scheme's life rate once; endurance, typed write rate
                                      analytically
workload          ops/s, or speedup   closed form per sample, vectorised: the Filebench flowop
                  over a reference    demands walked once with arrays of the samples' device
                  [x]                 latencies/bandwidths, page cache, VM overhead; the fixed
                                      points and exact MVA per sample in numba
                                      (:func:`models.storage.workload.evaluate_many`)
device mix        relative latency    a queue simulation (seed 001 Fig. 3): every input
                  [-]                 re-simulates (tornado only)
write-reduction   lifetime [years]    bytes written per page counted once; endurance, wear
lifetime                              efficiency and write rate analytically
================  ==================  ===========================================================

References
----------
.. [1] Seeds 000, 001, 002, 003, 004 (the models' own references, in their modules).
"""

from __future__ import annotations

from models.endurance.uncertainty import (
    lifetime_model,
    wear_lifetime_model,
    write_reduction_lifetime_model,
)
from models.memory.uncertainty import _tref_input, amat_model, memext_model
from models.storage.uncertainty import (
    _WORKLOAD_DEVICE_COLUMNS,
    _breakeven_verdict,
    _device_timings,
    _n_star,
    _workload_config_inputs,
    breakeven_model,
    device_mix_model,
    file_cache_share_model,
    file_cache_time_model,
    file_cache_timings,
    hdd_model,
    workload_model,
    writecache_model,
    writecache_streams,
)
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
from models.uncertainty.distributions import from_provenance

__all__ = [
    "user_input",
    "breakeven_model",
    "lifetime_model",
    "hdd_model",
    "amat_model",
    "memext_model",
    "writecache_model",
    "writecache_streams",
    "file_cache_share_model",
    "file_cache_time_model",
    "wear_lifetime_model",
    "workload_model",
    "device_mix_model",
    "write_reduction_lifetime_model",
]

# names this module had before the split, re-exported for their importers (models.planner.plan imports
# _device_timings; tests read _WORKLOAD_DEVICE_COLUMNS and UncertainModel from here)
_REEXPORTED = (_v, _n_star, _breakeven_verdict, _device_timings, file_cache_timings, _tref_input,
               _workload_config_inputs, _WORKLOAD_DEVICE_COLUMNS, UncertainInput, UncertainModel, Verdict, device_input,
               fixed_input, param_input, from_provenance)
