"""Fixtures shared by the tests in tests/ (Hypothesis profiles live in the root conftest.py)."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from cli.main import main


def _run_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


@pytest.fixture(scope="session")
def run_cli():
    """``run_cli(*argv) -> (exit code, stdout, stderr)``: the CLI run in-process, arguments ``str()``-ed.

    Session-scoped (it holds no state), so Hypothesis tests may use it too.
    """
    return _run_cli


def _run_csv(*argv):
    """The CLI run in-process on ``argv`` (asked for ``--format csv``): its stdout as a DataFrame; it must exit 0."""
    import pandas as pd

    rc, stdout, err = _run_cli(*argv)
    assert rc == 0, err
    return pd.read_csv(io.StringIO(stdout))


@pytest.fixture(scope="session")
def run_csv():
    """``run_csv(*argv) -> DataFrame``: the CLI's CSV output of a run that must succeed (see :func:`run_cli`)."""
    return _run_csv
