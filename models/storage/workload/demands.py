"""Service demand of every Filebench flowop on the CPU, the device, the VM host and the journal.

Each flowop kind has one small function in :data:`FLOWOP_DEMANDS` giving the demand [ns]
of one execution at each station (:data:`STATIONS`); :func:`flowop_demands` walks a
workload's loops and dispatches on the kind. A per-thread-group record of open files
(which file set each fd is on, its dirty bytes, whether its metadata changed) links the
writes to the fsyncs that follow them.

*Metadata flowops* (openfile, createfile, statfile, deletefile; listdir and removedir too), both modes:
CPU = the measured system call on tmpfs (:func:`~models.storage.workload.costs.metadata_latency`,
files in one directory) + the path lookup of the file set's extra directory components
(:func:`~models.storage.workload.costs.extra_path_components` x the measured
``LOOKUP_PER_COMPONENT_NS``; for listdir/removedir the same file-depth count, one component
more than their directory path walks).

*ext4 + page cache over a block device* (``mode="pagecache"``)
  - read of ``c`` bytes: CPU = measured ``pread()`` of a cached block
    (:func:`models.storage.file_cache.pagecache_latency`); device = miss ratio x one device
    access of the whole request (``DeviceProfile.transfer_ns``: positioning + streaming,
    i.e. read-ahead turns a whole-file read into one request);
  - write / append of ``c`` bytes: CPU = measured ``pwrite()`` into the page cache;
    device = write-back under pressure: the evicted share (= miss ratio) of the written
    bytes is written back, one device write per flowop; the rest stays dirty until an
    fsync or the kernel flusher writes it (dirty write-back, below);
  - fsync: caller CPU = the measured ext4 fsync path
    (:func:`~models.storage.workload.costs.fsync_costs`); device = the file's still-dirty
    bytes in one write; journal = one jbd2 commit
    (:func:`~models.storage.workload.costs.journal_commit_ns` on the device, plus the
    measured commit work of the journal thread), shared by group commit
    (:mod:`models.storage.workload.group_commit`). Files smaller than ``mb_stream_req``
    blocks are packed by ext4's per-CPU locality-group allocator, so a batch's data writes
    pay one positioning per locality group, not one per file (``packed_pos_ns``);
  - page-cache hit ratio ``h`` from file-set size vs cache size and locality
    (:func:`~models.storage.workload.costs.hit_ratio`).

*ext4-DAX on a byte-addressable device* (``mode="dax"``)
  - read / write of ``c`` bytes: the same system-call + copy path as above (CPU), plus the
    device's extra time over DRAM for ``c`` bytes on the device station
    (``dev.transfer_ns(c) - dram.transfer_ns(c)``);
  - fsync: a cache-line flush drain (one device write latency); when metadata changed, the
    measured caller CPU and a group-committed jbd2 commit. ext4-DAX still journals
    metadata; file data written by ``write()`` is already flushed;
  - optional virtualisation (the paper's PCM-DRAM / PCM-SSD / PCM-HDD emulation):
    ``virt_per_op_ns`` per data or sync call on the CPU; the vPCM is the host file mapped
    into the guest, so every DAX access goes through the host's mapping of it: reads fault
    from the host device when the page is not in host memory (share
    ``1 - host_memory / footprint``, one host-device access of the request each), and
    every written byte dirties a host page that the host's flusher writes back to the host
    device (a guest fsync on DAX flushes CPU caches only, it does not reach the host file).
    Both go on the host station. A vPCM file on DRAM (PCM-DRAM) has no host device.

*Dirty write-back* (``writeback_device_ns`` / ``writeback_host_ns``): the dirty bytes of
a file not written by an fsync are left to the kernel flusher when the file is closed
(or reopened, or at the end of the loop): one write of the file's dirty bytes (the
flusher writes an inode's pages together) on the device (guest page cache) or the host
device (host mapping of the vPCM file). Files smaller than ``mb_stream_req`` blocks
(packed next to each other) and a file set of one file (a log every thread appends to)
are written back in one pass with their neighbours: they pay the streaming only, not a
positioning each. Appends to a one-file set (a log) are kept apart (``writeback_log_*``):
they always dirty new pages, while rewrites of the other files' pages before their
write-back are absorbed (:func:`~models.storage.workload.costs.writeback_shares`). These columns hold the cost if *all* of it is
written; :func:`models.storage.workload.fit.evaluate` scales them by the share the
flusher writes within the run (:func:`~models.storage.workload.costs.writeback_share`:
``dirty_expire_centisecs``, ``dirty_writeback_centisecs``, ``dirty_background_ratio``),
a fixed point with the throughput. Files deleted before their write-back are not
discounted (an upper bound).

*Metadata* flowops (open, close, stat, create, delete) cost the same in both modes: the
system-call latencies measured on tmpfs. ``hog`` costs ~1 ns per iteration of CPU
(ASSUMPTION: a busy loop); the other control flowops (delay, semaphores, limits) do no
file-system work.

References
----------
.. [1] Seed 000: Filebench on a DAX PCM file system (Table 1, Figs. 2-5, §4.5-4.6).
.. [2] Filebench flowop semantics, github.com/filebench/filebench (``flowop_library.c``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from models.provenance import param
from models.storage.file_cache import pagecache_latency
from models.storage.filebench import (
    CONTROL_FLOWOPS,
    READ_FLOWOPS,
    WRITE_FLOWOPS,
    FileSet,
    Flowop,
    Workload,
)
from models.storage.workload.configs import StorageConfig, get_config
from models.storage.workload.costs import (
    BLOCK,
    LOOKUP_PER_COMPONENT_NS,
    MB_STREAM_REQ_BLOCKS,
    calls_per_file,
    dax_extra_ns,
    extra_path_components,
    fsync_costs,
    hit_ratio,
    journal_commit_ns,
    metadata_latency,
)

__all__ = ["STATIONS", "Demand", "FLOWOP_DEMANDS", "flowop_demands", "demand_rows", "MixedSigns"]

#: Stations of the queueing network, in the order of the demand columns.
STATIONS = ("cpu", "device", "host", "journal")
#: I/O size of a read/write flowop without ``iosize`` [bytes] (registry ``workload.default_iosize_bytes``).
_DEFAULT_IOSIZE = param("workload.default_iosize_bytes").value
#: CPU time of one hog iteration [ns] (registry ``workload.hog_ns_per_iteration``, assumed).
_HOG_NS = param("workload.hog_ns_per_iteration").value


class MixedSigns(ValueError):
    """A byte count of a vectorised demand walk is > 0 in some samples and not in others: the walk
    takes another branch per sample (:func:`models.storage.workload.fast.evaluate_many` then
    walks those samples one by one)."""


def _positive(x) -> bool:
    """``x > 0`` for a scalar; for an array (one value per sample) the common answer, else :class:`MixedSigns`."""
    if np.ndim(x) == 0:
        return bool(x > 0)
    pos = np.asarray(x) > 0
    if pos.all():
        return True
    if not pos.any():
        return False
    raise MixedSigns("byte count > 0 in some samples only")


def _transfer_ns(dev, nbytes, *, write: bool):
    """:meth:`~models.devices.DeviceProfile.transfer_ns`, also for an array ``nbytes`` (same arithmetic) [ns].

    Streams at the device's media bandwidth (``effective_*_bandwidth_MBps``), never its interface rate
    (``interface_bandwidth_MBps``)."""
    if np.ndim(nbytes) == 0:
        return dev.transfer_ns(nbytes, write=write)
    from models.devices import transfer_time_ns

    lat = dev.write_latency_ns if write else dev.read_latency_ns
    bw = dev.effective_write_bandwidth_MBps if write else dev.effective_read_bandwidth_MBps
    return transfer_time_ns(lat, nbytes, dev.access_unit_bytes, bw)


@dataclass
class Demand:
    """Demand of one flowop execution at each station [ns], the data it moves and its calls.

    ``commit_device_ns`` (the jbd2 commit's device writes) and ``packed_pos_ns`` (the
    positioning of a packed small file) are parts of ``device_ns`` that group commit shares.
    """

    cpu_ns: float = 0.0
    device_ns: float = 0.0
    host_ns: float = 0.0
    journal_ns: float = 0.0
    commit_device_ns: float = 0.0
    packed_pos_ns: float = 0.0
    writeback_device_ns: float = 0.0
    writeback_host_ns: float = 0.0
    writeback_bytes: float = 0.0
    writeback_log_device_ns: float = 0.0
    writeback_log_host_ns: float = 0.0
    writeback_log_bytes: float = 0.0
    bytes: float = 0.0
    calls: float = 1.0


@dataclass(frozen=True)
class _Env:
    """What every flowop of one evaluation shares: configuration, measured costs, hit ratio."""

    cfg: StorageConfig
    md: dict
    fc: dict
    hit: float
    pressure: float
    host_fault: float


@dataclass
class _OpenFiles:
    """Per thread group: the file set each fd is on, its dirty bytes and metadata state."""

    fileset: dict = field(default_factory=dict)
    dirty: dict = field(default_factory=dict)
    host_dirty: dict = field(default_factory=dict)
    meta_dirty: dict = field(default_factory=dict)
    streamed: dict = field(default_factory=dict)
    log: dict = field(default_factory=dict)

    def open(self, fd, fs: FileSet, *, created: bool) -> None:
        self.fileset[fd] = fs.name
        self.dirty[fd] = 0.0
        self.host_dirty[fd] = 0.0
        self.meta_dirty[fd] = created

    def left_to_flusher(self, fd, env: _Env) -> Demand:
        """Write-back demand of the dirty bytes of ``fd`` handed to the flusher (all of them)."""
        d, h = self.dirty.get(fd, 0.0), self.host_dirty.get(fd, 0.0)
        self.dirty[fd] = self.host_dirty[fd] = 0.0
        cfg = env.cfg
        # packed small files and a single shared file (a log) are written back together with their
        # neighbours in one pass: the positioning is shared, only the streaming is paid per file
        shared_pos = self.streamed.get(fd, False)

        def cost(dev, nbytes):
            t = _transfer_ns(dev, nbytes, write=True)
            return t - dev.write_latency_ns if shared_pos else t

        out = Demand(calls=0.0)
        if _positive(d):
            out.writeback_device_ns = cost(cfg.device, d)
            out.writeback_bytes += d
        if _positive(h) and cfg.host_device is not None:
            out.writeback_host_ns = cost(cfg.host_device, h)
            out.writeback_bytes += h
        if self.log.get(fd, False):  # appends to a one-file set: always new pages, nothing absorbed
            out.writeback_log_device_ns, out.writeback_log_host_ns = out.writeback_device_ns, out.writeback_host_ns
            out.writeback_log_bytes = out.writeback_bytes
        return out


_WB_FIELDS = ("writeback_device_ns", "writeback_host_ns", "writeback_bytes", "writeback_log_device_ns",
              "writeback_log_host_ns", "writeback_log_bytes")


def _with_flush(d: Demand, w: Demand) -> Demand:
    for f in _WB_FIELDS:
        setattr(d, f, getattr(d, f) + getattr(w, f))
    return d


Handler = Callable[[Flowop, FileSet, _Env, _OpenFiles], Demand]


def _lookup_ns(fs) -> float:
    """Path lookup of the directory components a file of ``fs`` has beyond the metadata benchmark's [ns]."""
    if fs is None:
        return 0.0
    return LOOKUP_PER_COMPONENT_NS * extra_path_components(fs.entries, fs.dirwidth)


def _openfile(op, fs, env, files) -> Demand:
    w = files.left_to_flusher(op.fd, env)  # a file still open on this fd is left behind
    files.open(op.fd, fs, created=False)
    return _with_flush(Demand(cpu_ns=env.md["open"] + _lookup_ns(fs)), w)


def _createfile(op, fs, env, files) -> Demand:
    w = files.left_to_flusher(op.fd, env)
    files.open(op.fd, fs, created=True)
    return _with_flush(Demand(cpu_ns=env.md["create"] - env.md["close"] + _lookup_ns(fs)), w)


def _closefile(op, fs, env, files) -> Demand:
    return _with_flush(Demand(cpu_ns=env.md["close"]), files.left_to_flusher(op.fd, env))


def _stat(op, fs, env, files) -> Demand:
    return Demand(cpu_ns=env.md["stat"] + _lookup_ns(fs))


def _unlink(op, fs, env, files) -> Demand:
    return Demand(cpu_ns=env.md["unlink"] + _lookup_ns(fs))


def _makedir(op, fs, env, files) -> Demand:
    return Demand(cpu_ns=env.md["create"] - env.md["close"])


def _data(op, fs, env, files) -> Demand:
    """Read or write of file data: system call + copy on the CPU, the device part by mode."""
    cfg, dev = env.cfg, env.cfg.device
    write = op.category == "write"
    io = op.iosize_bytes or (_DEFAULT_IOSIZE if op.kind in ("read", "write", "aiowrite", "aioread") else 1 << 20)
    calls = 1.0
    if op.kind in ("readwholefile", "writewholefile"):
        nbytes = fs.size_mean_bytes
        calls = calls_per_file(nbytes, fs.size_gamma, io)
    elif op.kind == "appendfilerand":
        nbytes = io / 2.0  # uniform random amount in (0, iosize]
    else:
        nbytes = io
    chunk = nbytes / calls
    t_read, t_ins = pagecache_latency(max(chunk, 1.0))
    sync_io = op.directio or op.dsync
    host = 0.0
    if cfg.mode == "pagecache":
        cpu = calls * (t_ins if write else t_read)
        if sync_io:
            dev_ns = dev.transfer_ns(nbytes, write=write)
        elif write:
            dev_ns = env.pressure * dev.transfer_ns(nbytes, write=True)
        else:
            dev_ns = (1.0 - env.hit) * dev.transfer_ns(nbytes, write=False)
    else:
        cpu = calls * ((t_ins if write else t_read) + cfg.virt_per_op_ns)
        dev_ns = calls * dax_extra_ns(dev, chunk, write=write)
        if cfg.host_device is not None:
            host = env.host_fault * cfg.host_device.transfer_ns(nbytes, write=False)
    if write:
        files.streamed[op.fd] = fs.entries <= 1 or fs.size_mean_bytes < MB_STREAM_REQ_BLOCKS * BLOCK
        files.log[op.fd] = fs.entries <= 1
        if cfg.mode == "pagecache" and not sync_io:
            files.dirty[op.fd] = files.dirty.get(op.fd, 0.0) + (1.0 - env.pressure) * nbytes
        if cfg.mode == "dax" and cfg.host_device is not None:
            files.host_dirty[op.fd] = files.host_dirty.get(op.fd, 0.0) + nbytes
        files.meta_dirty[op.fd] = files.meta_dirty.get(op.fd, False) or op.kind != "write"
    return Demand(cpu_ns=cpu, device_ns=dev_ns, host_ns=host, bytes=nbytes, calls=calls)


def _fsync(op, fs, env, files) -> Demand:
    """fsync: dirty data and a jbd2 commit (page cache), or a flush drain and a commit (DAX)."""
    cfg, dev = env.cfg, env.cfg.device
    d = files.dirty.get(op.fd, 0.0)
    commit = files.meta_dirty.get(op.fd, False) or (cfg.mode == "pagecache" and _positive(d))
    # caller's CPU: measured ext4 fsync path when there is work, else the bare call
    cpu = env.fc["caller_cpu"] if commit else env.md["fsync"]
    dev_ns = jour = commit_dev = packed_pos = 0.0
    if commit:
        jour = env.fc["commit"]  # jbd2 thread's share, batched by group commit
        commit_dev = journal_commit_ns(dev)
    if cfg.mode == "pagecache":
        if _positive(d):
            dev_ns += _transfer_ns(dev, d, write=True)
            if fs.size_mean_bytes < MB_STREAM_REQ_BLOCKS * BLOCK:  # packed: positioning shared
                packed_pos = dev.write_latency_ns
        dev_ns += commit_dev
    else:
        cpu += cfg.virt_per_op_ns
        dev_ns = dev.write_latency_ns + commit_dev  # drain of flushed lines + commit
    files.dirty[op.fd] = 0.0
    files.meta_dirty[op.fd] = False
    return Demand(cpu_ns=cpu, device_ns=dev_ns, journal_ns=jour, commit_device_ns=commit_dev,
                  packed_pos_ns=packed_pos)


def _hog(op, fs, env, files) -> Demand:
    return Demand(cpu_ns=(op.value or 0.0) * _HOG_NS)  # ~1 ns per hog iteration (busy loop) -- ASSUMPTION


def _no_work(op, fs, env, files) -> Demand:
    return Demand()


#: Demand function of every flowop kind the parser accepts (:data:`models.storage.filebench.FLOWOP_KINDS`).
FLOWOP_DEMANDS: dict[str, Handler] = {
    "openfile": _openfile,
    "createfile": _createfile,
    "closefile": _closefile,
    "statfile": _stat,
    "listdir": _stat,
    "deletefile": _unlink,
    "removedir": _unlink,
    "makedir": _makedir,
    "fsync": _fsync,
    "fsyncset": _fsync,
    **dict.fromkeys(sorted(READ_FLOWOPS | WRITE_FLOWOPS), _data),
    **dict.fromkeys(sorted(CONTROL_FLOWOPS), _no_work),
    "hog": _hog,
}


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
        ``calls`` (system calls), ``cpu_ns``, ``device_ns``, ``host_ns``, ``journal_ns``,
        ``commit_device_ns``, ``packed_pos_ns``, ``writeback_device_ns``,
        ``writeback_host_ns`` [ns per execution, ``iters`` included; the write-back columns
        if the flusher wrote all of it], ``writeback_bytes`` (dirty bytes left to the
        flusher [bytes]), the part of those three that is appends to a one-file set (a log:
        ``writeback_log_device_ns``, ``writeback_log_host_ns``, ``writeback_log_bytes``)
        and the page-cache ``hit_ratio`` used.

    Examples
    --------
    >>> from models.storage.workload import paper_workload
    >>> d = flowop_demands(paper_workload("varmail"), "hdd")
    >>> fs = d[d.kind == "fsync"]; bool((fs.device_ns > 1e7).all())
    True
    >>> dax = flowop_demands(paper_workload("varmail"), "pcm-dax")  # a journal commit at PCM's 320 MB/s
    >>> bool((dax[dax.kind == "fsync"].device_ns < 1e5).all())
    True
    """
    return pd.DataFrame(demand_rows(workload, config, zipf_alpha=zipf_alpha))


def demand_rows(workload: Workload, config: StorageConfig | str, *, zipf_alpha: float = 0.0) -> list[dict]:
    """The rows of :func:`flowop_demands` as one dict per flowop (no DataFrame: for hot loops).

    >>> from models.storage.workload import paper_workload
    >>> [r["kind"] for r in demand_rows(paper_workload("varmail"), "hdd")][:3]
    ['deletefile', 'createfile', 'appendfilerand']
    """
    cfg = get_config(config)
    footprint = _footprint(workload)
    h = hit_ratio(cfg.page_cache_bytes, footprint, max(1, workload.main_fileset.entries), zipf_alpha=zipf_alpha)
    host_fault = 0.0
    if cfg.mode == "dax" and cfg.host_device is not None:
        host_fault = max(0.0, 1.0 - cfg.host_memory_bytes / footprint)
    return _demand_rows(workload, cfg, h, host_fault)


def _footprint(workload: Workload) -> float:
    """Bytes of all file sets at the start, at least 1 [bytes]."""
    return max(sum(f.total_bytes for f in workload.filesets.values()), 1.0)


def _demand_rows(workload: Workload, cfg: StorageConfig, h, host_fault) -> list[dict]:
    """The rows of :func:`flowop_demands` (a dict per flowop) for hit ratio ``h`` and host fault share
    ``host_fault`` [-]. ``cfg``'s device values, ``virt_per_op_ns``, ``h`` and ``host_fault`` may be arrays
    (one value per sample, :func:`models.storage.workload.fast.evaluate_many`): the columns then are arrays
    (same arithmetic per sample); :class:`MixedSigns` when a branch differs between samples."""
    env = _Env(cfg=cfg, md=metadata_latency(), fc=fsync_costs(), hit=h, pressure=1.0 - h, host_fault=host_fault)
    rows = []
    for g in workload.threads:
        files = _OpenFiles()
        for op in g.flowops:
            fs = workload.fileset_of(op, files.fileset)
            try:
                handler = FLOWOP_DEMANDS[op.kind]
            except KeyError:
                raise ValueError(f"{workload.name}: line {op.line}: no demand model for flowop {op.kind!r}") from None
            d = handler(op, fs, env, files)
            it = float(op.iters)
            rows.append(dict(group=g.name, instances=g.instances, flowop=op.name, kind=op.kind,
                             category=op.category, bytes=d.bytes * it, calls=d.calls * it,
                             cpu_ns=d.cpu_ns * it, device_ns=d.device_ns * it, host_ns=d.host_ns * it,
                             journal_ns=d.journal_ns * it, commit_device_ns=d.commit_device_ns * it,
                             packed_pos_ns=d.packed_pos_ns * it,
                             **{f: getattr(d, f) * it for f in _WB_FIELDS}, hit_ratio=h))
        if rows and g.flowops:  # files still dirty at the end of the loop: left to the flusher there
            last = rows[-1]
            for fd in list(files.dirty) + [f for f in files.host_dirty if f not in files.dirty]:
                w = files.left_to_flusher(fd, env)
                for f in _WB_FIELDS:
                    last[f] += getattr(w, f)
    return rows
