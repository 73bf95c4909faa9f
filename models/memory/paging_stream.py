"""The paging profile of a memory trace taken chunk by chunk: exact, in memory of the distinct pages (issue 41).

:class:`PagingStream` computes what :func:`models.memory.paging.paging_profile` computes for one page size and
one memory size -- the LRU hit count at every TLB / memory size (exact stack distances) and the CLOCK faults
(second chance, the faulting access sets the page's reference bit) -- over a trace handed in chunks, in two passes:

1. :meth:`PagingStream.first`: the distinct pages of the data references (lackey ``L``, ``S``, ``M``; page
   of the first byte) into the trace's :class:`~models.memory.page_table.PageTable` (an open-addressing hash
   table, charged to the run's memory budget first, :mod:`models.budget`; shared with the memory-extension stream
   when both roles run, :func:`models.planner.stream_memory.memory_role_streams`), its ids renumbered to page order
   at the end of the pass. The footprint sets the memory size (``memory_fraction`` x footprint, as the profile).
2. :meth:`PagingStream.second`: each chunk's page ids from the table (looked up once per chunk, prefetched, whatever
   streams share it), then each data reference's stack distance and CLOCK (the
   state of later pages prefetched). The distance: a bit set over positions marks each page's latest access (a
   page's previous mark removed, its new one added: the distance is the marks after the previous one), counted as
   :mod:`models.sim.stack_distance` counts them (a popcount in the partial words, a Fenwick tree over the complete
   64-bit words: ``4 x footprint / 64`` words, small enough for the CPU caches); when the ``4 x footprint``
   positions are used up, the live marks are renumbered in order (a mark's new position is the marks before it: one
   pass over the pages), so the memory follows the pages, not the trace's length. A page's latest position and its
   CLOCK frame sit side by side (one cache line per reference); the CLOCK ring of the memory's frames keeps the
   reference bits by frame (the hand sweeps them in order) and its hand is carried across chunks.

Stack distances and CLOCK do not depend on how pages are named: the table's page-order ids (the memory extension's)
give the profile of :func:`~models.memory.paging.paging_profile`, exactly.

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

from models.budget import Hold, charge
from models.memory.page_table import BYTES_PER_SLOT, PageNotSeen, PageTable
from models.memory.paging import (
    REFERENCE_PAGE_BYTES,
    PageSizeProfile,
    PagingProfile,
    _check_memory_sizes,
)
from models.sim.primitives import popcount64, prefetch

__all__ = ["PagingStream", "BYTES_PER_SLOT", "BYTES_PER_PAGE"]

#: Memory of the second pass per distinct page [bytes]: latest-access position and CLOCK frame side by side (int32
#: pair), the position bit set (:data:`_POSITIONS_PER_PAGE` bits) with its Fenwick tree over 64-bit words (int32 per
#: word; together under a byte), the stack-distance histogram (int64), and the CLOCK frame ring (int32 page and a
#: reference bit, at most one frame per page).
BYTES_PER_PAGE = 2 * 4 + 1 + 8 + 4 + 1

_ONE = np.uint64(1)
#: Data references whose page state (second pass) is prefetched ahead of the one handled, so the cache misses of
#: a footprint larger than the caches overlap [references].
_LOOKAHEAD = 16
#: Positions of the bit set per distinct page: at most one in this many is live (a page's latest access), so the
#: positions are renumbered once every ``this - 1`` x footprint references at most (a pass over the pages) [-].
_POSITIONS_PER_PAGE = 4


def _position_dtype(positions: int) -> type:
    """The integer type of the positions, frames and page ids of the second pass's arrays: int32 below 2**31
    positions (half the cache footprint), else int64."""
    return np.int32 if positions < 2**31 else np.int64


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
    """Stack distances into ``hist`` and CLOCK over the page ids ``ids[:k]``; ``st`` = [next position, marks in
    complete words, hand, frames filled, frames, faults, data references]."""
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


class PagingStream:
    """The paging profile of one trace over two passes of chunks (see the module docstring).

    Parameters
    ----------
    memory_fraction : float
        Memory as a fraction of the 4 KiB-page footprint [-] (the CLOCK run's frames:
        ``floor(fraction x footprint bytes / 4096)``, as :func:`~models.memory.paging.profile_trace`).
    what : str
        How refusals name the state.
    table : PageTable, keyword-only
        The trace's distinct pages, shared with its other memory streams (default: a table of its own).
    """

    def __init__(self, memory_fraction: float, *, what: str = "the paging role's per-page state",
                 table: PageTable | None = None):
        self.memory_fraction = float(memory_fraction)
        self.what = what
        self.frames = 0
        self._second_arrays: tuple = ()
        self._st = np.zeros(7, np.int64)
        self.table = PageTable(what) if table is None else table
        #: The second pass's arrays [bytes], held beside the table's own hold.
        self.hold = Hold(what, 0.0)

    @property
    def table(self) -> PageTable:
        """The trace's distinct pages (:class:`~models.memory.page_table.PageTable`; may be shared)."""
        return self._table

    @table.setter
    def table(self, table: PageTable) -> None:
        if getattr(self, "_table", None) is not None and (self._table.pages or self._second_arrays):
            raise ValueError("PagingStream: the page table is shared before the first pass")
        if table.include_instructions:
            raise ValueError("PagingStream: the paging profile takes data references only")
        if getattr(self, "_table", None) is not None:
            self._table.detach()
        self._table = table.attach()

    @property
    def pages(self) -> int:
        """Distinct 4 KiB pages of the data references [pages]."""
        return self._table.pages

    @property
    def data_refs(self) -> int:
        """Data references of the first pass [-]."""
        return self._table.data_refs

    def _arrays_bytes(self) -> int:
        return int(sum(a.nbytes for a in self._second_arrays))

    @property
    def holds(self) -> tuple[Hold, ...]:
        """The holds of the state: the page table's own (one, however many streams share it) and the second
        pass's arrays'."""
        self.hold.nbytes = float(self._arrays_bytes())
        return (self._table.hold, self.hold)

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]: the page table and the second pass's arrays."""
        return int(self._table.state_bytes) + self._arrays_bytes()

    def first(self, chunk: dict) -> None:
        """Add the pages of a chunk's data references (``address`` uint64 [bytes], ``kind`` uint8) to the table."""
        self._table.add_chunk(chunk)

    def end_first(self) -> None:
        """Size the second pass's state by the footprint (charged first) and the CLOCK memory by the fraction."""
        self._table.end_first()
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
               + 4.0 * (words + 2),
               f"{self.what} (stack distances and CLOCK over {m:,} distinct 4 KiB pages)")
        page = np.zeros(2 * m, dt)  # page 2x: latest-access position (-1: none yet); 2x + 1: its CLOCK frame + 1
        page[0::2] = -1
        bits = np.zeros(words, np.uint64)
        fen = np.zeros(words + 2, np.int32)
        hist = np.zeros(max(m, 1), np.int64)
        ring = np.zeros(cap, dt)
        fref = np.zeros(cap, np.bool_)
        self._second_arrays = (page, bits, fen, hist, ring, fref)
        self.hold.nbytes = float(self._arrays_bytes())
        self._st[:] = 0
        self._st[4] = cap

    def second(self, chunk: dict) -> None:
        """Stack distances and CLOCK over a chunk's data references (after :meth:`end_first`): their page ids from
        the table (looked up once per chunk, whatever streams share it)."""
        if not self._second_arrays:
            raise RuntimeError("PagingStream.second before end_first")
        try:
            ids = self._table.chunk_ids(chunk, beside=float(self._arrays_bytes()))
        except PageNotSeen as e:
            raise ValueError(f"the memory trace changed between the two reads ({e})") from None
        _distances_and_clock(ids, len(ids), *self._second_arrays, self._st)

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
