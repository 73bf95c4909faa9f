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
Then the economics (issue 37): capacity_GB, price_usd_per_GB, cost_usd, bytes_written_per_s,
lifetime_years, replacements, cost_per_work_vs_baseline, economic_verdict, economic_reason: the capacity
the role uses (rounded up to whole --module-gb modules when given), its cost over --horizon-years
including the replacements its wear-out needs under the workload's write rate, and the cost per unit of
work against the baseline's ("needs data: price" for a device without a price: give one with --price).

Block traces are read as trace-stats reads them: --trace-format (default auto-detect) and, for a generic CSV,
the column mapping (--time-col, --op-col, --op-map, --lba-col / --offset-col, --size-col, ...), applied to every
--block-trace, e.g. a libCacheSim CSV whose operation is a SCSI opcode (28 read, 2a write):

  pcm-planner plan --block-trace vm.csv --trace-format csv --time-col timestamp --op-col op --op-map scsi \\
      --lba-col lba --size-col size --device pcm-samsung-20nm

Each workload fails alone: one that cannot be read is reported on stderr ("error: workload 'NAME' (FILE): ...")
and its rows read verdict "needs data" with the reason "needs data: could not read ..."; the other workloads
are evaluated and the exit status is 0. Only when no workload can be read does the command fail (status 2).
"""

from __future__ import annotations

import argparse
import sys

from cli.argtypes import whole_number
from cli.output import add_format_option, emit
from cli.traceopts import add_reader_options, format_options, trace_reader_options
from cli.uncertainty import add_uncertainty_options

NAME = "plan"
HELP = ("one verdict per PCM role for your workloads and devices (CSV columns workload,role,device,baseline,"
        "metric,unit,value,p5,p95,verdict,reason)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    w = p.add_argument_group("workloads (each repeatable; a file or a bundled name)")
    w.add_argument("--block-trace", action="append", default=[], metavar="F", help="block I/O trace")
    w.add_argument("--mem-trace", action="append", default=[], metavar="F", help="memory-reference trace")
    w.add_argument("--filebench", action="append", default=[], metavar="F",
                   help="Filebench .f file or bundled personality")
    w.add_argument("--fio", action="append", default=[], metavar="F", help="fio job file or fio JSON result")
    w.add_argument("--name", action="append", default=[], metavar="NAME",
                   help="names of the workloads in the order above (default: the file names)")
    d = p.add_argument_group("devices")
    d.add_argument("--device", action="append", default=[], metavar="NAME",
                   help="device to compare (catalogue name or a --device-csv name; repeatable, 1-3 usual)")
    d.add_argument("--device-csv", default=None, metavar="FILE",
                   help="custom devices in the catalogue CSV schema (data/devices.csv columns)")
    p.add_argument("--baseline", default="like-for-like",
                   help="'like-for-like' (each role's usual comparison, default) or a device name")
    add_reader_options(p, kind="block", max_requests=False)
    p.add_argument("--requests", type=whole_number, default=None,
                   help="use only the first N requests of each block trace (default: the whole trace; the rows "
                        "say how many they used: requests_used, requests_read)")
    p.add_argument("--mem-refs", type=whole_number, default=2_000_000,
                   help="references read from each memory trace (default 2000000)")
    e = p.add_argument_group("economics (issue 37)")
    e.add_argument("--price", action="append", default=[], metavar="DEVICE=USD_PER_GB",
                   help="price of a device [USD per GB], overriding the catalogue's range (repeatable)")
    e.add_argument("--horizon-years", type=float, default=None, metavar="YEARS",
                   help="planning horizon: the cost counts the replacements wear-out needs within it "
                        "(default: planner.horizon_years, 5)")
    e.add_argument("--module-gb", type=float, default=None, metavar="GB",
                   help="module/drive size: each role's capacity is rounded up to whole modules (default: not rounded)")
    p.add_argument("--csv", default=None, metavar="FILE", help="write the table as CSV to FILE (default: stdout)")
    p.add_argument("--html", default=None, metavar="FILE", help="also write a self-contained HTML report")
    p.add_argument("--pdf", default=None, metavar="FILE", help="also write a PDF report")
    add_uncertainty_options(p, adds="p5,p95 (of value),p_win,decisive_input")
    add_format_option(p)


def _custom_devices(path: str | None) -> dict:
    """Custom devices of ``--device-csv`` (the catalogue CSV schema, :func:`models.devices.devices_from_csv`)."""
    if not path:
        return {}
    from pathlib import Path

    from models.devices import devices_from_csv

    if not Path(path).is_file():
        raise FileNotFoundError(f"--device-csv {path}: no such file")
    return devices_from_csv(Path(path), where=f"--device-csv {Path(path).name}")


def _prices(items: list[str]) -> dict[str, float]:
    """``--price DEVICE=USD_PER_GB`` options: device name -> price [USD per GB]."""
    import math

    out = {}
    for it in items:
        name, eq, val = str(it).rpartition("=")
        try:
            price = float(val)
        except ValueError:
            price = math.nan
        if not eq or not name.strip() or not (math.isfinite(price) and price > 0):
            raise ValueError(f"--price {it!r}: expected DEVICE=USD_PER_GB with a price > 0, e.g. pcm-memext=2.5")
        out[name.strip()] = price
    return out


def run(args: argparse.Namespace) -> int:
    from models.devices import get_device
    from models.planner.plan import plan, workload_from_path

    if getattr(args, "sample_design", "sobol") != "sobol":
        raise ValueError("--sample-design: the plan's bands are drawn with the Sobol' design only")
    sources = ([(f, "block") for f in args.block_trace] + [(f, "memory") for f in args.mem_trace]
               + [(f, "filebench") for f in args.filebench] + [(f, "fio") for f in args.fio])
    if not sources:
        raise ValueError("give at least one workload: --block-trace, --mem-trace, --filebench or --fio")
    if len(args.name) > len(sources):
        raise ValueError(f"--name given {len(args.name)} times for {len(sources)} workloads")
    names = args.name + [None] * (len(sources) - len(args.name))
    fmt = getattr(args, "trace_format", "auto") or "auto"
    opts = format_options(fmt, trace_reader_options(args))
    workloads = [workload_from_path(f, name=n, kind=k, **({"trace_format": fmt, "reader_options": opts}
                                                          if k == "block" else {}))
                 for (f, k), n in zip(sources, names)]
    custom = _custom_devices(args.device_csv)
    wanted = args.device or list(custom)
    if not wanted:
        raise ValueError("give at least one --device (a catalogue name) or a --device-csv")
    prices = _prices(getattr(args, "price", []))
    devices = [custom[n] if n in custom else get_device(n) for n in wanted]
    baseline = args.baseline
    if baseline != "like-for-like":
        baseline = custom[baseline] if baseline in custom else get_device(baseline)
    res = plan(workloads, devices, baseline=baseline, uncertainty=args.uncertainty, seed=args.seed,
               n_requests=args.requests, memory_refs=args.mem_refs, horizon_years=args.horizon_years,
               module_GB=args.module_gb, prices=prices)
    for _, msg in res.errors:  # a workload that could not be read fails alone: its rows say so, the others stand
        print(f"error: {msg} (its rows read 'needs data: could not read ...'; the other workloads are evaluated)",
              file=sys.stderr)
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
