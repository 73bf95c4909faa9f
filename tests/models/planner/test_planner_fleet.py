"""The fleet planner: one row per trace x role x device, the same rows serially and on Dask, resumable."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from models.planner import fleet
from models.planner.fleet import (
    FleetSpec,
    fleet_summary,
    fleet_traces,
    load_fleet_spec,
    parts_dir,
    run_fleet,
    warm_worker,
)


def _volumes(tmp_path, n: int) -> None:
    rng = np.random.default_rng(7)
    for i in range(n):
        m = 300 + 100 * i
        lines = [f"{k * 1000} 0 {int(rng.integers(0, 400)) * 8} {int(rng.choice([8, 16]))} {int(rng.integers(0, 2))}"
                 for k in range(m)]
        (tmp_path / f"vol{i}.trace").write_text("\n".join(lines) + "\n")


def _spec(tmp_path, **kw) -> FleetSpec:
    (tmp_path / "fleet.toml").write_text('traces = ["vol*.trace"]\ndevices = ["pcm-samsung-20nm"]\n'
                                         + "".join(f"{k} = {v}\n" for k, v in kw.items()))
    return load_fleet_spec(tmp_path / "fleet.toml")


def test_one_row_per_trace_role_device_and_resumable(tmp_path, monkeypatch):
    _volumes(tmp_path, 3)
    spec = _spec(tmp_path, roles='["storage", "write-cache"]')
    df = run_fleet(spec, tmp_path / "out.parquet", scheduler="serial")
    assert len(df) == 3 * 2 and set(df["role"]) == {"storage", "write-cache"}
    assert df["trace"].drop_duplicates().tolist() == fleet_traces(spec)
    assert pd.read_parquet(tmp_path / "out.parquet").equals(df)
    calls = []
    real = fleet.plan_trace
    monkeypatch.setattr(fleet, "plan_trace", lambda t, s: calls.append(t) or real(t, s))
    _volumes(tmp_path, 4)  # one more volume: only it is planned on the rerun
    again = run_fleet(spec, tmp_path / "out.parquet", scheduler="serial")
    assert [c.rsplit("/", 1)[-1] for c in calls] == ["vol3.trace"]
    assert len(again) == 8 and again.iloc[:6].equals(df)


def test_dask_rows_equal_serial_rows(tmp_path):
    _volumes(tmp_path, 3)
    spec = _spec(tmp_path)
    serial = run_fleet(spec, tmp_path / "s.parquet", scheduler="serial")
    dask = run_fleet(spec, tmp_path / "d.parquet", scheduler="local", workers=2)
    pd.testing.assert_frame_equal(serial, dask)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "d.parquet"), serial)
    assert not parts_dir(tmp_path / "d.parquet").exists()  # the parts are gone once the table is written


class _Stop(Exception):
    pass


def test_an_interrupted_run_keeps_each_finished_trace_and_resumes(tmp_path, monkeypatch):
    _volumes(tmp_path, 4)
    spec = _spec(tmp_path)
    full = run_fleet(spec, tmp_path / "full.parquet", scheduler="serial")
    out = tmp_path / "out.parquet"

    def stop_after_two(trace, done, total, seconds):
        if done == 2:
            raise _Stop

    with pytest.raises(_Stop):
        run_fleet(spec, out, scheduler="serial", progress=stop_after_two)
    assert not out.exists() and len(list(parts_dir(out).glob("*.parquet"))) == 2
    calls = []
    real = fleet.plan_trace
    monkeypatch.setattr(fleet, "plan_trace", lambda t, s: calls.append(t) or real(t, s))
    again = run_fleet(spec, out, scheduler="serial")
    assert calls == fleet_traces(spec)[2:]  # the two stored traces are not planned again
    pd.testing.assert_frame_equal(again, full)
    assert not parts_dir(out).exists()


def test_largest_volumes_are_handed_out_first(tmp_path):
    for name, n in (("a", 10), ("b", 300), ("c", 20), ("d", 300)):
        (tmp_path / name).write_bytes(b"x" * n)
    got = fleet._largest_first([str(tmp_path / c) for c in "abcd"])
    assert [g[-1] for g in got] == ["b", "d", "c", "a"]


def test_warm_up_plans_a_few_requests_and_never_fails(tmp_path):
    _volumes(tmp_path, 1)
    spec = _spec(tmp_path)
    assert warm_worker(fleet_traces(spec)[0], spec) > 0
    (tmp_path / "bad.trace").write_text("not a trace\n")
    assert warm_worker(str(tmp_path / "bad.trace"), spec) >= 0  # its own task reports the error


def test_bad_specs_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="no file matches"):
        fleet_traces(FleetSpec(traces=["nothing*.csv"], devices=["x"], root=str(tmp_path)))
    with pytest.raises(ValueError, match="unknown role"):
        FleetSpec(traces=["a"], devices=["x"], roles=["storage-vs-ssd"])
    with pytest.raises(ValueError, match="--scheduler"):
        run_fleet(FleetSpec(traces=["a"], devices=["x"]), tmp_path / "o.parquet", scheduler="tls://h:1")


def test_summary_counts_the_winning_share():
    df = pd.DataFrame({"trace": list("abcd"), "role": ["storage"] * 4, "device": ["d"] * 4,
                       "value": [2.0, 3.0, 0.5, np.nan], "verdict": ["wins", "wins", "loses", "needs data"]})
    s = fleet_summary(df).iloc[0]
    assert (s.volumes, s.volumes_winning, s.share_winning) == (4, 2, 0.5)
