"""Lazy tabs: a page's views drawn one at a time (shared by the pages; not copy-pasted).

Streamlit's frontend rebuilds every Plotly chart whose figure changed from scratch (a new element id per
spec, so ``Plotly.react`` falls back to ``newPlot``): ~40-50 ms each in the browser on the 2-core machine
(issue 18). A page whose one input feeds several charts draws the open view only, the others on a click.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

__all__ = ["lazy_tabs"]


def lazy_tabs(key: str, views: Mapping[str, Callable[[], None]]) -> None:
    """Draw ``views`` (tab label -> zero-argument function drawing it) as tabs, only the open one drawn.

    ``key``: the tabs' session-state key (the open label; the first by default). Opening another tab reruns
    the page (``on_change="rerun"``), which then draws that view. The chart rules open every lazy tab
    (``tests/app/chart_rules.py::every_tab_figures``).
    """
    import streamlit as st

    tabs = st.tabs(list(views), key=key, on_change="rerun")
    for tab, draw in zip(tabs, views.values(), strict=True):
        if tab.open:
            with tab:
                draw()
