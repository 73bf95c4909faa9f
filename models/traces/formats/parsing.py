"""Block-wise parsing shared by the text trace formats: columns, checks and error messages.

A reader hands :func:`parse_source` a ``parse(block, first_line, state)`` function that
turns one block of whole lines into a dict of column arrays; :func:`parse_source` reads the
source in blocks (:mod:`models.traces.source`), stops after ``max_requests`` rows and builds
the :class:`~models.traces.core.BlockTrace` or :class:`~models.traces.core.MemTrace`.
The column helpers (:func:`int_column`, :func:`scaled_column`, :func:`float_column`,
:func:`time_column_ns`, :func:`op_column`) convert one parsed field and raise
:class:`~models.traces.source.TraceFormatError` naming the line, the field and the value.

Times are shifted so the earliest request is at 0 ns (the original origin is kept in
``meta["time_origin_ns"]``). Requests of size 0 are dropped and counted in
``meta["skipped_zero_size"]``; the format name is ``meta["format"]``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from models.traces.core import BlockTrace, MemTrace
from models.traces.source import TraceFormatError, data_lines, iter_blocks, open_source, source_name

__all__ = [
    "I64_MAX",
    "TIME_UNITS",
    "Chunk",
    "SubChunk",
    "read_frame",
    "int_column",
    "scaled_column",
    "float_column",
    "time_column_ns",
    "op_column",
    "finish_chunk",
    "check_sector_size",
    "parse_source",
]

#: Largest int64 value: the range of every integer column [-].
I64_MAX = 2**63 - 1
#: Nanoseconds per unit for ``time_unit`` options. ``filetime`` is Windows FILETIME (100 ns).
TIME_UNITS: dict[str, float] = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "filetime": 100}


@dataclass
class Chunk:
    """One block of lines being parsed; builds error messages naming line and field."""

    fmt: str
    block: bytes
    line0: int
    comment: str | None = "#"
    skip_first: int = 0

    def line_of(self, row: int) -> int | None:
        lines = data_lines(self.block, self.line0, comment=self.comment, skip_first=self.skip_first)
        return lines[row][0] if 0 <= row < len(lines) else None

    def fail(self, row: int, field: str, what: str, value: Any = None):
        ln = self.line_of(row)
        where = f"line {ln}" if ln is not None else f"data row {row + 1} of the block at line {self.line0}"
        if value is None or (not isinstance(value, str) and pd.isna(value)):
            msg = f"{self.fmt}: {where}: field '{field}' is missing"
        else:
            msg = f"{self.fmt}: {where}: field '{field}' {what}: {str(value)!r}"
        raise TraceFormatError(msg, line=ln, field=field)

    def fail_line(self, ln: int | None, what: str, field: str | None = None):
        raise TraceFormatError(f"{self.fmt}: line {ln}: {what}", line=ln, field=field)


class SubChunk(Chunk):
    """A chunk whose frame rows are a selection (``rows``) of the block's data rows."""

    def __init__(self, ck: Chunk, rows: np.ndarray):
        super().__init__(ck.fmt, ck.block, ck.line0, ck.comment, ck.skip_first)
        self.rows = rows

    def line_of(self, row: int) -> int | None:
        return super().line_of(int(self.rows[row])) if 0 <= row < len(self.rows) else None


def _field_count_error(ck: Chunk, names: list[str], sep: str, err: Exception):
    """Find the first line with too many fields (after a pandas ParserError)."""
    n = len(names)
    for ln, text in data_lines(ck.block, ck.line0, comment=ck.comment, skip_first=ck.skip_first):
        body = text.split(ck.comment, 1)[0] if ck.comment else text
        parts = body.split() if sep == r"\s+" else next(csv.reader([body], delimiter=sep))
        if len(parts) > n:
            ck.fail_line(ln, f"expected {n} fields ({', '.join(names)}), found {len(parts)}")
    if "inside string" in str(err):  # a quote opened a field that never closes
        for ln, text in data_lines(ck.block, ck.line0, comment=ck.comment, skip_first=ck.skip_first):
            if text.count('"') % 2:
                ck.fail_line(ln, f"unbalanced quote '\"' (a quoted field must close on the same line): {text!r}")
    raise TraceFormatError(f"{ck.fmt}: cannot parse the block starting at line {ck.line0}: {err}") from err


def _utf8_error(ck: Chunk, err: UnicodeDecodeError):
    """Name the first line of the block that is not valid UTF-8 (after a decode error)."""
    for i, raw in enumerate(ck.block.split(b"\n")):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as e:
            bad = raw[e.start:e.end].hex(" ")
            ck.fail_line(ck.line0 + i, f"is not valid UTF-8 text (byte(s) {bad} at column {e.start + 1})")
    raise TraceFormatError(f"{ck.fmt}: the block starting at line {ck.line0} is not valid UTF-8 text: {err}") from err


def _skiprows(ck: Chunk):
    if not ck.skip_first:
        return None
    # physical line indexes (0-based within the block) of the first skip_first non-blank lines
    skip = []
    for i, raw in enumerate(ck.block.decode("utf-8", errors="replace").split("\n")):
        body = raw.split(ck.comment, 1)[0] if ck.comment else raw
        if body.strip():
            skip.append(i)
            if len(skip) == ck.skip_first:
                break
    return skip


def read_frame(ck: Chunk, names: list[str], sep: str, *, usecols=None, dtype=None,
               labels: dict | None = None) -> pd.DataFrame:
    """Parse ``ck.block`` with the pandas C engine (no header; rows map to data lines).

    Without ``dtype`` every parsed field is required: the first missing one is reported
    (``labels`` maps column names to the field names shown in the message).
    """
    try:
        df = pd.read_csv(io.BytesIO(ck.block), sep=sep, header=None, names=names, index_col=False, usecols=usecols,
                         comment=ck.comment, engine="c", dtype=dtype, skiprows=_skiprows(ck),
                         skipinitialspace=sep != r"\s+", quoting=csv.QUOTE_NONE if dtype is str else 0)
    except pd.errors.EmptyDataError:
        return pd.DataFrame({c: pd.Series([], dtype=object) for c in (usecols or names)})
    except pd.errors.ParserError as e:
        _field_count_error(ck, names, sep, e)
    except UnicodeDecodeError as e:
        _utf8_error(ck, e)
    if dtype is None:
        na = df.isna().to_numpy()
        if na.any():
            r = int(np.argmax(na.any(axis=1)))
            col = str(df.columns[int(np.argmax(na[r]))])
            ck.fail(r, (labels or {}).get(col, col), "is missing")
    return df


def int_column(df: pd.DataFrame, col, field: str, ck: Chunk) -> np.ndarray:
    """Integer column as int64; non-integers and values outside int64 name their line."""
    s = df[col]
    if pd.api.types.is_integer_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
        if pd.api.types.is_unsigned_integer_dtype(s.dtype):  # pandas reads 2**63..2**64-1 as uint64
            u = s.to_numpy(np.uint64)
            big = u > np.uint64(I64_MAX)
            if big.any():
                r = int(np.argmax(big))
                ck.fail(r, field, f"is too large (max {I64_MAX})", s.iloc[r])
            return u.astype(np.int64)
        return s.to_numpy(np.int64)
    v = pd.to_numeric(s, errors="coerce").to_numpy(np.float64, na_value=np.nan)
    bad = ~np.isfinite(v) | (v != np.round(v))
    if bad.any():
        r = int(np.argmax(bad))
        ck.fail(r, field, "is not an integer", s.iloc[r])
    big = np.abs(v) >= 2.0**63
    if big.any():
        r = int(np.argmax(big))
        ck.fail(r, field, f"is too large (max {I64_MAX})" if v[r] > 0 else "is below the 64-bit range", s.iloc[r])
    return v.astype(np.int64)


def scaled_column(df: pd.DataFrame, col, field: str, ck: Chunk, factor: int, *, signed: bool = False,
                  unit: str = "") -> np.ndarray:
    """Integer column times ``factor`` (e.g. sectors -> bytes), checked before multiplying.

    Errors name the field's own value: negative values (unless ``signed``), and values whose
    product would not fit in int64 ("is too large (max N)", N in the field's unit).
    """
    v = int_column(df, col, field, ck)
    if not signed and (v < 0).any():
        r = int(np.argmax(v < 0))
        ck.fail(r, field, "is negative", df[col].iloc[r])
    mx = I64_MAX // int(factor)
    big = (v > mx) | (v < -mx)
    if big.any():
        r = int(np.argmax(big))
        ck.fail(r, field, f"is too large (max {mx}{unit})", df[col].iloc[r])
    return v * np.int64(factor)


def float_column(df: pd.DataFrame, col, field: str, ck: Chunk) -> np.ndarray:
    """Finite float column; NaN, infinity and text name their line."""
    s = df[col]
    if pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
        v = s.to_numpy(np.float64, na_value=np.nan)
    else:
        v = pd.to_numeric(s, errors="coerce").to_numpy(np.float64, na_value=np.nan)
    bad = ~np.isfinite(v)
    if bad.any():
        r = int(np.argmax(bad))
        ck.fail(r, field, "is not a number", s.iloc[r])
    return v


def time_column_ns(df, col, field, ck, unit: str) -> np.ndarray:
    """Time column converted to int64 [ns]; integers stay exact for integer unit factors."""
    if unit not in TIME_UNITS:
        raise ValueError(f"time_unit must be one of {', '.join(TIME_UNITS)} (got {unit!r})")
    f = int(TIME_UNITS[unit])  # every unit is a whole number of ns
    s = df[col]
    if pd.api.types.is_integer_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
        return scaled_column(df, col, field, ck, f, signed=True, unit=f" {unit}")
    v = float_column(df, col, field, ck)
    ns = np.round(v * f)
    big = (np.abs(v) > I64_MAX // f) | (np.abs(ns) >= 2.0**63)
    if big.any():
        r = int(np.argmax(big))
        ck.fail(r, field, f"is too large (max {I64_MAX // f} {unit})", s.iloc[r])
    return ns.astype(np.int64)


def op_column(df, col, field: str, ck: Chunk, mapping: dict[str, bool]) -> np.ndarray:
    """Operation column mapped to is_write through ``mapping`` (case-insensitive, stripped)."""
    s = df[col].astype("string").str.strip().str.lower()
    m = s.map(mapping)
    bad = m.isna().to_numpy()
    if bad.any():
        r = int(np.argmax(bad))
        valid = sorted(set(mapping))
        shown = ", ".join(valid[:12]) + (", ..." if len(valid) > 12 else "")
        ck.fail(r, field, f"is not a known operation ({shown})", df[col].iloc[r])
    return m.to_numpy(dtype=bool)


def finish_chunk(ck: Chunk, cols: dict, off_field: str, size_field: str, drop: np.ndarray | None = None) -> dict:
    """Check offsets/sizes, drop zero-size rows (counted in ``cols["_zero"]``) and rows in ``drop``."""
    off, size = cols["offset_bytes"], cols["size_bytes"]
    if (off < 0).any():
        r = int(np.argmax(off < 0))
        ck.fail(r, off_field, "is negative", str(off[r]))
    if (size < 0).any():
        r = int(np.argmax(size < 0))
        ck.fail(r, size_field, "is negative", str(size[r]))
    past = off > I64_MAX - size  # the request would end beyond the int64 byte range
    if past.any():
        r = int(np.argmax(past))
        ck.fail(r, off_field, f"plus the request size ends beyond {I64_MAX} bytes", f"{off[r]} + {size[r]} bytes")
    keep = size > 0
    cols["_zero"] = int((~keep).sum()) - (int((~keep & drop).sum()) if drop is not None else 0)
    if drop is not None:
        keep &= ~drop
    if not keep.all():
        cols = {k: (v[keep] if isinstance(v, np.ndarray) else v) for k, v in cols.items()}
    return cols


def check_sector_size(sector_size: int) -> None:
    """Reject a sector size that is not a positive integer [bytes]."""
    if not isinstance(sector_size, (int, np.integer)) or sector_size < 1:
        raise ValueError(f"sector_size must be a positive integer [bytes] (got {sector_size!r})")


def _mem_trace(parts: list[dict], max_requests: int | None, name: str, meta: dict) -> MemTrace:
    if not parts:
        return MemTrace(np.zeros(0, np.uint64), np.zeros(0, np.uint16), np.zeros(0, np.uint8), name=name, meta=meta)
    cat = {k: np.concatenate([p[k] for p in parts])[:max_requests] for k in parts[0]}
    return MemTrace(cat["address"], cat["size"], cat["kind"], name=name, meta=meta)


def _block_trace(parts: list[dict], max_requests: int | None, name: str, meta: dict, *, fmt: str, zero: int,
                 state: dict) -> BlockTrace:
    if not parts:
        t = BlockTrace.empty(name)
        return BlockTrace(t.time_ns, t.is_write, t.offset_bytes, t.size_bytes, t.device, name=name,
                          meta=dict(meta, skipped_zero_size=zero, time_origin_ns=0))
    cat = {k: np.concatenate([p[k] for p in parts])[:max_requests] for k in parts[0]}
    t = cat["time_ns"]
    origin = int(t.min())
    if int(t.max()) - origin > I64_MAX:
        raise TraceFormatError(f"{fmt}: the arrival times span more than {I64_MAX} ns (int64); check the time unit")
    for k in [k for k in cat if k.startswith("meta:")]:
        meta[k[5:]] = cat.pop(k)
    # readers whose absolute times do not fit in int64 ns (MSR FILETIME) shift them first
    meta.update(skipped_zero_size=zero, time_origin_ns=origin + int(state.get("time_offset_ns", 0)))
    meta.update(state.get("meta", {}))
    return BlockTrace(t - origin, cat["is_write"], cat["offset_bytes"], cat["size_bytes"], cat["device"],
                      name=name, meta=meta)


def parse_source(src, parse: Callable, *, fmt: str, name: str | None, max_requests: int | None,
                 progress, chunk_bytes: int, kind: str = "block", meta: dict | None = None):
    """Run ``parse(block, first_line, state) -> dict of arrays`` over the blocks of ``src``; build the trace.

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain, gzip or zstd).
    parse : callable
        Parses one block of whole lines; returns the columns (``time_ns``, ``is_write``,
        ``offset_bytes``, ``size_bytes``, ``device`` and ``meta:*`` per-request metadata for
        block traces; ``address``, ``size``, ``kind`` for memory traces) or None to skip the
        block. ``state`` is a dict kept across blocks.
    fmt : str
        Format name (error messages and ``meta["format"]``).
    kind : {"block", "memory"}
        The trace built.

    Returns
    -------
    BlockTrace or MemTrace
    """
    if max_requests is not None and max_requests < 1:
        raise ValueError(f"max_requests must be >= 1 (got {max_requests})")
    if chunk_bytes < 1:
        raise ValueError(f"chunk_bytes must be >= 1 (got {chunk_bytes})")
    parts: list[dict] = []
    n = 0
    zero = 0
    state: dict = {}
    key = "time_ns" if kind == "block" else "address"
    with open_source(src, progress) as (stream, report):
        for block, line0 in iter_blocks(stream, chunk_bytes):
            nul = block.find(b"\x00")
            if nul >= 0:
                line = line0 + block.count(b"\n", 0, nul)
                raise ValueError(f"{fmt}: line {line}: binary data (NUL bytes); expected a text trace")
            cols = parse(block, line0, state)
            report()
            if cols is None:
                continue
            zero += cols.pop("_zero", 0)
            if len(cols[key]):
                parts.append(cols)
                n += len(cols[key])
            if max_requests is not None and n >= max_requests:
                break
        report(done=True)
    trace_name = name or source_name(src)
    meta = dict(meta or {}, format=fmt, source=source_name(src))
    if kind == "memory":
        return _mem_trace(parts, max_requests, trace_name, meta)
    return _block_trace(parts, max_requests, trace_name, meta, fmt=fmt, zero=zero, state=state)
