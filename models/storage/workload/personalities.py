"""Seed 000's Filebench personalities: the Table 1 presets and the §4.6 workload features.

Seed 000 ran four Filebench personalities (fileserver, webserver, webproxy, varmail) with
the files, file sizes, I/O sizes and threads of its Table 1; :func:`paper_workload` applies
that table to the bundled ``.f`` files. Its §4.6 names the features that make PCM storage
pay -- many synchronisation calls, write-intensive, low locality, ~4 KB I/O --
which :func:`workload_features` measures on a flowop loop.

References
----------
.. [1] Seed 000: Filebench on a DAX PCM file system (Table 1, §4.6).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models._base import ModelResult
from models.storage.filebench import Workload, load_workload

__all__ = ["TABLE1", "PERSONALITIES", "paper_workload", "as_workload", "WorkloadFeatures", "workload_features"]

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


def as_workload(workload: Workload | str) -> Workload:
    """A workload as given, a Table 1 personality by name, else a bundled name or ``.f`` path.

    >>> as_workload("varmail").nthreads, as_workload("oltp").nthreads
    (50, 211)
    """
    if isinstance(workload, Workload):
        return workload
    return paper_workload(workload) if workload in TABLE1 else load_workload(workload)


@dataclass(frozen=True)
class WorkloadFeatures(ModelResult):
    """§4.6 features of a workload's flowop loop (one row in ``to_frame()``).

    Attributes
    ----------
    fsyncs_per_100_ops : float
        fsync flowops per 100 flowops [-].
    write_share : float
        Write share of the data flowops [-].
    reads, writes : int
        Read and write flowops per loop pass, weighted by thread instances [-].
    fileset_bytes : float
        Bytes of all file sets at the start [bytes].
    nfiles : int
        Files of the main file set [-].
    iosize_bytes : float
        Median I/O size of the non-append read/write flowops [bytes] (NaN if none).
    file_size_bytes : float
        Mean file size of the main file set [bytes].
    """

    fsyncs_per_100_ops: float
    write_share: float
    reads: int
    writes: int
    fileset_bytes: float
    nfiles: int
    iosize_bytes: float
    file_size_bytes: float


def workload_features(workload: Workload | str) -> WorkloadFeatures:
    """§4.6 features of a workload: syncs, write share, locality, I/O size.

    >>> f = workload_features("varmail"); f.fsyncs_per_100_ops > 10, f.write_share
    (True, 0.5)
    """
    w = as_workload(workload)
    ops = [(t.instances, f) for t, f in w.flowops()]
    tot = sum(n * f.iters for n, f in ops)
    syncs = sum(n * f.iters for n, f in ops if f.category == "sync")
    r, wr = w.read_write_ratio()
    io = [f.iosize_bytes for _, f in ops if f.category in ("read", "write") and f.iosize_bytes
          and f.kind not in ("appendfile", "appendfilerand")]
    return WorkloadFeatures(
        fsyncs_per_100_ops=100.0 * syncs / max(tot, 1), write_share=wr / max(r + wr, 1), reads=r, writes=wr,
        fileset_bytes=sum(f.total_bytes for f in w.filesets.values()), nfiles=w.main_fileset.entries,
        iosize_bytes=float(np.median(io)) if io else float("nan"), file_size_bytes=w.main_fileset.size_mean_bytes)
