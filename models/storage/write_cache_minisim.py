"""MiniSim for the write caches (HALO and the LRU write cache of seed 003).

The write caches (:mod:`models.storage.write_cache`) take multi-block requests cut into
4 KiB items, and HALO groups blocks by 1 MiB region (its hash buckets, destaged whole). A
spatial sample must keep those groups intact, so here the sampled unit is the *region*: every
item of a region whose hash falls below ``R * 2^53`` is kept (the SHARDS rule of
:mod:`models.sim.sampling` applied to the region number), requests left with no item are
dropped, and a cache of ``C`` blocks is simulated as a miniature cache of ``C R`` blocks on
the sample (Waldspurger et al., ATC'17). The LRU write cache does not group blocks: it is
sampled by 4 KiB block by default (finer, less variance), HALO by region. As in :mod:`models.sim.minisim`, ``C R`` is
generally not whole: the miniature caches of ``floor`` and ``ceil`` blocks are simulated and
the results interpolated linearly (HALO needs at least 2 blocks: smaller miniature caches
are run at 2 blocks and the row says so in ``scaled_blocks``).

Estimates, with ``adjust=True`` (default; SHARDS_adj carried over, our choice): the sample
should hold ``R`` of the trace's requested sectors and items; the difference (a few hot
blocks falling in or out of the sample) is counted as absorbed by the cache (hits, no HDD
traffic), as SHARDS_adj counts it as hits:

- ``traffic_rate`` = sampled HDD sectors / (``R`` x requested sectors) [-];
- ``hit_ratio`` = (sampled item hits + ``R`` x items - sampled items) / (``R`` x items) [-].

``adjust=False``: the plain ratios of the sample (HDD sectors / sampled requested sectors,
hits / sampled items).

At ``R = 1`` the sample is the trace and the result equals the full simulation (tested).

References
----------
.. [1] C. A. Waldspurger, T. Saemundsson, I. Ahmad, N. Park, "Cache Modeling and
   Optimization using Miniature Simulations", USENIX ATC 2017.
.. [2] C. A. Waldspurger, N. Park, A. Garthwaite, I. Ahmad, "Efficient MRC Construction
   with SHARDS", USENIX FAST 2015 (spatial hashing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from models._base import ModelResult
from models.sim.sampling import block_hash53, check_rate, hash_salt, rate_threshold
from models.storage import write_cache as wc

__all__ = ["WriteCacheCurve", "sample_requests", "minisim_write_cache"]


def sample_requests(req: wc.Requests, rate: float, *, seed=0, unit: str = "region") -> wc.Requests:
    """The items of the 1 MiB regions (or 4 KiB blocks) whose hash is below ``rate * 2^53``, as a new ``Requests``.

    Parameters
    ----------
    req : models.storage.write_cache.Requests
        The trace cut into items (:func:`models.storage.write_cache.prepare_requests`).
    rate : float
        Sampling rate in (0, 1] [-] (a share of the regions).
    seed : int or numpy.random.Generator, keyword-only
        Hash salt.
    unit : {"region", "block"}, keyword-only
        Sampled unit: whole 1 MiB regions (HALO's buckets stay whole) or single 4 KiB blocks
        (finer, for the LRU write cache, which does not group blocks).

    Returns
    -------
    Requests
        Requests with at least one sampled item, items renumbered (block and region order
        kept); ``lbn``/``nsect`` describe the first sampled sector and the sampled sectors
        of each request [sectors].
    """
    r = check_rate(rate)
    if unit not in ("region", "block"):
        raise ValueError(f"unit must be 'region' or 'block' (got {unit!r})")
    salt = hash_salt(seed)
    if unit == "region":
        blocks_per_region = wc.REGION_SECTORS // wc.BLOCK_SECTORS
        region_num = np.zeros(req.n_regions, np.int64)
        region_num[req.block_region] = req.block_key // blocks_per_region
        keep_region = block_hash53(region_num, salt) < rate_threshold(r)
        keep_block = keep_region[req.block_region]
    else:
        keep_block = block_hash53(req.block_key, salt) < rate_threshold(r)
        keep_region = np.zeros(req.n_regions, np.bool_)
        keep_region[req.block_region[keep_block]] = True
    keep_item = keep_block[req.item]
    n_req = len(req.is_write)
    per_req = np.diff(req.item_ptr)
    owner = np.repeat(np.arange(n_req), per_req)
    kept_per_req = np.bincount(owner[keep_item], minlength=n_req)
    keep_req = kept_per_req > 0
    new_block = np.cumsum(keep_block) - 1
    new_region = np.cumsum(keep_region) - 1
    item = new_block[req.item[keep_item]].astype(np.int64)
    bits = req.item_bits[keep_item]
    block_key = req.block_key[keep_block]
    block_region = new_region[req.block_region[keep_block]].astype(np.int64)
    ptr = np.concatenate(([0], np.cumsum(kept_per_req[keep_req])))
    nsect_item = np.unpackbits(bits[:, None], axis=1).sum(axis=1).astype(np.int64)
    if len(item):
        first = ptr[:-1]
        low = np.array([(int(b) & -int(b)).bit_length() - 1 for b in bits[first]], np.int64) if len(first) else first
        lbn = block_key[item[first]] * wc.BLOCK_SECTORS + low
        nsect = np.add.reduceat(nsect_item, first)
    else:
        lbn = nsect = np.zeros(0, np.int64)
    return wc.Requests(lbn=lbn, nsect=nsect, is_write=req.is_write[keep_req], item_ptr=ptr, item=item,
                       item_bits=bits, block_key=block_key, block_region=block_region,
                       n_regions=int(keep_region.sum()), requested_sectors=int(nsect_item.sum()),
                       name=f"{req.name} (regions sampled at {r:g})", meta=dict(req.meta))


@dataclass(frozen=True)
class WriteCacheCurve(ModelResult):
    """Write-cache outcome against capacity, exact or by MiniSim.

    Attributes
    ----------
    capacity_blocks : int64 array
        Full-scale cache capacity [4 KiB blocks].
    scaled_blocks : float array
        Miniature cache simulated ``C R`` (at least 2 for HALO) [blocks].
    traffic_rate : float array
        HDD sectors after the cache / requested sectors [-].
    hit_ratio : float array
        Item hits / items [-].
    policy : str
        ``halo`` or ``lru``.
    method : str
        ``exact`` or ``minisim``.
    rate : float
        Region sampling rate [-] (1 for exact).
    sampled_requests : int
        Requests in the sample [-].
    """

    capacity_blocks: np.ndarray
    scaled_blocks: np.ndarray
    traffic_rate: np.ndarray
    hit_ratio: np.ndarray
    policy: str
    method: str
    rate: float
    sampled_requests: int

    def to_frame(self) -> pd.DataFrame:
        """Columns ``capacity_blocks, scaled_blocks, traffic_rate, hit_ratio, policy, method, rate``."""
        return pd.DataFrame({"capacity_blocks": self.capacity_blocks, "scaled_blocks": self.scaled_blocks,
                             "traffic_rate": self.traffic_rate, "hit_ratio": self.hit_ratio,
                             "policy": self.policy, "method": self.method, "rate": self.rate})


def _run(req: wc.Requests, policy: str, cap: int, params, lru_granularity: str,
         expected: tuple[float, float] | None) -> tuple[float, float]:
    """(traffic rate, hit ratio) of one simulation; ``expected`` = (sectors, items) the sample
    should hold (``rate`` x the full trace's) for the SHARDS_adj-style estimate, or None."""
    if policy == "halo":
        run = wc.simulate_halo(req, cap, params)
    else:
        thr = (params or wc.HaloParams()).threshold
        run = wc.simulate_lru_write_cache(req, cap, lru_granularity=lru_granularity, threshold=thr)
    items = run.hits + run.misses
    if expected is not None:
        # the sectors / items the sample lacks (or has too many) belong to a few hot blocks: counted as
        # absorbed by the cache (hits, no HDD traffic), as SHARDS_adj counts them as hits
        sect, its = expected
        tr = run.hdd_sectors / sect if sect > 0 else 0.0
        return tr, (float(np.clip((run.hits + its - items) / its, 0.0, 1.0)) if its > 0 else 0.0)
    tr = run.hdd_sectors / req.requested_sectors if req.requested_sectors else 0.0
    return tr, (run.hits / items if items else 0.0)


def minisim_write_cache(req: wc.Requests, capacities_blocks, *, policy: Literal["halo", "lru"] = "halo",
                        method: Literal["exact", "minisim"] = "minisim", rate: float = 0.1, seed=0,
                        params: wc.HaloParams | None = None,
                        lru_granularity: Literal["block", "sector"] = "sector",
                        unit: Literal["region", "block"] | None = None, adjust: bool = True) -> WriteCacheCurve:
    """Traffic rate and hit ratio of a write cache at many capacities, exact or by MiniSim.

    Parameters
    ----------
    req : models.storage.write_cache.Requests
        The trace cut into items (:func:`models.storage.write_cache.prepare_requests`).
    capacities_blocks : array_like of int
        Full-scale capacities [4 KiB blocks], each ``>= 2``.
    policy : {"halo", "lru"}, keyword-only
        HALO (Algorithm 1) or the LRU write cache (with HALO's destage threshold, as
        :func:`models.storage.write_cache.run_write_cache`).
    method : {"exact", "minisim"}, keyword-only
        One full simulation per capacity, or miniature caches on the region sample.
    rate : float, keyword-only
        Region sampling rate in (0, 1] [-] (``minisim``).
    seed : int or numpy.random.Generator, keyword-only
        Hash salt of the sample.
    params : HaloParams, optional, keyword-only
        HALO parameters (their capacity-relative thresholds scale with the miniature cache).
    lru_granularity : {"block", "sector"}, keyword-only
        LRU write-cache granularity.
    unit : {"region", "block"}, optional, keyword-only
        Sampled unit (:func:`sample_requests`); default ``region`` for HALO (its buckets are
        regions), ``block`` for LRU.
    adjust : bool, keyword-only
        SHARDS_adj-style correction (module docstring); False = plain sample ratios.

    Returns
    -------
    WriteCacheCurve

    Raises
    ------
    ValueError
        Unknown policy or method, a capacity below 2 blocks, a bad rate.

    Examples
    --------
    >>> from models.traces.synthetic import preset
    >>> req = wc.prepare_requests(preset("fin1", 3000, seed=1))
    >>> ex = minisim_write_cache(req, [64, 256], method="exact")
    >>> ms = minisim_write_cache(req, [64, 256], rate=1.0)
    >>> bool(np.allclose(ex.traffic_rate, ms.traffic_rate))
    True
    """
    if policy not in ("halo", "lru"):
        raise ValueError(f"policy must be 'halo' or 'lru' (got {policy!r})")
    if method not in ("exact", "minisim"):
        raise ValueError(f"method must be 'exact' or 'minisim' (got {method!r})")
    caps = np.atleast_1d(np.asarray(capacities_blocks))
    if caps.ndim != 1 or caps.size == 0 or caps.dtype.kind not in "iu":
        raise ValueError("capacities_blocks must be a non-empty list of whole numbers of 4 KiB blocks")
    caps = caps.astype(np.int64)
    if caps.min() < 2:
        raise ValueError(f"capacities_blocks must be >= 2 blocks (got {int(caps.min())})")
    r = 1.0 if method == "exact" else check_rate(rate)
    u = unit or ("region" if policy == "halo" else "block")
    sample = req if r == 1.0 else sample_requests(req, r, seed=seed, unit=u)
    scaled = np.maximum(caps * r, 2.0) if policy == "halo" else np.maximum(caps * r, 1.0)
    lo = np.floor(scaled).astype(np.int64)
    hi = np.ceil(scaled).astype(np.int64)
    expected = (req.requested_sectors * r, len(req.item) * r) if adjust and r < 1.0 else None
    cache: dict[int, tuple[float, float]] = {}
    for c in np.unique(np.concatenate((lo, hi))):
        cache[int(c)] = (_run(sample, policy, int(c), params, lru_granularity, expected) if len(sample.item)
                         else (0.0, 0.0))
    f = scaled - lo
    tr_lo = np.array([cache[int(c)][0] for c in lo])
    tr_hi = np.array([cache[int(c)][0] for c in hi])
    hr_lo = np.array([cache[int(c)][1] for c in lo])
    hr_hi = np.array([cache[int(c)][1] for c in hi])
    return WriteCacheCurve(caps, scaled, tr_lo * (1 - f) + tr_hi * f, hr_lo * (1 - f) + hr_hi * f, policy,
                           method, r, len(sample.is_write))
