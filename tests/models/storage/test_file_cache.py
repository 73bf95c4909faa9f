"""Break-even model (Park & Bahn 2020, section 2): equations 1-3 and Figure 2."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pydantic import ValidationError

from models.storage import file_cache as fc

pos = st.floats(min_value=1e-3, max_value=1e9, allow_nan=False, allow_infinity=False)


def test_equation_3_worked_example():
    # t=100, T=130, Tm=160: (160-100)/(130-100) = 2 exactly.
    assert fc.break_even_hits(100, 130, 160) == 2.0
    # n must be strictly greater than n*: 2 accesses tie (Tc == Tx), 3 gain.
    assert fc.access_time_cached(2, 100, 160) == fc.access_time_uncached(2, 130)
    assert fc.caching_pays(3, 100, 130, 160)
    assert not fc.caching_pays(2, 100, 130, 160)  # a tie does not pay


def test_domain_cases():
    assert math.isinf(fc.break_even_hits(100, 100, 150))  # storage as fast as cache
    assert math.isinf(fc.break_even_hits(100, 90, 150))  # storage faster than cache
    assert "never pays" in fc.verdict(100, 90, 150)
    with pytest.raises(ValueError, match="Tm must be >= T"):
        fc.break_even_hits(100, 130, 120)
    for bad in (float("nan"), float("inf"), -1.0, 0.0):
        with pytest.raises(ValueError):
            fc.break_even_hits(bad, 130, 160)


@given(t=pos, T=pos, c=st.floats(0, 1e9), dT=st.floats(1e-3, 1e6))
def test_n_star_non_increasing_in_T(t, T, c, dT):
    assume(T > t)
    a = fc.break_even_hits(t, T, T + c)
    b = fc.break_even_hits(t, T + dT, T + dT + c)  # slower storage, same insertion cost
    assert b <= a * (1 + 1e-12)


@given(t=pos, T=pos, Tm=pos, d=st.floats(0, 1e6))
def test_n_star_non_decreasing_in_Tm(t, T, Tm, d):
    assume(Tm >= T)
    assert fc.break_even_hits(t, T, Tm + d) >= fc.break_even_hits(t, T, Tm) * (1 - 1e-12)


@given(t=pos, T=pos, c=st.floats(0, 1e9), n=st.integers(1, 10_000))
def test_caching_pays_iff_n_exceeds_n_star(t, T, c, n):
    Tm = T + c
    n_star = fc.break_even_hits(t, T, Tm)
    Tc = fc.access_time_cached(n, t, Tm)
    Tx = fc.access_time_uncached(n, T)
    # Skip ties within floating-point resolution of the comparison.
    assume(abs(Tc - Tx) > 1e-9 * max(Tc, Tx))
    assume(not math.isfinite(n_star) or abs(n - n_star) > 1e-9 * n)
    assert bool(fc.caching_pays(n, t, T, Tm)) == (n > n_star)


def test_vectorised_matches_scalar():
    rng = np.random.default_rng(1)
    t = rng.uniform(1, 100, 50)
    T = t + rng.uniform(0.1, 1000, 50)
    Tm = T + rng.uniform(0, 500, 50)
    vec = fc.break_even_hits(t, T, Tm)
    assert np.allclose(vec, [fc.break_even_hits(a, b, c) for a, b, c in zip(t, T, Tm)])


def test_pagecache_measurement_is_plausible():
    # Measured data, not a literal: reads of resident blocks grow with size; insertion
    # (allocation + copy) costs more than a cached read at every measured size.
    sizes = 512 * 2 ** np.arange(12)
    rd, ins = fc.pagecache_latency(sizes)
    assert np.all(np.diff(rd) > 0) and np.all(ins > rd)


@pytest.mark.parametrize("insertion", ["steady", "first-touch"])
@pytest.mark.parametrize("factor", [1.0, 1.3, 2.5])
def test_reference_device_costs_exactly_the_io_stack_factor(factor, insertion):
    # On the reference device itself the storage path adds no device time, so T = factor x t exactly and the
    # insertion cost is the selected model's (Tm - T = insertion_cost); 1e-12 = float rounding only.
    # (That the default 1.3 is Park & Bahn's Figure 1 is provenance, checked in the ledger as 004-fig1-*.)
    be = fc.timings_from_device("dram", 4096, io_stack_factor=factor, insertion=insertion,
                                storage_path="paper-factor")
    t, _ = fc.pagecache_latency(4096)
    assert be.t_ns == pytest.approx(t, rel=1e-12)
    assert be.T_ns == pytest.approx(factor * t, rel=1e-12)
    assert be.Tm_ns - be.T_ns == pytest.approx(fc.insertion_cost(4096, insertion=insertion), rel=1e-12)


def test_default_insertion_is_steady():
    for dev in ("dram", "optane-dcpmm", "hdd-7200"):
        assert fc.timings_from_device(dev) == fc.timings_from_device(dev, insertion="steady")
    assert fc.DEFAULT_INSERTION == "steady"


def test_first_touch_is_the_pwrite_measurement():
    sizes = [512, 3000, 4096, 1 << 20]
    assert np.asarray(fc.insertion_cost(sizes, insertion="first-touch")).tolist() == pytest.approx(
        np.asarray(fc.pagecache_latency(sizes)[1]).tolist(), rel=1e-12)


def test_steady_insertion_is_the_registered_measurement():
    from models.provenance import param

    for size in fc.STEADY_SIZES:
        p = param(f"file_cache.insert_steady_{size}_ns")
        assert p.kind == "measured here" and p.provenance.low <= p.value <= p.provenance.high
        assert fc.insertion_cost(size) == pytest.approx(p.value, rel=1e-12)
    # between two measured sizes: geometric mean at the geometric midpoint (log-log interpolation)
    a, b = (param(f"file_cache.insert_steady_{s}_ns").value for s in (4096, 8192))
    assert fc.insertion_cost(4096 * 2**0.5) == pytest.approx((a * b) ** 0.5, rel=1e-12)


def test_steady_insertion_plausible_against_first_touch():
    # Measured data, not a literal. From one page up, a miss into a full cache (a page reclaim just freed) costs
    # no more than a pwrite() into a fresh tmpfs page (allocation + zeroing/accounting of a growing file).
    # Below 4 KiB it is the other way round: the buffered miss reads a whole 4 KiB page from the device while
    # the direct read it is compared with moves only the block -- part of the real cost, so not asserted.
    sizes = np.array([s for s in fc.STEADY_SIZES if s >= 4096], dtype=float)
    st_, ft = fc.insertion_cost(sizes), fc.insertion_cost(sizes, insertion="first-touch")
    assert np.all(st_ <= ft) and np.all(st_ > 0)


@pytest.mark.parametrize("bad", ["lru", "", "Steady"])
def test_insertion_model_is_checked(bad):
    with pytest.raises(ValueError, match="insertion must be one of steady, first-touch"):
        fc.insertion_cost(4096, insertion=bad)
    with pytest.raises(ValueError, match="insertion must be one of"):
        fc.timings_from_device("dram", insertion=bad)


@given(t=st.floats(1.0, 1e6), gap=st.floats(1e-3, 1e7), a=st.floats(0.0, 1e7), b=st.floats(0.0, 1e7))
def test_n_star_grows_with_the_insertion_cost(t, gap, a, b):
    """n* = 1 + insert / (T - t): non-decreasing in the insertion cost, strictly increasing where T > t."""
    T = t + gap
    lo, hi = min(a, b), max(a, b)
    n_lo, n_hi = fc.break_even_hits(t, T, T + lo), fc.break_even_hits(t, T, T + hi)
    assert n_lo <= n_hi
    if hi - lo > 1e-6 * (T + hi):
        assert n_lo < n_hi
    assert fc.required_hits(n_lo) <= fc.required_hits(n_hi)


def test_verdict_column_always_present():
    rows = [fc.break_even(fc.BreakEvenInputs(t_ns=100, T_ns=130, Tm_ns=160)),
            fc.break_even(fc.BreakEvenInputs(t_ns=100, T_ns=1e6, Tm_ns=1e6 + 1)),
            fc.break_even(fc.BreakEvenInputs(t_ns=100, T_ns=90, Tm_ns=160))]
    df = fc.break_even_table(rows[:2])
    assert list(df.columns) == ["t_ns", "T_ns", "Tm_ns", "n_star", "hits_required", "verdict"]
    assert df["verdict"].tolist() == ["pays after 2 hits", "pays after 1 hit"]
    df = fc.break_even_table(rows)
    assert df["verdict"].iloc[2] == fc.NEVER_PAYS and np.isnan(df["n_star"].iloc[2])


@given(r=st.floats(1.001, 1e6), t=st.floats(1.0, 1e6), ins=st.floats(0.0, 1e7))
def test_figure2_closed_form(r, t, ins):
    """Storage r times slower than the cache: n* = 1 + insert / ((r - 1) t), and the hits required
    are floor(n*) (at least 1). Caching pays after a single hit iff insert < (r - 1) t, i.e. the
    paper's "at least two hits" on SCM 30 % slower than the cache needs insert >= 0.3 t
    (whether our measured costs satisfy that is the ledger's 004-fig2-scm-at-least-two-hits)."""
    row = fc.hits_vs_storage_latency([r], t_ns=t, insert_ns=ins).iloc[0]
    n_star = 1 + ins / ((r - 1) * t)
    assert row["storage_latency_ns"] == pytest.approx(r * t, rel=1e-12)
    assert row["n_star"] == pytest.approx(n_star, rel=1e-9)
    assume(abs(n_star - round(n_star)) > 1e-6)  # floor is discontinuous at integers
    assert row["hits_required"] == max(1.0, math.floor(n_star))
    assume(abs(ins - (r - 1) * t) > 1e-6 * ins)
    assert (row["hits_required"] >= 2) == (ins > (r - 1) * t)


def test_hdd_break_even_from_the_device_timings():
    # n* - 1 = (Tm - T) / (T - t) = insert / (T - t): the HDD's T (milliseconds) dwarfs t and the insertion
    # cost (microseconds), so n* lies in (1, 2) and one hit suffices -- computed from the timings, not typed.
    be = fc.timings_from_device("hdd-7200", 4096, storage_path="paper-factor")
    r = fc.break_even(be)
    t, ins = fc.pagecache_latency(4096)[0], fc.insertion_cost(4096)
    assert r.n_star == pytest.approx(1 + ins / (be.T_ns - t), rel=1e-12)
    assert (r.hits_required == 1) == (ins < be.T_ns - t)


def test_figure2_required_hits_fall_with_storage_latency():
    t, ins = fc.pagecache_latency(4096)
    r = fc.hits_vs_storage_latency(np.logspace(0.05, 5, 100), t_ns=t, insert_ns=ins)
    assert np.all(np.diff(r["hits_required"]) <= 0)
    assert r["hits_required"].iloc[-1] == 1


def test_device_ordering_of_break_even():
    names = ["dram", "optane-dcpmm", "pcm-samsung-20nm", "nand-flash", "sata-ssd", "hdd-7200"]
    ns = [fc.break_even(fc.timings_from_device(n, 4096)).n_star for n in names]
    assert ns == sorted(ns, reverse=True)  # faster storage -> more hits needed


@pytest.mark.parametrize("kwargs", [dict(t_ns=float("nan"), T_ns=1, Tm_ns=1), dict(t_ns=-1, T_ns=1, Tm_ns=1),
                                    dict(t_ns=1, T_ns=float("inf"), Tm_ns=1), dict(t_ns=1, T_ns=2, Tm_ns=1),
                                    dict(t_ns=1, T_ns=2, Tm_ns=3, extra=1)])
def test_inputs_reject_bad_values(kwargs):
    with pytest.raises(ValidationError):
        fc.BreakEvenInputs(**kwargs)


@given(t=pos, T=pos, c=st.floats(0, 1e9))
def test_inputs_json_round_trip(t, T, c):
    m = fc.BreakEvenInputs(t_ns=t, T_ns=T, Tm_ns=T + c)
    assert fc.BreakEvenInputs.model_validate_json(m.model_dump_json()) == m


def test_timings_reject_bad_block_size():
    with pytest.raises(ValueError, match="block_size_bytes"):
        fc.timings_from_device("dram", 0)


# Hand derivation of timings_from_device(..., storage_path="paper-factor") at 4096 B from the bundled data.
# Inputs, verbatim:
#   data/measurements/pagecache_latency.csv, row 4096: cache_read_ns 1179.0, cache_insert_ns 1975.5 (first touch)
#   data/measurements/insertion_cost/insertion_cost.csv, row zram,4096,insert_steady_ns: 1647.5 (steady)
#   data/devices.csv (read_latency_ns, access_unit_bytes, read_bandwidth_MBps):
#     dram 101.5 ns, 64 B, 105560 MB/s; optane-dcpmm 305.0 ns, 256 B, 37630 MB/s;
#     pcm-samsung-20nm 120 ns, 64 B, 6400 MB/s
# transfer(4096) = latency + (4096 - unit) / bandwidth; 1 MB/s = 1e-3 B/ns:
#   dram    101.5 + 4032 / 105.56 = 139.6963 ns
#   optane  305.0 + 3840 / 37.63  = 407.0462 ns   -> extra = 267.3499 ns
#   pcm     120   + 4032 / 6.4    = 750.0000 ns   -> extra = 610.3037 ns
# T = 1.3 t + extra = 1532.7 + extra; Tm = T + insert; n* = (Tm - t) / (T - t):
#   first touch: optane Tm = 3775.5499, n* = 2596.5499 / 621.0499 = 4.18090
#                pcm    Tm = 4118.5037, n* = 2939.5037 / 964.0037 = 3.04927
#   steady:      optane Tm = 3447.5499, n* = 2268.5499 / 621.0499 = 3.65277
#                pcm    Tm = 3790.5037, n* = 2611.5037 / 964.0037 = 2.70902
# The expressions below redo this arithmetic in float (rel 1e-12: float rounding only, the model
# does the same operations); the 4-decimal literals pin the data too (abs 1e-3 ns / 1e-4).
_T_READ = 1179.0
_T_INS = {"first-touch": 1975.5, "steady": 1647.5}
_DRAM = 101.5 + (4096 - 64) / 105.56


@pytest.mark.parametrize("name, transfer, T_lit, insertion, nstar_lit", [
    ("optane-dcpmm", 305.0 + (4096 - 256) / 37.63, 1800.0499, "first-touch", 4.1809),
    ("pcm-samsung-20nm", 120.0 + (4096 - 64) / 6.4, 2143.0037, "first-touch", 3.0493),
    ("optane-dcpmm", 305.0 + (4096 - 256) / 37.63, 1800.0499, "steady", 3.6528),
    ("pcm-samsung-20nm", 120.0 + (4096 - 64) / 6.4, 2143.0037, "steady", 2.7090),
], ids=["optane-first-touch", "pcm-first-touch", "optane-steady", "pcm-steady"])
def test_timings_from_device_by_hand(name, transfer, T_lit, insertion, nstar_lit):
    ins = _T_INS[insertion]
    T = 1.3 * _T_READ + (transfer - _DRAM)
    Tm = T + ins
    be = fc.break_even(fc.timings_from_device(name, 4096, insertion=insertion, storage_path="paper-factor"))
    assert be.t_ns == pytest.approx(_T_READ, rel=1e-12)
    assert be.T_ns == pytest.approx(T, rel=1e-12) and be.T_ns == pytest.approx(T_lit, abs=1e-3)
    assert be.Tm_ns == pytest.approx(Tm, rel=1e-12) and be.Tm_ns == pytest.approx(T_lit + ins, abs=1e-3)
    assert be.n_star == pytest.approx((Tm - _T_READ) / (T - _T_READ), rel=1e-12)
    assert be.n_star == pytest.approx(nstar_lit, abs=1e-4)


def test_pagecache_latency_log_log_extrapolation():
    # Inside the table: the rows themselves (rel 1e-12: exp(log(x)) round trip).
    assert fc.pagecache_latency(4096) == pytest.approx((1179.0, 1975.5), rel=1e-12)
    # Beyond 1 MiB the last segment (512 KiB -> 1 MiB) continues as a straight line in log-log:
    # one more doubling multiplies by the same ratio, y(2 MiB) = y(1 MiB)^2 / y(512 KiB),
    # y(4 MiB) = y(1 MiB)^3 / y(512 KiB)^2, with the rows 524288 and 1048576:
    # read 70667.0 and 138401.2, insert 173660.8 and 354423.6.
    rd, ins = fc.pagecache_latency([2 * 2**20, 4 * 2**20])
    assert rd.tolist() == pytest.approx([138401.2**2 / 70667.0, 138401.2**3 / 70667.0**2], rel=1e-12)
    assert ins.tolist() == pytest.approx([354423.6**2 / 173660.8, 354423.6**3 / 173660.8**2], rel=1e-12)
    # ~271 us read at 2 MiB: about twice the 1 MiB figure, as the streaming copy dominates
    assert rd[0] == pytest.approx(271_058.5, abs=0.1)
    # and below 512 B the first segment: y(256) = y(512)^2 / y(1024)
    assert fc.pagecache_latency(256)[0] == pytest.approx(564.4**2 / 721.2, rel=1e-12)


def test_break_even_result_frame():
    r = fc.break_even(fc.BreakEvenInputs(t_ns=100, T_ns=130, Tm_ns=160))
    assert r.to_frame().to_dict("records") == [dict(t_ns=100.0, T_ns=130.0, Tm_ns=160.0, n_star=2.0,
                                                    hits_required=2.0)]
    never = fc.break_even(fc.BreakEvenInputs(t_ns=100, T_ns=100, Tm_ns=150))
    assert math.isinf(never.n_star) and math.isinf(never.hits_required)


def test_figure2_table_columns():
    df = fc.hits_vs_storage_latency(2.0, t_ns=100, insert_ns=100)  # a scalar ratio gives one row
    assert list(df.columns) == ["storage_over_cache", "storage_latency_ns", "n_star", "hits_required"]
    assert df.iloc[0].tolist() == [2.0, 200.0, 2.0, 2.0]


def test_same_run_storage_path():
    """``storage_path="same-run"``: t and T on DRAM-speed storage are the insertion cost's own run's
    page-cache hit and direct read (registry), T grows by exactly the device's extra transfer time,
    and the size range is the measured one."""
    from models.devices import get_device
    from models.provenance import param

    be = fc.timings_from_device("dram", storage_path="same-run")
    assert be.t_ns == pytest.approx(param("file_cache.samerun_hit_4096_ns").value, rel=1e-12)
    assert be.T_ns == pytest.approx(param("file_cache.samerun_direct_4096_ns").value, rel=1e-12)
    assert be.Tm_ns - be.T_ns == pytest.approx(fc.insertion_cost(4096), rel=1e-12)
    pcm = fc.timings_from_device("pcm-samsung-20nm", storage_path="same-run")
    extra = get_device("pcm-samsung-20nm").transfer_ns(4096) - get_device("dram").transfer_ns(4096)
    assert pcm.T_ns - be.T_ns == pytest.approx(max(0.0, extra), rel=1e-12) and pcm.t_ns == be.t_ns
    # the factor is not used on the same-run path
    assert fc.timings_from_device("dram", storage_path="same-run", io_stack_factor=3.0) == be
    # between measured sizes: log-log interpolation, monotone like the measurements
    t8, T8 = fc.same_run_timings(8192)
    t6, T6 = fc.same_run_timings(6000)
    assert be.t_ns < t6 < t8 and be.T_ns < T6 < T8
    with pytest.raises(ValueError, match="4096-65536 B"):
        fc.same_run_timings(1024)
    with pytest.raises(ValueError, match="storage_path"):
        fc.timings_from_device("dram", storage_path="zram")


def test_same_run_keys_and_refusal_name_the_option():
    """Issue 39: the same-run path reads the same run's registry entries (not the factor); a block size with no
    same-run direct read is refused naming the option the caller gives."""
    from models.provenance import PARAMS

    keys = fc.break_even_keys("optane-dcpmm", block_size_bytes=8192, storage_path="same-run")
    assert keys[:2] == ["file_cache.samerun_hit_8192_ns", "file_cache.samerun_direct_8192_ns"]
    assert "file_cache.io_stack_factor" not in keys and all(k in PARAMS for k in keys[:3])
    assert fc.break_even_keys("optane-dcpmm", storage_path="paper-factor")[:2] == [
        "file_cache.io_stack_factor", "file_cache.pagecache_read_4k_ns"]
    fc.check_storage_path("same-run", 4096, option="--storage-path")  # measured: accepted
    fc.check_storage_path("paper-factor", 512, option="--storage-path")
    with pytest.raises(ValueError, match=r"^Storage access time T same-run \(the default\): .*1024-byte blocks.*or the paper"):
        fc.check_storage_path("same-run", 1024, option="Storage access time T", other="the paper's 1.3 t")
    with pytest.raises(ValueError, match="--storage-path must be one of paper-factor, same-run"):
        fc.check_storage_path("zram", option="--storage-path")


@pytest.mark.parametrize("block", [512, 2048, 131072])
def test_default_storage_path_is_same_run_and_refuses_unmeasured_blocks(block):
    """The one default of T (issue: one default): the direct read measured here, not the paper's factor;
    at a block size with no same-run direct read the default refuses -- naming the measured range and
    ``paper-factor`` -- rather than falling back to the factor unasked; asked for, the factor answers."""
    from models.provenance import param

    assert fc.DEFAULT_STORAGE_PATH == "same-run"
    for dev in ("dram", "optane-dcpmm", "hdd-7200"):
        assert fc.timings_from_device(dev) == fc.timings_from_device(dev, storage_path="same-run")
        assert fc.timings_from_device(dev) != fc.timings_from_device(dev, storage_path="paper-factor")
    assert fc.timings_from_device("dram").T_ns == pytest.approx(param("file_cache.samerun_direct_4096_ns").value)
    assert fc.break_even_keys("dram")[:2] == fc.storage_path_keys("same-run", 4096)
    with pytest.raises(ValueError, match=rf"^storage_path same-run \(the default\): .*for {block}-byte blocks "
                                         r"\(only 4096-65536 B.*or storage_path paper-factor \(the paper's T = 1.3 t"):
        fc.timings_from_device("optane-dcpmm", block)
    paper = fc.timings_from_device("optane-dcpmm", block, storage_path="paper-factor")
    assert paper.T_ns > paper.t_ns > 0
