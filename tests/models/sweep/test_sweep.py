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


def test_a_real_scheduler_and_two_workers_give_the_serial_results(serial, tmp_path):
    from dask.distributed import Client

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
            client.shutdown()  # scheduler and workers exit
        assert address.startswith("tcp://127.0.0.1:")
        pd.testing.assert_frame_equal(_sorted(run.table), _sorted(serial.table))
        assert len(counts) == 2 and all(n == 1 for c in counts.values() for n in c.values()), counts
        assert sum(len(c) for c in counts.values()) >= 2  # both traces loaded, each once per worker that used it
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
