"""``pcm-planner wear``: column contract, trace files, bad input (seed 003 wear leveling)."""

from __future__ import annotations

import io

import pandas as pd
import pytest


def test_cli_wear_columns_contract(run_cli):
    code, out, _ = run_cli("wear", "synthetic:randw", "--scheme", "none,sg,rr,sfc", "--max-requests", "5000")
    assert code == 0
    df = pd.read_csv(io.StringIO(out))
    assert list(df.columns) == ["scheme", "writes", "avg_bank_writes", "max_bank_writes", "life_rate",
                                "improvement_vs_sg"]
    assert df["scheme"].tolist() == ["none", "sg", "rr", "sfc"]
    assert (df["writes"] == 5000).all()
    assert df.loc[df.scheme == "sg", "improvement_vs_sg"].item() == pytest.approx(1.0)


def test_cli_wear_file_and_errors(tmp_path, run_cli):
    p = tmp_path / "t.csv"
    p.write_text("time,op,offset,size\n0,W,0,4096\n1,W,65536,4096\n2,R,0,4096\n")
    code, out, _ = run_cli("wear", str(p), "--trace-format", "csv", "--time-col", "time", "--op-col", "op",
                           "--offset-col", "offset", "--size-col", "size", "--op-map", "R=read,W=write", "--scheme", "rr")
    assert code == 0 and pd.read_csv(io.StringIO(out))["writes"].tolist() == [2]
    code, _, err = run_cli("wear", "synthetic:randw", "--scheme", "bogus", "--max-requests", "100")
    assert code == 2 and "scheme" in err
