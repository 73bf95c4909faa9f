"""The workload, device and economics options of ``pcm-planner plan`` and ``pcm-planner targets``, and their reading.

Shared by both subcommands (one module per subcommand never imports another).
"""

from __future__ import annotations

import argparse
import math

from cli.argtypes import number, whole_number
from cli.traceopts import add_reader_options, format_options, trace_reader_options

__all__ = ["add_plan_input_arguments", "add_economics_arguments", "plan_inputs", "plan_economics",
           "add_frontier_arguments", "frontier_pair"]


def add_plan_input_arguments(p: argparse.ArgumentParser) -> None:
    """Add the workload (``--block-trace``, ``--mem-trace``, ``--filebench``, ``--fio``, ``--name``), device
    (``--device``, ``--device-csv``), ``--baseline``, block-trace reader, ``--requests``, ``--mem-refs`` and
    economics (``--price``, ``--horizon-years``, ``--module-gb``) options."""
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
    p.add_argument("--mem-refs", type=whole_number, default=None, metavar="N",
                   help="use only the first N references of each memory trace (default: the whole trace, read whole "
                        "when it fits the run's memory budget, --memory-budget, else read twice in chunks; a cut "
                        "over the budget is refused naming both options; the rows say how many they used: "
                        "requests_used, requests_read)")
    add_economics_arguments(p)


def add_economics_arguments(p: argparse.ArgumentParser) -> None:
    """Add the economics options ``--price``, ``--horizon-years`` and ``--module-gb`` (``plan``, ``targets``,
    ``rank``; read with :func:`plan_economics`)."""
    e = p.add_argument_group("economics (issue 37)")
    e.add_argument("--price", action="append", default=[], metavar="DEVICE=USD_PER_GB",
                   help="price of a device [USD per GB], overriding the catalogue's range (repeatable)")
    e.add_argument("--horizon-years", type=number, default=None, metavar="YEARS",
                   help="planning horizon: the cost counts the replacements wear-out needs within it "
                        "(default: planner.horizon_years, 5)")
    e.add_argument("--module-gb", type=number, default=None, metavar="GB",
                   help="module/drive size: each role's capacity is rounded up to whole modules (default: each "
                        "device's smallest product, data/devices.csv module_GB; not rounded when unknown)")


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


def plan_economics(args: argparse.Namespace) -> dict:
    """The :func:`models.planner.plan.plan` (and :func:`models.planner.rank_workloads`) keywords of the economics
    options (``horizon_years``, ``module_GB``, ``prices``)."""
    return {"horizon_years": args.horizon_years, "module_GB": args.module_gb,
            "prices": _prices(getattr(args, "price", []))}


def plan_inputs(args: argparse.Namespace) -> tuple[list, list, object]:
    """``(workloads, devices, baseline)`` of the options (:func:`add_plan_input_arguments`), each error naming
    its option."""
    from models.devices import get_device
    from models.planner.plan import workload_from_path

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
    devices = [custom[n] if n in custom else get_device(n) for n in wanted]
    baseline = args.baseline
    if baseline != "like-for-like":
        baseline = custom[baseline] if baseline in custom else get_device(baseline)
    return workloads, devices, baseline


def add_frontier_arguments(p: argparse.ArgumentParser, *, where: str) -> None:
    """Add ``--frontier-x`` and ``--frontier-y``: the two specs of the report's frontier chart (``where``: the
    options the report needs, in the help)."""
    from models.planner.targets import SPECS
    from reporting.planner_targets_report import DEFAULT_FRONTIER

    g = p.add_argument_group("frontier chart (the report's 'Product targets' section)")
    for axis, default in zip("xy", DEFAULT_FRONTIER):
        g.add_argument(f"--frontier-{axis}", default=None, metavar="SPEC",
                       help=f"spec on the frontier's {axis} axis, one of {', '.join(SPECS)} (default {default}; the "
                            f"two must differ; needs {where})")


def frontier_pair(args: argparse.Namespace, *, needs: bool, where: str) -> tuple[str, str]:
    """The frontier's ``(x spec, y spec)`` of ``--frontier-x``/``--frontier-y`` (the defaults where not given),
    checked; ``needs``: the options the report needs were given (else a frontier option is an error naming
    ``where``)."""
    from reporting.planner_targets_report import DEFAULT_FRONTIER, check_frontier_pair

    given = [o for o, v in (("--frontier-x", args.frontier_x), ("--frontier-y", args.frontier_y)) if v is not None]
    if given and not needs:
        raise ValueError(f"{'/'.join(given)}: the frontier is drawn in the report; give {where}")
    x = args.frontier_x or DEFAULT_FRONTIER[0]
    y = args.frontier_y or DEFAULT_FRONTIER[1]
    return check_frontier_pair(x, y, option="/".join(given) or "--frontier-x/--frontier-y")
