"""pcm-planner trace-stats and the shared trace options (cli/traceopts.py)."""

from __future__ import annotations

import argparse
import gzip
import io
import json
from contextlib import redirect_stderr

import pandas as pd
import pytest

from cli.main import main
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
    rc, out, err = run_cli("trace-stats", p, "--trace-format", "csv", "--no-header", "--sep", ";", "--time-col", "0",
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
    rc, _, err = run_cli("trace-stats", bad, "--trace-format", "mqsim")
    assert rc == 2 and "line 2: field 'size_sectors'" in err
    rc, _, err = run_cli("trace-stats", "mqsim:tpcc-small", "--block-size", "3000")
    assert rc == 2 and "power of two" in err
    rc, _, err = run_cli("trace-stats", "no-such-file")
    assert rc == 2 and "not found" in err and "synthetic:fin1" in err
    rc, _, err = run_cli("trace-stats", bad, "--trace-format", "mqsim", "--size-col", "3")
    assert rc == 2 and "need --trace-format csv" in err


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
        load_trace_from_args(args, kind="memory")


def _usage_error(*argv) -> str:
    """stderr of an argparse usage error (exit code 2)."""
    err = io.StringIO()
    with redirect_stderr(err), pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    assert exc.value.code == 2
    return err.getvalue()


def test_format_is_the_output_format_everywhere(run_cli):
    # --format csv|json selects the output on every subcommand; --output is its alias
    rc, out, _ = run_cli("trace-stats", "mqsim:tpcc-small", "--format", "json", "--max-requests", "100")
    assert rc == 0 and json.loads(out)[0]["requests"] == 100
    rc, out2, _ = run_cli("trace-stats", "mqsim:tpcc-small", "--output", "json", "--max-requests", "100")
    assert out2 == out
    rc, out, _ = run_cli("breakeven", "--t-ns", "100", "--T-ns", "130", "--Tm-ns", "160", "--output", "json")
    assert rc == 0 and json.loads(out)[0]["n_star"] == 2.0
    err = _usage_error("breakeven", "--t-ns", "100", "--T-ns", "130", "--Tm-ns", "160", "--format", "mqsim")
    assert "invalid choice: 'mqsim'" in err  # no trace here: not a deprecated alias


def test_format_with_a_trace_format_name_is_a_deprecated_alias(tmp_path, run_cli):
    f = tmp_path / "t.spc"
    f.write_bytes(b"0,16,8192,W,0.5\n1,8,512,r,0.75\n")
    rc, old, err = run_cli("trace-stats", f, "--format", "spc")
    assert rc == 0 and "--format spc is deprecated" in err and "--trace-format spc" in err
    rc, new, err = run_cli("trace-stats", f, "--trace-format", "spc")
    assert rc == 0 and new == old and err == ""
    rc, _, err = run_cli("trace-stats", f, "--format", "mqsim")  # the alias selects the reader
    assert rc == 2 and "deprecated" in err and "mqsim: line 1" in err
    assert "invalid choice: 'nope'" in _usage_error("trace-stats", f, "--format", "nope")
    # --output never meant the trace format
    assert "invalid choice: 'spc'" in _usage_error("trace-stats", f, "--output", "spc")


def test_generic_csv_needs_trace_format_csv_now(tmp_path, run_cli):
    # --format csv used to pick the generic CSV trace format; it is the output format now, so a CSV
    # without a recognisable header needs --trace-format csv and the column mapping
    p = tmp_path / "t.csv"
    p.write_bytes(b"a;b\n0;4096\n")
    rc, _, err = run_cli("trace-stats", p, "--format", "csv")
    assert rc == 2 and "cannot detect the trace format" in err
    rc, _, err = run_cli("trace-stats", p, "--trace-format", "csv")
    assert rc == 2 and "needs a column mapping" in err
    rc, out, err = run_cli("trace-stats", p, "--trace-format", "csv", "--sep", ";", "--offset-col", "a",
                           "--size-col", "b", "--format", "json")
    assert rc == 0, err
    assert json.loads(out)[0]["requests"] == 1


def test_memory_trace_options_and_names(tmp_path, run_cli):
    p = argparse.ArgumentParser()
    add_trace_options(p, kind="memory", block_size=False)
    assert "--time-col" not in p.format_help() and "{auto,lackey,npz}" in p.format_help()
    t = load_trace_from_args(p.parse_args(["xz", "--max-requests", "10"]), kind="memory")
    assert (len(t), t.name) == (10, "xz")  # a memory trace answers to its bare program name
    with pytest.raises(FileNotFoundError, match="bundled memory traces: lackey:gcc"):
        load_trace_from_args(p.parse_args(["no-such-trace"]), kind="memory")
    with pytest.raises(ValueError, match="do not apply to the bundled trace"):
        load_trace_from_args(p.parse_args(["xz", "--trace-format", "lackey"]), kind="memory")


@pytest.mark.parametrize("argv", [
    ["trace-stats", "--trace-format", "mqsim"],
    ["cache-sim", "--trace-format", "mqsim", "--policy", "lru", "--cache-blocks", "10"],
    ["mrc", "--trace-format", "mqsim"],
    ["writecache", "--trace-format", "mqsim", "--cache-mb", "4"],
    ["amat", "--trace-format", "lackey"],
])
def test_an_empty_trace_is_refused_not_counted(tmp_path, run_cli, argv):
    """An empty file with its format given printed zeros (trace-stats, and cache-sim's hit ratio 0) and exit 0."""
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    rc, out, err = run_cli(argv[0], str(empty), *argv[1:])
    assert rc == 2 and not out, (rc, out)
    assert err.strip() == f"pcm-planner {argv[0]}: {empty}: the trace has no requests", err
