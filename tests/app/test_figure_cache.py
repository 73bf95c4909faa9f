"""The figure cache (app/components/charts.py): a recorded figure draws exactly what the same calls on a
plain Plotly figure draw, its key follows the content of every argument, and the cache is bounded."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from plotly.subplots import make_subplots

from app.components import charts
from app.components.charts import (
    FIGURE_CACHE,
    FigureCache,
    FigureRecorder,
    figure,
    figure_from,
    figure_spec,
    log_axis,
    ratio_axis,
    ref_line,
    style,
)


def _lines(new, n=None, t=100.0, title="Total access time"):
    n = np.arange(1, 11) if n is None else n
    fig = new()
    fig.add_scatter(x=n, y=t * n, name="Tc = Tm + (n−1)t", mode="lines+markers")
    fig.add_scatter(x=n, y=1.3 * t * n, name="<b>user</b> & co", mode="lines+markers")
    ref_line(fig, x=3.5, dash="dash", text="n* = 3.5")
    return style(fig, title=title, x="accesses n [-]", y="total time [ns]", logy=True)


def _bars(new):
    df = pd.DataFrame({"config": ["pcm", "hdd", "ssd"], "ops_per_s": [1e5, 3e2, 4e4], "kind": list("abb")})
    return style(new(px.bar, df, x="config", y="ops_per_s", color="kind", log_y=True), y="throughput [ops/s]")


def _subplots(new):
    fig = new(make_subplots, rows=2, cols=1, shared_xaxes=True, row_heights=[0.75, 0.25])
    fig.add_trace(go.Scatter(x=[1, 2, 3], y=[1.0, 10.0, 100.0], name="a"), row=1, col=1)
    fig.add_trace(go.Bar(x=[1, 2, 3], y=[3, 1, 2], name="b"), row=2, col=1)
    fig.update_yaxes(type="log", row=1, col=1)
    return fig


def _ratio(new):
    fig = new(go.Bar(x=["a", "b"], y=[0.5, 4.0]))
    return ratio_axis(style(fig, x="scheme [-]", y="lifetime vs baseline (×)"))


def _plain(factory=None, *args, **kwargs):
    return go.Figure() if factory is None else factory(*args, **kwargs)


def _plain_go(*args, **kwargs):
    return go.Figure(*args, **kwargs)


RECIPES = {
    "lines": (lambda: _lines(_plain), lambda: _lines(figure)),
    "bars": (lambda: _bars(_plain), lambda: _bars(figure_from)),
    "subplots": (lambda: _subplots(_plain), lambda: _subplots(figure_from)),
    "ratio": (lambda: _ratio(_plain_go), lambda: _ratio(figure)),
}


@pytest.fixture(autouse=True)
def _empty_cache():
    FIGURE_CACHE.clear()
    yield
    FIGURE_CACHE.clear()


def _json(spec: dict) -> str:
    import plotly.io as pio

    return pio.to_json(spec, validate=False)


@pytest.mark.parametrize("name", RECIPES)
def test_cached_figure_equals_the_freshly_built_one(name):
    plain, recorded = RECIPES[name]
    fresh = _json(charts.sent_spec(plain()))
    rec = recorded()
    key = rec.key
    assert isinstance(rec, FigureRecorder) and key is not None
    first = figure_spec(rec)  # a miss: replayed and stored
    assert _json(first) == fresh
    hits = FIGURE_CACHE.hits
    again = recorded()
    assert again.key == key
    assert _json(figure_spec(again)) == fresh  # a hit: the stored spec
    assert FIGURE_CACHE.hits == hits + 1 and len(FIGURE_CACHE) == 1


def test_changing_any_argument_changes_the_key():
    base = _lines(figure).key
    assert _lines(figure).key == base  # the same content in new objects: the same key
    assert _lines(figure, n=np.arange(1, 11).astype(float)).key != base  # dtype
    n = np.arange(1, 11)
    n[-1] = 11
    assert _lines(figure, n=n).key != base
    assert _lines(figure, t=100.0 + 1e-9).key != base
    assert _lines(figure, title="Total access time ").key != base
    f = _lines(figure)
    assert f.update_layout(height=400).key != base


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(allow_nan=False, width=64), min_size=1, max_size=30), st.data())
def test_one_changed_element_changes_the_key(values, data):
    i = data.draw(st.integers(0, len(values) - 1))
    other = data.draw(st.floats(allow_nan=False, width=64).filter(
        lambda v: np.float64(v).tobytes() != np.float64(values[i]).tobytes()))
    a = np.array(values)
    b = a.copy()
    b[i] = other
    ka = figure().add_scatter(y=a).key
    kb = figure().add_scatter(y=b).key
    assert ka != kb
    df_a, df_b = pd.DataFrame({"y": a}), pd.DataFrame({"y": b})
    assert figure_from(px.line, df_a, y="y").key != figure_from(px.line, df_b, y="y").key


def test_a_change_after_the_call_does_not_change_the_drawn_figure():
    y = np.array([1.0, 2.0, 3.0])
    df = pd.DataFrame({"x": [1, 2, 3], "y": [1.0, 2.0, 3.0]})
    rec = figure().add_scatter(y=y)
    rec_px = figure_from(px.line, df, x="x", y="y")
    y[0] = 99.0
    df.loc[0, "y"] = 99.0
    assert figure_spec(rec) == figure_spec(figure().add_scatter(y=np.array([1.0, 2.0, 3.0])))
    assert 99.0 not in json.loads(_json(figure_spec(rec_px)))["data"][0]["y"]


def test_what_cannot_be_hashed_is_drawn_uncached():
    fig = figure().add_scatter(y=[1.0, 2.0])
    fig.apply(lambda f: f.update_layout(height=300))  # a lambda has no stable name
    assert fig.key is None
    assert figure_spec(fig)["layout"]["height"] == 300
    assert len(FIGURE_CACHE) == 0
    # reading or setting an attribute: from then on the plain figure
    fig = figure().add_scatter(y=[1.0, 2.0])
    fig.layout.title.text = "set through an attribute"
    assert fig.key is None
    assert figure_spec(fig)["layout"]["title"]["text"] == "set through an attribute"
    fig = figure().add_scatter(y=[1.0, 2.0], name="a").add_scatter(y=[3.0], name="b")
    fig.data = fig.data[::-1]  # as app/components/bands.py reorders traces
    assert fig.key is None and [t["name"] for t in figure_spec(fig)["data"]] == ["b", "a"]


def test_log_axis_helper_is_recorded_and_replayed():
    plain = go.Figure().add_scatter(x=[1, 10, 1000], y=[1, 2, 3])
    log_axis(plain, "x")
    rec = log_axis(figure().add_scatter(x=[1, 10, 1000], y=[1, 2, 3]), "x")
    assert rec.key is not None
    assert _json(figure_spec(rec)) == _json(charts.sent_spec(plain))


def test_the_cache_is_bounded_in_entries_and_bytes():
    c = FigureCache(max_entries=2, max_bytes=10_000)
    spec = {"data": [], "layout": {"title": {"text": "x" * 100}}}
    for k in "abc":
        c.put(k, spec)
    assert len(c) == 2 and c.get("a") is None and c.get("c") is spec
    c.put("big", {"layout": {"title": {"text": "x" * 20_000}}})  # larger than the whole budget: not kept
    assert c.get("big") is None
    for k in range(200):
        c.put(str(k), {"layout": {"t": "y" * 3_000}})
    assert c.bytes <= 10_000 and len(c) <= 2


def test_show_sends_the_same_chart_as_a_plain_figure():
    from streamlit.testing.v1 import AppTest

    def page():
        import numpy as np
        import plotly.graph_objects as go

        from app.components.charts import figure, show, style

        for new, key in ((go.Figure, "plain"), (figure, "rec1"), (figure, "rec2")):
            fig = new()
            fig.add_scatter(x=np.arange(1, 5), y=[1.0, 10.0, 100.0, 1000.0], name="<i>n</i>")
            show(style(fig, x="n [-]", y="t [ns]", logy=True), key=key)

    at = AppTest.from_function(page).run()
    assert not at.exception
    specs = [json.loads(el.proto.spec) for el in at.get("plotly_chart")]
    assert len(specs) == 3 and specs[0] == specs[1] == specs[2]
