"""Exact LRU stack distances (Mattson et al. 1970) and the full hit-ratio curve.

LRU has the *inclusion property*: the content of an LRU cache of ``C`` blocks is always
the ``C`` most recently used distinct blocks. A reference therefore hits at capacity
``C`` iff its *stack distance* ``d`` -- the number of distinct other blocks referenced
since the previous reference of the same block -- satisfies ``d < C``. One pass that
computes every ``d`` gives the hit ratio at every cache size at once (a histogram and a
cumulative sum).

Algorithm
---------
Each block keeps a mark at the time of its latest reference. The distance of a reference
at time ``i`` whose previous reference was at time ``p`` is the number of marks in
``(p, i)``. Marks live in a bitset over access times (one bit per request); a Fenwick
tree over the per-word mark counts of completed 64-bit words counts the marks in the words
strictly between ``p`` and ``i``; the partial words are counted with a hardware popcount.
The tree is built lazily (a node is filled when its last word completes), so a removal
walks only the ancestors that exist; the count is the completed words' total minus one
prefix walk. Total O(N log N) time, N/8 + N/16 bytes.

Before the pass the ids are renumbered by first appearance (int32 when the trace has fewer
than 2^31 references): same distances, but the early -- mostly popular -- blocks get small
adjacent numbers, so the ``last[id]`` lookups stay in the CPU caches. Without byte weights the
distance histogram is counted inside the pass (no per-reference distance array).

Parallel: the marks at any time ``s`` are the latest references before ``s``, found by one
scan of ``ids[:s]``; so the trace is cut into ``threads`` time ranges (of about equal estimated
cost, :func:`_dense`), each range's pass starts from its marks, and the kernels (which release
the GIL) run in parallel threads. The result is identical to one pass.

References
----------
.. [1] R. L. Mattson, J. Gecsei, D. R. Slutz, I. L. Traiger, "Evaluation techniques for
   storage hierarchies", IBM Systems Journal 9(2), 1970, doi:10.1147/sj.92.0078.
.. [2] G. S. Almasi, C. Cascaval, D. A. Padua, "Calculating stack distances efficiently",
   MSP 2002, doi:10.1145/773146.773043 (balanced-tree / Fenwick formulation).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd
from numba import njit

from models._base import ModelResult
from models.sim.primitives import as_ids, as_weights, first_seen, popcount64

__all__ = ["HitRatioCurve", "stack_distances", "hit_ratio_curve", "lru_hits", "as_sizes", "curve_from_histogram", "log_sizes"]

_ONE = np.uint64(1)


@njit(cache=True, nogil=True)
def _fenwick_build_node(fen, bits, j):
    """Fill node ``j`` of the lazily built Fenwick tree when word ``j - 1`` completes.

    Node ``j`` covers words ``(j - lowbit(j), j]`` (1-indexed): its own word's popcount plus
    its children ``j - 1, j - 2, j - 4, ...`` (all complete already).
    """
    c = np.int32(popcount64(bits[j - 1]))
    lb = j & -j
    t = 1
    while t < lb:
        c += fen[j - t]
        t <<= 1
    fen[j] = c


@njit(cache=True, nogil=True)
def _renumber(ids, table, codes, new, shift):
    """Number ``ids`` by first appearance into ``codes`` (``table[id]`` = code, ``-1`` unseen);
    ``new[k]`` = first references in chunk ``k`` (references ``k << shift ..``). Returns the
    number of distinct ids."""
    n = ids.shape[0]
    m = 0
    for k in range(new.shape[0]):
        m0 = m
        for i in range(k << shift, min(n, (k + 1) << shift)):
            codes[i] = first_seen(table, ids[i], m)
            if codes[i] == m:
                m += 1
        new[k] = m - m0
    return m


@njit(cache=True, nogil=True)
def _range_pass(ids, n_ids, start, stop, out, hist):
    """Stack distances of references ``start..stop-1``: into ``out`` (same indices, ``-1`` for
    a first reference) if ``out`` is not empty, else counted into ``hist`` (``hist[d] += 1``,
    first references not counted). Returns the number of first references in the range.

    The marks at time ``start`` (each block's latest reference before ``start``) are set
    from one scan of ``ids[:start]``, so disjoint ranges can run in parallel threads and give
    exactly the values of one pass over the whole trace. ``last``, ``hist`` use the dtype of
    ``ids`` (int32 when the trace has < 2^31 references: half the cache footprint).
    """
    last = np.full(n_ids, -1, ids.dtype)
    for i in range(start):
        last[ids[i]] = i
    nw = (stop + 63) >> 6
    bits = np.zeros(nw + 1, np.uint64)
    # Fenwick tree over completed words (1-indexed), built lazily: node j is filled when word
    # j - 1 completes, so a removal only walks the ancestors that exist (<= the current word).
    fen = np.zeros(nw + 2, np.int32)
    total = 0  # marks held in completed words
    if start > 0:
        for x in range(n_ids):
            q = np.int64(last[x])
            if q >= 0:
                bits[q >> 6] |= _ONE << np.uint64(q & 63)
        for j in range(1, (start >> 6) + 1):
            _fenwick_build_node(fen, bits, j)
            total += popcount64(bits[j - 1])
    keep = out.shape[0] > 0
    first = 0
    for i in range(start, stop):
        x = ids[i]
        p = np.int64(last[x])
        wc = i >> 6
        if p < 0:
            first += 1
            if keep:
                out[i] = -1
        else:
            # hot path written out, as in models.sim.shards (a helper call per reference was
            # slower: docs/models/sim.md)
            w = p >> 6
            b = np.uint64(p & 63)
            d = np.int64(popcount64((bits[w] >> b) >> _ONE))
            if w != wc:
                d += np.int64(popcount64(bits[wc]))
                # marks in words w+1 .. wc-1 = (completed words) - prefix(w+1)
                s = 0
                j = w + 1
                while j > 0:
                    s += fen[j]
                    j -= j & -j
                d += total - s
                j = w + 1
                while j <= wc:
                    fen[j] -= 1
                    j += j & -j
                total -= 1
            bits[w] &= ~(_ONE << b)
            if keep:
                out[i] = d
            else:
                hist[d] += 1
        bits[wc] |= _ONE << np.uint64(i & 63)
        last[x] = i
        if (i & 63) == 63:
            _fenwick_build_node(fen, bits, wc + 1)
            total += popcount64(bits[wc])
    return first


def default_threads(n: int) -> int:
    """Threads for an ``n``-reference stack-distance pass: 1 below 2^21 references, else up to
    ``numba.config.NUMBA_NUM_THREADS`` (set ``NUMBA_NUM_THREADS`` to limit it), one per 2^20
    references.

    >>> default_threads(1000)
    1
    """
    return int(max(1, min(numba.config.NUMBA_NUM_THREADS, n >> 20))) if n >= (1 << 21) else 1


def _dense(a):
    """``a`` renumbered by first appearance (int32 below 2^31 references, else int64), the
    number of distinct ids and the estimated pass cost of each chunk of ``2^shift`` references
    (about 256 chunks), for :func:`_split`.

    Same stack distances (a bijection of the ids), but the blocks referenced early -- mostly
    the popular ones -- get small, adjacent numbers, so the pass's ``last[id]`` lookups hit
    the CPU caches far more often than with ids spread over a wide range (CPU time of the
    exact MRC on the 10 M bench trace 0.55-0.8x, docs/models/sim.md). Ids spanning more than
    4x the references are factorised first (a hash table, O(distinct) memory) instead of a
    direct table of ``max id + 1`` slots.

    Cost estimate: a reuse at time ``t`` weighs ``1 + t / N``, a first reference nothing.
    A reuse late in the trace costs about twice an early one (its range's bit set and tree are
    longer and its marks further back: measured 39 ns per reuse in the first eighth of the
    10 M bench trace, 101 ns in the last); this only moves the range bounds, never the result.
    """
    n = a.shape[0]
    dt = np.int32 if n < (1 << 31) else np.int64
    shift = max(0, n.bit_length() - 8)
    span = int(a.max()) + 1
    if span > 4 * n:
        a = pd.factorize(a, sort=False)[0]
        span = int(a.max()) + 1
    codes = np.empty(n, dt)
    new = np.zeros(((n - 1) >> shift) + 1, np.int64)
    m = _renumber(a, np.full(span, -1, dt), codes, new, shift)
    lo = np.arange(len(new), dtype=np.int64) << shift
    length = np.minimum(lo + (1 << shift), n) - lo
    cost = (length - new) * (1.0 + (lo + 0.5 * length) / n)
    return codes, int(m), cost, shift


def _split(cost, shift: int, n: int, t: int) -> np.ndarray:
    """``t + 1`` range bounds over ``n`` references, about equal estimated cost per range
    (``cost[k]`` = chunk ``k`` of ``2^shift`` references).

    >>> _split(np.array([1, 1, 1, 1]), 0, 4, 2).tolist()
    [0, 2, 4]
    """
    cum = np.cumsum(cost)
    cuts = np.searchsorted(cum, cum[-1] * np.arange(1, t) / t, side="left") + 1
    return np.concatenate(([0], np.minimum(cuts.astype(np.int64) << shift, n), [n]))


def _run_ranges(codes, m, bounds, out, hists):
    """Run :func:`_range_pass` over ``bounds`` in parallel threads (the kernel releases the
    GIL); ``hists[k]`` is range k's histogram (unused when ``out`` is filled)."""
    t = len(bounds) - 1
    if t == 1:
        return [_range_pass(codes, m, 0, int(bounds[1]), out, hists[0])]
    with ThreadPoolExecutor(t) as ex:
        return list(ex.map(lambda k: _range_pass(codes, m, int(bounds[k]), int(bounds[k + 1]), out, hists[k]),
                           range(t)))


def _stack_distances(ids, threads: int = 1):
    """Stack distances of validated non-empty ``ids``; ``threads > 1`` splits the trace into
    ranges of about equal estimated cost run in parallel, same result."""
    n = ids.shape[0]
    codes, m, cost, shift = _dense(ids)
    out = np.empty(n, np.int64)
    bounds = _split(cost, shift, n, int(max(1, min(threads, n))))
    _run_ranges(codes, m, bounds, out, [np.zeros(0, codes.dtype)] * (len(bounds) - 1))
    return out


def _distance_histogram(ids, threads: int = 1):
    """``(hist, first)``: reuses per stack distance (``hist[d]``, length = distinct ids) and
    first references of validated non-empty ``ids``, counted inside the pass (no per-reference
    distance array); each thread counts its range into its own histogram, summed after."""
    n = ids.shape[0]
    codes, m, cost, shift = _dense(ids)
    bounds = _split(cost, shift, n, int(max(1, min(threads, n))))
    hists = [np.zeros(m, codes.dtype) for _ in range(len(bounds) - 1)]
    first = sum(_run_ranges(codes, m, bounds, np.zeros(0, np.int64), hists))
    hist = hists[0].astype(np.int64)
    for h in hists[1:]:
        hist += h
    return hist, int(first)


def check_threads(threads, n: int) -> int:
    """``threads`` (None = :func:`default_threads`) as a positive int, or a ValueError.

    >>> check_threads(None, 10), check_threads(2, 10)
    (1, 2)
    """
    if threads is None:
        return default_threads(n)
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a whole number >= 1 (got {threads!r})")
    return int(threads)


def stack_distances(ids, *, threads=None) -> np.ndarray:
    """Exact LRU stack distance of every reference.

    Parameters
    ----------
    ids : array_like of int
        Block ids, one per reference, ``>= 0`` (compact ids ``0..M-1`` keep memory at O(M)).
    threads : int, optional, keyword-only
        Parallel threads (the trace is split into equal time ranges, each pass sets up the
        marks of its start from a scan of the head); default :func:`default_threads`. The
        result does not depend on it.

    Returns
    -------
    numpy.ndarray of int64
        ``d[i]`` = number of distinct *other* ids referenced since the previous reference of
        ``ids[i]`` [blocks]; ``-1`` for a first reference. The reference hits in an LRU cache
        of ``C`` blocks iff ``0 <= d[i] < C``.

    Raises
    ------
    ValueError
        If ``ids`` is not a one-dimensional array of non-negative integers.

    Examples
    --------
    >>> stack_distances([0, 1, 0, 2, 1, 0]).tolist()
    [-1, -1, 1, -1, 2, 2]
    >>> stack_distances([5, 5, 5]).tolist()
    [-1, 0, 0]
    """
    a = as_ids(ids)
    if a.size == 0:
        return np.zeros(0, np.int64)
    return _stack_distances(a, check_threads(threads, len(a)))


def as_sizes(sizes, name: str = "sizes") -> np.ndarray:
    """Validate cache sizes [blocks]: a 1-D array of integers ``>= 0``.

    >>> as_sizes([10, 0, 3]).tolist()
    [10, 0, 3]
    >>> as_sizes([1.5])
    Traceback (most recent call last):
    ...
    ValueError: sizes must be whole numbers of blocks (got 1.5)
    """
    s = np.atleast_1d(np.asarray(sizes))
    if s.ndim != 1 or s.size == 0:
        raise ValueError(f"{name} must be a non-empty one-dimensional list of cache sizes")
    if s.dtype.kind == "f":
        if not np.all(np.isfinite(s)):
            raise ValueError(f"{name} must be finite")
        bad = s != np.round(s)
        if bad.any():
            raise ValueError(f"{name} must be whole numbers of blocks (got {s[bad][0]:g})")
    elif s.dtype.kind not in "iu":
        raise ValueError(f"{name} must be integers (got dtype {s.dtype})")
    s = s.astype(np.int64)
    if s.min() < 0:
        raise ValueError(f"{name} must be >= 0 (got {int(s.min())})")
    return s


@dataclass(frozen=True)
class HitRatioCurve(ModelResult):
    """LRU hit ratio at many cache sizes; unpacks as ``(cache_blocks, hit_ratio, byte_hit_ratio)``.

    Attributes
    ----------
    cache_blocks : int64 array
        Cache capacity [blocks].
    hit_ratio : float array
        Fraction of requests that hit [-].
    byte_hit_ratio : float array
        Fraction of request weight (bytes) that hits [-]; equals ``hit_ratio`` without weights.
    hits : int64 or float array
        Hit count at each size [requests] (float for sampled estimates).
    requests : int
        Number of requests [-].
    footprint_blocks : int
        Distinct blocks referenced [blocks] (LRU hit ratio is flat from this size on).
    """

    cache_blocks: np.ndarray
    hit_ratio: np.ndarray
    byte_hit_ratio: np.ndarray
    hits: np.ndarray
    requests: int
    footprint_blocks: int

    def __iter__(self):
        return iter((self.cache_blocks, self.hit_ratio, self.byte_hit_ratio))

    @property
    def miss_ratio(self) -> np.ndarray:
        """``1 - hit_ratio`` [-]."""
        return 1.0 - self.hit_ratio

    def to_frame(self) -> pd.DataFrame:
        """Columns ``cache_blocks, hit_ratio, byte_hit_ratio``."""
        return pd.DataFrame(
            {"cache_blocks": self.cache_blocks, "hit_ratio": self.hit_ratio, "byte_hit_ratio": self.byte_hit_ratio}
        )


def curve_from_histogram(hist, bhist, total, btotal, sizes, requests, footprint, hits_dtype) -> HitRatioCurve:
    """Cumulate stack-distance histograms (bin k = distance k) into a curve at ``sizes``.

    ``hist``/``bhist``: reuses / bytes per distance; ``total``/``btotal``: all requests /
    bytes (first references included); ``sizes`` None = every size ``1..len(hist)``;
    ``hits_dtype`` ``np.int64`` rounds the hit counts (exact curves), else they stay float
    (sampled estimates). Shared by :func:`hit_ratio_curve` and :func:`models.sim.shards.shards_mrc`.

    >>> curve_from_histogram(np.array([1, 2]), np.array([1, 2]), 4.0, 4.0, None, 4, 1, np.int64).hits.tolist()
    [1, 3]
    """
    cum = np.concatenate(([0.0], np.cumsum(hist, dtype=np.float64)))
    bcum = np.concatenate(([0.0], np.cumsum(bhist, dtype=np.float64)))
    top = len(hist)
    sizes = np.arange(1, max(top, 1) + 1, dtype=np.int64) if sizes is None else as_sizes(sizes)
    k = np.minimum(sizes, top)
    hits = cum[k]
    bh = bcum[k]
    hr = hits / total if total > 0 else np.zeros(len(k))
    bhr = bh / btotal if btotal > 0 else hr.copy()
    hits = np.rint(hits).astype(np.int64) if hits_dtype is np.int64 else hits
    return HitRatioCurve(sizes, np.clip(hr, 0.0, 1.0), np.clip(bhr, 0.0, 1.0), hits, int(requests), int(footprint))


def hit_ratio_curve(ids, *, sizes=None, weights=None, distances=None, threads=None) -> HitRatioCurve:
    """Exact LRU hit-ratio curve, request- and byte-weighted, from one stack-distance pass.

    Parameters
    ----------
    ids : array_like of int
        Block ids, one per reference, ``>= 0``.
    sizes : array_like of int, optional, keyword-only
        Cache sizes to report [blocks]; default every size ``1..M`` (M = distinct blocks).
    weights : array_like of float, optional, keyword-only
        Bytes moved by each reference [bytes], for the byte hit ratio; default all equal
        (then ``byte_hit_ratio == hit_ratio``).
    distances : array_like of int, optional, keyword-only
        Precomputed :func:`stack_distances` of ``ids`` (saves the pass when reused).
    threads : int, optional, keyword-only
        Threads of the stack-distance pass (:func:`stack_distances`); same result for any value.

    Returns
    -------
    HitRatioCurve
        ``cache_blocks``, ``hit_ratio``, ``byte_hit_ratio`` (+ ``hits``, ``requests``,
        ``footprint_blocks``).

    Raises
    ------
    ValueError
        On an empty trace, bad ids, weights or sizes.

    Examples
    --------
    >>> c = hit_ratio_curve([0, 1, 0, 2, 1, 0])
    >>> c.cache_blocks.tolist(), c.hits.tolist()
    ([1, 2, 3], [0, 1, 3])
    >>> hit_ratio_curve([0, 1, 0, 1], weights=[1, 1, 1, 3], sizes=[2]).byte_hit_ratio.tolist()
    [0.6666666666666666]
    """
    a = as_ids(ids)
    n = len(a)
    if n == 0:
        raise ValueError("ids is empty: no requests to build a hit-ratio curve from")
    w = as_weights(weights, n)
    if distances is None and w is None:
        # counted inside the pass (no distance array): same integers for any thread count
        hist, m = _distance_histogram(a, check_threads(threads, n))
        return curve_from_histogram(hist, hist, float(n), float(n), sizes, n, m, np.int64)
    if distances is None:
        # byte weights: per-reference distances, then one in-order weighted count (float sums in
        # reference order, whatever the thread count)
        d = _stack_distances(a, check_threads(threads, n))
    else:
        d = np.asarray(distances)
        if d.shape != (n,) or d.dtype.kind not in "iu":
            raise ValueError(f"distances must be an integer array of length {n} (from stack_distances)")
        d = d.astype(np.int64, copy=False)
    reuse = d >= 0
    m = n - int(np.count_nonzero(reuse))
    dr = d[reuse]
    hist = np.bincount(dr, minlength=m)[: max(m, 1)] if dr.size else np.zeros(max(m, 1), np.int64)
    if w is None:
        bhist, btotal = hist, float(n)
    else:
        bhist = np.bincount(dr, weights=w[reuse], minlength=len(hist))[: len(hist)]
        btotal = float(w.sum())
    return curve_from_histogram(hist, bhist, float(n), btotal, sizes, n, m, np.int64)


def lru_hits(ids, sizes) -> np.ndarray:
    """LRU hit count at each cache size [requests] (one stack-distance pass).

    >>> lru_hits([0, 1, 0, 2, 1, 0], [0, 1, 2, 3, 10]).tolist()
    [0, 0, 1, 3, 3]
    """
    return hit_ratio_curve(ids, sizes=sizes).hits


def log_sizes(footprint_blocks: int, points: int) -> np.ndarray:
    """About ``points`` log-spaced whole cache sizes from 1 to ``footprint_blocks`` [blocks].

    >>> log_sizes(1000, 4).tolist()
    [1, 10, 100, 1000]
    """
    if points < 1:
        raise ValueError(f"points must be >= 1 (got {points})")
    if footprint_blocks < 1:
        raise ValueError(f"footprint_blocks must be >= 1 (got {footprint_blocks})")
    s = np.unique(np.rint(np.geomspace(1, footprint_blocks, points)).astype(np.int64))
    return s
