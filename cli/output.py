"""Shared output helpers for subcommands: ``--format csv|json`` (alias ``--output``) and :func:`emit`.

Every subcommand calls :func:`add_format_option` once. On the subcommands that read a trace
(:func:`cli.traceopts.add_trace_options`), ``--format`` with a trace-format name (mqsim,
spc, ...) is the spelling of ``--trace-format`` before this release: still accepted for one
release, with a warning on stderr.
"""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from reporting.csv_safety import sanitize_frame

__all__ = ["OUTPUT_FORMATS", "add_format_option", "emit"]

#: Output formats of every subcommand.
OUTPUT_FORMATS = ("csv", "json")


class _FormatAction(argparse.Action):
    """``--format``/``--output``: csv or json; a trace-format name goes to ``--trace-format`` (deprecated)."""

    def __call__(self, parser, namespace, value, option_string=None):
        if value in OUTPUT_FORMATS:
            namespace.output_format = value
            return
        if hasattr(namespace, "trace_format") and option_string == "--format" and _is_trace_format(value):
            print(f"{parser.prog}: warning: --format {value} is deprecated for the trace format; use "
                  f"--trace-format {value} (--format now selects the output format: csv or json)", file=sys.stderr)
            namespace.trace_format = value
            return
        parser.error(f"argument --format/--output: invalid choice: {value!r} (choose from {', '.join(OUTPUT_FORMATS)})")


def _is_trace_format(value: str) -> bool:
    from models.traces import FORMATS

    return value == "auto" or value in FORMATS


def add_format_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--format csv|json`` (output format; ``--output`` is an alias) to ``parser``."""
    parser.add_argument("--format", "--output", dest="output_format", action=_FormatAction, default="csv",
                        metavar="{csv,json}", help="output format: csv (default) or json; --output is an alias")


def emit_to(df: pd.DataFrame, fmt: str = "csv", path: str | None = None) -> None:
    """:func:`emit` ``df`` to the file ``path`` (saying so on stderr), or to stdout when ``path`` is empty."""
    if path:
        with open(path, "w", encoding="utf-8", newline="") as fh:
            emit(df, fmt, fh)
        print(f"wrote {path}", file=sys.stderr)
    else:
        emit(df, fmt)


def emit(df: pd.DataFrame, fmt: str = "csv", stream=None, *, inf_text: bool = False) -> None:
    """Write ``df`` as CSV (header + rows, formula-safe text cells) or a JSON list of records.

    ``inf_text``: an infinite number is written ``"inf"`` / ``"-inf"`` in JSON, as the CSV writes it (JSON has no
    infinity; without it pandas writes null, the same as a missing value)."""
    stream = stream or sys.stdout
    if fmt == "json":
        stream.write(_inf_as_text(df).to_json(orient="records", double_precision=15) if inf_text
                     else df.to_json(orient="records", double_precision=15))
        stream.write("\n")
    else:
        sanitize_frame(df).to_csv(stream, index=False, float_format="%.10g", lineterminator="\n")


def _inf_as_text(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with each infinite value of a float column as the text ``"inf"`` / ``"-inf"`` (the column becomes
    object; its finite values stay numbers)."""
    out = df.copy()
    for c in out.columns:
        col = out[c]
        if pd.api.types.is_float_dtype(col) and col.isin([float("inf"), float("-inf")]).any():
            out[c] = [("inf" if v > 0 else "-inf") if v in (float("inf"), float("-inf")) else v for v in col]
    return out
