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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["CHUNK_BYTES", "TraceFormatError", "open_source", "iter_blocks", "data_lines", "source_name", "peek_text"]

GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: Default block size handed to the parsers [bytes of decompressed text].
CHUNK_BYTES = 8 << 20


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

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        n = len(b)
        if self.prefix:
            k = min(n, len(self.prefix))
            b[:k] = self.prefix[:k]
            self.prefix = self.prefix[k:]
            self.count += k
            return k
        data = self.raw.read(n)
        if not data:
            return 0
        k = len(data)
        b[:k] = data
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


@contextmanager
def open_source(src: Any, progress: Callable[[float], None] | None = None):
    """Open ``src`` as a decompressed binary stream.

    Yields ``(stream, report)``: ``report()`` calls ``progress`` with the fraction of the
    input consumed (0..1) when the input size is known, else with the bytes consumed.
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
    try:
        head = fh.read(4)
        if isinstance(head, str):
            raise TypeError("open the trace in binary mode ('rb'), not text mode")
        counting = _Counting(fh, head)
        buffered = io.BufferedReader(counting, buffer_size=1 << 20)
        if head.startswith(GZIP_MAGIC):
            stream = gzip.GzipFile(fileobj=buffered, mode="rb")
        elif head.startswith(ZSTD_MAGIC):
            import zstandard

            stream = zstandard.ZstdDecompressor().stream_reader(buffered, read_across_frames=True)
        else:
            stream = buffered

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


def iter_blocks(stream, chunk_bytes: int = CHUNK_BYTES) -> Iterator[tuple[bytes, int]]:
    """Yield ``(block, first_line_number)``: blocks of whole lines from ``stream``.

    Every block but possibly the last ends with a newline; line numbers are 1-based.
    A single line longer than ``chunk_bytes`` is kept whole.
    """
    line_no = 1
    tail = b""
    while True:
        data = stream.read(chunk_bytes)
        if not data:
            if tail:
                yield tail, line_no
            return
        buf = tail + data if tail else data
        cut = buf.rfind(b"\n")
        if cut < 0:
            tail = buf
            continue
        block, tail = buf[: cut + 1], buf[cut + 1:]
        yield block, line_no
        line_no += block.count(b"\n")


def data_lines(block: bytes, first_line: int, *, comment: str | None = "#", skip_first: int = 0) -> list[tuple[int, str]]:
    """``(line_number, text)`` of the lines pandas treats as data rows in ``block``.

    Blank lines and lines that are empty before ``comment`` are skipped, as are the first
    ``skip_first`` non-blank lines (a header). Used only to build error messages.
    """
    out = []
    skipped = 0
    for i, raw in enumerate(block.decode("utf-8", errors="replace").split("\n")):
        text = raw.rstrip("\r")
        body = text.split(comment, 1)[0] if comment else text
        if not body.strip():
            continue
        if skipped < skip_first:
            skipped += 1
            continue
        out.append((first_line + i, text))
    return out


def peek_text(src: Any, n_bytes: int = 64 << 10) -> str:
    """The first ``n_bytes`` of the decompressed source as text (for format sniffing)."""
    with open_source(src) as (stream, _):
        data = stream.read(n_bytes)
    if hasattr(src, "seek") and not isinstance(src, (str, os.PathLike)):
        try:
            src.seek(0)
        except (OSError, ValueError):
            pass
    return data.decode("utf-8", errors="replace")
