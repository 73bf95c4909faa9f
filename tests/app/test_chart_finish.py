"""What show() does to every figure before sending it (app/components/charts.py ``_finish``): tick labels
are not measured for overflow on any cartesian axis; a figure without cartesian traces gets no axis."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.components.charts import TICK_LABEL_OVERFLOW, figure, figure_spec, style


def _axes(spec: dict) -> dict:
    return {k: v for k, v in spec["layout"].items() if k.startswith(("xaxis", "yaxis"))}


def test_every_cartesian_axis_draws_its_labels_unmeasured():
    fig = make_subplots(rows=1, cols=2)
    fig.add_scatter(x=[1, 10], y=[2, 3], row=1, col=1)
    fig.add_bar(x=["a", "b"], y=[1, 2], row=1, col=2)
    axes = _axes(figure_spec(style(fig, x="size [MB]", y="time [s]", logx=True)))
    assert set(axes) == {"xaxis", "yaxis", "xaxis2", "yaxis2"}
    assert {a["ticklabeloverflow"] for a in axes.values()} == {TICK_LABEL_OVERFLOW}


def test_a_page_s_own_choice_is_kept_and_a_recorded_figure_gets_the_same():
    fig = figure()
    fig.add_scatter(x=[1, 2], y=[3, 4])
    fig.update_layout(yaxis=dict(ticklabeloverflow="hide past domain"))
    axes = _axes(figure_spec(fig))
    assert axes["yaxis"]["ticklabeloverflow"] == "hide past domain"
    assert axes["xaxis"]["ticklabeloverflow"] == TICK_LABEL_OVERFLOW


def test_a_figure_without_cartesian_traces_gets_no_axes():
    spec = figure_spec(go.Figure(go.Pie(labels=["a", "b"], values=[1, 2])))
    assert _axes(spec) == {}
