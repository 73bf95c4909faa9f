"""The write cache's simulations (HALO / LRU before the HDD model), kept across reruns and drives.

A write-cache run is the cache simulation (:func:`models.storage.write_cache.simulate_cache`, the costly
part) then the HDD model timing its request stream. The simulation reads the trace, the policy, the cache
size and the cache's own settings, never the drive nor the HDD timing: a change of those re-times the kept
simulations (``run_write_cache(cache_run=...)``, the same results as a fresh run) instead of running them again.

Kept process-wide, bounded in bytes (:class:`app.components.bytecache.ByteBudgetCache`: pickled, every hit a
fresh copy, least recently used dropped first), keyed by the trace's content hash and the values the policy
reads: HALO not by the LRU's granularity, the LRU not by TH_BCOUNTS (issue 18). HALO's PCM metadata
(``CacheRun.pcm``, for crash recovery) is not kept: the HDD model does not read it. No cache (``"none"``) is not
a simulation (its stream is the trace's requests): never kept.
"""

from __future__ import annotations

import dataclasses

from app.components.bytecache import ByteBudgetCache
from models.storage import write_cache as wc

__all__ = ["RUNS", "cache_run", "run_key"]

#: Kept simulations, shared by all sessions of this server, bounded in bytes (pickled HDD request streams: 17
#: bytes per HDD request, ~1-4 MB per run of a 100 k-request trace), expiring after an hour.
RUNS = ByteBudgetCache(budget_bytes=256 << 20, ttl_s=3600)


def run_key(token: tuple, policy: str, cache_mb: float, params: wc.HaloParams, lru_granularity: str) -> tuple:
    """The values ``policy``'s simulation at ``cache_mb`` [MB] reads, with the trace's content hash ``token``.

    >>> p = wc.HaloParams()
    >>> run_key(("t",), "lru", 2, p, "block") == run_key(("t",), "lru", 2.0, p.model_copy(update={"th_bcounts": 9}), "block")
    True
    >>> run_key(("t",), "halo", 2, p, "sector") == run_key(("t",), "halo", 2, p, "block")
    True
    """
    if policy == "halo":
        reads = tuple(sorted(params.model_dump().items()))
    elif policy == "lru":
        reads = (params.threshold, lru_granularity)
    else:
        raise ValueError(f"policy must be 'halo' or 'lru' (a kept simulation), got {policy!r}")
    return (token, policy, float(cache_mb), reads)


def cache_run(token: tuple, req: wc.Requests, policy: str, cache_mb: float, *, params: wc.HaloParams,
              lru_granularity: str) -> wc.CacheRun:
    """:func:`wc.simulate_cache` of ``policy`` at ``cache_mb`` [MB] on ``req`` (``token``: the content hash of the
    trace it was prepared from), simulated once and kept (:data:`RUNS`); ``"none"`` simulated every time."""
    if policy == "none":
        return wc.simulate_cache(req, policy, cache_mb)

    def simulate() -> wc.CacheRun:
        run = wc.simulate_cache(req, policy, cache_mb, params=params, lru_granularity=lru_granularity)
        return dataclasses.replace(run, pcm=None)

    return RUNS.get_or_compute(run_key(token, policy, cache_mb, params, lru_granularity), simulate)
