"""Real-browser test of issue 37: the planner's economics and spec targets, end to end.

Upload a block trace and a memory trace (written by the test: a small MSR CSV with its header line and a small
valgrind-lackey trace), add a custom device with a price on the custom-device form, read the economic verdict
(the verdict table's "economic verdict" column and the Economics table), turn on Product targets and read the spec
targets, download the HTML report (and the PDF the page offers), open the HTML report in Chromium and check its
"Product targets" section draws the frontier chart (a plotly heatmap with log axes titled with their units).
Screenshots: tests/artifacts/econ-*.png.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tests.app.browser_kit import add_custom_device, browser_page, no_exception, upload_workloads
from tests.app.test_browser import ART, _wait_done

pytestmark = pytest.mark.browser

PRICE = 4.5  # [$/GB] the custom device's price typed on the form (a test input, not a catalogue value)


def _msr(path: Path, n: int = 800, seed: int = 5) -> None:
    """An MSR-Cambridge CSV with its header line: ``n`` requests, 55 % reads, 4-64 KiB, Zipf-like reuse."""
    rng = np.random.default_rng(seed)
    t = 128166372000000000 + np.cumsum(rng.integers(2_000, 200_000, n))  # FILETIME ticks [100 ns]
    op = np.where(rng.random(n) < 0.45, "Write", "Read")
    off = (rng.zipf(1.3, n) % 300) * (1 << 20) + rng.integers(0, 64, n) * 4096
    size = 4096 * rng.choice([1, 1, 2, 4, 16], n)
    rows = [f"{a},vm,0,{b},{c},{d},{e}" for a, b, c, d, e in zip(t, op, off, size, rng.integers(100, 20_000, n))]
    path.write_text("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n" + "\n".join(rows) + "\n")


def _lackey(path: Path, n: int = 5000, seed: int = 5) -> None:
    """A valgrind-lackey trace: ``n`` records, a hot set of 20 pages and a sweep over 120 more."""
    rng = np.random.default_rng(seed)
    lines = ["==77== Lackey, an example Valgrind tool", "==77== Command: ./econ-test"]
    for i in range(n):
        if i % 3 == 0:
            lines.append(f"I  {0x00400000 + 4 * (i % 256):08x},4")
            continue
        page = int(rng.integers(0, 20)) if rng.random() < 0.7 else 20 + (i // 3) % 120
        kind = "S" if rng.random() < 0.35 else "L"
        lines.append(f" {kind} {0x05000000 + page * 4096 + int(rng.integers(0, 512)) * 8:08x},8")
    path.write_text("\n".join(lines) + "\n")


def _table_after(page, heading: str) -> list[dict]:
    """The rows (header -> cell text) of the first static table after the subheader ``heading``."""
    return page.evaluate("""h => {
        const head = [...document.querySelectorAll('h3')].find(e => e.textContent.trim().startsWith(h));
        if (!head) return null;
        const t = [...document.querySelectorAll('table')].find(
            x => head.compareDocumentPosition(x) & Node.DOCUMENT_POSITION_FOLLOWING);
        if (!t) return null;
        const cols = [...t.querySelectorAll('thead th')].map(c => c.innerText.trim());
        return [...t.querySelectorAll('tbody tr')].map(r => {
            const cells = [...r.querySelectorAll('td, th')].map(c => c.innerText.trim());
            const off = cells.length - cols.length;
            return Object.fromEntries(cols.map((c, i) => [c, cells[i + off]])); }); }""", heading)


def test_economics_and_targets_end_to_end(server, tmp_path):
    import pypdfium2 as pdfium

    block, mem = tmp_path / "vm disk.csv", tmp_path / "my app.lackey"
    _msr(block)
    _lackey(mem)
    with browser_page(downloads=True, failure_png="econ-failure.png") as (ctx, page):
        page.goto(f"{server}/planner?devices=optane-dcpmm")
        _wait_done(page)
        no_exception(page)
        upload_workloads(page, [str(block), str(mem)], ["my app.lackey: read as a memory workload",
                                                        "vm disk.csv: read as a block workload"])
        no_exception(page)
        # a custom device with a price, on the custom-device form
        add_custom_device(page, "pcm-samsung-20nm", "priced-pcm", {"Price [$/GB]": str(PRICE)})
        page.locator("li", has_text="vm disk · priced-pcm").first.wait_for(timeout=180_000)
        _wait_done(page)
        no_exception(page)

        # the economic verdict beside each performance verdict (the Economics table: both columns, side by
        # side; the verdict table keeps to what fits an 800 px window), with the typed price
        econ = _table_after(page, "Economics")
        priced = [r for r in econ if r["device"] == "priced-pcm"]
        assert priced and all(r["price [$/GB]"].startswith(f"{PRICE:g}") for r in priced), priced
        assert any(re.search(r"(wins|faster|slower|loses|about as fast)", r["economic verdict"]) for r in priced)
        mine = [r for r in priced if r["verdict"] in ("wins", "loses", "about the same")]
        assert mine and all(r["economic verdict"] and r["economic verdict"] != "needs data" for r in mine), mine
        # each row's why, under the table: a lifetime shorter than the horizon says why
        page.get_by_text("Why: each row's capacity, cost and lifetime in words").first.click()
        why = page.locator('[data-testid="stExpander"]').filter(has_text="Why: each row's").first
        why.get_by_text("priced-pcm", exact=False).first.wait_for(timeout=30_000)
        lines = why.locator("li").all_inner_texts()
        short = [t for t in lines if "wears out" in t or "Why so short" in t]
        assert any("Why so short" in t for t in lines), lines
        page.get_by_text("Economics", exact=True).scroll_into_view_if_needed()
        page.screenshot(path=str(ART / "econ-economics.png"))
        assert short

        # Product targets: tick it, read the targets table and see the frontier on the page
        page.get_by_text("Product targets (inverse design)").first.click()
        page.get_by_text("Find the spec targets").first.click()
        page.get_by_text("Download spec targets (CSV)").wait_for(timeout=300_000)
        _wait_done(page, 300_000)
        no_exception(page)
        targets = _table_after(page, "Product targets")
        assert targets and {"spec", "won while", "device has", "reason"} <= set(targets[0]), targets
        assert any(r["device"] == "priced-pcm" and r["spec"] == "price" for r in targets), targets
        assert any(r["won while"] for r in targets), targets
        front = page.locator('.js-plotly-plot').filter(has=page.locator("g.hm, .heatmaplayer")).last
        front.wait_for(timeout=120_000)
        front.scroll_into_view_if_needed()
        page.screenshot(path=str(ART / "econ-targets-page.png"))

        # the reports, with the targets on
        with page.expect_download(timeout=300_000) as dl:
            page.get_by_role("button", name="Download HTML report").click()
        report = ART / "econ-report.html"
        dl.value.save_as(str(report))
        with page.expect_download(timeout=300_000) as dl:
            page.get_by_role("button", name="Download PDF report").click()
        pdf_path = tmp_path / "plan.pdf"
        dl.value.save_as(str(pdf_path))

        html = report.read_text()
        assert "priced-pcm" in html and "id='targets'" in html and "Economics" in html
        rp = ctx.new_page()
        rp.goto(report.as_uri())
        rp.wait_for_selector(".plotly .main-svg", timeout=60_000)
        rp.wait_for_timeout(1000)
        chart = rp.evaluate("""() => {
            const h = document.getElementById('targets');
            const p = [...document.querySelectorAll('.js-plotly-plot')].find(
                d => h.compareDocumentPosition(d) & Node.DOCUMENT_POSITION_FOLLOWING);
            if (!p) return null;
            p.scrollIntoView();
            return {heatmap: p.querySelectorAll('g.hm image, .heatmaplayer image').length,
                    xtitle: (p.querySelector('.xtitle') || {}).textContent || '',
                    ytitle: (p.querySelector('.ytitle') || {}).textContent || '',
                    xticks: [...p.querySelectorAll('.xtick text')].map(t => t.textContent),
                    legend: [...p.querySelectorAll('.legendtext')].map(t => t.textContent)}; }""")
        rp.screenshot(path=str(ART / "econ-report-frontier.png"))
        rp.close()
    assert chart and chart["heatmap"] >= 1, chart
    assert re.search(r"\[\S+\]$", chart["xtitle"]) and re.search(r"\[\S+\]$", chart["ytitle"]), chart
    assert len(chart["xticks"]) >= 2 and any("catalogue" in t for t in chart["legend"]), chart

    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        texts = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
        at = next((i for i, t in enumerate(texts) if "Product targets" in t), None)
        if at is not None:
            doc[at].render(scale=1.5).to_pil().save(ART / "econ-report-pdf-targets.png")
    finally:
        doc.close()
    assert at is not None and "priced-pcm" in texts[at], texts
