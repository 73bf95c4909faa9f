"""Validation ledger: every claim of the five seed papers, computed by running the models.

Each row is one quantitative or directional claim with the paper's value, ours (computed on
the bundled data named in ``data``), the rule's status and, when not reproduced, the reason.
Progress goes to stderr.

  pcm-planner validate                                  # CSV, all claims
  pcm-planner validate --seed 003 --status "not reproduced"
  pcm-planner validate --format md > docs/VALIDATION.md
  pcm-planner validate --write                          # docs/VALIDATION.md, ledger.csv, README summary
"""

from __future__ import annotations

import argparse
import sys

NAME = "validate"
HELP = ("validation ledger of the seed papers' claims (CSV columns claim_id,seed,where,statement,paper_value,"
        "our_value,unit,status,circular,reason,data)")

_SEEDS = ("000", "001", "002", "003", "004")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from models.validation.rules import STATUSES

    p.add_argument("--seed", action="append", choices=_SEEDS, default=[],
                   help="only this seed's claims (repeatable)")
    p.add_argument("--status", action="append", choices=STATUSES, default=[],
                   help="only claims with this status (repeatable)")
    p.add_argument("--claim", action="append", default=[], metavar="ID", help="only this claim id (repeatable)")
    p.add_argument("--format", dest="output_format", choices=("csv", "json", "md"), default="csv",
                   help="output format (default csv; md = the docs/VALIDATION.md document)")
    p.add_argument("--write", action="store_true",
                   help="run every claim and write docs/VALIDATION.md, models/validation/ledger.csv and the README "
                        "summary (what `make validate` does); nothing on stdout")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _progress(quiet: bool):
    if quiet:
        return None

    def report(k: int, n: int, claim, seconds: float | None) -> None:
        if seconds is None:
            print(f"validate [{k:3d}/{n}] {claim.claim_id} ...", end="", file=sys.stderr, flush=True)
        else:
            print(f" {seconds:.1f} s", file=sys.stderr, flush=True)

    return report


def run(args: argparse.Namespace) -> int:
    from cli.output import emit
    from models.validation import (
        ledger_frame,
        render_markdown,
        run_ledger,
        select_claims,
        write_outputs,
    )
    from models.validation.rules import ERROR

    if args.write and (args.seed or args.status or args.claim):
        raise ValueError("--write regenerates the whole ledger: drop --seed, --status and --claim")
    claims = select_claims(seeds=args.seed or None, ids=args.claim or None)
    results = run_ledger(claims, progress=_progress(args.quiet))
    errors = [r for r in results if r.status == ERROR]
    for r in errors:
        print(f"pcm-planner validate: {r.claim.claim_id}: {r.reason}", file=sys.stderr)
    if args.write:
        if errors:
            print("pcm-planner validate: not writing the ledger while claims fail", file=sys.stderr)
            return 1
        for path in write_outputs(results):
            print(f"wrote {path}", file=sys.stderr)
        return 0
    if args.status:
        results = [r for r in results if r.status in args.status]
    if args.output_format == "md":
        sys.stdout.write(render_markdown(results))
    else:
        emit(ledger_frame(results), args.output_format)
    return 1 if errors else 0
