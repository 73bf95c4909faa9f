"""CSV export safe to open in a spreadsheet (no formula injection), with a provenance header.

``provenance=`` (keys of :mod:`app.components.provenance`: registry names and
``"device:<name>.<column>"``) puts ``# `` comment lines naming the provenance of the defaults
the result used before the table; read it back with ``pandas.read_csv(..., comment="#")``.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from reporting.csv_safety import safe_cell, sanitize_frame

__all__ = ["safe_cell", "sanitize_frame", "csv_bytes", "download_csv"]


def _header(provenance: Iterable[str] | None, values: Mapping[str, object] | None) -> list[str]:
    if not provenance:
        return []
    from app.components.provenance import export_header

    return export_header(provenance, values)


def _csv(df: pd.DataFrame, head: list[str]) -> bytes:
    body = sanitize_frame(df).to_csv(index=False, float_format="%.10g")
    if head:
        body = "\n".join(head) + "\n" + body
    return body.encode("utf-8")


#: Python types whose ``repr`` tells apart every value ``to_csv`` writes differently (an object column
#: holding anything else is not cached).
_REPR_TYPES = (str, int, float, bool, type(None))


def _frame_key(df: pd.DataFrame, head: list[str]) -> str | None:
    """Content hash of what :func:`_csv` writes for ``df`` and ``head``: headers, dtypes and every value
    (numbers by their bytes, text by ``repr``); None when a column's values cannot be keyed exactly
    (categories, objects other than :data:`_REPR_TYPES`): that CSV is built every time."""
    h = hashlib.blake2b(digest_size=20)
    h.update(repr((head, type(df.columns).__name__, df.columns.nlevels, [repr(c) for c in df.columns],
                   df.shape)).encode())
    for _, col in df.items():
        dt = col.dtype
        h.update(f"|{dt!r}|".encode())
        if isinstance(dt, np.dtype) and dt.kind in "iufbmM":
            h.update(np.ascontiguousarray(col.to_numpy()).view(np.uint8).tobytes())
        elif isinstance(dt, pd.StringDtype) or (isinstance(dt, np.dtype) and dt.kind == "O"):
            vals = col.tolist()
            if not isinstance(dt, pd.StringDtype) and not all(type(v) in _REPR_TYPES for v in vals):
                return None
            h.update(repr(vals).encode())
        else:
            return None
    return h.hexdigest()


class _CsvCache:
    """Process-wide LRU of CSV bytes by :func:`_frame_key` (an unchanged table, e.g. the device catalogue,
    is not written again on every rerun), bounded in entries and bytes; thread-safe (one script thread
    per session)."""

    def __init__(self, max_entries: int = 256, max_bytes: int = 32 * 2**20) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._d: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0

    def get(self, key: str) -> bytes | None:
        with self._lock:
            data = self._d.get(key)
            if data is not None:
                self._d.move_to_end(key)
            return data

    def put(self, key: str, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        with self._lock:
            old = self._d.pop(key, None)
            self.bytes += len(data) - (len(old) if old is not None else 0)
            self._d[key] = data
            while len(self._d) > self.max_entries or self.bytes > self.max_bytes:
                _, d = self._d.popitem(last=False)
                self.bytes -= len(d)


CSV_CACHE = _CsvCache()


def csv_bytes(df: pd.DataFrame, provenance: Iterable[str] | None = None,
              values: Mapping[str, object] | None = None) -> bytes:
    """UTF-8 CSV of ``df``, formula-safe, without the index; ``provenance`` adds ``# `` header lines.

    The bytes of a table whose content was written before come from :data:`CSV_CACHE`."""
    head = _header(provenance, values)
    key = _frame_key(df, head)
    data = CSV_CACHE.get(key) if key is not None else None
    if data is None:
        data = _csv(df, head)
        if key is not None:
            CSV_CACHE.put(key, data)
    return data


def download_csv(df: pd.DataFrame, filename: str, label: str = "Download CSV", *, key: str | None = None,
                 provenance: Iterable[str] | None = None, values: Mapping[str, object] | None = None) -> None:
    """A Streamlit download button for the table ``df`` (formula-safe CSV, provenance header).

    The CSV is built during the run (a deferred, on-click download timed out in the browser test
    of the break-even page, so it was reverted).
    """
    import streamlit as st

    st.download_button(label, data=csv_bytes(df, provenance, values), file_name=filename, mime="text/csv",
                       key=key or f"dl-{filename}", icon=":material/download:")
