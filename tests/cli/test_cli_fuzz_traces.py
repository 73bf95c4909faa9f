"""Issue 20's CLI fuzz (:mod:`tests.cli.fuzz_cli`) of the traces subcommands: a file of its own, so
pytest-xdist's ``--dist loadfile`` runs it beside the other groups (``test_cli_fuzz.py``)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli.fuzz_cli import GROUPS, fuzz_subcommand


@pytest.mark.parametrize("name", GROUPS["traces"])
@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_cli_subcommand(name, data, run_cli, capsys):
    assert fuzz_subcommand(name, data, run_cli, capsys) in (0, 2)
