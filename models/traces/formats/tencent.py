"""Tencent Cloud Block Storage (CBS) traces (2018): ``Timestamp,Offset,Size,IOType,VolumeID``.

``Timestamp`` is Unix time [s], ``Offset`` and ``Size`` are 512-byte sectors, ``IOType`` is 0
(read) or 1 (write), ``VolumeID`` the cloud virtual volume. A header row and ``#`` comment
lines are skipped.

References
----------
SNIA IOTTA Repository, Tencent CBS block traces, ``README.txt`` (field list and units); Zhang et al.,
"OSCA: An Online-Model Based Cache Allocation Scheme in Cloud Block Storage Systems",
USENIX ATC 2020.
"""

from __future__ import annotations

import numpy as np

from models.traces.core import BlockTrace
from models.traces.formats.arrow_csv import plain_columns, without_zero_size
from models.traces.formats.parsing import (
    DEVICE_MAX,
    I64_MAX,
    Chunk,
    check_sector_size,
    code_op_column,
    device_column,
    finish_chunk,
    header_rows,
    parse_source,
    read_frame,
    scaled_column,
    time_column_ns,
)
from models.traces.source import CHUNK_BYTES, MAX_INPUT_BYTES, MAX_LINE_BYTES

__all__ = ["read_tencent", "DESCRIPTION", "PATTERN", "HEADER"]

DESCRIPTION = "Tencent CBS: Timestamp_s,Offset_sectors,Size_sectors,IOType(0=read,1=write),VolumeID"
#: A data line, for format detection.
PATTERN = r"^\s*\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*[01]\s*,\s*\d+\s*$"
#: The published header names (a file starting with them is detected too).
HEADER = ("timestamp", "offset", "size", "iotype", "volumeid")


def _fast_columns(block: bytes, sector_size: int) -> dict | None:
    """The block's columns through Arrow's CSV reader (:func:`plain_columns`), or None when the block is not plain
    or a value would be refused -- then the pandas parser reads it and names the line."""
    f = plain_columns(block, list(HEADER), HEADER)
    if f is None or not len(f["timestamp"]):
        return None
    ts, off, size, typ, vol = (f[k] for k in HEADER)
    mx = I64_MAX // int(sector_size)
    if ((typ != 0) & (typ != 1)).any() or (vol < 0).any() or (vol > DEVICE_MAX).any() \
            or (np.abs(ts) > I64_MAX // 1_000_000_000).any() or (off < 0).any() or (size < 0).any() \
            or (off > mx).any() or (size > mx).any():
        return None
    off, size = off * np.int64(sector_size), size * np.int64(sector_size)
    if (off > I64_MAX - size).any():
        return None
    cols = {"time_ns": ts * np.int64(1_000_000_000), "is_write": typ == 1, "offset_bytes": off, "size_bytes": size,
            "device": vol.astype(np.int32)}
    return without_zero_size(cols)


def read_tencent(src, *, sector_size: int = 512, name: str | None = None, max_requests: int | None = None,
                 progress=None, chunk_bytes: int = CHUNK_BYTES, max_line_bytes: int = MAX_LINE_BYTES,
                 max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read a Tencent CBS trace (``Timestamp,Offset,Size,IOType,VolumeID``).

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain, gzip or zstd; the published ``.tgz`` archives must be unpacked first).
    sector_size : int
        Sector size of ``Offset`` and ``Size`` [bytes] (512 in the published traces).
    name, max_requests, progress, chunk_bytes, max_line_bytes, max_input_bytes
        Common reader options (see :mod:`models.traces.formats`).

    Returns
    -------
    BlockTrace
        The volume id as device; times relative to the first request [ns].

    Examples
    --------
    >>> t = read_tencent(b"1538323200,2048,8,1,1283\\n1538323201,0,16,0,7\\n")
    >>> t.time_ns.tolist(), t.is_write.tolist(), t.offset_bytes.tolist(), t.size_bytes.tolist()
    ([0, 1000000000], [True, False], [1048576, 0], [4096, 8192])
    """
    check_sector_size(sector_size)

    def parse(block, line0, state):
        skip = header_rows(block, state, len(HEADER))
        fast = None if skip else _fast_columns(block, sector_size)
        if fast is not None:
            return fast
        ck = Chunk("tencent", block, line0, skip_first=skip)
        df = read_frame(ck, list(HEADER), ",", labels={"iotype": "IOType"})
        is_write = code_op_column(df, "iotype", "IOType", ck, write_code=1, what="must be 0 (read) or 1 (write)")
        cols = {
            "time_ns": time_column_ns(df, "timestamp", "Timestamp", ck, "s"),
            "is_write": is_write,
            "offset_bytes": scaled_column(df, "offset", "Offset", ck, sector_size),
            "size_bytes": scaled_column(df, "size", "Size", ck, sector_size),
            "device": device_column(df, "volumeid", "VolumeID", ck),
        }
        return finish_chunk(ck, cols, "Offset", "Size")

    return parse_source(src, parse, fmt="tencent", name=name, max_requests=max_requests, progress=progress,
                        chunk_bytes=chunk_bytes, max_line_bytes=max_line_bytes, max_input_bytes=max_input_bytes,
                        meta={"sector_size": sector_size}, comment="#")
