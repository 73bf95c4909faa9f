"""Lifetime of an NVM memory extension: capacity x endurance x wear efficiency / write rate (seed 002 §2).

  pcm-planner lifetime --capacity-gb 16 --endurance 1e7 --write-rate-mbps 1000
  pcm-planner lifetime --capacity-gb 16 --endurance 1e4 --write-rate-mbps 100 250 --wear-efficiency 0.9
  pcm-planner lifetime --capacity-gb 16 --endurance 1e7 --write-rate-mbps 1000 \\
      --monte-carlo 2000 --endurance-sigma 0.25 --fail-fraction 1e-4 --seed 1

GB and MB are decimal (1e9, 1e6 bytes). With --monte-carlo N each 64-B line gets a lognormal
endurance (median --endurance, log-sd --endurance-sigma); the device fails when --fail-fraction
of its lines is worn out; P10/P50/P90 over N simulated devices.
"""

from __future__ import annotations

import argparse

import pandas as pd

from cli.output import add_format_option, emit
from cli.uncertainty import add_band_columns, add_uncertainty_options
from models.provenance import param

NAME = "lifetime"
HELP = "NVM memory-extension lifetime in years (CSV: capacity_gb,endurance,write_rate_mbps,...,years[,p10/p50/p90])"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--capacity-gb", type=float, required=True, help="device capacity [GB, 1e9 bytes]")
    p.add_argument("--endurance", type=float, required=True, help="cell endurance [writes per cell]")
    p.add_argument("--write-rate-mbps", type=float, nargs="+", required=True,
                   help="cell write rate(s) reaching the device [MB/s, 1e6 bytes/s]")
    p.add_argument("--wear-efficiency", type=float, default=param("lifetime.wear_efficiency").value,
                   help=f"wear-leveling efficiency in (0, 1] (default {param('lifetime.wear_efficiency').value:g}, "
                        f"{param('lifetime.wear_efficiency').kind})")
    p.add_argument("--monte-carlo", type=int, default=0, metavar="N", help="Monte Carlo devices (default 0: closed form only)")
    p.add_argument("--endurance-sigma", type=float, default=0.0, help="log-sd of per-line endurance (default 0)")
    p.add_argument("--fail-fraction", type=float, default=param("lifetime.fail_fraction").value,
                   help=f"fraction of worn lines at which the device fails (default "
                        f"{param('lifetime.fail_fraction').value:g}, {param('lifetime.fail_fraction').kind})")
    p.add_argument("--line-bytes", type=int, default=param("nvm.line_bytes").value,
                   help=f"wear unit [bytes] (default {param('nvm.line_bytes').value}, {param('nvm.line_bytes').kind})")
    p.add_argument("--seed", type=int, default=0, help="Monte Carlo (and --uncertainty) seed (default 0)")
    add_uncertainty_options(p)
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models.endurance.lifetime import LifetimeInputs, check_spread_inputs, lifetime_monte_carlo

    if args.monte_carlo < 0:
        raise ValueError(f"--monte-carlo must be >= 0 (got {args.monte_carlo})")
    for opt, v in (("--capacity-gb", args.capacity_gb), ("--endurance", args.endurance),
                   *(("--write-rate-mbps", w) for w in args.write_rate_mbps)):
        if not (v > 0 and v < float("inf")):
            raise ValueError(f"{opt} must be a positive finite number (got {v:g})")
    check_spread_inputs(args.capacity_gb * 1e9, endurance_sigma=args.endurance_sigma,
                        fail_fraction=args.fail_fraction, line_bytes=args.line_bytes)
    rows = []
    for w in args.write_rate_mbps:
        li = LifetimeInputs(capacity_bytes=args.capacity_gb * 1e9, endurance_writes_per_cell=args.endurance,
                            write_rate_bytes_per_s=w * 1e6, wear_efficiency=args.wear_efficiency)
        row = {"capacity_gb": args.capacity_gb, "endurance": args.endurance, "write_rate_mbps": w,
               "wear_efficiency": args.wear_efficiency, "years": li.years, "days": li.years * 365.25}
        if args.monte_carlo:
            mc = lifetime_monte_carlo(li.capacity_bytes, li.endurance_writes_per_cell, li.write_rate_bytes_per_s,
                                      wear_efficiency=li.wear_efficiency, endurance_sigma=args.endurance_sigma,
                                      fail_fraction=args.fail_fraction, line_bytes=args.line_bytes,
                                      trials=args.monte_carlo, seed=args.seed)
            row.update(endurance_sigma=args.endurance_sigma, fail_fraction=args.fail_fraction,
                       trials=mc.trials, p10_years=mc.p10_years, p50_years=mc.p50_years,
                       p90_years=mc.p90_years, mean_years=mc.mean_years)
        rows.append(row)
    emit(add_band_columns(pd.DataFrame(rows), NAME, args), args.output_format)
    return 0
