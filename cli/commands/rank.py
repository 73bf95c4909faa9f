"""Rank the workload library by PCM benefit in each role (seed 000 §4.6 and the other models).

  pcm-planner rank
  pcm-planner rank --out report.csv --html report.html
  pcm-planner rank --price pcm-samsung-20nm=3 --price pcm-memext=3   # economics of the PCM rows
  pcm-planner rank --mem-refs 200000   # a quick overview: the first 200,000 references of each memory trace

Each bundled block trace is read whole unless --requests asks for a cut (a synthetic preset is generated with
--requests requests, default 20,000); each block row's reason ends with the requests it used.
Each bundled memory trace is read whole unless --mem-refs asks for a cut: in memory when it fits the run's memory
budget (--memory-budget), else read twice in chunks (the same rows); each memory row's reason ends with the
references it used.

Rows without a number are never estimated: "not applicable" (the role does not apply to the
workload), "needs data" (nothing to evaluate) or "pending" (the model rejected the workload).

After them (and the uncertainty columns) the plan's economics columns (capacity_GB, price_usd_per_GB, cost_usd,
bytes_written_per_s, lifetime_years, replacements, cost_per_work_vs_baseline, economic_verdict, economic_reason) for
the rows whose value is a time ratio: the research PCM devices need a price (--price) for a cost.
"""

from __future__ import annotations

import argparse
import sys

from cli.argtypes import whole_number
from cli.output import add_format_option, emit
from cli.plan_inputs import add_economics_arguments, plan_economics
from cli.uncertainty import add_uncertainty_options

NAME = "rank"
HELP = ("rank workloads by PCM benefit per role (CSV columns role,rank,workload,kind,metric,value,benefit,status,reason, "
        "then the economics)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", default=None, help="write the ranking CSV to this file (default: stdout)")
    p.add_argument("--html", default=None, help="also write a self-contained HTML report with charts")
    p.add_argument("--threads", type=whole_number, default=None, help="threads for the Filebench model (default 50)")
    p.add_argument("--requests", type=whole_number, default=None,
                   help="requests generated for each synthetic preset (default 20,000) and the cut of each bundled "
                        "block trace (default: each read whole)")
    p.add_argument("--mem-refs", type=whole_number, default=None, metavar="N",
                   help="use only the first N references of each bundled memory trace (default: the whole trace, "
                        "read whole when it fits the run's memory budget, --memory-budget, else read twice in chunks; "
                        "each memory row's reason says how many references it used)")
    p.add_argument("--personality", action="append", default=None,
                   help="Filebench personalities (repeatable; default the four of seed 000)")
    p.add_argument("--trace", action="append", default=None, help="bundled block traces (repeatable)")
    add_uncertainty_options(p, adds="p5,p95 (of value),p_win,decisive_input columns")
    add_economics_arguments(p)
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models import planner
    from reporting.planner_report import report_html

    kw = {}
    if args.personality:
        kw["personalities"] = args.personality
    if args.trace:
        kw["traces"] = args.trace
    if args.uncertainty:  # per row: p5,p95 of the value, p_win, decisive_input
        kw.update(uncertainty=args.uncertainty, seed=args.seed)
    df = planner.rank_workloads(threads=args.threads, n_requests=args.requests, memory_refs=args.mem_refs, **kw, **plan_economics(args))
    if args.out:
        with open(args.out, "w", encoding="utf-8", newline="") as fh:
            emit(df, args.output_format, fh)
    else:
        emit(df, args.output_format)
    if args.html:
        with open(args.html, "w", encoding="utf-8") as fh:
            fh.write(report_html(df))
        print(f"wrote {args.html}", file=sys.stderr)
    return 0
