"""Spatial hash sampling shared by SHARDS, MiniSim and the sampled byte miss-ratio curve.

A block (object) ``x`` is sampled iff ``hash(x) < T`` with ``T = R * 2^53`` for a 53-bit hash
(the SHARDS rule ``hash(x) mod P < R * P`` with ``P = 2^53``), so *every* reference to a
sampled block is kept and the sample is a faithful trace of a random ``R`` share of the
blocks. The hash is the splitmix64 finaliser of ``x`` plus a salt drawn from ``seed``
(:func:`models.sim.shards.block_hashes` computes the same values as a table).

:func:`spatial_sample` filters a trace in one numba pass that hashes each reference inline
(no table of ``max id`` entries, no boolean mask over the trace), then renumbers the sampled
blocks ``0..m-1`` in order of first reference.

References
----------
.. [1] C. A. Waldspurger, N. Park, A. Garthwaite, I. Ahmad, "Efficient MRC Construction
   with SHARDS", USENIX FAST 2015, pp. 95-110, section 3 (spatial hashing).
.. [2] S. Vigna, "An experimental exploration of Marsaglia's xorshift generators,
   scrambled", ACM TOMS 42(4), 2016 (splitmix64 finaliser).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from numba import njit

from models._base import as_generator

__all__ = ["SpatialSample", "hash_salt", "hash53", "block_hash53", "spatial_sample", "sample_filter", "sample_filter_weighted",
           "rate_threshold", "check_rate"]

_SCALE = float(2**53)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def hash_salt(seed=0) -> np.uint64:
    """The hash salt drawn from ``seed`` (int or Generator), as in :func:`models.sim.shards.block_hashes`."""
    return np.uint64(int(as_generator(seed).integers(0, 2**63)))


def check_rate(rate, name: str = "rate") -> float:
    """Validate a sampling rate in (0, 1] [-].

    >>> check_rate(0.5)
    0.5
    >>> check_rate(0)
    Traceback (most recent call last):
    ...
    ValueError: rate must be in (0, 1] (got 0)
    """
    if isinstance(rate, bool) or not (isinstance(rate, (int, float, np.floating, np.integer)) and np.isfinite(rate)
                                      and 0 < rate <= 1):
        raise ValueError(f"{name} must be in (0, 1] (got {rate!r})")
    return float(rate)


def rate_threshold(rate: float) -> np.uint64:
    """Hash threshold ``T = R * 2^53`` of a sampling rate ``R`` [-]."""
    return np.uint64(min(int(rate * _SCALE), 2**53))


@njit(cache=True, nogil=True)
def hash53(x, salt):
    """53-bit splitmix64 hash of id ``x`` (uint64) with ``salt``: equals ``block_hashes(...)[x]``."""
    z = np.uint64(x) + salt + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return z >> np.uint64(11)


@njit(cache=True, nogil=True)
def block_hash53(ids, salt):
    """:func:`hash53` of each id of ``ids`` (uint64 array)."""
    out = np.empty(ids.shape[0], np.uint64)
    for i in range(ids.shape[0]):
        out[i] = hash53(np.uint64(ids[i]), salt)
    return out


@njit(cache=True, nogil=True)
def _sampled(ids, salt, thresh):
    """Positions ``i`` (ascending) of the references ``x = ids[i]`` with ``hash53(x, salt) < thresh``."""
    n = ids.shape[0]
    cnt = 0
    for i in range(n):
        if hash53(np.uint64(ids[i]), salt) < thresh:
            cnt += 1
    pos = np.empty(cnt, np.int64)
    k = 0
    for i in range(n):
        if hash53(np.uint64(ids[i]), salt) < thresh:
            pos[k] = i
            k += 1
    return pos


def sampled_positions(ids, salt, thresh) -> np.ndarray:
    """Positions (ascending) of the references of ``ids`` with ``hash53(x, salt) < thresh``.

    Long traces (``>= 2^22`` references) are cut into equal chunks filtered in parallel
    threads (the kernel releases the GIL; :func:`models.sim.stack_distance.default_threads`);
    same result as one pass.
    """
    from models.sim.stack_distance import default_threads

    n = ids.shape[0]
    t = default_threads(n) if n >= (1 << 22) else 1
    if t == 1:
        return _sampled(ids, salt, thresh)
    bounds = np.linspace(0, n, t + 1).astype(np.int64)
    with ThreadPoolExecutor(t) as ex:
        parts = list(ex.map(lambda k: _sampled(ids[bounds[k]:bounds[k + 1]], salt, thresh) + bounds[k], range(t)))
    return np.concatenate(parts)


def sample_filter(ids, salt, thresh) -> np.ndarray:
    """The references ``x`` of ``ids`` with ``hash53(x, salt) < thresh`` (original ids, in order)."""
    return ids[sampled_positions(ids, salt, thresh)].astype(np.int64)


def sample_filter_weighted(ids, w, salt, thresh) -> tuple[np.ndarray, np.ndarray]:
    """As :func:`sample_filter`, also returning the weights of the kept references."""
    pos = sampled_positions(ids, salt, thresh)
    return ids[pos].astype(np.int64), w[pos].astype(np.float64)


@dataclass(frozen=True)
class SpatialSample:
    """A spatially hashed sample of a trace.

    Attributes
    ----------
    ids : int64 array
        Sampled references, blocks renumbered ``0..blocks-1`` in order of first reference.
    original : int64 array
        Original id of each renumbered block.
    weights : float array or None
        Weights of the sampled references [bytes] (when weights were given).
    rate : float
        Sampling rate ``R`` [-].
    requests : int
        References in the full trace [-].
    weight_total : float
        Sum of all weights of the full trace [bytes] (``requests`` without weights).
    """

    ids: np.ndarray
    original: np.ndarray
    weights: np.ndarray | None
    rate: float
    requests: int
    weight_total: float

    @property
    def blocks(self) -> int:
        """Distinct sampled blocks [-]."""
        return len(self.original)


def spatial_sample(ids: np.ndarray, rate: float, *, seed=0, weights: np.ndarray | None = None) -> SpatialSample:
    """Keep every reference to the blocks whose hash falls below ``rate * 2^53``.

    Parameters
    ----------
    ids : int64 array
        Validated block ids (:func:`models.sim.primitives.as_ids`).
    rate : float
        Sampling rate ``R`` in (0, 1] [-].
    seed : int or numpy.random.Generator, keyword-only
        Seeds the hash salt (which blocks are sampled); same seed, same sample.
    weights : float array, optional, keyword-only
        Validated per-reference weights [bytes], sampled alongside.

    Returns
    -------
    SpatialSample

    Examples
    --------
    >>> s = spatial_sample(np.array([7, 3, 7, 9]), 1.0)
    >>> s.ids.tolist(), s.original.tolist()
    ([0, 1, 0, 2], [7, 3, 9])
    >>> from models.sim.shards import block_hashes
    >>> ids = np.arange(1000)
    >>> sorted(spatial_sample(ids, 0.3, seed=4).original.tolist()) == np.flatnonzero(
    ...     block_hashes(1000, seed=4) < 0.3 * 2**53).tolist()
    True
    """
    r = check_rate(rate)
    salt = hash_salt(seed)
    th = rate_threshold(r)
    if weights is None:
        sub, wsub = sample_filter(ids, salt, th), None
        wtot = float(len(ids))
    else:
        sub, wsub = sample_filter_weighted(ids, weights, salt, th)
        wtot = float(weights.sum())
    if sub.size:
        uniq, first, inv = np.unique(sub, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")  # renumber in order of first reference
        rank = np.empty(len(uniq), np.int64)
        rank[order] = np.arange(len(uniq))
        comp = rank[inv.reshape(-1)]
        original = uniq[order]
    else:
        comp, original = np.zeros(0, np.int64), np.zeros(0, np.int64)
    return SpatialSample(np.ascontiguousarray(comp, dtype=np.int64), original, wsub, r, len(ids), wtot)
