"""pcm-planner trace-stats and the shared trace options (cli/traceopts.py)."""

from __future__ import annotations

import argparse
import gzip
import io
import json

import pandas as pd
import pytest

from cli.traceopts import add_trace_options, load_trace_from_args


def test_trace_stats_bundled_csv_contract(run_cli):
    rc, out, _ = run_cli("trace-stats", "mqsim:tpcc-small")
    assert rc == 0
    df = pd.read_csv(io.StringIO(out))
    assert list(df.columns) == ["statistic", "value"]
    kv = dict(zip(df["statistic"], df["value"], strict=True))
    assert (int(kv["requests"]), int(kv["writes"]), kv["format"]) == (6999, 2618, "mqsim")


def test_trace_stats_json_block_size_and_tables(run_cli):
    rc, out, _ = run_cli("trace-stats", "mqsim:tpcc-small", "--output", "json", "--block-size", "512",
                         "--max-requests", "1000")
    rec = json.loads(out)[0]
    assert rc == 0 and rec["requests"] == 1000 and rec["block_size"] == 512
    rc, out, _ = run_cli("trace-stats", "mqsim:tpcc-small", "--table", "reuse")
    h = pd.read_csv(io.StringIO(out))
    assert list(h.columns) == ["accesses", "blocks", "share_blocks"] and h["share_blocks"].sum() == pytest.approx(1)
    rc, out, _ = run_cli("trace-stats", "mqsim:tpcc-small", "--table", "sizes")
    assert pd.read_csv(io.StringIO(out))["requests"].sum() == 6999


def test_trace_stats_generic_csv_file(tmp_path, run_cli):
    p = tmp_path / "t.csv.gz"
    p.write_bytes(gzip.compress(b"0.5;2a;100;8\n0.75;28;200;16\n"))
    rc, out, err = run_cli("trace-stats", p, "--format", "csv", "--no-header", "--sep", ";", "--time-col", "0",
                           "--op-col", "1", "--lba-col", "2", "--size-col", "3", "--size-unit", "sectors",
                           "--op-map", "scsi", "--output", "json")
    assert rc == 0, err
    rec = json.loads(out)[0]
    assert (rec["requests"], rec["writes"], rec["size_mean_bytes"]) == (2, 1, 6144)


def test_trace_stats_lackey_and_errors(tmp_path, run_cli):
    p = tmp_path / "mem.txt"
    p.write_bytes(b"==1== x\nI  0400d7d4,8\n L 04222cac,8\n")
    rc, out, _ = run_cli("trace-stats", p, "--output", "json")
    assert rc == 0 and json.loads(out)[0]["references"] == 2
    bad = tmp_path / "bad.trace"
    bad.write_bytes(b"0 0 8 8 1\n1 0 8 x 1\n")
    rc, _, err = run_cli("trace-stats", bad, "--format", "mqsim")
    assert rc == 2 and "line 2: field 'size_sectors'" in err
    rc, _, err = run_cli("trace-stats", "mqsim:tpcc-small", "--block-size", "3000")
    assert rc == 2 and "power of two" in err
    rc, _, err = run_cli("trace-stats", "no-such-file")
    assert rc == 2 and "not found" in err and "synthetic:fin1" in err
    rc, _, err = run_cli("trace-stats", bad, "--format", "mqsim", "--size-col", "3")
    assert rc == 2 and "need --format csv" in err


def test_traceopts_reusable_and_kind_check(tmp_path):
    p = argparse.ArgumentParser()
    add_trace_options(p, block_size=False)
    args = p.parse_args(["synthetic:randw", "--max-requests", "50"])
    t = load_trace_from_args(args, kind="block")
    assert len(t) == 50 and t.is_write.all()
    f = tmp_path / "m.txt"
    f.write_bytes(b"I  0400d7d4,8\n")
    with pytest.raises(ValueError, match="needs a block I/O trace"):
        load_trace_from_args(p.parse_args([str(f)]), kind="block")
    with pytest.raises(ValueError, match="needs a memory-reference"):
        load_trace_from_args(args, kind="mem")
