"""The paging profile of a memory trace taken chunk by chunk: exact, in memory of the distinct pages (issue 41).

:class:`PagingStream` computes what :func:`models.memory.paging.paging_profile` computes for one page size and
one memory size -- the LRU hit count at every TLB / memory size (exact stack distances) and the CLOCK faults
(second chance, the faulting access sets the page's reference bit) -- over a trace handed in chunks, in two passes:

1. :meth:`PagingStream.first`: the distinct pages of the data references (lackey ``L``, ``S``, ``M``; page
   of the first byte), numbered in order of first access in an open-addressing hash table (linear probing,
   Fibonacci hashing, page and id side by side in one slot) that doubles at half full, charged to the run's memory
   budget first (:mod:`models.budget`). The footprint sets the memory size (``memory_fraction`` x footprint, as the
   profile).
2. :meth:`PagingStream.second`: the data references a batch at a time: their page ids from the table first (the
   slots of later lookups prefetched, so the cache misses overlap), then each one's stack distance and CLOCK (the
   state of later pages prefetched). The distance: a bit set over positions marks each page's latest access (a
   page's previous mark removed, its new one added: the distance is the marks after the previous one), counted as
   :mod:`models.sim.stack_distance` counts them (a popcount in the partial words, a Fenwick tree over the complete
   64-bit words: ``4 x footprint / 64`` words, small enough for the CPU caches); when the ``4 x footprint``
   positions are used up, the live marks are renumbered in order (a mark's new position is the marks before it: one
   pass over the pages), so the memory follows the pages, not the trace's length. A page's latest position and its
   CLOCK frame sit side by side (one cache line per reference); the CLOCK ring of the memory's frames keeps the
   reference bits by frame (the hand sweeps them in order) and its hand is carried across chunks.

The ids differ from :func:`~models.memory.paging.compact_page_ids`' (first access, not address order): stack
distances and CLOCK do not depend on how pages are named, so the profile is the same, exactly.

>>> import numpy as np
>>> from models.memory.paging import PagingInputs, paging_profile
>>> from models.traces.synthetic import mem_trace
>>> t = mem_trace(20_000, data_bytes=1 << 20, seed=1)
>>> s = PagingStream(memory_fraction=0.5)
>>> for i in range(0, len(t), 3000):
...     s.first({k: getattr(t, k)[i:i + 3000] for k in ("address", "size", "kind")})
>>> s.end_first()
>>> for i in range(0, len(t), 7000):
...     s.second({k: getattr(t, k)[i:i + 7000] for k in ("address", "size", "kind")})
>>> got, want = s.profile(), paging_profile(t, PagingInputs(page_sizes_bytes=(4096,), memory_fraction=(0.5,)))
>>> bool((got.pages[4096].lru_hits == want.pages[4096].lru_hits).all()), got.pages[4096].clock_faults == \
want.pages[4096].clock_faults
(True, True)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from models.budget import BudgetExceeded, charge
from models.memory.paging import (
    REFERENCE_PAGE_BYTES,
    PageSizeProfile,
    PagingProfile,
    _check_memory_sizes,
)
from models.sim.primitives import popcount64, prefetch

__all__ = ["PagingStream", "BYTES_PER_SLOT", "BYTES_PER_PAGE"]

#: Memory of the page table per slot [bytes]: page number (uint64) and id + 1 (uint64, 0: empty) side by side, so a
#: lookup touches one cache line; at most half the slots full.
BYTES_PER_SLOT = 16
#: Memory of the second pass per distinct page [bytes]: latest-access position and CLOCK frame side by side (int32
#: pair), the position bit set (:data:`_POSITIONS_PER_PAGE` bits) with its Fenwick tree over 64-bit words (int32 per
#: word; together under a byte), the stack-distance histogram (int64), and the CLOCK frame ring (int32 page and a
#: reference bit, at most one frame per page).
BYTES_PER_PAGE = 2 * 4 + 1 + 8 + 4 + 1

_FIB = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing multiplier (2**64 / golden ratio, odd)
_ONE = np.uint64(1)
#: Data references whose table slot (first pass, and lookups of the second) or page state (second pass) is
#: prefetched ahead of the one handled, so the cache misses of tables larger than the caches overlap [references].
_LOOKAHEAD = 16
#: Positions of the bit set per distinct page: at most one in this many is live (a page's latest access), so the
#: positions are renumbered once every ``this - 1`` x footprint references at most (a pass over the pages) [-].
_POSITIONS_PER_PAGE = 4
#: Data references of the second pass looked up at a time before their stack distances and CLOCK (the page ids
#: of a batch are known ahead, so their page state can be prefetched) [references].
_BATCH = 1024


def _position_dtype(positions: int) -> type:
    """The integer type of the positions, frames and page ids of the second pass's arrays: int32 below 2**31
    positions (half the cache footprint), else int64."""
    return np.int32 if positions < 2**31 else np.int64


@njit(cache=True, nogil=True)
def _add_pages(addr, kind, i0, table, shift, m, limit):  # pragma: no cover - compiled
    """Number the pages of the data references ``i0..`` not in the table ``m, m+1, ...`` (``table``: interleaved
    ``page, id + 1`` pairs, 0: empty); stop before a new page would make ``limit``. Returns ``(i, m, data)``: where
    it stopped (``len(addr)``: done), the pages held and the data references taken."""
    mask = len(table) // 2 - 1
    n = len(addr)
    data = 0
    for i in range(i0, n):
        a = i + _LOOKAHEAD
        if a < n and kind[a] != 0:
            prefetch(table, 2 * np.int64(((addr[a] >> np.uint64(12)) * _FIB) >> np.uint64(shift)))
        if kind[i] == 0:
            continue
        x = addr[i] >> np.uint64(12)  # the 4 KiB page (REFERENCE_PAGE_BYTES)
        h = np.int64((x * _FIB) >> np.uint64(shift))
        while True:
            v = table[2 * h + 1]
            if v == 0:
                if m >= limit:
                    return i, m, data
                table[2 * h] = x
                table[2 * h + 1] = np.uint64(m + 1)
                m += 1
                break
            if table[2 * h] == x:
                break
            h = (h + 1) & mask
        data += 1
    return n, m, data


@njit(cache=True, nogil=True)
def _rehash(table, new, shift):  # pragma: no cover - compiled
    mask = len(new) // 2 - 1
    for s in range(len(table) // 2):
        if table[2 * s + 1] != 0:
            h = np.int64((table[2 * s] * _FIB) >> np.uint64(shift))
            while new[2 * h + 1] != 0:
                h = (h + 1) & mask
            new[2 * h] = table[2 * s]
            new[2 * h + 1] = table[2 * s + 1]


@njit(cache=True, nogil=True)
def _lookup(addr, kind, i, table, shift, keys, where, ids):  # pragma: no cover - compiled
    """The page ids of the next data references from ``i`` on, at most ``len(ids)``: into ``ids`` (and their indices
    into ``where``). Returns ``(i, k, bad)``: where the batch stopped, its references, and -1 or the index of a
    reference whose page is not in the table (the batch then ends before it)."""
    n = len(addr)
    k = 0
    while i < n and k < len(keys):
        if kind[i] != 0:
            keys[k] = addr[i] >> np.uint64(12)
            where[k] = i
            k += 1
        i += 1
    mask = len(table) // 2 - 1
    for j in range(min(_LOOKAHEAD, k)):
        prefetch(table, 2 * np.int64((keys[j] * _FIB) >> np.uint64(shift)))
    for j in range(k):
        if j + _LOOKAHEAD < k:
            prefetch(table, 2 * np.int64((keys[j + _LOOKAHEAD] * _FIB) >> np.uint64(shift)))
        x = keys[j]
        h = np.int64((x * _FIB) >> np.uint64(shift))
        while True:
            v = table[2 * h + 1]
            if v == 0:
                return i, j, where[j]
            if table[2 * h] == x:
                ids[j] = np.int64(v) - 1
                break
            h = (h + 1) & mask
    return i, k, -1


@njit(cache=True, nogil=True)
def _build_node(fen, bits, j):  # pragma: no cover - compiled
    """Fill node ``j`` of the Fenwick tree over the words of ``bits`` when word ``j - 1`` completes: its own
    word's marks plus its children ``j - 1, j - 2, j - 4, ...`` (complete already)."""
    c = np.int32(popcount64(bits[j - 1]))
    lb = j & -j
    s = 1
    while s < lb:
        c += fen[j - s]
        s <<= 1
    fen[j] = c


@njit(cache=True, nogil=True)
def _compact(page, bits, fen, t):  # pragma: no cover - compiled
    """Renumber the live marks (positions ``< t``) ``0, 1, ...`` in order -- a mark's new position is the marks
    before it, its word's rank (``fen`` as scratch) plus a popcount, set in one sequential pass over the pages --
    and rebuild the bit set and the tree over its complete words; returns ``(marks, marks in complete words)``."""
    k = 0
    for w in range((t + 63) >> 6):
        fen[w] = k
        k += popcount64(bits[w])
    for x in range(len(page) // 2):
        p = np.int64(page[2 * x])
        if p >= 0:
            w = p >> 6
            page[2 * x] = fen[w] + popcount64(bits[w] & ((_ONE << np.uint64(p & 63)) - _ONE))
    bits[:] = 0
    fen[:] = 0
    full = k >> 6
    bits[:full] = ~np.uint64(0)
    if k & 63:
        bits[full] = (_ONE << np.uint64(k & 63)) - _ONE
    for j in range(1, full + 1):
        _build_node(fen, bits, j)
    return k, full << 6


@njit(cache=True, nogil=True)
def _distances_and_clock(ids, k, page, bits, fen, hist, ring, fref, st):  # pragma: no cover - compiled
    """Stack distances into ``hist`` and CLOCK over the page ids ``ids[:k]`` (see :func:`_second`)."""
    cap_pos = len(bits) << 6
    t, total, hand, size, cap, faults = st[0], st[1], st[2], st[3], st[4], st[5]
    for j in range(min(_LOOKAHEAD, k)):
        prefetch(page, 2 * ids[j])
    for j in range(k):
        if j + _LOOKAHEAD < k:
            prefetch(page, 2 * ids[j + _LOOKAHEAD])
        x = ids[j]
        if t == cap_pos:  # positions used up: renumber the live marks 0, 1, ... (at most a quarter of them)
            t, total = _compact(page, bits, fen, t)
        wc = t >> 6
        p = np.int64(page[2 * x])
        if p >= 0:  # reuse: its distance is the marks after its previous one (the distinct pages since)
            w = p >> 6
            b = np.uint64(p & 63)
            d = np.int64(popcount64((bits[w] >> b) >> _ONE))
            if w != wc:
                d += np.int64(popcount64(bits[wc]))
                s = 0  # marks in the complete words 0..w
                q = w + 1
                while q > 0:
                    s += fen[q]
                    q -= q & -q
                d += total - s
                q = w + 1
                while q <= wc:
                    fen[q] -= 1
                    q += q & -q
                total -= 1
            bits[w] &= ~(_ONE << b)
            hist[d] += 1
        bits[wc] |= _ONE << np.uint64(t & 63)
        page[2 * x] = t
        if (t & 63) == 63:  # word wc complete: its tree node
            _build_node(fen, bits, wc + 1)
            total += popcount64(bits[wc])
        t += 1
        # CLOCK (second chance), the faulting access a use; page[2x + 1]: its frame + 1 (0: not in memory), the
        # reference bits by frame (the hand sweeps them in order)
        if cap == 0:
            faults += 1
            continue
        f = page[2 * x + 1]
        if f:
            fref[f - 1] = True
            continue
        faults += 1
        if size == cap:
            while fref[hand]:
                fref[hand] = False
                hand = hand + 1 if hand + 1 < cap else 0
            page[2 * ring[hand] + 1] = 0
            f = hand
            hand = hand + 1 if hand + 1 < cap else 0
        else:
            f = size
            size += 1
        ring[f] = x
        fref[f] = True
        page[2 * x + 1] = f + 1
    st[0], st[1], st[2], st[3], st[5] = t, total, hand, size, faults
    st[6] += k


@njit(cache=True, nogil=True)
def _second(addr, kind, table, shift, page, bits, fen, hist, ring, fref, st, keys, where,
            ids):  # pragma: no cover - compiled
    """Stack distances into ``hist`` and CLOCK over the data references, a batch of ``len(ids)`` at a time (their
    page ids looked up first); ``st`` = [next position, marks in complete words, hand, frames filled, frames,
    faults, data references]. Returns -1, or the index of a reference whose page is not in the table (the trace
    changed since the first pass)."""
    i = 0
    while i < len(addr):
        i, k, bad = _lookup(addr, kind, i, table, shift, keys, where, ids)
        _distances_and_clock(ids, k, page, bits, fen, hist, ring, fref, st)
        if bad >= 0:
            return bad
    return -1


class PagingStream:
    """The paging profile of one trace over two passes of chunks (see the module docstring).

    Parameters
    ----------
    memory_fraction : float
        Memory as a fraction of the 4 KiB-page footprint [-] (the CLOCK run's frames:
        ``floor(fraction x footprint bytes / 4096)``, as :func:`~models.memory.paging.profile_trace`).
    what : str
        How refusals name the state.
    """

    def __init__(self, memory_fraction: float, *, what: str = "the paging role's per-page state"):
        self.memory_fraction = float(memory_fraction)
        self.what = what
        self.pages = 0  # distinct 4 KiB pages of the data references [pages]
        self.data_refs = 0  # data references of the first pass [-]
        self.frames = 0
        self._second_arrays: tuple = ()
        self._batch: tuple = ()  # the page keys, reference indices and page ids of a second-pass batch
        self._st = np.zeros(7, np.int64)
        self._slots(1 << 10)

    # ---- the page table
    def _slots(self, slots: int) -> None:
        """Make the table ``slots`` slots, moving the pages held; charged first (old and new live together)."""
        old = len(self._table) // 2 if hasattr(self, "_table") else 0
        charge(float(BYTES_PER_SLOT) * (slots + old) + self._arrays_bytes(),
               f"{self.what} (the page table, {self.pages:,} distinct 4 KiB pages so far)")
        table = np.zeros(2 * slots, np.uint64)
        shift = 64 - (slots.bit_length() - 1)
        if self.pages:
            _rehash(self._table, table, shift)
        self._table, self._shift = table, shift

    def _arrays_bytes(self) -> int:
        return int(sum(a.nbytes for a in self._second_arrays + self._batch))

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]: the page table and the second pass's arrays."""
        return int(self._table.nbytes) + self._arrays_bytes()

    def first(self, chunk: dict) -> None:
        """Add the pages of a chunk's data references (``address`` uint64 [bytes], ``kind`` uint8) to the table."""
        addr = np.asarray(chunk["address"], np.uint64)
        kind = np.asarray(chunk["kind"], np.uint8)
        i = 0
        while i < len(addr):
            slots = len(self._table) // 2
            if self.pages >= 2**31 - 1:
                raise BudgetExceeded(f"{self.what}: more than 2**31 distinct pages")
            i, self.pages, d = _add_pages(addr, kind, i, self._table, self._shift, self.pages, slots // 2)
            self.data_refs += int(d)
            if i < len(addr):
                self._slots(2 * slots)

    def end_first(self) -> None:
        """Size the second pass's state by the footprint (charged first) and the CLOCK memory by the fraction."""
        m = self.pages
        fp = float(m) * REFERENCE_PAGE_BYTES
        mem = np.atleast_1d(np.asarray([self.memory_fraction], dtype=float)) * fp
        _check_memory_sizes(mem)
        self.frames = min(int(mem[0] // REFERENCE_PAGE_BYTES), m)
        cap = self.frames if self.frames < m else 0  # all pages fit: compulsory faults only, no CLOCK run
        positions = max(_POSITIONS_PER_PAGE * m + 63, 64) >> 6 << 6  # a whole number of 64-bit words
        words = positions >> 6
        dt = _position_dtype(positions)
        size = np.dtype(dt).itemsize
        charge(float(self.state_bytes) + float(size) * (2 * m + cap) + cap + 8.0 * (words + max(m, 1))
               + 4.0 * (words + 2) + 24.0 * _BATCH,
               f"{self.what} (stack distances and CLOCK over {m:,} distinct 4 KiB pages)")
        page = np.zeros(2 * m, dt)  # page 2x: latest-access position (-1: none yet); 2x + 1: its CLOCK frame + 1
        page[0::2] = -1
        bits = np.zeros(words, np.uint64)
        fen = np.zeros(words + 2, np.int32)
        hist = np.zeros(max(m, 1), np.int64)
        ring = np.zeros(cap, dt)
        fref = np.zeros(cap, np.bool_)
        self._second_arrays = (page, bits, fen, hist, ring, fref)
        self._batch = (np.zeros(_BATCH, np.uint64), np.zeros(_BATCH, np.int64), np.zeros(_BATCH, np.int64))
        self._st[:] = 0
        self._st[4] = cap

    def second(self, chunk: dict) -> None:
        """Stack distances and CLOCK over a chunk's data references (after :meth:`end_first`)."""
        if not self._second_arrays:
            raise RuntimeError("PagingStream.second before end_first")
        addr = np.asarray(chunk["address"], np.uint64)
        kind = np.asarray(chunk["kind"], np.uint8)
        bad = _second(addr, kind, self._table, self._shift, *self._second_arrays, self._st, *self._batch)
        if bad >= 0:
            raise ValueError(f"the memory trace changed between the two reads (address {int(addr[bad]):#x} of the "
                             "second read is on a page the first did not see)")

    @property
    def n_refs(self) -> int:
        """Data references of the second pass [-]."""
        return int(self._st[6])

    def profile(self, name: str = "memtrace") -> PagingProfile:
        """The :class:`~models.memory.paging.PagingProfile` of the trace (4 KiB pages; CLOCK at the memory size
        unless every page fits), as :func:`~models.memory.paging.paging_profile` gives it for the whole trace.

        Raises
        ------
        ValueError
            No data references (as the in-memory profile), or the passes saw different references.
        """
        n, m = self.n_refs, self.pages
        if not m or not n:
            raise ValueError("the trace has no data references (only instruction fetches, or empty)")
        if n != self.data_refs:
            raise ValueError(f"the memory trace changed between the two reads ({self.data_refs:,} then {n:,} data "
                             "references)")
        hist = self._second_arrays[3]
        hits = np.concatenate(([0], np.cumsum(hist, dtype=np.int64)))[: m + 1]
        cf = {self.frames: int(self._st[5])} if self.frames < m else {}
        pp = PageSizeProfile(REFERENCE_PAGE_BYTES, n, m, hits, cf)
        return PagingProfile(name, n, {REFERENCE_PAGE_BYTES: pp}, reference_footprint=m * REFERENCE_PAGE_BYTES)
