"""Spreadsheet-safe tables (no formula injection), shared by the app's downloads, the CLI and the models' CSV text.

In ``models/`` so a model that writes CSV text (:func:`models.devices.devices_to_csv`) needs no
import from ``reporting/``; :mod:`reporting.csv_safety` re-exports it for the app and the CLI.
"""

from __future__ import annotations

import re

import pandas as pd

__all__ = ["safe_cell", "sanitize_frame"]

_DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
#: Text that starts like a formula but is none: a lone sign (a unit column's "-" for dimensionless). A number
#: written as text (``"-22.64"``) is still escaped: the validation ledger's CSV keeps no cell starting "-".
_INERT = re.compile(r"[-+]")


def safe_cell(value):
    """Escape a text cell a spreadsheet would run as a formula (OWASP CSV injection).

    Text starting with ``= + - @``, tab or CR gets a leading apostrophe. Numbers are left
    alone (``-3`` is a number, not a formula), and so is a lone sign (``"-"``: a unit column's
    "dimensionless", no formula).

    >>> safe_cell("=HYPERLINK(1)"), safe_cell("-1+2"), safe_cell(-3.5), safe_cell("dram")
    ("'=HYPERLINK(1)", "'-1+2", -3.5, 'dram')
    >>> safe_cell("-"), safe_cell("-3.5e2"), safe_cell("-cmd")
    ('-', "'-3.5e2", "'-cmd")
    """
    if isinstance(value, str) and value.startswith(_DANGEROUS) and not _INERT.fullmatch(value):
        return "'" + value
    return value


#: Rows from which a text column is checked with pandas' vectorised ``str.startswith`` (fewer: a plain
#: loop over the values, which costs less than the accessor's set-up on a small table).
_VECTOR_ROWS = 2000


def _kept_as_is(col: pd.Series) -> bool:
    """Whether mapping :func:`safe_cell` over the text column ``col`` would give it back unchanged (same
    values, same dtype): a string-dtype column, not empty, no missing cell (pandas re-infers the dtype
    of a mapped column: all-missing becomes float), no cell starting a formula."""
    if not isinstance(col.dtype, pd.StringDtype) or len(col) == 0:
        return False
    if len(col) >= _VECTOR_ROWS:
        return not col.isna().any() and not col.str.startswith(_DANGEROUS).any()
    return all(type(v) is str and not v.startswith(_DANGEROUS) for v in col.tolist())


def sanitize_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` with every text cell and column name made formula-safe.

    A full string-dtype column without a dangerous cell is kept as it is (:func:`_kept_as_is`: mapping
    :func:`safe_cell` over it gives an equal column of the same dtype), so a clean table costs one check
    per text column; any other text column is mapped cell by cell, as before.
    """
    out = df.copy()
    out.columns = [safe_cell(str(c)) for c in out.columns]
    for i, (_, col) in enumerate(out.items()):  # by position: duplicate column names must not break the export
        if (col.dtype == object or pd.api.types.is_string_dtype(col)) and not _kept_as_is(col):
            out.isetitem(i, col.map(safe_cell))
    return out
