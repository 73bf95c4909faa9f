"""MQSim / DiskSim ASCII block traces: ``arrival device lba_sector size_sectors type``.

References
----------
MQSim, github.com/CMU-SAFARI/MQSim, ``src/host/IO_Flow_Trace_Based.cpp`` (ASCII trace format).
"""

from __future__ import annotations

from models.traces.core import BlockTrace
from models.traces.formats.parsing import (
    Chunk,
    check_sector_size,
    code_op_column,
    device_column,
    finish_chunk,
    parse_source,
    read_frame,
    scaled_column,
    time_column_ns,
)
from models.traces.source import CHUNK_BYTES, MAX_INPUT_BYTES, MAX_LINE_BYTES

__all__ = ["read_mqsim", "DESCRIPTION", "PATTERN"]

DESCRIPTION = "MQSim/DiskSim ASCII: arrival_ns device lba_sector size_sectors type(1=read,0=write)"
#: A data line, for format detection.
PATTERN = r"^\s*\d+(\.\d+)?\s+\d+\s+\d+\s+\d+\s+[01]\s*$"
_FIELDS = ["arrival_ns", "device", "lba_sector", "size_sectors", "type"]


def read_mqsim(src, *, time_unit: str = "ns", sector_size: int = 512, name: str | None = None,
               max_requests: int | None = None, progress=None, chunk_bytes: int = CHUNK_BYTES,
                max_line_bytes: int = MAX_LINE_BYTES, max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read an MQSim / DiskSim ASCII trace.

    One request per line: ``arrival device lba_sector size_sectors type`` with type 1 = read,
    0 = write (MQSim ``traces/*.trace``). MQSim uses nanoseconds; classic DiskSim ASCII
    traces use milliseconds (``time_unit="ms"``).

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain, gzip or zstd).
    time_unit : {"ns", "us", "ms", "s"}
        Unit of the arrival time column.
    sector_size : int
        Sector size [bytes] of ``lba_sector`` and ``size_sectors``.
    name, max_requests, progress, chunk_bytes
        Common reader options (see :func:`models.traces.read_trace`).

    Returns
    -------
    BlockTrace

    Examples
    --------
    >>> t = read_mqsim(b"0 0 8 8 1\\n1000 0 16 8 0\\n")
    >>> len(t), t.offset_bytes.tolist(), t.is_write.tolist()
    (2, [4096, 8192], [False, True])
    """
    check_sector_size(sector_size)

    def parse(block, line0, state):
        ck = Chunk("mqsim", block, line0)
        df = read_frame(ck, _FIELDS, r"\s+")
        is_write = code_op_column(df, "type", "type", ck, write_code=0, what="must be 1 (read) or 0 (write)")
        cols = {
            "time_ns": time_column_ns(df, "arrival_ns", "arrival_ns", ck, time_unit),
            "is_write": is_write,
            "offset_bytes": scaled_column(df, "lba_sector", "lba_sector", ck, sector_size),
            "size_bytes": scaled_column(df, "size_sectors", "size_sectors", ck, sector_size),
            "device": device_column(df, "device", "device", ck),
        }
        return finish_chunk(ck, cols, "lba_sector", "size_sectors")

    return parse_source(src, parse, fmt="mqsim", name=name, max_requests=max_requests, progress=progress,
                        chunk_bytes=chunk_bytes, max_line_bytes=max_line_bytes,
                        max_input_bytes=max_input_bytes, meta={"sector_size": sector_size}, comment="#")
