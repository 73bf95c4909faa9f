"""The CLI fuzz of issue 20, shared by the test files that run it (one file per group of subcommands, so
pytest-xdist's ``--dist loadfile`` spreads the groups over its workers): the base command lines, the hostile
values and one fuzz case (:func:`fuzz_subcommand`).

Each subcommand runs from a small valid command line with one numeric option replaced by a hostile value
(NaN, infinity, huge, negative, tiny, text): the only outcomes allowed are exit 0 or a clean message with
exit 2 (argparse's usage error or a model input error), never a traceback.
"""

from __future__ import annotations

import argparse
import tempfile
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

from cli.main import build_parser

#: A small, fast valid command line per subcommand.
BASE = {
    "amat": ["lackey:xz", "--max-requests", "3000"],
    "breakeven": ["--t-ns", "100", "--T-ns", "130", "--Tm-ns", "160"],
    "cache-sim": ["mqsim:tpcc-small", "--policy", "ac", "--cache-blocks", "100", "--max-requests", "2000"],
    "hdd": ["validate", "--drive", "ibm18es"],
    "lifetime": ["--capacity-gb", "16", "--endurance", "1e7", "--write-rate-mbps", "1000"],
    "memext": ["lackey:sqlite", "--max-requests", "3000"],
    "mrc": ["mqsim:tpcc-small", "--points", "5", "--max-requests", "2000"],
    "plan": ["--block-trace", str(Path(__file__).parents[1] / "fixtures" / "plan" / "small_msr.csv"), "--device",
             "pcm-samsung-20nm", "--requests", "500"],
    "rank": ["--trace", "mqsim:tpcc-small", "--personality", "varmail", "--requests", "500", "--mem-refs", "20000"],
    "sensitivity": ["hdd", "--samples", "64"],
    "targets": ["--block-trace", str(Path(__file__).parents[1] / "fixtures" / "plan" / "small_msr.csv"), "--device",
                "pcm-samsung-20nm", "--requests", "500", "--spec", "write_latency_ns"],
    "sweep": [str(Path(__file__).with_name("sweep_tiny.toml")), "--scheduler", "serial", "--no-progress", "--out",
              str(Path(tempfile.gettempdir()) / "pcm-planner-fuzz-sweep" / "r.parquet")],
    "trace-stats": ["mqsim:tpcc-small", "--max-requests", "2000"],
    "validate": ["--claim", "none-such"],
    "wear": ["mqsim:tpcc-small", "--max-requests", "2000"],
    "workload": ["--personality", "varmail"],
    "write-reduction": ["--pages", "100"],
    "writecache": ["mqsim:tpcc-small", "--cache-mb", "4", "--max-requests", "2000"],
}
HOSTILE = ["nan", "inf", "-inf", "-1", "0", "1e308", "-1e308", "99999999999999999999", "1e-300", "0.5", "x", ""]
#: Options whose hostile values mean long (but bounded and legitimate) work: fuzzed with small values only.
_WORK = {("lifetime", "--monte-carlo"), ("write-reduction", "--pages"), ("write-reduction", "--synthetic"),
         ("mrc", "--points"), ("rank", "--requests"), ("amat", "--max-requests"), ("memext", "--max-requests"),
         ("wear", "--gap-interval"), ("hdd", "--max-requests"),
         # the MVA solver is O(threads^2) in Python: 4096 threads (the limit) take minutes in rank
         ("rank", "--threads"), ("workload", "--threads"),
         # every uncertainty sample re-evaluates the Filebench model of every configuration (~6 ms each)
         ("workload", "--uncertainty"),
         # rank samples every row's model (memory-extension replays of 11 bundled traces among them): 13,543
         # samples, a legitimate request, ran past the 600 s test timeout
         ("rank", "--uncertainty")}


@cache
def _subparsers() -> dict[str, argparse.ArgumentParser]:
    """The subcommands' parsers, built once per session (read and parsed with, never changed; each fuzz
    run still goes through ``main``, which builds its own parser)."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def _numeric_options(p: argparse.ArgumentParser) -> list[str]:
    out = []
    for a in p._actions:
        if a.option_strings and (a.type in (int, float) or getattr(a.type, "__module__", None) == "cli.argtypes"):
            out.append(a.option_strings[0])
        elif isinstance(a, argparse._SubParsersAction):
            for sp in a.choices.values():
                out += _numeric_options(sp)
    return sorted(set(out))


def _run(run_cli, name, argv):
    try:
        rc, out, err = run_cli(name, *argv)
    except SystemExit as e:  # argparse: bad type / missing value -> usage message, exit 2
        return int(e.code), "", ""
    return rc, out, err


#: subcommands with numeric options (``validate`` has none: test_fuzz_cli_text_options covers it and ``hdd``'s drive)
NUMERIC = sorted(n for n in BASE if _numeric_options(_subparsers()[n]))


#: The numeric subcommands by test file (each file runs :func:`fuzz_subcommand` over its group).
GROUPS = {
    "models": ("breakeven", "hdd", "lifetime", "sensitivity", "sweep", "workload", "write-reduction"),
    "traces": ("amat", "cache-sim", "memext", "mrc", "trace-stats", "wear", "writecache"),
    "planner": ("plan", "rank", "targets"),
}


def fuzz_subcommand(name, data, run_cli, capsys) -> int:
    """One fuzz case of subcommand ``name``: an option and a hostile value drawn from ``data``; asserts a clean exit
    (0, or 2 with a one-line message naming the subcommand, never a traceback) and returns the exit code."""
    opts = _numeric_options(_subparsers()[name])
    opt = data.draw(st.sampled_from(opts), label="option")
    values = ["0", "1", "2", "-1", "x", "nan"] if (name, opt) in _WORK else HOSTILE
    value = data.draw(st.one_of(st.sampled_from(values), st.integers(-(2**70), 2**70).map(str)) if (name, opt)
                      not in _WORK else st.sampled_from(values), label="value")
    base = list(BASE[name])
    if opt in base:  # replace the base value
        i = base.index(opt)
        del base[i:i + 2]
    rc, out, err = _run(run_cli, name, [*base, opt, value])
    capsys.readouterr()
    assert rc in (0, 2), (name, opt, value, err)
    assert "Traceback" not in err
    if rc == 2 and err:
        assert err.startswith(f"pcm-planner {name}: ") and len(err) < 3000
    return rc
