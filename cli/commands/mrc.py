"""Hit-ratio (miss-ratio) curve of a block trace for LRU, FIFO, CLOCK or the AC cache; exact or sampled.

  pcm-planner mrc mqsim:tpcc-small --points 20
  pcm-planner mrc trace.csv.gz --trace-format msr --block-size 8192 --sizes 1000,10000,100000
  pcm-planner mrc big.trace --method shards --rate 0.01 --points 50     (old spelling: --shards 0.01)
  pcm-planner mrc big.trace --method shards --max-samples 8192          (fixed-size SHARDS)
  pcm-planner mrc big.trace --policy clock --method minisim --rate 0.01 --points 20
  pcm-planner mrc big.trace --by bytes --points 30                      (variable object sizes)

Methods: ``exact`` (LRU: one stack-distance pass for every size; fifo/clock/ac: one full
simulation per size), ``shards`` (LRU only: spatially sampled stack distances, fixed rate
``--rate`` or fixed size ``--max-samples``) and ``minisim`` (any policy: miniature caches scaled
by ``--rate`` on the spatial sample).

``--by requests`` (default): the trace is split into ``--block-size`` blocks; output columns
``cache_blocks,hit_ratio,byte_hit_ratio,method``: the hit ratio of block accesses and of bytes
(each block access weighs the bytes of its request inside the block) for a cache of that many
blocks. Without --sizes/--points every size 1..footprint is listed for LRU exact/shards, 50
log-spaced sizes otherwise.

Exact LRU of a trace of large requests (a mean of 1,024 blocks or more, or more block accesses than the
memory budget holds): the same curve computed per run of blocks (:mod:`models.traces.extents`), never
expanded block by block -- 95 requests of 4 GiB take ~0.2 GB; every size 1..footprint is still charged per
size (ask for ``--points`` or ``--sizes``). Other policies and methods expand the blocks (budget refusal).

``--by bytes``: every request is one object (keyed by device and offset) of its own size;
columns ``cache_bytes,hit_ratio,byte_hit_ratio,method`` for a cache of that many bytes
(``--sizes`` in bytes; default 50 log-spaced capacities): ``--policy lru`` with method exact or
shards, ``fifo``/``clock`` with method exact or minisim.

Streaming: a trace *file* with ``--policy lru`` and ``--method exact`` or ``shards`` (fixed rate or fixed
size), ``--by requests``, is read in blocks (:mod:`models.traces.stream_mrc`): no request limit, memory bounded by the
distinct blocks (exact) or the sample (shards), the exact curve equal to the in-memory one. When the exact
state would pass the run's memory budget, the curve is SHARDS at a rate that fits: the ``method`` column says
``shards`` and stderr gives the rate and the reason (``--memory-budget``). ``--progress`` shows the read on
stderr. The other policies and methods (and bundled traces) read the trace whole, within the run's memory budget
(``--memory-budget``; ``--max-requests N`` reads the first N).

``--uncertainty N`` adds ``band_of,p5,p50,p95`` of hit_ratio equal to it: the curve depends on the
trace, the policy and the sizes only, no uncertain parameter (band_of says so; the sampling error of
shards/minisim is not this band). docs/uncertainty.md.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from cli.argtypes import number, whole_number
from cli.output import add_format_option, emit
from cli.progress import add_progress_option, read_progress
from cli.traceopts import add_trace_options, load_trace_from_args
from cli.uncertainty import add_point_band, add_uncertainty_options
from models.budget import BudgetExceeded, reserve

NAME = "mrc"
HELP = "hit-ratio curve of a trace for lru/fifo/clock/ac, exact or sampled (columns cache_blocks,hit_ratio,byte_hit_ratio,method)"


def _int_list(text: str, unit: str = "blocks") -> list[int]:
    try:
        vals = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"--sizes must be comma-separated whole numbers of {unit} (got {text!r})") from None
    if not vals:
        raise ValueError("--sizes is empty")
    return vals


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_trace_options(p, kind="block")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--sizes", type=str, default=None,
                   help="cache sizes N,N,... [blocks; bytes with --by bytes]")
    g.add_argument("--points", type=whole_number, default=None, help="K log-spaced sizes from 1 block (or the smallest "
                   "object) to the footprint")
    p.add_argument("--policy", default="lru", help="replacement policy: lru, fifo, clock or ac (default lru)")
    p.add_argument("--method", default=None, help="exact, shards (LRU only) or minisim (default exact)")
    p.add_argument("--rate", type=number, default=None,
                   help="sampling rate in (0, 1] of --method shards/minisim (default 0.01; the starting rate, 1, "
                        "with --max-samples)")
    p.add_argument("--max-samples", dest="max_samples", type=whole_number, default=None,
                   help="fixed-size SHARDS: track at most this many sampled blocks (--method shards)")
    p.add_argument("--min-blocks", dest="min_blocks", type=whole_number, default=None,
                   help="--method minisim: smallest miniature cache [blocks]; smaller scaled sizes run on a denser "
                        "nested sample (default 0 = off)")
    p.add_argument("--by", default="requests", help="requests (block accesses, default) or bytes "
                   "(variable-size objects: lru, fifo, clock)")
    p.add_argument("--shards", type=number, default=None, metavar="RATE",
                   help="old spelling of --method shards --rate RATE")
    p.add_argument("--seed", type=whole_number, default=0, help="hash seed of the sampled methods (default 0)")
    add_uncertainty_options(p, adds="band_of,p5,p50,p95 (of hit_ratio; no uncertain input: equal to it) columns")
    add_format_option(p)
    add_progress_option(p)


def _resolve(args) -> tuple[str, str, float, str]:
    """(policy, method, rate, by) from the options, with clear errors for unsupported combinations."""
    from models.sim.mrc import check_method
    from models.sim.sampling import check_rate

    method = args.method
    rate = args.rate
    if args.shards is not None:
        if method not in (None, "shards"):
            raise ValueError(f"--shards RATE means --method shards; it cannot be combined with --method {method}")
        if rate is not None and rate != args.shards:
            raise ValueError("--shards RATE and --rate disagree: give the rate once (--method shards --rate R)")
        method, rate = "shards", args.shards
    if method is None:
        method = "shards" if args.max_samples is not None else "exact"
    by = str(args.by).lower()
    if by not in ("requests", "bytes"):
        raise ValueError(f"--by must be 'requests' or 'bytes' (got {args.by!r})")
    policy, method = check_method(args.policy, method, by=by)
    if method == "exact" and rate is not None:
        raise ValueError("--rate applies to --method shards or minisim, not to the exact curve")
    if args.max_samples is not None:
        if method != "shards" or by != "requests":
            raise ValueError("--max-samples (fixed-size SHARDS) applies to --method shards with --by requests only")
        if args.max_samples < 1:
            raise ValueError(f"--max-samples must be >= 1 (got {args.max_samples})")
    if args.min_blocks is not None:
        if method != "minisim" or by != "requests":
            raise ValueError("--min-blocks applies to --method minisim with --by requests only")
        if args.min_blocks < 0:
            raise ValueError(f"--min-blocks must be >= 0 (got {args.min_blocks})")
    if rate is None:  # fixed-size SHARDS starts from the full trace and lowers the rate as needed
        rate = 1.0 if args.max_samples is not None else 0.01
    rate = check_rate(rate, name="--rate")
    return policy, method, rate, by


def _extent_curve(trace, args):
    """The exact LRU curve per extent (:mod:`models.traces.extent_mrc`): equal to the block split's, without it."""
    from models.sim.stack_distance import log_sizes
    from models.traces.extent_mrc import extent_hit_ratio_curve
    from models.traces.extents import extent_pieces

    if args.sizes is not None:
        return extent_hit_ratio_curve(trace, args.block_size, sizes=_int_list(args.sizes))
    if args.points is None:
        return extent_hit_ratio_curve(trace, args.block_size)
    p = extent_pieces(trace, args.block_size)
    return extent_hit_ratio_curve(trace, args.block_size, sizes=log_sizes(p.footprint_blocks, args.points), pieces=p)


#: What the refusal of a long trace says streams.
_STREAMS = ("--policy lru with --method exact or --method shards (--rate R or --max-samples S; --by requests) "
            "streams a trace file of any length")


def _streamed(args, method: str, rate: float):
    """``(curve, method)`` of a trace file read in blocks (:func:`models.traces.stream_mrc.stream_lru_mrc`), or
    None for a memory-reference trace or large requests (read whole)."""
    from cli.traceopts import format_options, trace_reader_options
    from models.traces.stream_mrc import LargeExtents, budget_note, stream_lru_mrc

    fmt = getattr(args, "trace_format", "auto") or "auto"
    opts = format_options(fmt, trace_reader_options(args))
    progress = read_progress(args, args.trace)
    sizes = _int_list(args.sizes) if args.sizes is not None else None
    try:
        curve, _, fallback = stream_lru_mrc(
            args.trace, args.block_size, format=fmt, sizes=sizes, points=args.points,
            sample_rate=None if method == "exact" else rate, seed=args.seed, progress=progress,
            on_requests=progress and progress.add_requests, max_requests=args.max_requests,
            max_samples=args.max_samples, **opts)
    except LargeExtents:  # large requests (or keys past the streamed range): read whole, the same curve
        return None
    if curve is None:
        return None
    if fallback is not None:
        print(f"{args.trace}: {budget_note(fallback)}", file=sys.stderr)
        method = "shards"
    return curve, method


def _load(args, policy: str, method: str, by: str):
    """The whole trace (:func:`cli.traceopts.load_trace_from_args`); a refusal of a long trace names the methods
    that stream."""
    try:
        return load_trace_from_args(args, kind="block")
    except BudgetExceeded as e:
        raise BudgetExceeded(f"{e}. pcm-planner mrc --policy {policy} --method {method} --by {by} reads the trace "
                             f"whole; {_STREAMS}") from None


def run(args: argparse.Namespace) -> int:
    policy, method, rate, by = _resolve(args)
    if args.points is not None and args.points < 1:
        raise ValueError(f"--points must be >= 1 (got {args.points})")
    if by == "requests" and policy == "lru" and method in ("exact", "shards") and os.path.isfile(args.trace):
        from models.traces.blocks import check_block_size

        check_block_size(args.block_size)
        streamed = _streamed(args, method, rate)
        if streamed is not None:
            return _emit(*streamed, args)
    trace = _load(args, policy, method, by)
    with reserve(trace.nbytes, f"the trace {trace.name!r}"):  # held while the curve is computed
        return _curve(args, trace, policy, method, rate, by)


def _curve(args: argparse.Namespace, trace, policy: str, method: str, rate: float, by: str) -> int:
    """The curve of the whole ``trace`` (``run``'s work once the trace is read whole)."""
    if by == "bytes":
        from models.sim.byte_mrc import byte_mrc

        key = np.stack([np.asarray(trace.device, np.int64), np.asarray(trace.offset_bytes, np.int64)], axis=1)
        _, ids = np.unique(key, axis=0, return_inverse=True)
        caps = _int_list(args.sizes, "bytes") if args.sizes is not None else None
        curve = byte_mrc(ids.reshape(-1), np.asarray(trace.size_bytes, np.int64), capacities=caps,
                         points=args.points or 50, method=method, rate=rate, seed=args.seed, policy=policy)
    else:
        from models.sim.mrc import EXACT_BYTES_PER_ACCESS, policy_mrc
        from models.sim.primitives import access_bytes
        from models.sim.stack_distance import log_sizes
        from models.traces.blocks import check_block_size, split_blocks
        from models.traces.extents import use_extents

        if policy == "lru" and method == "exact" and \
                use_extents(trace, check_block_size(args.block_size), EXACT_BYTES_PER_ACCESS):
            return _emit(_extent_curve(trace, args), method, args)  # large requests: per run of blocks, the same curve
        # an exact curve is charged its whole memory before the split expands anything
        acc = split_blocks(trace, args.block_size, **({"bytes_per_access": EXACT_BYTES_PER_ACCESS}
                                                       if method == "exact" else {}))
        w = access_bytes(trace, acc)
        if args.sizes is not None:
            sizes = _int_list(args.sizes)
        elif args.points is not None:
            sizes = log_sizes(acc.n_unique, args.points)
        else:
            sizes = None
        curve = policy_mrc(acc.block, policy=policy, method=method, rate=rate, sizes=sizes, weights=w,
                           seed=args.seed, max_samples=args.max_samples, min_blocks=args.min_blocks)
    return _emit(curve, method, args)


def _emit(curve, method: str, args) -> int:
    """Print the curve's columns with ``method`` (and the point band of ``--uncertainty``)."""
    df = curve.to_frame()
    df["method"] = method
    df = add_point_band(df, args, "hit_ratio", "-", "the curve of the trace: no timing or cost parameter enters it")
    emit(df, args.output_format)
    return 0
