"""File-cache break-even access count n* = (Tm - t)/(T - t) (Park & Bahn 2020, eq. 3).

Give the three times directly, or a device and block size to derive them:

  pcm-planner breakeven --t-ns 100 --T-ns 130 --Tm-ns 160
  pcm-planner breakeven --device optane-dcpmm --block-size 4096 --format json
"""

from __future__ import annotations

import argparse

from cli.output import add_format_option, emit

NAME = "breakeven"
HELP = ("file-cache break-even access count n* (CSV columns t_ns,T_ns,Tm_ns,n_star,hits_required; "
        "plus verdict when caching never pays)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--t-ns", dest="t_ns", type=float, help="access time from the file cache [ns]")
    p.add_argument("--T-ns", dest="T_ns", type=float, help="access time from storage [ns]")
    p.add_argument("--Tm-ns", dest="Tm_ns", type=float, help="storage access incl. cache insertion [ns]")
    p.add_argument("--device", action="append", default=[],
                   help="derive t, T, Tm from a catalogue device (repeatable)")
    p.add_argument("--block-size", type=int, default=4096, help="block size with --device [bytes]")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models.storage.file_cache import (
        BreakEvenInputs,
        break_even,
        break_even_table,
        timings_from_device,
    )

    rows = []
    given = [args.t_ns, args.T_ns, args.Tm_ns]
    if any(v is not None for v in given):
        if any(v is None for v in given):
            raise ValueError("give all of --t-ns, --T-ns and --Tm-ns (or use --device)")
        rows.append(("", BreakEvenInputs(t_ns=args.t_ns, T_ns=args.T_ns, Tm_ns=args.Tm_ns)))
    for name in args.device:
        rows.append((name, timings_from_device(name, args.block_size)))
    if not rows:
        raise ValueError("nothing to compute: give --t-ns/--T-ns/--Tm-ns or --device NAME")
    df = break_even_table([break_even(b) for _, b in rows])
    if args.device:
        df.insert(0, "device", [n for n, _ in rows])
    emit(df, args.output_format)
    return 0
