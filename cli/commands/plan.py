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

(spec: models/planner/fleet.py; traces as paths or globs, devices, roles; rows led by ``trace``, written
to the Parquet file after each trace and to its .csv twin at the end; a rerun skips the traces
already in the Parquet file; progress per trace on stderr).

Columns: workload,role,device,baseline,metric,unit,value,p5,p95,verdict,reason (then p_win,
decisive_input, requests_used, requests_read: of the workload's trace; each block trace is used whole
unless --requests asks for a sample, and the reason says which). verdict: wins / loses / not applicable / needs data; value is baseline over
device [x] (> 1: the device wins); NaN where a role does not apply or needs data.
"""

from __future__ import annotations

import argparse
import sys

from cli.argtypes import whole_number
from cli.output import add_format_option, emit
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
    p.add_argument("--requests", type=whole_number, default=None,
                   help="use only the first N requests of each block trace (default: the whole trace; the rows "
                        "say how many they used: requests_used, requests_read)")
    p.add_argument("--mem-refs", type=whole_number, default=2_000_000,
                   help="references read from each memory trace (default 2000000)")
    p.add_argument("--csv", default=None, metavar="FILE", help="write the table as CSV to FILE (default: stdout)")
    p.add_argument("--html", default=None, metavar="FILE", help="also write a self-contained HTML report")
    p.add_argument("--pdf", default=None, metavar="FILE", help="also write a PDF report")
    add_uncertainty_options(p, adds="p5,p95 (of value),p_win,decisive_input")
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


def _custom_devices(path: str | None) -> dict:
    """Custom devices of ``--device-csv`` (the catalogue CSV schema, :func:`models.devices.devices_from_csv`)."""
    if not path:
        return {}
    from pathlib import Path

    from models.devices import devices_from_csv

    if not Path(path).is_file():
        raise FileNotFoundError(f"--device-csv {path}: no such file")
    return devices_from_csv(Path(path), where=f"--device-csv {Path(path).name}")


def run(args: argparse.Namespace) -> int:
    from models.devices import get_device
    from models.planner.plan import plan, workload_from_path

    if args.fleet:
        return _run_fleet(args)
    if getattr(args, "sample_design", "sobol") != "sobol":
        raise ValueError("--sample-design: the plan's bands are drawn with the Sobol' design only")
    sources = ([(f, "block") for f in args.block_trace] + [(f, "memory") for f in args.mem_trace]
               + [(f, "filebench") for f in args.filebench] + [(f, "fio") for f in args.fio])
    if not sources:
        raise ValueError("give at least one workload: --block-trace, --mem-trace, --filebench or --fio")
    if len(args.name) > len(sources):
        raise ValueError(f"--name given {len(args.name)} times for {len(sources)} workloads")
    names = args.name + [None] * (len(sources) - len(args.name))
    workloads = [workload_from_path(f, name=n, kind=k) for (f, k), n in zip(sources, names)]
    custom = _custom_devices(args.device_csv)
    wanted = args.device or list(custom)
    if not wanted:
        raise ValueError("give at least one --device (a catalogue name) or a --device-csv")
    devices = [custom[n] if n in custom else get_device(n) for n in wanted]
    baseline = args.baseline
    if baseline != "like-for-like":
        baseline = custom[baseline] if baseline in custom else get_device(baseline)
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
