"""Which file workloads suit PCM? Filebench personalities on ext4-DAX PCM vs page-cached storage.

Seed 000 ran four Filebench personalities (Table 1) on PCM mounted with ext4-DAX and on
ext4 over HDD / SSD with the page cache, and found PCM far ahead on fsync-heavy, write-
intensive work (varmail, fileserver) but not on read-mostly, cache-friendly work
(webserver, webproxy). This module predicts that with a mean-value model:

1. **Per-flowop service demand** (:func:`flowop_demands`). Every flowop of the parsed
   loop (:mod:`models.storage.filebench`) gets a demand [ns] at a CPU station, the storage device
   and, for the emulated configurations, the host device behind the VM:

   *ext4 + page cache over a block device* (``mode="pagecache"``)
     - read of ``c`` bytes: CPU = measured ``pread()`` of a cached block
       (:func:`models.storage.file_cache.pagecache_latency`); device = miss ratio x one device access
       of the whole request (``DeviceProfile.transfer_ns``: positioning + streaming, i.e.
       read-ahead turns a whole-file read into one request);
     - write / append of ``c`` bytes: CPU = measured ``pwrite()`` into the page cache;
       device = write-back under pressure: the evicted share (= miss ratio) of the
       written bytes is written back, one device write per flowop;
     - fsync: caller CPU = the measured ext4 fsync path (:func:`fsync_costs`); device =
       the file's still-dirty bytes in one write; journal = one jbd2 commit
       (:func:`journal_commit_ns`: descriptor + metadata blocks, then the commit block
       after a cache flush = two ordered device writes, plus the measured commit work of
       the journal thread on memory-speed storage), **shared by group commit** (below).
       Files smaller than ``mb_stream_req`` blocks are packed by ext4's per-CPU
       locality-group allocator, so a batch's data writes pay one positioning per
       locality group (at most ``cpu_cores``), not one per file;
     - page-cache hit ratio from file-set size vs cache size and locality:
       :func:`hit_ratio` (Che's approximation for LRU under a Zipf(alpha) popularity;
       alpha = 0, Filebench's uniform file choice, gives ``min(1, C/F)``).

   *ext4-DAX on a byte-addressable device* (``mode="dax"``)
     - read / write of ``c`` bytes: the same system-call + copy path as above (CPU),
       plus the device's extra time over DRAM for ``c`` bytes on the device station
       (``dev.transfer_ns(c) - dram.transfer_ns(c)``, as in :mod:`models.storage.file_cache`);
     - fsync: a cache-line flush drain (one device write latency); when metadata
       changed, the measured caller CPU and a group-committed jbd2 commit (measured
       memory-speed commit work + :func:`journal_commit_ns` on the device). ext4-DAX
       still journals metadata; file data written by ``write()`` is already flushed;
     - optional virtualisation (the paper's PCM-DRAM / PCM-SSD / PCM-HDD emulation):
       ``virt_per_op_ns`` per data or sync call on the CPU, and the host-side faults of
       the vPCM backing file (share ``1 - host_memory / footprint``, one host-device
       access of the request each) on a host station.

   *Metadata* flowops (open, close, stat, create, delete) cost the same in both modes:
   the system-call latencies measured on tmpfs (``data/measurements/metadata_latency.csv``).

2. **Threads** (:func:`mva`): exact Mean Value Analysis of the closed network (CPU with
   ``cpu_cores`` servers, device with ``device_servers`` servers, host device with
   ``host_device_servers``, and a single-server ``journal`` station: jbd2 commits one
   transaction at a time; think time 0; every thread is one customer running the flowop
   loop). Throughput [ops/s] counts every flowop execution, as Filebench's "IO Summary"
   does; latency [ms] is per flowop.

3. **Group commit** (:func:`group_commit_batch`): concurrent fsyncs join the same jbd2
   transaction, so one commit serves ``b`` of them (the commit costs ``1/b`` per fsync).
   ``b`` is a fixed point of the MVA solution at each thread count (threads inside fsync
   / 1.5, gated batch service); it is what makes the paper's varmail latency on HDD/SSD
   grow gently with threads (§4.5). Our bundled measurement shows the effect on real
   ext4: 1.0 / 2.4 / 4.0 / 9.6 fsyncs per commit at 1 / 4 / 8 / 32 threads.

Constants and their sources
---------------------------
- System-call costs: measured on our machine (``data/measurements/``, see SOURCES.md).
  ``metadata_latency.csv`` (tmpfs) for open/close/stat/create/unlink; its fsync (520 ns) is
  tmpfs's no-op and is used only for an fsync with nothing to commit.
- fsync with work (``fsync_latency.csv``): ext4 on a loop device over tmpfs, one thread,
  8 KiB append + fsync: median 80.3 us, of which 26.7 us CPU of the calling thread
  (getrusage; less the 8 KiB page-cache insertion, counted by the append) and 53.6 us
  the journal commit. The loop device adds a worker hand-off per request that the guest's
  pmem driver does not have (a cross-check on a synchronous zram device gave 40-69 us),
  so this is an upper estimate of a DAX fsync.
- ``MB_STREAM_REQ_BLOCKS = 16``: ext4 default (kernel doc ``admin-guide/ext4``).
- ``GATED_WAIT = 1.5``: mean commits waited by an fsync when commits run back to back.
- Devices: ``data/devices.csv`` (each row cites its source).
- ``CPU_CORES_PAPER = 6``: the paper's Intel i7-7800X has 6 cores (seed 000 §4.1).
- ``PAGE_CACHE_BYTES = 8 GiB``: ASSUMPTION. The paper's host has 16 GB; the guest's memory
  is not published. We take half of the host for the guest page cache and the other half
  (``HOST_MEMORY_BYTES``) for the host's mapping of the vPCM backing file.
- ``JOURNAL_METADATA_BLOCKS = 3``: jbd2 commit of one file's fsync: descriptor block +
  inode-table block + block bitmap (ext4 journal format, kernel doc
  ``filesystems/ext4/journal``), then a commit block written after a cache flush.
- ``VIRT_PER_OP_NS = 2000``: ASSUMPTION, order of a KVM VM exit + host handling
  (a few thousand cycles at 3.5 GHz); the paper does not measure it.
- Device parallelism (``DEVICE_SERVERS``): HDD 1 (one actuator); SATA SSD 8 (ASSUMPTION,
  typical flash channel count; with the catalogue's 90 us 4 KiB read it gives ~89 K random
  IOPS, a usual SATA datasheet figure); Micron PSD 3 (three daughter boards, each with its
  own controller, seed 001 §II.A); DAX on PCM 1 (one shared LPDDR x64 bus, NVMain
  config); DRAM 1.

Paper vs model (default Table 1 setting, 50 threads unless noted)
------------------------------------------------------------------
=========================================  ==================  =========  ==========
figure                                     paper               before     now
=========================================  ==================  =========  ==========
varmail PCM-DAX / HDD throughput           "up to 500x"        3,712x     221x
varmail PCM-HDD / HDD throughput           "up to 500x"        5,993x     193x
varmail PCM-SSD / SSD throughput           PCM ahead           13.0x      1.35x
varmail fsync latency HDD / PCM-HDD        ~200x (Fig. 3)      57,804x    361x
  (same at 1 thread)                                           8,513x     314x
varmail fsync share of PCM-HDD latency     "small portion"     0.10       0.53
varmail fsync share of HDD latency         "almost all"        1.00       1.00
varmail HDD latency 32 / 16 threads        "very gradual"      2.00       1.01
varmail SSD latency 32 / 16 threads        "very gradual"      2.00       1.00
varmail PCM-DRAM latency 32 / 16 threads   ~proportional       2.00       1.91
fileserver PCM-SSD / SSD throughput        PCM ahead           0.14x      1.13x
fileserver HDD / PCM-HDD write latency     ~3x (Fig. 3)        1.0x       1.0x
webserver, webproxy HDD / PCM-HDD          HDD ahead           1.16-1.19x 1.16-1.19x
=========================================  ==================  =========  ==========

Remaining gaps. (a) fsync share on PCM-HDD: our memory-speed fsync is measured through
a loop device (upper estimate, see above) and the VM's other costs on PCM-HDD (host
faults on first touch, write-protect faults after host write-back) are not modelled, so
fsync is about half of the PCM-HDD loop, not a small portion. (b) fileserver PCM-HDD vs
HDD: both are limited by the same HDD through the same miss share (guest page cache and
host memory are both the assumed 8 GiB); the model has no dirty-page write-back timing
(Linux ``dirty_expire_centisecs`` = 30 s vs the 60 s run, ``dirty_ratio`` throttling in
the guest and in the host for the mmap-ed vPCM file), which is where the two setups
differ. (c) Our HDD is a generic 7200 rpm drive; the paper's WD20EZRZ is a 5400 rpm-class
drive (longer rotation), not in the catalogue.

References
----------
.. [1] Seed 000: Filebench on a DAX PCM file system (Table 1, Figs. 2-5, §4.5-4.6).
.. [2] E. Lazowska, J. Zahorjan, G. Graham, K. Sevcik, "Quantitative System Performance",
   Prentice-Hall 1984, ch. 6 (exact MVA) and ch. 8 (load-dependent stations).
.. [3] H. Che, Y. Tung, Z. Wang, "Hierarchical Web caching systems: modeling, design and
   experimental results", IEEE JSAC 20(7), 2002 (LRU characteristic time).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

import numpy as np
import pandas as pd
from numba import njit
from pydantic import Field

from models._base import ModelInput
from models.devices import DeviceProfile, get_device
from models.storage.filebench import MAX_THREADS, Workload, load_workload

__all__ = [
    "CPU_CORES_PAPER",
    "PAGE_CACHE_BYTES",
    "HOST_MEMORY_BYTES",
    "VIRT_PER_OP_NS",
    "TABLE1",
    "PERSONALITIES",
    "StorageConfig",
    "config_names",
    "get_config",
    "metadata_latency",
    "hit_ratio",
    "journal_commit_ns",
    "fsync_costs",
    "group_commit_batch",
    "flowop_demands",
    "mva",
    "evaluate",
    "WorkloadResult",
    "paper_workload",
    "sweep_threads",
    "sweep_iosize",
    "sweep_files",
    "compare",
    "workload_features",
]

GiB = float(1 << 30)
CPU_CORES_PAPER = 6
PAGE_CACHE_BYTES = 8 * GiB
HOST_MEMORY_BYTES = 8 * GiB
VIRT_PER_OP_NS = 2000.0
JOURNAL_METADATA_BLOCKS = 3
BLOCK = 4096
#: ext4 ``mb_stream_req`` default [blocks]: files with fewer blocks are allocated from the
#: per-CPU locality-group preallocation, "so that small files are packed closely together"
#: (kernel doc ``admin-guide/ext4``, /sys/fs/ext4/<dev>/mb_stream_req).
MB_STREAM_REQ_BLOCKS = 16
#: Mean time in a gated batch service (commits back to back) [commit times]: the residual
#: half of the running commit plus one's own.
GATED_WAIT = 1.5

#: Seed 000 Table 1: files, mean file size, read I/O / append size, directory width, threads
#: and the read:write ratio of the flowop loop. The webserver I/O cell is garbled in our
#: copy ("IMB/SKB", possibly 1 MB/8 KB); we use 1 MB/16 KB like the others (Filebench default).
TABLE1: dict[str, dict] = {
    "fileserver": dict(nfiles=100_000, file_size_bytes=128 * 1024, iosize_bytes=1 << 20,
                       append_bytes=16 * 1024, dirwidth=20, threads=50, rw_ratio=(1, 2)),
    "webserver": dict(nfiles=100_000, file_size_bytes=64 * 1024, iosize_bytes=1 << 20,
                      append_bytes=16 * 1024, dirwidth=20, threads=50, rw_ratio=(10, 1)),
    "webproxy": dict(nfiles=100_000, file_size_bytes=32 * 1024, iosize_bytes=1 << 20,
                     append_bytes=16 * 1024, dirwidth=1_000_000, threads=50, rw_ratio=(5, 1)),
    "varmail": dict(nfiles=50_000, file_size_bytes=16 * 1024, iosize_bytes=1 << 20,
                    append_bytes=16 * 1024, dirwidth=1_000_000, threads=50, rw_ratio=(1, 1)),
}
PERSONALITIES = tuple(TABLE1)


class StorageConfig(ModelInput):
    """A storage configuration: file-system mode, device and host.

    >>> get_config("pcm-dax").mode, get_config("hdd").device.name
    ('dax', 'hdd-7200')
    """

    name: str = Field(min_length=1, max_length=64)
    label: str = Field(default="", max_length=200)
    mode: Literal["pagecache", "dax"] = Field(description="ext4 + page cache, or ext4-DAX")
    device: DeviceProfile
    device_servers: int = Field(default=1, ge=1, le=1024, description="parallel service units of the device [-]")
    cpu_cores: int = Field(default=CPU_CORES_PAPER, ge=1, le=1024, description="CPU servers [-]")
    page_cache_bytes: float = Field(default=PAGE_CACHE_BYTES, gt=0, le=1e15, description="page cache size [bytes]")
    virt_per_op_ns: float = Field(default=0.0, ge=0, le=1e9, description="VM overhead per data/sync call [ns]")
    host_device: DeviceProfile | None = Field(default=None, description="device holding the vPCM backing file")
    host_device_servers: int = Field(default=1, ge=1, le=1024, description="parallel service units of the host device [-]")
    host_memory_bytes: float = Field(default=HOST_MEMORY_BYTES, gt=0, le=1e15, description="host memory mapping the vPCM file [bytes]")


def _cfg(name, label, mode, dev, servers, **kw) -> StorageConfig:
    return StorageConfig(name=name, label=label, mode=mode, device=get_device(dev), device_servers=servers, **kw)


@cache
def _configs() -> dict[str, StorageConfig]:
    out = [
        _cfg("hdd", "ext4 + page cache on HDD", "pagecache", "hdd-7200", 1),
        _cfg("ssd", "ext4 + page cache on SATA SSD", "pagecache", "sata-ssd", 8),
        _cfg("pcm-block", "ext4 + page cache on PCM block device (Micron PSD)", "pagecache", "pcm-psd-micron", 3),
        _cfg("pcm-dax", "ext4-DAX on PCM (Samsung 20 nm, native)", "dax", "pcm-samsung-20nm", 1),
        _cfg("optane-dax", "ext4-DAX on Optane DC PMM (native)", "dax", "optane-dcpmm", 1),
        _cfg("pcm-dram", "ext4-DAX on vPCM in a VM, backing file on DRAM", "dax", "dram", 1,
             virt_per_op_ns=VIRT_PER_OP_NS),
        _cfg("pcm-ssd", "ext4-DAX on vPCM in a VM, backing file on SSD", "dax", "dram", 1,
             virt_per_op_ns=VIRT_PER_OP_NS, host_device=get_device("sata-ssd"), host_device_servers=8),
        _cfg("pcm-hdd", "ext4-DAX on vPCM in a VM, backing file on HDD", "dax", "dram", 1,
             virt_per_op_ns=VIRT_PER_OP_NS, host_device=get_device("hdd-7200")),
    ]
    return {c.name: c for c in out}


def config_names() -> list[str]:
    """Names of the preset configurations.

    >>> config_names()[:4]
    ['hdd', 'ssd', 'pcm-block', 'pcm-dax']
    """
    return list(_configs())


def get_config(name: str | StorageConfig, **changes) -> StorageConfig:
    """A preset configuration by name (``KeyError`` listing the valid ones), with ``changes``."""
    if isinstance(name, StorageConfig):
        cfg = name
    else:
        try:
            cfg = _configs()[name]
        except KeyError:
            raise KeyError(f"unknown configuration {name!r}; valid: {', '.join(_configs())}") from None
    if changes:
        cfg = StorageConfig.model_validate({**cfg.model_dump(), **changes})
    return cfg


@cache
def metadata_latency() -> dict[str, float]:
    """Measured metadata system-call latencies on tmpfs [ns] (open, close, stat, create, unlink, fsync).

    >>> m = metadata_latency(); 100 < m["close"] < m["open"] < m["create"]
    True
    """
    from models.data import read_csv

    df = read_csv("measurements/metadata_latency.csv")
    return {str(k): float(v) for k, v in zip(df["op"], df["latency_ns"], strict=True)}


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
    one = df[df.threads == 1].iloc[0]
    write_ns = float(pagecache_latency(8192.0)[1])
    caller = max(0.0, float(one.caller_cpu_ns_per_fsync) - write_ns)
    commit = max(0.0, float(one.fsync_median_ns) - float(one.caller_cpu_ns_per_fsync))
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
def _calls_per_file(mean_bytes: float, gamma: float | None, chunk: float) -> float:
    """E[ceil(X / chunk)] for the file-size distribution X (>= 1 call) [-]."""
    if gamma is None or gamma <= 0:
        return float(max(1, np.ceil(mean_bytes / chunk)))
    from scipy.stats import gamma as gdist

    dist = gdist(a=gamma, scale=mean_bytes / gamma)
    kmax = int(np.ceil(dist.isf(1e-12) / chunk)) + 1
    if kmax > 5_000_000:  # tiny chunks: E[ceil(X/c)] = E[X]/c + ~1/2
        return float(mean_bytes / chunk + 0.5)
    k = np.arange(0, kmax, dtype=float)
    return float(max(1.0, np.sum(dist.sf(k * chunk))))


def _dram() -> DeviceProfile:
    return get_device("dram")


def _extra_ns(dev: DeviceProfile, nbytes: float, *, write: bool) -> float:
    """Device time beyond a DRAM access of the same size [ns] (DAX copy from the device)."""
    return max(0.0, dev.transfer_ns(nbytes, write=write) - _dram().transfer_ns(nbytes, write=write))


STATIONS = ("cpu", "device", "host", "journal")


def flowop_demands(workload: Workload, config: StorageConfig | str, *, zipf_alpha: float = 0.0) -> pd.DataFrame:
    """Service demand of every flowop of the loop on each station [ns].

    Parameters
    ----------
    workload : Workload
        Parsed personality (:func:`models.storage.filebench.load_workload`).
    config : StorageConfig or str
        Storage configuration (preset name or object).
    zipf_alpha : float, keyword-only
        Locality of file choice (0 = uniform, as Filebench).

    Returns
    -------
    pandas.DataFrame
        One row per flowop (thread groups concatenated) with ``group``, ``instances``,
        ``flowop``, ``kind``, ``category``, ``bytes`` (data moved per execution),
        ``calls`` (system calls), ``cpu_ns``, ``device_ns``, ``host_ns`` [ns per
        execution, ``iters`` included] and the page-cache ``hit_ratio`` used.

    Examples
    --------
    >>> d = flowop_demands(paper_workload("varmail"), "hdd")
    >>> fs = d[d.kind == "fsync"]; bool((fs.device_ns > 1e7).all())
    True
    >>> dax = flowop_demands(paper_workload("varmail"), "pcm-dax")
    >>> bool((dax[dax.kind == "fsync"].device_ns < 1e4).all())
    True
    """
    cfg = get_config(config)
    md = metadata_latency()
    fc = fsync_costs()
    from models.storage.file_cache import pagecache_latency

    dev = cfg.device
    main = workload.main_fileset
    total_files = sum(f.total_bytes for f in workload.filesets.values())
    footprint = max(total_files, 1.0)
    h = hit_ratio(cfg.page_cache_bytes, footprint, max(1, main.entries), zipf_alpha=zipf_alpha)
    pressure = 1.0 - h
    host_fault = 0.0
    if cfg.mode == "dax" and cfg.host_device is not None:
        host_fault = max(0.0, 1.0 - cfg.host_memory_bytes / footprint)

    rows = []
    for g in workload.threads:
        fd_set: dict[int | None, str] = {}
        dirty: dict[int | None, float] = {}
        meta_dirty: dict[int | None, bool] = {}
        for op in g.flowops:
            fs = workload.fileset_of(op, fd_set)
            size = fs.size_mean_bytes
            cpu = dev_ns = host = jour = 0.0
            commit_dev = packed_pos = 0.0
            nbytes = 0.0
            calls = 1.0
            k = op.kind
            if k in ("openfile", "createfile"):
                fd_set[op.fd] = fs.name
                dirty[op.fd] = 0.0
                meta_dirty[op.fd] = k == "createfile"
                cpu = md["open"] if k == "openfile" else md["create"] - md["close"]
            elif k == "closefile":
                cpu = md["close"]
            elif k in ("statfile", "listdir"):
                cpu = md["stat"]
            elif k in ("deletefile", "removedir"):
                cpu = md["unlink"]
            elif k == "makedir":
                cpu = md["create"] - md["close"]
            elif op.category in ("read", "write"):
                write = op.category == "write"
                io = op.iosize_bytes or (8192.0 if op.kind in ("read", "write", "aiowrite", "aioread") else 1 << 20)
                if k in ("readwholefile", "writewholefile"):
                    nbytes = size
                    calls = _calls_per_file(size, fs.size_gamma, io)
                elif k == "appendfilerand":
                    nbytes = io / 2.0  # uniform random amount in (0, iosize]
                else:
                    nbytes = io
                chunk = nbytes / calls
                t_read, t_ins = pagecache_latency(max(chunk, 1.0))
                sync_io = op.directio or op.dsync
                if cfg.mode == "pagecache":
                    cpu = calls * (t_ins if write else t_read)
                    if sync_io:
                        dev_ns = dev.transfer_ns(nbytes, write=write)
                    elif write:
                        dev_ns = pressure * dev.transfer_ns(nbytes, write=True)
                    else:
                        dev_ns = (1.0 - h) * dev.transfer_ns(nbytes, write=False)
                else:
                    cpu = calls * ((t_ins if write else t_read) + cfg.virt_per_op_ns)
                    dev_ns = calls * _extra_ns(dev, chunk, write=write)
                    if cfg.host_device is not None:
                        host = host_fault * cfg.host_device.transfer_ns(nbytes, write=False)
                if write:
                    if cfg.mode == "pagecache" and not sync_io:
                        dirty[op.fd] = dirty.get(op.fd, 0.0) + (1.0 - pressure) * nbytes
                    meta_dirty[op.fd] = meta_dirty.get(op.fd, False) or k != "write"
            elif k in ("fsync", "fsyncset"):
                has_meta = meta_dirty.get(op.fd, False)
                d = dirty.get(op.fd, 0.0)
                commit = has_meta or (cfg.mode == "pagecache" and d > 0)
                # caller's CPU: measured ext4 fsync path when there is work, else the bare call
                cpu = fc["caller_cpu"] if commit else md["fsync"]
                if commit:
                    jour = fc["commit"]  # jbd2 thread's share, batched by group commit
                    commit_dev = journal_commit_ns(dev)
                if cfg.mode == "pagecache":
                    if d > 0:
                        dev_ns += dev.transfer_ns(d, write=True)
                        if size < MB_STREAM_REQ_BLOCKS * BLOCK:  # packed: positioning shared
                            packed_pos = dev.write_latency_ns
                    dev_ns += commit_dev
                else:
                    cpu += cfg.virt_per_op_ns
                    dev_ns = dev.write_latency_ns + commit_dev  # drain of flushed lines + commit
                dirty[op.fd] = 0.0
                meta_dirty[op.fd] = False
            elif k == "hog":
                cpu = (op.value or 0.0) * 1.0  # ~1 ns per hog iteration (busy loop) -- ASSUMPTION
            # other control flowops (delay, semaphores, limits): no file-system work
            it = float(op.iters)
            rows.append(dict(group=g.name, instances=g.instances, flowop=op.name, kind=k,
                             category=op.category, bytes=nbytes * it, calls=calls * it,
                             cpu_ns=cpu * it, device_ns=dev_ns * it, host_ns=host * it, journal_ns=jour * it,
                             commit_device_ns=commit_dev * it, packed_pos_ns=packed_pos * it, hit_ratio=h))
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------- MVA


@njit(cache=True)
def _mva_kernel(D, servers, n_max):  # pragma: no cover - compiled
    K = D.shape[0]
    X = np.zeros(n_max + 1)
    R = np.zeros((n_max + 1, K))
    Q = np.zeros((n_max + 1, K))
    p = np.zeros((K, n_max + 1))
    for k in range(K):
        p[k, 0] = 1.0
    for n in range(1, n_max + 1):
        for k in range(K):
            c = servers[k]
            if c == 0:
                R[n, k] = D[k]
            elif c == 1:
                R[n, k] = D[k] * (1.0 + Q[n - 1, k])
            else:
                s = 0.0
                for j in range(1, n + 1):
                    s += j / min(j, c) * p[k, j - 1]
                R[n, k] = D[k] * s
        tot = 0.0
        for k in range(K):
            tot += R[n, k]
        X[n] = n / tot if tot > 0 else np.inf
        for k in range(K):
            Q[n, k] = X[n] * R[n, k]
            c = servers[k]
            if c > 1:
                newp = np.zeros(n + 1)
                acc = 0.0
                for j in range(1, n + 1):
                    newp[j] = X[n] * D[k] / min(j, c) * p[k, j - 1]
                    acc += newp[j]
                newp[0] = max(0.0, 1.0 - acc)
                for j in range(n + 1):
                    p[k, j] = newp[j]
    return X, R, Q


def mva(demands_ns, servers, n_max: int) -> dict[str, np.ndarray]:
    """Exact MVA of a closed, single-class network with zero think time.

    Parameters
    ----------
    demands_ns : array_like
        Service demand per cycle at each station [ns] (>= 0).
    servers : array_like of int
        Servers per station: 1 = queueing (FCFS), c > 1 = c identical servers
        (load-dependent, exact marginal-probability MVA), 0 = delay (infinite servers).
    n_max : int
        Largest population (threads) [-].

    Returns
    -------
    dict
        ``n`` (1..n_max), ``throughput_per_ns`` (cycles per ns), ``response_ns`` (cycle
        time), ``residence_ns`` (n_max x K), ``queue`` (mean customers per station).

    Examples
    --------
    One station: X = 1/D whatever N, response N*D.

    >>> r = mva([2.0], [1], 3); r["throughput_per_ns"].tolist(), r["response_ns"].tolist()
    ([0.5, 0.5, 0.5], [2.0, 4.0, 6.0])

    Two balanced stations (D = 1): X(N) = N / (N + 1).

    >>> mva([1.0, 1.0], [1, 1], 3)["throughput_per_ns"].round(4).tolist()
    [0.5, 0.6667, 0.75]
    """
    D = np.asarray(demands_ns, dtype=float)
    c = np.asarray(servers, dtype=np.int64)
    if D.ndim != 1 or D.shape != c.shape or D.size == 0:
        raise ValueError("demands_ns and servers must be 1-D arrays of the same non-zero length")
    if not np.all(np.isfinite(D)) or np.any(D < 0):
        raise ValueError("demands_ns must be finite and >= 0")
    if np.any(c < 0):
        raise ValueError("servers must be >= 0 (0 = delay station)")
    if D.sum() <= 0:
        raise ValueError("demands_ns: total demand must be > 0")
    if not 1 <= int(n_max) <= 100_000:
        raise ValueError(f"n_max must be in 1..100000, got {n_max}")
    X, R, Q = _mva_kernel(D, c, int(n_max))
    return {"n": np.arange(1, n_max + 1), "throughput_per_ns": X[1:], "response_ns": R[1:].sum(axis=1),
            "residence_ns": R[1:], "queue": Q[1:]}


# ---------------------------------------------------------------------------- evaluation


def _batched(dem: pd.DataFrame, b: float, lgroups: int) -> np.ndarray:
    """Per-flowop demands [ns] (rows x STATIONS) when ``b`` fsyncs share one jbd2 commit.

    A jbd2 commit is one sequential chain (journal thread hand-off, descriptor and
    metadata blocks, cache flush, commit block) and only one transaction commits at a
    time, so the whole commit -- the journal thread's work (``journal_ns``) and its device
    writes (``commit_device_ns``, moved out of the device station) -- sits on the
    single-server ``journal`` station, paid once per commit, i.e. ``1/b`` per fsync. The
    positioning of packed small-file data (``packed_pos_ns``) is paid once per locality
    group the batch touches, ``min(b, lgroups) / b`` per fsync. At ``b = 1`` the row sums
    equal :func:`flowop_demands`' totals.
    """
    cd = dem["commit_device_ns"].to_numpy()
    pp = dem["packed_pos_ns"].to_numpy()
    dev = dem["device_ns"].to_numpy() - cd - pp + pp * min(b, float(lgroups)) / b
    return np.column_stack([dem["cpu_ns"].to_numpy(), dev, dem["host_ns"].to_numpy(),
                            (dem["journal_ns"].to_numpy() + cd) / b])


def group_commit_batch(rows_b, wrow, is_sync, servers, keep, m: int, *, tol: float = 1e-3):
    """jbd2 group commit: fsyncs per commit ``b`` at ``m`` threads, by a fixed point.

    jbd2 commits one transaction at a time; every fsync that arrives while a commit runs
    joins the next one. With commits back to back (gated batch service), a thread in
    fsync waits on average the residual half of the running commit plus its own commit,
    1.5 commit times, so the batch is the mean number of threads inside fsync flowops
    (Little's law on the MVA solution) divided by 1.5:
    ``b = clip(X * R_fsync(b) / 1.5, 1, m)``. ``R_fsync`` falls as ``b`` grows, so the
    fixed point is unique and found by bisection.

    Parameters
    ----------
    rows_b : callable
        ``b -> (rows x stations)`` per-flowop demands [ns] (:func:`_batched`).
    wrow : numpy.ndarray
        Weight of each row (thread-group mix) [-].
    is_sync : numpy.ndarray of bool
        Rows that are fsync flowops.
    servers, keep : numpy.ndarray
        Servers per station and the stations with non-zero demand.
    m : int
        Threads [-].

    Returns
    -------
    tuple
        ``(b, X [loops/ns], residence per station [ns], demands per station [ns])`` at ``m``.
    """
    def solve(b):
        rows = rows_b(b) * wrow[:, None]
        D = rows.sum(axis=0)
        X, Rr, _ = _mva_kernel(D[keep], servers[keep], m)
        rk = np.zeros(len(D))
        rk[keep] = Rr[m]
        stretch = np.ones(len(D))
        stretch[keep] = rk[keep] / D[keep]
        n_sync = X[m] * float((rows[is_sync] * stretch[None, :]).sum()) / GATED_WAIT
        return n_sync, X[m], rk, D

    lo, hi = 1.0, float(m)
    n1, x, rk, D = solve(1.0)
    if m == 1 or n1 <= 1.0:
        return 1.0, x, rk, D
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if solve(mid)[0] > mid:
            lo = mid
        else:
            hi = mid
        if hi - lo < tol:
            break
    b = 0.5 * (lo + hi)
    _, x, rk, D = solve(b)
    return b, x, rk, D


@dataclass(frozen=True)
class WorkloadResult:
    """Throughput and latency of a workload on a configuration vs thread count.

    ``curve`` columns: threads, ops_per_s, latency_ms (per flowop), loop_ms,
    utilisation of each station. ``breakdown``: per-flowop mean latency [ms] at
    ``threads`` (the last thread count), with the station shares.
    """

    workload: str
    config: str
    curve: pd.DataFrame
    breakdown: pd.DataFrame
    demands: pd.DataFrame

    @property
    def ops_per_s(self) -> float:
        """Throughput at the largest thread count [ops/s]."""
        return float(self.curve["ops_per_s"].iloc[-1])

    @property
    def latency_ms(self) -> float:
        """Mean latency per flowop at the largest thread count [ms]."""
        return float(self.curve["latency_ms"].iloc[-1])


def evaluate(workload: Workload | str, config: StorageConfig | str, *, threads: int | None = None,
             zipf_alpha: float = 0.0) -> WorkloadResult:
    """Throughput [ops/s] and latency [ms] of ``workload`` on ``config`` for 1..threads threads.

    Thread groups with different loops are merged into one class whose loop is their
    instance-weighted mix (exact for the single-group personalities of Table 1).

    >>> r = evaluate(paper_workload("varmail"), "hdd")
    >>> int(r.curve.threads.iloc[-1]), r.ops_per_s < 10_000, round(r.curve.commit_batch.iloc[-1])
    (50, True, 33)
    """
    w = load_workload(workload) if isinstance(workload, str) else workload
    cfg = get_config(config)
    n = int(threads) if threads is not None else w.nthreads
    if not 1 <= n <= MAX_THREADS:
        raise ValueError(f"threads must be within 1..{MAX_THREADS} (the MVA solver is O(threads^2)), got {n}")
    dem = flowop_demands(w, cfg, zipf_alpha=zipf_alpha)
    inst = dem.groupby("group", sort=False)["instances"].first()
    weight = inst / inst.sum() if inst.sum() > 0 else inst * 0 + 1.0 / len(inst)
    wrow = dem["group"].map(weight).to_numpy()
    ops_per_loop = float((dem.groupby("group", sort=False).size() * weight).sum())
    servers = np.array([cfg.cpu_cores, cfg.device_servers, cfg.host_device_servers, 1], dtype=np.int64)
    rows_b = lambda b: _batched(dem, b, cfg.cpu_cores)  # noqa: E731 - per-flowop demands at batch b
    D1 = (rows_b(1.0) * wrow[:, None]).sum(axis=0)
    keep = D1 > 0
    if not keep.any():
        raise ValueError(f"{w.name}: the flowop loop does no file-system work")
    is_sync = (dem["category"] == "sync").to_numpy()
    batchable = bool((dem[["journal_ns", "commit_device_ns", "packed_pos_ns"]].to_numpy() > 0).any())
    X = np.zeros(n)
    R = np.zeros(n)
    res_k = np.zeros((n, len(STATIONS)))
    batch = np.ones(n)
    Db = np.zeros((n, len(STATIONS)))
    if not batchable:
        res = mva(D1[keep], servers[keep], n)
        X[:] = res["throughput_per_ns"]
        R[:] = res["response_ns"]
        res_k[:, keep] = res["residence_ns"]
        Db[:] = D1
    else:
        for m in range(1, n + 1):
            b, x, rk, dk = group_commit_batch(rows_b, wrow, is_sync, servers, keep, m)
            batch[m - 1], X[m - 1], R[m - 1] = b, x, rk.sum()
            res_k[m - 1], Db[m - 1] = rk, dk
    Xl = X * 1e9  # loops per second
    curve = pd.DataFrame({"threads": np.arange(1, n + 1), "ops_per_s": Xl * ops_per_loop,
                          "latency_ms": R / ops_per_loop / 1e6, "loop_ms": R / 1e6, "commit_batch": batch})
    util = np.zeros((n, len(STATIONS)))
    util[:, keep] = (Xl[:, None] * Db[:, keep] / 1e9) / servers[keep][None, :]
    for i, s in enumerate(STATIONS):
        curve[f"util_{s}"] = util[:, i]
    stretch = np.ones(len(STATIONS))
    stretch[keep] = res_k[-1, keep] / Db[-1, keep]
    rows = rows_b(batch[-1])
    br = dem[["group", "flowop", "kind", "category"]].copy()
    for i, s in enumerate(STATIONS):
        br[f"{s}_ms"] = rows[:, i] * stretch[i] / 1e6
    br["latency_ms"] = br[[f"{s}_ms" for s in STATIONS]].sum(axis=1)
    br["share"] = br["latency_ms"] * wrow / max(1e-300, float((br["latency_ms"] * wrow).sum()))
    return WorkloadResult(workload=w.name, config=cfg.name, curve=curve, breakdown=br, demands=dem)


def paper_workload(personality: str, **changes) -> Workload:
    """A bundled personality with seed 000's Table 1 configuration applied.

    ``changes`` are passed to :meth:`Workload.with_changes` afterwards (``files_scale``,
    ``threads``, ``iosize_bytes``...).

    >>> w = paper_workload("fileserver"); w.main_fileset.entries, w.nthreads
    (100000, 50)
    >>> w.read_write_ratio()  # Table 1: R/W 1:2
    (50, 100)
    """
    if personality not in TABLE1:
        raise KeyError(f"no Table 1 preset for {personality!r}; valid: {', '.join(TABLE1)}")
    t = TABLE1[personality]
    w = load_workload(personality).with_changes(
        nfiles=t["nfiles"], file_size_bytes=t["file_size_bytes"], dirwidth=t["dirwidth"],
        threads=t["threads"], iosize_bytes=t["iosize_bytes"], append_bytes=t["append_bytes"])
    return w.with_changes(**changes) if changes else w


def _wl(workload) -> Workload:
    if isinstance(workload, Workload):
        return workload
    return paper_workload(workload) if workload in TABLE1 else load_workload(workload)


def sweep_threads(workload, configs, threads: int = 32, *, zipf_alpha: float = 0.0) -> pd.DataFrame:
    """Throughput and latency for 1..``threads`` threads on each configuration (Fig. 5).

    >>> df = sweep_threads("varmail", ["hdd", "pcm-dax"], 4); len(df)
    8
    """
    w = _wl(workload)
    out = []
    for c in [configs] if isinstance(configs, (str, StorageConfig)) else configs:
        r = evaluate(w, c, threads=threads, zipf_alpha=zipf_alpha)
        out.append(r.curve.assign(workload=w.name, config=r.config))
    return pd.concat(out, ignore_index=True)


IOSIZES = (64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384)


def sweep_iosize(workload, configs, iosizes=IOSIZES, *, threads: int | None = None,
                 zipf_alpha: float = 0.0) -> pd.DataFrame:
    """Throughput vs I/O size of the read/write flowops (Fig. 4: 64 B - 16 KB).

    >>> df = sweep_iosize("webproxy", "pcm-dax", [64, 4096]); bool(df.ops_per_s.iloc[1] > df.ops_per_s.iloc[0])
    True
    """
    w = _wl(workload)
    rows = []
    for c in [configs] if isinstance(configs, (str, StorageConfig)) else configs:
        for s in iosizes:
            r = evaluate(w.with_changes(iosize_bytes=float(s)), c, threads=threads, zipf_alpha=zipf_alpha)
            rows.append(dict(workload=w.name, config=r.config, iosize_bytes=int(s), ops_per_s=r.ops_per_s,
                             latency_ms=r.latency_ms))
    return pd.DataFrame(rows)


def sweep_files(workload, configs, scales=(1.0, 0.1), *, threads: int | None = None,
                zipf_alpha: float = 0.0) -> pd.DataFrame:
    """Throughput with the default and 10x fewer files (Fig. 2(b))."""
    w = _wl(workload)
    rows = []
    for c in [configs] if isinstance(configs, (str, StorageConfig)) else configs:
        for s in scales:
            r = evaluate(w.with_changes(files_scale=float(s)), c, threads=threads, zipf_alpha=zipf_alpha)
            rows.append(dict(workload=w.name, config=r.config, files_scale=float(s),
                             nfiles=w.with_changes(files_scale=float(s)).main_fileset.entries,
                             ops_per_s=r.ops_per_s, latency_ms=r.latency_ms,
                             hit_ratio=float(r.demands["hit_ratio"].iloc[0])))
    return pd.DataFrame(rows)


def compare(workloads=PERSONALITIES, configs=("hdd", "ssd", "pcm-block", "pcm-dax", "pcm-dram", "pcm-ssd", "pcm-hdd"),
            *, threads: int | None = None, zipf_alpha: float = 0.0) -> pd.DataFrame:
    """Throughput of every workload on every configuration (Fig. 2(a)), with speedups vs HDD/SSD."""
    rows = []
    for wl in workloads:
        w = _wl(wl)
        for c in configs:
            r = evaluate(w, c, threads=threads, zipf_alpha=zipf_alpha)
            rows.append(dict(workload=w.name, config=r.config, threads=int(r.curve.threads.iloc[-1]),
                             ops_per_s=r.ops_per_s, latency_ms=r.latency_ms))
    df = pd.DataFrame(rows)
    for ref in ("hdd", "ssd"):
        base = df[df.config == ref].set_index("workload")["ops_per_s"]
        if len(base):
            df[f"speedup_vs_{ref}"] = df["ops_per_s"] / df["workload"].map(base)
    return df


def workload_features(workload) -> dict:
    """§4.6 features of a workload: syncs, write share, locality, I/O size.

    Returns fsync flowops per 100 flowops, the write share of data flowops, the file
    set's size [bytes] and the typical (median) I/O size of the non-append read/write
    flowops [bytes].

    >>> f = workload_features("varmail"); f["fsyncs_per_100_ops"] > 10, f["write_share"]
    (True, 0.5)
    """
    w = _wl(workload)
    ops = [(t.instances, f) for t, f in w.flowops()]
    tot = sum(n * f.iters for n, f in ops)
    syncs = sum(n * f.iters for n, f in ops if f.category == "sync")
    r, wr = w.read_write_ratio()
    io = [f.iosize_bytes for _, f in ops if f.category in ("read", "write") and f.iosize_bytes
          and f.kind not in ("appendfile", "appendfilerand")]
    return {"fsyncs_per_100_ops": 100.0 * syncs / max(tot, 1), "write_share": wr / max(r + wr, 1),
            "reads": r, "writes": wr, "fileset_bytes": sum(f.total_bytes for f in w.filesets.values()),
            "nfiles": w.main_fileset.entries, "iosize_bytes": float(np.median(io)) if io else float("nan"),
            "file_size_bytes": w.main_fileset.size_mean_bytes}
