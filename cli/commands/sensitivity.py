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

from cli.argtypes import number, whole_number
from cli.output import add_format_option, emit

NAME = "sensitivity"
HELP = ("tornado table (parameter,low,high,output_low,output_high,swing) and, with --sobol, then Sobol' indices "
        "(parameter,S1,ST) of a model's headline output")
MODELS = ("breakeven", "lifetime", "amat", "memext", "writecache", "hdd", "workload")


def _hdd_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--device", action="append", default=None, help="catalogue HDD (default hdd-7200)")
    p.add_argument("--size-bytes", dest="size_bytes", type=number, default=4096.0,
                   help="request size [bytes] (default 4096)")
    add_format_option(p)


def add_arguments(p: argparse.ArgumentParser) -> None:
    import importlib

    sub = p.add_subparsers(dest="model", metavar="MODEL", required=True)
    for m in MODELS:
        mod = None if m == "hdd" else importlib.import_module(f"cli.commands.{m}")
        sp = sub.add_parser(m, help=f"sensitivity of {m}" if mod is None else mod.HELP,
                            description=__doc__ if mod is None else mod.__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
        if mod is None:
            _hdd_arguments(sp)
        else:
            mod.add_arguments(sp)
        sp.add_argument("--samples", type=whole_number, default=1000, help="samples of the band (default 1000)")
        if "--seed" not in sp._option_string_actions:
            sp.add_argument("--seed", type=whole_number, default=0, help="seed (default 0)")
        sp.add_argument("--sobol", action="store_true",
                        help="after the tornado table, print first-order and total Sobol' indices (parameter,S1,ST): "
                             "CSV: a second block after a blank line; JSON: one object {\"tornado\": [...], "
                             "\"sobol\": [...]}")


def _context(args: argparse.Namespace) -> dict:
    """The objects the row models need (one profile / simulation, as the subcommand computes)."""
    from cli.traceopts import load_trace_from_args

    if args.model == "amat":
        from models.memory.paging import paging_inputs, paging_profile, paging_table

        inputs = paging_inputs(
            memory_mib=args.memory_mb, memory_fraction=args.memory_frac, latency_multiple=args.latency_multiple,
            device=args.device, storage_latency_ns=args.storage_latency_ns,
            storage_bandwidth_MBps=args.storage_bandwidth_MBps, page_sizes_bytes=args.page_sizes,
            tlb_entries=args.tlb_entries, t_e_ns=args.t_e_ns, t_r_ns=args.t_r_ns,
            fault_overhead_ns=args.fault_overhead_ns, policy=args.policy,
            include_instructions=args.include_instructions)
        profile = paging_profile(load_trace_from_args(args, kind="memory"), inputs)
        return {"profile": profile, "inputs": inputs, "table": paging_table(profile, inputs).head(1)}
    if args.model == "memext":
        from cli.memext_devices import ALIASES
        from models.devices import get_device
        from models.memory.memory_extension import MemExtConfig, page_stream, simulate_memext
        from models.provenance import PARAMS

        stream = page_stream(load_trace_from_args(args, kind="memory"), include_instructions=args.include_instructions)
        base = args.base_ns_per_ref
        if base is None and hasattr(args, "fault_cost"):  # the memext command's measured defaults
            from models.memory.measured import ns_per_ref

            base = ns_per_ref(getattr(args, "trace", ""))
        fault = args.fault_overhead_ns
        if fault is None and getattr(args, "fault_cost", None) == "paper" and "memext.fault_overhead_paper_ns" in PARAMS:
            fault = PARAMS["memext.fault_overhead_paper_ns"].value
        extra = {k: v for k, v in (("write_ns", args.write_ns), ("base_ns_per_ref", base),
                                   ("fault_overhead_ns", fault)) if v is not None}
        if hasattr(args, "eviction_buffer_pages"):
            extra["eviction_buffer_pages"] = args.eviction_buffer_pages or None
        dev = get_device(ALIASES.get(args.device[0], args.device[0]))
        cfg = MemExtConfig(dram_frac=args.dram_frac[0], device=dev.name, accounting=args.accounting,
                           policy=args.policy, prefetch_depth=args.prefetch_depth, writeback=args.writeback, **extra)
        return {"stream": stream, "runs": [(cfg, dev, simulate_memext(stream, cfg, device=dev))]}
    if args.model == "writecache":
        import pandas as pd

        from models.storage.write_cache import prepare_requests, sweep_sizes_mb

        req = prepare_requests(load_trace_from_args(args, kind="block"))
        policy = next((p for p in (args.policy or ["halo"]) if p != "none"), None)
        if policy is None:
            raise ValueError("--policy none has no cache to analyse: give --policy halo or lru")
        size = sweep_sizes_mb(req, args.cache_mb)[0]
        return {"trace": req, "table": pd.DataFrame({"policy": [policy], "cache_mb": [size]}), "halo_inputs": True}
    if args.model == "workload":
        from cli.commands.workload import workload_from_args
        from models.storage import workload as wf

        return {"workload": workload_from_args(args), "configs": (args.config or list(wf.HEADLINE_CONFIGS))[:1]}
    return {}


def run(args: argparse.Namespace) -> int:
    from cli.uncertainty import uncertain_models
    from models.uncertainty import SOBOL_COLUMNS, TORNADO_COLUMNS, analyze

    if not 1 <= args.samples <= 1_000_000:
        raise ValueError(f"--samples must be within 1..1,000,000 (got {args.samples})")
    if args.model == "hdd" and not args.device:
        args.device = ["hdd-7200"]
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
