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
   staircase at small ``c``). Each distinct scaled size is simulated once. With ``min_blocks``
   (default off) a size whose miniature cache would hold fewer blocks runs on a denser nested
   sample at rate ``min(1, min_blocks / C)`` (our choice: one sampling pass at the highest rate,
   each lower rate keeps the references whose hash is under its threshold);
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

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np

from models.provenance import param
from models.sim.policies import POLICIES, simulate
from models.sim.primitives import as_ids, as_weights
from models.sim.sampling import (
    SpatialSample,
    block_hash53,
    check_rate,
    hash_salt,
    rate_threshold,
    spatial_sample,
)
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
    LRU: one stack-distance pass for all sizes; the others: one kernel run per size, the sizes
    in parallel threads when the work is large (:func:`size_threads`; same result).

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

    def one(c):
        r = simulate(ids, int(c), policy, record=record)
        return r.hits, (float(weights[r.hit].sum()) if record else r.hits)

    t = size_threads(len(ids), len(caps))
    if t == 1:
        out = [one(c) for c in caps]
    else:  # the kernels release the GIL: sizes run in parallel threads, each result is the serial one
        with ThreadPoolExecutor(t) as ex:
            out = list(ex.map(one, caps))
    for j, (h, hb) in enumerate(out):
        hits[j], hbytes[j] = h, hb
    return hits, hbytes


def size_threads(n: int, sizes: int) -> int:
    """Threads for simulating ``sizes`` cache sizes on ``n`` references each: 1 below 2^21
    simulated references in all, else up to ``numba.config.NUMBA_NUM_THREADS`` (set
    ``NUMBA_NUM_THREADS`` to limit it), at most one per size.

    >>> size_threads(1000, 40)
    1
    """
    if n * sizes < (1 << 21):
        return 1
    return int(max(1, min(numba.config.NUMBA_NUM_THREADS, sizes)))


def _interp(frac_caps, lo_vals, hi_vals):
    f = frac_caps - np.floor(frac_caps)
    return lo_vals * (1.0 - f) + hi_vals * f


def _sample_hits(ids_s, w_s, rate, n, w_total, sizes, policy, adjust):
    """Estimated full-scale hits and hit bytes at ``sizes`` from one sample at ``rate``;
    returns ``(hits_s, bhits_s, den, bden)``: the sample's (corrected) hit counts and their
    denominators (steps 2-4 of the module docstring)."""
    scaled = sizes.astype(np.float64) * rate
    lo = np.floor(scaled).astype(np.int64)
    hi = np.ceil(scaled).astype(np.int64)
    caps = np.unique(np.concatenate((lo, hi)))
    h, hb = simulate_sizes(ids_s, caps, policy, w_s)
    ilo = np.searchsorted(caps, lo)
    ihi = np.searchsorted(caps, hi)
    hits_s = _interp(scaled, h[ilo], h[ihi])
    bhits_s = _interp(scaled, hb[ilo], hb[ihi])
    ns = len(ids_s)
    ws = float(w_s.sum()) if w_s is not None else float(ns)
    if adjust:
        # SHARDS_adj carried over: expected minus actual sampled references count as hits at any size > 0
        pos = scaled > 0
        exp_n, exp_w = n * rate, w_total * rate
        hits_s = np.where(pos, hits_s + (exp_n - ns), 0.0)
        bhits_s = np.where(pos, bhits_s + (exp_w - ws), 0.0)
        return hits_s, bhits_s, exp_n, exp_w
    return hits_s, bhits_s, float(ns), ws


def size_rates(sizes: np.ndarray, rate: float, min_blocks: int) -> np.ndarray:
    """Sampling rate of each full-scale size [blocks]: ``rate``, raised to ``min_blocks / C``
    (at most 1) where the miniature cache ``C rate`` would hold fewer than ``min_blocks`` blocks.

    >>> size_rates(np.array([0, 50, 1000, 100000]), 0.01, 100).tolist()
    [0.01, 1.0, 0.1, 0.01]
    """
    c = sizes.astype(np.float64)
    need = np.divide(float(min_blocks), c, out=np.zeros(len(c)), where=c > 0)
    return np.minimum(1.0, np.maximum(rate, need))


def curve_from_sample(s: SpatialSample, sizes: np.ndarray, policy: str, *, adjust: bool = True) -> MiniSimCurve:
    """MiniSim curve at ``sizes`` [blocks] from one spatial sample, every size at its rate.

    >>> from models.sim.sampling import spatial_sample
    >>> s = spatial_sample(np.array([0, 1, 0, 2, 0]), 1.0)
    >>> curve_from_sample(s, np.array([1, 2]), "clock").hits.tolist()
    [0.0, 2.0]
    """
    h, bh, d, bd = _sample_hits(s.ids, s.weights, s.rate, s.requests, s.weight_total, sizes, policy, adjust)
    full = np.ones(len(sizes))
    return _assemble(s, sizes, policy, full * s.rate, h, bh, full * d, full * bd)


def _assemble(s, sizes, policy, rates, hits_s, bhits_s, den, bden) -> MiniSimCurve:
    n = s.requests
    ok = den > 0
    hr = np.where(ok, np.clip(hits_s / np.where(ok, den, 1.0), 0.0, 1.0), 0.0)
    bok = bden > 0
    bhr = np.where(bok, np.clip(bhits_s / np.where(bok, bden, 1.0), 0.0, 1.0), hr)
    if s.weights is None:
        bhr = hr.copy()
    hits = np.where(ok, np.clip(hits_s * (n / np.where(ok, den, 1.0)), 0.0, float(n)), 0.0)
    base = float(rates.min()) if len(rates) else s.rate
    return MiniSimCurve(sizes, hr, bhr, hits, n, int(round(s.blocks / s.rate)), policy, base, len(s.ids), s.blocks)


def _nested(s: SpatialSample, hashes: np.ndarray, sizes: np.ndarray, policy: str, rates: np.ndarray,
            adjust: bool) -> MiniSimCurve:
    """Sizes grouped by rate; each group runs on the sub-sample ``hashes < rate 2^53`` of ``s``."""
    n = s.requests
    hits_s = np.zeros(len(sizes))
    bhits_s = np.zeros(len(sizes))
    den = np.zeros(len(sizes))
    bden = np.zeros(len(sizes))
    for r in np.unique(rates):
        k = rates == r
        if r >= s.rate:
            ids_r, w_r = s.ids, s.weights
        else:
            keep = hashes < rate_threshold(float(r))
            ids_r = s.ids[keep]
            w_r = s.weights[keep] if s.weights is not None else None
        h, bh, d, bd = _sample_hits(ids_r, w_r, float(r), n, s.weight_total, sizes[k], policy, adjust)
        hits_s[k], bhits_s[k], den[k], bden[k] = h, bh, d, bd
    curve = _assemble(s, sizes, policy, rates, hits_s, bhits_s, den, bden)
    # footprint and sample size reported at the base rate
    r0 = float(rates.min())
    keep0 = hashes < rate_threshold(r0)
    blocks0 = int(np.unique(s.ids[keep0]).size)
    return MiniSimCurve(curve.cache_blocks, curve.hit_ratio, curve.byte_hit_ratio, curve.hits, n,
                        int(round(blocks0 / r0)), policy, r0, int(keep0.sum()), blocks0)


def minisim_mrc(ids, *, policy: str = "lru", rate: float = 0.01, sizes=None, weights=None, seed=0,
                adjust: bool = True, min_blocks: int | None = None) -> MiniSimCurve:
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
    min_blocks : int, optional, keyword-only
        Smallest miniature cache [blocks]: a size ``C`` with ``C R < min_blocks`` is simulated
        on a denser nested sample at rate ``min(1, min_blocks / C)`` (module docstring);
        default ``param("sim.minisim_min_blocks")``; 0 = every size at ``rate``.

    Returns
    -------
    MiniSimCurve

    Raises
    ------
    ValueError
        Unknown policy, bad ids, rate, weights, sizes or min_blocks, or an empty trace.

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
    r = check_rate(rate)
    mb = param("sim.minisim_min_blocks").value if min_blocks is None else min_blocks
    if isinstance(mb, bool) or not isinstance(mb, (int, np.integer)) or mb < 0:
        raise ValueError(f"min_blocks must be a whole number of blocks >= 0 (got {min_blocks!r})")
    if sizes is None:
        s0 = spatial_sample(a, r, seed=seed, weights=w)
        top = max(1, int(round(s0.blocks / s0.rate)))
        sizes = np.unique(np.rint(np.geomspace(1, top, 50)).astype(np.int64))
    sizes = as_sizes(sizes)
    rates = size_rates(sizes, r, int(mb))
    s = spatial_sample(a, float(rates.max()), seed=seed, weights=w)
    if rates.max() <= r:
        return curve_from_sample(s, sizes, p, adjust=adjust)
    hashes = block_hash53(s.original, hash_salt(seed))[s.ids]
    return _nested(s, hashes, sizes, p, rates, adjust)


def check_policy(policy) -> str:
    """Lower-cased policy name, or a ValueError naming the choices.

    >>> check_policy("CLOCK")
    'clock'
    """
    p = str(policy).lower()
    if p not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)} (got {policy!r})")
    return p
