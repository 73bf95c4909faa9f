"""Generic delimited text block traces read through a column mapping.

The mapping names (or numbers) the columns holding the size and the byte offset or LBA,
optionally the time, the operation and the device. :func:`guess_columns` proposes a mapping
from a recognisable header line (used by format detection).
"""

from __future__ import annotations

import csv
import re

import numpy as np

from models.traces.core import BlockTrace
from models.traces.formats.parsing import (
    TIME_UNITS,
    Chunk,
    _utf8_error,
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
from models.traces.source import (
    CHUNK_BYTES,
    MAX_INPUT_BYTES,
    MAX_LINE_BYTES,
    TraceFormatError,
    data_lines,
    quote,
)

__all__ = ["read_csv_trace", "parse_op_map", "guess_columns", "SCSI_OP_MAP", "DESCRIPTION"]

DESCRIPTION = "generic delimited text with a column mapping"

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

#: Header names recognised by :func:`guess_columns`, per role.
_HEADER_NAMES = {
    "time": ("timestamp", "time", "ts", "time_ns", "time_us", "time_ms", "time_s", "arrival", "arrival_time"),
    "op": ("op", "type", "opcode", "rw", "operation", "cmd", "iotype", "io_type", "is_write"),
    "offset": ("offset", "offset_bytes", "byte_offset", "address"),
    "lba": ("lba", "lbn", "sector", "block", "lba_sector"),
    "size": ("size", "size_bytes", "length", "len", "bytes", "nbytes", "size_sectors", "nsectors", "blocks"),
}


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


def guess_columns(text: str) -> dict | None:
    """Column mapping (reader options) for a comma-separated text with a recognisable header, or None.

    >>> guess_columns("time_ms,op,lba,nsectors\\n1,R,8,8\\n")
    {'size_col': 3, 'header': True, 'lba_col': 2, 'size_unit': 'sectors', 'time_col': 0, 'time_unit': 'ms', 'op_col': 1}
    """
    first = next((ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")
    if "," not in first:
        return None
    names = [c.strip().lower() for c in next(csv.reader([first]))]
    if not any(re.search("[a-z]", n) for n in names):
        return None
    found = {}
    for role, cands in _HEADER_NAMES.items():
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


def _split_header(line: str, sep: str) -> list[str]:
    if line.count('"') % 2:  # pandas would let the quote run into the data lines (chunk-size dependent)
        raise TraceFormatError(f"csv: the first line has an unbalanced quote '\"' (a quoted field must close on "
                               f"the same line): {quote(line)}", line=None)
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
    cols = ", ".join(names)
    cols = cols if len(cols) <= 200 else f"{cols[:200]}... ({len(names)} columns)"
    raise ValueError(f"{what} {quote(str(ref))} not found; columns: {cols}")


def _separator(sep: str) -> str:
    if sep in ("whitespace", " ", r"\s+"):
        return r"\s+"
    if sep in ("tab", r"\t"):
        return "\t"
    if len(sep) != 1:
        raise ValueError(f"sep must be one character or 'whitespace' (got {sep!r})")
    return sep


def _op_column(df, col, field: str, ck, ops: dict, default: bool) -> np.ndarray:
    """:func:`op_column`; with the default op codes, a value that is a SCSI opcode (e.g. libCacheSim's ``2a``)
    is refused with the way to read it (``op_map="scsi"``)."""
    if default:
        s = df[col].astype("string").str.strip().str.lower()
        bad = (~s.isin(list(ops))).to_numpy()
        if bad.any() and s.iloc[int(np.argmax(bad))] in SCSI_OP_MAP:
            r = int(np.argmax(bad))
            ck.fail(r, field, f"is not a known operation ({', '.join(sorted(ops))}); it reads as a SCSI opcode: "
                              "give the op codes 'scsi' (--op-map scsi; on the pages: Op codes = scsi)", df[col].iloc[r])
    return op_column(df, col, field, ck, ops)


def read_csv_trace(src, *, size_col=None, offset_col=None, lba_col=None, time_col=None, op_col=None, device_col=None,
                   sector_size: int = 512, size_unit: str = "bytes", time_unit: str = "s",
                   op_map: str | dict | None = None, header: bool = True, sep: str = ",", comment: str | None = "#",
                   name: str | None = None,
                   max_requests: int | None = None, progress=None, chunk_bytes: int = CHUNK_BYTES,
                max_line_bytes: int = MAX_LINE_BYTES, max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
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
    comment : str or None
        Comment character: text from it to the end of the line is ignored, and lines holding
        only a comment are skipped (before and after the header). None or ``""``: no comments
        (a field may then hold the character).

    Returns
    -------
    BlockTrace

    Examples
    --------
    >>> t = read_csv_trace(b"t,op,lba,len\\n0.5,2a,100,8\\n", time_col="t", op_col="op", lba_col="lba",
    ...                    size_col="len", size_unit="sectors", op_map="scsi")
    >>> t.is_write.tolist(), t.offset_bytes.tolist(), t.size_bytes.tolist()
    ([True], [51200], [4096])
    >>> len(read_csv_trace(b"# exported 2024-01-01\\noffset,size\\n# first request\\n0,4096\\n", offset_col="offset",
    ...                    size_col="size"))
    1
    """
    check_sector_size(sector_size)
    comment = comment or None
    if comment is not None and (not isinstance(comment, str) or len(comment) != 1 or comment in (sep, '"')):
        raise ValueError(f"comment must be one character other than the separator and '\"', or None (got {comment!r})")
    if size_col is None:
        raise ValueError("a generic CSV trace needs a column mapping: size_col (--size-col) and offset_col "
                         "(--offset-col, bytes) or lba_col (--lba-col, sectors); names or 0-based indexes")
    if (offset_col is None) == (lba_col is None):
        raise ValueError("give exactly one of offset_col (bytes) or lba_col (sectors)")
    if size_unit not in ("bytes", "sectors"):
        raise ValueError(f"size_unit must be 'bytes' or 'sectors' (got {size_unit!r})")
    if time_unit not in TIME_UNITS:
        raise ValueError(f"time_unit must be one of {', '.join(TIME_UNITS)} (got {time_unit!r})")
    sep = _separator(sep)
    ops = parse_op_map(op_map) if op_col is not None else {}
    size_mult = sector_size if size_unit == "sectors" else 1

    def setup(block: bytes, state) -> None:
        first = next((ln for _, ln in data_lines(block, 1, comment=comment)), None)
        if first is None:
            return
        if comment is not None:
            first = first.split(comment, 1)[0]
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
            if "names" not in state:  # only blank or comment lines so far: still refuse what is not UTF-8
                try:
                    block.decode("utf-8")
                except UnicodeDecodeError as e:
                    _utf8_error(Chunk("csv", block, line0, comment=comment), e)
                return None
            skip = 1 if header else 0
        else:
            skip = 0
        names, idx, field = state["names"], state["idx"], state["field"]
        ck = Chunk("csv", block, line0, comment=comment, skip_first=skip)
        pos = [str(i) for i in range(len(names))]
        df = read_frame(ck, pos, sep, usecols=sorted({pos[i] for i in idx.values()}),
                        labels={pos[i]: names[i] for i in idx.values()})
        c = {k: pos[i] for k, i in idx.items()}
        n = len(df)
        if "offset" in c:
            off = int_column(df, c["offset"], field["offset"], ck)
        else:
            off = scaled_column(df, c["lba"], field["lba"], ck, sector_size)
        if "time" in c:
            t = time_column_ns(df, c["time"], field["time"], ck, time_unit)
        else:
            t = np.arange(state.get("row", 0), state.get("row", 0) + n, dtype=np.int64)
        state["row"] = state.get("row", 0) + n
        if "op" not in c:  # no operation column: reads by convention, the operation unknown
            state.setdefault("meta", {})["op_unknown"] = True
        cols = {
            "time_ns": t,
            "is_write": _op_column(df, c["op"], field["op"], ck, ops, op_map is None) if "op" in c else np.zeros(n, bool),
            "offset_bytes": off,
            "size_bytes": scaled_column(df, c["size"], field["size"], ck, size_mult),
            "device": device_column(df, c["device"], field["device"], ck) if "device" in c else np.zeros(n, np.int32),
        }
        return finish_chunk(ck, cols, field.get("offset", field.get("lba")), field["size"])

    return parse_source(src, parse, fmt="csv", name=name, max_requests=max_requests, progress=progress,
                        chunk_bytes=chunk_bytes, max_line_bytes=max_line_bytes,
                        max_input_bytes=max_input_bytes, meta={"sector_size": sector_size}, comment=comment)
