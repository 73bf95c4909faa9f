"""Byte miss-ratio curves with variable object sizes: LRU (exact, SHARDS), FIFO and CLOCK (exact, MiniSim).

Objects of different sizes share a cache of ``B`` bytes. Under LRU that evicts least
recently used objects until the new one fits, the cache holds the longest prefix of the
recency stack whose sizes sum to at most ``B`` (every object admitted; an object larger than
the cache empties it). A reference therefore hits at capacity ``B`` iff its *byte stack
distance* -- the bytes of the distinct other objects referenced since its previous
reference -- plus its own size is ``<= B``. One pass that computes every distance gives the
curve at every capacity.

Algorithm: each object keeps its size as a mark at the time of its latest reference; a
Fenwick tree over access times sums the marks after the previous reference
(O(log N) per reference). An object's size is that of its latest reference (a reference
that changes the size hits iff the *stored* copy was still cached).

Sampled: the SHARDS spatial sample at rate ``R`` (:mod:`models.sim.sampling`); a sampled
byte distance ``D`` stands for ``D / R`` bytes and each sampled reference for ``1 / R``
references; ``adjust=True`` applies SHARDS_adj: a shortfall of sampled references (and bytes)
against the expected ``N R`` is spread over the sampled reuses at sampled distance 0 (the
hottest objects, at their own sizes), a surplus is taken off at every capacity.

FIFO and CLOCK by bytes (``policy=``): not stack algorithms, so one queue simulation per
capacity (:func:`_byte_queue`: evict from the head until the new object fits, CLOCK re-queues
a referenced head); sampled by MiniSim (Waldspurger et al. ATC'17): the same kernel on the
spatial sample at capacity ``floor(B R)`` bytes, hit ratio = sampled hits / sampled
references and byte hit ratio = sampled hit bytes / sampled bytes (the paper's plain
estimate; a SHARDS_adj-style count correction at every capacity would credit hits at
capacities smaller than the hot objects, see the LRU case above).

Outputs: ``hit_ratio`` (fraction of requests that hit) and ``byte_hit_ratio`` (fraction of
requested bytes that hit, each reference weighing its own size) at each capacity [bytes].

References
----------
.. [1] R. L. Mattson, J. Gecsei, D. R. Slutz, I. L. Traiger, "Evaluation techniques for
   storage hierarchies", IBM Systems Journal 9(2), 1970 (stack distances).
.. [2] C. A. Waldspurger, N. Park, A. Garthwaite, I. Ahmad, "Efficient MRC Construction
   with SHARDS", USENIX FAST 2015, section 4 (sampling, SHARDS_adj) and section 6.3
   (variable-size objects: byte distances).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from models._base import ModelResult
from models.sim.primitives import as_ids
from models.sim.sampling import check_rate, spatial_sample

__all__ = ["ByteMissRatioCurve", "byte_stack_distances", "byte_mrc", "as_object_sizes", "BYTE_POLICIES"]


@njit(cache=True, nogil=True)
def _byte_distances(ids, sizes, n_ids):
    n = ids.shape[0]
    dist = np.empty(n, np.int64)
    own = np.empty(n, np.int64)
    last = np.full(n_ids, -1, np.int64)
    held = np.zeros(n_ids, np.int64)  # size of each object's mark
    fen = np.zeros(n + 1, np.int64)  # Fenwick tree over access times (1-indexed) of mark sizes
    total = 0
    for i in range(n):
        x = ids[i]
        p = last[x]
        if p < 0:
            dist[i] = -1
            own[i] = sizes[i]
        else:
            s = 0
            j = p + 1
            while j > 0:
                s += fen[j]
                j -= j & -j
            dist[i] = total - s
            own[i] = held[x]
            j = p + 1
            v = held[x]
            while j <= n:
                fen[j] -= v
                j += j & -j
            total -= v
        v = sizes[i]
        j = i + 1
        while j <= n:
            fen[j] += v
            j += j & -j
        total += v
        held[x] = v
        last[x] = i
    return dist, own


@njit(cache=True, nogil=True)
def _byte_queue(ids, sizes, n_ids, cap, second_chance):
    """FIFO (``second_chance`` False) or CLOCK by bytes: a cache of ``cap`` bytes.

    A miss admits the object after evicting from the queue head until it fits (an object
    larger than ``cap`` is not admitted); CLOCK re-queues a head whose reference bit is set
    (clearing it) instead of evicting it. A hit with a new size re-sizes the cached copy and
    evicts from the head until the content fits again. Returns (hits, hit bytes), each hit
    weighing the size of its reference.
    """
    n = ids.shape[0]
    cached = np.zeros(n_ids, np.bool_)
    ref = np.zeros(n_ids, np.bool_)
    held = np.zeros(n_ids, np.int64)
    q = np.empty(n_ids + 1, np.int64)  # ring buffer of cached ids, head first
    m = n_ids + 1
    head = 0
    count = 0
    used = 0
    hits = 0
    hbytes = 0.0
    for i in range(n):
        x = ids[i]
        sz = sizes[i]
        if cached[x]:
            hits += 1
            hbytes += sz
            ref[x] = True
            used += sz - held[x]
            held[x] = sz
            need = 0
        else:
            need = sz
        while used + need > cap and count > 0:
            v = q[head]
            head = head + 1 if head + 1 < m else 0
            if second_chance and ref[v]:
                ref[v] = False
                t = head + count - 1
                q[t - m if t >= m else t] = v
                continue
            count -= 1
            cached[v] = False
            ref[v] = False
            used -= held[v]
        if need > 0 and sz <= cap:
            t = head + count
            q[t - m if t >= m else t] = x
            count += 1
            cached[x] = True
            held[x] = sz
            used += sz
    return hits, hbytes


def as_object_sizes(sizes, n: int, name: str = "object sizes") -> np.ndarray:
    """Validate per-reference object sizes [bytes]: whole numbers ``>= 1``, length ``n`` (a scalar is broadcast).

    >>> as_object_sizes(4096, 2).tolist()
    [4096, 4096]
    >>> as_object_sizes([1, 0], 2)
    Traceback (most recent call last):
    ...
    ValueError: object sizes[1] must be >= 1 byte (got 0)
    """
    a = np.asarray(sizes)
    if a.ndim == 0:
        a = np.full(n, a)
    if a.ndim != 1 or len(a) != n:
        raise ValueError(f"{name} must be a one-dimensional array of length {n} (got shape {a.shape})")
    if a.dtype.kind == "f":
        if not np.all(np.isfinite(a)) or np.any(a != np.round(a)):
            raise ValueError(f"{name} must be whole numbers of bytes")
    elif a.dtype.kind not in "iub":
        raise ValueError(f"{name} must be integers (got dtype {a.dtype})")
    a = np.ascontiguousarray(a, dtype=np.int64)
    if a.size and a.min() < 1:
        i = int(np.argmin(a))
        raise ValueError(f"{name}[{i}] must be >= 1 byte (got {int(a[i])})")
    return a


def byte_stack_distances(ids, sizes) -> tuple[np.ndarray, np.ndarray]:
    """Byte stack distance of every reference, and the size of the copy it looks for.

    Parameters
    ----------
    ids : array_like of int
        Object ids, one per reference, ``>= 0``.
    sizes : array_like of int or int
        Object size at each reference [bytes], ``>= 1``.

    Returns
    -------
    dist : int64 array
        Bytes of the distinct other objects referenced since the previous reference [bytes];
        ``-1`` for a first reference.
    own : int64 array
        Size of the object as stored by its previous reference [bytes] (its own size on a
        first reference). The reference hits in an LRU cache of ``B`` bytes iff
        ``0 <= dist <= B - own``.

    >>> d, o = byte_stack_distances([0, 1, 0, 2, 1], [10, 5, 10, 1, 5])
    >>> d.tolist(), o.tolist()
    ([-1, -1, 5, -1, 11], [10, 5, 10, 1, 5])
    """
    a = as_ids(ids)
    s = as_object_sizes(sizes, len(a))
    if a.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return _byte_distances(a, s, int(a.max()) + 1)


@dataclass(frozen=True)
class ByteMissRatioCurve(ModelResult):
    """LRU hit ratios against cache capacity in bytes.

    Attributes
    ----------
    cache_bytes : int64 array
        Cache capacity [bytes].
    hit_ratio : float array
        Fraction of requests that hit [-].
    byte_hit_ratio : float array
        Fraction of requested bytes that hit [-].
    hits : float array
        Hits at each capacity [requests] (estimates when sampled).
    requests : int
        References in the trace [-].
    footprint_bytes : int
        Sum of the sizes of the distinct objects [bytes] (estimate when sampled); the
        curve is flat from there on.
    method : str
        ``exact`` or ``shards``.
    rate : float
        Sampling rate [-] (1 for exact).
    """

    cache_bytes: np.ndarray
    hit_ratio: np.ndarray
    byte_hit_ratio: np.ndarray
    hits: np.ndarray
    requests: int
    footprint_bytes: int
    method: str = "exact"
    rate: float = 1.0

    @property
    def miss_ratio(self) -> np.ndarray:
        """``1 - hit_ratio`` [-]."""
        return 1.0 - self.hit_ratio

    @property
    def byte_miss_ratio(self) -> np.ndarray:
        """``1 - byte_hit_ratio`` [-]."""
        return 1.0 - self.byte_hit_ratio

    def to_frame(self) -> pd.DataFrame:
        """Columns ``cache_bytes, hit_ratio, byte_hit_ratio``."""
        return pd.DataFrame({"cache_bytes": self.cache_bytes, "hit_ratio": self.hit_ratio,
                             "byte_hit_ratio": self.byte_hit_ratio})


def _capacities(capacities, smallest: int, footprint: int, points: int) -> np.ndarray:
    if capacities is None:
        lo = max(1, smallest)
        hi = max(lo, footprint)
        return np.unique(np.rint(np.geomspace(lo, hi, points)).astype(np.int64))
    c = np.atleast_1d(np.asarray(capacities))
    if c.ndim != 1 or c.size == 0:
        raise ValueError("cache capacities must be a non-empty one-dimensional list [bytes]")
    if c.dtype.kind == "f" and (not np.all(np.isfinite(c)) or np.any(c != np.round(c))):
        raise ValueError("cache capacities must be whole numbers of bytes")
    if c.dtype.kind not in "iuf":
        raise ValueError(f"cache capacities must be integers (got dtype {c.dtype})")
    c = c.astype(np.int64)
    if c.min() < 0:
        raise ValueError(f"cache capacities must be >= 0 bytes (got {int(c.min())})")
    return c


def _curve(need, wt_req, wt_bytes, caps, tot_req, tot_bytes, extra_req, extra_bytes):
    """Hits at each capacity: references with ``0 <= need <= cap`` (weighted)."""
    order = np.argsort(need, kind="stable")
    ns = need[order]
    cr = np.concatenate(([0.0], np.cumsum(wt_req[order])))
    cb = np.concatenate(([0.0], np.cumsum(wt_bytes[order])))
    k = np.searchsorted(ns, caps, side="right")
    pos = caps > 0
    hits = cr[k] + np.where(pos, extra_req, 0.0)
    bh = cb[k] + np.where(pos, extra_bytes, 0.0)
    hr = np.clip(hits / tot_req, 0.0, 1.0) if tot_req > 0 else np.zeros(len(caps))
    bhr = np.clip(bh / tot_bytes, 0.0, 1.0) if tot_bytes > 0 else hr.copy()
    return hits, hr, bhr


BYTE_POLICIES = ("lru", "fifo", "clock")


def _queue_curve(a, s, caps, policy):
    """Hits and hit bytes of FIFO/CLOCK by bytes at each capacity (one run per capacity)."""
    n_ids = int(a.max()) + 1 if a.size else 1
    hits = np.zeros(len(caps))
    hb = np.zeros(len(caps))
    if a.size == 0:
        return hits, hb
    for k, c in enumerate(caps):
        hits[k], hb[k] = _byte_queue(a, s, n_ids, int(c), policy == "clock")
    return hits, hb


def _byte_policy_mrc(a, s, capacities, points, policy, method, rate, seed) -> ByteMissRatioCurve:
    """FIFO / CLOCK by bytes: exact (one simulation per capacity) or MiniSim (module docstring)."""
    n = len(a)
    total_bytes = float(s.sum())
    if method == "exact":
        footprint = _footprint(a, s)
        caps = _capacities(capacities, int(s.min()), footprint, points)
        hits, hb = _queue_curve(a, s, caps, policy)
        return ByteMissRatioCurve(caps, hits / n, np.clip(hb / total_bytes, 0.0, 1.0), hits, n, footprint, "exact",
                                  1.0)
    if method != "minisim":
        raise ValueError(f"method must be 'exact' or 'minisim' for the {policy} byte miss-ratio curve (got {method!r})")
    r = check_rate(rate)
    smp = spatial_sample(a, r, seed=seed, weights=s.astype(np.float64))
    ws = smp.weights.astype(np.int64) if smp.weights is not None else np.zeros(0, np.int64)
    footprint = int(round(_footprint(smp.ids, ws) / r))
    caps = _capacities(capacities, int(s.min()), footprint, points)
    hits, hb = _queue_curve(smp.ids, ws, np.floor(caps * r).astype(np.int64), policy)
    ns, bs = len(smp.ids), float(ws.sum())
    hr = hits / ns if ns else np.zeros(len(caps))
    bhr = hb / bs if bs > 0 else hr.copy()
    return ByteMissRatioCurve(caps, hr, bhr, hr * n, n, footprint, "minisim", r)


def byte_mrc(ids, sizes, *, capacities=None, points: int = 50, method: str = "exact", rate: float = 0.01,
             seed=0, adjust: bool = True, policy: str = "lru") -> ByteMissRatioCurve:
    """Hit ratios (requests and bytes) against cache capacity in bytes, for variable-size objects.

    Parameters
    ----------
    ids : array_like of int
        Object ids, one per reference, ``>= 0``.
    sizes : array_like of int or int
        Object size at each reference [bytes], ``>= 1``.
    capacities : array_like of int, optional, keyword-only
        Cache capacities [bytes]; default ``points`` log-spaced capacities from the smallest
        object to the footprint.
    points : int, keyword-only
        Number of default capacities.
    method : {"exact", "shards", "minisim"}, keyword-only
        ``lru``: exact byte stack distances, or the SHARDS spatial sample at ``rate``.
        ``fifo``/``clock``: exact (one simulation per capacity) or ``minisim`` (caches of
        ``floor(B R)`` bytes on the spatial sample; plain ratio estimates).
    rate : float, keyword-only
        Sampling rate in (0, 1] [-] (``shards``, ``minisim``).
    seed : int or numpy.random.Generator, keyword-only
        Hash salt of the sample.
    adjust : bool, keyword-only
        SHARDS_adj correction of the sampled count and bytes (``lru`` with ``shards``).
    policy : {"lru", "fifo", "clock"}, keyword-only
        Replacement policy; FIFO and CLOCK evict from the queue head until the new object
        fits (CLOCK gives a referenced head a second chance).

    Returns
    -------
    ByteMissRatioCurve

    Raises
    ------
    ValueError
        Empty trace, bad ids, sizes, capacities, rate or method.

    Examples
    --------
    >>> c = byte_mrc([0, 1, 0, 2, 1], [10, 5, 10, 1, 5], capacities=[10, 15, 16])
    >>> c.hits.tolist(), c.byte_hit_ratio.round(3).tolist()
    ([0.0, 1.0, 2.0], [0.0, 0.323, 0.484])
    """
    a = as_ids(ids)
    n = len(a)
    if n == 0:
        raise ValueError("ids is empty: no requests to build a miss-ratio curve from")
    s = as_object_sizes(sizes, n)
    if isinstance(points, bool) or not isinstance(points, (int, np.integer)) or points < 1:
        raise ValueError(f"points must be an integer >= 1 (got {points!r})")
    pol = str(policy).lower()
    if pol not in BYTE_POLICIES:
        raise ValueError(f"policy must be one of {', '.join(BYTE_POLICIES)} for the byte miss-ratio curve "
                         f"(got {policy!r})")
    if pol != "lru":
        return _byte_policy_mrc(a, s, capacities, points, pol, method, rate, seed)
    total_bytes = float(s.sum())
    if method == "exact":
        dist, own = _byte_distances(a, s, int(a.max()) + 1)
        reuse = dist >= 0
        need = dist[reuse] + own[reuse]
        footprint = _footprint(a, s)
        caps = _capacities(capacities, int(s.min()), footprint, points)
        hits, hr, bhr = _curve(need, np.ones(len(need)), s[reuse].astype(np.float64), caps, float(n), total_bytes,
                               0.0, 0.0)
        return ByteMissRatioCurve(caps, hr, bhr, np.rint(hits), n, footprint, "exact", 1.0)
    if method != "shards":
        raise ValueError(f"method must be 'exact' or 'shards' for the lru byte miss-ratio curve (got {method!r})")
    r = check_rate(rate)
    smp = spatial_sample(a, r, seed=seed, weights=s.astype(np.float64))
    ws = smp.weights.astype(np.int64) if smp.weights is not None else np.zeros(0, np.int64)
    inv = 1.0 / r
    if len(smp.ids):
        dist, own = _byte_distances(smp.ids, ws, smp.blocks)
        reuse = dist >= 0
        need = np.rint(dist[reuse] * inv).astype(np.int64) + own[reuse]
        footprint = int(round(_footprint(smp.ids, ws) * inv))
        req_w = np.full(len(need), inv)
        byte_w = ws[reuse] * inv
    else:
        need = np.zeros(0, np.int64)
        footprint = 0
        req_w = byte_w = np.zeros(0)
    caps = _capacities(capacities, int(s.min()), footprint, points)
    est_n = len(smp.ids) * inv
    est_b = float(ws.sum()) * inv
    extra_r = extra_b = 0.0
    if adjust:
        extra_r, extra_b = n - est_n, total_bytes - est_b
        tot_r, tot_b = float(n), total_bytes
        zero = np.flatnonzero(dist[reuse] == 0) if len(need) else np.zeros(0, np.int64)
        if extra_r > 0 and zero.size:
            # a sampled distance of 0 stands for the hottest objects: the missing references are
            # spread over those reuses (at their own sizes), by count and by bytes
            req_w = req_w.copy()
            byte_w = byte_w.copy()
            req_w[zero] += extra_r / zero.size
            byte_w[zero] += max(extra_b, 0.0) * byte_w[zero] / byte_w[zero].sum()
            extra_r = 0.0
            extra_b = min(extra_b, 0.0)
        # otherwise (a surplus): taken off at every capacity > 0, as SHARDS_adj's first bucket
    else:
        tot_r, tot_b = est_n, est_b
    hits, hr, bhr = _curve(need, req_w, byte_w, caps, tot_r, tot_b, extra_r, extra_b)
    return ByteMissRatioCurve(caps, hr, bhr, hr * n, n, footprint, "shards", r)


def _footprint(ids: np.ndarray, sizes: np.ndarray) -> int:
    """Sum over distinct objects of the size at their latest reference [bytes]."""
    if ids.size == 0:
        return 0
    _, k = np.unique(ids[::-1], return_index=True)  # latest reference of each object
    return int(sizes[::-1][k].sum())
