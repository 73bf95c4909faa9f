"""SHARDS: spatially hashed sampling for approximate LRU miss-ratio curves.

A block is sampled iff ``hash(block) < R * 2^53`` (a 53-bit hash), so every reference to
a sampled block is kept and the sample is a faithful LRU trace of a random ``R`` share of
the blocks. A sampled stack distance ``d`` estimates a true distance ``d / R`` and each
sampled reference stands for ``1 / R`` references.

- *Fixed rate*: sample at ``rate``; memory and time shrink by ``R``. With ``adjust=True``
  (SHARDS_adj) the difference between the expected ``N R`` and the actual number of
  sampled references is added to the first histogram bucket, which removes most of the
  bias caused by a few very popular blocks falling in or out of the sample.
- *Fixed size*: at most ``max_samples`` distinct blocks are tracked. When a new block
  would exceed that, the tracked block with the largest hash is dropped and the threshold
  is lowered to its hash (rate ``R' = T'/2^53``); earlier histogram counts are rescaled by
  ``R'/R`` (equivalently each reference is counted with weight ``1/R`` at its own time).
  SHARDS_adj applies too: the estimated count (the sum of ``1/R(t)`` over the sampled
  references) is compared with ``N``. A surplus (negative correction) is taken off at
  distance 0 only, in both modes, so the curve stays monotone.

Spreading (a departure from the paper, which puts a sampled distance ``d`` at ``d/R``): the
mass of a reference with sampled distance ``d`` is spread evenly over the true distances
``[d/R, (d+1)/R)``, and the SHARDS_adj correction over ``[0, 1/R)``. It is a smoothing
choice, not a uniform improvement (measurements on the bundled traces:
``docs/models/sim.md``).

The stack distances inside the sample use the bitset + Fenwick primitives of
:mod:`models.sim.primitives` (removing a dropped block clears its mark).

References
----------
.. [1] C. A. Waldspurger, N. Park, A. Garthwaite, I. Ahmad, "Efficient MRC Construction
   with SHARDS", USENIX FAST 2015, pp. 95-110.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from models.sim.primitives import (
    as_ids,
    as_weights,
    fenwick_add,
    heap_pop,
    heap_push,
    popcount64,
    unmark_time,
)
from models.sim.sampling import (
    hash53,
    hash_salt,
    rate_threshold,
    sample_filter,
    sample_filter_weighted,
)
from models.sim.stack_distance import HitRatioCurve, curve_from_histogram

__all__ = ["ShardsCurve", "shards_mrc", "block_hashes"]

_ONE = np.uint64(1)
_SCALE = float(2**53)
#: Fixed-size SHARDS: references run through the kernel before the rest is pre-filtered.
_PREFIX = 1 << 16


@dataclass(frozen=True)
class ShardsCurve(HitRatioCurve):
    """A :class:`~models.sim.stack_distance.HitRatioCurve` estimated by SHARDS.

    Extra attributes: ``rate`` (final sampling rate [-]), ``sampled_requests``,
    ``sampled_blocks`` (distinct blocks in the final sample). ``hits`` are estimates (float).
    """

    rate: float = 1.0
    sampled_requests: int = 0
    sampled_blocks: int = 0


def block_hashes(n_ids: int, seed=0) -> np.ndarray:
    """53-bit hash of every block id ``0..n_ids-1`` (splitmix64 finaliser, seeded salt).

    >>> h = block_hashes(1000, seed=1)
    >>> bool(h.max() < 2**53), bool(abs((h < 2**52).mean() - 0.5) < 0.06)
    (True, True)
    """
    return _hash_table(n_ids, hash_salt(seed))


def _hash_table(n_ids: int, salt: np.uint64) -> np.ndarray:
    with np.errstate(over="ignore"):
        z = np.arange(n_ids, dtype=np.uint64) + salt + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z >> np.uint64(11)


@njit(cache=True, nogil=True)
def _shards(ids, salt, thresh, smax, w, use_w, n_ids, nb):
    """Sampled stack distances -> weighted mass per true-distance block (as difference arrays).

    Returns hist, bhist (slopes: cumsum gives mass per block), cold, bcold, final threshold, sampled references, tracked blocks.
    """
    n = ids.shape[0]
    hist = np.zeros(nb + 1, np.float64)  # slope (difference) arrays of the per-block mass
    bhist = np.zeros(nb + 1, np.float64)
    cold = 0.0
    bcold = 0.0
    last = np.full(n_ids, -1, np.int64)
    tracked = np.zeros(n_ids, np.bool_)
    nw = (n + 63) >> 6
    bits = np.zeros(nw + 1, np.uint64)
    fen = np.zeros(nw + 1, np.int32)
    fen_total = 0
    bounded = smax < n_ids
    cap = smax + 1 if bounded else 1
    hh = np.zeros(cap, np.uint64)
    hid = np.zeros(cap, np.int64)
    hsize = 0
    ntracked = 0
    t = 0  # time = index among processed sampled references
    nsamp = 0
    for k in range(n):
        x = ids[k]
        hx = hash53(np.uint64(x), salt)  # inline: no table gather per reference
        if hx >= thresh:
            continue
        wc = t >> 6
        if not tracked[x]:
            tracked[x] = True
            ntracked += 1
            if bounded:
                hsize = heap_push(hh, hid, hsize, hx, x)
                if ntracked > smax:
                    top = hh[0]
                    while hsize > 0 and hh[0] == top:
                        y = hid[0]
                        hsize = heap_pop(hh, hid, hsize)
                        tracked[y] = False
                        ntracked -= 1
                        if last[y] >= 0:
                            fen_total = unmark_time(bits, fen, fen_total, nw, last[y], wc)
                            last[y] = -1
                    thresh = top
                    if hx >= thresh:
                        continue
        rate = thresh / 9007199254740992.0
        inv = 1.0 / rate
        wt = w[k] * inv if use_w else inv
        p = last[x]
        nsamp += 1
        if p < 0:
            cold += inv
            bcold += wt
        else:
            # hot path written out (see models.sim.stack_distance._stack_distances)
            wp = p >> 6
            b = np.uint64(p & 63)
            d = np.int64(popcount64((bits[wp] >> b) >> _ONE))
            if wp != wc:
                d += np.int64(popcount64(bits[wc]))
                s = 0
                j = wp + 1
                while j > 0:
                    s += fen[j]
                    j -= j & -j
                d += fen_total - s
                j = wp + 1
                while j <= nw:
                    fen[j] -= 1
                    j += j & -j
                fen_total -= 1
            bits[wp] &= ~(_ONE << b)
            # the sampled distance d stands for true distances in [d/R, (d+1)/R): spread the
            # reference's mass uniformly over those blocks (slope = mass per block)
            ka = np.int64(d * inv)
            kb = np.int64((d + 1) * inv)
            if ka >= nb:
                ka = nb - 1
            if kb > nb:
                kb = nb
            if kb <= ka:
                kb = ka + 1
            hist[ka] += inv / (kb - ka)
            hist[kb] -= inv / (kb - ka)
            bhist[ka] += wt / (kb - ka)
            bhist[kb] -= wt / (kb - ka)
        bits[wc] |= _ONE << np.uint64(t & 63)
        last[x] = t
        if (t & 63) == 63:
            c = np.int32(popcount64(bits[wc]))
            fenwick_add(fen, wc, nw, c)
            fen_total += c
        t += 1
    return hist, bhist, cold, bcold, thresh, nsamp, ntracked


def _adjust_first_bucket(hist: np.ndarray, diff: float, width: int) -> None:
    if diff >= 0:
        hist[:width] += diff / width
    else:
        hist[0] += diff


def shards_mrc(ids, *, rate: float = 0.01, max_samples: int | None = None, sizes=None, weights=None,
               seed=0, adjust: bool = True) -> ShardsCurve:
    """Approximate LRU hit-ratio curve by SHARDS sampling.

    Parameters
    ----------
    ids : array_like of int
        Block ids, one per reference, ``>= 0``.
    rate : float, keyword-only
        Sampling rate ``R`` in (0, 1] [-] (fixed rate; the starting rate with ``max_samples``).
    max_samples : int, optional, keyword-only
        Fixed-size SHARDS: track at most this many distinct blocks, lowering the rate as needed.
    sizes : array_like of int, optional, keyword-only
        Cache sizes to report [blocks]; default every size ``1..max id + 1``.
    weights : array_like of float, optional, keyword-only
        Bytes per reference [bytes] for the byte hit ratio.
    seed : int or numpy.random.Generator, keyword-only
        Seeds the hash salt (which blocks are sampled).
    adjust : bool, keyword-only
        SHARDS_adj correction of the first bucket (fixed rate and fixed size).

    Returns
    -------
    ShardsCurve

    Raises
    ------
    ValueError
        On bad ids, rate, max_samples, weights or sizes, or an empty trace.

    Examples
    --------
    >>> ids = np.random.default_rng(0).zipf(1.3, 200_000) % 5000
    >>> from models.sim.stack_distance import hit_ratio_curve
    >>> exact = hit_ratio_curve(ids, sizes=[100, 1000])
    >>> est = shards_mrc(ids, rate=0.1, sizes=[100, 1000])
    >>> bool(np.abs(est.hit_ratio - exact.hit_ratio).max() < 0.03)
    True
    """
    a = as_ids(ids)
    n = len(a)
    if n == 0:
        raise ValueError("ids is empty: no requests to build a hit-ratio curve from")
    if not (isinstance(rate, (int, float, np.floating)) and np.isfinite(rate) and 0 < rate <= 1):
        raise ValueError(f"rate must be in (0, 1] (got {rate!r})")
    if max_samples is not None and (isinstance(max_samples, bool) or not isinstance(max_samples, (int, np.integer))
                                    or max_samples < 1):
        raise ValueError(f"max_samples must be an integer >= 1 (got {max_samples!r})")
    w = as_weights(weights, n)
    n_ids = int(a.max()) + 1
    salt = hash_salt(seed)
    thresh = rate_threshold(rate)
    smax = min(int(max_samples), n_ids) if max_samples is not None else n_ids  # n_ids or more: all of them
    nb = n_ids + 1
    wz = w if w is not None else np.zeros(0)
    # one fused pass hashes every reference inline (the hash of block_hashes) and keeps the
    # sampled ones. Fixed size: the threshold only goes down, so once the kernel has run over a
    # head of the trace (threshold T at its end), every later reference with a hash >= T would be
    # skipped anyway. The trace is therefore pre-filtered in chunks growing 8x (each at the
    # threshold reached by the kernel on the head so far) and the kernel runs once more on the
    # filtered trace: the same result (the kernel's time counts sampled references only).
    if smax < n_ids and n > _PREFIX:
        heads, hws = [a[:_PREFIX]], [wz[:_PREFIX]]
        pos = _PREFIX
        while pos < n:
            head = np.concatenate(heads) if len(heads) > 1 else heads[0]
            hw = np.concatenate(hws) if len(hws) > 1 else hws[0]
            t_now = _shards(head, salt, thresh, smax, hw, w is not None, n_ids, nb)[4]
            end = min(n, pos * 8)
            if w is None:
                heads.append(sample_filter(a[pos:end], salt, t_now))
            else:
                r_ids, r_w = sample_filter_weighted(a[pos:end], w[pos:end], salt, t_now)
                heads.append(r_ids)
                hws.append(r_w)
            pos = end
        sub = np.concatenate(heads)
        wsub = np.concatenate(hws) if w is not None else wz
    elif thresh >= np.uint64(2**53):
        sub, wsub = a, wz  # the kernel filters as it goes
    elif w is None:
        sub, wsub = sample_filter(a, salt, thresh), wz
    else:
        sub, wsub = sample_filter_weighted(a, w, salt, thresh)
    hist, bhist, cold, bcold, th, nsamp, ntracked = _shards(sub, salt, thresh, smax, wsub, w is not None, n_ids, nb)
    final_rate = float(th) / _SCALE
    hist = np.cumsum(hist)[:nb]
    bhist = np.cumsum(bhist)[:nb]
    total = hist.sum() + cold
    btotal = bhist.sum() + bcold
    if adjust and nsamp > 0:
        # SHARDS_adj: credit the expected-minus-actual sample count to the first bucket, the
        # true distances [0, 1/R) that a sampled distance of 0 stands for. Fixed size: the
        # estimated count is the sum of 1/R(t) over the sampled references (R lowered over time).
        width = max(1, min(nb, int(1.0 / final_rate)))
        diff = n - (nsamp / final_rate if max_samples is None else total)
        # a shortfall is spread over the bucket; a surplus is taken off at distance 0 only, so the
        # cumulative curve stays monotone (spreading a negative mass would make it dip)
        _adjust_first_bucket(hist, diff, width)
        total += diff
        if w is not None:
            bdiff = float(w.sum()) - btotal
            _adjust_first_bucket(bhist, bdiff, width)
            btotal += bdiff
    if w is None:
        bhist, btotal = hist, total
    if sizes is None:
        sizes = np.arange(1, n_ids + 1, dtype=np.int64)
    curve = curve_from_histogram(hist, bhist, total, btotal, sizes, n, 0, np.float64)
    est_footprint = int(round(cold))  # each sampled first reference stands for 1/R blocks
    return ShardsCurve(
        curve.cache_blocks, curve.hit_ratio, curve.byte_hit_ratio, curve.hits * (n / total if total > 0 else 0.0),
        n, est_footprint, final_rate, int(nsamp), int(ntracked),
    )
