"""Filebench personality on a storage configuration: throughput and latency (seed 000).

  pcm-planner workload --personality varmail                 # the paper's five cases + pcm-dax
  pcm-planner workload --personality varmail --config pcm-dax
  pcm-planner workload --personality fileserver --config hdd --config pcm-dax --threads 16
  pcm-planner workload --personality my_workload.f --config ssd --iosize 4096 --files-scale 0.1

A bundled personality (fileserver, webserver, webproxy, varmail) gets seed 000's Table 1
configuration (100K/50K files, 50 threads, 1 MB reads, 16 KB appends) unless --raw is
given; other names and .f files are used as written.

--uncertainty N [--seed S] adds band_of,p5,p50,p95 of ops_per_s: every sample re-evaluates the model
on the configuration with that sample's device latencies/bandwidths, page cache, VM overhead and
SSD parallelism (ranges from their provenance; ~5-10 ms per sample and configuration; the measured
system-call and fsync costs are held: docs/uncertainty.md). ``pcm-planner sensitivity workload ...``
gives the tornado of the first configuration.
"""

from __future__ import annotations

import argparse

from cli.argtypes import number, whole_number
from cli.output import add_format_option, emit
from cli.uncertainty import add_band_columns, add_uncertainty_options

NAME = "workload"
HELP = "Filebench personality throughput/latency (CSV columns personality,config,threads,ops_per_s,latency_ms)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--personality", required=True,
                   help="fileserver|webserver|webproxy|varmail (or another bundled name) or a path to FILE.f")
    p.add_argument("--config", action="append", default=None,
                   help="storage configuration, repeatable (hdd, ssd, pcm-block, pcm-dax, optane-dax, "
                        "pcm-dram, pcm-ssd, pcm-hdd); default the paper's five (pcm-hdd, pcm-ssd, pcm-dram, "
                        "hdd, ssd) and pcm-dax")
    p.add_argument("--threads", type=whole_number, default=None, help="threads (default: the workload's)")
    p.add_argument("--iosize", type=number, default=None, help="I/O size of the read/write flowops [bytes]")
    p.add_argument("--files-scale", type=number, default=None, help="multiply the number of files")
    p.add_argument("--raw", action="store_true", help="do not apply the Table 1 preset")
    add_uncertainty_options(p, adds="band_of,p5,p50,p95 (of ops_per_s) columns (each sample re-evaluates the model)")
    add_format_option(p)


def workload_from_args(args: argparse.Namespace):
    """The :class:`~models.storage.filebench.Workload` the options name (Table 1 preset unless --raw, with
    --threads/--iosize/--files-scale applied)."""
    from models.storage import workload as wf

    pers = args.personality
    if pers in wf.TABLE1 and not args.raw:
        w = wf.paper_workload(pers)
    else:
        w = wf.load_workload(pers)
    changes = {}
    if args.threads is not None:
        changes["threads"] = args.threads
    if args.iosize is not None:
        changes["iosize_bytes"] = args.iosize
    if args.files_scale is not None:
        changes["files_scale"] = args.files_scale
    if changes:
        w = w.with_changes(**changes)
    return w


def run(args: argparse.Namespace) -> int:
    from models._base import results_frame
    from models.storage import workload as wf

    w = workload_from_args(args)
    configs = args.config or list(wf.HEADLINE_CONFIGS)
    results = [wf.evaluate(w, c, threads=w.nthreads, curve=False) for c in configs]
    df = results_frame(results).rename(columns={"workload": "personality"})
    df = df[["personality", "config", "threads", "ops_per_s", "latency_ms"]]
    emit(add_band_columns(df, NAME, args, workload=w, configs=configs), args.output_format)
    return 0


def uncertain_models(adapter, args: argparse.Namespace, *, workload, configs, **context) -> list:
    """The uncertainty model of each output row, one per configuration (``adapter``: the workload spec's)."""
    return [adapter(workload, c, threads=workload.nthreads) for c in configs]


def sensitivity_context(args: argparse.Namespace) -> dict:
    """What :func:`uncertain_models` needs for ``pcm-planner sensitivity workload``: the first configuration."""
    from models.storage import workload as wf

    return {"workload": workload_from_args(args), "configs": (args.config or list(wf.HEADLINE_CONFIGS))[:1]}
