"""Average memory access time vs page size on a memory trace (Park & Bahn 2020, eqs. 4-6).

TRACE is a bundled memory trace (xz, sort, gcc, sqlite; also as lackey:NAME), a valgrind
lackey text file (plain, gzip or zstd) or a memory-trace .npz. One row per page size:

  pcm-planner amat sqlite --latency-multiple 100
  pcm-planner amat gcc --page-sizes 512,4096,65536 --tlb-entries 32 --memory-mb 8 --device optane-dcpmm
  pcm-planner amat my.lackey.gz --memory-frac 0.25 --storage-latency-ns 3000 --format json

Fault service time (--fault-model): latency (default) = overhead + latency + page/bandwidth;
transfer = overhead + latency x (page / 64 B), every line of the page one storage access.
Storage: --latency-multiple K (latency K*t_r, bandwidth DRAM/K; default 10), or
--storage-latency-ns X [--storage-bandwidth-MBps B], or --device NAME. Memory: --memory-mb
M [MiB] or --memory-frac F of the 4 KiB-page footprint (default 0.5). Replacement: CLOCK.
"""

from __future__ import annotations

import argparse

from cli.argtypes import number, whole_number
from cli.output import add_format_option, emit
from cli.traceopts import add_trace_options, load_trace_from_args
from cli.uncertainty import add_band_columns, add_uncertainty_options
from models.provenance import param

NAME = "amat"
HELP = "AMAT vs page size on a memory trace (CSV page_size,tlb_miss_rate,fault_rate,t_addr_ns,t_data_ns,amat_ns)"

COLUMNS = ["page_size", "tlb_miss_rate", "fault_rate", "t_addr_ns", "t_data_ns", "amat_ns"]


def _sizes(text: str) -> tuple[int, ...]:
    out = []
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        mult = 1
        for suf, m in (("kib", 1024), ("k", 1024), ("mib", 1 << 20), ("m", 1 << 20)):
            if part.endswith(suf):
                part, mult = part[: -len(suf)], m
                break
        try:
            out.append(int(float(part) * mult))
        except (ValueError, OverflowError):  # OverflowError: inf
            raise argparse.ArgumentTypeError(f"--page-sizes: {part!r} is not a finite size in bytes") from None
    if not out:
        raise argparse.ArgumentTypeError("--page-sizes: give at least one size")
    return tuple(out)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_trace_options(p, kind="memory", block_size=False)
    p.add_argument("--page-sizes", type=_sizes, default=None,
                   help="comma-separated page sizes [bytes; k/m suffixes ok] (default 512..64k and 2m)")
    p.add_argument("--tlb-entries", type=whole_number, default=param("paging.tlb_entries").value,
                   help=f"TLB entries (default {param('paging.tlb_entries').value}, {param('paging.tlb_entries').kind})")
    mem = p.add_mutually_exclusive_group()
    mem.add_argument("--memory-mb", type=number, help="memory size [MiB]")
    mem.add_argument("--memory-frac", type=number, help="memory as a fraction of the 4 KiB-page footprint (default 0.5)")
    st = p.add_mutually_exclusive_group()
    st.add_argument("--storage-latency-ns", type=number, help="storage latency [ns]")
    st.add_argument("--latency-multiple", type=number, help="storage latency as a multiple of DRAM (default 10)")
    st.add_argument("--device", help="storage device from the catalogue (e.g. optane-dcpmm)")
    p.add_argument("--storage-bandwidth-MBps", dest="storage_bandwidth_MBps", type=number,
                   help="storage bandwidth with --storage-latency-ns [MB/s] (default: DRAM bandwidth scaled)")
    p.add_argument("--t-e-ns", type=number, default=None,
                   help=f"TLB access time t_e [ns] (default {param('paging.tlb_access_ns').value:g}, "
                        f"{param('paging.tlb_access_ns').kind})")
    p.add_argument("--t-r-ns", type=number, default=None, help="memory access time t_r [ns] (default DRAM, 101.5)")
    p.add_argument("--fault-overhead-ns", type=number, default=param("paging.fault_overhead_ns").value,
                   help=f"page-fault software overhead [ns] (default {param('paging.fault_overhead_ns').value:g}, "
                        f"{param('paging.fault_overhead_ns').kind})")
    p.add_argument("--policy", choices=("clock", "lru"), default="clock", help="memory replacement (default clock)")
    p.add_argument("--include-instructions", action="store_true", help="count instruction fetches too")
    p.add_argument("--fault-model", choices=("latency", "transfer"), default="latency",
                   help="fault service time: 'latency' = latency + page/bandwidth (default); 'transfer' = latency "
                        "per 64-B line of the page, the per-byte cost scaled with the latency multiple (the reading "
                        "that reproduces seed 004's 512 B optimum at 10x and 100x)")
    add_uncertainty_options(p)
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from models.memory.paging import paging_inputs, paging_profile, paging_table

    inputs = paging_inputs(  # validation errors name the field
        memory_mib=args.memory_mb, memory_fraction=args.memory_frac, latency_multiple=args.latency_multiple,
        device=args.device, storage_latency_ns=args.storage_latency_ns,
        storage_bandwidth_MBps=args.storage_bandwidth_MBps, page_sizes_bytes=args.page_sizes,
        tlb_entries=args.tlb_entries, t_e_ns=args.t_e_ns, t_r_ns=args.t_r_ns,
        fault_overhead_ns=args.fault_overhead_ns, policy=args.policy, include_instructions=args.include_instructions,
        fault_model=args.fault_model)
    trace = load_trace_from_args(args, kind="memory")
    profile = paging_profile(trace, inputs)  # one profile: the table and the --uncertainty band
    table = paging_table(profile, inputs)[COLUMNS].reset_index(drop=True)
    emit(add_band_columns(table, NAME, args, profile=profile, inputs=inputs, table=table), args.output_format)
    return 0


def uncertain_models(adapter, args: argparse.Namespace, *, profile, inputs, table, **context) -> list:
    """The uncertainty model of each output row, one per page size (``adapter``: the amat spec's)."""
    return [adapter(profile, inputs, page_size=int(ps)) for ps in table["page_size"]]


def sensitivity_context(args: argparse.Namespace) -> dict:
    """What :func:`uncertain_models` needs for ``pcm-planner sensitivity amat``: one profile, its first row."""
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
