"""The planner for your own workload: one verdict per PCM role for your traces and devices.

  pcm-planner plan --block-trace my.csv --mem-trace app.lackey --device pcm-samsung-20nm --device optane-dcpmm
  pcm-planner plan --block-trace my.csv --name "db volume" --filebench my.f --fio job.json \\
      --device pcm-samsung-20nm --device-csv my_devices.csv --device my-cxl \\
      --uncertainty 500 --csv plan.csv --html plan.html --pdf plan.pdf

Workloads: block traces (any format we read; CSV header rows and # comments are fine), memory
traces (valgrind lackey or our .npz), Filebench .f files (or a bundled personality name), fio job
files or fio JSON results; each option is repeatable and bundled names work too
(mqsim:tpcc-small, lackey:lulesh, fileserver). --name names the workloads in the order given
(block traces, then memory traces, Filebench, fio). Devices: catalogue names and the devices of
--device-csv (the catalogue CSV schema, as exported by the planner page); when --device is not
given, every device of --device-csv is compared.

Columns: workload,role,device,baseline,metric,unit,value,p5,p95,verdict,reason (then p_win,
decisive_input, requests_used, requests_read: of the workload's trace; each block trace is used whole
unless --requests asks for a sample, and the reason says which). verdict: wins / loses / not applicable / needs data; value is baseline over
device [x] (> 1: the device wins); NaN where a role does not apply or needs data.
"""

from __future__ import annotations

import argparse
import sys

from cli.output import add_format_option, emit
from cli.plan_inputs import add_plan_input_arguments, plan_inputs
from cli.uncertainty import add_uncertainty_options

NAME = "plan"
HELP = ("one verdict per PCM role for your workloads and devices (CSV columns workload,role,device,baseline,"
        "metric,unit,value,p5,p95,verdict,reason)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_plan_input_arguments(p)
    p.add_argument("--csv", default=None, metavar="FILE", help="write the table as CSV to FILE (default: stdout)")
    p.add_argument("--html", default=None, metavar="FILE", help="also write a self-contained HTML report")
    p.add_argument("--pdf", default=None, metavar="FILE", help="also write a PDF report")
    add_uncertainty_options(p, adds="p5,p95 (of value),p_win,decisive_input")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models.planner.plan import plan

    if getattr(args, "sample_design", "sobol") != "sobol":
        raise ValueError("--sample-design: the plan's bands are drawn with the Sobol' design only")
    workloads, devices, baseline = plan_inputs(args)
    res = plan(workloads, devices, baseline=baseline, uncertainty=args.uncertainty, seed=args.seed,
               n_requests=args.requests, memory_refs=args.mem_refs)
    df = res.to_frame()
    if args.csv:
        with open(args.csv, "w", encoding="utf-8", newline="") as fh:
            emit(df, args.output_format, fh)
        print(f"wrote {args.csv}", file=sys.stderr)
    else:
        emit(df, args.output_format)
    if args.html:
        from reporting.planner_report import plan_report_html

        with open(args.html, "w", encoding="utf-8") as fh:
            fh.write(plan_report_html(res))
        print(f"wrote {args.html}", file=sys.stderr)
    if args.pdf:
        from reporting.pdf import plan_report_pdf

        with open(args.pdf, "wb") as fh:
            fh.write(plan_report_pdf(res))
        print(f"wrote {args.pdf}", file=sys.stderr)
    return 0
