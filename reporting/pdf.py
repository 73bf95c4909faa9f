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

__all__ = ["plan_report_pdf", "ratio_bar_drawing"]


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
    row_h, top, bottom, left = 18.0, 10.0, 42.0, 170.0
    height = top + bottom + row_h * max(n, 1)
    plot_w = width - left - 12

    def xpos(v: float) -> float:
        lv = min(max(math.log10(max(v, 1e-300)), lo), hi) if math.isfinite(v) else hi
        return left + (lv - lo) / (hi - lo) * plot_w

    d = Drawing(width, height)
    y0 = bottom
    x1 = xpos(1.0)
    for tv, tt in zip(*ratio_ticks(lo, hi)):
        x = xpos(tv)
        d.add(Line(x, y0, x, height - top, strokeColor=colors.HexColor("#dddddd"), strokeWidth=0.5))
        d.add(String(x, y0 - 11, tt, fontSize=7, textAnchor="middle"))
    for i, (lab, v, c) in enumerate(zip(labels, values, colours)):
        yc = height - top - row_h * (i + 0.5)
        xv = xpos(v)
        d.add(Rect(min(x1, xv), yc - 6, abs(xv - x1), 12, fillColor=colors.HexColor(c), strokeColor=None))
        d.add(String(left - 4, yc - 3, str(lab)[:40], fontSize=7, textAnchor="end"))
        d.add(String(x1 + (3 if xv >= x1 else -3), yc - 2.5, _ratio_text(v), fontSize=6.5,
                     fillColor=colors.white, textAnchor="start" if xv >= x1 else "end"))
        a = p5[i] if p5 is not None else float("nan")
        b = p95[i] if p95 is not None else float("nan")
        if a == a and b == b:
            xa, xb = xpos(a), xpos(b)
            d.add(Line(xa, yc, xb, yc, strokeColor=colors.black, strokeWidth=0.8))
            d.add(Line(xa, yc - 3, xa, yc + 3, strokeColor=colors.black, strokeWidth=0.8))
            d.add(Line(xb, yc - 3, xb, yc + 3, strokeColor=colors.black, strokeWidth=0.8))
    d.add(Line(x1, y0, x1, height - top, strokeColor=colors.black, strokeWidth=1.2, strokeDashArray=[3, 2]))
    d.add(Line(left, y0, left + plot_w, y0, strokeColor=colors.black, strokeWidth=0.6))
    d.add(String(left + plot_w / 2, 8, axis_title[:140], fontSize=7.5, textAnchor="middle"))
    return d


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


def plan_report_pdf(res, title: str = "PCM Planner: plan for your workloads") -> bytes:
    """The PDF report of a plan (:class:`models.planner.PlanResult`) as bytes.

    >>> from models.planner.plan import plan, workload_from_path
    >>> pdf = plan_report_pdf(plan([workload_from_path("mqsim:tpcc-small", name="db")], ["pcm-samsung-20nm"],
    ...                            n_requests=2000))
    >>> pdf[:5]
    b'%PDF-'
    """
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import cm
    from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer

    from models.planner.plan import ROLES_PLAN
    from models.planner.verdicts import EVALUATED
    from models.provenance import provenance_table
    from reporting.planner_report import (
        VERDICT_COLOUR,
        devices_table,
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
    story = [Paragraph(_esc(title), styles["Title"]),
             Paragraph(_esc(f"Each bar is baseline / device [x] for one workload and device, against {base}: green "
                            "where the device wins (> 1x), red where it loses; whiskers span p5-p95 of the uncertain "
                            "inputs" + (f" ({res.uncertainty} samples)." if res.uncertainty else " (not sampled).")),
                       body),
             Paragraph("Inputs", styles["Heading2"]), Paragraph("Workloads", styles["Heading3"]),
             _table(workloads_table(res.workloads), styles),
             Paragraph("Devices", styles["Heading3"]),
             _table(devices_table(res.devices), styles,
                    col_widths=[2.6 * cm, 3.2 * cm, 1.2 * cm] + [1.9 * cm] * 5 + [width - 16.5 * cm]),
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
    roles = res.roles_used
    if roles:
        story.append(Paragraph("Validation status of the models used", styles["Heading2"]))
        story.append(Paragraph("Claims of the seed papers checked by the model behind each role (the validation "
                               "ledger, docs/VALIDATION.md).", body))
        vs = validation_summary(roles)[["role", "pages", "claims", "summary"]]
        story.append(_table(vs.rename(columns={"pages": "ledger pages", "summary": "status"}), styles))
    tab = provenance_table(res.provenance_keys, res.custom_devices)
    if len(tab):
        story.append(Paragraph("Provenance of the parameters used", styles["Heading2"]))
        story.append(Paragraph(f"{len(tab)} parameters; derived and assumed values first. Registry: "
                               "models/provenance/; device values: data/devices.csv.", body))
        from models.provenance import UNVERIFIED

        tab = tab.assign(_o=~tab.kind.isin(UNVERIFIED)).sort_values("_o", kind="stable").drop(columns="_o")
        story.append(_table(tab[["key", "what", "value", "unit", "kind", "source"]], styles, font_size=6.0,
                            col_widths=[5.5 * cm, 5 * cm, 2 * cm, 1.4 * cm, 2.4 * cm, width - 16.3 * cm]))
    doc.build(story)
    return buf.getvalue()
