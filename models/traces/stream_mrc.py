"""The LRU hit-ratio curve of a block trace over a stream of request blocks, in memory bounded by the distinct blocks.

:class:`LruStream` takes a block trace's requests block by block (:meth:`LruStream.add`, or
:meth:`LruStream.add_chunk` as the consumer of :func:`models.traces.chunks.chunk_sink`), splits them into
``block_size`` blocks and counts the LRU stack distance of every block access (Mattson et al. 1970) with its
state carried across blocks:

- an open-addressing hash table (linear probing, at most :data:`~models.traces.stream_stats.MAX_LOAD` full)
  from each distinct (device, block) key to the position of its last access;
- a mark per distinct block at that position in a bit set over a window of access positions, with a Fenwick
  tree over the mark counts of its completed 64-bit words (as :mod:`models.sim.stack_distance`). The window
  is compacted when it fills: the marks (one per distinct block) are renumbered ``0..M-1`` in order, which
  keeps every stack distance, and the window becomes at least twice the marks -- so it is O(distinct), not
  O(accesses);
- the histograms of stack distances and of their bytes (int64, one bin per distinct block).

Per distinct block: 16 bytes per table slot at 3/8-3/4 load (21-43 bytes), 16-32 bytes of histograms and
under 1 byte of window: :data:`STATE_BYTES_PER_BLOCK` at most (measured in ``bench/bench_mrc_stream.py``).
Every growth is charged to the run's memory budget (:mod:`models.budget`) before it is allocated.

The curve (:meth:`LruStream.curve`) is :func:`models.sim.stack_distance.hit_ratio_curve` of the split trace
(:func:`models.traces.blocks.split_blocks`, weights :func:`models.sim.primitives.access_bytes`) exactly,
whatever the block boundaries (``tests/models/traces/test_traces_stream_mrc.py``): the distances are the same
integers, the byte counts whole numbers summed exactly in int64 (the in-memory float sums are exact below
2**53 bytes).

``sample_rate < 1``: SHARDS (Waldspurger et al., FAST 2015) over the stream -- only the blocks whose 53-bit
hash (:func:`models.sim.sampling.hash53` of the (device, block) key, salted by ``seed``) falls under
``rate * 2**53`` are kept, so the state is that of the sample; the curve is estimated as
:func:`models.sim.shards.shards_mrc` does at a fixed rate (each sampled distance ``d`` spread over the true
distances ``[d/R, (d+1)/R)``, the SHARDS_adj correction of the first bucket). The sample is drawn from the
(device, block) keys, not from the first-appearance block ids of the in-memory split, so it is a different
(equally distributed) sample than the in-memory ``shards_mrc`` of the same trace and seed; at rate 1 it is
the exact curve. :class:`FixedSizeStream` is fixed-size SHARDS (``max_samples``) the same way, in
O(``max_samples``) memory.

:func:`stream_lru_mrc` reads a trace file this way; with no rate given it falls back to SHARDS at a rate that
fits when the exact state outgrows the budget, as :func:`models.traces.stream_stats.stream_trace_stats` does.

References
----------
.. [1] R. L. Mattson, J. Gecsei, D. R. Slutz, I. L. Traiger, "Evaluation techniques for storage
   hierarchies", IBM Systems Journal 9(2), 1970, doi:10.1147/sj.92.0078.
.. [2] C. A. Waldspurger, N. Park, A. Garthwaite, I. Ahmad, "Efficient MRC Construction with SHARDS",
   USENIX FAST 2015, pp. 95-110.
"""

from __future__ import annotations

import math
import os

import numpy as np
from numba import njit

from models.budget import CLI_OPTION, ENV_VAR, BudgetExceeded, budget_bytes, charge
from models.sim.primitives import heap_pop, heap_push, popcount64
from models.sim.sampling import check_rate, hash53, hash_salt, rate_threshold
from models.sim.shards import ShardsCurve
from models.sim.stack_distance import HitRatioCurve, as_sizes, curve_from_histogram, log_sizes
from models.traces.blocks import MAX_REQUEST_BLOCKS, check_block_size
from models.traces.chunks import chunk_sink
from models.traces.extent_mrc import SIZE_BYTES
from models.traces.extents import MIN_MEAN_BLOCKS
from models.traces.stream_stats import (
    MAX_LOAD,
    MAX_SAMPLE_HALVINGS,
    SLICE_ACCESSES,
    ChunkBatches,
    LargeExtents,
)

__all__ = ["LruStream", "FixedSizeStream", "stream_lru_mrc", "budget_note", "STATE_BYTES_PER_BLOCK", "PASS_BYTES_PER_ACCESS",
           "LargeExtents", "KeysOutOfRange"]

#: Most memory of the state per distinct block [bytes]: a 16-byte table slot at 3/8 load (43), 32 bytes of
#: histograms just after they doubled, ~1 byte of window -- the bound the docstring derives; the state is charged
#: from its arrays' actual sizes, this is the figure quoted (``budget_note``, ``bench/bench_mrc_stream.py``).
STATE_BYTES_PER_BLOCK = 76
#: Working memory of a pass per block access [bytes]: its key and bytes (2 x int64), the requests' first
#: blocks and counts and the slice's copies -- an estimate from the code, charged before the pass.
PASS_BYTES_PER_ACCESS = 32
#: Smallest window of access positions [64-bit words]: 65,536 positions, 8 kB.
_MIN_WINDOW_WORDS = 1 << 10
#: Bits of the block number in a (device, block) key [bits] (as :mod:`models.traces.stream_stats`).
_BLOCK_BITS = 47
#: Fibonacci hashing multiplier (2**64 / golden ratio, odd): the slot of a key in the table.
_FIB = np.uint64(0x9E3779B97F4A7C15)
_ONE = np.uint64(1)
_SCALE = float(2**53)


class KeysOutOfRange(LargeExtents):
    """Block numbers of 2**47 or more, or devices outside 0..2**16-1: they do not fit a (device, block) key, so
    the curve is computed from the whole trace (as for :class:`~models.traces.stream_stats.LargeExtents`)."""


@njit(cache=True, nogil=True, inline="always")
def _build_node(fen, bits, j):  # pragma: no cover - compiled
    """Fill node ``j`` of the lazily built Fenwick tree when word ``j - 1`` completes (as
    :mod:`models.sim.stack_distance`): its own word's popcount plus its children ``j - 1, j - 2, j - 4, ...``."""
    c = np.int64(popcount64(bits[j - 1]))
    lb = j & -j
    t = 1
    while t < lb:
        c += fen[j - t]
        t <<= 1
    fen[j] = c


@njit(cache=True, nogil=True)
def _expand(off, size, dev, shift, total):  # pragma: no cover - compiled
    """(device, block) key and bytes inside the block of every block access of the requests, in order."""
    keys = np.empty(total, np.int64)
    nbytes = np.empty(total, np.int64)
    bs = np.int64(1) << shift
    k = 0
    for i in range(off.shape[0]):
        start = off[i]
        end = start + size[i]
        first = start >> shift
        last = (end - 1) >> shift
        base = dev[i] << _BLOCK_BITS
        for b in range(first, last + 1):
            lo = b << shift
            keys[k] = base + b
            nbytes[k] = min(end, lo + bs) - max(start, lo)
            k += 1
    return keys, nbytes


@njit(cache=True, nogil=True)
def _lru_pass(keys, nbytes, i, table, shift, n_keys, key_limit, bits, fen, total, t, hist, bhist,
              counts, salt, thresh, sampled):  # pragma: no cover - compiled
    """Stack distances of the accesses ``keys[i:]`` counted into ``hist``/``bhist`` (and their bytes), the state
    carried: ``table`` (slot ``h``: key ``table[h, 0]`` and the position of its last access ``table[h, 1]``, -1:
    empty slot; one cache line per probe), the marks ``bits`` with the
    Fenwick tree ``fen`` over completed words (``total`` marks in them) and the next position ``t``;
    ``counts`` = [first accesses, their bytes, accesses taken]. Stops early (returning the index reached) when
    the window, the table or the histograms are full; returns ``(i, n_keys, total, t)``."""
    mask = table.shape[0] - 1
    cap = bits.shape[0] * 64
    hlen = hist.shape[0]
    n = keys.shape[0]
    while i < n:
        x = keys[i]
        if sampled and hash53(np.uint64(x), salt) >= thresh:
            i += 1
            continue
        if t >= cap or n_keys >= key_limit or n_keys >= hlen:
            break
        h = np.int64((np.uint64(x) * _FIB) >> np.uint64(shift))
        p = table[h, 1]
        while p >= 0 and table[h, 0] != x:
            h = (h + 1) & mask
            p = table[h, 1]
        wc = t >> 6
        counts[2] += 1
        if p < 0:
            table[h, 0] = x
            n_keys += 1
            counts[0] += 1
            counts[1] += nbytes[i]
        else:
            # hot path as in models.sim.stack_distance._range_pass
            w = p >> 6
            b = np.uint64(p & 63)
            d = np.int64(popcount64((bits[w] >> b) >> _ONE))
            if w != wc:
                d += np.int64(popcount64(bits[wc]))
                s = 0
                j = w + 1
                while j > 0:
                    s += fen[j]
                    j -= j & -j
                d += total - s
                j = w + 1
                while j <= wc:
                    fen[j] -= 1
                    j += j & -j
                total -= 1
            bits[w] &= ~(_ONE << b)
            hist[d] += 1
            bhist[d] += nbytes[i]
        bits[wc] |= _ONE << np.uint64(t & 63)
        table[h, 1] = t
        if (t & 63) == 63:
            _build_node(fen, bits, wc + 1)
            total += popcount64(bits[wc])
        t += 1
        i += 1
    return i, n_keys, total, t


#: Exact bins of the fixed-size SHARDS histogram of true distances [blocks]: distances below are kept exactly.
_LIN_BINS = 1024
#: Bins per octave of true distance above :data:`_LIN_BINS` [-]: a bin is 2**(1/128) - 1 = 0.54 % wide.
_PER_OCTAVE = 128
#: Bins of that histogram: 1024 exact, then 128 per octave up to 2**63 [bins].
_N_BINS = 1024 + 128 * 54


@njit(cache=True, nogil=True, inline="always")
def _bin_of(x):  # pragma: no cover - compiled
    """Bin of a true distance ``x`` [blocks] (float >= 0): exact below :data:`_LIN_BINS`, log above."""
    if x < _LIN_BINS:
        return np.int64(x)
    return min(_LIN_BINS + np.int64(np.log2(x / _LIN_BINS) * _PER_OCTAVE), _N_BINS - 1)


@njit(cache=True, nogil=True)
def bin_edges():  # pragma: no cover - compiled
    """Lower edge of every bin and the upper edge of the last [blocks] (float)."""
    e = np.empty(_N_BINS + 1, np.float64)
    for j in range(_N_BINS + 1):
        e[j] = j if j <= _LIN_BINS else _LIN_BINS * 2.0 ** ((j - _LIN_BINS) / _PER_OCTAVE)
    return e


@njit(cache=True, nogil=True)
def _unmark(bits, fen, total, p, wc):  # pragma: no cover - compiled
    """Clear the mark at position ``p`` (the lazily built tree: nodes up to ``wc`` exist); return ``total``."""
    w = p >> 6
    bits[w] &= ~(_ONE << np.uint64(p & 63))
    if w != wc:
        j = w + 1
        while j <= wc:
            fen[j] -= 1
            j += j & -j
        total -= 1
    return total


@njit(cache=True, nogil=True)
def _fixed_pass(keys, nbytes, i, table, shift, n_keys, key_limit, bits, fen, total, t, dd, bdd, edges, acc,
                hh, hid, hsize, smax, salt, thresh):  # pragma: no cover - compiled
    """Fixed-size SHARDS over ``keys[i:]`` (:func:`models.sim.shards.shards_mrc` with ``max_samples``): at most
    ``smax`` tracked blocks (max-heap ``hh``/``hid`` of their hashes); a new block past them evicts the largest
    hash (its slot becomes a tombstone, position -2; its mark cleared) and lowers the threshold to it. Each
    sampled reference weighs ``1/R`` at its time; a reuse's mass is spread over the true distances
    ``[d/R, (d+1)/R)`` in the bins of ``edges`` (density difference arrays ``dd``, ``bdd``; exact bins below
    :data:`_LIN_BINS`). ``acc`` = [first-reference mass, its bytes, sampled references, estimated references,
    tombstones]. Stops early when the table (live + tombstones), the window or the heap is full; returns
    ``(i, n_keys, total, t, hsize, thresh)``."""
    mask = table.shape[0] - 1
    cap = bits.shape[0] * 64
    n = keys.shape[0]
    while i < n:
        x = keys[i]
        hx = hash53(np.uint64(x), salt)
        if hx >= thresh:
            i += 1
            continue
        if t >= cap or n_keys + np.int64(acc[4]) >= key_limit or (hsize >= hh.shape[0] - 1 and hh.shape[0] <= smax):
            break
        h = np.int64((np.uint64(x) * _FIB) >> np.uint64(shift))
        p = table[h, 1]
        while p != -1 and not (p >= 0 and table[h, 0] == x):
            h = (h + 1) & mask
            p = table[h, 1]
        wc = t >> 6
        if p < 0:  # a new tracked block
            table[h, 0] = x
            table[h, 1] = -3  # live, not marked yet
            n_keys += 1
            hsize = heap_push(hh, hid, hsize, hx, x)
            if n_keys > smax:
                top = hh[0]
                while hsize > 0 and hh[0] == top:
                    y = hid[0]
                    hsize = heap_pop(hh, hid, hsize)
                    g = np.int64((np.uint64(y) * _FIB) >> np.uint64(shift))
                    while not (table[g, 1] != -1 and table[g, 1] != -2 and table[g, 0] == y):
                        g = (g + 1) & mask
                    q = table[g, 1]
                    if q >= 0:
                        total = _unmark(bits, fen, total, q, wc)
                    table[g, 1] = -2
                    n_keys -= 1
                    acc[4] += 1
                thresh = top
                if hx >= thresh:
                    i += 1
                    continue
        inv = 9007199254740992.0 / np.float64(thresh)
        w = nbytes[i] * inv
        acc[2] += 1
        acc[3] += inv
        p = table[h, 1]
        if p < 0:
            acc[0] += inv
            acc[1] += w
        else:
            wp = p >> 6
            b = np.uint64(p & 63)
            d = np.int64(popcount64((bits[wp] >> b) >> _ONE))
            if wp != wc:
                d += np.int64(popcount64(bits[wc]))
                s = 0
                j = wp + 1
                while j > 0:
                    s += fen[j]
                    j -= j & -j
                d += total - s
                j = wp + 1
                while j <= wc:
                    fen[j] -= 1
                    j += j & -j
                total -= 1
            bits[wp] &= ~(_ONE << b)
            ja = _bin_of(d * inv)
            jb = _bin_of((d + 1) * inv)
            if jb <= ja:
                jb = ja + 1
            width = edges[jb] - edges[ja]
            dd[ja] += inv / width
            dd[jb] -= inv / width
            bdd[ja] += w / width
            bdd[jb] -= w / width
        bits[wc] |= _ONE << np.uint64(t & 63)
        table[h, 1] = t
        if (t & 63) == 63:
            _build_node(fen, bits, wc + 1)
            total += popcount64(bits[wc])
        t += 1
        i += 1
    return i, n_keys, total, t, hsize, thresh


@njit(cache=True, nogil=True)
def _renumber_marks(table, bits):  # pragma: no cover - compiled
    """Renumber every table slot's position to its mark's rank among the marks (order kept); returns the marks."""
    nw = bits.shape[0]
    pre = np.empty(nw, np.int64)
    s = 0
    for w in range(nw):
        pre[w] = s
        s += popcount64(bits[w])
    for h in range(table.shape[0]):
        p = table[h, 1]
        if p >= 0:
            w = p >> 6
            below = bits[w] & ((_ONE << np.uint64(p & 63)) - _ONE)
            table[h, 1] = pre[w] + popcount64(below)
    return s


@njit(cache=True, nogil=True)
def _fill_window(bits, fen, m):  # pragma: no cover - compiled
    """Marks at positions ``0..m-1`` of a cleared window, the tree's nodes of the completed words built; returns
    the marks in completed words."""
    full = m >> 6
    for w in range(full):
        bits[w] = ~np.uint64(0)
    if m & 63:
        bits[full] = (_ONE << np.uint64(m & 63)) - _ONE
    for j in range(1, full + 1):
        _build_node(fen, bits, j)
    return full * 64


@njit(cache=True, nogil=True)
def _rehash(table, new, shift):  # pragma: no cover - compiled
    mask = new.shape[0] - 1
    for j in range(table.shape[0]):
        if table[j, 1] >= 0:
            h = np.int64((np.uint64(table[j, 0]) * _FIB) >> np.uint64(shift))
            while new[h, 1] >= 0:
                h = (h + 1) & mask
            new[h, 0], new[h, 1] = table[j, 0], table[j, 1]


def _empty_table(slots: int) -> np.ndarray:
    """A hash table of ``slots`` empty slots (position -1; the key of an empty slot is never read)."""
    return np.full((slots, 2), -1, np.int64)


class LruStream(ChunkBatches):
    """The exact (or SHARDS-sampled) LRU hit-ratio curve accumulated over blocks of requests (module docstring).

    Parameters
    ----------
    block_size : int
        Block size [bytes], a power of two.
    sample_rate : float, keyword-only
        SHARDS sampling rate in (0, 1] [-]; 1 (default): exact.
    seed : int or numpy.random.Generator, keyword-only
        Hash salt of the sample (``sample_rate < 1``).
    max_request_blocks : int, keyword-only
        Most blocks one request may touch (:data:`~models.traces.blocks.MAX_REQUEST_BLOCKS`).

    Examples
    --------
    >>> s = LruStream(4096)
    >>> s.add([0, 4096], [4096, 4096], [0, 0])
    >>> s.add([0], [8192], [0])  # blocks 0 and 1 again, one distinct block between each and its last access
    >>> c = s.curve()
    >>> c.cache_blocks.tolist(), c.hits.tolist(), c.footprint_blocks
    ([1, 2], [0, 2], 2)
    """

    _BATCH_COLUMNS = ("offset_bytes", "size_bytes", "device")

    def __init__(self, block_size: int = 4096, *, sample_rate: float = 1.0, seed=0,
                 max_request_blocks: int = MAX_REQUEST_BLOCKS):
        self.rate = check_rate(sample_rate, name="sample_rate")
        self.sampled = self.rate < 1
        self.salt = hash_salt(seed)
        self.thresh = rate_threshold(self.rate)
        self.bs = check_block_size(block_size)
        self.shift = self.bs.bit_length() - 1
        self.max_request_blocks = int(max_request_blocks)
        self.requests = self.accesses = self.bytes_total = 0
        self.state_full = False  # the budget refused the state's growth
        self.progress = [0.0, 0.0]  # share of the input read before the current block and after it (if known)
        self._batch_progress0 = 0.0
        self._add_acc0, self._add_total = 0, 1.0
        self.n_keys = 0
        self._counts = np.zeros(3, np.int64)  # first accesses, their bytes, accesses taken (sampled)
        self._table = _empty_table(1 << 10)
        self._bits = np.zeros(_MIN_WINDOW_WORDS, np.uint64)
        self._fen = np.zeros(_MIN_WINDOW_WORDS + 2, np.int64)
        self._total = self._t = 0
        self._hist = np.zeros(1 << 10, np.int64)
        self._bhist = np.zeros(1 << 10, np.int64)
        self._batch: list = []
        self._batch_n = 0

    # ------------------------------------------------------------------ memory
    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]: the table, the histograms and the window."""
        return 16 * len(self._table) + 16 * len(self._hist) + 8 * (len(self._bits) + len(self._fen))

    def _charge(self, extra: float, pass_accesses: int) -> None:
        what = "the exact LRU hit-ratio curve's state" if not self.sampled else \
            f"the SHARDS hit-ratio curve's sampled state (rate {self.rate:.6g})"
        try:
            charge(self.state_bytes + extra + PASS_BYTES_PER_ACCESS * pass_accesses,
                   f"{what} ({self.n_keys:,} distinct {self.bs}-byte blocks so far, {pass_accesses:,} block "
                   f"accesses next)")
        except BudgetExceeded:
            self.state_full = self.n_keys > 0  # a sample of the blocks would help (not a pass too large alone)
            raise

    def share_read(self) -> float:
        """Share of the input whose accesses were taken when the state was last charged [-] (as
        :meth:`models.traces.stream_stats.StatsStream.share_read`)."""
        within = min(max((self.accesses - self._add_acc0) / max(self._add_total, 1.0), 0.0), 1.0)
        p0 = self._batch_progress0
        return p0 + (self.progress[1] - p0) * within

    # ------------------------------------------------------------------ input
    def add(self, offset_bytes, size_bytes, device) -> None:
        """Take the next requests (in trace order; zero-size requests already dropped)."""
        off = np.ascontiguousarray(offset_bytes, np.int64)
        size = np.ascontiguousarray(size_bytes, np.int64)
        dev = np.ascontiguousarray(device, np.int64)
        m = len(off)
        if not m:
            return
        if int(size.min()) < 1:
            raise ValueError("request sizes must be >= 1 byte (zero-size requests are dropped by the readers)")
        count = ((off + size - 1) >> self.shift) - (off >> self.shift) + 1
        ends = np.cumsum(count.astype(np.float64))  # float: no int64 wrap on absurd sizes
        if ends[-1] >= MIN_MEAN_BLOCKS * m:  # large requests: per extent, from the whole trace
            raise LargeExtents(f"{m:,} requests touch {ends[-1]:.3g} {self.bs}-byte blocks")
        if int(count.max()) > self.max_request_blocks:
            i = int(np.argmax(count > self.max_request_blocks))
            raise ValueError(
                f"request {self.requests + i} ({int(size[i])} bytes at offset {int(off[i])}) touches "
                f"{int(count[i])} {self.bs}-byte blocks, more than max_request_blocks={self.max_request_blocks} "
                "(the limit per request); check the size unit, or use a larger block size (--block-size)")
        top = int(((off + size - 1) >> self.shift).max())
        if top >= 1 << _BLOCK_BITS or int(dev.min()) < 0 or int(dev.max()) >= 1 << (63 - _BLOCK_BITS):
            raise KeysOutOfRange(f"the streamed hit-ratio curve needs block numbers below 2**{_BLOCK_BITS} and "
                                 f"devices below 2**{63 - _BLOCK_BITS} (got block {top}, devices {int(dev.min())}.."
                                 f"{int(dev.max())})")
        self.requests += m
        self.bytes_total += int(size.sum())
        start, done = 0, 0.0
        self._add_acc0, self._add_total = self.accesses, float(ends[-1])
        step = _slice_accesses()
        while start < m:  # slices of at most `step` block accesses (or one request): bounded passes
            end = max(start + 1, int(np.searchsorted(ends, done + step, side="right")))
            total = int(round(ends[end - 1] - done))
            self._charge(0, total)
            keys, nbytes = _expand(off[start:end], size[start:end], dev[start:end], self.shift, total)
            self._pass(keys, nbytes)
            self.accesses += total
            done, start = float(ends[end - 1]), end


    # ------------------------------------------------------------------ the pass and its growth
    def _pass(self, keys, nbytes) -> None:
        i, n = 0, len(keys)
        while True:
            slots = len(self._table)
            i, self.n_keys, self._total, self._t = _lru_pass(
                keys, nbytes, i, self._table, 64 - (slots.bit_length() - 1), self.n_keys,
                int(MAX_LOAD * slots), self._bits, self._fen, self._total, self._t, self._hist, self._bhist,
                self._counts, self.salt, self.thresh, self.sampled)
            if i >= n:
                return
            if self.n_keys >= int(MAX_LOAD * slots):
                self._grow_table(n - i)
            if self.n_keys >= len(self._hist):
                self._grow_hist(n - i)
            if self._t >= 64 * len(self._bits):
                self._compact(n - i)

    def _grow_table(self, left: int) -> None:
        slots = 2 * len(self._table)
        self._charge(16 * slots, left)  # the new table while the keys move
        new = _empty_table(slots)
        _rehash(self._table, new, 64 - (slots.bit_length() - 1))
        self._table = new

    def _grow_hist(self, left: int) -> None:
        n = 2 * len(self._hist)
        self._charge(16 * n, left)
        for name in ("_hist", "_bhist"):
            new = np.zeros(n, np.int64)
            old = getattr(self, name)
            new[:len(old)] = old
            setattr(self, name, new)

    def _compact(self, left: int) -> None:
        """Renumber the marks ``0..M-1`` (same order: same distances) in a window of at least twice the marks."""
        words = max(_MIN_WINDOW_WORDS, -(-2 * (self.n_keys + 1) // 64))
        self._charge(8 * (2 * words + 2) if words > len(self._bits) else 0, left)
        m = _renumber_marks(self._table, self._bits)
        if words > len(self._bits):
            self._bits, self._fen = np.zeros(words, np.uint64), np.zeros(words + 2, np.int64)
        else:
            self._bits[:] = 0
            self._fen[:] = 0
        self._total = _fill_window(self._bits, self._fen, m)
        self._t = m

    # ------------------------------------------------------------------ result
    @property
    def footprint_blocks(self) -> int:
        """Distinct blocks [blocks] (exact), or the sample's first accesses over the rate (SHARDS estimate)."""
        return self.n_keys if not self.sampled else int(round(self._counts[0] / self.rate))

    def _sizes(self, sizes, points, footprint: int):
        if sizes is not None:
            return sizes
        if points is not None:
            return log_sizes(max(footprint, 1), points)
        charge(float(footprint) * SIZE_BYTES, f"the hit-ratio curve at every cache size 1..{footprint:,} blocks "
                                              f"(--points or --sizes ask for fewer)")
        return None

    def curve(self, *, sizes=None, points: int | None = None) -> HitRatioCurve:
        """The curve of every request added: :class:`~models.sim.stack_distance.HitRatioCurve` (exact), or
        :class:`~models.sim.shards.ShardsCurve` (sampled). ``sizes`` [blocks], or ``points`` log-spaced sizes up
        to the footprint; default every size ``1..footprint``."""
        self.flush()
        if self.accesses == 0:
            raise ValueError("the trace has no requests: no hit-ratio curve")
        if self.sampled:
            return self._shards_curve(sizes, points)
        m, n = self.n_keys, self.accesses
        sizes = self._sizes(sizes, points, m)
        hist = self._hist[:max(m, 1)]
        bhist = self._bhist[:max(m, 1)].astype(np.float64)
        return curve_from_histogram(hist, bhist, float(n), float(self.bytes_total), sizes, n, m, np.int64)

    def _shards_curve(self, sizes, points) -> ShardsCurve:
        """SHARDS at a fixed rate (:func:`models.sim.shards.shards_mrc`): each sampled distance ``d`` spread
        evenly over the true distances ``[d/R, (d+1)/R)`` (clipped to the estimated footprint), SHARDS_adj."""
        rate = float(self.thresh) / _SCALE
        inv = 1.0 / rate
        n, nsamp = self.accesses, int(self._counts[2])
        cold, bcold = self._counts[0] * inv, self._counts[1] * inv
        footprint = int(round(cold))
        nb = footprint + 1
        top = max(self.n_keys, 1)
        mass, bmass = self._hist[:top] * inv, self._bhist[:top] * inv
        d = np.arange(top, dtype=np.float64)
        ka = np.minimum((d * inv).astype(np.int64), nb - 1)
        kb = np.maximum(np.minimum(((d + 1) * inv).astype(np.int64), nb), ka + 1)
        total, btotal = mass.sum() + cold, bmass.sum() + bcold
        diff, bdiff, width = 0.0, 0.0, max(1, min(nb, int(inv)))
        if nsamp > 0:
            diff = n - nsamp * inv
            bdiff = float(self.bytes_total) - btotal
            total, btotal = total + diff, btotal + bdiff
        s = self._sizes(sizes, points, footprint)
        s = np.arange(1, max(footprint, 1) + 1, dtype=np.int64) if s is None else as_sizes(s)
        k = np.minimum(s, nb)
        hits = _spread_cum(mass, ka, kb, k) + _adj_cum(diff, width, k)
        bh = _spread_cum(bmass, ka, kb, k) + _adj_cum(bdiff, width, k)
        hr = hits / total if total > 0 else np.zeros(len(k))
        bhr = bh / btotal if btotal > 0 else hr.copy()
        return ShardsCurve(s, np.clip(hr, 0.0, 1.0), np.clip(bhr, 0.0, 1.0), hits * (n / total if total > 0 else 0.0),
                           n, footprint, rate, nsamp, int(self.n_keys))


class FixedSizeStream(LruStream):
    """Fixed-size SHARDS over the stream: at most ``max_samples`` tracked blocks, the rate lowered as needed
    (:func:`models.sim.shards.shards_mrc` with ``max_samples``, on the (device, block) keys). State: the table
    (live blocks and the tombstones of evicted ones, rebuilt without them when full), a heap of the tracked
    hashes, the window of marks and a histogram of true distances in :data:`_N_BINS` bins (exact below
    :data:`_LIN_BINS` blocks, 0.54 % wide above): O(``max_samples``) whatever the trace. The spread of a sampled
    distance over its true distances is kept per bin (the in-memory kernel keeps one per distance, an array of
    the footprint): equal to it below :data:`_LIN_BINS` blocks, within a bin's width above.

    Parameters
    ----------
    block_size : int
        Block size [bytes], a power of two.
    max_samples : int, keyword-only
        Most tracked blocks [blocks], >= 1.
    sample_rate : float, keyword-only
        Starting rate in (0, 1] [-] (default 1: the full trace until the sample fills).
    seed : int or numpy.random.Generator, keyword-only
        Hash salt of the sample.
    """

    def __init__(self, block_size: int = 4096, *, max_samples: int, sample_rate: float = 1.0, seed=0,
                 max_request_blocks: int = MAX_REQUEST_BLOCKS):
        if isinstance(max_samples, bool) or not isinstance(max_samples, (int, np.integer)) or max_samples < 1:
            raise ValueError(f"max_samples must be an integer >= 1 (got {max_samples!r})")
        super().__init__(block_size, sample_rate=sample_rate, seed=seed, max_request_blocks=max_request_blocks)
        self.sampled = True
        self.smax = int(min(max_samples, 2**62))
        self._hh = np.zeros(min(self.smax + 1, 1 << 10), np.uint64)  # grown as blocks are tracked, to smax + 1
        self._hid = np.zeros(len(self._hh), np.int64)
        self._hsize = 0
        self._hist = self._bhist = np.zeros(1, np.int64)  # unused: the binned histograms below
        self._dd = np.zeros(_N_BINS + 1, np.float64)
        self._bdd = np.zeros(_N_BINS + 1, np.float64)
        self._edges = bin_edges()
        self._acc = np.zeros(5, np.float64)

    @property
    def state_bytes(self) -> int:
        return super().state_bytes + 16 * len(self._hh) + 24 * len(self._dd)

    def _pass(self, keys, nbytes) -> None:
        i, n = 0, len(keys)
        while True:
            slots = len(self._table)
            i, self.n_keys, self._total, self._t, self._hsize, thresh = _fixed_pass(
                keys, nbytes, i, self._table, 64 - (slots.bit_length() - 1), self.n_keys, int(MAX_LOAD * slots),
                self._bits, self._fen, self._total, self._t, self._dd, self._bdd, self._edges, self._acc,
                self._hh, self._hid, self._hsize, self.smax, self.salt, self.thresh)
            self.thresh = np.uint64(thresh)
            if i >= n:
                return
            if self.n_keys + int(self._acc[4]) >= int(MAX_LOAD * slots):
                self._rebuild(n - i)
            if self._t >= 64 * len(self._bits):
                self._compact(n - i)
            if self._hsize >= len(self._hh) - 1 and len(self._hh) <= self.smax:
                self._grow_heap(n - i)

    def _grow_heap(self, left: int) -> None:
        size = min(2 * len(self._hh), self.smax + 1)
        self._charge(16 * size, left)
        for name in ("_hh", "_hid"):
            old = getattr(self, name)
            new = np.zeros(size, old.dtype)
            new[:len(old)] = old
            setattr(self, name, new)

    def _rebuild(self, left: int) -> None:
        """The table without its tombstones, doubled while the live blocks fill more than half the load."""
        slots = len(self._table)
        while self.n_keys + 1 > MAX_LOAD * slots / 2:
            slots *= 2
        self._charge(16 * slots, left)
        new = _empty_table(slots)
        _rehash(self._table, new, 64 - (slots.bit_length() - 1))
        self._table = new
        self._acc[4] = 0

    @property
    def footprint_blocks(self) -> int:
        return int(round(self._acc[0]))

    def _shards_curve(self, sizes, points) -> ShardsCurve:
        rate = float(self.thresh) / _SCALE
        n = self.accesses
        cold, bcold, nsamp = float(self._acc[0]), float(self._acc[1]), int(self._acc[2])
        mass, bmass = _bin_mass(self._dd, self._edges), _bin_mass(self._bdd, self._edges)
        total, btotal = mass.sum() + cold, bmass.sum() + bcold
        footprint = int(round(cold))
        nb = footprint + 1
        diff, bdiff, width = 0.0, 0.0, max(1, min(nb, int(1.0 / rate)))
        if nsamp > 0:
            diff, bdiff = n - total, float(self.bytes_total) - btotal
        s = self._sizes(sizes, points, footprint)
        s = np.arange(1, max(footprint, 1) + 1, dtype=np.int64) if s is None else as_sizes(s)
        k = np.minimum(s, nb)
        hits = _binned_cum(mass, self._edges, k, nb) + _adj_cum(diff, width, k)
        bh = _binned_cum(bmass, self._edges, k, nb) + _adj_cum(bdiff, width, k)
        total, btotal = total + diff, btotal + bdiff
        hr = hits / total if total > 0 else np.zeros(len(k))
        bhr = bh / btotal if btotal > 0 else hr.copy()
        return ShardsCurve(s, np.clip(hr, 0.0, 1.0), np.clip(bhr, 0.0, 1.0), hits * (n / total if total > 0 else 0.0),
                           n, footprint, rate, nsamp, int(self.n_keys))


def _bin_mass(dd, edges) -> np.ndarray:
    """Mass per bin from the density difference array ``dd``: the density is zero from the last bin where a
    spread ends (the rounding residue of the sum would weigh the huge widths of the top bins)."""
    density = np.cumsum(dd)[:len(edges) - 1]
    nz = np.flatnonzero(dd)
    density[(nz[-1] if len(nz) else 0):] = 0.0
    return density * np.diff(edges)


def _binned_cum(mass, edges, k, nb: int) -> np.ndarray:
    """Mass of the bins below each ``k`` (uniform inside a bin); all of it from ``nb`` (the footprint + 1) on,
    as the in-memory kernel clips the spread there."""
    cum = np.concatenate(([0.0], np.cumsum(mass)))
    kf = k.astype(np.float64)
    j = np.clip(np.searchsorted(edges, kf, side="right") - 1, 0, len(mass) - 1)
    out = cum[j] + mass[j] * np.clip((kf - edges[j]) / (edges[j + 1] - edges[j]), 0.0, 1.0)
    return np.where(k >= nb, cum[-1], out)


def _slice_accesses() -> int:
    """Block accesses expanded per pass: :data:`~models.traces.stream_stats.SLICE_ACCESSES`, fewer when the
    pass would take more than a quarter of the run's budget (the rest is for the state) [accesses]."""
    budget = budget_bytes()
    if not budget:
        return SLICE_ACCESSES
    return int(max(1 << 10, min(SLICE_ACCESSES, budget // (4 * PASS_BYTES_PER_ACCESS))))


def _spread_cum(mass, ka, kb, k) -> np.ndarray:
    """Mass at true distances below each ``k``: interval ``[ka, kb)`` holds ``mass`` evenly (``ka``, ``kb``
    non-decreasing; at most one interval wider than one straddles any ``k``)."""
    cum = np.concatenate(([0.0], np.cumsum(mass)))
    full = np.searchsorted(kb, k, side="right")  # intervals ending at or below k
    out = cum[full]
    j = np.searchsorted(ka, k, side="left") - 1  # the last interval starting below k
    part = (j >= 0) & (j >= full)
    jj = j[part]
    out[part] += mass[jj] * (k[part] - ka[jj]) / (kb[jj] - ka[jj])
    return out


def _adj_cum(diff: float, width: int, k) -> np.ndarray:
    """SHARDS_adj below each ``k``: a shortfall spread over ``[0, width)``, a surplus at distance 0."""
    if diff >= 0:
        return diff * np.minimum(k, width) / width
    return np.where(k >= 1, diff, 0.0)


def budget_note(rate: float) -> str:
    """How a curve sampled because of the budget says what it is (method, rate, why)."""
    return (f"method shards: the LRU hit-ratio curve estimated from a spatial hash sample of the blocks at rate "
            f"{rate:.6g} (1 in {1 / rate:,.0f}; SHARDS, Waldspurger et al., FAST 2015), because the exact curve's "
            f"per-block state (up to {STATE_BYTES_PER_BLOCK} bytes per distinct block) needs more memory than the "
            f"run's budget ({CLI_OPTION}, or the {ENV_VAR} environment variable)")


def _reopenable(src) -> bool:
    return isinstance(src, (str, bytes, bytearray, memoryview)) or hasattr(src, "__fspath__")


def stream_lru_mrc(src, block_size: int = 4096, *, format: str = "auto", sizes=None, points: int | None = None,
                   sample_rate: float | None = None, seed=0, progress=None, on_requests=None,
                   max_requests: int | None = None, max_samples: int | None = None, **options):
    """The LRU hit-ratio curve of a block trace file read in blocks (module docstring).

    Returns ``(curve, meta, fallback_rate)``: ``meta`` the reader's metadata; ``curve`` None for a
    memory-reference trace (not streamed); ``fallback_rate`` the SHARDS rate chosen because the exact state
    outgrew the budget (None: the method asked for). ``sample_rate`` None: exact while the state fits the run's
    budget, else the source is read again with SHARDS at a power-of-two rate of about a quarter of the share of
    the input read when the budget ran out (halved again if the sample outgrows it too, at most
    :data:`~models.traces.stream_stats.MAX_SAMPLE_HALVINGS` times). A number: SHARDS (1: exact) at that rate,
    or the budget's refusal. ``max_samples``: fixed-size SHARDS (:class:`FixedSizeStream`) from ``sample_rate``
    (default 1). Raises :class:`~models.traces.stream_stats.LargeExtents` for large requests (and
    its :class:`KeysOutOfRange` for keys that do not fit): the caller reads the trace whole.
    """
    from models.traces.core import MemTrace
    from models.traces.readers import read_trace

    rate = 1.0 if sample_rate is None else float(sample_rate)
    if isinstance(src, os.PathLike):
        src = os.fspath(src)
    for attempt in range(MAX_SAMPLE_HALVINGS + 1):
        acc = LruStream(block_size, sample_rate=rate, seed=seed) if max_samples is None else \
            FixedSizeStream(block_size, max_samples=max_samples, sample_rate=rate, seed=seed)

        def told(x, acc=acc):
            if x <= 1.0:  # a fraction of the input (its size known); else bytes
                acc.progress = [acc.progress[1], x]
            if progress is not None:
                progress(x)

        def take(cols: dict, acc=acc) -> None:
            acc.add_chunk(cols)
            if on_requests is not None:
                on_requests(len(cols["offset_bytes"]))

        try:
            with chunk_sink(take):
                empty = read_trace(src, format, progress=told, max_requests=max_requests, **options)
            if isinstance(empty, MemTrace):
                return None, dict(empty.meta), None
            acc.flush()
            if acc.accesses == 0:
                raise ValueError(f"{src if isinstance(src, str) else empty.name}: the trace has no requests")
            fallback = rate if sample_rate is None and max_samples is None and rate < 1 else None
            return acc.curve(sizes=sizes, points=points), dict(empty.meta), fallback
        except BudgetExceeded:
            if sample_rate is not None or max_samples is not None or not acc.state_full \
                    or attempt == MAX_SAMPLE_HALVINGS \
                    or not _reopenable(src):
                raise
            frac = acc.share_read() if acc.progress[1] > 0 else 1.0
            rate = min(rate / 2, 2.0 ** math.floor(math.log2(max(frac * rate / 4, 2.0 ** -30))))
    raise AssertionError("unreachable")  # pragma: no cover
