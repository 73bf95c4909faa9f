"""Plotly figure conventions shared by all pages (checked on every page by tests/app/test_chart_rules.py).

- Axis titles carry units: ``"latency [ms]"``, ``"[-]"`` for a plain number, ``"(×)"`` for a ratio.
- Log axes label their decades (:func:`log_axis`; :func:`show` applies it to any log axis a page
  left without ticks), never "2 5 0.1".
- Reference lines are drawn with :func:`ref_line`: the label travels with the line (a shape
  label), so it sits on the line on log axes too -- Plotly reads a plain annotation's position on
  a log axis as an exponent, which put "1 year" at 10 years and "64 entries" at 10^64.
- Ratios sit on :func:`ratio_axis`: a log axis centred on a labelled 1× line.
- No template is forced: Streamlit's chart theme follows the user's light / dark preference. Category
  colours are the figures' own (:data:`CATEGORY_COLOURS`, readable on both), not the theme's: Streamlit
  keeps the theme colours a chart was first drawn in when the user switches theme with the page open.

Speed: building a Plotly figure validates every property (tens of ms a chart, most of a closed-form
page's rerun). :func:`figure` / :func:`figure_from` return a :class:`FigureRecorder` that records
the calls made on it (``add_scatter``, ``update_layout``, :func:`style`, :func:`ref_line`, ...) with
a snapshot and a content hash of their arguments; :func:`show` replays them into a real figure only
when no figure of the same calls is in the process-wide cache (:data:`FIGURE_CACHE`, bounded in
entries and bytes), so an unchanged chart costs its hash and its JSON. Anything the recorder cannot
hash (a callable, an unknown object) or any read of the figure turns it into the plain figure it
stands for: never a wrong chart, only an uncached one. The helpers themselves avoid Plotly's slow
generic paths (``add_vline``'s subplot machinery, ``update_xaxes``' magic underscores, the batch
validation of ``update_layout``) where the result is provably the same: Plotly's own axis selection,
then one ``plotly_relayout`` of values its validators would store unchanged (:func:`_relayout`), and the
shape ``add_vline`` would add, added directly (tests/app/test_chart_helpers_fast.py compares both). ::

    fig = figure()                       # instead of go.Figure()
    fig.add_scatter(x=n, y=t, name="t")
    show(style(fig, x="n [-]", y="t [ns]"), key="t")
    fig = figure_from(px.bar, df, x="config", y="ops_per_s")   # px / make_subplots
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import plotly.graph_objects as go

from reporting.number_text import power_of_ten

__all__ = ["style", "show", "log_axis", "ratio_axis", "ref_line", "one_to_n_ticks", "decade_label", "number_label",
           "centred_range", "MIN_HALF_WIDTH", "ordered_colours",
           "figure", "figure_from", "FigureRecorder", "FigureCache", "FIGURE_CACHE", "figure_spec", "bar_chart_height"]

#: Decades written out in full (0.001 ... 10,000); others as 10ⁿ.
_PLAIN_DECADES = range(-3, 5)


def decade_label(k: int) -> str:
    """Label of the decade 10**k: ``0.01``, ``1``, ``1,000``, ``10⁶``, ``10⁻⁹``."""
    if k in _PLAIN_DECADES:
        return f"{10.0 ** k:,.{max(0, -k)}f}"
    return power_of_ten(k)


def number_label(v: float) -> str:
    """Short label of a tick value: 3 significant digits, thousands separators, no trailing zeros."""
    if v == 0 or not math.isfinite(v):
        return f"{v:g}"
    if 1e-3 <= abs(v) < 1e5:
        digits = max(0, 2 - math.floor(math.log10(abs(v))))
        return f"{v:,.{digits}f}".rstrip("0").rstrip(".") if digits else f"{v:,.0f}"
    k = math.floor(math.log10(abs(v)))
    m = v / 10 ** k
    return ("" if abs(m - 1) < 1e-9 else f"{m:.3g}×") + power_of_ten(k)


def _axis_numbers(fig: go.Figure, axis: str, ref: str | None) -> np.ndarray:
    """Finite numbers the traces plot on axis ``axis`` ("x"/"y"), on subplot ``ref`` if given (categories
    skipped)."""
    out: list[np.ndarray] = []
    for tr in fig.data:
        on = getattr(tr, f"{axis}axis", None) or axis
        if ref is not None and on != ref:
            continue
        vals = getattr(tr, axis, None)
        if vals is None:
            continue
        try:
            arr = np.asarray(vals, dtype=float).ravel()
        except (TypeError, ValueError):
            continue  # categories
        out.append(arr)
    if not out:
        return np.array([])
    arr = np.concatenate(out)
    return arr[np.isfinite(arr)]


def _trace_values(fig: go.Figure, axis: str, ref: str | None) -> np.ndarray:
    """Positive finite numbers the traces plot on axis ``axis`` ("x"/"y"), on subplot ``ref`` if given."""
    arr = _axis_numbers(fig, axis, ref)
    return arr[arr > 0]


#: Streamlit's chart theme swaps the colours #000001 ... #000040 for its own (its template's placeholders, the
#: first category colour #000001): a colour there is drawn as a theme colour, never as itself.
THEME_PLACEHOLDER = re.compile(r"#0000(?:[0-3][0-9a-f]|40)", re.IGNORECASE)
#: The figures' own category colours, in place of the theme's (its placeholders #000001 ... #000010): each
#: reaches 3:1 (WCAG 1.4.11, graphical objects) on both Streamlit backgrounds, white and the dark theme's
#: (tests/app/test_theme_colours.py). Streamlit's browser side swaps a placeholder for the colour of the theme
#: the chart is first drawn in, and on a switch of theme with the page open (no rerun: the server is not told)
#: it re-applies the theme's layout to that drawn figure only: the dark theme's pale category colours stayed on
#: the light background (1.4:1 - 2.8:1). Own colours read in either theme, before and after a switch.
#: Derived from D3's category10 (plotly.express's "D3"), the three too light for white darkened.
CATEGORY_COLOURS = ("#1f77b4", "#e8590c", "#2ca02c", "#d62728", "#9467bd",
                    "#a0614f", "#d6409f", "#7f7f7f", "#8f8f00", "#1a9aa8")
#: Streamlit's category placeholder (``#000001`` ... ``#000010``, as its browser side reads them) -> own colour.
_CATEGORY_OWN = {f"#{i:06d}": c for i, c in enumerate(CATEGORY_COLOURS, start=1)}
#: Trace types whose y axis places rows (a heatmap's page sizes), not values: no zero baseline.
ROW_AXIS_TYPES = frozenset({"heatmap", "histogram2d", "contour", "histogram2dcontour", "table"})
#: Said in a y axis title whose view chose a zoomed axis (``rangemode="normal"``) on purpose.
NOT_FROM_ZERO = "axis not from 0"


def _zero_based_value_axes(fig: go.Figure) -> None:
    """Start every linear y axis of non-negative values at 0 (``rangemode="tozero"``).

    An autoranged axis hugs the data: 1.15-1.5 s drawn over the full height reads as a threefold gain
    where there is 30 % (issue 18). Left alone: log, category and date axes, an explicit ``range`` or
    ``rangemode`` (a view zooming on purpose says :data:`NOT_FROM_ZERO` in the title), axes with negative
    values (signed errors), and the row axis of a heatmap."""
    rows = {getattr(tr, "yaxis", None) or "y" for tr in fig.data if tr.type in ROW_AXIS_TYPES}
    for name in list(fig.layout):
        if not name.startswith("yaxis"):
            continue
        ax, ref = fig.layout[name], "y" + name[5:]
        if ref in rows or ax.type in ("log", "category", "multicategory", "date") or ax.range is not None \
                or ax.rangemode is not None:
            continue
        vals = _axis_numbers(fig, "y", ref)
        if vals.size and vals.min() >= 0:
            ax.rangemode = "tozero"


def _log_ticks(lo: float, hi: float) -> tuple[list[float], list[str]]:
    """Tick values and labels of a log axis over data ``lo..hi`` (> 0): decades when three or more lie inside
    the data, else 1-2-5 steps (an I/O depth of 1-64 read "1 ... 10" with two labels), else 1-9 steps.

    >>> _log_ticks(1, 64)[1], _log_ticks(1, 4096)[1]
    (['1', '2', '5', '10', '20', '50'], ['1', '10', '100', '1,000', '10,000'])
    """
    k0, k1 = math.floor(math.log10(lo) + 1e-9), math.ceil(math.log10(hi) - 1e-9)

    def steps(mult: tuple[int, ...]) -> list[float]:
        """The values m·10ᵏ (m in ``mult``) inside the data."""
        return [v for k in range(k0 - 1, k1 + 1) for m in mult if lo / 1.0001 <= (v := m * 10.0 ** k) <= hi * 1.0001]

    decades = len(steps((1,)))
    one_two_five = steps((1, 2, 5))
    if decades == 2 and len(one_two_five) <= 12 and all(1e-3 <= v < 1e5 for v in one_two_five):
        return one_two_five, [number_label(v) for v in one_two_five]  # two decades: plain numbers, one style
    if decades >= 2:
        step = max(1, math.ceil((k1 - k0) / 12))  # at most ~12 labels
        ks = list(range(k0 - k0 % step, k1 + 1, step))
        if all(k in _PLAIN_DECADES for k in ks):
            return [10.0 ** k for k in ks], [decade_label(k) for k in ks]
        return [10.0 ** k for k in ks], [power_of_ten(k) for k in ks]  # one style per axis: 10⁴ 10⁵, not 10,000 10⁵
    for vals in (one_two_five, steps((1, 2, 3, 4, 5, 6, 7, 8, 9))):
        if len(vals) >= 2:
            return vals, [number_label(v) for v in vals]
    vals = [lo, hi] if hi > lo else [lo / 2, lo, lo * 2]
    return vals, [number_label(v) for v in vals]


def _axis_names(fig: go.Figure, axis: str, *, row=None, col=None, selector=None) -> list[str]:
    """Layout keys (``xaxis``, ``yaxis2``, ...) of the axes ``fig.update_{axis}axes(row=, col=, selector=)``
    would change (Plotly's own selection)."""
    select = fig.select_xaxes if axis == "x" else fig.select_yaxes
    return [ax.plotly_name for ax in select(selector=selector, row=row, col=col)]


def _plain(v) -> bool:
    """True for a value Plotly's validators store unchanged: None, str, int, float, bool, a list of
    str / int / float, a dict of such values."""
    t = type(v)
    if v is None or t in (str, int, float, bool):
        return True
    if t is list:
        return all(type(x) in (str, int, float) for x in v)
    if t is dict:
        return all(type(k) is str and _plain(x) for k, x in v.items())
    return False


def _paths(prefix: str, props: dict, out: dict) -> dict:
    """``{"xaxis.minor.ticks": ...}``: the leaves of a nested update, which ``update_layout`` merges
    into the layout property by property (a dict value of a compound property is merged, not replaced)."""
    for k, v in props.items():
        if type(v) is dict:
            _paths(f"{prefix}{k}.", v, out)
        else:
            out[prefix + k] = list(v) if type(v) is list else v
    return out


def _relayout(fig: go.Figure, paths: dict) -> bool:
    """Set layout properties by path (``"margin.l"``, ``"xaxis2.title.text"``) with ``plotly_relayout``,
    which stores them without ``update_layout``'s validation and batch machinery (about half the time).
    Only for values a validator would store unchanged (:func:`_plain`), so the figure is the same as
    with ``update_layout``; returns False (nothing done) otherwise: the caller updates the usual way."""
    if not all(_plain(v) for v in paths.values()) or not callable(getattr(fig, "plotly_relayout", None)):
        return False
    fig.plotly_relayout(paths)
    return True


def _update_axes(fig: go.Figure, axis: str, props: dict, *, row=None, col=None, selector=None) -> None:
    """``fig.update_{axis}axes(**props, row=, col=, selector=)`` with nested ``props``: the axes are
    Plotly's own selection, updated with one :func:`_relayout` (one ``update_layout`` when the values
    are not plain), the same result at a third of the cost."""
    names = _axis_names(fig, axis, row=row, col=col, selector=selector)
    if not names:
        return
    paths: dict = {}
    for n in names:
        _paths(f"{n}.", props, paths)
    if not _relayout(fig, paths):
        fig.update_layout({n: props for n in names})


def _spanning_refs(fig: go.Figure) -> tuple[str, str] | None:
    """(xref, yref) a whole-figure ``add_vline`` / ``add_hline`` (row = col = "all") would give its one
    shape: ("x", "y") on a single plot or a 1 x 1 grid whose plot is not empty; None when Plotly would
    add no shape or several (an empty 1 x 1 grid, several subplots): the caller lets Plotly do it."""
    grid = getattr(fig, "_grid_ref", None)
    if grid is None:
        return "x", "y"
    if len(grid) != 1 or len(grid[0]) != 1 or not grid[0][0]:
        return None
    ref = grid[0][0][0]
    if getattr(ref, "subplot_type", None) != "xy" or tuple(ref.layout_keys) != ("xaxis", "yaxis"):
        return None
    not_empty = getattr(fig, "_subplot_not_empty", None)
    if not_empty is None or not not_empty("x", "y", selector=True):
        return None
    return "x", "y"


def recordable(func):
    """Let a drawing helper take a :class:`FigureRecorder` too (a page's cacheable figure): the call
    is recorded and replayed with the figure, which stays cacheable."""
    @functools.wraps(func)
    def wrapper(fig, *args, **kwargs):
        if isinstance(fig, FigureRecorder):
            return fig.apply(func, *args, **kwargs)
        return func(fig, *args, **kwargs)
    return wrapper


@recordable
def log_axis(fig: go.Figure, axis: str = "x", *, row: int | None = None, col: int | None = None,
             values: Iterable[float] | None = None) -> go.Figure:
    """Make an axis logarithmic with labelled decades (``tickvals`` at 10ⁿ, minor ticks between).

    Parameters
    ----------
    axis : {"x", "y"}
    row, col : int, optional
        Subplot; default every axis of that letter.
    values : iterable of float, optional
        Data the ticks must cover; default the figure's traces on that axis.
    """
    vals = np.asarray(list(values), dtype=float) if values is not None else _trace_values(fig, axis, None)
    vals = vals[np.isfinite(vals) & (vals > 0)]
    kw: dict = dict(type="log", minor=dict(ticks="outside", ticklen=3, showgrid=False))
    if vals.size:
        tv, tt = _log_ticks(float(vals.min()), float(vals.max()))
        kw.update(tickvals=tv, ticktext=tt, tickmode="array")
        # minor ticks at 2..9 x 10^k, listed: with array major ticks Plotly's default minor ticks
        # pile up into a solid bar beyond the last major tick
        k0, k1 = math.floor(math.log10(float(vals.min()))) - 1, math.ceil(math.log10(float(vals.max()))) + 1
        kw["minor"].update(tickmode="array", tickvals=[m * 10.0 ** k for k in range(k0, k1 + 1) for m in range(2, 10)])
    else:
        kw.update(dtick=1, exponentformat="power")
    _update_axes(fig, axis, kw, row=row, col=col)
    return fig


#: A linear axis around a point spans at least this share of the point on each side [-] (:func:`centred_range`).
MIN_HALF_WIDTH = 5e-3


def centred_range(values, centre: float, *, min_half: float = MIN_HALF_WIDTH, pad: float = 1.1) -> list[float]:
    """An axis range around ``centre`` covering ``values`` (``pad`` × their farthest distance) and at least
    ``min_half`` × ``|centre|`` on each side: a spread of 0.1 % is drawn as the small effect it is, not zoomed
    to fill the chart (the tornado; the Monte Carlo lifetimes 9.237 ... 9.246 years).

    >>> centred_range([9.237, 9.246], 9.24)
    [9.1938, 9.2862]
    >>> centred_range([50.0, 150.0], 100.0)
    [45.0, 155.0]
    """
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    far = float(np.abs(v - centre).max()) if v.size else 0.0
    half = max(far * pad, min_half * abs(centre))
    return [round(centre - half, 12), round(centre + half, 12)]


@recordable
def one_to_n_ticks(fig: go.Figure, ratios: Sequence[float], *, axis: str = "x", fmt=None) -> go.Figure:
    """Label a (log) axis at exactly ``ratios`` with ``fmt(v)`` (default ``1:n`` for v < 1, ``n:1`` above).

    (Not a ratio axis around 1×: that is :func:`ratio_axis`; the report's decade ticks of one are
    :func:`reporting.planner_report.ratio_ticks`.)

    For DRAM:NVM fractions 1/16 ... 1/2 this reads "1:16 1:8 1:4 1:2".
    """
    def one_to(v: float) -> str:
        return f"1:{1 / v:g}" if v < 1 else f"{v:g}:1"

    fmt = fmt or one_to
    vals = sorted({float(v) for v in ratios if v > 0})
    _update_axes(fig, axis, dict(type="log", tickmode="array", tickvals=vals, ticktext=[fmt(v) for v in vals]))
    return fig


def ratio_axis_range(vals: np.ndarray) -> tuple[float, list[float]]:
    """(half-width of a log10 range centred on 1 [decades], ticks at 1-2-5 ratios [-]) covering the
    positive finite ``vals`` [-]: at least 2x either way, 8 % margin, decades only beyond 13 ticks: the
    range of the app's :func:`ratio_axis` (the report's half-decade range is
    :func:`reporting.planner_report.ratio_range`)."""
    vals = vals[np.isfinite(vals) & (vals > 0)]
    half = max(float(np.max(np.abs(np.log10(vals)))) if vals.size else 0.0, math.log10(2)) * 1.08
    steps = [m * 10.0 ** k for k in range(-6, 7) for m in (1, 2, 5)]
    ticks = [v for v in steps if abs(math.log10(v)) <= half + 1e-9]
    ticks = sorted({*(1 / v for v in ticks if v > 1), *ticks})
    if len(ticks) > 13:
        ticks = [v for v in ticks if abs(math.log10(v) - round(math.log10(v))) < 1e-9]
    return half, ticks


#: A one-sided ratio axis (``ratio_axis(from_one=True)``) starts this share of its height below 1× [-], so the
#: 1× line and its label sit inside the plot.
SLOWDOWN_FLOOR = 0.06


@recordable
def ratio_axis(fig: go.Figure, axis: str = "y", *, values: Iterable[float] | None = None,
               label: str = "1×", above: bool = False, from_one: bool = False) -> go.Figure:
    """A log axis centred on a labelled 1× reference line, ticks at 1-2-5 ratios ("0.5×", "1×", "2×").

    The range is symmetric in log10 around 1, wide enough for ``values`` (default: the traces).
    ``above`` (``axis="x"``): the line's label over the plot area (:func:`ref_line`'s ``above``).
    ``from_one``: ratios that cannot be below 1 (a slowdown against DRAM only) start at the 1× line
    instead, when every value is at least 1.
    """
    vals = np.asarray(list(values), dtype=float) if values is not None else _trace_values(fig, axis, None)
    half, ticks = ratio_axis_range(vals)
    lo, hi = -half, half
    pos = vals[np.isfinite(vals) & (vals > 0)]
    if from_one and pos.size and pos.min() >= 1:  # all slower: from the 1× line up, no empty half below it
        lo = -SLOWDOWN_FLOOR * half
        ticks = [v for v in ticks if v >= 1]
    _update_axes(fig, axis, dict(type="log", range=[lo, hi], tickmode="array", tickvals=ticks,
                                 ticktext=[f"{number_label(v)}×" for v in ticks]))
    ref_line(fig, **{axis: 1.0}, text=label, dash="dash", above=above)
    return fig


#: Height of a horizontal bar chart [px]: per bar, and for its axis, titles and legend (at least MIN).
BAR_PX, BAR_CHART_FIXED_PX, BAR_CHART_MIN_PX = 14, 140, 320


def bar_chart_height(bars: int, *, px_per_bar: int = BAR_PX) -> int:
    """Height [px] of a horizontal bar chart of ``bars`` bars (all series counted): categories with
    long names go on the y axis, where they read level (chart rule: no rotated category labels), and
    the chart grows with them instead of squeezing its bars.

    >>> bar_chart_height(32), bar_chart_height(3)
    (588, 320)
    """
    return max(BAR_CHART_MIN_PX, px_per_bar * int(bars) + BAR_CHART_FIXED_PX)


@recordable
def ref_line(fig: go.Figure, *, x: float | None = None, y: float | None = None, text: str = "",
             dash: str = "dot", row: int | str | None = None, col: int | str | None = None,
             position: str = "end", above: bool = False) -> go.Figure:
    """A reference line at ``x`` (vertical) or ``y`` (horizontal) whose label sits on the line.

    The label is the shape's own label, placed by Plotly relative to the line, so it stays on the
    line on log axes (unlike ``add_vline(annotation_text=...)``, whose annotation a log axis reads
    as an exponent). ``position``: "start" / "middle" / "end" of the line. ``above`` (vertical
    lines): the label just over the line's top end, above the plot area, where bars filling the
    plot's top would hide it (give the figure a top margin for it).
    """
    if (x is None) == (y is None):
        raise ValueError("ref_line: give exactly one of x or y")
    if above and x is None:
        raise ValueError("ref_line: above= is for vertical lines (x=)")
    label = dict(text=text, textposition=position, font=dict(size=11))
    if x is not None:
        label.update(textangle=0, xanchor="left", yanchor="bottom" if above else "top")
    else:
        label.update(xanchor="right", yanchor="bottom")
    refs = _spanning_refs(fig) if row is None and col is None else None
    if refs is not None:  # the shape add_vline / add_hline would add, without their slow generic path
        xref, yref = refs
        if x is not None:
            span = dict(x0=x, x1=x, y0=0, y1=1, xref=xref, yref=f"{yref} domain")
        else:
            span = dict(x0=0, x1=1, y0=y, y1=y, xref=f"{xref} domain", yref=yref)
        fig.add_shape(type="line", **span, line=dict(dash=dash, width=1.5, color="gray"), label=label)
        return fig
    kw = dict(line_dash=dash, line_width=1.5, line_color="gray", label=label)
    if row is not None:
        kw.update(row=row, col=col)
    if x is not None:
        fig.add_vline(x=x, **kw)
    else:
        fig.add_hline(y=y, **kw)
    return fig


@recordable
def style(fig: go.Figure, *, title: str | None = None, x: str | None = None, y: str | None = None,
          logx: bool = False, logy: bool = False) -> go.Figure:
    """Apply the app's common layout: titles, axis labels with units, log axes with labelled decades, legend."""
    axes: dict = {}  # set with the rest (the same result as update_xaxes / update_yaxes after it)
    if x:
        axes.update({n: dict(title=dict(text=x)) for n in _axis_names(fig, "x")})
    if y:  # every subplot's y axis, not a twin axis drawn over another (its own quantity, its own title)
        axes.update({n: dict(title=dict(text=y)) for n in _axis_names(fig, "y", selector=dict(overlaying=None))})
    layout = dict(
        margin=dict(l=10, r=10, t=50 if title else 20, b=10),
        # below everything, in container coordinates: long (rotated) tick labels push the plot up
        # instead of running into the legend
        legend=dict(orientation="h", yref="container", yanchor="bottom", y=0, xanchor="left", x=0),

        hovermode="x unified",
        **axes,
    )
    # ``title=`` replaces the whole title (a string is its text; None empties it), the rest is merged
    paths = {"title": {} if title is None else {"text": title}, **_paths("", layout, {})}
    texts_plain = all(type(t) in (str, type(None)) for t in (title, x, y))  # a validator turns a number into text
    if not texts_plain or not _relayout(fig, paths):
        fig.update_layout(title=title, **layout)
    if logx:
        log_axis(fig, "x")
    if logy:
        log_axis(fig, "y")
    return fig


def log_axis_ticks(fig: go.Figure):
    """(layout key, axis, tick settings) of every log axis without explicit ticks: labelled decades
    over its traces' values, or one tick per decade in powers of ten when it has none (see :func:`log_axis`)."""
    for name in list(fig.layout):
        if not (name.startswith("xaxis") or name.startswith("yaxis")):
            continue
        ax = fig.layout[name]
        if ax.type != "log" or ax.dtick is not None or ax.tickvals is not None:
            continue
        letter, suffix = name[0], name[5:]
        vals = _trace_values(fig, letter, letter + suffix)
        if vals.size:
            tv, tt = _log_ticks(float(vals.min()), float(vals.max()))
            yield name, ax, dict(tickvals=tv, ticktext=tt, tickmode="array")
        else:
            yield name, ax, dict(dtick=1, exponentformat="power")


def _label_log_axes(fig: go.Figure) -> None:
    """Give every log axis that has no explicit ticks labelled decades (:func:`log_axis_ticks`)."""
    for name, ax, kw in list(log_axis_ticks(fig)):
        if not _relayout(fig, _paths(f"{name}.", kw, {})):
            ax.update(**kw)


#: Tick labels past the chart's edge are drawn, not hidden: Plotly's default for a linear, log or date
#: axis ("hide past div") measures every label of the axis once per label it draws (an O(n²) loop of
#: getBoundingClientRect calls, each forcing a layout of the whole page): 18-27 ms of the browser's
#: work per closed-form rerun redrawing two charts (issue 18). No label reaches past the edge: the
#: axes' automargin (Streamlit's theme) widens the margins to fit them.
TICK_LABEL_OVERFLOW = "allow"


def _tick_labels_unmeasured(fig: go.Figure) -> None:
    """Set :data:`TICK_LABEL_OVERFLOW` on every cartesian axis that sets no ``ticklabeloverflow`` (figures
    without a cartesian trace are left alone: an axis in their layout would draw an empty plot)."""
    if not any("xaxis" in t for t in fig.data):
        return
    names = [n for n in fig.layout if n.startswith(("xaxis", "yaxis"))]
    paths = {f"{n}.ticklabeloverflow": TICK_LABEL_OVERFLOW for n in names if fig.layout[n].ticklabeloverflow is None}
    if paths and not _relayout(fig, paths):
        fig.update_layout({p.split(".")[0]: dict(ticklabeloverflow=TICK_LABEL_OVERFLOW) for p in paths})


#: Part of the Plasma scale an ordered series samples: from its purple to its orange, without the pale yellow end
#: (unreadable on a light page) [-].
ORDERED_SCALE = ("Plasma", 0.0, 0.82)


def ordered_colours(n: int) -> list[str]:
    """``n`` colours for series with an order (page sizes, latency multiples): one hue ramp, so neighbours look
    alike and the ends apart -- the theme's qualitative colours repeat after 10 and pair unrelated sizes.

    >>> len(ordered_colours(9)), ordered_colours(1)[0] == ordered_colours(2)[0]
    (9, True)
    """
    from plotly.colors import sample_colorscale

    name, lo, hi = ORDERED_SCALE
    return sample_colorscale(name, list(np.linspace(lo, hi, n)) if n > 1 else [lo])


#: Legend suffix of a line drawn exactly over an earlier one: the one line the reader sees stands for both,
#: instead of a legend entry whose line cannot be found (Filebench's PCM-DAX on an HDD or an SSD, issue 18).
SAME_AS = " (same as {})"


def line_key(x, y, *, axes: tuple[str, str] = ("x", "y")) -> tuple | None:
    """What decides whether two line / marker traces coincide on a chart: their axes and points, exactly (a
    model gives identical configurations bit-identical values); None for a trace without numeric y.

    >>> line_key([1, 2], [0.5, 1.0]) == line_key((1.0, 2.0), [0.5, 1.0]), line_key([1, 2], [0.5, 1.1]) is None
    (True, False)
    """
    if x is None or y is None:
        return None
    try:
        ys = np.asarray(y, dtype=float).ravel()
    except (TypeError, ValueError):
        return None
    xa = np.asarray(x).ravel()
    if xa.size != ys.size or not ys.size:
        return None
    try:
        xs = np.asarray(xa, dtype=float).tobytes()
    except (TypeError, ValueError):  # categories
        xs = "\x1f".join(map(str, xa.tolist()))
    return axes, xs, ys.tobytes()


def _is_line(tr) -> bool:
    """A visible scatter trace drawn as a line or markers with a legend entry (not a band's edge or fill)."""
    return (getattr(tr, "type", None) in ("scatter", "scattergl") and tr.visible in (None, True)
            and tr.showlegend is not False and tr.fill in (None, "none") and bool(tr.name))


def _name_identical_lines(fig: go.Figure) -> None:
    """Name each line that coincides with an earlier one :data:`SAME_AS` it."""
    first: dict[tuple, str] = {}
    for tr in fig.data:
        if not _is_line(tr):
            continue
        key = line_key(tr.x, tr.y, axes=(tr.xaxis or "x", tr.yaxis or "y"))
        if key is None:
            continue
        if key in first and first[key] != tr.name and "(same as " not in tr.name:
            tr.name = tr.name + SAME_AS.format(first[key])
        first.setdefault(key, tr.name)


def _finish(fig: go.Figure) -> go.Figure:
    """What :func:`show` does to every figure before sending it."""
    from reporting.plotly_text import escape_figure_data

    _label_log_axes(fig)
    _zero_based_value_axes(fig)
    _tick_labels_unmeasured(fig)
    _name_identical_lines(fig)
    escape_figure_data(fig)  # user names in data shown literally, never as Plotly markup (issue 20)
    return fig


def own_category_colours(o):
    """``o`` (a figure's ``to_dict()``, or a part of it) with each of the theme's category placeholders
    replaced by its own colour (:data:`CATEGORY_COLOURS`); numbers and arrays are passed through unread.

    >>> own_category_colours({"data": [{"line": {"color": "#000002"}, "y": [1, 2]}], "layout": {"colorway": ["#000001"]}})
    {'data': [{'line': {'color': '#e8590c'}, 'y': [1, 2]}], 'layout': {'colorway': ['#1f77b4']}}
    """
    if isinstance(o, str):
        return _CATEGORY_OWN.get(o, o)
    if isinstance(o, dict):
        return {k: own_category_colours(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        if o and not isinstance(o[0], (str, dict, list, tuple)):
            return o  # a data array of numbers (or None)
        return [own_category_colours(v) for v in o]
    return o


def sent_spec(fig: go.Figure) -> dict:
    """What :func:`show` sends for the plain figure ``fig``: finished (:func:`_finish`), in its own category
    colours (:func:`own_category_colours`)."""
    return own_category_colours(_finish(fig).to_dict())


def show(fig: go.Figure | FigureRecorder, *, key: str | None = None) -> None:
    """Render a figure full-width, with labelled decades on every log axis.

    A :class:`FigureRecorder` (:func:`figure`) is drawn from :data:`FIGURE_CACHE` when the same calls
    were drawn before (by any session), else built and cached.
    """
    import streamlit as st

    if isinstance(fig, FigureRecorder):
        st.plotly_chart(_SpecFigure(figure_spec(fig)), width="stretch", key=key)
        return
    st.plotly_chart(_SpecFigure(sent_spec(fig)), width="stretch", key=key)


# ----------------------------------------------------------------------------- figure cache


class _Uncacheable(Exception):
    """An argument the recorder cannot snapshot and hash by content."""


def _name_of(func: Callable) -> str:
    """``module.qualname`` of a module-level callable (a local function or lambda cannot be keyed)."""
    qual = getattr(func, "__qualname__", None)
    mod = getattr(func, "__module__", None)
    if not qual or not mod or "<" in qual:
        raise _Uncacheable(repr(func))
    return f"{mod}.{qual}"


def _snap(v, h) -> object:
    """Feed ``v``'s content into the hash ``h`` and return a snapshot of it (arrays and frames copied,
    so a later change to the page's object cannot change what the recorded call draws)."""
    t = type(v)
    if v is None or t in (bool, int, float, str, bytes):
        h.update(f"{t.__name__}:{v!r};".encode())
        return v
    if isinstance(v, np.generic):
        h.update(f"np:{v.dtype.str}:".encode() + (v.tobytes() if not v.dtype.hasobject else repr(v).encode()) + b";")
        return v
    if isinstance(v, np.ndarray):
        if v.dtype.hasobject:
            h.update(f"ndo:{v.shape};".encode())
            for x in v.ravel().tolist():
                _snap(x, h)
            return v.copy()
        a = np.ascontiguousarray(v)
        h.update(f"nd:{a.dtype.str}:{a.shape};".encode())
        h.update(a.reshape(-1).view(np.uint8) if a.size else b"")
        return a.copy()
    if t in (list, tuple):
        h.update(f"{t.__name__}:{len(v)};".encode())
        return t(_snap(x, h) for x in v)
    if t is dict:
        h.update(f"dict:{len(v)};".encode())
        return {_snap(k, h): _snap(x, h) for k, x in v.items()}
    if t is range:
        h.update(f"{v!r};".encode())
        return v
    import pandas as pd

    if isinstance(v, pd.DataFrame):
        h.update(f"df:{v.shape};".encode())
        _snap(list(v.columns), h)
        _snap(v.index, h)
        for c in v.columns:
            _snap(v[c], h)
        return v.copy(deep=True)
    if isinstance(v, pd.Series):
        h.update(f"ser:{v.dtype};".encode())
        _snap(v.name, h)
        _snap(v.index, h)
        _snap(v.to_numpy(), h)
        return v.copy(deep=True)
    if isinstance(v, pd.Index):
        if isinstance(v, pd.RangeIndex):
            h.update(f"ridx:{v.start}:{v.stop}:{v.step};".encode())
        else:
            h.update(f"idx:{v.dtype};".encode())
            _snap(v.to_numpy(), h)
        _snap(v.name, h)
        return v
    from plotly.basedatatypes import BasePlotlyType

    if isinstance(v, BasePlotlyType):  # e.g. go.Bar(...) passed to figure() or add_trace()
        h.update(f"go:{type(v).__module__}.{type(v).__qualname__};".encode())
        _snap(v.to_plotly_json(), h)
        return v
    raise _Uncacheable(t.__name__)


def _spec_bytes(v) -> int:
    """Rough size of a figure spec [bytes] (strings by length, numbers 8 bytes)."""
    if isinstance(v, str):
        return len(v) + 8
    if isinstance(v, dict):
        return sum(_spec_bytes(k) + _spec_bytes(x) for k, x in v.items()) + 16
    if isinstance(v, (list, tuple)):
        return sum(_spec_bytes(x) for x in v) + 16
    if isinstance(v, np.ndarray):
        return v.nbytes + 16
    return 8


class FigureCache:
    """Process-wide LRU of figure specs (``go.Figure.to_dict()``) by the content hash of the calls that
    built them, bounded by ``max_entries`` and ``max_bytes`` (the server's memory is shared by every
    session). Thread-safe: Streamlit runs each session's script in its own thread."""

    def __init__(self, max_entries: int = 512, max_bytes: int = 96 * 2**20, *, enabled: bool = True) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        #: False: :func:`figure` / :func:`figure_from` build plain figures (``PCM_FIGURE_CACHE=0``; the
        #: page bench compares both in one run)
        self.enabled = enabled
        self._d: OrderedDict[str, tuple[dict, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._d)

    def get(self, key: str) -> dict | None:
        with self._lock:
            hit = self._d.get(key)
            if hit is None:
                self.misses += 1
                return None
            self._d.move_to_end(key)
            self.hits += 1
            return hit[0]

    def put(self, key: str, spec: dict) -> None:
        size = _spec_bytes(spec)
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._d.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._d[key] = (spec, size)
            self.bytes += size
            while len(self._d) > self.max_entries or self.bytes > self.max_bytes:
                _, (_, s) = self._d.popitem(last=False)
                self.bytes -= s

    def clear(self) -> None:
        with self._lock:
            self._d.clear()
            self.bytes = self.hits = self.misses = 0


#: The app's figure cache (one per server process); ``PCM_FIGURE_CACHE=0`` turns it off.
FIGURE_CACHE = FigureCache(enabled=os.environ.get("PCM_FIGURE_CACHE", "1") != "0")


class FigureRecorder:
    """Stands for ``factory(*args, **kwargs)`` plus the calls made on it; see the module docstring.

    ``add_*`` / ``update_*`` methods and this module's helpers are recorded; reading or setting any
    other attribute builds the real figure and forwards to it from then on (uncached).
    """

    __slots__ = ("_calls", "_hash", "_fig")

    def __init__(self, factory: Callable, args: tuple, kwargs: dict) -> None:
        object.__setattr__(self, "_calls", [])
        object.__setattr__(self, "_hash", hashlib.blake2b(digest_size=20))
        object.__setattr__(self, "_fig", None if FIGURE_CACHE.enabled else factory(*args, **kwargs))
        if self._fig is None:
            self._record("new", factory, args, kwargs)

    def _record(self, kind: str, target, args: tuple, kwargs: dict) -> FigureRecorder:
        if self._fig is None:
            trial = self._hash.copy()
            try:
                trial.update(f"{kind}:{target if kind == 'method' else _name_of(target)};".encode())
                call = (kind, target, _snap(args, trial), _snap(kwargs, trial))
            except _Uncacheable:
                if kind == "new":
                    object.__setattr__(self, "_fig", target(*args, **kwargs))
                    return self
                self.figure()  # from here on a plain figure
            else:
                object.__setattr__(self, "_hash", trial)
                self._calls.append(call)
                return self
        if kind == "method":
            getattr(self._fig, target)(*args, **kwargs)
        else:
            target(self._fig, *args, **kwargs)
        return self

    def apply(self, func: Callable, /, *args, **kwargs) -> FigureRecorder:
        """Record ``func(figure, *args, **kwargs)`` (``func`` a module-level function changing the figure)."""
        return self._record("apply", func, args, kwargs)

    @property
    def key(self) -> str | None:
        """Content hash of the recorded calls; None once the recorder became a plain figure."""
        return None if self._fig is not None else self._hash.hexdigest()

    def figure(self) -> go.Figure:
        """The real figure: the recorded calls replayed (once); the recorder forwards to it from then on."""
        if self._fig is None:
            fig = None
            for kind, target, a, k in self._calls:
                if kind == "new":
                    fig = target(*a, **k)
                elif kind == "method":
                    getattr(fig, target)(*a, **k)
                else:
                    target(fig, *a, **k)
            object.__setattr__(self, "_fig", fig)
            object.__setattr__(self, "_calls", None)
        return self._fig

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if self._fig is None and name.startswith(("add_", "update_")) and callable(getattr(go.Figure, name, None)):
            def method(*args, **kwargs):
                return self._record("method", name, args, kwargs)
            return method
        return getattr(self.figure(), name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self.figure(), name, value)


def figure(*args, **kwargs) -> FigureRecorder:
    """A cached stand-in for ``go.Figure(*args, **kwargs)`` (see the module docstring)."""
    return FigureRecorder(go.Figure, args, kwargs)


def figure_from(factory: Callable, /, *args, **kwargs) -> FigureRecorder:
    """A cached stand-in for ``factory(*args, **kwargs)``: ``px.bar``, ``make_subplots``, ..."""
    return FigureRecorder(factory, args, kwargs)


def figure_spec(fig: go.Figure | FigureRecorder) -> dict:
    """The spec :func:`show` sends (log axes labelled): from :data:`FIGURE_CACHE` when the recorded
    calls were drawn before, else built (and cached when ``fig`` is a recording)."""
    key = fig.key if isinstance(fig, FigureRecorder) else None
    if key is not None:
        spec = FIGURE_CACHE.get(key)
        if spec is not None:
            return spec
    real = fig.figure() if isinstance(fig, FigureRecorder) else fig
    spec = sent_spec(real)
    if key is not None:
        FIGURE_CACHE.put(key, spec)
    return spec


class _SpecFigure(go.Figure):
    """A built spec handed to ``st.plotly_chart`` as a figure (Streamlit calls ``to_dict()`` and
    serialises that), so Plotly does not rebuild and revalidate it."""

    def __init__(self, spec: dict) -> None:  # no go.Figure.__init__: nothing to validate
        object.__setattr__(self, "_frozen_spec", spec)

    def to_dict(self) -> dict:
        return self._frozen_spec


def coinciding_legend(df, x: str, y: str, by: str = "config", rtol: float = 1e-9) -> tuple:
    """The sweep ``df`` (a DataFrame) with each ``by`` value whose ``y`` equals another's at every ``x`` (within ``rtol``)
    renamed in the legend ``"a = b = c"`` (one line hides the others on the chart), and those groups.

    >>> import pandas as pd
    >>> d = pd.DataFrame({"config": ["a", "a", "b", "b", "c", "c"], "t": [1, 2] * 3, "v": [1.0, 2, 1, 2, 3, 4]})
    >>> shown, same = coinciding_legend(d, "t", "v"); same, sorted(set(shown.config))
    ([['a', 'b']], ['a = b', 'c'])
    """
    curves = {k: g.sort_values(x)[[x, y]].to_numpy(float) for k, g in df.groupby(by, sort=False)}
    groups: list[list[str]] = []
    for k, c in curves.items():
        for g in groups:
            ref = curves[g[0]]
            if ref.shape == c.shape and np.allclose(ref, c, rtol=rtol, atol=0, equal_nan=True):
                g.append(k)
                break
        else:
            groups.append([k])
    same = [g for g in groups if len(g) > 1]
    names = {k: " = ".join(g) for g in same for k in g}
    return df.assign(**{by: [names.get(k, k) for k in df[by]]}), same
