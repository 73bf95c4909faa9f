"""Fast cache-simulation kernels on compact block-id arrays (numba).

- :mod:`models.sim.stack_distance`: exact LRU stack distances and the full hit-ratio curve.
- :mod:`models.sim.shards`: SHARDS spatially sampled miss-ratio curves for huge traces
  (fixed rate, or fixed size with ``max_samples``; SHARDS_adj).
- :mod:`models.sim.minisim`: MiniSim miniature simulations: curves of any policy from the sample.
- :mod:`models.sim.byte_mrc`: byte miss-ratio curve of LRU with variable object sizes.
- :mod:`models.sim.mrc`: one entry point, ``policy_mrc(ids, policy=..., method=...)``.
- :mod:`models.sim.sampling`: the spatial hash sampling shared by the sampled methods.
- :mod:`models.sim.policies`: LRU, FIFO, CLOCK, the age-based counter and admission-controlled
  LRU at one size.
- :mod:`models.sim.primitives`: the shared input checks and numba helpers (LRU list, ring
  sweep, Fenwick mark set), and the numba cache rule.
"""

from models.sim.byte_mrc import ByteMissRatioCurve, byte_mrc
from models.sim.minisim import MiniSimCurve, minisim_mrc
from models.sim.mrc import policy_mrc
from models.sim.policies import SimResult, simulate
from models.sim.shards import shards_mrc
from models.sim.stack_distance import HitRatioCurve, hit_ratio_curve, lru_hits, stack_distances

__all__ = [
    "ByteMissRatioCurve",
    "HitRatioCurve",
    "MiniSimCurve",
    "byte_mrc",
    "minisim_mrc",
    "policy_mrc",
    "SimResult",
    "hit_ratio_curve",
    "lru_hits",
    "shards_mrc",
    "simulate",
    "stack_distances",
]
