"""Tests, laid out like the packages they test: tests/models/<role>/, tests/app/, tests/cli/, tests/reporting/."""

from pathlib import Path

#: The repository root (the folder holding ``app/``, ``models/``, ``data/``).
ROOT = Path(__file__).resolve().parents[1]
