"""Lifetime of NVM memory extensions (seed 002, sections 2 and 5.1.3)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from scipy import stats

from models.endurance.lifetime import (
    SECONDS_PER_YEAR,
    SEED_WRITE_RATES,
    LifetimeInputs,
    figure2_table,
    lifetime_band,
    lifetime_bruteforce_lines,
    lifetime_monte_carlo,
    lifetime_seconds,
    lifetime_years,
    weak_line_factor,
    write_rate_for_lifetime,
)
from models.provenance import param
from tests import ROOT as _ROOT


def test_closed_form_units():
    # 16 GB x 1e7 writes / 1 GB/s = 1.6e8 s = 5.07 Julian years
    assert lifetime_seconds(16e9, 1e7, 1e9, wear_efficiency=1.0) == pytest.approx(1.6e8)
    assert lifetime_years(16e9, 1e7, 1e9, wear_efficiency=1.0) == pytest.approx(1.6e8 / SECONDS_PER_YEAR)
    assert lifetime_seconds(16e9, 1e7, 1e9, wear_efficiency=0.5) == pytest.approx(0.8e8)
    assert LifetimeInputs(capacity_bytes=16e9, endurance_writes_per_cell=1e7, write_rate_bytes_per_s=1e9,
                          wear_efficiency=1.0).years == pytest.approx(5.0699, rel=1e-4)
    # the default efficiency is the registry's (seed 003's SFC life rate), never ideal leveling
    eta = param("lifetime.wear_efficiency").value
    assert eta < 1.0
    assert LifetimeInputs(capacity_bytes=16e9, endurance_writes_per_cell=1e7,
                          write_rate_bytes_per_s=1e9).years == pytest.approx(5.0699 * eta, rel=1e-4)


def test_a_lifetime_past_the_float_range_is_inf_without_an_overflow_warning():
    """16 GB x 1e7 writes at 1e-294 bytes/s is ~9e310 s, past the largest float: inf, as IEEE division gives
    it, and no RuntimeWarning (the CLI fuzz's ``--write-rate-mbps 1e-300`` took this path)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lifetime_seconds(16e9, 1e7, 1e-294, wear_efficiency=1.0) == np.inf
        assert lifetime_years([16e9, 16e9], 1e7, [1e-294, 1e9], wear_efficiency=1.0).tolist() == \
            [np.inf, 16e9 * 1e7 / 1e9 / SECONDS_PER_YEAR]
        assert lifetime_seconds(16e9, 1e7, 1e-290, wear_efficiency=1.0) == 16e9 * 1e7 / 1e-290  # still finite


@given(cap=st.floats(1e6, 1e14), e=st.floats(1.0, 1e9), years=st.floats(1e-6, 1e6), eta=st.floats(0.01, 1.0),
       f=st.floats(1e-4, 1.0))
def test_write_rate_for_lifetime_inverts_the_closed_form(cap, e, years, eta, f):
    # write_rate_for_lifetime is the inverse of lifetime_years, and the lifetime is inversely proportional
    # to the write rate: writing a fraction f of the cells lives 1/f times longer (rel 1e-9: float rounding).
    # (Seed 002's "5 years -> 100 years with 5 % of the writes" is this identity at f = 0.05 applied to a rate
    # derived from the 5 years: the ledger holds it as 002-fig9-*, marked circular.)
    w = write_rate_for_lifetime(cap, e, years, wear_efficiency=eta)
    assert lifetime_years(cap, e, w, wear_efficiency=eta) == pytest.approx(years, rel=1e-9)
    assert lifetime_years(cap, e, f * w, wear_efficiency=eta) == pytest.approx(years / f, rel=1e-9)


def test_figure2_table_follows_the_endurances_and_rates():
    # PCM / Flash lifetime = the endurance ratio exactly, for any endurances; lifetimes scale as 1 / rate.
    # (Whether Flash lasts "less than a month" and PCM "a few years" for most workloads is the ledger's
    # 002-fig2-*, evaluated on rates derived from our traces.)
    t = figure2_table()
    assert (t.pcm_years / t.flash_years).to_numpy() == pytest.approx(1000.0, rel=1e-12)  # 1e7 / 1e4 (catalogue)
    t3 = figure2_table({"x": 1e8}, pcm_endurance=5e6, flash_endurance=3e3)
    assert t3.pcm_years.iloc[0] / t3.flash_years.iloc[0] == pytest.approx(5e6 / 3e3, rel=1e-12)
    t2 = figure2_table({"a": 1e8, "b": 2e8}, sources={"a": "trace"})
    assert list(t2.columns) == ["workload", "write_rate_MBps", "pcm_years", "flash_years", "flash_days", "source"]
    assert t2.pcm_years.iloc[0] == pytest.approx(2 * t2.pcm_years.iloc[1], rel=1e-12)
    assert t2.write_rate_MBps.tolist() == [100.0, 200.0]
    assert t2.source.tolist() == ["trace", ""]


def test_bad_inputs_name_the_field():
    with pytest.raises(ValueError, match="write_rate_bytes_per_s"):
        lifetime_seconds(16e9, 1e7, 0)
    with pytest.raises(ValueError, match="wear_efficiency"):
        lifetime_seconds(16e9, 1e7, 1e9, wear_efficiency=1.5)
    with pytest.raises(ValueError, match="capacity_bytes"):
        lifetime_seconds(float("nan"), 1e7, 1e9)
    with pytest.raises(ValidationError, match="wear_efficiency"):
        LifetimeInputs(capacity_bytes=1, endurance_writes_per_cell=1, write_rate_bytes_per_s=1, wear_efficiency=0)
    with pytest.raises(ValueError, match="endurance_sigma"):
        lifetime_monte_carlo(16e9, 1e7, 1e9, endurance_sigma=-1)
    with pytest.raises(ValueError, match="fail_fraction"):
        lifetime_monte_carlo(16e9, 1e7, 1e9, fail_fraction=0)
    with pytest.raises(ValueError, match="trials"):
        lifetime_monte_carlo(16e9, 1e7, 1e9, trials=0)
    with pytest.raises(ValueError, match="write_rates"):
        figure2_table({})


@pytest.mark.parametrize("fail_fraction", [1e-9, 1e-3, 0.5, 1.0])
def test_monte_carlo_zero_spread_equals_closed_form(fail_fraction):
    r = lifetime_monte_carlo(16e9, 1e7, 3e8, wear_efficiency=0.8, endurance_sigma=0.0,
                             fail_fraction=fail_fraction, trials=50, seed=3, keep_samples=True)
    closed = lifetime_years(16e9, 1e7, 3e8, wear_efficiency=0.8)
    assert r.closed_form_years == closed
    assert r.p10_years == r.p50_years == r.p90_years == closed
    assert r.mean_years == pytest.approx(closed, rel=1e-12)  # summation rounding only
    assert set(r.samples_years) == {closed}


def test_monte_carlo_seeded_and_generator():
    a = lifetime_monte_carlo(16e9, 1e7, 1e9, endurance_sigma=0.3, trials=200, seed=7)
    b = lifetime_monte_carlo(16e9, 1e7, 1e9, endurance_sigma=0.3, trials=200, seed=np.random.default_rng(7))
    c = lifetime_monte_carlo(16e9, 1e7, 1e9, endurance_sigma=0.3, trials=200, seed=8)
    assert a == b
    assert a != c
    assert a.p10_years <= a.p50_years <= a.p90_years


def test_order_statistic_matches_bruteforce():
    # The Beta order-statistic shortcut must give the same distribution as sampling every line.
    # 4000 lines of 64 B, sigma 0.4, failing at 1 % worn lines; 400 trials each: two-sample KS test at
    # alpha = 1e-3 (seeded, so deterministic; a wrong rank or quantile map shifts the distribution by
    # several standard deviations and fails by orders of magnitude).
    lines, e, w = 4000, 1e6, 64 * 4000 / 1e4  # 1e4 s between two writes of a line
    r = lifetime_monte_carlo(lines * 64, e, w, wear_efficiency=1.0, endurance_sigma=0.4, fail_fraction=0.01,
                             trials=400, seed=1, keep_samples=True)
    brute = lifetime_bruteforce_lines(lines, e, 1e4, endurance_sigma=0.4, fail_fraction=0.01,
                                      trials=400, seed=2) / SECONDS_PER_YEAR
    assert r.lines == lines and r.fail_rank == 40
    assert stats.ks_2samp(np.array(r.samples_years), brute).pvalue > 1e-3
    # and both sit well below the closed form: the weakest 1 % of lines fail at exp(0.4 * -2.33) = 0.39x
    assert np.median(brute) / r.closed_form_years == pytest.approx(np.exp(0.4 * stats.norm.ppf(0.01)), rel=0.03)


def test_median_line_lifetime_is_closed_form():
    # fail_fraction 0.5 with a lognormal of median E: the device fails at its median line ~ closed form
    # (2.7e8 lines: the order statistic's spread is ~1e-4 relative).
    r = lifetime_monte_carlo(16e9, 1e7, 1e9, endurance_sigma=0.5, fail_fraction=0.5, trials=200, seed=0)
    assert r.p50_years == pytest.approx(r.closed_form_years, rel=1e-3)
    assert r.p90_years / r.p10_years < 1.001


@given(sigma=st.floats(0.05, 1.0), f=st.floats(1e-4, 0.5))
def test_many_lines_meet_at_the_weak_line_factor(sigma, f):
    # 2.5e8 lines: the k-th weakest sits at the f-quantile, so P10, P50 and P90 all tend to closed x factor
    r = lifetime_monte_carlo(16e9, 1e7, 1e9, endurance_sigma=sigma, fail_fraction=f, trials=50, seed=0)
    expect = r.closed_form_years * float(weak_line_factor(sigma, f))
    # tolerance: 4 standard deviations of the order statistic, sd(z) = sqrt(f (1 - f) / N) / phi(Phi^-1(f))
    rel = 4 * sigma * np.sqrt(f * (1 - f) / r.lines) / stats.norm.pdf(stats.norm.ppf(f))
    assert r.p10_years == pytest.approx(expect, rel=rel) and r.p90_years == pytest.approx(expect, rel=rel)


@given(cap=st.floats(1e6, 1e14), e=st.floats(1.0, 1e9), w=st.floats(1.0, 1e11), k=st.floats(1.01, 100.0),
       eta=st.floats(0.01, 1.0))
def test_lifetime_monotone(cap, e, w, k, eta):
    base = lifetime_seconds(cap, e, w, wear_efficiency=eta)
    assert lifetime_seconds(cap, e * k, w, wear_efficiency=eta) > base
    assert lifetime_seconds(cap * k, e, w, wear_efficiency=eta) > base
    assert lifetime_seconds(cap, e, w * k, wear_efficiency=eta) < base
    assert lifetime_seconds(cap, e, w, wear_efficiency=eta / k) < base


@given(sigma=st.floats(0.0, 1.5), f=st.floats(1e-9, 1.0), k=st.floats(1.5, 10.0))
def test_monte_carlo_monotone_in_endurance(sigma, f, k):
    # Same seed => same Beta draws: scaling the endurance scales every trial's lifetime by k.
    a = lifetime_monte_carlo(1e9, 1e6, 1e8, endurance_sigma=sigma, fail_fraction=f, trials=20, seed=5)
    b = lifetime_monte_carlo(1e9, 1e6 * k, 1e8, endurance_sigma=sigma, fail_fraction=f, trials=20, seed=5)
    assert b.p50_years == pytest.approx(k * a.p50_years, rel=1e-9)
    assert a.p50_years <= a.closed_form_years * np.exp(sigma * 6) + 1e-12


def test_cli_lifetime(capsys):
    from cli.main import main

    assert main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--write-rate-mbps", "1014.4",
                 "--wear-efficiency", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "capacity_gb,endurance,write_rate_mbps,wear_efficiency,years,days"
    assert float(out[1].split(",")[4]) == pytest.approx(5.0, rel=1e-3)
    assert main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--write-rate-mbps", "100", "200",
                 "--monte-carlo", "50", "--endurance-sigma", "0.2", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = lines[0].split(",")
    assert {"p10_years", "p50_years", "p90_years"} <= set(head) and len(lines) == 3
    row = dict(zip(head, lines[1].split(","), strict=True))
    assert float(row["p10_years"]) <= float(row["p50_years"]) <= float(row["p90_years"]) < float(row["years"])
    assert main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--write-rate-mbps", "-1"]) == 2
    assert "--write-rate-mbps" in capsys.readouterr().err
    assert main(["lifetime", "--capacity-gb", "16", "--endurance", "1e7", "--write-rate-mbps", "10",
                 "--wear-efficiency", "2"]) == 2
    assert "wear_efficiency" in capsys.readouterr().err


def test_lifetime_page():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(_ROOT / "app/views/lifetime.py"), default_timeout=120).run()
    assert not at.exception and not at.error
    metrics = {m.label: m.value for m in at.metric}
    # the page's defaults (16 GB, pcm-memext's 1e7, the rate measured on the Lulesh trace rounded to 0.1 MB/s,
    # the registry's wear efficiency) through the closed form
    from models.devices import get_device
    from models.endurance.lifetime import measured_write_rate
    from models.provenance import param

    rate = round(measured_write_rate("lulesh") / 1e6, 1) * 1e6
    closed = lifetime_years(param("memext.nvm_capacity_bytes").value, get_device("pcm-memext").endurance_writes_per_cell,
                            rate, wear_efficiency=param("lifetime.wear_efficiency").value)
    from app.components.tables import scalar_text

    assert metrics["Closed form [years]"] == scalar_text(closed, 3)  # 3 significant digits, no trailing zero: "20"
    # Figure 2 rows (its lazy chart tab): the seed's rate, the user's, and the rates derived from the bundled
    # memory traces and our synthetic page streams (models.endurance.lifetime.derived_write_rates)
    from tests.app.chart_rules import lazy_tabs

    at.session_state["lt.chart_tab"] = lazy_tabs(at)["lt.chart_tab"][2]
    at.run()
    assert not at.exception and not at.error
    fig2 = at.dataframe[0].value.set_index("workload")
    assert {"xz", "sqlite", "lulesh", "synthetic working-set (ours)", "your write rate"} <= set(fig2.index)
    assert fig2.loc["xz", "source"].startswith("measured trace: PCM, FIFO at DRAM:NVM 1:4")
    assert "measured" in fig2.loc["lulesh", "source"] and "ns per data reference" in fig2.loc["lulesh", "source"]
    paper = [w for w in fig2.index if "paper-implied" in w]
    assert len(paper) == 1 and "circular" in fig2.loc[paper[0], "source"]
    rate_col = next(c for c in fig2.columns if c.startswith("write rate") or c == "write_rate_MBps")
    assert (fig2[rate_col] > 0).all()
    at.number_input(key="lt.endurance").set_value(1e4).run()
    assert not at.exception and not at.error
    assert {m.label: m.value for m in at.metric}["Closed form [years]"] == f"{closed * 1e-3:,.3g}"
    # a shared link reproduces the view; an invalid link parameter is named and ignored
    at = AppTest.from_file(str(_ROOT / "app/views/lifetime.py"), default_timeout=120)
    at.query_params["endurance"] = "1e4"
    at.query_params["capacity_gb"] = "-3"
    at.run()
    assert not at.exception and not at.error
    assert any("capacity_gb" in w.value for w in at.warning)
    assert {m.label: m.value for m in at.metric}["Closed form [years]"] == f"{closed * 1e-3:,.3g}"


def test_monte_carlo_percentiles_match_the_exact_order_statistic():
    # 10 lines of 64 B failing at 25 % worn: k = ceil(2.5) = 3. The device lifetime is
    # closed x exp(sigma x ndtri(U)) with U ~ Beta(k, N - k + 1) = Beta(3, 8); its q-quantile is exact:
    # closed x exp(sigma x ndtri(beta.ppf(q, 3, 8))) (0.550, 0.723, 0.939 x closed at q = 0.1, 0.5, 0.9).
    # 1e5 trials: the sample quantiles' relative standard error is 0.08-0.12 %, so rel=0.006 is 5 SE;
    # Beta(3, 7) (rank off by one in the second parameter) is 3.4 % off at P10, Beta(2, 9) 18 %, the
    # 5th/95th percentiles 10 %+.
    from scipy import special

    closed = lifetime_years(640, 1e6, 1e-3)
    r = lifetime_monte_carlo(640, 1e6, 1e-3, endurance_sigma=0.5, fail_fraction=0.25, trials=100_000, seed=0,
                             keep_samples=True)
    assert (r.lines, r.fail_rank) == (10, 3)
    want = closed * np.exp(0.5 * special.ndtri(stats.beta.ppf([0.1, 0.5, 0.9], 3, 8)))
    assert [r.p10_years, r.p50_years, r.p90_years] == pytest.approx(want.tolist(), rel=0.006)
    # the whole distribution: one-sample KS against the exact CDF (seeded; alpha 1e-3)
    x = np.array(r.samples_years)

    def cdf(y):
        return stats.beta.cdf(stats.norm.cdf(np.log(y / closed) / 0.5), 3, 8)

    assert stats.kstest(x, cdf).pvalue > 1e-3
    assert r.mean_years == pytest.approx(x.mean(), rel=1e-12)


@pytest.mark.parametrize("lines, fail_fraction, k", [(10, 0.25, 3), (10, 0.1, 1), (1000, 0.0015, 2), (7, 1.0, 7),
                                                     (100, 1e-9, 1)])
def test_monte_carlo_fail_rank_is_the_ceiling(lines, fail_fraction, k):
    r = lifetime_monte_carlo(lines * 64, 1e6, 1.0, endurance_sigma=0.2, fail_fraction=fail_fraction, trials=5, seed=0)
    assert (r.lines, r.fail_rank) == (lines, k)


def test_figure2_flash_days_by_hand():
    # 16 GB of Flash (1e4 writes per cell) at 1e8 B/s: 16e9 x 1e4 / 1e8 = 1.6e6 s = 18.5185... days; in
    # Julian years 1.6e6 / 31,557,600 s. The default row (the seed-derived Lulesh rate) the same way.
    t = figure2_table({"x": 1e8}, wear_efficiency=1.0)
    assert t.flash_years.iloc[0] == pytest.approx(1.6e6 / (365.25 * 86400), rel=1e-12)
    assert t.flash_days.iloc[0] == pytest.approx(1.6e6 / 86400, rel=1e-12)
    rate = next(iter(SEED_WRITE_RATES.values()))
    eta = param("lifetime.wear_efficiency").value
    assert figure2_table().flash_days.iloc[0] == pytest.approx(16e9 * 1e4 * eta / rate / 86400, rel=1e-12)
    t2 = figure2_table({"x": 1e8}, wear_efficiency=1.0)
    assert t2.flash_days.iloc[0] == pytest.approx(16e9 * 1e4 / 1e8 / 86400, rel=1e-12)  # days straight from seconds
    # another Flash endurance: the days follow the Flash lifetime, not a fixed fraction of the PCM one
    t3 = figure2_table({"x": 1e8}, flash_endurance=3e3, wear_efficiency=1.0)
    assert t3.flash_days.iloc[0] == pytest.approx(16e9 * 3e3 / 1e8 / 86400, rel=1e-12)


def test_lifetime_band_scales_the_distribution_by_hand():
    # L = C E eta / W: at twice the rate every lifetime halves, so the band is the distribution scaled
    mc = lifetime_monte_carlo(16e9, 1e7, 1e9, wear_efficiency=0.5, endurance_sigma=0.3, trials=200, seed=2)
    band = lifetime_band(mc, 16e9, 1e7, [5e8, 1e9, 2e9], wear_efficiency=0.5)
    assert band.columns.tolist() == ["write_rate_MBps", "closed_form_years", "p10_years", "p50_years", "p90_years"]
    assert band.write_rate_MBps.tolist() == [500.0, 1000.0, 2000.0]
    at_mc_rate = band.iloc[1]
    assert at_mc_rate.closed_form_years == pytest.approx(mc.closed_form_years, rel=1e-12)
    for q in ("p10_years", "p50_years", "p90_years"):
        assert at_mc_rate[q] == pytest.approx(getattr(mc, q), rel=1e-12)
        assert band[q].tolist() == pytest.approx([2 * getattr(mc, q), getattr(mc, q), getattr(mc, q) / 2], rel=1e-12)


def test_distribution_is_a_result_with_one_row():
    mc = lifetime_monte_carlo(16e9, 1e7, 1e9, endurance_sigma=0.3, trials=20, seed=1, keep_samples=True)
    row = mc.to_frame()
    assert row.columns.tolist() == ["closed_form_years", "p10_years", "p50_years", "p90_years", "mean_years",
                                    "trials", "lines", "fail_rank"]  # no samples
    assert len(row) == 1 and row["trials"].item() == 20 and len(mc.samples_years) == 20


def test_measured_write_rate_is_the_trace_write_back_rate_with_its_own_time_base():
    from models.endurance.lifetime import measured_write_rate
    from models.memory.measured import ns_per_ref
    from models.memory.memory_extension import MemExtConfig, page_stream, simulate_memext
    from models.traces import load

    r = simulate_memext(page_stream(load("lulesh", kind="memory")), MemExtConfig(base_ns_per_ref=ns_per_ref("lulesh")))
    assert r.writebacks > 0
    assert measured_write_rate("lulesh") == pytest.approx(r.writebacks * 4096 / (r.time_ns * 1e-9), rel=1e-12)
    # the paper-implied row is the inverted 5 years, labelled as such
    (name, rate), = SEED_WRITE_RATES.items()
    assert "paper-implied" in name and lifetime_years(16e9, 1e7, rate, wear_efficiency=1.0) == pytest.approx(5.0, rel=1e-12)
