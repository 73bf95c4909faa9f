"""libCacheSim ``oracleGeneral`` binary cache traces (plain or zstd, e.g. ``*.oracleGeneral.zst``).

One 24-byte little-endian record per request::

    uint32 clock_time          # [s]
    uint64 obj_id              # object id (hashed key, or block number in block traces)
    uint32 obj_size            # [bytes]
    int64  next_access_vtime   # index of the next request to the object; -1 (or INT64_MAX): none

Objects become blocks as described in :mod:`models.traces.formats.objects`; every request is a
read by convention: the format has no operation, so the trace is marked ``meta["op_unknown"]``
(:attr:`~models.traces.core.BlockTrace.op_known` is False) and readers of the write share say "unknown".

References
----------
libCacheSim, github.com/1a1a11a/libCacheSim,
``libCacheSim/traceReader/customizedReader/oracle/oracleGeneralBin.h``; the cacheMon trace
collection (Yang et al., "FIFO queues are all you need for cache eviction", SOSP 2023).
"""

from __future__ import annotations

import numpy as np

from models.traces.core import BlockTrace
from models.traces.formats.objects import check_next_vtime, read_records, seconds_ns
from models.traces.source import CHUNK_BYTES, MAX_INPUT_BYTES, MAX_LINE_BYTES

__all__ = ["read_oracle_general", "write_oracle_general", "RECORD", "DESCRIPTION"]

DESCRIPTION = "libCacheSim oracleGeneral binary: uint32 time_s, uint64 obj_id, uint32 size, int64 next_vtime"
#: One record (packed, little-endian).
RECORD = np.dtype([("time", "<u4"), ("id", "<u8"), ("size", "<u4"), ("next", "<i8")])


def write_oracle_general(time_s, obj_id, size, next_vtime=None) -> bytes:
    """The ``oracleGeneral`` bytes of the given columns (test fixtures; ``next_vtime`` default -1).

    >>> len(write_oracle_general([0, 1], [5, 6], [100, 200]))
    48
    """
    n = len(obj_id)
    rec = np.zeros(n, RECORD)
    rec["time"], rec["id"], rec["size"] = time_s, np.asarray(obj_id, np.uint64), size
    rec["next"] = -1 if next_vtime is None else next_vtime
    return rec.tobytes()


def _decode(rec: np.ndarray, offset0: int) -> dict:
    check_next_vtime(rec["next"], offset0, RECORD.itemsize, "oracleGeneral")
    n = len(rec)
    return {
        "time_ns": seconds_ns(rec["time"]),
        "is_write": np.zeros(n, bool),
        "offset_bytes": np.zeros(n, np.int64),
        "size_bytes": rec["size"].astype(np.int64),
        "device": np.zeros(n, np.int32),
        "meta:object_id": rec["id"].astype(np.uint64),
    }


def read_oracle_general(src, *, name: str | None = None, max_requests: int | None = None, progress=None,
                        chunk_bytes: int = CHUNK_BYTES, max_line_bytes: int = MAX_LINE_BYTES,
                        max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read a libCacheSim ``oracleGeneral`` trace (see the module docstring).

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
        One read per request; object ``i`` (first-access order) at ``offset_bytes = i << 32``,
        ``meta["object_id"]`` the ids; size-0 requests dropped (as libCacheSim does).

    Examples
    --------
    >>> t = read_oracle_general(write_oracle_general([10, 11, 12], [7, 9, 7], [4096, 100, 4096]))
    >>> t.time_ns.tolist(), (t.offset_bytes >> 32).tolist(), t.size_bytes.tolist()
    ([0, 1000000000, 2000000000], [0, 1, 0], [4096, 100, 4096])
    """
    del max_line_bytes  # binary: no lines
    return read_records(src, RECORD, _decode, fmt="oracleGeneral", name=name, max_requests=max_requests,
                        progress=progress, chunk_bytes=chunk_bytes, max_input_bytes=max_input_bytes,
                        meta={"op_unknown": True})
