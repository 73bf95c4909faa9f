"""Real-browser test of the planner for *my* workload (issue 17).

Upload a small MSR trace with its header line and a lackey trace, add a custom device, get the
verdicts, reload the page (the custom device survives, through the link), download the HTML
report, open it in Chromium and check its charts are drawn in colour (not blank, not black).
Screenshots go to tests/artifacts/planner-*.png.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests import ROOT
from tests.app.browser_kit import add_custom_device, browser_page, no_exception, upload_workloads
from tests.app.test_browser import ART, _wait_done

pytestmark = pytest.mark.browser

FIX = ROOT / "tests" / "fixtures" / "plan"
UPLOADS = [str(FIX / "small_msr.csv"), str(FIX / "small_lackey.txt")]
WIN, LOSE = "rgb(46, 125, 50)", "rgb(198, 40, 40)"  # app/views/planner.py / reporting colours of a verdict


@pytest.fixture(scope="module")
def pg(server):
    with browser_page(downloads=True) as (_, page):
        yield page


def _verdict(page, who: str, timeout: int = 60_000) -> str:
    """The reason line of ``who`` ("workload · device") under its role's chart."""
    line = page.locator("li", has_text=who).first
    line.wait_for(timeout=timeout)
    return line.inner_text()


def _upload(page) -> None:
    upload_workloads(page, UPLOADS, ["small_lackey.txt: read as a memory workload"], timeout=120_000)


@contextmanager
def _screenshot_on_failure(page):
    """Save what the page showed (tests/artifacts/planner-failure.png) when the block fails."""
    try:
        yield
    except Exception:
        page.screenshot(path=str(ART / "planner-failure.png"), full_page=True)
        raise


def test_my_workload_custom_device_reload_and_report(server, pg):
    with _screenshot_on_failure(pg):
        seen = _my_workload_flow(server, pg)
    # the four outcomes: verdicts with reasons, the custom device in the link and back after a
    # reload, and a report whose bars are drawn in the verdict colours (never black or blank)
    assert re.match(r"small_msr · pcm-samsung-20nm: wins [\d,.]+×", seen["msr_verdict"])
    assert "dev=1." in seen["url"] and "my-pcm" in seen["devices_after_reload"]
    assert re.match(r"small_lackey · my-pcm: (wins|loses) ", seen["lackey_verdict_after_reload"])
    assert seen["report_fills"] and WIN in seen["report_fills"]
    assert not [f for f in seen["report_fills"] if f in ("rgb(0, 0, 0)", "none", "")], seen["report_fills"]


def _my_workload_flow(server, page) -> dict:
    """Drive the page through the issue's scenario (checking each step as it goes); what it saw."""
    page.goto(f"{server}/planner?plan_requests=2000&devices=pcm-samsung-20nm")
    _wait_done(page)
    no_exception(page)
    _upload(page)
    no_exception(page)
    # the MSR file (header line and all) is a block workload; its verdicts come with reasons
    page.get_by_text("small_msr.csv: read as a block workload").wait_for(timeout=10_000)
    msr_verdict = _verdict(page, "small_msr · pcm-samsung-20nm")

    # add a custom device from the planner page: a PCM with a slower write
    add_custom_device(page, "pcm-samsung-20nm", "my-pcm", {"Write latency": "900"})  # its unit select is beside it
    assert re.match(r"small_msr · my-pcm: (wins|loses|about the same) ", _verdict(page, "small_msr · my-pcm", 120_000))
    _wait_done(page)
    no_exception(page)
    assert "dev=1." in page.url, page.url  # the link carries the custom device
    page.screenshot(path=str(ART / "planner-verdicts.png"), full_page=True)

    # reload: a new session; the device comes back from the link (the uploads, like any file, do not)
    page.reload()
    _wait_done(page)
    no_exception(page)
    devices = page.locator('[data-testid="stMultiSelect"]').filter(has_text="Devices to compare")
    devices_text = devices.inner_text()
    assert "my-pcm" in devices_text, devices_text
    url = page.url
    _upload(page)
    lackey_verdict = _verdict(page, "small_lackey · my-pcm")
    page.screenshot(path=str(ART / "planner-after-reload.png"), full_page=True)

    # the HTML report: self-contained, its charts drawn in colour
    with page.expect_download(timeout=120_000) as dl:
        page.get_by_role("button", name="Download HTML report").click()
    report = ART / "planner-report.html"
    dl.value.save_as(str(report))
    html = report.read_text()
    assert "my-pcm" in html and "small_msr" in html and "<script" in html
    rp = page.context.new_page()
    rp.goto(Path(report).as_uri())
    rp.wait_for_selector(".plotly .main-svg", timeout=60_000)
    rp.wait_for_timeout(1000)
    fills = rp.eval_on_selector_all(".plotly g.trace.bars path",
                                    "els => els.map(e => getComputedStyle(e).fill)")
    rp.screenshot(path=str(ART / "planner-report.png"), full_page=True)
    rp.close()
    return {"msr_verdict": msr_verdict, "url": url, "devices_after_reload": devices_text,
            "lackey_verdict_after_reload": lackey_verdict, "report_fills": fills}
