"""Input plumbing for the trace readers: sources, decompression, chunking, errors.

A *source* is a path, ``bytes``, or a binary file-like object (for example a Streamlit
``UploadedFile``). Gzip and Zstandard input is recognised by its magic bytes, whatever the
file name. Text is delivered in blocks of whole lines so readers parse each block with the
pandas C engine or NumPy, and report bad input by line number.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from models.budget import budget_bytes, charge

__all__ = ["map_source", "data_line_mask", "CHUNK_BYTES", "MAX_LINE_BYTES", "MAX_INPUT_BYTES", "QUOTE_CHARS", "TraceFormatError", "open_source",
           "iter_blocks", "lone_cr_as_lf", "BOM", "data_lines", "source_name", "peek_bytes", "peek_text", "quote",
           "check_limit", "charge_parsed", "TEXT_BYTES_CHARGE",
           "PARSED_REQUEST_BYTES"]

GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: Default block size handed to the parsers [bytes of decompressed text].
CHUNK_BYTES = 8 << 20
#: Longest line a text trace may hold [bytes] (option ``max_line_bytes``, CLI ``--max-line-bytes``). Trace lines
#: are < 200 bytes; a wide CSV stays far below. Also keeps every field under the csv module's 131,072-character
#: field limit, and bounds the memory a line without a newline can take.
MAX_LINE_BYTES = 1 << 16
#: Most decompressed bytes read from one source [bytes] (option ``max_input_bytes``, CLI ``--max-input-bytes``):
#: bounds the time spent on input that holds few requests (comments, skipped events, a decompression bomb).
#: 20 million requests (the request limit) of blkparse text, ~8 events of ~90 bytes each, is ~14 GB.
MAX_INPUT_BYTES = 16 << 30
#: Memory charged against the run's budget (:mod:`models.budget`) per decompressed byte a text reader reads [bytes]:
#: the parsed arrays of a dense trace (33 bytes per request) take about half its text (an MSR Cambridge CSV line is
#: ~60 bytes); blank, whitespace and comment lines are charged as text too, so a small compressed file of
#: gigabytes of newlines stops once it has read twice the budget.
TEXT_BYTES_CHARGE = 0.5
#: Memory charged against the run's budget per request a reader has parsed [bytes]: a block trace row is 29 bytes
#: (time, offset, size 8 each, device 4, write flag 1), held twice while the pieces are joined; rounded up.
PARSED_REQUEST_BYTES = 64
#: Most characters of file content quoted in an error message [characters].
QUOTE_CHARS = 80
#: Decompression errors of corrupt or truncated gzip / zstd input.
_DECOMPRESS_ERRORS: tuple = (EOFError, OSError, zlib.error)


def _gzip_reader(fileobj):
    """A gzip stream of ``fileobj``: ISA-L's inflater (``isal.igzip``, ~2x zlib's speed per core here, measured
    in ``bench/bench_stream.py --readers-only``; it releases the GIL while it inflates), else the standard
    library's (zlib) when ``isal`` cannot be imported. Same bytes out; a corrupt stream raises one of
    :data:`_DECOMPRESS_ERRORS` either way."""
    try:
        from isal import igzip
    except ImportError:  # pragma: no cover - isal is a dependency; the fallback is for a platform without a wheel
        return gzip.GzipFile(fileobj=fileobj, mode="rb")
    return igzip.IGzipFile(fileobj=fileobj, mode="rb")


try:  # ISA-L's inflate error (not an OSError): a corrupt deflate block
    from isal.isal_zlib import error as _IsalError

    _DECOMPRESS_ERRORS += (_IsalError,)
except ImportError:  # pragma: no cover - see _gzip_reader
    pass


class TraceFormatError(ValueError):
    """A trace file that does not match its format; the message names the line and field.

    Attributes
    ----------
    line : int or None
        1-based line number in the (decompressed) input.
    field : str or None
        Name of the offending field.
    """

    def __init__(self, message: str, *, line: int | None = None, field: str | None = None):
        super().__init__(message)
        self.line = line
        self.field = field


def quote(text: str | bytes, limit: int = QUOTE_CHARS) -> str:
    """``repr`` of file content for an error message, cut to ``limit`` characters.

    >>> quote("x" * 200, 5)
    "'xxxxx'... (200 characters)"
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text[: limit * 4]).decode("utf-8", errors="replace") + ("\ufffd" * (len(text) > limit * 4))
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def check_limit(name: str, value: Any) -> int:
    """Validate a size limit option (an integer >= 1) and return it.

    >>> check_limit("max_line_bytes", 0)
    Traceback (most recent call last):
    ...
    ValueError: max_line_bytes must be an integer >= 1 (got 0)
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1 (got {value!r})")
    return int(value)


def charge_parsed(n: int) -> None:
    """Refuse (:class:`models.budget.BudgetExceeded`) ``n`` parsed requests that need more than the run's memory
    budget (:data:`PARSED_REQUEST_BYTES` each: binary readers have no text to charge), before their pieces are
    joined into a trace; the work limit of a whole read is this budget, in bytes.

    >>> from models.budget import limit
    >>> with limit(100 * PARSED_REQUEST_BYTES):
    ...     charge_parsed(100)
    ...     charge_parsed(101)
    Traceback (most recent call last):
    ...
    models.budget.BudgetExceeded: reading the trace (101 requests parsed so far) needs about ...
    """
    charge(n * PARSED_REQUEST_BYTES, f"reading the trace ({n:,} requests parsed so far)")


def source_name(src: Any) -> str:
    """A short human-readable name for a source (file name without compression suffixes)."""
    if isinstance(src, (str, os.PathLike)):
        name = Path(src).name
    else:
        name = getattr(src, "name", None) or "uploaded"
        name = Path(str(name)).name
    for suf in (".gz", ".zst", ".zstd"):
        if name.endswith(suf):
            name = name[: -len(suf)]
    return name


class _Counting(io.RawIOBase):
    """Read-through wrapper counting the bytes read from the underlying (compressed) stream."""

    def __init__(self, raw, prefix: bytes = b""):
        self.raw = raw
        self.prefix = prefix
        self.count = 0
        self.tap = None  # called with every chunk read (zstd frame check)

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        n = len(b)
        if self.prefix:
            k = min(n, len(self.prefix))
            b[:k] = self.prefix[:k]
            if self.tap is not None:
                self.tap(self.prefix[:k])
            self.prefix = self.prefix[k:]
            self.count += k
            return k
        data = self.raw.read(n)
        if not data:
            return 0
        k = len(data)
        b[:k] = data
        if self.tap is not None:
            self.tap(data)
        self.count += k
        return k


def _total_size(src: Any, fh) -> int | None:
    if isinstance(src, (str, os.PathLike)):
        return os.path.getsize(src)
    size = getattr(src, "size", None)  # Streamlit UploadedFile
    if isinstance(size, int) and size > 0:
        return size
    try:
        if fh.seekable():
            pos = fh.tell()
            end = fh.seek(0, io.SEEK_END)
            fh.seek(pos)
            return end - pos
    except (OSError, AttributeError, ValueError):
        return None
    return None


def _label(src: Any) -> str:
    """How messages name a source: the path as given, else the upload's name."""
    if isinstance(src, (str, os.PathLike)):
        return os.fspath(src)
    name = getattr(src, "name", None)
    return str(name) if name else "the uploaded data"


class _ZstdFrames:
    """Follows the frame structure of a Zstandard stream (RFC 8878) as its bytes are read.

    The decompressor returns end-of-data quietly when the input stops inside a frame; this
    tells a complete stream (every frame closed) from a truncated or corrupt one.
    """

    def __init__(self):
        self.state, self.need, self.hdr, self.skip = "magic", 4, b"", 0
        self.checksum = 0
        self.error = ""

    def feed(self, data: bytes) -> None:
        i, n = 0, len(data)
        while i < n and not self.error:
            if self.skip:
                k = min(self.skip, n - i)
                self.skip -= k
                i += k
                continue
            k = min(self.need - len(self.hdr), n - i)
            self.hdr += data[i:i + k]
            i += k
            if len(self.hdr) == self.need:
                h, self.hdr = self.hdr, b""
                self._step(h)

    def _step(self, h: bytes) -> None:
        v = int.from_bytes(h, "little")
        if self.state == "magic":
            if v == 0xFD2FB528:
                self.state, self.need = "descriptor", 1
            elif v & 0xFFFFFFF0 == 0x184D2A50:  # skippable frame
                self.state, self.need = "skippable", 4
            else:
                self.error = "data after the last frame is not a zstd frame"
        elif self.state == "skippable":
            self.skip, self.state, self.need = v, "magic", 4
        elif self.state == "descriptor":
            single = (v >> 5) & 1
            self.checksum = (v >> 2) & 1
            rest = (1 - single) + (0, 1, 2, 4)[v & 3] + (single, 2, 4, 8)[v >> 6]
            self.state, self.need = ("header", rest) if rest else ("block", 3)
        elif self.state == "header":
            self.state, self.need = "block", 3
        elif self.state == "block":
            kind, size = (v >> 1) & 3, v >> 3
            if kind == 3:
                self.error = "reserved block type"
                return
            self.skip = 1 if kind == 1 else size
            if v & 1:  # last block of the frame
                self.state, self.need = ("checksum", 4) if self.checksum else ("magic", 4)
        elif self.state == "checksum":
            self.state, self.need = "magic", 4

    def complete(self) -> bool:
        return not self.error and self.state == "magic" and not self.hdr and not self.skip


class _Checked(io.RawIOBase):
    """The decompressed stream: decompression errors and the byte limit become TraceFormatError naming the file."""

    def __init__(self, stream, label: str, codec: str | None, frames: _ZstdFrames | None, max_input_bytes: int | None):
        self.stream, self.label, self.codec, self.frames = stream, label, codec, frames
        self.max_input_bytes = max_input_bytes
        self.count = 0

    def readable(self) -> bool:
        return True

    def _corrupt(self, why: str) -> TraceFormatError:
        return TraceFormatError(f"{self.label}: corrupt or truncated {self.codec} data ({why})")

    def read(self, n: int = -1) -> bytes:
        if self.max_input_bytes is not None:
            n = self.max_input_bytes + 1 - self.count if n is None or n < 0 else min(n, self.max_input_bytes + 1
                                                                                       - self.count)
        try:
            data = self.stream.read(n) if n is not None and n >= 0 else self.stream.read()
        except TraceFormatError:
            raise
        except _DECOMPRESS_ERRORS as e:
            raise self._corrupt(str(e) or type(e).__name__) from None
        except Exception as e:  # zstandard.ZstdError (not imported unless needed)
            if type(e).__name__ != "ZstdError":
                raise
            raise self._corrupt(str(e)) from None
        self.count += len(data)
        if self.max_input_bytes is not None and self.count > self.max_input_bytes:
            raise TraceFormatError(
                f"{self.label}: more than {self.max_input_bytes:,} bytes of (decompressed) text, the limit "
                "max_input_bytes (CLI --max-input-bytes); raise it to read a larger trace, or give a maximum "
                "number of requests")
        if not data and n != 0 and self.frames is not None and not self.frames.complete():
            raise self._corrupt(self.frames.error or "the data ends inside a frame")
        return data

    def readinto(self, b) -> int:
        data = self.read(len(b))
        b[:len(data)] = data
        return len(data)


@contextmanager
def open_source(src: Any, progress: Callable[[float], None] | None = None, *, max_input_bytes: int | None = None):
    """Open ``src`` as a decompressed binary stream.

    Yields ``(stream, report)``: ``report()`` calls ``progress`` with the fraction of the
    input consumed (0..1) when the input size is known, else with the bytes consumed.
    Reading raises :class:`TraceFormatError` naming the file on corrupt or truncated gzip /
    zstd data and when more than ``max_input_bytes`` decompressed bytes are read.
    """
    own = False
    if isinstance(src, (bytes, bytearray, memoryview)):
        fh = io.BytesIO(bytes(src))
        total: int | None = len(fh.getbuffer())
    elif isinstance(src, (str, os.PathLike)):
        if not Path(src).is_file():
            raise FileNotFoundError(f"trace file not found: {src}")
        fh = open(src, "rb")  # noqa: SIM115 - closed below
        own = True
        total = _total_size(src, fh)
    elif hasattr(src, "read"):
        fh = src
        try:
            if fh.seekable():
                fh.seek(0)
        except (OSError, AttributeError, ValueError):
            pass
        total = _total_size(src, fh)
    else:
        raise TypeError(f"trace source must be a path, bytes or a binary file object, not {type(src).__name__}")
    if max_input_bytes is not None:
        max_input_bytes = check_limit("max_input_bytes", max_input_bytes)
    try:
        head = fh.read(4)
        if isinstance(head, str):
            raise TypeError("open the trace in binary mode ('rb'), not text mode")
        counting = _Counting(fh, head)
        buffered = io.BufferedReader(counting, buffer_size=1 << 20)
        frames = None
        if head.startswith(GZIP_MAGIC):
            codec, raw = "gzip", _gzip_reader(buffered)
        elif head.startswith(ZSTD_MAGIC):
            import zstandard

            frames = _ZstdFrames()
            counting.tap = frames.feed
            codec = "zstd"
            raw = zstandard.ZstdDecompressor().stream_reader(buffered, read_across_frames=True)
        else:
            codec, raw = None, buffered
        stream = _Checked(raw, _label(src), codec, frames, max_input_bytes)

        def report(done: bool = False) -> None:
            if progress is None:
                return
            if total:
                progress(1.0 if done else min(counting.count / total, 1.0))
            else:
                progress(float(counting.count))

        yield stream, report
    finally:
        if own:
            fh.close()


class _Mapped:
    """A memory-mapped uncompressed file read as a stream of zero-copy ``memoryview`` slices."""

    def __init__(self, mm: np.ndarray, label: str, max_input_bytes: int | None):
        self.mm, self.label, self.max_input_bytes = mm, label, max_input_bytes
        self.count = 0

    def read(self, n: int = -1):
        end = len(self.mm) if n is None or n < 0 else min(len(self.mm), self.count + n)
        data = memoryview(self.mm[self.count:end])
        self.count = end
        if self.max_input_bytes is not None and self.count > self.max_input_bytes:
            raise TraceFormatError(
                f"{self.label}: more than {self.max_input_bytes:,} bytes of (decompressed) text, the limit "
                "max_input_bytes (CLI --max-input-bytes); raise it to read a larger trace, or give a maximum "
                "number of requests")
        return data


@contextmanager
def map_source(src: Any, progress: Callable[[float], None] | None = None, *, max_input_bytes: int | None = None):
    """Like :func:`open_source`, but an uncompressed file path is memory-mapped (``np.memmap``): ``read`` returns
    zero-copy ``memoryview`` slices of the page cache (binary record formats, no copy per block). Any other source
    (bytes, a file object, gzip or zstd) is opened by :func:`open_source`.
    """
    if isinstance(src, (str, os.PathLike)) and Path(src).is_file() and os.path.getsize(src) >= 4:
        with open(src, "rb") as fh:
            head = fh.read(4)
        if not (head.startswith(GZIP_MAGIC) or head.startswith(ZSTD_MAGIC)):
            if max_input_bytes is not None:
                max_input_bytes = check_limit("max_input_bytes", max_input_bytes)
            mm = np.memmap(src, np.uint8, mode="r")
            stream = _Mapped(mm, _label(src), max_input_bytes)
            total = len(mm)

            def report(done: bool = False) -> None:
                if progress is not None:
                    progress(1.0 if done else min(stream.count / total, 1.0))

            try:
                yield stream, report
            finally:
                del stream, mm
            return
    with open_source(src, progress, max_input_bytes=max_input_bytes) as opened:
        yield opened


def _long_line(fmt: str, line: int, max_line_bytes: int) -> TraceFormatError:
    return TraceFormatError(f"{fmt}: line {line}: longer than {max_line_bytes:,} bytes, the limit max_line_bytes "
                            "(CLI --max-line-bytes); is this a text trace?", line=line)


def _check_line_lengths(block: bytes, line0: int, max_line_bytes: int, fmt: str) -> None:
    if len(block) <= max_line_bytes:
        return
    w = max(max_line_bytes // 2, 1)  # every window of w bytes holds a LF: no line reaches 2w <= max_line_bytes
    if all(block.find(b"\n", i, i + w) >= 0 for i in range(0, len(block) - w + 1, w)) \
            and block.find(b"\n", len(block) - w) >= 0:
        return
    buf = np.frombuffer(block, np.uint8)
    ends = np.flatnonzero(buf == 10)
    if not len(ends) or ends[-1] != len(buf) - 1:
        ends = np.append(ends, len(buf))
    lengths = np.diff(ends, prepend=-1) - 1
    long = lengths > max_line_bytes
    if long.any():
        raise _long_line(fmt, line0 + int(np.argmax(long)), max_line_bytes)


#: The UTF-8 byte order mark some editors write first (skipped by every text reader).
BOM = b"\xef\xbb\xbf"
_LONE_CR = re.compile(rb"\r(?!\n)")


def lone_cr_as_lf(data: bytes) -> bytes:
    r"""``data`` with every CR not followed by LF read as a line end (LF), as the pandas C engine
    and Python's universal newlines read it.

    Lines are counted at LF (a CR before it dropped); without this a lone CR ended a line for
    the parser only, so its rows and the lines skipped by number drifted apart (a whitespace-only
    line after a lone CR dropped the data line before it).

    >>> lone_cr_as_lf(b"1\r2\r\n\r \n")
    b'1\n2\r\n\n \n'
    """
    if b"\r" not in data or data.count(b"\r") == data.count(b"\r\n"):
        return data
    return _LONE_CR.sub(b"\n", data)


def _count_lf(block: bytes) -> int:
    """The line feeds of ``block``: NumPy's compare-and-count, ~2.5x ``bytes.count`` of one byte here (measured
    on an 8 MiB block of MSR text: 3.1 vs 7.8 ms).

    >>> _count_lf(b"1\\n2\\n3"), _count_lf(b"")
    (2, 0)
    """
    return int(np.count_nonzero(np.frombuffer(block, np.uint8) == 10))


def iter_blocks(stream, chunk_bytes: int = CHUNK_BYTES, *, max_line_bytes: int | None = None,
                fmt: str = "trace", kept: bool = True) -> Iterator[tuple[bytes, int]]:
    """Yield ``(block, first_line_number)``: blocks of whole lines from ``stream``.

    Every block but possibly the last ends with a newline; line numbers are 1-based. A CR not
    followed by LF ends a line too (:func:`lone_cr_as_lf`), whatever the read boundaries; a
    UTF-8 byte order mark (:data:`BOM`) starting the stream is skipped.
    A single line longer than ``chunk_bytes`` is kept whole; a line longer than
    ``max_line_bytes`` (None: no limit) raises :class:`TraceFormatError` naming it.
    The decompressed bytes read, blank and comment lines included, are charged against the run's
    memory budget (:func:`models.budget.charge`: a small compressed file of gigabytes of newlines
    is refused once it has read more than the budget). ``kept=False`` (a streaming consumer takes each block's
    columns and the reader keeps none, :mod:`models.traces.chunks`) charges each block alone: memory is then one
    block whatever the input's length, and time stays bounded by ``max_input_bytes``.
    """
    budget = budget_bytes()
    seen = 0
    line_no = 1
    pending: list[bytes] = []  # a partial line, in pieces (no re-copy as it grows)
    plen = 0
    carry = b""  # a CR ending the previous read: a CRLF's first half or a lone CR
    first = True
    while True:
        raw = stream.read(chunk_bytes)
        seen = seen + len(raw) if kept else len(raw)
        if budget and seen * TEXT_BYTES_CHARGE > budget:
            charge(seen * TEXT_BYTES_CHARGE,
                   f"reading the {fmt} file ({seen:,} bytes of text so far, blank and comment lines included, "
                   f"up to line {line_no:,})", budget=budget)
        if first:  # a UTF-8 byte order mark is no part of the first line
            first = False
            while raw and len(raw) < len(BOM) and BOM.startswith(raw):
                more = stream.read(chunk_bytes)
                if not more:
                    break
                raw += more
            if raw.startswith(BOM) and len(raw) > len(BOM):
                raw = raw[len(BOM):]
            elif raw == BOM:
                raw = stream.read(chunk_bytes)
        data = carry + raw if carry else raw
        carry = b""
        if raw and data.endswith(b"\r"):
            data, carry = data[:-1], b"\r"
        data = lone_cr_as_lf(data)
        if not raw:
            if data:
                pending.append(data)
            if pending:
                tail = b"".join(pending)
                if max_line_bytes is not None:
                    _check_line_lengths(tail, line_no, max_line_bytes, fmt)
                yield tail, line_no
            return
        if not data:
            continue
        cut = data.rfind(b"\n")
        if cut < 0:
            pending.append(data)
            plen += len(data)
            if max_line_bytes is not None and plen > max_line_bytes:
                raise _long_line(fmt, line_no, max_line_bytes)
            continue
        block = b"".join([*pending, data[: cut + 1]]) if pending else data[: cut + 1]
        rest = data[cut + 1:]
        pending, plen = ([rest], len(rest)) if rest else ([], 0)
        if max_line_bytes is not None:
            _check_line_lengths(block, line_no, max_line_bytes, fmt)
        yield block, line_no
        line_no += _count_lf(block)


#: Bytes ``str.strip`` removes that are ASCII (space, \t \n \v \f \r and the separators \x1c-\x1f).
_ASCII_SPACE = np.zeros(256, bool)
_ASCII_SPACE[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = True


def data_line_mask(block: bytes, comment: str | None = "#") -> np.ndarray:
    """For each line of ``block`` (split at LF), whether it is a data line: not blank before ``comment``.

    Vectorised (blank, whitespace and comment lines cost NumPy time, not a Python loop each); only lines holding
    non-ASCII bytes -- which may be Unicode whitespace to ``str.strip`` -- are checked one by one.

    >>> data_line_mask(b"a\\n\\n  \\n# c\\n  # c\\nb # c\\n").tolist()
    [True, False, False, False, False, True, False]
    """
    buf = np.frombuffer(block, np.uint8)
    n = len(buf)
    nl = np.flatnonzero(buf == 10)
    starts = np.concatenate(([0], nl + 1))
    ends = np.concatenate((nl, [n]))
    idx = np.arange(n, dtype=np.int32 if n < 2**31 - 1 else np.int64)  # 4 bytes per byte of text, not 8
    pos = np.where(~_ASCII_SPACE[buf], idx, n) if n else idx
    cut = np.where(buf == ord(comment), idx, n) if comment and n else np.full(n, n, idx.dtype)
    del idx
    first_text = np.full(len(starts), n)
    first_cut = np.full(len(starts), n)
    live = starts < ends
    if live.any() and n:
        first_text[live] = np.minimum.reduceat(pos, starts[live])
        first_cut[live] = np.minimum.reduceat(cut, starts[live])
    # reduceat runs each segment to the next start: keep only hits inside the line
    first_text = np.where(first_text < ends, first_text, n)
    first_cut = np.where(first_cut < ends, first_cut, n)
    mask = first_text < np.minimum(first_cut, ends)
    wide = np.flatnonzero(mask & (np.maximum.reduceat(buf, np.minimum(starts, max(n - 1, 0)))[: len(starts)]
                                  >= 128 if n else mask))
    for i in wide:  # a line with non-ASCII bytes: str.strip decides, as before
        text = block[starts[i]:ends[i]].decode("utf-8", errors="replace").rstrip("\r")
        body = text.split(comment, 1)[0] if comment else text
        mask[i] = bool(body.strip())
    return mask


def data_lines(block: bytes, first_line: int, *, comment: str | None = "#", skip_first: int = 0) -> list[tuple[int, str]]:
    """``(line_number, text)`` of the lines pandas treats as data rows in ``block``.

    Blank lines and lines that are empty before ``comment`` are skipped, as are the first
    ``skip_first`` non-blank lines (a header). Used only to build error messages.
    """
    out = []
    rows = np.flatnonzero(data_line_mask(block, comment))[skip_first:]
    if not len(rows):
        return out
    lines = block.decode("utf-8", errors="replace").split("\n")
    return [(first_line + int(i), lines[i].rstrip("\r")) for i in rows]


def peek_bytes(src: Any, n_bytes: int = 64 << 10) -> bytes:
    """The first ``n_bytes`` of the decompressed source (fewer at its end); a seekable file object is rewound."""
    with open_source(src) as (stream, _):
        data = stream.read(n_bytes)
        while len(data) < n_bytes:  # a decompressor may return less than asked before the end
            more = stream.read(n_bytes - len(data))
            if not more:
                break
            data += more
    if hasattr(src, "seek") and not isinstance(src, (str, os.PathLike)):
        try:
            src.seek(0)
        except (OSError, ValueError):
            pass
    return data


def peek_text(src: Any, n_bytes: int = 64 << 10) -> str:
    """The first ``n_bytes`` of the decompressed source as text (for format sniffing)."""
    return peek_bytes(src, n_bytes).decode("utf-8", errors="replace")
