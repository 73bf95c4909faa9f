"""CSV export safe to open in a spreadsheet (no formula injection), with a provenance header.

``provenance=`` (keys of :mod:`app.components.provenance`: registry names and
``"device:<name>.<column>"``) puts ``# `` comment lines naming the provenance of the defaults
the result used before the table; read it back with ``pandas.read_csv(..., comment="#")``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

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


def csv_bytes(df: pd.DataFrame, provenance: Iterable[str] | None = None,
              values: Mapping[str, object] | None = None) -> bytes:
    """UTF-8 CSV of ``df``, formula-safe, without the index; ``provenance`` adds ``# `` header lines."""
    return _csv(df, _header(provenance, values))


def download_csv(df: pd.DataFrame, filename: str, label: str = "Download CSV", *, key: str | None = None,
                 provenance: Iterable[str] | None = None, values: Mapping[str, object] | None = None) -> None:
    """A Streamlit download button for the table ``df`` (formula-safe CSV, provenance header).

    The CSV is built during the run (a deferred, on-click download timed out in the browser test
    of the break-even page, so it was reverted).
    """
    import streamlit as st

    st.download_button(label, data=csv_bytes(df, provenance, values), file_name=filename, mime="text/csv",
                       key=key or f"dl-{filename}", icon=":material/download:")
