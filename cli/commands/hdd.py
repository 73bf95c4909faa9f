"""HDD service-time model calibrated on DiskSim's validated drives (seed 003 sec. V).

  pcm-planner hdd validate --drive ibm18es
  pcm-planner hdd validate --drive path/to/DIR/NAME     # NAME.seek/.model/.diskspecs/.trace
  pcm-planner hdd validate --drive all                  # every bundled drive

Output CSV columns: drive,requests,mean_measured_ms,mean_predicted_ms,demerit_ms
(demerit = RMS horizontal distance between predicted and measured service-time CDFs).
"""

from __future__ import annotations

import argparse

from cli.output import add_format_option, emit

NAME = "hdd"
HELP = "HDD model: validate against a drive's measured trace (CSV drive,requests,mean_measured_ms,...)"

COLUMNS = ["drive", "requests", "mean_measured_ms", "mean_predicted_ms", "demerit_ms"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=["validate"], help="validate: replay NAME.trace and compare")
    p.add_argument("--drive", action="append", required=True,
                   help="bundled drive name, DIR/NAME (files NAME.seek, .model, .diskspecs, .trace), "
                        "or 'all' (repeatable)")
    p.add_argument("--rotation", choices=["clock", "expected"], default="clock",
                   help="rotational latency from the platter angle (default) or half a rotation")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models.storage.hdd import drive_names, validation_table

    names: list[str] = []
    for d in args.drive:
        names.extend(drive_names() if d == "all" else [d])
    emit(validation_table(names, rotation=args.rotation)[COLUMNS], args.output_format)
    return 0
