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

A fleet -- many block traces, one verdict row per trace x role x device, on Dask, resumable:

  pcm-planner plan --fleet fleet.toml --fleet-out fleet.parquet [--scheduler local|serial|tcp://HOST:PORT]

(spec: models/planner/fleet.py; traces as paths or globs, devices, roles; rows led by ``trace``; each
trace's rows written to FILE.parts/ as it finishes, the whole table to the Parquet file and its .csv twin
at the end; a rerun skips the traces already in the parts or the Parquet file; Dask workers are
processes of one thread, each warmed once, the largest traces first; progress per trace on stderr).

Columns: workload,role,device,baseline,metric,unit,value,p5,p95,verdict,reason (then p_win,
decisive_input, requests_used, requests_read: of the workload's trace; each block trace is used whole
unless --requests asks for a sample, each memory trace whole unless --mem-refs does -- one longer than the
--memory-budget allows to read whole is read twice in chunks, never cut silently -- and the reason says which). verdict: wins / loses / not applicable / needs data; value is baseline over
device [x] (> 1: the device wins); NaN where a role does not apply or needs data.
Then the economics (issue 37): capacity_GB, price_usd_per_GB, cost_usd, bytes_written_per_s,
lifetime_years, replacements, cost_per_work_vs_baseline, economic_verdict, economic_reason: the capacity
the role uses (rounded up to whole --module-gb modules when given), its cost over --horizon-years
including the replacements its wear-out needs under the workload's write rate, and the cost per unit of
work against the baseline's ("needs data: price" for a device without a price: give one with --price).
Last (issue 41): method, sample_rate -- "exact" and 1.0, or, for a block trace whose exact per-block state passes
--memory-budget, the file-cache and storage rows evaluated from a SHARDS spatial sample of the 4 KiB blocks
("SHARDS spatial sample of 4 KiB blocks" and its rate; the reason gives why and the measured error bound);
sample_rate is NaN for a row not from a trace.

Block traces are read as trace-stats reads them: --trace-format (default auto-detect) and, for a generic CSV,
the column mapping (--time-col, --op-col, --op-map, --lba-col / --offset-col, --size-col, ...), applied to every
--block-trace, e.g. a libCacheSim CSV whose operation is a SCSI opcode (28 read, 2a write):

  pcm-planner plan --block-trace vm.csv --trace-format csv --time-col timestamp --op-col op --op-map scsi \\
      --lba-col lba --size-col size --device pcm-samsung-20nm

--targets FILE also writes the spec targets (the columns of ``pcm-planner targets``, with their uncertainty bands)
and adds a "Product targets" section, with a frontier chart, to --html; --frontier-x SPEC --frontier-y SPEC pick
the chart's two specs (any two of the five; default write_latency_ns x read_latency_ns).

A block trace too large to load whole (a file over 32 MiB, or more than the memory budget in
memory) is read twice in chunks, not cut: its rows say "(streamed in two passes)"; --progress shows each pass on
stderr (share read, requests/s, time left; by default when stderr is a terminal).

Each workload fails alone: one that cannot be read is reported on stderr ("error: workload 'NAME' (FILE): ...")
and its rows read verdict "needs data" with the reason "needs data: could not read ..."; the other workloads
are evaluated and the exit status is 0. Only when no workload can be read does the command fail (status 2).
"""

from __future__ import annotations

import argparse
import sys

from cli.argtypes import whole_number
from cli.output import add_format_option, emit, emit_to
from cli.plan_inputs import (
    add_frontier_arguments,
    add_plan_input_arguments,
    frontier_pair,
    plan_economics,
    plan_inputs,
)
from cli.progress import add_progress_option, text_progress
from cli.uncertainty import add_uncertainty_options

NAME = "plan"
HELP = ("one verdict per PCM role for your workloads and devices (CSV columns workload,role,device,baseline,"
        "metric,unit,value,p5,p95,verdict,reason)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_plan_input_arguments(p)
    p.add_argument("--csv", default=None, metavar="FILE", help="write the table as CSV to FILE (default: stdout)")
    p.add_argument("--html", default=None, metavar="FILE", help="also write a self-contained HTML report")
    p.add_argument("--pdf", default=None, metavar="FILE", help="also write a PDF report")
    p.add_argument("--targets", default=None, metavar="FILE",
                   help="also write the spec targets (pcm-planner targets' CSV columns) to FILE and add a 'Product "
                        "targets' section to --html and --pdf")
    add_uncertainty_options(p, adds="p5,p95 (of value),p_win,decisive_input")
    add_frontier_arguments(p, where="--targets FILE and --html FILE")
    add_progress_option(p)
    f = p.add_argument_group("fleet (many block traces; see models/planner/fleet.py)")
    f.add_argument("--fleet", default=None, metavar="FLEET.toml",
                   help="plan every trace of a fleet spec (traces as paths/globs, devices, roles)")
    f.add_argument("--fleet-out", default="fleet.parquet", metavar="FILE",
                   help="fleet results (.parquet; the CSV is written next to it; default fleet.parquet)")
    f.add_argument("--scheduler", default="local",
                   help="fleet: local (a Dask LocalCluster, default), a scheduler address tcp://HOST:PORT, or "
                        "serial (in this process, no Dask)")
    f.add_argument("--workers", type=whole_number, default=None,
                   help="fleet: LocalCluster worker processes (default: the CPU count)")
    add_format_option(p)


def _run_fleet(args: argparse.Namespace) -> int:
    from pathlib import Path

    from models.planner.fleet import load_fleet_spec, run_fleet
    from reporting.csv_safety import sanitize_frame

    out = Path(args.fleet_out)
    if out.suffix.lower() != ".parquet":
        raise ValueError(f"--fleet-out must name a .parquet file (got {args.fleet_out!r})")
    given = [o for o, v in (("--block-trace", args.block_trace), ("--mem-trace", args.mem_trace),
                            ("--filebench", args.filebench), ("--fio", args.fio), ("--device", args.device)) if v]
    if given:
        raise ValueError(f"--fleet takes its traces and devices from the spec; drop {', '.join(given)}")
    spec = load_fleet_spec(args.fleet)
    out.parent.mkdir(parents=True, exist_ok=True)

    def progress(trace: str, done: int, total: int, seconds: float) -> None:
        print(f"fleet: {done}/{total} traces, {Path(trace).name} done ({seconds:.1f} s)", file=sys.stderr, flush=True)

    df = run_fleet(spec, out, scheduler=args.scheduler, workers=args.workers, progress=progress)
    csv = out.with_suffix(".csv")
    sanitize_frame(df).to_csv(csv, index=False)
    print(f"wrote {out} and {csv} ({len(df)} rows)", file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    from models.planner.plan import plan

    if args.fleet:
        return _run_fleet(args)
    if getattr(args, "sample_design", "sobol") != "sobol":
        raise ValueError("--sample-design: the plan's bands are drawn with the Sobol' design only")
    frontier = frontier_pair(args, needs=bool(args.targets and args.html), where="--targets FILE and --html FILE")
    workloads, devices, baseline = plan_inputs(args)
    res = plan(workloads, devices, baseline=baseline, uncertainty=args.uncertainty, seed=args.seed,
               n_requests=args.requests, memory_refs=args.mem_refs, read_progress=text_progress(args),
               **plan_economics(args))
    for _, msg in res.errors:  # a workload that could not be read fails alone: its rows say so, the others stand
        print(f"error: {msg} (its rows read 'needs data: could not read ...'; the other workloads are evaluated)",
              file=sys.stderr)
    df = res.to_frame()
    emit_to(df, args.output_format, args.csv)
    sections, tres = [], None
    if args.targets:
        from models.planner.targets import targets_of_plan
        from reporting.planner_targets_report import targets_section

        tres = targets_of_plan(res, n_requests=args.requests, memory_refs=args.mem_refs)
        with open(args.targets, "w", encoding="utf-8", newline="") as fh:
            emit(tres.to_frame(), args.output_format, fh)
        print(f"wrote {args.targets}", file=sys.stderr)
        sections.append(targets_section(tres, frontier))
    if args.html:
        from reporting.planner_report import plan_report_html

        with open(args.html, "w", encoding="utf-8") as fh:
            fh.write(plan_report_html(res, extra_sections=sections))
        print(f"wrote {args.html}", file=sys.stderr)
    if args.pdf:
        from reporting.pdf import plan_report_pdf

        with open(args.pdf, "wb") as fh:
            fh.write(plan_report_pdf(res, targets=tres))
        print(f"wrote {args.pdf}", file=sys.stderr)
    return 0
