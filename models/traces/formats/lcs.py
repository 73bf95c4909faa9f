"""libCacheSim ``lcs`` binary cache traces, versions 1 to 8 (plain or zstd, e.g. ``*.lcs.zst``).

An 8 KiB little-endian header, then fixed-size records::

    header (8192 bytes): uint64 start_magic = 0x123456789abcdef0, uint64 version,
                         trace statistics (8000 bytes: int64 stat_version, n_req, n_obj, ...),
                         unused (168 bytes), uint64 end_magic = 0x123456789abcdef0
    v1 (24 bytes): uint32 clock_time [s], uint64 obj_id, uint32 obj_size [bytes], int64 next_access_vtime
    v2 (28 bytes): uint32 clock_time, uint64 obj_id, uint32 obj_size, uint32 op:8 | tenant:24,
                   int64 next_access_vtime
    v3 (36 bytes): uint32 clock_time, uint64 obj_id, int64 obj_size, uint32 op:8 | tenant:24, uint32 ttl [s],
                   int64 next_access_vtime
    v4..v8: a v3 record followed by 1, 2, 4, 8 or 16 uint32 features

``op`` is libCacheSim's ``req_op_e``: nop 0, get 1, gets 2, read 12 are reads; set 3, add 4,
cas 5, replace 6, append 7, prepend 8, delete 9, incr 10, decr 11, write 13, update 14 are
writes (a delete invalidates the cached copy like a write); other codes are refused. The
tenant becomes the device number. Objects become blocks as described in
:mod:`models.traces.formats.objects`; version 1 has no operation (every request is a read).

References
----------
libCacheSim, github.com/1a1a11a/libCacheSim, ``libCacheSim/traceReader/generalReader/lcs.h``
and ``lcs.c`` (header and record layouts), ``libCacheSim/include/libCacheSim/enum.h`` (``req_op_e``).
"""

from __future__ import annotations

import numpy as np

from models.traces.core import BlockTrace
from models.traces.formats.objects import check_next_vtime, read_records, seconds_ns
from models.traces.source import CHUNK_BYTES, MAX_INPUT_BYTES, MAX_LINE_BYTES, TraceFormatError

__all__ = ["read_lcs", "write_lcs", "MAGIC", "HEADER_BYTES", "RECORDS", "DESCRIPTION"]

DESCRIPTION = "libCacheSim lcs binary (v1-v8): 8 KiB header, then time_s, obj_id, size, [op, tenant, ttl], next_vtime"
#: ``start_magic`` and ``end_magic`` of the header (uint64).
MAGIC = 0x123456789ABCDEF0
#: Header size [bytes].
HEADER_BYTES = 8192
_V3 = [("time", "<u4"), ("id", "<u8"), ("size", "<i8"), ("op_tenant", "<u4"), ("ttl", "<u4"), ("next", "<i8")]
#: Record layout per version (packed, little-endian).
RECORDS: dict[int, np.dtype] = {
    1: np.dtype([("time", "<u4"), ("id", "<u8"), ("size", "<u4"), ("next", "<i8")]),
    2: np.dtype([("time", "<u4"), ("id", "<u8"), ("size", "<u4"), ("op_tenant", "<u4"), ("next", "<i8")]),
    3: np.dtype(_V3),
    **{v: np.dtype([*_V3, ("features", "<u4", (k,))]) for v, k in ((4, 1), (5, 2), (6, 4), (7, 8), (8, 16))},
}
#: libCacheSim ``req_op_e`` codes that modify the object.
_WRITE_OPS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14)
_READ_OPS = (0, 1, 2, 12)
_END_MAGIC_AT = HEADER_BYTES - 8


def _header(head: bytes) -> dict:
    start, version = np.frombuffer(head[:16], "<u8")
    end = int(np.frombuffer(head[_END_MAGIC_AT:], "<u8")[0])
    if int(start) != MAGIC:
        raise TraceFormatError(f"lcs: byte offset 0: start magic is {int(start):#x}, expected {MAGIC:#x} "
                               "(not an lcs trace)")
    if end != MAGIC:
        raise TraceFormatError(f"lcs: byte offset {_END_MAGIC_AT}: end magic is {end:#x}, expected {MAGIC:#x} "
                               "(corrupt header)")
    if int(version) not in RECORDS:
        raise TraceFormatError(f"lcs: byte offset 8: version {int(version)} is not supported (1 to 8)")
    n_req, n_obj = (int(x) for x in np.frombuffer(head[24:40], "<i8"))
    if n_req < 0 or n_obj < 0:
        raise TraceFormatError(f"lcs: byte offset 24: trace statistics n_req={n_req}, n_obj={n_obj} are negative")
    out = {"_dtype": RECORDS[int(version)], "lcs_version": int(version), "lcs_n_req": n_req, "lcs_n_obj": n_obj}
    if "op_tenant" not in RECORDS[int(version)].names:  # no operation in the records: unknown, not "all reads"
        out["op_unknown"] = True
    return out


def write_lcs(version: int, time_s, obj_id, size, *, op=None, tenant=None, ttl=None, next_vtime=None) -> bytes:
    """The ``lcs`` bytes (header and records) of the given columns (test fixtures).

    >>> len(write_lcs(1, [0], [5], [100])), len(write_lcs(8, [0, 1], [5, 6], [100, 7], op=[1, 3]))
    (8216, 8392)
    """
    dt = RECORDS[version]
    n = len(obj_id)
    rec = np.zeros(n, dt)
    rec["time"], rec["id"], rec["size"] = time_s, np.asarray(obj_id, np.uint64), size
    rec["next"] = -1 if next_vtime is None else next_vtime
    if version >= 2:
        o = np.zeros(n, np.uint32) if op is None else np.asarray(op, np.uint32)
        t = np.zeros(n, np.uint32) if tenant is None else np.asarray(tenant, np.uint32)
        rec["op_tenant"] = (o & 0xFF) | (t << 8)
    if version >= 3 and ttl is not None:
        rec["ttl"] = ttl
    head = bytearray(HEADER_BYTES)
    head[0:16] = np.array([MAGIC, version], "<u8").tobytes()
    head[24:40] = np.array([n, len(set(np.asarray(obj_id).tolist()))], "<i8").tobytes()
    head[_END_MAGIC_AT:] = np.array([MAGIC], "<u8").tobytes()
    return bytes(head) + rec.tobytes()


def _decode(rec: np.ndarray, offset0: int) -> dict:
    fmt, size = "lcs", rec.dtype.itemsize
    check_next_vtime(rec["next"], offset0, size, fmt)
    n = len(rec)
    obj_size = rec["size"].astype(np.int64)
    if (obj_size < 0).any():
        i = int(np.argmax(obj_size < 0))
        raise TraceFormatError(f"{fmt}: record at byte offset {offset0 + i * size:,}: field 'obj_size' is negative "
                               f"({int(obj_size[i])})")
    if "op_tenant" in rec.dtype.names:
        op = rec["op_tenant"] & np.uint32(0xFF)
        known = np.isin(op, _WRITE_OPS + _READ_OPS)
        if not known.all():
            i = int(np.argmax(~known))
            raise TraceFormatError(f"{fmt}: record at byte offset {offset0 + i * size:,}: field 'op' is {int(op[i])}, "
                                   "not a libCacheSim operation (0-14)")
        is_write = np.isin(op, _WRITE_OPS)
        device = (rec["op_tenant"] >> np.uint32(8)).astype(np.int32)
    else:
        is_write, device = np.zeros(n, bool), np.zeros(n, np.int32)
    return {"time_ns": seconds_ns(rec["time"]), "is_write": is_write, "offset_bytes": np.zeros(n, np.int64),
            "size_bytes": obj_size, "device": device, "meta:object_id": rec["id"].astype(np.uint64)}


def read_lcs(src, *, name: str | None = None, max_requests: int | None = None, progress=None,
             chunk_bytes: int = CHUNK_BYTES, max_line_bytes: int = MAX_LINE_BYTES,
             max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read a libCacheSim ``lcs`` trace, versions 1 to 8 (see the module docstring).

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain, gzip or zstd).
    name, max_requests, progress, chunk_bytes, max_input_bytes
        Common reader options (see :mod:`models.traces.formats`); ``max_line_bytes`` is
        accepted and moot (binary records).

    Returns
    -------
    BlockTrace
        Writes for modifying operations, the tenant as device, object ``i`` (first-access
        order) at ``offset_bytes = i << 32``; ``meta`` holds ``object_id``, ``lcs_version`` and
        the header's ``lcs_n_req`` / ``lcs_n_obj``.

    Examples
    --------
    >>> t = read_lcs(write_lcs(2, [5, 6, 7], [1, 2, 1], [64, 64, 64], op=[1, 3, 9], tenant=[0, 2, 2]))
    >>> t.is_write.tolist(), t.device.tolist(), (t.offset_bytes >> 32).tolist(), t.meta["lcs_version"]
    ([False, True, True], [0, 2, 2], [0, 1, 0], 2)
    """
    del max_line_bytes  # binary: no lines
    return read_records(src, RECORDS[1], _decode, fmt="lcs", header_bytes=HEADER_BYTES, header_check=_header,
                        name=name, max_requests=max_requests, progress=progress, chunk_bytes=chunk_bytes,
                        max_input_bytes=max_input_bytes)
