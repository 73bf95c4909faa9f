"""Shared ``--uncertainty N [--seed S]`` option of the model subcommands, and their uncertain models.

Usage in a subcommand module::

    from cli.uncertainty import add_uncertainty_options, add_band_columns

    def add_arguments(p):
        ...
        add_uncertainty_options(p)

    def run(args):
        df = ...
        df = add_band_columns(df, NAME, args, **context)   # no-op without --uncertainty
        emit(df, args.output_format)

With ``--uncertainty N`` every row gains ``band_of`` (the headline output the band is of,
with its unit) and ``p5,p50,p95`` over N samples of the row's uncertain inputs
(:mod:`models.uncertainty`). :func:`uncertain_models` builds the row models of a
subcommand from its parsed options; ``pcm-planner sensitivity`` uses the same builders.
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from cli.argtypes import whole_number, whole_within

__all__ = ["BAND_COLUMNS", "add_uncertainty_options", "add_band_columns", "add_point_band", "uncertain_models",
           "MODELS", "NO_UNCERTAIN_INPUT"]

#: Columns added by ``--uncertainty``.
BAND_COLUMNS = ["band_of", "p5", "p50", "p95"]
#: Subcommands with an uncertainty adapter.
MODELS = ("breakeven", "lifetime", "amat", "memext", "writecache", "hdd", "workload")
#: ``band_of`` prefix of a command whose outputs depend on no uncertain input (the band is the point).
NO_UNCERTAIN_INPUT = "no uncertain input"


def add_uncertainty_options(p: argparse.ArgumentParser, *, samples_option: str = "--uncertainty",
                            adds: str = "band_of,p5,p50,p95 columns") -> None:
    """Add ``--uncertainty N`` (or ``samples_option``), ``--sample-design`` and ``--seed S`` (unless the
    parser has one); ``adds`` says in the help what the option adds to the output."""
    p.add_argument(samples_option, dest="uncertainty", type=whole_within(1, 1_000_000, "samples"), default=0, metavar="N",
                   help=f"add {adds} from N samples of the uncertain inputs "
                        "(ranges from each value's provenance; docs/uncertainty.md)")
    if "--seed" not in p._option_string_actions:
        p.add_argument("--seed", type=whole_number, default=0, help="seed of the uncertainty samples (default 0)")
    p.add_argument("--sample-design", dest="sample_design", choices=["sobol", "lhs"], default="sobol",
                   help="design of the uncertainty samples: scrambled Sobol' (default) or Latin hypercube")


def _device(name):
    from cli.memext_devices import ALIASES
    from models.devices import get_device

    return get_device(ALIASES.get(name, name))


def uncertain_models(command: str, args: argparse.Namespace, **context) -> list:
    """The :class:`~models.uncertainty.UncertainModel` of every output row of ``command`` (None
    for rows without one), built from the parsed options ``args`` and the objects the command
    already computed (``context``: ``trace``, ``profile``, ``runs``, ...)."""
    from models.uncertainty import adapters as A

    if command == "breakeven":
        out = []
        if args.t_ns is not None:
            out.append(A.breakeven_model(t_ns=args.t_ns, T_ns=args.T_ns, Tm_ns=args.Tm_ns))
        for name in args.device:
            out.append(A.breakeven_model(device=name, block_size_bytes=args.block_size,
                                         insertion=getattr(args, "insertion", None)))
        return out
    if command == "lifetime":
        return [A.lifetime_model(capacity_bytes=args.capacity_gb * 1e9, endurance_writes_per_cell=args.endurance,
                                 write_rate_bytes_per_s=w * 1e6, wear_efficiency=args.wear_efficiency)
                for w in args.write_rate_mbps]
    if command == "amat":
        prof, inputs, table = context["profile"], context["inputs"], context["table"]
        return [A.amat_model(prof, inputs, page_size=int(ps)) for ps in table["page_size"]]
    if command == "memext":
        return [A.memext_model(context["stream"], cfg, device=dev, baseline=None, result=r)
                for cfg, dev, r in context["runs"]]
    if command == "writecache":
        trace, table = context["trace"], context["table"]
        out = []
        for r in table.itertuples():
            if r.policy == "none":
                out.append(None)
            else:
                out.append(A.writecache_model(trace, cache_mb=float(r.cache_mb), policy=r.policy, drive=args.drive,
                                              lru_granularity=getattr(args, "lru_granularity", "sector"),
                                              halo_inputs=context.get("halo_inputs", False)))
        return out
    if command == "hdd":
        return [A.hdd_model(d, size_bytes=args.size_bytes) for d in args.device]
    if command == "workload":
        w = context["workload"]
        return [A.workload_model(w, c, threads=w.nthreads) for c in context["configs"]]
    raise KeyError(f"no uncertainty adapter for {command!r}; available: {', '.join(MODELS)}")


def add_band_columns(df: pd.DataFrame, command: str, args: argparse.Namespace, **context) -> pd.DataFrame:
    """``df`` with ``band_of,p5,p50,p95`` columns when ``--uncertainty N`` was given (else unchanged)."""
    n = getattr(args, "uncertainty", 0) or 0
    if not n:
        return df
    from models.uncertainty import analyze

    models = uncertain_models(command, args, **context)
    if len(models) != len(df):
        raise RuntimeError(f"{command}: {len(models)} uncertainty models for {len(df)} rows")
    band = {c: [] for c in BAND_COLUMNS}
    for m in models:
        if m is None:
            band["band_of"].append("")
            for c in ("p5", "p50", "p95"):
                band[c].append(np.nan)
            continue
        r = analyze(m, n=n, seed=args.seed, method=getattr(args, "sample_design", "sobol"))
        band["band_of"].append(f"{m.output} [{m.unit}]")
        band["p5"].append(r.p5)
        band["p50"].append(r.p50)
        band["p95"].append(r.p95)
    out = df.copy()
    for c in BAND_COLUMNS:
        out[c] = band[c]
    return out


def add_point_band(df: pd.DataFrame, args: argparse.Namespace, column: str, unit: str, why: str) -> pd.DataFrame:
    """``df`` with ``band_of,p5,p50,p95`` for a command whose outputs depend on no uncertain input.

    With ``--uncertainty N``: ``p5 = p50 = p95 =`` the point value of ``column`` (exactly, whatever N
    and the seed) and ``band_of = "<column> [<unit>]: no uncertain input (<why>)"``, so the
    option says why there is no spread instead of being ignored. Without it ``df`` unchanged.
    """
    if not (getattr(args, "uncertainty", 0) or 0):
        return df
    out = df.copy()
    out["band_of"] = f"{column} [{unit}]: {NO_UNCERTAIN_INPUT} ({why})"
    v = pd.to_numeric(out[column], errors="coerce")
    for c in ("p5", "p50", "p95"):
        out[c] = v
    return out
