"""pcm-planner sensitivity MODEL and --uncertainty N on the model subcommands (issue 16 contract)."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

TORNADO = ["parameter", "low", "high", "output_low", "output_high", "swing"]


def _csv(out: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(out))


@pytest.mark.parametrize("argv", [
    ["breakeven", "--device", "optane-dcpmm"],
    ["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--write-rate-mbps", "1000"],
    ["hdd"],
    ["memext", "sqlite", "--device", "pcm", "--max-requests", "50000"],
    ["amat", "sqlite", "--memory-frac", "0.25", "--page-sizes", "4k", "--max-requests", "50000"],
    ["writecache", "synthetic:fin1", "--cache-mb", "4", "--max-requests", "3000"],
])
def test_tornado_table_contract(run_cli, argv):
    rc, out, err = run_cli("sensitivity", *argv, "--samples", "64")
    assert rc == 0, err
    df = _csv(out)
    assert list(df.columns) == TORNADO
    assert len(df) >= 1 and (np.diff(df["swing"]) <= 0).all()
    assert np.allclose(df["swing"], (df["output_high"] - df["output_low"]).abs())
    assert "point" in err and "p5" in err and "decides" in err


def test_sobol_table_and_seed(run_cli):
    args = ["sensitivity", "lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--write-rate-mbps", "1000",
            "--samples", "256", "--sobol", "--seed", "7"]
    rc, out, _ = run_cli(*args)
    assert rc == 0
    tor_text, sobol_text = out.split("\n\n")  # two CSV blocks: the tornado, a blank line, the indices
    tor = _csv(tor_text)
    assert list(tor.columns) == TORNADO and len(tor) >= 1
    plain = run_cli(*[a for a in args if a != "--sobol"])[1]
    pd.testing.assert_frame_equal(tor, _csv(plain))  # the same tornado as without --sobol
    df = _csv(sobol_text)
    assert list(df.columns) == ["parameter", "S1", "ST"]
    s = df.set_index("parameter")
    assert s.loc["capacity_bytes", "ST"] == 0  # held as given: explains nothing
    assert s["ST"].idxmax() == "lifetime.wear_efficiency"
    assert run_cli(*args)[1] == out  # same seed, same numbers


def test_writecache_sobol_leaves_resimulated_inputs_empty(run_cli):
    rc, out, err = run_cli("sensitivity", "writecache", "synthetic:fin1", "--cache-mb", "4", "--max-requests", "3000",
                           "--samples", "64", "--sobol", "--format", "json")
    assert rc == 0, err
    obj = json.loads(out)
    assert set(obj) == {"tornado", "sobol"}
    assert set(obj["tornado"][0]) == set(TORNADO)
    assert any(r["parameter"] == "write_cache.destage_threshold" for r in obj["tornado"])  # re-simulated ends
    rows = {r["parameter"]: r for r in obj["sobol"]}
    assert rows["write_cache.destage_threshold"]["ST"] is None
    assert rows["device:hdd-7200.avg_seek_ns"]["ST"] > 0
    assert "re-runs the simulation" in err


@pytest.mark.parametrize("argv,band_of", [
    (["breakeven", "--device", "optane-dcpmm", "--device", "hdd-7200"], "n_star [-]"),
    (["breakeven", "--t-ns", "100", "--T-ns", "130", "--Tm-ns", "160"], "n_star [-]"),
    (["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--write-rate-mbps", "1000", "100"], "years [years]"),
    (["amat", "sqlite", "--memory-frac", "0.25", "--page-sizes", "4k,64k", "--max-requests", "50000"], "amat_ns [ns]"),
    (["memext", "sqlite", "--device", "pcm", "flash", "--max-requests", "50000"], "slowdown [x]"),
])
def test_uncertainty_adds_band_columns(run_cli, argv, band_of):
    rc, plain, _ = run_cli(*argv)
    rc2, out, err = run_cli(*argv, "--uncertainty", "128", "--seed", "3")
    assert rc == rc2 == 0, err
    a, b = _csv(plain), _csv(out)
    assert list(b.columns) == [*a.columns, "band_of", "p5", "p50", "p95"]
    pd.testing.assert_frame_equal(a, b[a.columns])  # the model's own columns are unchanged
    assert (b["band_of"] == band_of).all()
    assert (b["p5"] <= b["p50"]).all() and (b["p50"] <= b["p95"]).all()


def test_writecache_band_skips_the_no_cache_row(run_cli):
    rc, out, err = run_cli("writecache", "synthetic:fin1", "--cache-mb", "4", "--policy", "halo", "--policy", "none",
                           "--max-requests", "3000", "--uncertainty", "64")
    assert rc == 0, err
    df = _csv(out).set_index("policy")
    assert df.loc["halo", "band_of"] == "speedup [x]" and df.loc["halo", "p5"] <= df.loc["halo", "p95"]
    assert np.isnan(df.loc["none", "p5"])


def test_bad_uncertainty_options_are_messages(run_cli, capsys):
    from cli.main import main

    with pytest.raises(SystemExit):
        main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--write-rate-mbps", "1000",
              "--uncertainty", "0"])
    assert "samples must be within" in capsys.readouterr().err
    rc, _, err = run_cli("sensitivity", "hdd", "--device", "dram")
    assert rc == 2 and "HDD" in err
    rc, _, err = run_cli("sensitivity", "writecache", "synthetic:fin1", "--cache-mb", "4", "--policy", "none",
                         "--max-requests", "3000")
    assert rc == 2 and "--policy none" in err


@pytest.mark.parametrize("argv, message", [
    (["breakeven", "--t-ns", "1e29", "--T-ns", "130", "--Tm-ns", "160"], "t_ns: Input should be less than"),
    (["breakeven", "--t-ns", "100"], "give all of --t-ns, --T-ns and --Tm-ns"),
    (["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--write-rate-mbps", "1000", "--wear-efficiency", "5"],
     "wear_efficiency: Input should be less than or equal to 1"),
    (["lifetime", "--capacity-gb", "-1", "--endurance", "1e7", "--write-rate-mbps", "1000"],
     "--capacity-gb must be a positive finite number"),
])
def test_sensitivity_refuses_what_its_model_refuses(run_cli, argv, message):
    """Issue 42 item 13: ``sensitivity breakeven --t-ns 1e29`` printed inf/nan where ``breakeven`` refuses."""
    rc, out, err = run_cli(*argv)
    assert rc == 2 and message in err, err
    rc, out, err = run_cli("sensitivity", *argv, "--samples", "20")
    assert rc == 2 and message in err and not out, err


def test_a_capacity_beyond_a_finite_byte_count_is_named_by_its_option(run_cli):
    """Issue 42 item 15: ``--capacity-gb 1e300`` said "capacity_bytes must be finite (got NaN or infinity)"."""
    rc, _, err = run_cli("lifetime", "--capacity-gb", "1e300", "--endurance", "1e7", "--write-rate-mbps", "1000")
    assert rc == 2 and "--capacity-gb must be a positive finite number (got 1e+300)" in err, err
