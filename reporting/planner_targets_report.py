"""Spec targets in the planner's views and report: the targets table, the 2-D frontier chart and the report section.

:func:`targets_table` is the readable table of a :class:`~models.planner.targets.TargetsResult`;
:func:`frontier_figure` draws :func:`models.planner.targets.frontier_grid` of one plan row as a region chart
(wins / loses over two specs on log axes, decades labelled, the catalogue devices marked where they sit);
:func:`targets_section_html` is the "Product targets" section of the HTML report
(:func:`reporting.planner_report.plan_report_html` ``extra_sections=[targets_section(res)]``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = ["targets_table", "frontier_figure", "frontier_rows", "targets_section_html", "targets_section",
           "plan_row_frontier", "frontier_range", "check_frontier_pair", "band_text", "BAND_LABEL",
           "DEFAULT_FRONTIER"]

#: The spec pair of the report's frontier chart (x, y).
DEFAULT_FRONTIER = ("write_latency_ns", "read_latency_ns")
#: Grid points per axis of a frontier chart [-] (a drawing grid).
FRONTIER_POINTS = 25


def targets_table(res) -> pd.DataFrame:
    """The targets for reading: the break-even and the device's own value as text with their units, the reason
    beside them.

    >>> from models.planner.targets import TargetsResult
    >>> t = TargetsResult(rows=({"workload": "w", "role": "storage", "device": "d", "spec": "write_latency_ns",
    ...     "unit": "ns", "break_even": 2300.0, "held_at": 150.0, "direction": "<=", "reason": "won while ..."},),
    ...     target=1.0)
    >>> targets_table(t)[["spec", "won while", "device has"]].iloc[0].tolist()
    ['write latency', '<= 2.3 µs', '150 ns']
    """
    from models.planner.targets import SPECS, format_spec

    df = res.to_frame()
    out = pd.DataFrame({
        "workload": df.workload, "role": df.role, "device": df.device,
        "spec": [SPECS[s][2] for s in df.spec],
        "won while": [f"{d} {format_spec(s, x)}" if math.isfinite(x) else "" for s, d, x in
                      zip(df.spec, df.direction, df.break_even)]})
    if "band_method" in df:
        out[BAND_LABEL] = [band_text(s, x, lo, hi, m) for s, x, lo, hi, m in
                           zip(df.spec, df.break_even, df.break_even_low, df.break_even_high, df.band_method)]
    out["device has"] = [format_spec(s, x) if math.isfinite(x) else "not stated" for s, x in zip(df.spec, df.held_at)]
    out["reason"] = df.reason
    return out


#: The targets table's column of the uncertainty band.
BAND_LABEL = "band (provenance ranges)"


def band_text(spec: str, x: float, lo: float, hi: float, method: str) -> str:
    """A break-even's band in words: ``"1.9 µs – 2.8 µs"``, ``"= the point"`` (no range), an open end ``"…"`` where
    a corner has no break-even in the range, else the band method's first words ("not sampled", "unknown").

    >>> band_text("write_latency_ns", 2300, 1900, 2800, "corners ..."), band_text("write_latency_ns", 2300, 1900, float("nan"), "corners ...")
    ('1.9 µs – 2.8 µs', '1.9 µs – …')
    >>> band_text("write_latency_ns", float("nan"), float("nan"), float("nan"), "unknown: no break-even to band")
    'unknown'
    """
    from models.planner.targets import format_spec

    if not math.isfinite(x) or str(method).startswith(("unknown", "not sampled")):
        return str(method).split(":")[0]
    if str(method).startswith("no range"):
        return "= the point (no range)"
    if lo == hi == x:
        return "= the point (the ranges do not move it)"
    return f"{format_spec(spec, lo) if math.isfinite(lo) else '…'} – {format_spec(spec, hi) if math.isfinite(hi) else '…'}"


def _decade_ticks(lo: float, hi: float) -> tuple[list[float], list[str]]:
    from reporting.number_text import power_of_ten

    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    vals = [10.0 ** k for k in range(a, b + 1)]
    return vals, [power_of_ten(k) for k in range(a, b + 1)]


#: Label sides tried for a marker's name, in order (plotly textposition).
_LABEL_SIDES = ("top center", "bottom center", "middle right", "middle left", "top right", "top left",
                "bottom right", "bottom left")
#: The drawing's plot area [px] and a label's character width and line height [px] at plotly's default 12 px font
#: (a drawing estimate for keeping marker names apart, not a model value).
_PLOT_W, _PLOT_H, _CHAR_W, _LINE_H, _GAP = 560.0, 430.0, 7.0, 15.0, 6.0


def _label_box(u: float, v: float, n_chars: int, side: str) -> tuple[float, float, float, float]:
    """The box [px] (left, bottom, right, top) a name of ``n_chars`` takes at ``side`` of a marker at (u, v) [px]."""
    w, h = n_chars * _CHAR_W, _LINE_H
    vert, horiz = side.split()
    x0 = {"center": u - w / 2, "right": u + _GAP, "left": u - _GAP - w}[horiz]
    y0 = {"top": v + _GAP, "bottom": v - _GAP - h, "middle": v - h / 2}[vert]
    return x0, y0, x0 + w, y0 + h


def label_sides(log_x, log_y, names, x_range, y_range) -> list[str]:
    """A plotly textposition per marker so the names keep off each other and inside the plot: each marker in turn
    takes the first side of :data:`_LABEL_SIDES` whose box overlaps no name placed before it nor any marker (the
    least-overlapping side when none is free). ``log_x``/``log_y``: log10 of the markers' values; the ranges: the
    axes' log10 ranges.

    >>> label_sides([2.0, 2.02], [2.0, 2.0], ["dram", "pcm-samsung-20nm"], (1.5, 7.5), (1.5, 7.5))
    ['top center', 'bottom right']
    """
    u = [(x - x_range[0]) / (x_range[1] - x_range[0]) * _PLOT_W for x in log_x]
    v = [(y - y_range[0]) / (y_range[1] - y_range[0]) * _PLOT_H for y in log_y]
    marks = [(a - 4, b - 4, a + 4, b + 4) for a, b in zip(u, v)]
    placed: list[tuple[float, float, float, float]] = []
    out = []

    def overlap(p, q):
        return max(0.0, min(p[2], q[2]) - max(p[0], q[0])) * max(0.0, min(p[3], q[3]) - max(p[1], q[1]))

    for i, name in enumerate(names):
        best, best_cost = _LABEL_SIDES[0], math.inf
        for side in _LABEL_SIDES:
            box = _label_box(u[i], v[i], len(str(name)), side)
            outside = (max(0.0, -box[0]) + max(0.0, box[2] - _PLOT_W)) * _LINE_H \
                + (max(0.0, -box[1]) + max(0.0, box[3] - _PLOT_H)) * 10 * _CHAR_W
            cost = outside + sum(overlap(box, q) for q in placed) + sum(
                overlap(box, m) for j, m in enumerate(marks) if j != i)
            if cost < best_cost:
                best, best_cost = side, cost
            if cost == 0:
                break
        out.append(best)
        placed.append(_label_box(u[i], v[i], len(str(name)), best))
    return out


def frontier_range(spec: str, device, plan_row: dict | None = None, horizon_years: float | None = None):
    """``(low, high)`` of a frontier axis [the spec's unit]: a performance spec's physical range
    (:func:`models.planner.targets.spec_range`); the price's and the endurance's: the catalogue's smallest to largest
    value (:func:`models.planner.targets.spec_value`), widened to the device's own and to the row's break-even
    (:func:`models.planner.targets.economic_break_even`, x/÷ 2 so the boundary is inside the chart)."""
    from models.devices import load_catalogue
    from models.planner.targets import (
        PERFORMANCE_SPECS,
        economic_break_even,
        spec_range,
        spec_value,
    )

    if spec in PERFORMANCE_SPECS:
        return spec_range(spec, device)[:2]
    vals = [v for v in (spec_value(d, spec) for d in [*load_catalogue().values(), device]) if v is not None and v > 0]
    if plan_row is not None:
        from models.provenance import param

        h = float(param("planner.horizon_years").value) if horizon_years is None else float(horizon_years)
        x = economic_break_even(plan_row, device, spec, horizon_years=h)[0]
        if math.isfinite(x) and x > 0:
            vals += [x / 2, x * 2]
    if not vals:
        raise ValueError(f"no device states {spec}")
    return min(vals), max(vals)


def _axis(rt, spec: str, plan_row: dict | None, horizon_years: float | None, target: float, band: bool):
    """``(low, high)`` of a frontier axis: :func:`frontier_range`, a price or endurance axis widened to ½–2× the
    ends of its break-even's band (:func:`models.planner.target_bands.target_band`) when ``band``, so the band's
    boundaries show."""
    lo, hi = frontier_range(spec, rt.device, plan_row, horizon_years)
    from models.planner.targets import PERFORMANCE_SPECS

    if not band or spec in PERFORMANCE_SPECS or plan_row is None:
        return lo, hi
    from models.planner.target_bands import target_band
    from models.planner.targets import economic_break_even
    from models.provenance import param

    h = float(param("planner.horizon_years").value) if horizon_years is None else float(horizon_years)
    x = economic_break_even(plan_row, rt.device, spec, horizon_years=h)[0]
    b = target_band(rt, spec, x, target=target, plan_row=plan_row, horizon_years=h)
    ends = [v for v in (b["break_even_low"], b["break_even_high"]) if math.isfinite(v) and v > 0]
    return min([lo] + [e / 2 for e in ends]), max([hi] + [e * 2 for e in ends])


def frontier_rows(rt, spec_x: str, spec_y: str, *, target: float = 1.0, points: int = FRONTIER_POINTS,
                  plan_row: dict | None = None, horizon_years: float | None = None, band: bool = False):
    """The frontier grid of row ``rt`` (:class:`~models.planner.retime.Retimer`) over :func:`frontier_range` of
    each spec, ``points`` log-spaced values per axis (``plan_row``, ``horizon_years``: for a price or endurance
    axis, :func:`models.planner.targets.frontier_grid`; ``band``: a price or endurance axis also spans its
    break-even's band)."""
    from models.planner.targets import frontier_grid

    xs = np.geomspace(*_axis(rt, spec_x, plan_row, horizon_years, target, band), points)
    ys = np.geomspace(*_axis(rt, spec_y, plan_row, horizon_years, target, band), points)
    return frontier_grid(rt, spec_x, spec_y, xs, ys, target=target, plan_row=plan_row, horizon_years=horizon_years)


def _criteria_words(spec_x: str, spec_y: str, target: float, horizon_years: float | None) -> str:
    """What green means on a frontier over two specs, in words."""
    from models.planner.targets import PERFORMANCE_SPECS
    from models.provenance import param

    h = float(param("planner.horizon_years").value) if horizon_years is None else float(horizon_years)
    out = []
    if spec_x in PERFORMANCE_SPECS or spec_y in PERFORMANCE_SPECS:
        out.append("breaks even" if target == 1 else f"reaches {target:g}×")
    if "price_usd_per_GB" in (spec_x, spec_y):
        out.append("costs no more per unit of work than the baseline")
    if "endurance_writes_per_cell" in (spec_x, spec_y):
        out.append(f"lasts the {h:g}-year horizon")
    return "it " + " and ".join(out)


def _band_traces(fig, band, xs, ys, spec_x: str, spec_y: str) -> None:
    """The boundaries of the frontier at the two corners of the held inputs' provenance ranges
    (:func:`models.planner.target_bands.frontier_band`) as dashed / dotted contour lines, named in the legend."""
    import plotly.graph_objects as go

    fav, unfav, _ = band
    for g, dash, side in ((fav, "dash", "favour"), (unfav, "dot", "do not favour")):
        w = g.pivot(index=spec_y, columns=spec_x, values="wins").reindex(index=ys, columns=xs)
        z = w.to_numpy(dtype=float, na_value=np.nan)
        seen = z[np.isfinite(z)]
        off = (" (won everywhere in the chart)" if len(seen) and seen.min() == 1 else
               " (won nowhere in the chart)" if len(seen) and seen.max() == 0 else "")
        fig.add_trace(go.Contour(
            x=xs, y=ys, z=z, showscale=False, hoverinfo="skip", showlegend=True,
            name=f"boundary, held inputs at the range ends that {side} the device{off}",
            contours=dict(start=0.5, end=0.5, size=1, coloring="lines"), colorscale=[[0, "#333"], [1, "#333"]],
            line=dict(dash=dash, width=2)))


def frontier_figure(rt, spec_x: str, spec_y: str, *, target: float = 1.0, points: int = FRONTIER_POINTS,
                    grid: pd.DataFrame | None = None, plan_row: dict | None = None,
                    horizon_years: float | None = None, band: bool = True):
    """Region chart (plotly) of where row ``rt`` is won over two specs, the others held at its device's values.

    Green cells: every axis's criterion holds (:func:`models.planner.targets.frontier_grid`: a performance spec's
    value reaches ``target`` [x], the price's cost per unit of work is at most the baseline's, the endurance's
    capacity lasts the horizon); red: one does not. A criterion that cannot be evaluated (no price, a baseline
    without a device to price, an unknown lifetime) draws no region: the chart says why. The catalogue devices are
    marked at their own two values where they state both (their other specs differ: a marker places a device, it
    is not that device's verdict; the legend counts those left out); the row's device is the star. Both axes log,
    decades labelled, titled with their units. Device names are raw data strings (the app's ``show()`` and the
    report escape them once).

    ``band``: also draw the boundary with the held inputs (the device's other specs, the baseline's, the economics
    inputs) at the two corners of their provenance ranges (:func:`models.planner.target_bands.frontier_band`),
    dashed (the ends favouring the device) and dotted (the others): between them, the answer depends on where those
    inputs really lie. The chart says when no held input has a range.
    """
    import plotly.graph_objects as go

    from models.devices import load_catalogue
    from models.planner.targets import SPECS, spec_value
    from reporting.planner_report import LOSE_COLOUR, WIN_COLOUR

    g = grid if grid is not None else frontier_rows(rt, spec_x, spec_y, target=target, points=points,
                                                    plan_row=plan_row, horizon_years=horizon_years, band=band)
    unknown = g.attrs.get("unknown", "")
    xs, ys = np.unique(g[spec_x].to_numpy(float)), np.unique(g[spec_y].to_numpy(float))

    def table(col):
        return g.pivot(index=spec_y, columns=spec_x, values=col).reindex(index=ys, columns=xs).to_numpy(float)

    (ux, _, wx), (uy, _, wy) = SPECS[spec_x], SPECS[spec_y]
    extra = [("value", "value %{customdata[0]:.3g}×")]
    if "cost_per_work_vs_baseline" in g:
        extra.append(("cost_per_work_vs_baseline", "cost per unit of work %{customdata[1]:.3g}× the baseline's"))
    if "lifetime_years" in g:
        extra.append(("lifetime_years", f"lifetime %{{customdata[{len(extra)}]:.3g}} years"))
    fig = go.Figure()
    band_note = ""
    if not unknown and band:
        from models.planner.target_bands import frontier_band

        fb = frontier_band(rt, spec_x, spec_y, xs, ys, target=target, plan_row=plan_row, horizon_years=horizon_years)
        band_note = "" if fb is not None else "no band: no held input has a provenance range"
    if not unknown:
        custom = np.stack([table(c) for c, _ in extra], axis=-1)
        fig.add_trace(go.Heatmap(
            x=xs, y=ys, z=table("wins"), zmin=0, zmax=1, showscale=False, customdata=custom,
            colorscale=[[0, LOSE_COLOUR], [0.5, LOSE_COLOUR], [0.5, WIN_COLOUR], [1, WIN_COLOUR]], opacity=0.55,
            hovertemplate=f"{wx} %{{x:.3g}} {ux}<br>{wy} %{{y:.3g}} {uy}<br>" + "<br>".join(t for _, t in extra)
            + "<extra></extra>"))
        if band and fb is not None:
            _band_traces(fig, fb, xs, ys, spec_x, spec_y)
    else:
        import textwrap

        note = "<br>".join(textwrap.wrap("No region drawn: " + unknown, 64))
        fig.add_annotation(text=note, xref="paper", yref="paper", x=0.5, y=0.5, showarrow=False, align="left",
                           bgcolor="#fff", bordercolor="#999", font=dict(color="#222"))

    def val(d, s):
        return spec_value(d, s)

    others = [d for d in load_catalogue().values() if d.name != rt.device.name]
    cat = [d for d in others if val(d, spec_x) is not None and val(d, spec_y) is not None]
    left_out = len(others) - len(cat)
    missing = " or ".join(SPECS[s][2] for s in (spec_x, spec_y) if any(val(d, s) is None for d in others))
    star = val(rt.device, spec_x) is not None and val(rt.device, spec_y) is not None
    xr = (math.log10(xs.min()) - 0.1, math.log10(xs.max()) + 0.1)
    yr = (math.log10(ys.min()) - 0.1, math.log10(ys.max()) + 0.1)
    pts = ([rt.device] if star else []) + cat  # the row's device first: its name gets the first free side
    sides = label_sides([math.log10(val(d, spec_x)) for d in pts],
                        [math.log10(val(d, spec_y)) for d in pts], [d.name for d in pts], xr, yr)
    name = "catalogue devices" + (f" ({left_out} without a stated {missing} left out)" if left_out else "")
    fig.add_trace(go.Scatter(
        x=[val(d, spec_x) for d in cat], y=[val(d, spec_y) for d in cat],
        mode="markers+text", text=[d.name for d in cat], textposition=sides[int(star):], name=name,
        textfont=dict(color="#222"), cliponaxis=False,
        marker=dict(color="#222", size=7, symbol="circle-open"), hovertemplate="%{text}<extra></extra>"))
    if star:
        fig.add_trace(go.Scatter(
            x=[val(rt.device, spec_x)], y=[val(rt.device, spec_y)], mode="markers+text",
            text=[rt.device.name], textposition=sides[0], name=f"{rt.device.name} (this row)",
            textfont=dict(color="#222"), cliponaxis=False,
            marker=dict(color="#222", size=14, symbol="star"), hovertemplate="%{text}<extra></extra>"))
    tx, lx = _decade_ticks(xs.min(), xs.max())
    ty, ly = _decade_ticks(ys.min(), ys.max())
    fig.update_xaxes(type="log", title_text=f"{wx} [{ux}]", tickvals=tx, ticktext=lx, range=list(xr))
    fig.update_yaxes(type="log", title_text=f"{wy} [{uy}]", tickvals=ty, ticktext=ly, range=list(yr))
    crit = _criteria_words(spec_x, spec_y, target, horizon_years)
    head = f"{rt.role} · {rt.workload} · {rt.device.name}: "
    title = head + (f"region unknown<br>(green would be where {crit})" if unknown
                    else f"<br>green where {crit}, red where not" + (f" ({band_note})" if band_note else ""))
    fig.update_layout(template="plotly_white", height=540, legend=dict(title_text="markers and band"),
                      title=dict(text=title, font=dict(size=14)), margin=dict(l=10, r=10, t=80, b=10))
    return fig


def plan_row_frontier(res, workload: str, role: str, device: str, spec_x: str, spec_y: str, *, target: float = 1.0,
                      n_requests: int | None = None, memory_refs: int | None = None):
    """:func:`frontier_figure` of one row of plan ``res`` (:class:`~models.planner.plan.PlanResult`), its
    workload's counts simulated once (:func:`models.planner.retime.role_retimers`); a price or endurance axis reads
    the row's economics columns and the plan's horizon.

    Raises
    ------
    ValueError
        The row is not one the targets can re-time (not applicable, needs data, the baseline itself).
    """
    from models.planner.retime import role_retimers
    from models.planner.targets import PERFORMANCE_SPECS

    w = next((x for x in res.workloads if x.name == workload), None)
    if w is None:
        raise ValueError(f"frontier: no workload named {workload!r} in the plan")
    rts = role_retimers(w, list(res.devices), res.baseline_device, n_requests=n_requests, memory_refs=memory_refs)
    rt = next((r for r in rts if r.role == role and r.device.name == device), None)
    if rt is None:
        raise ValueError(f"frontier: {workload} · {role} · {device} has no value to re-time (not applicable, needs "
                         "data or the device is the role's baseline)")
    if rt.why_not and (spec_x in PERFORMANCE_SPECS or spec_y in PERFORMANCE_SPECS):
        raise ValueError(f"frontier: {workload} · {role} · {device} is not modelled by these specs: {rt.why_not}")
    row = next((r for r in res.rows if (r["workload"], r["role"], r["device"]) == (workload, role, device)), None)
    h = getattr(res, "horizon_years", math.nan)
    return frontier_figure(rt, spec_x, spec_y, target=target, plan_row=row,
                           horizon_years=h if math.isfinite(h) else None)


def _pick_row(res, spec_x: str, spec_y: str):
    """``(retimer, plan row)`` of the first row that can draw the pair: its role's model reads each performance spec
    of the pair (and is not a 'not modelled' one), and the criterion of each price or endurance axis can be
    evaluated on its plan row; ``(None, None)`` when none can."""
    from models.planner.targets import PERFORMANCE_SPECS, _criteria_unknown

    rows = tuple(getattr(res, "plan_rows", ()) or ())
    for i, rt in enumerate(res.retimers):
        row = rows[i] if i < len(rows) else None
        perf = [s for s in (spec_x, spec_y) if s in PERFORMANCE_SPECS]
        econ = [s for s in (spec_x, spec_y) if s not in PERFORMANCE_SPECS]
        if any(s not in rt.uses for s in perf) or (perf and rt.why_not):
            continue
        if econ and (row is None or any(_criteria_unknown(rt, row, s) for s in econ)):
            continue
        return rt, row
    return None, None


def check_frontier_pair(spec_x: str, spec_y: str, *, option: str = "--frontier-x/--frontier-y") -> tuple[str, str]:
    """The frontier's axis pair, checked: two different keys of :data:`models.planner.targets.SPECS` (the error
    names ``option``).

    >>> check_frontier_pair("price_usd_per_GB", "write_latency_ns")
    ('price_usd_per_GB', 'write_latency_ns')
    >>> check_frontier_pair("read_latency_ns", "read_latency_ns")
    Traceback (most recent call last):
    ...
    ValueError: --frontier-x/--frontier-y: the frontier's two specs must differ (both read_latency_ns)
    """
    from models.planner.targets import SPECS

    for s in (spec_x, spec_y):
        if s not in SPECS:
            raise ValueError(f"{option}: unknown spec {s!r}; give two of {', '.join(SPECS)}")
    if spec_x == spec_y:
        raise ValueError(f"{option}: the frontier's two specs must differ (both {spec_x})")
    return spec_x, spec_y


def targets_section_html(res, *, first: bool, frontier=DEFAULT_FRONTIER) -> str:
    """The "Product targets" section of the HTML report: what the spec targets are, the frontier chart of one row
    over the ``frontier`` pair ``(x spec, y spec)`` (the first row that can draw it: :func:`_pick_row`) and the
    table of every target with its uncertainty band. ``first``: plotly.js is not yet in the page (inline it with
    this chart)."""
    from models.planner.targets import SPECS
    from reporting.planner_report import _fig_html, _table

    goal = "breaks even with its baseline" if res.target == 1 else f"reaches {res.target:g}× its baseline"
    parts = ["<h2 id='targets'>Product targets</h2>",
             f"<p>For each workload × role × device, the value of each device spec at which the role {goal}, the "
             "other specs held at the device's own values (found by root finding on the role's models, the counts "
             "simulated once; <code>pcm-planner targets</code>). “At any …” and “never, even at …” mean no "
             "break-even in the catalogue's range of that spec.</p>"]
    spec_x, spec_y = check_frontier_pair(*frontier)
    rt, row = _pick_row(res, spec_x, spec_y)
    h = getattr(res, "horizon_years", math.nan)
    if rt is not None:
        parts.append(f"<p>Frontier over {SPECS[spec_x][2]} × {SPECS[spec_y][2]}: the dashed and dotted lines are the "
                     "boundary with the device's other specs, the baseline's and the economics inputs at the ends of "
                     "their provenance ranges that favour the device and that do not.</p>")
        parts.append(_fig_html(frontier_figure(rt, spec_x, spec_y, target=res.target, plan_row=row,
                                               horizon_years=h if math.isfinite(h) else None), first))
    else:
        parts.append(f"<p>No frontier over {SPECS[spec_x][2]} × {SPECS[spec_y][2]}: no row's model reads both, or the "
                     "price / lifetime criterion cannot be evaluated on any row (no price, no baseline cost, unknown "
                     "lifetime).</p>")
    parts.append(_table(targets_table(res), {"reason": lambda v: "reason"}))
    return "\n".join(parts)



def targets_section(res, frontier=DEFAULT_FRONTIER):
    """The report's "Product targets" section of ``res`` as :func:`reporting.planner_report.plan_report_html` takes
    it (``extra_sections=[targets_section(res)]``); ``frontier``: the chart's ``(x spec, y spec)``."""
    frontier = check_frontier_pair(*frontier)
    return lambda first: targets_section_html(res, first=first, frontier=frontier)
