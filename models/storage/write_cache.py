"""PCM write cache in front of a hard disk: HALO (seed 003, Algorithm 1) vs LRU vs none.

HALO keeps written 4 KiB blocks in PCM and groups them by the 1 MiB disk region they
belong to. The *bucketinfo* table has one bucket per region with ``listhead`` (PBN of the
last block linked into the region's list), ``bcounts`` (blocks cached for the region) and
``recency`` (global request clock at the region's last access). A hash map LBN -> PBN
answers lookups (here an array indexed by compact block id; its DRAM footprint is
modelled as the paper's cuckoo table, see :func:`halo_dram_bytes`). Per Algorithm 1:

- every request advances the global request clock;
- a write hit rewrites the PCM block in place; a write miss allocates a PCM block, links
  it at the head of its bucket's list (activating the bucket if empty), adds it to the
  map, sets the bucket's recency and increments ``bcounts`` and ``total_bcnts``;
- a read hit is served from PCM (recency updated); a read miss is served from the HDD
  and *not* allocated;
- when PCM utilization reaches ``threshold`` (95 %), buckets are destaged: scanning the
  bucket table from ``buck_scan``, a bucket is a victim if ``bcounts > average +
  TH_BCOUNTS`` and it is older than ``TH_RECENCY`` requests, or older than
  ``OUTDATE_RECENCY``; both thresholds decrease with every bucket scanned. All blocks of
  the victim are written to the HDD as one LBN-sorted batch (contiguous sectors merged
  into one request), the bucket is deactivated and its map entries deleted.

Each PCM block carries its metadata (LBN, next PBN in the bucket list, 8-bit bitmap of
the valid 512 B sectors) "on PCM"; :func:`recover` rebuilds the map and the bucket lists
from that metadata alone after a crash (sec. III "Integrity upon system crashes").

The LRU baseline is a write cache of the same capacity (4 KiB blocks, write-allocate,
read misses not allocated as in HALO) that writes a dirty block back when it is evicted
(:func:`simulate_lru_write_cache`). By default it is HALO's like for like: the same 512 B
sector granularity (a per-sector dirty bitmap, HALO's 8-bit one; no fill), the same PCM
space (it starts writing back where HALO starts destaging, at ``threshold`` x capacity)
and the same write-back batching (the dirty sectors of what is written back go to the HDD
in LBN order, contiguous sectors merged into one request); only the replacement (least
recently used block vs Algorithm 1's bucket choice) and the grouping (one block vs a whole
1 MiB region) differ. ``lru_granularity="block"`` is the block-fill LRU: a partial write
miss first *fills* the block's other sectors from the HDD and an evicted block is written
back whole. It is the right model for a cache that can only hold whole blocks (a page or
block cache without per-sector valid bits, e.g. a kernel page cache doing read-modify-write
of partly written pages, or a block-level SSD/PCM cache whose metadata keeps one valid bit
per block); it moves more data than no cache when most writes are partial (Fin1: traffic
rate above 1), so it is not the baseline HALO is compared with.

The HDD sees read misses plus destaged/evicted writes (and fills). Outputs
(:func:`run_write_cache`, :class:`WriteCacheResult`), as in sec. V-A::

    traffic rate   = HDD sectors / requested sectors                                [-]
    LBN distance   = mean |LBN_i - LBN_(i-1)| over the HDD stream                   [sectors]
    throughput     = HDD stream bytes / sum of its service times                    [MB/s]
                     (:func:`models.storage.hdd.stream_throughput_MBps`; by default
                     ``hdd_rotation="positioned"``: each request's rotational latency
                     from the platter angle where the previous one ended, so a
                     destaged LBN-sorted batch waits only for the gaps between its
                     requests; ``"expected"``, half a rotation each, is the earlier
                     model, kept as a variant; ``drive_cache``: the drive's own
                     write-back buffer, none by default,
                     :mod:`models.storage.hdd.write_buffer`)
    execution time = Total_IO_Size * Traffic_Rate / Average_Throughput              [s]

plus the DRAM held by the cache's metadata.

Large requests (issue 42): ``"none"`` runs per request, never cut into 4 KiB blocks. HALO and LRU run a read
that touches no block any write of the trace touches as one extent (:func:`prepare_requests`,
``passthrough_reads``): both allocate on writes only, so its blocks are never cached, every one misses and
leaves the cache's state alone, and its sectors reach the HDD as one run. Both equal the block cut field by
field (``tests/models/storage/test_write_cache_extents.py``). Writes, and reads of written blocks, stay cut into
blocks (charged against the run's memory budget, :mod:`models.budget`): for a write of ``n`` blocks far larger
than an LRU of ``C`` blocks, the cache part is exact in closed form (after the first ``2C`` blocks each block
evicts the one ``C`` before it, so the request's middle blocks are written back in order, whole), but the
LRU writes each evicted block back as its own HDD request and the HDD model sums their service times one by
one, so an extent record would equal the per-block stream only up to the rounding of that sum, and the
per-block stream itself costs memory per block; HALO's victim (scan pointer, per-region block counts and
recency, thresholds relaxed per scanned bucket, all regions of one request having age 0) decides where each
destaged batch ends, which depends on every block's state and has no pass-through shortcut proved here.

:func:`sweep_cache_sizes` runs every policy
at every cache size (Figures 5-8; default: the paper's sizes scaled to the trace's
footprint, :func:`sweep_sizes_mb`). The paper gives no values for TH_BCOUNTS,
TH_RECENCY, OUTDATE_RECENCY or the relaxation steps; :class:`HaloParams` fixes ours.
Measured results against the paper's figures: ``docs/models/write_cache.md``.

References
----------
.. [1] Z. Liu, B. Wang, P. Carpenter, D. Li, J. S. Vetter, W. Yu, "PCM-Based Durable Write
   Cache for Fast Disk I/O", MASCOTS 2012 (seed 003), sec. III (Algorithm 1, data
   structures, destaging, integrity) and sec. V-A (traffic rate, LBN distance, execution
   time; Figures 5-8).
.. [2] R. Pagh, F. Rodler, "Cuckoo hashing", ESA 2001 (the DRAM map).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Literal

import numpy as np
import pandas as pd
from numba import njit
from pydantic import Field

from models._base import ModelInput, ModelResult, results_frame
from models.budget import charge, reserve
from models.provenance import param, param_names, trace_keys
from models.sim.primitives import lru_move_to_head as _move_to_head
from models.sim.primitives import lru_pop_tail as _pop_tail
from models.sim.primitives import lru_push_head as _push_head
from models.storage import hdd

__all__ = [
    "SECTOR_BYTES",
    "BLOCK_SECTORS",
    "REGION_SECTORS",
    "PAPER_CACHE_MB",
    "DRIVE_CACHE",
    "HaloParams",
    "CacheRun",
    "WriteCacheResult",
    "WriteCacheSweep",
    "prepare_requests",
    "cache_blocks",
    "simulate_halo",
    "simulate_lru_write_cache",
    "simulate_cache",
    "recover",
    "halo_dram_bytes",
    "lru_dram_bytes",
    "run_write_cache",
    "sweep_cache_sizes",
    "sweep_sizes_mb",
    "scaled_cache_sizes_mb",
    "footprint_bytes",
    "exec_time_s",
    "provenance_keys_for",
]

SECTOR_BYTES = 512
#: Sectors per PCM block (4 KiB, one 8-bit bitmap).
BLOCK_SECTORS = 8
#: Memory charged against the run's budget (:mod:`models.budget`) per 4 KiB item of a request [bytes]: the cut's
#: temporaries (request index, block, two sector bounds, unique's sort and inverse, 8 bytes each), what it keeps
#: and the kernels' per-block state and HDD runs; measured 92 bytes per item above an empty run (peak RSS of
#: ``pcm-planner writecache --cache-mb 64``, HALO, on two 4 GiB requests: 2.1 M items), rounded up.
ITEM_BYTES = 112
#: Memory charged per 1 MiB region of the trace's address range by HALO [bytes]: its bucket table keeps three
#: int64 per region (listhead, bcounts, recency); derived from the kernel's arrays. (A read run as one extent
#: covers regions without cutting them into items, so the items' charge no longer bounds the table.)
REGION_BYTES = 24
#: Sectors per HALO bucket region (1 MiB).
REGION_SECTORS = 2048
#: Cache sizes of the paper's sweep (Figures 6-8) [MB].
PAPER_CACHE_MB = (256, 512, 768, 1024, 2048, 3072, 4096, 6144)
#: Fin1's dataset (Table II) that the paper's cache sizes are relative to [MB].
_FIN1_DATASET_MB = param("write_cache.fin1_dataset_mb").value
#: The HDD stream's drive write cache by default: none (registry ``write_cache.drive_cache_bytes`` = 0; seed 003
#: does not say whether its disk's own write cache was on), so the stream is timed write-through.
DRIVE_CACHE: str | float = param("write_cache.drive_cache_bytes").value or "none"


class HaloParams(ModelInput):
    """HALO tuning constants (not published in the paper except the 95 % threshold; ours, fixed once).

    Recency thresholds are in requests of the global clock; ``None`` means relative to
    the cache capacity ``C`` [blocks]: ``TH_RECENCY = C / 4`` and ``OUTDATE_RECENCY =
    4 C`` (so ``OUTDATE_RECENCY >> TH_RECENCY`` as the paper asks). Defaults and their
    provenance: registry ``write_cache.*`` (:mod:`models.provenance`).
    """

    threshold: float = Field(default=param("write_cache.destage_threshold").value, gt=0, le=1,
                             description="PCM utilization that starts destaging")
    th_bcounts: float = Field(default=param("write_cache.th_bcounts").value, ge=0, le=1e6,
                              description="TH_BCOUNTS [blocks above the average]")
    th_recency: float | None = Field(default=None, ge=0, le=1e12, description="TH_RECENCY [requests]")
    outdate_recency: float | None = Field(default=None, ge=0, le=1e12, description="OUTDATE_RECENCY [requests]")
    relax_bcounts: float = Field(default=param("write_cache.relax_bcounts").value, gt=0, le=1e6,
                                 description="TH_BCOUNTS decrease per scanned bucket [blocks]")
    relax_recency_fraction: float = Field(default=param("write_cache.relax_recency_fraction").value, gt=0, le=1,
                                          description="TH_RECENCY decrease per scanned bucket [fraction of TH_RECENCY]")

    def resolved(self, capacity_blocks: int) -> tuple[float, float, float, float]:
        """(TH_BCOUNTS [blocks], TH_RECENCY [requests], OUTDATE_RECENCY [requests], TH_RECENCY
        decrease per scanned bucket [requests]) for a PCM of ``capacity_blocks`` 4 KiB blocks.

        >>> HaloParams().resolved(1024)
        (4.0, 256.0, 4096.0, 16.0)
        """
        th_r = (self.th_recency if self.th_recency is not None
                else capacity_blocks * param("write_cache.th_recency_per_capacity").value)
        out_r = (self.outdate_recency if self.outdate_recency is not None
                 else param("write_cache.outdate_recency_per_capacity").value * capacity_blocks)
        return self.th_bcounts, float(th_r), float(out_r), self.relax_recency_fraction * max(th_r, 1.0)


# ----------------------------------------------------------------------------- requests
@dataclass(frozen=True)
class Requests:
    """A block trace cut into 4 KiB items (one row per touched block of each request)."""

    lbn: np.ndarray  # first sector of each request
    nsect: np.ndarray  # sectors of each request
    is_write: np.ndarray
    item_ptr: np.ndarray  # items of request r: item_ptr[r]:item_ptr[r+1]
    item: np.ndarray  # compact block id of each item
    item_bits: np.ndarray  # requested sectors inside the block (8-bit)
    block_key: np.ndarray  # compact id -> block number (lbn // 8), sorted
    block_region: np.ndarray  # compact id -> compact region id (regions sorted by LBN)
    n_regions: int
    requested_sectors: int
    name: str = "trace"
    meta: dict = field(default_factory=dict)
    #: Pass-through reads (:func:`prepare_requests`): their request indices, cut to their first item only.
    passthrough: np.ndarray | None = None
    #: Items of each pass-through read not cut (all but its first) [items].
    passthrough_items: np.ndarray | None = None
    #: Distinct 4 KiB blocks of the whole trace when pass-through reads are not cut; -1: ``len(block_key)``.
    footprint: int = -1

    @property
    def footprint_blocks(self) -> int:
        return self.footprint if self.footprint >= 0 else len(self.block_key)

    @property
    def skipped_items(self) -> int:
        """4 KiB items of the pass-through reads not cut into blocks [items]."""
        return 0 if self.passthrough_items is None else int(self.passthrough_items.sum())


#: Why the HALO and LRU caches cut every request into 4 KiB blocks (the budget's refusal names it).
_NOT_EXTENTS = ("HALO's destage choice (scan pointer, per-region block counts and recency, relaxing thresholds) "
                "depends on the state of every cached block, and the LRU writes each evicted 4 KiB block back as "
                "its own HDD request, which the HDD model times one by one")


def _request_extents(trace) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(first sector, sectors, end sector, is write)`` of each request of ``trace`` [sectors], devices in
    disjoint, region-aligned address ranges (as :func:`prepare_requests` cuts them); ValueError if empty."""
    n = len(trace)
    if n == 0:
        skipped = int((getattr(trace, "meta", None) or {}).get("skipped_zero_size", 0))
        raise ValueError("the trace has no requests" + (f" ({skipped} zero-size requests were skipped)" if skipped else ""))
    off = np.asarray(trace.offset_bytes, dtype=np.int64)
    size = np.asarray(trace.size_bytes, dtype=np.int64)
    dev = np.asarray(trace.device, dtype=np.int64)
    lbn = off // SECTOR_BYTES
    end = -(-(off + size) // SECTOR_BYTES)
    if len(np.unique(dev)) > 1:  # separate address spaces per device, region aligned
        span = int(-(-(end.max() + 1) // REGION_SECTORS) * REGION_SECTORS)
        _, dev_idx = np.unique(dev, return_inverse=True)
        lbn = lbn + dev_idx * span
        end = end + dev_idx * span
    return lbn, end - lbn, end, np.asarray(trace.is_write, dtype=np.bool_)


def _extent_footprint_blocks(lbn: np.ndarray, end: np.ndarray) -> int:
    """Distinct 4 KiB blocks covered by the sector extents ``[lbn, end)`` [blocks]: the union of the
    requests' block ranges, without cutting them into blocks."""
    b0 = lbn // BLOCK_SECTORS
    b1 = (end - 1) // BLOCK_SECTORS + 1  # exclusive
    order = np.argsort(b0, kind="stable")
    b0, b1 = b0[order], b1[order]
    reach = np.maximum.accumulate(b1)  # furthest block end among the extents up to each one
    start = np.maximum(b0, np.concatenate([[b0[0]], reach[:-1]]))
    return int(np.maximum(b1 - start, 0).sum(dtype=np.int64))


def _merged(b0: np.ndarray, b1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The union of the closed ranges ``[b0, b1]`` as sorted disjoint closed ranges ``(starts, ends)``."""
    if not len(b0):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    order = np.argsort(b0, kind="stable")
    b0, b1 = b0[order], b1[order]
    reach = np.maximum.accumulate(b1)
    new = np.concatenate([[True], b0[1:] > reach[:-1] + 1])  # a range starts a new piece past the reach
    starts = b0[new]
    ends = reach[np.concatenate([np.flatnonzero(new)[1:] - 1, [len(b0) - 1]])]
    return starts, ends


def _overlaps(b0: np.ndarray, b1: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Whether each closed range ``[b0, b1]`` meets the disjoint sorted ranges ``(starts, ends)``."""
    if not len(starts):
        return np.zeros(len(b0), np.bool_)
    k = np.searchsorted(starts, b1, side="right") - 1
    return (k >= 0) & (ends[np.maximum(k, 0)] >= b0)


def _ranks(g: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Index of each ``g`` among the integers covered by the disjoint sorted closed ranges (each ``g`` covered)."""
    before = np.concatenate([[0], np.cumsum(ends - starts + 1)])
    k = np.searchsorted(starts, g, side="right") - 1
    return before[k] + (g - starts[k])


def prepare_requests(trace, *, passthrough_reads: bool = False) -> Requests:
    """Cut a :class:`~models.traces.core.BlockTrace` into 512 B sectors and 4 KiB blocks.

    Requests of different devices are put in disjoint address ranges. ``passthrough_reads`` cuts a read
    that touches no block any write of the trace touches to its first 4 KiB item only: the caches allocate
    on writes only, so every item of such a read misses and changes no cache state under HALO and LRU, and
    its sectors go to the HDD as one run (:func:`_widen_passthrough` gives the run its whole extent back
    after the kernel). The results equal the full cut's field by field; the blocks and regions keep their
    full-trace numbering and count (HALO scans every region; the footprint sizes the simulated capacity).

    >>> from models.traces.core import BlockTrace
    >>> t = BlockTrace([0, 1], [True, False], [0, 6144], [6144, 1024], [0, 0])
    >>> r = prepare_requests(t)
    >>> r.item.tolist(), [int(b) for b in r.item_bits], r.requested_sectors
    ([0, 1, 1], [255, 15, 48], 14)
    """
    lbn, nsect, end, is_write = _request_extents(trace)
    off = np.asarray(trace.offset_bytes, dtype=np.int64)
    size = np.asarray(trace.size_bytes, dtype=np.int64)
    b0 = lbn // BLOCK_SECTORS
    b1 = (end - 1) // BLOCK_SECTORS
    counts = b1 - b0 + 1
    passthrough = None
    if passthrough_reads:
        passthrough = np.flatnonzero(~is_write & (counts > 1) & ~_overlaps(b0, b1, *_merged(b0[is_write],
                                                                                            b1[is_write])))
        if not len(passthrough):
            passthrough = None
    full_counts = counts
    if passthrough is not None:
        counts = counts.copy()
        counts[passthrough] = 1
        b1 = b0 + counts - 1
    items = float(counts.sum(dtype=np.float64))  # float: no int64 wrap on absurd sizes
    big = int(np.argmax(counts))
    charge(items * ITEM_BYTES, f"cutting the trace into 4 KiB blocks ({items:.3g} blocks; the largest request is "
                               f"{int(size[big])} bytes at offset {int(off[big])}) for the HALO or LRU cache: writes and "
                               f"reads of written blocks are simulated block by block, not as extents, because "
                               f"{_NOT_EXTENTS} (a read of unwritten blocks runs as one extent; --policy none runs "
                               f"per request)")
    ptr, blk, bits = _cut_blocks(lbn, end, b0, counts)
    keys, item = np.unique(blk, return_inverse=True)
    per_region = REGION_SECTORS // BLOCK_SECTORS
    extra = {}
    if passthrough is None:
        regions, reg_idx = np.unique(keys // per_region, return_inverse=True)
        n_regions = len(regions)
    else:  # the regions of the whole trace: every request covers the regions between its first and last block
        first, last = lbn // BLOCK_SECTORS, (end - 1) // BLOCK_SECTORS
        starts, ends = _merged(first // per_region, last // per_region)
        n_regions = int((ends - starts + 1).sum())
        reg_idx = _ranks(keys // per_region, starts, ends)
        extra = {"passthrough": passthrough, "passthrough_items": full_counts[passthrough] - 1,
                 "footprint": _extent_footprint_blocks(lbn, end)}
    return Requests(lbn=lbn, nsect=nsect, is_write=is_write, item_ptr=ptr,
                    item=item.astype(np.int64), item_bits=bits, block_key=keys.astype(np.int64),
                    block_region=reg_idx.astype(np.int64), n_regions=n_regions,
                    requested_sectors=int(nsect.sum()), name=getattr(trace, "name", "trace"),
                    meta=dict(getattr(trace, "meta", {}) or {}), **extra)


def _cut_blocks(lbn: np.ndarray, end: np.ndarray, b0: np.ndarray, counts: np.ndarray):
    """The 4 KiB items of requests ``[lbn, end)`` [sectors] whose first ``counts`` blocks from block ``b0`` are cut:
    ``(item_ptr, block number of each item, requested sectors inside each block (8-bit))``."""
    ptr = np.concatenate([[0], np.cumsum(counts)])
    req = np.repeat(np.arange(len(lbn)), counts)
    blk = b0[req] + (np.arange(ptr[-1]) - ptr[req])
    lo = np.maximum(lbn[req], blk * BLOCK_SECTORS) - blk * BLOCK_SECTORS
    hi = np.minimum(end[req], (blk + 1) * BLOCK_SECTORS) - blk * BLOCK_SECTORS
    bits = ((1 << hi) - (1 << lo)).astype(np.uint8)
    return ptr, blk, bits


def footprint_bytes(trace) -> int:
    """Distinct 4 KiB blocks touched by ``trace`` [bytes] (a :class:`Requests`' own count; a trace's from the
    union of its requests' extents, without cutting them into blocks)."""
    if isinstance(trace, Requests):
        return trace.footprint_blocks * BLOCK_SECTORS * SECTOR_BYTES
    lbn, _, end, _ = _request_extents(trace)
    return _extent_footprint_blocks(lbn, end) * BLOCK_SECTORS * SECTOR_BYTES


def scaled_cache_sizes_mb(footprint: int, sizes_mb=PAPER_CACHE_MB) -> np.ndarray:
    """The paper's cache sizes scaled to a trace's footprint [MB].

    The paper sweeps 256 MB - 6 GB on Fin1, an 18 GB dataset (1.4 % - 33 %); we keep
    those ratios relative to the trace's footprint [bytes] (distinct 4 KiB blocks).

    >>> scaled_cache_sizes_mb(18 * 1024**3).round(0).tolist()[:3]
    [256.0, 512.0, 768.0]
    """
    return np.asarray(sizes_mb, dtype=float) * (footprint / 2**20) / _FIN1_DATASET_MB


# ----------------------------------------------------------------------------- kernels
# The LRU list helpers come from models.sim.primitives (its docstring states the numba
# on-disk cache rule for kernels calling helpers of another file).
@njit(cache=True)
def _grow(a, n):
    if n < len(a):
        return a
    b = np.empty(max(2 * len(a), n + 1), a.dtype)
    b[: len(a)] = a
    return b


@njit(cache=True)
def _run_buffers():
    """Empty buffers of the HDD request stream: (first sector, sectors, is write) per run."""
    return np.empty(1024, np.int64), np.empty(1024, np.int64), np.empty(1024, np.bool_)


def _readonly(a: np.ndarray) -> np.ndarray:
    """``a`` as a read-only view (no copy): the request flags handed to the kernels are read-only whether they come
    from a trace's frozen arrays or a computed one, so numba compiles each kernel once, not once per writability."""
    if not a.flags.writeable:
        return a
    v = a.view()
    v.flags.writeable = False
    return v


@njit(cache=True)
def _grow_runs(out_lbn, out_n, out_w, room):
    """The run buffers, copied into larger ones that hold ``room`` runs."""
    return _grow(out_lbn, room), _grow(out_n, room), _grow(out_w, room)


#: The one signature of :func:`_emit_bits`: its callers pass the bitmap as uint8 or int64, the count and flags as
#: literals or variables, each a compile of its own (7 in a CI run); declared, every call converts to it.
_EMIT_BITS_SIG = "int64(int64[::1], int64[::1], boolean[::1], int64, int64, int64, boolean, boolean)"


@njit(_EMIT_BITS_SIG, cache=True)
def _emit_bits(out_lbn, out_n, out_w, cnt, sector0, bits, write, merge):
    """Append the runs of set bits of one block starting at sector0 (merged with the last run
    if contiguous); the caller guarantees room for 4 more runs. Returns the new count."""
    k = 0
    while k < BLOCK_SECTORS:
        if (bits >> k) & 1:
            j = k
            while j < BLOCK_SECTORS and (bits >> j) & 1:
                j += 1
            s = sector0 + k
            if merge and cnt > 0 and out_w[cnt - 1] == write and out_lbn[cnt - 1] + out_n[cnt - 1] == s:
                out_n[cnt - 1] += j - k
            else:
                out_lbn[cnt] = s
                out_n[cnt] = j - k
                out_w[cnt] = write
                cnt += 1
            merge = True
            k = j
        else:
            k += 1
    return cnt


@njit(cache=True)
def _popcount8(b):
    c = 0
    while b:
        c += b & 1
        b >>= 1
    return c


@njit(cache=True)
def _idle_cycles(bcounts, avg, th_b, relax_b, active):
    """Whole scan cycles of HALO's victim search that cannot find a victim [cycles] (issue 18: TH_BCOUNTS
    2e5 relaxed by 1 per scanned bucket took 150 s on a 7,000-request trace, one bucket at a time).

    Called after a cycle found none, with TH_RECENCY already below 0: no bucket is outdated (ages do
    not change while scanning) and every age passes, so bucket c becomes the victim once TH_BCOUNTS
    drops below ``bcounts[c] - avg``, after ``floor((avg + th_b - bcounts[c]) / relax_b)`` more decrements
    at least; each idle cycle makes ``active`` of them. One cycle less than the fewest is skipped, so
    the victim search ends exactly where scanning bucket by bucket would (up to rounding of the
    thresholds' subtraction when TH_BCOUNTS or its decrement is not a whole number).
    """
    need = np.inf
    for c in range(len(bcounts)):
        if bcounts[c] != 0:
            need = min(need, np.floor((avg + th_b - bcounts[c]) / relax_b))
    if not need >= 2 * active or need == np.inf:
        return 0
    return int(need // active) - 1


#: The scalars of HALO's state carried between calls of :func:`_halo_steps` (indices into its int64 array).
_NFREE, _TOTAL, _ACTIVE, _SCAN, _CLOCK, _OPS, _HITS, _MISSES, _DBUCKETS, _DBLOCKS, _CRASHED, _DONE = range(12)


@njit(cache=True)
def _halo_state(capacity, n_items, n_regions):
    """HALO's state before the first request (:func:`_halo_steps` carries it): PCM metadata per block (LBN as a
    compact block id, next PBN in the bucket list, valid-sector bits: 0 = free), the DRAM map (compact block id ->
    PBN), the bucket table (list head, block count, recency per region), the free-PBN stack and the scalars."""
    meta_item = np.full(capacity, -1, np.int64)
    meta_next = np.full(capacity, -1, np.int64)
    meta_bits = np.zeros(capacity, np.uint8)
    pbn_of = np.full(n_items, -1, np.int64)
    listhead = np.full(n_regions, -1, np.int64)
    bcounts = np.zeros(n_regions, np.int64)
    recency = np.zeros(n_regions, np.int64)
    free = np.arange(capacity - 1, -1, -1).astype(np.int64)
    sc = np.zeros(12, np.int64)
    sc[_NFREE] = capacity
    return meta_item, meta_next, meta_bits, pbn_of, listhead, bcounts, recency, free, sc


@njit(cache=True)
def _halo_steps(meta_item, meta_next, meta_bits, pbn_of, listhead, bcounts, recency, free, sc,
                is_write, item_ptr, item, item_bits, block_key, block_region, n_regions,
                thr_blocks, th_b0, th_r0, outdate, relax_b, relax_r, crash_at, track, hdd_ver, pcm_data,
                skip_idle, r0):
    """Run HALO (Algorithm 1) over the requests ``is_write, item_ptr, item, item_bits`` (requests ``r0, r0 + 1,
    ...`` of the trace) from the state of :func:`_halo_state`, updated in place: the whole trace at once
    (:func:`_halo_kernel`) or chunk by chunk (:mod:`models.storage.write_cache_stream`) gives the same runs.

    An item ``it >= 0`` is a compact block id (``block_key[it]``, ``block_region[it]``); ``it < 0`` is a block
    no write of the trace touches, block number ``-1 - it`` (reads only: never cached). Returns the HDD runs
    (first sector, sectors, is write) and the runs emitted up to the end of each request (-1: not completed).
    """
    n_req = len(is_write)
    req_end = np.full(n_req, -1, np.int64)  # runs emitted up to the end of each request (-1: not completed)
    nfree = sc[_NFREE]
    total = sc[_TOTAL]
    active = sc[_ACTIVE]
    scan = sc[_SCAN]
    clock = sc[_CLOCK]
    ops = sc[_OPS]
    hits = sc[_HITS]
    misses = sc[_MISSES]
    destaged_buckets = sc[_DBUCKETS]
    destaged_blocks = sc[_DBLOCKS]
    crashed = sc[_CRASHED] != 0
    done_req = sc[_DONE]
    out_lbn, out_n, out_w = _run_buffers()
    cnt = 0
    batch_key = np.empty(256, np.int64)
    batch_pbn = np.empty(256, np.int64)
    for r in range(n_req):
        if crashed:
            break
        clock += 1
        w = is_write[r]
        first_run = True
        for k in range(item_ptr[r], item_ptr[r + 1]):
            # room for this item's runs: 4, and a destage of one bucket (<= 256 blocks of 4 runs); reserved per
            # item, not per request (a 4 GiB request reserved 2^20 items x 1028 runs, 18 GB, issue 42 item 1)
            room = cnt + 4 * (1 + 256) + 8
            if room > len(out_lbn):
                out_lbn, out_n, out_w = _grow_runs(out_lbn, out_n, out_w, room)
            it = item[k]
            bits = item_bits[k]
            if it >= 0:
                b = block_region[it]
                p = pbn_of[it]
                key = block_key[it]
            else:  # a block no write touches: never cached
                b = -1
                p = -1
                key = -1 - it
            if w:
                if p >= 0:  # write hit: in place
                    if ops == crash_at:
                        crashed = True
                        break
                    ops += 1
                    if track:
                        for s in range(BLOCK_SECTORS):
                            if (bits >> s) & 1:
                                pcm_data[p, s] = r0 + r + 1
                    meta_bits[p] |= bits
                    recency[b] = clock
                    hits += 1
                else:  # write miss: allocate, link at the list head
                    if ops == crash_at:
                        crashed = True
                        break
                    ops += 1
                    nfree -= 1
                    p = free[nfree]
                    if track:
                        for s in range(BLOCK_SECTORS):
                            pcm_data[p, s] = r0 + r + 1 if (bits >> s) & 1 else 0
                    meta_item[p] = it
                    meta_next[p] = listhead[b]
                    meta_bits[p] = bits  # written last: the block becomes valid
                    if bcounts[b] == 0:
                        active += 1
                    listhead[b] = p
                    pbn_of[it] = p
                    recency[b] = clock
                    bcounts[b] += 1
                    total += 1
                    misses += 1
                    # destaging
                    while total >= thr_blocks and not crashed:
                        avg = total / active
                        th_b = th_b0
                        th_r = th_r0
                        victim = -1
                        scanned = 0
                        while victim < 0:
                            c = scan
                            scan = (scan + 1) % n_regions
                            scanned += 1
                            if bcounts[c] != 0:
                                age = clock - recency[c]
                                if (bcounts[c] > avg + th_b and age > th_r) or age > outdate:
                                    victim = c
                                else:
                                    th_b -= relax_b
                                    th_r -= relax_r
                            if victim < 0 and scanned == n_regions:  # a whole cycle without a victim
                                scanned = 0
                                if skip_idle and th_r < 0:  # only TH_BCOUNTS holds every bucket back: skip idle cycles
                                    idle = _idle_cycles(bcounts, avg, th_b, relax_b, active)
                                    th_b -= relax_b * (active * idle)
                                    th_r -= relax_r * (active * idle)
                        # collect the bucket's blocks, sort by LBN, write one batch
                        m = 0
                        q = listhead[victim]
                        while q >= 0:
                            batch_key[m] = block_key[meta_item[q]]
                            batch_pbn[m] = q
                            m += 1
                            q = meta_next[q]
                        order = np.argsort(batch_key[:m])
                        merge = False
                        for j in range(m):
                            q = batch_pbn[order[j]]
                            if ops == crash_at:
                                crashed = True
                                break
                            ops += 1
                            cnt = _emit_bits(out_lbn, out_n, out_w, cnt, batch_key[order[j]] * BLOCK_SECTORS,
                                             meta_bits[q], True, merge)
                            merge = True
                            if track:
                                for s in range(BLOCK_SECTORS):
                                    if (meta_bits[q] >> s) & 1:
                                        hdd_ver[batch_key[order[j]] * BLOCK_SECTORS + s] = pcm_data[q, s]
                        if crashed:
                            break
                        for j in range(m):  # data is on the HDD: free the blocks
                            q = batch_pbn[j]
                            if ops == crash_at:
                                crashed = True
                                break
                            ops += 1
                            meta_bits[q] = 0
                            pbn_of[meta_item[q]] = -1
                            free[nfree] = q
                            nfree += 1
                        if crashed:
                            break
                        listhead[victim] = -1
                        bcounts[victim] = 0
                        total -= m
                        active -= 1
                        destaged_buckets += 1
                        destaged_blocks += m
                    if crashed:
                        break
            else:
                need = bits
                if p >= 0:
                    recency[b] = clock
                    need = bits & (255 - meta_bits[p])
                    if need == 0:
                        hits += 1
                    else:
                        misses += 1
                else:
                    misses += 1
                if need:
                    cnt = _emit_bits(out_lbn, out_n, out_w, cnt, key * BLOCK_SECTORS, need, False, not first_run)
                    first_run = False
        if crashed:
            break
        done_req = r0 + r + 1
        req_end[r] = cnt
    sc[_NFREE] = nfree
    sc[_TOTAL] = total
    sc[_ACTIVE] = active
    sc[_SCAN] = scan
    sc[_CLOCK] = clock
    sc[_OPS] = ops
    sc[_HITS] = hits
    sc[_MISSES] = misses
    sc[_DBUCKETS] = destaged_buckets
    sc[_DBLOCKS] = destaged_blocks
    sc[_CRASHED] = 1 if crashed else 0
    sc[_DONE] = done_req
    return out_lbn[:cnt], out_n[:cnt], out_w[:cnt], req_end


@njit(cache=True)
def _halo_kernel(is_write, item_ptr, item, item_bits, block_key, block_region, n_regions, capacity,
                 thr_blocks, th_b0, th_r0, outdate, relax_b, relax_r, crash_at, track, hdd_ver, pcm_data,
                 skip_idle):
    """HALO over the whole trace: :func:`_halo_steps` once from the empty state."""
    meta_item, meta_next, meta_bits, pbn_of, listhead, bcounts, recency, free, sc = _halo_state(
        capacity, len(block_key), n_regions)
    out_lbn, out_n, out_w, req_end = _halo_steps(
        meta_item, meta_next, meta_bits, pbn_of, listhead, bcounts, recency, free, sc, is_write, item_ptr, item,
        item_bits, block_key, block_region, n_regions, thr_blocks, th_b0, th_r0, outdate, relax_b, relax_r,
        crash_at, track, hdd_ver, pcm_data, skip_idle, np.int64(0))  # r0 as the stream passes it: one signature
    return (out_lbn, out_n, out_w, sc[_HITS], sc[_MISSES], sc[_DBUCKETS], sc[_DBLOCKS], sc[_TOTAL],
            sc[_ACTIVE], meta_item, meta_next, meta_bits, sc[_DONE], sc[_OPS], sc[_CRASHED] != 0, req_end)


@njit(cache=True)
def _lru_kernel(is_write, item_ptr, item, item_bits, block_key, capacity, whole_blocks):
    """LRU write cache; ``slot_bits`` is the dirty bitmap of each cached block. With
    ``whole_blocks`` a partial write miss first reads the block's other sectors from the
    HDD (fill), so every cached block is complete and wholly dirty (bitmap 255)."""
    n_items = len(block_key)
    slot_of = np.full(n_items, -1, np.int64)
    slot_item = np.full(capacity, -1, np.int64)
    slot_bits = np.zeros(capacity, np.uint8)
    prev = np.full(capacity, -1, np.int64)
    nxt = np.full(capacity, -1, np.int64)
    head = np.int64(-1)  # most recent (int64, not the literal -1: one signature of the shared list helpers)
    tail = np.int64(-1)  # least recent
    used = 0
    out_lbn, out_n, out_w = _run_buffers()
    cnt = 0
    hits = 0
    misses = 0
    evictions = 0
    fill_sectors = 0
    req_end = np.empty(len(is_write), np.int64)  # runs emitted up to the end of each request
    for r in range(len(is_write)):
        w = is_write[r]
        room = cnt + 4 * (item_ptr[r + 1] - item_ptr[r]) + 8  # a request can emit 4 runs per item
        if room > len(out_lbn):
            out_lbn, out_n, out_w = _grow_runs(out_lbn, out_n, out_w, room)
        first_run = True
        for k in range(item_ptr[r], item_ptr[r + 1]):
            it = item[k]
            bits = item_bits[k]
            s = slot_of[it]
            if s >= 0 and s != head:  # move to front
                head, tail = _move_to_head(s, head, tail, prev, nxt)
            if w:
                if s >= 0:
                    slot_bits[s] |= bits
                    hits += 1
                else:
                    misses += 1
                    if used < capacity:
                        s = used
                        used += 1
                    else:  # evict the LRU block, write back its dirty sectors
                        s, head, tail = _pop_tail(head, tail, prev, nxt)
                        cnt = _emit_bits(out_lbn, out_n, out_w, cnt, block_key[slot_item[s]] * BLOCK_SECTORS,
                                         slot_bits[s], True, False)
                        slot_of[slot_item[s]] = -1
                        evictions += 1
                    if whole_blocks and bits != 255:  # fill the block's other sectors from the HDD
                        cnt = _emit_bits(out_lbn, out_n, out_w, cnt, block_key[it] * BLOCK_SECTORS, 255 - bits,
                                         False, False)
                        fill_sectors += _popcount8(255 - bits)
                        bits = 255
                    slot_item[s] = it
                    slot_bits[s] = bits
                    slot_of[it] = s
                    head, tail = _push_head(s, head, tail, prev, nxt)
            else:
                need = bits
                if s >= 0:
                    need = bits & (255 - slot_bits[s])
                if need == 0:
                    hits += 1
                else:
                    misses += 1
                    cnt = _emit_bits(out_lbn, out_n, out_w, cnt, block_key[it] * BLOCK_SECTORS,
                                     need, False, not first_run)
                    first_run = False
        req_end[r] = cnt
    return out_lbn[:cnt], out_n[:cnt], out_w[:cnt], hits, misses, evictions, used, fill_sectors, req_end


# ----------------------------------------------------------------------------- results
@dataclass(frozen=True)
class CacheRun(ModelResult):
    """Outcome of one write-cache simulation (before the HDD model).

    ``hdd_lbn``, ``hdd_nsect``, ``hdd_write`` describe the request stream the HDD sees
    [sectors]; ``pcm`` holds the persistent metadata after the run (HALO only);
    ``fill_sectors`` are the HDD sectors read to complete partially written blocks
    (block-granular LRU only) [sectors], part of the stream and of the traffic.
    ``to_frame()``: one row of the counts, ``hdd_sectors``, ``traffic_rate`` and
    ``mean_lbn_distance``.
    """

    policy: str
    capacity_blocks: int
    requests: int
    requested_sectors: int
    hits: int
    misses: int
    hdd_lbn: np.ndarray
    hdd_nsect: np.ndarray
    hdd_write: np.ndarray
    dirty_blocks_at_end: int
    destaged_buckets: int = 0
    pcm: dict | None = None
    fill_sectors: int = 0

    FRAME_EXTRAS: ClassVar[tuple[str, ...]] = ("hdd_sectors", "traffic_rate", "mean_lbn_distance")

    @property
    def hdd_sectors(self) -> int:
        """Sectors the HDD reads and writes [sectors]."""
        return int(self.hdd_nsect.sum())

    @property
    def traffic_rate(self) -> float:
        """HDD sectors after the cache / requested sectors."""
        return self.hdd_sectors / self.requested_sectors

    @property
    def mean_lbn_distance(self) -> float:
        """Mean |LBN_i - LBN_(i-1)| of the HDD stream [sectors] (0 when < 2 requests)."""
        if len(self.hdd_lbn) < 2:
            return 0.0
        return float(np.abs(np.diff(self.hdd_lbn)).mean())


#: Largest write cache [MB = 2^20 bytes] (input limit: 1 PiB, far beyond any drive's write cache).
MAX_CACHE_MB = 1 << 30


def cache_blocks(cache_mb: float) -> int:
    """4 KiB PCM blocks in a cache of ``cache_mb`` [MB = 2^20 bytes]; ValueError below 2 blocks.

    >>> cache_blocks(1.0)
    256
    """
    if not np.isfinite(cache_mb) or not 0 < cache_mb <= MAX_CACHE_MB:
        raise ValueError(f"cache_mb must be a finite number within (0, {MAX_CACHE_MB:,}] [MB], got {cache_mb:g}")
    cap = int(cache_mb * 2**20 // (BLOCK_SECTORS * SECTOR_BYTES))
    if cap < 2:
        raise ValueError(f"cache_mb={cache_mb} holds fewer than 2 blocks of 4 KiB")
    return cap


def _simulated_capacity(req: Requests, capacity_blocks: int, threshold: float = 1.0) -> int:
    """The capacity actually simulated [blocks]: a cache that never fills (more than the
    trace's footprint, or its destage threshold above it) behaves the same at any larger
    size, so the simulation arrays stop growing there (a "1e6 MB" cache on a 80 MB trace
    must not allocate gigabytes)."""
    never_full = int(np.ceil((req.footprint_blocks + 1) / threshold)) + 1
    return min(int(capacity_blocks), max(2, never_full))


def _halo_setup(req, capacity_blocks: int, params: HaloParams) -> tuple[int, int, float, float, float, float]:
    """(capacity simulated [blocks] (:func:`_simulated_capacity`), destage threshold [blocks], TH_BCOUNTS
    [blocks], TH_RECENCY, OUTDATE_RECENCY and TH_RECENCY's decrease per scanned bucket [requests]) of HALO with a
    PCM of ``capacity_blocks`` on ``req`` (anything with ``footprint_blocks``)."""
    cap = _simulated_capacity(req, capacity_blocks, params.threshold)
    th_b, th_r, out_r, relax_r = params.resolved(cap)
    thr = max(1, min(cap, int(np.floor(params.threshold * cap))))
    return cap, thr, th_b, th_r, out_r, relax_r


def _held_bytes(req: Requests) -> int:
    """Memory of the arrays of ``req`` [bytes]."""
    return int(sum(v.nbytes for v in vars(req).values() if isinstance(v, np.ndarray)))


def simulate_halo(req: Requests, capacity_blocks: int, params: HaloParams | None = None, *,
                  crash_at: int = -1, track_data: bool = False, scan_idle_cycles: bool = False) -> CacheRun:
    """Run HALO (Algorithm 1) with a PCM of ``capacity_blocks`` 4 KiB blocks.

    ``crash_at`` >= 0 stops the run before the ``crash_at``-th persistent step (a PCM block
    write, a destaged block written to the HDD, or a block freed), as a power loss would;
    ``track_data`` records which request wrote the data of every sector on PCM and on the
    HDD (``pcm["data"]``, ``pcm["hdd"]``) for the crash-consistency check. ``scan_idle_cycles`` scans
    every bucket of the victim search's idle cycles one by one instead of skipping them (see
    ``_idle_cycles``): the reference the skip is tested against, as slow as TH_BCOUNTS is large.
    """
    params = params or HaloParams()
    if capacity_blocks < 2:
        raise ValueError(f"capacity_blocks must be >= 2, got {capacity_blocks}")
    requested = int(capacity_blocks)
    with reserve(_held_bytes(req), "the trace cut into 4 KiB blocks"):  # the table lives beside the cut
        charge(float(req.n_regions) * REGION_BYTES, f"HALO's bucket table of {req.n_regions:,} regions of 1 MiB "
                                                    f"(the trace's address range)")
    capacity_blocks, thr, th_b, th_r, out_r, relax_r = _halo_setup(req, requested, params)
    span = int((req.block_key.max() + 1) * BLOCK_SECTORS) if track_data else 1
    hdd_ver = np.zeros(span, np.int64)
    pcm_data = np.zeros((capacity_blocks if track_data else 1, BLOCK_SECTORS), np.int64)
    (lbn, ns, wr, hits, misses, dbk, dbl, total, active, m_item, m_next, m_bits, done, ops, crashed,
     req_end) = _halo_kernel(
        _readonly(req.is_write), req.item_ptr, req.item, req.item_bits, req.block_key, req.block_region, req.n_regions,
        capacity_blocks, thr, th_b, th_r, out_r, params.relax_bcounts, relax_r, crash_at, track_data, hdd_ver,
        pcm_data, not scan_idle_cycles)
    misses += _widen_passthrough(req, ns, req_end)
    # the per-block metadata "on PCM": LBN (as a 4 KiB block number; -1 = free), next PBN, bitmap
    lbn_block = np.where(m_bits != 0, req.block_key[np.clip(m_item, 0, len(req.block_key) - 1)], -1)
    pcm = {"lbn_block": lbn_block.astype(np.int64), "next": m_next, "bits": m_bits,
           "completed_requests": int(done), "steps": int(ops), "crashed": bool(crashed)}
    if track_data:
        pcm.update(data=pcm_data, hdd=hdd_ver)
    return CacheRun("halo", requested, len(req.is_write), req.requested_sectors, int(hits), int(misses),
                    lbn, ns, wr, int(total), int(dbk), pcm)


def simulate_lru_write_cache(req: Requests, capacity_blocks: int, *,
                             lru_granularity: Literal["block", "sector"] = "sector",
                             threshold: float = 1.0) -> CacheRun:
    """LRU write cache of ``capacity_blocks`` 4 KiB blocks with write-back on eviction.

    Write-allocate, read misses not allocated (as HALO). It holds at most
    ``max(1, floor(threshold x capacity_blocks))`` blocks: with HALO's destage threshold
    (:attr:`HaloParams.threshold`, as :func:`run_write_cache` passes it) both caches use
    the same PCM space. ``lru_granularity``:

    - ``"sector"`` (default; HALO's like for like): a per-sector dirty bitmap as HALO's, no
      fill; an eviction writes back only the dirty sectors (contiguous ones as one
      request), a read misses only for sectors not cached. Every sector written back was
      written by a request since its block was cached, so the HDD never sees more sectors
      than were requested (traffic rate <= 1 on any trace);
    - ``"block"`` (block-fill, a cache that holds only whole blocks): a write miss that
      covers only part of a block first reads the block's other sectors from the HDD (a
      fill read, in the HDD stream and the traffic) so the cache holds a complete block;
      an evicted dirty block is written back whole (8 sectors), a clean one would be
      dropped (with write-allocate and no read allocation every cached block is dirty).

    Writing 2 sectors of block 0 (sectors 2-3), then evicting it with a full write of
    block 1 in a 1-block cache: the sector LRU writes back 2 sectors; the block LRU reads
    sectors 0-1 and 4-7 (fill) and later writes back all 8.

    >>> from models.traces.core import BlockTrace
    >>> req = prepare_requests(BlockTrace([0, 1], [True, True], [1024, 4096], [1024, 4096], [0, 0]))
    >>> simulate_lru_write_cache(req, 1).hdd_nsect.tolist()
    [2]
    >>> run = simulate_lru_write_cache(req, 1, lru_granularity="block")
    >>> run.hdd_lbn.tolist(), run.hdd_nsect.tolist(), run.hdd_write.tolist(), run.fill_sectors
    ([0, 4, 0], [2, 4, 8], [False, False, True], 6)
    """
    if capacity_blocks < 1:
        raise ValueError(f"capacity_blocks must be >= 1, got {capacity_blocks}")
    if lru_granularity not in ("block", "sector"):
        raise ValueError(f"lru_granularity must be 'block' or 'sector', got {lru_granularity!r}")
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold must be within (0, 1], got {threshold!r}")
    usable = max(1, int(np.floor(threshold * capacity_blocks)))
    lbn, ns, wr, hits, misses, ev, used, fill, req_end = _lru_kernel(
        _readonly(req.is_write), req.item_ptr, req.item, req.item_bits, req.block_key, _simulated_capacity(req, usable),
        lru_granularity == "block")
    misses += _widen_passthrough(req, ns, req_end)
    return CacheRun("lru", capacity_blocks, len(req.is_write), req.requested_sectors, int(hits), int(misses),
                    lbn, ns, wr, int(used), fill_sectors=int(fill))


def _widen_passthrough(req: Requests, hdd_nsect: np.ndarray, req_end: np.ndarray) -> int:
    """Give each pass-through read of ``req`` (:func:`prepare_requests`) its whole extent back, in place: the
    kernel ran its first 4 KiB item only, a miss whose sectors are the request's last HDD run; that run becomes
    the whole request, as the block cut emits it (every item a miss, contiguous sectors merged into one run).
    Returns the misses of the items not run [items]."""
    r = req.passthrough
    if r is None or not len(r):
        return 0
    run = req_end[r] >= 0  # requests a crash stopped before are not run
    hdd_nsect[req_end[r[run]] - 1] = req.nsect[r[run]]
    return int(req.passthrough_items[run].sum())


def _no_cache(req: Requests) -> CacheRun:
    return CacheRun("none", 0, len(req.is_write), req.requested_sectors, 0, len(req.item) + req.skipped_items,
                    req.lbn.copy(),
                    req.nsect.copy(), req.is_write.copy(), 0)


def _no_cache_extents(trace) -> CacheRun:
    """The run without a cache from the requests as extents: every request goes to the HDD as it is and every
    4 KiB item it touches is a miss, so nothing is cut into blocks; equal field by field to
    ``_no_cache(prepare_requests(trace))`` (memory per request, not per block)."""
    lbn, nsect, end, is_write = _request_extents(trace)
    items = int(((end - 1) // BLOCK_SECTORS - lbn // BLOCK_SECTORS + 1).sum(dtype=np.int64))
    return CacheRun("none", 0, len(is_write), int(nsect.sum()), 0, items, lbn, nsect, is_write, 0)


def recover(pcm: dict) -> dict:
    """Rebuild HALO's DRAM structures from the PCM metadata alone (after a crash).

    Scans every PCM block's metadata (``pcm["lbn_block"]``: the 4 KiB block number it holds,
    ``pcm["next"]``: next PBN of its bucket list, ``pcm["bits"]``: valid-sector bitmap). A
    block with a non-zero bitmap is valid; its LBN goes into the map, its bucket (1 MiB
    region ``LBN // 256``) gets it counted, and each bucket's list is rebuilt from the
    next-PBN pointers (the head is the valid block no other valid block points to).

    Returns ``{"map": {block number: pbn}, "bcounts": {region: n}, "lists": {region: [pbn,
    ...]}}``; raises ``ValueError`` if the metadata is inconsistent (two blocks for one LBN,
    a list that does not cover exactly its bucket's valid blocks).
    """
    bits, lbn_block, nxt = pcm["bits"], pcm["lbn_block"], pcm["next"]
    valid = np.flatnonzero(bits != 0)
    mapping: dict[int, int] = {}
    by_region: dict[int, list[int]] = {}
    per_region = REGION_SECTORS // BLOCK_SECTORS
    for p in valid.tolist():
        blk = int(lbn_block[p])
        if blk < 0:
            raise ValueError(f"PCM block {p} is valid but holds no LBN")
        if blk in mapping:
            raise ValueError(f"PCM blocks {mapping[blk]} and {p} both claim block {blk}")
        mapping[blk] = p
        by_region.setdefault(blk // per_region, []).append(p)
    lists = {}
    for reg, pbns in by_region.items():
        members = set(pbns)
        pointed = {int(nxt[p]) for p in pbns} & members
        heads = [p for p in pbns if p not in pointed]
        if len(heads) != 1:
            raise ValueError(f"bucket {reg}: {len(heads)} list heads among its valid blocks")
        chain, p = [], heads[0]
        while p in members and p not in chain:
            chain.append(p)
            p = int(nxt[p])
        if set(chain) != members:
            raise ValueError(f"bucket {reg}: list reaches {len(chain)} of {len(members)} valid blocks")
        lists[reg] = chain
    return {"map": mapping, "bcounts": {r: len(v) for r, v in lists.items()}, "lists": lists}


# ----------------------------------------------------------------------------- DRAM
def halo_dram_bytes(capacity_blocks: int, volume_bytes: int, *,
                    load_factor: float = param("write_cache.halo_load_factor").value) -> int:
    """DRAM of HALO's metadata [bytes].

    - bucketinfo table: one 12-byte entry (listhead 4 B PBN, bcounts 4 B, recency 4 B) per
      1 MiB region of the disk volume;
    - cuckoo hash table: 8-byte entries (4-byte LBN key, the paper stores full keys, +
      4-byte PBN) for every PCM block at ``load_factor`` (cuckoo hashing with 4-way buckets
      reaches ~0.9-0.95).

    >>> halo_dram_bytes(262144, 2**40)   # 1 GiB PCM, 1 TiB volume
    14913081
    """
    regions = -(-int(volume_bytes) // (REGION_SECTORS * SECTOR_BYTES))
    return int(12 * regions + np.ceil(8 * capacity_blocks / load_factor))


def lru_dram_bytes(capacity_blocks: int, *, load_factor: float = param("write_cache.lru_load_factor").value) -> int:
    """DRAM of the LRU cache's metadata [bytes]: hash map (4 B LBN + 4 B PBN at
    ``load_factor``) + doubly linked list (2 x 4 B) + 1 B per block: the dirty bitmap
    (sector LRU) or dirty flag (block LRU)."""
    return int(np.ceil(8 * capacity_blocks / load_factor) + 9 * capacity_blocks)


# ----------------------------------------------------------------------------- driver
@dataclass(frozen=True)
class WriteCacheResult(ModelResult):
    """One write-cache simulation with the HDD model (:func:`run_write_cache`).

    ``to_frame()``: one row of the fields below, in this order (the CLI's columns are the
    first seven).
    """

    #: Cache policy: ``"halo"``, ``"lru"`` or ``"none"``.
    policy: str
    #: PCM cache size [MB = 2^20 bytes]; 0 for ``"none"``.
    cache_mb: float
    #: HDD sectors / requested sectors [-].
    traffic_rate: float
    #: Mean inter-request LBN distance of the HDD stream [sectors] (the trace's LBNs).
    mean_lbn_distance: float
    #: Average throughput of the HDD stream [MB/s = 1e6 B/s]; NaN when the HDD sees nothing.
    hdd_throughput_mbps: float
    #: Total requested bytes x traffic rate / throughput [s]; 0 when the HDD sees nothing.
    exec_time_s: float
    #: DRAM of the cache's metadata [bytes] (:func:`halo_dram_bytes`, :func:`lru_dram_bytes`).
    dram_bytes: int
    #: Cache hits [4 KiB items].
    hits: int
    #: Cache misses [4 KiB items].
    misses: int
    #: Requests the HDD sees.
    hdd_requests: int
    #: Sectors written to the HDD [sectors].
    hdd_write_sectors: int
    #: Sectors read from the HDD, fills included [sectors].
    hdd_read_sectors: int
    #: Sectors read to fill partially written blocks (block LRU) [sectors].
    hdd_fill_sectors: int
    #: Dirty blocks left in PCM at the end of the trace (not flushed) [blocks].
    dirty_blocks_at_end: int
    #: The HDD stream reaches past the drive's end and was folded onto it for the throughput.
    lbn_folded: bool


@dataclass(frozen=True)
class WriteCacheSweep(ModelResult):
    """Every policy at every cache size (:func:`sweep_cache_sizes`; Figures 5-8).

    ``to_frame()``: one row per simulation (:class:`WriteCacheResult` columns), policies in
    the order asked, each policy's sizes in order; ``"none"`` (size-independent) once, with
    ``cache_mb = 0``.
    """

    #: Cache sizes simulated [MB = 2^20 bytes].
    cache_mb: tuple[float, ...]
    #: One result per simulation, in the order of ``to_frame()``.
    results: tuple[WriteCacheResult, ...]

    def to_frame(self) -> pd.DataFrame:
        return results_frame(self.results)

    def at(self, policy: str, cache_mb: float) -> WriteCacheResult:
        """The result of ``policy`` at size ``cache_mb`` [MB] (``"none"``: at any size)."""
        for r in self.results:
            if r.policy == policy and (policy == "none" or np.isclose(r.cache_mb, cache_mb)):
                return r
        raise KeyError(f"no {policy!r} run at {cache_mb} MB in this sweep")


def _drive_lbns(spec, lbn: np.ndarray) -> np.ndarray:
    """Fold LBNs into the drive's capacity (traces larger than the drive wrap around)."""
    return np.mod(lbn, spec.block_count - 1024)


def _drive_spec(drive: str) -> hdd.DriveSpec:
    """``"hdd-..."``: a catalogue profile (:func:`models.storage.hdd.generic_drive`); else a
    DiskSim drive (:func:`models.storage.hdd.load_drive`)."""
    return hdd.generic_drive(drive) if str(drive).startswith("hdd-") else hdd.load_drive(drive)


def simulate_cache(req: Requests, policy: Literal["halo", "lru", "none"], cache_mb: float, *,
                   params: HaloParams | None = None,
                   lru_granularity: Literal["block", "sector"] = "sector") -> CacheRun:
    """The cache part of :func:`run_write_cache` (before the HDD model): ``policy`` with a PCM of ``cache_mb`` [MB]
    on ``req`` (:func:`prepare_requests`), the LRU holding at most ``params.threshold`` of it as HALO. It does not
    depend on the drive: a caller timing one simulation on several drives or HDD timings runs it once and hands it
    to :func:`run_write_cache` (``cache_run``) for each.

    >>> from models.traces.core import BlockTrace
    >>> req = prepare_requests(BlockTrace([0, 1], [True, False], [0, 1 << 20], [4096, 4096], [0, 0]))
    >>> run = simulate_cache(req, "halo", 1.0)
    >>> run.policy, run.capacity_blocks, run.hits, run.misses
    ('halo', 256, 0, 2)
    """
    if policy == "none":
        return _no_cache(req)
    cap = cache_blocks(cache_mb)
    if policy == "halo":
        return simulate_halo(req, cap, params)
    if policy == "lru":  # the same PCM space as HALO: write-back starts at HALO's destage threshold
        thr = (params or HaloParams()).threshold
        return simulate_lru_write_cache(req, cap, lru_granularity=lru_granularity, threshold=thr)
    raise ValueError(f"policy must be one of halo, lru, none (got {policy!r})")


def _dram_bytes(req: Requests, policy: str, cache_mb: float, spec: hdd.DriveSpec) -> int:
    """DRAM of the metadata of ``policy``'s cache of ``cache_mb`` [MB] on ``req`` behind the drive ``spec`` [bytes]."""
    if policy == "none":
        return 0
    cap = cache_blocks(cache_mb)
    if policy == "halo":
        # the bucket table covers the disk volume (a trace larger than the drive wraps onto it)
        last = int(((req.lbn + req.nsect - 1) // BLOCK_SECTORS).max())  # the last block of any request
        volume = max(spec.block_count, (last + 1) * BLOCK_SECTORS) * SECTOR_BYTES
        return halo_dram_bytes(cap, volume)
    return lru_dram_bytes(cap)


def _check_cache_run(run: CacheRun, req, policy: str, cache_mb: float) -> None:
    """ValueError unless ``run`` can be the simulation of ``policy`` at ``cache_mb`` [MB] on ``req``."""
    if not isinstance(req, Requests):
        raise ValueError("cache_run is the simulation of a prepared trace: give that trace (prepare_requests)")
    cap = 0 if policy == "none" else cache_blocks(cache_mb)
    if (run.policy, run.capacity_blocks, run.requests) != (policy, cap, len(req.is_write)):
        raise ValueError(f"cache_run is a {run.policy!r} run of {run.capacity_blocks} blocks on {run.requests} "
                         f"requests, not the {policy!r} run of {cap} blocks on {len(req.is_write)} requests asked for")


def run_write_cache(trace, policy: Literal["halo", "lru", "none"], cache_mb: float, *, drive="hdd-7200",
                    params: HaloParams | None = None,
                    lru_granularity: Literal["block", "sector"] = "sector",
                    hdd_rotation: Literal["positioned", "expected"] = "positioned",
                    drive_cache: str | int | float = DRIVE_CACHE,
                    cache_run: CacheRun | None = None) -> WriteCacheResult:
    """One simulation: policy and PCM size [MB] on a trace, HDD metrics from the drive model.

    ``trace`` is a :class:`~models.traces.core.BlockTrace` or :class:`Requests`; ``drive``
    is ``"hdd-7200"`` (the generic catalogue profile,
    :func:`models.storage.hdd.generic_drive`) or a DiskSim drive name
    (:func:`models.storage.hdd.load_drive`); ``lru_granularity`` selects the LRU baseline
    (:func:`simulate_lru_write_cache`: ``"sector"``, HALO's like for like, by default;
    ``"block"``, the block-fill cache); the LRU holds at most ``params.threshold`` of the
    capacity, the space HALO fills before destaging. ``dram_bytes`` of HALO counts a bucket entry for
    every 1 MiB region of the drive (or of the trace's address range if larger) plus the
    cuckoo map for the PCM capacity asked for. ``hdd_rotation`` is the HDD stream's
    rotational latency (:func:`models.storage.hdd.stream_service_ms`): ``"positioned"`` (from
    the platter angle, the default) or ``"expected"`` (half a rotation per request, the earlier
    model). ``drive_cache`` is the drive's own write-back buffer in the HDD stream
    (:func:`models.storage.hdd.buffered_stream`): ``"none"`` (the default, registry
    ``write_cache.drive_cache_bytes`` = 0: seed 003 §V replays the HDD trace on a Seagate disk with
    the host's buffer cache bypassed and does not say whether the disk's own write cache was on),
    ``"spec"`` (the DiskSim drive's own buffer from its description; the generic profile has none,
    ValueError) or a size in bytes. In the closed-loop back-to-back replay the buffer hides the
    write command overhead behind the media's work (the media writes back to back while it holds
    data); it does not reorder, so it cannot move data faster than the media. A trace (not
    :class:`Requests`) runs ``"none"`` per request and HALO/LRU with its reads of unwritten blocks as
    extents (module docstring), with the same results as the block cut. ``cache_run``: the cache simulation of
    this policy, size (and ``params``, ``lru_granularity``) on ``trace`` (then a :class:`Requests`) already run
    by :func:`simulate_cache`, timed here without running it again (the same result as without it).

    >>> from models.traces.core import BlockTrace
    >>> t = BlockTrace([0, 1], [True, False], [0, 1 << 20], [4096, 4096], [0, 0])
    >>> r = run_write_cache(t, "halo", 1.0)
    >>> r.traffic_rate, r.hits, r.misses, r.dirty_blocks_at_end
    (0.5, 0, 2, 1)
    """
    if lru_granularity not in ("block", "sector"):
        raise ValueError(f"lru_granularity must be 'block' or 'sector', got {lru_granularity!r}")
    if hdd_rotation not in ("positioned", "expected"):
        raise ValueError(f"hdd_rotation must be 'positioned' or 'expected', got {hdd_rotation!r}")
    spec = _drive_spec(drive)
    hdd.drive_buffer(spec, drive_cache)  # a bad drive_cache fails before the simulation
    if policy not in ("halo", "lru", "none"):
        raise ValueError(f"policy must be one of halo, lru, none (got {policy!r})")
    if cache_run is not None:
        _check_cache_run(cache_run, trace, policy, cache_mb)
        run, dram = cache_run, _dram_bytes(trace, policy, cache_mb, spec)
    elif policy == "none" and not isinstance(trace, Requests):  # per request: no 4 KiB cut (issue 42)
        run, dram = _no_cache_extents(trace), 0
    else:
        req = trace if isinstance(trace, Requests) else prepare_requests(trace, passthrough_reads=True)
        run = simulate_cache(req, policy, cache_mb, params=params, lru_granularity=lru_granularity)
        dram = _dram_bytes(req, policy, cache_mb, spec)
    buffer = hdd.drive_buffer(spec, drive_cache)
    if len(run.hdd_lbn) and buffer.capacity_blocks == 0:
        tput = hdd.stream_throughput_MBps(spec, _drive_lbns(spec, run.hdd_lbn), run.hdd_nsect, run.hdd_write,
                                          rotation=hdd_rotation)
    elif len(run.hdd_lbn):
        tput = hdd.buffered_throughput_MBps(spec, _drive_lbns(spec, run.hdd_lbn), run.hdd_nsect, run.hdd_write,
                                            drive_cache=drive_cache, rotation=hdd_rotation)
    else:
        tput = float("nan")
    exec_s = exec_time_s(run.requested_sectors, run.hdd_sectors, tput)
    return WriteCacheResult(
        policy=policy,
        cache_mb=float(cache_mb) if policy != "none" else 0.0,
        traffic_rate=run.traffic_rate,
        mean_lbn_distance=run.mean_lbn_distance,
        hdd_throughput_mbps=tput,
        exec_time_s=exec_s,
        dram_bytes=int(dram),
        hits=run.hits,
        misses=run.misses,
        hdd_requests=len(run.hdd_lbn),
        hdd_write_sectors=int(run.hdd_nsect[run.hdd_write].sum()),
        hdd_read_sectors=int(run.hdd_nsect[~run.hdd_write].sum()),
        hdd_fill_sectors=run.fill_sectors,
        dirty_blocks_at_end=run.dirty_blocks_at_end,
        # the HDD model folds LBNs past the drive's end onto it (throughput); the LBN
        # distance stays the trace's, as in the paper
        lbn_folded=bool(len(run.hdd_lbn) and int(run.hdd_lbn.max()) >= spec.block_count - 1024),
    )


def exec_time_s(requested_sectors: int, hdd_sectors: int, throughput_MBps: float) -> float:
    """Seed 003's execution time: total requested bytes x traffic rate / the HDD stream's throughput [s]; 0 when
    the HDD sees nothing.

    >>> exec_time_s(2000, 1000, 1.024)
    0.5
    """
    if not hdd_sectors:
        return 0.0
    return requested_sectors * SECTOR_BYTES * (hdd_sectors / requested_sectors) / (throughput_MBps * 1e6)


def sweep_sizes_mb(trace, cache_mb: Sequence[float] | None = None) -> tuple[float, ...]:
    """Cache sizes of a sweep [MB]: ``cache_mb`` as given, or by default the paper's sizes
    scaled to the trace's footprint (:func:`scaled_cache_sizes_mb`), which must hold at
    least 2 blocks of 4 KiB (ValueError otherwise: give the sizes).

    >>> from models.traces.core import BlockTrace
    >>> sweep_sizes_mb(BlockTrace([0], [True], [0], [4096], [0]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the trace touches only 1 blocks of 4 KiB: the paper's cache sizes scaled to it start at ...
    """
    if cache_mb is not None:
        return tuple(float(c) for c in cache_mb)
    footprint = footprint_bytes(trace)
    sizes = scaled_cache_sizes_mb(footprint)
    if sizes.min() * 2**20 < 2 * BLOCK_SECTORS * SECTOR_BYTES:
        raise ValueError(f"the trace touches only {footprint // (BLOCK_SECTORS * SECTOR_BYTES)} blocks of 4 KiB: the paper's cache sizes "
                         f"scaled to it start at {sizes.min():.3g} MB (< 2 blocks); give the cache sizes")
    return tuple(float(c) for c in sizes)


def sweep_cache_sizes(trace, cache_mb: Sequence[float] | None = None, *,
                      policies: Sequence[str] = ("none", "lru", "halo"), drive="hdd-7200",
                      params: HaloParams | None = None, progress: Callable[[float], None] | None = None,
                      lru_granularity: Literal["block", "sector"] = "sector",
                      hdd_rotation: Literal["positioned", "expected"] = "positioned",
                      drive_cache: str | int | float = DRIVE_CACHE,
                      cache_runs: Callable[[str, float], CacheRun] | None = None) -> WriteCacheSweep:
    """Figures 5-8: every policy at every cache size [MB] (:func:`sweep_sizes_mb`: default
    the paper's sizes scaled to the trace's footprint); ``"none"`` is simulated once.
    ``progress`` is an optional callable(fraction done) for long runs; ``cache_runs`` an optional
    callable(policy, size [MB]) giving the simulation of that policy and size on ``trace`` (a
    :class:`Requests`; :func:`simulate_cache` with the same ``params`` and ``lru_granularity``), each handed to
    :func:`run_write_cache` as its ``cache_run`` (a caller timing the same simulations several ways keeps them);
    the other arguments as in :func:`run_write_cache`.

    >>> from models.traces.core import BlockTrace
    >>> t = BlockTrace(list(range(600)), [True] * 600, [4096 * k for k in range(600)], [4096] * 600, [0] * 600)
    >>> sweep_cache_sizes(t, [1.0, 2.0], policies=["halo", "none"]).to_frame()[["policy", "cache_mb"]]
      policy  cache_mb
    0   halo       1.0
    1   halo       2.0
    2   none       0.0
    """
    # the 4 KiB cut only for a cache that needs it: "none" runs per request (issue 42)
    cut = isinstance(trace, Requests) or any(p != "none" for p in policies)
    req = trace if isinstance(trace, Requests) else prepare_requests(trace, passthrough_reads=True) if cut else trace
    sizes = sweep_sizes_mb(req, cache_mb)
    jobs = [(p, c) for p in policies for c in (sizes if p != "none" else sizes[:1])]
    results = []
    for k, (p, c) in enumerate(jobs):
        results.append(run_write_cache(req, p, c, drive=drive, params=params, lru_granularity=lru_granularity,
                                       hdd_rotation=hdd_rotation, drive_cache=drive_cache,
                                       cache_run=cache_runs(p, c) if cache_runs else None))
        if progress:
            progress((k + 1) / len(jobs))
    return WriteCacheSweep(cache_mb=sizes, results=tuple(results))


# ----------------------------------------------------------------------------- provenance of the results
def provenance_keys_for(trace, drive: str) -> list[str]:
    """Provenance keys (:mod:`models.provenance`) of the write-cache sweep of ``trace`` on the HDD profile
    ``drive``: the trace's (a synthetic preset's ``trace.*``), every ``write_cache.*`` parameter and the
    drive's (:func:`models.storage.hdd.drive_keys`).

    >>> provenance_keys_for(None, "dec_rz26")[-1]
    'hdd.bus_ms_per_block.dec_rz26.write'
    """
    return [*trace_keys(trace)[0], *param_names("write_cache."), *hdd.drive_keys(drive)]
