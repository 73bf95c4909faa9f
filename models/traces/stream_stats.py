"""Trace statistics over a stream of request blocks, in memory bounded by the distinct blocks.

:class:`StatsStream` takes a block trace's requests block by block (:meth:`StatsStream.add`) and
gives the same :class:`~models.traces.stats.TraceStats` as :func:`~models.traces.stats.trace_stats`
over the whole trace -- exactly, whatever the block boundaries (``tests/models/traces`` checks it
over random block sizes). Its state is, per distinct block: the key, the index and time of its last
access and its access count (32 bytes per slot of an open-addressing hash table at most 3/4 full, carried
across blocks by a numba pass in access order); and the distinct values of the request sizes, reuse
distances and reuse times with their counts (the exact percentiles). When those value tables
would pass ``max_value_entries`` the percentiles of that statistic switch to a histogram of
:data:`SIGNIFICANT_BITS` significant bits (relative error of a percentile < 2**-SIGNIFICANT_BITS),
and :attr:`~models.traces.stats.TraceStats.percentiles` says so; counts, means, the footprint and
the histograms stay exact.

:func:`stream_trace_stats` reads a trace file this way (:mod:`models.traces.chunks`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from numba import njit

from models.budget import CLI_OPTION, ENV_VAR, BudgetExceeded, charge, reserve
from models.traces.blocks import MAX_REQUEST_BLOCKS, check_block_size
from models.traces.chunks import chunk_sink
from models.traces.exact import int_sum as _int_sum
from models.traces.exact import percentile_of_counts
from models.traces.extents import MIN_MEAN_BLOCKS
from models.traces.stats import TraceStats

__all__ = ["StatsStream", "ChunkBatches", "ValueCounts", "LargeExtents", "stream_trace_stats", "percentile_of_counts",
           "MAX_VALUE_ENTRIES", "SIGNIFICANT_BITS", "MAX_SAMPLE_HALVINGS", "sampling_note"]

#: Most distinct values a statistic's exact percentile table may hold before it becomes a histogram
#: [entries, 16 bytes each: 256 MiB]. An input limit of memory, not a model input.
MAX_VALUE_ENTRIES = 16 << 20
#: Significant bits kept per value once a table becomes a histogram [bits]: percentile error < 2**-12.
SIGNIFICANT_BITS = 12
#: Requests gathered from a reader's blocks before they are added (:meth:`StatsStream.add_chunk`) [requests]:
#: ~15 MB of columns, fewer passes over the per-block state.
BATCH_REQUESTS = 500_000
#: Block accesses expanded at once (:meth:`StatsStream.add`; requests are taken in slices of at most this many
#: block accesses, or one request) [accesses]: bounds the pass's working arrays whatever the request sizes.
SLICE_ACCESSES = 2_000_000
#: Memory of the state per hash-table slot [bytes]: key, last index, last time, count (4 x int64).
STATE_BYTES_PER_BLOCK = 32
#: Most distinct blocks per slot of the state's hash table before it doubles [-]: open addressing with linear
#: probing stays a few probes per access; a block costs STATE_BYTES_PER_BLOCK / load, 43-85 bytes.
MAX_LOAD = 0.75
#: Working memory of a pass per block access [bytes]: ~8 int64 arrays (request index, starts, keys, times, access
#: indices, the sample's mask, reuse distances and times) -- an estimate from the code, charged before the pass.
PASS_BYTES_PER_ACCESS = 64
#: Most times :func:`stream_trace_stats` halves its sampling rate and reads the source again when the sampled
#: state still outgrows the memory budget [times]: the rate falls to at least 2**-12 of the first estimate.
MAX_SAMPLE_HALVINGS = 12
#: Bits of the block number in a (device, block) key [bits]: blocks below 2**47 and devices below 2**16.
_BLOCK_BITS = 47


class LargeExtents(Exception):
    """Requests of :data:`~models.traces.extents.MIN_MEAN_BLOCKS` blocks or more on average: the statistics are
    computed per extent from the whole trace (:func:`models.traces.stats.trace_stats`), not streamed per block."""


class ValueCounts:
    """Distinct int64 values with their counts, merged block by block (exact percentiles); past ``max_entries``
    the values are rounded to :data:`SIGNIFICANT_BITS` significant bits (a histogram, ``exact`` False).

    New values wait in a buffer merged once it holds as many values as the table (each value is sorted
    O(log) times in all, not once per block); reading ``values``, ``counts`` or ``exact`` merges it.
    """

    def __init__(self, max_entries: int = MAX_VALUE_ENTRIES):
        self._values = np.zeros(0, np.int64)
        self._counts = np.zeros(0, np.int64)
        self.max_entries = int(max_entries)
        self._exact = True
        self._pending: list[np.ndarray] = []
        self._pending_n = 0

    def add(self, x: np.ndarray) -> None:
        if not len(x):
            return
        self._pending.append(np.asarray(x, np.int64))
        self._pending_n += len(x)
        if self._pending_n >= max(len(self._values), 1 << 20):
            self._merge()

    def _merge(self) -> None:
        if not self._pending:
            return
        x = np.concatenate(self._pending)
        self._pending, self._pending_n = [], 0
        if not self._exact:
            x = _round_bits(x)
        u, c = np.unique(x, return_counts=True)
        del x
        if len(self._values):
            u, inv = np.unique(np.concatenate((self._values, u)), return_inverse=True)
            c = np.bincount(inv, weights=np.concatenate((self._counts, c)), minlength=len(u)).astype(np.int64)
        self._values, self._counts = u, c
        if self._exact and len(self._values) > self.max_entries:
            self._exact = False
            r = _round_bits(self._values)
            self._values, inv = np.unique(r, return_inverse=True)
            self._counts = np.bincount(inv, weights=self._counts, minlength=len(self._values)).astype(np.int64)

    @property
    def values(self) -> np.ndarray:
        self._merge()
        return self._values

    @property
    def counts(self) -> np.ndarray:
        self._merge()
        return self._counts

    @property
    def exact(self) -> bool:
        self._merge()
        return self._exact

    @property
    def entries(self) -> int:
        """Values held: the table and the buffer [entries]."""
        return len(self._values) + self._pending_n

    def percentile(self, q: float) -> float:
        return percentile_of_counts(self.values, self.counts, q)


def _round_bits(x: np.ndarray) -> np.ndarray:
    """``x`` (>= 0) with all but the top :data:`SIGNIFICANT_BITS` bits cleared."""
    x = np.asarray(x, np.int64)
    drop = np.maximum(np.floor(np.log2(np.maximum(x, 1))).astype(np.int64) + 1 - SIGNIFICANT_BITS, 0)
    return (x >> drop) << drop


@njit(cache=True, nogil=True)
def _reuse_stream(codes, acc_time, last, last_t, acc_index):  # pragma: no cover - compiled
    """Distance [accesses] and time [ns] since the previous access of each code; ``last``/``last_t`` (per code, -1:
    never) start from the state and end as the new state; ``acc_index`` is the global index of each access."""
    d = np.empty(len(codes), np.int64)
    t = np.empty(len(codes), np.int64)
    k = 0
    for i in range(len(codes)):
        c = codes[i]
        a = acc_index[i]
        if last[c] >= 0:
            d[k] = a - last[c]
            t[k] = acc_time[i] - last_t[c]
            k += 1
        last[c] = a
        last_t[c] = acc_time[i]
    return d[:k].copy(), t[:k].copy()


#: Fibonacci hashing multiplier (2**64 / golden ratio, odd): the slot of a key in the state's hash table.
_FIB = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True)
def _hash_pass(key, acc_time, acc_index, hkeys, hlast, hlast_t, hcount, shift, n_keys):  # pragma: no cover
    """Distance [accesses] and time [ns] since the previous access of each key's block, in access order, with the
    per-block state in the open-addressing table ``hkeys/hlast/hlast_t/hcount`` (count 0: empty slot) updated;
    returns the distances, the times and the new number of distinct keys."""
    mask = len(hkeys) - 1
    d = np.empty(len(key), np.int64)
    t = np.empty(len(key), np.int64)
    k = 0
    for i in range(len(key)):
        x = key[i]
        h = np.int64((np.uint64(x) * _FIB) >> np.uint64(shift))
        while True:
            if hcount[h] == 0:
                hkeys[h] = x
                hcount[h] = 1
                n_keys += 1
                break
            if hkeys[h] == x:
                d[k] = acc_index[i] - hlast[h]
                t[k] = acc_time[i] - hlast_t[h]
                k += 1
                hcount[h] += 1
                break
            h = (h + 1) & mask
        hlast[h] = acc_index[i]
        hlast_t[h] = acc_time[i]
    return d[:k].copy(), t[:k].copy(), n_keys


@njit(cache=True, nogil=True)
def _rehash(hkeys, hlast, hlast_t, hcount, nkeys, nlast, nlast_t, ncount, shift):  # pragma: no cover - compiled
    mask = len(nkeys) - 1
    for j in range(len(hkeys)):
        if hcount[j] > 0:
            h = np.int64((np.uint64(hkeys[j]) * _FIB) >> np.uint64(shift))
            while ncount[h] > 0:
                h = (h + 1) & mask
            nkeys[h], nlast[h], nlast_t[h], ncount[h] = hkeys[j], hlast[j], hlast_t[j], hcount[j]


def _mix64(key: np.ndarray) -> np.ndarray:
    """MurmurHash3's 64-bit finaliser of ``key`` (uint64): a fixed, well-spread hash of each (device, block) key,
    the same in every run, chunk and process (the spatial sample of :class:`StatsStream`)."""
    x = key.astype(np.uint64)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xFF51AFD7ED558CCD)
    x ^= x >> np.uint64(33)
    x *= np.uint64(0xC4CEB9FE1A85EC53)
    x ^= x >> np.uint64(33)
    return x


class ChunkBatches:
    """What a streamed analysis does with a reader's block columns (the consumer of
    :func:`models.traces.chunks.chunk_sink`): :meth:`add_chunk` gathers the columns named in ``_BATCH_COLUMNS`` up to
    :data:`BATCH_REQUESTS` requests (fewer passes over the state), then :meth:`flush` hands them to ``self.add``, in
    that order. The subclass sets ``self._batch = []``, ``self._batch_n = 0`` and ``self.progress`` (the input read
    before the current block first); ``self._batch_progress0`` is where the batch started."""

    _BATCH_COLUMNS: tuple[str, ...] = ()

    def add_chunk(self, cols: dict) -> None:
        """:meth:`add` of a reader's block columns, gathered first; call :meth:`flush` (or the result) at the end."""
        if not self._batch_n:  # the input read before this block: where the batch starts
            self._batch_progress0 = self.progress[0]
        self._batch.append([cols[k] for k in self._BATCH_COLUMNS])
        self._batch_n += len(cols[self._BATCH_COLUMNS[0]])
        if self._batch_n >= BATCH_REQUESTS:
            self.flush()

    def flush(self) -> None:
        """Add the gathered blocks of :meth:`add_chunk`."""
        if self._batch:
            cols = [np.concatenate(c) for c in zip(*self._batch)]
            self._batch, self._batch_n = [], 0
            self.add(*cols)


class StatsStream(ChunkBatches):
    """The statistics of :func:`~models.traces.stats.trace_stats` accumulated over blocks of requests.

    Parameters
    ----------
    block_size : int
        Block size [bytes], a power of two.
    max_value_entries : int
        Size of each exact percentile table (:data:`MAX_VALUE_ENTRIES`) [entries].
    max_request_blocks : int
        Most blocks one request may touch (:data:`~models.traces.blocks.MAX_REQUEST_BLOCKS`).
    sample_rate : float
        Share of the (device, block) keys whose state is kept (0 < rate <= 1; 1: exact). Below 1 the per-block
        statistics are estimated from the blocks whose hash falls under the rate (spatial sampling as in SHARDS,
        Waldspurger et al., FAST 2015): every access of a sampled block is seen, so its reuse distances [accesses]
        and times are exact and the sampled reuses are a uniform sample of the blocks' reuses; the footprint and
        the per-block counts are the sample's divided by the rate. The per-request statistics stay exact.
    """

    _BATCH_COLUMNS = ("time_ns", "is_write", "offset_bytes", "size_bytes", "device")

    def __init__(self, block_size: int = 4096, *, max_value_entries: int = MAX_VALUE_ENTRIES,
                 max_request_blocks: int = MAX_REQUEST_BLOCKS, sample_rate: float = 1.0):
        if not 0 < sample_rate <= 1:
            raise ValueError(f"sample_rate must be in (0, 1], got {sample_rate!r}")
        self.sample_rate = float(sample_rate)
        self.state_full = False  # the budget refused the per-block state's growth
        self.progress = [0.0, 0.0]  # share of the input read before the current block and after it (if known)
        self._batch_progress0 = 0.0
        self._add_acc0, self._add_total = 0, 1.0

        self._threshold = None if sample_rate == 1 else np.uint64(min(int(sample_rate * 2.0**64), 2**64 - 1))
        self.bs = check_block_size(block_size)
        self.shift = self.bs.bit_length() - 1
        self.max_request_blocks = int(max_request_blocks)
        self.n = self.writes = self.bytes_written = self.bytes_total = self.n_acc = 0
        self.lbn_sum = self.seq = 0
        self.size_min = self.size_max = self.t_min = self.t_max = None
        self.prev_off = self.prev_size = None
        self.size_counts = ValueCounts(max_value_entries)
        self.dist = ValueCounts(max_value_entries)
        self.rtime = ValueCounts(max_value_entries)
        self.dist_sum = self.rtime_sum = 0
        self.size_hist = np.zeros(16, np.int64)
        # per distinct (device, block) key, in an open-addressing hash table (count 0: empty slot): the key, the
        # global index and the time [ns] of its last access, its accesses
        self.n_keys = 0
        #: The per-block table held against the run's memory budget while a stream reads
        #: (:func:`models.budget.reserve`, set by :func:`stream_trace_stats`): the reader's steps count it.
        self.hold = None
        self._table(1 << 10)
        self._batch: list = []
        self._batch_n = 0

    def share_read(self) -> float:
        """Share of the input whose accesses were taken when the state was last charged (from :attr:`progress`,
        interpolated inside the current batch by its block accesses done) [-]."""
        within = min(max((self.n_acc - self._add_acc0) / max(self._add_total, 1.0), 0.0), 1.0)
        p0 = self._batch_progress0
        return p0 + (self.progress[1] - p0) * within

    def _table(self, slots: int) -> None:
        """Make the state's hash table ``slots`` slots (a power of two), moving the keys held."""
        new = [np.zeros(slots, np.int64) for _ in range(4)]
        shift = 64 - (slots.bit_length() - 1)
        if self.n_keys:
            _rehash(self._hkeys, self._hlast, self._hlast_t, self._hcount, *new, shift)
        self._hkeys, self._hlast, self._hlast_t, self._hcount = new
        self._shift = shift

    def _held_table(self) -> None:
        """The stream's hold (:attr:`hold`) follows the table's size (its growth was charged with the pass)."""
        if self.hold is not None:
            self.hold.nbytes = float(STATE_BYTES_PER_BLOCK * len(self._hkeys))

    @property
    def count(self) -> np.ndarray:
        """Accesses of each distinct block seen (no order)."""
        return self._hcount[self._hcount > 0]

    def add(self, time_ns, is_write, offset_bytes, size_bytes, device) -> None:
        """Take the next requests (in trace order; zero-size requests already dropped)."""
        off = np.asarray(offset_bytes, np.int64)
        size = np.asarray(size_bytes, np.int64)
        t = np.asarray(time_ns, np.int64)
        w = np.asarray(is_write, bool)
        m = len(off)
        if not m:
            return
        count = ((off + size - 1) >> self.shift) - (off >> self.shift) + 1
        ends = np.cumsum(count.astype(np.float64))  # float: no int64 wrap on absurd sizes
        if ends[-1] >= MIN_MEAN_BLOCKS * m:  # large requests: expanding them per block costs what extents do not
            raise LargeExtents(f"{m:,} requests touch {ends[-1]:.3g} {self.bs}-byte blocks")
        self._requests(t, w, off, size)
        dev = np.asarray(device, np.int64)
        base, start, done = self.n - m, 0, 0.0
        self._add_acc0, self._add_total = self.n_acc, float(ends[-1])
        while start < m:  # slices of at most SLICE_ACCESSES block accesses (or one request): bounded passes
            end = max(start + 1, int(np.searchsorted(ends, done + SLICE_ACCESSES, side="right")))
            sl = slice(start, end)
            self._blocks(t[sl], off[sl], size[sl], dev[sl], base + start)
            done, start = float(ends[end - 1]), end


    def _requests(self, t, w, off, size) -> None:
        m = len(off)
        self.n += m
        self.writes += int(w.sum())
        self.bytes_total += _int_sum(size)
        self.bytes_written += _int_sum(size[w])
        lo, hi = int(size.min()), int(size.max())
        self.size_min = lo if self.size_min is None else min(self.size_min, lo)
        self.size_max = hi if self.size_max is None else max(self.size_max, hi)
        tl, th = int(t.min()), int(t.max())
        self.t_min = tl if self.t_min is None else min(self.t_min, tl)
        self.t_max = th if self.t_max is None else max(self.t_max, th)
        self.size_counts.add(size)
        edges = 512 * 2 ** np.arange(0, 16)
        self.size_hist += np.histogram(size, bins=np.concatenate((edges, [np.iinfo(np.int64).max])))[0]
        sec = off // 512
        if self.prev_off is not None:
            sec_all = np.concatenate(([self.prev_off // 512], sec))
            off_all, size_all = np.concatenate(([self.prev_off], off)), np.concatenate(([self.prev_size], size))
        else:
            sec_all, off_all, size_all = sec, off, size
        self.lbn_sum += _int_sum(np.abs(np.diff(sec_all)))
        self.seq += int((off_all[1:] == off_all[:-1] + size_all[:-1]).sum())
        self.prev_off, self.prev_size = int(off[-1]), int(size[-1])

    def _blocks(self, t, off, size, dev, index0: int) -> None:
        """Expand requests ``index0, index0 + 1, ...`` into block accesses and carry the per-block state;
        the state's growth and the pass's arrays are charged to the run's memory budget first."""
        first = off >> self.shift
        count = ((off + size - 1) >> self.shift) - first + 1
        if int(count.max()) > self.max_request_blocks:
            i = int(np.argmax(count > self.max_request_blocks))
            raise ValueError(
                f"request {index0 + i} ({int(size[i])} bytes at offset {int(off[i])}) touches "
                f"{int(count[i])} {self.bs}-byte blocks, more than max_request_blocks={self.max_request_blocks} "
                "(the limit per request); check the size unit, or use a larger block size (--block-size)")
        top = int((first + count - 1).max())
        if top >= 1 << _BLOCK_BITS or int(dev.min()) < 0 or int(dev.max()) >= 1 << (63 - _BLOCK_BITS):
            raise ValueError(f"streaming statistics need block numbers below 2**{_BLOCK_BITS} and devices below "
                             f"2**{63 - _BLOCK_BITS}; read the trace whole (--max-requests) instead")
        total = int(count.sum())
        slots = len(self._hkeys)
        while self.n_keys + total * self.sample_rate > MAX_LOAD * slots:  # room for every sampled access being new
            slots *= 2
        grow = slots if slots > len(self._hkeys) else 0
        held = self.hold.nbytes if self.hold is not None else 0  # the present table, already held for the stream
        try:  # the table after growing (and the old one while its keys move) and the pass
            charge(STATE_BYTES_PER_BLOCK * (len(self._hkeys) + grow) + PASS_BYTES_PER_ACCESS * total - held,
                   f"the trace statistics' per-block state ({self.n_keys:,} distinct {self.bs}-byte blocks so far, "
                   f"{total:,} block accesses next)")
        except BudgetExceeded:
            self.state_full = self.n_keys > 0  # a sample of the blocks would help (not a pass too large alone)
            raise
        if grow:
            self._table(grow)
            self._held_table()
        req = np.repeat(np.arange(len(off)), count)
        starts = np.cumsum(count) - count
        key = (dev << _BLOCK_BITS)[req] + first[req] + (np.arange(total) - starts[req])
        acc_time = t[req]
        del req
        acc_index = self.n_acc + np.arange(total, dtype=np.int64)
        if self._threshold is not None:  # the spatial sample: only the blocks whose hash is under the rate
            keep = _mix64(key) < self._threshold
            key, acc_time, acc_index = key[keep], acc_time[keep], acc_index[keep]
            del keep
        if self.n_keys + len(key) > MAX_LOAD * len(self._hkeys):  # more sampled than the rate let expect: room first
            slots = len(self._hkeys)
            while self.n_keys + len(key) > MAX_LOAD * slots:
                slots *= 2
            self._table(slots)
            self._held_table()
        d, dt, self.n_keys = _hash_pass(key, acc_time, acc_index, self._hkeys, self._hlast, self._hlast_t,
                                        self._hcount, self._shift, self.n_keys)
        del key, acc_time, acc_index
        self.n_acc += total
        self.dist.add(d)
        self.rtime.add(dt)
        self.dist_sum += _int_sum(d)
        self.rtime_sum += _int_sum(dt)

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]: per distinct block and per distinct (or buffered) value."""
        vc = (self.size_counts, self.dist, self.rtime)
        return STATE_BYTES_PER_BLOCK * len(self._hkeys) + sum(16 * v.entries for v in vc)

    def result(self, name: str, *, op_known: bool = True):
        """The :class:`~models.traces.stats.TraceStats` of every request added."""
        self.flush()
        n, bs, rate = self.n, self.bs, self.sample_rate
        sampled_reuses = int(self.dist.counts.sum())
        count = self.count
        hist = np.bincount(count) if len(count) else np.zeros(0, np.int64)
        k = np.flatnonzero(hist)
        n_sampled = self.n_keys
        reuse_hist = pd.DataFrame({"accesses": k.astype(np.int64), "blocks": _scaled(hist[k], rate),
                                   "share_blocks": hist[k] / n_sampled if n_sampled else np.zeros(0)})
        n_unique = int(_scaled(n_sampled, rate))
        reuses = sampled_reuses if rate == 1 else max(self.n_acc - n_unique, 0)
        edges = 512 * 2 ** np.arange(0, 16)
        size_hist = pd.DataFrame({"size_from_bytes": edges, "size_to_bytes": np.concatenate((edges[1:], [np.nan])),
                                  "requests": self.size_hist.copy()})
        approx = [label for label, v in (("request size", self.size_counts), ("reuse distance", self.dist),
                                         ("reuse time", self.rtime)) if not v.exact]
        method = "exact" if not approx else (
            f"{', '.join(approx)} percentiles from a histogram of {SIGNIFICANT_BITS} significant bits (relative "
            f"error < 2**-{SIGNIFICANT_BITS}): more than {self.dist.max_entries:,} distinct values")
        if rate < 1:
            method = (f"sampled: {sampling_note(rate)}" + ("" if method == "exact" else f"; {method}"))
        nan = float("nan")
        return TraceStats(
            name=name, block_size=bs, requests=n,
            reads=n - self.writes if op_known else None, writes=self.writes if op_known else None,
            write_fraction=(self.writes / n if n else nan) if op_known else None,
            bytes_read=self.bytes_total - self.bytes_written if op_known else None,
            bytes_written=self.bytes_written if op_known else None,
            block_accesses=self.n_acc, footprint_blocks=n_unique, footprint_bytes=n_unique * bs,
            size_mean_bytes=self.bytes_total / n if n else nan, size_min_bytes=self.size_min or 0,
            size_p50_bytes=self.size_counts.percentile(50), size_p90_bytes=self.size_counts.percentile(90),
            size_p99_bytes=self.size_counts.percentile(99), size_max_bytes=self.size_max or 0,
            duration_ns=(self.t_max - self.t_min) if n else 0,
            mean_lbn_distance_sectors=self.lbn_sum / (n - 1) if n > 1 else nan,
            sequential_fraction=self.seq / (n - 1) if n > 1 else nan,
            blocks_accessed_once=int(_scaled(int((count == 1).sum()), rate)),
            mean_accesses_per_block=self.n_acc / n_unique if n_unique else nan,
            reuses=reuses,
            reuse_distance_mean_accesses=self.dist_sum / sampled_reuses if sampled_reuses else nan,
            reuse_distance_p50_accesses=self.dist.percentile(50), reuse_distance_p90_accesses=self.dist.percentile(90),
            reuse_time_mean_ns=self.rtime_sum / sampled_reuses if sampled_reuses else nan,
            reuse_time_p50_ns=self.rtime.percentile(50),
            reuse_count_hist=reuse_hist, size_hist=size_hist, operation="read/write" if op_known else "unknown",
            percentiles=method,
        )


def _scaled(x, rate: float):
    """Counts of the sample scaled to the whole trace (rounded to whole blocks); ``x`` itself when exact."""
    if rate == 1:
        return np.asarray(x, np.int64) if np.ndim(x) else x
    return np.rint(np.asarray(x, np.float64) / rate).astype(np.int64)


def sampling_note(rate: float) -> str:
    """How a sampled result says what it is (method and rate)."""
    return (f"per-block statistics (footprint, blocks accessed once, reuse counts, reuse distance and time) "
            f"estimated from a spatial hash sample of the blocks at rate {rate:.6g} (1 in {1 / rate:,.0f}; SHARDS, "
            f"Waldspurger et al., FAST 2015), because the exact per-block state needs more memory than the run's "
            f"budget ({CLI_OPTION}, or the {ENV_VAR} environment variable); per-request statistics exact")


def stream_trace_stats(src, block_size: int = 4096, *, format: str = "auto", progress=None,
                       max_requests: int | None = None, max_value_entries: int = MAX_VALUE_ENTRIES,
                       on_requests=None, sample_rate: float | None = None, **options):
    """:class:`~models.traces.stats.TraceStats` of a block trace file read in blocks (see the module docstring).

    Returns ``(stats, meta)``: ``meta`` is the reader's metadata (``format``, ``source``, ...); ``stats`` is None
    for a memory-reference trace (the memory formats are not streamed: read it with :func:`models.traces.load`).
    ``on_requests(n)`` is told the requests of each block (progress).

    ``sample_rate`` None (default): exact while the per-block state fits the run's memory budget
    (:mod:`models.budget`); when it does not, the source is read again with the per-block statistics sampled
    (:class:`StatsStream` ``sample_rate``) at a power-of-two rate of about a quarter of the share of the
    input read when the budget ran out (the distinct blocks grow at most in proportion to the input; the share
    inside a block interpolated by its block accesses done), halved again if the
    sample outgrows it too (at most :data:`MAX_SAMPLE_HALVINGS` times); the result's ``percentiles`` names
    the method and the rate. A number: that rate from the start (1: exact, or the budget's refusal).
    """
    rate = 1.0 if sample_rate is None else float(sample_rate)
    for attempt in range(MAX_SAMPLE_HALVINGS + 1):
        acc = StatsStream(block_size, max_value_entries=max_value_entries, sample_rate=rate)

        def told(x, acc=acc):
            if x <= 1.0:  # a fraction of the input (its size known); else bytes
                acc.progress = [acc.progress[1], x]
            if progress is not None:
                progress(x)

        try:
            return _stream_once(acc, src, format, told, max_requests, on_requests, options)
        except BudgetExceeded:
            if sample_rate is not None or not acc.state_full or attempt == MAX_SAMPLE_HALVINGS \
                    or not _reopenable(src):
                raise
            frac = acc.share_read() if acc.progress[1] > 0 else 1.0
            rate = min(rate / 2, 2.0 ** math.floor(math.log2(max(frac * rate / 4, 2.0 ** -30))))
    raise AssertionError("unreachable")  # pragma: no cover


def _reopenable(src) -> bool:
    """A source read again from its start: a path, bytes, or a seekable file object."""
    if isinstance(src, (str, bytes, bytearray, memoryview)) or hasattr(src, "__fspath__"):
        return True
    try:
        return bool(src.seekable())
    except (AttributeError, OSError, ValueError):
        return False


def _stream_once(acc: StatsStream, src, format, progress, max_requests, on_requests, options):
    from models.traces.core import MemTrace
    from models.traces.readers import read_trace

    def take(cols: dict) -> None:
        acc.add_chunk(cols)
        if on_requests is not None:
            on_requests(len(cols["time_ns"]))

    with reserve(STATE_BYTES_PER_BLOCK * len(acc._hkeys), "the trace statistics' per-block state") as hold:
        acc.hold = hold
        try:
            with chunk_sink(take):
                empty = read_trace(src, format, progress=progress, max_requests=max_requests, **options)
        finally:
            acc.hold = None
    if isinstance(empty, MemTrace):
        return None, dict(empty.meta)
    return acc.result(empty.name, op_known=empty.op_known), dict(empty.meta)
