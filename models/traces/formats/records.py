"""The decode stage of the fixed-size binary record readers (libCacheSim ``oracleGeneral`` and ``lcs``).

One compiled pass over each block of whole records (a zero-copy view of the memory-mapped file, or of the
decompressed bytes) writes the raw object columns of the requests -- ``time_ns`` (int64), ``meta:object_id``
(uint64), ``size_bytes`` (int64), ``is_write`` (bool, from the libCacheSim operation) and ``device`` (int32, the
tenant) -- size-0 requests dropped, and the earliest time of the block. Placing the objects in the address space
(:class:`~models.traces.formats.objects.ObjectSlots`) is the next, separate stage.

Strictness is the NumPy decode's, exactly: the pass only *detects* a bad record (``next_access_vtime`` < -1, a
negative size, an unknown operation) and the block is then decoded again by the format's NumPy ``decode``, which
raises the error naming the byte offset (the same message, the same record, whatever the pass saw first).

A block of at least two runs of :data:`_RECORDS_PER_RUN` records is cut into runs that the cores (:func:`cores`)
take in turn, each decoded by the same nogil pass into its own stretch of the columns (the caller decodes every
run a busy machine leaves it); the runs' kept requests are then moved up to follow one another (nothing moves when
no size-0 request was dropped). Any run that saw a bad record sends the whole block to the NumPy decode, which
names the first bad record of the block, as one pass would.

A streamed read may decode one block ahead (``record_blocks(..., ahead=True)``): the next block is decoded on a
worker thread while the consumer works on the current one (both compiled passes release the GIL); the blocks, their
order and any error (raised when its block is asked for) are those of a read without it.

The columns of a block are new arrays (a consumer may keep them, as ``chunk_sink(parts.append)`` does), views of
one allocation per block (the block's columns are freed together, when the last of them is): measured on this
machine (2026-12-05, 4 M records in 8 MB blocks of 349,525, one thread, best of 5, load 5.2-5.7), five allocations
a block took ~2,500 page faults a block (glibc gave each freed block back to the kernel) and decoded 14.2 M
records/s, one allocation ~210 and 55.8 M records/s.

Examples
--------
>>> from models.traces.formats.oracle import RECORD, _decode, write_oracle_general
>>> with record_blocks(write_oracle_general([1, 2], [7, 9], [0, 64]), RECORD, _decode, fmt="x") as (meta, blocks, _):
...     [(c["time_ns"].tolist(), c["meta:object_id"].tolist(), n, lo) for c, n, lo in blocks]
[([2000000000], [9], 2, 2000000000)]
"""

from __future__ import annotations

import contextvars
import itertools
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numpy as np
from numba import njit

from models.traces.source import (
    CHUNK_BYTES,
    MAX_INPUT_BYTES,
    TraceFormatError,
    check_limit,
    map_source,
    source_name,
)

__all__ = ["record_blocks", "decode_block", "RAW_COLUMNS", "cores", "in_runs", "runs_of", "spare_core"]

#: The raw object columns of a decoded block, and their dtypes.
RAW_COLUMNS = {"time_ns": np.int64, "is_write": np.bool_, "size_bytes": np.int64, "device": np.int32,
               "meta:object_id": np.uint64}
_NS_PER_S = np.int64(1_000_000_000)
_NO_TIME = np.iinfo(np.int64).max
#: Highest libCacheSim ``req_op_e`` code (0-14 are all operations: reads 0, 1, 2, 12; the others writes).
_MAX_OP = 14
#: Records in one run of the decode (and of the placement's look-ups): a block of at least two runs is cut into runs
#: the cores take in turn (the caller and :func:`cores` - 1 worker threads, each taking the next run left), smaller
#: blocks stay on the caller's thread. Measured on this machine (2 cores, 2026-12-05, blocks of the 10 M-record
#: oracleGeneral file, best of 9, load 2.6, i.e. no idle core): two runs instead of one cost 0.61x the speed at 8 Ki
#: records a block, 0.67x at 16 Ki, 0.76x at 32 Ki, 0.86x at 64 Ki, 0.98x at 128 Ki: from 64 Ki records a run the
#: hand-off costs little even where the second thread finds no core [records].
_RECORDS_PER_RUN = 1 << 16



@njit(cache=True, nogil=True)
def _decode_kernel(time, ids, size, nxt, op_tenant, has_op, t_out, id_out, size_out, w_out, dev_out):  # pragma: no cover - compiled
    """One pass over a block's record fields (strided views): the kept requests (size > 0) written to the
    ``*_out`` arrays; returns (kept, clean, earliest kept time [ns]); ``clean`` False at the first bad record
    (the caller decodes the block again to name it)."""
    k = 0
    t_min = _NO_TIME
    for i in range(len(time)):
        if nxt[i] < -1:
            return k, False, t_min
        s = np.int64(size[i])
        if s < 0:
            return k, False, t_min
        w = False
        d = np.int32(0)
        if has_op:
            ot = op_tenant[i]
            op = ot & np.uint32(0xFF)
            if op > _MAX_OP:
                return k, False, t_min
            w = not (op <= 2 or op == 12)
            d = np.int32(ot >> np.uint32(8))
        if s == 0:
            continue
        t = np.int64(time[i]) * _NS_PER_S
        t_out[k] = t
        id_out[k] = ids[i]
        size_out[k] = s
        w_out[k] = w
        dev_out[k] = d
        if t < t_min:
            t_min = t
        k += 1
    return k, True, t_min


def cores() -> int:
    """The CPU cores this process may run on (its affinity mask; ``os.cpu_count()`` where there is none)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


_pool_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def _workers() -> ThreadPoolExecutor:
    """The worker threads of :func:`in_runs` (one per core but the caller's), made once per process."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max(1, cores() - 1), thread_name_prefix="record-runs")
        return _pool


def _forget_workers() -> None:
    """In a forked child: its parent's threads (and a lock one of them held) do not exist there."""
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_workers)


def in_runs(runs: int, run: Callable[[int], object]) -> list:
    """``[run(0), ..., run(runs - 1)]``, the runs taken in turn by the caller and the worker threads (a nogil
    ``run`` uses the cores; the caller runs every run the workers, busy or waiting for a core, leave it)."""
    done: list = [None] * runs
    claim = itertools.count()  # the next run to take (next() on it is atomic: each run is taken once)

    def work() -> None:
        while (j := next(claim)) < runs:
            done[j] = run(j)

    helpers = [_workers().submit(work) for _ in range(min(cores(), runs) - 1)]
    try:
        work()
    finally:
        for f in helpers:
            f.cancel() or f.exception()  # a helper not started yet is dropped; one under way ends its run
    for f in helpers:
        if not f.cancelled() and f.exception() is not None:
            raise f.exception()
    return done


def spare_core() -> bool:
    """Whether a core is idle for a second thread: the 1-minute load average [runnable threads] below
    :func:`cores` - 1/2 (a shared machine whose other work fills the cores gains nothing from threads: measured,
    two threads there ran at the speed of one, the hand-offs on top)."""
    return os.getloadavg()[0] < cores() - 0.5 if hasattr(os, "getloadavg") else cores() > 1


def runs_of(n: int) -> int:
    """Runs a block of ``n`` records is cut into, for the decode and the placement (see :data:`_RECORDS_PER_RUN`)."""
    return max(1, n // _RECORDS_PER_RUN)


def _columns(n: int) -> dict:
    """Empty raw columns of ``n`` requests (:data:`RAW_COLUMNS`), views of one allocation (widest first, each
    aligned): see the module docstring."""
    widest = sorted(RAW_COLUMNS.items(), key=lambda kv: -np.dtype(kv[1]).itemsize)
    buf = np.empty(n * sum(np.dtype(d).itemsize for d in RAW_COLUMNS.values()), np.uint8)
    views, at = {}, 0
    for k, d in widest:
        views[k] = buf[at:at + n * np.dtype(d).itemsize].view(d)
        at += n * np.dtype(d).itemsize
    return {k: views[k] for k in RAW_COLUMNS}


def decode_block(rec: np.ndarray, offset0: int, decode: Callable, *, runs: int | None = None) -> tuple[dict, int | None]:
    """The raw columns of the records ``rec`` (first at byte ``offset0``), size-0 requests dropped, and their
    earliest time [ns] (None when none is kept); a bad record raises the format's ``decode`` error.

    ``rec`` has the fields ``time`` (uint32 [s]), ``id`` (uint64), ``size`` (uint32 or int64 [bytes]), ``next``
    (int64) and optionally ``op_tenant`` (uint32: op in the low 8 bits, tenant above). ``runs``: the runs of
    records the cores share (None: by the block's size, :data:`_RECORDS_PER_RUN`; the result is the same for any).
    """
    n = len(rec)
    out = _columns(n)
    has_op = "op_tenant" in rec.dtype.names
    fields = (rec["time"], rec["id"], rec["size"], rec["next"], rec["op_tenant"] if has_op else rec["time"])
    cols = (out["time_ns"], out["meta:object_id"], out["size_bytes"], out["is_write"], out["device"])
    runs = runs_of(n) if runs is None else max(1, min(runs, n))
    cut = [n * j // runs for j in range(runs + 1)]

    def run(j: int) -> tuple[int, bool, int]:
        a, b = cut[j], cut[j + 1]
        t, i, s, x, ot = (f[a:b] for f in fields)
        return _decode_kernel(t, i, s, x, ot, has_op, *(c[a:b] for c in cols))

    done = in_runs(runs, run)
    if not all(clean for _, clean, _ in done):
        ref = decode(rec, offset0)  # raises the error naming the first bad record of the block
        keep = ref["size_bytes"] > 0  # (not reached for a bad record: the reference decode refused it)
        return {k: ref[k][keep] for k in RAW_COLUMNS}, int(ref["time_ns"][keep].min()) if keep.any() else None
    kept = 0
    for j, (k, _, _) in enumerate(done):  # each run's kept requests follow the previous run's
        if k and cut[j] != kept:
            for c in cols:
                c[kept:kept + k] = c[cut[j]:cut[j] + k]  # (overlapping ranges: NumPy copies as if through a buffer)
        kept += k
    t_min = min(t for _, _, t in done)
    return {k: v[:kept] for k, v in out.items()}, (int(t_min) if kept else None)


@contextmanager
def record_blocks(src, dtype: np.dtype, decode: Callable, *, fmt: str, header_bytes: int = 0, header_check=None,
                  progress=None, chunk_bytes: int = CHUNK_BYTES, max_input_bytes: int = MAX_INPUT_BYTES,
                  ahead: bool = False):
    """Open ``src`` and decode its records block by block (the decode stage; see the module docstring).

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain: memory-mapped; gzip or zstd).
    dtype : numpy.dtype
        One record (packed, little-endian).
    decode : callable
        The format's NumPy decode, ``decode(records, offset0) -> dict``: the reference that names a bad record.
    fmt : str
        Format name (messages).
    header_bytes : int
        Bytes before the first record [bytes]; ``header_check(header) -> dict`` validates them and returns
        metadata (it may return a new ``dtype`` as ``"_dtype"``).
    progress, chunk_bytes, max_input_bytes
        Common reader options (see :mod:`models.traces.formats`); blocks are ``chunk_bytes`` rounded down to whole
        records, at least one.
    ahead : bool
        Decode the next block on a worker thread while the caller works on the current one (one block more in
        memory; the same blocks and errors, in the same order). Blocks are cut into runs for the cores and decoded
        ahead only where a core is idle when the read opens (:func:`spare_core`).

    Yields
    ------
    (dict, iterator, callable)
        The header's metadata; the blocks, each ``(columns, records, t_min)``: the raw columns
        (:data:`RAW_COLUMNS`, size-0 requests dropped), the records the block held, the earliest kept time [ns]
        (None: none kept); the progress ``report(done=False)``. A file that ends inside a record raises
        :class:`TraceFormatError` naming the byte offset.
    """
    chunk_bytes = check_limit("chunk_bytes", chunk_bytes)
    max_input_bytes = check_limit("max_input_bytes", max_input_bytes)
    with map_source(src, progress, max_input_bytes=max_input_bytes) as (stream, report):
        meta = {}
        if header_bytes:
            head = bytes(read_exact(stream, header_bytes))
            if len(head) < header_bytes:
                raise TraceFormatError(f"{fmt}: {source_name(src)}: {len(head)} bytes, shorter than the "
                                       f"{header_bytes:,}-byte header")
            meta = header_check(head) if header_check else {}
            dtype = meta.pop("_dtype", dtype)
        spare = spare_core()  # (once a read: its own threads count in the load average once it runs)
        blocks = _blocks(stream, dtype, decode, fmt, header_bytes, chunk_bytes, None if spare else 1)
        with _ahead(blocks) if ahead and spare else _plain(blocks) as each:
            yield meta, each, report
        report(done=True)


def _blocks(stream, dtype: np.dtype, decode: Callable, fmt: str, offset: int, chunk_bytes: int,
            runs: int | None) -> Iterator[tuple[dict, int, int | None]]:
    rec = dtype.itemsize
    step = max(rec, chunk_bytes - chunk_bytes % rec)
    while data := read_exact(stream, step):
        if len(data) % rec:
            cut = offset + len(data) - len(data) % rec
            raise TraceFormatError(f"{fmt}: the data ends inside a record at byte offset {cut:,} "
                                   f"({len(data) % rec} of {rec} bytes; truncated file?)")
        cols, t_min = decode_block(np.frombuffer(data, dtype), offset, decode, runs=runs)
        offset += len(data)
        yield cols, len(data) // rec, t_min


@contextmanager
def _plain(blocks: Iterator) -> Iterator[Iterator]:
    try:
        yield blocks
    finally:
        blocks.close()  # a read stopped early (max_requests) lets go of its view of the file now


@contextmanager
def _ahead(blocks: Iterator) -> Iterator[Iterator]:
    """``blocks`` advanced one ahead on a worker thread of its own: while the caller works on a block, the next is
    decoded (an error is raised when its block is asked for); on exit the decode under way ends before ``blocks``
    is closed."""
    worker = ThreadPoolExecutor(1, thread_name_prefix="record-ahead")
    ctx = contextvars.copy_context()  # the caller's context (memory budget, sink) in the worker, one block at a time
    pending = []

    def each() -> Iterator:
        pending.append(worker.submit(ctx.run, next, blocks, None))
        while (item := pending.pop().result()) is not None:
            pending.append(worker.submit(ctx.run, next, blocks, None))
            yield item

    it = each()
    try:
        yield it
    finally:
        it.close()
        for f in pending:  # a read stopped early: the block under way is dropped, its error too
            f.cancel() or f.exception()
        worker.shutdown(wait=True)
        blocks.close()


def read_exact(stream, n: int) -> bytes:
    """Up to ``n`` bytes; fewer only at the end of the input (a decompressor may return short reads; a mapped
    file returns a zero-copy view, whole but at the end)."""
    data = stream.read(n)
    while data and len(data) < n:
        more = stream.read(n - len(data))
        if not more:
            break
        data = bytes(data) + bytes(more)
    return data
