"""Trace readers: block I/O traces into :class:`BlockTrace`, lackey into :class:`MemTrace`.

Every reader takes a *source* (a path, ``bytes`` or a binary file-like object such as a
Streamlit ``UploadedFile``), accepts gzip or zstd input (recognised by magic bytes), reads
in blocks of whole lines parsed with the pandas C engine or NumPy (so files larger than
memory stream through), and raises :class:`TraceFormatError` naming the line and field on
bad input. Common keyword options of every reader:

``name``
    Trace name (default: the file name).
``max_requests``
    Stop after this many requests / references.
``progress``
    Callable receiving the fraction of the input consumed (0..1), or the bytes consumed
    when the input size is unknown.
``chunk_bytes``
    Size of the text blocks handed to the parser [bytes].

Times are shifted so the earliest request is at 0 ns (the original origin is kept in
``meta["time_origin_ns"]``). Requests of size 0 are dropped and counted in
``meta["skipped_zero_size"]``; the format name is ``meta["format"]``.

Examples
--------
>>> t = read_trace(b"0 0 8 8 1\\n1000 0 16 8 0\\n")
>>> t.meta["format"], len(t), t.offset_bytes.tolist(), t.is_write.tolist()
('mqsim', 2, [4096, 8192], [False, True])
>>> read_trace(b"0 0 8 x 1\\n", format="mqsim")
Traceback (most recent call last):
...
models.traces._io.TraceFormatError: mqsim: line 1: field 'size_sectors' is not an integer: 'x'
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from models.traces._io import (
    CHUNK_BYTES,
    TraceFormatError,
    data_lines,
    iter_blocks,
    open_source,
    peek_text,
    source_name,
)
from models.traces.core import BlockTrace, MemTrace

__all__ = [
    "TraceFormatError",
    "FORMATS",
    "SCSI_OP_MAP",
    "TIME_UNITS",
    "read_trace",
    "detect_format",
    "read_mqsim",
    "read_disksim_validate",
    "read_spc",
    "read_msr",
    "read_blkparse",
    "read_csv_trace",
    "read_lackey",
    "parse_op_map",
]

#: Nanoseconds per unit for ``time_unit`` options. ``filetime`` is Windows FILETIME (100 ns).
TIME_UNITS: dict[str, float] = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "filetime": 100}

_READ_OPS = (0x08, 0x28, 0xA8, 0x88)  # SCSI READ(6), READ(10), READ(12), READ(16)
_WRITE_OPS = (0x0A, 0x2A, 0xAA, 0x8A)  # SCSI WRITE(6), WRITE(10), WRITE(12), WRITE(16)


def _scsi_map() -> dict[str, bool]:
    m: dict[str, bool] = {}
    for codes, w in ((_READ_OPS, False), (_WRITE_OPS, True)):
        for c in codes:
            for k in (f"{c:x}", f"{c:02x}", f"0x{c:x}", f"0x{c:02x}", str(c)):
                m[k] = w
    return m


#: SCSI opcodes (hex as ``28``/``0x28``/``2a``, or decimal ``40``/``42``) to is_write.
SCSI_OP_MAP: dict[str, bool] = _scsi_map()
_DEFAULT_OP_MAP = {"r": False, "read": False, "rd": False, "w": True, "write": True, "wr": True}


# ----------------------------------------------------------------------------- helpers
@dataclass
class _Chunk:
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


def _field_count_error(ck: _Chunk, names: list[str], sep: str, err: Exception):
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


def _read_frame(ck: _Chunk, names: list[str], sep: str, *, usecols=None, dtype=None,
                labels: dict | None = None) -> pd.DataFrame:
    """Parse ``ck.block`` with the pandas C engine (no header; rows map to data lines)."""
    body = ck.block
    try:
        df = pd.read_csv(io.BytesIO(body), sep=sep, header=None, names=names, index_col=False, usecols=usecols,
                           comment=ck.comment, engine="c", dtype=dtype, skiprows=_skiprows(ck),
                           skipinitialspace=sep != r"\s+", quoting=csv.QUOTE_NONE if dtype is str else 0)
    except pd.errors.EmptyDataError:
        return pd.DataFrame({c: pd.Series([], dtype=object) for c in (usecols or names)})
    except pd.errors.ParserError as e:
        _field_count_error(ck, names, sep, e)
    except UnicodeDecodeError as e:
        _utf8_error(ck, e)
    if dtype is None:  # every parsed field is required: report the first missing one
        na = df.isna().to_numpy()
        if na.any():
            r = int(np.argmax(na.any(axis=1)))
            col = str(df.columns[int(np.argmax(na[r]))])
            ck.fail(r, (labels or {}).get(col, col), "is missing")
    return df


def _utf8_error(ck: _Chunk, err: UnicodeDecodeError):
    """Name the first line of the block that is not valid UTF-8 (after a decode error)."""
    for i, raw in enumerate(ck.block.split(b"\n")):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as e:
            bad = raw[e.start:e.end].hex(" ")
            ck.fail_line(ck.line0 + i, f"is not valid UTF-8 text (byte(s) {bad} at column {e.start + 1})")
    raise TraceFormatError(f"{ck.fmt}: the block starting at line {ck.line0} is not valid UTF-8 text: {err}") from err


def _skiprows(ck: _Chunk):
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


_I64_MAX = 2**63 - 1


def _ints(df: pd.DataFrame, col, field: str, ck: _Chunk) -> np.ndarray:
    s = df[col]
    if pd.api.types.is_integer_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
        if pd.api.types.is_unsigned_integer_dtype(s.dtype):  # pandas reads 2**63..2**64-1 as uint64
            u = s.to_numpy(np.uint64)
            big = u > np.uint64(_I64_MAX)
            if big.any():
                r = int(np.argmax(big))
                ck.fail(r, field, f"is too large (max {_I64_MAX})", s.iloc[r])
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
        ck.fail(r, field, f"is too large (max {_I64_MAX})" if v[r] > 0 else "is below the 64-bit range", s.iloc[r])
    return v.astype(np.int64)


def _scaled(df: pd.DataFrame, col, field: str, ck: _Chunk, factor: int, *, signed: bool = False,
            unit: str = "") -> np.ndarray:
    """Integer column times ``factor`` (e.g. sectors -> bytes), checked before multiplying.

    Errors name the field's own value: negative values (unless ``signed``), and values whose
    product would not fit in int64 ("is too large (max N)", N in the field's unit).
    """
    v = _ints(df, col, field, ck)
    if not signed and (v < 0).any():
        r = int(np.argmax(v < 0))
        ck.fail(r, field, "is negative", df[col].iloc[r])
    mx = _I64_MAX // int(factor)
    big = (v > mx) | (v < -mx)
    if big.any():
        r = int(np.argmax(big))
        ck.fail(r, field, f"is too large (max {mx}{unit})", df[col].iloc[r])
    return v * np.int64(factor)


def _floats(df: pd.DataFrame, col, field: str, ck: _Chunk) -> np.ndarray:
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


def _times_ns(df, col, field, ck, unit: str) -> np.ndarray:
    """Time column converted to int64 [ns]; integers stay exact for integer unit factors."""
    if unit not in TIME_UNITS:
        raise ValueError(f"time_unit must be one of {', '.join(TIME_UNITS)} (got {unit!r})")
    f = int(TIME_UNITS[unit])  # every unit is a whole number of ns
    s = df[col]
    if pd.api.types.is_integer_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
        return _scaled(df, col, field, ck, f, signed=True, unit=f" {unit}")
    v = _floats(df, col, field, ck)
    ns = np.round(v * f)
    big = (np.abs(v) > _I64_MAX // f) | (np.abs(ns) >= 2.0**63)
    if big.any():
        r = int(np.argmax(big))
        ck.fail(r, field, f"is too large (max {_I64_MAX // f} {unit})", s.iloc[r])
    return ns.astype(np.int64)


def _ops(df, col, field: str, ck: _Chunk, mapping: dict[str, bool]) -> np.ndarray:
    s = df[col].astype("string").str.strip().str.lower()
    m = s.map(mapping)
    bad = m.isna().to_numpy()
    if bad.any():
        r = int(np.argmax(bad))
        valid = sorted(set(mapping))
        shown = ", ".join(valid[:12]) + (", ..." if len(valid) > 12 else "")
        ck.fail(r, field, f"is not a known operation ({shown})", df[col].iloc[r])
    return m.to_numpy(dtype=bool)


def _finish(ck: _Chunk, cols: dict, off_field: str, size_field: str, drop: np.ndarray | None = None) -> dict:
    """Check offsets/sizes, drop zero-size rows (counted) and rows in ``drop``."""
    off, size = cols["offset_bytes"], cols["size_bytes"]
    if (off < 0).any():
        r = int(np.argmax(off < 0))
        ck.fail(r, off_field, "is negative", str(off[r]))
    if (size < 0).any():
        r = int(np.argmax(size < 0))
        ck.fail(r, size_field, "is negative", str(size[r]))
    past = off > _I64_MAX - size  # the request would end beyond the int64 byte range
    if past.any():
        r = int(np.argmax(past))
        ck.fail(r, off_field, f"plus the request size ends beyond {_I64_MAX} bytes", f"{off[r]} + {size[r]} bytes")
    keep = size > 0
    cols["_zero"] = int((~keep).sum()) - (int((~keep & drop).sum()) if drop is not None else 0)
    if drop is not None:
        keep &= ~drop
    if not keep.all():
        cols = {k: (v[keep] if isinstance(v, np.ndarray) else v) for k, v in cols.items()}
    return cols


def _drive(src, parse: Callable, *, fmt: str, name: str | None, max_requests: int | None,
           progress, chunk_bytes: int, kind: str = "block", meta: dict | None = None):
    """Run ``parse(chunk, state) -> dict of arrays`` over the blocks of ``src``; build the trace."""
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
    if kind == "mem":
        if not parts:
            return MemTrace(np.zeros(0, np.uint64), np.zeros(0, np.uint16), np.zeros(0, np.uint8), name=trace_name,
                            meta=meta)
        cat = {k: np.concatenate([p[k] for p in parts])[:max_requests] for k in parts[0]}
        return MemTrace(cat["address"], cat["size"], cat["kind"], name=trace_name, meta=meta)
    if not parts:
        t = BlockTrace.empty(trace_name)
        return BlockTrace(t.time_ns, t.is_write, t.offset_bytes, t.size_bytes, t.device, name=trace_name,
                          meta=dict(meta, skipped_zero_size=zero, time_origin_ns=0))
    cat = {k: np.concatenate([p[k] for p in parts])[:max_requests] for k in parts[0]}
    t = cat["time_ns"]
    origin = int(t.min())
    if int(t.max()) - origin > _I64_MAX:
        raise TraceFormatError(f"{fmt}: the arrival times span more than {_I64_MAX} ns (int64); check the time unit")
    for k in [k for k in cat if k.startswith("meta:")]:
        meta[k[5:]] = cat.pop(k)
    # readers whose absolute times do not fit in int64 ns (MSR FILETIME) shift them first
    meta.update(skipped_zero_size=zero, time_origin_ns=origin + int(state.get("time_offset_ns", 0)))
    meta.update(state.get("meta", {}))
    return BlockTrace(t - origin, cat["is_write"], cat["offset_bytes"], cat["size_bytes"], cat["device"],
                      name=trace_name, meta=meta)


def _common(kw: dict) -> dict:
    return dict(name=kw.get("name"), max_requests=kw.get("max_requests"), progress=kw.get("progress"),
                chunk_bytes=kw.get("chunk_bytes") or CHUNK_BYTES)


# ----------------------------------------------------------------------------- MQSim / DiskSim ASCII
_MQSIM = ["arrival_ns", "device", "lba_sector", "size_sectors", "type"]


def read_mqsim(src, *, time_unit: str = "ns", sector_size: int = 512, name: str | None = None,
               max_requests: int | None = None, progress=None, chunk_bytes: int = CHUNK_BYTES) -> BlockTrace:
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

    Returns
    -------
    BlockTrace

    References
    ----------
    MQSim, github.com/CMU-SAFARI/MQSim, ``src/host/IO_Flow_Trace_Based.cpp`` (ASCII trace format).
    """
    _check_sector(sector_size)

    def parse(block, line0, state):
        ck = _Chunk("mqsim", block, line0)
        df = _read_frame(ck, _MQSIM, r"\s+")
        typ = _ints(df, "type", "type", ck)
        bad = (typ != 0) & (typ != 1)
        if bad.any():
            r = int(np.argmax(bad))
            ck.fail(r, "type", "must be 1 (read) or 0 (write)", str(typ[r]))
        cols = {
            "time_ns": _times_ns(df, "arrival_ns", "arrival_ns", ck, time_unit),
            "is_write": typ == 0,
            "offset_bytes": _scaled(df, "lba_sector", "lba_sector", ck, sector_size),
            "size_bytes": _scaled(df, "size_sectors", "size_sectors", ck, sector_size),
            "device": _ints(df, "device", "device", ck),
        }
        return _finish(ck, cols, "lba_sector", "size_sectors")

    return _drive(src, parse, fmt="mqsim", name=name, max_requests=max_requests, progress=progress,
                  chunk_bytes=chunk_bytes, meta={"sector_size": sector_size})


def _check_sector(sector_size: int) -> None:
    if not isinstance(sector_size, (int, np.integer)) or sector_size < 1:
        raise ValueError(f"sector_size must be a positive integer [bytes] (got {sector_size!r})")


_DISKSIM = ["op", "cache", "lbn", "nsectors", "service_us", "interarrival_us"]


def read_disksim_validate(src, *, sector_size: int = 512, name: str | None = None, max_requests: int | None = None,
                          progress=None, chunk_bytes: int = CHUNK_BYTES) -> BlockTrace:
    """Read a DiskSim validation trace (``R|W Hit|Miss lbn nsectors service_us interarrival_us``).

    These traces (DiskSim ``valid/*.trace``) record a measured drive's service time per
    request. Arrival times are the cumulative sum of the interarrival column; the measured
    service times go to ``meta["service_us"]`` [us], the interarrival times to
    ``meta["interarrival_us"]`` [us] and the drive-cache label (Hit, Miss, Doub, Trip) to
    ``meta["cache"]``. Sectors are 512 bytes.

    References
    ----------
    Bucy, Schindler, Schlosser, Ganger, "The DiskSim Simulation Environment Version 4.0
    Reference Manual", CMU-PDL-08-101, 2008 (validation traces).
    """
    _check_sector(sector_size)

    def parse(block, line0, state):
        ck = _Chunk("disksim", block, line0)
        df = _read_frame(ck, _DISKSIM, r"\s+")
        op = _ops(df, "op", "op", ck, {"r": False, "w": True})
        inter = _floats(df, "interarrival_us", "interarrival_us", ck)
        if (inter < 0).any():
            r = int(np.argmax(inter < 0))
            ck.fail(r, "interarrival_us", "is negative", str(inter[r]))
        service = _floats(df, "service_us", "service_us", ck)
        if (service < 0).any():
            r = int(np.argmax(service < 0))
            ck.fail(r, "service_us", "is negative", str(service[r]))
        t_us = np.cumsum(inter) + state.get("t_us", 0.0)
        late = ~(np.round(t_us * 1e3) < 2.0**63)
        if late.any():
            r = int(np.argmax(late))
            ck.fail(r, "interarrival_us", f"makes the arrival time exceed {_I64_MAX // 1000} us", df["interarrival_us"].iloc[r])
        if len(t_us):
            state["t_us"] = float(t_us[-1])
        cache = df["cache"].astype("string").to_numpy(dtype=object, na_value="")
        cols = {
            "time_ns": np.round(t_us * 1e3).astype(np.int64),
            "is_write": op,
            "offset_bytes": _scaled(df, "lbn", "lbn", ck, sector_size),
            "size_bytes": _scaled(df, "nsectors", "nsectors", ck, sector_size),
            "device": np.zeros(len(df), np.int32),
            "meta:service_us": service,
            "meta:interarrival_us": inter,
            "meta:cache": cache.astype(str),
        }
        return _finish(ck, cols, "lbn", "nsectors")

    return _drive(src, parse, fmt="disksim", name=name, max_requests=max_requests, progress=progress,
                  chunk_bytes=chunk_bytes, meta={"sector_size": sector_size})


# ----------------------------------------------------------------------------- UMass SPC, MSR Cambridge
_SPC = ["asu", "lba", "size", "opcode", "timestamp"]


def read_spc(src, *, sector_size: int = 512, name: str | None = None, max_requests: int | None = None,
             progress=None, chunk_bytes: int = CHUNK_BYTES) -> BlockTrace:
    """Read a UMass Trace Repository SPC trace (``ASU,LBA,size,opcode,timestamp``).

    ``LBA`` is in 512-byte sectors, ``size`` in bytes, ``opcode`` r/R/w/W, ``timestamp`` in
    seconds. The ASU (application storage unit) becomes the device number.

    References
    ----------
    UMass Trace Repository, "OLTP Application I/O" (Financial1/2) and "Search Engine I/O"
    (WebSearch1-3) trace format description, traces.cs.umass.edu.
    """
    _check_sector(sector_size)

    def parse(block, line0, state):
        ck = _Chunk("spc", block, line0)
        df = _read_frame(ck, _SPC, ",")
        cols = {
            "time_ns": _times_ns(df, "timestamp", "timestamp", ck, "s"),
            "is_write": _ops(df, "opcode", "opcode", ck, {"r": False, "w": True}),
            "offset_bytes": _scaled(df, "lba", "lba", ck, sector_size),
            "size_bytes": _ints(df, "size", "size", ck),
            "device": _ints(df, "asu", "asu", ck),
        }
        return _finish(ck, cols, "lba", "size")

    return _drive(src, parse, fmt="spc", name=name, max_requests=max_requests, progress=progress,
                  chunk_bytes=chunk_bytes, meta={"sector_size": sector_size})


_MSR = ["timestamp", "hostname", "disk", "type", "offset", "size", "response_time"]


def read_msr(src, *, name: str | None = None, max_requests: int | None = None, progress=None,
             chunk_bytes: int = CHUNK_BYTES) -> BlockTrace:
    """Read an MSR Cambridge trace (``Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime``).

    ``Timestamp`` and ``ResponseTime`` are Windows FILETIME ticks (100 ns), ``Type`` is Read or
    Write, ``Offset`` and ``Size`` are bytes. The disk number becomes the device; the response
    times go to ``meta["response_ns"]`` [ns] and the host name to ``meta["hostname"]``.

    References
    ----------
    Narayanan, Donnelly, Rowstron, "Write Off-Loading: Practical Power Management for
    Enterprise Storage", USENIX FAST 2008 (SNIA IOTTA MSR Cambridge traces).
    """

    def parse(block, line0, state):
        ck = _Chunk("msr", block, line0)
        df = _read_frame(ck, _MSR, ",")
        if "hostname" not in state.setdefault("meta", {}) and len(df):
            state["meta"]["hostname"] = str(df["hostname"].iloc[0])
        cols = {
            "time_ns": _filetime_ns(df, ck, state),
            "is_write": _ops(df, "type", "type", ck, {"read": False, "write": True}),
            "offset_bytes": _ints(df, "offset", "offset", ck),
            "size_bytes": _ints(df, "size", "size", ck),
            "device": _ints(df, "disk", "disk", ck),
            "meta:response_ns": _scaled(df, "response_time", "response_time", ck, 100, signed=True,
                                        unit=" (100 ns)"),
        }
        return _finish(ck, cols, "offset", "size")

    return _drive(src, parse, fmt="msr", name=name, max_requests=max_requests, progress=progress,
                  chunk_bytes=chunk_bytes)


# ----------------------------------------------------------------------------- blkparse
_BLK = ["dev", "cpu", "seq", "time", "pid", "action", "rwbs", "sector", "plus", "count"]


def read_blkparse(src, *, action: str = "Q", name: str | None = None, max_requests: int | None = None,
                  progress=None, chunk_bytes: int = CHUNK_BYTES) -> BlockTrace:
    """Read blkparse's default text output, keeping the events of one ``action``.

    Event lines look like ``8,0 3 1 0.000000000 697 Q R 223490 + 8 [kjournald]``: device
    major,minor, CPU, sequence, time [s], PID, action, RWBS, sector + count (512-byte
    sectors). Only events of ``action`` (default ``Q``, queued; ``D`` issued, ``C`` completed)
    with a ``sector + count`` are kept; RWBS containing ``D`` (discard) is skipped, containing
    ``W`` is a write, containing ``R`` a read (others such as flush-only are skipped). Message
    and summary lines are ignored. Devices are numbered 0.. in order of appearance
    (``meta["devices"]`` maps the numbers to ``major,minor``).

    References
    ----------
    blkparse(1) manual, blktrace package (default output format ``%D %2c %8s %5T.%9t %5p %2a %3d``).
    """
    action = str(action).strip()
    if not re.fullmatch(r"[A-Za-z]{1,2}", action):
        raise ValueError(f"action must be a blktrace action letter such as Q, D or C (got {action!r})")

    def parse(block, line0, state):
        ck = _Chunk("blkparse", block, line0, comment=None)
        df = _read_frame(ck, _BLK, r"\s+", usecols=_BLK, dtype=str)
        if not len(df):
            return None
        is_ev = df["dev"].str.fullmatch(r"\d+,\d+", na=False) & (df["action"] == action) & (df["plus"] == "+")
        rwbs = df["rwbs"].fillna("")
        keep = (is_ev & ~rwbs.str.contains("D", regex=False) & rwbs.str.contains("[RW]", regex=True)).to_numpy()
        idx = np.flatnonzero(keep)
        sub = df.iloc[idx].reset_index(drop=True)
        sub_ck = _SubChunk(ck, idx)
        devs = state.setdefault("devs", {})
        codes, uniq = pd.factorize(sub["dev"])
        remap = np.array([devs.setdefault(u, len(devs)) for u in uniq], dtype=np.int32)
        state.setdefault("meta", {})["devices"] = list(devs)
        cols = {
            "time_ns": _times_ns(sub, "time", "time", sub_ck, "s"),
            "is_write": sub["rwbs"].str.contains("W", regex=False).to_numpy(dtype=bool),
            "offset_bytes": _scaled(sub, "sector", "sector", sub_ck, 512),
            "size_bytes": _scaled(sub, "count", "count", sub_ck, 512),
            "device": remap[codes] if len(codes) else np.zeros(0, np.int32),
        }
        return _finish(sub_ck, cols, "sector", "count")

    return _drive(src, parse, fmt="blkparse", name=name, max_requests=max_requests, progress=progress,
                  chunk_bytes=chunk_bytes, meta={"action": action})


def _filetime_ns(df: pd.DataFrame, ck: _Chunk, state: dict) -> np.ndarray:
    """MSR FILETIME ticks (100 ns since 1601) -> ns relative to the earliest tick of the first block.

    Absolute FILETIME in ns (~1.3e19) exceeds int64, so ticks are shifted before scaling; the
    shift goes to ``meta["time_origin_ns"]`` through ``state["time_offset_ns"]``.
    """
    ticks = _ints(df, "timestamp", "timestamp", ck)
    if (ticks < 0).any():
        r = int(np.argmax(ticks < 0))
        ck.fail(r, "timestamp", "is negative", df["timestamp"].iloc[r])
    if "tick0" not in state and len(ticks):
        state["tick0"] = int(ticks.min())
        state["time_offset_ns"] = state["tick0"] * 100
    rel = ticks - np.int64(state.get("tick0", 0))
    mx = _I64_MAX // 100
    far = (rel > mx) | (rel < -mx)
    if far.any():
        r = int(np.argmax(far))
        ck.fail(r, "timestamp", f"is too far from the earliest timestamp (max span {mx} ticks of 100 ns)",
                df["timestamp"].iloc[r])
    return rel * np.int64(100)


class _SubChunk(_Chunk):
    """A chunk whose frame rows are a selection (``rows``) of the block's data rows."""

    def __init__(self, ck: _Chunk, rows: np.ndarray):
        super().__init__(ck.fmt, ck.block, ck.line0, ck.comment, ck.skip_first)
        self.rows = rows

    def line_of(self, row: int) -> int | None:
        return super().line_of(int(self.rows[row])) if 0 <= row < len(self.rows) else None


# ----------------------------------------------------------------------------- generic CSV
def parse_op_map(spec: str | dict | None) -> dict[str, bool]:
    """Normalise an operation map: raw op value (case-insensitive) -> is_write.

    ``spec`` is a dict (values bool or ``"read"``/``"write"``), a string
    ``"R=read,W=write"`` / ``"28=read,2a=write"``, ``"scsi"`` for :data:`SCSI_OP_MAP`, or None
    for the default (r/read/rd, w/write/wr).

    >>> parse_op_map("R=read,W=write")
    {'r': False, 'w': True}
    >>> parse_op_map("scsi")["0x2a"], parse_op_map({"28": False, "2A": True})["2a"]
    (True, True)
    """
    if spec is None:
        return dict(_DEFAULT_OP_MAP)
    if isinstance(spec, str):
        if spec.strip().lower() == "scsi":
            return dict(SCSI_OP_MAP)
        items = {}
        for part in spec.split(","):
            if not part.strip():
                continue
            if "=" not in part:
                raise ValueError(f"op_map entry {part.strip()!r} must look like CODE=read or CODE=write")
            k, v = part.split("=", 1)
            items[k] = v
        spec = items
    out: dict[str, bool] = {}
    for k, v in dict(spec).items():
        if isinstance(v, str):
            vv = v.strip().lower()
            if vv in ("read", "r"):
                v = False
            elif vv in ("write", "w"):
                v = True
            else:
                raise ValueError(f"op_map value for {k!r} must be read or write (got {v!r})")
        out[str(k).strip().lower()] = bool(v)
    if not out:
        raise ValueError("op_map is empty")
    return out


def _split_header(line: str, sep: str) -> list[str]:
    if sep == r"\s+":
        return line.split()
    try:
        return [c.strip() for c in next(csv.reader([line], delimiter=sep))]
    except csv.Error as e:
        raise ValueError(f"csv: header line cannot be split with separator {sep!r}: {e}") from None


def _resolve(ref, names: list[str], what: str) -> int:
    if isinstance(ref, (int, np.integer)) and not isinstance(ref, bool):
        if not 0 <= ref < len(names):
            raise ValueError(f"{what} index {ref} out of range (the file has {len(names)} columns)")
        return int(ref)
    s = str(ref).strip()
    if s in names:
        return names.index(s)
    low = [n.lower() for n in names]
    if s.lower() in low:
        return low.index(s.lower())
    if s.isdigit() and int(s) < len(names):
        return int(s)
    raise ValueError(f"{what} {ref!r} not found; columns: {', '.join(names)}")


def read_csv_trace(src, *, size_col=None, offset_col=None, lba_col=None, time_col=None, op_col=None, device_col=None,
                   sector_size: int = 512, size_unit: str = "bytes", time_unit: str = "s",
                   op_map: str | dict | None = None, header: bool = True, sep: str = ",", name: str | None = None,
                   max_requests: int | None = None, progress=None, chunk_bytes: int = CHUNK_BYTES) -> BlockTrace:
    """Read a delimited text trace with a column mapping.

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain, gzip or zstd).
    size_col, offset_col, lba_col, time_col, op_col, device_col : str or int
        Column names (with a header) or 0-based indexes. Give ``offset_col`` (bytes) or
        ``lba_col`` (sectors of ``sector_size``). Without ``time_col`` the request index is
        used as time [ns]; without ``op_col`` every request is a read.
    sector_size : int
        Sector size [bytes] for ``lba_col`` and ``size_unit="sectors"``.
    size_unit : {"bytes", "sectors"}
        Unit of the size column.
    time_unit : {"ns", "us", "ms", "s", "filetime"}
        Unit of the time column.
    op_map : dict, str or None
        Operation codes, see :func:`parse_op_map` (e.g. ``"R=read,W=write"`` or ``"scsi"``).
    header : bool
        Whether the first non-blank line is a header.
    sep : str
        Field separator (``","``, ``";"``, ``"\\t"``, or ``"whitespace"``).

    Returns
    -------
    BlockTrace

    Examples
    --------
    >>> t = read_csv_trace(b"t,op,lba,len\\n0.5,2a,100,8\\n", time_col="t", op_col="op", lba_col="lba",
    ...                    size_col="len", size_unit="sectors", op_map="scsi")
    >>> t.is_write.tolist(), t.offset_bytes.tolist(), t.size_bytes.tolist()
    ([True], [51200], [4096])
    """
    _check_sector(sector_size)
    if size_col is None:
        raise ValueError("a generic CSV trace needs a column mapping: size_col (--size-col) and offset_col "
                         "(--offset-col, bytes) or lba_col (--lba-col, sectors); names or 0-based indexes")
    if (offset_col is None) == (lba_col is None):
        raise ValueError("give exactly one of offset_col (bytes) or lba_col (sectors)")
    if size_unit not in ("bytes", "sectors"):
        raise ValueError(f"size_unit must be 'bytes' or 'sectors' (got {size_unit!r})")
    if time_unit not in TIME_UNITS:
        raise ValueError(f"time_unit must be one of {', '.join(TIME_UNITS)} (got {time_unit!r})")
    if sep in ("whitespace", " ", r"\s+"):
        sep = r"\s+"
    elif sep in ("tab", r"\t"):
        sep = "\t"
    if sep != r"\s+" and len(sep) != 1:
        raise ValueError(f"sep must be one character or 'whitespace' (got {sep!r})")
    ops = parse_op_map(op_map) if op_col is not None else {}
    size_mult = sector_size if size_unit == "sectors" else 1

    def setup(block: bytes, state) -> None:
        first = next((ln for _, ln in data_lines(block, 1, comment=None)), None)
        if first is None:
            return
        names = _split_header(first, sep)
        if not header:
            names = [str(i) for i in range(len(names))]
        want = {"size": size_col, "offset": offset_col, "lba": lba_col, "time": time_col, "op": op_col,
                "device": device_col}
        idx = {k: _resolve(v, names, f"{k}_col") for k, v in want.items() if v is not None}
        state.update(names=names, idx=idx, field={k: names[i] for k, i in idx.items()})

    def parse(block, line0, state):
        if "names" not in state:
            setup(block, state)
            if "names" not in state:
                return None
            skip = 1 if header else 0
        else:
            skip = 0
        names, idx, field = state["names"], state["idx"], state["field"]
        ck = _Chunk("csv", block, line0, comment=None, skip_first=skip)
        pos = [str(i) for i in range(len(names))]
        df = _read_frame(ck, pos, sep, usecols=sorted({pos[i] for i in idx.values()}),
                         labels={pos[i]: names[i] for i in idx.values()})
        c = {k: pos[i] for k, i in idx.items()}
        n = len(df)
        if "offset" in c:
            off = _ints(df, c["offset"], field["offset"], ck)
        else:
            off = _scaled(df, c["lba"], field["lba"], ck, sector_size)
        if "time" in c:
            t = _times_ns(df, c["time"], field["time"], ck, time_unit)
        else:
            t = np.arange(state.get("row", 0), state.get("row", 0) + n, dtype=np.int64)
        state["row"] = state.get("row", 0) + n
        cols = {
            "time_ns": t,
            "is_write": _ops(df, c["op"], field["op"], ck, ops) if "op" in c else np.zeros(n, bool),
            "offset_bytes": off,
            "size_bytes": _scaled(df, c["size"], field["size"], ck, size_mult),
            "device": _ints(df, c["device"], field["device"], ck) if "device" in c else np.zeros(n, np.int32),
        }
        return _finish(ck, cols, field.get("offset", field.get("lba")), field["size"])

    return _drive(src, parse, fmt="csv", name=name, max_requests=max_requests, progress=progress,
                  chunk_bytes=chunk_bytes, meta={"sector_size": sector_size})


# ----------------------------------------------------------------------------- valgrind lackey
_HEX = np.full(256, 255, np.uint8)
for _i, _c in enumerate(b"0123456789abcdef"):
    _HEX[_c] = _i
for _i, _c in enumerate(b"ABCDEF"):
    _HEX[_c] = 10 + _i
_KIND_OF = np.full(256, 255, np.uint8)
for _i, _c in enumerate(b"ILSM"):
    _KIND_OF[_c] = _i


def _window_value(buf: np.ndarray, start: np.ndarray, stop: np.ndarray, width: int, base: int):
    """Values of the digit strings ``buf[start:stop]`` (per row) and a per-row validity mask.

    Strings longer than ``width`` digits are invalid. Works column by column over the
    longest string present, so the usual 8-digit addresses cost 8 vectorised passes.
    """
    ln = stop - start
    ok = (ln >= 1) & (ln <= width)
    w = int(min(width, ln.max())) if len(ln) else 0
    val = np.zeros(len(start), np.uint64)
    ub = np.uint64(base)
    for j in range(w, 0, -1):  # j-th digit from the right end
        pos = stop - j
        inside = pos >= start
        dig = _HEX[buf[np.maximum(pos, 0)]]
        ok &= ~(inside & (dig >= base))
        val = np.where(inside, val * ub + np.minimum(dig, base - 1).astype(np.uint64), val)
    return val, ok


def _parse_lackey_block(block: bytes, line0: int):
    if not block.endswith(b"\n"):
        block += b"\n"
    buf = np.frombuffer(block, np.uint8)
    nl = np.flatnonzero(buf == 10)
    starts = np.concatenate(([0], nl[:-1] + 1))
    ends = nl.copy()
    cr = (ends > starts) & (buf[np.maximum(ends - 1, 0)] == 13)
    ends[cr] -= 1
    ln = ends - starts
    pad = np.concatenate((buf, np.zeros(4, np.uint8)))
    c0, c1, c2 = pad[starts], pad[starts + 1], pad[starts + 2]
    rec = (ln >= 3) & (c2 == 32) & (((c0 == ord("I")) & (c1 == 32)) | ((c0 == 32) & np.isin(c1, [76, 83, 77])))
    r = np.flatnonzero(rec)
    empty = (np.zeros(0, np.uint64), np.zeros(0, np.uint16), np.zeros(0, np.uint8))
    if not len(r):
        return empty
    s, e = starts[r], ends[r]
    kind = _KIND_OF[np.where(c0[r] == ord("I"), c0[r], c1[r])]
    a0 = s + 3
    # skip extra blanks before the address (lackey pads "I  addr")
    for _ in range(4):
        sp = (a0 < e) & (buf[np.minimum(a0, len(buf) - 1)] == 32)
        if not sp.any():
            break
        a0 = a0 + sp
    commas = np.flatnonzero(buf == 44)
    k = np.searchsorted(commas, a0)
    comma = np.where(k < len(commas), commas[np.minimum(k, max(len(commas) - 1, 0))] if len(commas) else e, e)
    has_comma = comma < e
    addr, ok_a = _window_value(buf, a0, np.where(has_comma, comma, e), 16, 16)
    size, ok_s = _window_value(buf, comma + 1, e, 5, 10)
    bad_a = ~(has_comma & ok_a)
    bad_s = ~ok_s | bad_a
    if bad_a.any() or bad_s.any():
        first_a = int(np.argmax(bad_a)) if bad_a.any() else len(r)
        first_s = int(np.argmax(bad_s & ~bad_a)) if (bad_s & ~bad_a).any() else len(r)
        i = min(first_a, first_s)
        line = line0 + int(r[i])
        text = block[s[i]:e[i]].decode("utf-8", errors="replace")
        if i == first_a:
            what = "field 'address' is not a hexadecimal address" if has_comma[i] else "missing ',size' after the address"
            field = "address"
        else:
            what, field = "field 'size' is not a decimal size [bytes]", "size"
        raise TraceFormatError(f"lackey: line {line}: {what}: {text!r}", line=line, field=field)
    if (size > 65535).any():
        i = int(np.argmax(size > 65535))
        raise TraceFormatError(f"lackey: line {line0 + int(r[i])}: field 'size' is larger than 65535 bytes",
                               line=line0 + int(r[i]), field="size")
    return addr, size.astype(np.uint16), kind


def read_lackey(src, *, name: str | None = None, max_requests: int | None = None, progress=None,
                chunk_bytes: int = CHUNK_BYTES) -> MemTrace:
    """Read a valgrind ``--tool=lackey --trace-mem=yes`` trace into a :class:`MemTrace`.

    Records are ``I  0400d7d4,8`` (instruction fetch) and `` L|S|M 04222cac,8`` (load, store,
    modify) with a hexadecimal address and a decimal size [bytes]. ``==PID==`` lines and other
    program output are ignored. Parsed with NumPy over the raw bytes (no per-line Python).

    References
    ----------
    Valgrind User Manual, "Lackey: an example tool" (``--trace-mem=yes`` output format).

    Examples
    --------
    >>> m = read_lackey(b"==1== Lackey\\nI  0400d7d4,8\\n L 04222cac,4\\n M 0421,2\\nhello\\n")
    >>> [hex(a) for a in m.address.tolist()], m.kind.tolist(), m.size.tolist()
    (['0x400d7d4', '0x4222cac', '0x421'], [0, 1, 3], [8, 4, 2])
    """

    def parse(block, line0, state):
        a, s, k = _parse_lackey_block(block, line0)
        return {"address": a, "size": s, "kind": k}

    return _drive(src, parse, fmt="lackey", name=name, max_requests=max_requests, progress=progress,
                  chunk_bytes=chunk_bytes, kind="mem")


# ----------------------------------------------------------------------------- registry / detection
@dataclass(frozen=True)
class TraceFormat:
    """A registered trace format: name, kind ("block" or "mem"), reader and a one-line description."""

    name: str
    kind: str
    reader: Callable
    description: str
    pattern: str | None = None


FORMATS: dict[str, TraceFormat] = {
    f.name: f
    for f in [
        TraceFormat("mqsim", "block", read_mqsim, "MQSim/DiskSim ASCII: arrival_ns device lba_sector size_sectors "
                    "type(1=read,0=write)", r"^\s*\d+(\.\d+)?\s+\d+\s+\d+\s+\d+\s+[01]\s*$"),
        TraceFormat("disksim", "block", read_disksim_validate, "DiskSim validation: R|W Hit|Miss lbn nsectors "
                    "service_us interarrival_us", r"^\s*[RW]\s+[A-Za-z]+\s+\d+\s+\d+\s+[\d.]+\s+[\d.]+\s*$"),
        TraceFormat("spc", "block", read_spc, "UMass SPC: ASU,LBA,size,opcode,timestamp",
                    r"^\s*\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*[rRwW]\s*,\s*[\d.]+\s*$"),
        TraceFormat("msr", "block", read_msr, "MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,"
                    "ResponseTime", r"(?i)^\s*\d+,[^,]*,\d+,(read|write),\d+,\d+,\d+\s*$"),
        TraceFormat("blkparse", "block", read_blkparse, "blkparse text output (action Q by default)",
                    r"^\s*\d+,\d+\s+\d+\s+\d+\s+\d+\.\d+\s+\d+\s+[A-Za-z]{1,2}\b"),
        TraceFormat("csv", "block", read_csv_trace, "generic delimited text with a column mapping"),
        TraceFormat("lackey", "mem", read_lackey, "valgrind lackey: 'I  addr,size' / ' L|S|M addr,size'",
                    r"^(I |\s[LSM]) \s*[0-9a-fA-F]+,\d+\s*$"),
    ]
}

_CSV_GUESS = {
    "time": ("timestamp", "time", "ts", "time_ns", "time_us", "time_ms", "time_s", "arrival", "arrival_time"),
    "op": ("op", "type", "opcode", "rw", "operation", "cmd", "iotype", "io_type", "is_write"),
    "offset": ("offset", "offset_bytes", "byte_offset", "address"),
    "lba": ("lba", "lbn", "sector", "block", "lba_sector"),
    "size": ("size", "size_bytes", "length", "len", "bytes", "nbytes", "size_sectors", "nsectors", "blocks"),
}


def _guess_csv(text: str) -> dict | None:
    """Column mapping for a CSV with a recognisable header, or None."""
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    if "," not in first:
        return None
    names = [c.strip().lower() for c in next(csv.reader([first]))]
    if not any(re.search("[a-z]", n) for n in names):
        return None
    found = {}
    for role, cands in _CSV_GUESS.items():
        for c in cands:
            if c in names:
                found[role] = names.index(c)
                break
    if "size" not in found or ("offset" not in found and "lba" not in found):
        return None
    opts: dict = {"size_col": found["size"], "header": True}
    if "offset" in found:
        opts["offset_col"] = found["offset"]
    else:
        opts["lba_col"] = found["lba"]
    if names[found["size"]] in ("size_sectors", "nsectors", "blocks"):
        opts["size_unit"] = "sectors"
    if "time" in found:
        opts["time_col"] = found["time"]
        tn = names[found["time"]]
        opts["time_unit"] = next((u for u in ("ns", "us", "ms") if tn.endswith("_" + u)), "s")
    if "op" in found:
        opts["op_col"] = found["op"]
        if names[found["op"]] == "is_write":
            opts["op_map"] = {"0": False, "1": True, "false": False, "true": True}
    return opts


def detect_format(src) -> str:
    """Name of the format of ``src``, sniffed from its first lines (see :data:`FORMATS`).

    >>> detect_format(b"W Hit    4583176   4    663.00000  45422.00000\\n")
    'disksim'
    >>> detect_format(b"==12== Lackey\\nI  0400d7d4,8\\n")
    'lackey'
    """
    text = peek_text(src)
    return _detect(text)[0]


def _detect(text: str) -> tuple[str, dict]:
    lines = text.splitlines()
    if len(lines) > 1 and not text.endswith("\n"):
        lines = lines[:-1]  # the last line may be cut by the peek
    lines = [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")][:60]
    if not lines:
        raise TraceFormatError("cannot detect the trace format: the input is empty")
    lack = [ln for ln in lines if not re.match(r"^==\d+==", ln)]
    pat = re.compile(FORMATS["lackey"].pattern)
    if lack and sum(bool(pat.match(ln)) for ln in lack) >= 0.6 * len(lack):
        return "lackey", {}
    if not lack:
        return "lackey", {}
    for name in ("blkparse", "disksim", "mqsim", "msr", "spc"):
        pat = re.compile(FORMATS[name].pattern)
        hits = sum(bool(pat.match(ln)) for ln in lines)
        if hits >= 0.8 * len(lines) or (name == "blkparse" and pat.match(lines[0]) and hits >= 0.5 * len(lines)):
            return name, {}
    guess = _guess_csv(text)
    if guess is not None:
        return "csv", guess
    raise TraceFormatError(
        "cannot detect the trace format from its first lines "
        f"(first line: {lines[0][:80]!r}); choose one of: {', '.join(FORMATS)} "
        "(for a generic CSV give the column mapping: time_col, op_col, offset_col or lba_col, size_col)")


def read_trace(src, format: str = "auto", **options) -> BlockTrace | MemTrace:
    """Read a trace in any registered format; ``format="auto"`` sniffs it from the first lines.

    ``options`` go to the format's reader (``name``, ``max_requests``, ``progress``,
    ``chunk_bytes`` for all; column options for ``csv``; ``time_unit`` for ``mqsim``;
    ``action`` for ``blkparse``). Returns a :class:`BlockTrace`, or a :class:`MemTrace` for
    lackey.
    """
    fmt = str(format or "auto").strip().lower()
    extra: dict = {}
    if fmt == "auto":
        if any(k in options for k in ("size_col", "offset_col", "lba_col")):
            fmt = "csv"
        else:
            fmt, extra = _detect(peek_text(src))
    if fmt not in FORMATS:
        raise KeyError(f"unknown trace format {format!r}; valid formats: auto, {', '.join(FORMATS)}")
    opts = {**extra, **{k: v for k, v in options.items() if v is not None}}
    import inspect

    params = inspect.signature(FORMATS[fmt].reader).parameters
    unknown = [k for k in opts if k not in params]
    if unknown:
        raise ValueError(f"option(s) {', '.join(unknown)} not valid for format {fmt!r}; valid: "
                         f"{', '.join(p for p in params if p != 'src')}")
    return FORMATS[fmt].reader(src, **opts)
