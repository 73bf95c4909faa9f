"""``pcm-planner plan`` of a block trace too large to load whole: streamed in two passes, not cut; ``--progress``
shows each pass; ``plan --fleet`` inherits it (issue 41)."""

from __future__ import annotations

import pandas as pd
import pytest

from cli.main import main
from models.planner import stream_plan


def _trace(path, n: int = 600):
    path.write_text("\n".join(f"{k * 1000} 0 {(k * 37) % 300 * 8} 8 {k % 2}" for k in range(n)) + "\n")
    return str(path)


@pytest.fixture
def streamed(monkeypatch):
    """Every trace file over the in-memory byte limit; roles without a stream class use the reference stream."""
    monkeypatch.setattr(stream_plan, "IN_MEMORY_MAX_BYTES", 1)
    monkeypatch.setenv(stream_plan.COLLECTING_ENV, "1")


def test_plan_streams_a_large_trace_whole_with_progress(tmp_path, capsys, streamed):
    out = tmp_path / "plan.csv"
    assert main(["plan", "--block-trace", _trace(tmp_path / "vol.trace"), "--device", "pcm-samsung-20nm",
                 "--progress", "--csv", str(out)]) == 0
    err = capsys.readouterr().err
    assert "vol: pass 1 of 2: " in err and "vol: pass 2 of 2: " in err and "% of " in err
    df = pd.read_csv(out)
    block = df[df.role.isin(["file-cache", "write-cache", "storage"])]
    assert (block.requests_used == 600).all() and (block.requests_read == 600).all()
    assert block.reason.str.endswith("[whole block trace: 600 requests (streamed in two passes)]").all()
    assert main(["plan", "--block-trace", str(tmp_path / "vol.trace"), "--device", "pcm-samsung-20nm",
                 "--no-progress", "--csv", str(out)]) == 0
    assert "pass 1 of 2" not in capsys.readouterr().err


def test_fleet_plans_each_volume_streamed(tmp_path, capsys, streamed):
    for i in range(2):
        _trace(tmp_path / f"vol{i}.trace", 300 + i)
    (tmp_path / "fleet.toml").write_text('traces = ["vol*.trace"]\ndevices = ["pcm-samsung-20nm"]\n'
                                         'roles = ["storage"]\n')
    out = tmp_path / "fleet.parquet"
    assert main(["plan", "--fleet", str(tmp_path / "fleet.toml"), "--fleet-out", str(out), "--scheduler",
                 "serial"]) == 0
    df = pd.read_parquet(out)
    assert list(df.requests_read) == [300, 301] and df.reason.str.contains("streamed in two passes").all()


def test_plan_over_a_tiny_budget_samples_the_blocks_and_says_so(tmp_path):
    """Issue 41: a trace whose exact per-block state passes ``--memory-budget`` is streamed and its file-cache and
    storage rows are evaluated from a SHARDS sample of the blocks, the ``method`` and ``sample_rate`` columns and
    the reason saying so; with room, the same trace is exact (method "exact", rate 1)."""
    import numpy as np

    g = np.random.default_rng(1)
    path = tmp_path / "vol.trace"
    path.write_text("\n".join(f"{k * 1000} 0 {int(g.integers(0, 400_000)) * 8} 8 {k % 2}" for k in range(20_000))
                    + "\n")
    out = tmp_path / "plan.csv"
    assert main(["plan", "--block-trace", str(path), "--device", "pcm-samsung-20nm", "--memory-budget", "1MB",
                 "--csv", str(out)]) == 0
    df = pd.read_csv(out)
    assert list(df.columns)[-2:] == ["method", "sample_rate"]
    s = df[df.role.isin(["file-cache", "storage"])]
    assert (s.method == "SHARDS spatial sample of 4 KiB blocks").all() and ((s.sample_rate > 0) & (s.sample_rate < 1)).all()
    assert s.verdict.isin(["wins", "loses", "about the same"]).all()
    assert s.reason.str.contains(r"sampled: SHARDS spatial sample of 4 KiB blocks at rate [0-9.]+ \(1 in \d+\)").all()
    assert s.reason.str.contains("plan_sampling_error.csv").all()
    assert s.reason.str.contains("the per-block state the file-cache and storage roles share would need").all()
    assert df[df.workload == "(memory workload)"].sample_rate.isna().all()  # not from a trace
    assert main(["plan", "--block-trace", str(path), "--device", "pcm-samsung-20nm", "--memory-budget", "0",
                 "--csv", str(out)]) == 0
    ex = pd.read_csv(out)
    e = ex[ex.role.isin(["file-cache", "storage", "write-cache"])]
    assert (e.method == "exact").all() and (e.sample_rate == 1.0).all()
    v = s.set_index("role").value / e.set_index("role").value.loc[["file-cache", "storage"]]
    assert abs(v - 1).max() < 0.05  # the sampled verdicts near the exact ones (the storage replay is exact)
