"""The one table formatter of the app: every page shows its tables through :func:`table`.

- **Headers read like the page**: ``demerit_ms`` becomes "demerit [ms]", ``lru_vs_none`` "LRU vs
  none"; a page gives its own wording in ``labels=`` where the generic one is not enough.
- **Significant digits, not 16**: a float column shows ``digits`` significant digits
  (0.3740534362 reads 0.3741; 4e-16 reads 4e-16, not 0.0000000000000004); integer columns get
  thousands separators, and so do values >= 1 spanning decades (13,500,000 ns); ``percent=`` columns
  (fractions) read "37.4%". A page's styled table (a pandas Styler, for its colours) gets the same.
- **An empty number reads "—"**, not the grid's "None" (:func:`missing_as_text`).
- **Named values** (one statistic per row, mixed units) go through :func:`key_value_table`.
- **Formula-safe**: text cells and headers pass :func:`reporting.csv_safety.sanitize_frame`, so
  a cell copied or exported from the grid cannot run as a spreadsheet formula. The grid's own
  "Download as CSV" / copy are switched off app-wide (``client.disableDataExport``): the page's
  download button (:func:`app.components.export.download_csv`) is the export, with provenance.

The values themselves are not rounded (sorting and the CSV keep full precision); only the display is.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from reporting.csv_safety import safe_cell, sanitize_frame
from reporting.number_text import (  # noqa: F401 - the pages import them from here too
    LABELS,
    LOCALIZED_MAX,
    MISSING_TEXT,
    UNITS,
    WORDS,
    human_label,
    number_format,
    number_text,
    power_of_ten,
    scalar_text,
    unit_text,
)

__all__ = ["table", "text_table", "display_frame", "human_label", "number_format", "number_text",
           "missing_as_text", "key_value_table", "scalar_text", "unit_text", "power_of_ten"]


def display_frame(df: pd.DataFrame, *, labels: Mapping[str, str] | None = None, digits: int = 4,
                  percent: Iterable[str] = ()) -> tuple[pd.DataFrame, dict[str, Any]]:
    """(formula-safe frame with human headers, column_config) of ``df`` for ``st.dataframe``."""
    import streamlit as st

    labels = dict(labels or {})
    percent = set(percent)
    out = sanitize_frame(df)
    names = [labels.get(str(c), human_label(c)) for c in df.columns]
    # never two columns with one header (Streamlit refuses them)
    seen: dict[str, int] = {}
    for i, n in enumerate(names):
        seen[n] = seen.get(n, 0) + 1
        if seen[n] > 1:
            names[i] = f"{n} ({seen[n]})"
    out.columns = [safe_cell(n) for n in names]
    config: dict[str, Any] = {}
    for orig, name in zip(df.columns, out.columns):
        col = out[name]
        if str(orig) in percent:
            config[name] = st.column_config.NumberColumn(format="percent")
            continue
        fmt = number_format(col, digits)
        if fmt is not None:
            config[name] = st.column_config.NumberColumn(**grid_format(col, fmt, digits))
    return out, config


def grid_format(col: pd.Series, fmt: str, digits: int = 4) -> dict[str, Any]:
    """``NumberColumn`` options showing ``col`` in :func:`number_format`'s ``fmt``: a fixed-decimals column with
    values from 1,000 up reads with thousands separators (the grid's "localized" format at the same decimals:
    826,555 ops/s, not 826555); a "localized" float column gets the decimals its smallest value needs for
    ``digits`` digits (50,242,138 ns, not the grid's default 50,242,138.001); others as ``fmt``.

    >>> grid_format(pd.Series([4284.3, 826555.1]), "%.0f"), grid_format(pd.Series([0.06, 11.7]), "%.5f")
    ({'format': 'localized', 'step': 1}, {'format': '%.5f'})
    >>> grid_format(pd.Series([4408116.2, 6.1e9]), "localized"), grid_format(pd.Series([101.5, 1.35e7]), "localized")
    ({'format': 'localized', 'step': 1}, {'format': 'localized', 'step': 0.1})
    >>> grid_format(pd.Series([13.0, 181862.0]), "localized")
    {'format': 'localized', 'step': 1}
    """
    m = re.fullmatch(r"%\.(\d+)f", fmt)
    v = np.abs(np.asarray(col, dtype=float))
    v = v[np.isfinite(v)]
    if m and v.size and float(v.max()) >= 1e3:
        decimals = int(m.group(1))
    elif fmt == "localized" and not pd.api.types.is_integer_dtype(col) and (v > 0).any():
        whole = bool(np.all(v == np.round(v)))  # whole numbers stored as floats: 181,862 pages, not 181,862.00
        decimals = 0 if whole else max(0, min(3, digits - 1 - math.floor(math.log10(float(v[v > 0].min())))))
    else:
        return {"format": fmt}
    return {"format": "localized", "step": 1 if decimals == 0 else round(10.0 ** -decimals, decimals)}


def table(data: Any, *, labels: Mapping[str, str] | None = None, digits: int = 4, percent: Iterable[str] = (),
          column_config: Mapping[str, Any] | None = None, hide_index: bool = True, key: str | None = None,
          width: str = "stretch", **kwargs: Any) -> Any:
    """Show a table the app's way (see module doc). ``data``: a DataFrame or a pandas Styler.

    Parameters
    ----------
    labels : mapping, optional
        Column key -> header shown (default :func:`human_label`).
    digits : int
        Significant digits of float columns.
    percent : iterable of str
        Column keys holding fractions, shown as percentages.
    column_config : mapping, optional
        Extra Streamlit column configs, keyed by column key (or shown header); they win over the formatter's.
    **kwargs
        Passed to ``st.dataframe`` (e.g. ``height``).
    """
    import streamlit as st
    from pandas.io.formats.style import Styler

    if isinstance(data, Styler):
        data, config = _styled(data, labels=labels, digits=digits, percent=percent)
        config.update(column_config or {})
        return st.dataframe(data, hide_index=hide_index, key=key, width=width, column_config=config, **kwargs)
    df = data if isinstance(data, pd.DataFrame) else pd.DataFrame(data)
    shown, config = display_frame(df, labels=labels, digits=digits, percent=percent)
    shown_of = dict(zip((str(c) for c in df.columns), shown.columns))
    config.update({shown_of.get(str(k), k): v for k, v in (column_config or {}).items()})
    shown, config = missing_as_text(shown, config, digits=digits)
    return st.dataframe(shown, hide_index=hide_index, key=key, width=width, column_config=config, **kwargs)


def missing_as_text(shown: pd.DataFrame, config: dict[str, Any], *, digits: int = 4
                    ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Number columns with empty cells as right-aligned text, each empty cell :data:`MISSING_TEXT`
    (Streamlit's grid shows a missing number as "None", read as a leaked Python value). The numbers keep
    the column's format (its ``config`` entry, else :func:`number_format`); label, help and width are kept."""
    import streamlit as st

    out = shown
    for name in shown.columns:
        col = shown[name]
        if (pd.api.types.is_bool_dtype(col) or not pd.api.types.is_numeric_dtype(col)
                or not col.isna().any()):
            continue
        cfg = config.get(name) or {}
        if isinstance(cfg, str):
            cfg = {"label": cfg}
        type_config = cfg.get("type_config") or {}
        fmt = type_config.get("format") if type_config.get("type") == "number" else None
        fmt = fmt or number_format(col, digits)
        if out is shown:
            out = shown.copy()
        out[name] = [MISSING_TEXT if _missing(v) else number_text(v, fmt, digits) for v in col]
        config[name] = st.column_config.TextColumn(cfg.get("label"), help=cfg.get("help"), width=cfg.get("width"),
                                                   alignment="right")
    return out, config


def _styled(styler: Any, *, labels: Mapping[str, str] | None, digits: int, percent: Iterable[str]
            ) -> tuple[Any, dict[str, Any]]:
    """A page's styled table (its colours kept) the app's way: text cells formula-safe, number columns
    shown as :func:`number_format` gives them (a Styler's own default is six decimals: 1179.000000) and
    headers as :func:`human_label` reads them (as column labels: the styles stay keyed by column)."""
    styler.data = sanitize_frame(styler.data)
    labels, percent = dict(labels or {}), set(percent)
    config: dict[str, Any] = {}
    formats: dict[Any, Any] = {}
    for c in styler.data.columns:
        name = labels.get(str(c), human_label(c))
        if name != str(c):
            config[c] = name
        col = styler.data[c]
        fmt = "percent" if str(c) in percent else number_format(col, digits)
        if fmt is not None:
            formats[c] = lambda v, f=fmt: MISSING_TEXT if _missing(v) else number_text(v, f, digits)
    if formats:
        styler.format(formats)
    return styler, config


def _number_or_text(v: Any) -> Any:
    """A cell of a key/value table as a number when it reads as one (``'36315136'`` -> 36315136)."""
    if isinstance(v, (bool, np.bool_)) or v is None:
        return v
    if isinstance(v, (int, float, np.number)):
        return v
    for cast in (int, float):
        try:
            return cast(str(v))
        except ValueError:
            pass
    return v


def key_value_table(data: pd.DataFrame | Mapping[str, Any], *, labels: Mapping[str, str] | None = None,
                    percent: Iterable[str] = (), digits: int = 4, headers: tuple[str, str] = ("statistic", "value"),
                    text: Iterable[str] = (), key: str | None = None, notes: Iterable[str] | None = None,
                    notes_header: str = "method") -> Any:
    """A two-column table of named values (one statistic per row) the app's way: each name as a header
    would read (:func:`human_label`, or ``labels``), each value with ``digits`` significant digits and
    thousands separators (``percent`` keys as percentages), right-aligned; text values, and the ``text`` keys
    (a seed, a year), as given.

    ``data``: a mapping name -> value, or a two-column frame (names, values; values may be text, as
    :func:`models.traces.stats.statistic_table` gives them). ``notes``: one text per row, a third column headed
    ``notes_header`` (how each value was found: its method and sampling rate)."""
    import streamlit as st

    if isinstance(data, pd.DataFrame):
        names, vals = data.iloc[:, 0].tolist(), data.iloc[:, 1].tolist()
    else:
        names, vals = list(data), list(data.values())
    labels, percent, text = dict(labels or {}), set(percent), set(text)
    shown_vals = []
    for name, v in zip(names, vals):
        v = str(v) if str(name) in text else _number_or_text(v)
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.number)):
            shown_vals.append("" if _missing(v) else str(v))
        elif str(name) in percent:
            shown_vals.append(number_text(v, "percent"))
        else:
            shown_vals.append(scalar_text(v, digits))
    out = pd.DataFrame({headers[0]: [labels.get(str(n), human_label(n)) for n in names], headers[1]: shown_vals})
    if notes is not None:
        notes = [str(x) for x in notes]
        if len(notes) != len(out):
            raise ValueError(f"key_value_table: {len(notes)} notes for {len(out)} rows")
        out[notes_header] = notes
    out = sanitize_frame(out)
    return st.dataframe(out, hide_index=True, key=key, width="stretch", column_config={
        headers[1]: st.column_config.TextColumn(alignment="right")})


def _missing(v: Any) -> bool:
    """None, NaN, pd.NA or NaT (an empty cell), for a scalar cell value."""
    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):  # a list or array in a cell
        return False


def text_table(data: pd.DataFrame, *, labels: Mapping[str, str] | None = None, digits: int = 4,
               cell_styles: Mapping[str, Mapping[str, str]] | None = None, wrap_anywhere: bool = False) -> Any:
    """A static table whose cells wrap, for long text (reasons, sources) read in full without scrolling
    sideways: ``st.table`` (the grid of :func:`table` cannot wrap a cell).

    Same headers and formula-safety as :func:`table`; numbers shown as text with ``digits`` significant
    digits (NaN: empty). ``st.table`` renders Markdown, so every header and cell is escaped
    (:func:`app.components.errors.md_escape`) and reads exactly as typed. ``cell_styles``: column key ->
    {cell value -> CSS} (e.g. the colour of a verdict), matched on the raw value. ``wrap_anywhere``: every
    cell may break inside a long word (a device name, a path), so the table fits a narrow window (800 px
    with the sidebar open) instead of running past its right edge.
    """
    import streamlit as st

    from app.components.errors import md_escape

    shown, _ = display_frame(data, labels=labels, digits=digits)
    out = pd.DataFrame(index=range(len(shown)))
    for name in shown.columns:
        col = shown[name]
        if pd.api.types.is_bool_dtype(col) or not pd.api.types.is_numeric_dtype(col):
            texts = ["" if _missing(v) else str(v) for v in col]
        elif pd.api.types.is_integer_dtype(col):
            texts = ["" if _missing(v) else f"{int(v):,}" for v in col]
        else:
            texts = [f"{v:,.{digits}g}" if math.isfinite(v) else "" for v in col.astype(float)]
        out[md_escape(name)] = [md_escape(t) for t in texts]
    styles = {md_escape(shown.columns[list(map(str, data.columns)).index(str(k))]): (k, css)
              for k, css in (cell_styles or {}).items() if str(k) in map(str, data.columns)}
    if not styles and not wrap_anywhere:
        return st.table(out, hide_index=True)
    wrap = "overflow-wrap: anywhere; word-break: break-word; " if wrap_anywhere else ""

    def colour(col: pd.Series) -> list[str]:
        if col.name not in styles:
            return [wrap] * len(col)
        key, css = styles[col.name]
        return [wrap + css.get(str(v), "") for v in data[key].tolist()]

    return st.table(out.style.apply(colour, subset=list(out.columns) if wrap_anywhere else list(styles)),
                    hide_index=True)

