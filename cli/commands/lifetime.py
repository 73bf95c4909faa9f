"""Lifetime of an NVM memory extension: capacity x endurance x wear efficiency / write rate (seed 002 §2).

  pcm-planner lifetime --capacity-gb 16 --endurance 1e7 --write-rate-mbps 1000
  pcm-planner lifetime --capacity-gb 16 --endurance 1e4 --write-rate-mbps 100 250 --wear-efficiency 0.9
  pcm-planner lifetime --capacity-gb 16 --endurance 1e7 --write-rate-mbps 1000 \\
      --monte-carlo 2000 --endurance-sigma 0.25 --fail-fraction 1e-4 --seed 1

GB and MB are decimal (1e9, 1e6 bytes). With --monte-carlo N each 64-B line gets a lognormal
endurance (median --endurance, log-sd --endurance-sigma); the device fails when --fail-fraction
of its lines is worn out; P10/P50/P90 over N simulated devices.

Write rate from a memory trace (seed 002 §5.1.3: "we calculate the rate of writing cells for every
application"):

  pcm-planner lifetime --capacity-gb 16 --endurance 1e7 --mem-trace lulesh
  pcm-planner lifetime --capacity-gb 16 --endurance 1e7 --mem-trace my.lackey --time-base 0.6

--mem-trace replays a bundled memory trace (name) or a lackey / .npz memory-trace file through the
memory-extension model (PCM, FIFO, DRAM:NVM --dram-frac, buffered write-back): dirty write-backs x
4 KiB / modelled run time, run time = references x time base + stalls. --time-base measured (default)
uses the native time per data reference measured for a bundled trace's program
(data/measurements/apps, data/measurements/programs); a number gives it in ns. The rate is used as is
on the --capacity-gb device (column rate_scaling says so).
"""

from __future__ import annotations

import argparse
import math

import pandas as pd

from cli.argtypes import number, whole_number
from cli.output import add_format_option, emit
from cli.uncertainty import NO_UNCERTAIN_INPUT, add_band_columns, add_uncertainty_options
from models.provenance import param

NAME = "lifetime"
HELP = "NVM memory-extension lifetime in years (CSV: capacity_gb,endurance,write_rate_mbps,...,years[,p10/p50/p90])"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--capacity-gb", type=number, required=True, help="device capacity [GB, 1e9 bytes]")
    p.add_argument("--endurance", type=number, required=True, help="cell endurance [writes per cell]")
    p.add_argument("--write-rate-mbps", type=number, nargs="+", default=[],
                   help="cell write rate(s) reaching the device [MB/s, 1e6 bytes/s] (this and/or --mem-trace)")
    p.add_argument("--mem-trace", default=None, metavar="TRACE",
                   help="derive the write rate from a memory trace: a bundled name (e.g. lulesh) or a lackey / "
                        ".npz file")
    p.add_argument("--time-base", default="measured", metavar="measured|NS",
                   help="time per data reference of --mem-trace: 'measured' (the bundled trace's program, timed "
                        "natively; default) or a number [ns]")
    p.add_argument("--dram-frac", type=number, default=param("memext.dram_frac").value,
                   help=f"DRAM share of the trace's footprint for --mem-trace (default "
                        f"{param('memext.dram_frac').value:g}, DRAM:NVM 1:4)")
    p.add_argument("--wear-efficiency", type=number, default=param("lifetime.wear_efficiency").value,
                   help=f"wear-leveling efficiency in (0, 1] (default {param('lifetime.wear_efficiency').value:g}, "
                        f"{param('lifetime.wear_efficiency').kind})")
    p.add_argument("--monte-carlo", type=whole_number, default=0, metavar="N", help="Monte Carlo devices (default 0: closed form only)")
    p.add_argument("--endurance-sigma", type=number, default=0.0, help="log-sd of per-line endurance (default 0)")
    p.add_argument("--fail-fraction", type=number, default=param("lifetime.fail_fraction").value,
                   help=f"fraction of worn lines at which the device fails (default "
                        f"{param('lifetime.fail_fraction').value:g}, {param('lifetime.fail_fraction').kind})")
    p.add_argument("--line-bytes", type=whole_number, default=param("nvm.line_bytes").value,
                   help=f"wear unit [bytes] (default {param('nvm.line_bytes').value}, {param('nvm.line_bytes').kind})")
    p.add_argument("--seed", type=whole_number, default=0, help="Monte Carlo (and --uncertainty) seed (default 0)")
    add_uncertainty_options(p)
    add_format_option(p)


def check_args(args: argparse.Namespace) -> None:
    """The input checks of ``lifetime`` (run by :func:`run` and by ``sensitivity lifetime``)."""
    from models.endurance.lifetime import LifetimeInputs, check_spread_inputs

    if not args.write_rate_mbps and args.mem_trace is None:
        raise ValueError("give --write-rate-mbps and/or --mem-trace")
    if args.monte_carlo < 0:
        raise ValueError(f"--monte-carlo must be >= 0 (got {args.monte_carlo})")
    for opt, v, unit in (("--capacity-gb", args.capacity_gb, 1e9), ("--endurance", args.endurance, 1.0),
                         *(("--write-rate-mbps", w, 1e6) for w in args.write_rate_mbps)):
        if not (v > 0 and v * unit < float("inf")):  # in bytes too (1e300 GB is no finite byte count)
            raise ValueError(f"{opt} must be a positive finite number (got {v:g})")
    check_spread_inputs(args.capacity_gb * 1e9, endurance_sigma=args.endurance_sigma,
                        fail_fraction=args.fail_fraction, line_bytes=args.line_bytes)
    for w in args.write_rate_mbps:
        LifetimeInputs(capacity_bytes=args.capacity_gb * 1e9, endurance_writes_per_cell=args.endurance,
                       write_rate_bytes_per_s=w * 1e6, wear_efficiency=args.wear_efficiency)


def run(args: argparse.Namespace) -> int:
    from models.endurance.lifetime import LifetimeInputs, lifetime_monte_carlo

    check_args(args)
    rates = [(w, {}) for w in args.write_rate_mbps]
    if args.mem_trace is not None:
        rates.append(_trace_rate(args))
    rows = []
    for w, extra in rates:
        # w == 0: a --mem-trace that wrote nothing back (--write-rate-mbps is > 0): no wear, an infinite lifetime,
        # written inf as a lifetime past the float range is
        years = math.inf if w == 0 else LifetimeInputs(
            capacity_bytes=args.capacity_gb * 1e9, endurance_writes_per_cell=args.endurance,
            write_rate_bytes_per_s=w * 1e6, wear_efficiency=args.wear_efficiency).years
        row = {"capacity_gb": args.capacity_gb, "endurance": args.endurance, "write_rate_mbps": w,
               "wear_efficiency": args.wear_efficiency, "years": years, "days": years * 365.25, **extra}
        if args.monte_carlo:  # an infinite lifetime: inf percentiles and mean (never blank)
            mc = lifetime_monte_carlo(args.capacity_gb * 1e9, args.endurance, w * 1e6,
                                      wear_efficiency=args.wear_efficiency, endurance_sigma=args.endurance_sigma,
                                      fail_fraction=args.fail_fraction, line_bytes=args.line_bytes,
                                      trials=args.monte_carlo, seed=args.seed)
            row.update(endurance_sigma=args.endurance_sigma, fail_fraction=args.fail_fraction,
                       trials=mc.trials, p10_years=mc.p10_years, p50_years=mc.p50_years,
                       p90_years=mc.p90_years, mean_years=mc.mean_years)
        rows.append(row)
    # --uncertainty: one band per row; a trace's row at its derived rate (the rate itself held fixed)
    band_args = argparse.Namespace(**{**vars(args), "write_rate_mbps": [w for w, _ in rates]})
    out = add_band_columns(pd.DataFrame(rows), NAME, band_args)
    if "p5" in out:  # a row without writes has no uncertain lifetime: every sample is inf
        never = out.write_rate_mbps == 0
        out.loc[never, ["p5", "p50", "p95"]] = math.inf
        out.loc[never, "band_of"] = f"years [years]: {NO_UNCERTAIN_INPUT} (nothing written: never wears out)"
    emit(out, args.output_format, inf_text=True)
    return 0


def _trace_rate(args: argparse.Namespace) -> tuple[float, dict]:
    """(write rate [MB/s], extra columns) of --mem-trace with --time-base."""
    from models.endurance.lifetime import trace_lifetime_rate
    from models.traces import bundled_traces, load

    name = args.mem_trace
    bundled = {n.split(":", 1)[1] for n in bundled_traces("memory")}
    key = name.split(":", 1)[1] if name.startswith("lackey:") else name
    is_bundled = key in bundled
    tb = args.time_base.strip()
    if tb != "measured":
        try:
            tb = float(tb)
        except ValueError:
            raise ValueError(f"--time-base must be 'measured' or a number of ns per reference (got {tb!r})") from None
        if not (0 < tb < float("inf")):
            raise ValueError(f"--time-base must be a positive number of ns per reference (got {tb:g})")
    elif not is_bundled:
        raise ValueError(f"--time-base measured: {name!r} is not a bundled trace, and only the bundled traces' "
                         "programs were timed natively; give --time-base NS (ns per data reference)")
    if not (0 < args.dram_frac <= 1):
        raise ValueError(f"--dram-frac must be in (0, 1] (got {args.dram_frac:g})")
    trace = load(f"lackey:{key}" if is_bundled else name, kind="memory")
    r = trace_lifetime_rate(trace, time_base=tb, dram_frac=args.dram_frac, measured_name=key if is_bundled else None)
    extra = {"mem_trace": r.trace, "references": r.references, "dram_frac": r.dram_frac,
             "ns_per_ref": r.ns_per_ref, "time_base": r.time_base, "written_bytes": r.written_bytes,
             "modelled_s": r.modelled_s,
             "rate_scaling": f"PCM, FIFO, DRAM:NVM 1:{1 / r.dram_frac:g}: dirty write-backs x 4 KiB / modelled run "
                             f"time; {r.scaling}"}
    return r.write_rate_bytes_per_s / 1e6, extra


def uncertain_models(adapter, args: argparse.Namespace, **context) -> list:
    """The uncertainty model of each output row, one per write rate (``adapter``: the lifetime spec's)."""
    return [adapter(capacity_bytes=args.capacity_gb * 1e9, endurance_writes_per_cell=args.endurance,
                    write_rate_bytes_per_s=w * 1e6, wear_efficiency=args.wear_efficiency)
            if w != 0 else None for w in args.write_rate_mbps]  # 0: a trace without writes, no band to sample
