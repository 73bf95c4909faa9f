"""Registry declarations of the memory models: memory extension, paging.

Each ``declare_<model>(add)`` registers its model's constants with ``add`` (in the order of
:data:`models.provenance.catalog.DECLARATIONS`, which fixes the registry's order).
"""

from __future__ import annotations

from models.provenance.catalog._common import EXACT, Add, exact, measured_csv
from models.provenance_kinds import ASSUMED, DERIVED, MEASURED, PUBLISHED

__all__ = ["declare_memext", "declare_paging"]


def declare_memext(add: Add) -> None:
    fc = measured_csv("fault_cost/fault_cost.csv")
    per = fc.groupby("method")["median_ns"]
    copy_ns = float(per.median()["memcpy_4k"])
    uffd = fc[fc["method"] == "uffd_copy"]
    v = float(uffd["median_ns"].median()) - copy_ns
    add("memext.fault_overhead_ns", round(v, 1), "ns",
        "OS page-fault handling cost besides the device read: a 4 KiB fault resolved by a userfaultfd handler "
        "thread with UFFDIO_COPY from DRAM (trap, delivery, wake-up, allocation, copy, map) minus the 4 KiB copy",
        MEASURED, "data/measurements/fault_cost/fault_cost.csv, measured by data/measurements/fault_cost/fault_cost.c "
                  "(median of the runs' median fault times, build machine)",
        round(float(per.median()["minor_zero"]), 1), round(float(uffd["p75_ns"].max()) - copy_ns, 1),
        "low: the in-kernel zero-fill fault (no user-space handler); high: the slowest run's upper quartile", "002")
    add("memext.fault_overhead_paper_ns", 5062.0, "ns",
        "the paper-derived alternative of memext.fault_overhead_ns (labelled 'paper-derived' where offered)",
        DERIVED, "inverted from seed 002 Fig. 11's average slowdowns at DRAM:NVM 1:4 (PCM 1.638x, Flash "
                 "4.68x) by models.memory.memory_extension.implied_fault_overhead_ns; not measured",
        1000.0, 20000.0, "wide stated range (a fault path of 1-20 µs)", "002")
    apps = measured_csv("apps/apps.csv").dropna(subset=["ns_per_data_ref"])
    t = float(apps["ns_per_data_ref"].median())
    add("memext.base_ns_per_ref", round(t, 4), "ns",
        "DRAM-only run time per data memory reference (t_ref): native CPU time / lackey data references",
        MEASURED, "data/measurements/apps/apps.csv, measured by data/measurements/apps/build_and_trace.sh with "
                  "data/measurements/apps/lackey_window.c (median "
                  "over seed 002's proxy applications of the median of 11 native runs; traces with their own "
                  "measurement use it)",
        round(min(t, float(apps["ns_per_data_ref_low"].min())), 4),
        round(max(t, float(apps["ns_per_data_ref_high"].max())), 4),
        "lowest fastest run .. highest upper quartile over the applications", "002")
    # per-program time bases (issue 15 point 1a): each traced program's own t_ref, used for its trace
    # (models.memory.measured.ns_per_ref reads the same tables)
    for csv_name, col, how, spread in (
            ("apps/apps.csv", "app", "data/measurements/apps/build_and_trace.sh with data/measurements/apps/"
             "lackey_window.c (whole-run lackey L + S + M)", "fastest run .. upper quartile of 11 native runs"),
            ("programs/programs.csv", "program", "data/measurements/programs/run.sh (whole-run valgrind cachegrind "
             "Dr + Dw, the count data/measurements/apps/lackey_window.c makes from lackey's L + S + M)",
             "fastest .. slowest of 11 native runs")):
        for _, r in measured_csv(csv_name).dropna(subset=["ns_per_data_ref"]).iterrows():
            v = round(float(r["ns_per_data_ref"]), 4)
            add(f"memext.ns_per_ref.{r[col]}", v, "ns",
                f"t_ref of {r[col]} ({r['command']}): native time per data reference, median CPU time of the run "
                "/ its data references (the time base of its bundled trace)",
                MEASURED, f"data/measurements/{csv_name}, measured by {how}",
                min(v, round(float(r["ns_per_data_ref_low"]), 4)), max(v, round(float(r["ns_per_data_ref_high"]), 4)),
                spread, "002")
    add("memext.eviction_buffer_pages", 256, "pages", "eviction buffer in DRAM (buffered write-back)",
        ASSUMED, "seed 002 §2: 'a pre-allocated fixed-size eviction buffer in DRAM', size not given; 1 MiB",
        16, 65536, "wide stated range (64 KiB - 256 MiB)", "002")
    add("memext.submit_ns", 3500.0, "ns", "submission of one prefetch work item to a kernel worker",
        PUBLISHED, "seed 002 §5.3: 'about 3-4 microseconds'", 3000.0, 4000.0, "the paper's stated range", "002")
    runs = measured_csv("mfwr_cost/mfwr_runs.csv")
    mf = runs.loc[runs["kernel"] == "single_pass", "ns_per_page"]
    add("memext.mfwr_ns_per_page", float(mf.median()), "ns",
        "CPU time of MFWR-1W on one 4 KiB page (one counting pass for the most frequent word, one pass for the "
        "bitmap and the packing; seed 002 §5.1.1)", MEASURED,
        "data/measurements/mfwr_cost/mfwr_runs.csv, measured by data/measurements/mfwr_cost/mfwr_bench.py "
        f"(numba, thread CPU time, {len(mf)} runs over the 1,800 bundled application pages, build machine)",
        float(mf.min()), float(mf.max()), "lowest..highest run", "002")
    add("memext.prefetch_strides", 8, "-", "strides the prefetcher remembers",
        PUBLISHED, "seed 002 §5.3: 'records the most recent 8 strides'", *exact(8), EXACT, "002")
    add("memext.prefetch_threshold", 5, "-", "repeats that confirm a stride",
        PUBLISHED, "seed 002 §5.3: 'strides that appeared at least 5 times'", *exact(5), EXACT, "002")
    add("memext.age_max", 3, "-", "saturation of the age-based replacement counter",
        ASSUMED, "seed 002 §5.4 gives the counter's rule but no maximum; 3 = a 2-bit counter",
        1.0, 15.0, "wide stated range (1 = CLOCK)", "002")
    add("memext.dram_frac", 0.25, "-", "DRAM share of the footprint (DRAM:NVM 1:4)",
        PUBLISHED, "seed 002 §4: 4 GB DRAM and a 16 GB memory extension", 0.0625, 0.5,
        "the paper's sweep (Figs. 10, 11, 15)", "002")
    add("memext.nvm_capacity_bytes", 16e9, "bytes", "memory-extension capacity of the lifetime figures",
        PUBLISHED, "seed 002 §4: 16 GB memory extension (4x a 4 GB DRAM)", *exact(16e9), EXACT, "002")


def declare_paging(add: Add) -> None:
    add("paging.tlb_entries", 64, "entries", "TLB entries (fully associative, LRU)",
        ASSUMED, "seed 004 gives no TLB size; a typical first-level data TLB (Hennessy & Patterson: 16-512)",
        16, 512, "Hennessy & Patterson App. B range", "004")
    add("paging.tlb_access_ns", 0.5, "ns", "TLB access time t_e",
        ASSUMED, "seed 004 gives no t_e; one clock cycle at an assumed 2 GHz (Hennessy & Patterson: TLB hit "
                 "0.5-1 cycle)", 0.1, 2.0, "wide stated range", "004")
    add("paging.fault_overhead_ns", 0.0, "ns", "software page-fault overhead besides the storage access",
        ASSUMED, "seed 004's T_PF is the storage access: its experiments vary only the storage latency",
        0.0, 10000.0, "up to ~5x the measured 4 KiB page-cache insertion", "004")
