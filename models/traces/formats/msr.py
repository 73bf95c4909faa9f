"""MSR Cambridge block traces: ``Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime``.

References
----------
Narayanan, Donnelly, Rowstron, "Write Off-Loading: Practical Power Management for
Enterprise Storage", USENIX FAST 2008 (SNIA IOTTA MSR Cambridge traces).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from models.traces.core import BlockTrace
from models.traces.formats.arrow_csv import all_equal, plain_columns, text_codes, without_zero_size
from models.traces.formats.parsing import (
    DEVICE_MAX,
    I64_MAX,
    Chunk,
    device_column,
    finish_chunk,
    header_rows,
    int_column,
    is_number,
    op_column,
    parse_source,
    read_frame,
    scaled_column,
)
from models.traces.source import CHUNK_BYTES, MAX_INPUT_BYTES, MAX_LINE_BYTES

__all__ = ["read_msr", "DESCRIPTION", "PATTERN", "HEADER"]

DESCRIPTION = "MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime"
#: A data line, for format detection.
PATTERN = r"(?i)^\s*\d+,[^,]*,\d+,(read|write),\d+,\d+,\d+\s*$"
_FIELDS = ["timestamp", "hostname", "disk", "type", "offset", "size", "response_time"]
#: The header row of redistributed files (a file starting with it is detected too).
HEADER = ("timestamp", "hostname", "disknumber", "type", "offset", "size", "responsetime")


def _filetime_ns(df: pd.DataFrame, ck: Chunk, state: dict) -> np.ndarray:
    """MSR FILETIME ticks (100 ns since 1601) -> ns relative to the earliest tick of the first block.

    Absolute FILETIME in ns (~1.3e19) exceeds int64, so ticks are shifted before scaling; the
    shift goes to ``meta["time_origin_ns"]`` through ``state["time_offset_ns"]``.
    """
    ticks = int_column(df, "timestamp", "timestamp", ck)
    if (ticks < 0).any():
        r = int(np.argmax(ticks < 0))
        ck.fail(r, "timestamp", "is negative", df["timestamp"].iloc[r])
    if "tick0" not in state and len(ticks):
        state["tick0"] = int(ticks.min())
        state["time_offset_ns"] = state["tick0"] * 100
    rel = ticks - np.int64(state.get("tick0", 0))
    mx = I64_MAX // 100
    far = (rel > mx) | (rel < -mx)
    if far.any():
        r = int(np.argmax(far))
        ck.fail(r, "timestamp", f"is too far from the earliest timestamp (max span {mx} ticks of 100 ns)",
                df["timestamp"].iloc[r])
    return rel * np.int64(100)


_INTS = ("timestamp", "disk", "offset", "size", "response_time")
#: The write flag of each operation (the fast path; case-insensitive).
_OPS = {"read": False, "write": True}


def _na_token(texts) -> bool:
    """True when a text column holds a token pandas reads as a missing value (``nan``, ``NULL``, ``N/A``...):
    the pandas path then refuses it as missing, so the fast path must not accept it. A column of one host name
    (the usual MSR file) is one look-up; another is looked up row by row in Arrow."""
    from pandas._libs.parsers import STR_NA_VALUES

    first = texts[0].as_py()
    if all_equal(texts, first):
        return first in STR_NA_VALUES
    import pyarrow as pa
    import pyarrow.compute as pc

    return bool(pc.any(pc.is_in(texts, value_set=pa.array(sorted(STR_NA_VALUES)))).as_py())


def _fast_columns(block: bytes, state: dict) -> dict | None:
    """The block's columns through Arrow's CSV reader (:func:`plain_columns`), or None when the block is
    not plain or a value would be refused -- then the pandas parser reads it and names the line."""
    f = plain_columns(block, _FIELDS, _INTS)
    if f is None or not len(f["timestamp"]):
        return None
    ticks, disk, off, size, resp = (f[k] for k in ("timestamp", "disk", "offset", "size", "response_time"))
    host = f["hostname"][0].as_py()
    if _na_token(f["hostname"]):  # pandas reads "nan", "NULL", ... as a missing field: it names the line
        return None
    op = text_codes(f["type"], _OPS)  # -1: neither read nor write (case-insensitive)
    if (ticks < 0).any() or is_number(host) or (op < 0).any() \
            or (disk < 0).any() or (disk > DEVICE_MAX).any() or (np.abs(resp) > I64_MAX // 100).any() \
            or (off < 0).any() or (size < 0).any() or (off > I64_MAX - size).any():
        return None
    tick0 = state.get("tick0", int(ticks.min()))
    rel = ticks - np.int64(tick0)
    mx = I64_MAX // 100
    if ((rel > mx) | (rel < -mx)).any():
        return None
    if "tick0" not in state:
        state["tick0"], state["time_offset_ns"] = tick0, tick0 * 100
    state.setdefault("meta", {}).setdefault("hostname", str(host))
    cols = {"time_ns": rel * np.int64(100), "is_write": op.view(np.bool_), "offset_bytes": off, "size_bytes": size,
            "device": disk.astype(np.int32), "meta:response_ns": resp * np.int64(100)}
    return without_zero_size(cols)


def read_msr(src, *, name: str | None = None, max_requests: int | None = None, progress=None,
             chunk_bytes: int = CHUNK_BYTES,
                max_line_bytes: int = MAX_LINE_BYTES, max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read an MSR Cambridge trace (``Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime``).

    ``Timestamp`` and ``ResponseTime`` are Windows FILETIME ticks (100 ns), ``Type`` is Read or
    Write, ``Offset`` and ``Size`` are bytes. A header row (``Timestamp,Hostname,...``, as in some
    redistributions of the SNIA files) and ``#`` comment lines are skipped. The disk number becomes the device; the response
    times go to ``meta["response_ns"]`` [ns] and the host name to ``meta["hostname"]``.

    Examples
    --------
    >>> t = read_msr(b"128166372003061629,hm,1,Read,4096,512,10\\n128166372003061639,hm,0,Write,0,512,20\\n")
    >>> t.time_ns.tolist(), t.is_write.tolist(), t.meta["response_ns"].tolist(), t.meta["hostname"]
    ([0, 1000], [False, True], [1000, 2000], 'hm')
    >>> len(read_msr(b"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\\n"
    ...              b"128166372003061629,hm,1,Read,4096,512,10\\n"))
    1
    """

    def parse(block, line0, state):
        skip = header_rows(block, state, len(_FIELDS))
        fast = None if skip else _fast_columns(block, state)
        if fast is not None:
            return fast
        ck = Chunk("msr", block, line0, skip_first=skip)
        df = read_frame(ck, _FIELDS, ",")
        if "hostname" not in state.setdefault("meta", {}) and len(df):
            state["meta"]["hostname"] = str(df["hostname"].iloc[0])
        cols = {
            "time_ns": _filetime_ns(df, ck, state),
            "is_write": op_column(df, "type", "type", ck, {"read": False, "write": True}),
            "offset_bytes": int_column(df, "offset", "offset", ck),
            "size_bytes": int_column(df, "size", "size", ck),
            "device": device_column(df, "disk", "disk", ck),
            "meta:response_ns": scaled_column(df, "response_time", "response_time", ck, 100, signed=True,
                                              unit=" (100 ns)"),
        }
        return finish_chunk(ck, cols, "offset", "size")

    return parse_source(src, parse, fmt="msr", name=name, max_requests=max_requests, progress=progress,
                        chunk_bytes=chunk_bytes, max_line_bytes=max_line_bytes,
                        max_input_bytes=max_input_bytes, comment="#")
