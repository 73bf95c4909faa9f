"""LRU hit-ratio (miss-ratio) curve of a block trace, exact or SHARDS-sampled.

  pcm-planner mrc mqsim:tpcc-small --points 20
  pcm-planner mrc trace.csv.gz --trace-format msr --block-size 8192 --sizes 1000,10000,100000
  pcm-planner mrc big.trace --shards 0.01 --points 50

Output columns ``cache_blocks,hit_ratio,byte_hit_ratio``: the LRU hit ratio of requests and
of bytes (each block access weighs the bytes of its request inside the block) for a cache
of that many blocks. Without --sizes/--points every size 1..footprint is listed.
"""

from __future__ import annotations

import argparse

from cli.output import add_format_option, emit
from cli.traceopts import add_trace_options, load_trace_from_args

NAME = "mrc"
HELP = "LRU hit-ratio curve of a trace (CSV columns cache_blocks,hit_ratio,byte_hit_ratio)"


def _int_list(text: str) -> list[int]:
    try:
        vals = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"--sizes must be comma-separated whole numbers of blocks (got {text!r})") from None
    if not vals:
        raise ValueError("--sizes is empty")
    return vals


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_trace_options(p, kind="block")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--sizes", type=str, default=None, help="cache sizes N,N,... [blocks]")
    g.add_argument("--points", type=int, default=None, help="K log-spaced sizes from 1 block to the footprint")
    p.add_argument("--shards", type=float, default=None, metavar="RATE",
                   help="SHARDS sampling rate in (0, 1] instead of the exact curve")
    p.add_argument("--seed", type=int, default=0, help="SHARDS hash seed (default 0)")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models.sim import hit_ratio_curve, shards_mrc
    from models.storage.file_cache_sim import access_bytes, log_sizes
    from models.traces.blocks import split_blocks

    trace = load_trace_from_args(args, kind="block")
    if len(trace) == 0:
        raise ValueError(f"{args.trace}: the trace has no requests")
    acc = split_blocks(trace, args.block_size)
    w = access_bytes(trace, acc)
    if args.sizes is not None:
        sizes = _int_list(args.sizes)
    elif args.points is not None:
        sizes = log_sizes(acc.n_unique, args.points)
    else:
        sizes = None
    if args.shards is not None:
        curve = shards_mrc(acc.block, rate=args.shards, sizes=sizes, weights=w, seed=args.seed)
    else:
        curve = hit_ratio_curve(acc.block, sizes=sizes, weights=w)
    emit(curve.to_frame(), args.output_format)
    return 0
