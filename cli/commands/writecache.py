"""PCM write cache in front of an HDD: HALO (seed 003 Algorithm 1), LRU or no cache.

  pcm-planner writecache synthetic:tpce --policy halo --cache-mb 64
  pcm-planner writecache trace.csv.gz --policy lru --cache-mb 512 --drive barracuda

TRACE is a file (any supported format) or a bundled name (mqsim:tpcc-small, synthetic:fin1, ...).
--drive: hdd-7200 (generic catalogue profile, default) or a bundled DiskSim drive.
--lru-granularity: sector (default; HALO's like for like: per-sector dirty bitmap as HALO's, the
same PCM space and write-back batching) or block (block-fill: partial write misses fill the
block from the HDD, whole 4 KiB blocks written back; a cache without per-sector valid bits).
--hdd-rotation: positioned (default; each HDD request's rotational latency from the platter angle
where the previous one ended) or expected (half a rotation per request, the earlier model).
--drive-cache: the HDD's own write-back buffer: none (default; seed 003 does not say whether its
disk's cache was on), spec (a DiskSim drive's own, from its description: atlas10k, barracuda,
cheetah4LP, ibm18es) or a size in bytes (e.g. 8e6).
--cache-mb is repeatable (a sweep). Output CSV columns:
policy,cache_mb,traffic_rate,mean_lbn_distance,hdd_throughput_mbps,exec_time_s,dram_bytes
"""

from __future__ import annotations

import argparse

from cli.argtypes import number, refusing
from cli.output import add_format_option, emit
from cli.traceopts import add_trace_options, load_trace_from_args
from cli.uncertainty import add_band_columns, add_uncertainty_options
from models.budget import reserve
from reporting.typed_numbers import parse_number

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
    p.add_argument("--hdd-rotation", dest="hdd_rotation", choices=["positioned", "expected"], default="positioned",
                   help="rotational latency of each HDD request: positioned (from the platter angle where the "
                        "previous request ended, so a sorted destage waits only for its gaps; default) or expected "
                        "(half a rotation per request, the earlier model)")
    p.add_argument("--drive-cache", dest="drive_cache", type=drive_cache_arg, default="none", metavar="none|spec|BYTES",
                   help="the HDD's own write-back buffer: none (default: seed 003 does not say whether its disk's "
                        "cache was on), spec (the DiskSim drive's own, from its description; atlas10k, barracuda, "
                        "cheetah4LP, ibm18es have one) or a size in bytes; it reports writes at buffer speed and "
                        "writes them to the media in the background (models.storage.hdd.write_buffer)")
    add_uncertainty_options(p)
    add_format_option(p)


def _drive_cache(text: str) -> str | float:
    key = text.strip().lower()
    if key in ("none", "spec"):
        return key
    try:
        size = parse_number(text)
    except ValueError:
        raise ValueError(f"expected none, spec or a size in bytes, got {text!r}") from None
    if size < 0:
        raise ValueError(f"a size in bytes must be >= 0, got {text!r}")
    return size


#: ``--drive-cache``'s type: ``none``, ``spec`` or a size in bytes (argparse names the option on a bad value).
drive_cache_arg = refusing(_drive_cache)


def _band_model_options(args: argparse.Namespace, what: str) -> None:
    """ValueError if ``args`` time the HDD stream otherwise than the uncertainty model does."""
    if getattr(args, "hdd_rotation", "positioned") != "positioned" or getattr(args, "drive_cache", "none") not in ("none", 0):
        raise ValueError(f"{what} are computed with --hdd-rotation positioned and --drive-cache none; drop "
                         "--hdd-rotation/--drive-cache or ask without them")


def run(args: argparse.Namespace) -> int:
    from models.storage.write_cache import sweep_cache_sizes

    if args.uncertainty:
        _band_model_options(args, "--uncertainty bands")
    trace = load_trace_from_args(args, kind="block")
    try:
        with reserve(trace.nbytes, f"the trace {trace.name!r}"):  # held while the trace is cut and simulated
            sweep = sweep_cache_sizes(trace, args.cache_mb, policies=args.policy or ["halo"], drive=args.drive,
                                      lru_granularity=args.lru_granularity, hdd_rotation=args.hdd_rotation,
                                      drive_cache=args.drive_cache)
    except ValueError as e:
        if str(e).startswith("drive cache"):
            raise ValueError(f"--drive-cache: {e}") from None
        raise
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

    _band_model_options(args, "sensitivity indices")
    req = prepare_requests(load_trace_from_args(args, kind="block"))
    policy = next((p for p in (args.policy or ["halo"]) if p != "none"), None)
    if policy is None:
        raise ValueError("--policy none has no cache to analyse: give --policy halo or lru")
    size = sweep_sizes_mb(req, args.cache_mb)[0]
    return {"trace": req, "table": pd.DataFrame({"policy": [policy], "cache_mb": [size]}), "halo_inputs": True}
