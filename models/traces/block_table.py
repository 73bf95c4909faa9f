"""Distinct (device, block) keys of a block trace taken chunk by chunk: compact ids and access counts.

:class:`BlockTable` numbers the fixed-size blocks a trace's requests touch ``0, 1, ...`` in order of first
access -- the ids :func:`~models.traces.blocks.split_blocks` gives the whole trace (per device) -- and counts
each block's accesses, over requests added in any number of chunks (:meth:`BlockTable.add`); a later pass maps
the requests to those ids (:meth:`BlockTable.ids`) without adding keys. Its state is an open-addressing hash
table (linear probing, Fibonacci hashing, as :mod:`models.traces.stream_stats`) of key, id and count per slot
(:data:`TABLE_BYTES_PER_SLOT`), at most :data:`~models.traces.stream_stats.MAX_LOAD` full: it doubles when the
next key would pass that load (charged to the run's memory budget first), so its memory follows the distinct
blocks, never the trace's length. Requests are expanded into blocks inside the compiled pass (no per-access
arrays); :meth:`BlockTable.ids` gives the ids of at most :data:`SLICE_ACCESSES` block accesses at a time.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numba import njit

from models.budget import BudgetExceeded, charge
from models.traces.blocks import MAX_REQUEST_BLOCKS, check_block_size
from models.traces.stream_stats import _BLOCK_BITS, _FIB, MAX_LOAD

__all__ = ["BlockTable", "SharesBlockTable", "TABLE_BYTES_PER_SLOT", "SLICE_ACCESSES"]

#: Memory of the table per slot [bytes]: key (int64), id and access count (int32 each; the counts become int64 --
#: 4 bytes more per slot -- once the table has counted 2**31 accesses); a distinct block costs this over the load,
#: 21-43 bytes.
TABLE_BYTES_PER_SLOT = 16
#: Largest int32 [-]: the most distinct blocks a table numbers, and the accesses it counts in int32.
_INT32_MAX = 2**31 - 1
#: Block accesses whose ids :meth:`BlockTable.ids` gives at once [accesses] (or one request): 16 MB of ids.
SLICE_ACCESSES = 2_000_000


@njit(cache=True, nogil=True)
def _insert(first, count, dev, i0, j0, hkeys, hids, hcount, shift, m, limit):  # pragma: no cover - compiled
    """Add the blocks of requests ``i0..`` (from block ``j0`` of request ``i0``) to the table, numbering new keys
    from ``m``; stop before a new key would make ``limit`` keys. Returns ``(i, j, m)``: where it stopped
    (``i == len(first)``: done) and the keys held."""
    mask = len(hkeys) - 1
    i, j = i0, j0
    while i < len(first):
        base = (np.int64(dev[i]) << _BLOCK_BITS) + first[i]
        while j < count[i]:
            x = base + j
            h = np.int64((np.uint64(x) * _FIB) >> np.uint64(shift))
            while hids[h] >= 0 and hkeys[h] != x:
                h = (h + 1) & mask
            if hids[h] < 0:
                if m >= limit:
                    return i, j, m
                hkeys[h] = x
                hids[h] = m
                m += 1
            hcount[h] += 1
            j += 1
        i += 1
        j = 0
    return i, j, m


@njit(cache=True, nogil=True)
def _lookup(first, count, dev, total, hkeys, hids, shift):  # pragma: no cover - compiled
    """Ids of the blocks of the requests, in access order (-1: a key never added)."""
    mask = len(hkeys) - 1
    out = np.empty(total, np.int64)
    k = 0
    for i in range(len(first)):
        base = (np.int64(dev[i]) << _BLOCK_BITS) + first[i]
        for j in range(count[i]):
            x = base + j
            h = np.int64((np.uint64(x) * _FIB) >> np.uint64(shift))
            while hids[h] >= 0 and hkeys[h] != x:
                h = (h + 1) & mask
            out[k] = hids[h]
            k += 1
    return out


@njit(cache=True, nogil=True)
def _rehash(hkeys, hids, hcount, nkeys, nids, ncount, shift):  # pragma: no cover - compiled
    mask = len(nkeys) - 1
    for s in range(len(hkeys)):
        if hids[s] >= 0:
            h = np.int64((np.uint64(hkeys[s]) * _FIB) >> np.uint64(shift))
            while nids[h] >= 0:
                h = (h + 1) & mask
            nkeys[h], nids[h], ncount[h] = hkeys[s], hids[s], hcount[s]


class BlockTable:
    """Compact ids and access counts of the (device, block) keys of requests added chunk by chunk.

    Parameters
    ----------
    block_size : int
        Block size [bytes], a power of two.
    max_request_blocks : int
        Most blocks one request may touch (:data:`~models.traces.blocks.MAX_REQUEST_BLOCKS`).
    what : str
        What the table serves, named in the memory budget's refusal.

    Examples
    --------
    >>> t = BlockTable(4096)
    >>> t.add([0, 6144], [4096, 4096], [0, 0]); t.add([4096, 0], [512, 512], [0, 1])
    >>> t.n_unique, t.n_accesses, sorted(t.counts.tolist())
    (4, 5, [1, 1, 1, 2])
    >>> t.ids([0, 6144, 4096, 0], [4096, 4096, 512, 512], [0, 0, 0, 1]).tolist()
    [0, 1, 2, 1, 3]
    """

    def __init__(self, block_size: int = 4096, *, max_request_blocks: int = MAX_REQUEST_BLOCKS,
                 what: str = "the per-block state"):
        self.bs = check_block_size(block_size)
        self.shift = self.bs.bit_length() - 1
        self.max_request_blocks = int(max_request_blocks)
        self.what = what
        self.n_unique = 0
        self.n_accesses = 0
        self._last_chunk = None
        self._refused: BudgetExceeded | None = None
        self._slots(1 << 10)

    def _slots(self, slots: int) -> None:
        """Make the table ``slots`` slots (a power of two), moving the keys held; charged first."""
        old = len(self._hkeys) if hasattr(self, "_hkeys") else 0
        per_slot = 12 + self._hcount.itemsize if hasattr(self, "_hcount") else TABLE_BYTES_PER_SLOT
        charge(per_slot * float(slots + old),
               f"{self.what} ({self.n_unique:,} distinct {self.bs}-byte blocks so far)")
        count_dtype = self._hcount.dtype if hasattr(self, "_hcount") else np.int32
        new = (np.zeros(slots, np.int64), np.full(slots, -1, np.int32), np.zeros(slots, count_dtype))
        shift = 64 - (slots.bit_length() - 1)
        if self.n_unique:
            _rehash(self._hkeys, self._hids, self._hcount, *new, shift)
        self._hkeys, self._hids, self._hcount = new
        self._shift = shift

    @property
    def state_bytes(self) -> int:
        """Memory of the table [bytes]."""
        return self._hkeys.nbytes + self._hids.nbytes + self._hcount.nbytes

    def _wide_counts(self) -> None:
        """Count in int64 from now on (charged first): the table is about to pass 2**31 accesses."""
        charge(4.0 * len(self._hkeys) + self.state_bytes, f"{self.what} (access counts past 2**31, in int64)")
        self._hcount = self._hcount.astype(np.int64)

    @property
    def counts(self) -> np.ndarray:
        """Accesses of each distinct block added, indexed by id."""
        used = self._hids >= 0
        out = np.zeros(self.n_unique, np.int64)
        out[self._hids[used]] = self._hcount[used]
        return out

    def _requests(self, offset_bytes, size_bytes, device):
        """First block, blocks touched and device of each request (checked: the key layout, the blocks per request)."""
        off = np.asarray(offset_bytes, np.int64)
        size = np.asarray(size_bytes, np.int64)
        dev = np.asarray(device, np.int64)
        first = off >> self.shift
        count = ((off + size - 1) >> self.shift) - first + 1
        if len(off):
            if int(count.max()) > self.max_request_blocks:
                i = int(np.argmax(count > self.max_request_blocks))
                raise ValueError(
                    f"a request ({int(size[i])} bytes at offset {int(off[i])}) touches {int(count[i])} {self.bs}-byte "
                    f"blocks, more than max_request_blocks={self.max_request_blocks} (the limit per request); check "
                    "the size unit, or use a larger block size (--block-size)")
            if int((first + count - 1).max()) >= 1 << _BLOCK_BITS or int(dev.min()) < 0 \
                    or int(dev.max()) >= 1 << (63 - _BLOCK_BITS):
                raise ValueError(f"a streamed trace needs block numbers below 2**{_BLOCK_BITS} and devices below "
                                 f"2**{63 - _BLOCK_BITS}")
        return np.ascontiguousarray(first), np.ascontiguousarray(count), np.ascontiguousarray(dev)

    def add(self, offset_bytes, size_bytes, device) -> None:
        """Add the blocks of the next requests (in trace order): new keys numbered, every access counted."""
        first, count, dev = self._requests(offset_bytes, size_bytes, device)
        if self._hcount.dtype == np.int32 and self.n_accesses + int(count.sum()) > _INT32_MAX:
            self._wide_counts()
        i, j = 0, 0
        while i < len(first):
            limit = min(int(MAX_LOAD * len(self._hkeys)), _INT32_MAX)
            i, j, self.n_unique = _insert(first, count, dev, i, j, self._hkeys, self._hids, self._hcount,
                                          self._shift, self.n_unique, limit)
            if i < len(first) and self.n_unique >= _INT32_MAX:
                raise ValueError(f"{self.what}: more than {_INT32_MAX:,} distinct {self.bs}-byte blocks (the ids are "
                                 "int32); use a larger block size (--block-size)")
            if i < len(first):  # the next new key would pass the load: double
                self._slots(2 * len(self._hkeys))
        self.n_accesses += int(count.sum())

    def add_chunk(self, chunk) -> None:
        """:meth:`add` the requests of ``chunk`` (a :class:`~models.planner.role_stream.Chunk`) unless this very chunk
        object was the last one added: streams that share the table (one per trace,
        :func:`models.planner.stream_plan.role_streams`) each hand it every chunk, and it is counted once. Once an add
        has run out of the memory budget part-way (some of its keys in), every later call raises that refusal: no
        sharer goes on with a table that holds part of a chunk."""
        if self._refused is not None:  # a sharer's add ran out of budget part-way: the table holds part of a chunk
            raise self._refused
        if chunk is self._last_chunk:
            return
        try:
            self.add(chunk["offset_bytes"], chunk["size_bytes"], chunk["device"])
        except BudgetExceeded as e:
            self._refused = e
            raise
        self._last_chunk = chunk

    def ids(self, offset_bytes, size_bytes, device) -> np.ndarray:
        """Ids of the blocks of requests whose keys were all added, in access order (at most
        :data:`SLICE_ACCESSES` accesses: :meth:`id_slices` for more)."""
        first, count, dev = self._requests(offset_bytes, size_bytes, device)
        return self._ids(first, count, dev)

    def _ids(self, first, count, dev) -> np.ndarray:
        out = _lookup(first, count, dev, int(count.sum()), self._hkeys, self._hids, self._shift)
        if len(out) and int(out.min()) < 0:
            raise ValueError("a block of the second pass was not seen in the first: the two passes differ")
        return out

    def id_slices(self, offset_bytes, size_bytes, device) -> Iterator[tuple[slice, np.ndarray]]:
        """``(requests, ids)`` for consecutive slices of the requests of at most :data:`SLICE_ACCESSES` block
        accesses each (or one request): bounded working memory whatever the request sizes."""
        first, count, dev = self._requests(offset_bytes, size_bytes, device)
        ends = np.cumsum(count)
        start, done = 0, 0
        while start < len(first):
            end = max(start + 1, int(np.searchsorted(ends, done + SLICE_ACCESSES, side="right")))
            sl = slice(start, end)
            yield sl, self._ids(first[sl], count[sl], dev[sl])
            done, start = int(ends[end - 1]), end


class SharesBlockTable:
    """A stream holding the trace's distinct blocks in ``self._table`` (a :class:`BlockTable`) that may share it with
    the trace's other streams (:func:`models.planner.stream_plan.role_streams`): the ``block_table`` property, set
    only before the first pass and only to a table of the same block size."""

    _table: BlockTable

    @property
    def block_table(self) -> BlockTable:
        """The trace's distinct blocks (may be shared with the trace's other streams)."""
        return self._table

    @block_table.setter
    def block_table(self, table: BlockTable) -> None:
        if self._table.n_unique or table.bs != self._table.bs:
            raise ValueError(f"{type(self).__name__}: the block table is shared before the first pass, of the same "
                             "block size")
        self._table = table
