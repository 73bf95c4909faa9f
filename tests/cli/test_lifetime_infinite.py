"""`pcm-planner lifetime --monte-carlo` with an infinite lifetime: p10/p50/p90 and the mean are inf, as the
closed-form years are, in the CSV and the JSON (never blank, null or 0)."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest

from cli.main import main
from models.endurance.lifetime import _percentiles_with_inf, lifetime_monte_carlo

MC = ["--monte-carlo", "50", "--endurance-sigma", "0.25", "--seed", "1"]
INF_COLS = ("years", "days", "p10_years", "p50_years", "p90_years", "mean_years")


def _csv(capsys) -> list[dict]:
    return list(csv.DictReader(io.StringIO(capsys.readouterr().out)))


def _read_only_lackey(tmp_path) -> str:
    f = tmp_path / "ro.lackey"
    f.write_text("".join(f" L {0x1000 + 64 * i:x},8\n" for i in range(2000)))
    return str(f)


@pytest.mark.parametrize("sigma", [0.0, 0.25])
def test_the_model_gives_inf_percentiles_for_no_writes_and_for_a_lifetime_past_the_float_range(sigma):
    for rate in (0.0, 1e-294):  # nothing written; C E eta / W beyond ~1.8e308 s
        r = lifetime_monte_carlo(16e9, 1e7, rate, endurance_sigma=sigma, trials=20, seed=1)
        assert [r.closed_form_years, r.p10_years, r.p50_years, r.p90_years, r.mean_years] == [math.inf] * 5


def test_percentiles_with_inf_match_numpy_where_finite_and_are_inf_at_or_past_an_inf_sample():
    x = np.random.default_rng(3).lognormal(size=101)
    assert _percentiles_with_inf(x, [10, 50, 90]).tolist() == np.percentile(x, [10, 50, 90]).tolist()
    y = np.sort(x)
    y[-10:] = np.inf  # the longest 10 of 101 lifetimes past the float range (positions 91..100)
    got = _percentiles_with_inf(y, [10, 50, 90, 95])
    assert got[0] == pytest.approx(np.percentile(x, 10)) and got[1] == pytest.approx(np.percentile(x, 50))
    assert got[2] == pytest.approx(np.sort(x)[90]) and got[3] == math.inf  # 90th: the last finite one; 95th: inf
    assert not np.isnan(got).any()


def test_a_memory_trace_without_writes_never_wears_out_in_csv(capsys, tmp_path):
    assert main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--mem-trace", _read_only_lackey(tmp_path),
                 "--time-base", "1", *MC]) == 0
    (row,) = _csv(capsys)
    assert float(row["write_rate_mbps"]) == 0 and float(row["written_bytes"]) == 0
    assert [row[c] for c in INF_COLS] == ["inf"] * len(INF_COLS), row


def test_a_lifetime_past_the_float_range_prints_inf_in_csv_and_json(capsys):
    args = ["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--write-rate-mbps", "1e-300", "1000", *MC]
    assert main(args) == 0
    inf_row, finite_row = _csv(capsys)
    assert [inf_row[c] for c in INF_COLS] == ["inf"] * len(INF_COLS), inf_row
    assert all(math.isfinite(float(finite_row[c])) and float(finite_row[c]) > 0 for c in INF_COLS), finite_row
    assert main([*args, "--format", "json"]) == 0
    inf_row, finite_row = json.loads(capsys.readouterr().out)
    assert [inf_row[c] for c in INF_COLS] == ["inf"] * len(INF_COLS), inf_row  # not null (= missing)
    assert all(isinstance(finite_row[c], float) for c in INF_COLS), finite_row  # finite values stay numbers
    assert float(inf_row["p50_years"]) == math.inf  # "inf" reads back as infinity


def test_the_uncertainty_band_of_a_trace_without_writes_is_inf(capsys, tmp_path):
    assert main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--mem-trace", _read_only_lackey(tmp_path),
                 "--time-base", "1", "--uncertainty", "16"]) == 0
    (row,) = _csv(capsys)
    assert [row["p5"], row["p50"], row["p95"]] == ["inf"] * 3 and "never wears out" in row["band_of"], row
