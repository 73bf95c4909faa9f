"""Alibaba Cloud block traces (2020): ``device_id,opcode,offset,length,timestamp``.

``opcode`` is R or W, ``offset`` and ``length`` are bytes, ``timestamp`` is the time the server
received the request [us since the Unix epoch]. A header row and ``#`` comment lines are skipped.

References
----------
Alibaba Block Traces, github.com/alibaba/block-traces (``io_traces.csv`` schema); Li et al.,
"An In-Depth Analysis of Cloud Block Storage Workloads in Large-Scale Production", IISWC 2020.
"""

from __future__ import annotations

import numpy as np

from models.traces.core import BlockTrace
from models.traces.formats.arrow_csv import plain_columns, text_codes, without_zero_size
from models.traces.formats.parsing import (
    DEVICE_MAX,
    I64_MAX,
    Chunk,
    device_column,
    finish_chunk,
    header_rows,
    int_column,
    op_column,
    parse_source,
    read_frame,
    time_column_ns,
)
from models.traces.source import CHUNK_BYTES, MAX_INPUT_BYTES, MAX_LINE_BYTES

__all__ = ["read_alibaba", "DESCRIPTION", "PATTERN", "HEADER"]

DESCRIPTION = "Alibaba block traces: device_id,opcode(R/W),offset_bytes,length_bytes,timestamp_us"
#: A data line, for format detection.
PATTERN = r"(?i)^\s*\d+\s*,\s*[rw]\s*,\s*\d+\s*,\s*\d+\s*,\s*\d+\s*$"
#: The published header names (a file starting with them is detected too).
HEADER = ("device_id", "opcode", "offset", "length", "timestamp")
_OPS = {"r": False, "w": True}
_INTS = ("device_id", "offset", "length", "timestamp")


def _fast_columns(block: bytes) -> dict | None:
    """The block's columns through Arrow's CSV reader (:func:`plain_columns`), or None when the block is not plain
    or a value would be refused -- then the pandas parser reads it and names the line."""
    f = plain_columns(block, list(HEADER), _INTS)
    if f is None or not len(f["timestamp"]):
        return None
    dev, off, size, ts = (f[k] for k in ("device_id", "offset", "length", "timestamp"))
    op = text_codes(f["opcode"], _OPS)  # -1: neither r nor w (case-insensitive)
    is_write = op.view(np.bool_)
    if (op < 0).any() or (dev < 0).any() \
            or (dev > DEVICE_MAX).any() or (np.abs(ts) > I64_MAX // 1000).any() or (off < 0).any() \
            or (size < 0).any() or (off > I64_MAX - size).any():
        return None
    cols = {"time_ns": ts * np.int64(1000), "is_write": is_write, "offset_bytes": off, "size_bytes": size,
            "device": dev.astype(np.int32)}
    return without_zero_size(cols)


def read_alibaba(src, *, name: str | None = None, max_requests: int | None = None, progress=None,
                 chunk_bytes: int = CHUNK_BYTES, max_line_bytes: int = MAX_LINE_BYTES,
                 max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read an Alibaba block trace (``device_id,opcode,offset,length,timestamp``).

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain, gzip or zstd).
    name, max_requests, progress, chunk_bytes, max_line_bytes, max_input_bytes
        Common reader options (see :mod:`models.traces.formats`).

    Returns
    -------
    BlockTrace
        The virtual disk id as device; times relative to the first request [ns].

    Examples
    --------
    >>> t = read_alibaba(b"device_id,opcode,offset,length,timestamp\\n3,W,4096,8192,1577808144518333\\n"
    ...                  b"3,R,0,4096,1577808144518340\\n")
    >>> t.time_ns.tolist(), t.is_write.tolist(), t.offset_bytes.tolist(), t.device.tolist()
    ([0, 7000], [True, False], [4096, 0], [3, 3])
    """

    def parse(block, line0, state):
        skip = header_rows(block, state, len(HEADER))
        fast = None if skip else _fast_columns(block)
        if fast is not None:
            return fast
        ck = Chunk("alibaba", block, line0, skip_first=skip)
        df = read_frame(ck, list(HEADER), ",")
        cols = {
            "time_ns": time_column_ns(df, "timestamp", "timestamp", ck, "us"),
            "is_write": op_column(df, "opcode", "opcode", ck, _OPS),
            "offset_bytes": int_column(df, "offset", "offset", ck),
            "size_bytes": int_column(df, "length", "length", ck),
            "device": device_column(df, "device_id", "device_id", ck),
        }
        return finish_chunk(ck, cols, "offset", "length")

    return parse_source(src, parse, fmt="alibaba", name=name, max_requests=max_requests, progress=progress,
                        chunk_bytes=chunk_bytes, max_line_bytes=max_line_bytes, max_input_bytes=max_input_bytes, comment="#")
