"""Fast cache-simulation kernels on compact block-id arrays (numba).

- :mod:`models.sim.stack_distance`: exact LRU stack distances and the full hit-ratio curve.
- :mod:`models.sim.shards`: SHARDS spatially sampled miss-ratio curves for huge traces.
- :mod:`models.sim.policies`: LRU, FIFO, CLOCK, the age-based counter and admission-controlled
  LRU at one size.
- :mod:`models.sim.primitives`: the shared input checks and numba helpers (LRU list, ring
  sweep, Fenwick mark set), and the numba cache rule.
"""

from models.sim.policies import SimResult, simulate
from models.sim.shards import shards_mrc
from models.sim.stack_distance import HitRatioCurve, hit_ratio_curve, lru_hits, stack_distances

__all__ = [
    "HitRatioCurve",
    "SimResult",
    "hit_ratio_curve",
    "lru_hits",
    "shards_mrc",
    "simulate",
    "stack_distances",
]
