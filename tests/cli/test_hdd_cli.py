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
