"""Compact memory-reference traces (``.npz``): the bundled valgrind lackey recordings.

File format (``.npz``, zlib-compressed, version 1)
-------------------------------------------------
``line_delta`` : int32 (int64 if a jump does not fit)
    Virtual addresses at ``line_bytes`` granularity (address // line_bytes): first element
    = first line number, then differences of consecutive line numbers (``numpy.cumsum``
    restores them). The restored address is ``line * line_bytes`` (the offset inside the
    64-byte line is not kept: the smallest page studied is 512 B, and byte offsets would
    double the bundle).
``line_bytes`` : 0-d int64
    Address granularity [bytes] (64).
``kind`` : uint8
    :data:`models.traces.core.MEM_KINDS` index (0 I, 1 L, 2 S, 3 M).
``size`` : uint8
    Access size [bytes].
``meta`` : 0-d str
    JSON: program, command, tool versions, references skipped / kept, ...

The bundled files under ``data/traces/mem/`` were made by ``data/traces/make_memtraces.sh``
(commands, program versions and the kept window in ``data/SOURCES.md`` and each file's
``meta``); they hold data references only (lackey ``L``, ``S``, ``M``).
"""

from __future__ import annotations

import contextlib
import io
import json
import lzma
import os
import struct
import zipfile
import zlib
from pathlib import Path

import numpy as np

from models.nesting import loads_json
from models.traces.chunks import chunk_sink_of
from models.traces.core import MemTrace
from models.traces.formats.parsing import I64_MAX
from models.traces.source import MAX_INPUT_BYTES, TraceFormatError, check_limit, quote

__all__ = ["FORMAT_VERSION", "LINE_BYTES", "MAGIC", "DESCRIPTION", "SLICE_REFERENCES", "read_memtrace_npz",
           "save_memtrace_npz", "memtrace_npz_length"]

FORMAT_VERSION = 1
#: Address granularity of the bundled traces [bytes].
LINE_BYTES = 64
#: First bytes of an ``.npz`` file (a zip archive), for format detection.
MAGIC = b"PK\x03\x04"
DESCRIPTION = "compact memory trace (.npz: line_delta, line_bytes, kind, size, meta)"
#: References a streamed read decompresses at a time [-] (:func:`read_memtrace_npz` within a memory
#: ``chunk_sink``): 1 Mi references, ~30 MB of slice and temporaries (int64 deltas, lines and addresses), so a
#: streamed read's memory stays far below a plan's per-reference state whatever the trace's length.
SLICE_REFERENCES = 1 << 20


def save_memtrace_npz(path, address, kind, size, meta: dict | None = None, *, line_bytes: int = LINE_BYTES) -> Path:
    """Write a memory trace in the compact ``.npz`` format (see module docstring).

    Parameters
    ----------
    path : str or Path
        Output file (``.npz``).
    address : array_like of uint64
        Virtual addresses [bytes], < 2**63.
    kind : array_like of uint8
        MEM_KINDS index per reference.
    size : array_like of int
        Access size [bytes], 1..255.
    meta : dict, optional
        JSON-serialisable description stored with the trace.
    line_bytes : int
        Address granularity kept [bytes], a power of two (1 keeps byte addresses).
    """
    if line_bytes < 1 or line_bytes & (line_bytes - 1):
        raise ValueError(f"line_bytes must be a power of two >= 1 (got {line_bytes})")
    a = np.asarray(address, dtype=np.uint64)
    k = np.asarray(kind, dtype=np.uint8)
    s = np.asarray(size)
    if not (len(a) == len(k) == len(s)):
        raise ValueError("address, kind and size must have the same length")
    if len(a) and int(a.max()) >= 1 << 63:
        raise ValueError("address: values must be < 2**63")
    if len(s) and (s.min() < 0 or s.max() > 255):
        raise ValueError("size: values must be in 0..255 bytes")
    if len(k) and k.max() > 3:
        raise ValueError("kind: values must be 0..3 (I, L, S, M)")
    lines = (a // np.uint64(line_bytes)).astype(np.int64)
    delta = np.diff(lines, prepend=np.int64(0))
    if len(delta) and np.abs(delta[1:]).max(initial=0) < 2**31 and abs(int(delta[0])) < 2**31:
        delta = delta.astype(np.int32)
    m = dict(meta or {}, format_version=FORMAT_VERSION, line_bytes=int(line_bytes))
    path = Path(path)
    np.savez_compressed(path, line_delta=delta, line_bytes=np.int64(line_bytes), kind=k, size=s.astype(np.uint8),
                        meta=np.array(json.dumps(m, sort_keys=True)))
    return path


#: Errors of a corrupt zip archive or ``.npy`` member (turned into TraceFormatError naming the file).
_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, NotImplementedError, RuntimeError,
               struct.error, lzma.LZMAError, KeyError)
#: Largest ``meta`` member [characters].
_META_CHARS = 1 << 20


_LIMIT = "the limit max_input_bytes={:,} (CLI --max-input-bytes)"


def _header(fp, name: str, max_items: int | None, max_input_bytes: int, label: str, limit: str = _LIMIT):
    """``(shape, dtype, n, take)`` of the ``.npy`` member open at ``fp`` (``take``: the elements to read, at most
    ``max_items``), refused when it holds objects or ``take`` elements pass the byte limit."""
    version = np.lib.format.read_magic(fp)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(fp)
    else:
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(fp)
    if dtype.hasobject:
        raise TraceFormatError(f"{label}: array {name!r} holds Python objects, not numbers")
    n = int(np.prod(shape, dtype=object))
    take = n if max_items is None else min(n, max_items)
    nbytes = take * dtype.itemsize
    if nbytes > max_input_bytes:
        raise TraceFormatError(f"{label}: array {name!r} holds {nbytes:,} bytes, more than "
                               + limit.format(max_input_bytes))
    return shape, dtype, n, take


def _member(zf: zipfile.ZipFile, name: str, max_items: int | None, max_input_bytes: int, label: str,
            limit: str = _LIMIT) -> np.ndarray:
    """Array ``name`` of the archive, reading at most ``max_items`` elements (never more than the byte limit)."""
    with zf.open(name + ".npy") as fp:
        shape, dtype, n, take = _header(fp, name, max_items, max_input_bytes, label, limit)
        nbytes = take * dtype.itemsize
        data = fp.read(nbytes)
        if take == n:
            fp.read(1)  # reach the member's end: zipfile checks its CRC-32 there
    if len(data) != nbytes:
        raise TraceFormatError(f"{label}: array {name!r} is truncated ({len(data)} of {nbytes} bytes)")
    a = np.frombuffer(data, dtype=dtype)
    return a.reshape(shape) if take == n else a


def _int_array(a: np.ndarray, name: str, label: str, lo: int, hi: int, start: int = 0) -> np.ndarray:
    """A 1-D integer array with values in lo..hi (as int64), else TraceFormatError (``start``: the index of its first
    element in the whole array, for the message)."""
    if a.ndim != 1:
        raise TraceFormatError(f"{label}: array {name!r} must be one-dimensional (shape {a.shape})")
    if a.dtype.kind not in "iu":
        raise TraceFormatError(f"{label}: array {name!r} must hold integers (dtype {a.dtype})")
    if len(a):
        if a.dtype.kind == "u":
            bad = a > np.uint64(hi)
            if lo > 0:
                bad |= a < np.uint64(lo)
        else:
            bad = (a < lo) | (a > hi)
        if bad.any():
            i = int(np.argmax(bad))
            raise TraceFormatError(f"{label}: array {name!r}: element {start + i} is {a[i]}, outside {lo}..{hi}")
    return a.astype(np.int64)


def memtrace_npz_length(path) -> int | None:
    """References of the ``.npz`` memory trace at ``path`` [-], from its ``kind`` array's header alone (nothing is
    decompressed); None when ``path`` is not such a file (the reader then says why).

    >>> p = save_memtrace_npz(Path(__import__("tempfile").mkdtemp()) / "t.npz", [0, 64, 128], [1, 2, 1], [8, 8, 8])
    >>> memtrace_npz_length(p), memtrace_npz_length(__file__)
    (3, None)
    """
    try:
        with zipfile.ZipFile(path) as zf, zf.open("kind.npy") as fp:
            version = np.lib.format.read_magic(fp)
            read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape = read(fp)[0]
    except _ZIP_ERRORS:
        return None
    return int(shape[0]) if len(shape) == 1 else None


def read_memtrace_npz(src, *, name: str | None = None, max_requests: int | None = None, progress=None,
                      chunk_bytes: int | None = None, max_line_bytes: int | None = None,
                      max_input_bytes: int = MAX_INPUT_BYTES) -> MemTrace:
    """Read a ``.npz`` memory trace (path, bytes or binary file object) into a :class:`MemTrace`.

    ``progress``, ``chunk_bytes`` and ``max_line_bytes`` are the common reader options; they have no
    effect here (loading is one decompression). Only the first ``max_requests`` elements of each
    array are decompressed, and at most ``max_input_bytes`` per array. Within
    ``models.traces.chunks.chunk_sink(consumer, kind="memory")`` the arrays are decompressed
    :data:`SLICE_REFERENCES` references at a time, each slice's columns handed to the consumer and none kept
    (the same checks, the same values; an empty trace with the name and metadata is returned). Every value is checked:
    ``line_bytes`` a power of two, ``kind`` 0..3, ``size`` 1..65535, addresses inside 0..2**63-1;
    a corrupt archive or value raises :class:`~models.traces.source.TraceFormatError` naming the file.

    >>> buf = io.BytesIO()
    >>> np.savez(buf, line_delta=np.array([1, 1, -1]), line_bytes=np.int64(64), kind=np.uint8([1, 2, 3]),
    ...          size=np.uint8([8, 8, 8]))
    >>> t = read_memtrace_npz(buf.getvalue(), name="t")
    >>> t.address.tolist(), t.kind.tolist(), t.meta["format"]
    ([64, 128, 64], [1, 2, 3], 'npz')
    """
    if max_requests is not None and max_requests < 1:
        raise ValueError(f"max_requests must be >= 1 (got {max_requests})")
    max_input_bytes = check_limit("max_input_bytes", max_input_bytes)
    is_path = isinstance(src, (str, os.PathLike))
    label = os.fspath(src) if is_path else (getattr(src, "name", None) or "the uploaded .npz file")
    if isinstance(src, (bytes, bytearray, memoryview)):
        data = io.BytesIO(bytes(src))
    else:
        data = src
        if hasattr(src, "seek"):
            try:
                src.seek(0)
            except (OSError, ValueError):
                pass
    sink = chunk_sink_of("memory")  # a streaming consumer takes the arrays slice by slice
    try:
        with zipfile.ZipFile(data) as zf:
            files = {n[:-4] for n in zf.namelist() if n.endswith(".npy")}
            missing = {"line_delta", "line_bytes", "kind", "size"} - files
            if missing:
                raise TraceFormatError(f"{label}: not a memory-trace .npz file: missing array(s) "
                                       f"{', '.join(sorted(missing))}")
            line_a = _member(zf, "line_bytes", None, 8, label, "{} (one integer)")
            meta_a = _member(zf, "meta", None, 4 * _META_CHARS, label, "{:,} (a JSON text)") if "meta" in files else None
            line = _line_bytes(line_a, label)
            if sink is not None:
                _stream_slices(zf, sink, line, max_requests, max_input_bytes, label)
            else:
                delta = _member(zf, "line_delta", max_requests, max_input_bytes, label)
                kind = _member(zf, "kind", max_requests, max_input_bytes, label)
                size = _member(zf, "size", max_requests, max_input_bytes, label)
    except TraceFormatError:
        raise
    except _FromSink as exc:  # the consumer's own error (a budget refusal, ...), not the archive's
        raise exc.error from None
    except _ZIP_ERRORS as exc:
        raise TraceFormatError(f"{label}: not a valid memory-trace .npz file ({quote(str(exc) or type(exc).__name__)})"
                               ) from None
    stem = Path(os.fspath(src)).stem if is_path else "memtrace"
    meta = dict(_meta(meta_a, label), format="npz", source=os.fspath(src) if is_path else "upload")
    if sink is not None:
        return MemTrace(np.zeros(0, np.uint64), np.zeros(0, np.uint16), np.zeros(0, np.uint8), name=name or stem,
                        meta=meta)
    delta, kind, size = _checked(delta, kind, size, label)
    addr = _addresses(delta, line, label)
    return MemTrace(addr.view(np.uint64), size.astype(np.uint16), kind.astype(np.uint8), name=name or stem, meta=meta)


def _line_bytes(line_a: np.ndarray, label: str) -> int:
    """The address granularity [bytes] of array ``line_bytes``: one integer, a power of two 1..2**30."""
    if line_a.size != 1 or line_a.dtype.kind not in "iu":
        raise TraceFormatError(f"{label}: 'line_bytes' must be one integer (got shape {line_a.shape}, "
                               f"dtype {line_a.dtype})")
    line = int(line_a.reshape(-1)[0])
    if line < 1 or line & (line - 1) or line > 1 << 30:
        raise TraceFormatError(f"{label}: 'line_bytes' must be a power of two 1..2**30 [bytes] (got {line})")
    return line


def _checked(delta, kind, size, label: str, start: int = 0):
    """The three arrays checked (integers in range, as int64) and of one length (``start``: the index of their first
    element in the trace, for the messages)."""
    delta = _int_array(delta, "line_delta", label, -I64_MAX, I64_MAX, start)
    kind = _int_array(kind, "kind", label, 0, 3, start)
    size = _int_array(size, "size", label, 1, 65535, start)
    if not len(delta) == len(kind) == len(size):
        raise TraceFormatError(f"{label}: arrays line_delta, kind and size differ in length "
                               f"({start + len(delta)}, {start + len(kind)}, {start + len(size)})")
    return delta, kind, size


def _addresses(delta: np.ndarray, line: int, label: str, carry: int = 0, start: int = 0) -> np.ndarray:
    """Byte addresses (int64) of the references whose line deltas are ``delta``, the line before them ``carry``
    (``start``: the index of the first in the trace), else TraceFormatError naming the first out of range."""
    lines = np.cumsum(delta, dtype=np.int64)
    if carry:
        lines += np.int64(carry)  # wraps as the running sum would; the check below sees it
    prev = lines - delta
    over = ((prev ^ lines) & (delta ^ lines)) < 0  # int64 overflow of the running sum
    top = I64_MAX // line
    bad = over | (lines < 0) | (lines > top)
    if bad.any():
        i = int(np.argmax(bad))
        raise TraceFormatError(f"{label}: reference {start + i}: the address (line_delta summed up to it, times "
                               f"line_bytes={line}) is outside 0..{I64_MAX} bytes")
    return lines * np.int64(line)


def _meta(meta_a, label: str) -> dict:
    """The trace's ``meta`` JSON object ({} without one)."""
    if meta_a is None:
        return {}
    if meta_a.ndim != 0 or meta_a.dtype.kind not in "US":
        raise TraceFormatError(f"{label}: 'meta' must be one JSON string (got shape {meta_a.shape}, "
                               f"dtype {meta_a.dtype})")
    text = meta_a.item()
    text = text.decode("utf-8", errors="replace") if isinstance(text, bytes) else str(text)
    try:
        meta = loads_json(text, what=f"{label}: 'meta'")
    except ValueError as exc:
        raise TraceFormatError(f"{label}: 'meta' is not valid JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise TraceFormatError(f"{label}: 'meta' must be a JSON object (got {quote(text)})")
    return meta


class _FromSink(Exception):  # noqa: N818 - a carrier, not an error of its own
    """An error the streaming consumer raised (``error``), carried past the archive's error handling."""

    def __init__(self, error: Exception):
        super().__init__(str(error))
        self.error = error


def _stream_slices(zf: zipfile.ZipFile, sink, line: int, max_requests: int | None, max_input_bytes: int,
                   label: str) -> None:
    """Hand ``sink`` the trace's columns :data:`SLICE_REFERENCES` references at a time, the three arrays
    decompressed side by side (each member open once; the checks of the whole read, slice by slice)."""
    names = ("line_delta", "kind", "size")
    with contextlib.ExitStack() as stack:
        fps = [stack.enter_context(zf.open(n + ".npy")) for n in names]
        heads = [_header(fp, n, max_requests, max_input_bytes, label) for fp, n in zip(fps, names)]
        for (shape, dtype, _, _), n in zip(heads, names):
            if len(shape) != 1:
                raise TraceFormatError(f"{label}: array {n!r} must be one-dimensional (shape {shape})")
            if dtype.kind not in "iu":
                raise TraceFormatError(f"{label}: array {n!r} must hold integers (dtype {dtype})")
        takes = [h[3] for h in heads]
        if len(set(takes)) != 1:
            raise TraceFormatError(f"{label}: arrays line_delta, kind and size differ in length "
                                   f"({takes[0]}, {takes[1]}, {takes[2]})")
        total, done, carry = takes[0], 0, 0
        while done < total:
            k = min(SLICE_REFERENCES, total - done)
            parts = []
            for fp, (_, dtype, n, take), nm in zip(fps, heads, names):
                raw = fp.read(k * dtype.itemsize)
                if len(raw) != k * dtype.itemsize:
                    raise TraceFormatError(f"{label}: array {nm!r} is truncated ({done * dtype.itemsize + len(raw)} "
                                           f"of {take * dtype.itemsize} bytes)")
                if done + k == take == n:
                    fp.read(1)  # reach the member's end: zipfile checks its CRC-32 there
                parts.append(np.frombuffer(raw, dtype=dtype))
            delta, kind, size = _checked(*parts, label, done)
            addr = _addresses(delta, line, label, carry, done)
            carry = int(addr[-1]) // line
            try:
                sink({"address": addr.view(np.uint64), "size": size.astype(np.uint16), "kind": kind.astype(np.uint8)})
            except Exception as e:  # noqa: BLE001 - passed on as it is, never read as a corrupt archive
                raise _FromSink(e) from e
            done += k
