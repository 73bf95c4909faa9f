"""Real-browser test of the plan report (issue 38 items 6, 7 and 9): at 800 px the planner's verdict table fits the
window, each role shows its ledger status, and the downloaded PDF report's first page is the one-page summary
(rendered to PNG with pypdfium2 and its text read): the answer per role, the confidence, no provenance table and no
server path. Screenshots: tests/artifacts/planner-800.png, plan-report-page1.png.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from tests import ROOT
from tests.app.browser_kit import browser_page, no_exception, upload_workloads
from tests.app.test_browser import ART, _wait_done

pytestmark = pytest.mark.browser

FIX = ROOT / "tests" / "fixtures" / "plan"


def _files(tmp_path) -> list[str]:
    """The uploads, under names of the user's choosing (made in the test: copies of the small fixtures)."""
    out = []
    for src, name in (("small_msr.csv", "vm disk trace.csv"), ("small_lackey.txt", "my program.txt")):
        dst = tmp_path / name
        shutil.copy(FIX / src, dst)
        out.append(str(dst))
    return out


def test_plan_at_800px_and_pdf_summary_first(server, tmp_path):
    import pypdfium2 as pdfium

    with browser_page(width=800, height=1400, downloads=True, failure_png="planner-800-failure.png") as (_, page):
        page.goto(f"{server}/planner?plan_requests=2000&devices=pcm-samsung-20nm")
        _wait_done(page)
        upload_workloads(page, _files(tmp_path), ["my program.txt: read as a memory workload"])
        no_exception(page)
        # the verdict table fits the 800 px window: no cell is cut at the right edge
        table = page.locator('[data-testid="stTable"]', has_text="validation (ledger)").first  # the verdict table
        fit = table.evaluate("""t => { const tb = t.querySelector('table');
            return {table: tb.getBoundingClientRect().right, box: t.getBoundingClientRect().right,
                    scroll: t.scrollWidth - t.clientWidth, window: window.innerWidth}; }""")
        table.scroll_into_view_if_needed()
        page.screenshot(path=str(ART / "planner-800.png"))
        assert fit["table"] <= fit["window"] and fit["scroll"] <= 1, fit
        # each role says how its models validate; a far-from-the-paper row says why
        body = page.locator('[data-testid="stMain"]').inner_text()
        assert "How well this role's models validate" in body
        assert "Far from the paper" in body and "Seed 002" in body  # the memory extension vs Fig. 11
        far = page.locator("li", has_text="Far from the paper").first
        far.scroll_into_view_if_needed()
        page.screenshot(path=str(ART / "planner-800-far.png"))
        # the 1x = baseline label of each role's chart sits above its plot area (no bar covers it)
        above = page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].map(d => {
            const lab = [...d.querySelectorAll('text')].find(t => t.textContent === '1× = baseline');
            const plot = d.querySelector('.bglayer rect, .nsewdrag');
            return lab && plot ? lab.getBoundingClientRect().bottom <= plot.getBoundingClientRect().top + 1 : null; })""")
        assert above and all(a is not False for a in above) and any(above), above
        with page.expect_download(timeout=180_000) as dl:
            page.get_by_role("button", name="Download PDF report").click()
        pdf_path = tmp_path / "plan.pdf"
        dl.value.save_as(str(pdf_path))
    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        texts = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
        image = doc[0].render(scale=1.5).to_pil()
    finally:
        doc.close()
    image.save(ART / "plan-report-page1.png")
    first = texts[0]
    assert "Summary: the answer per role" in first
    for needle in ("best device", "confidence", "ledger:", "vm disk trace", "my program", "memory-extension"):
        assert needle in first, needle
    assert "Provenance of the parameters" not in first and "Details" not in first.split("\n")[0]
    assert "Provenance of the parameters used" in texts[-1] or any("Appendix" in t for t in texts[1:])
    everything = "\n".join(texts)
    assert "upload-" not in everything and "/tmp" not in everything  # no server path, the user's names only
    assert "vm disk trace.csv" in everything  # the workloads table names the user's file
    # the page is drawn (not blank): a share of its pixels is ink
    gray = image.convert("L")
    dark = float((np.asarray(gray) < 128).mean())
    assert dark > 0.01, dark
