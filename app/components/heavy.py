"""A process-wide limit on concurrent heavy work: cache misses queue instead of all allocating at once.

Every model run of a page sits behind ``st.cache_data`` (or ``st.cache_resource``); a cache *miss*
is where the work and the memory go. When 40 sessions rerun at once, 40 misses in parallel do not
finish sooner (the server's Python is GIL-bound), they only hold 40 sets of intermediate arrays
at the same time (issue 20: 2.65 GB). :func:`install` makes every cache miss of the process take
one of ``PCM_HEAVY_SLOTS`` slots (default: the CPU count, at least 2) for its computation; cache
hits (most reruns) never wait. A miss inside a miss (nested cached functions) runs in its caller's
slot, so nesting cannot deadlock on slots. ``PCM_HEAVY_SLOTS=0`` turns the limit off.

``app/main.py`` installs it for the server; :func:`heavy_slot` also guards work outside a cache.

Whole script runs are limited too (:func:`run_slot`, ``PCM_RUN_SLOTS``, default 4): a rerun whose
models are all cached still builds tables, figures and messages (tens of MB with 40 sessions at
once) and 40 threads fight for one GIL; queued runs hold nothing. Runs take their run slot before
any heavy slot, so the two never wait on each other in a cycle.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator

__all__ = ["SLOTS", "RUN_SLOTS", "heavy_slot", "run_slot", "install", "stats"]


def _slots(var: str, default: int) -> int:
    raw = os.environ.get(var, "")
    try:
        return max(0, int(raw)) if raw.strip() else default
    except ValueError:
        return default


#: Concurrent heavy computations allowed in this process (0: no limit).
SLOTS = _slots("PCM_HEAVY_SLOTS", max(2, os.cpu_count() or 2))
#: Concurrent script runs (page reruns) allowed in this process (0: no limit).
RUN_SLOTS = _slots("PCM_RUN_SLOTS", 4)
_RUN_SEM = threading.BoundedSemaphore(RUN_SLOTS) if RUN_SLOTS > 0 else None
_RUN_HELD = threading.local()
_SEM = threading.BoundedSemaphore(SLOTS) if SLOTS > 0 else None
_HELD = threading.local()
_STATS_LOCK = threading.Lock()
_STATS = {"runs": 0, "waited": 0, "wait_s": 0.0, "max_running": 0, "running": 0}


def stats() -> dict:
    """Counters since the start: runs, runs that waited, total wait [s], most running at once."""
    with _STATS_LOCK:
        return dict(_STATS)


@contextlib.contextmanager
def heavy_slot() -> Iterator[None]:
    """Hold one of the process's heavy-work slots (re-entrant per thread; no-op when unlimited)."""
    if _SEM is None or getattr(_HELD, "depth", 0):
        _HELD.depth = getattr(_HELD, "depth", 0) + 1
        try:
            yield
        finally:
            _HELD.depth -= 1
        return
    t0 = time.perf_counter()
    waited = not _SEM.acquire(blocking=False)
    if waited:
        _SEM.acquire()
    with _STATS_LOCK:
        _STATS["runs"] += 1
        _STATS["waited"] += waited
        _STATS["wait_s"] += time.perf_counter() - t0
        _STATS["running"] += 1
        _STATS["max_running"] = max(_STATS["max_running"], _STATS["running"])
    _HELD.depth = 1
    try:
        yield
    finally:
        _HELD.depth = 0
        with _STATS_LOCK:
            _STATS["running"] -= 1
        _SEM.release()


@contextlib.contextmanager
def run_slot() -> Iterator[None]:
    """Hold one of the process's script-run slots for a page run (re-entrant; no-op when unlimited)."""
    if _RUN_SEM is None or getattr(_RUN_HELD, "held", False):
        yield
        return
    _RUN_SEM.acquire()
    _RUN_HELD.held = True
    try:
        yield
    finally:
        _RUN_HELD.held = False
        _RUN_SEM.release()


def install() -> bool:
    """Route every Streamlit cache miss of the process through :func:`heavy_slot` (idempotent).

    Returns False when the limit is off or this Streamlit has no ``CachedFunc._handle_cache_miss``
    (then nothing changes: the app runs unlimited, as before).
    """
    if _SEM is None:
        return False
    try:
        from streamlit.runtime.caching import cache_utils

        orig = cache_utils.CachedFunc._handle_cache_miss
    except (ImportError, AttributeError):
        return False
    if getattr(orig, "_pcm_heavy_slot", False):
        return True

    def _handle_cache_miss(self, *args, **kwargs):
        with heavy_slot():
            return orig(self, *args, **kwargs)

    _handle_cache_miss._pcm_heavy_slot = True  # type: ignore[attr-defined]
    cache_utils.CachedFunc._handle_cache_miss = _handle_cache_miss
    return True
