"""Real-browser test: open every page in Debian chromium via Playwright (the server: ``tests/app/conftest.py``).

Fails on any Streamlit exception box, downloads a CSV, saves screenshots to tests/artifacts/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.registry import PAGES, page_path
from tests import ROOT

pytestmark = pytest.mark.browser

ART = ROOT / "tests" / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="module")
def page(server):
    from playwright.sync_api import sync_playwright

    ART.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        ctx = browser.new_context(viewport={"width": 1400, "height": 3200}, accept_downloads=True)
        pg = ctx.new_page()
        yield pg
        browser.close()


def _wait_done(pg, timeout_ms: int = 180_000) -> None:
    """Wait until the script finished and drew a title or an exception box."""
    pg.wait_for_function(
        "() => { const a = document.querySelector('[data-testid=\"stApp\"]');"
        " const drawn = document.querySelector('h1') || document.querySelector('[data-testid=\"stException\"]');"
        " return a && drawn && a.getAttribute('data-test-script-state') === 'notRunning'; }",
        timeout=timeout_ms,
    )


#: What a reader cannot read, found in the drawn page: tick labels Plotly turned by 90° (too many or too long for
#: the chart's width) and labels Streamlit cut with "…" (a checkbox or metric label wider than its column).
_UNREADABLE = """() => {
  const turned = [...document.querySelectorAll('.plotly .xtick text')].filter(t =>
      /rotate\\((-?9\\d)/.test(t.getAttribute('transform') || '')).map(t => t.textContent);
  const cut = [...document.querySelectorAll('[data-testid="stWidgetLabel"] [data-testid="stMarkdownContainer"],'
      + '[data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"]')]
      .filter(e => e.textContent && e.scrollWidth > e.clientWidth + 1).map(e => e.textContent);
  return {turned, cut};
}"""


def unreadable(pg) -> dict:
    """Tick labels turned by 90° and labels cut with "…" on the page drawn in ``pg`` (:data:`_UNREADABLE`)."""
    got = pg.evaluate(_UNREADABLE)
    return {k: v for k, v in got.items() if v}


@pytest.mark.parametrize("url_path", [p[4] for p in PAGES])
def test_every_page_renders_in_browser(server, page, url_path):
    page.goto(f"{server}/{page_path(url_path)}")
    _wait_done(page)
    page.wait_for_timeout(500)
    exc = page.locator('[data-testid="stException"]')
    assert exc.count() == 0, exc.first.inner_text()
    assert page.get_by_text("Page not found").count() == 0, "the page's link opens another page"
    assert unreadable(page) == {}
    page.screenshot(path=str(ART / f"{url_path}.png"), full_page=True)


def test_home_opens_at_its_own_url_too(server, page):
    """"/home" (the page's url key typed by hand) opens the home page, not "Page not found"; no nav entry is added."""
    page.goto(f"{server}/home")
    _wait_done(page)
    page.wait_for_timeout(500)
    assert page.get_by_text("Page not found").count() == 0
    assert page.locator("h1").first.inner_text() == "PCM Planner"  # app/views/home.py's title
    links = page.locator('[data-testid="stSidebarNavLink"]')
    assert links.count() == len(PAGES)


def test_break_even_csv_download_and_share_link(server, page):
    page.goto(f"{server}/break-even?mode=manual&t_ns=10&T_ns=20&Tm_ns=40")
    _wait_done(page)
    assert "3" in page.locator('[data-testid="stMetricValue"]').nth(3).inner_text()
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download CSV").first.click()
    path = dl.value.path()
    text = Path(path).read_text()
    assert text.splitlines()[0] == "accesses,Tc_cached_ns,Tx_uncached_ns,caching_pays"
    assert len(text.splitlines()) > 3


def test_malformed_upload_names_the_line_and_keeps_the_page(server, page, tmp_path):
    bad = tmp_path / "bad.trace"
    good_lines = "".join(f"{i * 1000} 0 {i * 8} 8 1\n" for i in range(20))
    bad.write_text(good_lines + "21000 0 abc 8 1\n")
    page.goto(f"{server}/trace-explorer")
    _wait_done(page)
    page.get_by_text("Upload a file").first.click(timeout=60_000)  # first render under a loaded CI: slow
    uploader = page.locator('[data-testid="stFileUploader"]').filter(has_text="trace file").locator('input[type="file"]')
    uploader.wait_for(state="attached", timeout=60_000)
    _wait_done(page)
    uploader.set_input_files(str(bad))
    page.wait_for_selector('[data-testid="stAlertContentError"]', timeout=60_000)
    _wait_done(page)
    text = page.locator('[data-testid="stAlertContentError"]').first.inner_text()
    assert "line 21" in text, text
    assert page.locator('[data-testid="stException"]').count() == 0
    page.screenshot(path=str(ART / "trace-explorer-bad-upload.png"), full_page=True)
    good = tmp_path / "good.trace"
    good.write_text(good_lines)
    uploader.set_input_files(str(good))
    # the rerun replaces the error by the trace's statistics
    page.locator('[data-testid="stAlertContentError"]').first.wait_for(state="detached", timeout=60_000)
    _wait_done(page)
    page.locator('[data-testid="stDataFrame"]').first.wait_for(timeout=60_000)  # statistics table drawn
    assert page.locator('[data-testid="stException"]').count() == 0
    errs = page.locator('[data-testid="stAlertContentError"]')
    assert errs.count() == 0, errs.first.inner_text()


def _goto_via_sidebar(pg, link: str, title: str) -> None:
    """Navigate inside the session (not a reload) and wait for the page's title."""
    pg.locator('[data-testid="stSidebarNav"]').get_by_text(link, exact=True).first.click()
    pg.locator("h1", has_text=title).first.wait_for(timeout=60_000)
    _wait_done(pg)
    pg.wait_for_timeout(500)


def test_inputs_survive_navigating_away_and_back(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/break-even?mode=manual&t_ns=10&T_ns=20&Tm_ns=40&max_accesses=20")
    _wait_done(page)
    # polled, not read once: on a loaded machine the first read came before the metrics were redrawn
    expect(page.locator('[data-testid="stMetricValue"]').nth(3)).to_have_text("3", timeout=30_000)  # defaults: 2
    _goto_via_sidebar(page, "Home", "PCM Planner")
    _goto_via_sidebar(page, "File-cache break-even", "File-cache break-even")
    assert page.locator('[data-testid="stException"]').count() == 0
    expect(page.locator('[data-testid="stMetricValue"]').nth(3)).to_have_text("3", timeout=30_000)
    slider = page.locator('[data-testid="stSlider"]').filter(has_text="Accesses shown")
    assert slider.locator('[data-testid="stSliderThumbValue"]').inner_text().strip() == "20"
    assert "t_ns=10" in page.url  # the URL is rewritten from the restored inputs


def test_link_value_outside_the_widget_range_warns(server, page):
    page.goto(f"{server}/break-even?max_accesses=500&block_size_bytes=1000")
    _wait_done(page)
    assert page.locator('[data-testid="stException"]').count() == 0
    warn = page.locator('[data-testid="stAlertContentWarning"]').first.inner_text()
    assert "max_accesses" in warn and "block_size_bytes" in warn, warn


@pytest.mark.parametrize("url_path", ["workloads", "hdd-model", "trace-explorer", "write-reduction"])
def test_narrow_window_cuts_no_label_and_turns_no_tick(server, page, url_path):
    """At 1024 px (the sidebar open) the narrowest columns cut "Apply the paper's Table 1 configuration", "fit RMS
    error [ms]" and "MFWR metadata (bitmap, words) written to NVM" with "…", and the request-size bins stood at 90°."""
    ctx = page.context.browser.new_context(viewport={"width": 1024, "height": 2400})  # the module's browser
    try:
        pg = ctx.new_page()
        pg.goto(f"{server}/{page_path(url_path)}")
        _wait_done(pg)
        pg.wait_for_timeout(800)
        assert unreadable(pg) == {}
    finally:
        ctx.close()
