"""The write cache with its HDD over a block trace taken chunk by chunk, in memory bounded by its state (issue 41).

:func:`models.storage.write_cache.run_write_cache` needs the whole trace: :func:`~models.storage.write_cache.
prepare_requests` cuts it into 4 KiB items at once. :class:`WriteCacheStream` gives the same results for the
policies ``"none"`` and ``"halo"`` (the planner's write-cache role) from the trace's chunks in two passes, with the
same kernel (:func:`~models.storage.write_cache._halo_steps`, state carried) and the same HDD model
(:func:`~models.storage.hdd.stream_service_ms`, the previous request carried):

- **first pass** (:meth:`WriteCacheStream.first`): what must be known before simulating -- the devices and their
  largest end sector (each device's disjoint, region-aligned address range, as ``prepare_requests`` lays them
  out), the written 4 KiB blocks (the compact ids of the cache's map, in block order; a read that touches none of
  them passes through as one extent), the 1 MiB regions of every request (HALO's bucket table is the trace's
  regions in address order: the scan pointer walks them), the footprint (distinct blocks, counted up to the
  capacity: above it the simulated capacity no longer depends on it, ``_simulated_capacity``), the requested and
  written bytes, the write sizes (the cache device's write time) and the first and last arrivals;
- **second pass** (:meth:`WriteCacheStream.second`): each chunk's requests are cut into items (ids by binary
  search in the written blocks), run through HALO from the carried state, and both HDD streams (no cache: the
  requests themselves; HALO's runs) are timed with the previous request prepended, so every service time is the
  whole stream's; the HDD time components of :func:`models.storage.uncertainty.writecache_streams` are summed the
  same way (the planner's uncertainty band).

State [bytes]: per distinct written block 24 (its key, region and map entry) plus its first-pass hash slot
(8 / load), per distinct region 24 plus its hash slot, the footprint's hash table (at most the capacity's
blocks), HALO's PCM arrays (25 per simulated block) and one entry per distinct write size (16); a chunk's
working arrays are charged per item (:data:`~models.storage.write_cache.ITEM_BYTES`). Every growth is charged to
the run's budget (:mod:`models.budget`) before it is allocated. Nothing grows with the trace's length. A batch's
working memory (its requests cut into 4 KiB items) is charged before any of its counts or HALO's state moves; refused,
the batch is halved and retried, down to one request (:func:`_charged_parts`), so the only such refusal is a single
request whose cut does not fit -- and the results do not depend on where it was cut.

**Sampled fallback** (issue 41): the state is capped at :attr:`WriteCacheStream.state_share` of the run's budget
(0 budget: no cap). When a growth would pass the cap, or a growth's charge is refused, the stream falls back to a
MiniSim spatial sample of 1 MiB regions, as :mod:`models.storage.write_cache_minisim` does: a region is kept iff
the SHARDS hash (:func:`models.sim.sampling.block_hash53`, salt :func:`~models.sim.sampling.hash_salt` of seed 0)
of its (device, region) key is below ``R * 2**53``, so a region's blocks stay together (HALO's buckets); the rate
``R`` starts at 1 and halves at each such event (the state of the regions the new threshold excludes is
dropped), down to :data:`MIN_SAMPLE_RATE`, below which the run is refused (naming ``--memory-budget``). The end of
the first pass chooses the rate so that its allocation fits before allocating. HALO then runs on the sampled
requests (each request's items in sampled regions; requests left with none dropped) with a miniature cache of
``max(2, round(C R))`` blocks (rounded, not interpolated: ``C`` is 256 x the cache's MB and ``R`` a power of two,
so ``C R`` is whole down to 1/256 for a whole number of MB) and its capacity-relative thresholds resolved at that
size. Estimates: the sample's own ratios (MiniSim's ``adjust=False``), scaled by ``k`` = the trace's requested
sectors / the sample's: traffic rate = sampled HDD sectors / sampled requested sectors, HDD time = the sampled
stream's service time x ``k`` (the sampled stream's throughput; its HDD time components likewise x ``k``), counts
x ``k``. Chosen by measurement (``bench/bench_write_cache_sampling.py``): MiniSim's SHARDS_adj-style estimate
(sectors and time / ``R``) lets a hot region falling in or out of the sample move the result (on the generated
2 M-request MSR trace at 1/64 its traffic rate erred by 0.46, the ratio's by 0.03). The sample's HDD stream seeks
across the regions it leaves out, so its time per sector is biased upwards (measured: +1 % at 1/2 to +13 % at
1/64 on that trace; recorded as ``halo_hdd_ms_per_sector``). The no-cache HDD stream needs no per-block state and
stays exact on every request. :attr:`WriteCacheStream.sampling` says so (method, rate, why, and the
error bound measured by ``bench/bench_write_cache_sampling.py`` in ``data/measurements/
write_cache_sampling_error.csv``). The hash key is the (device, region within the device) pair, so on a
one-device trace the regions kept are MiniSim's.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from numba import njit

from models.budget import (
    CLI_OPTION,
    BudgetExceeded,
    budget_bytes,
    charge,
    format_bytes,
    how_to_raise,
)
from models.provenance import param
from models.sim.sampling import block_hash53, check_rate, hash53, hash_salt, rate_threshold
from models.storage import hdd
from models.storage import write_cache as wc

__all__ = ["HddStreamTimer", "WriteCacheStream", "KeySet", "MAX_LOAD", "KEY_BLOCK_BITS", "MIN_SAMPLE_RATE",
           "SAMPLE_METHOD", "ERROR_FILE", "sampling_error_text"]

#: Most keys per slot of a first-pass hash table before it doubles [-]: open addressing with linear probing stays
#: a few probes per insertion (as :data:`models.traces.stream_stats.MAX_LOAD`); a key costs 8 / load bytes.
MAX_LOAD = 0.75
#: Bits of the block (or region) number in a (device, block) key [bits]: blocks below 2**47 (512 PiB of 4 KiB
#: blocks) and devices below 2**16 (as :mod:`models.traces.stream_stats`).
KEY_BLOCK_BITS = 47
#: Fibonacci hashing multiplier (2**64 / golden ratio, odd): the slot of a key.
_FIB = np.uint64(0x9E3779B97F4A7C15)
#: Bytes kept per distinct written block after the first pass: its block number, its region and the map's entry.
_WRITTEN_BYTES = 24
#: Bytes of HALO's PCM state per simulated block: LBN id, next PBN, free stack (int64) and the valid bits.
_PCM_BYTES = 25
#: Bytes per distinct write size: the size and its count.
_SIZE_BYTES = 16
#: Requests gathered from the chunks before a pass takes them, and HDD requests before they are timed [requests]:
#: the kernels and the HDD model cost ~10 ms per call whatever its length, so a trace read in small chunks is
#: taken in batches of this many (its columns: ~33 bytes per request).
BATCH_REQUESTS = 1 << 16
#: Lowest region sampling rate of the fallback [-] (registry ``write_cache.stream_min_sample_rate``).
MIN_SAMPLE_RATE = param("write_cache.stream_min_sample_rate").value
#: How the sampled fallback is named in the output.
SAMPLE_METHOD = "MiniSim spatial sample of 1 MiB regions"
#: The measured error of the sampled fallback (``bench/bench_write_cache_sampling.py``), relative to ``data/``.
ERROR_FILE = "measurements/write_cache_sampling_error.csv"
_KEY_MASK = (1 << KEY_BLOCK_BITS) - 1
_REGION_BLOCKS_SHIFT = (wc.REGION_SECTORS // wc.BLOCK_SECTORS).bit_length() - 1  # 256 blocks per region


class _OverCap(Exception):
    """A growth of the stream's state would pass its cap (:attr:`WriteCacheStream.state_share` of the budget)."""

    def __init__(self, need: float):
        super().__init__(need)
        self.need = float(need)


@njit(cache=True)
def _insert_ranges(base, lo, hi, table, shift, n, limit, i0, j0):  # pragma: no cover - compiled
    """Insert the keys ``base[i] + j`` for ``j`` in ``lo[i] .. hi[i]`` (closed) of every ``i`` from ``i0`` (at
    ``j0``) into the open-addressing set ``table`` (-1: empty) until it holds ``limit`` keys; returns ``(keys
    held, i, j)`` where to resume (``i == len(base)``: all inserted)."""
    mask = len(table) - 1
    for i in range(i0, len(base)):
        j = j0 if i == i0 else lo[i]
        while j <= hi[i]:
            if n >= limit:
                return n, i, j
            x = base[i] + j
            h = np.int64((np.uint64(x) * _FIB) >> np.uint64(shift))
            while True:
                y = table[h]
                if y == -1:
                    table[h] = x
                    n += 1
                    break
                if y == x:
                    break
                h = (h + 1) & mask
            j += 1
    return n, len(base), 0


@njit(cache=True)
def _rehash(old, table, shift):  # pragma: no cover - compiled
    mask = len(table) - 1
    for x in old:
        if x != -1:
            h = np.int64((np.uint64(x) * _FIB) >> np.uint64(shift))
            while table[h] != -1:
                h = (h + 1) & mask
            table[h] = x


@njit(cache=True)
def _kept_keys(table, salt, thresh, shift):  # pragma: no cover - compiled
    """The keys of ``table`` (-1: empty) whose (device, region) key -- the key with its block number shifted right
    by ``shift`` bits (0: already a region key) -- hashes below ``thresh``: in one pass, no temporaries."""
    n = 0
    for x in table:
        if x != -1 and hash53(np.uint64(((x >> KEY_BLOCK_BITS) << KEY_BLOCK_BITS) | ((x & _KEY_MASK) >> shift)),
                              salt) < thresh:
            n += 1
    out = np.empty(n, np.int64)
    k = 0
    for x in table:
        if x != -1 and hash53(np.uint64(((x >> KEY_BLOCK_BITS) << KEY_BLOCK_BITS) | ((x & _KEY_MASK) >> shift)),
                              salt) < thresh:
            out[k] = x
            k += 1
    return out


class KeySet:
    """Distinct int64 keys (>= 0) inserted as ranges, in an open-addressing hash table doubled when 3/4 full
    (each doubling charged first as ``what``); with ``saturate_at`` the count stops there and the table is
    dropped (:attr:`saturated`: "at least that many")."""

    def __init__(self, what: str, saturate_at: int | None = None, guard=None):
        self.what, self.saturate_at, self.guard = what, saturate_at, None
        self.n, self.saturated = 0, False
        self._table(1 << 10)
        self.guard = guard  # on growth only

    def _table(self, slots: int) -> None:
        if self.guard is not None:  # the owner's cap on its whole state (before the budget's charge)
            self.guard(8.0 * slots)
        charge(8.0 * (slots + (len(self.table) if hasattr(self, "table") else 0)),
               f"{self.what} ({self.n:,} distinct so far, a hash table of {slots:,} slots next)")
        new = np.full(slots, -1, np.int64)
        shift = 64 - (slots.bit_length() - 1)
        if self.n:
            _rehash(self.table, new, shift)
        self.table, self._shift = new, shift

    def add_ranges(self, base: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> None:
        """Insert ``base[i] + j`` for ``j`` in ``lo[i] .. hi[i]`` (closed) of every ``i``."""
        if self.saturated or not len(base):
            return
        i, j = 0, int(lo[0])
        while i < len(base):
            limit = int(MAX_LOAD * len(self.table))
            if self.saturate_at is not None:
                limit = min(limit, self.saturate_at)
            self.n, i, j = _insert_ranges(base, lo, hi, self.table, self._shift, self.n, limit, i, j)
            if i < len(base):
                if self.saturate_at is not None and self.n >= self.saturate_at:
                    self.saturated, self.table = True, np.zeros(0, np.int64)
                    return
                self._table(2 * len(self.table))

    def keep(self, salt, thresh, shift: int) -> None:
        """Keep only the keys whose (device, region) key (:func:`_kept_keys`, ``shift``) hashes below ``thresh``;
        the table is rebuilt at the size the kept keys need (a saturated set stays saturated)."""
        if self.saturated:
            return
        keys = _kept_keys(self.table, salt, thresh, shift)
        self.table = None
        slots = 1 << 10
        while len(keys) > MAX_LOAD * slots:
            slots *= 2
        self.table, self._shift, self.n = np.full(slots, -1, np.int64), 64 - (slots.bit_length() - 1), len(keys)
        _rehash(keys, self.table, self._shift)

    def keys(self) -> np.ndarray:
        """The keys held, sorted."""
        return np.sort(self.table[self.table != -1])

    @property
    def nbytes(self) -> int:
        return int(self.table.nbytes)


class HddStreamTimer:
    """The HDD behind a write cache timed request by request over chunks of its stream: the service times of
    :func:`models.storage.hdd.stream_service_ms` (and with ``parts`` the time components of
    :func:`models.storage.uncertainty.stream_parts_ms`), each chunk with the previous request prepended so every
    request is timed from where the previous one ended, plus the counts :class:`~models.storage.write_cache.
    WriteCacheResult` reports."""

    def __init__(self, spec, rotation: str = "positioned", parts: bool = True):
        self.spec, self.rotation, self.want_parts = spec, rotation, parts
        self.service_ms = 0.0
        self.parts = np.zeros(4)
        self.requests = self.sectors = self.write_sectors = self.lbn_distance = 0
        self.max_lbn = -1
        self._prev = None  # (folded LBN, sectors, is write, LBN) of the last request
        self._pending = _Batch(self._time)

    def add(self, lbn: np.ndarray, nsect: np.ndarray, write: np.ndarray) -> None:
        """Time the next requests of the stream [sectors] (gathered up to :data:`BATCH_REQUESTS` first)."""
        if len(lbn):
            self._pending.add(np.asarray(lbn, np.int64), np.asarray(nsect, np.int64), np.asarray(write, bool))

    def add_runs(self, runs) -> None:
        """:meth:`add` the ``(lbn, nsect, write)`` columns of consecutive runs at once: gathered as their concatenation
        would be (the same batches timed, however the runs were cut)."""
        self._pending.extend([tuple(np.asarray(c, t) for c, t in zip(r, (np.int64, np.int64, bool))) for r in runs
                              if len(r) and len(r[0])])

    def flush(self) -> None:
        """Time the requests gathered."""
        self._pending.flush()

    def _time(self, lbn: np.ndarray, nsect: np.ndarray, write: np.ndarray) -> None:
        from models.storage.uncertainty import stream_parts_ms

        lb = wc._drive_lbns(self.spec, lbn)
        self.requests += len(lbn)
        self.sectors += int(nsect.sum())
        self.write_sectors += int(nsect[write].sum())
        self.max_lbn = max(self.max_lbn, int(lbn.max()))
        k = 0
        if self._prev is not None:
            p_lb, p_nb, p_w, p_lbn = self._prev
            self.lbn_distance += abs(int(lbn[0]) - p_lbn)
            lb, nb, w = np.concatenate([[p_lb], lb]), np.concatenate([[p_nb], nsect]), np.concatenate([[p_w], write])
            k = 1
        else:
            nb, w = nsect, write
        self.lbn_distance += int(np.abs(np.diff(lbn)).sum())
        self.service_ms += float(hdd.stream_service_ms(self.spec, lb, nb, w, rotation=self.rotation)[k:].sum())
        if self.want_parts:
            self.parts += [float(x[k:].sum()) for x in stream_parts_ms(self.spec, lb, nb, w, self.rotation)]
        self._prev = (int(lb[-1]), int(nb[-1]), bool(w[-1]), int(lbn[-1]))

    @property
    def throughput_MBps(self) -> float:
        self.flush()
        return hdd.throughput_MBps(self.sectors, self.service_ms) if self.requests else float("nan")

    @property
    def mean_lbn_distance(self) -> float:
        self.flush()
        return self.lbn_distance / (self.requests - 1) if self.requests >= 2 else 0.0


class WriteCacheStream:
    """The write cache ``policy`` (``"none"`` or ``"halo"``) of ``cache_mb`` [MB] and no cache, both with the HDD
    ``drive``, over a trace's chunks in two passes (module docstring); :meth:`result` equals
    :func:`~models.storage.write_cache.run_write_cache` on the whole trace (counts exactly, times to summation
    order). Chunks: :class:`models.planner.role_stream.Chunk` columns. ``parts``: also sum the HDD time
    components (:meth:`parts`, the uncertainty band's input)."""

    #: Share of the run's budget the state may hold (set by the driver before the first pass) [-].
    state_share: float = 1.0

    def __init__(self, cache_mb: float, *, drive: str = "hdd-7200", params: wc.HaloParams | None = None,
                 hdd_rotation: str = "positioned", parts: bool = True, sample_rate: float = 1.0):
        if hdd_rotation not in ("positioned", "expected"):
            raise ValueError(f"hdd_rotation must be 'positioned' or 'expected', got {hdd_rotation!r}")
        if wc.DRIVE_CACHE != "none":
            raise ValueError("the streamed write cache times the HDD without a drive write cache "
                             f"(write_cache.drive_cache_bytes is {wc.DRIVE_CACHE!r})")
        self.cache_mb, self.params, self.rotation = float(cache_mb), params or wc.HaloParams(), hdd_rotation
        self.want_parts = parts
        self.spec = wc._drive_spec(drive)
        self.capacity_requested = wc.cache_blocks(self.cache_mb)
        # first pass
        self.requests = self.writes = self.requested_sectors = self.written_bytes = 0
        self.t_min = self.t_max = None
        self.max_end = -1
        self.devices: set[int] = set()
        self.sizes = np.zeros(0, np.int64)  # distinct write sizes [bytes] and their counts
        self.size_counts = np.zeros(0, np.int64)
        # the region sample (rate 1: every region, the exact run)
        self.rate = check_rate(sample_rate, name="sample_rate")
        self._sthresh = rate_threshold(self.rate)
        self._salt = hash_salt(0)
        self._need = 0.0  # the exact state's estimated need when the sample was (last) lowered [bytes]
        self._cap_seen = 0.0  # the cap then [bytes]
        g = self._guard
        self._written = KeySet("the streamed write cache's written blocks", guard=g)
        self._regions = KeySet("the streamed write cache's 1 MiB regions", guard=g)
        self._footprint = KeySet("the streamed write cache's footprint", saturate_at=self.capacity_requested,
                                 guard=g)
        self._ready = False
        self._batch1 = _Batch(self._first)
        self._batch2 = _Batch(self._second)

    # ------------------------------------------------------------------ first pass
    def first(self, chunk) -> None:
        """Take a chunk of the first pass (gathered up to :data:`BATCH_REQUESTS` requests first)."""
        self._batch1.add(np.asarray(chunk["time_ns"], np.int64), *_columns(chunk))

    def _first(self, t, off, size, dev, w) -> None:
        """Take a batch of the first pass, in parts whose forecast (the second pass's cut of their writes) is charged
        before any count moves (:func:`_charged_parts`: a part refused is halved and retried)."""
        for _, part, got in _charged_parts((t, off, size, dev, w), self._first_need):
            self._first_part(*part, *got)

    def _first_need(self, t, off, size, dev, w):
        """``(bytes, what, (lbn, end, b0, b1))`` of a part of the first pass: the second pass cuts its writes into 4 KiB
        items (:data:`~models.storage.write_cache.ITEM_BYTES` each); nothing is changed."""
        lbn, end = off // wc.SECTOR_BYTES, -(-(off + size) // wc.SECTOR_BYTES)
        b0, b1 = lbn // wc.BLOCK_SECTORS, (end - 1) // wc.BLOCK_SECTORS
        if int(b1.max()) >= 1 << KEY_BLOCK_BITS:
            raise ValueError(f"the streamed write cache needs 4 KiB block numbers below 2**{KEY_BLOCK_BITS} "
                             f"(offset {int(off[np.argmax(b1)])} bytes); read the trace whole instead")
        if self.rate == 1.0:
            cut = float((b1[w] - b0[w] + 1).sum(dtype=np.float64))  # the second pass cuts every write into blocks
        else:
            pr, _, s0, s1 = self._sampled_pieces(lbn, end, dev)
            cut = float(((s1 - 1) // wc.BLOCK_SECTORS - s0 // wc.BLOCK_SECTORS + 1)[w[pr]].sum(dtype=np.float64))
        return (cut * wc.ITEM_BYTES, f"cutting the trace's writes into 4 KiB blocks ({cut:.3g} blocks in "
                f"{_requests_text(len(off))}) for the HALO cache: {wc._NOT_EXTENTS}", (lbn, end, b0, b1))

    def _first_part(self, t, off, size, dev, w, lbn, end, b0, b1) -> None:
        """Count a part of the first pass and insert its blocks and regions (its forecast charged)."""
        self._add_sizes(size[w])
        self.requests += len(off)
        self.writes += int(w.sum())
        self.requested_sectors += int((end - lbn).sum())
        self.written_bytes += int(size[w].sum())
        self.t_min = int(t.min()) if self.t_min is None else min(self.t_min, int(t.min()))
        self.t_max = int(t.max()) if self.t_max is None else max(self.t_max, int(t.max()))
        self.max_end = max(self.max_end, int(end.max()))
        self.devices.update(np.unique(dev).tolist())
        base = dev << KEY_BLOCK_BITS
        while True:  # the sets are idempotent: a part cut short by a lower rate is inserted again, sampled
            try:
                if self.rate == 1.0:
                    self._written.add_ranges(base[w], b0[w], b1[w])
                    self._regions.add_ranges(base, lbn // wc.REGION_SECTORS, (end - 1) // wc.REGION_SECTORS)
                    self._footprint.add_ranges(base, b0, b1)
                else:
                    self._add_sampled(lbn, end, dev, w)
                return
            except (BudgetExceeded, _OverCap) as e:
                self._lower_rate(e)

    def _add_sampled(self, lbn, end, dev, w) -> None:
        """Insert the blocks and regions of the requests' pieces in sampled regions into the first-pass sets."""
        pr, reg, s0, s1 = self._sampled_pieces(lbn, end, dev)
        base = dev[pr] << KEY_BLOCK_BITS
        p0, p1 = s0 // wc.BLOCK_SECTORS, (s1 - 1) // wc.BLOCK_SECTORS
        pw = w[pr]
        self._written.add_ranges(base[pw], p0[pw], p1[pw])
        self._regions.add_ranges(base, reg, reg)
        self._footprint.add_ranges(base, p0, p1)

    def _sampled_pieces(self, lbn, end, dev):
        """The pieces of requests ``[lbn, end)`` [sectors, within their devices] in sampled regions: (request
        index, region within the device, first sector, end sector) of each, in request then address order."""
        r0, r1 = lbn // wc.REGION_SECTORS, (end - 1) // wc.REGION_SECTORS
        n = r1 - r0 + 1
        if int(n.max(initial=1)) == 1:
            pr, reg = np.arange(len(lbn)), r0
        else:
            pr = np.repeat(np.arange(len(lbn)), n)
            reg = r0[pr] + (np.arange(len(pr)) - np.repeat(np.cumsum(n) - n, n))
        keep = self._kept_regions((dev[pr] << KEY_BLOCK_BITS) | reg)
        pr, reg = pr[keep], reg[keep]
        s0 = np.maximum(lbn[pr], reg * wc.REGION_SECTORS)
        s1 = np.minimum(end[pr], (reg + 1) * wc.REGION_SECTORS)
        return pr, reg, s0, s1

    def _kept_regions(self, region_keys: np.ndarray, thresh=None) -> np.ndarray:
        """Whether each (device, region) key is in the sample (its SHARDS hash below the threshold)."""
        return block_hash53(region_keys, self._salt) < (self._sthresh if thresh is None else thresh)

    # ------------------------------------------------------------------ the sample's rate
    def _cap(self) -> float | None:
        """The cap on the state [bytes]: :attr:`state_share` of the run's budget; None: no budget."""
        b = budget_bytes()
        return None if not b else float(b) * float(self.state_share)

    def _guard(self, extra: float) -> None:
        """Before a first-pass set grows by ``extra`` [bytes]: :class:`_OverCap` if the state would pass the cap."""
        cap = self._cap()
        if cap is not None and self.state_bytes + extra > cap:
            raise _OverCap(self.state_bytes + extra)

    def _lower_rate(self, why: Exception) -> None:
        """Halve the region sample's rate and drop the state of the regions it no longer keeps; refused below
        :data:`MIN_SAMPLE_RATE` (``why``: the cap passed or the budget's refusal that asked for it)."""
        need = why.need if isinstance(why, _OverCap) else float(self.state_bytes)
        cap = self._cap()
        self._need = max(self._need, need / self.rate)
        self._cap_seen = cap if cap is not None else float(budget_bytes())
        new = self.rate / 2
        if new < MIN_SAMPLE_RATE:
            detail = str(why) if isinstance(why, BudgetExceeded) else (
                f"its state needs about {format_bytes(need)} at a region sample rate of {self.rate:g}, more than its "
                f"share of the run's budget ({format_bytes(cap)})")
            raise BudgetExceeded(
                f"the streamed write cache (HALO, 1 MiB regions sampled down to the lowest rate {MIN_SAMPLE_RATE:g}): "
                f"{detail}; {how_to_raise(need / max(self.state_share, 1e-9))}") from (
                    why if isinstance(why, BudgetExceeded) else None)
        self.rate, self._sthresh = new, rate_threshold(new)
        for s, shift in ((self._written, _REGION_BLOCKS_SHIFT), (self._footprint, _REGION_BLOCKS_SHIFT),
                         (self._regions, 0)):
            if s is not None:
                s.keep(self._salt, self._sthresh, shift)

    def _add_sizes(self, s: np.ndarray) -> None:
        if not len(s):
            return
        u, c = np.unique(s, return_counts=True)
        allv = np.concatenate([self.sizes, u])
        charge(2.0 * _SIZE_BYTES * len(allv), f"the streamed write cache's write sizes ({len(allv):,} distinct)")
        keys, inv = np.unique(allv, return_inverse=True)
        self.sizes = keys
        self.size_counts = np.bincount(inv, weights=np.concatenate([self.size_counts, c]),
                                       minlength=len(keys)).astype(np.int64)

    def end_first(self) -> None:
        """The first pass has ended: lay out the address space and allocate the cache's state."""
        self._batch1.flush()
        devs = np.array(sorted(self.devices), np.int64)
        self._devs = devs
        span = int(-(-(self.max_end + 1) // wc.REGION_SECTORS) * wc.REGION_SECTORS) if len(devs) > 1 else 0
        self._span = span
        while True:  # the rate whose allocation fits, chosen before allocating
            try:
                self._charge_end_first()
                break
            except (BudgetExceeded, _OverCap) as e:
                self._lower_rate(e)
        self.block_key = self._global(self._written.keys(), span // wc.BLOCK_SECTORS)
        self.block_key.sort()
        self._written = None
        regions = self._global(self._regions.keys(), span // wc.REGION_SECTORS)
        regions.sort()
        self._regions = None
        per_region = wc.REGION_SECTORS // wc.BLOCK_SECTORS
        self.block_region = np.searchsorted(regions, self.block_key // per_region).astype(np.int64)
        self.n_regions = len(regions)
        del regions
        self._footprint = None
        self._none = HddStreamTimer(self.spec, self.rotation, self.want_parts)
        self._halo = HddStreamTimer(self.spec, self.rotation, self.want_parts)
        self._none_misses = 0
        self._halo_misses = 0
        self.sampled_sectors = 0  # requested sectors in sampled regions (second pass, a sample's) [sectors]
        self._last_block = -1
        self._r0 = 0
        self._ready = True
        if not self.writes:
            return
        (self.capacity, self._thr, self._th_b, self._th_r, self._out_r,
         self._relax_r) = wc._halo_setup(self, self._mini_capacity(), self.params)
        self._state = wc._halo_state(self.capacity, len(self.block_key), self.n_regions)
        self._scratch = (np.zeros(1, np.int64), np.zeros((1, wc.BLOCK_SECTORS), np.int64))

    def _mini_capacity(self) -> int:
        """The cache simulated [blocks]: ``C``, or the miniature ``max(2, round(C R))`` of a sample."""
        c = self.capacity_requested
        return c if self.rate == 1.0 else max(2, int(round(c * self.rate)))

    def _charge_end_first(self) -> None:
        """Charge (and check against the cap) what :meth:`end_first` allocates at the present rate."""
        n_w, n_r = self._written.n, self._regions.n
        self.footprint_blocks = self._footprint.n
        need = float(n_w) * _WRITTEN_BYTES + 8.0 * n_r + self._written.nbytes + self._regions.nbytes
        capacity = 0
        if self.writes:
            capacity = wc._halo_setup(self, self._mini_capacity(), self.params)[0]
            need = max(need, float(n_w) * _WRITTEN_BYTES + n_r * (8.0 + wc.REGION_BYTES) + capacity * _PCM_BYTES)
        cap = self._cap()
        if cap is not None:
            held = self.sizes.nbytes + self.size_counts.nbytes + self._footprint.nbytes
            if held + need > cap:
                raise _OverCap(held + need)
        charge(float(n_w) * _WRITTEN_BYTES + 8.0 * n_r + self._written.nbytes + self._regions.nbytes,
               f"the streamed write cache's map of {n_w:,} written blocks of 4 KiB")
        if self.writes:
            charge(float(n_r) * wc.REGION_BYTES, f"HALO's bucket table of {n_r:,} regions of 1 MiB "
                                                 f"(the trace's address range)")
            charge(float(capacity) * _PCM_BYTES, f"HALO's PCM state of {capacity:,} blocks of 4 KiB")

    def _global(self, keys: np.ndarray, per_device: int) -> np.ndarray:
        """(device, number) keys -> numbers in the devices' disjoint ranges (``per_device`` numbers each)."""
        dev = keys >> KEY_BLOCK_BITS
        return np.searchsorted(self._devs, dev).astype(np.int64) * per_device + (keys & ((1 << KEY_BLOCK_BITS) - 1))

    # ------------------------------------------------------------------ second pass
    def second(self, chunk) -> None:
        """Take a chunk of the second pass: simulate it and time both HDD streams."""
        if not self._ready:
            raise RuntimeError("end_first() must be called before the second pass")
        self._batch2.add(*_columns(chunk))

    def _second(self, off, size, dev, w) -> None:
        shift = np.searchsorted(self._devs, dev).astype(np.int64) * self._span
        lbn = off // wc.SECTOR_BYTES + shift
        end = -(-(off + size) // wc.SECTOR_BYTES) + shift
        nsect = end - lbn
        b0, b1 = lbn // wc.BLOCK_SECTORS, (end - 1) // wc.BLOCK_SECTORS
        counts = b1 - b0 + 1
        if self.writes:  # first: HALO's working memory is charged before any state moves
            self._halo_batch(lbn, end, nsect, w, b0, b1, counts, dev, shift)
        self._none.add(lbn, nsect, w)
        self._none_misses += int(counts.sum())
        self._last_block = max(self._last_block, int(b1.max()))
        self._r0 += len(off)

    def _halo_batch(self, lbn, end, nsect, w, b0, b1, counts, dev, shift) -> None:
        """HALO over a batch of the second pass ([sectors], ``shift``: each request's device start), in parts whose cut
        into 4 KiB items is charged before HALO's state moves (:func:`_charged_parts`: a part refused is halved and
        retried, down to one request). The parts' HDD runs are kept (charged beside the next part's cut) and handed
        to the HDD timer together, as one batch's: its batches, and so its sums, do not depend on the parts."""
        runs: list = []
        if self.rate == 1.0:
            cols, need, take = (lbn, end, nsect, w, b0, b1, counts), self._exact_need, self._halo_chunk
        else:
            cols, need, take = (lbn - shift, end - shift, dev, w, shift), self._sampled_need, self._halo_sampled
        def kept() -> float:  # the HDD runs of the parts taken [bytes]
            return float(sum(a.nbytes for r in runs for a in r))

        ran = 0  # requests handed to the kernel so far (a sample's: those with a piece kept), as one call numbers them
        for _, part, got in _charged_parts(cols, need, kept):
            out, n = take(self._r0 + ran, *part, *got)
            runs.append(out)
            ran += n
        self._halo.add_runs(runs)

    def _sampled_need(self, lbn, end, dev, w, shift):
        """``(bytes, what, pieces)`` of HALO over requests' pieces in sampled regions (``lbn``, ``end`` [sectors]
        within each device): their cut into 4 KiB items; nothing is changed."""
        pr, _, s0, s1 = self._sampled_pieces(lbn, end, dev)
        s0, s1 = s0 + shift[pr], s1 + shift[pr]
        b0 = s0 // wc.BLOCK_SECTORS
        counts = (s1 - 1) // wc.BLOCK_SECTORS - b0 + 1
        items = float(counts.sum(dtype=np.float64))
        return (items * wc.ITEM_BYTES, f"cutting {_requests_text(len(lbn))} of the trace's sampled regions into 4 KiB "
                f"blocks ({items:.3g} blocks) for the streamed HALO cache", (pr, s0, s1, b0, counts))

    def _halo_sampled(self, r0, lbn, end, dev, w, shift, pr, s0, s1, b0, counts):
        """HALO over the requests' items in sampled regions (:meth:`_sampled_need`'s pieces, requests ``r0, ...`` of
        the trace): each request keeps its pieces in sampled regions (none: dropped). Returns its HDD runs and the
        requests run."""
        if not len(pr):
            return (), 0
        self.sampled_sectors += int((s1 - s0).sum())
        ptr, blk, bits = wc._cut_blocks(s0, s1, b0, counts)
        first = np.flatnonzero(np.concatenate([[True], pr[1:] != pr[:-1]]))  # each kept request's first piece
        ptr = np.concatenate([ptr[first], ptr[-1:]])
        keys = self.block_key
        pos = _sorted_search(keys, blk)
        hit = (pos < len(keys)) & (keys[np.minimum(pos, len(keys) - 1)] == blk)
        item = np.where(hit, pos, -1 - blk)
        del pos, hit
        p = self.params
        hv, pd_ = self._scratch
        out_lbn, out_n, out_w, _ = wc._halo_steps(
            *self._state, wc._readonly(w[pr[first]]), ptr, item, bits, keys, self.block_region, self.n_regions, self._thr,
            self._th_b, self._th_r, self._out_r, p.relax_bcounts, self._relax_r, -1, False, hv, pd_, True, r0)
        return (out_lbn, out_n, out_w), len(first)

    def _exact_need(self, lbn, end, nsect, w, b0, b1, counts):
        """``(bytes, what, (cut, passthrough))`` of HALO over requests ``[lbn, end)`` [sectors]: their cut into 4 KiB
        items (a read of unwritten blocks runs as one extent: one item); nothing is changed."""
        keys = self.block_key
        k = _sorted_search(keys, b0)
        touches = (k < len(keys)) & (keys[np.minimum(k, len(keys) - 1)] <= b1)
        passthrough = np.flatnonzero(~w & (counts > 1) & ~touches)  # a read of unwritten blocks: one extent
        cut = counts.copy()
        cut[passthrough] = 1
        items = float(cut.sum(dtype=np.float64))
        return (items * wc.ITEM_BYTES, f"cutting {_requests_text(len(lbn))} of the trace into 4 KiB blocks "
                f"({items:.3g} blocks) for the streamed HALO cache", (cut, passthrough))

    def _halo_chunk(self, r0, lbn, end, nsect, w, b0, b1, counts, cut, passthrough):
        """HALO over requests ``r0, ...`` of the trace cut as :meth:`_exact_need` says. Returns its HDD runs and the
        requests run."""
        keys = self.block_key
        ptr, blk, bits = wc._cut_blocks(lbn, end, b0, cut)
        pos = _sorted_search(keys, blk)
        hit = (pos < len(keys)) & (keys[np.minimum(pos, len(keys) - 1)] == blk)
        item = np.where(hit, pos, -1 - blk)
        del pos, hit, blk
        p = self.params
        hv, pd_ = self._scratch
        out_lbn, out_n, out_w, req_end = wc._halo_steps(
            *self._state, wc._readonly(w), ptr, item, bits, keys, self.block_region, self.n_regions, self._thr, self._th_b,
            self._th_r, self._out_r, p.relax_bcounts, self._relax_r, -1, False, hv, pd_, True, r0)
        pt = SimpleNamespace(passthrough=passthrough, nsect=nsect, passthrough_items=counts[passthrough] - 1)
        self._halo_misses += wc._widen_passthrough(pt, out_n, req_end)
        return (out_lbn, out_n, out_w), len(lbn)

    # ------------------------------------------------------------------ results
    def result(self, policy: str) -> wc.WriteCacheResult:
        """The run of ``policy`` (``"none"`` or ``"halo"``) as :func:`~models.storage.write_cache.run_write_cache`
        gives it for the whole trace."""
        if policy not in ("none", "halo"):
            raise ValueError(f"the streamed write cache runs the policies none and halo, not {policy!r}")
        self._batch2.flush()
        if policy == "halo" and not self.writes:
            raise ValueError("the trace has no writes: the streamed HALO cache was not simulated")
        tm = self._none if policy == "none" else self._halo
        sc = None if policy == "none" else self._state[-1]
        hits = 0 if sc is None else int(sc[wc._HITS])
        misses = self._none_misses if sc is None else int(sc[wc._MISSES]) + self._halo_misses
        tput = tm.throughput_MBps
        if policy == "halo" and self.rate < 1.0:
            return self._sampled_result(tm, sc, hits, misses, tput)
        dram = 0
        if policy == "halo":
            volume = max(self.spec.block_count, (self._last_block + 1) * wc.BLOCK_SECTORS) * wc.SECTOR_BYTES
            dram = wc.halo_dram_bytes(self.capacity_requested, volume)
        return wc.WriteCacheResult(
            policy=policy, cache_mb=self.cache_mb if policy != "none" else 0.0,
            traffic_rate=tm.sectors / self.requested_sectors, mean_lbn_distance=tm.mean_lbn_distance,
            hdd_throughput_mbps=tput, exec_time_s=wc.exec_time_s(self.requested_sectors, tm.sectors, tput),
            dram_bytes=int(dram), hits=hits, misses=misses, hdd_requests=tm.requests,
            hdd_write_sectors=tm.write_sectors, hdd_read_sectors=tm.sectors - tm.write_sectors, hdd_fill_sectors=0,
            dirty_blocks_at_end=0 if sc is None else int(sc[wc._TOTAL]),
            lbn_folded=bool(tm.requests and tm.max_lbn >= self.spec.block_count - 1024))

    def _scale(self) -> float:
        """``k``: the trace's requested sectors / the sample's [-] (1 when exact; 1 / R when the sample is empty)."""
        if self.rate == 1.0:
            return 1.0
        return self.requested_sectors / self.sampled_sectors if self.sampled_sectors else 1.0 / self.rate

    def _sampled_result(self, tm, sc, hits, misses, tput) -> wc.WriteCacheResult:
        """HALO's result estimated from the region sample (module docstring): sectors, time and counts x k."""
        inv = self._scale()
        sectors = tm.sectors * inv
        volume = max(self.spec.block_count, (self._last_block + 1) * wc.BLOCK_SECTORS) * wc.SECTOR_BYTES
        return wc.WriteCacheResult(
            policy="halo", cache_mb=self.cache_mb, traffic_rate=sectors / self.requested_sectors,
            mean_lbn_distance=tm.mean_lbn_distance, hdd_throughput_mbps=tput,
            exec_time_s=wc.exec_time_s(self.requested_sectors, sectors, tput),
            dram_bytes=int(wc.halo_dram_bytes(self.capacity_requested, volume)), hits=int(round(hits * inv)),
            misses=int(round(misses * inv)), hdd_requests=int(round(tm.requests * inv)),
            hdd_write_sectors=int(round(tm.write_sectors * inv)),
            hdd_read_sectors=int(round((tm.sectors - tm.write_sectors) * inv)), hdd_fill_sectors=0,
            dirty_blocks_at_end=int(round(int(sc[wc._TOTAL]) * inv)),
            lbn_folded=bool(tm.requests and tm.max_lbn >= self.spec.block_count - 1024))

    @property
    def sampling(self) -> dict | None:
        """None when exact; else how the HALO run was sampled: ``method``, ``rate`` [-], ``why`` (what the exact
        state would need vs the cap) and ``error`` (the bound measured in ``bench/``, :func:`sampling_error_text`)."""
        if self.rate == 1.0:
            return None
        why = (f"the exact per-block state (written blocks, regions, HALO's map) would need about "
               f"{format_bytes(self._need)} (the sample's need when it passed the cap, over the rate then, a hash "
               f"table's doubling included), more than the stream's cap of {format_bytes(self._cap_seen)} "
               f"({self.state_share:.3g} of the run's memory budget, {CLI_OPTION})" if self._need else
               f"the region sample rate {self.rate:g} was asked for")
        return {"method": SAMPLE_METHOD, "rate": self.rate, "why": why, "error": sampling_error_text(self.rate)}

    @property
    def state_bytes(self) -> int:
        """The state held now [bytes] (:attr:`state_nbytes`): what the cap bounds."""
        return self.state_nbytes

    def parts(self, policy: str) -> tuple[float, float, float, float]:
        """The HDD stream's (seek, rotation, transfer, other) time [ms] of ``policy`` (as
        :func:`models.storage.uncertainty.writecache_streams` gives them)."""
        if not self.want_parts:
            raise ValueError("the streamed write cache was run without its HDD time components (parts=False)")
        self._batch2.flush()
        (self._none if policy == "none" else self._halo).flush()
        k = self._scale() if policy == "halo" else 1.0  # a sample's HALO stream: its time x k
        return tuple(float(x) * k for x in (self._none if policy == "none" else self._halo).parts)

    @property
    def state_nbytes(self) -> int:
        """Memory of the state held now [bytes] (hash tables, the map, the bucket table, PCM arrays, sizes, the
        batches gathered)."""
        n = self.sizes.nbytes + self.size_counts.nbytes
        for b in ("_batch1", "_batch2"):
            n += getattr(self, b).nbytes if hasattr(self, b) else 0
        for k in ("_written", "_regions", "_footprint"):  # (None once the first pass has ended)
            s = getattr(self, k, None)
            n += s.nbytes if s is not None else 0
        if self._ready:
            n += self.block_key.nbytes + self.block_region.nbytes
            n += sum(a.nbytes for a in getattr(self, "_state", ()))
            n += self._none._pending.nbytes + self._halo._pending.nbytes
        return int(n)


def sampling_error_text(rate: float) -> str:
    """The measured error of the sampled HALO run at ``rate`` [-], in words: the largest errors over the traces
    measured at the nearest measured rate at or below it (``data/`` :data:`ERROR_FILE`), or that it is beyond
    the measured range."""
    from models.data import read_csv

    try:
        df = read_csv(ERROR_FILE)
    except (KeyError, OSError):
        return f"error unknown: data/{ERROR_FILE} is missing (run bench/bench_write_cache_sampling.py)"
    rates = np.sort(df["rate"].unique())
    at = rates[rates <= rate * (1 + 1e-9)]
    if not len(at):
        return (f"error unknown at this rate: measured only down to rate {rates.min():g} "
                f"(data/{ERROR_FILE}, bench/bench_write_cache_sampling.py)")
    r = float(at.max())
    d = df[df["rate"] == r]
    worst = d.groupby("metric")["abs_error"].max()
    n = d["trace"].nunique()
    words = {"halo_traffic_rate": "HALO traffic rate within {:.3f} (absolute)",
             "halo_hdd_time": "HALO HDD time within {:.0%}", "row_value": "row value within {:.0%}"}
    parts = [words[m].format(float(worst[m])) for m in words if m in worst.index]
    big = d[d["requests"] == d["requests"].max()]
    if n > 1 and "row_value" in set(big["metric"]):
        parts[-1] += (f" (on the largest, {int(big['requests'].iloc[0]):,} requests: "
                      f"{float(big.loc[big.metric == 'row_value', 'abs_error'].max()):.0%})")
    bias = d.loc[d.metric == "halo_hdd_ms_per_sector", "error"]
    return (f"measured at rate {r:g} on {n} traces (data/{ERROR_FILE}): " + ", ".join(parts)
            + (f"; the sample's HDD time per sector is biased {bias.mean():+.1%} on average (its seeks cross the "
               "regions it leaves out)" if len(bias) else ""))


def _sorted_search(keys: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``np.searchsorted(keys, q)`` with the queries sorted first (random queries into a large table miss the
    caches; sorted ones walk it: ~2x faster on a million)."""
    order = np.argsort(q, kind="stable")
    out = np.empty(len(q), np.int64)
    out[order] = np.searchsorted(keys, q[order])
    return out


class _Batch:
    """Columns gathered until they hold :data:`BATCH_REQUESTS` rows, then handed to ``take(*columns)``."""

    def __init__(self, take):
        self.take, self.cols, self.n = take, [], 0

    def add(self, *cols) -> None:
        self.extend([cols])

    def extend(self, parts) -> None:
        """Gather several parts' columns, then take the batch if it is full: as :meth:`add` of their concatenation."""
        for cols in parts:
            if len(cols[0]):
                self.cols.append(cols)
                self.n += len(cols[0])
        if self.n >= BATCH_REQUESTS:
            self.flush()

    def flush(self) -> None:
        if self.cols:
            cols = [np.concatenate(c) if len(self.cols) > 1 else c[0] for c in zip(*self.cols)]
            self.cols, self.n = [], 0
            self.take(*cols)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for c in self.cols for a in c)


def _requests_text(n: int) -> str:
    """``one request`` or ``a part of N requests``: what a charge of :func:`_charged_parts` covers."""
    return "one request" if n == 1 else f"a part of {n:,} requests"


def _charged_parts(cols, need, kept=None):
    """Consecutive parts of a batch (``cols``: columns of one length), each yielded as ``(start, part, got)`` once its
    working memory is charged (:func:`models.budget.charge`) -- ``need(*part) -> (bytes, what, got)``, which changes
    nothing, plus ``kept()`` [bytes], what the earlier parts keep -- so no state moves before the charge passes.
    A part refused is halved and retried, down to one request, whose refusal stands (its message names
    ``--memory-budget`` and ``PCM_MEMORY_BUDGET``); the rest of the batch goes on in parts of the size that fitted.
    Unrefused, the batch is one part (``cols`` itself)."""
    n = len(cols[0])
    start, step = 0, n
    while start < n:
        stop = min(n, start + step)
        part = cols if stop - start == n else tuple(c[start:stop] for c in cols)
        nbytes, what, got = need(*part)
        extra = float(kept()) if kept is not None else 0.0
        try:
            charge(nbytes + extra, what + (f", beside the {format_bytes(extra)} the batch's earlier parts keep"
                                          if extra else ""))
        except BudgetExceeded:
            if stop - start == 1:
                raise
            step = (stop - start) // 2
            continue
        yield start, part, got
        start = stop


def _columns(chunk):
    """(offset [bytes], size [bytes], device, is write) of a chunk as int64/bool arrays; devices checked."""
    off = np.asarray(chunk["offset_bytes"], np.int64)
    size = np.asarray(chunk["size_bytes"], np.int64)
    dev = np.asarray(chunk["device"], np.int64)
    if len(dev) and (int(dev.min()) < 0 or int(dev.max()) >= 1 << (63 - KEY_BLOCK_BITS)):
        raise ValueError(f"the streamed write cache needs device numbers within [0, 2**{63 - KEY_BLOCK_BITS})")
    return off, size, dev, np.asarray(chunk["is_write"], bool)
