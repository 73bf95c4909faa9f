"""Which input decides a model's answer: tornado table and Sobol' indices (docs/uncertainty.md).

  pcm-planner sensitivity breakeven --device optane-dcpmm
  pcm-planner sensitivity lifetime --capacity-gb 16 --endurance 1e7 --write-rate-mbps 1000 --samples 2000 --seed 1
  pcm-planner sensitivity writecache synthetic:fin1 --cache-mb 64 --sobol
  pcm-planner sensitivity memext sqlite --device pcm
  pcm-planner sensitivity amat sqlite --memory-frac 0.25 --latency-multiple 100 --page-sizes 4k
  pcm-planner sensitivity hdd --device hdd-7200
  pcm-planner sensitivity workload --personality varmail --config pcm-dax --samples 128

MODEL takes the options of its subcommand (see 'pcm-planner MODEL --help'; hdd: --device, --size-bytes)
and analyses its first output row (first device, write rate, page size, cache size or configuration). Output: the
tornado table, columns parameter,low,high,output_low,output_high,swing (each input at the ends of its
range with the others at their points, sorted by swing). With --sobol the tornado table is followed by
the first-order and total Sobol' indices, columns parameter,S1,ST (inputs that re-run a simulation have
empty indices: they are held at their point in the sampled band): in CSV as a second block after one
blank line (header parameter,S1,ST), in JSON as one object {"tornado": [records], "sobol": [records]}.
A summary line (point, p5-p95, verdict, decisive input) goes to stderr.
"""

from __future__ import annotations

import argparse
import sys

from cli.argtypes import whole_number
from cli.output import emit

NAME = "sensitivity"
HELP = ("tornado table (parameter,low,high,output_low,output_high,swing) and, with --sobol, then Sobol' indices "
        "(parameter,S1,ST) of a model's headline output")


def _commands() -> tuple[str, ...]:
    from cli.uncertainty import uncertainty_commands

    return uncertainty_commands()


def add_arguments(p: argparse.ArgumentParser) -> None:
    import importlib

    sub = p.add_subparsers(dest="model", metavar="MODEL", required=True)
    for m in _commands():
        mod = importlib.import_module(f"cli.commands.{m.replace('-', '_')}")
        sp = sub.add_parser(m, help=getattr(mod, "SENSITIVITY_HELP", mod.HELP),
                            description=__doc__ if hasattr(mod, "sensitivity_arguments") else mod.__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
        getattr(mod, "sensitivity_arguments", mod.add_arguments)(sp)
        sp.add_argument("--samples", type=whole_number, default=1000, help="samples of the band (default 1000)")
        if "--seed" not in sp._option_string_actions:
            sp.add_argument("--seed", type=whole_number, default=0, help="seed (default 0)")
        sp.add_argument("--sobol", action="store_true",
                        help="after the tornado table, print first-order and total Sobol' indices (parameter,S1,ST): "
                             "CSV: a second block after a blank line; JSON: one object {\"tornado\": [...], "
                             "\"sobol\": [...]}")


def _context(args: argparse.Namespace) -> dict:
    """The objects the row models need (one profile / simulation, as the subcommand computes): the subcommand
    module's ``sensitivity_context(args)``, when it has one."""
    import importlib

    mod = importlib.import_module(f"cli.commands.{args.model.replace('-', '_')}")
    return mod.sensitivity_context(args) if hasattr(mod, "sensitivity_context") else {}


def _check_args(args: argparse.Namespace) -> None:
    """The subcommand's own input checks (its module's ``check_args(args)``, which its ``run`` calls too): the
    analysis refuses what the model refuses."""
    import importlib

    mod = importlib.import_module(f"cli.commands.{args.model.replace('-', '_')}")
    if hasattr(mod, "check_args"):
        mod.check_args(args)


def run(args: argparse.Namespace) -> int:
    from cli.uncertainty import uncertain_models
    from models.uncertainty import SOBOL_COLUMNS, TORNADO_COLUMNS, analyze

    if not 1 <= args.samples <= 1_000_000:
        raise ValueError(f"--samples must be within 1..1,000,000 (got {args.samples})")
    _check_args(args)
    models = [m for m in uncertain_models(args.model, args, **_context(args)) if m is not None]
    if not models:
        raise ValueError(f"{args.model}: nothing to analyse with these options")
    m = models[0]
    r = analyze(m, n=args.samples, seed=args.seed, sobol=args.sobol)
    print(f"{m.model}: {m.label()} point {r.point:.6g}, p5 {r.p5:.6g}, p50 {r.p50:.6g}, p95 {r.p95:.6g} "
          f"({r.n} samples, seed {args.seed}). {r.sentence()}", file=sys.stderr)
    for note in r.notes:
        print(f"note: {note}", file=sys.stderr)
    tor = r.tornado[TORNADO_COLUMNS]
    if not args.sobol:
        emit(tor, args.output_format)
    elif args.output_format == "json":
        sys.stdout.write('{"tornado": ' + tor.to_json(orient="records", double_precision=15) + ', "sobol": '
                         + r.sobol[SOBOL_COLUMNS].to_json(orient="records", double_precision=15) + "}\n")
    else:  # two CSV blocks: the tornado table, a blank line, the Sobol' table
        emit(tor, "csv")
        sys.stdout.write("\n")
        emit(r.sobol[SOBOL_COLUMNS], "csv")
    return 0
