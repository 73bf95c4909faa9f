"""libCacheSim ``vscsi`` binary block traces (VMware vscsiStats captures; plain, gzip or zstd).

Fixed-size little-endian records, in one of two layouts told by the ``ver`` field (its high byte
is 1 or 2), as libCacheSim tells them: version 2 when the first two records read as version-2
records, else version 1 when they read as version-1 records::

    vscsi1 (32 bytes): uint32 sn, uint32 len, uint32 nSG, uint16 cmd, uint16 ver, uint64 lbn, uint64 ts
    vscsi2 (40 bytes): uint16 cmd, uint16 ver, uint32 sn, uint32 len, uint32 nSG, uint64 lbn, uint64 ts,
                       uint64 rt

``len`` is the transfer length [bytes], ``lbn`` the logical block number [sectors of
``sector_size``], ``ts`` the issue time [us], ``rt`` the response time [us] (kept in
``meta["response_us"]``), ``cmd`` the SCSI opcode: READ(6/10/12/16) ``0x08 0x28 0xA8 0x88`` are
reads, WRITE(6/10/12/16) ``0x0A 0x2A 0xAA 0x8A`` writes (the same opcodes as the generic CSV's
``op_map="scsi"``). Every other command (TEST UNIT READY, SYNCHRONIZE CACHE, INQUIRY, ...)
moves no data to or from the blocks: it is dropped and counted in ``meta["skipped_other_commands"]``
(libCacheSim keeps them as requests of their ``len``, ignoring ``cmd``). Unlike libCacheSim, which
treats ``lbn`` as an object id, the records stay a block trace: ``offset_bytes = lbn * sector_size``.
Every record must carry the file's version (a record of the other version names its byte offset).

References
----------
libCacheSim, github.com/1a1a11a/libCacheSim, ``libCacheSim/traceReader/customizedReader/vscsi.h``
(record layouts, version test); Waldspurger et al., "Efficient MRC construction with SHARDS",
FAST 2015 (the CloudPhysics vscsi traces).
"""

from __future__ import annotations

import numpy as np

from models.provenance import param
from models.traces.chunks import chunk_sink_of
from models.traces.core import BlockTrace
from models.traces.formats.csv import SCSI_OP_MAP
from models.traces.formats.objects import _read_exact
from models.traces.formats.parsing import I64_MAX, _block_trace, check_sector_size
from models.traces.source import (
    CHUNK_BYTES,
    MAX_INPUT_BYTES,
    MAX_LINE_BYTES,
    TraceFormatError,
    charge_parsed,
    check_limit,
    open_source,
    source_name,
)

__all__ = ["read_vscsi", "write_vscsi", "sniff_version", "version_of", "RECORDS", "DESCRIPTION", "SECTOR_BYTES"]

DESCRIPTION = "libCacheSim vscsi binary (vscsi1 32-byte / vscsi2 40-byte records): cmd, len, lbn, ts_us"
#: Record layout per version (packed, little-endian).
RECORDS: dict[int, np.dtype] = {
    1: np.dtype([("sn", "<u4"), ("len", "<u4"), ("nsg", "<u4"), ("cmd", "<u2"), ("ver", "<u2"), ("lbn", "<u8"),
                 ("ts", "<u8")]),
    2: np.dtype([("cmd", "<u2"), ("ver", "<u2"), ("sn", "<u4"), ("len", "<u4"), ("nsg", "<u4"), ("lbn", "<u8"),
                 ("ts", "<u8"), ("rt", "<u8")]),
}
#: Sector size of ``lbn`` (registry ``trace.vscsi.sector_bytes``) [bytes].
SECTOR_BYTES = int(param("trace.vscsi.sector_bytes").value)
_READ = np.array(sorted(int(k, 16) for k, w in SCSI_OP_MAP.items() if k.startswith("0x") and len(k) == 4
                        and not w), np.uint16)
_WRITE = np.array(sorted(int(k, 16) for k, w in SCSI_OP_MAP.items() if k.startswith("0x") and len(k) == 4
                         and w), np.uint16)
_TEST = 2  # records libCacheSim's version test reads


def write_vscsi(version: int, cmd, lbn, length, ts_us, rt_us=None) -> bytes:
    """The ``vscsi`` bytes of the given columns (test fixtures; ``ver = version << 8``).

    >>> len(write_vscsi(1, [0x28], [8], [4096], [0])), len(write_vscsi(2, [0x2A, 0x28], [8, 9], [512, 512], [0, 5]))
    (32, 80)
    """
    rec = np.zeros(len(cmd), RECORDS[version])
    rec["cmd"], rec["ver"], rec["lbn"], rec["len"], rec["ts"] = cmd, version << 8, lbn, length, ts_us
    rec["sn"] = np.arange(len(cmd))
    if version == 2 and rt_us is not None:
        rec["rt"] = rt_us
    return rec.tobytes()


def version_of(data: bytes, n: int = 2) -> int | None:
    """The version whose layout the first ``n`` whole records of ``data`` carry (2 tried first; libCacheSim's
    test), or None."""
    for v in (2, 1):
        rec = RECORDS[v]
        if len(data) >= n * rec.itemsize and (np.frombuffer(data[: n * rec.itemsize], rec)["ver"] >> 8 == v).all():
            return v
    return None


def sniff_version(data: bytes, *, full: bool) -> int | None:
    """The vscsi version of binary ``data`` (a prefix of the input) for format detection, or None.

    Strict, so that detection is unambiguous: at least 4 whole records, every one of them of that
    version and a SCSI READ or WRITE command (and, when ``data`` is the whole input (``full``), a
    whole number of records).
    """
    for v in (2, 1):
        rec = RECORDS[v]
        n = len(data) // rec.itemsize
        if n < 4 or (full and len(data) % rec.itemsize):
            continue
        r = np.frombuffer(data[: n * rec.itemsize], rec)
        if (r["ver"] >> 8 == v).all() and np.isin(r["cmd"], np.concatenate([_READ, _WRITE])).all():
            return v
    return None


def _decode(r: np.ndarray, version: int, offset0: int, sector_size: int) -> dict:
    rec = RECORDS[version].itemsize
    bad = (r["ver"] >> 8) != version
    if bad.any():
        i = int(np.argmax(bad))
        raise TraceFormatError(f"vscsi: record at byte offset {offset0 + i * rec:,}: field 'ver' is "
                               f"{int(r['ver'][i]):#06x}, expected version {version} ({version << 8:#06x}) like "
                               "the first records")
    for field, limit, what in (("ts", I64_MAX // 1000, "microseconds (int64 ns)"),
                               ("lbn", I64_MAX // sector_size, f"sectors of {sector_size} bytes (int64 bytes)")):
        big = r[field] > np.uint64(limit)
        if big.any():
            i = int(np.argmax(big))
            raise TraceFormatError(f"vscsi: record at byte offset {offset0 + i * rec:,}: field '{field}' is "
                                   f"{int(r[field][i]):,}, beyond {limit:,} {what}")
    off = r["lbn"].astype(np.int64) * np.int64(sector_size)
    size = r["len"].astype(np.int64)
    past = off > I64_MAX - size
    if past.any():
        i = int(np.argmax(past))
        raise TraceFormatError(f"vscsi: record at byte offset {offset0 + i * rec:,}: fields 'lbn' and 'len' end "
                               f"beyond {I64_MAX} bytes")
    cols = {
        "time_ns": r["ts"].astype(np.int64) * np.int64(1000),
        "is_write": np.isin(r["cmd"], _WRITE),
        "offset_bytes": off,
        "size_bytes": size,
        "device": np.zeros(len(r), np.int32),
    }
    if version == 2:
        cols["meta:response_us"] = r["rt"].astype(np.uint64)
    return cols


def read_vscsi(src, *, sector_size: int = SECTOR_BYTES, name: str | None = None, max_requests: int | None = None,
               progress=None, chunk_bytes: int = CHUNK_BYTES, max_line_bytes: int = MAX_LINE_BYTES,
               max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read a libCacheSim ``vscsi`` trace (see the module docstring).

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain, gzip or zstd).
    sector_size : int
        Size of a logical block of ``lbn`` [bytes] (default :data:`SECTOR_BYTES`).
    name, max_requests, progress, chunk_bytes, max_input_bytes
        Common reader options (see :mod:`models.traces.formats`); ``max_line_bytes`` is
        accepted and moot (binary records).

    Returns
    -------
    BlockTrace
        READ/WRITE commands in file order (times from the first request); ``meta["vscsi_version"]``,
        ``meta["skipped_other_commands"]`` (non-data commands dropped) and, for vscsi2,
        ``meta["response_us"]`` [us].

    Examples
    --------
    >>> t = read_vscsi(write_vscsi(2, [0x28, 0x2A, 0x35, 0x28], [8, 16, 0, 8], [4096, 512, 0, 4096],
    ...                            [100, 150, 160, 200]))
    >>> t.is_write.tolist(), t.offset_bytes.tolist(), t.time_ns.tolist(), t.meta["skipped_other_commands"]
    ([False, True, False], [4096, 8192, 4096], [0, 50000, 100000], 1)
    """
    del max_line_bytes  # binary: no lines
    check_sector_size(sector_size)
    if max_requests is not None and max_requests < 1:
        raise ValueError(f"max_requests must be >= 1 (got {max_requests})")
    chunk_bytes = check_limit("chunk_bytes", chunk_bytes)
    max_input_bytes = check_limit("max_input_bytes", max_input_bytes)
    parts: list[dict] = []
    n = other = zero = 0
    sink = chunk_sink_of("block")  # a streaming consumer takes each block's columns; the reader keeps none
    with open_source(src, progress, max_input_bytes=max_input_bytes) as (stream, report):
        head = _read_exact(stream, _TEST * RECORDS[2].itemsize)
        version = version_of(head, _TEST)
        if version is None:
            raise TraceFormatError(f"vscsi: {source_name(src)}: the first {_TEST} records read as neither vscsi2 "
                                   "(40-byte records, 'ver' high byte 2 at byte 2) nor vscsi1 (32-byte records, "
                                   "'ver' high byte 1 at byte 14)" + (" (the file is shorter than 2 records)"
                                                                       if len(head) < _TEST * 32 else ""))
        rec = RECORDS[version].itemsize
        step = max(rec, chunk_bytes - chunk_bytes % rec)
        offset, pending = 0, head
        while True:
            data = pending + _read_exact(stream, max(0, step - len(pending)))
            pending = b""
            if not data:
                break
            whole = len(data) - len(data) % rec
            if whole < len(data):
                more = _read_exact(stream, rec - len(data) % rec)
                if len(more) < rec - len(data) % rec:
                    raise TraceFormatError(f"vscsi: the data ends inside a record at byte offset {offset + whole:,} "
                                           f"({(len(data) + len(more)) % rec} of {rec} bytes; truncated file?)")
                data += more
            r = np.frombuffer(data, RECORDS[version])
            cols = _decode(r, version, offset, sector_size)
            offset += len(data)
            data_cmd = np.isin(r["cmd"], np.concatenate([_READ, _WRITE]))
            other += int((~data_cmd).sum())
            keep = data_cmd & (cols["size_bytes"] > 0)
            zero += int((data_cmd & (cols["size_bytes"] == 0)).sum())
            if not keep.all():
                cols = {k: v[keep] for k, v in cols.items()}
            if sink is not None and len(cols["time_ns"]):
                m = len(cols["time_ns"]) if max_requests is None else min(len(cols["time_ns"]), max_requests - n)
                sink({k: v[:m] for k, v in cols.items() if not k.startswith("meta:")})
                n += m
            elif len(cols["time_ns"]):
                parts.append(cols)
                n += len(cols["time_ns"])
                charge_parsed(n)
            report()
            if max_requests is not None and n >= max_requests:
                break
        report(done=True)
    meta = {"format": "vscsi", "source": source_name(src), "vscsi_version": version, "sector_size": sector_size,
            "skipped_other_commands": other}
    if sink is not None:  # the columns went to the consumer: an empty trace carries the name and metadata
        parts = []
    return _block_trace(parts, max_requests, name or source_name(src), meta, fmt="vscsi", zero=zero, state={})
