"""Simulate one cache replacement policy on a block trace.

  pcm-planner cache-sim mqsim:tpcc-small --policy clock --cache-blocks 4096
  pcm-planner cache-sim trace.gz --trace-format spc --policy ac --cache-blocks 1000,10000 --ghost-blocks 2000

Policies: lru, fifo, clock (second chance), ac (admission-controlled LRU: a block is cached
only on its second miss within a ghost window of --ghost-blocks ids, default the cache size).
Writes make cached blocks dirty; evicting a dirty block counts one writeback.

--uncertainty N adds band_of,p5,p50,p95 of hit_ratio equal to it: the counts depend on the trace,
the policy and the sizes only, no uncertain parameter (band_of says so; docs/uncertainty.md).
"""

from __future__ import annotations

import argparse

from cli.argtypes import whole_number
from cli.output import add_format_option, emit
from cli.traceopts import add_trace_options, load_trace_from_args
from cli.uncertainty import add_point_band, add_uncertainty_options

NAME = "cache-sim"
HELP = "simulate lru|fifo|clock|ac at a cache size (CSV columns policy,cache_blocks,...,hits,misses,writebacks,hit_ratio)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_trace_options(p, kind="block")
    p.add_argument("--policy", required=True, choices=["lru", "clock", "fifo", "ac"], help="replacement policy")
    p.add_argument("--cache-blocks", dest="cache_blocks", required=True,
                   help="cache size [blocks]; several as N,N,...")
    p.add_argument("--ghost-blocks", dest="ghost_blocks", type=whole_number, default=None,
                   help="ac: ghost-window length [blocks] (default: the cache size)")
    add_uncertainty_options(p, adds="band_of,p5,p50,p95 (of hit_ratio; no uncertain input: equal to it) columns")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models._base import results_frame
    from models.sim import simulate
    from models.traces.blocks import split_blocks

    try:
        sizes = [int(v) for v in str(args.cache_blocks).split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"--cache-blocks must be whole numbers of blocks (got {args.cache_blocks!r})") from None
    if not sizes:
        raise ValueError("--cache-blocks is empty")
    trace = load_trace_from_args(args, kind="block")
    acc = split_blocks(trace, args.block_size)
    results = [simulate(acc.block, c, args.policy, is_write=acc.is_write, ghost_blocks=args.ghost_blocks)
               for c in sizes]
    df = add_point_band(results_frame(results), args, "hit_ratio", "-",
                        "a simulation of the trace: no timing or cost parameter enters it")
    emit(df, args.output_format)
    return 0
