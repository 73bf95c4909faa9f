"""`pcm-planner breakeven`: the --insertion option and the verdict column (issues 14 and 20)."""

import io

import pandas as pd
import pytest

from models.storage import file_cache as fc

DEVICES = ["dram", "optane-dcpmm", "pcm-samsung-20nm", "hdd-7200"]


def _run(run_cli, *args):
    rc, out, err = run_cli("breakeven", *args)
    assert rc == 0, err
    return pd.read_csv(io.StringIO(out))


def test_insertion_default_is_steady_and_matches_the_model(run_cli):
    args = [a for d in DEVICES for a in ("--device", d)]
    default = _run(run_cli, *args)
    steady = _run(run_cli, *args, "--insertion", "steady")
    pd.testing.assert_frame_equal(default, steady)
    assert list(default.columns) == ["device", "t_ns", "T_ns", "Tm_ns", "n_star", "hits_required", "verdict",
                                     "insertion"]
    assert (default["insertion"] == "steady").all()
    for _, row in default.iterrows():
        be = fc.break_even(fc.timings_from_device(row["device"], 4096, insertion="steady"))
        assert row["Tm_ns"] == pytest.approx(be.Tm_ns, rel=1e-9) and row["n_star"] == pytest.approx(be.n_star, rel=1e-9)


def test_first_touch_moves_only_tm_and_n_star(run_cli):
    args = [a for d in DEVICES for a in ("--device", d)]
    st_ = _run(run_cli, *args, "--insertion", "steady")
    ft = _run(run_cli, *args, "--insertion", "first-touch")
    assert (ft["insertion"] == "first-touch").all()
    assert ft[["device", "t_ns", "T_ns"]].equals(st_[["device", "t_ns", "T_ns"]])
    d = fc.insertion_cost(4096, insertion="first-touch") - fc.insertion_cost(4096)
    assert (ft["Tm_ns"] - st_["Tm_ns"]).to_numpy() == pytest.approx([d] * len(DEVICES), rel=1e-6)
    # n* moves the same way as the insertion cost (n* = 1 + insert / (T - t))
    assert (((ft["n_star"] - st_["n_star"]) * d) >= 0).all()


def test_verdict_always_present(run_cli):
    df = _run(run_cli, "--device", "optane-dcpmm", "--device", "hdd-7200")
    assert df["verdict"].tolist() == [f"pays after {h:g} hit{'s' if h != 1 else ''}" for h in df["hits_required"]]
    df = _run(run_cli, "--t-ns", "100", "--T-ns", "90", "--Tm-ns", "150")
    assert df["verdict"].tolist() == [fc.NEVER_PAYS] and df["n_star"].isna().all()


def test_bad_insertion_is_a_usage_message(capsys):
    from cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(["breakeven", "--device", "dram", "--insertion", "lru"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--insertion" in err and "invalid choice: 'lru'" in err


def test_storage_path_option_matches_the_model_and_extends_the_columns(run_cli):
    """--storage-path (issue 39): same-run = the model's same-run timings, and the default (one default: the
    value measured here); the default output keeps its columns, the option appends ``storage_path``."""
    args = [a for d in DEVICES for a in ("--device", d)]
    default = _run(run_cli, *args)
    paper = _run(run_cli, *args, "--storage-path", "paper-factor")
    same = _run(run_cli, *args, "--storage-path", "same-run")
    assert "storage_path" not in default.columns
    assert list(same.columns) == [*default.columns, "storage_path"]
    assert (same["storage_path"] == "same-run").all() and (paper["storage_path"] == "paper-factor").all()
    pd.testing.assert_frame_equal(same.drop(columns="storage_path"), default)
    assert not paper.drop(columns="storage_path").equals(default)
    for _, row in same.iterrows():
        be = fc.break_even(fc.timings_from_device(row["device"], 4096, storage_path="same-run"))
        assert row["T_ns"] == pytest.approx(be.T_ns, rel=1e-9) and row["n_star"] == pytest.approx(be.n_star, rel=1e-9)
    # the same run's DRAM-speed storage path is not the paper's 1.3 t: T differs, and so n*
    dram = same.set_index("device").loc["dram"]
    assert dram["T_ns"] / dram["t_ns"] != pytest.approx(fc.IO_STACK_FACTOR, rel=1e-3)
    # typed timings stay as typed; their storage_path cell is empty
    mixed = _run(run_cli, "--t-ns", "100", "--T-ns", "130", "--Tm-ns", "160", "--device", "dram",
                 "--storage-path", "same-run")
    assert mixed["storage_path"].fillna("").tolist() == ["", "same-run"] and mixed["T_ns"].iloc[0] == 130


def test_storage_path_same_run_refuses_blocks_without_a_same_run_read(run_cli, capsys):
    from cli.main import main

    rc, out, err = run_cli("breakeven", "--device", "dram", "--block-size", "2048", "--storage-path", "same-run")
    assert rc == 2 and out == ""
    assert "--storage-path same-run" in err and "2048-byte blocks" in err and "paper-factor" in err
    # the paper's factor has a value there
    assert _run(run_cli, "--device", "dram", "--block-size", "2048", "--storage-path", "paper-factor").shape[0] == 1
    # the default is same-run: refused too (not answered with the paper's factor unasked), naming the
    # measured range and the explicit choice
    rc, out, err = run_cli("breakeven", "--device", "dram", "--block-size", "2048")
    assert rc == 2 and out == ""
    assert "--storage-path same-run (the default)" in err and "4096-65536 B" in err
    assert "--storage-path paper-factor (the paper's T = 1.3 t" in err
    with pytest.raises(SystemExit) as exc:
        main(["breakeven", "--device", "dram", "--storage-path", "zram"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--storage-path" in err and "invalid choice: 'zram'" in err
