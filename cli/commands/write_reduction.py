"""Cells written per evicted page under NVM write-reduction schemes (seed 002 §5.1, Figure 8).

  pcm-planner write-reduction                       # bundled real page pairs (data/pages/page_pairs.npz)
  pcm-planner write-reduction --pages my_pairs.npz --details
  pcm-planner write-reduction --synthetic 2000 --seed 1

bytes_written_per_page = cells programmed / 8 (the baseline writes 4096); saving_vs_baseline =
1 - bytes / 4096. Make your own page pairs with data/pages/snapshot_pages.py.

--uncertainty N adds band_of,p5,p50,p95 of bytes_written_per_page equal to it: the cells written
are counted from the page contents with an exact 64-byte line, no uncertain parameter (the random
old content under DCW without PIN is --seed; docs/uncertainty.md).
"""

from __future__ import annotations

import argparse

from cli.argtypes import whole_number
from cli.output import add_format_option, emit
from cli.uncertainty import add_point_band, add_uncertainty_options

NAME = "write-reduction"
HELP = "bytes written per evicted page by scheme (CSV: scheme,bytes_written_per_page,saving_vs_baseline)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pages", default=None,
                   help="page-pair .npz (old/new n x 4096 uint8; default: bundled pages/page_pairs.npz)")
    p.add_argument("--synthetic", type=whole_number, default=0, metavar="N",
                   help="use N synthetic frequent-value page pairs instead of real pages")
    p.add_argument("--workload", default=None, help="only the pages of this workload of the file")
    p.add_argument("--no-pin-old", choices=("random", "other-page"), default="random",
                   help="old content under DCW without PIN (default random, as the paper)")
    p.add_argument("--metadata-in-nvm", action="store_true", help="write MFWR's bitmap and words to NVM too")
    p.add_argument("--details", action="store_true", help="add bits, lines and the paper's savings")
    p.add_argument("--seed", type=whole_number, default=0, help="seed (synthetic pages, random old content)")
    add_uncertainty_options(p, adds="band_of,p5,p50,p95 (of bytes_written_per_page; no uncertain input: equal to "
                                    "it) columns")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models.endurance.write_reduction import (
        load_page_pairs,
        synthetic_page_pairs,
        write_reduction_table,
    )

    if args.synthetic and args.pages:
        raise ValueError("give --pages or --synthetic, not both")
    if args.synthetic:
        pages = synthetic_page_pairs(args.synthetic, seed=args.seed)
    else:
        pages = load_page_pairs(args.pages or "pages/page_pairs.npz")
    if args.workload:
        pages = pages.select(args.workload)
    df = write_reduction_table(pages, no_pin_old=args.no_pin_old, metadata_in_nvm=args.metadata_in_nvm,
                               seed=args.seed)
    if not args.details:
        df = df[["scheme", "bytes_written_per_page", "saving_vs_baseline"]]
    df = add_point_band(df, args, "bytes_written_per_page", "bytes",
                        "cells counted from the page contents at the exact 64-byte line")
    emit(df, args.output_format)
    return 0
