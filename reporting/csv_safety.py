"""Spreadsheet-safe tables (no formula injection), shared by the app's downloads and the CLI."""

from __future__ import annotations

import pandas as pd

__all__ = ["safe_cell", "sanitize_frame"]

_DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """Escape a text cell a spreadsheet would run as a formula (OWASP CSV injection).

    Text starting with ``= + - @``, tab or CR gets a leading apostrophe. Numbers are left
    alone (``-3`` is a number, not a formula).

    >>> safe_cell("=HYPERLINK(1)"), safe_cell("-1+2"), safe_cell(-3.5), safe_cell("dram")
    ("'=HYPERLINK(1)", "'-1+2", -3.5, 'dram')
    """
    if isinstance(value, str) and value.startswith(_DANGEROUS):
        return "'" + value
    return value


def sanitize_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` with every text cell and column name made formula-safe."""
    out = df.copy()
    out.columns = [safe_cell(str(c)) for c in out.columns]
    for i in range(out.shape[1]):  # by position: duplicate column names must not break the export
        col = out.iloc[:, i]
        if col.dtype == object or pd.api.types.is_string_dtype(col):
            out.isetitem(i, col.map(safe_cell))
    return out
