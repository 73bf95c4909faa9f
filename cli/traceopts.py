"""Shared trace options for subcommands that read a trace (trace-stats, mrc, cache-sim, ...).

Usage in a subcommand module::

    from cli.traceopts import add_trace_options, load_trace_from_args

    def add_arguments(p):
        add_trace_options(p)                  # TRACE, --format, --block-size, --max-requests, CSV columns
        add_format_option(p, "--output")       # output format: --format is the *trace* format here

    def run(args):
        trace = load_trace_from_args(args, kind="block")

``TRACE`` is a file path (plain, .gz or .zst) or a bundled trace name such as
``mqsim:tpcc-small`` or ``synthetic:fin1`` (see ``models.traces.bundled.bundled_traces``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["add_trace_options", "load_trace_from_args", "trace_reader_options"]


def add_trace_options(parser: argparse.ArgumentParser, *, block_size: bool = True) -> None:
    """Add TRACE, ``--format``, ``--block-size``, ``--max-requests`` and the generic-CSV options."""
    from models.traces.readers import FORMATS

    parser.add_argument("trace", metavar="TRACE",
                        help="trace file (plain, gzip or zstd) or bundled name (e.g. mqsim:tpcc-small, synthetic:fin1)")
    parser.add_argument("--format", dest="trace_format", default="auto", choices=["auto", *FORMATS],
                        help="trace format (default: auto-detect from the first lines)")
    if block_size:
        parser.add_argument("--block-size", dest="block_size", type=int, default=4096,
                            help="cache/analysis block size, a power of two [bytes] (default 4096)")
    parser.add_argument("--max-requests", dest="max_requests", type=int, default=None,
                        help="read at most this many requests")
    g = parser.add_argument_group("generic CSV columns (--format csv; names or 0-based indexes)")
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
    g.add_argument("--sector-size", dest="sector_size", type=int, default=None,
                   help="sector size for LBA columns [bytes] (default 512)")
    g.add_argument("--no-header", dest="header", action="store_false", help="the CSV has no header line")
    g.add_argument("--sep", dest="sep", default=None, help="CSV field separator: , ; tab or whitespace (default ,)")
    g.add_argument("--action", dest="action", default=None, help="blkparse action to keep (default Q)")


def trace_reader_options(args: argparse.Namespace) -> dict:
    """Reader keyword options from parsed arguments (only those given)."""
    opts = {}
    for k in ("time_col", "op_col", "offset_col", "lba_col", "size_col", "device_col", "op_map", "sep",
              "size_unit", "time_unit", "sector_size", "action", "max_requests"):
        v = getattr(args, k, None)
        if v is not None:
            opts[k] = int(v) if isinstance(v, str) and v.isdigit() and k.endswith("_col") else v
    if not getattr(args, "header", True):
        opts["header"] = False
    return opts


def load_trace_from_args(args: argparse.Namespace, *, kind: str | None = None, progress=None):
    """Read the trace named by ``args`` (file or bundled name).

    ``kind="block"`` or ``"mem"`` rejects the other trace kind with a ValueError.
    """
    from models.traces.bundled import bundled_traces, load_bundled_trace
    from models.traces.core import MemTrace
    from models.traces.readers import read_trace

    src = args.trace
    opts = trace_reader_options(args)
    fmt = getattr(args, "trace_format", "auto") or "auto"
    if not Path(src).exists() and src in bundled_traces():
        trace = load_bundled_trace(src, max_requests=opts.get("max_requests"))
    elif not Path(src).exists():
        raise FileNotFoundError(f"trace file not found: {src} (bundled names: {', '.join(bundled_traces())})")
    else:
        csv_keys = {"time_col", "op_col", "offset_col", "lba_col", "size_col", "device_col", "op_map", "sep",
                    "size_unit", "header"}
        if fmt not in ("csv", "auto") and csv_keys & set(opts):
            raise ValueError(f"column options (--time-col, --size-col, ...) need --format csv (got --format {fmt})")
        if fmt == "auto" and not ({"size_col", "offset_col", "lba_col"} & set(opts)):
            opts = {k: v for k, v in opts.items() if k not in csv_keys}
        if fmt not in ("blkparse", "auto"):
            opts.pop("action", None)
        trace = read_trace(src, fmt, progress=progress, **opts)
    if kind == "block" and isinstance(trace, MemTrace):
        raise ValueError(f"{src}: a memory-reference (lackey) trace; this command needs a block I/O trace")
    if kind == "mem" and not isinstance(trace, MemTrace):
        raise ValueError(f"{src}: a block I/O trace; this command needs a memory-reference (lackey) trace")
    return trace
