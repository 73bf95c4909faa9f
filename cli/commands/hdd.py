"""HDD service-time model calibrated on DiskSim's validated drives (seed 003 sec. V).

  pcm-planner hdd validate --drive ibm18es
  pcm-planner hdd validate --drive path/to/DIR/NAME     # NAME.seek/.model/.diskspecs/.trace
  pcm-planner hdd validate --drive all                  # every bundled drive
  pcm-planner hdd split --drive all                     # demerit by reads/writes and cache hit/miss
  pcm-planner hdd coverage                              # every DiskSim parameter: honoured or ignored
  pcm-planner hdd coverage --drive atlas10k             # one drive's values against that table

Output CSV columns: validate: drive,requests,mean_measured_ms,mean_predicted_ms,demerit_ms
(demerit = RMS horizontal distance between predicted and measured service-time CDFs);
split: drive,part,requests,share,mean_measured_ms,mean_predicted_ms,demerit_ms;
coverage: block,parameter,status,values,note,field (with --drive: drive,block,parameter,value,
status,modelled).

--uncertainty N (validate, split) adds band_of,p5,p50,p95 of mean_predicted_ms equal to it: the drive
is modelled from its own DiskSim parameter files (exact), no uncertain parameter (band_of says so);
the catalogue HDD's band is 'pcm-planner sensitivity hdd' (docs/uncertainty.md).
"""

from __future__ import annotations

import argparse

from cli.output import add_format_option, emit
from cli.uncertainty import add_point_band, add_uncertainty_options

NAME = "hdd"
HELP = "HDD model: validate against a drive's measured trace (CSV drive,requests,mean_measured_ms,...)"

COLUMNS = ["drive", "requests", "mean_measured_ms", "mean_predicted_ms", "demerit_ms"]
SPLIT_COLUMNS = ["drive", "part", "requests", "share", "mean_measured_ms", "mean_predicted_ms", "demerit_ms"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=["validate", "split", "coverage"],
                   help="validate: replay NAME.trace and compare; split: the demerit by reads/writes and by the "
                        "model's cache hit/miss; coverage: every DiskSim parameter, honoured or ignored")
    p.add_argument("--drive", action="append", default=None,
                   help="bundled drive name, DIR/NAME (files NAME.seek, .model, .diskspecs, .trace), "
                        "or 'all' (repeatable; required by validate and split)")
    p.add_argument("--rotation", choices=["clock", "expected"], default="clock",
                   help="rotational latency from the platter angle (default) or half a rotation")
    add_uncertainty_options(p, adds="band_of,p5,p50,p95 (of mean_predicted_ms; validate/split; no uncertain "
                                    "input: equal to it) columns")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    import pandas as pd

    from models.storage.hdd import (
        coverage_table,
        drive_coverage,
        drive_names,
        split_table,
        validation_table,
    )

    names: list[str] = []
    for d in args.drive or []:
        names.extend(drive_names() if d == "all" else [d])
    if args.action == "coverage" and args.uncertainty:
        raise ValueError("--uncertainty applies to 'hdd validate' and 'hdd split' (coverage has no numbers to band)")
    if args.action == "coverage":
        if not names:
            emit(coverage_table(), args.output_format)
        else:
            emit(pd.concat([drive_coverage(n).assign(drive=str(n)) for n in names], ignore_index=True)[
                ["drive", "block", "parameter", "value", "status", "modelled"]], args.output_format)
        return 0
    if not names:
        raise ValueError(f"--drive is required by 'hdd {args.action}' (a drive name, DIR/NAME or 'all')")
    why = "the drive's own DiskSim parameter files, exact"
    if args.action == "split":
        emit(add_point_band(split_table(names, rotation=args.rotation)[SPLIT_COLUMNS], args, "mean_predicted_ms",
                            "ms", why), args.output_format)
        return 0
    emit(add_point_band(validation_table(names, rotation=args.rotation)[COLUMNS], args, "mean_predicted_ms", "ms",
                        why), args.output_format)
    return 0


#: The help line of ``pcm-planner sensitivity hdd``.
SENSITIVITY_HELP = "sensitivity of a random request's service time on a catalogue HDD (--device, --size-bytes)"


def sensitivity_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``pcm-planner sensitivity hdd`` (a random request on a catalogue HDD)."""
    from cli.argtypes import number

    p.add_argument("--device", action="append", default=None, help="catalogue HDD (default hdd-7200)")
    p.add_argument("--size-bytes", dest="size_bytes", type=number, default=4096.0,
                   help="request size [bytes] (default 4096)")
    add_format_option(p)


def uncertain_models(adapter, args: argparse.Namespace, **context) -> list:
    """One uncertainty model per catalogue HDD of ``--device`` (default hdd-7200; ``adapter``: the hdd
    spec's)."""
    return [adapter(d, size_bytes=args.size_bytes) for d in (args.device or ["hdd-7200"])]
