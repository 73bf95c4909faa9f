"""PCM write cache in front of an HDD: HALO (seed 003 Algorithm 1), LRU or no cache.

  pcm-planner writecache synthetic:tpce --policy halo --cache-mb 64
  pcm-planner writecache trace.csv.gz --policy lru --cache-mb 512 --drive barracuda

TRACE is a file (any supported format) or a bundled name (mqsim:tpcc-small, synthetic:fin1, ...).
--drive: hdd-7200 (generic catalogue profile, default) or a bundled DiskSim drive.
--lru-granularity: sector (default; HALO's like for like: per-sector dirty bitmap as HALO's, the
same PCM space and write-back batching) or block (block-fill: partial write misses fill the
block from the HDD, whole 4 KiB blocks written back; a cache without per-sector valid bits).
--cache-mb is repeatable (a sweep). Output CSV columns:
policy,cache_mb,traffic_rate,mean_lbn_distance,hdd_throughput_mbps,exec_time_s,dram_bytes
"""

from __future__ import annotations

import argparse

from cli.argtypes import number
from cli.output import add_format_option, emit
from cli.traceopts import add_trace_options, load_trace_from_args
from cli.uncertainty import add_band_columns, add_uncertainty_options

NAME = "writecache"
HELP = "PCM write cache (HALO/LRU/none) before an HDD (CSV policy,cache_mb,traffic_rate,...)"

COLUMNS = ["policy", "cache_mb", "traffic_rate", "mean_lbn_distance", "hdd_throughput_mbps", "exec_time_s",
           "dram_bytes"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_trace_options(p, block_size=False)
    p.add_argument("--policy", action="append", choices=["halo", "lru", "none"], default=None,
                   help="cache policy (repeatable; default halo)")
    p.add_argument("--cache-mb", dest="cache_mb", type=number, action="append", default=None,
                   help="PCM cache size [MB = 2^20 bytes] (repeatable; default: the paper's sizes "
                        "scaled to the trace footprint)")
    p.add_argument("--drive", default="hdd-7200", help="HDD profile: hdd-7200 or a DiskSim drive name")
    p.add_argument("--lru-granularity", dest="lru_granularity", choices=["sector", "block"], default="sector",
                   help="LRU baseline: sector (HALO's like for like: per-sector dirty bitmap, no fill; "
                        "default) or block (block-fill: partial blocks filled from the HDD, whole 4 KiB "
                        "blocks written back, for a cache without per-sector valid bits)")
    add_uncertainty_options(p)
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models.storage.write_cache import sweep_cache_sizes

    trace = load_trace_from_args(args, kind="block")
    sweep = sweep_cache_sizes(trace, args.cache_mb, policies=args.policy or ["halo"], drive=args.drive,
                              lru_granularity=args.lru_granularity)
    table = sweep.to_frame()[COLUMNS]
    emit(add_band_columns(table, NAME, args, trace=trace, table=table), args.output_format)
    return 0


def uncertain_models(adapter, args: argparse.Namespace, *, trace, table, halo_inputs: bool = False,
                     **context) -> list:
    """The uncertainty model of each output row (None for the no-cache rows; ``adapter``: the writecache
    spec's)."""
    return [None if r.policy == "none" else
            adapter(trace, cache_mb=float(r.cache_mb), policy=r.policy, drive=args.drive,
                    lru_granularity=getattr(args, "lru_granularity", "sector"), halo_inputs=halo_inputs)
            for r in table.itertuples()]


def sensitivity_context(args: argparse.Namespace) -> dict:
    """What :func:`uncertain_models` needs for ``pcm-planner sensitivity writecache``: the first cached policy
    at the first size, with HALO's thresholds as inputs."""
    import pandas as pd

    from models.storage.write_cache import prepare_requests, sweep_sizes_mb

    req = prepare_requests(load_trace_from_args(args, kind="block"))
    policy = next((p for p in (args.policy or ["halo"]) if p != "none"), None)
    if policy is None:
        raise ValueError("--policy none has no cache to analyse: give --policy halo or lru")
    size = sweep_sizes_mb(req, args.cache_mb)[0]
    return {"trace": req, "table": pd.DataFrame({"policy": [policy], "cache_mb": [size]}), "halo_inputs": True}
