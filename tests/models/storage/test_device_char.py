"""Device characterization (seed 001) and fio import. The page tests are in tests/app/test_device_char_page.py."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.data import data_path
from models.storage import device_char as dc

# The presets' agreement with seed 001's Figures 1-2 (PSD ~1x, SSD up to +500 %, 19x, 1.5x / 1.2x) is
# a set of ledger claims (models/validation/claims_001.py); those ratios are the presets' inputs, so
# they are marked circular there. The tests below are properties of the model for any profile.
profiles = st.builds(
    dc.CharProfile, name=st.just("p"),
    read_rand_us=st.floats(0.1, 1e4), read_seq_us=st.floats(0.1, 1e4),
    write_rand_us=st.floats(0.1, 1e4), write_seq_us=st.floats(0.1, 1e4),
    servers_rand=st.integers(1, 64).map(float), servers_seq=st.integers(1, 64).map(float))


@given(p=profiles, op=st.sampled_from(["read", "write"]))
def test_random_seq_ratio_limits(p, op):
    s_r, s_s = p.service_us(op, "rand"), p.service_us(op, "seq")
    c_r, c_s = p.servers_rand, p.servers_seq
    # depth 1: one request in service, the ratio of the service times
    assert dc.random_seq_ratio(p, op, 1) == pytest.approx(s_r / s_s, rel=1e-12)
    # beyond both parallelisms every request waits its turn: throughput c / s, ratio (s_r / c_r) / (s_s / c_s)
    deep = 2 * max(c_r, c_s)
    assert dc.random_seq_ratio(p, op, [deep, 4 * deep]) == pytest.approx([(s_r * c_s) / (s_s * c_r)] * 2, rel=1e-12)
    # in between it moves monotonically from one to the other (towards the side with more parallelism)
    r = dc.random_seq_ratio(p, op, np.arange(1, deep + 1))
    d = np.diff(r)
    assert (d >= -1e-12 * r[1:]).all() or (d <= 1e-12 * r[1:]).all()


@given(p=profiles, pattern=st.sampled_from(["rand", "seq"]), depth=st.integers(1, 512))
def test_write_read_ratio_is_the_service_ratio_at_any_depth(p, pattern, depth):
    # reads and writes of one pattern share the same parallelism, so the queueing factor cancels
    assert dc.write_read_ratio(p, pattern, depth) == pytest.approx(
        p.service_us("write", pattern) / p.service_us("read", pattern), rel=1e-12)


def test_mix_sensitivity_normalised_and_monotone():
    w = np.linspace(0.1, 0.9, 9)
    df = dc.mix_sensitivity(dc.get_profile("psd"), "seq", w, scheduling="fcfs")
    assert df.loc[4, "read_rel"] == pytest.approx(1.0) and df.loc[4, "write_rel"] == pytest.approx(1.0)
    # FCFS on shared channels: more (19x slower) writes delay every request, reads and writes alike
    assert np.all(np.diff(df.read_rel) > 0) and np.all(np.diff(df.write_rel) > 0)
    with pytest.raises(ValueError, match="write_fractions"):
        dc.mix_sensitivity(dc.get_profile("psd"), "seq", [1.5])
    with pytest.raises(ValueError, match="scheduling"):
        dc.mix_sensitivity(dc.get_profile("psd"), "seq", [0.5], scheduling="lifo")


def test_read_priority_reverses_the_write_curve():
    # Read priority: a write is served only when no read waits, so the more reads, the longer a write waits --
    # the write curve falls with the write share (seed 001's PSD direction); under FCFS it rises.
    psd = dc.get_profile("psd")
    assert psd.scheduling == "fcfs" and dc.get_profile("ssd").scheduling == "fcfs"
    w = [0.1, 0.3, 0.5, 0.7, 0.9]
    prio = dc.mix_sensitivity(psd, "seq", w, scheduling="read-priority")
    fcfs = dc.mix_sensitivity(psd, "seq", w, scheduling="fcfs")
    assert np.all(np.diff(prio.write_rel) < 0) and np.all(np.diff(fcfs.write_rel) > 0)


def test_mix_single_unit_fcfs_exact():
    # One unit, FCFS, d requests in the loop: a request waits for the d - 1 others, each a write with
    # probability w independently of its own kind: E[latency] = (d - 1) s_mix + s_own. 2 % = sampling error of
    # 200,000 requests (the waits are sums of 63 services, spread ~ s_write sqrt(63 w (1 - w))).
    p = dc.CharProfile(name="one", read_rand_us=10, read_seq_us=10, write_rand_us=50, write_seq_us=50)
    d = 16
    df = dc.mix_sensitivity(p, "seq", [0.2, 0.6], depth=d, scheduling="fcfs")
    for w, r, wl in zip(df.write_fraction, df.read_latency_us, df.write_latency_us, strict=True):
        smix = (1 - w) * 10 + w * 50
        assert r == pytest.approx((d - 1) * smix + 10, rel=0.02)
        assert wl == pytest.approx((d - 1) * smix + 50, rel=0.02)


@settings(max_examples=8, deadline=None)
@given(sr=st.floats(1, 100), ratio=st.floats(1, 30), c=st.integers(1, 8), extra=st.integers(1, 40),
       w=st.floats(0.05, 0.95), sched=st.sampled_from(["fcfs", "read-priority"]))
def test_mix_littles_law(sr, ratio, c, extra, w, sched):
    # With more requests than units the units never idle (both policies are work conserving): throughput c / s_mix,
    # and by Little's law the completion-weighted mean latency is d s_mix / c exactly. 1.5 %: sampling error of
    # 40,000 requests (the identity holds per sample path up to the start and end of the run).
    p = dc.CharProfile(name="p", read_rand_us=sr, read_seq_us=sr, write_rand_us=sr * ratio, write_seq_us=sr * ratio,
                       servers_rand=c, servers_seq=c)
    d = c + extra
    r = dc.mix_sensitivity(p, "rand", [w], depth=d, scheduling=sched, requests=40_000).iloc[0]
    smix = (1 - w) * sr + w * sr * ratio
    assert (1 - w) * r.read_latency_us + w * r.write_latency_us == pytest.approx(d * smix / c, rel=0.015)


def test_mix_is_seeded():
    p = dc.get_profile("ssd")
    a = dc.mix_sensitivity(p, "rand", [0.2, 0.7], seed=5, requests=5000)
    b = dc.mix_sensitivity(p, "rand", [0.2, 0.7], seed=np.random.default_rng(5), requests=5000)
    assert a.equals(b)


def test_latency_depth_model_matches_single_station_mva():
    from models.storage.workload.mva import mva

    p = dc.get_profile("ssd")
    r = mva([p.read_rand_us], [int(p.servers_rand)], 40).response_ns
    np.testing.assert_allclose(dc.latency_us(p, "read", "rand", np.arange(1, 41)), r, rtol=1e-9)


@pytest.mark.parametrize("name", ["tmpfs", "disk"])
def test_bundled_fio_json_fits(name):
    m = dc.read_fio_json(data_path(f"fio/{name}.json"))
    assert len(m) == 8 and set(m.pattern) == {"rand", "seq"} and set(m.iodepth) == {1, 16}
    fit = dc.fit_profile(m, name)
    prof, cmp_ = fit.profile, fit.comparison
    # one parallelism per pattern is shared by reads and writes: allow 25 % per point.
    assert np.abs(cmp_.rel_error).max() < 0.25
    assert cmp_.equals(dc.model_vs_measurement(prof, m))
    dev = fit.device
    assert dev == dc.to_device_profile(prof, m) and dev.name == name
    assert dev.read_latency_ns == pytest.approx(prof.read_rand_us * 1e3)
    assert dev.read_bandwidth_MBps and dev.read_bandwidth_MBps > 0
    row = fit.to_frame()
    assert len(row) == 1 and row.iloc[0].to_dict() == prof.model_dump()


def test_fit_recovers_synthetic_parameters():
    rows = []
    for d in (1, 2, 4, 8, 16, 32, 64):
        for op, s in (("read", 50.0), ("write", 80.0)):
            rows.append(dict(job=f"{op}{d}", op=op, pattern="rand", iodepth=d, bs_bytes=4096,
                             lat_mean_us=s * max(1, d / 4), bw_MBps=1.0))
    import pandas as pd

    p = dc.fit_profile(pd.DataFrame(rows)).profile
    assert p.read_rand_us == pytest.approx(50, rel=1e-3) and p.write_rand_us == pytest.approx(80, rel=1e-3)
    assert p.servers_rand == pytest.approx(4, rel=1e-3)


def test_fio_json_errors():
    with pytest.raises(ValueError, match="jobs"):
        dc.read_fio_json(json.dumps({"x": 1}))
    with pytest.raises(ValueError, match="not valid JSON"):
        dc.read_fio_json("{nope")
    with pytest.raises(KeyError, match="unknown device profile"):
        dc.get_profile("tape")
    # wrong structure or types name the job, op and field (were TypeError / AttributeError)
    for doc, msg in [({"jobs": [5]}, r"jobs\[0\] must be an object"),
                     ({"jobs": [{"read": {"io_bytes": 1, "lat_ns": {"mean": None}}}]}, "field 'mean' is not a number"),
                     ({"jobs": [{"read": {"io_bytes": "x"}}]}, "field 'io_bytes' is not a number"),
                     ({"jobs": [{"write": {"io_bytes": 8, "lat_ns": {"mean": 0}}}]}, "latency mean must be > 0")]:
        with pytest.raises(ValueError, match=msg):
            dc.read_fio_json(json.dumps(doc))
