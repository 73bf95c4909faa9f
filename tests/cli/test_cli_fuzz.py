"""Issue 20: a standing fuzz of every CLI subcommand (bounded for CI).

Each subcommand runs from a small valid command line with one numeric option replaced by a
hostile value (NaN, infinity, huge, negative, tiny, text): the only outcomes allowed are
exit 0 or a clean message with exit 2 (argparse's usage error or a model input error), never
a traceback (:mod:`tests.cli.fuzz_cli`; the subcommands of this file's group here, the others'
in ``test_cli_fuzz_traces.py`` and ``test_cli_fuzz_planner.py``). Plus the model-input reproducers of the issue.
"""

from __future__ import annotations

import argparse

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cli.main import build_parser
from tests.cli.fuzz_cli import (
    BASE,
    GROUPS,
    NUMERIC,
    _run,
    _subparsers,
    fuzz_subcommand,
)


def test_every_subcommand_is_fuzzed():
    assert set(_subparsers()) == set(BASE)


def test_text_only_subcommands_are_the_expected_ones():
    assert set(BASE) - set(NUMERIC) == {"validate"}


def test_the_fuzz_files_share_out_every_numeric_subcommand_once():
    names = [n for group in GROUPS.values() for n in group]
    assert sorted(names) == NUMERIC


@pytest.mark.parametrize("name", GROUPS["models"])
@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_cli_subcommand(name, data, run_cli, capsys):
    assert fuzz_subcommand(name, data, run_cli, capsys) in (0, 2)


_TEXT = st.one_of(st.sampled_from(["", "nope", "../../etc/passwd", "x" * 5000, "![x](http://127.0.0.1/p.png)",
                                   "=HYPERLINK(1)", "\x00", "ibm18es\n"]), st.text(max_size=30))


@pytest.mark.parametrize(("name", "argv"), [("hdd", ["validate", "--drive"]), ("validate", ["--claim"])])
@settings(max_examples=10, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=_TEXT)
def test_fuzz_cli_text_options(name, argv, text, run_cli, capsys):
    """The subcommands without numeric options: hostile names give exit 0 or a clean, short message."""
    assume("\x00" not in text)  # not passable on a real command line
    rc, out, err = _run(run_cli, name, [*argv, text])
    capsys.readouterr()
    assert rc in (0, 2), (name, text, err)
    assert not err.startswith("Traceback") and len(err) < 2200  # models.errors.describe cuts long messages


@pytest.mark.parametrize(("argv", "match"), [
    (["workload", "--personality", "varmail", "--files-scale", "1e308"], r"files_scale=1e\+308 gives inf files"),
    (["workload", "--personality", "varmail", "--iosize", "1e30"], "iosize_bytes must be within 1..1,073,741,824"),
    (["rank", "--requests", "99999999999999999999"], "n_requests must be a whole number within 1..9,223,372,036,854,775,807"),
    (["lifetime", "--capacity-gb", "1", "--endurance", "1e8", "--write-rate-mbps", "10", "--endurance-sigma", "6"],
     r"endurance_sigma must be in \[0, 5\] \(got 6"),
    (["lifetime", "--capacity-gb", "1", "--endurance", "1e8", "--write-rate-mbps", "10", "--fail-fraction", "-1"],
     r"fail_fraction must be in \(0, 1\]"),
    (["lifetime", "--capacity-gb", "1", "--endurance", "1e8", "--write-rate-mbps", "10", "--line-bytes", "-5"],
     "line_bytes must be a positive integer"),
    (["writecache", "mqsim:tpcc-small", "--cache-mb", "1e30"], r"cache_mb must be a finite number within"),
])
def test_model_inputs_out_of_domain_are_refused(run_cli, argv, match):
    import re

    rc, out, err = run_cli(*argv)
    assert rc == 2 and re.search(match, err), err


@pytest.mark.parametrize("opt", ["--cache-blocks", "--ghost-blocks"])
def test_cache_sim_huge_sizes_run_exactly(run_cli, opt):
    """A cache (ghost window) beyond the trace behaves as one of the trace's size: same numbers, no crash."""
    big = ["mqsim:tpcc-small", "--policy", "ac", "--cache-blocks", "100", "--max-requests", "3000"]
    i = big.index("--cache-blocks") if opt == "--cache-blocks" else len(big)
    huge = big[:i] + [opt, "99999999999999999999"] + big[i + 2 if opt == "--cache-blocks" else i:]
    exact = big[:i] + [opt, "100000"] + big[i + 2 if opt == "--cache-blocks" else i:]
    rc, out, err = run_cli("cache-sim", *huge)
    rc2, out2, _ = run_cli("cache-sim", *exact)
    assert rc == rc2 == 0, err
    assert out.splitlines()[1].split(",")[2:] == out2.splitlines()[1].split(",")[2:]


def test_breakeven_never_pays_is_said_in_a_column(run_cli):
    rc, out, _ = run_cli("breakeven", "--t-ns", "100", "--T-ns", "100", "--Tm-ns", "160")
    assert rc == 0 and "inf" not in out
    assert out.splitlines() == ["t_ns,T_ns,Tm_ns,n_star,hits_required,verdict",
                                "100,100,160,,,never pays: storage is as fast as the cache (T <= t)"]
    rc, out, _ = run_cli("breakeven", "--t-ns", "100", "--T-ns", "130", "--Tm-ns", "160")
    # README contract; the verdict column is always present (issue 20)
    assert out.splitlines() == ["t_ns,T_ns,Tm_ns,n_star,hits_required,verdict", "100,130,160,2,2,pays after 2 hits"]


def test_trace_crash_reproducers_exit_2(tmp_path, run_cli):
    import gzip

    import numpy as np

    lines = b"".join(b"%d 0 %d 8 1\n" % (i, i * 8) for i in range(5000))
    (tmp_path / "t.gz").write_bytes(gzip.compress(lines)[:15])
    (tmp_path / "s1.trace").write_bytes(b"0 0 8 8 1\n1000 4294967296 8 8 1\n")
    (tmp_path / "bomb.trace").write_bytes(b"0 0 0 781000000 1\n")
    np.savez(tmp_path / "m.npz", line_delta=np.array([1]), line_bytes=np.int64(64), kind=np.uint8([1]),
             size=np.uint8([8]), meta=np.array("42"))
    for f, match in (("t.gz", "corrupt or truncated gzip data"), ("s1.trace", "field 'device' is too large"),
                     ("m.npz", "'meta' must be a JSON object")):
        rc, _, err = run_cli("trace-stats", tmp_path / f)
        assert rc == 2 and match in err, err
    # one request of 400 GB: once refused per request (max_request_blocks), now one extent (issue 42 item 2)
    rc, out, err = run_cli("trace-stats", tmp_path / "bomb.trace")
    assert rc == 0 and "footprint_blocks,97625000" in out, err


def test_no_number_option_is_read_by_bare_int_or_float():
    """``type=int`` refused ``--requests 2e5`` and ``type=float`` took ``nan`` (issue 18): every number
    option reads its text with :mod:`cli.argtypes`, as the app's fields do."""
    bare = []

    def walk(p: argparse.ArgumentParser, where: str) -> None:
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for n, sp in a.choices.items():
                    walk(sp, f"{where} {n}")
            elif a.option_strings and a.type in (int, float):
                bare.append(f"{where} {a.option_strings[0]}")

    walk(build_parser(), "pcm-planner")
    assert not bare, bare
    assert NUMERIC  # the walk sees the options the fuzz draws from


@pytest.mark.parametrize(("argv", "typed", "value"), [
    (["rank", "--requests"], "2e3", 2000), (["lifetime", "--monte-carlo"], "1e3", 1000),
    (["breakeven", "--block-size"], "4,096", 4096), (["breakeven", "--t-ns"], "1.2e2", 120.0),
])
def test_number_options_read_scientific_notation_and_separators(argv, typed, value):
    sub = _subparsers()[argv[0]]
    dest = next(a.dest for a in sub._actions if argv[1] in a.option_strings)
    extra = BASE[argv[0]] if argv[0] == "lifetime" else []
    assert getattr(sub.parse_args([*extra, argv[1], typed]), dest) == value


@pytest.mark.parametrize("typed", ["1.5", "nan", "", "abc"])
def test_a_whole_number_option_says_what_to_give(typed, capsys):
    with pytest.raises(SystemExit) as e:
        _subparsers()["rank"].parse_args(["--requests", typed])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "argument --requests: give a whole number, e.g. 1000 or 1e3" in err, err
