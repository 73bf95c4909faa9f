"""Spec targets (issue 37 item 5): the re-timed rows equal the plan, the break-even is a root of the plan, monotone."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.devices import get_device
from models.planner.plan import plan, workload_from_path
from models.planner.retime import role_retimers
from models.planner.target_bands import BAND_COLUMNS
from models.planner.targets import (
    LOG10_XTOL,
    PERFORMANCE_SPECS,
    SPECS,
    TARGET_COLUMNS,
    economic_break_even,
    frontier_grid,
    plan_targets,
    targets_of_plan,
)
from tests import ROOT

FIX = ROOT / "tests" / "fixtures" / "plan"
#: Devices the properties draw from: non-volatile, not replayed with the HDD model.
DEVICES = ("pcm-samsung-20nm", "optane-dcpmm", "pcm-psd-micron", "nvme-tlc", "sata-ssd", "nand-flash", "pcm-memext")
BLOCK_ROLES = ("file-cache", "storage", "write-cache")


def _msr(path, n, write_share, seed, size_kib):
    """A small MSR-format block trace (``n`` requests, ``write_share`` writes) at ``path``."""
    rng = np.random.default_rng(seed)
    t0 = 128166372000000000
    times = t0 + np.cumsum(rng.integers(1, 20_000, n))  # 100 ns ticks
    ops = np.where(rng.random(n) < write_share, "Write", "Read")
    blocks = rng.zipf(1.3, n) % 4096
    sizes = size_kib * 1024 * rng.integers(1, 5, n)
    pd.DataFrame({"Timestamp": times, "Hostname": "t", "DiskNumber": 0, "Type": ops, "Offset": blocks * 4096,
                  "Size": sizes, "ResponseTime": 100}).to_csv(path, index=False)
    return workload_from_path(path, name="gen")


def _value(wl, dev, role):
    df = plan([wl], [dev], memory_refs=None).to_frame()
    return float(df[(df.role == role) & (df.workload == wl.name)].value.iloc[0])


@pytest.mark.parametrize("source", [FIX / "small_msr.csv", FIX / "small_lackey.txt", FIX / "tiny.f",
                                    FIX / "small_fio.json"])
def test_retimer_at_the_devices_own_specs_is_the_plan(source):
    wl = workload_from_path(source)
    devs = [get_device(n) for n in ("pcm-samsung-20nm", "optane-dcpmm", "nvme-tlc", "hdd-7200")]
    df = plan([wl], devs, memory_refs=None).to_frame()
    rts = role_retimers(wl, devs, None, memory_refs=None)
    assert rts
    for rt in rts:
        pv = df[(df.role == rt.role) & (df.device == rt.device.name)].value.iloc[0]
        assert rt.value(rt.device) == pytest.approx(pv, rel=1e-9), (rt.role, rt.device.name)


@pytest.fixture(scope="module")
def fixture_targets():
    wls = [workload_from_path(FIX / "small_msr.csv"), workload_from_path(FIX / "small_lackey.txt")]
    return wls, plan_targets(wls, ["pcm-samsung-20nm", "optane-dcpmm", "hdd-7200"], memory_refs=None)


def test_every_row_has_a_break_even_or_says_why(fixture_targets):
    _, res = fixture_targets
    df = res.to_frame()
    assert list(df.columns) == TARGET_COLUMNS + BAND_COLUMNS
    assert set(df.spec) == set(SPECS)
    assert set(df.direction) <= {"<=", ">="}
    assert (df.reason.str.len() > 0).all()
    found = df[df.break_even.notna()]
    assert len(found) and (found.break_even > 0).all()
    assert found.reason.str.contains(r" (?:<=|>=) ").all()
    words = ("at any ", "never, even at ", "not applicable: ", "needs data: ", "not modelled: ", "unknown: ",
             "no break-even price: ")
    assert df[df.break_even.isna()].reason.map(lambda r: r.startswith(words)).all()
    # a spec the role's model does not read: at any value (the file cache reads only the read path)
    fc = df[(df.role == "file-cache") & (df.spec == "write_latency_ns") & (df.device != "hdd-7200")]
    assert fc.reason.str.startswith("at any write latency").all()
    # the file cache's baseline is hdd-7200: the device is the baseline
    assert df[(df.role == "file-cache") & (df.device == "hdd-7200")].reason.str.contains("baseline").all()
    # endurance and price: from the economics, or why not -- never invented
    econ = df[df.spec.isin(["endurance_writes_per_cell", "price_usd_per_GB"])]
    assert econ.break_even.notna().any()
    assert econ[econ.break_even.notna()].reason.str.startswith(("lasts the ", "costs no more ")).all()
    assert econ[econ.break_even.isna()].reason.str.startswith(
        ("needs data", "not applicable", "at any ", "unknown", "no break-even price")).all()
    # a device without a price: the price target says so (pcm-samsung-20nm has none in the catalogue)
    assert econ[(econ.device == "pcm-samsung-20nm") & (econ.spec == "price_usd_per_GB")
                & econ.break_even.isna()].reason.str.startswith(("needs data: price", "not applicable")).all()


def test_the_break_even_is_a_root_of_the_plan_on_the_fixtures(fixture_targets):
    wls, res = fixture_targets
    df = res.to_frame()
    rows = df[df.break_even.notna() & df.spec.isin(PERFORMANCE_SPECS)]
    by = {w.name: w for w in wls}
    for r in rows.itertuples():
        dev = get_device(r.device)
        lo, hi = (_value(by[r.workload], dev.with_updates(name="variant", **{r.spec: r.break_even * 10 ** s}), r.role)
                  for s in (-1.01 * LOG10_XTOL, 1.01 * LOG10_XTOL))
        assert min(lo, hi) <= 1.0 <= max(lo, hi), (r.role, r.device, r.spec, lo, hi)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(60, 400), write_share=st.floats(0.05, 0.95), seed=st.integers(0, 2**31 - 1),
       size_kib=st.sampled_from([4, 8, 64]), dev=st.sampled_from(DEVICES),
       spec=st.sampled_from(PERFORMANCE_SPECS), target=st.sampled_from([1.0, 1.7, 0.6]))
def test_plan_at_the_break_even_gives_the_target(tmp_path, n, write_share, seed, size_kib, dev, spec, target):
    wl = _msr(tmp_path / f"t{seed}.csv", n, write_share, seed, size_kib)
    d = get_device(dev)
    res = plan([wl], [d])
    df = targets_of_plan(res, target=target, specs=[spec]).to_frame()
    for r in df[df.break_even.notna()].itertuples():
        vals = [_value(wl, d.with_updates(name="variant", **{spec: r.break_even * 10 ** s}), r.role)
                for s in (-1.01 * LOG10_XTOL, 1.01 * LOG10_XTOL)]
        assert min(vals) <= target <= max(vals), (r.role, spec, r.break_even, vals)
    for r in df[df.break_even.isna() & df.role.isin(BLOCK_ROLES)].itertuples():
        assert r.reason.startswith(("at any ", "never, even at ", "not applicable: ", "needs data: ")), r.reason


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(60, 400), write_share=st.floats(0.05, 0.95), seed=st.integers(0, 2**31 - 1),
       dev=st.sampled_from(DEVICES), faster=st.floats(1.01, 100.0), spec=st.sampled_from(PERFORMANCE_SPECS))
def test_a_faster_device_never_loses_a_role_it_won(tmp_path, n, write_share, seed, dev, faster, spec):
    wl = _msr(tmp_path / f"m{seed}.csv", n, write_share, seed, 4)
    d = get_device(dev)
    x = getattr(d, spec) or d.effective_write_bandwidth_MBps
    better = d.with_updates(name="faster", **{spec: x / faster if SPECS[spec][1] == "<=" else x * faster})
    df = plan([wl], [d, better]).to_frame()
    tg = targets_of_plan(plan([wl], [d]), specs=[spec]).to_frame()
    for role in BLOCK_ROLES:
        v0, v1 = (df[(df.role == role) & (df.device == name)].value.iloc[0] for name in (d.name, "faster"))
        if math.isnan(v0):
            continue
        why = tg[(tg.role == role)].reason.iloc[0]
        if "not monotone" in why:
            continue
        assert v1 >= v0 * (1 - 1e-12), (role, spec, v0, v1)
        if v0 > 1:
            assert v1 > 1


def test_frontier_grid_matches_the_plan_at_the_device():
    wl = workload_from_path(FIX / "small_msr.csv")
    d = get_device("pcm-samsung-20nm")
    rt = next(r for r in role_retimers(wl, [d], None) if r.role == "storage")
    g = frontier_grid(rt, "write_latency_ns", "read_latency_ns", [d.write_latency_ns, 1e6],
                      [d.read_latency_ns, 1e6])
    assert g.value.iloc[0] == pytest.approx(_value(wl, d, "storage"), rel=1e-9)
    assert g.value.iloc[-1] < g.value.iloc[0]  # slower on both: worse
    assert g.wins.dtype == bool
    with pytest.raises(ValueError, match="price"):
        frontier_grid(rt, "price_usd_per_GB", "read_latency_ns", [1], [1])


def test_bad_target_and_spec_are_refused():
    res = plan([workload_from_path(FIX / "small_msr.csv")], ["optane-dcpmm"])
    with pytest.raises(ValueError, match="target"):
        targets_of_plan(res, target=0)
    with pytest.raises(ValueError, match="spec"):
        targets_of_plan(res, specs=["latency"])


@pytest.mark.parametrize("spec", ["endurance_writes_per_cell", "price_usd_per_GB"])
def test_economic_break_evens_hold_in_the_plan(fixture_targets, spec):
    """The plan at the endurance target lasts the horizon (just) and at the price target costs the baseline's per
    unit of work; the plan's own economics columns, not a restatement."""
    wls, res = fixture_targets
    df = res.to_frame()
    rows = df[(df.spec == spec) & df.break_even.notna()]
    assert len(rows)
    by = {w.name: w for w in wls}
    for r in rows.itertuples():
        dev = get_device(r.device)
        if spec == "price_usd_per_GB":
            p = plan([by[r.workload]], [dev], memory_refs=None, prices={dev.name: r.break_even}).to_frame()
            got = p[p.role == r.role].cost_per_work_vs_baseline.iloc[0]
            assert got == pytest.approx(1.0, rel=1e-9), (r.role, r.device)
        else:
            lives = []
            for f in (1 - 1e-6, 1 + 1e-6):
                v = dev.with_updates(name="variant", endurance_writes_per_cell=r.break_even * f)
                p = plan([by[r.workload]], [v], memory_refs=None).to_frame()
                lives.append(p[p.role == r.role].lifetime_years.iloc[0])
            assert lives[0] < 5.0 <= lives[1], (r.role, r.device, lives)  # the planning horizon, planner.horizon_years


@pytest.fixture(scope="module")
def frontier_plan():
    wl = workload_from_path(FIX / "small_msr.csv")
    res = plan([wl], ["optane-dcpmm"])
    rts = {r.role: r for r in role_retimers(wl, list(res.devices), res.baseline_device)}
    rows = {r["role"]: r for r in res.rows}
    return res, rts, rows


def test_frontier_grid_price_and_endurance_axes_read_the_plans_economics(frontier_plan):
    """A price x endurance grid: at the device's own price and endurance the cost criterion is the row's own
    ``cost_per_work_vs_baseline <= 1`` (exactly) and the lifetime the row's; the cost scales linearly with the
    price; a longer life needs no fewer writes per cell than the horizon's break-even."""
    from models.planner.economics import device_endurance

    res, rts, rows = frontier_plan
    row, rt, d = rows["storage"], rts["storage"], rts["storage"].device
    assert math.isfinite(row["cost_per_work_vs_baseline"])  # the case under test prices both sides
    p0, e0 = d.price_usd_per_GB, device_endurance(d)
    g = frontier_grid(rt, "price_usd_per_GB", "endurance_writes_per_cell", [p0 / 10, p0, p0 * 10], [e0 / 1e6, e0],
                      plan_row=row, horizon_years=res.horizon_years)
    own = g[(g.price_usd_per_GB == p0) & (g.endurance_writes_per_cell == e0)].iloc[0]
    assert own.cost_per_work_vs_baseline == row["cost_per_work_vs_baseline"]
    assert own.lifetime_years == pytest.approx(row["lifetime_years"], rel=1e-12)
    assert bool(own.wins) == (row["cost_per_work_vs_baseline"] <= 1 and row["lifetime_years"] >= res.horizon_years)
    at_e0 = g[g.endurance_writes_per_cell == e0].sort_values("price_usd_per_GB")
    assert at_e0.cost_per_work_vs_baseline.to_numpy() == pytest.approx(
        row["cost_per_work_vs_baseline"] * np.array([0.1, 1, 10]), rel=1e-12)
    be = economic_break_even(row, d, "endurance_writes_per_cell", horizon_years=res.horizon_years)[0]
    life = frontier_grid(rt, "read_latency_ns", "endurance_writes_per_cell", [d.read_latency_ns],
                         [be * (1 - 1e-6), be * (1 + 1e-6)], plan_row=row, horizon_years=res.horizon_years)
    assert (life.lifetime_years < res.horizon_years).tolist() == [True, False]
    assert not life.wins.iloc[0] and life.wins.iloc[1] == (life.value.iloc[1] >= 1)


def test_frontier_grid_price_with_a_performance_axis(frontier_plan):
    """Write latency x price: the cost criterion follows the value (cost per unit of work / value) and wins need
    both criteria; at the device's own specs the ratio is the row's."""
    res, rts, rows = frontier_plan
    row, rt, d = rows["storage"], rts["storage"], rts["storage"].device
    p0 = d.price_usd_per_GB
    g = frontier_grid(rt, "write_latency_ns", "price_usd_per_GB", [d.write_latency_ns, 1e7], [p0, p0 / 1e3],
                      plan_row=row, horizon_years=res.horizon_years)
    own = g[(g.write_latency_ns == d.write_latency_ns) & (g.price_usd_per_GB == p0)].iloc[0]
    assert own.cost_per_work_vs_baseline == pytest.approx(row["cost_per_work_vs_baseline"], rel=1e-9)
    slow = g[(g.write_latency_ns == 1e7) & (g.price_usd_per_GB == p0)].iloc[0]
    assert slow.value < own.value and slow.cost_per_work_vs_baseline > own.cost_per_work_vs_baseline
    assert (g.wins == ((g.value >= 1) & (g.cost_per_work_vs_baseline <= 1))).all()
    with pytest.raises(ValueError, match="plan's row"):
        frontier_grid(rt, "write_latency_ns", "price_usd_per_GB", [1.0], [1.0])


def test_frontier_grid_says_when_the_cost_cannot_be_compared(frontier_plan):
    """The write cache's baseline is no cache: no cost per unit of work to compare, so no region (all NA)."""
    res, rts, rows = frontier_plan
    g = frontier_grid(rts["write-cache"], "write_latency_ns", "price_usd_per_GB", [100.0, 1000.0], [1.0, 10.0],
                      plan_row=rows["write-cache"], horizon_years=res.horizon_years)
    assert g.wins.isna().all() and "baseline" in g.attrs["unknown"]
    nop = frontier_grid(rts["write-cache"], "write_latency_ns", "price_usd_per_GB", [100.0], [1.0],
                        plan_row={**rows["write-cache"], "price_usd_per_GB": math.nan})
    assert "needs data: price" in nop.attrs["unknown"]
