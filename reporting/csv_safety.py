"""Spreadsheet-safe tables (no formula injection), shared by the app's downloads and the CLI.

The functions live in :mod:`models.csv_safety` (a model writes CSV text too, and ``models/`` imports
nothing from ``reporting/``); re-exported here, where the app and the CLI read them.
"""

from models.csv_safety import safe_cell, sanitize_frame

__all__ = ["safe_cell", "sanitize_frame"]
