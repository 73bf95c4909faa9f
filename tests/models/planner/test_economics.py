"""The planner's economics (models/planner/economics.py, issue 37): capacity, cost, lifetime, the economic verdict."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.devices import get_device
from models.planner.economics import (
    ECON_COLUMNS,
    cost_per_work_ratio,
    economic_verdict,
    replacements,
    role_capacity_GB,
    role_cost_usd,
    role_lifetime_years,
)
from models.planner.plan import EVALUATED, plan, workload_from_path
from models.provenance import param
from tests import ROOT

FIX = ROOT / "tests" / "fixtures" / "plan"
pos = st.floats(min_value=1e-3, max_value=1e6, allow_nan=False, allow_infinity=False)


# ----------------------------------------------------------------------------- the functions (properties)
@given(cap=pos, end=pos)
def test_a_role_with_no_writes_never_wears_out(cap, end):
    life = float(role_lifetime_years(cap, end, 0.0))
    assert math.isinf(life) and life > 0
    assert float(replacements(life, 5.0)) == 0.0


@given(cap=pos, end=pos, rate=pos)
def test_doubling_endurance_doubles_lifetime(cap, end, rate):
    a = float(role_lifetime_years(cap, end, rate))
    b = float(role_lifetime_years(cap, 2 * end, rate))
    assert b == pytest.approx(2 * a, rel=1e-12)


@given(cap=pos, end=pos, rate=pos)
def test_doubling_module_capacity_doubles_lifetime(cap, end, rate):
    # wear leveling spreads the writes over the whole module: twice the module, twice the cells, twice the life
    need = 1e9 * cap / 3  # a role needing a third of one module: one module either way
    a = float(role_lifetime_years(role_capacity_GB(need, cap), end, rate))
    b = float(role_lifetime_years(role_capacity_GB(need, 2 * cap), end, rate))
    assert b == pytest.approx(2 * a, rel=1e-9)


def test_lifetime_is_the_lifetime_model_with_our_wear_efficiency():
    from models.endurance.lifetime import lifetime_years

    eta = param("lifetime.wear_efficiency").value
    assert float(role_lifetime_years(16.0, 1e7, 1e9)) == pytest.approx(
        lifetime_years(16e9, 1e7, 1e9, wear_efficiency=eta), rel=1e-12)


def test_an_unknown_rate_or_endurance_is_unknown_never_zero():
    life = role_lifetime_years([1.0, 1.0, 1.0], [np.nan, 1e6, 1e6], [1e6, np.nan, 1e6])
    assert np.isnan(life[0]) and np.isnan(life[1]) and 0 < life[2] < np.inf
    assert np.isnan(replacements(np.nan, 5.0))


@given(cap=pos, price=pos, k=st.floats(min_value=0.01, max_value=100), n=st.integers(0, 50))
def test_cost_scales_with_price(cap, price, k, n):
    assert float(role_cost_usd(cap, k * price, n)) == pytest.approx(k * float(role_cost_usd(cap, price, n)), rel=1e-9)


@given(life=st.floats(min_value=1e-3, max_value=100), h=st.floats(min_value=0.5, max_value=20))
def test_replacements_cover_the_horizon(life, h):
    n = float(replacements(life, h))
    assert (n + 1) * life >= h * (1 - 1e-12) and n * life < h  # enough devices, not one too many


def test_whole_modules_round_up():
    assert role_capacity_GB(1e9, module_GB=128).item() == 128.0
    assert role_capacity_GB(129e9, module_GB=128).item() == 256.0
    with pytest.raises(ValueError, match="module size"):
        role_capacity_GB(1e9, module_GB=0)


@given(v=st.floats(min_value=1.01, max_value=1e4), r=st.floats(min_value=1e-4, max_value=0.99))
def test_cheaper_per_work_and_faster_wins_on_both(v, r):
    assert economic_verdict(v, r, np.inf, 5.0).item() == "wins on speed and on cost"


def test_cost_per_work_and_verdict_words():
    assert float(cost_per_work_ratio(62.0, 10.0, 2.0)) == pytest.approx(3.1)
    assert economic_verdict(2.0, 3.1, 0.58, 5.0).item() == "faster but 3.1× the cost per unit of work; wears out in 7 months"
    assert np.isnan(cost_per_work_ratio(1.0, 0.0, 2.0))  # a baseline without a device: no ratio


# ----------------------------------------------------------------------------- in a plan
@pytest.fixture(scope="module")
def econ():
    return plan([workload_from_path(FIX / "small_msr.csv", name="my msr"),
                 workload_from_path(FIX / "small_lackey.txt", name="my app")],
                ["optane-dcpmm", "pcm-samsung-20nm", get_device("pcm-memext").with_price(3.0)], module_GB=16)


def test_every_evaluated_row_has_its_capacity_and_an_unpriced_device_needs_data(econ):
    df = econ.to_frame()
    ev = df[df.verdict.isin(EVALUATED)]
    assert len(ev) and (ev.capacity_GB > 0).all() and (ev.capacity_GB % 16 == 0).all()
    pcm = ev[ev.device == "pcm-samsung-20nm"]
    assert (pcm.economic_verdict == "needs data").all() and pcm.cost_usd.isna().all()
    assert pcm.economic_reason.str.startswith("needs data: price").all()
    priced = ev[ev.device == "pcm-memext"]
    assert (priced.price_usd_per_GB == 3.0).all() and (priced.cost_usd > 0).all()
    assert set(ECON_COLUMNS) <= set(df.columns)


def test_a_users_price_moves_the_cost_and_nothing_else():
    w = [workload_from_path(FIX / "small_msr.csv", name="my msr")]
    a = plan(w, [get_device("pcm-memext").with_price(2.0)]).to_frame()
    b = plan(w, [get_device("pcm-memext").with_price(4.0)]).to_frame()
    ok = a.cost_usd.notna()
    assert ok.any()
    np.testing.assert_allclose(b.cost_usd[ok], 2 * a.cost_usd[ok], rtol=1e-12)
    np.testing.assert_allclose(b.value.fillna(-1), a.value.fillna(-1))  # performance untouched
    np.testing.assert_allclose(b.lifetime_years.fillna(-1), a.lifetime_years.fillna(-1))


def test_block_trace_lifetime_uses_its_own_duration_and_writes(econ):
    from models import traces
    from models.planner.economics import block_trace_writes

    tr = traces.load(str(FIX / "small_msr.csv"), kind="block")
    written, dur, how = block_trace_writes(tr)
    assert dur > 0 and "own" in how
    row = econ.to_frame().query("role == 'write-cache' and device == 'pcm-samsung-20nm'").iloc[0]
    assert row.bytes_written_per_s == pytest.approx(written / dur)
    assert row.capacity_GB == 16  # a 64 MB cache on one 16 GB module


def test_a_trace_without_timestamps_has_an_unknown_lifetime():
    from models.planner.economics import block_trace_writes
    from models.traces import BlockTrace

    tr = BlockTrace([0, 0], [True, True], [0, 4096], [4096, 4096], [0, 0])
    written, dur, how = block_trace_writes(tr)
    assert written == 8192 and math.isnan(dur) and "unknown" in how
    assert np.isnan(role_lifetime_years(1.0, 1e6, np.nan))


def test_horizon_and_module_are_checked():
    w = [workload_from_path(FIX / "small_msr.csv", name="my msr")]
    with pytest.raises(ValueError, match="horizon_years"):
        plan(w, ["pcm-memext"], horizon_years=0)
    with pytest.raises(ValueError, match="module_GB"):
        plan(w, ["pcm-memext"], module_GB=-1)


def test_a_baseline_price_moves_the_cost_per_work_inversely():
    w = [workload_from_path(FIX / "small_msr.csv", name="my msr")]
    a = plan(w, ["optane-dcpmm"]).to_frame().query("role == 'file-cache'").iloc[0]
    hdd = get_device("hdd-7200").price_usd_per_GB
    b = plan(w, ["optane-dcpmm"], prices={"hdd-7200": 2 * hdd}).to_frame().query("role == 'file-cache'").iloc[0]
    assert b.cost_per_work_vs_baseline == pytest.approx(a.cost_per_work_vs_baseline / 2, rel=1e-9)
    with pytest.raises(ValueError, match="'floppy' is not a compared device"):
        plan(w, ["optane-dcpmm"], prices={"floppy": 1.0})
    with pytest.raises(ValueError, match="must be a number > 0"):
        plan(w, ["optane-dcpmm"], prices={"optane-dcpmm": 0})


def test_a_priced_catalogue_hdd_is_still_replayed_with_the_hdd_model():
    """A price is not a performance column: pricing hdd-7200 keeps the HDD model in the storage replay (and the
    same value), while a changed seek makes it a custom drive."""
    from models.devices import get_device
    from models.planner.replay import is_modelled_hdd

    hdd = get_device("hdd-7200")
    assert is_modelled_hdd(hdd) and is_modelled_hdd(hdd.with_price(0.02))
    assert not is_modelled_hdd(hdd.with_updates(avg_seek_ns=hdd.avg_seek_ns * 2))


# ----------------------------------------------------------------------------- product sizes (catalogue module_GB)
def test_the_module_size_is_the_users_else_the_devices_smallest_product():
    from models.planner.economics import module_size

    optane = get_device("optane-dcpmm")
    assert module_size(optane) == optane.module_GB == 128.0
    assert module_size(optane, 16) == 16.0  # the user's size overrides the catalogue's
    assert module_size(get_device("pcm-memext")) is None  # a research device never sold: no product size


def test_without_a_module_size_each_device_is_bought_as_its_smallest_product():
    w = [workload_from_path(FIX / "small_msr.csv", name="my msr")]
    df = plan(w, ["optane-dcpmm", "nvme-tlc", "pcm-memext"]).to_frame()
    ev = df[df.verdict.isin(EVALUATED)]
    for name in ("optane-dcpmm", "nvme-tlc"):
        rows = ev[ev.device == name]
        m = get_device(name).module_GB
        assert len(rows) and (rows.capacity_GB % m == 0).all() and (rows.capacity_GB >= m).all()
        assert rows.economic_reason.str.contains(f"× {m:g} GB").all()
    wc = ev[(ev.device == "optane-dcpmm") & (ev.role == "write-cache")].iloc[0]
    assert "1 × 128 GB module (smallest Intel Optane DC PMM product)" in wc.economic_reason
    pcm = ev[ev.device == "pcm-memext"]
    assert (pcm.capacity_GB < 1).all()  # no product size: the role's exact capacity, and the reason says so
    assert pcm.economic_reason.str.contains("no product size known for pcm-memext").all()
    # a whole module wears longer than the role's few MB, by the ratio of the capacities
    exact = plan(w, [get_device("optane-dcpmm").with_updates(module_GB=None)]).to_frame()
    a = exact.query("role == 'write-cache'").iloc[0]
    assert wc.lifetime_years == pytest.approx(a.lifetime_years * wc.capacity_GB / a.capacity_GB, rel=1e-9)


def test_a_device_without_a_product_size_is_compared_at_exact_capacities():
    # a priced research PCM (no product) against the Flash extension (a 1 TB drive): pricing a whole drive against
    # a fraction of a device would flatter the device, so neither is rounded, and the reason says so
    w = [workload_from_path(FIX / "small_lackey.txt", name="my app")]
    df = plan(w, [get_device("pcm-memext").with_price(3.0)]).to_frame()
    row = df[(df.role == "memory-extension") & df.verdict.isin(EVALUATED)].iloc[0]
    assert row.capacity_GB < 1
    assert "so the baseline nand-flash is not rounded to its 1000 GB product either" in row.economic_reason
    assert "exact as the device's" in row.economic_reason


def test_a_written_dram_device_does_not_wear_out_and_says_why_not_no_writes():
    from models.planner.economics import economics_columns, role_usage

    row = {"verdict": "wins", "value": 2.0, "reason": ""}
    e = economics_columns(row, get_device("cxl-memexp").with_price(5.0), None,
                          role_usage(1e9, 1e9, 1.0, "a test", base_capacity_bytes=0.0))
    assert math.isinf(e["lifetime_years"]) and e["bytes_written_per_s"] == 1e9
    assert "no write-cycle wear (dram)" in e["economic_reason"] and "no writes" not in e["economic_reason"]
