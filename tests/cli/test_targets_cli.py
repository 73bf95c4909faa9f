"""``pcm-planner targets``: the columns of issue 37 item 6, the plan's options, --spec and --target."""

import io
import json

import pandas as pd

from tests import ROOT

FIX = ROOT / "tests" / "fixtures" / "plan"
COLUMNS = ["workload", "role", "device", "spec", "unit", "break_even", "held_at", "direction", "reason"]
#: The uncertainty band's columns, after the contract's (issue 37 item 5 remainder).
BAND = ["break_even_low", "break_even_high", "band_method"]


def test_targets_csv_columns_and_rows(run_cli):
    rc, out, err = run_cli("targets", "--block-trace", FIX / "small_msr.csv", "--name", "my msr",
                           "--device", "pcm-samsung-20nm", "--device", "optane-dcpmm")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    assert list(df.columns) == COLUMNS + BAND
    assert set(df.workload) >= {"my msr"}
    assert set(df.spec) == {"read_latency_ns", "write_latency_ns", "write_bandwidth_MBps",
                            "endurance_writes_per_cell", "price_usd_per_GB"}
    solved = df[df.break_even.notna()]
    assert set(solved.role) >= {"file-cache", "storage", "write-cache"}
    assert set(df.direction) == {"<=", ">="}


def test_targets_json_with_spec_and_target(run_cli):
    rc, out, err = run_cli("targets", "--block-trace", FIX / "small_msr.csv", "--device", "optane-dcpmm",
                           "--spec", "write_latency_ns", "--target", "1.2", "--format", "json")
    assert rc == 0, err
    rows = json.loads(out)
    assert rows and {r["spec"] for r in rows} == {"write_latency_ns"}
    assert any("at least 1.2×" in r["reason"] for r in rows)


def test_targets_bad_target_names_the_option(run_cli):
    for bad in ("0", "-1"):
        rc, out, err = run_cli("targets", "--block-trace", FIX / "small_msr.csv", "--device", "optane-dcpmm",
                               "--target", bad)
        assert rc == 2 and "--target" in err
    rc, out, err = run_cli("targets", "--device", "optane-dcpmm")
    assert rc == 2 and "--block-trace" in err


def test_targets_read_the_price_given(run_cli):
    """--price reaches the plan's economics: the price target of a device the catalogue does not price."""
    args = ("targets", "--block-trace", FIX / "small_msr.csv", "--device", "pcm-samsung-20nm",
            "--spec", "price_usd_per_GB")
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    before = pd.read_csv(io.StringIO(out))
    assert before.break_even.isna().all()  # no price: needs data
    rc, out, err = run_cli(*args, "--price", "pcm-samsung-20nm=4")
    assert rc == 0, err
    after = pd.read_csv(io.StringIO(out))
    assert after.break_even.notna().any() and (after.held_at == 4).all()


def test_plan_writes_the_targets_and_their_report_section(run_cli, tmp_path):
    t, h = tmp_path / "t.csv", tmp_path / "p.html"
    rc, out, err = run_cli("plan", "--block-trace", FIX / "small_msr.csv", "--device", "optane-dcpmm",
                           "--targets", t, "--html", h)
    assert rc == 0, err
    assert list(pd.read_csv(t).columns) == COLUMNS + BAND
    assert list(pd.read_csv(io.StringIO(out)).columns)[:11] == [
        "workload", "role", "device", "baseline", "metric", "unit", "value", "p5", "p95", "verdict", "reason"]
    assert "<h2 id='targets'>Product targets</h2>" in h.read_text()


def test_endurance_held_at_what_the_economics_uses(run_cli):
    """A device rated in drive writes per day (optane-dcpmm) is held at the endurance its lifetime is computed with,
    not "not stated" (the economics and the targets read the same number)."""
    from models.devices import get_device
    from models.planner.economics import device_endurance

    rc, out, err = run_cli("targets", "--block-trace", FIX / "small_msr.csv", "--device", "optane-dcpmm",
                           "--spec", "endurance_writes_per_cell")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    rows = df[df.break_even.notna()]
    assert len(rows)
    assert (rows.held_at == device_endurance(get_device("optane-dcpmm"))).all()
    assert rows.reason.str.contains("drive writes per day").all() and not rows.reason.str.contains("not state").any()


def test_targets_frontier_axes_reach_the_html_report(run_cli, tmp_path):
    h = tmp_path / "t.html"
    rc, out, err = run_cli("targets", "--block-trace", FIX / "small_msr.csv", "--device", "optane-dcpmm",
                           "--html", h, "--frontier-x", "price_usd_per_GB", "--frontier-y", "write_latency_ns")
    assert rc == 0, err
    text = h.read_text()
    assert "Frontier over price × write latency" in text and "range ends that favour the device" in text
    df = pd.read_csv(io.StringIO(out))
    assert list(df.columns) == COLUMNS + BAND


def test_frontier_options_are_checked_and_name_themselves(run_cli, tmp_path):
    h = str(tmp_path / "t.html")
    base = ("targets", "--block-trace", FIX / "small_msr.csv", "--device", "optane-dcpmm")
    rc, _, err = run_cli(*base, "--html", h, "--frontier-x", "read_latency_ns", "--frontier-y", "read_latency_ns")
    assert rc != 0 and "--frontier-x/--frontier-y" in err and "must differ" in err
    rc, _, err = run_cli(*base, "--html", h, "--frontier-y", "latency")
    assert rc != 0 and "--frontier-y" in err and "price_usd_per_GB" in err
    rc, _, err = run_cli(*base, "--frontier-x", "price_usd_per_GB")
    assert rc != 0 and "--frontier-x" in err and "--html" in err
    rc, _, err = run_cli("plan", "--block-trace", FIX / "small_msr.csv", "--device", "optane-dcpmm", "--html", h,
                         "--frontier-x", "price_usd_per_GB")
    assert rc != 0 and "--targets" in err


def test_plan_report_draws_the_chosen_frontier(run_cli, tmp_path):
    t, h = tmp_path / "t.csv", tmp_path / "p.html"
    rc, _, err = run_cli("plan", "--block-trace", FIX / "small_msr.csv", "--device", "optane-dcpmm", "--targets", t,
                         "--html", h, "--frontier-x", "write_bandwidth_MBps", "--frontier-y", "write_latency_ns")
    assert rc == 0, err
    assert "Frontier over write bandwidth × write latency" in h.read_text()
