"""Helpers below both the app and the CLI: formula-safe CSV, table formatting, reports."""
