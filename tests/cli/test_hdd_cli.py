"""``pcm-planner hdd validate``: column contract, drives given by path, bad drives and traces."""

from __future__ import annotations

import shutil

from models.data import data_dir


def test_cli_hdd_validate(run_cli, tmp_path):
    src = data_dir() / "disksim"
    for ext in ("diskspecs", "model", "seek", "trace"):
        shutil.copy(src / f"ibm18es.{ext}", tmp_path / f"ibm18es.{ext}")
    rc, out, err = run_cli("hdd", "validate", "--drive", "barracuda", "--drive", tmp_path / "ibm18es")
    assert rc == 0, err
    lines = out.strip().splitlines()
    assert lines[0] == "drive,requests,mean_measured_ms,mean_predicted_ms,demerit_ms"
    assert lines[1].startswith("barracuda,10000,") and lines[2].startswith("ibm18es,10000,")
    rc, _, err = run_cli("hdd", "validate", "--drive", "floppy")
    assert rc == 2 and "valid names" in err
    assert run_cli("hdd", "validate", "--drive", tmp_path / "missing")[0] == 2
    trace = tmp_path / "ibm18es.trace"
    first = trace.read_text().splitlines()[0].split()
    trace.write_text(" ".join(first[:4] + ["-13661"] + first[5:]) + "\n")  # negative service time
    rc, _, err = run_cli("hdd", "validate", "--drive", tmp_path / "ibm18es")
    assert rc == 2 and "line 1: field 'service_us' is negative" in err
    trace.write_text("")
    rc, _, err = run_cli("hdd", "validate", "--drive", tmp_path / "ibm18es")
    assert rc == 2 and "has no requests" in err


def test_cli_hdd_coverage_and_split(run_cli):
    import io

    import pandas as pd

    from models.storage.hdd import PARAMETERS

    rc, out, err = run_cli("hdd", "coverage")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out), keep_default_na=False)
    assert list(df.columns) == ["block", "parameter", "status", "values", "note", "field"]
    assert len(df) == len(PARAMETERS)
    rc, out, err = run_cli("hdd", "coverage", "--drive", "atlas10k")
    assert rc == 0, err
    one = pd.read_csv(io.StringIO(out)).set_index("parameter")
    assert not one.loc["Buffer continuous read", "modelled"] and one.loc["Block count", "modelled"]
    rc, out, err = run_cli("hdd", "split", "--drive", "dec_rz26")
    assert rc == 0, err
    sp = pd.read_csv(io.StringIO(out))
    assert list(sp.columns) == ["drive", "part", "requests", "share", "mean_measured_ms", "mean_predicted_ms",
                                "demerit_ms"]
    assert sp.part.tolist()[:3] == ["all", "reads", "writes"]
    rc, _, err = run_cli("hdd", "split")
    assert rc == 2 and "--drive is required" in err
