"""CSV export safe to open in a spreadsheet (no formula injection)."""

from __future__ import annotations

import pandas as pd

from reporting.csv_safety import safe_cell, sanitize_frame

__all__ = ["safe_cell", "sanitize_frame", "csv_bytes", "download_csv"]


def csv_bytes(df: pd.DataFrame) -> bytes:
    """UTF-8 CSV of ``df``, formula-safe, without the index."""
    return sanitize_frame(df).to_csv(index=False, float_format="%.10g").encode("utf-8")


def download_csv(df: pd.DataFrame, filename: str, label: str = "Download CSV", *, key: str | None = None) -> None:
    """A Streamlit download button for the table ``df`` (formula-safe CSV)."""
    import streamlit as st

    st.download_button(label, data=csv_bytes(df), file_name=filename, mime="text/csv",
                       key=key or f"dl-{filename}", icon=":material/download:")
