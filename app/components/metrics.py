"""A row of ``st.metric`` figures (shared by the pages; not copy-pasted)."""

from __future__ import annotations

from typing import Any

__all__ = ["metric_row"]


def metric_row() -> Any:
    """A horizontal container to call ``.metric(...)`` on, once per figure, left to right.

    One element for the row, where ``st.columns(n)`` sends n + 1 (the row and each column) before the
    metrics: every element a run sends re-renders the page's React tree in the browser (issue 18), and
    a closed-form page shows two rows of four. Each metric takes the width its label and value need
    (equal columns cut "Closed form [years]" to "Closed form [y…" at the app's width); the row wraps
    when the page is narrow.
    """
    import streamlit as st

    return st.container(horizontal=True, gap="medium")
