"""Issue 19: sweeps on Dask distributed -- a real scheduler and two workers on loopback give the serial
results; a sweep resumes (stored tasks are not recomputed); specs are validated; no Dask at import."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.sweep import load_counts, parse_spec, parts_dir, run_sweep

SPEC = """
[sweep]
name = "test"
devices = ["optane-dcpmm", "nand-flash"]

[[traces]]
name = "tpcc"
source = "mqsim:tpcc-small"
max_requests = 3000

[[traces]]
name = "fin1"
source = "synthetic:fin1"
options = { n_requests = 3000, seed = 2 }

[[models]]
model = "cache_sim"
grid = { policy = ["lru", "fifo", "ac"], cache_blocks = [16, 256] }

[[models]]
model = "file_cache"
traces = ["tpcc"]
grid = { cache_fraction = [0.1, 0.5] }
"""

BIN = Path(sys.executable).parent


def _sorted(df: pd.DataFrame) -> pd.DataFrame:
    return df.sort_values(list(df.columns[:8]), kind="stable").reset_index(drop=True)


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    out = tmp_path_factory.mktemp("serial") / "r.parquet"
    return run_sweep(parse_spec(SPEC), out, scheduler="serial")


def test_serial_sweep_has_every_task_and_reads_back(serial, tmp_path):
    spec = parse_spec(SPEC)
    tasks = spec.tasks()
    assert len(tasks) == 2 * 3 * 2 + 2 * 2 and serial.n_tasks == len(tasks) and len(serial.computed) == len(tasks)
    t = serial.table
    assert set(t["task"]) == {x.key for x in tasks}
    cs = t[t.model == "cache_sim"]
    assert (cs["requests"] == 3000).all() or set(cs.trace) == {"tpcc", "fin1"}
    assert ((cs["hits"] + cs["misses"]) == cs["requests"]).all()
    # the same simulation run directly
    from models.sim import simulate
    from models.traces import load, split_blocks

    acc = split_blocks(load("mqsim:tpcc-small", max_requests=3000), 4096)
    row = cs[(cs.trace == "tpcc") & (cs.policy == "fifo") & (cs.cache_blocks == 256)]
    assert int(row["hits"].iloc[0]) == simulate(acc.block, 256, "fifo", is_write=acc.is_write).hits
    fc = t[t.model == "file_cache"]
    assert set(fc.device) == {"optane-dcpmm", "nand-flash"} and set(fc.policy) == {"none", "lru", "ac"}


def _start(args, log):
    return subprocess.Popen([str(BIN / "dask"), *args], stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"})


def test_a_real_scheduler_and_two_workers_give_the_serial_results(serial, tmp_path, monkeypatch):
    from dask.distributed import Client

    from models.sweep.registry import shared_counts

    share = tmp_path / "share"  # the workers (same host) share their trace splits here
    monkeypatch.setenv("PCM_PLANNER_SHARE_DIR", str(share))

    sched_file = tmp_path / "scheduler.json"
    log = open(tmp_path / "dask.log", "wb")  # noqa: SIM115 - closed below
    procs = [_start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(sched_file)], log)]
    try:
        for _ in range(200):
            if sched_file.is_file() and sched_file.stat().st_size:
                break
            time.sleep(0.1)
        for i in range(2):
            procs.append(_start(["worker", "--scheduler-file", str(sched_file), "--nthreads", "1", "--no-nanny",
                                 "--no-dashboard", "--name", f"w{i}", "--host", "127.0.0.1"], log))
        with Client(scheduler_file=str(sched_file), timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
            address = client.scheduler.address
            run = run_sweep(parse_spec(SPEC), tmp_path / "d.parquet", client=client)
            counts = client.run(load_counts)
            mapped = client.run(shared_counts)
            client.shutdown()  # scheduler and workers exit
        assert address.startswith("tcp://127.0.0.1:")
        pd.testing.assert_frame_equal(_sorted(run.table), _sorted(serial.table))
        assert len(counts) == 2 and all(n == 1 for c in counts.values() for n in c.values()), counts
        assert sum(len(c) for c in counts.values()) >= 2  # both traces loaded, each once per worker that used it
        # A split mapped from the other worker: that worker loaded the trace. Whether this worker also loaded
        # it depends on timing (it may have needed the trace -- its kind, or another block size -- before the
        # other worker published), so that is checked deterministically in test_hostshare, not here.
        for w, m in mapped.items():
            assert all(t in c for t in m for v, c in counts.items() if v != w), (counts, mapped)
        assert not share.exists() or not any(share.iterdir())  # the sweep removed its shared splits
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:  # a worker without a nanny may ignore SIGTERM while closing
                p.kill()
                p.wait()
        log.close()


def test_a_sweep_resumes_computing_only_the_missing_tasks(serial, tmp_path):
    out = tmp_path / "r.parquet"
    spec = parse_spec(SPEC)
    first = run_sweep(spec, out, scheduler="serial")
    parts = sorted(parts_dir(out).glob("*.parquet"))
    assert len(parts) == first.n_tasks
    gone = {p.stem for p in parts[::3]}
    for p in parts[::3]:
        p.unlink()
    keep_mtime = {p.stem: p.stat().st_mtime_ns for p in parts if p.stem not in gone}
    again = run_sweep(spec, out, scheduler="serial")
    assert set(again.computed) == gone and again.reused == first.n_tasks - len(gone)
    assert {p.stem: p.stat().st_mtime_ns for p in parts if p.stem not in gone} == keep_mtime  # not rewritten
    pd.testing.assert_frame_equal(again.table, first.table)
    pd.testing.assert_frame_equal(pd.read_parquet(out), first.table)
    third = run_sweep(spec, out, scheduler="serial")
    assert third.computed == () and third.reused == first.n_tasks
    pd.testing.assert_frame_equal(third.table, first.table)  # all read back from the parts = all computed


def test_an_interrupted_sweep_keeps_its_finished_tasks(serial, tmp_path):
    out = tmp_path / "r.parquet"
    spec = parse_spec(SPEC)
    n = len(spec.tasks())

    def stop_half_way(fraction: float) -> None:
        if fraction >= 0.5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, out, scheduler="serial", progress=stop_half_way)
    stored = {p.stem for p in parts_dir(out).glob("*.parquet")}
    assert len(stored) == n // 2 and not out.exists()
    rest = run_sweep(spec, out, scheduler="serial")
    assert len(rest.computed) == n - n // 2 and not stored & set(rest.computed)
    pd.testing.assert_frame_equal(rest.table, serial.table)


def test_every_named_model_runs_and_matches_its_direct_call(tmp_path):
    from models.devices import get_device
    from models.memory.memory_extension import MemExtConfig, page_stream, simulate_memext
    from models.sim import hit_ratio_curve
    from models.storage.file_cache_sim import access_bytes, log_sizes
    from models.storage.write_cache import run_write_cache
    from models.sweep import SWEEP_MODELS
    from models.traces import load, split_blocks

    text = """
[sweep]
devices = ["optane-dcpmm"]
[[traces]]
name = "blk"
source = "mqsim:tpcc-small"
max_requests = 1500
[[traces]]
name = "mem"
source = "lackey:xz"
max_requests = 5000
[[models]]
model = "mrc"
traces = ["blk"]
fixed = { points = 5 }
[[models]]
model = "write_cache"
traces = ["blk"]
devices = ["hdd-7200"]
grid = { cache_mb = [0.5] }
[[models]]
model = "memext"
traces = ["mem"]
grid = { dram_frac = [0.5] }
"""
    r = run_sweep(parse_spec(text), tmp_path / "o.parquet", scheduler="serial").table
    assert {"cache_sim", "file_cache"} | set(r.model) == set(SWEEP_MODELS)
    blk = load("mqsim:tpcc-small", max_requests=1500)
    acc = split_blocks(blk, 4096)
    curve = hit_ratio_curve(acc.block, sizes=log_sizes(acc.n_unique, 5), weights=access_bytes(blk, acc)).to_frame()
    assert r[r.model == "mrc"]["hit_ratio"].tolist() == curve["hit_ratio"].tolist()
    wc = run_write_cache(blk, "halo", 0.5, drive="hdd-7200").to_frame()
    assert r[r.model == "write_cache"]["traffic_rate"].tolist() == wc["traffic_rate"].tolist()
    mem = load("lackey:xz", max_requests=5000)
    me = simulate_memext(page_stream(mem), MemExtConfig(dram_frac=0.5, device="optane-dcpmm"),
                         device=get_device("optane-dcpmm")).to_frame()
    assert r[r.model == "memext"]["faults"].tolist() == me["faults"].tolist()


def test_changing_a_parameter_or_the_trace_file_makes_new_tasks(tmp_path):
    p = tmp_path / "t.trace"
    p.write_bytes(b"".join(b"%d 0 %d 8 1\n" % (i, (i * 7) % 50 * 8) for i in range(400)))
    text = f'[[traces]]\nname = "t"\nsource = "{p.name}"\n[[models]]\nmodel = "cache_sim"\n' \
           'grid = {{ policy = ["lru"], cache_blocks = [{c}] }}\n'
    a = parse_spec(text.format(c=8), base_dir=tmp_path).tasks()
    b = parse_spec(text.format(c=9), base_dir=tmp_path).tasks()
    assert a[0].key != b[0].key
    p.write_bytes(p.read_bytes() + b"500 0 0 8 1\n")
    assert parse_spec(text.format(c=8), base_dir=tmp_path).tasks()[0].key != a[0].key
    r = run_sweep(parse_spec(text.format(c=8), base_dir=tmp_path), tmp_path / "o.parquet", scheduler="serial")
    assert r.table["requests"].tolist() == [401]


@pytest.mark.parametrize(("text", "match"), [
    ('[[models]]\nmodel = "nope"\n', "unknown sweep model 'nope'"),
    ('[[traces]]\nname="a"\nsource="mqsim:tpcc-small"\n[[models]]\nmodel = "cache_sim"\ngrid = { colour = [1] }\n',
     r"models\[0\] \(cache_sim\): unknown parameter\(s\) colour"),
    ('[[traces]]\nname="a"\nsource="mqsim:tpcc-small"\n[[models]]\nmodel = "cache_sim"\n',
     r"missing parameter\(s\) policy"),
    ('[[traces]]\nname="a"\nsource="mqsim:tpcc-small"\n[[models]]\nmodel = "cache_sim"\ntraces=["b"]\n'
     'fixed = { policy = "lru" }\n', r"unknown trace\(s\) b"),
    ('[[traces]]\nname="a"\nsource="mqsim:tpcc-small"\n[[models]]\nmodel = "file_cache"\n'
     'grid = { cache_fraction = [0.1] }\n', "needs a device"),
    ('[sweep]\ndevices=["warp-drive"]\n[[traces]]\nname="a"\nsource="mqsim:tpcc-small"\n[[models]]\n'
     'model = "file_cache"\ngrid = { cache_fraction = [0.1] }\n', "unknown device 'warp-drive'"),
    ('[[models]]\nmodel = "call:os:system"\n', "functions of the models package only"),
    ('[[models]]\nmodel = "cache_sim"\ngrid = { policy = [] }\n', "have no values"),
    ("[[models]\n", "invalid TOML"),
])
def test_bad_specs_name_the_problem(text, match):
    with pytest.raises(ValueError, match=match):
        parse_spec(text).tasks()


def test_failed_tasks_are_named_and_the_others_kept(tmp_path):
    text = ('[[traces]]\nname="mem"\nsource="lackey:xz"\nmax_requests=1000\n[[traces]]\nname="blk"\n'
            'source="mqsim:tpcc-small"\nmax_requests=1000\n[[models]]\nmodel = "cache_sim"\n'
            'grid = { policy = ["lru"], cache_blocks = [8] }\n')
    with pytest.raises(ValueError, match=r"1 of 2 sweep task\(s\) failed.*trace 'mem' is a memory trace"):
        run_sweep(parse_spec(text), tmp_path / "o.parquet", scheduler="serial")
    assert len(list(parts_dir(tmp_path / "o.parquet").glob("*.parquet"))) == 1


def test_any_models_function_can_be_swept(tmp_path):
    from models.storage.file_cache import timings_from_device, verdict

    text = ('[sweep]\ndevices = ["optane-dcpmm", "nand-flash"]\n[[models]]\n'
            'model = "call:models.storage.file_cache:timings_from_device"\ngrid = { block_size_bytes = [4096, 65536] }\n'
            '[[models]]\nmodel = "call:models.storage.file_cache:verdict"\n'
            'grid = { T = [500.0, 5000.0] }\nfixed = { t = 100.0, Tm = 6000.0 }\n')
    r = run_sweep(parse_spec(text), tmp_path / "p.parquet", scheduler="serial")
    assert r.n_tasks == 2 * 2 + 2
    dev = r.table[r.table.model.str.endswith("timings_from_device")]
    for _, row in dev.iterrows():
        assert row["T_ns"] == timings_from_device(row["device"], int(row["block_size_bytes"])).T_ns
    ver = r.table[r.table.model.str.endswith("verdict")]
    assert ver["value"].tolist() == [verdict(100.0, 500.0, 6000.0), verdict(100.0, 5000.0, 6000.0)]


def test_importing_the_sweep_package_does_not_import_dask():
    code = "import sys, models.sweep, models; assert not [m for m in sys.modules if m.split('.')[0] in " \
           "('dask', 'distributed')], 'dask imported'"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[3])


@given(st.lists(st.tuples(st.sampled_from(["x", "y", "z", None]), st.sampled_from(["m1", "m2"])), max_size=40),
       st.lists(st.sampled_from(["w1", "w2", "w3"]), min_size=1, max_size=80),
       st.lists(st.floats(0.0, 5.0), min_size=80, max_size=80))
def test_tasks_are_handed_out_once_each_and_a_worker_changes_trace_only_when_its_own_are_done(spec, calls, secs):
    from models.sweep.run import _TraceAffinity

    tasks = [SimpleNamespace(trace=tr, model=m, key=i) for i, (tr, m) in enumerate(spec)]
    plan = _TraceAffinity(tasks, group=lambda t: t.trace)
    given_out, loaded, loads = [], {}, 0
    for k, w in enumerate(calls + ["w1"] * len(tasks)):  # then one worker drains the rest
        left = {t.trace for t in tasks if t.key not in given_out}
        t = plan.next(w)
        if t is None:
            assert not left
            continue
        mine = loaded.setdefault(w, set())
        if t.trace is not None and t.trace not in mine:
            # a new trace for this worker only when none of its traces (nor trace-less tasks) is left
            assert not (left & (mine | {None}))
            loads += 1
        mine.add(t.trace)
        given_out.append(t.key)
        plan.done(t, secs[k % len(secs)])
    assert sorted(given_out) == list(range(len(tasks))) and not plan
    # each worker loads each trace at most once
    assert loads <= sum(len(v - {None}) for v in loaded.values())


def test_threads_of_one_worker_load_a_trace_once():
    from concurrent.futures import ThreadPoolExecutor

    from models.sweep.registry import TraceContext

    spec = parse_spec('[[traces]]\nname="t"\nsource="synthetic:fin1"\noptions={ n_requests = 5000, seed = 987 }\n'
                      '[[models]]\nmodel="cache_sim"\ngrid={ policy=["lru"], cache_blocks=[8] }\n')
    entry = spec.traces[0]
    with ThreadPoolExecutor(4) as ex:
        got = list(ex.map(lambda _: TraceContext(entry).blocks(4096), range(8)))
    assert all(g is got[0] for g in got)
    assert load_counts()[entry.model_dump_json()] == 1


@given(st.lists(st.tuples(st.sampled_from(["x", "y", None]), st.sampled_from(["m1", "m2"])), max_size=30),
       st.lists(st.sampled_from(["w1", "w2"]), min_size=1, max_size=60),
       st.lists(st.floats(0.0, 1.0), min_size=60, max_size=60), st.floats(0.0, 2.0))
def test_bundles_keep_one_trace_and_their_known_times_within_the_budget(spec, calls, secs, budget):
    from models.sweep.run import _TraceAffinity

    tasks = [SimpleNamespace(trace=tr, model=m, key=i) for i, (tr, m) in enumerate(spec)]
    plan = _TraceAffinity(tasks, group=lambda t: t.trace)
    given_out = []
    for k, w in enumerate(calls + ["w1"] * len(tasks)):
        known = {(g, m): plan._mean(g, m) for g in ("x", "y", None) for m in ("m1", "m2")}
        bundle = plan.take(w, budget)
        if not bundle:
            assert not plan
            continue
        assert len({t.trace for t in bundle}) == 1  # one trace per round trip
        if len(bundle) > 1:  # only tasks of known run time are added, within the budget
            assert sum(known[(t.trace, t.model)] for t in bundle) <= budget
        given_out += [t.key for t in bundle]
        for t in bundle:
            plan.done(t, secs[k % len(secs)])
    assert sorted(given_out) == list(range(len(tasks))) and not plan


def test_a_tasks_trace_load_does_not_count_in_its_models_run_time():
    from models.sweep.run import _TraceAffinity

    tasks = [SimpleNamespace(trace="x", model="m", key=i) for i in range(4)]
    plan = _TraceAffinity(tasks, group=lambda t: t.trace)
    first = plan.next("w1")  # w1 loads x in this task
    plan.done(first, 5.0)
    assert plan._mean("x", "m") == 5.0  # the only time known so far
    second = plan.next("w1")
    plan.done(second, 0.1)
    assert plan._mean("x", "m") == 0.1  # the load-free time, once there is one
    third = plan.next("w2")  # w2 loads x too: its time is kept apart
    plan.done(third, 4.0)
    assert plan._mean("x", "m") == 0.1
    assert [t.key for t in plan.take("w1", 1.0)] == [3]


def test_the_work_left_counts_known_means_and_the_overall_mean_for_models_not_run_yet():
    from models.sweep.run import _TraceAffinity

    tasks = [SimpleNamespace(trace="x", model=m, key=i) for i, m in enumerate(["a"] * 4 + ["b", "b", "c"])]
    plan = _TraceAffinity(tasks, group=lambda t: t.trace)
    assert plan.left_seconds() == float("inf")  # nothing known
    first = plan.next("w")  # an "a" (spec order among unknowns); it loads x
    plan.done(first, 1.0)
    second = plan.next("w")  # "b" and "c" count longest (unknown): b, first in spec order
    assert second.model == "b"
    plan.done(second, 0.5)
    # a: 1.0 (its only time, with the load); b: 0.5; c not run: the mean of the load-free tasks, 0.5
    assert plan.left_seconds() == 3 * 1.0 + 0.5 + 0.5
    third = plan.next("w")
    assert third.model == "c"
    plan.done(third, 2.0)
    fourth = plan.next("w")  # a's estimate 1.0 is the longest left
    assert fourth.model == "a"
    plan.done(fourth, 0.25)  # a load-free time replaces the one with the load
    assert plan.left_seconds() == 2 * 0.25 + 0.5


def test_a_bundle_runs_each_task_and_returns_a_failed_tasks_error_in_its_place():
    from models.sweep.run import run_task, run_tasks

    text = ('[[traces]]\nname="mem"\nsource="lackey:xz"\nmax_requests=500\n[[traces]]\nname="blk"\n'
            'source="mqsim:tpcc-small"\nmax_requests=500\n[[models]]\nmodel = "cache_sim"\n'
            'grid = { policy = ["lru", "fifo"], cache_blocks = [8] }\n')
    tasks = parse_spec(text).tasks()
    out = run_tasks(tasks)
    assert len(out) == len(tasks)
    for task, got in zip(tasks, out):
        if task.trace.name == "mem":
            assert isinstance(got, ValueError) and "memory trace" in str(got)
        else:
            want = run_task(task)
            assert got.drop(columns=["_task_s", "_task_cpu_s"]).equals(want.drop(columns=["_task_s", "_task_cpu_s"]))
            assert got["_task_cpu_s"].iloc[0] >= 0


def test_the_task_cpu_times_are_reported_and_left_out_of_the_table(serial):
    assert set(serial.task_cpu_seconds) == set(serial.computed)
    assert all(c >= 0 for c in serial.task_cpu_seconds.values())
    assert not [c for c in serial.table.columns if c.startswith("_task")]


@given(st.lists(st.integers(0, 40), min_size=1, max_size=300),
       st.lists(st.floats(0.01, 1.0), min_size=1, max_size=4, unique=True))
def test_file_cache_at_one_fraction_equals_its_rows_of_the_whole_curve(ids, fractions):
    # a sweep task asks for one cache fraction, which takes one LRU simulation instead of the stack-distance
    # pass: the same counts and times as the curve over several fractions (LRU's inclusion property)
    from models.storage.file_cache_sim import file_cache_curves

    devs = ["optane-dcpmm", "hdd-7200"]
    whole = file_cache_curves(ids, devs, cache_fractions=fractions)
    each = pd.concat([file_cache_curves(ids, devs, cache_fractions=[f]) for f in fractions])
    key = ["device", "cache_fraction", "policy"]
    pd.testing.assert_frame_equal(whole.sort_values(key).reset_index(drop=True),
                                  each.sort_values(key).reset_index(drop=True))


def test_the_local_cluster_applies_the_sweep_settings_to_its_workers():
    from dask.distributed import Client

    from models.sweep.run import local_cluster

    def probe():
        import os

        import dask

        return (dask.config.get("distributed.worker.profile.enabled"), os.environ.get("MALLOC_TRIM_THRESHOLD_"),
                os.environ.get("NUMBA_NUM_THREADS"))

    cluster = local_cluster(1)
    try:
        with Client(cluster) as client:
            assert list(client.run(probe).values()) == [(False, None, "1")]
            assert not [k for k in client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.extensions))
                        if k == "stealing"]
    finally:
        cluster.close()


@given(st.lists(st.floats(0.0, 3.0), max_size=60), st.lists(st.floats(-1.0, 200.0), max_size=60),
       st.booleans())
def test_the_guided_search_of_the_zipf_generator_equals_numpy_searchsorted(weights, values, integer_weights):
    # a sweep's synthetic traces are generated on each worker that uses them; the guided search that
    # makes that cheaper must give np.searchsorted's indices exactly (ties, values on and off the steps)
    import numpy as np

    from models.traces.synthetic import _search_right

    w = np.floor(np.asarray(weights)) if integer_weights else np.asarray(weights)
    cdf = np.cumsum(w)
    v = np.concatenate([np.asarray(values), cdf, np.nextafter(cdf, -np.inf), np.nextafter(cdf, np.inf),
                        [np.nan, np.inf, -np.inf]])
    assert np.array_equal(_search_right(cdf, v), np.searchsorted(cdf, v, side="right"))


def test_file_cache_default_storage_path_refuses_an_unmeasured_block_size_by_name(tmp_path):
    """The file_cache entry's storage_path defaults to the model's (same-run, 4-64 KiB): a 2 KiB block size
    fails that task naming the parameter, the measured range and paper-factor; paper-factor runs it."""
    text = ('[sweep]\ndevices=["optane-dcpmm"]\n[[traces]]\nname="blk"\nsource="mqsim:tpcc-small"\nmax_requests=1000\n'
            '[[models]]\nmodel = "file_cache"\ngrid = {{ cache_fraction = [0.1], block_size = [2048, 4096] }}\n{fixed}')
    with pytest.raises(ValueError, match=r"1 of 2 sweep task\(s\) failed.*block_size=2048: storage_path same-run "
                                         r"\(the default\).*4096-65536 B.*storage_path paper-factor"):
        run_sweep(parse_spec(text.format(fixed="")), tmp_path / "o.parquet", scheduler="serial")
    r = run_sweep(parse_spec(text.format(fixed='fixed = { storage_path = "paper-factor" }\n')),
                  tmp_path / "p.parquet", scheduler="serial")
    assert sorted(set(r.table["block_size"])) == [2048, 4096]
