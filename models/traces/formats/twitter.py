"""Twitter in-memory cache traces: ``timestamp,anonymized key,key size,value size,client id,operation,TTL``.

``timestamp`` [s], key and value sizes [bytes], ``operation`` one of get, gets (reads) and set,
add, replace, cas, append, prepend, delete, incr, decr (writes: they change or invalidate the
cached value), ``TTL`` [s] (0 for reads). The object is the key; its size is key size + value
size (as libCacheSim's Twitter reader). Keys are hashed to 64-bit ids and objects become blocks
as described in :mod:`models.traces.formats.objects`. The files have no header; ``#`` is not a
comment (keys are arbitrary text).

References
----------
Yang, Yue, Rashmi, "A large scale analysis of hundreds of in-memory cache clusters at Twitter",
OSDI 2020; github.com/twitter/cache-trace (format description).
"""

from __future__ import annotations

import numpy as np

from models.traces.chunks import chunk_sink_of
from models.traces.core import BlockTrace
from models.traces.formats.objects import hash_keys, object_table, place_objects
from models.traces.formats.parsing import (
    I64_MAX,
    Chunk,
    _raw,
    finish_chunk,
    int_column,
    op_column,
    parse_source,
    read_frame,
    time_column_ns,
)
from models.traces.source import CHUNK_BYTES, MAX_INPUT_BYTES, MAX_LINE_BYTES

__all__ = ["read_twitter", "DESCRIPTION", "PATTERN", "OPERATIONS"]

DESCRIPTION = "Twitter cache traces: timestamp_s,key,key_size,value_size,client_id,operation,ttl_s"
#: Operation -> is_write.
OPERATIONS = {"get": False, "gets": False, "set": True, "add": True, "replace": True, "cas": True, "append": True,
              "prepend": True, "delete": True, "incr": True, "decr": True}
#: A data line, for format detection.
PATTERN = (r"(?i)^\s*\d+,[^,]*,\d+,\d+,\d+,(" + "|".join(sorted(OPERATIONS, key=len, reverse=True))
           + r"),-?\d+\s*$")
_FIELDS = ["timestamp", "key", "key_size", "value_size", "client_id", "operation", "ttl"]


def read_twitter(src, *, name: str | None = None, max_requests: int | None = None, progress=None,
                 chunk_bytes: int = CHUNK_BYTES, max_line_bytes: int = MAX_LINE_BYTES,
                 max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read a Twitter cache trace (see the module docstring).

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain, gzip or zstd, e.g. the published ``cluster*.sort.zst``).
    name, max_requests, progress, chunk_bytes, max_line_bytes, max_input_bytes
        Common reader options (see :mod:`models.traces.formats`).

    Returns
    -------
    BlockTrace
        Object ``i`` (first-access order) at ``offset_bytes = i << 32`` with size key + value
        [bytes]; ``meta["object_id"]`` the key hashes, ``meta["ttl_s"]`` the TTLs [s]; requests
        of size 0 dropped.

    Examples
    --------
    >>> t = read_twitter(b"0,abc,3,100,1,get,0\\n0,xyz,3,20,1,set,3600\\n2,abc,3,100,2,gets,0\\n")
    >>> t.is_write.tolist(), (t.offset_bytes >> 32).tolist(), t.size_bytes.tolist(), t.time_ns.tolist()[-1]
    ([False, True, False], [0, 1, 0], [103, 23, 103], 2000000000)
    """

    def parse(block, line0, state):
        ck = Chunk("twitter", block, line0, comment=None)
        df = read_frame(ck, _FIELDS, ",", skipinitialspace=False)  # blanks are part of a key
        ksize = int_column(df, "key_size", "key_size", ck)
        vsize = int_column(df, "value_size", "value_size", ck)
        for col, v in (("key_size", ksize), ("value_size", vsize)):
            if (v < 0).any():
                r = int(np.argmax(v < 0))
                ck.fail(r, col, "is negative", df[col].iloc[r])
        big = vsize > I64_MAX - ksize
        if big.any():
            r = int(np.argmax(big))
            ck.fail(r, "value_size", "plus the key size is too large", df["value_size"].iloc[r])
        client = int_column(df, "client_id", "client_id", ck)
        n = len(df)
        keys = np.array([str(k) for k in _raw(df, "key", ck)], dtype=object) if n else np.zeros(0, object)
        cols = {
            "time_ns": time_column_ns(df, "timestamp", "timestamp", ck, "s"),
            "is_write": op_column(df, "operation", "operation", ck, OPERATIONS),
            "offset_bytes": np.zeros(n, np.int64),
            "size_bytes": ksize + vsize,
            "device": np.zeros(n, np.int32),
            "meta:object_id": hash_keys(keys),
            "meta:ttl_s": int_column(df, "ttl", "ttl", ck),
        }
        del client  # checked to be an integer; not a device (clients share the cache)
        return finish_chunk(ck, cols, "key_size", "value_size")

    trace = parse_source(src, parse, fmt="twitter", name=name, max_requests=max_requests, progress=progress,
                         chunk_bytes=chunk_bytes, max_line_bytes=max_line_bytes, max_input_bytes=max_input_bytes,
                         objects=object_table)
    return trace if chunk_sink_of("block") is not None else place_objects(trace, "twitter")
