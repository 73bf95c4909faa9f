"""UMass Trace Repository SPC block traces: ``ASU,LBA,size,opcode,timestamp``.

References
----------
UMass Trace Repository, "OLTP Application I/O" (Financial1/2) and "Search Engine I/O"
(WebSearch1-3) trace format description, traces.cs.umass.edu.
"""

from __future__ import annotations

from models.traces.core import BlockTrace
from models.traces.formats.parsing import (
    Chunk,
    check_sector_size,
    device_column,
    finish_chunk,
    int_column,
    op_column,
    parse_source,
    read_frame,
    scaled_column,
    time_column_ns,
)
from models.traces.source import CHUNK_BYTES, MAX_INPUT_BYTES, MAX_LINE_BYTES

__all__ = ["read_spc", "DESCRIPTION", "PATTERN"]

DESCRIPTION = "UMass SPC: ASU,LBA,size,opcode,timestamp"
#: A data line, for format detection.
PATTERN = r"^\s*\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*[rRwW]\s*,\s*[\d.]+\s*$"
_FIELDS = ["asu", "lba", "size", "opcode", "timestamp"]


def read_spc(src, *, sector_size: int = 512, name: str | None = None, max_requests: int | None = None,
             progress=None, chunk_bytes: int = CHUNK_BYTES,
                max_line_bytes: int = MAX_LINE_BYTES, max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read a UMass Trace Repository SPC trace (``ASU,LBA,size,opcode,timestamp``).

    ``LBA`` is in 512-byte sectors, ``size`` in bytes, ``opcode`` r/R/w/W, ``timestamp`` in
    seconds. The ASU (application storage unit) becomes the device number.

    Examples
    --------
    >>> t = read_spc(b"0,16,8192,W,0.5\\n1,8,512,r,0.75\\n")
    >>> t.device.tolist(), t.offset_bytes.tolist(), t.time_ns.tolist()
    ([0, 1], [8192, 4096], [0, 250000000])
    """
    check_sector_size(sector_size)

    def parse(block, line0, state):
        ck = Chunk("spc", block, line0)
        df = read_frame(ck, _FIELDS, ",")
        cols = {
            "time_ns": time_column_ns(df, "timestamp", "timestamp", ck, "s"),
            "is_write": op_column(df, "opcode", "opcode", ck, {"r": False, "w": True}),
            "offset_bytes": scaled_column(df, "lba", "lba", ck, sector_size),
            "size_bytes": int_column(df, "size", "size", ck),
            "device": device_column(df, "asu", "asu", ck),
        }
        return finish_chunk(ck, cols, "lba", "size")

    return parse_source(src, parse, fmt="spc", name=name, max_requests=max_requests, progress=progress,
                        chunk_bytes=chunk_bytes, max_line_bytes=max_line_bytes,
                        max_input_bytes=max_input_bytes, meta={"sector_size": sector_size}, comment="#")
