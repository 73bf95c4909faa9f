"""Statistics of a block or memory trace: requests, read/write split, footprint, sizes, reuse.

The trace is a file (MQSim, DiskSim, SPC, MSR, blkparse, generic CSV, lackey; plain, gzip or
zstd; format auto-detected) or a bundled name:

  pcm-planner trace-stats mqsim:tpcc-small
  pcm-planner trace-stats my.csv --trace-format csv --time-col ts --op-col op --op-map R=read,W=write \\
      --lba-col lba --size-col len --size-unit sectors --format json
  pcm-planner trace-stats trace.blk.gz --table reuse        # reuse-count histogram

Output: CSV ``statistic,value`` (``--format json``: one record), or a histogram table.

A block trace file is read in blocks and its statistics accumulated as it goes
(:mod:`models.traces.stream_stats`): memory is bounded by the distinct blocks, not the trace's
length, and there is no request limit (``--max-requests N`` reads the first N only, and the
``scope`` row says so). ``percentiles`` says whether the percentiles are exact. ``--progress``
shows the read's progress on stderr (by default when stderr is a terminal). A trace of large requests (a
mean of 1,024 blocks or more) is read whole instead and its block statistics computed per run of blocks
(:mod:`models.traces.extents`: the same values; a 1 TiB request is one run, not 268 M blocks).

``--uncertainty N`` adds ``band_of,p5,p50,p95`` equal to the value (statistics: the ``statistic,value``
table in JSON too; reuse: ``blocks``; sizes: ``requests``): the statistics are counted from the
trace, no uncertain parameter enters them (band_of says so; docs/uncertainty.md).
"""

from __future__ import annotations

import argparse

from cli.output import add_format_option, emit
from cli.progress import add_progress_option, read_progress
from cli.traceopts import add_trace_options, load_trace_from_args
from cli.uncertainty import add_point_band, add_uncertainty_options

NAME = "trace-stats"
HELP = "trace statistics (CSV statistic,value): requests, writes, footprint, sizes, reuse"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_trace_options(p)
    add_format_option(p)
    p.add_argument("--table", choices=("stats", "reuse", "sizes"), default="stats",
                   help="stats (default), reuse (reuse-count histogram) or sizes (request-size histogram)")
    add_uncertainty_options(p, adds="band_of,p5,p50,p95 (no uncertain input: equal to the value) columns")
    add_progress_option(p)


def _streamed(args: argparse.Namespace):
    """``(stats, format, scope)`` of a block trace file read in blocks, or None for another source."""
    import os

    from cli.traceopts import format_options, trace_reader_options
    from models.traces.stream_stats import stream_trace_stats

    if not os.path.isfile(args.trace):
        return None
    fmt = getattr(args, "trace_format", "auto") or "auto"
    opts = format_options(fmt, trace_reader_options(args))
    progress = read_progress(args, args.trace)
    stats, meta = stream_trace_stats(args.trace, args.block_size, format=fmt, progress=progress,
                                     max_requests=args.max_requests, on_requests=progress and progress.add_requests,
                                     **opts)
    if stats is None:  # a memory-reference trace: read whole
        return None
    if stats.requests == 0:
        raise ValueError(f"{args.trace}: the trace has no requests")
    scope = "whole trace" if args.max_requests is None or stats.requests < args.max_requests else \
        f"first {stats.requests:,} requests (--max-requests)"
    return stats, meta.get("format", ""), scope


def run(args: argparse.Namespace) -> int:
    from models.traces.blocks import check_block_size
    from models.traces.core import MemTrace
    from models.traces.stats import statistic_table, trace_stats
    from models.traces.stream_stats import LargeExtents

    check_block_size(args.block_size)
    try:
        streamed = _streamed(args)
    except LargeExtents:  # large requests: read whole, statistics per extent (the same values)
        streamed = None
    if streamed is not None:
        s, fmt, scope = streamed
        trace = None
    else:
        trace = load_trace_from_args(args)
        s = trace_stats(trace, args.block_size)
        fmt = trace.meta.get("format", "synthetic" if trace.name.startswith("synthetic:") else "")
        scope = "whole trace" if args.max_requests is None or len(trace) < args.max_requests else \
            f"first {len(trace):,} requests (--max-requests)"
    why = "counted from the trace: no timing or cost parameter enters it"
    if args.table == "reuse":
        df = add_point_band(s.reuse_count_hist, args, "blocks", "blocks", why)
    elif args.table == "sizes":
        if isinstance(trace, MemTrace):
            raise ValueError("--table sizes needs a block I/O trace (this is a memory-reference trace)")
        df = add_point_band(s.size_hist, args, "requests", "requests", why)
    else:
        df = s.to_frame().assign(format=fmt, scope=scope)
        if args.output_format != "json" or args.uncertainty:
            df = add_point_band(statistic_table(df), args, "value", "unit of the statistic", why)
    emit(df, args.output_format)
    return 0
