"""Plotly figure conventions shared by all pages (checked on every page by tests/app/test_chart_rules.py).

- Axis titles carry units: ``"latency [ms]"``, ``"[-]"`` for a plain number, ``"(×)"`` for a ratio.
- Log axes label their decades (:func:`log_axis`; :func:`show` applies it to any log axis a page
  left without ticks), never "2 5 0.1".
- Reference lines are drawn with :func:`ref_line`: the label travels with the line (a shape
  label), so it sits on the line on log axes too -- Plotly reads a plain annotation's position on
  a log axis as an exponent, which put "1 year" at 10 years and "64 entries" at 10^64.
- Ratios sit on :func:`ratio_axis`: a log axis centred on a labelled 1× line.
- No template is forced: Streamlit's chart theme follows the user's light / dark preference.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import plotly.graph_objects as go

__all__ = ["style", "show", "log_axis", "ratio_axis", "ref_line", "ratio_ticks", "decade_label", "number_label"]

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
#: Decades written out in full (0.001 ... 10,000); others as 10ⁿ.
_PLAIN_DECADES = range(-3, 5)


def decade_label(k: int) -> str:
    """Label of the decade 10**k: ``0.01``, ``1``, ``1,000``, ``10⁶``, ``10⁻⁹``."""
    if k in _PLAIN_DECADES:
        return f"{10.0 ** k:,.{max(0, -k)}f}"
    return "10" + str(k).translate(_SUPERSCRIPT)


def number_label(v: float) -> str:
    """Short label of a tick value: 3 significant digits, thousands separators, no trailing zeros."""
    if v == 0 or not math.isfinite(v):
        return f"{v:g}"
    if 1e-3 <= abs(v) < 1e5:
        digits = max(0, 2 - math.floor(math.log10(abs(v))))
        return f"{v:,.{digits}f}".rstrip("0").rstrip(".") if digits else f"{v:,.0f}"
    k = math.floor(math.log10(abs(v)))
    m = v / 10 ** k
    return ("" if abs(m - 1) < 1e-9 else f"{m:.3g}×") + "10" + str(k).translate(_SUPERSCRIPT)


def _trace_values(fig: go.Figure, axis: str, ref: str | None) -> np.ndarray:
    """Positive finite numbers the traces plot on axis ``axis`` ("x"/"y"), on subplot ``ref`` if given."""
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
    return arr[np.isfinite(arr) & (arr > 0)]


def _log_ticks(lo: float, hi: float) -> tuple[list[float], list[str]]:
    """Tick values and labels of a log axis over data ``lo..hi`` (> 0): decades, or 1-2-5 steps inside one."""
    k0, k1 = math.floor(math.log10(lo) + 1e-9), math.ceil(math.log10(hi) - 1e-9)
    inside = sum(1 for k in range(k0, k1 + 1) if lo / 1.0001 <= 10.0 ** k <= hi * 1.0001)
    if inside >= 2:
        step = max(1, math.ceil((k1 - k0) / 12))  # at most ~12 labels
        ks = list(range(k0 - k0 % step, k1 + 1, step))
        return [10.0 ** k for k in ks], [decade_label(k) for k in ks]
    for mult in ((1, 2, 5), (1, 2, 3, 4, 5, 6, 7, 8, 9)):
        vals = [m * 10.0 ** k for k in range(k0 - 1, k1 + 1) for m in mult]
        inside = [v for v in vals if lo / 1.0001 <= v <= hi * 1.0001]
        if len(inside) >= 2:
            return inside, [number_label(v) for v in inside]
    vals = [lo, hi] if hi > lo else [lo / 2, lo, lo * 2]
    return vals, [number_label(v) for v in vals]


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
    update = fig.update_xaxes if axis == "x" else fig.update_yaxes
    vals = np.asarray(list(values), dtype=float) if values is not None else _trace_values(fig, axis, None)
    vals = vals[np.isfinite(vals) & (vals > 0)]
    kw: dict = dict(type="log", minor=dict(ticks="outside", ticklen=3, showgrid=False))
    if vals.size:
        tv, tt = _log_ticks(float(vals.min()), float(vals.max()))
        kw.update(tickvals=tv, ticktext=tt, tickmode="array")
    else:
        kw.update(dtick=1, exponentformat="power")
    update(row=row, col=col, **kw)
    return fig


def ratio_ticks(fig: go.Figure, ratios: Sequence[float], *, axis: str = "x", fmt=None) -> go.Figure:
    """Label a (log) axis at exactly ``ratios`` with ``fmt(v)`` (default ``1:n`` for v < 1, ``n:1`` above).

    For DRAM:NVM fractions 1/16 ... 1/2 this reads "1:16 1:8 1:4 1:2".
    """
    def one_to(v: float) -> str:
        return f"1:{1 / v:g}" if v < 1 else f"{v:g}:1"

    fmt = fmt or one_to
    vals = sorted({float(v) for v in ratios if v > 0})
    update = fig.update_xaxes if axis == "x" else fig.update_yaxes
    update(type="log", tickmode="array", tickvals=vals, ticktext=[fmt(v) for v in vals])
    return fig


def ratio_axis(fig: go.Figure, axis: str = "y", *, values: Iterable[float] | None = None,
               label: str = "1×") -> go.Figure:
    """A log axis centred on a labelled 1× reference line, ticks at 1-2-5 ratios ("0.5×", "1×", "2×").

    The range is symmetric in log10 around 1, wide enough for ``values`` (default: the traces).
    """
    vals = np.asarray(list(values), dtype=float) if values is not None else _trace_values(fig, axis, None)
    vals = vals[np.isfinite(vals) & (vals > 0)]
    half = max(float(np.max(np.abs(np.log10(vals)))) if vals.size else 0.0, math.log10(2)) * 1.08
    steps = [m * 10.0 ** k for k in range(-6, 7) for m in (1, 2, 5)]
    ticks = [v for v in steps if abs(math.log10(v)) <= half + 1e-9]
    ticks = sorted({*(1 / v for v in ticks if v > 1), *ticks})
    if len(ticks) > 13:
        ticks = [v for v in ticks if abs(math.log10(v) - round(math.log10(v))) < 1e-9]
    update = fig.update_xaxes if axis == "x" else fig.update_yaxes
    update(type="log", range=[-half, half], tickmode="array", tickvals=ticks,
           ticktext=[f"{number_label(v)}×" for v in ticks])
    ref_line(fig, **{axis: 1.0}, text=label, dash="dash")
    return fig


def ref_line(fig: go.Figure, *, x: float | None = None, y: float | None = None, text: str = "",
             dash: str = "dot", row: int | str | None = None, col: int | str | None = None,
             position: str = "end") -> go.Figure:
    """A reference line at ``x`` (vertical) or ``y`` (horizontal) whose label sits on the line.

    The label is the shape's own label, placed by Plotly relative to the line, so it stays on the
    line on log axes (unlike ``add_vline(annotation_text=...)``, whose annotation a log axis reads
    as an exponent). ``position``: "start" / "middle" / "end" of the line.
    """
    if (x is None) == (y is None):
        raise ValueError("ref_line: give exactly one of x or y")
    label = dict(text=text, textposition=position, font=dict(size=11))
    kw = dict(line_dash=dash, line_width=1.5, line_color="gray", label=label)
    if row is not None:
        kw.update(row=row, col=col)
    if x is not None:
        label.update(textangle=0, xanchor="left", yanchor="top")
        fig.add_vline(x=x, **kw)
    else:
        label.update(xanchor="right", yanchor="bottom")
        fig.add_hline(y=y, **kw)
    return fig


def style(fig: go.Figure, *, title: str | None = None, x: str | None = None, y: str | None = None,
          logx: bool = False, logy: bool = False) -> go.Figure:
    """Apply the app's common layout: titles, axis labels with units, log axes with labelled decades, legend."""
    fig.update_layout(
        title=title, margin=dict(l=10, r=10, t=50 if title else 20, b=10),
        # below everything, in container coordinates: long (rotated) tick labels push the plot up
        # instead of running into the legend
        legend=dict(orientation="h", yref="container", yanchor="bottom", y=0, xanchor="left", x=0),

        hovermode="x unified",
    )
    if x:
        fig.update_xaxes(title_text=x)
    if y:
        fig.update_yaxes(title_text=y)
    if logx:
        log_axis(fig, "x")
    if logy:
        log_axis(fig, "y")
    return fig


def _label_log_axes(fig: go.Figure) -> None:
    """Give every log axis that has no explicit ticks labelled decades (see :func:`log_axis`)."""
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
            ax.update(tickvals=tv, ticktext=tt, tickmode="array")
        else:
            ax.update(dtick=1, exponentformat="power")


def show(fig: go.Figure, *, key: str | None = None) -> None:
    """Render a figure full-width, with labelled decades on every log axis."""
    import streamlit as st

    _label_log_axes(fig)
    st.plotly_chart(fig, width="stretch", key=key)
