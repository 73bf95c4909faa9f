"""Registry declarations of the storage models: file cache, PCM write cache, HDD, device characterization, Filebench workload.

Each ``declare_<model>(add)`` registers its model's constants with ``add`` (in the order of
:data:`models.provenance.catalog.DECLARATIONS`, which fixes the registry's order).
"""

from __future__ import annotations

from models.provenance.catalog._common import EXACT, NO_SPREAD, Add, band, exact, measured_csv
from models.provenance_kinds import ASSUMED, DERIVED, MEASURED, PUBLISHED

__all__ = ["declare_file_cache", "declare_write_cache", "declare_hdd", "declare_device_char", "declare_workload"]


def declare_file_cache(add: Add) -> None:
    add("file_cache.io_stack_factor", 1.3, "-",
        "storage-path latency on DRAM-speed storage / file-cache latency (T = factor x t + device extra), "
        "with storage_path paper-factor (the default, same-run, uses file_cache.samerun_* instead)",
        PUBLISHED, "seed 004 §2, Fig. 1: DRAM used as storage is 30 % slower than the DRAM file cache",
        1.2, 1.4, "stated +-0.1: read off a figure averaged over 10 runs", "004")
    pc = measured_csv("pagecache_latency.csv").set_index("size_bytes")
    src = ("data/measurements/pagecache_latency.csv, measured by data/measurements/pagecache_bench.c on tmpfs "
           "(median of 5 runs, build machine)")
    for col, what, key in (("cache_read_ns", "pread() of a 4 KiB block resident in the page cache (t)", "read"),
                           ("cache_insert_ns", "pwrite() of a 4 KiB block into a not yet cached region "
                                               "(the insertion cost in Tm)", "insert")):
        v = float(pc.loc[4096, col])
        add(f"file_cache.pagecache_{key}_4k_ns", v, "ns",
            what + "; other block sizes are interpolated in the same table", MEASURED, src, *band(v, 0.2),
            NO_SPREAD)
    ic = measured_csv("insertion_cost/insertion_cost.csv")
    ic = ic[ic["quantity"] == "insert_steady_ns"]
    isrc = ("data/measurements/insertion_cost/insertion_cost.csv, measured by "
            "data/measurements/insertion_cost/insertion.c (build machine, 11 runs of 2000 reads)")
    for size in (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536):
        rows = ic[ic["size_bytes"] == size].set_index("device")
        dev = "zram" if "zram" in rows.index else "loop-tmpfs"
        r = rows.loc[dev]
        v, lo, hi = float(r["median_ns"]), float(r["low_ns"]), float(r["high_ns"])
        note = "lowest..highest of the runs' medians"
        if lo < 0:
            note += " (the lowest run's difference was below 0 -- loop-device worker noise -- and is clipped at 0)"
        add(f"file_cache.insert_steady_{size}_ns", v, "ns",
            f"steady-state cache insertion cost Tm - T of a {size} B block: buffered pread() miss into a full "
            f"page cache (reclaim frees pages in batches of 32, untimed) minus an O_DIRECT pread() "
            f"({'zram, incompressible data' if dev == 'zram' else 'loop device over tmpfs'})",
            MEASURED, isrc, max(0.0, lo), hi, note, "004")
    both = measured_csv("insertion_cost/insertion_cost.csv")
    for size in (4096, 8192, 16384, 32768, 65536):
        rows = both[(both["device"] == "zram") & (both["size_bytes"] == size)].set_index("quantity")
        for q, key, what in (("hit_ns", "hit", "buffered pread() of a block resident in the page cache (t)"),
                             ("direct_ns", "direct", "O_DIRECT pread() of a block from a memory-speed block device "
                                                     "(zram, incompressible data): T on DRAM-speed storage")):
            r = rows.loc[q]
            add(f"file_cache.samerun_{key}_{size}_ns", float(r["median_ns"]), "ns",
                f"{what}, {size} B, in the same runs as the steady-state insertion cost", MEASURED, isrc,
                float(r["low_ns"]), float(r["high_ns"]), "lowest..highest of the runs' medians", "004")
    add("file_cache_sim.ghost_fraction", 1.0, "-",
        "AC-cache admission window (ghost list of non-admitted misses) as a fraction of the cache size",
        ASSUMED, "seed 004 admits a block 'only if it is used more than once' without saying within "
                 "which window; a ghost list as long as the cache", 0.1, 10.0, "wide stated range", "004")


def declare_write_cache(add: Add) -> None:
    add("write_cache.destage_threshold", 0.95, "-", "PCM utilization that starts destaging",
        PUBLISHED, "seed 003 §III: 'a threshold, e.g., 95% of its total size'", 0.9, 0.99,
        "stated band around the paper's example", "003")
    why = "seed 003 gives no value; ours, fixed once before the comparison with Figs. 5-8"
    add("write_cache.th_bcounts", 4.0, "blocks", "TH_BCOUNTS: blocks above the average bcounts for a victim",
        ASSUMED, why, 0.0, 64.0, "wide stated range", "003")
    add("write_cache.th_recency_per_capacity", 0.25, "requests/block",
        "TH_RECENCY as a multiple of the cache capacity in blocks", ASSUMED, why, 0.05, 2.0,
        "wide stated range", "003")
    add("write_cache.outdate_recency_per_capacity", 4.0, "requests/block",
        "OUTDATE_RECENCY as a multiple of the cache capacity in blocks (>> TH_RECENCY, as the paper asks)",
        ASSUMED, why, 1.0, 16.0, "wide stated range", "003")
    add("write_cache.relax_bcounts", 1.0, "blocks", "TH_BCOUNTS decrease per scanned bucket",
        ASSUMED, why, 0.25, 8.0, "wide stated range", "003")
    add("write_cache.relax_recency_fraction", 1 / 16, "-", "TH_RECENCY decrease per scanned bucket "
        "(fraction of TH_RECENCY)", ASSUMED, why, 1 / 64, 1 / 4, "wide stated range", "003")
    add("write_cache.halo_load_factor", 0.9, "-", "load factor of HALO's cuckoo hash map (DRAM estimate)",
        PUBLISHED, "cuckoo hashing with 4-way buckets reaches ~0.9-0.95 (Pagh & Rodler 2001 and successors)",
        0.85, 0.95, "range across sources")
    add("write_cache.lru_load_factor", 0.75, "-", "load factor of the LRU cache's hash map (DRAM estimate)",
        ASSUMED, "a usual chained-hash-table load factor (e.g. Java's HashMap default)", 0.5, 1.0,
        "wide stated range")
    add("write_cache.drive_cache_bytes", 0.0, "bytes",
        "the HDD's own write-back buffer in the write-cache stream by default (0 = none: the stream is timed "
        "write-through; run_write_cache(drive_cache=...) sets 'spec' or a size)",
        ASSUMED, "seed 003 §V replays the HDD trace 'in a close-loop way' on a 500 GB 7200 rpm Seagate disk with "
                 "the DRAM buffer cache bypassed; whether the disk's own write cache was on is not stated, so "
                 "none is assumed", 0.0, 32 * 2**20, "wide stated range: none up to 32 MiB, the order of a "
                 "desktop drive's buffer of the paper's time (assumed, not sourced)", "003")
    add("write_cache.stream_min_sample_rate", 2.0**-10, "-",
        "lowest rate of the 1 MiB-region sample the streamed write cache falls back to when its exact per-block "
        "state exceeds its share of the run's memory budget (below it the run is refused, naming --memory-budget)",
        ASSUMED, "1 region in 1,024: the planner's 64 MB cache (16,384 blocks) is then a miniature cache of 16 "
                 "blocks, a few buckets; the sampling error is measured only down to 1/64 "
                 "(data/measurements/write_cache_sampling_error.csv) and the rows say when the rate is beyond it",
        2.0**-12, 2.0**-6, "wide stated range")
    add("write_cache.fin1_dataset_mb", 18.0 * 1024, "MB",
        "Fin1's dataset, the reference the paper's cache sizes are scaled from",
        PUBLISHED, "seed 003 Table II: Fin1 18 GB", *exact(18.0 * 1024), EXACT, "003")


def declare_hdd(add: Add) -> None:
    add("hdd.generic.capacity_bytes", 500e9, "bytes", "capacity of the generic HDD profile",
        PUBLISHED, "seed 003 §V: a 500 GB 7200 rpm disk", *exact(500e9), EXACT, "003")
    add("hdd.generic.surfaces", 4, "-", "recording surfaces of the generic HDD profile",
        ASSUMED, "not published; only sets the cylinder count (seek distances are rescaled to the catalogue's "
                 "mean seek)", 2, 8, "wide stated range")
    old = {"hp_c2247a": (0.17010, 0.18686), "hp_c3323a": (0.14550, 0.14550), "hp_c2490a": (0.14841, 0.14841),
           "dec_rz26": (0.07069, 0.07069), "st41601n": (0.09552, 0.09552)}
    for drive, (r, w) in old.items():
        for op, v in (("read", r), ("write", w)):
            add(f"hdd.bus_ms_per_block.{drive}.{op}", v, "ms",
                f"per-sector bus transfer time of {drive} ({op}s); its diskspecs give none",
                PUBLISHED, "DiskSim 4.0 valid/*.parv (BUS1 block transfer time), data/disksim/NOTES.md",
                *exact(v), EXACT)


def declare_device_char(add: Add) -> None:
    s1 = "001"
    add("device_char.psd.read_us", 10.0, "us", "PSD 4 KiB read service time (preset 'psd')",
        ASSUMED, "seed 001 publishes ratios only; as the catalogue's pcm-psd-micron", 2.0, 50.0,
        "wide stated range", s1)
    add("device_char.psd.write_read_ratio", 19.0, "-", "PSD write / read service time, random and sequential",
        DERIVED, "seed 001 Fig. 2: writes 'up to 19 times' slower; the preset is set to reproduce Fig. 2",
        5.0, 19.0, "the paper's 'up to' is the top; wide below", s1)
    add("device_char.psd.servers", 3, "-", "PSD parallel service units",
        PUBLISHED, "seed 001 §II.A: three daughter boards, each with its own FPGA controller",
        *exact(3), EXACT, s1)
    add("device_char.mix_requests", 200_000, "requests", "requests simulated per write share in the read/write "
        "mix model (Fig. 3)", ASSUMED, "sampling error of the mean latencies below ~1 % at depth 64 (checked by "
        "comparing seeds)", 20_000, 2_000_000, "wide stated range", s1)
    add("device_char.ssd.read_us", 90.0, "us", "SSD 4 KiB random read service time (preset 'ssd')",
        ASSUMED, "a typical SATA figure (seed 001's SSD is unnamed; the catalogue's sata-ssd, an Intel DC S4500, "
        "states 110 µs)", 50.0, 200.0, "wide stated range", s1)
    add("device_char.ssd.write_read_ratio_rand", 1.5, "-", "SSD random write / read service time",
        DERIVED, "seed 001 Fig. 2: '1.5 times' (SSD, random); the preset is set to reproduce Fig. 2",
        1.0, 3.0, "wide stated range", s1)
    add("device_char.ssd.write_read_ratio_seq", 1.2, "-", "SSD sequential write / read service time",
        DERIVED, "seed 001 Fig. 2: '1.2 times' (SSD, sequential); the preset is set to reproduce Fig. 2",
        1.0, 3.0, "wide stated range", s1)
    add("device_char.ssd.servers_rand", 8, "-", "SSD parallel units for random requests",
        ASSUMED, "typical flash channel count of a SATA SSD (as models.storage.workload.configs)", 4, 16,
        "wide stated range", s1)
    add("device_char.ssd.seq_parallelism", 6.0, "-", "SSD sequential / random effective parallelism",
        DERIVED, "calibrated on seed 001 Fig. 1's '+500 %' maximum random/sequential ratio", 2.0, 10.0,
        "wide stated range", s1)


def declare_workload(add: Add) -> None:
    s0 = "000"
    add("workload.cpu_cores", 6, "cores", "CPU servers of the Filebench model",
        PUBLISHED, "seed 000 §4.1: Intel i7-7800X (6 cores)", *exact(6), EXACT, s0)
    add("workload.page_cache_bytes", 8 * float(1 << 30), "bytes", "guest page cache",
        ASSUMED, "seed 000's host has 16 GB, the guest's memory is not published: half of the host",
        2 * float(1 << 30), 14 * float(1 << 30), "wide stated range (up to the host less its own needs)", s0)
    add("workload.host_memory_bytes", 8 * float(1 << 30), "bytes", "host memory mapping the vPCM backing file",
        ASSUMED, "the other half of seed 000's 16 GB host", 2 * float(1 << 30), 14 * float(1 << 30),
        "wide stated range", s0)
    add("workload.virt_per_op_ns", 2000.0, "ns", "VM overhead per data / sync call of the vPCM configurations",
        ASSUMED, "order of a KVM VM exit + host handling (a few thousand cycles at 3.5 GHz); not measured by "
                 "seed 000", 500.0, 10000.0, "wide stated range", s0)
    add("workload.ssd_servers", 8, "-", "parallel service units of the SATA SSD configuration",
        ASSUMED, "typical flash channel count (~89 K random IOPS with the catalogue's 90 µs read)", 4, 16,
        "wide stated range")
    add("workload.psd_servers", 3, "-", "parallel service units of the PCM block device (Micron PSD)",
        PUBLISHED, "seed 001 §II.A: three daughter boards with their own controllers", *exact(3), EXACT, "001")
    add("workload.gated_wait", 1.5, "commits", "mean wait of an fsync under back-to-back jbd2 commits",
        ASSUMED, "gated batch service: the residual half of the running commit plus one's own (a modelling "
                 "approximation)", 1.0, 2.0, "from no residual wait to a full extra commit")
    add("workload.journal_metadata_blocks", 3, "blocks", "blocks of a jbd2 commit before the commit block",
        PUBLISHED, "descriptor + inode table + block bitmap of one file's fsync (kernel doc "
                   "filesystems/ext4/journal)", 2, 5, "stated band (fsyncs touching more metadata)")
    add("workload.mb_stream_req_blocks", 16, "blocks", "ext4 mb_stream_req: smaller files are packed",
        PUBLISHED, "Linux kernel doc admin-guide/ext4 (mb_stream_req default)", *exact(16), EXACT)
    add("workload.default_iosize_bytes", 8192.0, "bytes", "I/O size of a read/write flowop that gives none",
        ASSUMED, "none of the bundled personalities relies on it; a common 8 KiB request", 4096.0, 1 << 20,
        "wide stated range")
    add("workload.hog_ns_per_iteration", 1.0, "ns", "CPU time of one iteration of Filebench's hog flowop",
        ASSUMED, "a busy-loop iteration of ~1 ns; not measured", 0.3, 5.0, "wide stated range")
    vm = ("Linux kernel Documentation/admin-guide/sysctl/vm.rst (default of the sysctl; Fedora 28's kernel 4.18 of "
          "seed 000 §4.1 keeps it)")
    add("workload.dirty_background_ratio", 10.0, "%",
        "dirty page-cache share of available memory above which the flusher writes back in the background",
        PUBLISHED, vm + ": vm.dirty_background_ratio = 10", *exact(10.0), EXACT, s0)
    add("workload.dirty_expire_centisecs", 3000.0, "cs",
        "age after which dirty data is written back by the next flusher run",
        PUBLISHED, vm + ": vm.dirty_expire_centisecs = 3000 (30 s)", *exact(3000.0), EXACT, s0)
    add("workload.dirty_writeback_centisecs", 500.0, "cs", "interval between flusher wake-ups",
        PUBLISHED, vm + ": vm.dirty_writeback_centisecs = 500 (5 s)", *exact(500.0), EXACT, s0)
    add("workload.run_seconds", 60.0, "s", "run time of a personality whose .f file gives none",
        PUBLISHED, "seed 000 Table 1: runtime 60 s (every personality)", *exact(60.0), EXACT, s0)
    add("workload.cvar_gamma_default", 1.5, "-", "gamma shape of a cvar-gamma file size that states none",
        PUBLISHED, "the shape every bundled Filebench personality states (data/filebench/*.f, gamma:1.5)",
        *exact(1.5), EXACT)
    md = measured_csv("metadata_latency.csv").set_index("op")["latency_ns"]
    src = ("data/measurements/metadata_latency.csv, measured by data/measurements/metadata_bench.c on tmpfs "
           "(median of 5 runs, build machine)")
    for op in ("open", "close", "stat", "create", "unlink", "fsync"):
        v = float(md[op])
        what = ("fsync with nothing to commit (tmpfs no-op)" if op == "fsync"
                else f"{op} system call (Filebench metadata flowops)")
        add(f"workload.metadata.{op}_ns", v, "ns", what, MEASURED, src, *band(v, 0.2), NO_SPREAD)
    import numpy as np

    lk = measured_csv("path_lookup/lookup_runs.csv")
    slopes = [float(np.polyfit(g["depth"], g["ns_per_call"], 1)[0]) for _, g in lk.groupby("run")]
    add("workload.metadata.lookup_per_component_ns", float(np.median(slopes)), "ns",
        "path lookup per directory component (dentry-cache hit) of open/create/stat/unlink", MEASURED,
        "data/measurements/path_lookup/lookup_runs.csv, measured by data/measurements/path_lookup/lookup_bench.c "
        f"on tmpfs: the per-run least-squares slope of stat() CPU time over path depth 1-32, median of "
        f"{len(slopes)} runs (build machine)", min(slopes), max(slopes), "lowest..highest run's slope")
    fs = measured_csv("fsync_latency.csv")
    one = fs[fs.threads == 1].iloc[0]
    src = ("data/measurements/fsync_latency.csv, measured by data/measurements/fsync_bench.c: ext4 on a loop "
           "device over tmpfs, one thread, 8 KiB append + fsync (median of 3 runs, build machine)")
    v = float(one.fsync_median_ns)
    add("workload.fsync.latency_1thread_ns", v, "ns", "one ext4 fsync (one thread): caller CPU + jbd2 commit",
        MEASURED, src, 40e3, v * 1.2, "a zram cross-check gave 40-69 µs (data/SOURCES.md) up to the "
                                      "loop-device median + 20 %")
    v = float(one.caller_cpu_ns_per_fsync)
    add("workload.fsync.caller_cpu_1thread_ns", v, "ns",
        "CPU time of the calling thread per fsync (write + fsync calls, getrusage)", MEASURED, src,
        *band(v, 0.2), NO_SPREAD)
