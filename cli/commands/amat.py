"""Average memory access time vs page size on a memory trace (Park & Bahn 2020, eqs. 4-6).

TRACE is a bundled memory trace (xz, sort, gcc, sqlite; also as lackey:NAME), a valgrind
lackey text file (plain, gzip or zstd) or a memory-trace .npz. One row per page size:

  pcm-planner amat sqlite --latency-multiple 100
  pcm-planner amat gcc --page-sizes 512,4096,65536 --tlb-entries 32 --memory-mb 8 --device optane-dcpmm
  pcm-planner amat my.lackey.gz --memory-frac 0.25 --storage-latency-ns 3000 --output json

Storage: --latency-multiple K (latency K*t_r, bandwidth DRAM/K; default 10), or
--storage-latency-ns X [--storage-bandwidth-MBps B], or --device NAME. Memory: --memory-mb
M [MiB] or --memory-frac F of the 4 KiB-page footprint (default 0.5). Replacement: CLOCK.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.output import add_format_option, emit

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
    p.add_argument("trace", metavar="TRACE", help="bundled memory trace name, lackey file or .npz")
    p.add_argument("--page-sizes", type=_sizes, default=None,
                   help="comma-separated page sizes [bytes; k/m suffixes ok] (default 512..64k and 2m)")
    p.add_argument("--tlb-entries", type=int, default=64, help="TLB entries (default 64)")
    mem = p.add_mutually_exclusive_group()
    mem.add_argument("--memory-mb", type=float, help="memory size [MiB]")
    mem.add_argument("--memory-frac", type=float, help="memory as a fraction of the 4 KiB-page footprint (default 0.5)")
    st = p.add_mutually_exclusive_group()
    st.add_argument("--storage-latency-ns", type=float, help="storage latency [ns]")
    st.add_argument("--latency-multiple", type=float, help="storage latency as a multiple of DRAM (default 10)")
    st.add_argument("--device", help="storage device from the catalogue (e.g. optane-dcpmm)")
    p.add_argument("--storage-bandwidth-MBps", dest="storage_bandwidth_MBps", type=float,
                   help="storage bandwidth with --storage-latency-ns [MB/s] (default: DRAM bandwidth scaled)")
    p.add_argument("--t-e-ns", type=float, default=None, help="TLB access time t_e [ns] (default 0.5)")
    p.add_argument("--t-r-ns", type=float, default=None, help="memory access time t_r [ns] (default DRAM, 101.5)")
    p.add_argument("--fault-overhead-ns", type=float, default=0.0, help="page-fault software overhead [ns] (default 0)")
    p.add_argument("--policy", choices=("clock", "lru"), default="clock", help="memory replacement (default clock)")
    p.add_argument("--max-requests", type=int, default=None, help="use only the first N references")
    p.add_argument("--include-instructions", action="store_true", help="count instruction fetches too")
    add_format_option(p, "--output")


def load_mem_trace(src: str, max_requests: int | None = None):
    """A bundled memory trace, a ``.npz`` memory trace or a lackey text file."""
    from models.traces.memtraces import load_memtrace, memtrace_names, read_memtrace_npz
    from models.traces.readers import read_trace

    if max_requests is not None and max_requests < 1:
        raise ValueError(f"--max-requests must be >= 1 (got {max_requests})")
    name = src[len("lackey:"):] if src.startswith("lackey:") else src
    path = Path(src)
    if not path.exists() and name in memtrace_names():
        return load_memtrace(name, max_requests)
    if not path.exists():
        raise FileNotFoundError(f"trace file not found: {src} (bundled memory traces: {', '.join(memtrace_names())})")
    if path.suffix == ".npz":
        return read_memtrace_npz(path, max_requests=max_requests)
    return read_trace(str(path), "lackey", max_requests=max_requests)


def run(args: argparse.Namespace) -> int:
    from models.memory.paging import PAGE_SIZES, PagingInputs, run_paging

    kw: dict = {"tlb_entries": args.tlb_entries, "policy": args.policy,
                "fault_overhead_ns": args.fault_overhead_ns, "include_instructions": args.include_instructions,
                "page_sizes_bytes": args.page_sizes or PAGE_SIZES}
    if args.memory_mb is not None:
        kw["memory_bytes"] = (args.memory_mb * (1 << 20),)
    else:
        kw["memory_fraction"] = (0.5 if args.memory_frac is None else args.memory_frac,)
    if args.storage_latency_ns is not None:
        kw["storage_latency_ns"] = args.storage_latency_ns
        kw["storage_bandwidth_MBps"] = args.storage_bandwidth_MBps
    elif args.storage_bandwidth_MBps is not None:
        raise ValueError("--storage-bandwidth-MBps needs --storage-latency-ns")
    elif args.device is not None:
        kw["device"] = args.device
    else:
        kw["latency_multiples"] = (10.0 if args.latency_multiple is None else args.latency_multiple,)
    if args.t_e_ns is not None:
        kw["t_e_ns"] = args.t_e_ns
    if args.t_r_ns is not None:
        kw["t_r_ns"] = args.t_r_ns
    inputs = PagingInputs(**kw)  # validation errors name the field
    trace = load_mem_trace(args.trace, args.max_requests)
    df = run_paging(trace, inputs)
    emit(df[COLUMNS].reset_index(drop=True), args.output_format)
    return 0
