"""The paging profile of a memory trace taken chunk by chunk: exact, in memory of the distinct pages (issue 41).

:class:`PagingStream` computes what :func:`models.memory.paging.paging_profile` computes for one page size and
one memory size -- the LRU hit count at every TLB / memory size (exact stack distances) and the CLOCK faults
(second chance, the faulting access sets the page's reference bit) -- over a trace handed in chunks, in two passes:

1. :meth:`PagingStream.first`: the distinct pages of the data references (lackey ``L``, ``S``, ``M``; page
   of the first byte), numbered in order of first access in an open-addressing hash table (linear probing,
   Fibonacci hashing) that doubles at half full, charged to the run's memory budget first
   (:mod:`models.budget`). The footprint sets the memory size (``memory_fraction`` x footprint, as the profile).
2. :meth:`PagingStream.second`: each data reference's page id from the table; its stack distance from a
   Fenwick tree over the positions of each page's latest access (a page's previous mark removed, its new one
   added: the distance is the marks after the previous one), positions renumbered in order when the tree's
   ``2 x footprint`` positions are used up (so its memory follows the pages, not the trace's length); a CLOCK
   ring of the memory's frames with its hand carried across chunks.

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

__all__ = ["PagingStream", "BYTES_PER_SLOT", "BYTES_PER_PAGE"]

#: Memory of the page table per slot [bytes]: page number (uint64) and id (int32); at most half the slots full.
BYTES_PER_SLOT = 12
#: Memory of the second pass per distinct page [bytes]: latest-access position (int64), two positions' worth of
#: Fenwick tree (int32) and of position -> page (int32), the stack-distance histogram (int64), and the CLOCK state
#: (frame ring int32 at most one per page, cached and reference bits).
BYTES_PER_PAGE = 8 + 2 * 4 + 2 * 4 + 8 + 4 + 2


@njit(cache=True, nogil=True)
def _add_pages(addr, kind, i0, hkeys, hids, shift, m, limit):  # pragma: no cover - compiled
    """Number the pages of the data references ``i0..`` not in the table ``m, m+1, ...``; stop before a new page
    would make ``limit``. Returns ``(i, m, data)``: where it stopped (``len(addr)``: done), the pages held and the
    data references taken."""
    mask = len(hkeys) - 1
    data = 0
    for i in range(i0, len(addr)):
        if kind[i] == 0:
            continue
        x = addr[i] >> np.uint64(12)  # the 4 KiB page (REFERENCE_PAGE_BYTES)
        h = np.int64((x * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(shift))
        while hids[h] >= 0 and hkeys[h] != x:
            h = (h + 1) & mask
        if hids[h] < 0:
            if m >= limit:
                return i, m, data
            hkeys[h] = x
            hids[h] = m
            m += 1
        data += 1
    return len(addr), m, data


@njit(cache=True, nogil=True)
def _rehash(hkeys, hids, nkeys, nids, shift):  # pragma: no cover - compiled
    mask = len(nkeys) - 1
    for s in range(len(hkeys)):
        if hids[s] >= 0:
            h = np.int64((hkeys[s] * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(shift))
            while nids[h] >= 0:
                h = (h + 1) & mask
            nkeys[h] = hkeys[s]
            nids[h] = hids[s]


@njit(cache=True, nogil=True, inline="always")
def _fen_add(fen, i, v):  # pragma: no cover - compiled
    j = i + 1
    n = len(fen) - 1
    while j <= n:
        fen[j] += v
        j += j & -j


@njit(cache=True, nogil=True, inline="always")
def _fen_prefix(fen, i):  # pragma: no cover - compiled
    """Marks at positions ``0..i``."""
    j = i + 1
    s = 0
    while j > 0:
        s += fen[j]
        j -= j & -j
    return s


@njit(cache=True, nogil=True)
def _compact(last, pos_page, fen, t):  # pragma: no cover - compiled
    """Renumber the live marks (positions ``< t``) ``0, 1, ...`` in order and rebuild the tree; returns their count."""
    k = 0
    for p in range(t):
        x = pos_page[p]
        if x >= 0:
            last[x] = k
            pos_page[k] = x
            k += 1
    pos_page[k:] = -1
    fen[:] = 0
    n = len(fen) - 1
    for j in range(1, n + 1):
        if j <= k:
            fen[j] += 1
        up = j + (j & -j)
        if up <= n:
            fen[up] += fen[j]
    return k


@njit(cache=True, nogil=True)
def _second(addr, kind, hkeys, hids, shift, last, pos_page, fen, hist, ring, cached, ref,
            st):  # pragma: no cover - compiled
    """Stack distances into ``hist`` and CLOCK over the data references; ``st`` = [next position, live marks,
    hand, frames filled, frames, faults, data references]. Returns -1, or the index of a reference whose page is
    not in the table (the trace changed since the first pass)."""
    mask = len(hkeys) - 1
    cap_pos = len(fen) - 1
    t, live, hand, size, cap, faults, data = st[0], st[1], st[2], st[3], st[4], st[5], st[6]
    for i in range(len(addr)):
        if kind[i] == 0:
            continue
        key = addr[i] >> np.uint64(12)
        h = np.int64((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(shift))
        while hids[h] >= 0 and hkeys[h] != key:
            h = (h + 1) & mask
        x = hids[h]
        if x < 0:
            st[0], st[1], st[2], st[3], st[5], st[6] = t, live, hand, size, faults, data
            return i
        data += 1
        p = last[x]
        if p >= 0:  # reuse: the marks after its previous one are the distinct pages since
            hist[live - _fen_prefix(fen, p)] += 1
            _fen_add(fen, p, -1)
            pos_page[p] = -1
        else:
            live += 1
        if t == cap_pos:
            t = _compact(last, pos_page, fen, t)
        _fen_add(fen, t, 1)
        last[x] = t
        pos_page[t] = x
        t += 1
        # CLOCK (second chance), the faulting access a use
        if cap == 0:
            faults += 1
        elif cached[x]:
            ref[x] = True
        else:
            faults += 1
            if size == cap:
                while ref[ring[hand]]:
                    ref[ring[hand]] = False
                    hand = hand + 1 if hand + 1 < cap else 0
                cached[ring[hand]] = False
                ring[hand] = x
                hand = hand + 1 if hand + 1 < cap else 0
            else:
                ring[size] = x
                size += 1
            cached[x] = True
            ref[x] = True
    st[0], st[1], st[2], st[3], st[5], st[6] = t, live, hand, size, faults, data
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
        self._st = np.zeros(7, np.int64)
        self._slots(1 << 10)

    # ---- the page table
    def _slots(self, slots: int) -> None:
        """Make the table ``slots`` slots, moving the pages held; charged first (old and new live together)."""
        old = len(self._hkeys) if hasattr(self, "_hkeys") else 0
        charge(float(BYTES_PER_SLOT) * (slots + old) + self._arrays_bytes(),
               f"{self.what} (the page table, {self.pages:,} distinct 4 KiB pages so far)")
        keys, ids = np.zeros(slots, np.uint64), np.full(slots, -1, np.int32)
        shift = 64 - (slots.bit_length() - 1)
        if self.pages:
            _rehash(self._hkeys, self._hids, keys, ids, shift)
        self._hkeys, self._hids, self._shift = keys, ids, shift

    def _arrays_bytes(self) -> int:
        return int(sum(a.nbytes for a in self._second_arrays))

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]: the page table and the second pass's arrays."""
        return int(self._hkeys.nbytes + self._hids.nbytes) + self._arrays_bytes()

    def first(self, chunk: dict) -> None:
        """Add the pages of a chunk's data references (``address`` uint64 [bytes], ``kind`` uint8) to the table."""
        addr = np.asarray(chunk["address"], np.uint64)
        kind = np.asarray(chunk["kind"], np.uint8)
        i = 0
        while i < len(addr):
            limit = len(self._hkeys) // 2
            if self.pages >= 2**31 - 1:
                raise BudgetExceeded(f"{self.what}: more than 2**31 distinct pages")
            i, self.pages, d = _add_pages(addr, kind, i, self._hkeys, self._hids, self._shift, self.pages, limit)
            self.data_refs += int(d)
            if i < len(addr):
                self._slots(2 * len(self._hkeys))

    def end_first(self) -> None:
        """Size the second pass's state by the footprint (charged first) and the CLOCK memory by the fraction."""
        m = self.pages
        fp = float(m) * REFERENCE_PAGE_BYTES
        mem = np.atleast_1d(np.asarray([self.memory_fraction], dtype=float)) * fp
        _check_memory_sizes(mem)
        self.frames = min(int(mem[0] // REFERENCE_PAGE_BYTES), m)
        cap = self.frames if self.frames < m else 0  # all pages fit: compulsory faults only, no CLOCK run
        positions = max(2 * m, 2)
        charge(float(self.state_bytes) + BYTES_PER_PAGE * float(m) + 8.0 * positions,
               f"{self.what} (stack distances and CLOCK over {m:,} distinct 4 KiB pages)")
        last = np.full(m, -1, np.int64)
        pos_page = np.full(positions, -1, np.int32)
        fen = np.zeros(positions + 1, np.int32)
        hist = np.zeros(max(m, 1), np.int64)
        ring = np.zeros(cap, np.int32)
        cached = np.zeros(m if cap else 0, np.bool_)
        ref = np.zeros(m if cap else 0, np.bool_)
        self._second_arrays = (last, pos_page, fen, hist, ring, cached, ref)
        self._st[:] = 0
        self._st[4] = cap

    def second(self, chunk: dict) -> None:
        """Stack distances and CLOCK over a chunk's data references (after :meth:`end_first`)."""
        if not self._second_arrays:
            raise RuntimeError("PagingStream.second before end_first")
        addr = np.asarray(chunk["address"], np.uint64)
        kind = np.asarray(chunk["kind"], np.uint8)
        bad = _second(addr, kind, self._hkeys, self._hids, self._shift, *self._second_arrays, self._st)
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
