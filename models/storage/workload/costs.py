"""Cost building blocks of the Filebench model: system calls, page-cache hits, jbd2 commits.

- **System calls** (:func:`metadata_latency`, :func:`fsync_costs`): measured on our machine
  (``data/measurements/``, see ``data/SOURCES.md``). ``metadata_latency.csv`` (tmpfs) gives
  open / close / stat / create / unlink; its fsync (520 ns) is tmpfs's no-op and is used
  only for an fsync with nothing to commit. ``fsync_latency.csv``: ext4 on a loop device
  over tmpfs, one thread, 8 KiB append + fsync: median 80.3 us, of which 26.7 us CPU of the
  calling thread (getrusage; less the 8 KiB page-cache insertion, counted by the append)
  and 53.6 us the journal commit. The loop device adds a worker hand-off per request that
  a guest's pmem driver does not have (a cross-check on a synchronous zram device gave
  40-69 us), so this is an upper estimate of a DAX fsync.
- **Page-cache hit ratio** (:func:`hit_ratio`) of whole-file accesses: LRU under
  independent references with Zipf(alpha) file popularity, by Che's approximation

  .. math::  \\sum_i (1 - e^{-p_i T}) = C, \\qquad h = \\sum_i p_i (1 - e^{-p_i T})

  (``alpha = 0``, Filebench's uniform file choice, gives ``min(1, C/F)``).
- **jbd2 commit** (:func:`journal_commit_ns`): descriptor + metadata blocks in one
  sequential write, then the commit block after a cache flush, two ordered device writes.
  ``JOURNAL_METADATA_BLOCKS = 3``: descriptor block + inode-table block + block bitmap of
  one file's fsync (ext4 journal format, kernel doc ``filesystems/ext4/journal``).
- ``MB_STREAM_REQ_BLOCKS = 16``: ext4's ``mb_stream_req`` default (kernel doc
  ``admin-guide/ext4``): files with fewer blocks are packed by the per-CPU locality-group
  allocator.
- **DAX copy** (:func:`dax_extra_ns`): the device's time beyond a DRAM access of the same
  size, as in :mod:`models.storage.file_cache`.
- **Dirty write-back** (:func:`writeback_shares`): the share of the dirty data left to the
  kernel's flusher that reaches the device during a run of ``R`` seconds. The flusher wakes
  every ``dirty_writeback_centisecs`` (5 s) and writes what has been dirty longer than
  ``dirty_expire_centisecs`` (30 s), and whatever exceeds ``dirty_background_ratio`` (10 %)
  of the available memory ``M`` (kernel defaults, ``Documentation/admin-guide/sysctl/vm.rst``).
  A page stays dirty for an episode of ``E = expire + interval / 2`` seconds; writes to it
  within the episode are absorbed (written back once). Files rewritten at ``r`` bytes/s
  spread over a footprint of ``F`` bytes give each byte ``lambda = r / F`` writes per
  second, so a share ``1 / (1 + lambda E)`` of the written bytes is written back, and
  ``F lambda E / (1 + lambda E)`` bytes are dirty at a time; appends to a log (rate
  ``r_log``) always dirty new pages (``F`` infinite) and add ``r_log E``. When the dirty
  data would exceed ``B = ratio x M`` the flusher writes earlier: the episode shortens to
  the ``E'`` that keeps ``B`` bytes dirty. From a clean start, data dirtied in the last
  ``E'`` seconds of the run is not written yet:

  .. math::  f_{files} = \\left(1 - \\frac{E'}{R}\\right)^+ \\frac{F}{F + r E'}, \\qquad
             f_{log} = \\left(1 - \\frac{E'}{R}\\right)^+

  ``vm.dirty_ratio`` (20 %) is not a term: writers are throttled only when write-back cannot
  keep the dirty data near ``B``, i.e. when the device is the bottleneck, which the queueing
  network's device station already expresses.

References
----------
.. [1] H. Che, Y. Tung, Z. Wang, "Hierarchical Web caching systems: modeling, design and
   experimental results", IEEE JSAC 20(7), 2002 (LRU characteristic time).
.. [2] Linux kernel documentation, ``admin-guide/ext4`` and ``filesystems/ext4/journal``.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np

from models.devices import DeviceProfile, get_device
from models.provenance import param

__all__ = [
    "BLOCK",
    "JOURNAL_METADATA_BLOCKS",
    "MB_STREAM_REQ_BLOCKS",
    "metadata_latency",
    "LOOKUP_PER_COMPONENT_NS",
    "extra_path_components",
    "fsync_costs",
    "hit_ratio",
    "journal_commit_ns",
    "calls_per_file",
    "dax_extra_ns",
    "DIRTY_BACKGROUND_RATIO",
    "DIRTY_EXPIRE_S",
    "DIRTY_WRITEBACK_S",
    "RUN_SECONDS",
    "writeback_share",
    "writeback_shares",
]

#: File-system block [bytes].
BLOCK = 4096
#: Blocks of one jbd2 commit written before the commit block (descriptor, inode table, bitmap) [-].
JOURNAL_METADATA_BLOCKS = param("workload.journal_metadata_blocks").value
#: ext4 ``mb_stream_req`` default [blocks]: files with fewer blocks are allocated from the
#: per-CPU locality-group preallocation, "so that small files are packed closely together"
#: (kernel doc ``admin-guide/ext4``, /sys/fs/ext4/<dev>/mb_stream_req).
MB_STREAM_REQ_BLOCKS = param("workload.mb_stream_req_blocks").value
#: vm.dirty_background_ratio [%] (registry ``workload.dirty_background_ratio``, kernel default).
DIRTY_BACKGROUND_RATIO = param("workload.dirty_background_ratio").value
#: vm.dirty_expire_centisecs as seconds [s] (registry ``workload.dirty_expire_centisecs``).
DIRTY_EXPIRE_S = param("workload.dirty_expire_centisecs").value / 100.0
#: vm.dirty_writeback_centisecs as seconds [s] (registry ``workload.dirty_writeback_centisecs``).
DIRTY_WRITEBACK_S = param("workload.dirty_writeback_centisecs").value / 100.0
#: Run time of a personality that states none [s] (registry ``workload.run_seconds``, seed 000 Table 1).
RUN_SECONDS = param("workload.run_seconds").value


@cache
def metadata_latency() -> dict[str, float]:
    """Measured metadata system-call latencies on tmpfs [ns] (open, close, stat, create, unlink, fsync).

    Values from the registry (``workload.metadata.<op>_ns``, measured here: the registry reads
    ``data/measurements/metadata_latency.csv``).

    >>> m = metadata_latency(); 100 < m["close"] < m["open"] < m["create"]
    True
    """
    return {op: param(f"workload.metadata.{op}_ns").value
            for op in ("open", "close", "stat", "create", "unlink", "fsync")}


#: Path lookup per directory component, a dentry-cache hit [ns] (registry
#: ``workload.metadata.lookup_per_component_ns``, measured here on tmpfs).
LOOKUP_PER_COMPONENT_NS = param("workload.metadata.lookup_per_component_ns").value


def extra_path_components(entries: int, dirwidth: float) -> float:
    """Directory components a file of a Filebench file set has beyond the one directory of the metadata
    benchmark (whose open/create/stat/unlink latencies already include that lookup) [-].

    Filebench builds the file set as a tree of mean width ``dirwidth``, so its mean depth is
    ``ln(entries) / ln(dirwidth)`` directory levels (at least 1: all files in one directory when
    ``dirwidth >= entries``); the extra components are that depth - 1.

    >>> round(extra_path_components(100_000, 20), 3), extra_path_components(50_000, 1e6)
    (2.843, 0.0)
    """
    if entries <= 1 or dirwidth <= 1:
        return 0.0
    return max(0.0, float(np.log(entries) / np.log(dirwidth)) - 1.0)


@cache
def fsync_costs() -> dict[str, float]:
    """Measured cost of one ext4 fsync on a memory-speed block device [ns].

    From ``data/measurements/fsync_latency.csv`` (ext4 on a loop device over tmpfs, one
    thread appending 8 KiB then calling fsync; see data/SOURCES.md): ``caller_cpu`` is
    the CPU time of the calling thread per fsync (write + fsync system calls) less the
    measured page-cache insertion of the 8 KiB write (counted by the append flowop), and
    ``commit`` is the rest of the single-thread fsync latency: the jbd2 commit done by
    the journal thread (hand-off, descriptor / metadata / commit blocks, cache flush) on
    a device of memory speed. ``batch_measured`` maps threads -> measured fsyncs per jbd2
    commit (group commit).

    >>> c = fsync_costs(); 10e3 < c["caller_cpu"] < c["commit"] < 1e5, c["batch_measured"][1]
    (True, 1.0)
    """
    from models.data import read_csv
    from models.storage.file_cache import pagecache_latency

    df = read_csv("measurements/fsync_latency.csv")
    lat = param("workload.fsync.latency_1thread_ns").value
    cpu = param("workload.fsync.caller_cpu_1thread_ns").value
    write_ns = float(pagecache_latency(8192.0)[1])
    caller = max(0.0, cpu - write_ns)
    commit = max(0.0, lat - cpu)
    return {"caller_cpu": caller, "commit": commit,
            "batch_measured": {int(t): float(b) for t, b in zip(df.threads, df.fsyncs_per_commit, strict=True)}}


def hit_ratio(cache_bytes: float, fileset_bytes: float, nfiles: int, *, zipf_alpha: float = 0.0) -> float:
    """Page-cache hit ratio of whole-file accesses [-].

    LRU under independent references with Zipf(``zipf_alpha``) file popularity, by Che's
    approximation (characteristic time ``T`` solving ``sum(1 - exp(-p_i T)) = C``,
    hit ratio ``sum p_i (1 - exp(-p_i T))``). ``zipf_alpha = 0`` (Filebench's uniform
    choice) gives exactly ``min(1, C / F)``.

    >>> hit_ratio(4e9, 8e9, 1000), hit_ratio(9e9, 8e9, 1000)
    (0.5, 1.0)
    >>> hit_ratio(4e9, 8e9, 1000, zipf_alpha=1.0) > 0.5
    True
    """
    if cache_bytes <= 0 or fileset_bytes <= 0 or nfiles < 1:
        raise ValueError("cache_bytes, fileset_bytes and nfiles must be > 0")
    if not 0 <= zipf_alpha <= 3:
        raise ValueError(f"zipf_alpha must be in [0, 3], got {zipf_alpha}")
    if cache_bytes >= fileset_bytes:
        return 1.0
    if zipf_alpha == 0:
        return float(cache_bytes / fileset_bytes)
    return _che(float(cache_bytes / fileset_bytes * nfiles), int(nfiles), float(zipf_alpha))


@lru_cache(maxsize=256)
def _che(c_files: float, n: int, alpha: float) -> float:
    n_eff = min(n, 200_000)  # popularity tail beyond 2e5 files changes the ratio < 1e-3
    scale = n / n_eff
    p = np.arange(1, n_eff + 1, dtype=float) ** -alpha
    p /= p.sum()
    c = c_files / scale
    lo, hi = 0.0, 1.0
    while np.sum(-np.expm1(-p * hi)) < c:
        hi *= 2.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if np.sum(-np.expm1(-p * mid)) < c:
            lo = mid
        else:
            hi = mid
    t = 0.5 * (lo + hi)
    return float(np.sum(p * -np.expm1(-p * t)))


def journal_commit_ns(device: DeviceProfile) -> float:
    """Time of one jbd2 journal commit on ``device`` [ns].

    Descriptor + ``JOURNAL_METADATA_BLOCKS - 1`` metadata blocks written in one sequential
    request, then the commit block in a second write after the cache flush.

    >>> round(journal_commit_ns(get_device("hdd-7200")) / 1e6, 1)
    16.5
    """
    return (device.transfer_ns(JOURNAL_METADATA_BLOCKS * BLOCK, write=True)
            + device.transfer_ns(BLOCK, write=True))


@lru_cache(maxsize=4096)
def calls_per_file(mean_bytes: float, gamma: float | None, chunk: float) -> float:
    """System calls to move a whole file in ``chunk``-byte pieces, ``E[ceil(X / chunk)]`` (>= 1) [-].

    ``X`` is the file size [bytes]: gamma-distributed with mean ``mean_bytes`` and shape
    ``gamma``, or constant when ``gamma`` is None; ``E[ceil(X/c)] = sum_k P(X > k c)``.

    >>> calls_per_file(16384.0, None, 8192.0), round(calls_per_file(16384.0, 1.0, 8192.0), 4)
    (2.0, 2.5415)
    """
    if gamma is None or gamma <= 0:
        return float(max(1, np.ceil(mean_bytes / chunk)))
    from scipy.stats import gamma as gdist

    dist = gdist(a=gamma, scale=mean_bytes / gamma)
    kmax = int(np.ceil(dist.isf(1e-12) / chunk)) + 1
    if kmax > 5_000_000:  # tiny chunks: E[ceil(X/c)] = E[X]/c + ~1/2
        return float(mean_bytes / chunk + 0.5)
    k = np.arange(0, kmax, dtype=float)
    return float(max(1.0, np.sum(dist.sf(k * chunk))))


def dax_extra_ns(dev: DeviceProfile, nbytes: float, *, write: bool) -> float:
    """Device time beyond a DRAM access of the same size [ns] (DAX copy from the device).

    Both through :meth:`~models.devices.DeviceProfile.transfer_ns`: latency plus the rest at the media
    bandwidth (not the interface rate).

    >>> dax_extra_ns(get_device("dram"), 4096, write=False)
    0.0
    """
    dram = get_device("dram")
    extra = dev.transfer_ns(nbytes, write=write) - dram.transfer_ns(nbytes, write=write)
    return max(0.0, extra) if np.ndim(extra) == 0 else np.maximum(0.0, extra)  # arrays: one value per sample


def writeback_shares(rate_Bps: float, log_rate_Bps: float, footprint_bytes: float, memory_bytes: float,
                     run_s: float = RUN_SECONDS, *, background_ratio: float = DIRTY_BACKGROUND_RATIO,
                     expire_s: float = DIRTY_EXPIRE_S, writeback_s: float = DIRTY_WRITEBACK_S) -> tuple[float, float]:
    """Shares of the dirtied bytes the flusher writes back within a run: files and log [-].

    Parameters
    ----------
    rate_Bps : float
        Rate at which file data is dirtied and left to the flusher [bytes/s], >= 0.
    log_rate_Bps : float
        Rate of appends to a log (always new pages) left to the flusher [bytes/s], >= 0.
    footprint_bytes : float
        Bytes the file writes are spread over [bytes], > 0 (``inf``: nothing absorbed).
    memory_bytes : float
        Available memory the dirty ratios refer to [bytes] (the page cache), > 0.
    run_s : float
        Run length [s], > 0 (the workload's ``run``; seed 000: 60 s).
    background_ratio : float, keyword-only
        ``vm.dirty_background_ratio`` [%].
    expire_s, writeback_s : float, keyword-only
        ``vm.dirty_expire_centisecs`` and ``vm.dirty_writeback_centisecs`` [s].

    Returns
    -------
    tuple of float
        ``(f_files, f_log)``, both in [0, 1] (see the module docstring).

    Examples
    --------
    50,000 files of 16 KiB rewritten at 200 MB/s in a 60 s run: a page is rewritten many times
    within its 32.5 s dirty episode, so only ~5 % of the bytes written reach the device.

    >>> [round(f, 3) for f in writeback_shares(2e8, 0.0, 50_000 * 16384, 8 * 2**30, 60.0)]
    [0.051, 0.458]
    >>> [round(f, 3) for f in writeback_shares(0.0, 1e9, 1e12, 8 * 2**30, 60.0)]   # a fast log: bg threshold
    [0.986, 0.986]
    """
    for name, v in (("rate_Bps", rate_Bps), ("log_rate_Bps", log_rate_Bps)):
        if not (np.isfinite(v) and v >= 0):
            raise ValueError(f"{name} must be finite and >= 0 (got {v!r})")
    if not (footprint_bytes > 0 and memory_bytes > 0 and run_s > 0):
        raise ValueError("footprint_bytes, memory_bytes and run_s must be > 0")
    F, r, rl = float(footprint_bytes), float(rate_Bps), float(log_rate_Bps)
    B = background_ratio / 100.0 * memory_bytes

    def dirty(e: float) -> float:  # bytes dirty at a time with episodes of e seconds
        files = r * e if not np.isfinite(F) else (F * r * e / (F + r * e) if r > 0 else 0.0)
        return files + rl * e

    e = expire_s + writeback_s / 2.0
    if dirty(e) > B:  # the background threshold cuts the episode short: dirty(e') = B (increasing in e')
        lo, hi = 0.0, e
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if dirty(mid) < B else (lo, mid)
        e = 0.5 * (lo + hi)
    ripe = max(0.0, 1.0 - e / run_s)
    absorbed = 1.0 if not np.isfinite(F) else F / (F + r * e)
    return ripe * absorbed, ripe


def writeback_share(dirty_rate_Bps, memory_bytes: float, run_s: float = RUN_SECONDS, *,
                    footprint_bytes: float = np.inf, **kw) -> float:
    """Share of the file data left dirty that the flusher writes within a run [-].

    :func:`writeback_shares` without a log: ``footprint_bytes = inf`` (the default) means
    every page written is a new one.

    >>> round(writeback_share(1e6, 8e9, 60.0), 4)      # slow writer: what expires (first 27.5 s)
    0.4583
    >>> round(writeback_share(1e9, 8e9, 60.0), 4)      # far above the 800 MB threshold: nearly all
    0.9867
    >>> writeback_share(0.0, 8e9, 10.0)                # run shorter than the expiry
    0.0
    """
    return writeback_shares(float(dirty_rate_Bps), 0.0, footprint_bytes, memory_bytes, run_s, **kw)[0]
