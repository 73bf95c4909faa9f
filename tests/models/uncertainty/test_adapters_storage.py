"""Adapters of the Filebench workload model and of the file-cache access time over a fixed miss-ratio
curve: at the point and at other input values they equal re-running the model itself."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.devices import get_device
from models.storage import file_cache_sim as fcs
from models.storage import workload as wf
from models.uncertainty import Fixed, analyze
from tests import uncertainty_adapters as A

W = wf.as_workload("varmail")
THREADS = 4


def _ops(config, **changes):
    return wf.evaluate(W, wf.get_config(config, **changes), threads=THREADS, curve=False).ops_per_s


def test_workload_point_is_the_model():
    m = A.workload_model(W, "pcm-dax", ref="hdd", threads=THREADS)
    assert m.point() == _ops("pcm-dax") / _ops("hdd")
    assert A.workload_model(W, "ssd", threads=THREADS).point() == _ops("ssd")


@pytest.mark.parametrize("config,ref", [("pcm-dax", "hdd"), ("pcm-ssd", "ssd")])
def test_workload_samples_equal_re_running_the_model(config, ref):
    m = A.workload_model(W, config, ref=ref, threads=THREADS)
    r = analyze(m, n=4, seed=11)
    cfgs = [wf.get_config(config), wf.get_config(ref)]
    for j in range(3):  # three sampled input vectors: rebuild both configurations by hand and re-run
        v = {**m.points(), **r.inputs.iloc[j].to_dict()}
        assert r.samples[j] == _rerun(cfgs[0], v) / _rerun(cfgs[1], v)


def _rerun(c, v, threads=THREADS):
    """evaluate() on configuration ``c`` rebuilt (validated) with the input values ``v`` of the adapter."""
    ch = {}
    for target in ("device", "host_device"):
        d = getattr(c, target)
        if d is None:
            continue
        upd = {col: v[f"device:{d.name}.{col}"] for col in A._WORKLOAD_DEVICE_COLUMNS
               if f"device:{d.name}.{col}" in v}
        ch[target] = d.with_updates(**upd)
    if c.virt_per_op_ns > 0:
        ch["virt_per_op_ns"] = v["workload.virt_per_op_ns"]
    if c.mode == "pagecache":
        ch["page_cache_bytes"] = v["workload.page_cache_bytes"]
    if c.mode == "dax" and c.host_device is not None:
        ch["host_memory_bytes"] = v["workload.host_memory_bytes"]
    if c.device.name == "sata-ssd":
        ch["device_servers"] = int(round(v["workload.ssd_servers"]))
    if c.host_device is not None and c.host_device.name == "sata-ssd":
        ch["host_device_servers"] = int(round(v["workload.ssd_servers"]))
    return wf.evaluate(W, wf.get_config(c, **ch), threads=threads, curve=False).ops_per_s


@settings(max_examples=12, deadline=None)
@given(pair=st.sampled_from([("pcm-dax", "hdd"), ("pcm-ssd", "ssd"), ("pcm-hdd", "hdd"), ("optane-dax", "pcm-block")]),
       u=st.lists(st.floats(0.0, 1.0), min_size=16, max_size=16), threads=st.integers(1, 8))
def test_workload_adapter_equals_re_running_the_model_anywhere_in_the_ranges(pair, u, threads):
    """The vectorised adapter (evaluate_many) vs evaluate() on validated configurations, at input values
    drawn over each input's whole range (quantile u), two samples per call."""
    m = A.workload_model(W, pair[0], ref=pair[1], threads=threads)
    v = {i.name: np.array([i.dist.ppf(np.array([u[k % 16]]))[0], i.point]) for k, i in enumerate(m.inputs)}
    got = m.evaluate(v)
    cfgs = [wf.get_config(c) for c in pair]
    for s in range(2):
        vs = {k: float(a[s]) for k, a in v.items()}
        want = _rerun(cfgs[0], vs, threads) / _rerun(cfgs[1], vs, threads)
        assert got[s] == pytest.approx(want, rel=1e-12, abs=0)


def test_workload_inputs_come_from_both_configurations_once():
    m = A.workload_model(W, "pcm-hdd", ref="hdd", threads=THREADS)
    names = [i.name for i in m.inputs]
    assert len(names) == len(set(names))
    # the HDD behind the vPCM file and the page-cached HDD are one device: one input each column
    assert sum(n.startswith("device:hdd-7200.") for n in names) == 4
    assert {"workload.virt_per_op_ns", "workload.host_memory_bytes", "workload.page_cache_bytes"} <= set(names)


def test_workload_zero_width_inputs_give_exactly_the_point():
    m = A.workload_model(W, "pcm-dax", ref="hdd", threads=THREADS)
    fixed = dataclasses.replace(m, inputs=tuple(dataclasses.replace(i, dist=Fixed(i.point)) for i in m.inputs))
    r = analyze(fixed, n=8, seed=0)
    assert (r.samples == m.point()).all() and r.p5 == r.p95 == m.point()


def test_workload_tornado_moves_with_the_hdd_write_latency():
    m = A.workload_model(W, "pcm-dax", ref="hdd", threads=THREADS)
    r = analyze(m, n=4, seed=0)
    row = r.tornado.set_index("parameter").loc["device:hdd-7200.write_latency_ns"]
    assert row.output_high > row.output_low  # a slower HDD: PCM-DAX wins by more
    assert r.p_verdict == 1.0 and r.verdict.startswith("pcm-dax beats hdd")


@pytest.mark.parametrize("policy", ["lru", "ac", "none"])
def test_file_cache_time_equals_the_curves_at_other_timings(policy):
    rng = np.random.default_rng(4)
    ids = rng.zipf(1.3, 4000) % 500
    _, ids = np.unique(ids, return_inverse=True)
    footprint = int(ids.max()) + 1
    frac = 0.2
    blocks = int(max(1, np.rint(frac * footprint)))
    m = A.file_cache_time_model(ids, "optane-dcpmm", cache_blocks=blocks, policy=policy)
    row = fcs.file_cache_curves(ids, "optane-dcpmm", cache_fractions=[frac]).query("policy == @policy").iloc[0]
    assert m.point() == pytest.approx(row.mean_access_ns, rel=1e-12)
    v = {**m.points(), "device:optane-dcpmm.read_latency_ns": 700.0}
    dev = get_device("optane-dcpmm").with_updates(read_latency_ns=700.0)
    want = fcs.file_cache_curves(ids, dev, cache_fractions=[frac]).query("policy == @policy").iloc[0]
    assert float(m.evaluate(v)) == pytest.approx(want.mean_access_ns, rel=1e-12)
    assert float(m.evaluate(v)) != pytest.approx(m.point(), rel=1e-6)  # the latency does move it


def test_device_mix_tornado_ends_re_run_the_queue_simulation():
    from models.storage import device_char as dc

    m = A.device_mix_model("ssd", "rand", 0.1, scheduling="fcfs", requests=5000, seed=3)
    r = analyze(m, n=8, seed=0)
    assert r.p5 == r.p95 == r.point  # every input re-simulates: held in the band
    ssd = dc.get_profile("ssd")
    row = r.tornado.set_index("parameter").loc["device_char.ssd.write_read_ratio_rand"]
    for ratio, got in ((row.low, row.output_low), (row.high, row.output_high)):
        p = ssd.model_copy(update={"write_rand_us": ssd.read_rand_us * ratio})
        want = dc.mix_sensitivity(p, "rand", [0.1], scheduling="fcfs", requests=5000, seed=3).write_rel.iloc[0]
        assert got == want
    # scaling every service time leaves the relative latency unchanged: the read time has no swing
    assert r.tornado.set_index("parameter").loc["device_char.ssd.read_us", "swing"] == pytest.approx(0, abs=1e-12)
    custom = ssd.model_copy(update={"name": "mine"})
    mc = A.device_mix_model(custom, "seq", 0.3, output="read_rel", requests=5000)
    assert [i.kind for i in mc.inputs] == ["user-defined", "user-defined"]
    assert mc.point() == dc.mix_sensitivity(custom, "seq", [0.3], requests=5000).read_rel.iloc[0]


def test_write_reduction_lifetime_equals_lifetime_by_scheme():
    import pandas as pd

    from models.endurance.write_reduction import lifetime_by_scheme

    m = A.write_reduction_lifetime_model(512.0, scheme="dcw", baseline_write_rate_bytes_per_s=1e9)
    t = pd.DataFrame({"scheme": ["dcw"], "bytes_written_per_page": [512.0]})
    assert m.point() == pytest.approx(lifetime_by_scheme(t, 1e9).lifetime_years.iloc[0], rel=1e-12)
    v = {**m.points(), "device:pcm-memext.endurance_writes_per_cell": 3e6, "write_rate": 4e8,
         "lifetime.wear_efficiency": 0.3}
    want = lifetime_by_scheme(t, 4e8, endurance_writes_per_cell=3e6, wear_efficiency=0.3).lifetime_years.iloc[0]
    assert float(m.evaluate(v)) == pytest.approx(want, rel=1e-12)
    assert A.write_reduction_lifetime_model(0.0).point() == np.inf  # nothing written: never wears out


def test_workload_same_device_name_with_other_values_is_two_inputs():
    hdd = wf.get_config("hdd")
    faster = wf.StorageConfig.model_validate({**hdd.model_dump(), "name": "hdd-fast",
                                              "device": hdd.device.with_updates(write_latency_ns=4e6)})
    m = A.workload_model(W, faster, ref=hdd, threads=THREADS)
    names = [i.name for i in m.inputs]
    assert "device:hdd-7200.write_latency_ns" in names and "device:hdd-7200.write_latency_ns@hdd" in names
    assert m.point() == wf.evaluate(W, faster, threads=THREADS, curve=False).ops_per_s / _ops("hdd")


@settings(max_examples=15, deadline=None)
@given(ids=st.lists(st.integers(0, 40), min_size=1, max_size=300), frac=st.floats(0.01, 1.0),
       policy=st.sampled_from(["lru", "ac", "none"]), lat=st.floats(50.0, 1e5))
def test_file_cache_time_is_the_curve_point_and_rises_with_the_device_latency(ids, frac, policy, lat):
    _, a = np.unique(np.asarray(ids), return_inverse=True)
    footprint = int(a.max()) + 1
    blocks = int(max(1, np.rint(frac * footprint)))
    m = A.file_cache_time_model(a, "optane-dcpmm", cache_blocks=blocks, policy=policy)
    row = fcs.file_cache_curves(a, "optane-dcpmm", cache_fractions=[frac]).query("policy == @policy").iloc[0]
    assert m.point() == pytest.approx(row.mean_access_ns, rel=1e-12)
    k = "device:optane-dcpmm.read_latency_ns"
    lo, hi = sorted((lat, m.points()[k]))
    y = m.evaluate({**m.points(), k: np.array([lo, hi])})
    assert y[0] <= y[1]  # a slower device never makes the cache's mean access faster


def test_memext_band_uses_the_programs_own_time_base_spread():
    """A trace run on its program's measured t_ref is banded by that program's runs, not all programs'."""
    from models import traces
    from models.memory import memory_extension as me
    from models.memory.measured import ns_per_ref
    from models.memory.uncertainty import memext_model
    from models.provenance import param

    tr = traces.load("lackey:lulesh", kind="memory", max_requests=20_000)
    stream = me.page_stream(tr)
    own = ns_per_ref(tr.name)
    tref = {i.name: i for i in memext_model(stream, me.MemExtConfig(device="pcm-memext", base_ns_per_ref=own),
                                            baseline=None).inputs}["memext.base_ns_per_ref"]
    p = param("memext.ns_per_ref.lulesh").provenance
    assert (tref.dist.low, tref.dist.high) == (p.low, p.high) and "lulesh" in tref.label
    generic = {i.name: i for i in memext_model(stream, me.MemExtConfig(device="pcm-memext", base_ns_per_ref=0.5),
                                               baseline=None).inputs}["memext.base_ns_per_ref"]
    g = param("memext.base_ns_per_ref").provenance
    assert (generic.dist.low, generic.dist.high) == (g.low, g.high)
