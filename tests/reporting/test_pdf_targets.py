"""The PDF plan report's "Product targets" section (issue 37 item 6): the table of break-evens when the plan's
targets are given, nothing of it when not. Page text read with pypdfium2."""

from __future__ import annotations

import pytest

from models.planner.plan import plan, workload_from_path
from models.planner.targets import targets_of_plan
from reporting.pdf import plan_report_pdf
from reporting.planner_targets_report import targets_table


@pytest.fixture(scope="module")
def plan_and_targets():
    res = plan([workload_from_path("mqsim:tpcc-small", name="db trace")], ["optane-dcpmm"], n_requests=2000)
    return res, targets_of_plan(res, n_requests=2000)


def _text(pdf: bytes) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def test_pdf_has_the_targets_table_when_given(plan_and_targets):
    res, tres = plan_and_targets
    text = _text(plan_report_pdf(res, targets=tres))
    assert "Product targets" in text
    tt = targets_table(tres)
    assert len(tt)
    # every break-even the table states is printed (the PDF may wrap a cell: compare without whitespace)
    flat = "".join(text.split())
    for won in tt["won while"]:
        if won:
            assert "".join(won.split()) in flat, won
    assert text.index("Product targets") > text.index("All verdicts")
    # the band sits under its break-even (issue 37 item 5 remainder)
    from reporting.planner_targets_report import BAND_LABEL

    for won, band in zip(tt["won while"], tt[BAND_LABEL]):
        if won:
            assert "".join(f"{won}; band {band}".split()) in flat, (won, band)


def test_pdf_without_targets_has_no_section(plan_and_targets):
    res, _ = plan_and_targets
    assert "Product targets" not in _text(plan_report_pdf(res))


def test_pdf_draws_the_frontier_as_the_html_report_does(plan_and_targets):
    """The frontier drawing holds the same grid as the HTML report's plotly chart: one cell per grid point coloured
    won / lost as the grid says, axes titled with their units, decades labelled, the row's device starred."""
    from reportlab.graphics.shapes import Rect, String

    from models.planner.targets import SPECS
    from reporting.pdf import frontier_flowables
    from reporting.pdf_frontier import frontier_drawing
    from reporting.planner_report import LOSE_COLOUR, WIN_COLOUR
    from reporting.planner_targets_report import DEFAULT_FRONTIER, _pick_row, frontier_rows

    res, tres = plan_and_targets
    sx, sy = DEFAULT_FRONTIER
    rt, row = _pick_row(tres, sx, sy)
    assert rt is not None
    grid = frontier_rows(rt, sx, sy, target=tres.target, plan_row=row, band=True)
    d = frontier_drawing(rt, sx, sy, grid, width=480)
    from reporting.pdf_frontier import tint

    win, lose = tint(WIN_COLOUR, 0.45), tint(LOSE_COLOUR, 0.45)
    cells = [c for c in d.contents if isinstance(c, Rect) and c.fillColor in (win, lose)]
    known = grid["wins"].notna()
    assert len(cells) == int(known.sum())
    assert sum(c.fillColor == win for c in cells) == int((grid["wins"][known] > 0.5).sum())
    texts = [s.text for s in d.getContents() if isinstance(s, String)]
    texts += [s.text for g in d.contents if hasattr(g, "contents") for s in g.contents if isinstance(s, String)]
    assert f"{SPECS[sx][2]} [{SPECS[sx][0]}] (log)" in texts and f"{SPECS[sy][2]} [{SPECS[sy][0]}] (log)" in texts
    assert f"{rt.device.name} (this row)" in texts
    assert sum(t.replace(",", "").replace(".", "").strip("0") == "1" for t in texts) >= 2  # decades: 1, 10, 0.1...
    # and the section says what it shows, in the PDF's text
    from reportlab.lib.styles import getSampleStyleSheet

    caption = frontier_flowables(tres, getSampleStyleSheet(), 480)[-2].text
    assert "green where" in caption and rt.device.name in caption
    text = "".join(_text(plan_report_pdf(res, targets=tres)).split())
    assert "".join(f"{rt.device.name} (this row)".split()) in text
