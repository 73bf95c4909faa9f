"""The ledger runs once per test session (about a minute): every test of the package shares it."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ledger():
    """Every claim, run once (errors recorded as ``error`` rows, not raised)."""
    from models.validation import run_ledger

    return run_ledger()
