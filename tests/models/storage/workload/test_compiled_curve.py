"""The compiled fixed points of :func:`models.storage.workload.evaluate` (``kernel.solve_curve``) and the multi-server
MVA step of the vectorised path equal the NumPy reference bit for bit: the same operations in the same order."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.storage import workload as wf
from models.storage.workload import fast, kernel
from models.storage.workload.mva import _mva_kernel
from tests.fresh_compile import fresh_signatures

CONFIGS = wf.config_names()


def _differ(a: wf.WorkloadResult, b: wf.WorkloadResult) -> list[str]:
    """The tables of ``a`` and ``b`` that are not exactly equal (values, dtypes, labels; NaN equals NaN)."""
    return [name for name in ("curve", "breakdown", "demands") if not getattr(a, name).equals(getattr(b, name))]


@pytest.mark.parametrize("personality", wf.PERSONALITIES)
def test_presets_equal_the_reference_loop(personality):
    w = wf.as_workload(personality)
    for c in CONFIGS:
        for threads, curve in ((9, True), (23, False)):
            got = wf.evaluate(w, c, threads=threads, curve=curve)
            assert not _differ(got, wf.evaluate(w, c, threads=threads, curve=curve, reference=True)), (c, threads)


@settings(max_examples=25, deadline=None)
@given(personality=st.sampled_from(wf.PERSONALITIES), config=st.sampled_from(CONFIGS), threads=st.integers(1, 10),
       lat=st.floats(0.2, 5.0), bw=st.floats(0.2, 5.0), cache=st.floats(0.01, 4.0), servers=st.integers(1, 12),
       files=st.sampled_from([0.05, 1.0, 3.0]), zipf=st.sampled_from([0.0, 0.0, 0.9]), curve=st.booleans())
def test_random_configurations_equal_the_reference_loop(personality, config, threads, lat, bw, cache, servers, files,
                                                        zipf, curve):
    w = wf.as_workload(personality).with_changes(files_scale=files)
    cfg = wf.get_config(config)
    dev = cfg.device.with_updates(write_latency_ns=cfg.device.write_latency_ns * lat,
                                  read_latency_ns=cfg.device.read_latency_ns * bw)
    cfg = wf.get_config(cfg, device=dev, page_cache_bytes=cfg.page_cache_bytes * cache, device_servers=servers)
    got = wf.evaluate(w, cfg, threads=threads, zipf_alpha=zipf, curve=curve)
    assert not _differ(got, wf.evaluate(w, cfg, threads=threads, zipf_alpha=zipf, curve=curve, reference=True))


@settings(max_examples=60, deadline=None)
@given(D=st.lists(st.floats(0.0, 1e6), min_size=4, max_size=4), servers=st.lists(st.integers(0, 9), min_size=4,
       max_size=4), m=st.integers(1, 60))
def test_mva_step_equals_the_reference_kernel(D, servers, m):
    """``kernel._mva_at`` (in place, stations not kept skipped) = ``mva._mva_kernel`` at population m."""
    D = np.array(D)
    keep = D > 0
    if not keep.any():
        return
    srv = np.array(servers, dtype=np.int64)
    work = kernel._mva_work(srv, m)
    x = kernel._mva_at(D, keep, srv, m, *work[:6])
    X, R, _ = _mva_kernel(D[keep], srv[keep], m)
    assert x == X[m]
    assert work[5][keep].tolist() == R[m].tolist()
    assert (work[5][~keep] == 0).all()


def test_sample_threads_split_gives_the_same_values(monkeypatch):
    """evaluate_many over threads (the samples split in ranges) = in one call."""
    w = wf.as_workload("varmail")
    rng = np.random.default_rng(5)
    changes = {"host_device.write_latency_ns": wf.get_config("pcm-hdd").host_device.write_latency_ns
               * rng.uniform(0.3, 3.0, 300), "virt_per_op_ns": rng.uniform(100.0, 5000.0, 300)}
    monkeypatch.setattr(fast, "sample_threads", lambda s: 1)
    one = fast.evaluate_many(w, "pcm-hdd", changes, threads=7)
    monkeypatch.setattr(fast, "sample_threads", lambda s: 3)
    split = fast.evaluate_many(w, "pcm-hdd", changes, threads=7)
    assert one.tolist() == split.tolist()


@pytest.mark.parametrize("config", [c for c in CONFIGS if wf.get_config(c).mode == "dax"])
def test_dax_throughput_does_not_read_the_page_cache(config):
    """What the workloads page relies on to keep an ext4-DAX configuration's band when the page cache changes."""
    w = wf.as_workload("fileserver")
    a = wf.evaluate(w, wf.get_config(config, page_cache_bytes=2**26), threads=5)
    b = wf.evaluate(w, wf.get_config(config, page_cache_bytes=2**36), threads=5)
    pd.testing.assert_frame_equal(a.curve, b.curve, check_exact=True)
    lat = wf.get_config(config).device.write_latency_ns * np.array([0.5, 2.0])
    ya = fast.evaluate_many(w, config, {"device.write_latency_ns": lat, "page_cache_bytes": 2.0**26}, threads=5)
    yb = fast.evaluate_many(w, config, {"device.write_latency_ns": lat, "page_cache_bytes": 2.0**36}, threads=5)
    assert ya.tolist() == yb.tolist()


def test_the_fixed_point_helpers_compile_once(tmp_path):
    """The curve (``evaluate``) and the samples (``evaluate_many``) type ``_solve``, ``_g`` and ``_fixed_x`` once each:
    the write-back flag starts as a boolean, not the literal ``False`` numba compiled as a second signature of each.
    Counted in a fresh process with an empty numba cache (helpers of cached callers are never typed in this one)."""
    got = fresh_signatures(f"""
        from models.storage import workload as wf
        w = wf.as_workload({wf.PERSONALITIES[0]!r})
        for c in {CONFIGS!r}:
            wf.evaluate(w, c, threads=4)
        wf.evaluate_many(w, {CONFIGS[0]!r}, {{"device.write_latency_ns": [4e6, 8e6]}}, threads=4)
        from models.storage.workload import kernel
    """, {name: f"kernel.{name}" for name in ("_solve", "_g", "_fixed_x")}, tmp_path / "numba")
    assert {name: len(sigs) for name, sigs in got.items()} == {"_solve": 1, "_g": 1, "_fixed_x": 1}, got
