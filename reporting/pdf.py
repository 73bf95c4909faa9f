"""PDF report of a plan (``pcm-planner plan --pdf``), drawn with ReportLab: no browser needed.

The same contents as the HTML report (:func:`reporting.planner_report.plan_report_html`): inputs
(workloads, devices with their figures), one vector chart per role (bars from the 1x line on a log
axis, green where the device wins and red where it loses, p5-p95 whiskers), the verdicts with their
reasons, the validation status of every model used and the provenance of every parameter.
"""

from __future__ import annotations

import html as _h
import io
import math

__all__ = ["plan_report_pdf", "targets_flowables", "frontier_flowables", "ratio_bar_drawing", "summary_page", "pdf_tick_text", "BASELINE_LABEL"]


def _esc(x) -> str:
    return _h.escape(str(x))


def ratio_bar_drawing(labels, values, colours, *, p5=None, p95=None, axis_title: str = "", width: float = 480.0):
    """A ReportLab Drawing: horizontal bars from 1x to each value on a log axis centred on the 1x line.

    ``values`` [x]; ``colours`` hex strings; ``p5``/``p95`` whiskers (NaN: none); decades labelled
    ``0.1x, 1x, 10x``; ``axis_title`` under the axis.
    """
    from reportlab.graphics.shapes import Drawing, Line, Rect, String
    from reportlab.lib import colors

    from reporting.planner_report import _ratio_text, ratio_range, ratio_ticks

    n = len(values)
    bands = [x for x in list(p5 or []) + list(p95 or []) if x == x]
    lo, hi = ratio_range(list(values) + bands)
    row_h, top, bottom, left = 18.0, 22.0, 42.0, 170.0
    height = top + bottom + row_h * max(n, 1)
    plot_w = width - left - 12

    def xpos(v: float) -> float:
        lv = min(max(math.log10(max(v, 1e-300)), lo), hi) if math.isfinite(v) else hi
        return left + (lv - lo) / (hi - lo) * plot_w

    d = Drawing(width, height)
    y0 = bottom
    x1 = xpos(1.0)
    for tv in ratio_ticks(lo, hi)[0]:
        x, tt = xpos(tv), pdf_tick_text(tv)
        d.add(Line(x, y0, x, height - top, strokeColor=colors.HexColor("#dddddd"), strokeWidth=0.5))
        d.add(String(x, y0 - 11, tt, fontSize=7, textAnchor="middle"))
    for i, (lab, v, c) in enumerate(zip(labels, values, colours)):
        yc = height - top - row_h * (i + 0.5)
        xv = xpos(v)
        d.add(Rect(min(x1, xv), yc - 6, abs(xv - x1), 12, fillColor=colors.HexColor(c), strokeColor=None))
        d.add(String(left - 4, yc - 3, str(lab)[:40], fontSize=7, textAnchor="end"))
        a = p5[i] if p5 is not None else float("nan")
        b = p95[i] if p95 is not None else float("nan")
        end = xv
        if a == a and b == b:
            xa, xb = xpos(a), xpos(b)
            d.add(Line(xa, yc, xb, yc, strokeColor=colors.black, strokeWidth=0.8))
            d.add(Line(xa, yc - 3, xa, yc + 3, strokeColor=colors.black, strokeWidth=0.8))
            d.add(Line(xb, yc - 3, xb, yc + 3, strokeColor=colors.black, strokeWidth=0.8))
            end = max(xv, xb) if xv >= x1 else min(xv, xa)  # the label clears the whisker too
        d.add(_value_label(_ratio_text(v), xv, end, x1, yc, left, left + plot_w))
    d.add(Line(x1, y0, x1, height - top, strokeColor=colors.black, strokeWidth=1.2, strokeDashArray=[3, 2]))
    d.add(String(x1, height - top + 5, BASELINE_LABEL, fontSize=7, textAnchor="middle"))  # above the plot area
    d.add(Line(left, y0, left + plot_w, y0, strokeColor=colors.black, strokeWidth=0.6))
    d.add(String(left + plot_w / 2, 8, axis_title[:140], fontSize=7.5, textAnchor="middle"))
    return d


#: The label of the 1x line, drawn above the plot area where no bar can cover it.
BASELINE_LABEL = "1× = baseline"
#: Value label size [pt] and the width of one character [em] (Helvetica digits: 0.556 em).
_LABEL_PT, _CHAR_EM = 6.5, 0.556


def _value_label(text: str, xv: float, end: float, x1: float, yc: float, x_min: float, x_max: float):
    """A bar's value label: just past the bar's end ``xv`` (and its whisker, ``end``) in dark text, or inside
    the bar's start (by the 1x line, clear of the whisker) in white when the plot has no room past it."""
    from reportlab.graphics.shapes import String
    from reportlab.lib import colors

    w = len(text) * _LABEL_PT * _CHAR_EM
    right = xv >= x1
    outside = end + 3 + w <= x_max if right else end - 3 - w >= x_min
    if outside:
        dark = colors.HexColor("#222222")
        x, anchor, colour = (end + 3, "start", dark) if right else (end - 3, "end", dark)
    else:
        x, anchor, colour = (x1 + 3, "start", colors.white) if right else (x1 - 3, "end", colors.white)
    return String(x, yc - 2.5, text, fontSize=_LABEL_PT, fillColor=colour, textAnchor=anchor)


def pdf_tick_text(v: float) -> str:
    """A decade tick of a PDF ratio axis in characters the PDF's Helvetica has (no superscript minus or
    four: they print as boxes): ``0.001×``, ``1×``, ``10,000×``; beyond 10^±6 ``1e+07×``.

    >>> pdf_tick_text(1e-4), pdf_tick_text(1e4), pdf_tick_text(1e7)
    ('0.0001×', '10,000×', '1e+07×')
    """
    k = round(math.log10(v))
    if abs(k) > 6:
        return f"{v:.0e}×"
    return f"{v:,.{max(-k, 0)}f}×"


def _table(df, styles, col_widths=None, font_size: float = 7.0):
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, Table, TableStyle

    from reporting.planner_report import _fmt

    cell = ParagraphStyle("cell", parent=styles["BodyText"], fontSize=font_size, leading=font_size + 1.5)
    head = ParagraphStyle("head", parent=cell, fontName="Helvetica-Bold")
    data = [[Paragraph(_esc(c), head) for c in df.columns]]
    for r in df.itertuples(index=False):
        data.append([Paragraph(_esc(_fmt(v)), cell) for v in r])
    t = Table(data, colWidths=col_widths, repeatRows=1)
    t.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#bbbbbb")),
                           ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
                           ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return t


def summary_page(res, title: str, styles, width: float, height: float) -> list:
    """The first page of the report: the title, the answer per role
    (:func:`reporting.planner_report.executive_summary`: best device, verdict and value, confidence, cost and
    lifetime when the plan has them) and the rows far from their seed paper's answer, shrunk to fit one page
    (``width`` x ``height`` [pt])."""
    from reportlab.lib import colors
    from reportlab.lib.units import cm
    from reportlab.platypus import KeepInFrame, Paragraph, Spacer

    from reporting.pdf_frontier import tint as _tint
    from reporting.planner_report import VERDICT_COLOUR, executive_summary, summary_lead

    summary, notes = executive_summary(res)
    body = styles["BodyText"]
    fixed = {"role": 3.1 * cm, "workload": 3.0 * cm, "best device": 3.6 * cm, "verdict": 2.2 * cm, "value": 3.4 * cm}
    econ = [c for c in summary.columns if c not in fixed and c != "confidence"]
    widths = [fixed[c] if c in fixed else 2.2 * cm for c in summary.columns if c != "confidence"]
    conf_w = width - sum(widths)
    widths.insert(list(summary.columns).index("confidence"), conf_w)
    t = _table(summary, styles, col_widths=widths, font_size=8.5)
    vcol = list(summary.columns).index("verdict")
    for i, v in enumerate(summary.verdict, start=1):
        if v in VERDICT_COLOUR:
            t.setStyle([("BACKGROUND", (vcol, i), (vcol, i), _tint(VERDICT_COLOUR[v])),
                        ("TEXTCOLOR", (vcol, i), (vcol, i), colors.HexColor(VERDICT_COLOUR[v]))])
    content = [Paragraph(_esc(title), styles["Title"]),
               Paragraph("Summary: the answer per role", styles["Heading2"]),
               Paragraph(_esc(summary_lead(res)), body), Spacer(1, 4), t]
    if not econ:
        content.append(Paragraph("Cost and lifetime: not in this plan.", styles["Italic"]))
    if notes:
        content += [Spacer(1, 6), Paragraph("<b>Far from the seed paper's answer</b> (more than a factor 2):", body)]
        content += [Paragraph("• " + _esc(n), body) for n in notes]
    content.append(Paragraph("Details (charts, every verdict with its reason, inputs) follow; the provenance of "
                             "every parameter is in the appendix.", styles["Italic"]))
    return [KeepInFrame(width, height - 4, content, mode="shrink")]


def targets_flowables(tres, styles, width: float) -> list:
    """The "Product targets" section of the PDF: what the spec targets are and the table of every break-even
    (:func:`reporting.planner_targets_report.targets_table` of ``tres``, a
    :class:`~models.planner.targets.TargetsResult`) and the frontier chart of the first row that can draw the
    report's spec pair (:func:`frontier_flowables`)."""
    from reportlab.lib.units import cm
    from reportlab.platypus import Paragraph

    from reporting.planner_targets_report import targets_table

    goal = "breaks even with its baseline" if tres.target == 1 else f"reaches {tres.target:g}x its baseline"
    tt = targets_table(tres)
    out = [Paragraph("Product targets", styles["Heading2"]),
           Paragraph(_esc(f"For each workload x role x device, the value of each device spec at which the role {goal}, "
                          "the other specs held at the device's own values (root finding on the role's models, the "
                          "counts simulated once; pcm-planner targets). Endurance: the value at which the role's "
                          "capacity lasts the planning horizon; price: the value at which its cost per unit of work "
                          "equals the baseline's. Band: the break-even with the held inputs (the device's other specs, the "
                          "baseline's, the economics inputs) at the ends of their provenance ranges."),
                     styles["BodyText"]), *frontier_flowables(tres, styles, width)]
    if not len(tt):
        return [*out, Paragraph("No row to find targets for (nothing evaluated).", styles["Italic"])]
    from reporting.planner_targets_report import BAND_LABEL

    if BAND_LABEL in tt:  # the band under the break-even, in its cell (the table keeps its width)
        tt["won while"] = [f"{w}; band {b}" if w else b for w, b in zip(tt["won while"], tt.pop(BAND_LABEL))]
    widths = [2.6 * cm, 2.4 * cm, 2.6 * cm, 2.4 * cm, 2.4 * cm, 2.0 * cm]
    return [*out, _table(tt, styles, col_widths=widths + [width - sum(widths)], font_size=6.5)]


def frontier_flowables(tres, styles, width: float, frontier=None) -> list:
    """The frontier chart of the PDF's "Product targets" (:func:`reporting.pdf_frontier.frontier_drawing`) over the
    ``frontier`` spec pair (default: the HTML report's,
    :data:`reporting.planner_targets_report.DEFAULT_FRONTIER`) for the first row that can draw it, with its caption;
    a sentence saying why when no row can."""
    from reportlab.platypus import Paragraph

    from models.planner.target_bands import frontier_band
    from models.planner.targets import SPECS
    from reporting.pdf_frontier import frontier_drawing
    from reporting.planner_targets_report import (
        DEFAULT_FRONTIER,
        _criteria_words,
        _pick_row,
        check_frontier_pair,
        frontier_rows,
    )

    spec_x, spec_y = check_frontier_pair(*(frontier or DEFAULT_FRONTIER))
    pair = f"{SPECS[spec_x][2]} x {SPECS[spec_y][2]}"
    rt, row = _pick_row(tres, spec_x, spec_y)
    if rt is None:
        return [Paragraph(_esc(f"No frontier over {pair}: no row's model reads both, or the price / lifetime criterion "
                               "cannot be evaluated on any row."), styles["Italic"])]
    h = getattr(tres, "horizon_years", math.nan)
    h = h if isinstance(h, float) and math.isfinite(h) else None
    grid = frontier_rows(rt, spec_x, spec_y, target=tres.target, plan_row=row, horizon_years=h, band=True)
    xs, ys = sorted(set(grid[spec_x])), sorted(set(grid[spec_y]))
    band = None if grid.attrs.get("unknown") else frontier_band(rt, spec_x, spec_y, xs, ys, target=tres.target,
                                                                 plan_row=row, horizon_years=h)
    crit = _criteria_words(spec_x, spec_y, tres.target, h)
    title = f"{rt.role} · {rt.workload} · {rt.device.name}"
    caption = (f"Frontier over {pair} of {title}: green where {crit}, red where not, the other specs held at "
               f"{rt.device.name}'s values. " + ("Dashed / dotted: the boundary with the held inputs (the device's "
               "other specs, the baseline's, the economics inputs) at the ends of their provenance ranges that favour "
               "the device / that do not. " if band is not None else "No band: no held input has a provenance range. ")
               + "Open circles: catalogue devices at their own two values (a marker places a device, it is not that "
               "device's verdict); star: this row's device.")
    from reportlab.platypus import Spacer

    return [frontier_drawing(rt, spec_x, spec_y, grid, band=band, width=width, title=title),
            Paragraph(_esc(caption), styles["BodyText"]), Spacer(1, 8)]


def plan_report_pdf(res, title: str = "PCM Planner: plan for your workloads", targets=None) -> bytes:
    """The PDF report of a plan (:class:`models.planner.PlanResult`) as bytes; ``targets`` (a
    :class:`~models.planner.targets.TargetsResult` of the same plan): a "Product targets" section after the verdicts.

    >>> from models.planner.plan import plan, workload_from_path
    >>> pdf = plan_report_pdf(plan([workload_from_path("mqsim:tpcc-small", name="db")], ["pcm-samsung-20nm"],
    ...                            n_requests=2000))
    >>> pdf[:5]
    b'%PDF-'
    """
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import cm
    from reportlab.platypus import KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer

    from models.planner.plan import ROLES_PLAN
    from models.planner.verdicts import EVALUATED
    from models.provenance import provenance_table
    from reporting.planner_report import (
        VERDICT_COLOUR,
        devices_table,
        plan_baselines,
        plan_verdict_table,
        validation_summary,
        workloads_table,
    )

    styles = getSampleStyleSheet()
    body = styles["BodyText"]
    buf = io.BytesIO()
    page = landscape(A4)
    doc = SimpleDocTemplate(buf, pagesize=page, leftMargin=1.2 * cm, rightMargin=1.2 * cm, topMargin=1.2 * cm,
                            bottomMargin=1.2 * cm, title=title, author="PCM Planner")
    width = page[0] - 2.4 * cm
    df = res.to_frame()
    base = ("each role's like-for-like baseline" if res.baseline == "like-for-like"
            else f"{res.baseline} as the baseline of every role")
    story = [*summary_page(res, title, styles, width, page[1] - 2.4 * cm), PageBreak(),
             Paragraph("Details", styles["Heading1"]),
             Paragraph(_esc(f"Each bar is baseline / device [x] for one workload and device, against {base}: green "
                            "where the device wins (> 1x), red where it loses, blue where it is about the same; "
                            "whiskers span p5-p95 of the uncertain inputs"
                            + (f" ({res.uncertainty} samples)." if res.uncertainty else " (not sampled).")),
                       body),
             Paragraph("Inputs", styles["Heading2"]), Paragraph("Workloads", styles["Heading3"]),
             _table(workloads_table(res.workloads), styles),
             Paragraph("Devices", styles["Heading3"]),
             _table(devices_table(res.devices, plan_baselines(res)), styles,
                    col_widths=[2.6 * cm, 2.4 * cm, 3.0 * cm, 1.2 * cm] + [1.9 * cm] * 5 + [width - 18.7 * cm]),
             Paragraph("Verdicts per role", styles["Heading2"])]
    for role in ROLES_PLAN:
        sub = df[df.role == role]
        if not len(sub):
            continue
        block = [Paragraph(_esc(role), styles["Heading3"])]
        bars = sub[sub.verdict.isin(EVALUATED)]
        if len(bars):
            metric = " / ".join(dict.fromkeys(bars.metric.astype(str)))
            block.append(ratio_bar_drawing(
                (bars.workload.astype(str) + " · " + bars.device.astype(str)).tolist(), bars.value.tolist(),
                [VERDICT_COLOUR[v] for v in bars.verdict], p5=bars.p5.tolist(),
                p95=bars.p95.tolist(), axis_title=f"{metric} [x, baseline / device; > 1x the device wins]",
                width=min(width, 640)))
        for r in sub[~sub.verdict.isin(EVALUATED)].itertuples():
            block.append(Paragraph(f"<b>{_esc(r.workload)} · {_esc(r.device)}</b>: {_esc(r.reason)}", body))
        story += [KeepTogether(block), Spacer(1, 4)]
    story.append(Paragraph("All verdicts", styles["Heading2"]))
    vt = plan_verdict_table(res)
    widths = [2.4 * cm, 2.2 * cm, 2.6 * cm, 1.6 * cm, 1.4 * cm, 1.8 * cm]
    rest = width - sum(widths)
    extra = len(vt.columns) - len(widths)
    widths += [rest * 0.55] + [rest * 0.45 / (extra - 1)] * (extra - 1)
    story.append(_table(vt, styles, col_widths=widths, font_size=6.5))
    if targets is not None:
        story += targets_flowables(targets, styles, width)
    roles = res.roles_used
    if roles:
        story.append(Paragraph("Validation status of the models used", styles["Heading2"]))
        story.append(Paragraph("Claims of the seed papers checked by the model behind each role (the validation "
                               "ledger, docs/VALIDATION.md).", body))
        vs = validation_summary(roles)[["role", "pages", "claims", "summary"]]
        story.append(_table(vs.rename(columns={"pages": "ledger pages", "summary": "status"}), styles))
    tab = provenance_table(res.provenance_keys, res.custom_devices)
    if len(tab):
        story += [PageBreak(), Paragraph("Appendix", styles["Heading1"]),
                  Paragraph("Provenance of the parameters used", styles["Heading2"])]
        story.append(Paragraph(f"{len(tab)} parameters; derived and assumed values first. Registry: "
                               "models/provenance/; device values: data/devices.csv.", body))
        from models.provenance import UNVERIFIED

        tab = tab.assign(_o=~tab.kind.isin(UNVERIFIED)).sort_values("_o", kind="stable").drop(columns="_o")
        story.append(_table(tab[["key", "what", "value", "unit", "kind", "source"]], styles, font_size=6.0,
                            col_widths=[5.5 * cm, 5 * cm, 2 * cm, 1.4 * cm, 2.4 * cm, width - 16.3 * cm]))
    doc.build(story)
    return buf.getvalue()
