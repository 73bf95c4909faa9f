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
    charts._label_log_axes(fig)  # what show() does before drawing
    return json.loads(fig.to_json())


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
    fig.update_layout(xaxis_title="device", yaxis_title="t [ms]")
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


def test_ratio_ticks_read_one_to_n():
    fig = go.Figure(go.Scatter(x=[1 / 16, 1 / 8, 1 / 4, 1 / 2], y=[4, 3, 2, 1]))
    charts.style(fig, x="DRAM:NVM capacity ratio [-]", y="slowdown [×]", logy=True)
    charts.ratio_ticks(fig, [1 / 16, 1 / 8, 1 / 4, 1 / 2])
    f = _json(fig)
    assert f["layout"]["xaxis"]["ticktext"] == ["1:16", "1:8", "1:4", "1:2"]
    assert check_figure(f) == []


@pytest.mark.parametrize("lo, hi", [(1, 4096), (0.29, 7), (2, 8), (3.1, 3.3), (1e-9, 1e6), (0.001, 0.002)])
def test_log_ticks_label_at_least_two_values_inside_the_data(lo, hi):
    vals, text = charts._log_ticks(lo, hi)
    inside = [v for v in vals if lo / 1.0001 <= v <= hi * 1.0001]
    assert len(inside) >= 2 or hi / lo < 1.1
    assert len(vals) == len(text) and all(text)


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
