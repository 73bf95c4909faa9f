"""The validation ledger in the app: the precomputed table and a compact per-page status strip.

The ledger (:mod:`models.validation`) takes about a minute to run, so pages read the table
``make validate`` wrote (``models/validation/ledger.csv``, the same run as
``docs/VALIDATION.md``; a test fails when it is stale) and cache it.

A model page shows its own claims at the top with :func:`claims_strip`::

    from app.components.claims import claims_strip
    claims_strip("write-cache")   # the page's url path in app/registry.py
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

__all__ = ["STATUS_BADGE", "STATUS_COLOR", "STATUS_HEX", "VALIDATION_URL", "load_ledger", "read_ledger", "badge",
           "status_style", "page_claims", "strip_markdown", "claims_strip"]

#: Badge glyph per status (plain Unicode symbols: they render without an emoji font) and its colour.
STATUS_BADGE = {
    "reproduced": "✔",
    "partly": "◐",
    "not reproduced": "✖",
    "contradicted": "≠",
    "not reproducible here": "○",
    "not modelled": "∅",
    "circular": "↻",
    "check only": "☑",
    "error": "⚠",
}
STATUS_COLOR = {
    "reproduced": "green",
    "partly": "orange",
    "not reproduced": "red",
    "contradicted": "violet",
    "not reproducible here": "gray",
    "not modelled": "gray",
    "circular": "blue",
    "check only": "blue",
    "error": "red",
}
#: Colours of the statuses in charts and table cells (hex, colour-blind-friendly enough to tell apart; each
#: reaches 3:1 against the light and the dark theme's background, tests/app/test_browser_theme.py).
STATUS_HEX = {
    "reproduced": "#2e9e4f",
    "partly": "#b8860b",
    "not reproduced": "#d62728",
    "contradicted": "#8e44ad",
    "not reproducible here": "#888888",
    "not modelled": "#a0522d",
    "circular": "#1f77b4",
    "check only": "#17a2a2",
    "error": "#d62728",
}
#: URL path of the validation page (app/registry.py).
VALIDATION_URL = "validation"
_NUMERIC = ("paper_number", "paper_low", "paper_high", "our_number")


def read_ledger(path=None) -> pd.DataFrame:
    """The precomputed ledger table (``models/validation/ledger.csv``), typed.

    ``FileNotFoundError`` when ``make validate`` has not written it yet.
    """
    from models.validation.render import table_path

    df = pd.read_csv(path or table_path(), dtype=str, keep_default_na=False)
    for c in _NUMERIC:
        df[c] = pd.to_numeric(df[c], errors="coerce")
    df["circular"] = df["circular"].str.lower().eq("true")
    return df


@st.cache_data(show_spinner=False, max_entries=2)
def _cached_ledger(mtime: float) -> pd.DataFrame:
    return read_ledger()


def load_ledger() -> pd.DataFrame:
    """:func:`read_ledger`, cached (``st.cache_data``) until the file changes."""
    from models.validation.render import table_path

    p = table_path()
    return _cached_ledger(p.stat().st_mtime if p.exists() else 0.0)


def badge(status: str) -> str:
    """``"✔ reproduced"``: the status with its badge glyph."""
    return f"{STATUS_BADGE.get(status, '•')} {status}"


def status_style(frame: pd.DataFrame, column: str = "status"):
    """A pandas Styler colouring ``column`` (values as given by :func:`badge`) by status."""
    def colour(v: str) -> str:
        status = str(v).split(" ", 1)[-1]
        hexc = STATUS_HEX.get(status)
        if not hexc:
            return ""
        # an opaque pastel of the status colour with dark text: readable in the light and the dark theme
        # (a translucent tint under dark text vanishes on the dark background)
        rgb = [int(hexc.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
        pastel = "#" + "".join(f"{round(c + (255 - c) * 0.7):02x}" for c in rgb)
        return f"background-color: {pastel}; color: #111"

    return frame.style.map(colour, subset=[column])


def page_claims(ledger: pd.DataFrame, page: str) -> pd.DataFrame:
    """The ledger rows of one app page (its url path)."""
    return ledger[ledger["page"] == page]


def strip_markdown(ledger: pd.DataFrame, page: str) -> str:
    """One line of Streamlit markdown: status badges with counts and a link to the validation page.

    >>> df = pd.DataFrame({"page": ["a", "a", "b"], "status": ["reproduced", "partly", "circular"]})
    >>> strip_markdown(df, "a")
    'Paper claims checked for this page: :green-badge[✔ 1 reproduced] :orange-badge[◐ 1 partly] · [details](validation?page=a)'
    >>> strip_markdown(df, "zzz")
    ''
    """
    rows = page_claims(ledger, page)
    if rows.empty:
        return ""
    counts = rows["status"].value_counts()
    parts = [f":{STATUS_COLOR.get(s, 'gray')}-badge[{STATUS_BADGE.get(s, '•')} {int(counts[s])} {s}]"
             for s in STATUS_BADGE if s in counts]
    return f"Paper claims checked for this page: {' '.join(parts)} · [details]({VALIDATION_URL}?page={page})"


def claims_strip(page: str) -> None:
    """Draw the strip of ``page``'s claims (nothing when the ledger has none or is missing)."""
    try:
        ledger = load_ledger()
    except (FileNotFoundError, KeyError, ValueError):
        return
    text = strip_markdown(ledger, page)
    if text:
        st.markdown(text)
