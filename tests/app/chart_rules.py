"""Rules every Plotly figure of the app obeys (issue 18), checked on the figure JSON a page sends.

:func:`check_figure` returns a list of problems (empty: the figure reads right). The rules:

1. **Axis titles with units.** Every axis a trace uses has a title; it is never a bare column
   word ("value", "variable", "index"); a *numeric* axis names its unit in brackets (``[ms]``,
   ``[-]`` for a plain number) or parentheses (``(×)``, ``(%)``). Category axes (bar labels, page
   sizes on a heatmap) need a title but no unit.
2. **Log axes label their decades.** A log axis sets explicit ``tickvals`` (at least two inside the data),
   or ``dtick`` to a whole number of decades written as powers of ten, so no label reads "2 5 0.1" and no
   axis reads Plotly's "1000" beside "10,000".
3. **Reference lines and labels inside the data.** Shapes and annotations placed in data
   coordinates lie inside the axis's explicit range, or (autorange) inside the extent of the
   plotted data widened by half of it -- a line far outside squashes the curves (the autorange
   follows it), and an annotation on a log axis given in data units instead of log10 units floats
   decades away (Plotly reads annotation positions on log axes as exponents).
4. **Finite, sane ranges.** Explicit ranges are finite; the data on a log axis spans at most
   ``MAX_DECADES`` decades and is positive.
5. **Twin axes differ.** An axis drawn over another (``overlaying``, a right-hand y axis) never carries
   the title of the axis it overlays (a helper titling every y axis put "TLB hit rate" on the time axis).
6. **Legend titles read as words.** A legend title is never a bare column word ("color", "variable")
   nor a raw ``snake_case`` column name (Plotly Express titles the legend with the column's name).
7. **Category labels read level.** Categories on an x axis must fit their slots: when the number of
   categories times the longest label exceeds ``MAX_X_CATEGORY_CHARS``, Plotly turns the labels 30-90°,
   they take up to half the chart's height and a reference label at the axis's start sits on the ticks
   (lifetime Figure 2: 16 workloads of up to 45 characters). Such categories go on the y axis
   (horizontal bars, :func:`app.components.charts.bar_chart_height`).
8. **Values from zero.** A linear y axis of non-negative values starts at 0 (``rangemode="tozero"`` or an
   explicit range from <= 0): an autorange hugging 1.15-1.5 s reads as a threefold gain where there is 30 %.
   A view that zooms on purpose says so in the axis title (:data:`app.components.charts.NOT_FROM_ZERO`).
   Heatmap row axes and category, date and log axes are exempt.
9. **Several bands, each in its curve's colour.** A chart with two or more p5-p95 bands draws each in the
   colour of the curve it belongs to (``add_band(of=...)``): grey bands over each other cannot be told apart
   (file-cache simulation Figure 5: three grey hatchings over 0.8-1.65 s).
"""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Iterable

import numpy as np

from app.components.charts import ROW_AXIS_TYPES, THEME_PLACEHOLDER

#: Largest sane span of a log axis's data [decades].
MAX_DECADES = 30
#: Categories x longest label [characters] an x axis holds level: a full-width chart's plot (~1,250 px
#: at the 1,400 px window of the browser tests) over ~6.5 px per character of the 12 px axis font, with
#: room between labels; the validation page's seed names (5 x 26) read level, write reduction's schemes
#: (9 x 31) were turned.
MAX_X_CATEGORY_CHARS = 160
#: Words an axis is never titled with alone (raw column / melt names).
BARE_TITLES = {"value", "variable", "index", "x", "y", "count", ""}
#: A raw column name used as a legend title: ``files_scale``, ``color``.
_RAW_LEGEND = re.compile(r"^(?:color|variable|value|index|[a-z0-9]+(?:_[a-z0-9]+)+)$")
_UNIT = re.compile(r"\[[^\]]+\]|\((?:×|x|%|-|[^)]*\b(?:s|ms|us|µs|ns|B|KiB|MiB|GiB|MB|GB|bytes|years)\b)[^)]*\)")
_DTYPES = {"f8": "<f8", "f4": "<f4", "i1": "<i1", "i2": "<i2", "i4": "<i4", "u1": "<u1", "u2": "<u2",
           "u4": "<u4", "i8": "<i8", "u8": "<u8"}


def values(v) -> list:
    """Plain list of a trace array: a list, or Plotly's base64 typed array ``{"dtype", "bdata"}``."""
    if v is None:
        return []
    if isinstance(v, dict) and "bdata" in v:
        arr = np.frombuffer(base64.b64decode(v["bdata"]), dtype=_DTYPES[v["dtype"]])
        return arr.ravel().tolist()
    if isinstance(v, (list, tuple)):
        out = []
        for x in v:
            out.extend(values(x) if isinstance(x, (list, tuple, dict)) else [x])
        return out
    return [v]


def _axis_name(ref: str) -> str:
    """Layout key of a trace / shape axis reference: ``x`` -> ``xaxis``, ``y2`` -> ``yaxis2``."""
    ref = ref.split(" ")[0]
    return f"{ref[0]}axis{ref[1:]}"


def _title(ax: dict) -> str:
    t = ax.get("title")
    if isinstance(t, dict):
        t = t.get("text")
    return (t or "").strip()


def _numeric(vals: Iterable) -> list[float]:
    out = []
    for x in vals:
        if isinstance(x, bool) or x is None:
            continue
        if isinstance(x, (int, float)):
            out.append(float(x))
    return out


def axes_data(fig: dict) -> dict[str, dict]:
    """Per used axis (layout key): ``{"numeric": [...], "categorical": bool}`` of the traces on it."""
    used: dict[str, dict] = {}
    for tr in fig.get("data", []):
        if tr.get("type") in ("pie", "table", "indicator", "sankey"):
            continue
        horizontal = tr.get("orientation") == "h"
        for letter in ("x", "y"):
            name = _axis_name(tr.get(f"{letter}axis", letter))
            vals = values(tr.get(letter))
            if tr.get("type") == "histogram" and not vals:
                continue  # the count axis of a histogram
            if not vals and tr.get("type") in ("bar", "box", "violin"):
                vals = []
            rec = used.setdefault(name, {"numeric": [], "categorical": False})
            nums = _numeric(vals)
            if len(nums) < len([v for v in vals if v is not None]):
                rec["categorical"] = True
            rec["numeric"].extend(nums)
            if tr.get("type") == "bar" and letter == ("x" if horizontal else "y"):
                rec["numeric"].append(0.0)  # bars start at 0 on a linear axis
    return used


def x_categories(fig: dict) -> dict[str, list[str]]:
    """Per x axis (layout key) the distinct text categories its traces place along it."""
    out: dict[str, list[str]] = {}
    for tr in fig.get("data", []):
        if tr.get("type") in ("pie", "table", "indicator", "sankey"):
            continue
        cats = [v for v in values(tr.get("x")) if isinstance(v, str)]
        if cats:
            seen = out.setdefault(_axis_name(tr.get("xaxis", "x")), [])
            seen.extend(c for c in dict.fromkeys(cats) if c not in seen)
    return out


def _is_log(ax: dict) -> bool:
    return ax.get("type") == "log"


def _extent(ax: dict, nums: list[float]) -> tuple[float, float] | None:
    """(lo, hi) in the axis's own coordinates (log10 on log axes) of its range or data."""
    rng = ax.get("range")
    if rng and ax.get("autorange") in (None, False) and all(r is not None for r in rng):
        return float(min(rng)), float(max(rng))
    xs = [x for x in nums if math.isfinite(x)]
    if _is_log(ax):
        xs = [math.log10(x) for x in xs if x > 0]
    if not xs:
        return None
    return min(xs), max(xs)


def check_figure(fig: dict, name: str = "figure") -> list[str]:
    """Problems of one figure (Plotly JSON dict); empty when it obeys every rule."""
    layout = fig.get("layout", {})
    problems: list[str] = []
    used = axes_data(fig)
    extents: dict[str, tuple[float, float] | None] = {}
    for key, rec in used.items():
        ax = layout.get(key, {}) or {}
        # shared axes: a subplot's x axis may carry its title on the bottom axis it matches
        title = _title(ax)
        if not title and ax.get("matches"):
            title = _title(layout.get(_axis_name(ax["matches"]), {}) or {})
        where = f"{name}: {key}"
        if not title and ax.get("visible", True) is not False:
            problems.append(f"{where} has no title")
        elif title.lower() in BARE_TITLES:
            problems.append(f"{where} is titled {title!r}")
        elif not rec["categorical"] and ax.get("type") != "category" and not _UNIT.search(title) and title:
            problems.append(f"{where} title {title!r} names no unit ([unit], [-] or (×))")
        nums = rec["numeric"]
        if _is_log(ax):
            dtick = ax.get("dtick")
            tickvals = values(ax.get("tickvals"))
            decades = isinstance(dtick, (int, float)) and not isinstance(dtick, bool) and dtick >= 1 \
                and float(dtick).is_integer()
            pos = [x for x in nums if x > 0 and math.isfinite(x)]
            if not decades and len(tickvals) < 2:
                problems.append(f"{where} is a log axis without labelled decades (dtick={dtick!r}, no tickvals)")
            elif decades and len(tickvals) < 2 and ax.get("exponentformat") != "power":
                problems.append(f"{where} labels its decades in Plotly's own format (\"1000\" beside \"10,000\"): "
                                "use the app's labels (log_axis) or powers of ten")
            elif not decades and pos and max(pos) > 1.1 * min(pos):
                lo, hi = (10 ** e for e in _extent(ax, nums))  # the explicit range, else the data
                shown = [t for t in _numeric(tickvals) if lo / 1.0001 <= t <= hi * 1.0001]
                if len(shown) < 2:
                    problems.append(f"{where} labels fewer than two ticks inside its data")
            if pos and math.log10(max(pos)) - math.log10(min(pos)) > MAX_DECADES:
                problems.append(f"{where} data spans more than {MAX_DECADES} decades")
        rng = ax.get("range")
        if rng and any(r is None or not math.isfinite(float(r)) for r in rng):
            problems.append(f"{where} range {rng} is not finite")
        extents[key] = _extent(ax, nums)

    def inside(ref: str, v, *, exponent: bool) -> str | None:
        """Why position ``v`` on axis ``ref`` lies outside its data, or None."""
        key = _axis_name(ref)
        if " domain" in ref or ref == "paper" or key not in extents or extents[key] is None:
            return None
        ax = layout.get(key, {}) or {}
        if isinstance(v, str) or v is None:
            return None  # category position
        v = float(v)
        if not math.isfinite(v):
            return f"position {v} is not finite"
        if _is_log(ax) and not exponent:
            if v <= 0:
                return f"position {v:g} on a log axis"
            v = math.log10(v)
        lo, hi = extents[key]
        pad = max(0.5 * (hi - lo), 0.5 if _is_log(ax) else abs(hi) * 0.05 + 1e-12)
        if not (lo - pad <= v <= hi + pad):
            shown = f"10^{v:.3g}" if _is_log(ax) else f"{v:.4g}"
            return f"position {shown} outside the data {lo:.4g}..{hi:.4g}" + (" (log10)" if _is_log(ax) else "")
        return None

    for key, ax in layout.items():  # a second axis over another (twin y) titled like it: one of them is wrong
        if isinstance(ax, dict) and ax.get("overlaying") and key in used:
            base = layout.get(_axis_name(ax["overlaying"]), {}) or {}
            if _title(ax) and _title(ax) == _title(base):
                problems.append(f"{name}: {key} overlays {_axis_name(ax['overlaying'])} with the same title "
                                f"{_title(ax)!r}")

    for key, cats in x_categories(fig).items():
        longest = max(len(c) for c in cats)
        if len(cats) * longest > MAX_X_CATEGORY_CHARS:
            problems.append(f"{name}: {key} has {len(cats)} categories of up to {longest} characters: the labels "
                            "turn (put them on the y axis: horizontal bars)")

    legend_title = _title(layout.get("legend", {}) or {})
    if legend_title and layout.get("showlegend", True) is not False and _RAW_LEGEND.match(legend_title):
        problems.append(f"{name}: legend titled with a raw column name {legend_title!r}")

    shapes = layout.get("shapes", []) or []
    for a in layout.get("annotations", []) or []:
        for letter in ("x", "y"):
            ref, v = a.get(f"{letter}ref", letter), a.get(letter)
            why = inside(ref, v, exponent=True)
            if why:
                problems.append(f"{name}: annotation {a.get('text', '')!r} {letter} {why}")
            # A label given the line's data value on a log axis sits at 10**value, not on the line.
            ax = layout.get(_axis_name(ref), {}) or {}
            if _is_log(ax) and " domain" not in ref and isinstance(v, (int, float)) and v != 1:
                for s in shapes:
                    if s.get(f"{letter}ref", letter) == ref and s.get(f"{letter}0") == v == s.get(f"{letter}1"):
                        problems.append(f"{name}: annotation {a.get('text', '')!r} labels the line at {v:g} but "
                                        f"sits at 10^{v:g} on the log {letter} axis")
    for i, s in enumerate(layout.get("shapes", []) or []):
        for letter in ("x", "y"):
            ref = s.get(f"{letter}ref", letter)
            for end in ("0", "1"):
                why = inside(ref, s.get(f"{letter}{end}"), exponent=False)
                if why:
                    label = (s.get("label") or {}).get("text", "")
                    problems.append(f"{name}: shape {i} {label!r} {letter}{end} {why}")
                    break
    problems += hidden_lines(fig, name) + same_looking_entries(fig, name) + zero_bars(fig, name)
    problems += zoomed_value_axes(fig, name) + uncoloured_bands(fig, name)
    problems += [f"{name}: {where} uses {c}, a colour Streamlit's chart theme replaces with a theme colour"
                 for where, c in _placeholder_colours({"data": fig.get("data", []),
                                                       "layout": {k: v for k, v in layout.items() if k != "template"}})]
    return problems


def _look(tr: dict) -> tuple | None:
    """How a legend entry looks: type, colour, fill pattern, dash, marker symbol (None without an explicit colour:
    the theme then colours the traces in turn)."""
    marker, line = tr.get("marker") or {}, tr.get("line") or {}
    colour = marker.get("color") if isinstance(marker.get("color"), str) else line.get("color")
    if not isinstance(colour, str):
        return None
    pattern = (marker.get("pattern") or {}).get("shape") or (tr.get("fillpattern") or {}).get("shape") or ""
    fill = str(tr.get("fillcolor") or "").lower() if tr.get("fill") not in (None, "none") else ""
    return (tr.get("type", "scatter"), colour.lower(), pattern, line.get("dash") or "solid", marker.get("symbol") or "",
            fill)


def same_looking_entries(fig: dict, name: str = "figure") -> list[str]:
    """Legend entries the reader cannot tell apart: two series of the same colour, pattern, dash and symbol
    (13 flowops in a 10-colour sequence)."""
    seen: dict[tuple, str] = {}
    out = []
    for tr in fig.get("data", []):
        if tr.get("showlegend") is False or not tr.get("name") or tr.get("visible", True) is not True:
            continue
        look = _look(tr)
        if look is None:
            continue
        if look in seen and seen[look] != tr["name"]:
            out.append(f"{name}: legend entries {seen[look]!r} and {tr['name']!r} look the same {look[1:]}")
        seen.setdefault(look, tr["name"])
    return out


def hidden_lines(fig: dict, name: str = "figure") -> list[str]:
    """Legend entries whose line is drawn exactly under a later one (same axes, same points) without the
    legend saying so (:data:`app.components.charts.SAME_AS`): the reader looks for a line that is not there."""
    from app.components.charts import line_key

    seen: dict[tuple, str] = {}
    out = []
    for tr in fig.get("data", []):
        if (tr.get("type", "scatter") not in ("scatter", "scattergl") or tr.get("visible", True) is not True
                or tr.get("showlegend") is False or tr.get("fill") not in (None, "none") or not tr.get("name")):
            continue
        key = line_key(values(tr.get("x")), values(tr.get("y")), axes=(tr.get("xaxis", "x"), tr.get("yaxis", "y")))
        if key is None:
            continue
        if key in seen and seen[key] != tr["name"] and "(same as " not in tr["name"]:
            out.append(f"{name}: line {tr['name']!r} is drawn over {seen[key]!r} (the same points) and its legend "
                       "entry does not say so")
        seen.setdefault(key, tr["name"])
    return out


def zoomed_value_axes(fig: dict, name: str = "figure") -> list[str]:
    """Rule 8: linear y axes of non-negative values that do not start at 0 and do not say so."""
    from app.components.charts import NOT_FROM_ZERO

    layout = fig.get("layout", {}) or {}
    rows = {_axis_name(tr.get("yaxis", "y")) for tr in fig.get("data", []) if tr.get("type") in ROW_AXIS_TYPES}
    out = []
    for key, rec in axes_data(fig).items():
        if not key.startswith("yaxis") or key in rows or rec["categorical"] or not rec["numeric"]:
            continue
        ax = layout.get(key, {}) or {}
        if ax.get("type") in ("log", "category", "multicategory", "date") or min(rec["numeric"]) < 0:
            continue
        ends = [float(r) for r in ax.get("range") or [] if isinstance(r, (int, float))]
        from_zero = ax.get("rangemode") == "tozero" or (len(ends) == 2 and min(ends) <= 0)
        if not from_zero and NOT_FROM_ZERO not in _title(ax):
            out.append(f"{name}: {key} ({_title(ax)!r}) holds values >= 0 but does not start at 0 and its title "
                       f"does not say {NOT_FROM_ZERO!r}")
    return out


def _colour(tr: dict):
    line, marker = tr.get("line") or {}, tr.get("marker") or {}
    return line.get("color") if isinstance(line.get("color"), str) else marker.get("color")


def uncoloured_bands(fig: dict, name: str = "figure") -> list[str]:
    """Rule 9: in a chart of two or more bands, bands whose colour is no curve's."""
    from app.components.bands import _P5_HOVER, _P95_HOVER

    data = fig.get("data", [])
    bands = [t for t in data if t.get("fill") == "tonexty" and t.get("hovertemplate") == _P5_HOVER]
    if len(bands) < 2:
        return []
    curves = {_colour(t) for t in data if t.get("hovertemplate") not in (_P5_HOVER, _P95_HOVER)} - {None}
    return [f"{name}: band {b.get('name')!r} is not drawn in the colour of a curve ({_colour(b)!r}); "
            f"{len(bands)} bands overlap" for b in bands if _colour(b) not in curves]


def zero_bars(fig: dict, name: str = "figure") -> list[str]:
    """Bars of value 0 drawn without a text: a zero-length bar looks like a missing one (the reader cannot
    tell "nothing written" from "not run"). A zero segment of a stack is not a bar and is not flagged."""
    out = []
    if (fig.get("layout", {}) or {}).get("barmode") in ("stack", "relative"):
        return out
    for tr in fig.get("data", []):
        if tr.get("type") != "bar" or tr.get("visible", True) is not True:
            continue
        horizontal = tr.get("orientation") == "h"
        vals, cats = values(tr.get("x" if horizontal else "y")), values(tr.get("y" if horizontal else "x"))
        text = values(tr.get("text")) if isinstance(tr.get("text"), (list, dict)) else [tr.get("text")] * len(vals)
        for i, v in enumerate(vals):
            if isinstance(v, (int, float)) and v == 0 and not (i < len(text) and str(text[i] or "").strip()):
                cat = cats[i] if i < len(cats) else i
                out.append(f"{name}: bar {tr.get('name')!r} at {cat!r} is 0 and drawn without a label (reads as missing)")
    return out


# THEME_PLACEHOLDER (imported above): a colour scale's entry among these is drawn as something else (Inferno's
# #000004 low end became the theme's orange).


def _placeholder_colours(o, where: str = "") -> list[tuple[str, str]]:
    """``(path, colour)`` of every colour-scale entry in ``o`` that is a theme placeholder colour (not #000000)."""
    if isinstance(o, str):  # in a colour scale: a category colour is meant to be the theme's (px's colorway)
        hit = THEME_PLACEHOLDER.fullmatch(o) and o != "#000000" and "colorscale" in where
        return [(where, o)] if hit else []
    if isinstance(o, dict):
        return [x for k, v in o.items() for x in _placeholder_colours(v, f"{where}.{k}" if where else k)]
    if isinstance(o, (list, tuple)):
        return [x for i, v in enumerate(o) for x in _placeholder_colours(v, f"{where}[{i}]")]
    return []


def check_figures(figs: Iterable[tuple[str, dict]]) -> list[str]:
    """Problems of many ``(name, figure)`` pairs."""
    out: list[str] = []
    for name, fig in figs:
        out.extend(check_figure(fig, name))
    return out


def page_figures(at) -> list[tuple[str, dict]]:
    """``(name, figure JSON)`` of every Plotly chart an AppTest run drew (tabs and expanders included)."""
    import json

    out = []
    for i, el in enumerate(at.get("plotly_chart")):
        fig = json.loads(el.proto.spec)
        title = (fig.get("layout", {}).get("title") or {})
        title = title.get("text") if isinstance(title, dict) else title
        out.append((f"chart {i} {title or ''}".strip(), fig))
    return out


def lazy_tabs(at) -> dict[str, list]:
    """``key -> tab labels`` of every keyed ``st.tabs`` on the page (``on_change="rerun"``: lazy tabs,
    whose closed tabs draw nothing, so their charts exist only in a run with that tab open), and
    ``key -> [False, True]`` (closed, open) of every keyed ``st.expander`` (a lazy section: drawn only while open)."""
    from streamlit.testing.v1.element_tree import Block

    out: dict[str, list[str]] = {}

    def walk(node):
        for k in sorted(node.children):
            ch = node.children[k]
            if not isinstance(ch, Block):
                continue
            if ch.type in ("tab_container", "expander"):
                key = str(ch.proto.id).split("-", 2)[-1] if ch.proto.id.startswith("$$ID-") else ""
                if key and ch.type == "expander":
                    out[key] = [False, True]
                elif key:
                    out[key] = [t.label for _, t in sorted(ch.children.items()) if t.type == "tab"]
            walk(ch)

    walk(at.main)
    return out


def every_tab_figures(at, *, texts: list | None = None, views: list | None = None,
                      tables: list | None = None) -> list[tuple[str, dict]]:
    """``(name, figure JSON)`` of every chart of the page with every lazy tab opened in turn.

    Starts from the run ``at`` already made; for each lazy tab control (:func:`lazy_tabs`, including
    ones that appear only inside another tab) and each of its tabs, opens it (session state), reruns
    and collects the charts, then puts the controls back. A chart drawn in several runs is named once
    per run (``[tab label] chart i``). ``texts``, if given, receives the captions and markdown of
    every run (for :func:`check_texts`); ``tables`` the ``(name, frame shown)`` of every ``st.dataframe``
    (for :func:`check_tables`). ``views``, if given, receives ``(prefix, {tab key: label})`` of
    each run with a tab opened (the tab controls set in that run).
    """
    def collect(prefix: str) -> list[tuple[str, dict]]:
        if texts is not None:
            texts.extend(shown_texts(at))
        if tables is not None:
            tables.extend((f"{prefix}table {i}", d.value) for i, d in enumerate(at.dataframe))
        return [(f"{prefix}{n}", f) for n, f in page_figures(at)]

    out = collect("")
    original = {k: at.session_state[k] for k in lazy_tabs(at) if k in at.session_state}
    seen: set[tuple[str, str]] = {(k, v) for k, v in original.items()}
    todo = [(k, lab) for k, labs in lazy_tabs(at).items() for lab in labs if (k, lab) not in seen]
    opened: dict = {}
    while todo:
        key, label = todo.pop(0)
        if (key, label) in seen:
            continue
        seen.add((key, label))
        at.session_state[key] = label
        opened[key] = label
        at.run()
        if at.exception:
            raise AssertionError(f"tab {label!r} of {key}: {[e.message for e in at.exception]}")
        name = f"[{key} open] " if label is True else f"[{key} closed] " if label is False else f"[{label}] "
        out += collect(name)
        if views is not None:
            views.append((name, dict(opened)))
        for k, labs in lazy_tabs(at).items():
            if k not in original:  # a control inside the tab just opened: its open tab is drawn now
                original[k] = at.session_state[k] if k in at.session_state else labs[0]
                seen.add((k, original[k]))
            todo += [(k, lab) for lab in labs if (k, lab) not in seen]
    if seen - {(k, v) for k, v in original.items()}:
        for k, v in original.items():
            at.session_state[k] = v
        at.run()
    return out


#: Text a caption or message never shows: raw JSON objects, escaped unicode, Python reprs of containers.
RAW_TEXT = re.compile(r'\{"[^"]+":|\\u[0-9a-f]{4}|\bmore than 1 times\b')
#: A number in e-notation (``1.29e+03``, ``7.2e-04``): a metric reads ``1,290`` or ``7.2×10⁻⁴``.
E_NOTATION = re.compile(r"\d(?:\.\d+)?e[+-]?\d")
METRIC = "metric: "
#: A unit in its ASCII stand-in: "[x]" for a ratio, "us" for microseconds (the page writes × and µs).
UNIT_SPELLING = re.compile(r"\[(?:x|us)\]|\d ?us\b|\dx (?:DRAM|fewer|faster|slower)\b")


def shown_texts(at) -> list[str]:
    """The captions, markdown and metrics (``metric: label = value``) of the last run, for :func:`check_texts`."""
    return ([c.value for c in at.caption] + [m.value for m in at.markdown]
            + [f"{METRIC}{m.label} = {m.value}" for m in at.metric])


def check_texts(texts: Iterable[str]) -> list[str]:
    """Captions / markdown that show raw JSON, ``\\uXXXX`` escapes, "more than 1 times" or a unit spelled
    "[x]" / "us"; metrics whose value is in e-notation."""
    out = [f"raw text: {t[:120]!r}" for t in texts if RAW_TEXT.search(t)]
    out += [f"unit spelled {m.group(0)!r} (× / µs): {t[:120]!r}" for t in texts for m in [UNIT_SPELLING.search(t)] if m]
    return out + [f"e-notation in a {t[:160]!r}" for t in texts if t.startswith(METRIC) and E_NOTATION.search(t)]


def check_tables(tables: Iterable[tuple[str, object]]) -> list[str]:
    """Grid tables (``st.dataframe``) with an empty cell in a number column: the grid shows it as "None"
    (the one formatter, :func:`app.components.tables.table`, shows those columns as text with "—")."""
    import pandas as pd

    out = []
    for name, frame in tables:
        df = getattr(frame, "data", frame)  # a Styler's frame
        if not isinstance(df, pd.DataFrame):
            continue
        for col in df.columns:
            c = df[col]
            if pd.api.types.is_numeric_dtype(c) and not pd.api.types.is_bool_dtype(c) and c.isna().any():
                out.append(f"{name}: column {col!r} shows {int(c.isna().sum())} empty cell(s) as 'None'")
    return out


# ----------------------------------------------------------------------------- every mode switch opened

#: Widget kinds that switch what a page draws (a mode): each of their options is tried.
MODE_KINDS = ("radio", "button_group", "toggle", "checkbox", "selectbox")
#: A selectbox with more options than this picks a value (a device, a trace, a drive) rather than a mode:
#: only :data:`VALUE_PICKS` of its other options are tried, spread over the list (the rest are listed).
MODE_MAX_OPTIONS = 6
VALUE_PICKS = 2
#: Switches not tried, by session key suffix (any option) or ``suffix=value``, and why.
MODE_SKIP = {
    "uq_sobol": "adds Sobol' columns to the How-sure table (no figure), n(d+2) more model runs",
    "source=live": "re-runs every claim of the ledger (about a minute); the committed ledger draws the same charts",
}


def _widget_values(at, w) -> list[tuple[str, object]]:
    """``(shown text, value)`` of each option of widget ``w`` (the value the page's code receives)."""
    if w.type in ("checkbox", "toggle"):
        return [("on", True), ("off", False)]
    state = object.__getattribute__(at._session_state, "_state")  # the widget's own option <-> value mapping
    meta = state._new_widget_state.widget_metadata.get(w.id)
    out = []
    for shown in w.options:
        try:
            v = meta.deserializer([shown] if w.type == "button_group" else shown)
        except Exception:  # noqa: BLE001 - no mapping: set the shown text (AppTest accepts it too)
            v = shown
        out.append((shown, v))
    return out


def _mode_widgets(at) -> list:
    out = []
    for kind in MODE_KINDS:
        for w in at.get(kind):
            if getattr(w, "form_id", "") or getattr(w, "disabled", False):
                continue  # a form's fields apply on submit; a disabled switch cannot be changed
            if kind == "button_group" and not w._is_single_select:
                continue
            out.append(w)
    return out


def _find(at, wid: str):
    return next((w for kind in MODE_KINDS for w in at.get(kind) if w.id == wid), None)


def _skip_reason(w, value) -> str | None:
    key = w.key or ""
    for suffix, why in MODE_SKIP.items():
        name, _, val = suffix.partition("=")
        if key.endswith(f".{name}") or key == name:
            if not val or str(value) == val:
                return why
    return None


#: How many switches are changed together at most: a switch that appears only with another switch's option
#: (break-even's "Insertion cost" in manual mode) is tried with that option set (2); deeper ones are listed.
MODE_DEPTH = 2


def internal_errors(at) -> list[str]:
    """Error boxes of a bug caught by the page (app.components.errors.show_error), not of an input."""
    return [e.value for e in at.error if "unexpected internal error" in e.value]


def every_mode_figures(at, *, texts: list | None = None,
                       tables: list | None = None) -> tuple[list[tuple[str, dict]], list[str]]:
    """``(name, figure JSON)`` of every chart the page draws with each option of each mode switch, and the
    options not tried with why.

    Starts from the run ``at`` already made (the defaults). Views: the page as run, then each lazy tab open
    in turn (:func:`every_tab_figures`). In the first view where a switch (:data:`MODE_KINDS`, outside forms)
    appears, each of its options other than the current one is set -- one switch changed at a time from the
    defaults; a switch that appears only with another's option is tried with that option set, up to
    :data:`MODE_DEPTH` switches -- the page is rerun, its charts are collected as
    ``[tab] label = option: chart i``, and the switch is put back. A run that raises or shows an internal
    error box fails with where it happened. Options whose run asks for a file (a new upload widget appears)
    are listed as needing an upload, and the switches they reveal are not tried; selectboxes with more than
    :data:`MODE_MAX_OPTIONS` options are value pickers, tried on :data:`VALUE_PICKS` options spread over the
    list; :data:`MODE_SKIP` lists switches not tried. ``texts`` / ``tables``: as :func:`every_tab_figures`'s,
    for every run.
    """
    views: list[tuple[str, dict]] = []
    out = every_tab_figures(at, texts=texts, views=views, tables=tables)
    tab_keys = sorted({k for _, v in views for k in v})
    original_tabs = {k: at.session_state[k] for k in tab_keys if k in at.session_state}
    not_tried: list[str] = []
    done: set[str] = set()

    def collect(prefix: str) -> None:
        if texts is not None:
            texts.extend(shown_texts(at))
        if tables is not None:
            tables.extend((f"{prefix}table {i}", d.value) for i, d in enumerate(at.dataframe))
        out.extend((f"{prefix}{n}", f) for n, f in page_figures(at))

    def explore(w0, prefix: str, depth: int) -> None:
        """Each option of switch ``w0`` (drawn in the current run), then ``w0`` put back."""
        done.add(w0.id)
        label = getattr(w0, "label", "") or w0.key or w0.type
        options = _widget_values(at, w0)
        current = w0.value
        others = [(s, v) for s, v in options if v != current]
        if w0.type == "selectbox" and len(options) > MODE_MAX_OPTIONS and len(others) > VALUE_PICKS:
            idx = sorted({round(i * (len(others) - 1) / (VALUE_PICKS - 1)) for i in range(VALUE_PICKS)})
            tried = [others[i] for i in idx]
            not_tried.extend(f"{prefix}{label} = {s}: value picker, {VALUE_PICKS} of {len(others)} other options "
                             f"tried" for s, v in others if (s, v) not in tried)
            others = tried
        before = {w.id for w in _mode_widgets(at)}
        uploads = {u.id for u in at.file_uploader}
        changed = False
        for shown, value in others:
            where = f"{prefix}{label} = {shown}"
            why = _skip_reason(w0, value)
            if why:
                not_tried.append(f"{where}: {why}")
                continue
            w = _find(at, w0.id)
            if w is None:
                not_tried.append(f"{where}: the switch is gone after the previous option")
                break
            w.set_value(value)
            at.run()
            changed = True
            if at.exception:
                raise AssertionError(f"{where}: {[e.message for e in at.exception]}")
            if internal_errors(at):
                raise AssertionError(f"{where}: {internal_errors(at)}")
            collect(f"[{where}] ")
            revealed = [w for w in _mode_widgets(at) if w.id not in before and w.id not in done]
            if {u.id for u in at.file_uploader} - uploads:
                not_tried.append(f"{where}: needs an upload (the charts drawn without one are checked"
                                 + (f"; not tried: {', '.join(r.label for r in revealed)})" if revealed else ")"))
                continue
            for r in revealed:
                if depth < MODE_DEPTH:
                    if r.id not in done and _find(at, r.id) is not None:
                        explore(_find(at, r.id), f"{where}, ", depth + 1)
                else:
                    not_tried.append(f"{where}, {r.label}: more than {MODE_DEPTH} switches from the defaults")
        if changed:
            w = _find(at, w0.id)
            if w is not None:
                w.set_value(current)
            elif w0.key:
                at.session_state[w0.key] = current
            at.run()

    for view_name, view in [("", {}), *views]:
        if view:
            for k in tab_keys:
                if k in view or k in original_tabs:
                    at.session_state[k] = view.get(k, original_tabs.get(k))
            at.run()
        for w0 in [w for w in _mode_widgets(at) if w.id not in done]:
            if _find(at, w0.id) is not None and w0.id not in done:
                explore(_find(at, w0.id), view_name, 1)
    if views:
        for k, v in original_tabs.items():
            at.session_state[k] = v
        at.run()
    return out, not_tried
