"""Shared trace options for the subcommands that read a trace.

Usage in a subcommand module::

    from cli.output import add_format_option, emit
    from cli.traceopts import add_trace_options, load_trace_from_args

    def add_arguments(p):
        add_trace_options(p, kind="block")   # TRACE, --trace-format, --block-size, --max-requests, CSV columns
        add_format_option(p)                 # --format csv|json (output), alias --output

    def run(args):
        trace = load_trace_from_args(args, kind="block")

``TRACE`` is a file path (plain, .gz or .zst) or a bundled name such as ``mqsim:tpcc-small``,
``synthetic:fin1`` or ``lackey:xz`` (:func:`models.traces.bundled_traces`); loading is
:func:`models.traces.load`, with its request limit.
"""

from __future__ import annotations

import argparse

from cli.argtypes import whole_number

__all__ = ["add_trace_options", "add_reader_options", "load_trace_from_args", "trace_reader_options",
           "format_options"]

#: Reader options of the generic CSV format (``--trace-format csv``).
_CSV_OPTIONS = ("time_col", "op_col", "offset_col", "lba_col", "size_col", "device_col", "op_map", "sep",
                "size_unit", "header")
#: Options that make "auto" read the generic CSV format (a column mapping).
_CSV_MAPPING = ("size_col", "offset_col", "lba_col")
_TRACE_HELP = {
    None: "trace file (plain, gzip or zstd) or bundled name (e.g. mqsim:tpcc-small, synthetic:fin1, lackey:xz)",
    "block": "block I/O trace file (plain, gzip or zstd) or bundled name (e.g. mqsim:tpcc-small, synthetic:fin1)",
    "memory": "memory trace: bundled name (xz, sort, gcc, sqlite, numpy; also as lackey:NAME), "
              "valgrind lackey file (plain, gzip or zstd) or .npz",
}


def add_trace_options(parser: argparse.ArgumentParser, *, kind: str | None = None, block_size: bool = True) -> None:
    """Add TRACE, ``--trace-format``, ``--block-size``, ``--max-requests`` and the generic-CSV options.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser; call :func:`cli.output.add_format_option` on it too.
    kind : {None, "block", "memory"}, keyword-only
        The traces the subcommand reads: the formats offered (memory traces have no CSV
        column options).
    block_size : bool, keyword-only
        Add ``--block-size`` (analysis block size).
    """
    parser.add_argument("trace", metavar="TRACE", help=_TRACE_HELP[kind])
    add_reader_options(parser, kind=kind, block_size=block_size)


def add_reader_options(parser: argparse.ArgumentParser, *, kind: str | None = None, block_size: bool = False,
                       max_requests: bool = True) -> None:
    """Add the trace format and reader options of :func:`add_trace_options` without the TRACE argument:
    ``--trace-format``, (``--block-size``), ``--max-requests``, ``--max-line-bytes``, ``--max-input-bytes``
    and the generic-CSV column options (the planner's ``plan`` takes them for its block traces, with its own
    ``--requests`` instead of ``--max-requests``: ``max_requests=False``)."""
    from models.traces import FORMATS

    formats = [name for name, f in FORMATS.items() if kind in (None, f.kind)]
    csv_note = "" if kind == "memory" else ("; --format csv means CSV output, so a generic CSV trace needs "
                                            "--trace-format csv (or a column mapping)")
    parser.add_argument("--trace-format", dest="trace_format", default="auto", choices=["auto", *formats],
                        help="trace format (default: auto-detect from the first lines). --format NAME with a "
                             f"trace-format name is its deprecated spelling, accepted for one release{csv_note}")
    if block_size:
        parser.add_argument("--block-size", dest="block_size", type=whole_number, default=4096,
                            help="cache/analysis block size, a power of two [bytes] (default 4096)")
    if max_requests:
        parser.add_argument("--max-requests", dest="max_requests", type=whole_number, default=None,
                            help="read at most this many requests or memory references (default: all; trace-stats, "
                                 "plan's block roles and mrc's LRU curve stream a block trace file of any length, "
                                 "other commands read up to 20 million)")
    from models.traces.source import MAX_INPUT_BYTES, MAX_LINE_BYTES

    parser.add_argument("--max-line-bytes", dest="max_line_bytes", type=whole_number, default=None,
                        help=f"longest line a text trace may hold [bytes] (default {MAX_LINE_BYTES:,})")
    parser.add_argument("--max-input-bytes", dest="max_input_bytes", type=whole_number, default=None,
                        help=f"most (decompressed) bytes read from a trace file [bytes] (default {MAX_INPUT_BYTES:,})")
    if kind == "memory":
        return
    g = parser.add_argument_group("generic CSV columns (--trace-format csv; names or 0-based indexes)")
    g.add_argument("--time-col", dest="time_col", help="arrival time column")
    g.add_argument("--time-unit", dest="time_unit", default=None, choices=["ns", "us", "ms", "s", "filetime"],
                   help="unit of the time column (csv default s; mqsim default ns)")
    g.add_argument("--op-col", dest="op_col", help="operation column (read/write)")
    g.add_argument("--op-map", dest="op_map",
                   help="operation codes, e.g. R=read,W=write or 28=read,2a=write or scsi")
    g.add_argument("--offset-col", dest="offset_col", help="byte offset column")
    g.add_argument("--lba-col", dest="lba_col", help="LBA column [sectors]")
    g.add_argument("--size-col", dest="size_col", help="request size column")
    g.add_argument("--size-unit", dest="size_unit", choices=["bytes", "sectors"], default=None,
                   help="unit of the size column (default bytes)")
    g.add_argument("--device-col", dest="device_col", help="device/volume column")
    g.add_argument("--sector-size", dest="sector_size", type=whole_number, default=None,
                   help="sector size for LBA columns [bytes] (default 512)")
    g.add_argument("--no-header", dest="header", action="store_false", help="the CSV has no header line")
    g.add_argument("--sep", dest="sep", default=None, help="CSV field separator: , ; tab or whitespace (default ,)")
    g.add_argument("--action", dest="action", default=None, help="blkparse action to keep (default Q)")


def trace_reader_options(args: argparse.Namespace) -> dict:
    """Reader keyword options from parsed arguments (only those given; digit column names become indexes)."""
    opts = {}
    for k in ("time_col", "op_col", "offset_col", "lba_col", "size_col", "device_col", "op_map", "sep",
              "size_unit", "time_unit", "sector_size", "action", "max_line_bytes", "max_input_bytes"):
        v = getattr(args, k, None)
        if v is not None:
            opts[k] = int(v) if isinstance(v, str) and v.isdigit() and k.endswith("_col") else v
    if not getattr(args, "header", True):
        opts["header"] = False
    return opts


def format_options(fmt: str, opts: dict) -> dict:
    """Keep the options the chosen format takes; column options without ``--trace-format csv`` are an error."""
    given = set(opts)
    if fmt not in ("csv", "auto") and given & set(_CSV_OPTIONS):
        raise ValueError(f"column options (--time-col, --size-col, ...) need --trace-format csv "
                         f"(got --trace-format {fmt})")
    if fmt == "auto" and not given & set(_CSV_MAPPING):
        opts = {k: v for k, v in opts.items() if k not in _CSV_OPTIONS}
    if fmt not in ("blkparse", "auto"):
        opts.pop("action", None)
    return opts


def load_trace_from_args(args: argparse.Namespace, *, kind: str | None = None, progress=None):
    """The trace named by ``args`` (file or bundled name), via :func:`models.traces.load`.

    ``kind="block"`` or ``"memory"`` rejects the other trace kind with a ValueError; so is a trace
    without requests (every command would report zeros -- a hit ratio of 0 -- from nothing).
    """
    from models.traces import load

    fmt = getattr(args, "trace_format", "auto") or "auto"
    opts = format_options(fmt, trace_reader_options(args))
    trace = load(args.trace, kind=kind, max_requests=getattr(args, "max_requests", None), format=fmt,
                 progress=progress, **opts)
    if len(trace) == 0:
        raise ValueError(f"{args.trace}: the trace has no requests")
    return trace
