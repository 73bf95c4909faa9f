"""Every uncertainty adapter in one namespace, for the tests that loop over them (``A.breakeven_model``, ...).

The adapters live beside their models (``models/<package>/uncertainty.py``, registered in ``models/spec.py``);
model code imports them from there. Test helper only: ``models/`` does not import it.
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

# the private names the tests read
_REEXPORTED = (_v, _n_star, _breakeven_verdict, _device_timings, file_cache_timings, _tref_input,
               _workload_config_inputs, _WORKLOAD_DEVICE_COLUMNS, UncertainInput, UncertainModel, Verdict, device_input,
               fixed_input, param_input, from_provenance)
