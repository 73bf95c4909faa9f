"""Issue 19: ``pcm-planner sweep SPEC.toml --out results.parquet`` (Parquet + formula-safe CSV, resumable)."""

from __future__ import annotations

import io

import pandas as pd
import pytest

SPEC = """
[sweep]
name = "cli"

[[traces]]
name = "=HYPERLINK(1)"
source = "mqsim:tpcc-small"
max_requests = 1500

[[models]]
model = "cache_sim"
grid = { policy = ["lru", "clock"], cache_blocks = [32, 128] }
"""


def test_sweep_writes_parquet_and_a_formula_safe_csv_and_resumes(tmp_path, run_cli):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    out = tmp_path / "res" / "r.parquet"
    rc, stdout, err = run_cli("sweep", spec, "--scheduler", "serial", "--out", out)
    assert rc == 0, err
    summary = pd.read_csv(io.StringIO(stdout))
    assert summary.loc[0, ["tasks", "computed", "reused"]].tolist() == [4, 4, 0]
    assert "sweep [" in err and "100%" in err  # progress bar on stderr
    table = pd.read_parquet(out)
    assert len(table) == 4 and set(table.policy) == {"lru", "clock"} and table.trace.iloc[0] == "=HYPERLINK(1)"
    text = (tmp_path / "res" / "r.csv").read_text()
    assert "'=HYPERLINK(1)" in text and "\n=HYPERLINK" not in text and ",=HYPERLINK" not in text
    rc, stdout, _ = run_cli("sweep", spec, "--scheduler", "serial", "--out", out, "--format", "json")
    assert rc == 0 and '"computed":0' in stdout and '"reused":4' in stdout


def test_sweep_on_a_local_cluster_gives_the_serial_table(tmp_path, run_cli):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    rc, _, err = run_cli("sweep", spec, "--scheduler", "serial", "--out", tmp_path / "a.parquet", "--no-progress")
    assert rc == 0, err
    rc, _, err = run_cli("sweep", spec, "--workers", "1", "--out", tmp_path / "b.parquet", "--no-progress")
    assert rc == 0, err
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a.parquet"), pd.read_parquet(tmp_path / "b.parquet"))


def test_sweep_errors_are_clean(tmp_path, run_cli):
    rc, _, err = run_cli("sweep", tmp_path / "missing.toml", "--out", tmp_path / "r.parquet")
    assert rc != 0 and "sweep spec not found" in err
    bad = tmp_path / "b.toml"
    bad.write_text('[[models]]\nmodel = "cache_sim"\ngrid = { policy = ["lru"], volume = [1] }\n')
    rc, _, err = run_cli("sweep", bad, "--out", tmp_path / "r.parquet")
    assert rc != 0 and "unknown parameter(s) volume" in err
    rc, _, err = run_cli("sweep", bad, "--out", tmp_path / "r.csv")
    assert rc != 0 and "--out must name a .parquet file" in err


def test_a_trace_outside_the_spec_folder_is_not_quoted(tmp_path, run_cli):
    """Issue 42 item 17: a failing trace source outside the spec's folder printed the file's first line."""
    (tmp_path / "secret.txt").write_text("SECRET_TOKEN=abc123 first line\nmore\n")
    (tmp_path / "spec").mkdir()
    spec = tmp_path / "spec" / "spec.toml"
    spec.write_text('[[traces]]\nname="a"\nsource="../secret.txt"\n[[models]]\nmodel="mrc"\n')
    rc, _, err = run_cli("sweep", spec, "--scheduler", "serial", "--out", tmp_path / "o.parquet", "--no-progress")
    assert rc == 2 and "SECRET_TOKEN" not in err, err
    assert "secret.txt: not read (TraceFormatError)" in err and "outside the spec's folder" in err
    # inside the folder the reader's own message (naming the line) stays
    (tmp_path / "spec" / "bad.txt").write_text("NOT_A_TRACE line\n")
    spec.write_text('[[traces]]\nname="a"\nsource="bad.txt"\n[[models]]\nmodel="mrc"\n')
    rc, _, err = run_cli("sweep", spec, "--scheduler", "serial", "--out", tmp_path / "p.parquet", "--no-progress")
    assert rc == 2 and "NOT_A_TRACE" in err, err


@pytest.mark.parametrize("scheduler", ["inproc://", "tls://127.0.0.1:1", "ucx://x:1", "127.0.0.1:99999999999999999999",
                                       "tcp://h:0", "bogus"])
def test_a_bad_scheduler_is_named_with_what_is_accepted(tmp_path, run_cli, scheduler):
    """Issue 42 item 15: Dask's own messages ("not enough values to unpack", "Python int too large to convert
    to C long", a TLS / UCX traceback) stood for a bad --scheduler."""
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    rc, _, err = run_cli("sweep", spec, "--out", tmp_path / "o.parquet", "--scheduler", scheduler, "--no-progress")
    assert rc == 2 and "--scheduler must be local, serial or a Dask scheduler address tcp://HOST:PORT" in err, err
    assert "Traceback" not in err
