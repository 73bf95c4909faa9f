"""Uncertainty bands of the spec targets (issue 37 item 5 remainder): the band holds the point, each end is a root
of the row at its corner, collapsed ranges give the point, no range says so (never 0)."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.devices import get_device
from models.planner.economics import role_lifetime_years
from models.planner.plan import plan, workload_from_path
from models.planner.retime import Retimer, role_retimers
from models.planner.target_bands import (
    BAND_COLUMNS,
    band_ranges,
    collapsed,
    corner_case,
    frontier_band,
    target_band,
)
from models.planner.targets import LOG10_XTOL, PERFORMANCE_SPECS, SPECS, break_even, targets_of_plan
from models.provenance import param
from tests import ROOT

FIX = ROOT / "tests" / "fixtures" / "plan"
DEVICES = ("pcm-samsung-20nm", "optane-dcpmm", "nvme-tlc", "nand-flash", "pcm-memext")


def _msr(path, n, write_share, seed):
    rng = np.random.default_rng(seed)
    times = 128166372000000000 + np.cumsum(rng.integers(1, 20_000, n))
    ops = np.where(rng.random(n) < write_share, "Write", "Read")
    blocks = rng.zipf(1.3, n) % 4096
    pd.DataFrame({"Timestamp": times, "Hostname": "t", "DiskNumber": 0, "Type": ops, "Offset": blocks * 4096,
                  "Size": 4096 * rng.integers(1, 5, n), "ResponseTime": 100}).to_csv(path, index=False)
    return workload_from_path(path, name="gen")


@pytest.fixture(scope="module")
def fixture_plan():
    wls = [workload_from_path(FIX / "small_msr.csv"), workload_from_path(FIX / "small_lackey.txt")]
    res = plan(wls, ["pcm-samsung-20nm", "optane-dcpmm"], memory_refs=None)
    return res, targets_of_plan(res, memory_refs=None)


def _contains(df):
    ok = df.break_even.notna() & df.break_even_low.notna()
    assert (df.break_even_low[ok] <= df.break_even[ok]).all()
    ok = df.break_even.notna() & df.break_even_high.notna()
    assert (df.break_even_high[ok] >= df.break_even[ok]).all()


def test_band_columns_follow_the_contract_and_never_read_zero(fixture_plan):
    _, tres = fixture_plan
    df = tres.to_frame()
    assert list(df.columns)[-3:] == BAND_COLUMNS
    assert not (df[["break_even_low", "break_even_high"]] == 0).any().any()
    assert (df.band_method.str.len() > 0).all()
    # no break-even: the band is unknown, never a number
    none = df[df.break_even.isna()]
    assert none.break_even_low.isna().all() and none.break_even_high.isna().all()
    assert none.band_method.str.startswith(("unknown", "not sampled")).all()
    _contains(df)
    banded = df[df.break_even_low.notna() & df.break_even_high.notna()]
    assert len(banded) and (banded.break_even_high > banded.break_even_low).any()  # the ranges do move something
    assert set(banded.spec) >= {"read_latency_ns", "write_latency_ns", "endurance_writes_per_cell"}


def _row_of(res, rt):
    return next(r for r in res.rows if (r["workload"], r["role"], r["device"]) == (rt.workload, rt.role,
                                                                                     rt.device.name))


def _crosses(rt, corner, spec, x):
    """The corner's value at x x 10**(-+2 tol) lies on both sides of its target (x is a root within tolerance)."""
    vs = [corner.rt.device.with_updates(**{spec: x * 10.0 ** (s * 2 * LOG10_XTOL)}) for s in (-1, 1)]
    g = np.log(np.asarray(rt.values(vs), float) / corner.target)
    return g[0] * g[1] <= 0


def test_each_band_end_is_the_break_even_at_its_corner(fixture_plan):
    res, tres = fixture_plan
    checked = 0
    for rt in tres.retimers:
        for spec in PERFORMANCE_SPECS:
            if spec not in rt.uses or rt.why_not:
                continue
            x, _ = break_even(rt, spec)
            b = target_band(rt, spec, x)
            if not math.isfinite(x) or not b["band_method"].startswith("corners"):
                continue
            ranges = band_ranges(rt, spec)
            fav_end = "break_even_high" if SPECS[spec][1] == "<=" else "break_even_low"
            unfav_end = "break_even_low" if fav_end == "break_even_high" else "break_even_high"
            for side, end in (("favourable", fav_end), ("unfavourable", unfav_end)):
                if math.isfinite(b[end]) and b[end] != x:
                    c = corner_case(rt, ranges, side)
                    assert _crosses(rt, c, spec, b[end]), (rt.role, rt.device.name, spec, side)
                    checked += 1
    assert checked >= 4


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(300, 1500), write_share=st.floats(0.1, 0.9), seed=st.integers(0, 10_000),
       dev=st.sampled_from(DEVICES))
def test_band_contains_the_point_and_collapses_to_it(tmp_path, n, write_share, seed, dev):
    wl = _msr(tmp_path / f"g{seed}.csv", n, write_share, seed)
    res = plan([wl], [dev])
    for rt in role_retimers(wl, [get_device(dev)], None):
        row = _row_of(res, rt)
        for spec in SPECS:
            if spec in PERFORMANCE_SPECS:
                x = break_even(rt, spec)[0]
            else:
                from models.planner.targets import economic_break_even

                x = economic_break_even(row, rt.device, spec, horizon_years=5.0)[0]
            b = target_band(rt, spec, x, plan_row=row, horizon_years=5.0)
            if not math.isfinite(x):
                assert b["band_method"].startswith("unknown") and math.isnan(b["break_even_low"])
                continue
            for end in ("break_even_low", "break_even_high"):
                assert b[end] != 0
            if math.isfinite(b["break_even_low"]):
                assert b["break_even_low"] <= x
            if math.isfinite(b["break_even_high"]):
                assert b["break_even_high"] >= x
            ranges = band_ranges(rt, spec)
            if ranges:
                c = target_band(rt, spec, x, plan_row=row, horizon_years=5.0, ranges=collapsed(ranges))
                assert (c["break_even_low"], c["break_even_high"]) == (x, x), (rt.role, spec)
                assert c["band_method"].startswith("no range")


def test_endurance_band_is_the_wear_efficiency_range(fixture_plan):
    res, tres = fixture_plan
    df = tres.to_frame()
    p = param("lifetime.wear_efficiency")
    r = df[(df.spec == "endurance_writes_per_cell") & df.break_even.notna()].iloc[0]
    prow = next(x for x in res.rows if (x["workload"], x["role"], x["device"]) == (r.workload, r.role, r.device))
    per = [float(role_lifetime_years(prow["capacity_GB"], 1.0, prow["bytes_written_per_s"], wear_efficiency=e))
           for e in (p.provenance.high, p.provenance.low)]
    h = res.horizon_years if math.isfinite(res.horizon_years) else param("planner.horizon_years").value
    assert r.break_even_low == pytest.approx(h / per[0], rel=1e-12)
    assert r.break_even_high == pytest.approx(h / per[1], rel=1e-12)
    assert "wear-leveling efficiency" in r.band_method


def test_baseline_range_as_a_target_scale_equals_the_plan_with_that_baseline():
    """A slower baseline re-timed through the row's timing = the plan run against that baseline."""
    wl = workload_from_path(FIX / "small_msr.csv")
    dev = get_device("optane-dcpmm")
    base = get_device("sata-ssd")
    slow = base.with_updates(name="ssd-slow", read_latency_ns=base.read_latency_ns * 1.2,
                             write_latency_ns=base.write_latency_ns * 1.2)
    rt = next(r for r in role_retimers(wl, [dev], base) if r.role == "storage")
    want = plan([wl], [dev], baseline=slow).to_frame()
    v = float(want[want.role == "storage"].value.iloc[0])
    assert rt.value(dev) / rt.value(slow) == pytest.approx(v, rel=1e-9)


def test_no_range_is_not_sampled_and_an_unknown_point_is_unknown():
    d = get_device("pcm-memext")
    rt = Retimer("w", "demo", d, lambda vs: np.array([1000.0 / v.write_latency_ns for v in vs]), ("write_latency_ns",))
    assert target_band(rt, "write_latency_ns", 1000.0)["band_method"].startswith("not sampled")
    assert math.isnan(target_band(rt, "write_latency_ns", 1000.0)["break_even_low"])
    u = target_band(rt, "write_latency_ns", math.nan)
    assert u["band_method"].startswith("unknown") and math.isnan(u["break_even_high"])


def test_frontier_band_brackets_the_frontier_and_collapses_away(fixture_plan):
    res, tres = fixture_plan
    rt = next(r for r in tres.retimers if r.role == "storage")
    xs = np.geomspace(50, 1e6, 9)
    ys = np.geomspace(50, 1e6, 9)
    from models.planner.targets import frontier_grid

    mid = frontier_grid(rt, "write_latency_ns", "read_latency_ns", xs, ys)
    fav, unfav, words = frontier_band(rt, "write_latency_ns", "read_latency_ns", xs, ys)
    # what the point wins the favourable corner wins; what the unfavourable corner wins the point wins
    assert (fav.wins.to_numpy(bool) >= mid.wins.to_numpy(bool)).all()
    assert (mid.wins.to_numpy(bool) >= unfav.wins.to_numpy(bool)).all()
    assert words
    assert frontier_band(rt, "write_latency_ns", "read_latency_ns", xs, ys,
                         ranges=collapsed(band_ranges(rt, ("write_latency_ns", "read_latency_ns")))) is None
