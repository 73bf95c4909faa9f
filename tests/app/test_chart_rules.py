"""The chart rules (tests/app/chart_rules.py) catch each misleading chart of issue 18, and the shared
chart helpers (app/components/charts.py) produce figures that pass them. Every page's figures are
checked in tests/app/test_app_pages.py."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from app.components import charts
from tests.app.chart_rules import check_figure, check_texts


def _json(fig: go.Figure) -> dict:
    return json.loads(charts._finish(fig).to_json())  # what show() sends


def _curve(x0=1, x1=4096, logx=True) -> go.Figure:
    x = np.geomspace(x0, x1, 50)
    fig = go.Figure(go.Scatter(x=x, y=1 - 1 / (1 + x)))
    return charts.style(fig, x="TLB entries [-]", y="TLB hit rate [-]", logx=logx)


def test_plotly_annotation_on_a_log_axis_is_caught():
    """add_vline(annotation_text=...) puts its label at 10**x on a log axis (the "10^63" TLB chart)."""
    fig = _curve()
    fig.add_vline(x=64, annotation_text="64 entries")
    problems = check_figure(_json(fig))
    assert any("64 entries" in p and "outside the data" in p for p in problems), problems


def test_hline_label_a_decade_off_is_caught():
    """Inside the data but not on its line: "1 year" drawn at 10 years (lifetime Figure 2)."""
    fig = go.Figure(go.Bar(x=["a", "b"], y=[0.01, 1000]))
    charts.style(fig, x="workload", y="lifetime [years]", logy=True)
    fig.add_hline(y=1.0, annotation_text="1 year")
    fig.add_hline(y=3.0, annotation_text="3 years")
    problems = check_figure(_json(fig))
    assert any("'3 years' labels the line at 3" in p for p in problems), problems


@pytest.mark.parametrize("x", [1, 64, 4096])
def test_ref_line_label_sits_on_its_line_on_log_axes(x):
    fig = _curve()
    charts.ref_line(fig, x=x, text=f"{x} entries")
    charts.ref_line(fig, y=0.5, text="half")
    f = _json(fig)
    assert check_figure(f) == []
    assert [s["label"]["text"] for s in f["layout"]["shapes"]] == [f"{x} entries", "half"]
    assert not f["layout"].get("annotations")


def test_reference_line_far_outside_the_data_is_caught():
    fig = _curve()
    charts.ref_line(fig, x=1e9, text="far")
    assert any("far" in p for p in check_figure(_json(fig)))


def test_log_axis_without_labelled_decades_is_caught_and_show_labels_it():
    fig = go.Figure(go.Scatter(x=[1, 2, 3], y=[0.01, 0.5, 30]))
    fig.update_layout(xaxis_title="n [-]", yaxis_title="t [ms]", yaxis_type="log")
    raw = json.loads(fig.to_json())
    assert any("without labelled decades" in p for p in check_figure(raw))
    f = _json(fig)
    assert check_figure(f) == []
    assert f["layout"]["yaxis"]["ticktext"] == ["0.01", "0.1", "1", "10", "100"]


@pytest.mark.parametrize("title, bad", [
    ("value", "titled 'value'"),
    ("latency", "names no unit"),
    (None, "has no title"),
])
def test_axis_titles_need_a_unit(title, bad):
    fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4]))
    fig.update_layout(xaxis_title=title, yaxis_title="t [ms]")
    assert any(bad in p for p in check_figure(json.loads(fig.to_json())))


def test_category_axes_need_a_title_but_no_unit():
    fig = go.Figure(go.Bar(x=["HDD", "SSD"], y=[3, 4]))
    fig.update_layout(xaxis_title="device", yaxis_title="t [ms]", yaxis_rangemode="tozero")
    assert check_figure(json.loads(fig.to_json())) == []


def test_absurd_and_infinite_ranges_are_caught():
    fig = go.Figure(go.Scatter(x=[1e-20, 1e20], y=[1, 2]))
    fig.update_layout(xaxis_title="x [B]", yaxis_title="y [-]", xaxis_type="log", yaxis_range=[0, float("inf")])
    fig.update_xaxes(dtick=1)
    problems = check_figure(json.loads(fig.to_json()))
    assert any("spans more than" in p for p in problems)
    assert any("not finite" in p for p in problems)


def test_ratio_axis_is_centred_on_a_labelled_1x_line():
    fig = go.Figure(go.Scatter(x=[1, 2, 3], y=[0.5, 1.3, 6]))
    charts.style(fig, x="depth [-]", y="random / sequential latency (×)")
    charts.ratio_axis(fig, "y")
    f = _json(fig)
    assert check_figure(f) == []
    lo, hi = f["layout"]["yaxis"]["range"]
    assert lo == pytest.approx(-hi) and hi >= np.log10(6)
    assert "1×" in f["layout"]["yaxis"]["ticktext"]
    assert [s["label"]["text"] for s in f["layout"]["shapes"]] == ["1×"]


def test_one_to_n_ticks_read_one_to_n():
    fig = go.Figure(go.Scatter(x=[1 / 16, 1 / 8, 1 / 4, 1 / 2], y=[4, 3, 2, 1]))
    charts.style(fig, x="DRAM:NVM capacity ratio [-]", y="slowdown [×]", logy=True)
    charts.one_to_n_ticks(fig, [1 / 16, 1 / 8, 1 / 4, 1 / 2])
    f = _json(fig)
    assert f["layout"]["xaxis"]["ticktext"] == ["1:16", "1:8", "1:4", "1:2"]
    assert check_figure(f) == []


@pytest.mark.parametrize("lo, hi", [(1, 4096), (0.29, 7), (2, 8), (3.1, 3.3), (1e-9, 1e6), (0.001, 0.002)])
def test_log_ticks_label_at_least_two_values_inside_the_data(lo, hi):
    vals, text = charts._log_ticks(lo, hi)
    inside = [v for v in vals if lo / 1.0001 <= v <= hi * 1.0001]
    assert len(inside) >= 2 or hi / lo < 1.1
    assert len(vals) == len(text) and all(text)


def test_an_axis_writes_its_decades_one_way():
    """10,000 next to 10⁵ on one axis read as two styles (the write cache's Figure 8): all powers then."""
    assert charts._log_ticks(5e3, 4e5)[1] == ["10³", "10⁴", "10⁵", "10⁶"]
    assert charts._log_ticks(2, 4096)[1] == ["1", "10", "100", "1,000", "10,000"]


def test_decade_and_number_labels():
    assert [charts.decade_label(k) for k in (-4, -2, 0, 3, 6)] == ["10⁻⁴", "0.01", "1", "1,000", "10⁶"]
    assert charts.number_label(0.374053) == "0.374"
    assert charts.number_label(35000) == "35,000"
    assert charts.number_label(2e6) == "2×10⁶"


def test_style_forces_no_template():
    """Streamlit's chart theme then follows the user's light / dark preference."""
    fig = charts.style(go.Figure(go.Scatter(x=[1], y=[1])), x="a [-]", y="b [-]")
    assert "template" not in json.loads(fig.to_json())["layout"] or \
        json.loads(fig.to_json())["layout"]["template"] == json.loads(go.Figure().to_json())["layout"]["template"]


def test_texts_rule_catches_raw_json_and_one_times():
    assert check_texts(['Assumptions: {"ghost_window": "1 \\u00d7 cache size"}', "more than 1 times", "ok"]) \
        and len(check_texts(['{"a": 1}', "more than 1 times", "fine"])) == 2


def test_texts_rule_catches_e_notation_in_a_metric_only():
    """"1.29e+03 years" as a metric is flagged; the same text in a caption (a value the user typed) is not."""
    assert check_texts(["metric: Closed form [years] = 1.29e+03", "metric: e = 7.2e-04·d"]) == [
        "e-notation in a 'metric: Closed form [years] = 1.29e+03'", "e-notation in a 'metric: e = 7.2e-04·d'"]
    assert check_texts(["metric: Closed form [years] = 1,290", "metric: e = 7.2×10⁻⁵·d", "PCM endures 1e7 writes"]) == []


def test_texts_rule_catches_ascii_units():
    assert len(check_texts(["metric: speedup, point estimate [x] = 3.2", "read 25.0 us, write 2 us", "25 µs",
                            "metric: speedup, point estimate [×] = 3.2", "lets us see"])) == 2


def test_colours_the_theme_would_replace_are_flagged():
    import plotly.graph_objects as go

    fig = go.Figure(go.Heatmap(z=[[0, 1]], colorscale="Inferno")).update_layout(xaxis_title="bank [-]",
                                                                               yaxis_title="rank [-]")
    assert any("#000004" in p and "theme" in p for p in check_figure(fig.to_plotly_json()))
    ok = go.Figure(go.Heatmap(z=[[0, 1]], colorscale="Plasma")).update_layout(xaxis_title="bank [-]",
                                                                            yaxis_title="rank [-]")
    assert not [p for p in check_figure(ok.to_plotly_json()) if "theme" in p]

def _lazy_tab_script():
    import plotly.graph_objects as go
    import streamlit as st

    a, b = st.tabs(["good", "bad"], key="t.tab", on_change="rerun")
    if a.open:
        with a:
            st.plotly_chart(go.Figure(go.Scatter(x=[1, 2], y=[3, 4])).update_layout(
                xaxis_title="n [-]", yaxis_title="t [ms]", yaxis_rangemode="tozero"))
    if b.open:
        with b:
            st.plotly_chart(go.Figure(go.Scatter(x=[1, 2], y=[3, 4])).update_layout(
                xaxis_title="value", yaxis_title="t [ms]"))


def test_every_tab_figures_opens_the_lazy_tabs():
    """A chart drawn only in a closed lazy tab is checked too, and the page is left on its open tab."""
    from streamlit.testing.v1 import AppTest

    from tests.app.chart_rules import every_tab_figures, lazy_tabs, page_figures

    at = AppTest.from_function(_lazy_tab_script, default_timeout=60).run()
    assert lazy_tabs(at) == {"t.tab": ["good", "bad"]}
    assert check_figure(page_figures(at)[0][1]) == []  # the default tab alone reads right
    figs = every_tab_figures(at)
    assert [n for n, _ in figs] == ["chart 0", "[bad] chart 0"]
    assert any("titled 'value'" in p for p in check_figure(figs[1][1], figs[1][0]))
    assert at.session_state["t.tab"] == "good"



def _lazy_expander_script():
    import plotly.graph_objects as go
    import streamlit as st

    box = st.expander("more", key="t.more", on_change="rerun")
    with box:
        if box.open:
            st.plotly_chart(go.Figure(go.Scatter(x=[1, 2], y=[3, 4])).update_layout(
                xaxis_title="value", yaxis_title="t [ms]"))


def test_every_tab_figures_opens_the_lazy_expanders():
    """A chart drawn only while a lazy expander is open is checked too; the expander is closed again."""
    from streamlit.testing.v1 import AppTest

    from tests.app.chart_rules import every_tab_figures, lazy_tabs

    at = AppTest.from_function(_lazy_expander_script, default_timeout=60).run()
    assert lazy_tabs(at) == {"t.more": [False, True]}
    figs = every_tab_figures(at)
    assert [n for n, _ in figs] == ["[t.more open] chart 0"]
    assert any("titled 'value'" in p for p in check_figure(figs[0][1], figs[0][0]))
    assert at.session_state["t.more"] is False

# ----------------------------------------------------------------------------- user names stay literal (issue 20)

HOSTILE = '<b>x</b><img src=x><br><a href="http://127.0.0.1:1/">y</a>&amp;'


def _strings(o):
    if isinstance(o, str):
        yield o
    elif isinstance(o, dict):
        for v in o.values():
            yield from _strings(v)
    elif isinstance(o, list):
        for v in o:
            yield from _strings(v)


def _raw_markup(fig_json: dict) -> list[str]:
    """Strings of a figure where a piece of the hostile name would be read as Plotly markup."""
    return [s for s in _strings(fig_json) if any(t in s for t in ("<b>x", "<img", "<a href", "</a>&amp;"))]


def test_plotly_text_escapes_markup_and_entities():
    from reporting.plotly_text import plotly_text

    assert plotly_text(HOSTILE) == ('&lt;b&gt;x&lt;/b&gt;&lt;img src=x&gt;&lt;br&gt;&lt;a href="http://127.0.0.1:1/"'
                                    '&gt;y&lt;/a&gt;&amp;amp;')
    assert plotly_text("pcm-memext (1:4)") == "pcm-memext (1:4)"


def test_figure_data_with_a_hostile_name_renders_literally():
    """Trace names, categories, customdata and Plotly Express's hovertemplate copy of the name are escaped
    by show(); the code's own <br> in templates and layout stays markup."""
    import pandas as pd
    import plotly.express as px

    from reporting.plotly_text import escape_figure_data

    df = pd.DataFrame({"device": [HOSTILE, HOSTILE, "dram", "dram"], "depth": [1, 2, 1, 2], "t": [1.0, 2, 3, 4]})
    fig = px.line(df, x="depth", y="t", color="device")
    fig.add_bar(x=[HOSTILE, "dram"], y=[1, 2], customdata=[[HOSTILE], ["dram"]], name=f"selected: {HOSTILE}",
                hovertemplate="%{customdata[0]}<br>%{y}<extra></extra>")
    fig.update_xaxes(categoryarray=[HOSTILE, "dram"])
    f = json.loads(escape_figure_data(fig).to_json())
    assert _raw_markup(f) == []
    assert f["data"][0]["name"] == "&lt;b&gt;x&lt;/b&gt;&lt;img src=x&gt;&lt;br&gt;&lt;a href=\"http://127.0.0.1:1/\"&gt;" \
                                   "y&lt;/a&gt;&amp;amp;"
    assert f["data"][0]["hovertemplate"].startswith("device=&lt;b&gt;x") and "<br>depth=%{x}" in f["data"][0]["hovertemplate"]
    assert f["data"][2]["hovertemplate"] == "%{customdata[0]}<br>%{y}<extra></extra>"
    assert f["layout"]["xaxis"]["categoryarray"][0] == f["data"][2]["x"][0]


def test_hostile_custom_device_name_renders_literally_on_a_page():
    """A custom device named with Plotly markup, chosen on the break-even page: no figure reads it as markup."""
    from streamlit.testing.v1 import AppTest

    from tests import ROOT
    from tests.app.chart_rules import every_tab_figures

    dev = {"name": HOSTILE, "label": HOSTILE, "kind": "scm", "access_unit_bytes": 256, "read_latency_ns": 300.0,
           "write_latency_ns": 900.0, "source": "test"}
    at = AppTest.from_file(str(ROOT / "app/views/break_even.py"), default_timeout=120)
    at.session_state["custom_devices"] = {HOSTILE: dev}
    at.run()
    at.selectbox(key="be.device").set_value(HOSTILE).run()
    assert not at.exception, [e.message for e in at.exception]
    figs = every_tab_figures(at)  # the device markers are on Figure 2 (a lazy tab)
    assert figs
    shown = [s for _, f in figs for s in _strings(f) if "&lt;b&gt;x" in s]
    assert shown, "the name is on the chart, escaped"
    assert [(n, _raw_markup(f)) for n, f in figs if _raw_markup(f)] == []


@pytest.mark.parametrize("title, bad", [("files_scale", True), ("color", True), ("files", False),
                                        ("file set [× default]", False)])
def test_legend_titled_with_a_raw_column_name_is_caught(title, bad):
    fig = go.Figure([go.Bar(x=["a"], y=[1], name="1.0"), go.Bar(x=["a"], y=[2], name="0.1")])
    fig.update_layout(xaxis_title="configuration", yaxis_title="throughput [ops/s]", legend_title_text=title)
    assert any("legend titled" in p for p in check_figure(json.loads(fig.to_json()))) == bad


def test_twin_axis_titled_like_the_axis_it_overlays_is_caught_and_style_keeps_its_title():
    """style() titled every y axis: a right-hand time axis read "TLB hit rate [-]" (paging, memory extension)."""
    fig = go.Figure([go.Scatter(x=[1, 2], y=[0.9, 1.0]), go.Scatter(x=[1, 2], y=[5.0, 1.0], yaxis="y2")])
    fig.update_layout(xaxis_title="page size [bytes]", yaxis_title="TLB hit rate [-]",
                      yaxis2=dict(overlaying="y", side="right", title="TLB hit rate [-]"))
    assert any("overlays yaxis with the same title" in p for p in check_figure(_json(fig)))
    fig.update_layout(yaxis2=dict(title="T_ADDR [ns]"))
    charts.style(fig, x="page size [bytes]", y="TLB hit rate [-]")
    f = _json(fig)
    assert f["layout"]["yaxis2"]["title"]["text"] == "T_ADDR [ns]" and check_figure(f) == []


def test_long_category_labels_on_an_x_axis_are_caught():
    """16 workloads of up to 45 characters under vertical bars: Plotly turns them (lifetime Figure 2);
    the same bars horizontal, or a few short categories, read level."""
    names = [f"workload number {i} with a long descriptive name" for i in range(16)]
    fig = charts.style(go.Figure(go.Bar(x=names, y=np.arange(1, 17))), x="workload", y="lifetime [years]")
    problems = check_figure(_json(fig))
    assert any("16 categories of up to" in p and "turn" in p for p in problems), problems
    flat = charts.style(go.Figure(go.Bar(y=names, x=np.arange(1, 17), orientation="h")), y="workload",
                        x="lifetime [years]")
    assert check_figure(_json(flat)) == []
    few = charts.style(go.Figure(go.Bar(x=["hdd", "ssd", "pcm"], y=[1, 2, 3])), x="device", y="lifetime [years]")
    assert check_figure(_json(few)) == []


def test_bar_chart_height_grows_with_its_bars():
    assert charts.bar_chart_height(1) == charts.BAR_CHART_MIN_PX
    assert charts.bar_chart_height(64) - charts.bar_chart_height(63) == charts.BAR_PX
    assert charts.bar_chart_height(63, px_per_bar=10) == 63 * 10 + charts.BAR_CHART_FIXED_PX


def test_a_line_drawn_over_an_identical_one_is_named_so():
    """Two configurations with the same latencies: the second line hides the first; show() names it."""
    import plotly.graph_objects as go

    from tests.app.chart_rules import hidden_lines

    fig = go.Figure([go.Scatter(x=[1, 2], y=[3.0, 4.0], name="pcm-hdd"),
                     go.Scatter(x=[1, 2], y=[3.0, 4.0], name="pcm-ssd"),
                     go.Scatter(x=[1, 2], y=[3.0, 5.0], name="hdd")])
    assert hidden_lines(json.loads(fig.to_json())) == [
        "figure: line 'pcm-ssd' is drawn over 'pcm-hdd' (the same points) and its legend entry does not say so"]
    charts._finish(fig)
    assert [t.name for t in fig.data] == ["pcm-hdd", "pcm-ssd (same as pcm-hdd)", "hdd"]
    assert hidden_lines(json.loads(fig.to_json())) == []


def test_more_series_than_colours_still_look_different():
    """13 flowops in a 10-colour sequence: the 11th repeated the 1st bar's colour alone."""
    import pandas as pd

    from app.components.express import bar, line
    from tests.app.chart_rules import same_looking_entries

    df = pd.DataFrame({"config": ["a"] * 13, "flowop": [f"op{i}" for i in range(13)], "ms": range(1, 14)})
    for fig in (bar(df, "config", "ms", color="flowop", barmode="group"), line(df, "config", "ms", color="flowop")):
        f = json.loads(fig.to_json())
        assert same_looking_entries(f) == []
        f["data"][10]["marker"].get("pattern", {}).pop("shape", None)
        f["data"][10].get("line", {}).pop("dash", None)
        assert same_looking_entries(f) == [
            f"figure: legend entries 'op0' and 'op10' look the same {_look_of(f['data'][0])}"]


def _look_of(tr: dict) -> tuple:
    from tests.app.chart_rules import _look

    return _look(tr)[1:]


def test_a_zero_bar_needs_a_label():
    import plotly.graph_objects as go

    from tests.app.chart_rules import zero_bars

    fig = go.Figure(go.Bar(x=[0.0, 5.0], y=["DCW", "baseline"], orientation="h", name="lulesh"))
    assert zero_bars(json.loads(fig.to_json())) == [
        "figure: bar 'lulesh' at 'DCW' is 0 and drawn without a label (reads as missing)"]
    fig.data[0].text = ["0", ""]
    assert zero_bars(json.loads(fig.to_json())) == []


def test_a_value_axis_starts_at_zero_unless_its_title_says_it_does_not():
    """Rule 8 flags the autoranged axis that hugs 1.15-1.5 s; ``show`` (``_finish``) fixes it; a zoom on
    purpose is named in the title; signed values, heatmap rows and log axes are left alone."""
    import plotly.graph_objects as go

    from app.components.charts import NOT_FROM_ZERO, _finish
    from tests.app.chart_rules import zoomed_value_axes

    def fig_json(f):
        return json.loads(f.to_json())

    zoomed = go.Figure(go.Scatter(x=[5, 50, 100], y=[1.53, 1.3, 1.15])).update_layout(yaxis_title="time [s]")
    assert zoomed_value_axes(fig_json(zoomed)) == [
        "figure: yaxis ('time [s]') holds values >= 0 but does not start at 0 and its title does not say "
        f"{NOT_FROM_ZERO!r}"]
    assert zoomed_value_axes(fig_json(_finish(zoomed))) == []
    assert _finish(zoomed).layout.yaxis.rangemode == "tozero"
    on_purpose = go.Figure(go.Scatter(x=[1, 2], y=[1.2, 1.5])).update_layout(
        yaxis=dict(title=f"time [s] ({NOT_FROM_ZERO})", rangemode="normal"))
    assert zoomed_value_axes(fig_json(on_purpose)) == [] and _finish(on_purpose).layout.yaxis.rangemode == "normal"
    signed = go.Figure(go.Scatter(x=[1, 2], y=[-0.2, 0.5]))
    heat = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]], x=[1, 2], y=[4096, 8192]))
    log = go.Figure(go.Scatter(x=[1, 2], y=[10, 1000])).update_yaxes(type="log")
    for f in (signed, heat, log):
        assert zoomed_value_axes(fig_json(f)) == []
        assert _finish(f).layout.yaxis.rangemode is None


def test_overlapping_bands_take_their_curves_colours():
    """Rule 9: two grey bands are flagged; ``add_band(of=...)`` draws each in its curve's colour (a curve the
    theme would colour gets its colour of the sequence set, so the line and its band agree)."""
    from app.components.bands import BAND_LINE, add_band
    from tests.app.chart_rules import uncoloured_bands

    def two_curves():
        fig = go.Figure()
        fig.add_scatter(x=[1, 2, 3], y=[1.0, 1.1, 1.2], name="LRU")
        fig.add_scatter(x=[1, 2, 3], y=[0.9, 0.95, 1.0], name="AC", line_color="#123456")
        return fig

    grey = two_curves()
    for y in (1.0, 0.9):
        add_band(grey, [1, 2, 3], [y - 0.1] * 3, [y + 0.1] * 3, n=100)
    assert len(uncoloured_bands(json.loads(grey.to_json()))) == 2
    coloured = two_curves()
    add_band(coloured, [1, 2, 3], [0.9] * 3, [1.3] * 3, n=100, of="LRU")
    add_band(coloured, [1, 2, 3], [0.8] * 3, [1.1] * 3, n=100, of="AC")
    f = json.loads(coloured.to_json())
    assert uncoloured_bands(f) == []
    by_name = {t["name"]: t for t in f["data"]}
    assert by_name["p5–p95 (100 samples)"]["line"]["color"] != BAND_LINE
    ac_band = [t for t in f["data"] if t.get("fill") == "tonexty" and t["line"]["color"] == "#123456"]
    assert ac_band and ac_band[0]["fillcolor"] == "rgba(18,52,86,0.2)"
    assert by_name["LRU"]["line"]["color"] == by_name["LRU"]["marker"]["color"]  # set, so the band can match it
    with pytest.raises(ValueError, match="no curve named 'FIFO'"):
        add_band(two_curves(), [1, 2], [0, 0], [1, 1], n=10, of="FIFO")
