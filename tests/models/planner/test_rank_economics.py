"""The ranking's economics (models/planner/rank_economics.py, issue 37): the plan's economic columns per ranked row."""

from __future__ import annotations

import math

import pytest

from models.planner import rank_workloads
from models.planner.economics import ECON_COLUMNS
from models.planner.rank_economics import economics_frame


@pytest.fixture(scope="module")
def ranked():
    kw = dict(personalities=("varmail",), traces=("mqsim:tpcc-small",), n_requests=2000, memory=False)
    return rank_workloads(**kw), rank_workloads(**kw, prices={"pcm-samsung-20nm": 3.0})


def test_the_economic_columns_come_after_the_rankings_own(ranked):
    plain, _ = ranked
    assert list(plain.columns) == ["role", "rank", "workload", "kind", "metric", "value", "benefit", "status",
                                   "reason", *ECON_COLUMNS]


def test_an_unpriced_research_pcm_needs_a_price_and_a_priced_one_gets_a_cost(ranked):
    plain, priced = ranked
    st = plain[plain.role.str.startswith("storage-vs")]
    assert (st.economic_verdict == "needs data").all() and st.cost_usd.isna().all()
    assert st.economic_reason.str.startswith("needs data: price of pcm-samsung-20nm").all()
    p = priced[priced.role.str.startswith("storage-vs")]
    assert (p.price_usd_per_GB == 3.0).all() and (p.cost_usd > 0).all()
    assert p.cost_per_work_vs_baseline.notna().all()  # against the page-cached HDD / SSD, both priced
    wc = priced[priced.role == "write-cache"].iloc[0]
    assert " for $" in wc.economic_verdict and "priced as pcm-samsung-20nm" in wc.economic_reason
    # the performance columns do not move with a price
    assert plain[["role", "workload", "value", "status"]].equals(priced[["role", "workload", "value", "status"]])


def test_a_role_without_a_time_ratio_says_why_it_has_no_economics(ranked):
    plain, _ = ranked
    fc = plain[plain.role == "file-cache"].iloc[0]
    assert fc.economic_verdict == "not applicable" and "share of blocks" in fc.economic_reason
    assert math.isnan(fc.cost_usd)


def test_a_price_doubles_the_cost(ranked):
    _, priced = ranked
    again = rank_workloads(("varmail",), traces=(), memory=False, prices={"pcm-samsung-20nm": 6.0})
    a = priced[priced.role == "storage-vs-hdd"].cost_usd.iloc[0]
    b = again[again.role == "storage-vs-hdd"].cost_usd.iloc[0]
    assert b == pytest.approx(2 * a, rel=1e-12)


def test_the_memory_extension_is_priced_against_the_flash_extension():
    from models.planner.rank import _memory_one

    rows = _memory_one("lackey:sort", 20_000)
    df = economics_frame(rows, prices={"pcm-memext": 3.0})
    me, life = df.iloc[0], df.iloc[1]
    assert me.economic_reason.startswith("against the Flash extension")
    assert "nand-flash" in me.economic_reason and me.cost_usd > 0
    assert life.economic_verdict == "not applicable"


@pytest.mark.parametrize(("kw", "match"), [({"prices": {"optane-dcpmm": 8.0}}, "not a device of the ranking"),
                                           ({"prices": {"pcm-memext": -1.0}}, "must be a number > 0"),
                                           ({"horizon_years": 0}, "horizon_years"), ({"module_GB": -2}, "module_GB")])
def test_bad_economics_inputs_are_messages(kw, match):
    with pytest.raises(ValueError, match=match):
        rank_workloads((), traces=(), memory=False, **kw)


def test_an_infinite_speedup_has_no_cost_per_work():
    from models.planner.economics import role_usage
    from models.planner.rank_economics import econ_context

    ctx = econ_context("pcm-samsung-20nm", None, role_usage(64e6, 1e6, 1.0, "a test", base_capacity_bytes=0.0),
                       math.inf)
    row = economics_frame([{"role": "write-cache", "status": "ok", "reason": "", "_econ": ctx}]).iloc[0]
    assert row.economic_verdict == "not applicable" and "no finite speedup" in row.economic_reason
