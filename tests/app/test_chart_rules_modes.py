"""Every figure behind every mode switch obeys the chart rules (issue 18).

Each page's figures with every lazy tab opened in turn (the walk tests/app/test_app_pages.py used to repeat),
then each option of each radio / selectbox / segmented control / toggle / checkbox of the page, one switch at a
time from the defaults (a switch that only appears with another's option, with that option set):
:func:`tests.app.chart_rules.every_mode_figures`. A failure names the page, the switch and the option
(``[Inputs = Manual t / T / Tm] chart 0 …``). Options that need an upload, value pickers' untried
options and the switches skipped on purpose are printed (``-rP`` / ``-s`` shows them).

Time: 88 s for the 16 pages on the quiet 2-core machine (memory extension 24 s, the others under 10 s),
up to 5 min while other jobs load it.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app.registry import PAGES
from tests import ROOT
from tests.app.chart_rules import (
    check_figure,
    check_figures,
    check_tables,
    check_texts,
    every_mode_figures,
    internal_errors,
)

VIEWS = ROOT / "app" / "views"


#: Pages whose walk has a test file of its own (the longest walks: memory extension ~94 s, write cache ~79 s in CI),
#: so pytest-xdist's ``--dist loadfile`` runs them beside this file's walk.
OWN_FILE = {"memory-extension": "test_chart_rules_modes_memext.py", "write-cache": "test_chart_rules_modes_writecache.py"}
_HERE = [p for p in PAGES if p[4] not in OWN_FILE]


@pytest.mark.parametrize("file", [p[1] for p in _HERE], ids=[p[4] for p in _HERE])
def test_every_mode_of_every_page_draws_charts_that_read_right(file):
    assert_every_mode_reads_right(file)


def test_the_pages_walked_in_their_own_files_are_walked_there():
    from pathlib import Path

    assert set(OWN_FILE) <= {p[4] for p in PAGES}
    for page, name in OWN_FILE.items():
        text = (Path(__file__).with_name(name)).read_text()
        file = next(p[1] for p in PAGES if p[4] == page)
        assert f'assert_every_mode_reads_right("{file}")' in text, (page, name)


def assert_every_mode_reads_right(file: str) -> None:
    """The walk of one page (``app/views/<file>``): every figure behind every mode switch obeys the rules."""
    at = AppTest.from_file(str(VIEWS / file), default_timeout=300).run()
    assert not at.exception, [e.message for e in at.exception]
    assert internal_errors(at) == []
    texts: list[str] = []
    tables: list = []
    figs, not_tried = every_mode_figures(at, texts=texts, tables=tables)
    print(f"{file}: {len(figs)} figures checked; not tried:", *not_tried, sep="\n  ")
    assert check_figures(figs) == []
    assert check_texts(texts) == []
    assert check_tables(tables) == []
    assert all(": " in n for n in not_tried), "each option not tried says why"


# ----------------------------------------------------------------------------- the explorer itself

def _modes_script():
    import plotly.graph_objects as go
    import streamlit as st

    def chart(x_title):
        st.plotly_chart(go.Figure(go.Scatter(x=[1, 2], y=[3, 4])).update_layout(
            xaxis_title=x_title, yaxis_title="t [ms]", yaxis_rangemode="tozero"))

    names = {"paper": "As in the paper", "mine": "My own"}
    mode = st.radio("Inputs", list(names), key="m.mode", format_func=names.get)
    chart("n [-]")
    if mode == "mine":
        if st.selectbox("Scale", ["linear", "broken"], key="m.scale") == "broken":
            chart("value")  # only with two switches changed
    if st.checkbox("Upload my own", key="m.up"):
        st.file_uploader("File", key="m.file")
    if st.toggle("Bug", key="m.bug"):
        st.error("Page: unexpected internal error (KeyError); your inputs are kept")
    tab_a, tab_b = st.tabs(["a", "b"], key="m.tab", on_change="rerun")
    if tab_b.open:
        with tab_b:
            if st.radio("Axis", ["log", "lin"], key="m.axis", horizontal=True) == "lin":
                chart("latency")  # no unit: inside a closed tab, behind a switch


def test_every_mode_figures_tries_each_option_and_names_where():
    at = AppTest.from_function(_modes_script, default_timeout=60)
    at.session_state["m.bug"] = False
    at.run()
    with pytest.raises(AssertionError, match=r"Bug = on: .*unexpected internal error"):
        every_mode_figures(at)


def test_every_mode_figures_finds_a_chart_behind_two_switches_and_a_tab():
    from tests.app import chart_rules

    at = AppTest.from_function(_modes_script, default_timeout=60).run()
    skip = dict(chart_rules.MODE_SKIP)
    chart_rules.MODE_SKIP["m.bug"] = "tested above"
    try:
        figs, not_tried = every_mode_figures(at)
    finally:
        chart_rules.MODE_SKIP.clear()
        chart_rules.MODE_SKIP.update(skip)
    names = [n for n, _ in figs]
    assert "[Inputs = My own, Scale = broken] chart 1" in names, names
    assert "[[b] Axis = lin] chart 1" in names, names
    bad = {n: check_figure(f, n) for n, f in figs if check_figure(f, n)}
    assert set(bad) == {"[Inputs = My own, Scale = broken] chart 1", "[[b] Axis = lin] chart 1"}, bad
    assert any(t.startswith("Upload my own = on: needs an upload") for t in not_tried), not_tried
    assert any(t.startswith("Bug = on: tested above") for t in not_tried), not_tried
    assert at.session_state["m.mode"] == "paper" and at.session_state["m.tab"] == "a"  # the defaults put back
