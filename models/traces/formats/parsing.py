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
import re
import warnings
from collections.abc import Callable
from contextlib import closing, nullcontext
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from typing import Any

import numpy as np
import pandas as pd
from numba import njit

from models.traces.chunks import chunk_sink_of
from models.traces.core import BlockTrace, MemTrace
from models.traces.prefetch import prefetched
from models.traces.source import (
    MAX_INPUT_BYTES,
    MAX_LINE_BYTES,
    TraceFormatError,
    charge_parsed,
    check_limit,
    data_line_mask,
    data_lines,
    iter_blocks,
    open_source,
    quote,
    source_name,
)

__all__ = [
    "I64_MAX",
    "DEVICE_MAX",
    "TIME_UNITS",
    "Chunk",
    "SubChunk",
    "read_frame",
    "int_column",
    "device_column",
    "scaled_column",
    "float_column",
    "time_column_ns",
    "op_column",
    "finish_chunk",
    "check_sector_size",
    "parse_source",
    "header_rows",
    "is_number",
]

#: Largest int64 value: the range of every integer column [-].
I64_MAX = 2**63 - 1
#: Largest device number (int32) [-].
DEVICE_MAX = 2**31 - 1
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
    frame_args: dict | None = None  # how read_frame parsed the block (to re-read a column as text)

    def line_of(self, row: int) -> int | None:
        lines = data_lines(self.block, self.line0, comment=self.comment, skip_first=self.skip_first)
        return lines[row][0] if 0 <= row < len(lines) else None

    def fail(self, row: int, field: str, what: str, value: Any = None):
        ln = self.line_of(row)
        where = f"line {ln}" if ln is not None else f"data row {row + 1} of the block at line {self.line0}"
        if value is None or (not isinstance(value, str) and pd.isna(value)):
            msg = f"{self.fmt}: {where}: field '{field}' is missing"
        else:
            msg = f"{self.fmt}: {where}: field '{field}' {what}: {quote(str(value))}"
        raise TraceFormatError(msg, line=ln, field=field)

    def raw_column(self, col) -> np.ndarray:
        """Column ``col`` of the block as the text of each field (object array), re-read with pandas."""
        a = dict(self.frame_args or {})
        df = pd.read_csv(io.BytesIO(self.block), sep=a["sep"], header=None, names=a["names"], index_col=False,
                         usecols=[col], comment=self.comment, engine="c", dtype=str, skiprows=_skiprows(self),
                         skipinitialspace=a.get("skipinitialspace", a["sep"] != r"\s+"))
        return df[col].to_numpy(dtype=object)

    def fail_line(self, ln: int | None, what: str, field: str | None = None):
        raise TraceFormatError(f"{self.fmt}: line {ln}: {what}", line=ln, field=field)


class SubChunk(Chunk):
    """A chunk whose frame rows are a selection (``rows``) of the block's data rows."""

    def __init__(self, ck: Chunk, rows: np.ndarray):
        super().__init__(ck.fmt, ck.block, ck.line0, ck.comment, ck.skip_first, ck.frame_args)
        self.rows = rows

    def raw_column(self, col) -> np.ndarray:
        return super().raw_column(col)[self.rows]

    def line_of(self, row: int) -> int | None:
        return super().line_of(int(self.rows[row])) if 0 <= row < len(self.rows) else None


def _field_count_error(ck: Chunk, names: list[str], sep: str, err: Exception):
    """Find the first line with too many fields (after a pandas ParserError)."""
    n = len(names)
    for ln, text in data_lines(ck.block, ck.line0, comment=ck.comment, skip_first=ck.skip_first):
        body = text.split(ck.comment, 1)[0] if ck.comment else text
        parts = _split_fields(body, sep)
        if len(parts) > n:
            ck.fail_line(ln, f"expected {n} fields ({', '.join(names)}), found {len(parts)}")
    if "inside string" in str(err):  # a quote opened a field that never closes
        for ln, text in data_lines(ck.block, ck.line0, comment=ck.comment, skip_first=ck.skip_first):
            if text.count('"') % 2:
                ck.fail_line(ln, f"unbalanced quote '\"' (a quoted field must close on the same line): {quote(text)}")
    raise TraceFormatError(f"{ck.fmt}: cannot parse the block starting at line {ck.line0}: "
                           f"{quote(str(err), 200)}") from err


def _split_fields(body: str, sep: str) -> list[str]:
    if sep == r"\s+":
        return body.split()
    try:
        return next(csv.reader([body], delimiter=sep))
    except csv.Error:  # e.g. a field over the csv module's size limit: count separators instead
        return body.split(sep)


def _first_data_rows(ck: Chunk, k: int) -> list[int]:
    """0-based indexes of the block's first ``k`` data lines: a line-by-line look at the first lines (no
    allocation), then, in a block that starts with a flood of blank or comment lines, the vectorised
    :func:`~models.traces.source.data_line_mask` (no Python loop per line)."""
    b, start, rows = ck.block, 0, []
    for i in range(_LOOK_LINES):
        if start >= len(b) or len(rows) >= k:
            return rows
        end = b.find(b"\n", start)
        end = len(b) if end < 0 else end
        text = b[start:end].decode("utf-8", errors="replace").rstrip("\r")
        if (text.split(ck.comment, 1)[0] if ck.comment else text).strip():
            rows.append(i)
        start = end + 1
    if start >= len(b) or len(rows) >= k:
        return rows
    return np.flatnonzero(data_line_mask(ck.block, ck.comment))[:k].tolist()


def _first_data_line(ck: Chunk) -> tuple[int, str] | None:
    """``(line number, text)`` of the block's first data line (after the header) (:func:`_first_data_rows`)."""
    rows = _first_data_rows(ck, ck.skip_first + 1)
    if len(rows) <= ck.skip_first:
        return None
    i = int(rows[ck.skip_first])
    b = ck.block
    start = 0 if i == 0 else _nth_newline(b, i) + 1
    end = b.find(b"\n", start)
    return ck.line0 + i, b[start:len(b) if end < 0 else end].decode("utf-8", errors="replace").rstrip("\r")


def _nth_newline(b: bytes, i: int) -> int:
    """Offset of the ``i``-th LF of ``b`` (1-based)."""
    if i <= _LOOK_LINES:
        at = -1
        for _ in range(i):
            at = b.find(b"\n", at + 1)
        return at
    return int(np.flatnonzero(np.frombuffer(b, np.uint8) == 10)[i - 1])


#: Lines looked at one by one before a block is classified in one vectorised pass [lines].
_LOOK_LINES = 256


def _check_first_line_fields(ck: Chunk, names: list[str], sep: str) -> None:
    """Refuse extra fields on the block's first data line, which pandas drops without a word
    (``index_col=False`` reads a trailing separator there as "no index"): the same line is an
    error anywhere else in the block, so without this check the result depends on the chunk size."""
    first = _first_data_line(ck)
    if first is None:
        return
    ln, text = first
    parts = _split_fields(text.split(ck.comment, 1)[0] if ck.comment else text, sep)
    if len(parts) > len(names):
        ck.fail_line(ln, f"expected {len(names)} fields ({', '.join(names)}), found {len(parts)}")


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
    """Physical lines (0-based within the block) pandas must skip so its rows are :func:`data_lines`'s.

    The first ``skip_first`` non-blank lines (a header), and -- only in a block that has one,
    found by one regex scan -- every line that is blank but for whitespace before a comment or
    the line end (pandas would read ``"\t# note"`` as a row of empty fields, :func:`data_lines`
    skips it). Vectorised (:func:`~models.traces.source.data_line_mask`).
    """
    ws = _WS_COMMENT[ck.comment] if ck.comment in _WS_COMMENT else _ws_comment(ck.comment)
    has_ws = _has_blank_run(ck.block) and ws.search(ck.block) is not None
    if not has_ws:
        return _first_data_rows(ck, ck.skip_first) or None if ck.skip_first else None
    data = data_line_mask(ck.block, ck.comment)
    skip = np.zeros(len(data), bool)
    skip[np.flatnonzero(data)[: ck.skip_first]] = True
    # not data, yet not empty before the comment: whitespace-only body, pandas would make it a row
    buf = np.frombuffer(ck.block, np.uint8)
    n = len(buf)
    nl = np.flatnonzero(buf == 10)
    starts = np.concatenate(([0], nl + 1))
    ends = np.concatenate((nl, [n]))
    if ck.comment:
        cut = np.where(buf == ord(ck.comment), np.arange(n), n)
        first_cut = np.full(len(starts), n)
        live = starts < ends
        if live.any():
            first_cut[live] = np.minimum.reduceat(cut, starts[live])
        body_end = np.minimum(np.where(first_cut < ends, first_cut, n), ends)
    else:
        body_end = ends
    skip |= ~data & (body_end > starts)
    rows = np.flatnonzero(skip)
    return rows.tolist() or None


def _has_blank_run(block: bytes) -> bool:
    """Whether ``block`` may hold a whitespace-only line (a cheap byte test before the regex scan)."""
    return any(w in block for w in (b"\n ", b"\n\t", b"\n\x0b", b"\n\x0c")) or block[:1] in (b" ", b"\t", b"\x0b", b"\x0c")


def _ws_comment(comment: str | None) -> re.Pattern:
    """Regex finding a line that holds only whitespace before ``comment`` (or before its end)."""
    tail = rb"(?:" + re.escape(comment.encode()) + rb"|\r?$)" if comment else rb"\r?$"
    return re.compile(rb"(?m)^[ \t\f\v]+" + tail)


_WS_COMMENT = {c: _ws_comment(c) for c in ("#", None)}


def read_frame(ck: Chunk, names: list[str], sep: str, *, usecols=None, dtype=None,
               labels: dict | None = None, short_rows: bool = False,
               skipinitialspace: bool | None = None) -> pd.DataFrame:
    """Parse ``ck.block`` with the pandas C engine (no header; rows map to data lines).

    Without ``dtype`` every parsed field is required: the first missing one is reported
    (``labels`` maps column names to the field names shown in the message). A line with
    more fields than ``names`` is an error (also on the block's first line). With
    ``short_rows`` a block whose lines all have fewer fields than ``usecols`` is read padded with
    missing values (blkparse: a block of summary lines) instead of an error. ``skipinitialspace``
    (default: for every separator but whitespace) drops the blanks starting a field; False keeps
    them (twitter: a key is free text, ``" abc"`` is not ``"abc"``).
    """
    if skipinitialspace is None:
        skipinitialspace = sep != r"\s+"
    empty = pd.DataFrame({c: pd.Series([], dtype=object) for c in (usecols or names)})
    try:
        ck.block.decode("utf-8")  # pandas checks only some fields (depends on the block): check every line
    except UnicodeDecodeError as e:
        _utf8_error(ck, e)
    # given ``usecols`` (even all of ``names``), pandas silently cuts every line to them: parse all
    # ``names`` (a line with extra fields is then an error) and keep the columns afterwards
    subset = usecols is not None and not short_rows
    try:
        with warnings.catch_warnings():
            # pandas drops the extra fields of the first line with only this warning
            warnings.simplefilter("error", pd.errors.ParserWarning)
            df = pd.read_csv(io.BytesIO(ck.block), sep=sep, header=None, names=names, index_col=False,
                             usecols=None if subset else usecols, comment=ck.comment, engine="c", dtype=dtype,
                             skiprows=_skiprows(ck), skipinitialspace=skipinitialspace,
                             quoting=csv.QUOTE_NONE if dtype is str else 0)
        if subset:
            df = df[list(usecols)]
    except pd.errors.EmptyDataError:
        return empty
    except pd.errors.ParserWarning as e:
        _field_count_error(ck, names, sep, e)
    except pd.errors.ParserError as e:
        if not (short_rows and "Too many columns specified" in str(e)):
            _field_count_error(ck, names, sep, e)
        # every line has fewer fields than usecols: read them padded (a short event line must still be seen)
        try:
            df = pd.read_csv(io.BytesIO(ck.block), sep=sep, header=None, names=names, index_col=False,
                             comment=ck.comment, engine="c", dtype=dtype, skiprows=_skiprows(ck),
                             skipinitialspace=skipinitialspace, quoting=csv.QUOTE_NONE if dtype is str else 0)
        except pd.errors.EmptyDataError:
            return empty
        except pd.errors.ParserError as e2:
            _field_count_error(ck, names, sep, e2)
    except UnicodeDecodeError as e:
        _utf8_error(ck, e)
    if not short_rows:  # blkparse lines carry a variable tail (process name, summaries): not checked
        _check_first_line_fields(ck, names, sep)
    ck.frame_args = {"names": names, "sep": sep, "skipinitialspace": skipinitialspace}
    if dtype is None:
        na = df.isna().to_numpy()
        if na.any():
            r = int(np.argmax(na.any(axis=1)))
            col = str(df.columns[int(np.argmax(na[r]))])
            ck.fail(r, (labels or {}).get(col, col), "is missing")
    return df


def _decimal(text) -> Decimal | None:
    """The exact value of a numeric field's text, or None."""
    try:
        d = Decimal(str(text).strip())
    except (InvalidOperation, ValueError):
        return None
    return d if d.is_finite() else None


def _raw(df: pd.DataFrame, col, ck: Chunk) -> np.ndarray:
    s = df[col]
    return s.to_numpy(dtype=object) if s.dtype == object else ck.raw_column(col)


def _exact_rows(df, col, ck: Chunk, rows: np.ndarray, factor: int, integral: bool) -> dict[int, int | None]:
    """Exact int64 value (text times ``factor``, rounded half to even) of ``rows``; None when invalid.

    Used for the rows a float conversion cannot hold exactly (|value| >= 2**53), so a result
    never depends on the other values parsed with it (the chunk size).
    """
    raw = _raw(df, col, ck)
    out: dict[int, int | None] = {}
    for r in rows.tolist():
        d = _decimal(raw[r])
        if d is None or (integral and d != d.to_integral_value()):
            out[r] = None
            continue
        out[r] = int((d * factor).to_integral_value(rounding=ROUND_HALF_EVEN))
    return out


def _not_bool(df, col, field: str, ck: Chunk, what: str) -> None:
    if pd.api.types.is_bool_dtype(df[col].dtype) and len(df):
        ck.fail(0, field, what, df[col].iloc[0])


def int_column(df: pd.DataFrame, col, field: str, ck: Chunk) -> np.ndarray:
    """Integer column as int64, parsed exactly; non-integers and values outside int64 name their line."""
    s = df[col]
    _not_bool(df, col, field, ck, "is not an integer")
    if pd.api.types.is_integer_dtype(s.dtype):
        if pd.api.types.is_unsigned_integer_dtype(s.dtype):  # pandas reads 2**63..2**64-1 as uint64
            u = s.to_numpy(np.uint64)
            big = u > np.uint64(I64_MAX)
            if big.any():
                r = int(np.argmax(big))
                ck.fail(r, field, f"is too large (max {I64_MAX})", s.iloc[r])
            return u.astype(np.int64)
        return s.to_numpy(np.int64)
    v = pd.to_numeric(s, errors="coerce").to_numpy(np.float64, na_value=np.nan)
    fin = np.isfinite(v)
    wide = fin & (np.abs(v) >= 2.0**53)  # a float holds these only approximately: parse the text exactly
    exact = _exact_rows(df, col, ck, np.flatnonzero(wide), 1, True) if wide.any() else {}
    bad = ~fin | (~wide & (v != np.round(v)))
    for r, x in exact.items():
        bad[r] = x is None
    out_of_range = np.zeros(len(v), bool)
    for r, x in exact.items():
        out_of_range[r] = x is not None and not -(2**63) <= x <= I64_MAX
    first_bad = int(np.argmax(bad)) if bad.any() else len(v)
    first_big = int(np.argmax(out_of_range)) if out_of_range.any() else len(v)
    if first_bad < first_big:
        ck.fail(first_bad, field, "is not an integer", s.iloc[first_bad])
    if first_big < len(v):
        r = first_big
        ck.fail(r, field, f"is too large (max {I64_MAX})" if exact[r] > 0 else "is below the 64-bit range", s.iloc[r])
    out = np.where(wide, 0, v).astype(np.int64)
    for r, x in exact.items():
        out[r] = x
    return out


def device_column(df: pd.DataFrame, col, field: str, ck: Chunk) -> np.ndarray:
    """Device / volume number column: an integer 0..2**31-1 (int32, never wrapped)."""
    v = int_column(df, col, field, ck)
    if (v < 0).any():
        r = int(np.argmax(v < 0))
        ck.fail(r, field, "is negative", df[col].iloc[r])
    if (v > DEVICE_MAX).any():
        r = int(np.argmax(v > DEVICE_MAX))
        ck.fail(r, field, f"is too large (max {DEVICE_MAX})", df[col].iloc[r])
    return v.astype(np.int32)


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
    _not_bool(df, col, field, ck, "is not a number")
    if pd.api.types.is_numeric_dtype(s.dtype):
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
    with np.errstate(over="ignore"):  # beyond float range: inf, handled exactly below
        ns = np.round(v * f)
    wide = np.abs(ns) >= 2.0**53  # not exact in a float: convert the text exactly
    exact = _exact_rows(df, col, ck, np.flatnonzero(wide), f, False) if wide.any() else {}
    big = np.zeros(len(v), bool)
    for r, x in exact.items():
        big[r] = x is None or not -(2**63) <= x <= I64_MAX
    if big.any():
        r = int(np.argmax(big))
        ck.fail(r, field, f"is too large (max {I64_MAX // f} {unit})", s.iloc[r])
    out = np.where(wide, 0, ns).astype(np.int64)
    for r, x in exact.items():
        out[r] = x
    return out


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


def code_op_column(df, col, field: str, ck: Chunk, *, write_code: int, what: str) -> np.ndarray:
    """is_write from an integer operation column holding only 0 and 1 (``write_code`` is the write).

    ``what`` completes the message for another value, e.g. ``"must be 0 (read) or 1 (write)"``.
    """
    typ = int_column(df, col, field, ck)
    bad = (typ != 0) & (typ != 1)
    if bad.any():
        r = int(np.argmax(bad))
        ck.fail(r, field, what, str(typ[r]))
    return typ == write_code


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


def _grow(a: np.ndarray, n: int) -> None:
    """Enlarge ``a`` (which owns its data) to ``n`` rows in place, the new rows left unset.

    NumPy zero-fills the rows ``resize`` adds to a writeable array, which makes the spare
    capacity resident; a read-only array is resized without the fill (not for object arrays,
    whose new slots must be filled).
    """
    skip_fill = not a.dtype.hasobject
    if skip_fill:
        a.flags.writeable = False
    a.resize(n, refcheck=False)
    a.flags.writeable = True


class _Columns(dict):
    """The columns of a source's blocks, grown in place as the blocks are parsed (``append``).

    Each block's arrays are copied at the end of one array per column, enlarged by
    ``ndarray.resize`` (``realloc``: a large array is remapped, not copied), so a reader holds
    the trace once -- not its pieces plus their concatenation (issue 20: a 20 M-request input
    peaked at 1.5 GB, and freed pieces stay resident in the C heap). The keys are those of the
    first block; a block parsed to a wider type widens the column, as ``np.concatenate`` would.
    """

    n = 0

    def append(self, cols: dict[str, np.ndarray], m: int) -> None:
        end = self.n + m
        for k in (list(self) or list(cols)):
            v = np.asarray(cols[k])
            a = self.get(k)
            if a is None:
                a = np.empty(end, v.dtype)
            else:
                wide = np.result_type(a, v)
                if wide != a.dtype:
                    a = a.astype(wide)
                if end > len(a):
                    _grow(a, max(end, len(a) * 3 // 2))
            a[self.n:end] = v
            self[k] = a
        self.n = end

    def finish(self, max_requests: int | None) -> _Columns:
        """The columns cut to the rows read (at most ``max_requests``)."""
        n = self.n if max_requests is None else min(self.n, max_requests)
        for a in self.values():
            a.resize(n, refcheck=False)
        return self


def _join(parts: list[dict], max_requests: int | None) -> dict[str, np.ndarray]:
    """The parts' columns, concatenated one at a time, each column's pieces released once joined.

    A single :class:`_Columns` part is already one array per column, owned by the reader: it is
    used as it is.
    """
    if len(parts) == 1 and isinstance(parts[0], _Columns):
        return parts[0].finish(max_requests)
    return {k: np.concatenate([p.pop(k) for p in parts])[:max_requests] for k in list(parts[0])}


def _mem_trace(parts: list[dict], max_requests: int | None, name: str, meta: dict) -> MemTrace:
    if not parts:
        return MemTrace(np.zeros(0, np.uint64), np.zeros(0, np.uint16), np.zeros(0, np.uint8), name=name, meta=meta)
    cat = _join(parts, max_requests)
    return MemTrace(cat["address"], cat["size"], cat["kind"], name=name, meta=meta)


def _block_trace(parts: list[dict], max_requests: int | None, name: str, meta: dict, *, fmt: str, zero: int,
                 state: dict) -> BlockTrace:
    if not parts:
        t = BlockTrace.empty(name)
        return BlockTrace(t.time_ns, t.is_write, t.offset_bytes, t.size_bytes, t.device, name=name,
                          meta=dict(meta, skipped_zero_size=zero, time_origin_ns=0))
    cat = _join(parts, max_requests)
    t = cat["time_ns"]
    origin = int(t.min())
    if int(t.max()) - origin > I64_MAX:
        raise TraceFormatError(f"{fmt}: the arrival times span more than {I64_MAX} ns (int64); check the time unit")
    for k in [k for k in cat if k.startswith("meta:")]:
        meta[k[5:]] = cat.pop(k)
    # readers whose absolute times do not fit in int64 ns (MSR FILETIME) shift them first
    meta.update(skipped_zero_size=zero, time_origin_ns=origin + int(state.get("time_offset_ns", 0)))
    meta.update(state.get("meta", {}))
    t -= origin  # in place (the joined column is ours): no second copy of the largest column
    return BlockTrace(t, cat["is_write"], cat["offset_bytes"], cat["size_bytes"], cat["device"],
                      name=name, meta=meta)


#: The bytes of a blank line (ASCII whitespace): a block of nothing else holds no row in any format.
_BLANK = b" \t\r\n\x0b\x0c"


def _trim_blank_lines(block: bytes, line0: int) -> tuple[bytes, int]:
    """``block`` without its leading and trailing blank lines (ASCII whitespace only), and the number of its
    new first line: floods of blank lines cost C-speed scans, not the parsers' per-line work.

    >>> _trim_blank_lines(b"\\n \\n  1 2\\n3\\r\\n\\n\\n", 5)
    (b'  1 2\\n3\\r\\n', 7)
    >>> _trim_blank_lines(b" \\n\\n", 1)
    (b'', 1)
    """
    p = len(block) - len(block.lstrip(_BLANK))
    if p == len(block):
        return b"", line0
    k = min(len(block), 256)  # the block's tail: a whole block's rstrip copies it (it ends with a LF)
    t = len(block[-k:].rstrip(_BLANK))
    q = len(block) - k + t if t else len(block.rstrip(_BLANK))
    if p == 0 and q == len(block):
        return block, line0
    cut = block.rfind(b"\n", 0, p) + 1
    end = block.find(b"\n", q)
    end = len(block) if end < 0 else end + 1
    return block[cut:end], line0 + block.count(b"\n", 0, cut)


def _drop_comment_lines(block: bytes, comment: str | None) -> bytes:
    """``block`` without its whole lines (with their LF) that are ASCII whitespace, or ASCII whitespace then
    ``comment`` and ASCII text: no data in any reader (:func:`~models.traces.source.data_line_mask`). A line holding
    other bytes is left to the reader (its UTF-8 check, and ``str.strip``'s Unicode whitespace), as is an
    unterminated last line. ``block`` itself when it holds no comment character or no such line. One compiled pass.

    >>> _drop_comment_lines(b"1 2\\n# c\\n \\t\\n  # c\\n3 4 # c\\n# \\xc3\\xa9\\n", "#")
    b'1 2\\n3 4 # c\\n# \\xc3\\xa9\\n'
    """
    if not comment or len(comment.encode()) != 1 or comment.encode() not in block:
        return block
    buf = np.frombuffer(block, np.uint8)
    out, k = _kept_lines(buf, comment.encode()[0])
    return block if k == len(buf) else out[:k].tobytes()


@njit(cache=True, nogil=True)
def _kept_lines(buf, comment):  # pragma: no cover - compiled
    """The bytes of the lines :func:`_drop_comment_lines` keeps, and their count."""
    n = len(buf)
    out = np.empty(n, np.uint8)
    k = 0
    i = 0
    while i < n:
        j = i
        comment_seen = False
        keep = False
        while j < n and buf[j] != 10:
            c = buf[j]
            if not keep:
                if c >= 128:
                    keep = True
                elif not comment_seen:
                    if c == comment:
                        comment_seen = True
                    elif c != 32 and c != 9 and c != 13 and c != 11 and c != 12:
                        keep = True
            j += 1
        if j == n:  # an unterminated last line: the reader's
            keep = True
        else:
            j += 1  # with its LF
        if keep:
            out[k:k + j - i] = buf[i:j]
            k += j - i
        i = j
    return out, k


def _parse_compacted(parse: Callable, block: bytes, line0: int, state: dict, comment: str | None):
    """``parse`` of ``block`` with its comment lines dropped first (a flood of them costs a regex pass, not the
    reader's per-line work). The data lines, hence the rows and every decision on the first data line, are the
    same; only the line numbers of an error would differ, so on any error the original block is parsed again
    (from the state as it was) and its own error -- naming the right line -- is the one raised."""
    compact = _drop_comment_lines(block, comment)
    if compact is block:
        return parse(block, line0, state)
    saved = dict(state)
    try:
        return parse(compact, line0, state) if compact.strip() else None
    except Exception:  # noqa: BLE001 - the original block's parse raises (or answers) for it
        state.clear()
        state.update(saved)
        return parse(block, line0, state)


def parse_source(src, parse: Callable, *, fmt: str, name: str | None, max_requests: int | None,
                 progress, chunk_bytes: int, kind: str = "block", meta: dict | None = None,
                 max_line_bytes: int = MAX_LINE_BYTES, max_input_bytes: int = MAX_INPUT_BYTES,
                 comment: str | None = None, objects: Callable | None = None):
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
    max_line_bytes, max_input_bytes : int
        Longest line and most decompressed bytes read [bytes]
        (:data:`~models.traces.source.MAX_LINE_BYTES`, :data:`~models.traces.source.MAX_INPUT_BYTES`).
    comment : str, optional
        The reader's comment character: lines that are blank or a comment are dropped from each block before
        ``parse`` sees it (:func:`_parse_compacted`). None: the format has no comments (its ``#`` is data).
    objects : callable, optional
        The blocks name objects (``meta:object_id``; the key-value formats):
        :func:`~models.traces.formats.objects.object_table` (passed in: that module imports this one). A streaming
        consumer (:mod:`models.traces.chunks`) then gets each block with its objects placed in first-access order,
        as the whole trace's ``place_objects`` places them; without a consumer the caller places them on the trace
        returned.

    Returns
    -------
    BlockTrace or MemTrace
    """
    if max_requests is not None and max_requests < 1:
        raise ValueError(f"max_requests must be >= 1 (got {max_requests})")
    chunk_bytes = check_limit("chunk_bytes", chunk_bytes)
    max_line_bytes = check_limit("max_line_bytes", max_line_bytes)
    max_input_bytes = check_limit("max_input_bytes", max_input_bytes)
    columns = _Columns()
    n = 0
    zero = 0
    state: dict = {}
    key = "time_ns" if kind == "block" else "address"
    sink = chunk_sink_of(kind)  # a streaming consumer takes each block's columns instead of the trace
    t_lo = None  # the earliest arrival handed to the sink [ns, reader's origin]
    with (objects(fmt, sink) if objects is not None and sink is not None else nullcontext()) as slots, \
            open_source(src, progress, max_input_bytes=max_input_bytes) as (stream, report):
        # read ahead in a thread (closed before the source is: a parse error or max_requests stops it first)
        with closing(prefetched(iter_blocks(stream, chunk_bytes, max_line_bytes=max_line_bytes, fmt=fmt,
                                               kept=sink is None))) as blocks:
            for block, line0 in blocks:
                nul = block.find(b"\x00")
                if nul >= 0:
                    line = line0 + block.count(b"\n", 0, nul)
                    raise ValueError(f"{fmt}: line {line}: binary data (NUL bytes); expected a text trace")
                block, line0 = _trim_blank_lines(block, line0)
                if not block:  # only blank lines: nothing to parse (a flood costs C speed)
                    report()
                    continue
                cols = _parse_compacted(parse, block, line0, state, comment)
                report()
                if cols is None:
                    continue
                zero += cols.pop("_zero", 0)
                if sink is not None and len(cols[key]):
                    m = len(cols[key]) if max_requests is None else min(len(cols[key]), max_requests - n)
                    if kind == "block" and m:
                        lo = int(cols[key][:m].min())
                        t_lo = lo if t_lo is None else min(t_lo, lo)
                    part = {k: v[:m] for k, v in cols.items() if slots is not None or not k.startswith("meta:")}
                    sink(slots.place(part) if slots is not None else part)
                    n += m
                elif len(cols[key]):
                    columns.append(cols, len(cols[key]))
                    n += len(cols[key])
                    charge_parsed(n)  # the memory budget: refuse before joining the pieces
                if max_requests is not None and n >= max_requests:
                    break
        report(done=True)
    trace_name = name or source_name(src)
    meta = dict(meta or {}, format=fmt, source=source_name(src))
    if sink is not None:  # the columns went to the consumer: an empty trace carries the name and metadata
        n = 0
        if slots is not None:
            meta.update(n_objects=slots.n_objects, object_slot_bytes=1 << 32)
    if kind == "memory":
        return _mem_trace([columns] if n else [], max_requests, trace_name, meta)
    trace = _block_trace([columns] if n else [], max_requests, trace_name, meta, fmt=fmt, zero=zero, state=state)
    if sink is not None and t_lo is not None:  # the metadata the whole trace would carry (op_unknown, origin, ...)
        trace.meta.update(time_origin_ns=t_lo + int(state.get("time_offset_ns", 0)))
        trace.meta.update(state.get("meta", {}))
    return trace


def is_number(text: str) -> bool:
    """True when ``float`` reads ``text`` (a header row has no numeric field; pandas types such a column as numbers).

    >>> is_number(" 1e3"), is_number("hm")
    (True, False)
    """
    try:
        float(text.strip())
    except ValueError:
        return False
    return True


def header_rows(block: bytes, state: dict, n_fields: int, sep: str = ",", comment: str | None = "#") -> int:
    """1 when the source's first data line is a header row, else 0 (decided once, on the first data line).

    A header row has ``n_fields`` non-empty fields split by ``sep``, none of them a number (a data
    line of every fixed-layout format has numeric fields), e.g. MSR Cambridge files
    redistributed with ``Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime``), and no
    quote character.

    >>> header_rows(b"# MSR\\nTimestamp,Host,Disk,Type,Offset,Size,Resp\\n1,h,0,Read,0,8,1\\n", {}, 7)
    1
    >>> header_rows(b"1,h,0,Read,0,8,1\\n", {}, 7)
    0
    """
    if "header_rows" in state:
        return 0
    first = _first_data_line(Chunk("", block, 0, comment=comment))  # at NumPy speed through blank floods
    if first is not None:
        raw = first[1]
        body = raw.split(comment, 1)[0] if comment else raw
        fields = body.split() if sep == r"\s+" else body.split(sep)
        is_header = len(fields) == n_fields and not any(is_number(f) for f in fields) and \
            all(f.strip() for f in fields) and '"' not in body  # a quote would run into the data lines
        state["header_rows"] = int(is_header)
        return int(is_header)
    return 0
