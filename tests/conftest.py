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
