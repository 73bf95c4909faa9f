"""Trace format detection from the first lines (or bytes) of a source.

A source is sniffed from its first 64 KiB after decompression (:func:`detect_source`): an
``.npz`` archive by its zip signature, a libCacheSim ``lcs`` trace by its start magic, a
libCacheSim ``oracleGeneral`` trace by its name (``*.oracleGeneral*``) or, for other binary
data (NUL bytes), by its 24-byte records (every ``next_access_vtime`` is -1, INT64_MAX or a
later request index, and the times never decrease); a libCacheSim ``vscsi`` trace by its name
(``*vscsi*``) and records, or by its records alone when every record of the first 64 KiB (at
least 4) carries one version and a SCSI READ or WRITE command (:func:`models.traces.formats.vscsi.sniff_version`;
records that read as both oracleGeneral and vscsi are refused, naming both). Text (:func:`detect_text`): lackey when
most lines (besides ``==PID==`` messages) are lackey records; then the first of blkparse,
DiskSim, MQSim, MSR, SPC, Alibaba, Tencent, Twitter and libCacheSim's plain text (only when every
line is one integer) whose line pattern matches at least 80 %
of the first 60 data lines (blkparse: its first line and half of them, since summaries follow
the events; a first line holding the format's published header names is left out); finally a
comma-separated file with a recognisable header (:func:`models.traces.formats.csv.guess_columns`).
When a line format fits under a first line that is neither its data nor its published header,
and that line is also a recognisable generic CSV header, both readings fit (with different units
and header handling): detection refuses, naming both, rather than guess.
Comment lines (``#``) are ignored.
"""

from __future__ import annotations

import re

import numpy as np

from models.traces.formats import FORMATS, alibaba, lcs, msr, npz, oracle, tencent, vscsi
from models.traces.formats.csv import guess_columns
from models.traces.source import BOM, TraceFormatError, peek_bytes, quote, source_name

__all__ = ["detect_format", "detect_text", "detect_source"]

#: Block formats tried in order (the more specific patterns first).
_LINE_FORMATS = ("blkparse", "disksim", "mqsim", "msr", "spc", "alibaba", "tencent", "twitter", "txt")
#: Published header rows (normalised: lower case, letters and digits only).
_HEADERS = {name: tuple(re.sub(r"[^a-z0-9]", "", h) for h in mod.HEADER)
            for name, mod in (("msr", msr), ("alibaba", alibaba), ("tencent", tencent))}
_PEEK_BYTES = 64 << 10


def _data_lines(text: str) -> list[str]:
    lines = text.splitlines()
    if len(lines) > 1 and not text.endswith("\n"):
        lines = lines[:-1]  # the last line may be cut by the peek
    return [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")][:60]


def _is_lackey(lines: list[str]) -> bool:
    records = [ln for ln in lines if not re.match(r"^==\d+==", ln)]
    pat = re.compile(FORMATS["lackey"].pattern)
    return not records or sum(bool(pat.match(ln)) for ln in records) >= 0.6 * len(records)


def _is_header(line: str, name: str) -> bool:
    names = tuple(re.sub(r"[^a-z0-9]", "", f.lower()) for f in line.split(","))
    return name in _HEADERS and names == _HEADERS[name]


def _line_format(lines: list[str]) -> tuple[str, bool] | None:
    """The first line format that fits, and whether its first line is an unknown header.

    An unknown header is a first line that is neither a data line of the format nor its published
    header (the reader would skip it as a header row, or fail on it).
    """
    for name in _LINE_FORMATS:
        pat = re.compile(FORMATS[name].pattern)
        published = len(lines) > 1 and _is_header(lines[0], name)
        body = lines[1:] if published else lines
        hits = sum(bool(pat.match(ln)) for ln in body)
        if name == "txt":  # free-text ids: only when every line is one integer (a header would become an id)
            if hits == len(body) == len(lines):
                return name, False
            continue
        if hits >= 0.8 * len(body) or (name == "blkparse" and pat.match(body[0]) and hits >= 0.5 * len(body)):
            return name, not published and not pat.match(lines[0])
    return None


def _detect(text: str) -> tuple[str, dict]:
    if text.startswith(npz.MAGIC.decode("ascii")):
        return "npz", {}
    lines = _data_lines(text)
    if not lines:
        raise TraceFormatError("cannot detect the trace format: the input is empty")
    if _is_lackey(lines):
        return "lackey", {}
    found = _line_format(lines)
    guess = guess_columns(text)
    if found is not None:
        name, unknown_header = found
        if unknown_header and guess is not None:
            # two formats fit (e.g. Tencent's 5 numeric columns under a generic CSV header): the
            # units and the header handling differ, so a guess could misread every request
            raise TraceFormatError(
                f"cannot detect the trace format: the input reads both as {name} (its first line "
                f"{quote(lines[0], 80)} taken as a header row) and as a generic CSV with that header "
                f"(columns {_mapping(guess)}); choose the format (--trace-format {name} or --trace-format "
                "csv with the column mapping)")
        return name, {}
    if guess is not None:
        return "csv", guess
    raise TraceFormatError(
        "cannot detect the trace format from its first lines "
        f"(first line: {lines[0][:80]!r}); choose one of: {', '.join(FORMATS)} "
        "(for a generic CSV give the column mapping: time_col, op_col, offset_col or lba_col, size_col)")


def _mapping(guess: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in guess.items() if k.endswith("_col"))


def detect_text(text: str, *, kind: str | None = None) -> tuple[str, dict]:
    """Format name and reader options (a CSV's guessed column mapping) for the start of a source.

    With ``kind="memory"`` a source no format recognises is read as lackey, whose reader then
    names the first bad line (a recognised block format is returned, for the caller to
    report the wrong kind).

    >>> detect_text("0 0 8 8 1\\n10 0 16 8 0\\n")
    ('mqsim', {})
    >>> detect_text("offset,size\\n0,4096\\n")
    ('csv', {'size_col': 1, 'header': True, 'offset_col': 0})
    >>> detect_text(" L 0400,8\\n S zz,8\\n", kind="memory")
    ('lackey', {})
    """
    try:
        return _detect(text)
    except TraceFormatError:
        if kind == "memory":
            return "lackey", {}
        raise


def _looks_oracle_general(data: bytes) -> bool:
    """Whether binary ``data`` (a prefix of the input) reads as ``oracleGeneral`` records."""
    rec = oracle.RECORD.itemsize
    n = len(data) // rec
    if n < 2 or (len(data) < _PEEK_BYTES and len(data) % rec):
        return False
    r = np.frombuffer(data[: n * rec], oracle.RECORD)
    nxt, idx = r["next"], np.arange(n)
    none = (nxt == -1) | (nxt == np.iinfo(np.int64).max)
    later = (nxt > idx) & (nxt < 1 << 48)
    return bool((none | later).all() and (np.diff(r["time"].astype(np.int64)) >= 0).all())


def _binary(data: bytes) -> tuple[str, dict]:
    """oracleGeneral or vscsi by the records of binary ``data``; both fitting is refused, naming both."""
    og = _looks_oracle_general(data)
    vs = vscsi.sniff_version(data, full=len(data) < _PEEK_BYTES)
    if og and vs:
        raise TraceFormatError("cannot detect the trace format: the binary records read both as oracleGeneral and "
                               f"as vscsi{vs}; choose the format (--trace-format oraclegeneral or vscsi)")
    if og:
        return "oraclegeneral", {}
    if vs:
        return "vscsi", {}
    return detect_text(data.removeprefix(BOM).decode("utf-8", errors="replace"))


def detect_source(src, *, name: str | None = None) -> tuple[str, dict]:
    """Format name and reader options for ``src`` (path, bytes or binary file object): binary, then text.

    ``name`` (e.g. an upload's file name) stands for the source's own name in the
    ``*.oracleGeneral*`` rule.

    >>> from models.traces.formats import write_lcs, write_oracle_general
    >>> detect_source(write_lcs(3, [0], [1], [8]))[0], detect_source(write_oracle_general([0, 1], [5, 5], [8, 8], [1, -1]))[0]
    ('lcs', 'oraclegeneral')
    >>> detect_source(b"1538323200,2048,8,1,1283\\n")
    ('tencent', {})
    """
    data = peek_bytes(src, _PEEK_BYTES)
    if data[:8] == np.array([lcs.MAGIC], "<u8").tobytes():
        return "lcs", {}
    if not data.startswith(npz.MAGIC):
        label = str(name or source_name(src)).lower().replace("_", "")
        if "oraclegeneral" in label:
            return "oraclegeneral", {}
        if "vscsi" in label and vscsi.version_of(data):
            return "vscsi", {}
        if b"\x00" in data:
            return _binary(data)
    return detect_text(data.removeprefix(BOM).decode("utf-8", errors="replace"))


def detect_format(src) -> str:
    """Name of the format of ``src`` (path, bytes or binary file object), see :data:`FORMATS`.

    >>> detect_format(b"W Hit    4583176   4    663.00000  45422.00000\\n")
    'disksim'
    >>> detect_format(b"==12== Lackey\\nI  0400d7d4,8\\n")
    'lackey'
    """
    return detect_source(src)[0]
