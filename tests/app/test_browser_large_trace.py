"""Real-browser test of the trace explorer with an upload over the in-memory limit (issue 41 items 1 and 4): a
generated MSR CSV just over ``IN_MEMORY_MAX_BYTES`` is uploaded; the page says it is read in blocks and what it
does not draw, draws the statistics, both histograms and the LRU curve from the one streamed read, each with its
method (and sampling rate) beside it, its charts' axes titled with units, the log axes' decades labelled.
Screenshot: tests/artifacts/trace-explorer-large-upload.png.
"""

from __future__ import annotations

import numpy as np
import pytest

from models.planner.stream_plan import IN_MEMORY_MAX_BYTES
from tests.app.browser_kit import browser_page, no_exception
from tests.app.test_browser import ART, _wait_done, unreadable

pytestmark = pytest.mark.browser

#: Per chart: its axes' titles and types and the tick labels Plotly drew on each axis.
_READ_AXES = """() => [...document.querySelectorAll('.js-plotly-plot')].map(p => ({
    x: p._fullLayout.xaxis.title.text, y: p._fullLayout.yaxis.title.text,
    xtype: p._fullLayout.xaxis.type, ytype: p._fullLayout.yaxis.type,
    xvals: Array.from(p._fullLayout.xaxis.tickvals || []), yvals: Array.from(p._fullLayout.yaxis.tickvals || []),
    xticks: [...p.querySelectorAll('.xtick text')].map(t => t.textContent),
    yticks: [...p.querySelectorAll('.ytick text')].map(t => t.textContent)}))"""


def _big_msr(path) -> int:
    """An MSR Cambridge CSV just over the in-memory limit (~730 k requests: a hot set read with Zipf popularity
    and a wide cold range, 512 B - 64 KiB requests); its number of requests."""
    rng = np.random.default_rng(41)
    n = IN_MEMORY_MAX_BYTES // 46
    hot = rng.random(n) < 0.7
    blk = np.where(hot, rng.zipf(1.3, n) % 20_000, rng.integers(0, 4_000_000, n))
    size = rng.choice([512, 4096, 8192, 65536], n, p=[0.1, 0.6, 0.2, 0.1]).tolist()
    ts = (128166372003061629 + np.cumsum(rng.integers(1, 20_000, n))).tolist()
    op = np.where(rng.random(n) < 0.4, "Write", "Read").tolist()
    path.write_text("".join(f"{a},web,0,{b},{c},{d},1204\n" for a, b, c, d in zip(ts, op, (blk * 4096).tolist(),
                                                                                 size)))
    assert path.stat().st_size > IN_MEMORY_MAX_BYTES
    return n


def test_a_large_upload_draws_its_streamed_statistics_histograms_and_curve(own_server, tmp_path):
    server = own_server
    path = tmp_path / "web volume.csv"
    n = _big_msr(path)
    with browser_page(width=1400, height=3800, failure_png="trace-explorer-large-upload-failure.png") as (_, page):
        page.goto(f"{server}/trace-explorer?trace_source=upload")  # the trace source from the URL: no click
        _wait_done(page)
        uploader = page.locator('[data-testid="stFileUploader"]').filter(has_text="trace file") \
            .locator('input[type="file"]')
        uploader.wait_for(state="attached", timeout=60_000)
        _wait_done(page)
        uploader.set_input_files(str(path))
        page.get_by_text("read in blocks, never whole").wait_for(timeout=180_000)
        page.get_by_text("exact (one Mattson stack-distance pass), streamed from the file", exact=False) \
            .wait_for(timeout=300_000)
        _wait_done(page, 300_000)
        # the three charts drawn (Plotly lays them out after the script run ends: slower on a loaded machine)
        page.wait_for_function("[...document.querySelectorAll('.js-plotly-plot')]"
                               ".filter(p => p._fullLayout && p._fullLayout.xaxis).length >= 3", timeout=120_000)
        page.wait_for_timeout(1000)
        no_exception(page)
        axes = page.evaluate(_READ_AXES)
        body = page.locator('[data-testid="stMain"]').inner_text()
        bad = unreadable(page)
        page.screenshot(path=str(ART / "trace-explorer-large-upload.png"), full_page=True)
    assert "web volume.csv" in body and "over the in-memory limit" in body
    assert "Not drawn, as they need the trace in memory: the offset scatter" in body and "How sure? panel" in body
    assert f"{n:,}" in body  # the Requests metric: every request of the file
    assert "Per 4096-byte block: exact, streamed from the file" in body  # the statistics' method
    assert "Method: exact (every request counted, per request), sampling rate 1." in body
    assert "Method: exact (every block's accesses counted), sampling rate 1" in body
    assert [(a["x"], a["y"]) for a in axes] == [("request size ≥ [KiB]", "requests [-]"),
                                                ("accesses per block [-]", "blocks [-]"),
                                                ("LRU cache size [MiB]", "miss ratio [-]")], axes
    for a in axes:  # each log axis labels its decades: ticks at powers of ten, each drawn with its label
        for ax in ("x", "y"):
            if a[f"{ax}type"] == "log":
                vals = np.array(a[f"{ax}vals"], float)
                assert len(vals) >= 2 and np.allclose(np.log10(vals), np.round(np.log10(vals))), a
                assert len([t for t in a[f"{ax}ticks"] if t.strip()]) >= 2, a
    assert axes[2]["xtype"] == "log" and axes[1]["ytype"] == "log"
    assert bad == {}
