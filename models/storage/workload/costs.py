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
    "fsync_costs",
    "hit_ratio",
    "journal_commit_ns",
    "calls_per_file",
    "dax_extra_ns",
]

#: File-system block [bytes].
BLOCK = 4096
#: Blocks of one jbd2 commit written before the commit block (descriptor, inode table, bitmap) [-].
JOURNAL_METADATA_BLOCKS = param("workload.journal_metadata_blocks").value
#: ext4 ``mb_stream_req`` default [blocks]: files with fewer blocks are allocated from the
#: per-CPU locality-group preallocation, "so that small files are packed closely together"
#: (kernel doc ``admin-guide/ext4``, /sys/fs/ext4/<dev>/mb_stream_req).
MB_STREAM_REQ_BLOCKS = param("workload.mb_stream_req_blocks").value


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

    >>> dax_extra_ns(get_device("dram"), 4096, write=False)
    0.0
    """
    dram = get_device("dram")
    return max(0.0, dev.transfer_ns(nbytes, write=write) - dram.transfer_ns(nbytes, write=write))
