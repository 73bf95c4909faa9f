"""Shared output helpers for subcommands: CSV (default) or JSON on stdout."""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from reporting.csv_safety import sanitize_frame


def add_format_option(parser: argparse.ArgumentParser, name: str = "--format") -> None:
    """Add ``--format csv|json`` (output format) to ``parser``."""
    parser.add_argument(name, dest="output_format", choices=("csv", "json"), default="csv",
                        help="output format (default csv)")


def emit(df: pd.DataFrame, fmt: str = "csv", stream=None) -> None:
    """Write ``df`` as CSV (header + rows, formula-safe text cells) or a JSON list of records."""
    stream = stream or sys.stdout
    if fmt == "json":
        stream.write(df.to_json(orient="records", double_precision=15))
        stream.write("\n")
    else:
        sanitize_frame(df).to_csv(stream, index=False, float_format="%.10g", lineterminator="\n")
