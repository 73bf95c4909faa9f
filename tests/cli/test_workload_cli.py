"""``pcm-planner workload``: the Filebench model on the command line (column contract, bad input)."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from models.storage import workload as wf


def test_workload_cli(run_cli):
    rc, out, err = run_cli("workload", "--personality", "varmail", "--config", "pcm-dax", "--threads", "4")
    assert rc == 0, err
    lines = out.strip().splitlines()
    assert lines[0] == "personality,config,threads,ops_per_s,latency_ms"
    assert len(lines) == 2 and lines[1].startswith("varmail,pcm-dax,4,")
    df = pd.read_csv(io.StringIO(out))
    r = wf.evaluate(wf.paper_workload("varmail", threads=4), "pcm-dax")
    assert df.ops_per_s[0] == pytest.approx(r.ops_per_s, rel=1e-9)  # CSV keeps 10 significant digits


def test_workload_cli_several_configs_and_raw(run_cli):
    rc, out, err = run_cli("workload", "--personality", "varmail", "--config", "hdd", "--config", "pcm-dax",
                           "--threads", "2", "--raw")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    assert df.config.tolist() == ["hdd", "pcm-dax"] and (df.threads == 2).all()
    assert df.ops_per_s[1] > df.ops_per_s[0]


@pytest.mark.parametrize("bad", [["--config", "nope"], ["--files-scale", "inf"], ["--iosize", "inf"],
                                 ["--threads", "100000"], ["--threads", "0"]])
def test_workload_cli_bad_input_exits_2(run_cli, bad, capsys):
    try:
        rc, _, err = run_cli("workload", "--personality", "varmail", *bad)
    except SystemExit as e:  # argparse refused the option's value ("inf": give a finite number)
        rc, err = e.code, capsys.readouterr().err
    assert rc == 2 and "Traceback" not in err, bad


def test_workload_default_configs_are_the_papers_five_plus_pcm_dax(run_cli):
    import io

    import pandas as pd

    from models.storage import workload as wf

    rc, out, err = run_cli("workload", "--personality", "varmail", "--threads", "4")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    assert df.config.tolist() == ["pcm-hdd", "pcm-ssd", "pcm-dram", "hdd", "ssd", "pcm-dax"]
    assert tuple(df.config[:5]) == wf.PAPER_CONFIGS
    ops = df.set_index("config")["ops_per_s"]
    assert ops["pcm-dram"] >= ops["pcm-ssd"] * (1 - 1e-9) >= ops["pcm-hdd"] * (1 - 1e-9)
