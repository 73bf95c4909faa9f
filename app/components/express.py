"""Bar and line figures as ``plotly.express`` draws them, built directly with ``plotly.graph_objects``.

:func:`bar` and :func:`line` give the figure JSON of ``px.bar`` / ``px.line`` with the same options
(traces, colours, hover texts, axes; ``tests/app/test_express.py`` compares them under several templates)
without plotly.express's dataframe machinery, which takes 2-3x the build time (issue 18: a page's rerun
after one input change). Only the options the pages use are supported.
"""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

__all__ = ["bar", "line"]


def _colorway() -> list[str]:
    """The colour sequence plotly.express would use (its defaults, else the default template's colorway)."""
    import plotly.io as pio

    if px.defaults.color_discrete_sequence:
        return list(px.defaults.color_discrete_sequence)
    tpl = px.defaults.template or pio.templates.default
    tpl = pio.templates[tpl] if isinstance(tpl, str) else tpl
    return list(tpl.layout.colorway or px.colors.qualitative.D3)


#: Past the colour sequence (13 flowops, 10 colours) a series repeats a colour with a fill pattern (bars) or a
#: dash (lines) of its own, so no two legend entries look the same (plotly.express would repeat the colour alone).
REPEAT_PATTERNS = ("/", "x", ".", "\\", "+")
REPEAT_DASHES = ("dash", "dot", "dashdot", "longdash", "longdashdot")


def _look(i: int, n: int, styles: tuple[str, ...], first: str) -> str:
    """The pattern / dash of series ``i`` with ``n`` colours: ``first`` in the first round, then one per round."""
    return first if i < n else styles[(i // n - 1) % len(styles)]


def _groups(df: pd.DataFrame, color: str | None):
    """(legend title, [(name, rows)]) by column ``color`` in order of first appearance (plotly.express's order)."""
    if color is None:
        return None, [("", df)]
    return color, [(str(v), df[df[color] == v]) for v in pd.unique(df[color])]


def _axes(fig: go.Figure, x: str, y: str, legend: str | None, *, log_x: bool = False, log_y: bool = False) -> None:
    """plotly.express's layout of a one-panel figure: axis titles, legend title, log axes."""
    fig.update_layout(xaxis=dict(anchor="y", domain=[0.0, 1.0], title=dict(text=x)),
                      yaxis=dict(anchor="x", domain=[0.0, 1.0], title=dict(text=y)),
                      legend=dict(tracegroupgap=0), margin=dict(t=60))
    if legend:
        fig.update_layout(legend_title_text=legend)
    if log_x:
        fig.update_xaxes(type="log")
    if log_y:
        fig.update_yaxes(type="log")


def bar(df: pd.DataFrame, x: str, y: str, *, color: str | None = None, barmode: str = "relative",
          log_y: bool = False, text_auto: str | None = None, hover_data: tuple[str, ...] = ()) -> go.Figure:
    """``px.bar(df, x=x, y=y, color=color, barmode=barmode, log_y=log_y, text_auto=text_auto,
    hover_data=list(hover_data))``."""
    legend, groups = _groups(df, color)
    colors = _colorway()
    fig = go.Figure()
    for i, (name, d) in enumerate(groups):
        hover = [f"{legend}={name}"] * bool(legend) + [f"{x}=%{{x}}", f"{y}=%{{y}}"] + \
            [f"{h}=%{{customdata[{j}]}}" for j, h in enumerate(hover_data)]
        tr = dict(hovertemplate="<br>".join(hover) + "<extra></extra>", legendgroup=name,
                  marker=dict(color=colors[i % len(colors)], pattern=dict(shape=_look(i, len(colors), REPEAT_PATTERNS, ""))),
                  name=name, orientation="v",
                  showlegend=bool(legend), textposition="auto", x=d[x].to_numpy(), xaxis="x", y=d[y].to_numpy(),
                  yaxis="y")
        if legend:
            tr.update(alignmentgroup="True", offsetgroup=name)
        if hover_data:
            tr["customdata"] = d[list(hover_data)].to_numpy()
        if text_auto:
            tr["texttemplate"] = f"%{{y:{text_auto}}}"
        fig.add_trace(go.Bar(tr))
    _axes(fig, x, y, legend, log_y=log_y)
    fig.update_layout(barmode=barmode)
    return fig


#: plotly.express's default dash sequence (``px.defaults.line_dash_sequence`` unset): one dash per ``line_dash`` value.
DASHES = ("solid", "dot", "dash", "longdash", "dashdot", "longdashdot")


def _dash_groups(df: pd.DataFrame, color: str, dash: str):
    """(legend title, [(name, colour index, dash index, (colour value, dash value), rows)]) by ``color`` and ``dash``, in plotly.express's
    order: each column's values in order of first appearance, the combinations sorted by (colour, dash)."""
    colours = {v: i for i, v in enumerate(pd.unique(df[color]))}
    dashes = {v: i for i, v in enumerate(pd.unique(df[dash]))}
    combos = sorted({(colours[c], dashes[d]): (c, d) for c, d in zip(df[color], df[dash])}.items())
    return f"{color}, {dash}", [(f"{c}, {d}", i, j, (c, d), df[(df[color] == c) & (df[dash] == d)])
                                for (i, j), (c, d) in combos]


def line(df: pd.DataFrame, x: str, y: str, *, color: str, line_dash: str | None = None, log_x: bool = False,
         log_y: bool = False) -> go.Figure:
    """``px.line(df, x=x, y=y, color=color, line_dash=line_dash, log_x=log_x, log_y=log_y, markers=True)``."""
    colors = _colorway()
    if line_dash is None:
        legend, groups = _groups(df, color)
        series = [(name, i, _look(i, len(colors), REPEAT_DASHES, "solid"), (name,), d)
                  for i, (name, d) in enumerate(groups)]
        hover = [color]
    else:
        dashes = list(px.defaults.line_dash_sequence or DASHES)
        legend, groups = _dash_groups(df, color, line_dash)
        series = [(name, i, dashes[j % len(dashes)], vals, d) for name, i, j, vals, d in groups]
        hover = [color, line_dash]
    fig = go.Figure()
    for name, i, dash, vals, d in series:
        parts = [f"{h}={v}" for h, v in zip(hover, vals, strict=True)]
        fig.add_trace(go.Scatter(
            hovertemplate="<br>".join([*parts, f"{x}=%{{x}}", f"{y}=%{{y}}"]) + "<extra></extra>", legendgroup=name,
            line=dict(color=colors[i % len(colors)], dash=dash), marker=dict(symbol="circle"),
            mode="lines+markers", name=name, orientation="v", showlegend=True, x=d[x].to_numpy(), xaxis="x",
            y=d[y].to_numpy(), yaxis="y"))
    _axes(fig, x, y, legend, log_x=log_x, log_y=log_y)
    return fig
