"""Model adapters: the analytic variation over samples equals re-running the model itself."""

from __future__ import annotations

import numpy as np
import pytest

from models import traces
from models.devices import get_device
from models.endurance import lifetime as lt
from models.memory import memory_extension as me
from models.memory import paging as pg
from models.storage import file_cache as fc
from models.storage import file_cache_sim as fcs
from models.storage import write_cache as wc
from models.uncertainty import analyze
from tests import uncertainty_adapters as A

#: An unbounded eviction buffer (closed-form run time), where the model has a bounded one.
UNBOUNDED = {"eviction_buffer_pages": None} if "eviction_buffer_pages" in me.MemExtConfig.model_fields else {}


@pytest.fixture(scope="module")
def block_trace():
    return traces.load("synthetic:fin1", kind="block", n_requests=4000)


@pytest.fixture(scope="module")
def mem_trace():
    return traces.load("sqlite", kind="memory", max_requests=60_000)


def test_breakeven_varies_like_the_model():
    pf = {"storage_path": "paper-factor"}  # the factor enters only the paper's storage path
    m = A.breakeven_model(device="optane-dcpmm", io_stack_factor=1.25, **pf)
    want = fc.break_even(fc.timings_from_device("optane-dcpmm", io_stack_factor=1.25, **pf)).n_star
    assert m.point() == pytest.approx(want, rel=1e-12)
    v = {**m.points(), "file_cache.io_stack_factor": 1.37, "device:optane-dcpmm.read_latency_ns": 400.0}
    dev = get_device("optane-dcpmm").with_updates(read_latency_ns=400.0)
    want = fc.break_even(fc.timings_from_device(dev, io_stack_factor=1.37, **pf)).n_star
    assert float(m.evaluate(v)) == pytest.approx(want, rel=1e-12)
    typed = A.breakeven_model(t_ns=100, T_ns=130, Tm_ns=160)
    assert typed.point() == 2.0 and typed.verdict.threshold == 3.0


def test_lifetime_is_the_closed_form():
    m = A.lifetime_model(capacity_bytes=16e9, endurance_writes_per_cell=1e7, write_rate_bytes_per_s=1e9,
                         wear_efficiency=0.5)
    assert m.point() == pytest.approx(lt.lifetime_years(16e9, 1e7, 1e9, wear_efficiency=0.5), rel=1e-12)
    v = {**m.points(), "endurance": 3e6, "write_rate": 2e8, "lifetime.wear_efficiency": 0.2}
    assert float(m.evaluate(v)) == pytest.approx(lt.lifetime_years(16e9, 3e6, 2e8, wear_efficiency=0.2), rel=1e-12)


def test_amat_from_one_profile_equals_the_paging_table(mem_trace):
    inp = pg.paging_inputs(memory_fraction=0.25, latency_multiple=100)
    prof = pg.paging_profile(mem_trace, inp)
    m = A.amat_model(prof, inp, page_size=4096)
    tab = pg.paging_table(prof, inp).set_index("page_size")
    assert m.point() == pytest.approx(tab.loc[4096, "amat_ns"], rel=1e-12)
    # another TLB size, t_e and fault overhead, without re-profiling: the table at those inputs
    other = pg.paging_inputs(memory_fraction=0.25, latency_multiple=100, tlb_entries=23, t_e_ns=1.5,
                             fault_overhead_ns=777.0)
    v = {**m.points(), "paging.tlb_entries": 23, "paging.tlb_access_ns": 1.5, "paging.fault_overhead_ns": 777.0}
    assert float(m.evaluate(v)) == pytest.approx(pg.paging_table(prof, other).set_index("page_size").loc[4096, "amat_ns"],
                                                 rel=1e-12)


@pytest.mark.parametrize("writeback,buffer", [("buffered", "unbounded"), ("sync", "unbounded"),
                                              ("buffered", "bounded"), ("buffered", "tiny")])
def test_memext_times_vary_analytically_on_one_simulation(mem_trace, writeback, buffer):
    if buffer != "unbounded" and not UNBOUNDED:
        pytest.skip("no bounded eviction buffer in this model version")
    stream = me.page_stream(mem_trace)
    size = {"unbounded": UNBOUNDED, "bounded": {}, "tiny": {"eviction_buffer_pages": 2}}[buffer]
    cfg = me.MemExtConfig(writeback=writeback, **size)
    m = A.memext_model(stream, cfg, baseline=None)
    assert not any(i.resimulates for i in m.inputs)
    assert m.point() == pytest.approx(me.simulate_memext(stream, cfg).slowdown, rel=1e-12)
    rng = np.random.default_rng(0)
    for _ in range(3):
        fo, tref, rd, wr = rng.uniform(500, 20000), rng.uniform(0.3, 5), rng.uniform(100, 200), rng.uniform(1e3, 2e4)
        v = {**m.points(), "memext.fault_overhead_ns": fo, "memext.base_ns_per_ref": tref,
             "device:pcm-memext.read_latency_ns": rd, "device:pcm-memext.write_latency_ns": wr}
        dev = get_device("pcm-memext").with_updates(read_latency_ns=rd, write_latency_ns=wr)
        want = me.simulate_memext(stream, cfg.model_copy(update={"fault_overhead_ns": fo, "base_ns_per_ref": tref}),
                                  device=dev).slowdown
        assert np.asarray(m.evaluate(v)).reshape(-1)[0] == pytest.approx(want, rel=1e-9)
    ratio = A.memext_model(stream, cfg)  # against Flash on the same counts
    flash = me.simulate_memext(stream, cfg.model_copy(update={"device": "nand-flash"})).slowdown
    assert ratio.point() == pytest.approx(m.point() / flash, rel=1e-12)
    assert ratio.verdict.statement == "a pcm-memext extension is faster than a nand-flash one"


@pytest.mark.parametrize("cfg", [dict(prefetch_depth=4, writeback="sync"), dict(policy="age", writeback="sync")],
                         ids=["prefetch", "age"])
def test_memext_times_that_change_the_simulation_resimulate(mem_trace, cfg):
    stream = me.page_stream(mem_trace)
    c = me.MemExtConfig(**cfg)
    m = A.memext_model(stream, c, baseline=None)
    assert all(i.resimulates for i in m.inputs)
    r = analyze(m, n=8, seed=0)
    assert r.p5 == r.p95 == r.point and len(r.tornado)
    fo = r.tornado.set_index("parameter").loc["memext.fault_overhead_ns"]
    want = me.simulate_memext(stream, c.model_copy(update={"fault_overhead_ns": fo.high})).slowdown
    assert fo.output_high == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("policy", ["halo", "lru"])
def test_write_cache_streams_split_the_execution_time(block_trace, policy):
    req = wc.prepare_requests(block_trace)
    parts = A.writecache_streams(req, cache_mb=4.0, policy=policy)
    none, cached = wc.run_write_cache(req, "none", 0.0), wc.run_write_cache(req, policy, 4.0)
    assert sum(parts["none"]) / 1e3 == pytest.approx(none.exec_time_s, rel=1e-9)
    assert sum(parts[policy]) / 1e3 == pytest.approx(cached.exec_time_s, rel=1e-9)
    m = A.writecache_model(req, cache_mb=4.0, policy=policy)
    assert m.point() == pytest.approx(none.exec_time_s / cached.exec_time_s, rel=1e-9)


def test_write_cache_tornado_resimulates_halo_constants(block_trace):
    req = wc.prepare_requests(block_trace)
    m = A.writecache_model(req, cache_mb=4.0)
    want = (wc.run_write_cache(req, "none", 0.0).exec_time_s
            / wc.run_write_cache(req, "halo", 4.0, params=wc.HaloParams(threshold=0.9)).exec_time_s)
    assert m.resimulate({"write_cache.destage_threshold": 0.9}) == pytest.approx(want, rel=1e-9)
    # seek time scales only the seek part: a 2x mean seek equals the analytic scaling
    seek = "device:hdd-7200.avg_seek_ns"
    parts = A.writecache_streams(req, cache_mb=4.0)
    v = {**m.points(), seek: 2 * m.points()[seek]}
    t = {p: parts[p][0] * 2 + sum(parts[p][1:]) for p in parts}
    assert float(m.evaluate(v)) == pytest.approx(t["none"] / t["halo"], rel=1e-12)
    vs_lru = A.writecache_model(req, cache_mb=4.0, baseline="lru", halo_inputs=False)
    assert vs_lru.point() == pytest.approx(wc.run_write_cache(req, "lru", 4.0).exec_time_s
                                           / wc.run_write_cache(req, "halo", 4.0).exec_time_s, rel=1e-9)


def test_file_cache_share_equals_the_model(block_trace):
    acc = traces.split_blocks(block_trace)
    m = A.file_cache_share_model(acc.block, "pcm-samsung-20nm")
    assert m.point() == pytest.approx(1 - fcs.break_even_share(acc.block, "pcm-samsung-20nm").share_blocks, abs=1e-12)
    m = A.file_cache_share_model(acc.block, "optane-dcpmm", block_size_bytes=8192, insertion="first-touch")
    want = fcs.break_even_share(acc.block, "optane-dcpmm", block_size_bytes=8192, insertion="first-touch")
    assert m.point() == pytest.approx(1 - want.share_blocks, abs=1e-12)


def test_hdd_service_time_is_seek_rotation_transfer():
    m = A.hdd_model("hdd-7200")
    d = get_device("hdd-7200")
    assert m.point() == pytest.approx(d.avg_seek_ns / 1e6 + 30000 / d.rpm + 4096 / (d.read_bandwidth_MBps * 1e3))
    with pytest.raises(ValueError, match="HDD"):
        A.hdd_model("dram")


def test_wear_lifetime_is_the_wear_models_formula():
    from models.endurance import wear

    cfg = wear.WearConfig()
    m = A.wear_lifetime_model(cfg, scheme="sfc", life_rate=0.4, movement_overhead=0.01, write_rate_bytes_per_s=1e8)
    e = get_device("pcm-samsung-20nm").endurance_writes_per_cell
    assert m.point() == pytest.approx(wear.lifetime_years_for(cfg, e, 1e8, 0.4, 0.01), rel=1e-12)
    assert [i.name for i in m.inputs if not i.fixed_in_band] == ["device:pcm-samsung-20nm.endurance_writes_per_cell"]
    typed = A.wear_lifetime_model(cfg, scheme="sfc", life_rate=0.4, movement_overhead=0.01,
                                  write_rate_bytes_per_s=1e8, rate_typed=True)
    assert len(typed.sampled_inputs()) == 2


@pytest.mark.parametrize("buffer", [1, 2, 64])
def test_miss_replay_reproduces_the_critical_path_with_eviction_buffer_stalls(mem_trace, buffer):
    if not UNBOUNDED:
        pytest.skip("no bounded eviction buffer in this model version")
    from models.memory.memext_events import miss_events, run_times

    stream = me.page_stream(mem_trace)
    cfg = me.MemExtConfig(eviction_buffer_pages=buffer, policy="clock")
    ev = miss_events(stream, cfg)
    params = [(0.3, 500.0, 150.0, 2e4), (1.0, 5000.0, 120.0, 1500.0), (2.0, 800.0, 25e3, 25e3)]
    got = run_times(ev, len(stream), base_ns=[p[0] for p in params], fault_ns=[p[1] for p in params],
                    read_ns=[p[2] for p in params], write_ns=[p[3] for p in params], sync=False, buf_cap=buffer)
    stalls = 0.0
    for (tref, fo, rd, wr), g in zip(params, got, strict=True):
        dev = get_device("pcm-memext").with_updates(read_latency_ns=rd, write_latency_ns=wr)
        r = me.simulate_memext(stream, cfg.model_copy(update={"base_ns_per_ref": tref, "fault_overhead_ns": fo}),
                               device=dev)
        assert g == pytest.approx(r.cpu_ns, rel=1e-9)
        stalls += r.write_stall_ns
    assert stalls > 0  # the buffer did fill: the queue was exercised
