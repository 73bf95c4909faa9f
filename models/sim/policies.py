"""Cache replacement simulators at one size: LRU, FIFO, CLOCK, age counter and admission-controlled LRU.

All simulators take compact block ids (``0..M-1``) and keep their state in arrays indexed
by id (no hash tables), so one request costs a handful of array accesses.

Write-back model: a write that finds its block cached (a hit, or a miss that inserts the
block) marks the block dirty; evicting a dirty block costs one writeback. A write that is
not cached (admission control refused the block, or a zero-size cache) goes straight to
storage and leaves nothing dirty. Blocks still dirty at the end are reported separately
(``dirty_at_end``), not counted as writebacks.

Policies
--------
``lru``
    Evict the least recently used block.
``fifo``
    Evict the block inserted earliest; hits do not change the order.
``clock``
    Second chance (CLOCK): blocks sit on a circular list; a hit sets the block's reference
    bit; on a miss with a full cache the hand clears set bits and advances until it finds a
    clear bit, evicts that block and puts the new one (bit clear) in its place.
``age`` (:func:`simulate_age`, not offered by :func:`simulate`)
    The age-based counter policy of seed 002 §5.4 on the CLOCK ring: the sweep adds 1 (at
    most ``age_max``) to the counter of a block whose bit is set, clearing it, subtracts 1
    otherwise, and evicts at ``<= 0``. ``age_max = 1`` is CLOCK.
``ac``
    Admission-controlled LRU, the "AC-cache" of Park & Bahn (seed 004, section 2): a missed
    block is inserted only if it is *used more than once*, i.e. on a miss it is admitted
    iff its previous non-admitted miss is still in a ghost window (the last ``ghost_blocks``
    ids recorded there; default ``cache_blocks``). Otherwise its id is recorded in the
    window and the request is served from storage. Eviction among admitted blocks is LRU.
    A first reference is never admitted.

FIFO, CLOCK and age run one ring kernel whose sweep takes a counter ceiling (0, 1,
``age_max``), as libCacheSim's Clock takes ``n-bit-counter``
(:func:`models.sim.primitives.ring_victim`); FIFO's and CLOCK's copies are compiled with the
ceiling as a constant (``_ring_kernel``). The counter semantics differ from libCacheSim's for
``age_max > 1`` (``docs/models/sim.md``).

References
----------
.. [1] Y. Park, H. Bahn, "Issues in File Caching and Virtual Memory Paging with Fast SCM
   Storage", ASTESJ 5(5), 2020, doi:10.25046/aj050581 (seed 004), section 2 (LRU-cache and
   AC-cache), section 3 (second-chance algorithm).
.. [2] F. J. Corbato, "A paging experiment with the Multics system", MIT Project MAC
   report MAC-M-384, 1968 (CLOCK).
.. [3] A. Awad, S. Blagodurov, Y. Solihin, "Write-Aware Management of NVM-based Memory
   Extensions", ICS 2016, doi:10.1145/2925426.2926284 (seed 002), section 5.4 (age-based policy).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from models._base import ModelResult
from models.provenance import param
from models.sim.primitives import (
    as_flags,
    as_ids,
    evict_block,
    lru_move_to_head,
    lru_pop_tail,
    lru_push_head,
    ring_advance,
    ring_victim,
)

__all__ = [
    "POLICIES",
    "SimResult",
    "simulate",
    "simulate_lru",
    "simulate_fifo",
    "simulate_clock",
    "simulate_age",
    "simulate_ac",
    "lru_run",
    "LruStream",
    "LRU_STATE_BYTES_PER_ID",
]

POLICIES = ("lru", "fifo", "clock", "ac")
#: Default saturation of the age-based counter (registry ``memext.age_max``, assumed).
_AGE_MAX = param("memext.age_max").value


#: Per-request record fields of :class:`SimResult` (arrays, or None without ``record=True``).
_RECORDS = ("hit", "inserted", "writeback")


@dataclass(frozen=True)
class SimResult(ModelResult):
    """Outcome of one simulation.

    Attributes
    ----------
    policy : str
    cache_blocks : int
        Capacity [blocks].
    requests, hits, misses : int
        Counts [requests]; ``hits + misses == requests``.
    inserts : int
        Misses that inserted the block into the cache [requests] (``== misses`` except for
        ``ac`` and a zero-size cache).
    writebacks : int
        Evictions of dirty blocks [blocks].
    dirty_at_end : int
        Blocks still dirty in the cache after the last request [blocks].
    hit, inserted, writeback : bool arrays or None
        Per request (only with ``record=True``): it hit; it inserted its block; it evicted a
        dirty block.
    """

    policy: str
    cache_blocks: int
    requests: int
    hits: int
    misses: int
    inserts: int
    writebacks: int
    dirty_at_end: int
    hit: np.ndarray | None = None
    inserted: np.ndarray | None = None
    writeback: np.ndarray | None = None

    FRAME_EXTRAS = ("hit_ratio",)

    @property
    def hit_ratio(self) -> float:
        """Hits / requests [-] (0 for an empty trace)."""
        return self.hits / self.requests if self.requests else 0.0

    @property
    def miss_ratio(self) -> float:
        """Misses / requests [-] (0 for an empty trace)."""
        return self.misses / self.requests if self.requests else 0.0

    def to_frame(self) -> pd.DataFrame:
        """One row: ``policy, cache_blocks, requests, hits, misses, inserts, writebacks,
        dirty_at_end, hit_ratio`` (the per-request arrays are left out).

        >>> simulate([0, 1, 0], 2).to_frame().columns.tolist()[-3:]
        ['writebacks', 'dirty_at_end', 'hit_ratio']
        """
        return super().to_frame().drop(columns=list(_RECORDS), errors="ignore")


# --------------------------------------------------------------------------- kernels
# Each kernel returns (hits, inserts, writebacks, dirty_at_end) and fills the record arrays
# when ``rec`` is True (they have length N then, length 0 otherwise). LRU and AC share one
# kernel, FIFO, CLOCK and the age-based counter policy another (one ring and its sweep,
# models.sim.primitives.ring_victim, also used by models.memory.memory_extension), compiled once per
# policy from one source (_ring_kernel). Design measurements: docs/models/sim.md.


#: Scalars of an LRU/AC run carried across calls of :func:`lru_run` (its ``st`` array), by index.
_LRU_HEAD, _LRU_TAIL, _LRU_SIZE, _LRU_HITS, _LRU_INSERTS, _LRU_WBS, _LRU_GCOUNT = range(7)
_LRU_SCALARS = 7


@njit(cache=True, nogil=True, inline="always")
def lru_run(ids, is_write, cap, ghost, rec, r_hit, r_ins, r_wb, prev, nxt, cached, dirty, gstamp, st):
    """LRU over ``ids``, resumable: the state is the per-id arrays ``prev``/``nxt`` (-1: none), ``cached``,
    ``dirty``, ``gstamp`` (AC ghost insertion number, -1: absent; empty for LRU) and the scalars ``st``
    (``head, tail, size, hits, inserts, writebacks, ghost count``; a new run: ``-1, -1, 0, ...``), all updated in
    place, so ids taken in several calls give what one call over all of them gives. With ``ghost >= 0`` the
    AC-cache admission filter (ghost window of ``ghost`` ids). ``cap`` > 0. Inlined into :func:`_lru` (state
    arrays allocated there: measured 5 M Zipf ids, 50k blocks, same process, 7 runs each, median CPU time:
    LRU 0.226 s vs 0.222 s before the kernel was made resumable; not inlined, 0.274 s)."""
    n = ids.shape[0]
    admit_all = ghost < 0
    head, tail, size = st[_LRU_HEAD], st[_LRU_TAIL], st[_LRU_SIZE]
    hits, inserts, wbs, gcount = st[_LRU_HITS], st[_LRU_INSERTS], st[_LRU_WBS], st[_LRU_GCOUNT]
    for i in range(n):
        x = ids[i]
        if cached[x]:
            hits += 1
            if rec:
                r_hit[i] = True
            if head != x:  # move to the head
                head, tail = lru_move_to_head(x, head, tail, prev, nxt)
        else:
            if not admit_all:
                g = gstamp[x]
                if g < 0 or gcount - g > ghost:  # not admitted: remember it, serve from storage
                    gstamp[x] = gcount
                    gcount += 1
                    continue
                gstamp[x] = -1  # second reference within the window: admit
            if size == cap:
                v, head, tail = lru_pop_tail(head, tail, prev, nxt)
                if evict_block(v, cached, dirty):
                    wbs += 1
                    if rec:
                        r_wb[i] = True
            else:
                size += 1
            cached[x] = True
            inserts += 1
            if rec:
                r_ins[i] = True
            head, tail = lru_push_head(x, head, tail, prev, nxt)
        if is_write[i]:
            dirty[x] = True
    st[_LRU_HEAD], st[_LRU_TAIL], st[_LRU_SIZE] = head, tail, size
    st[_LRU_HITS], st[_LRU_INSERTS], st[_LRU_WBS], st[_LRU_GCOUNT] = hits, inserts, wbs, gcount


@njit(cache=True, nogil=True, inline="always")
def _lru_state(n_ids, ghost):
    """A new run's state for :func:`lru_run` over ids ``0..n_ids-1``."""
    st = np.zeros(_LRU_SCALARS, np.int64)
    st[_LRU_HEAD] = -1  # most recently used
    st[_LRU_TAIL] = -1  # least recently used
    return (np.full(n_ids, -1, np.int64), np.full(n_ids, -1, np.int64), np.zeros(n_ids, np.bool_),
            np.zeros(n_ids, np.bool_), np.full(n_ids if ghost >= 0 else 0, -1, np.int64), st)


@njit(cache=True, nogil=True)
def _lru(ids, is_write, cap, ghost, n_ids, rec, r_hit, r_ins, r_wb):
    """LRU; with ``ghost >= 0`` the AC-cache admission filter (ghost window of ``ghost`` ids)."""
    if cap <= 0:
        return 0, 0, 0, 0
    prev, nxt, cached, dirty, gstamp, st = _lru_state(n_ids, ghost)
    lru_run(ids, is_write, cap, ghost, rec, r_hit, r_ins, r_wb, prev, nxt, cached, dirty, gstamp, st)
    return st[_LRU_HITS], st[_LRU_INSERTS], st[_LRU_WBS], np.int64(np.count_nonzero(dirty))


#: Memory of :class:`LruStream`'s state per id [bytes]: ``prev``, ``nxt`` (int32: ids below 2**31) and ``cached``,
#: ``dirty`` (bool).
LRU_STATE_BYTES_PER_ID = 10


class LruStream:
    """An LRU cache of ``cache_blocks`` blocks over ids ``0..n_ids-1`` taken in chunks (:meth:`add`): the counts
    of :func:`simulate_lru` over all the ids added, exactly (the one kernel, :func:`lru_run`, resumed). Its state,
    :data:`LRU_STATE_BYTES_PER_ID` bytes per id, is charged to the run's memory budget (:mod:`models.budget`)
    before it is allocated.

    >>> s = LruStream(3, 2)
    >>> s.add([0, 1, 0]); s.add([2, 1, 0])
    >>> s.result().hits == simulate_lru([0, 1, 0, 2, 1, 0], 2).hits
    True
    """

    def __init__(self, n_ids: int, cache_blocks: int, *, what: str = "the LRU simulation"):
        from models.budget import charge

        n_ids, cap = int(n_ids), int(cache_blocks)
        if n_ids < 0 or cap < 0:
            raise ValueError(f"n_ids and cache_blocks must be >= 0 (got {n_ids}, {cap})")
        charge(LRU_STATE_BYTES_PER_ID * float(n_ids), f"{what} ({n_ids:,} distinct blocks)")
        self.cap = min(cap, n_ids)
        self.cache_blocks = cap
        self.n_ids = n_ids
        self.requests = 0
        if n_ids >= 2**31:
            raise ValueError(f"{what}: more than {2**31 - 1:,} distinct blocks (the list links are int32)")
        st = np.zeros(_LRU_SCALARS, np.int64)
        st[_LRU_HEAD] = st[_LRU_TAIL] = -1
        # the list links in int32 (the one kernel, compiled for them): 10 bytes per id instead of 18
        self._state = (np.full(n_ids, -1, np.int32), np.full(n_ids, -1, np.int32), np.zeros(n_ids, np.bool_),
                       np.zeros(n_ids, np.bool_), np.full(0, -1, np.int64), st)
        self._no_rec = np.zeros(0, np.bool_)

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]."""
        return sum(a.nbytes for a in self._state)

    def add(self, ids, is_write=None) -> None:
        """Take the next ids (compact, below ``n_ids``; ``is_write``: their write flags, default reads)."""
        a = np.ascontiguousarray(ids, dtype=np.int64)
        if not len(a):
            return
        if int(a.min()) < 0 or int(a.max()) >= self.n_ids:
            raise ValueError(f"ids must be in 0..{self.n_ids - 1}")
        w = np.zeros(len(a), np.bool_) if is_write is None else np.ascontiguousarray(is_write, dtype=np.bool_)
        self.requests += len(a)
        if self.cap > 0:
            lru_run(a, w, self.cap, -1, False, self._no_rec, self._no_rec, self._no_rec, *self._state)

    def result(self) -> SimResult:
        """The :class:`SimResult` of every id added (``dirty_at_end`` counts the dirty blocks held)."""
        st, dirty = self._state[-1], self._state[3]
        hits = int(st[_LRU_HITS])
        return SimResult("lru", self.cache_blocks, self.requests, hits, self.requests - hits, int(st[_LRU_INSERTS]),
                         int(st[_LRU_WBS]), int(np.count_nonzero(dirty)))


def _ring_kernel(ceiling):
    """The ring kernel compiled for one counter ceiling: ``ceiling >= 0`` as a constant, ``-1`` read at run time.

    One source for FIFO, CLOCK and age. numba freezes a closure's variables as constants, so the
    kernel made with ``ceiling`` 0 (FIFO) or 1 (CLOCK) ignores its ``counter_max`` argument and
    carries no policy branch in its loop (LLVM folds them, and those of the inlined
    :func:`~models.sim.primitives.ring_victim`); the one made with ``-1`` takes the ceiling from
    ``counter_max`` (the age policy). numba caches each on disk under its own key (the key
    includes the closure's values). Measured: ``bench/bench_mrc.py`` (one-size FIFO / CLOCK
    against the former separate kernel, in the same run), ``docs/models/sim.md``.
    """

    @njit(cache=True, nogil=True)
    def _ring(ids, is_write, cap, counter_max, ref_on_insert, n_ids, rec, r_hit, r_ins, r_wb):
        """FIFO (``counter_max`` 0), CLOCK (1) or the age-based counter (> 1): a ring of ``cap`` slots, one hand.

        ``ref_on_insert``: a newly inserted block starts with its reference bit set (the
        virtual-memory reading: the faulting access is a use) instead of clear. Counters start at 0.
        """
        counter_max = ceiling if ceiling >= 0 else counter_max
        n = ids.shape[0]
        if cap <= 0:
            return 0, 0, 0, 0
        ring = np.empty(cap, np.int64)
        cached = np.zeros(n_ids, np.bool_)
        ref = np.zeros(n_ids if counter_max > 0 else 0, np.bool_)  # reference bits
        cnt = np.zeros(n_ids if counter_max > 1 else 0, np.int64)  # age counters
        dirty = np.zeros(n_ids, np.bool_)
        size = 0
        hand = np.int64(0)  # not the literal 0: ring_victim and ring_advance compiled once per ceiling, not twice
        hits = 0
        inserts = 0
        wbs = 0
        for i in range(n):
            x = ids[i]
            if cached[x]:
                hits += 1
                if counter_max > 0:
                    ref[x] = True
                if rec:
                    r_hit[i] = True
            else:
                if size == cap:
                    v, hand = ring_victim(ring, hand, cap, ref, cnt, counter_max)
                    if evict_block(v, cached, dirty):
                        wbs += 1
                        if rec:
                            r_wb[i] = True
                    ring[hand] = x
                    hand = ring_advance(hand, cap)
                else:
                    ring[size] = x
                    size += 1
                cached[x] = True
                if counter_max > 0:
                    ref[x] = ref_on_insert
                if counter_max > 1:
                    cnt[x] = 0
                inserts += 1
                if rec:
                    r_ins[i] = True
            if is_write[i]:
                dirty[x] = True
        return hits, inserts, wbs, np.int64(np.count_nonzero(dirty))

    return _ring


#: The ring kernel of each policy: FIFO (ceiling 0) and CLOCK (1) with the ceiling compiled in, age
#: (``age_max``, 1 included) with it read from ``counter_max``.
_RING = {"fifo": _ring_kernel(0), "clock": _ring_kernel(1), "age": _ring_kernel(-1)}


# --------------------------------------------------------------------------- wrappers


def _prepare(ids, cache_blocks, is_write, record):
    a = as_ids(ids)
    n = len(a)
    if isinstance(cache_blocks, bool) or not isinstance(cache_blocks, (int, np.integer)):
        if isinstance(cache_blocks, float) and cache_blocks.is_integer():
            cache_blocks = int(cache_blocks)
        else:
            raise ValueError(f"cache_blocks must be a whole number of blocks (got {cache_blocks!r})")
    cap = int(cache_blocks)
    if cap < 0:
        raise ValueError(f"cache_blocks must be >= 0 (got {cap})")
    w = as_flags(is_write, n)
    # a cache (ghost window, age bound) larger than the trace's distinct ids (references) behaves
    # exactly as one of that size: the kernels get the smaller value (no int64 overflow, no allocation)
    m = n if record else 0
    recs = (np.zeros(m, np.bool_), np.zeros(m, np.bool_), np.zeros(m, np.bool_))
    n_ids = int(a.max()) + 1 if n else 1
    return a, n, cap, w, n_ids, recs


def _result(policy, cap, n, out, record, recs) -> SimResult:
    hits, inserts, wbs, dirty_end = (int(v) for v in out)
    r = recs if record else (None, None, None)
    return SimResult(policy, cap, n, hits, n - hits, inserts, wbs, dirty_end, *r)


def simulate_lru(ids, cache_blocks: int, *, is_write=None, record: bool = False) -> SimResult:
    """Simulate an LRU cache of ``cache_blocks`` blocks.

    >>> r = simulate_lru([0, 1, 0, 2, 1, 0], 2, is_write=[1, 0, 0, 0, 0, 0])
    >>> r.hits, r.misses, r.writebacks
    (1, 5, 1)
    """
    a, n, cap, w, n_ids, recs = _prepare(ids, cache_blocks, is_write, record)
    return _result("lru", cap, n, _lru(a, w, min(cap, n_ids), -1, n_ids, record, *recs), record, recs)


def simulate_fifo(ids, cache_blocks: int, *, is_write=None, record: bool = False) -> SimResult:
    """Simulate a FIFO cache of ``cache_blocks`` blocks (the ring with no reference bit).

    >>> simulate_fifo([0, 1, 0, 2, 0], 2).hits
    1
    """
    a, n, cap, w, n_ids, recs = _prepare(ids, cache_blocks, is_write, record)
    return _result("fifo", cap, n, _RING["fifo"](a, w, min(cap, n_ids), 0, False, n_ids, record, *recs), record, recs)


def simulate_clock(ids, cache_blocks: int, *, is_write=None, record: bool = False,
                   referenced_on_insert: bool = False) -> SimResult:
    """Simulate a CLOCK (second-chance) cache of ``cache_blocks`` blocks.

    Parameters
    ----------
    referenced_on_insert : bool, keyword-only
        False (default, as in libCacheSim's Clock): an inserted block's reference bit
        starts clear, so it is evicted on the next sweep unless hit. True: the bit starts
        set, as in virtual-memory second chance where the faulting access is a use
        (Park & Bahn 2020 §3.2: "when a page is used, the reference bit becomes one").

    >>> simulate_clock([0, 1, 0, 2, 0], 2).hits   # 0 got its second chance, 1 was evicted
    2
    >>> simulate_clock([0, 1, 2, 0], 2).hits, simulate_clock([0, 1, 2, 0], 2, referenced_on_insert=True).hits
    (0, 0)
    """
    a, n, cap, w, n_ids, recs = _prepare(ids, cache_blocks, is_write, record)
    return _result("clock", cap, n, _RING["clock"](a, w, min(cap, n_ids), 1, bool(referenced_on_insert), n_ids, record, *recs),
                   record, recs)


def simulate_age(ids, cache_blocks: int, *, age_max: int = _AGE_MAX, is_write=None, record: bool = False) -> SimResult:
    """Simulate the age-based counter policy of seed 002 §5.4 on the CLOCK ring.

    The sweep adds 1 (at most ``age_max``) to the counter of a block whose reference bit
    is set, clearing the bit, and subtracts 1 otherwise; it evicts the first block whose
    counter is ``<= 0``. Inserted blocks start with a clear bit and counter 0. ``age_max=1``
    is CLOCK. The page-fault model of :mod:`models.memory.memory_extension` uses the same
    sweep (:func:`models.sim.primitives.ring_victim`).

    Parameters
    ----------
    age_max : int, keyword-only
        Counter saturation, ``>= 1`` [-].

    >>> ids = [0, 1, 0, 2, 0, 3, 1, 0, 2, 0]
    >>> simulate_age(ids, 2, age_max=1).hits == simulate_clock(ids, 2).hits
    True
    >>> simulate_age(ids, 2, age_max=3).hits   # 0 banks age and outlives 1 and 2
    4
    """
    if isinstance(age_max, bool) or not isinstance(age_max, (int, np.integer)) or age_max < 1:
        raise ValueError(f"age_max must be an integer >= 1 (got {age_max!r})")
    a, n, cap, w, n_ids, recs = _prepare(ids, cache_blocks, is_write, record)
    return _result("age", cap, n, _RING["age"](a, w, min(cap, n_ids), min(int(age_max), n + 1), False, n_ids, record, *recs), record, recs)


def simulate_ac(ids, cache_blocks: int, *, is_write=None, ghost_blocks: int | None = None,
                record: bool = False) -> SimResult:
    """Simulate the admission-controlled LRU cache (AC-cache, seed 004 section 2).

    Parameters
    ----------
    ghost_blocks : int, optional
        Ghost-window length [ids]; default ``cache_blocks``.

    >>> r = simulate_ac([0, 0, 0, 1, 2, 1], 2)
    >>> r.hits, r.inserts   # 0 is admitted on its 2nd reference, hits on its 3rd; 1 likewise
    (1, 2)
    """
    a, n, cap, w, n_ids, recs = _prepare(ids, cache_blocks, is_write, record)
    g = cap if ghost_blocks is None else ghost_blocks
    if isinstance(g, bool) or not isinstance(g, (int, np.integer)) or g < 0:
        raise ValueError(f"ghost_blocks must be an integer >= 0 (got {ghost_blocks!r})")
    return _result("ac", cap, n, _lru(a, w, min(cap, n_ids), min(int(g), n + 1), n_ids, record, *recs), record, recs)


def simulate(ids, cache_blocks: int, policy: str = "lru", *, is_write=None, ghost_blocks: int | None = None,
             record: bool = False) -> SimResult:
    """Simulate ``policy`` (``lru``, ``fifo``, ``clock`` or ``ac``) at one cache size.

    Parameters
    ----------
    ids : array_like of int
        Block ids, one per request, ``>= 0``.
    cache_blocks : int
        Capacity [blocks], ``>= 0``.
    policy : str
        Replacement policy.
    is_write : array_like of bool, optional, keyword-only
        Per request write flag, for the writeback count.
    ghost_blocks : int, optional, keyword-only
        Ghost-window length of ``ac`` [ids] (default ``cache_blocks``); ignored otherwise.
    record : bool, keyword-only
        Also return per-request ``hit``/``inserted``/``writeback`` flags.

    Returns
    -------
    SimResult

    Raises
    ------
    ValueError
        Unknown policy, bad ids, flags or sizes.

    Examples
    --------
    >>> [simulate([0, 1, 2, 0, 1, 3, 0], 3, p).hits for p in POLICIES]
    [3, 2, 3, 1]
    """
    p = str(policy).lower()
    if p == "lru":
        return simulate_lru(ids, cache_blocks, is_write=is_write, record=record)
    if p == "fifo":
        return simulate_fifo(ids, cache_blocks, is_write=is_write, record=record)
    if p == "clock":
        return simulate_clock(ids, cache_blocks, is_write=is_write, record=record)
    if p == "ac":
        return simulate_ac(ids, cache_blocks, is_write=is_write, ghost_blocks=ghost_blocks, record=record)
    raise ValueError(f"policy must be one of {', '.join(POLICIES)} (got {policy!r})")
