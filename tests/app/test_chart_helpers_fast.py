"""The chart helpers' fast paths (one ``plotly_relayout`` instead of ``update_layout`` / ``update_xaxes``,
``add_shape`` instead of ``add_vline``) give exactly the figure of Plotly's generic calls, written out
here as the reference (the helpers' previous code), on single plots, Plotly Express figures, facets,
subplot grids, secondary y axes and overlaying axes."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from app.components import charts

# ----------------------------------------------------------------------------- reference: Plotly's generic calls


def ref_log_axis(fig, axis="x", *, row=None, col=None, values=None):
    update = fig.update_xaxes if axis == "x" else fig.update_yaxes
    vals = np.asarray(list(values), dtype=float) if values is not None else charts._trace_values(fig, axis, None)
    vals = vals[np.isfinite(vals) & (vals > 0)]
    kw: dict = dict(type="log", minor=dict(ticks="outside", ticklen=3, showgrid=False))
    if vals.size:
        tv, tt = charts._log_ticks(float(vals.min()), float(vals.max()))
        kw.update(tickvals=tv, ticktext=tt, tickmode="array")
        k0, k1 = math.floor(math.log10(float(vals.min()))) - 1, math.ceil(math.log10(float(vals.max()))) + 1
        kw["minor"].update(tickmode="array", tickvals=[m * 10.0 ** k for k in range(k0, k1 + 1) for m in range(2, 10)])
    else:
        kw.update(dtick=1, exponentformat="power")
    update(row=row, col=col, **kw)
    return fig


def ref_one_to_n_ticks(fig, ratios, *, axis="x", fmt=None):
    def one_to(v):
        return f"1:{1 / v:g}" if v < 1 else f"{v:g}:1"

    fmt = fmt or one_to
    vals = sorted({float(v) for v in ratios if v > 0})
    update = fig.update_xaxes if axis == "x" else fig.update_yaxes
    update(type="log", tickmode="array", tickvals=vals, ticktext=[fmt(v) for v in vals])
    return fig


def ref_ref_line(fig, *, x=None, y=None, text="", dash="dot", row=None, col=None, position="end", above=False):
    label = dict(text=text, textposition=position, font=dict(size=11))
    kw = dict(line_dash=dash, line_width=1.5, line_color="gray", label=label)
    if row is not None:
        kw.update(row=row, col=col)
    if x is not None:
        label.update(textangle=0, xanchor="left", yanchor="bottom" if above else "top")
        fig.add_vline(x=x, **kw)
    else:
        label.update(xanchor="right", yanchor="bottom")
        fig.add_hline(y=y, **kw)
    return fig


def ref_ratio_axis(fig, axis="y", *, values=None, label="1×"):
    half, ticks = charts.ratio_axis_range(np.asarray(list(values), dtype=float) if values is not None
                                     else charts._trace_values(fig, axis, None))
    update = fig.update_xaxes if axis == "x" else fig.update_yaxes
    update(type="log", range=[-half, half], tickmode="array", tickvals=ticks,
           ticktext=[f"{charts.number_label(v)}×" for v in ticks])
    ref_ref_line(fig, **{axis: 1.0}, text=label, dash="dash")
    return fig


def ref_style(fig, *, title=None, x=None, y=None, logx=False, logy=False):
    fig.update_layout(title=title, margin=dict(l=10, r=10, t=50 if title else 20, b=10),
                      legend=dict(orientation="h", yref="container", yanchor="bottom", y=0, xanchor="left", x=0),
                      hovermode="x unified")
    if x:
        fig.update_xaxes(title_text=x)
    if y:
        fig.update_yaxes(title_text=y, selector=dict(overlaying=None))
    if logx:
        ref_log_axis(fig, "x")
    if logy:
        ref_log_axis(fig, "y")
    return fig


def ref_label_log_axes(fig):
    for _, ax, kw in list(charts.log_axis_ticks(fig)):
        ax.update(**kw)


REF = {"style": ref_style, "ref_line": ref_ref_line, "log_axis": ref_log_axis, "one_to_n_ticks": ref_one_to_n_ticks,
       "ratio_axis": ref_ratio_axis}

# ----------------------------------------------------------------------------- figures

_X = np.geomspace(1, 1000, 20)


def _sub2x1():
    f = make_subplots(rows=2, cols=1)
    f.add_scatter(x=_X, y=_X, row=1, col=1)
    f.add_scatter(x=_X, y=-_X, row=2, col=1)
    return f


def _half_empty():
    f = make_subplots(rows=1, cols=2)
    f.add_scatter(x=_X, y=_X, row=1, col=1)
    return f


def _secondary():
    f = make_subplots(specs=[[{"secondary_y": True}]])
    f.add_scatter(x=_X, y=_X)
    f.add_scatter(x=_X, y=_X * 0.1, secondary_y=True)
    return f


def _overlay():
    f = go.Figure(go.Scatter(x=_X, y=_X))
    f.add_scatter(x=_X, y=1 / _X, yaxis="y2")
    f.add_scatter(x=_X * 10, y=_X, xaxis="x2")
    f.update_layout(yaxis2=dict(overlaying="y", side="right"), xaxis2=dict(overlaying="x", side="top"))
    return f


def _sub1x1():
    f = make_subplots(rows=1, cols=1)
    f.add_bar(x=["a", "b"], y=[1, 2])
    return f


FIGURES = {
    "plain": lambda: go.Figure(go.Scatter(x=_X, y=_X ** 0.5)),
    "empty": go.Figure,
    "titled": lambda: go.Figure(go.Scatter(x=[1], y=[2]), layout=dict(title=dict(text="o", x=0.5, font=dict(size=20)))),
    "px": lambda: px.scatter(pd.DataFrame(dict(a=_X, b=_X * 2, c=["p", "q"] * 10)), x="a", y="b", color="c",
                             title="px title"),
    "px_empty": lambda: px.scatter(pd.DataFrame(dict(a=[], b=[])), x="a", y="b"),
    "px_facet": lambda: px.line(pd.DataFrame(dict(a=np.r_[_X, _X], b=np.r_[_X, _X * 3], f=["u"] * 20 + ["v"] * 20)),
                                x="a", y="b", facet_col="f"),
    "sub2x1": _sub2x1, "half_empty": _half_empty, "secondary": _secondary, "overlay": _overlay, "sub1x1": _sub1x1,
}

CALLS = [
    [("style", dict(title="T", x="x [ms]", y="y [-]", logx=True, logy=True))],
    [("style", dict(x="x [ms]"))], [("style", dict(y="y [-]", logy=True))], [("style", dict())],
    [("style", dict(title=""))],
    [("ref_line", dict(x=10, text="ten"))], [("ref_line", dict(x=10, text="ten", above=True))],
    [("ref_line", dict(y=3, text="three", dash="dash", position="start"))],
    [("ref_line", dict(x=5, row=1, col=1))], [("ref_line", dict(y=5, row=2, col=1))],
    [("log_axis", dict(axis="x"))], [("log_axis", dict(axis="y", values=[0.1, 50]))],
    [("log_axis", dict(axis="y", row=1, col=1))], [("log_axis", dict(axis="x", values=[]))],
    [("one_to_n_ticks", dict(ratios=[1 / 16, 1 / 8, 0.5, 2]))], [("one_to_n_ticks", dict(ratios=[1, 3], axis="y"))],
    [("ratio_axis", dict())], [("ratio_axis", dict(axis="x", values=[0.2, 7]))],
    [("style", dict(title="T", y="y [-]")), ("ref_line", dict(x=10, text="a")), ("ref_line", dict(y=2)),
     ("ratio_axis", dict()), ("style", dict(x="again [s]"))],
]


def _run(fig, calls, fast: bool):
    try:
        for name, kw in calls:
            (getattr(charts, name) if fast else REF[name])(fig, **kw)
        (charts._label_log_axes if fast else ref_label_log_axes)(fig)
    except Exception as e:  # noqa: BLE001 - both must fail alike (e.g. a row on a figure without that row)
        return ("error", type(e).__name__, str(e))
    return json.loads(fig.to_json())


@pytest.mark.parametrize("calls", CALLS, ids=lambda c: "+".join(n for n, _ in c))
@pytest.mark.parametrize("make", list(FIGURES.values()), ids=list(FIGURES))
def test_fast_helpers_draw_the_figure_of_plotlys_generic_calls(make, calls):
    assert _run(make(), calls, True) == _run(make(), calls, False)


@pytest.mark.parametrize("make", list(FIGURES.values()), ids=list(FIGURES))
def test_unlabelled_log_axes_get_the_same_ticks(make):
    def logged():
        f = make()
        f.update_xaxes(type="log")
        f.update_yaxes(type="log")
        return f

    assert _run(logged(), [], True) == _run(logged(), [], False)


def test_values_plotly_would_coerce_take_the_validated_path():
    """A NumPy number is not stored as it is by a validator: such an update goes through update_layout."""
    assert charts._plain([1.0, "a"]) and charts._plain({"a": {"b": 1}}) and not charts._plain([np.float64(1)])
    fast, ref = go.Figure(go.Scatter(x=[1, 10], y=[1, 2])), go.Figure(go.Scatter(x=[1, 10], y=[1, 2]))
    charts.one_to_n_ticks(fast, [np.float64(0.5), 2])
    ref_one_to_n_ticks(ref, [np.float64(0.5), 2])
    assert json.loads(fast.to_json()) == json.loads(ref.to_json())


@pytest.mark.parametrize("kw", [dict(x=5, y="y [-]"), dict(title=7), dict(y=2.5)])
def test_non_text_titles_are_stored_as_plotly_stores_them(kw):
    """Plotly's validator turns a number given as a title into text ("5"): the fast path must not store 5."""
    assert _run(go.Figure(go.Scatter(x=[1], y=[2])), [("style", kw)], True) == \
        _run(go.Figure(go.Scatter(x=[1], y=[2])), [("style", kw)], False)
