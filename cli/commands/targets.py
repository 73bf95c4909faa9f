"""Spec targets (inverse design): the device spec at which each role of the plan breaks even, the others held.

  pcm-planner targets --block-trace my.csv --mem-trace app.lackey --device pcm-samsung-20nm
  pcm-planner targets --block-trace mqsim:tpcc-small --device optane-dcpmm --spec write_latency_ns --target 2

Same workload, device and economics options as ``pcm-planner plan`` (--block-trace, --mem-trace, --filebench,
--fio, --name, --device, --device-csv, --baseline, the block-trace reader options, --requests, --mem-refs,
--price, --horizon-years, --module-gb). For each workload x role x device and each
spec (read_latency_ns, write_latency_ns, write_bandwidth_MBps, endurance_writes_per_cell, price_usd_per_GB),
the value at which the role's value (baseline / device [x], the plan's value) equals 1 (or --target), every
other spec held at the device's own value (:mod:`models.planner.targets`).

Columns: workload,role,device,spec,unit,break_even,held_at,direction,reason. held_at is the device's own value
of the spec; direction <= (won while the spec is at most break_even) or >=. break_even is NaN when there is no
root in the catalogue's range ("at any ...", "never, even at ...") or the row has no value (its reason says why).
"""

from __future__ import annotations

import argparse

from cli.argtypes import number
from cli.output import add_format_option, emit_to
from cli.plan_inputs import add_plan_input_arguments, plan_economics, plan_inputs

NAME = "targets"
HELP = ("the device spec (latency, bandwidth, endurance, price) at which each role breaks even (CSV columns "
        "workload,role,device,spec,unit,break_even,held_at,direction,reason)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from models.planner.targets import SPECS

    add_plan_input_arguments(p)
    p.add_argument("--spec", action="append", default=[], choices=list(SPECS), metavar="SPEC",
                   help=f"spec to solve (repeatable; default all: {', '.join(SPECS)})")
    p.add_argument("--target", type=number, default=1.0, metavar="X",
                   help="speedup over the baseline each break-even solves for (default 1)")
    p.add_argument("--csv", default=None, metavar="FILE", help="write the table as CSV to FILE (default: stdout)")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models.planner.targets import SPECS, plan_targets

    if not args.target > 0:
        raise ValueError(f"--target: the target speedup must be > 0 (got {args.target:g})")
    workloads, devices, baseline = plan_inputs(args)
    res = plan_targets(workloads, devices, baseline=baseline, target=args.target, specs=args.spec or tuple(SPECS),
                       n_requests=args.requests, memory_refs=args.mem_refs, **plan_economics(args))
    df = res.to_frame()
    emit_to(df, args.output_format, args.csv)
    return 0
