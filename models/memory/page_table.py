"""The distinct 4 KiB pages of a memory trace taken chunk by chunk, one table for the memory roles (issue 41).

A streamed plan's paging role (:mod:`models.memory.paging_stream`) and memory-extension role
(:mod:`models.memory.memext_stream`) both number the distinct pages of the data references (lackey ``L``, ``S``,
``M``: kind != 0; page of the first byte) of the same chunks. :class:`PageTable` is that one table, shared by the
streams of a trace (:func:`models.planner.stream_memory.memory_role_streams`) and held once against the run's
memory budget by its own :class:`~models.budget.Hold`:

1. first pass (:meth:`PageTable.add_chunk`): each chunk's pages are inserted into an open-addressing hash table
   (linear probing, Fibonacci hashing, page and id + 1 side by side in one slot, the slots of later references
   prefetched) that doubles at half full, charged first; a chunk handed by several sharers is added once (the same
   chunk object);
2. :meth:`PageTable.end_first`: the ids are renumbered to increasing page order (the compact ids of
   :func:`~models.memory.memory_extension.page_stream`) and the sorted page list kept (:attr:`PageTable.vpn`);
3. second pass (:meth:`PageTable.chunk_ids`): each chunk's page ids are looked up once (prefetched) and handed to
   every sharer (:meth:`PageTable.attach`: kept, and held, until each has taken them).

The paging profile does not depend on how pages are numbered (stack distances and CLOCK), the memory extension needs
the sorted order: one numbering serves both.

>>> t = PageTable().attach()
>>> c = {"address": np.array([8192, 4096, 8200, 0], np.uint64), "kind": np.array([1, 2, 3, 0], np.uint8)}
>>> t.add_chunk(c); t.add_chunk(c); t.end_first()
>>> t.pages, t.data_refs, t.vpn.tolist(), t.chunk_ids(c).tolist()
(2, 3, [1, 2], [1, 0, 1])
"""

from __future__ import annotations

import numpy as np
from numba import njit

from models.budget import BudgetExceeded, Hold, charge
from models.sim.primitives import prefetch

__all__ = ["PageTable", "PageNotSeen", "SharesPageTable", "BYTES_PER_SLOT"]

#: Memory of the table per slot [bytes]: page number (uint64) and id + 1 (uint64, 0: empty) side by side, so a
#: lookup touches one cache line; at most half the slots full.
BYTES_PER_SLOT = 16
_FIB = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing multiplier (2**64 / golden ratio, odd)
#: References whose table slot is prefetched ahead of the one handled, so the cache misses of a table larger than
#: the caches overlap [references].
_LOOKAHEAD = 16


class PageNotSeen(ValueError):
    """A page of the second pass the first did not see (the trace changed between the reads); ``index``: the
    reference's index in its chunk."""

    def __init__(self, index: int, address: int):
        super().__init__(f"address {address:#x} of the second read is on a page the first did not see")
        self.index, self.address = index, address


@njit(cache=True, nogil=True)
def _add_pages(addr, kind, i0, table, shift, m, limit):  # pragma: no cover - compiled
    """Number the pages of the references ``i0..`` of nonzero ``kind`` not in the table ``m, m+1, ...`` (``table``:
    interleaved ``page, id + 1`` pairs, 0: empty); stop before a new page would make ``limit``. Returns
    ``(i, m, data)``: where it stopped (``len(addr)``: done), the pages held and the references taken."""
    mask = len(table) // 2 - 1
    n = len(addr)
    data = 0
    for i in range(i0, n):
        a = i + _LOOKAHEAD
        if a < n and kind[a] != 0:
            prefetch(table, 2 * np.int64(((addr[a] >> np.uint64(12)) * _FIB) >> np.uint64(shift)))
        if kind[i] == 0:
            continue
        x = addr[i] >> np.uint64(12)  # the 4 KiB page
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
def _renumber(table, vpn):  # pragma: no cover - compiled
    """Set each slot's id to its page's rank in the sorted ``vpn`` (binary search: no per-slot temporaries)."""
    m = len(vpn)
    for s in range(len(table) // 2):
        if table[2 * s + 1] != 0:
            x = table[2 * s]
            lo, hi = 0, m
            while lo < hi:
                mid = (lo + hi) >> 1
                if vpn[mid] < x:
                    lo = mid + 1
                else:
                    hi = mid
            table[2 * s + 1] = np.uint64(lo + 1)


@njit(cache=True, nogil=True)
def _chunk_ids(addr, kind, table, shift, ids):  # pragma: no cover - compiled
    """The page ids of the references of nonzero ``kind`` into ``ids`` (in order). Returns ``(k, bad)``: the ids
    written and -1, or the index of a reference whose page is not in the table (stopped there)."""
    n = len(addr)
    mask = len(table) // 2 - 1
    k = 0
    for i in range(n):
        a = i + _LOOKAHEAD
        if a < n and kind[a] != 0:
            prefetch(table, 2 * np.int64(((addr[a] >> np.uint64(12)) * _FIB) >> np.uint64(shift)))
        if kind[i] == 0:
            continue
        x = addr[i] >> np.uint64(12)
        h = np.int64((x * _FIB) >> np.uint64(shift))
        while True:
            v = table[2 * h + 1]
            if v == 0:
                return k, i
            if table[2 * h] == x:
                ids[k] = np.int64(v) - 1
                break
            h = (h + 1) & mask
        k += 1
    return k, -1


class SharesPageTable:
    """A role stream whose analysis (``self._s``) reads a :class:`PageTable` another role stream may share: the table
    is set through :attr:`page_table` before the first pass."""

    @property
    def page_table(self):
        """The trace's distinct pages (:class:`~models.memory.page_table.PageTable`), set only before the first pass
        (:func:`models.planner.stream_memory.memory_role_streams` shares one between the memory roles)."""
        return self._s.table

    @page_table.setter
    def page_table(self, table) -> None:
        self._s.table = table

    @staticmethod
    def in_halves(take, chunk: dict):
        """``take(chunk)``; a chunk whose working memory (its page ids, the caller's own) the budget refuses, charged
        before any state moves, is taken in halves, down to one reference (the streams are resumable at any cut: the
        same result). Returns what the last ``take`` returned when the chunk was taken whole, else ``None``."""
        try:
            return take(chunk)
        except BudgetExceeded:
            n = len(chunk["kind"])
            if n <= 1:
                raise
            for part in (slice(0, n // 2), slice(n // 2, n)):
                SharesPageTable.in_halves(take, {k: v[part] for k, v in chunk.items()})
            return None


class PageTable:
    """The distinct 4 KiB pages of a memory trace's references, numbered in page order (see the module docstring).

    Parameters
    ----------
    what : str
        What the table serves, named in the memory budget's refusals (and its :attr:`hold`'s name).
    include_instructions : bool, keyword-only
        Take instruction fetches (kind 0) too (the memory extension's option); default: data references only.
    """

    def __init__(self, what: str = "the page table", *, include_instructions: bool = False):
        self.include_instructions = bool(include_instructions)
        #: The table's memory [bytes], held once however many streams share it.
        self.hold = Hold(what, 0.0)
        self.pages = 0  # distinct pages [pages]
        self.data_refs = 0  # references of the first pass taken [-]
        self.vpn: np.ndarray | None = None  # sorted pages (after end_first)
        self._last_chunk = None
        self._refused: BudgetExceeded | None = None
        self._ids_of = None  # (chunk, ids, readers still to take them) of the second pass's last chunk
        #: Streams reading the table (:meth:`attach`): a chunk's ids are kept until each has taken them.
        self.readers = 0
        self._slots(1 << 10)

    @property
    def what(self) -> str:
        """What the table serves (its hold's name)."""
        return self.hold.what

    @what.setter
    def what(self, text: str) -> None:
        self.hold.what = str(text)

    @property
    def state_bytes(self) -> int:
        """Memory of the table [bytes]: slots, the sorted pages and the last chunk's ids (what :attr:`hold` holds)."""
        vpn = 0 if self.vpn is None else self.vpn.nbytes
        ids = 0 if self._ids_of is None else self._ids_of[1].nbytes
        return int(self._table.nbytes) + vpn + ids

    def attach(self) -> PageTable:
        """Count one more stream reading the table (a chunk's ids are kept for the others until each has taken
        them); returns the table."""
        self.readers += 1
        return self

    def detach(self) -> None:
        """Count one stream fewer (it reads another table)."""
        self.readers = max(0, self.readers - 1)

    @property
    def ended(self) -> bool:
        """Whether the first pass has ended (the ids are in page order)."""
        return self.vpn is not None

    def _slots(self, slots: int) -> None:
        """Make the table ``slots`` slots, moving the pages held; charged first (old and new live together)."""
        old = len(self._table) // 2 if hasattr(self, "_table") else 0
        charge(float(BYTES_PER_SLOT) * (slots + old),
               f"{self.what} (the page table, {self.pages:,} distinct 4 KiB pages so far)")
        table = np.zeros(2 * slots, np.uint64)
        shift = 64 - (slots.bit_length() - 1)
        if self.pages:
            _rehash(self._table, table, shift)
        self._table, self._shift = table, shift
        self.hold.nbytes = float(self.state_bytes)

    def _kind(self, chunk: dict) -> tuple[np.ndarray, np.ndarray]:
        addr = np.ascontiguousarray(chunk["address"], np.uint64)
        kind = np.ascontiguousarray(chunk["kind"], np.uint8)
        if addr.shape != kind.shape:
            raise ValueError("a memory-trace chunk's address and kind must have the same length")
        return addr, (np.ones_like(kind) if self.include_instructions else kind)

    # ------------------------------------------------------------------ first pass
    def add_chunk(self, chunk: dict) -> None:
        """Add the pages of a chunk's references (``address`` uint64 [bytes], ``kind`` uint8), unless this very chunk
        object was the last one added (each sharer hands it every chunk: counted once). Once an add has run out of
        the budget part-way, every later call raises that refusal (no sharer goes on with part of a chunk)."""
        if self._refused is not None:
            raise self._refused
        if chunk is self._last_chunk:
            return
        if self.ended:
            raise RuntimeError("PageTable.add_chunk after end_first")
        try:
            self._add(*self._kind(chunk))
        except BudgetExceeded as e:
            self._refused = e
            raise
        self._last_chunk = chunk

    def _add(self, addr: np.ndarray, kind: np.ndarray) -> None:
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
        """Renumber the ids to increasing page order and keep the sorted pages (charged first); once per table
        (the later sharers' calls do nothing)."""
        if self._refused is not None:
            raise self._refused
        if self.ended:
            return
        m = self.pages
        charge(float(self.state_bytes) + 16.0 * m + len(self._table) // 2,
               f"{self.what} (its {m:,} distinct 4 KiB pages in page order)")
        keys = self._table[0::2][self._table[1::2] != 0]
        keys.sort()
        _renumber(self._table, keys)
        self.vpn = keys.view(np.int64)  # pages < 2**52
        self._last_chunk = None
        self.hold.nbytes = float(self.state_bytes)

    # ------------------------------------------------------------------ second pass
    def chunk_ids(self, chunk: dict, beside: float = 0.0) -> np.ndarray:
        """The page ids (int64, page order) of a chunk's references taken (after :meth:`end_first`), looked up once
        for the chunk object handed last; :class:`PageNotSeen` for a page the first pass did not see. ``beside``: the
        caller's own state [bytes], charged with the ids."""
        if not self.ended:
            raise RuntimeError("PageTable.chunk_ids before end_first")
        if self._ids_of is not None and self._ids_of[0] is chunk:
            ids = self._ids_of[1]
            self._taken(chunk, ids, self._ids_of[2] - 1)
            return ids
        addr, kind = self._kind(chunk)
        self._ids_of = None
        self.hold.nbytes = float(self.state_bytes)
        n = int(np.count_nonzero(kind))
        charge(float(self.state_bytes) + 8.0 * n + beside, f"{self.what} (the page ids of a chunk of {len(addr):,} references)")
        ids = np.empty(n, np.int64)
        k, bad = _chunk_ids(addr, kind, self._table, self._shift, ids)
        if bad >= 0:
            raise PageNotSeen(int(bad), int(addr[bad]))
        self._taken(chunk, ids, self.readers - 1)
        return ids

    def _taken(self, chunk, ids, left: int) -> None:
        """Keep a chunk's ids for the ``left`` readers still to take them (none: let them go)."""
        self._ids_of = (chunk, ids, left) if left > 0 else None
        self.hold.nbytes = float(self.state_bytes)
