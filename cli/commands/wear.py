"""PCM wear leveling (seed 003 section IV, Figure 9): bank-write balance of none/sg/rr/sfc.

  pcm-planner wear synthetic:fin1 --scheme sg,rr,sfc
  pcm-planner wear trace.gz --trace-format spc --scheme none,sg,rr,sfc --gap-interval 100 --horizon long-run

Every write request counts one write per 32 KB stripe it touches (Table I geometry: 8 ranks x
16 banks x 512 stripes). life_rate = avg / max bank writes; improvement_vs_sg = life rate / SG's
(empty when sg is not among the schemes). --horizon one-pass (default) replays the trace once;
long-run gives the expected bank writes once start-gap has rotated every line through its region
(the workload repeating over the device lifetime). See models/endurance/wear.py.

--uncertainty N adds band_of,p5,p50,p95 of life_rate equal to it: the bank-write counts depend on
the trace and the scheme's geometry only, no analytic uncertain parameter (the assumed SG region
count and the gap interval change the simulation and are held at their points, as every band
holds re-simulating inputs: rerun with --gap-interval). The lifetime in years, which does depend on the endurance
and write rate, has its band on the Wear leveling page (docs/uncertainty.md).
"""

from __future__ import annotations

import argparse

from cli.argtypes import whole_number
from cli.output import add_format_option, emit
from cli.traceopts import add_trace_options, load_trace_from_args
from cli.uncertainty import add_point_band, add_uncertainty_options
from models.provenance import param

NAME = "wear"
HELP = "wear leveling none|sg|rr|sfc (CSV columns scheme,writes,avg_bank_writes,max_bank_writes,life_rate,improvement_vs_sg)"

COLUMNS = ["scheme", "writes", "avg_bank_writes", "max_bank_writes", "life_rate", "improvement_vs_sg"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_trace_options(p, kind="block", block_size=False)
    p.add_argument("--scheme", default="none,sg,rr,sfc",
                   help="schemes, comma separated: none, sg, rr, sfc (default all)")
    p.add_argument("--gap-interval", dest="gap_interval", type=whole_number, default=param("wear.gap_interval_writes").value,
                   help=f"psi: writes to a start-gap region between gap moves (default "
                        f"{param('wear.gap_interval_writes').value}, {param('wear.gap_interval_writes').kind})")
    p.add_argument("--address", choices=["modulo", "first_touch"], default="modulo",
                   help="trace address -> stripe: disk stripe number folded onto the device (modulo, default) "
                        "or distinct stripes numbered in order of first write (first_touch)")
    p.add_argument("--horizon", choices=["one-pass", "long-run"], default="one-pass",
                   help="one replay of the trace (default) or the long-run expectation after full rotations")
    p.add_argument("--literal-sfc", dest="literal_sfc", action="store_true",
                   help="SFC exactly as equation 1 (no per-cube rotation over ranks/banks)")
    add_uncertainty_options(p, adds="band_of,p5,p50,p95 (of life_rate; no uncertain input: equal to it) columns")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models.endurance.wear import WearConfig, compare_schemes, stripe_write_stream

    schemes = [s.strip().lower() for s in str(args.scheme).split(",") if s.strip()]
    if not schemes:
        raise ValueError("--scheme is empty: give none, sg, rr and/or sfc")
    cfg = WearConfig(gap_interval_writes=args.gap_interval, sfc_rotate_cubes=not args.literal_sfc)
    trace = load_trace_from_args(args, kind="block")
    stream = stripe_write_stream(trace, cfg, address=args.address)
    if len(stream) == 0:
        raise ValueError(f"{args.trace}: the trace has no write requests; nothing wears")
    df, _ = compare_schemes(stream, schemes, cfg)
    if args.horizon == "long-run":
        df["life_rate"] = df["life_rate_long_run"]
        df["improvement_vs_sg"] = df["improvement_vs_sg_long_run"]
        df["avg_bank_writes"] = df["writes"] / cfg.n_banks
        df["max_bank_writes"] = df["avg_bank_writes"] / df["life_rate"]
    emit(add_point_band(df[COLUMNS], args, "life_rate", "-",
                        "bank-write counts of one simulation; the assumed SG region count and the gap interval "
                        "change the simulation and are held, as in every band: rerun with --gap-interval"),
         args.output_format)
    return 0
