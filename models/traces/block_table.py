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

A table given a memory ``share`` (:attr:`BlockTable.share`, set by the streams that hold it) keeps its state under
``share`` x the run's budget by falling back to a SHARDS spatial sample of the keys (Waldspurger et al., FAST 2015;
fixed-size SHARDS): when doubling would pass that cap, or the budget refuses it, the sampling rate halves and the
table keeps only the keys whose 53-bit hash (:func:`models.sim.sampling.hash53`, salt of seed 0) falls below
``rate * 2**53`` -- every access of a kept key is counted (their counts exact), their ids renumbered in order of
first access. Below :data:`MIN_SAMPLE_RATE` it refuses (:class:`~models.budget.BudgetExceeded`).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numba import njit

from models.budget import BudgetExceeded, Hold, budget_bytes, charge, format_bytes, how_to_raise
from models.sim.sampling import hash53, hash_salt, rate_threshold
from models.traces.blocks import MAX_REQUEST_BLOCKS, check_block_size
from models.traces.stream_stats import _BLOCK_BITS, _FIB, MAX_LOAD

__all__ = ["BlockTable", "SharesBlockTable", "TABLE_BYTES_PER_SLOT", "SLICE_ACCESSES", "MIN_SAMPLE_RATE",
           "SAMPLE_METHOD"]

#: Memory of the table per slot [bytes]: key (int64), id and access count (int32 each; the counts become int64 --
#: 4 bytes more per slot -- once the table has counted 2**31 accesses); a distinct block costs this over the load,
#: 21-43 bytes.
TABLE_BYTES_PER_SLOT = 16
#: Largest int32 [-]: the most distinct blocks a table numbers, and the accesses it counts in int32.
_INT32_MAX = 2**31 - 1
#: Block accesses whose ids :meth:`BlockTable.ids` gives at once [accesses] (or one request): 16 MB of ids.
SLICE_ACCESSES = 2_000_000
#: Lowest SHARDS sampling rate a table falls back to [-] (12 halvings, as the streamed statistics'
#: ``MAX_SAMPLE_HALVINGS``): below it the budget's refusal stands (a sample of 1 block in 4096 keeps too few
#: blocks of a small trace to say anything; a trace that needs less is tens of billions of distinct blocks).
MIN_SAMPLE_RATE = 2.0**-12
#: How a sampled table's answers are said (the plan's ``method`` column).
SAMPLE_METHOD = "SHARDS spatial sample of 4 KiB blocks"
#: Bytes per kept key of a downsampling's temporary copy [bytes]: key (int64), id and count (int32 each, the
#: count int64 once wide -- charged as 8), and the old-id -> new-id map (int32 per key held).
_FILTER_BYTES_PER_KEY = 24


@njit(cache=True, nogil=True)
def _insert(first, count, dev, i0, j0, hkeys, hids, hcount, shift, m, limit, sampled, salt,
            thresh):  # pragma: no cover - compiled
    """Add the blocks of requests ``i0..`` (from block ``j0`` of request ``i0``) to the table, numbering new keys
    from ``m``; stop before a new key would make ``limit`` keys. ``sampled``: only keys ``x`` with
    ``hash53(x, salt) < thresh`` are added and counted. Returns ``(i, j, m)``: where it stopped
    (``i == len(first)``: done) and the keys held."""
    mask = len(hkeys) - 1
    i, j = i0, j0
    while i < len(first):
        base = (np.int64(dev[i]) << _BLOCK_BITS) + first[i]
        while j < count[i]:
            x = base + j
            if sampled and hash53(np.uint64(x), salt) >= thresh:
                j += 1
                continue
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
def _lookup_sampled(first, count, dev, total, hkeys, hids, shift, salt, thresh):  # pragma: no cover - compiled
    """Ids of the sampled blocks of the requests, in access order (keys at or over the threshold skipped), and
    how many sampled keys were never added (the two passes differ when > 0). Exact table: rate 1's threshold,
    every key under it."""
    mask = len(hkeys) - 1
    out = np.empty(total, np.int64)
    k = 0
    bad = 0
    for i in range(len(first)):
        base = (np.int64(dev[i]) << _BLOCK_BITS) + first[i]
        for j in range(count[i]):
            x = base + j
            h = np.int64((np.uint64(x) * _FIB) >> np.uint64(shift))
            while hids[h] >= 0 and hkeys[h] != x:
                h = (h + 1) & mask
            if hids[h] >= 0:
                out[k] = hids[h]
                k += 1
            elif hash53(np.uint64(x), salt) < thresh:
                bad += 1
    return out[:k], bad


@njit(cache=True, nogil=True)
def _kept(hkeys, hids, hcount, n_ids, salt, thresh):  # pragma: no cover - compiled
    """The keys of the table with ``hash53(key, salt) < thresh``: ``(keys, new ids, counts)``, the new ids
    numbering the kept keys ``0..`` in the order of their old ids (first access)."""
    newid = np.full(n_ids, -1, np.int32)
    for s in range(len(hkeys)):
        if hids[s] >= 0 and hash53(np.uint64(hkeys[s]), salt) < thresh:
            newid[hids[s]] = 0
    k = 0
    for o in range(n_ids):
        if newid[o] == 0:
            newid[o] = k
            k += 1
    keys = np.empty(k, np.int64)
    ids = np.empty(k, np.int32)
    cnt = np.empty(k, hcount.dtype)
    q = 0
    for s in range(len(hkeys)):
        if hids[s] >= 0 and newid[hids[s]] >= 0:
            keys[q], ids[q], cnt[q] = hkeys[s], newid[hids[s]], hcount[s]
            q += 1
    return keys, ids, cnt


@njit(cache=True, nogil=True)
def _place(keys, ids, cnt, hkeys, hids, hcount, shift):  # pragma: no cover - compiled
    """Put the given keys, ids and counts into the (emptied) table."""
    mask = len(hkeys) - 1
    for q in range(len(keys)):
        h = np.int64((np.uint64(keys[q]) * _FIB) >> np.uint64(shift))
        while hids[h] >= 0:
            h = (h + 1) & mask
        hkeys[h], hids[h], hcount[h] = keys[q], ids[q], cnt[q]


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
        #: The table's memory [bytes], held once however many streams share the table
        #: (:func:`models.planner.stream_plan.others_state` sums the holds of the live streams' states).
        self.hold = Hold(what, 0.0)
        self.n_unique = 0
        self.n_accesses = 0
        self._last_chunk = None
        self._refused: BudgetExceeded | None = None
        #: Share of the run's budget the table (and what grows with its keys) may hold [-]; None: never samples.
        self.share: float | None = None
        #: Memory the table's holders will add per key held [bytes] (an LRU over the ids), counted in the cap.
        self.extra_bytes_per_key = 0
        #: SHARDS sampling rate [-] (1: exact, every key held).
        self.rate = 1.0
        self._cap_why = ""  # the cap that made the table sample (its first downsampling's)
        self._salt = hash_salt(0)
        self._thresh = rate_threshold(1.0)
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
        self.hold.nbytes = float(self.state_bytes)

    @property
    def what(self) -> str:
        """What the table serves, named in the memory budget's refusals (and its :attr:`hold`'s name)."""
        return self.hold.what

    @what.setter
    def what(self, text: str) -> None:
        self.hold.what = str(text)

    @property
    def state_bytes(self) -> int:
        """Memory of the table [bytes] (what :attr:`hold` holds)."""
        return self._hkeys.nbytes + self._hids.nbytes + self._hcount.nbytes

    @property
    def sampled(self) -> bool:
        """Whether the table holds a SHARDS sample of the keys (rate < 1) rather than all of them."""
        return self.rate < 1.0

    @property
    def sampled_accesses(self) -> int:
        """Accesses of the keys held [-]: ``n_accesses`` when exact, else those of the sampled keys."""
        return self.n_accesses if not self.sampled else int(self._hcount.sum())

    @property
    def footprint_blocks(self) -> float:
        """Distinct blocks [blocks]: ``n_unique`` when exact, else the sample's over the rate (SHARDS estimate)."""
        return float(self.n_unique) / self.rate

    def cap_bytes(self, budget: int | None = None) -> float:
        """The most the table and what grows with its keys may hold [bytes]: ``share`` x the run's budget (inf: no
        share, or no budget)."""
        budget = budget_bytes() if budget is None else budget
        return self.share * budget if self.share is not None and budget else float("inf")

    def held_bytes(self, n_keys: int | None = None, slots: int | None = None) -> float:
        """The table's memory with ``slots`` slots plus ``extra_bytes_per_key`` for ``n_keys`` keys [bytes]."""
        slots = len(self._hkeys) if slots is None else slots
        n_keys = self.n_unique if n_keys is None else n_keys
        return float((12 + self._hcount.itemsize) * slots) + float(self.extra_bytes_per_key) * n_keys

    def _grow(self) -> None:
        """Room for the next key: double the table, or -- a table with a share whose doubling would pass its cap,
        or that the budget refuses -- halve the sampling rate (:meth:`downsample`)."""
        slots = 2 * len(self._hkeys)
        budget = budget_bytes()
        cap = self.cap_bytes(budget)
        if self.held_bytes(self.n_unique + 1, slots) > cap:
            self.downsample(f"its share of the run's memory budget, {format_bytes(cap)}")
            return
        try:
            self._slots(slots)
        except BudgetExceeded as e:
            if self.share is None or not budget:
                raise
            self.downsample(f"what the run's budget allows beside the other roles' state ({e})")

    def fit(self) -> None:
        """Downsample until the table plus ``extra_bytes_per_key`` per key held fits its cap (before its holders
        allocate per-key state)."""
        cap = self.cap_bytes()
        while self.held_bytes() > cap:
            self.downsample(f"its share of the run's memory budget, {format_bytes(cap)}")

    def exact_bytes(self) -> float:
        """What the exact table (and ``extra_bytes_per_key`` per key) would hold for the estimated distinct blocks
        [bytes]: the slots of :data:`~models.traces.stream_stats.MAX_LOAD` at most full."""
        keys = self.footprint_blocks
        slots = 1 << max(10, int(np.ceil(np.log2(max(keys, 1.0) / MAX_LOAD))))
        return self.held_bytes(int(round(keys)), slots)

    @property
    def sample_why(self) -> str:
        """Why the table is sampled: what the exact state would need (estimated from the sample) against the cap
        that refused it; "" while exact."""
        if not self.sampled:
            return ""
        return (f"{self.what} would need about {format_bytes(self.exact_bytes())} exact "
                f"({self.footprint_blocks:,.0f} distinct {self.bs}-byte blocks estimated), more than {self._cap_why}")

    def downsample(self, why: str = "") -> None:
        """Halve the sampling rate: keep only the keys whose hash falls below the new threshold (their counts as they
        are: every access of a kept key was counted), renumbered ``0..`` in order of first access. ``why``: the cap
        that is passed (the first one kept for :attr:`sample_why`). BudgetExceeded below :data:`MIN_SAMPLE_RATE`."""
        rate = self.rate / 2
        if rate < MIN_SAMPLE_RATE:
            raise BudgetExceeded(f"{self.what} ({self.n_unique:,} distinct {self.bs}-byte blocks held at sampling rate "
                                 f"{self.rate:.3g}) passes {why or 'the budget'}, and a SHARDS sample below rate "
                                 f"{MIN_SAMPLE_RATE:.3g} (the lowest, MIN_SAMPLE_RATE) is refused; "
                                 f"{how_to_raise(self.held_bytes() * 2)}")
        charge(_FILTER_BYTES_PER_KEY * float(self.n_unique),
               f"{self.what} (the SHARDS sample's downsampling, {self.n_unique:,} keys held)")
        thresh = rate_threshold(rate)
        keys, ids, cnt = _kept(self._hkeys, self._hids, self._hcount, self.n_unique, self._salt, thresh)
        self._hkeys.fill(0)
        self._hids.fill(-1)
        self._hcount.fill(0)
        _place(keys, ids, cnt, self._hkeys, self._hids, self._hcount, self._shift)
        self.n_unique = len(keys)
        self.rate, self._thresh = rate, thresh
        if not self._cap_why:
            self._cap_why = why or "the run's memory budget"

    def _wide_counts(self) -> None:
        """Count in int64 from now on (charged first): the table is about to pass 2**31 accesses."""
        charge(4.0 * len(self._hkeys) + self.state_bytes, f"{self.what} (access counts past 2**31, in int64)")
        self._hcount = self._hcount.astype(np.int64)
        self.hold.nbytes = float(self.state_bytes)

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
                                          self._shift, self.n_unique, limit, self.sampled, self._salt, self._thresh)
            if i < len(first) and self.n_unique >= _INT32_MAX:
                raise ValueError(f"{self.what}: more than {_INT32_MAX:,} distinct {self.bs}-byte blocks (the ids are "
                                 "int32); use a larger block size (--block-size)")
            if i < len(first):  # the next new key would pass the load: double (or sample, with a share)
                self._grow()
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
        :data:`SLICE_ACCESSES` accesses: :meth:`id_slices` for more); a sampled table gives those of its sampled
        keys only (the others skipped)."""
        first, count, dev = self._requests(offset_bytes, size_bytes, device)
        return self._ids(first, count, dev)

    def _ids(self, first, count, dev) -> np.ndarray:
        # exact: the threshold is rate 1's (every key is under it), so a key never added is counted as bad too
        out, bad = _lookup_sampled(first, count, dev, int(count.sum()), self._hkeys, self._hids, self._shift,
                                   self._salt, self._thresh)
        if bad:
            raise ValueError("a block of the second pass was not seen in the first: the two passes differ")
        return out

    def id_slices(self, offset_bytes, size_bytes, device) -> Iterator[tuple[slice, np.ndarray]]:
        """``(requests, ids)`` for consecutive slices of the requests of at most :data:`SLICE_ACCESSES` block
        accesses each (or one request): bounded working memory whatever the request sizes. Exact table: one id per
        block access of the slice; sampled: those of its sampled keys only."""
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
    #: Memory this stream adds per key of the table [bytes] (counted in the table's cap).
    extra_bytes_per_key = 0

    @property
    def holds(self) -> tuple[Hold, ...]:
        """The holds of the state this stream uses [bytes]: the block table's own (one hold, however many streams share
        the table: none counts it again) and this stream's (:meth:`_own_holds`)."""
        return (self._table.hold, *self._own_holds())

    def _own_holds(self) -> tuple[Hold, ...]:
        """The holds of this stream's state beside the table (none here)."""
        return ()

    @property
    def block_table(self) -> BlockTable:
        """The trace's distinct blocks (may be shared with the trace's other streams)."""
        return self._table

    @block_table.setter
    def block_table(self, table: BlockTable) -> None:
        if self._table.n_unique or table.bs != self._table.bs:
            raise ValueError(f"{type(self).__name__}: the block table is shared before the first pass, of the same "
                             "block size")
        table.extra_bytes_per_key = max(table.extra_bytes_per_key, self.extra_bytes_per_key)
        if table.share is None or (self._table.share is not None and self._table.share < table.share):
            table.share = self._table.share
        self._table = table

    def _own_table(self, table: BlockTable) -> None:
        """Hold ``table`` (made by the constructor): a share of 1 (it samples rather than pass the budget), this
        stream's per-key memory counted."""
        table.share = 1.0
        table.extra_bytes_per_key = max(table.extra_bytes_per_key, self.extra_bytes_per_key)
        self._table = table

    @property
    def state_share(self) -> float:
        """Share of the run's memory budget the table (and this stream's per-block state) may hold [-], in (0, 1]."""
        return 1.0 if self._table.share is None else self._table.share

    @state_share.setter
    def state_share(self, share: float) -> None:
        share = float(share)
        if not 0 < share <= 1:
            raise ValueError(f"state_share must be in (0, 1], got {share!r}")
        self._table.share = share
