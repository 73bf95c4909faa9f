"""The pcm-planner CLI: break-even subcommand contract and error handling."""

import io
import json

import pandas as pd


def test_breakeven_csv_contract(run_cli):
    rc, out, _ = run_cli("breakeven", "--t-ns", "100", "--T-ns", "130", "--Tm-ns", "160")
    assert rc == 0
    df = pd.read_csv(io.StringIO(out))
    assert list(df.columns[:4]) == ["t_ns", "T_ns", "Tm_ns", "n_star"]
    assert df.loc[0, "n_star"] == 2.0


def test_breakeven_json_and_devices(run_cli):
    rc, out, _ = run_cli("breakeven", "--device", "dram", "--device", "hdd-7200", "--format", "json")
    assert rc == 0
    rows = json.loads(out)
    assert [r["device"] for r in rows] == ["dram", "hdd-7200"]
    assert rows[0]["n_star"] > rows[1]["n_star"]


def test_breakeven_bad_input_is_a_message(run_cli):
    rc, _, err = run_cli("breakeven", "--t-ns", "100", "--T-ns", "130", "--Tm-ns", "10")
    assert rc == 2 and "Tm_ns" in err and "Traceback" not in err
    rc, _, err = run_cli("breakeven", "--device", "floppy")
    assert rc == 2 and "valid names" in err
    rc, _, err = run_cli("breakeven", "--t-ns", "100")
    assert rc == 2 and "--T-ns" in err


def test_cli_csv_output_is_formula_safe():
    from cli.output import emit

    out = io.StringIO()
    emit(pd.DataFrame({"workload": ["=1+1", "ok"], "value": [-2.0, 3.0]}), "csv", out)
    assert out.getvalue().splitlines() == ["workload,value", "'=1+1,-2", "ok,3"]
