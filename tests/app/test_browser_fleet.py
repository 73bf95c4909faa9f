"""Real-browser test of the Fleet results page (issue 41 item 3): a results file made in the test by
``run_fleet`` over generated volumes is uploaded; the benefit chart Plotly drew holds each volume's benefit per
role · device (one point each), the summary table and the share above break-even read the file's share of
winning volumes, and the winning volumes are listed. Screenshot: tests/artifacts/fleet-results.png.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from tests.app.browser_kit import browser_page, no_exception
from tests.app.test_browser import ART, _wait_done

pytestmark = pytest.mark.browser

#: Per chart: (trace name, values, points drawn) of each trace.
_READ_CHART = """() => [...document.querySelectorAll('.js-plotly-plot')].map(p => p._fullData.map((t, i) => ({
    name: t.name, y: Array.from(t.y || []),
    drawn: p.querySelectorAll('.boxlayer .trace')[i] ? p.querySelectorAll('.boxlayer .trace')[i]
                                                         .querySelectorAll('.point').length : -1})))"""


def _results(tmp_path):
    """A fleet results file: 6 generated volumes of different locality, planned serially (Parquet path, rows)."""
    from models.planner.fleet import load_fleet_spec, run_fleet

    rng = np.random.default_rng(41)
    for i in range(6):
        span = 50 * 4 ** (i % 3)  # hot sets of 50, 200 and 800 blocks: the verdicts differ across volumes
        lines = [f"{k * 1000} 0 {int(rng.integers(0, span)) * 8} {int(rng.choice([8, 64]))} {int(rng.random() < 0.6)}"
                 for k in range(1500 + 500 * i)]
        (tmp_path / f"volume {i}.trace").write_text("\n".join(lines) + "\n")
    (tmp_path / "fleet.toml").write_text('traces = ["volume *.trace"]\ndevices = ["pcm-samsung-20nm"]\n'
                                         'roles = ["storage", "write-cache"]\n')
    out = tmp_path / "my fleet.parquet"
    df = run_fleet(load_fleet_spec(tmp_path / "fleet.toml"), out, scheduler="serial")
    return out, df


def test_fleet_results_page_reads_the_distribution_and_the_share(server, tmp_path):
    path, df = _results(tmp_path)
    with browser_page(width=1280, height=2000, failure_png="fleet-results-failure.png") as (_, page):
        page.goto(f"{server}/fleet")
        _wait_done(page)
        page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(path))
        page.get_by_text("Share of the fleet above break-even").wait_for(timeout=180_000)
        _wait_done(page)
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=180_000)
        no_exception(page)
        charts = page.evaluate(_READ_CHART)
        body = page.locator('[data-testid="stMain"]').inner_text()
        page.screenshot(path=str(ART / "fleet-results.png"), full_page=True)
    # the distribution: one box per role · device holding every volume's benefit, each volume a drawn point
    assert len(charts) == 1, charts
    got = {t["name"]: t for t in charts[0]}
    for (role, device), g in df.groupby(["role", "device"], sort=False):
        v = g["value"][np.isfinite(g["value"]) & (g["value"] > 0)]
        if not len(v):
            continue
        t = got[f"{role} · {device}"]
        assert sorted(t["y"]) == pytest.approx(sorted(v)), role
        assert t["drawn"] == len(v), (role, t["drawn"])
    # the share above break-even, in words, per role · device: the file's winning volumes over its volumes
    for (role, device), g in df.groupby(["role", "device"], sort=False):
        wins, n = int((g["verdict"] == "wins").sum()), g["trace"].nunique()
        m = re.search(rf"{re.escape(role)} · {re.escape(device)}: (\d+) of (\d+) volumes \(([\d.]+) %\)", body)
        assert m, (role, body[:2000])
        assert (int(m.group(1)), int(m.group(2))) == (wins, n)
        assert float(m.group(3)) == pytest.approx(100 * wins / n, abs=0.05)
    assert f"{df['trace'].nunique():,} volumes" in body
    winners = df[df["verdict"] == "wins"]["trace"].nunique()
    assert f"Volumes that win ({winners:,} of {df['trace'].nunique():,})" in body
    assert pd.read_parquet(path).equals(df)  # the file uploaded is the run's table
