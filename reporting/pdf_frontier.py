"""The frontier chart of the PDF report, drawn with ReportLab (the HTML report's is a plotly figure).

:func:`frontier_drawing` draws the same frontier grid as
:func:`reporting.planner_targets_report.frontier_figure`: where one plan row is won over two device specs, the
others held at its device's values -- green cells where every axis's criterion holds, red where one does not --
with the boundary at the two corners of the held inputs' provenance ranges (dashed: the ends that favour the
device, dotted: the others), the catalogue devices marked at their own two values (open circles) and the row's
device as a star. Both axes log with labelled decades and titled with their units.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["frontier_drawing", "decade_text", "tint"]

#: Plot area of the drawing [pt] and its margins (left for the y title and ticks, bottom for the x ones).
_PLOT_H, _LEFT, _BOTTOM, _TOP, _RIGHT = 250.0, 62.0, 40.0, 34.0, 12.0


def decade_text(k: int) -> str:
    """A decade tick in characters the PDF's Helvetica has (no superscripts): ``0.001``, ``1``, ``10,000``; beyond
    10^±6 ``1e+07``.

    >>> decade_text(-3), decade_text(4), decade_text(7)
    ('0.001', '10,000', '1e+07')
    """
    if abs(k) > 6:
        return f"{10.0 ** k:.0e}"
    return f"{10.0 ** k:,.{max(-k, 0)}f}"


def tint(hex_colour: str, white: float = 0.85):
    """``hex_colour`` mixed with ``white`` share of white: a light fill of the same hue (a ReportLab Color)."""
    from reportlab.lib import colors

    c = colors.HexColor(hex_colour)
    return colors.Color(*(x + (1 - x) * white for x in (c.red, c.green, c.blue)))


def _edges(v: np.ndarray) -> np.ndarray:
    """Cell edges of log-spaced centres ``v`` [log10]: midpoints, the ends half a step out."""
    mid = (v[1:] + v[:-1]) / 2
    step0, step1 = (v[1] - v[0], v[-1] - v[-2]) if len(v) > 1 else (0.1, 0.1)
    return np.concatenate([[v[0] - step0 / 2], mid, [v[-1] + step1 / 2]])


def _boundary_segments(wins: np.ndarray, ex: np.ndarray, ey: np.ndarray) -> list[tuple[float, float, float, float]]:
    """The cell edges [log10 units] between a won and a lost cell of grid ``wins`` (rows y, columns x; NaN: none)."""
    seg = []
    ny, nx = wins.shape
    for i in range(ny):
        for j in range(nx):
            a = wins[i, j]
            if j + 1 < nx and np.isfinite(a) and np.isfinite(wins[i, j + 1]) and a != wins[i, j + 1]:
                seg.append((ex[j + 1], ey[i], ex[j + 1], ey[i + 1]))
            if i + 1 < ny and np.isfinite(a) and np.isfinite(wins[i + 1, j]) and a != wins[i + 1, j]:
                seg.append((ex[j], ey[i + 1], ex[j + 1], ey[i + 1]))
    return seg


#: A marker name's anchor per plotly text side: (dx, dy) [pt] from the marker, text anchor.
_SIDE = {"top": 5.0, "bottom": -10.0, "middle": -2.5, "center": (0.0, "middle"), "right": (6.0, "start"),
         "left": (-6.0, "end")}


def _name(text: str, x: float, y: float, side: str, size: float, bold: bool):
    """A marker's name at ``side`` (a plotly textposition from
    :func:`reporting.planner_targets_report.label_sides`) of the marker at (x, y) [pt]."""
    from reportlab.graphics.shapes import String

    vert, horiz = side.split()
    dx, anchor = _SIDE[horiz]
    return String(x + dx, y + _SIDE[vert], text, fontSize=size, textAnchor=anchor,
                  fontName="Helvetica-Bold" if bold else "Helvetica")


def _wins_table(g, spec_x: str, spec_y: str, xs, ys) -> np.ndarray:
    return g.pivot(index=spec_y, columns=spec_x, values="wins").reindex(index=ys, columns=xs).to_numpy(
        dtype=float, na_value=np.nan)


def frontier_drawing(rt, spec_x: str, spec_y: str, grid, *, band=None, width: float = 480.0, title: str = ""):
    """A ReportLab Drawing of the frontier ``grid`` of row ``rt`` (:func:`~reporting.planner_targets_report.
    frontier_rows`: columns ``spec_x, spec_y, wins``; ``attrs["unknown"]``: why no region can be drawn) over
    ``spec_x`` x ``spec_y``; ``band``: :func:`models.planner.target_bands.frontier_band`'s ``(favourable grid,
    unfavourable grid, words)`` or None. ``title``: the line above the plot."""
    from reportlab.graphics.shapes import Drawing, Line, Rect, String
    from reportlab.graphics.widgets.markers import makeMarker
    from reportlab.lib import colors

    from models.devices import load_catalogue
    from models.planner.targets import SPECS, spec_value
    from reporting.planner_report import LOSE_COLOUR, WIN_COLOUR

    xs, ys = np.unique(grid[spec_x].to_numpy(float)), np.unique(grid[spec_y].to_numpy(float))
    lx, ly = np.log10(xs), np.log10(ys)
    ex, ey = _edges(lx), _edges(ly)
    plot_w = width - _LEFT - _RIGHT
    height = _PLOT_H + _BOTTOM + _TOP

    def px(u: float) -> float:
        return _LEFT + (u - ex[0]) / (ex[-1] - ex[0]) * plot_w

    def py(v: float) -> float:
        return _BOTTOM + (v - ey[0]) / (ey[-1] - ey[0]) * _PLOT_H

    d = Drawing(width, height)
    unknown = grid.attrs.get("unknown", "")
    if not unknown:
        wins = _wins_table(grid, spec_x, spec_y, xs, ys)
        fill = {1.0: tint(WIN_COLOUR, 0.45), 0.0: tint(LOSE_COLOUR, 0.45)}
        for i in range(len(ys)):
            for j in range(len(xs)):
                w = wins[i, j]
                if np.isfinite(w):
                    d.add(Rect(px(ex[j]), py(ey[i]), px(ex[j + 1]) - px(ex[j]), py(ey[i + 1]) - py(ey[i]),
                               fillColor=fill[float(w > 0.5)], strokeColor=None))
        if band is not None:
            for g, dash in ((band[0], [4, 2]), (band[1], [1, 2])):
                for x0, y0, x1, y1 in _boundary_segments(_wins_table(g, spec_x, spec_y, xs, ys), ex, ey):
                    d.add(Line(px(x0), py(y0), px(x1), py(y1), strokeColor=colors.black, strokeWidth=1.0,
                               strokeDashArray=dash))
    else:
        import textwrap

        for k, line in enumerate(textwrap.wrap("No region drawn: " + unknown, 80)[:6]):
            d.add(String(_LEFT + plot_w / 2, _BOTTOM + _PLOT_H * 0.7 - 10 * k, line, fontSize=7, textAnchor="middle"))
    d.add(Rect(_LEFT, _BOTTOM, plot_w, _PLOT_H, fillColor=None, strokeColor=colors.black, strokeWidth=0.6))
    for k in range(math.ceil(ex[0] - 1e-9), math.floor(ex[-1] + 1e-9) + 1):
        d.add(Line(px(k), _BOTTOM - 3, px(k), _BOTTOM, strokeColor=colors.black, strokeWidth=0.6))
        d.add(String(px(k), _BOTTOM - 12, decade_text(k), fontSize=7, textAnchor="middle"))
    for k in range(math.ceil(ey[0] - 1e-9), math.floor(ey[-1] + 1e-9) + 1):
        d.add(Line(_LEFT - 3, py(k), _LEFT, py(k), strokeColor=colors.black, strokeWidth=0.6))
        d.add(String(_LEFT - 5, py(k) - 2.5, decade_text(k), fontSize=7, textAnchor="end"))
    (ux, _, wx), (uy, _, wy) = SPECS[spec_x], SPECS[spec_y]
    d.add(String(_LEFT + plot_w / 2, 8, f"{wx} [{ux}] (log)", fontSize=8, textAnchor="middle"))
    ytitle = String(0, 0, f"{wy} [{uy}] (log)", fontSize=8, textAnchor="middle")
    from reportlab.graphics.shapes import Group

    g = Group(ytitle)
    g.translate(12, _BOTTOM + _PLOT_H / 2)
    g.rotate(90)
    d.add(g)
    if title:
        d.add(String(_LEFT, height - 14, title[:110], fontSize=8.5, fontName="Helvetica-Bold"))

    def inside(dev) -> tuple[float, float] | None:
        a, b = spec_value(dev, spec_x), spec_value(dev, spec_y)
        if a is None or b is None or a <= 0 or b <= 0:
            return None
        u, v = math.log10(a), math.log10(b)
        return (u, v) if ex[0] <= u <= ex[-1] and ey[0] <= v <= ey[-1] else None

    from reporting.planner_targets_report import label_sides

    marked = [(dev, at) for dev in [rt.device, *(x for x in load_catalogue().values() if x.name != rt.device.name)]
              if (at := inside(dev)) is not None]
    sides = label_sides([a[0] for _, a in marked], [a[1] for _, a in marked], [dev.name for dev, _ in marked],
                        (ex[0], ex[-1]), (ey[0], ey[-1]))
    for (dev, (u, v)), side in zip(marked, sides):
        mine = dev.name == rt.device.name
        if mine:
            d.add(makeMarker("StarFive", x=px(u), y=py(v), size=11, fillColor=colors.black))
        else:
            d.add(makeMarker("Circle", x=px(u), y=py(v), size=5, fillColor=None, strokeColor=colors.black,
                             strokeWidth=0.7))
        d.add(_name(dev.name + (" (this row)" if mine else ""), px(u), py(v), side, 7 if mine else 6, mine))
    return d
