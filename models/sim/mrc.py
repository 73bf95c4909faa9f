"""One entry point for miss-ratio curves: any policy, exact or sampled, by requests or by bytes.

=========  ==========================================  =========================================
policy     ``method="exact"``                          sampled
=========  ==========================================  =========================================
lru        one stack-distance pass, every size         ``shards`` (fixed rate, or fixed size with
                                                       ``max_samples``) or ``minisim``
fifo,      one full simulation per size                ``minisim``
clock, ac
=========  ==========================================  =========================================

By bytes (variable object sizes, :mod:`models.sim.byte_mrc`): ``lru`` with ``exact`` or
``shards``; ``fifo`` and ``clock`` with ``exact`` or ``minisim``. Unsupported combinations raise a ValueError that names the supported ones.
"""

from __future__ import annotations

import numpy as np

from models.budget import charge
from models.sim.minisim import check_policy, minisim_mrc, simulate_sizes
from models.sim.primitives import as_ids, as_weights
from models.sim.shards import shards_mrc
from models.sim.stack_distance import HitRatioCurve, as_sizes, hit_ratio_curve

__all__ = ["METHODS", "policy_mrc", "check_method", "EXACT_BYTES_PER_ACCESS"]

METHODS = ("exact", "shards", "minisim")
#: Memory charged against the run's budget (:mod:`models.budget`) per access of an exact curve, the split into
#: blocks included [bytes]: measured peak RSS of ``pcm-planner mrc`` (exact LRU) on two 4 GiB requests (2.1 M
#: accesses of 4 KiB): 600 MB, 170 bytes per access above the 242 MB of an empty run; rounded up.
EXACT_BYTES_PER_ACCESS = 180


def check_method(policy: str, method: str, *, by: str = "requests") -> tuple[str, str]:
    """Validate a (policy, method) pair; return them lower-cased, or raise naming what is supported.

    >>> check_method("FIFO", "minisim")
    ('fifo', 'minisim')
    >>> check_method("fifo", "shards")
    Traceback (most recent call last):
    ...
    ValueError: method 'shards' (stack distances) gives LRU curves only; for policy 'fifo' use method exact or minisim
    """
    p = check_policy(policy)
    m = str(method).lower()
    if m not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)} (got {method!r})")
    if by not in ("requests", "bytes"):
        raise ValueError(f"by must be 'requests' or 'bytes' (got {by!r})")
    if by == "bytes":
        ok = {"lru": ("exact", "shards"), "fifo": ("exact", "minisim"), "clock": ("exact", "minisim")}
        if m not in ok.get(p, ()):
            raise ValueError(f"the byte miss-ratio curve (by bytes) is available for policy lru with method exact "
                             f"or shards, and fifo or clock with method exact or minisim (got policy {p!r}, "
                             f"method {m!r})")
    elif m == "shards" and p != "lru":
        raise ValueError(f"method 'shards' (stack distances) gives LRU curves only; for policy {p!r} use method "
                         f"exact or minisim")
    return p, m


def policy_mrc(ids, *, policy: str = "lru", method: str = "exact", rate: float = 0.01, sizes=None, weights=None,
               seed=0, max_samples: int | None = None, adjust: bool = True,
               min_blocks: int | None = None) -> HitRatioCurve:
    """Hit-ratio curve of ``policy`` by ``method`` (table in the module docstring).

    Parameters
    ----------
    ids : array_like of int
        Block ids, one per reference, ``>= 0``.
    policy : {"lru", "fifo", "clock", "ac"}, keyword-only
    method : {"exact", "shards", "minisim"}, keyword-only
    rate : float, keyword-only
        Sampling rate in (0, 1] [-] (``shards``, ``minisim``).
    sizes : array_like of int, optional, keyword-only
        Cache sizes [blocks]. Default: every size for exact/shards LRU; 50 log-spaced sizes
        otherwise (one simulation each).
    weights : array_like of float, optional, keyword-only
        Bytes per reference [bytes], for ``byte_hit_ratio``.
    seed : int or numpy.random.Generator, keyword-only
        Hash salt of the sampled methods.
    max_samples : int, optional, keyword-only
        Fixed-size SHARDS: at most this many sampled blocks (``shards`` only).
    adjust : bool, keyword-only
        SHARDS_adj correction (sampled methods).
    min_blocks : int, optional, keyword-only
        Smallest miniature cache [blocks] (``minisim`` only; :func:`models.sim.minisim.minisim_mrc`).

    Returns
    -------
    HitRatioCurve
        (``ShardsCurve`` / ``MiniSimCurve`` for the sampled methods.)

    Raises
    ------
    ValueError
        Unsupported policy/method pair (the message names the supported ones), bad input.

    >>> policy_mrc([0, 1, 0, 2, 0], policy="clock", sizes=[1, 2]).hits.tolist()
    [0, 2]
    """
    p, m = check_method(policy, method)
    if max_samples is not None and m != "shards":
        raise ValueError("max_samples (fixed-size sampling) applies to method shards only")
    if min_blocks is not None and m != "minisim":
        raise ValueError("min_blocks (smallest miniature cache) applies to method minisim only")
    if m == "exact":
        charge(float(np.size(ids)) * EXACT_BYTES_PER_ACCESS,
               f"the exact hit-ratio curve of {np.size(ids):,} accesses (method shards samples them)")
    if m == "shards":
        return shards_mrc(ids, rate=rate, max_samples=max_samples, sizes=sizes, weights=weights, seed=seed,
                          adjust=adjust)
    if m == "minisim":
        return minisim_mrc(ids, policy=p, rate=rate, sizes=sizes, weights=weights, seed=seed, adjust=adjust,
                           min_blocks=min_blocks)
    if p == "lru":
        return hit_ratio_curve(ids, sizes=sizes, weights=weights)
    a = as_ids(ids)
    n = len(a)
    if n == 0:
        raise ValueError("ids is empty: no requests to build a hit-ratio curve from")
    w = as_weights(weights, n)
    footprint = int(np.unique(a).size)
    if sizes is None:
        sizes = np.unique(np.rint(np.geomspace(1, footprint, 50)).astype(np.int64))
    s = as_sizes(sizes)
    hits, hbytes = simulate_sizes(a, s, p, w)
    hr = hits / n
    bhr = hbytes / float(w.sum()) if w is not None and w.sum() > 0 else hr.copy()
    return HitRatioCurve(s, hr, bhr, hits.astype(np.int64), n, footprint)
