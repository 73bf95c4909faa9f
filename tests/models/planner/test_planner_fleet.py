"""The fleet planner: one row per trace x role x device, the same rows serially and on Dask, resumable."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from models.planner import fleet
from models.planner.fleet import FleetSpec, fleet_summary, fleet_traces, load_fleet_spec, run_fleet


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
