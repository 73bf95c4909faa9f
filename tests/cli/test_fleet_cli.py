"""``pcm-planner plan --fleet``: the Parquet and its CSV twin, one progress line per trace, options named."""

from __future__ import annotations

import pandas as pd
import pytest

from cli.main import main


def _fleet(tmp_path) -> str:
    for i in range(2):
        lines = [f"{k * 1000} 0 {(k * 37 + i) % 300 * 8} 8 {k % 2}" for k in range(400)]
        (tmp_path / f"vol{i}.trace").write_text("\n".join(lines) + "\n")
    (tmp_path / "fleet.toml").write_text('traces = ["vol*.trace"]\ndevices = ["pcm-samsung-20nm"]\n'
                                         'roles = ["storage"]\n')
    return str(tmp_path / "fleet.toml")


def test_fleet_writes_parquet_and_csv_with_progress(tmp_path, capsys):
    out = tmp_path / "res" / "fleet.parquet"
    assert main(["plan", "--fleet", _fleet(tmp_path), "--fleet-out", str(out), "--scheduler", "serial"]) == 0
    err = capsys.readouterr().err
    assert "fleet: 1/2 traces" in err and "fleet: 2/2 traces" in err
    df = pd.read_parquet(out)
    csv = pd.read_csv(out.with_suffix(".csv"))
    assert len(df) == len(csv) == 2 and list(df["role"]) == ["storage"] * 2
    assert list(csv.columns) == list(df.columns) and df.columns[0] == "trace"


@pytest.mark.parametrize("argv, match", [(["--fleet-out", "x.csv"], "--fleet-out"),
                                         (["--device", "dram"], "--device")])
def test_fleet_options_are_named(tmp_path, argv, match, capsys):
    assert main(["plan", "--fleet", _fleet(tmp_path), *argv]) == 2
    assert match in capsys.readouterr().err
