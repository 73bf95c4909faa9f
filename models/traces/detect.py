"""Trace format detection from the first lines (or bytes) of a source.

A source is sniffed from its first 64 KiB after decompression: an ``.npz`` archive by its
zip signature; lackey when most lines (besides ``==PID==`` messages) are lackey records;
then the first of blkparse, DiskSim, MQSim, MSR and SPC whose line pattern matches at least
80 % of the first 60 data lines (blkparse: its first line and half of them, since summaries
follow the events); finally a comma-separated file with a recognisable header
(:func:`models.traces.formats.csv.guess_columns`).
"""

from __future__ import annotations

import re

from models.traces.formats import FORMATS, npz
from models.traces.formats.csv import guess_columns
from models.traces.source import TraceFormatError, peek_text

__all__ = ["detect_format", "detect_text"]

#: Block formats tried in order (the more specific patterns first).
_LINE_FORMATS = ("blkparse", "disksim", "mqsim", "msr", "spc")


def _data_lines(text: str) -> list[str]:
    lines = text.splitlines()
    if len(lines) > 1 and not text.endswith("\n"):
        lines = lines[:-1]  # the last line may be cut by the peek
    return [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")][:60]


def _is_lackey(lines: list[str]) -> bool:
    records = [ln for ln in lines if not re.match(r"^==\d+==", ln)]
    pat = re.compile(FORMATS["lackey"].pattern)
    return not records or sum(bool(pat.match(ln)) for ln in records) >= 0.6 * len(records)


def _line_format(lines: list[str]) -> str | None:
    for name in _LINE_FORMATS:
        pat = re.compile(FORMATS[name].pattern)
        hits = sum(bool(pat.match(ln)) for ln in lines)
        if hits >= 0.8 * len(lines) or (name == "blkparse" and pat.match(lines[0]) and hits >= 0.5 * len(lines)):
            return name
    return None


def _detect(text: str) -> tuple[str, dict]:
    if text.startswith(npz.MAGIC.decode("ascii")):
        return "npz", {}
    lines = _data_lines(text)
    if not lines:
        raise TraceFormatError("cannot detect the trace format: the input is empty")
    if _is_lackey(lines):
        return "lackey", {}
    name = _line_format(lines)
    if name is not None:
        return name, {}
    guess = guess_columns(text)
    if guess is not None:
        return "csv", guess
    raise TraceFormatError(
        "cannot detect the trace format from its first lines "
        f"(first line: {lines[0][:80]!r}); choose one of: {', '.join(FORMATS)} "
        "(for a generic CSV give the column mapping: time_col, op_col, offset_col or lba_col, size_col)")


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


def detect_format(src) -> str:
    """Name of the format of ``src`` (path, bytes or binary file object), see :data:`FORMATS`.

    >>> detect_format(b"W Hit    4583176   4    663.00000  45422.00000\\n")
    'disksim'
    >>> detect_format(b"==12== Lackey\\nI  0400d7d4,8\\n")
    'lackey'
    """
    return detect_text(peek_text(src))[0]
