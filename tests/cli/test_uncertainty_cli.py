"""--uncertainty N on the subcommands added in round 3 (issue 16): workload gets a sampled band;
commands whose outputs depend on no uncertain input say so, with the band equal to the point."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

BAND = ["band_of", "p5", "p50", "p95"]


def _csv(out: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(out))


@pytest.mark.parametrize("argv,column", [
    (["cache-sim", "synthetic:fin1", "--max-requests", "2000", "--policy", "lru", "--cache-blocks", "100,1000"],
     "hit_ratio"),
    (["mrc", "synthetic:fin1", "--max-requests", "2000", "--points", "4"], "hit_ratio"),
    (["trace-stats", "synthetic:fin1", "--max-requests", "2000", "--table", "reuse"], "blocks"),
    (["trace-stats", "synthetic:fin1", "--max-requests", "2000"], "value"),
    (["wear", "synthetic:fin1", "--max-requests", "2000", "--scheme", "sg,rr"], "life_rate"),
    (["write-reduction", "--synthetic", "40"], "bytes_written_per_page"),
    (["hdd", "validate", "--drive", "ibm18es"], "mean_predicted_ms"),
])
def test_commands_without_uncertain_inputs_say_so_and_band_the_point(run_cli, argv, column):
    rc, plain, err0 = run_cli(*argv)
    rc2, out, err = run_cli(*argv, "--uncertainty", "64")  # (--seed would change write-reduction's pages)
    assert rc == rc2 == 0, err0 + err
    a, b = _csv(plain), _csv(out)
    assert list(b.columns) == [*a.columns, *BAND]
    pd.testing.assert_frame_equal(a, b[a.columns])
    assert b["band_of"].str.startswith(f"{column} [").all()
    assert b["band_of"].str.contains("no uncertain input").all()
    v = pd.to_numeric(b[column], errors="coerce")
    for c in ("p5", "p50", "p95"):  # the point (to the CSV's 10 digits), numeric rows; NaN where the value is text
        assert np.allclose(b[c].to_numpy(float), v.to_numpy(float), rtol=1e-9, atol=0, equal_nan=True)


def test_trace_stats_json_with_uncertainty_is_the_statistic_table(run_cli):
    rc, out, err = run_cli("trace-stats", "synthetic:fin1", "--max-requests", "2000", "--uncertainty", "8",
                           "--format", "json")
    assert rc == 0, err
    df = pd.read_json(io.StringIO(out))
    assert list(df.columns) == ["statistic", "value", *BAND]
    assert df.set_index("statistic").loc["requests", "p50"] == 2000


def test_hdd_coverage_rejects_uncertainty(run_cli):
    rc, _, err = run_cli("hdd", "coverage", "--uncertainty", "8")
    assert rc == 2 and "validate" in err


def test_workload_band_is_sampled_and_reproducible(run_cli):
    argv = ["workload", "--personality", "varmail", "--config", "hdd", "--config", "pcm-dax", "--threads", "4"]
    rc, plain, _ = run_cli(*argv)
    rc2, out, err = run_cli(*argv, "--uncertainty", "16", "--seed", "2")
    assert rc == rc2 == 0, err
    a, b = _csv(plain), _csv(out)
    assert list(b.columns) == [*a.columns, *BAND]
    pd.testing.assert_frame_equal(a, b[a.columns])
    assert (b["band_of"] == "ops_per_s [ops/s]").all()
    assert (b["p5"] <= b["p50"]).all() and (b["p50"] <= b["p95"]).all()
    hdd = b.set_index("config").loc["hdd"]
    assert hdd.p5 < hdd.p95  # the HDD's write latency (derived, x/2..x2) spreads it
    assert run_cli(*argv, "--uncertainty", "16", "--seed", "2")[1] == out


def test_sensitivity_workload_tornado(run_cli):
    rc, out, err = run_cli("sensitivity", "workload", "--personality", "varmail", "--config", "hdd", "--threads", "4",
                           "--samples", "16")
    assert rc == 0, err
    df = _csv(out)
    assert list(df.columns) == ["parameter", "low", "high", "output_low", "output_high", "swing"]
    top = df.iloc[0]
    assert top.parameter == "device:hdd-7200.write_latency_ns"
    assert top.output_low > top.output_high  # a slower HDD write: fewer ops/s
    assert "re-evaluates the Filebench" in err
