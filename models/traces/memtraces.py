"""Bundled real memory-reference traces (valgrind lackey, compact ``.npz``) by name.

The traces under ``data/traces/mem/*.npz`` were recorded with
``valgrind --tool=lackey --trace-mem=yes`` by ``data/traces/make_memtraces.sh`` (commands,
program versions and the kept window are in ``data/SOURCES.md`` and in each file's
``meta``). Only data references (lackey ``L``, ``S``, ``M``) are kept: instruction fetches
go through a separate instruction TLB on real CPUs, and the paper's Tables 1-2 count
reads and writes only.

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

References
----------
.. [1] N. Nethercote, J. Seward, "Valgrind: a framework for heavyweight dynamic binary
   instrumentation", PLDI 2007 (Lackey: the example tool, ``--trace-mem=yes``).
.. [2] Y. Park, H. Bahn, "Issues in File Caching and Virtual Memory Paging with Fast SCM
   Storage", ASTESJ 5(5), 2020, doi:10.25046/aj050581 (seed 004), Tables 1-2.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from models.data import data_dir
from models.traces.core import MemTrace

__all__ = [
    "FORMAT_VERSION",
    "memtrace_names",
    "memtrace_path",
    "load_memtrace",
    "read_memtrace_npz",
    "save_memtrace_npz",
    "memtrace_stats",
    "memtrace_table",
]

FORMAT_VERSION = 1


def _mem_dir() -> Path:
    return data_dir() / "traces" / "mem"


def memtrace_names() -> list[str]:
    """Names of the bundled memory traces (file stems under ``data/traces/mem/``).

    >>> "sqlite" in memtrace_names()
    True
    """
    d = _mem_dir()
    return sorted(p.stem for p in d.glob("*.npz")) if d.is_dir() else []


def memtrace_path(name: str) -> Path:
    """Path of the bundled memory trace ``name``; unknown names raise ``KeyError`` listing valid ones."""
    name = str(name).strip()
    if name.startswith("lackey:"):
        name = name[len("lackey:"):]
    p = _mem_dir() / f"{name}.npz"
    if not p.is_file():
        raise KeyError(f"unknown memory trace {name!r}; valid names: {', '.join(memtrace_names()) or '(none)'}")
    return p


#: Address granularity of the bundled traces [bytes].
LINE_BYTES = 64


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


def read_memtrace_npz(src, *, name: str | None = None, max_requests: int | None = None, **_ignored) -> MemTrace:
    """Read a ``.npz`` memory trace (path or binary file-like) into a :class:`MemTrace`.

    Signature compatible with the trace readers (``name``, ``max_requests``; other reader
    options such as ``progress`` are accepted and ignored: loading is one decompression).
    """
    if max_requests is not None and max_requests < 1:
        raise ValueError(f"max_requests must be >= 1 (got {max_requests})")
    try:
        z = np.load(src, allow_pickle=False)
    except Exception as exc:  # noqa: BLE001 - re-raised with the file named
        raise ValueError(f"not a memory-trace .npz file ({src!s}): {exc}") from None
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
    stem = Path(str(src)).stem if isinstance(src, (str, Path)) else "memtrace"
    meta = dict(meta, format="npz", source=str(src) if isinstance(src, (str, Path)) else "upload")
    return MemTrace(addr.view(np.uint64), size.astype(np.uint16), kind, name=name or stem, meta=meta)


@cache
def _load_cached(name: str, max_refs: int | None) -> MemTrace:
    return read_memtrace_npz(memtrace_path(name), name=name, max_requests=max_refs)


def load_memtrace(name: str, max_refs: int | None = None) -> MemTrace:
    """Load the bundled memory trace ``name`` (optionally only its first ``max_refs`` references).

    ``name`` may carry the ``lackey:`` prefix used by the trace picker. Unknown names raise
    ``KeyError`` listing the valid names. Results are cached (traces are immutable).

    >>> t = load_memtrace("sqlite", max_refs=1000)
    >>> len(t), t.meta["program"]
    (1000, 'sqlite3')
    >>> load_memtrace("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "unknown memory trace 'nope'; valid names: ...
    """
    if max_refs is not None and max_refs < 1:
        raise ValueError(f"max_refs must be >= 1 (got {max_refs})")
    key = str(name).strip()
    if key.startswith("lackey:"):
        key = key[len("lackey:"):]
    memtrace_path(key)  # raises KeyError with the valid names
    return _load_cached(key, max_refs)


def memtrace_stats(trace: MemTrace, *, page_size_bytes: int = 4096) -> dict:
    """Table 1/2-style statistics of a memory trace.

    Reads are loads (``L``) and the read half of modifies (``M``); writes are stores (``S``)
    and modifies; ``total`` counts references (an ``M`` once). The footprint is the number
    of distinct ``page_size_bytes`` pages touched times the page size [MB = 1e6 bytes];
    the paper does not state its footprint unit or page size, so the 4 KiB-page footprint is
    given in MiB as well.

    >>> s = memtrace_stats(MemTrace([0, 8, 4096], [8, 8, 8], [1, 2, 3]))
    >>> s["reads"], s["writes"], s["total"], s["pages"]
    (2, 2, 3, 2)
    """
    k = trace.kind
    n_l = int(np.count_nonzero(k == 1))
    n_s = int(np.count_nonzero(k == 2))
    n_m = int(np.count_nonzero(k == 3))
    n_i = int(np.count_nonzero(k == 0))
    pages = int(len(np.unique(trace.address >> np.uint64(int(page_size_bytes).bit_length() - 1))))
    fp = pages * page_size_bytes
    return {
        "trace": trace.name,
        "footprint_MB": fp / 1e6,
        "footprint_MiB": fp / 2**20,
        "pages": pages,
        "page_size_bytes": int(page_size_bytes),
        "reads": n_l + n_m,
        "writes": n_s + n_m,
        "loads": n_l,
        "stores": n_s,
        "modifies": n_m,
        "instructions": n_i,
        "total": len(trace),
    }


def memtrace_table(names: list[str] | None = None, *, max_refs: int | None = None) -> pd.DataFrame:
    """Table 1/2 analogue for the bundled traces: footprint [MB], reads, writes, total, program.

    >>> memtrace_table(["sqlite"], max_refs=1000)[["trace", "total"]].to_dict("records")
    [{'trace': 'sqlite', 'total': 1000}]
    """
    rows = []
    for n in names if names is not None else memtrace_names():
        t = load_memtrace(n, max_refs)
        row = memtrace_stats(t)
        row["program"] = t.meta.get("program", "")
        row["description"] = t.meta.get("description", "")
        rows.append(row)
    return pd.DataFrame(rows)
