"""Entry point of the ``pcm-planner`` command.

Subcommands are discovered from the modules of :mod:`cli.commands`. Each module defines
``NAME`` (the subcommand), ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Adding a subcommand is adding a module; nothing here changes. The
list of subcommands is documented in one place: ``pcm-planner --help``, built from them.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from pydantic import ValidationError

import cli.commands as _commands
from models import budget
from models.errors import INPUT_ERRORS, describe


def _discover():
    mods = []
    for info in sorted(pkgutil.iter_modules(_commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"cli.commands.{info.name}")
        if hasattr(mod, "NAME") and hasattr(mod, "run"):
            mods.append(mod)
    return mods


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pcm-planner",
        description="PCM Planner batch models: where phase-change memory and SCM pay off.",
        epilog="Every command prints CSV, or JSON with --format json (--output is an alias). Commands that "
               "read a trace take a file or a bundled name and --trace-format (default: auto-detect). "
               "Run 'pcm-planner COMMAND --help' for a command's options.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for mod in _discover():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=getattr(mod, "__doc__", None),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
        _add_budget_option(p)
        p.set_defaults(_run=mod.run)
    return parser


def _budget(text: str) -> int:
    try:
        return budget.parse_bytes(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _add_budget_option(p: argparse.ArgumentParser) -> None:
    """``--memory-budget`` on every subcommand (one place: :mod:`models.budget` reads it for the run)."""
    p.add_argument(budget.CLI_OPTION, dest="memory_budget", type=_budget, default=None, metavar="SIZE",
                   help=f"memory a step may allocate before it refuses [bytes; 2GB, 512MiB; 0 or off: no budget] "
                        f"(default: ${budget.ENV_VAR}, else {budget.AVAILABLE_FRACTION:g} of the available memory, "
                        f"at most {budget.format_bytes(budget.DEFAULT_CAP_BYTES)})")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with budget.limit(args.memory_budget):
            return int(args._run(args) or 0)
    except INPUT_ERRORS as e:
        head = "invalid input\n" if isinstance(e, ValidationError) else ""
        print(f"pcm-planner {args.command}: {head}{describe(e)}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
