"""Statistics of a block or memory trace: requests, read/write split, footprint, sizes, reuse.

The trace is a file (MQSim, DiskSim, SPC, MSR, blkparse, generic CSV, lackey; plain, gzip or
zstd; format auto-detected) or a bundled name:

  pcm-planner trace-stats mqsim:tpcc-small
  pcm-planner trace-stats my.csv --trace-format csv --time-col ts --op-col op --op-map R=read,W=write \\
      --lba-col lba --size-col len --size-unit sectors --format json
  pcm-planner trace-stats trace.blk.gz --table reuse        # reuse-count histogram

Output: CSV ``statistic,value`` (``--format json``: one record), or a histogram table.

``--uncertainty N`` adds ``band_of,p5,p50,p95`` equal to the value (statistics: the ``statistic,value``
table in JSON too; reuse: ``blocks``; sizes: ``requests``): the statistics are counted from the
trace, no uncertain parameter enters them (band_of says so; docs/uncertainty.md).
"""

from __future__ import annotations

import argparse

from cli.output import add_format_option, emit
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


def run(args: argparse.Namespace) -> int:
    from models.traces.blocks import check_block_size
    from models.traces.core import MemTrace
    from models.traces.stats import statistic_table, trace_stats

    check_block_size(args.block_size)
    trace = load_trace_from_args(args)
    s = trace_stats(trace, args.block_size)
    why = "counted from the trace: no timing or cost parameter enters it"
    if args.table == "reuse":
        df = add_point_band(s.reuse_count_hist, args, "blocks", "blocks", why)
    elif args.table == "sizes":
        if isinstance(trace, MemTrace):
            raise ValueError("--table sizes needs a block I/O trace (this is a memory-reference trace)")
        df = add_point_band(s.size_hist, args, "requests", "requests", why)
    else:
        fmt = trace.meta.get("format", "synthetic" if trace.name.startswith("synthetic:") else "")
        df = s.to_frame().assign(format=fmt)
        if args.output_format != "json" or args.uncertainty:
            df = add_point_band(statistic_table(df), args, "value", "unit of the statistic", why)
    emit(df, args.output_format)
    return 0
