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

import io
import json
from pathlib import Path

import numpy as np

from models.traces.core import MemTrace

__all__ = ["FORMAT_VERSION", "LINE_BYTES", "MAGIC", "DESCRIPTION", "read_memtrace_npz", "save_memtrace_npz"]

FORMAT_VERSION = 1
#: Address granularity of the bundled traces [bytes].
LINE_BYTES = 64
#: First bytes of an ``.npz`` file (a zip archive), for format detection.
MAGIC = b"PK\x03\x04"
DESCRIPTION = "compact memory trace (.npz: line_delta, line_bytes, kind, size, meta)"


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


def read_memtrace_npz(src, *, name: str | None = None, max_requests: int | None = None, progress=None,
                      chunk_bytes: int | None = None) -> MemTrace:
    """Read a ``.npz`` memory trace (path, bytes or binary file object) into a :class:`MemTrace`.

    ``progress`` and ``chunk_bytes`` are the common reader options; they have no effect here
    (loading is one decompression).

    >>> buf = io.BytesIO()
    >>> np.savez(buf, line_delta=np.array([1, 1, -1]), line_bytes=np.int64(64), kind=np.uint8([1, 2, 3]),
    ...          size=np.uint8([8, 8, 8]))
    >>> t = read_memtrace_npz(buf.getvalue(), name="t")
    >>> t.address.tolist(), t.kind.tolist(), t.meta["format"]
    ([64, 128, 64], [1, 2, 3], 'npz')
    """
    if max_requests is not None and max_requests < 1:
        raise ValueError(f"max_requests must be >= 1 (got {max_requests})")
    is_path = isinstance(src, (str, Path))
    data = io.BytesIO(bytes(src)) if isinstance(src, (bytes, bytearray, memoryview)) else src
    try:
        z = np.load(data, allow_pickle=False)
    except Exception as exc:  # noqa: BLE001 - re-raised with the file named
        raise ValueError(f"not a memory-trace .npz file ({src if is_path else 'upload'}): {exc}") from None
    with z:
        missing = {"line_delta", "line_bytes", "kind", "size"} - set(z.files)
        if missing:
            raise ValueError(f"memory-trace .npz: missing array(s) {', '.join(sorted(missing))}")
        sl = slice(None, max_requests)
        delta = z["line_delta"][sl].astype(np.int64, copy=False)
        line = int(z["line_bytes"])
        kind = z["kind"][sl]
        size = z["size"][sl]
        meta = json.loads(str(z["meta"])) if "meta" in z.files else {}
    addr = np.cumsum(delta, dtype=np.int64)
    if len(addr) and addr.min() < 0:
        raise ValueError("memory-trace .npz: negative address after decoding line_delta")
    addr *= line
    stem = Path(str(src)).stem if is_path else "memtrace"
    meta = dict(meta, format="npz", source=str(src) if is_path else "upload")
    return MemTrace(addr.view(np.uint64), size.astype(np.uint16), kind, name=name or stem, meta=meta)
