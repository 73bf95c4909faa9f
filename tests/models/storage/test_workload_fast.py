"""The vectorised Filebench throughput (:func:`models.storage.workload.evaluate_many`) equals the reference
:func:`~models.storage.workload.evaluate` per sample, at the presets and at random configuration values."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.storage import workload as wf
from models.storage.workload import demands as dm
from models.storage.workload.fast import CONFIG_FIELDS, DEVICE_COLUMNS, evaluate_many

CONFIGS = wf.config_names()
RTOL = 1e-12  # same operations in the same order: equal in practice (bit for bit here), 1e-12 allowed


def _reference(w, cfg, changes, s, threads, zipf_alpha=0.0):
    """evaluate() on sample ``s`` of ``changes``, with a validated configuration."""
    one, dev, host = {}, {}, {}
    for k, v in changes.items():
        x = float(np.broadcast_to(v, np.broadcast_shapes(*(np.shape(a) for a in changes.values())))[s])
        target, _, col = k.partition(".")
        if col:
            (dev if target == "device" else host)[col] = x
        else:
            one[k] = int(x) if k.endswith("servers") else x
    if dev:
        one["device"] = cfg.device.with_updates(**dev)
    if host:
        one["host_device"] = cfg.host_device.with_updates(**host)
    return wf.evaluate(w, wf.get_config(cfg, **one), threads=threads, zipf_alpha=zipf_alpha, curve=False).ops_per_s


@pytest.mark.parametrize("personality", wf.PERSONALITIES)
def test_presets_equal_the_reference(personality):
    w = wf.as_workload(personality)
    for c in CONFIGS:
        want = wf.evaluate(w, c, threads=6, curve=False).ops_per_s
        got = float(evaluate_many(w, c, threads=6))
        assert got == pytest.approx(want, rel=RTOL, abs=0)


@settings(max_examples=30, deadline=None)
@given(personality=st.sampled_from(wf.PERSONALITIES), config=st.sampled_from(CONFIGS), threads=st.integers(1, 12),
       factors=st.lists(st.floats(0.2, 5.0), min_size=12, max_size=12), servers=st.integers(1, 16),
       zipf=st.sampled_from([0.0, 0.0, 0.8]))
def test_random_device_values_equal_the_reference(personality, config, threads, factors, servers, zipf):
    w = wf.as_workload(personality)
    cfg = wf.get_config(config)
    f = iter(factors)
    changes = {}
    for target in ("device", "host_device"):
        dev = getattr(cfg, target)
        if dev is None:
            continue
        for col in DEVICE_COLUMNS:
            if getattr(dev, col) is not None:
                changes[f"{target}.{col}"] = np.array([getattr(dev, col), getattr(dev, col) * next(f)])
    changes["page_cache_bytes"] = np.array([cfg.page_cache_bytes * next(f), cfg.page_cache_bytes])
    changes["host_memory_bytes"] = cfg.host_memory_bytes * next(f)  # a scalar broadcasts
    changes["virt_per_op_ns"] = np.array([cfg.virt_per_op_ns, 1000.0 * next(f)])
    changes["device_servers"] = np.array([servers, cfg.device_servers])
    got = evaluate_many(w, cfg, changes, threads=threads, zipf_alpha=zipf)
    assert got.shape == (2,)
    for s in range(2):
        want = _reference(w, cfg, changes, s, threads, zipf)
        assert got[s] == pytest.approx(want, rel=RTOL, abs=0)


def test_shape_and_a_slower_hdd_is_slower():
    w = wf.as_workload("varmail")
    lat = wf.get_config("hdd").device.write_latency_ns * np.array([[0.5, 1.0], [2.0, 4.0]])
    y = evaluate_many(w, "hdd", {"device.write_latency_ns": lat}, threads=8)
    assert y.shape == (2, 2)
    assert (np.diff(y.reshape(-1)) < 0).all()  # fsync-bound on the HDD: throughput falls with the write latency
    assert y[0, 1] == pytest.approx(wf.evaluate(w, "hdd", threads=8, curve=False).ops_per_s, rel=RTOL, abs=0)


def test_bad_names_and_threads_are_refused():
    w = wf.as_workload("varmail")
    with pytest.raises(ValueError, match="cannot vary 'device.rpm'"):
        evaluate_many(w, "hdd", {"device.rpm": [5400.0]})
    with pytest.raises(ValueError, match="has no host device"):
        evaluate_many(w, "hdd", {"host_device.read_latency_ns": [1.0]})
    with pytest.raises(ValueError, match="threads must be within"):
        evaluate_many(w, "hdd", threads=0)
    with pytest.raises(ValueError, match="device.read_latency_ns: every sample must be finite and > 0"):
        evaluate_many(w, "hdd", {"device.read_latency_ns": [1e6, -1.0]})
    with pytest.raises(ValueError, match="device_servers: .* an integer >= 1"):
        evaluate_many(w, "ssd", {"device_servers": [2.5]})
    assert set(CONFIG_FIELDS) >= {"page_cache_bytes", "device_servers"}


def test_array_helpers_repeat_the_scalar_arithmetic():
    assert dm._positive(2.0) is True and dm._positive(0.0) is False
    assert dm._positive(np.array([1.0, 3.0])) is True and dm._positive(np.zeros(3)) is False
    with pytest.raises(dm.MixedSigns):
        dm._positive(np.array([0.0, 1.0]))
    dev = wf.get_config("hdd").device
    sizes = np.array([0.0, 512.0, 4096.0, 4097.0, 1e6])
    got = dm._transfer_ns(dev, sizes, write=True)
    assert got.tolist() == [dev.transfer_ns(float(x), write=True) for x in sizes]


def test_mixed_branches_walk_the_samples_one_by_one(monkeypatch):
    """When a branch of the demand walk differs between samples, each sample walks alone: same results."""
    w = wf.as_workload("varmail")
    changes = {"device.write_latency_ns": np.array([5e6, 9e6]), "page_cache_bytes": np.array([1e8, 1e9])}
    want = evaluate_many(w, "hdd", changes, threads=4)
    real = dm._positive

    def picky(x):
        if np.ndim(x):
            raise dm.MixedSigns("forced")
        return real(x)

    monkeypatch.setattr(dm, "_positive", picky)
    assert (evaluate_many(w, "hdd", changes, threads=4) == want).all()


def _loop_text(repeats: int, *, second_group: bool) -> str:
    ops = ["deletefile name=del{i},filesetname=bigfileset", "createfile name=cre{i},filesetname=bigfileset,fd=1",
           "appendfilerand name=app{i},iosize=16k,fd=1", "fsync name=fs{i},fd=1", "closefile name=clo{i},fd=1",
           "openfile name=ope{i},filesetname=bigfileset,fd=1", "readwholefile name=rea{i},fd=1,iosize=1m",
           "closefile name=cl2{i},fd=1"]
    body = "\n".join(f"    flowop {o.format(i=i)}" for i in range(repeats) for o in ops)
    other = ("  thread name=reader,memsize=10m,instances=3\n  {\n"
             "    flowop openfile name=o,filesetname=bigfileset,fd=1\n"
             "    flowop readwholefile name=r,fd=1,iosize=1m\n    flowop closefile name=c,fd=1\n  }\n"
             if second_group else "")
    return ("define fileset name=bigfileset,path=/tmp,size=16k,entries=2000,dirwidth=1000,prealloc=80\n"
            "define process name=p,instances=1\n{\n  thread name=mailer,memsize=10m,instances=5\n  {\n"
            f"{body}\n  }}\n{other}}}\nrun 60\n")


@pytest.mark.parametrize("repeats,second_group", [(2, True), (17, False)])
def test_mixed_thread_groups_and_long_loops_equal_the_reference(repeats, second_group):
    """Two thread groups (row weights != 1) in the kernel; a loop of > 128 flowops (longer sums than the
    kernel repeats) on the reference per sample."""
    from models.storage.filebench import parse_workload

    w = parse_workload(_loop_text(repeats, second_group=second_group), name="synthetic")
    assert (len(wf.flowop_demands(w, "hdd")) > 128) == (repeats == 17)
    changes = {"device.write_latency_ns": np.array([3e6, 6e6]), "page_cache_bytes": np.array([1e6, 3e7])}
    got = evaluate_many(w, "hdd", changes, threads=4)
    for s in range(2):
        assert got[s] == pytest.approx(_reference(w, wf.get_config("hdd"), changes, s, 4), rel=RTOL, abs=0)
