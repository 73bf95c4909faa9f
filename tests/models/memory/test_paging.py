"""Paging model (seed 004 §3, eqs. 4-6): formulas, kernels vs brute force, properties, input errors."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from models.memory import paging as pg
from models.traces.core import MemTrace


# ----------------------------------------------------------------------------- reference simulators
def lru_misses(pages, cap):
    """Plain LRU (OrderedDict) misses."""
    c: OrderedDict = OrderedDict()
    miss = 0
    for p in pages:
        if p in c:
            c.move_to_end(p)
        else:
            miss += 1
            if cap == 0:
                continue
            if len(c) >= cap:
                c.popitem(last=False)
            c[p] = True
    return miss


def clock_misses(pages, cap):
    """Second chance as in the paper §3.2: every access sets the page's reference bit, the
    faulting one included ("the reference bit is set by the hardware at any access")."""
    frames: list = []
    ref: list = []
    where: dict = {}
    hand = 0
    miss = 0
    for p in pages:
        if p in where:
            ref[where[p]] = 1
            continue
        miss += 1
        if cap == 0:
            continue
        if len(frames) < cap:
            where[p] = len(frames)
            frames.append(p)
            ref.append(1)
            continue
        while ref[hand]:
            ref[hand] = 0
            hand = (hand + 1) % cap
        del where[frames[hand]]
        frames[hand] = p
        ref[hand] = 1
        where[p] = hand
        hand = (hand + 1) % cap
    return miss


addresses = st.lists(st.integers(0, 1 << 20), min_size=1, max_size=300).map(lambda x: np.array(x, np.uint64))


# ----------------------------------------------------------------------------- equations 4-6
def test_amat_equations_4_to_6_by_hand():
    # R_T = 0.02, R_F = 0.001, t_e = 1, t_r = 100, T_PF = 50 000:
    # T_ADDR = 0.98*1 + 0.02*101 = 3.0 ; T_DATA = 0.999*100 + 0.001*50100 = 150.0
    a, d, t = pg.amat(0.02, 0.001, t_e_ns=1.0, t_r_ns=100.0, t_pf_ns=50_000.0)
    assert a == pytest.approx(3.0)
    assert d == pytest.approx(150.0)
    assert t == pytest.approx(153.0)


def test_amat_broadcasts():
    a, d, t = pg.amat(np.array([[0.0], [1.0]]), np.array([0.0, 1.0]), t_e_ns=2.0, t_r_ns=10.0,
                      t_pf_ns=np.array([[100.0], [1000.0]]))
    assert t.shape == (2, 2)
    assert t[0, 0] == pytest.approx(2 + 10)
    assert t[1, 1] == pytest.approx(12 + 1010)


@settings(max_examples=60)
@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 10), st.floats(0, 1e3), st.floats(0, 1e7))
def test_amat_at_least_te_plus_tr(rt, rf, te, tr, tpf):
    a, d, t = pg.amat(rt, rf, t_e_ns=te, t_r_ns=tr, t_pf_ns=tpf)
    assert t >= te + tr - 1e-9 * (1 + te + tr)
    assert a >= te - 1e-12 and d >= tr - 1e-9 * (1 + tr)


def test_memory_fraction_without_4k_pages_and_huge_inputs(capsys):
    from cli.main import main

    addr = (np.arange(4000, dtype=np.uint64) * 4096) % (1 << 20)  # 256 distinct 4 KiB pages
    prof = pg.profile_trace(addr, page_sizes=[512, 8192], memory_fraction=[0.5])
    # fractions refer to the 4 KiB footprint even when 4 KiB is not profiled
    assert prof.reference_footprint_bytes() == 256 * 4096
    assert prof.memory_bytes(memory_fraction=[0.5]).tolist() == [128 * 4096]
    # a memory far beyond the footprint is "everything fits" (was an int64 overflow -> IndexError)
    p8 = prof.pages[8192]
    assert p8.lru_fault_rate(1e300) == pytest.approx(p8.footprint_pages / p8.n_refs)
    with pytest.raises(ValueError, match="page_sizes: inf is not a power of two"):
        pg.profile_trace(addr, page_sizes=[float("inf")])
    with pytest.raises(SystemExit):  # argparse rejects it, naming the option
        main(["amat", "sqlite", "--max-requests", "5000", "--page-sizes", "inf"])
    assert "--page-sizes: 'inf' is not a finite size" in capsys.readouterr().err
    assert main(["amat", "sqlite", "--max-requests", "5000", "--page-sizes", "512,8192"]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 3


def test_amat_rejects_bad_rates():
    with pytest.raises(ValueError, match="tlb_miss_rate"):
        pg.amat(1.5, 0.0, t_e_ns=1, t_r_ns=1, t_pf_ns=1)
    with pytest.raises(ValueError, match="fault_rate"):
        pg.amat(0.0, np.nan, t_e_ns=1, t_r_ns=1, t_pf_ns=1)
    with pytest.raises(ValueError, match="t_pf_ns"):
        pg.amat(0.0, 0.0, t_e_ns=1, t_r_ns=1, t_pf_ns=-1)


def test_fault_service_time_formula():
    s = pg.Storage("x", latency_ns=2000.0, bandwidth_MBps=500.0)  # 0.5 B/ns
    assert pg.fault_service_ns(4096, s, 300.0) == pytest.approx(300 + 2000 + 4096 / 0.5)


def test_latency_multiple_storage_scales_latency_and_bandwidth():
    t_r, bw = pg.default_memory_ns(), pg.default_dram_bandwidth_MBps()
    for k in pg.LATENCY_MULTIPLES:
        s = pg.storage_from_multiple(k)
        assert s.latency_ns == pytest.approx(k * t_r)
        assert s.bandwidth_MBps == pytest.approx(bw / k)
    # 1x DRAM, 4 KiB page: 101.5 ns + 4096 B / 105.56 GB/s = 140.3 ns
    assert pg.fault_service_ns(4096, pg.storage_from_multiple(1)) == pytest.approx(101.5 + 4096 / 105.56, rel=1e-9)


def test_storage_from_device_and_latency():
    s = pg.storage_from_device("pcm-memext")
    assert s.latency_ns == 150.0
    assert s.latency_multiple == pytest.approx(150 / 101.5)
    s2 = pg.storage_from_latency(5000.0, 2000.0)
    assert (s2.latency_ns, s2.bandwidth_MBps) == (5000.0, 2000.0)
    with pytest.raises(KeyError, match="valid names"):
        pg.storage_from_device("floppy")
    with pytest.raises(ValueError, match="latency_multiple"):
        pg.storage_from_multiple(0)


# ----------------------------------------------------------------------------- kernels vs brute force
@settings(max_examples=40, deadline=None)
@given(addresses)
def test_compact_page_ids_match_unique(addr):
    ids = pg.compact_page_ids(addr, [512, 4096, 65536])
    for p, got in ids.items():
        _, want = np.unique(addr // p, return_inverse=True)
        assert np.array_equal(got, want.ravel())


@settings(max_examples=30, deadline=None)
@given(addresses, st.sampled_from([512, 2048, 8192]))
def test_tlb_and_lru_memory_curves_match_brute_force(addr, page):
    prof = pg.profile_trace(addr, page_sizes=[page])
    pages = (addr // page).tolist()
    pp = prof.pages[page]
    entries = np.arange(0, pp.footprint_pages + 3)
    hr = pp.lru_hit_rate(entries)
    want = np.array([1 - lru_misses(pages, int(c)) / len(pages) for c in entries])
    assert np.allclose(hr, want)
    # properties: rates in [0,1], hit rate non-decreasing in TLB size, LRU faults non-increasing in memory
    assert np.all((hr >= 0) & (hr <= 1))
    assert np.all(np.diff(hr) >= 0)
    fr = pp.lru_fault_rate(entries * page)
    assert np.all(np.diff(fr) <= 0) and np.all((fr >= 0) & (fr <= 1))


# 16 pages of 1 KiB: re-references (hits) are common, so the reference bits matter (with
# no hits CLOCK evicts in FIFO order whatever bit a new page gets)
hot_addresses = st.lists(st.integers(0, (1 << 14) - 1), min_size=1, max_size=300).map(lambda x: np.array(x, np.uint64))


@settings(max_examples=30, deadline=None)
@given(hot_addresses, st.lists(st.integers(0, 20), min_size=1, max_size=4))
@example(addr=np.array([0, 0, 1024, 2048, 3072, 0], np.uint64), frames=[3])  # hit bit vs insert bit
def test_clock_fault_rate_matches_second_chance_reference(addr, frames):
    page = 1024
    prof = pg.profile_trace(addr, page_sizes=[page], memory_bytes=[f * page for f in frames])
    pages = (addr // page).tolist()
    got = prof.clock_fault_rates([f * page for f in frames])[0]
    want = [clock_misses(pages, f) / len(pages) for f in frames]
    assert np.allclose(got, want)
    assert np.all((got >= 0) & (got <= 1))


def test_memory_is_the_same_bytes_for_every_page_size():
    rng = np.random.default_rng(1)
    addr = rng.integers(0, 1 << 22, 5000).astype(np.uint64)
    prof = pg.profile_trace(addr, page_sizes=[1024, 4096], memory_fraction=[0.25])
    fp4 = prof.reference_footprint_bytes()
    assert fp4 == len(np.unique(addr // 4096)) * 4096
    t = pg.paging_table(prof, pg.PagingInputs(page_sizes_bytes=(1024, 4096), memory_fraction=(0.25,),
                                              latency_multiples=(1,)))
    assert np.allclose(t["memory_bytes"], 0.25 * fp4)
    assert t["frames"].tolist() == [int(0.25 * fp4 // 1024), int(0.25 * fp4 // 4096)]


def test_memtrace_instruction_fetches_are_excluded_by_default():
    tr = MemTrace([0, 4096, 8192, 0], [4, 8, 8, 8], [0, 1, 2, 3])
    assert pg.profile_trace(tr, page_sizes=[4096]).n_refs == 3
    assert pg.profile_trace(tr, page_sizes=[4096], include_instructions=True).n_refs == 4
    with pytest.raises(ValueError, match="no data references"):
        pg.profile_trace(MemTrace([0], [4], [0]), page_sizes=[4096])


def test_table_rows_and_amat_consistency():
    rng = np.random.default_rng(7)
    addr = (rng.zipf(1.3, 20000) * 64 % (1 << 24)).astype(np.uint64)
    inp = pg.PagingInputs(memory_fraction=(0.25, 1.0), latency_multiples=(1, 100), tlb_entries=16)
    t = pg.run_paging(addr, inp)
    assert len(t) == 2 * 2 * len(pg.PAGE_SIZES)
    a, d, tot = pg.amat(t["tlb_miss_rate"], t["fault_rate"], t_e_ns=pg.DEFAULT_TLB_ACCESS_NS,
                        t_r_ns=pg.default_memory_ns(), t_pf_ns=t["t_pf_ns"])
    assert np.allclose(t["amat_ns"], tot) and np.allclose(t["t_addr_ns"], a) and np.allclose(t["t_data_ns"], d)
    assert np.all(t["amat_ns"] >= pg.DEFAULT_TLB_ACCESS_NS + pg.default_memory_ns())
    best = pg.best_page_sizes(t)
    assert len(best) == 4
    for _, b in best.iterrows():
        g = t[(t["storage"] == b["storage"]) & (t["memory_bytes"] == b["memory_bytes"])]
        assert b["amat_ns"] == pytest.approx(g["amat_ns"].min())
        base = g[g["page_size"] == 4096].iloc[0]
        assert b["d_addr_ns"] + b["d_data_ns"] == pytest.approx(b["amat_ns"] - base["amat_ns"])


def test_lru_policy_option_uses_the_stack_distance_curve():
    rng = np.random.default_rng(3)
    addr = rng.integers(0, 1 << 20, 3000).astype(np.uint64)
    t = pg.run_paging(addr, pg.PagingInputs(policy="lru", memory_fraction=(0.5,), latency_multiples=(10,)))
    assert np.allclose(t["fault_rate"], t["fault_rate_lru"])


# ----------------------------------------------------------------------------- input errors
@pytest.mark.parametrize("kw, field", [
    ({"page_sizes_bytes": (3000,)}, "page_sizes_bytes"),
    ({"tlb_entries": 0}, "tlb_entries"),
    ({"memory_bytes": (1e6,), "memory_fraction": (0.5,)}, "memory"),
    ({"latency_multiples": (1,), "device": "dram"}, "storage"),
    ({"latency_multiples": (-1,)}, "latency_multiples"),
    ({"t_e_ns": float("nan")}, "t_e_ns"),
    ({"storage_bandwidth_MBps": 100.0}, "storage_bandwidth_MBps"),
    ({"bogus": 1}, "bogus"),
])
def test_inputs_validation_names_the_field(kw, field):
    with pytest.raises(ValidationError, match=field):
        pg.PagingInputs(**kw)


def test_unknown_device_is_a_key_error():
    with pytest.raises((KeyError, ValidationError), match="floppy"):
        pg.PagingInputs(device="floppy")


def test_profile_errors():
    with pytest.raises(ValueError, match="power of two"):
        pg.profile_trace(np.array([1, 2], np.uint64), page_sizes=[1000])
    with pytest.raises(ValueError, match="at most one"):
        pg.profile_trace(np.array([1, 2], np.uint64), memory_bytes=[1], memory_fraction=[1])
    with pytest.raises(ValueError, match="addresses must be >= 0"):
        pg.profile_trace(np.array([-1, 2]))
    prof = pg.profile_trace(np.array([0, 1 << 20, 0], np.uint64), page_sizes=[4096], memory_bytes=[4096])
    with pytest.raises(KeyError, match="not simulated"):
        prof.clock_fault_rates([1])  # 0 frames: not simulated


# ----------------------------------------------------------------------------- hand-computed rows
@settings(max_examples=30, deadline=None)
@given(addresses, st.sampled_from([512, 2048, 8192]), st.floats(0.01, 0.99))
def test_lru_memory_between_page_multiples_rounds_down(addr, page, part):
    # memory of (C + part) pages holds C frames: the fault rate is the LRU miss rate at C entries
    prof = pg.profile_trace(addr, page_sizes=[page])
    pages = (addr // page).tolist()
    pp = prof.pages[page]
    frames = np.arange(0, pp.footprint_pages + 2)
    got = pp.lru_fault_rate((frames + part) * page)
    want = np.array([lru_misses(pages, int(c)) / len(pages) for c in frames])
    assert np.allclose(got, want)


def _hand_trace():
    # 4 KiB pages referenced 0, 1, 0, 0, 2, 0 (offsets inside the pages vary): footprint 3 pages = 12288 B
    return np.array([0, 4096 + 8, 100, 4000, 8192 + 64, 12], np.uint64)


@pytest.mark.parametrize("policy", ["lru", "clock"])
def test_paging_table_row_by_hand(policy):
    # TLB of 1 entry over pages 0 1 0 0 2 0: miss miss miss hit miss miss -> R_T = 5/6.
    # Memory 6144 B = 1.5 pages -> 1 frame (floor): LRU and CLOCK both fault 5 times -> R_F = 5/6
    # (with 2 frames it would be 0 1 0 0 2 0 = m m h h m h -> 3/6).
    # Storage 1000 ns + 4096 B at 4096 MB/s (1000 ns) -> T_PF = 2000 ns. t_e = 1, t_r = 100:
    # T_ADDR = 1 + 5/6 x 100 = 84.333; T_DATA = 100 + 5/6 x 2000 = 1766.667; AMAT = 1851.
    inp = pg.PagingInputs(page_sizes_bytes=(4096,), tlb_entries=1, memory_bytes=(6144.0,), storage_latency_ns=1000.0,
                          storage_bandwidth_MBps=4096.0, t_e_ns=1.0, t_r_ns=100.0, policy=policy)
    t = pg.run_paging(_hand_trace(), inp)
    assert len(t) == 1
    r = t.iloc[0]
    assert r["memory_bytes"] == 6144.0 and r["memory_fraction"] == pytest.approx(0.5, rel=1e-12)
    assert r["frames"] == 1 and r["tlb_entries"] == 1 and r["page_size"] == 4096
    assert r["tlb_hit_rate"] == pytest.approx(1 / 6) and r["tlb_miss_rate"] == pytest.approx(5 / 6)
    assert r["fault_rate"] == pytest.approx(5 / 6) and r["fault_rate_lru"] == pytest.approx(5 / 6)
    assert r["t_pf_ns"] == pytest.approx(2000.0)
    assert r["latency_multiple"] == pytest.approx(10.0)
    assert r["t_addr_ns"] == pytest.approx(1 + 500 / 6)
    assert r["t_data_ns"] == pytest.approx(100 + 10000 / 6)
    assert r["amat_ns"] == pytest.approx(1851.0)
    # 2 TLB entries: 0 1 0 0 2 0 -> m m h h m h: R_T = 1/2; memory as a fraction of the footprint:
    # 0.75 x 12288 = 9216 B = 2.25 pages -> 2 frames
    t2 = pg.run_paging(_hand_trace(), inp.model_copy(update={"tlb_entries": 2, "memory_bytes": None,
                                                            "memory_fraction": (0.75,)}))
    r2 = t2.iloc[0]
    assert r2["tlb_hit_rate"] == pytest.approx(0.5)
    assert r2["memory_bytes"] == pytest.approx(9216.0) and r2["memory_fraction"] == pytest.approx(0.75)
    assert r2["frames"] == 2 and r2["fault_rate_lru"] == pytest.approx(0.5)


def test_storage_from_device_multiple_uses_the_given_t_r():
    # pcm-memext reads in 150 ns: 3x a 50 ns memory
    assert pg.storage_from_device("pcm-memext", t_r_ns=50.0).latency_multiple == pytest.approx(3.0)
    t = pg.run_paging(_hand_trace(), pg.PagingInputs(page_sizes_bytes=(4096,), memory_bytes=(8192.0,),
                                                    device="pcm-memext", t_r_ns=50.0))
    assert t["latency_multiple"].tolist() == [pytest.approx(3.0)]


def test_best_page_sizes_ties_and_decomposition_by_hand():
    # rows given out of page-size order; AMAT ties (2048 / 4096 at 3.0) go to the smaller page, fault-rate
    # ties (4096 / 8192 at 0.05) to the larger one (fewer TLB entries needed for the same faults).
    t = pd.DataFrame({
        "storage": "s", "latency_multiple": 10.0, "memory_bytes": 1e6, "memory_fraction": 0.5,
        "page_size": [8192, 2048, 4096, 1024],
        "amat_ns": [4.0, 3.0, 3.0, 5.0],
        "t_addr_ns": [0.5, 1.5, 1.0, 2.0],
        "t_data_ns": [3.5, 1.5, 2.0, 3.0],
        "fault_rate": [0.05, 0.08, 0.05, 0.1],
    })
    b = pg.best_page_sizes(t).iloc[0]
    assert b["best_page_amat"] == 2048 and b["amat_ns"] == 3.0
    assert b["best_page_fault"] == 8192
    # gain over the 4 KiB baseline: T_ADDR 1.5 - 1.0 = +0.5, T_DATA 1.5 - 2.0 = -0.5
    assert b["d_addr_ns"] == pytest.approx(0.5) and b["d_data_ns"] == pytest.approx(-0.5)
    assert b["baseline_amat_ns"] == 3.0 and b["memory_fraction"] == 0.5


# ----------------------------------------------------------------------------- one mapping for CLI and page
def test_paging_inputs_maps_one_memory_size_and_one_storage_choice():
    from models.devices import get_device

    assert pg.paging_inputs() == pg.PagingInputs(memory_fraction=(0.5,), latency_multiples=(10.0,))
    p = pg.paging_inputs(memory_mib=2.0, device="optane-dcpmm", tlb_entries=8, t_e_ns=None)
    assert (p.memory_bytes, p.device, p.tlb_entries, p.t_e_ns) == ((2.0 * 2**20,), "optane-dcpmm", 8,
                                                                   pg.DEFAULT_TLB_ACCESS_NS)
    assert pg.paging_inputs(latency_multiple=pg.LATENCY_MULTIPLES).latency_multiples == pg.LATENCY_MULTIPLES
    # a catalogue profile keeps its name; a profile defined elsewhere (e.g. in the app) maps to its timings
    assert pg.paging_inputs(device=get_device("optane-dcpmm")).device == "optane-dcpmm"
    mine = get_device("optane-dcpmm").model_copy(update={"name": "my-scm", "read_latency_ns": 777.0})
    q = pg.paging_inputs(device=mine)
    assert q.device is None and q.storage_latency_ns == 777.0
    assert q.storage_bandwidth_MBps == mine.effective_read_bandwidth_MBps
    assert q.storages()[0].latency_ns == 777.0
    with pytest.raises(ValueError, match="storage: give only one"):
        pg.paging_inputs(latency_multiple=10, storage_latency_ns=100)
    with pytest.raises(ValueError, match="storage_bandwidth_MBps needs storage_latency_ns"):
        pg.paging_inputs(device="optane-dcpmm", storage_bandwidth_MBps=10)
    with pytest.raises(ValueError, match="memory: give memory_fraction or memory_mib"):
        pg.paging_inputs(memory_fraction=0.5, memory_mib=1)
    with pytest.raises(ValidationError, match="tlb_entries"):
        pg.paging_inputs(tlb_entries=0)


def test_paging_profile_uses_the_inputs_and_truncates():
    tr = MemTrace(np.arange(40, dtype=np.uint64) % 10 * 4096, np.full(40, 8), np.where(np.arange(40) % 4, 1, 0))
    inp = pg.PagingInputs(page_sizes_bytes=(4096,), memory_fraction=(0.5,), policy="lru")
    prof = pg.paging_profile(tr, inp, max_refs=20)
    assert prof.n_refs == 20  # max_refs counts data references (instruction fetches dropped first: issue 15)
    assert prof.pages[4096].clock_faults == {}  # LRU asked: no CLOCK run
    full = pg.paging_profile(tr, inp.model_copy(update={"policy": "clock"}))
    assert full.n_refs == 30 and full.pages[4096].clock_faults
    assert pg.paging_table(full, inp).equals(pg.run_paging(tr, inp))
    with pytest.raises(ValueError, match="max_refs"):
        pg.paging_profile(tr, inp, max_refs=0)


def test_profiles_are_results_with_one_table():
    prof = pg.profile_trace(np.array([0, 4096, 8192, 0], np.uint64), page_sizes=[4096, 8192])
    df = prof.to_frame()
    assert df.columns.tolist() == ["page_size_bytes", "n_refs", "footprint_pages", "footprint_bytes"]
    assert df.values.tolist() == [[4096, 4, 3, 12288], [8192, 4, 2, 16384]]


def test_transfer_fault_model_is_latency_per_line():
    s = pg.Storage("s", 1000.0, 1000.0)
    got = pg.fault_service_ns([32, 64, 512, 4096], s, 300.0, fault_model="transfer")
    assert got.tolist() == [1300.0, 1300.0, 300.0 + 8 * 1000.0, 300.0 + 64 * 1000.0]
    assert pg.fault_service_ns(512, s, fault_model="transfer", line_bytes=512) == 1000.0
    # the latency model is the default and keeps its formula
    assert pg.fault_service_ns(4096, s, 300.0) == pg.fault_service_ns(4096, s, 300.0, fault_model="latency")
    with pytest.raises(ValueError, match="fault_model"):
        pg.fault_service_ns(4096, s, fault_model="bandwidth")
    with pytest.raises(ValueError, match="line_bytes"):
        pg.fault_service_ns(4096, s, fault_model="transfer", line_bytes=0)


def test_transfer_scales_the_per_byte_cost_with_the_latency_multiple():
    # per byte: K t_r / 64 B, i.e. DRAM's line-at-a-time cost scaled by K; the latency model's
    # per-byte cost is 1 / (B_DRAM / K)
    for k in (1.0, 10.0, 100.0):
        s = pg.storage_from_multiple(k)
        t = pg.fault_service_ns([4096, 8192], s, fault_model="transfer")
        assert t[1] - t[0] == pytest.approx(4096 * k * pg.default_memory_ns() / 64, rel=1e-12)
        lat = pg.fault_service_ns([4096, 8192], s)
        assert lat[1] - lat[0] == pytest.approx(4096 / (s.bandwidth_MBps * 1e6) * 1e9, rel=1e-12)


def test_paging_table_uses_the_chosen_fault_model():
    addr = (np.arange(4000, dtype=np.uint64) * 9973) % (1 << 22)
    prof = pg.profile_trace(addr, page_sizes=[512, 4096], memory_fraction=[0.25])
    for fm in ("latency", "transfer"):
        inp = pg.PagingInputs(page_sizes_bytes=(512, 4096), memory_fraction=(0.25,), latency_multiples=(10.0,),
                              fault_model=fm)
        t = pg.paging_table(prof, inp).set_index("page_size")
        want = pg.fault_service_ns([512, 4096], pg.storage_from_multiple(10.0), fault_model=fm)
        assert t["t_pf_ns"].tolist() == want.tolist()
        assert np.allclose(t["amat_ns"], t["t_addr_ns"] + t["t_data_ns"])
    with pytest.raises(ValidationError, match="fault_model"):
        pg.PagingInputs(fault_model="both")


def test_memory_sizes_past_int64_frames_are_refused():
    """A memory size of 2**63 bytes or more (e.g. a memory fraction of 1e20) would cast its frame count past int64:
    refused with a message, not a column of garbage (the CLI fuzz found ``amat --memory-frac 1e20``)."""
    from models.memory.paging import _check_memory_sizes

    _check_memory_sizes(np.array([0.0, 4096.0, 2.0**62]))
    with pytest.raises(ValueError, match=r"below 2\*\*63 bytes"):
        _check_memory_sizes(np.array([4096.0, 1e26]))
