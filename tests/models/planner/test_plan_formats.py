"""The planner reads a trace with the trace pages' format / column-mapping choices, and each workload fails alone
(issue 38 item 3). Files made in the test."""

from __future__ import annotations

import numpy as np
import pytest

from models.planner.plan import PlanWorkload, plan, workload_from_path
from models.planner.workloads import workload_from_upload
from models.traces.formats import write_vscsi

DEV = ["pcm-samsung-20nm"]


def _libcachesim_csv(path, n=300):
    """A libCacheSim-style block CSV: the operation is a SCSI opcode (28 read, 2a write)."""
    rng = np.random.default_rng(1)
    lines = ["timestamp,op,lba,size"] + [f"{i * 0.001:.3f},{'2a' if rng.random() < 0.4 else '28'},"
                                         f"{int(rng.integers(0, 64)) * 8},4096" for i in range(n)]
    path.write_text("\n".join(lines) + "\n")
    return path


MAPPING = {"time_col": "timestamp", "op_col": "op", "op_map": "scsi", "lba_col": "lba", "size_col": "size"}


def test_a_scsi_opcode_csv_is_read_with_the_column_mapping(tmp_path):
    f = _libcachesim_csv(tmp_path / "vm.csv")
    w = workload_from_path(f, trace_format="csv", reader_options=MAPPING)
    assert (w.kind, w.trace_format) == ("block", "csv")
    df = plan([w], DEV, n_requests=None).to_frame()
    wc = df[(df.role == "write-cache") & (df.workload == "vm")]
    assert wc.verdict.isin(["wins", "loses", "about the same"]).all(), wc.reason.tolist()
    assert (df[df.workload == "vm"].requests_used == 300).all()


def test_each_workload_fails_alone(tmp_path):
    bad = _libcachesim_csv(tmp_path / "stored-copy.csv")  # detected as a CSV; '2a' is no read/write code by default
    good = tmp_path / "t.vscsi"
    good.write_bytes(write_vscsi(1, [0x28, 0x2A] * 100, np.arange(200) % 17 * 8, [4096] * 200, np.arange(200) * 100))
    ws = [workload_from_upload(bad, "libcachesim.csv"), workload_from_path(good, name="vm2")]
    res = plan(ws, DEV)
    df = res.to_frame()
    mine = df[df.workload == "libcachesim"]
    assert len(mine) and (mine.verdict == "needs data").all()
    assert mine.reason.str.startswith("needs data: could not read workload 'libcachesim' (libcachesim.csv)").all()
    assert "field 'op'" in mine.reason.iloc[0] and "stored-copy" not in mine.reason.iloc[0]
    other = df[df.workload == "vm2"]
    assert other.verdict.isin(["wins", "loses", "about the same"]).any()
    assert [n for n, _ in res.errors] == ["libcachesim"]
    with pytest.raises(ValueError, match="no workload could be read: workload 'libcachesim'"):
        plan(ws[:1], DEV)


def test_an_unknown_format_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown trace format 'foo'"):
        PlanWorkload(name="a", kind="block", source="x", trace_format="foo")


def test_cli_plan_takes_the_trace_stats_format_options_and_each_workload_fails_alone(tmp_path, capsys):
    from cli.main import main

    f = _libcachesim_csv(tmp_path / "vm.csv", n=100)
    mapping = ["--trace-format", "csv", "--time-col", "timestamp", "--op-col", "op", "--op-map", "scsi",
               "--lba-col", "lba", "--size-col", "size"]
    assert main(["plan", "--block-trace", str(f), "--device", DEV[0], "--csv", str(tmp_path / "a.csv"), *mapping]) == 0
    import pandas as pd

    df = pd.read_csv(tmp_path / "a.csv")
    assert df[df.workload == "vm"].verdict.isin(["wins", "loses", "about the same"]).any()
    # without the mapping the CSV fails alone: the error on stderr, the other workload's rows on stdout, status 0
    capsys.readouterr()
    from models.data import data_path

    assert main(["plan", "--block-trace", str(f), "--fio", str(data_path("fio/pcm_planner.fio")), "--device",
                 DEV[0]]) == 0
    out, err = capsys.readouterr()
    assert err.startswith("error: workload 'vm'") and "--op-map scsi" in err
    assert "pcm_planner,storage," in out and "could not read workload 'vm'" in out
    # every workload failing is an error (status 2)
    assert main(["plan", "--block-trace", str(f), "--device", DEV[0]]) == 2
    assert "no workload could be read" in capsys.readouterr().err
