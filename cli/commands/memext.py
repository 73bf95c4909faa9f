"""NVM memory extension behind DRAM: page faults and slowdown vs DRAM-only (seed 002 §5.2-6).

  pcm-planner memext app.lackey --dram-frac 0.25 --device pcm
  pcm-planner memext app.lackey.gz --dram-frac 0.5 0.25 0.125 0.0625 --device pcm flash
  pcm-planner memext app.lackey --device flash --write-ns 400000 --prefetch-depth 8 --policy clock
  pcm-planner memext app.lackey --prefetch-depth 4 --prefetch-submit every-fault --mfwr

TRACE is a valgrind lackey memory trace (file path) or a bundled memory-trace name. Devices:
pcm (= pcm-memext: 150 ns / 1500 ns per page), flash (= nand-flash: 25 us), or any catalogue name.
Time = references x --base-ns-per-ref + faults x (fault overhead + page read) [+ write-backs x
page write when --writeback sync, or waits for a full eviction buffer]; see
models/memory/memory_extension.py. Defaults are measured on the build machine: the time per data
reference of the trace's own program when it was measured (data/measurements/apps/,
data/measurements/programs/: every bundled trace),
else the median over seed 002's proxy applications; the fault overhead of a userfaultfd-resolved
4 KiB fault (data/measurements/fault_cost/); --fault-cost paper uses the value inverted from the
paper's Figure 11 (~5062 ns) instead. Column bound: bandwidth (device or eviction buffer limits
the run), fault or compute.

Issue-39 variants: --prefetch-submit picks when the fault handler submits prefetch work: "confirmed"
(default: only when some stride is confirmed) or "every-fault" (seed 002 §5.3's wording: on every
fault with no prefetch in progress, paying the submission each time; the validation ledger's reading).
--mfwr charges MFWR's CPU time to each page written to the NVM (the writer thread compresses it first,
seed 002 §5.1.1) at the cost measured here (registry memext.mfwr_ns_per_page, 7.3 us); --mfwr-ns NS
sets another cost and implies --mfwr. Without either, no MFWR (as before). The columns
prefetch_submit and mfwr_ns are appended when these options are given.
"""

from __future__ import annotations

import argparse

import pandas as pd

from cli.argtypes import number, whole_number
from cli.memext_devices import ALIASES
from cli.output import add_format_option, emit
from cli.traceopts import add_trace_options, load_trace_from_args
from cli.uncertainty import add_band_columns, add_uncertainty_options
from models.provenance import param

NAME = "memext"
HELP = "page faults and slowdown of a DRAM + PCM/Flash memory extension (CSV: device,dram_frac,faults,slowdown,...)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_trace_options(p, kind="memory", block_size=False)
    p.add_argument("--dram-frac", type=number, nargs="+", default=[param("memext.dram_frac").value],
                   help=f"DRAM:NVM capacity ratio(s) (default {param('memext.dram_frac').value:g} = 1:4, "
                        f"{param('memext.dram_frac').kind})")
    p.add_argument("--device", nargs="+", default=["pcm"], help="pcm, flash or catalogue device name(s)")
    p.add_argument("--accounting", choices=("inclusive", "exclusive"), default="inclusive",
                   help="DRAM share of the footprint: r (inclusive) or r/(1+r) (exclusive)")
    p.add_argument("--policy", choices=("fifo", "clock", "age"), default="fifo", help="replacement (default fifo)")
    p.add_argument("--prefetch-depth", type=whole_number, default=0, help="stride-prefetch depth (default 0: off)")
    p.add_argument("--writeback", choices=("buffered", "sync"), default="buffered",
                   help="eviction buffer (off the critical path) or synchronous write-back")
    p.add_argument("--write-ns", type=number, default=None, help="override the device's page write latency [ns]")
    p.add_argument("--base-ns-per-ref", type=number, default=None,
                   help="DRAM-only time per data reference [ns] (default: measured for the trace's program, else "
                        f"{param('memext.base_ns_per_ref').value:g}, {param('memext.base_ns_per_ref').kind})")
    p.add_argument("--fault-cost", choices=("measured", "paper"), default="measured",
                   help=f"fault overhead: measured userfaultfd fault ({param('memext.fault_overhead_ns').value:g} ns, "
                        f"default) or paper-derived ({param('memext.fault_overhead_paper_ns').value:g} ns)")
    p.add_argument("--fault-overhead-ns", type=number, default=None,
                   help="OS fault cost besides the device read [ns] (overrides --fault-cost)")
    p.add_argument("--eviction-buffer-pages", type=whole_number, default=param("memext.eviction_buffer_pages").value,
                   help=f"eviction buffer [pages] (default {param('memext.eviction_buffer_pages').value}, "
                        f"{param('memext.eviction_buffer_pages').kind}; 0 = unbounded)")
    p.add_argument("--include-instructions", action="store_true", help="also page instruction fetches")
    p.add_argument("--prefetch-submit", dest="prefetch_submit", choices=("confirmed", "every-fault"), default=None,
                   help="when the fault handler submits prefetch work (with --prefetch-depth > 0): confirmed "
                        "(default: a stride is confirmed) or every-fault (every fault with no prefetch in "
                        "progress, seed 002 §5.3's wording)")
    mf = param("memext.mfwr_ns_per_page")
    p.add_argument("--mfwr", action="store_true",
                   help=f"charge MFWR's CPU time per page written to the NVM ({mf.value:g} ns, {mf.kind}; "
                        "default: no MFWR)")
    p.add_argument("--mfwr-ns", dest="mfwr_ns", type=number, default=None,
                   help=f"MFWR's CPU time per page written [ns] (implies --mfwr; default {mf.value:g}, {mf.kind})")
    add_uncertainty_options(p)
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models.devices import get_device
    from models.memory.measured import ns_per_ref
    from models.memory.memory_extension import MemExtConfig, page_stream, simulate_memext

    trace = load_trace_from_args(args, kind="memory")
    stream = page_stream(trace, include_instructions=args.include_instructions)
    if args.eviction_buffer_pages < 0:
        raise ValueError(f"--eviction-buffer-pages must be >= 0 (got {args.eviction_buffer_pages})")
    base = args.base_ns_per_ref if args.base_ns_per_ref is not None else ns_per_ref(getattr(args, "trace", ""))
    fault = args.fault_overhead_ns
    if fault is None and args.fault_cost == "paper":
        fault = param("memext.fault_overhead_paper_ns").value
    extra = {k: v for k, v in (("write_ns", args.write_ns), ("base_ns_per_ref", base),
                               ("fault_overhead_ns", fault)) if v is not None}
    extra["eviction_buffer_pages"] = args.eviction_buffer_pages or None
    extra.update(variant_options(args))
    rows, runs = [], []
    for d in args.device:
        dev = get_device(ALIASES.get(d, d))
        for f in args.dram_frac:
            cfg = MemExtConfig(dram_frac=f, device=dev.name, accounting=args.accounting, policy=args.policy,
                               prefetch_depth=args.prefetch_depth, writeback=args.writeback, **extra)
            r = simulate_memext(stream, cfg, device=dev)
            runs.append((cfg, dev, r))
            rows.append(r.to_frame().assign(trace=stream.name, device=dev.name, dram_frac=f,
                                            base_ns_per_ref=cfg.base_ns_per_ref)[
                ["trace", "device", "dram_frac", "dram_pages", "footprint_pages", "references", "faults",
                 "full_misses", "partial_misses", "writebacks", "time_ns", "slowdown", "bound", "base_ns_per_ref"]])
    df = pd.concat(rows, ignore_index=True)
    for col, v in variant_options(args).items():  # appended only when given: the default columns are a contract
        df[col] = v
    emit(add_band_columns(df, NAME, args, stream=stream, runs=runs), args.output_format)
    return 0


def variant_options(args: argparse.Namespace) -> dict:
    """The issue-39 variants given on the command line, as :class:`~models.memory.memory_extension.MemExtConfig`
    fields: ``prefetch_submit`` when --prefetch-submit is given, ``mfwr_ns`` when --mfwr or --mfwr-ns is (the
    measured cost unless --mfwr-ns sets one). Empty when none is given (or the namespace has none).

    Raises ValueError naming --mfwr-ns when its value is outside MemExtConfig's range."""
    out = {}
    if getattr(args, "prefetch_submit", None) is not None:
        out["prefetch_submit"] = args.prefetch_submit
    ns = getattr(args, "mfwr_ns", None)
    if ns is not None or getattr(args, "mfwr", False):
        from models.memory.memory_extension import MemExtConfig

        lo, hi = (next(getattr(m, k) for m in MemExtConfig.model_fields["mfwr_ns"].metadata if hasattr(m, k))
                  for k in ("ge", "le"))
        ns = param("memext.mfwr_ns_per_page").value if ns is None else ns
        if not lo <= ns <= hi:
            raise ValueError(f"--mfwr-ns must be within [{lo:g}, {hi:g}] ns (got {ns:g})")
        out["mfwr_ns"] = float(ns)
    return out


def uncertain_models(adapter, args: argparse.Namespace, *, stream, runs, **context) -> list:
    """The uncertainty model of each output row, one per simulated (config, device) (``adapter``: the memext
    spec's)."""
    return [adapter(stream, cfg, device=dev, baseline=None, result=r) for cfg, dev, r in runs]


def sensitivity_context(args: argparse.Namespace) -> dict:
    """What :func:`uncertain_models` needs for ``pcm-planner sensitivity memext``: the first device and DRAM
    fraction, simulated once."""
    from models.devices import get_device
    from models.memory.memory_extension import MemExtConfig, page_stream, simulate_memext

    stream = page_stream(load_trace_from_args(args, kind="memory"), include_instructions=args.include_instructions)
    base = args.base_ns_per_ref
    if base is None and hasattr(args, "fault_cost"):  # the memext command's measured defaults
        from models.memory.measured import ns_per_ref

        base = ns_per_ref(getattr(args, "trace", ""))
    fault = args.fault_overhead_ns
    if fault is None and getattr(args, "fault_cost", None) == "paper":
        fault = param("memext.fault_overhead_paper_ns").value
    extra = {k: v for k, v in (("write_ns", args.write_ns), ("base_ns_per_ref", base),
                               ("fault_overhead_ns", fault)) if v is not None}
    if hasattr(args, "eviction_buffer_pages"):
        extra["eviction_buffer_pages"] = args.eviction_buffer_pages or None
    extra.update(variant_options(args))
    dev = get_device(ALIASES.get(args.device[0], args.device[0]))
    cfg = MemExtConfig(dram_frac=args.dram_frac[0], device=dev.name, accounting=args.accounting,
                       policy=args.policy, prefetch_depth=args.prefetch_depth, writeback=args.writeback, **extra)
    return {"stream": stream, "runs": [(cfg, dev, simulate_memext(stream, cfg, device=dev))]}
