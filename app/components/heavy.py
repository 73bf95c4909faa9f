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

Cheap runs are never starved by heavy ones (issue 42: four tabs parsing a flood of blank lines held every
run slot, and another user's 0.03 s closed-form rerun took 151 s): a run lends its run slot back while it
waits for or does heavy work (a cache miss or :func:`heavy_slot`), so page runs that need none keep going;
and bulk work (:func:`heavy_slot` with ``bulk=True``: parsing an upload, whose cost grows with the file)
may hold at most ``SLOTS - CHEAP_SLOTS`` heavy slots (``PCM_CHEAP_SLOTS``, default 1, at least one bulk
slot), so the last ``CHEAP_SLOTS`` stay for the other sessions' small misses.

Memory given back (glibc): :func:`install` also caps the number of malloc arenas at 2 (glibc makes
up to 8 per core, one per contending thread, and each keeps the memory its thread freed: with 40
sessions' script threads the free-but-held heap grew by hundreds of MB), and the last heavy slot
released hands the heap's free pages back to the system (``malloc_trim``; at most every
``TRIM_EVERY_S`` seconds), as does a page run's end every ``RUN_TRIM_EVERY_S`` seconds (the
figures and tables of 40 sessions' reruns; a trim of a few hundred MB heap takes ~10-80 ms, out
of the GIL). Both at run time, so every way of starting the server (``make run``,
the Docker image, ``bench/bench_load.py``) gets them; ``PCM_MALLOC_TUNE=0`` turns them off.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import threading
import time
from collections.abc import Iterator

__all__ = ["SLOTS", "RUN_SLOTS", "CHEAP_SLOTS", "BULK_SLOTS", "heavy_slot", "run_slot", "install", "stats", "tune_malloc", "trim_heap"]


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
#: Heavy slots bulk work (upload parsing) may never take: kept for cheap misses (``PCM_CHEAP_SLOTS``).
CHEAP_SLOTS = _slots("PCM_CHEAP_SLOTS", 1)
#: Bulk work allowed at once: the heavy slots but the cheap ones, at least 1 (0: no limit).
BULK_SLOTS = max(1, SLOTS - CHEAP_SLOTS) if SLOTS > 0 else 0
_BULK_SEM = threading.BoundedSemaphore(BULK_SLOTS) if BULK_SLOTS > 0 else None
_HELD = threading.local()
_STATS_LOCK = threading.Lock()
_STATS = {"runs": 0, "waited": 0, "wait_s": 0.0, "max_running": 0, "running": 0, "trims": 0}

#: ``PCM_MALLOC_TUNE=0``: leave glibc's malloc as it is (no arena cap, no trims).
MALLOC_TUNE = os.environ.get("PCM_MALLOC_TUNE", "1").strip() != "0"
#: malloc arenas allowed (glibc's M_ARENA_MAX); glibc's default is 8 per core.
MALLOC_ARENAS = 2
#: At most one ``malloc_trim`` per this many seconds [s] (a trim walks the heap under its lock).
TRIM_EVERY_S = 2.0
#: ... and after page runs (no cache miss), at most one per this many seconds [s].
RUN_TRIM_EVERY_S = 10.0
_M_ARENA_MAX = -8  # glibc <malloc.h>
_TRIM = {"last": 0.0}


def _libc():
    """glibc's C library, or None (musl, macOS, Windows: nothing to tune)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt, libc.malloc_trim  # noqa: B018 - glibc-only symbols
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _libc() if MALLOC_TUNE else None


def tune_malloc() -> bool:
    """Cap glibc's malloc arenas at :data:`MALLOC_ARENAS` (idempotent); False without glibc or when off."""
    if _LIBC is None:
        return False
    return bool(_LIBC.mallopt(_M_ARENA_MAX, MALLOC_ARENAS))


def trim_heap(*, force: bool = False, every_s: float | None = None) -> bool:
    """Give the heap's free pages back to the system (``malloc_trim(0)``), unless one ran in the last
    ``every_s`` seconds (default :data:`TRIM_EVERY_S`) and not ``force``; True if a trim ran."""
    if _LIBC is None:
        return False
    now = time.monotonic()
    with _STATS_LOCK:
        if not force and now - _TRIM["last"] < (TRIM_EVERY_S if every_s is None else every_s):
            return False
        _TRIM["last"] = now
        _STATS["trims"] += 1
    _LIBC.malloc_trim(0)
    return True


def stats() -> dict:
    """Counters since the start: runs, runs that waited, total wait [s], most running at once."""
    with _STATS_LOCK:
        return dict(_STATS)


@contextlib.contextmanager
def _run_slot_lent() -> Iterator[None]:
    """Give this thread's run slot back for the block (if it holds one), take it again after."""
    if _RUN_SEM is None or not getattr(_RUN_HELD, "held", False):
        yield
        return
    _RUN_HELD.held = False
    _RUN_SEM.release()
    try:
        yield
    finally:
        _RUN_SEM.acquire()
        _RUN_HELD.held = True


@contextlib.contextmanager
def heavy_slot(*, bulk: bool = False) -> Iterator[None]:
    """Hold one of the process's heavy-work slots (re-entrant per thread; no-op when unlimited).

    The thread's run slot is lent back meanwhile; ``bulk`` (work whose cost grows with an upload) also
    takes one of the :data:`BULK_SLOTS` first, so :data:`CHEAP_SLOTS` heavy slots stay free of it.
    """
    if _SEM is None or getattr(_HELD, "depth", 0):
        _HELD.depth = getattr(_HELD, "depth", 0) + 1
        try:
            yield
        finally:
            _HELD.depth -= 1
        return
    with _run_slot_lent(), (_bulk() if bulk else contextlib.nullcontext()):
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
                idle = _STATS["running"] == 0
            _SEM.release()
            if idle:  # the last miss running: its temporaries are freed, hand the pages back
                trim_heap()


@contextlib.contextmanager
def _bulk() -> Iterator[None]:
    if _BULK_SEM is None:
        yield
        return
    _BULK_SEM.acquire()
    try:
        yield
    finally:
        _BULK_SEM.release()


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
        trim_heap(every_s=RUN_TRIM_EVERY_S)


def install() -> bool:
    """Route every Streamlit cache miss of the process through :func:`heavy_slot` (idempotent).

    Returns False when the limit is off or this Streamlit has no ``CachedFunc._handle_cache_miss``
    (then nothing changes: the app runs unlimited, as before). Also caps malloc's arenas
    (:func:`tune_malloc`).
    """
    tune_malloc()
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
