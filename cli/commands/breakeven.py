"""File-cache break-even access count n* = (Tm - t)/(T - t) (Park & Bahn 2020, eq. 3).

Give the three times directly, or a device and block size to derive them:

  pcm-planner breakeven --t-ns 100 --T-ns 130 --Tm-ns 160
  pcm-planner breakeven --device optane-dcpmm --block-size 4096 --format json
  pcm-planner breakeven --device optane-dcpmm --insertion first-touch
  pcm-planner breakeven --device optane-dcpmm --storage-path paper-factor

--insertion picks the insertion cost Tm - T with --device: "steady" (default; a buffered
miss into a full page cache minus a direct read, measured on a memory-speed block device)
or "first-touch" (pwrite() into a not yet cached tmpfs region, the earlier upper bound).
--storage-path picks how t and the storage access time T on DRAM-speed storage are obtained with
--device: "same-run" (default; the page-cache hit and O_DIRECT read measured in the insertion cost's
own runs on zram; 4096-65536-byte blocks only: another --block-size is refused, naming the measured range
and --storage-path paper-factor, also when --storage-path is not given) or "paper-factor" (T = 1.3 t, the
paper's Figure 1 factor, assumed here and circular for that figure). The device's extra time over DRAM is
added in both. Every row has a verdict ("pays after N hits" or "never pays: ..."); with --device the
rows end with the insertion model, and with the storage path when --storage-path is given.
"""

from __future__ import annotations

import argparse

from cli.argtypes import number, whole_number
from cli.output import add_format_option, emit
from cli.uncertainty import add_band_columns, add_uncertainty_options
from models.storage.file_cache import DEFAULT_STORAGE_PATH, STORAGE_PATH_LABELS, STORAGE_PATHS

NAME = "breakeven"
HELP = ("file-cache break-even access count n* (CSV columns t_ns,T_ns,Tm_ns,n_star,hits_required,verdict; "
        "with --device also device first and insertion last, then storage_path when --storage-path is given)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--t-ns", dest="t_ns", type=number, help="access time from the file cache [ns]")
    p.add_argument("--T-ns", dest="T_ns", type=number, help="access time from storage [ns]")
    p.add_argument("--Tm-ns", dest="Tm_ns", type=number, help="storage access incl. cache insertion [ns]")
    p.add_argument("--device", action="append", default=[],
                   help="derive t, T, Tm from a catalogue device (repeatable)")
    p.add_argument("--block-size", type=whole_number, default=4096, help="block size with --device [bytes]")
    p.add_argument("--insertion", choices=["steady", "first-touch"], default="steady",
                   help="insertion-cost model with --device: steady (default, LRU steady state) or first-touch")
    p.add_argument("--storage-path", dest="storage_path", choices=list(STORAGE_PATHS), default=None,
                   help="how t and T on DRAM-speed storage are obtained with --device: "
                        + "; ".join(f"{k}: {v}" for k, v in STORAGE_PATH_LABELS.items())
                        + f" (default {DEFAULT_STORAGE_PATH})")
    add_uncertainty_options(p)
    add_format_option(p)


def check_args(args: argparse.Namespace) -> None:
    """The input checks of ``breakeven`` (run by :func:`run` and by ``sensitivity breakeven``): the three
    typed times together, each within the model's range."""
    from models.storage.file_cache import BreakEvenInputs, check_storage_path

    given = [args.t_ns, args.T_ns, args.Tm_ns]
    if any(v is not None for v in given):
        if any(v is None for v in given):
            raise ValueError("give all of --t-ns, --T-ns and --Tm-ns (or use --device)")
        BreakEvenInputs(t_ns=args.t_ns, T_ns=args.T_ns, Tm_ns=args.Tm_ns)
    if args.device:
        check_storage_path(_storage_path(args), args.block_size, option="--storage-path")


def _storage_path(args: argparse.Namespace) -> str:
    """The --storage-path given (the default when the namespace has none: ``sensitivity breakeven``)."""
    return getattr(args, "storage_path", None) or DEFAULT_STORAGE_PATH


def run(args: argparse.Namespace) -> int:
    from models.storage.file_cache import (
        BreakEvenInputs,
        break_even,
        break_even_table,
        timings_from_device,
    )

    check_args(args)
    rows = []
    if args.t_ns is not None:
        rows.append(("", BreakEvenInputs(t_ns=args.t_ns, T_ns=args.T_ns, Tm_ns=args.Tm_ns)))
    for name in args.device:
        rows.append((name, timings_from_device(name, args.block_size, insertion=args.insertion,
                                               storage_path=_storage_path(args))))
    if not rows:
        raise ValueError("nothing to compute: give --t-ns/--T-ns/--Tm-ns or --device NAME")
    df = break_even_table([break_even(b) for _, b in rows])
    if args.device:
        df.insert(0, "device", [n for n, _ in rows])
        df["insertion"] = [args.insertion if n else "" for n, _ in rows]
        if args.storage_path is not None:  # an extension: the default output keeps its columns
            df["storage_path"] = [args.storage_path if n else "" for n, _ in rows]
    emit(add_band_columns(df, NAME, args), args.output_format)
    return 0


def uncertain_models(adapter, args: argparse.Namespace, **context) -> list:
    """The uncertainty model of each output row (``adapter``: the breakeven spec's, :mod:`models.spec`)."""
    out = []
    if args.t_ns is not None:
        out.append(adapter(t_ns=args.t_ns, T_ns=args.T_ns, Tm_ns=args.Tm_ns))
    for name in args.device:
        out.append(adapter(device=name, block_size_bytes=args.block_size, insertion=getattr(args, "insertion", None),
                           storage_path=_storage_path(args)))
    return out
