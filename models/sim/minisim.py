"""MiniSim: miss-ratio curves of any policy from miniature simulations on a spatial sample.

Waldspurger et al. (ATC'17) observe that a cache of ``C`` blocks fed the full trace behaves
like a cache of ``C * R`` blocks fed the spatially hashed sample at rate ``R`` (the SHARDS
sample: every reference to a random ``R`` share of the blocks). A miniature simulation
costs ``R`` of the full one in time and memory, for any replacement policy, not only the
stack algorithms.

Here:

1. one numba pass over the full trace samples it (:func:`models.sim.sampling.spatial_sample`,
   the SHARDS hash rule ``hash(id) < R * 2^53``) and renumbers the sampled blocks;
2. each requested size ``C`` is scaled to ``c = C * R`` blocks. ``c`` is generally not a whole
   number: the miniature caches of ``floor(c)`` and ``ceil(c)`` blocks are simulated and their
   hit ratios interpolated linearly in ``c`` (the paper rounds; interpolation removes the
   staircase at small ``c``). Each distinct scaled size is simulated once;
3. the policies' own kernels run the miniature caches: :func:`models.sim.policies.simulate`
   for ``fifo``/``clock`` (the ring kernel) and ``ac`` (the admission-controlled LRU kernel,
   its ghost window scaled with the cache), and one stack-distance pass for ``lru``, which
   gives every scaled size at once (inclusion property);
4. with ``adjust=True`` the SHARDS_adj correction is carried over: the difference between the
   expected ``N R`` and the actual number of sampled references is counted as hits at every
   size ``> 0`` (the references that a few very popular blocks add to or take from the
   sample). This is our choice, applied as in SHARDS; ``adjust=False`` gives the paper's plain
   estimate ``hits / sampled references``.

At ``R = 1`` the sample is the trace and every size is a whole number: the result equals the
exact full simulation (tested for every policy).

References
----------
.. [1] C. A. Waldspurger, T. Saemundsson, I. Ahmad, N. Park, "Cache Modeling and
   Optimization using Miniature Simulations", USENIX ATC 2017, pp. 487-498.
.. [2] C. A. Waldspurger, N. Park, A. Garthwaite, I. Ahmad, "Efficient MRC Construction
   with SHARDS", USENIX FAST 2015 (SHARDS_adj, section 4.3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.sim.policies import POLICIES, simulate
from models.sim.primitives import as_ids, as_weights
from models.sim.sampling import SpatialSample, spatial_sample
from models.sim.stack_distance import HitRatioCurve, as_sizes, stack_distances

__all__ = ["MiniSimCurve", "minisim_mrc", "simulate_sizes"]


@dataclass(frozen=True)
class MiniSimCurve(HitRatioCurve):
    """A :class:`~models.sim.stack_distance.HitRatioCurve` estimated by miniature simulation.

    Extra attributes: ``policy``, ``rate`` (sampling rate [-]), ``sampled_requests``,
    ``sampled_blocks``. ``hits`` are estimates [requests] (float); ``footprint_blocks`` is
    the estimate ``sampled_blocks / rate`` [blocks].
    """

    policy: str = "lru"
    rate: float = 1.0
    sampled_requests: int = 0
    sampled_blocks: int = 0


def simulate_sizes(ids: np.ndarray, caps: np.ndarray, policy: str, weights: np.ndarray | None = None,
                   distances: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Hits and hit bytes of ``policy`` at each whole cache size of ``caps`` on one trace.

    ``ids`` validated block ids; ``caps`` int64 sizes [blocks]; ``weights`` per-reference
    bytes or None; ``distances`` precomputed LRU stack distances (``lru`` only).
    Returns ``(hits, hit_bytes)`` float arrays (``hit_bytes`` = ``hits`` without weights).
    LRU: one stack-distance pass for all sizes; the others: one kernel run per size.

    >>> simulate_sizes(np.array([0, 1, 0, 2, 0]), np.array([1, 2]), "fifo")[0].tolist()
    [0.0, 1.0]
    """
    hits = np.zeros(len(caps), np.float64)
    hbytes = np.zeros(len(caps), np.float64)
    if len(ids) == 0:
        return hits, hbytes
    if policy == "lru":
        d = stack_distances(ids) if distances is None else distances
        reuse = d >= 0
        dr = d[reuse]
        order = np.argsort(dr, kind="stable")
        ds = dr[order]
        k = np.searchsorted(ds, caps, side="left")  # hits at size c: distances < c
        hits = k.astype(np.float64)
        if weights is not None:
            cw = np.concatenate(([0.0], np.cumsum(weights[reuse][order])))
            hbytes = cw[k]
        else:
            hbytes = hits.copy()
        return hits, hbytes
    record = weights is not None
    for j, c in enumerate(caps):
        r = simulate(ids, int(c), policy, record=record)
        hits[j] = r.hits
        hbytes[j] = float(weights[r.hit].sum()) if record else r.hits
    return hits, hbytes


def _interp(frac_caps, lo_vals, hi_vals):
    f = frac_caps - np.floor(frac_caps)
    return lo_vals * (1.0 - f) + hi_vals * f


def curve_from_sample(s: SpatialSample, sizes: np.ndarray, policy: str, *, adjust: bool = True) -> MiniSimCurve:
    """MiniSim curve at ``sizes`` [blocks] from a spatial sample (see the module docstring).

    >>> from models.sim.sampling import spatial_sample
    >>> s = spatial_sample(np.array([0, 1, 0, 2, 0]), 1.0)
    >>> curve_from_sample(s, np.array([1, 2]), "clock").hits.tolist()
    [0.0, 2.0]
    """
    r = s.rate
    scaled = sizes.astype(np.float64) * r
    lo = np.floor(scaled).astype(np.int64)
    hi = np.ceil(scaled).astype(np.int64)
    caps = np.unique(np.concatenate((lo, hi)))
    h, hb = simulate_sizes(s.ids, caps, policy, s.weights)
    ilo = np.searchsorted(caps, lo)
    ihi = np.searchsorted(caps, hi)
    hits_s = _interp(scaled, h[ilo], h[ihi])
    bhits_s = _interp(scaled, hb[ilo], hb[ihi])
    ns = len(s.ids)
    ws = float(s.weights.sum()) if s.weights is not None else float(ns)
    n = s.requests
    if adjust:
        # SHARDS_adj carried over: expected minus actual sampled references count as hits at any size > 0
        pos = scaled > 0
        exp_n, exp_w = n * r, s.weight_total * r
        hits_s = np.where(pos, hits_s + (exp_n - ns), 0.0)
        bhits_s = np.where(pos, bhits_s + (exp_w - ws), 0.0)
        den, bden = exp_n, exp_w
    else:
        den, bden = float(ns), ws
    hr = np.clip(hits_s / den, 0.0, 1.0) if den > 0 else np.zeros(len(sizes))
    bhr = np.clip(bhits_s / bden, 0.0, 1.0) if bden > 0 else hr.copy()
    if s.weights is None:
        bhr = hr.copy()
    hits = np.clip(hits_s * (n / den), 0.0, float(n)) if den > 0 else np.zeros(len(sizes))
    return MiniSimCurve(sizes, hr, bhr, hits, n, int(round(s.blocks / r)), policy, r, ns, s.blocks)


def minisim_mrc(ids, *, policy: str = "lru", rate: float = 0.01, sizes=None, weights=None, seed=0,
                adjust: bool = True) -> MiniSimCurve:
    """Hit-ratio curve of ``policy`` by miniature simulation at sampling rate ``rate``.

    Parameters
    ----------
    ids : array_like of int
        Block ids, one per reference, ``>= 0``.
    policy : {"lru", "fifo", "clock", "ac"}, keyword-only
        Replacement policy (``ac``: admission-controlled LRU, ghost window = cache size).
    rate : float, keyword-only
        Spatial sampling rate ``R`` in (0, 1] [-]; caches are scaled by ``R``.
    sizes : array_like of int, optional, keyword-only
        Full-scale cache sizes [blocks]; default 50 log-spaced sizes from 1 block to the
        estimated footprint.
    weights : array_like of float, optional, keyword-only
        Bytes per reference [bytes], for the byte hit ratio.
    seed : int or numpy.random.Generator, keyword-only
        Hash salt (which blocks are sampled); same seed, same result.
    adjust : bool, keyword-only
        SHARDS_adj-style correction of the sample count (module docstring).

    Returns
    -------
    MiniSimCurve

    Raises
    ------
    ValueError
        Unknown policy, bad ids, rate, weights or sizes, or an empty trace.

    Examples
    --------
    >>> ids = np.random.default_rng(0).zipf(1.2, 100_000) % 3000
    >>> from models.sim.policies import simulate
    >>> est = minisim_mrc(ids, policy="fifo", rate=0.5, sizes=[300])
    >>> bool(abs(est.hit_ratio[0] - simulate(ids, 300, "fifo").hit_ratio) < 0.03)
    True
    """
    p = check_policy(policy)
    a = as_ids(ids)
    n = len(a)
    if n == 0:
        raise ValueError("ids is empty: no requests to build a hit-ratio curve from")
    w = as_weights(weights, n)
    s = spatial_sample(a, rate, seed=seed, weights=w)
    if sizes is None:
        top = max(1, int(round(s.blocks / s.rate)))
        sizes = np.unique(np.rint(np.geomspace(1, top, 50)).astype(np.int64))
    return curve_from_sample(s, as_sizes(sizes), p, adjust=adjust)


def check_policy(policy) -> str:
    """Lower-cased policy name, or a ValueError naming the choices.

    >>> check_policy("CLOCK")
    'clock'
    """
    p = str(policy).lower()
    if p not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)} (got {policy!r})")
    return p
