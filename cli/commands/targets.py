"""Spec targets (inverse design): the device spec at which each role of the plan breaks even, the others held.

  pcm-planner targets --block-trace my.csv --mem-trace app.lackey --device pcm-samsung-20nm
  pcm-planner targets --block-trace mqsim:tpcc-small --device optane-dcpmm --spec write_latency_ns --target 2

Same workload, device and economics options as ``pcm-planner plan`` (--block-trace, --mem-trace, --filebench,
--fio, --name, --device, --device-csv, --baseline, the block-trace reader options, --requests, --mem-refs,
--price, --horizon-years, --module-gb). For each workload x role x device and each
spec (read_latency_ns, write_latency_ns, write_bandwidth_MBps, endurance_writes_per_cell, price_usd_per_GB),
the value at which the role's value (baseline / device [x], the plan's value) equals 1 (or --target), every
other spec held at the device's own value (:mod:`models.planner.targets`).

Columns: workload,role,device,spec,unit,break_even,held_at,direction,reason, then the uncertainty band
break_even_low,break_even_high,band_method. held_at is the device's own value of the spec; direction <= (won while
the spec is at most break_even) or >=. break_even is NaN when there is no root in the catalogue's range ("at any
...", "never, even at ...") or the row has no value (its reason says why). The band: the break-even with the held
inputs (the device's other specs, the baseline's, the economics inputs) at the ends of their provenance ranges that
favour the device and that do not (models/planner/target_bands.py); band_method says which inputs, or "not sampled"
/ "unknown" (ends NaN) where no range exists or there is no break-even.

--html FILE also writes the plan's HTML report with the "Product targets" section; its frontier chart is drawn
over --frontier-x SPEC and --frontier-y SPEC (any two of the five specs; default write_latency_ns x
read_latency_ns), with the band's boundaries dashed and dotted.
"""

from __future__ import annotations

import argparse

from cli.argtypes import number
from cli.output import add_format_option, emit_to
from cli.plan_inputs import (
    add_frontier_arguments,
    add_plan_input_arguments,
    frontier_pair,
    plan_economics,
    plan_inputs,
)

NAME = "targets"
HELP = ("the device spec (latency, bandwidth, endurance, price) at which each role breaks even (CSV columns "
        "workload,role,device,spec,unit,break_even,held_at,direction,reason, then the uncertainty band "
        "break_even_low,break_even_high,band_method)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from models.planner.targets import SPECS

    add_plan_input_arguments(p)
    p.add_argument("--spec", action="append", default=[], choices=list(SPECS), metavar="SPEC",
                   help=f"spec to solve (repeatable; default all: {', '.join(SPECS)})")
    p.add_argument("--target", type=number, default=1.0, metavar="X",
                   help="speedup over the baseline each break-even solves for (default 1)")
    p.add_argument("--csv", default=None, metavar="FILE", help="write the table as CSV to FILE (default: stdout)")
    p.add_argument("--html", default=None, metavar="FILE",
                   help="also write the plan's HTML report with the 'Product targets' section and its frontier chart")
    add_frontier_arguments(p, where="--html FILE")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    import sys

    from models.planner.plan import plan
    from models.planner.targets import SPECS, targets_of_plan

    if not args.target > 0:
        raise ValueError(f"--target: the target speedup must be > 0 (got {args.target:g})")
    frontier = frontier_pair(args, needs=bool(args.html), where="--html FILE")
    workloads, devices, baseline = plan_inputs(args)
    pres = plan(workloads, devices, baseline=baseline, n_requests=args.requests, memory_refs=args.mem_refs,
                **plan_economics(args))
    res = targets_of_plan(pres, target=args.target, specs=args.spec or tuple(SPECS), n_requests=args.requests,
                          memory_refs=args.mem_refs)
    emit_to(res.to_frame(), args.output_format, args.csv)
    if args.html:
        from reporting.planner_report import plan_report_html
        from reporting.planner_targets_report import targets_section

        with open(args.html, "w", encoding="utf-8") as fh:
            fh.write(plan_report_html(pres, extra_sections=[targets_section(res, frontier)]))
        print(f"wrote {args.html}", file=sys.stderr)
    return 0
