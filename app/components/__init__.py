"""Shared UI components used by every page (no copy-paste between pages)."""

from app.components.errors import show_error, user_errors
from app.components.export import csv_bytes, download_csv, safe_cell
from app.components.scenario import Scenario, scenario_controls

__all__ = ["Scenario", "scenario_controls", "csv_bytes", "download_csv", "safe_cell", "show_error", "user_errors"]
