"""Provenance of every model constant: one registry, read by the models.

Every number a model uses that is not an input the user types -- a default of a model input
or a constant written in a model -- is registered here once, as a :class:`Param` with its
value, unit and :class:`Provenance`. The models read the value from the registry
(``param("memext.fault_overhead_ns").value``), so a value and the statement of where it
comes from cannot drift apart. Device numbers are not here: they live in
``data/devices.csv``, whose ``provenance`` column gives the kind of every value
(:attr:`models.devices.DeviceProfile.provenance`).

Kinds
-----
``measured here``
    Measured on our build machine; ``source`` names the data file and the program that
    measured it (``data/measurements/``).
``published``
    Taken from a publication; ``source`` cites it.
``derived from a seed result``
    Inverted from a result of one of the five seed papers (``source`` says which). A claim
    of that paper that this value was derived from cannot validate the model: it is
    circular.
``assumed``
    Our choice; ``source`` gives the one-line reason.

Every entry states a range ``low``..``high`` (for the uncertainty layer): the measured
spread, the range across sources or a stated band for published values, a wide stated range
for derived and assumed ones; ``range_note`` says which.

>>> param("file_cache.io_stack_factor").value, param("file_cache.io_stack_factor").kind
(1.3, 'published')
>>> param("memext.fault_overhead_paper_ns").provenance.kind
'derived from a seed result'
>>> sorted(set(params_frame().kind)) == sorted(KINDS)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

__all__ = [
    "MEASURED",
    "PUBLISHED",
    "DERIVED",
    "ASSUMED",
    "USER_DEFINED",
    "KINDS",
    "DEVICE_KINDS",
    "KIND_ALIASES",
    "normalize_kind",
    "Provenance",
    "Param",
    "PARAMS",
    "param",
    "params_frame",
    "param_names",
    "NOT_PARAMETERS",
    "provenance_of",
    "device_keys",
    "depends_on_unverified",
    "provenance_table",
]

MEASURED = "measured here"
PUBLISHED = "published"
DERIVED = "derived from a seed result"
ASSUMED = "assumed"
#: Kind of a number the user typed (custom devices, overridden inputs); never in the registry.
USER_DEFINED = "user-defined"
#: The kinds of a registry entry.
KINDS: tuple[str, ...] = (MEASURED, PUBLISHED, DERIVED, ASSUMED)
#: The kinds of a device-catalogue value (the registry's, plus values the user typed).
DEVICE_KINDS: tuple[str, ...] = (*KINDS, USER_DEFINED)
#: Short spellings accepted where a kind is written by hand (``data/devices.csv``).
KIND_ALIASES: dict[str, str] = {"measured": MEASURED, "published": PUBLISHED, "derived": DERIVED,
                                "assumed": ASSUMED, "user-defined": USER_DEFINED, "user": USER_DEFINED}
#: Kinds a planner should double-check (the "depends on derived/assumed values" notes).
UNVERIFIED: tuple[str, ...] = (DERIVED, ASSUMED)


def normalize_kind(kind: str, *, allowed: tuple[str, ...] = DEVICE_KINDS) -> str:
    """The full kind for ``kind`` (a full kind or a short alias); ValueError listing the valid ones.

    >>> normalize_kind("derived"), normalize_kind("published")
    ('derived from a seed result', 'published')
    """
    k = KIND_ALIASES.get(str(kind).strip().lower(), str(kind).strip())
    if k not in allowed:
        valid = sorted({a for a, full in KIND_ALIASES.items() if full in allowed} | set(allowed))
        raise ValueError(f"unknown provenance kind {kind!r}; valid: {', '.join(valid)}")
    return k


@dataclass(frozen=True)
class Provenance:
    """Where a number comes from.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    source : str
        ``measured here``: data file and the program that measured it; ``published``: the
        citation; ``derived from a seed result``: which seed result and how; ``assumed``: a
        one-line reason.
    low, high : float
        Stated range of the value (same unit), ``low <= value <= high``.
    range_note : str
        How the range was stated (measured spread, range across sources, a stated band).
    seed : str
        Seed paper (``"000"`` ... ``"004"``, :mod:`models.references`) the value comes from
        or was derived from; ``""`` when none.
    """

    kind: str
    source: str
    low: float
    high: float
    range_note: str = ""
    seed: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if not self.source.strip():
            raise ValueError("source must name where the value comes from")
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low <= self.high):
            raise ValueError(f"range must be finite with low <= high (got {self.low}..{self.high})")

    def label(self) -> str:
        """``"[kind: source]"``, as appended to the app's help texts."""
        return f"[{self.kind}: {self.source}]"


@dataclass(frozen=True)
class Param:
    """One registered model constant.

    Attributes
    ----------
    name : str
        Registry key, ``"<model>.<constant>"``.
    value : int or float
        The value the models use.
    unit : str
        Unit (``"ns"``, ``"bytes"``, ``"-"`` for a pure number).
    description : str
        What it is.
    provenance : Provenance
    """

    name: str
    value: float
    unit: str
    description: str
    provenance: Provenance

    def __post_init__(self) -> None:
        v = float(self.value)
        if not math.isfinite(v):
            raise ValueError(f"{self.name}: value must be finite")
        if not self.provenance.low <= v <= self.provenance.high:
            raise ValueError(f"{self.name}: value {v:g} outside its stated range "
                             f"{self.provenance.low:g}..{self.provenance.high:g}")
        if not self.unit:
            raise ValueError(f"{self.name}: give a unit ('-' for a pure number)")

    @property
    def kind(self) -> str:
        """The provenance kind."""
        return self.provenance.kind

    def label(self) -> str:
        """``"[kind: source]"``."""
        return self.provenance.label()


# ----------------------------------------------------------------------------- declarations
_REGISTRY: dict[str, Param] = {}


def _add(name: str, value, unit: str, description: str, kind: str, source: str, low: float, high: float,
         range_note: str, seed: str = "") -> None:
    if name in _REGISTRY:
        raise ValueError(f"{name}: registered twice")
    _REGISTRY[name] = Param(name, value, unit, description,
                            Provenance(kind, source, float(low), float(high), range_note, seed))


def _band(value: float, rel: float) -> tuple[float, float]:
    return value * (1 - rel), value * (1 + rel)


def _exact(value: float) -> tuple[float, float]:
    return float(value), float(value)


_EXACT = "exact: a definition or configuration of the source, not an estimate"
_NO_SPREAD = ("stated +-20 %: only the median of the runs is recorded, not their spread "
              "(same machine, same program)")


def _measured_csv(name: str) -> pd.DataFrame:
    from models.data import read_csv

    return read_csv(f"measurements/{name}")


def _declare_file_cache() -> None:
    _add("file_cache.io_stack_factor", 1.3, "-",
         "storage-path latency on DRAM-speed storage / file-cache latency (T = factor x t + device extra)",
         PUBLISHED, "seed 004 §2, Fig. 1: DRAM used as storage is 30 % slower than the DRAM file cache",
         1.2, 1.4, "stated +-0.1: read off a figure averaged over 10 runs", "004")
    pc = _measured_csv("pagecache_latency.csv").set_index("size_bytes")
    src = ("data/measurements/pagecache_latency.csv, measured by data/measurements/pagecache_bench.c on tmpfs "
           "(median of 5 runs, build machine)")
    for col, what, key in (("cache_read_ns", "pread() of a 4 KiB block resident in the page cache (t)", "read"),
                           ("cache_insert_ns", "pwrite() of a 4 KiB block into a not yet cached region "
                                               "(the insertion cost in Tm)", "insert")):
        v = float(pc.loc[4096, col])
        _add(f"file_cache.pagecache_{key}_4k_ns", v, "ns",
             what + "; other block sizes are interpolated in the same table", MEASURED, src, *_band(v, 0.2),
             _NO_SPREAD)
    ic = _measured_csv("insertion_cost/insertion_cost.csv")
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
        _add(f"file_cache.insert_steady_{size}_ns", v, "ns",
             f"steady-state cache insertion cost Tm - T of a {size} B block: buffered pread() miss into a full "
             f"page cache (reclaim frees pages in batches of 32, untimed) minus an O_DIRECT pread() "
             f"({'zram, incompressible data' if dev == 'zram' else 'loop device over tmpfs'})",
             MEASURED, isrc, max(0.0, lo), hi, note, "004")
    _add("file_cache_sim.ghost_fraction", 1.0, "-",
         "AC-cache admission window (ghost list of non-admitted misses) as a fraction of the cache size",
         ASSUMED, "seed 004 admits a block 'only if it is used more than once' without saying within "
                  "which window; a ghost list as long as the cache", 0.1, 10.0, "wide stated range", "004")


def _declare_memext() -> None:
    fc = _measured_csv("fault_cost/fault_cost.csv")
    per = fc.groupby("method")["median_ns"]
    copy_ns = float(per.median()["memcpy_4k"])
    uffd = fc[fc["method"] == "uffd_copy"]
    v = float(uffd["median_ns"].median()) - copy_ns
    _add("memext.fault_overhead_ns", round(v, 1), "ns",
         "OS page-fault handling cost besides the device read: a 4 KiB fault resolved by a userfaultfd handler "
         "thread with UFFDIO_COPY from DRAM (trap, delivery, wake-up, allocation, copy, map) minus the 4 KiB copy",
         MEASURED, "data/measurements/fault_cost/fault_cost.csv, measured by data/measurements/fault_cost/fault_cost.c "
                   "(median of the runs' median fault times, build machine)",
         round(float(per.median()["minor_zero"]), 1), round(float(uffd["p75_ns"].max()) - copy_ns, 1),
         "low: the in-kernel zero-fill fault (no user-space handler); high: the slowest run's upper quartile", "002")
    _add("memext.fault_overhead_paper_ns", 5062.0, "ns",
         "the paper-derived alternative of memext.fault_overhead_ns (labelled 'paper-derived' where offered)",
         DERIVED, "inverted from seed 002 Fig. 11's average slowdowns at DRAM:NVM 1:4 (PCM 1.638x, Flash "
                  "4.68x) by models.memory.memory_extension.implied_fault_overhead_ns; not measured",
         1000.0, 20000.0, "wide stated range (a fault path of 1-20 µs)", "002")
    apps = _measured_csv("apps/apps.csv").dropna(subset=["ns_per_data_ref"])
    t = float(apps["ns_per_data_ref"].median())
    _add("memext.base_ns_per_ref", round(t, 4), "ns",
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
        for _, r in _measured_csv(csv_name).dropna(subset=["ns_per_data_ref"]).iterrows():
            v = round(float(r["ns_per_data_ref"]), 4)
            _add(f"memext.ns_per_ref.{r[col]}", v, "ns",
                 f"t_ref of {r[col]} ({r['command']}): native time per data reference, median CPU time of the run "
                 "/ its data references (the time base of its bundled trace)",
                 MEASURED, f"data/measurements/{csv_name}, measured by {how}",
                 min(v, round(float(r["ns_per_data_ref_low"]), 4)), max(v, round(float(r["ns_per_data_ref_high"]), 4)),
                 spread, "002")
    _add("memext.eviction_buffer_pages", 256, "pages", "eviction buffer in DRAM (buffered write-back)",
         ASSUMED, "seed 002 §2: 'a pre-allocated fixed-size eviction buffer in DRAM', size not given; 1 MiB",
         16, 65536, "wide stated range (64 KiB - 256 MiB)", "002")
    _add("memext.submit_ns", 3500.0, "ns", "submission of one prefetch work item to a kernel worker",
         PUBLISHED, "seed 002 §5.3: 'about 3-4 microseconds'", 3000.0, 4000.0, "the paper's stated range", "002")
    _add("memext.prefetch_strides", 8, "-", "strides the prefetcher remembers",
         PUBLISHED, "seed 002 §5.3: 'records the most recent 8 strides'", *_exact(8), _EXACT, "002")
    _add("memext.prefetch_threshold", 5, "-", "repeats that confirm a stride",
         PUBLISHED, "seed 002 §5.3: 'strides that appeared at least 5 times'", *_exact(5), _EXACT, "002")
    _add("memext.age_max", 3, "-", "saturation of the age-based replacement counter",
         ASSUMED, "seed 002 §5.4 gives the counter's rule but no maximum; 3 = a 2-bit counter",
         1.0, 15.0, "wide stated range (1 = CLOCK)", "002")
    _add("memext.dram_frac", 0.25, "-", "DRAM share of the footprint (DRAM:NVM 1:4)",
         PUBLISHED, "seed 002 §4: 4 GB DRAM and a 16 GB memory extension", 0.0625, 0.5,
         "the paper's sweep (Figs. 10, 11, 15)", "002")
    _add("memext.nvm_capacity_bytes", 16e9, "bytes", "memory-extension capacity of the lifetime figures",
         PUBLISHED, "seed 002 §4: 16 GB memory extension (4x a 4 GB DRAM)", *_exact(16e9), _EXACT, "002")


def _declare_lifetime() -> None:
    # write_rate_for_lifetime(16e9, 1e7, 5.0, wear_efficiency=1.0) (the paper's closed form assumes ideal
    # leveling), written out so this module imports no model
    rate = 16e9 * 1e7 / (5.0 * (365.25 * 24 * 3600.0))
    _add("lifetime.lulesh_write_rate_Bps", rate, "bytes/s",
         "cell write rate of Lulesh on the PCM memory extension (seed 002's one published rate)",
         DERIVED, "inverted from seed 002 §5.1.3 / Fig. 9: Lulesh wears a 16 GB, 1e7-endurance PCM extension "
                  "out 'in about 5 years' (baseline)", rate * 5.0 / 7.0, rate * 5.0 / 3.0,
         "'about 5 years' read as 3-7 years", "002")
    _add("lifetime.fail_fraction", 1e-3, "-", "share of worn-out lines at which the device counts as failed",
         ASSUMED, "seed 002 gives no failure criterion; one line in a thousand (spare lines cover fewer)",
         1e-6, 0.1, "wide stated range", "002")
    _add("lifetime.endurance_sigma", 0.25, "-", "spread (sd of ln endurance) of the per-line endurance on the "
         "Lifetime page (the models' default 0 = identical lines)",
         ASSUMED, "seed 002 gives one endurance per technology; a moderate lognormal spread to show its effect",
         0.0, 1.0, "wide stated range", "002")
    _add("lifetime.wear_efficiency", 0.9255, "-",
         "wear-leveling efficiency = life rate (average / maximum bank writes; 1 = perfectly even wear)",
         PUBLISHED, "seed 003 Fig. 9 / §V-B: 'the average life rate is 0.9255 for SFC-based wear leveling' (simulated "
                    "on its traces; RR 0.619, SG 0.0598); seed 002's Fig. 9 closed form C E / W assumes ideal leveling "
                    "(1.0), an upper bound, so it is the high end and not the point",
         0.0598, 1.0, "from seed 003's worst average life rate (SG 0.0598) to ideal leveling (1, never reached)",
         "003")


def _declare_paging() -> None:
    _add("paging.tlb_entries", 64, "entries", "TLB entries (fully associative, LRU)",
         ASSUMED, "seed 004 gives no TLB size; a typical first-level data TLB (Hennessy & Patterson: 16-512)",
         16, 512, "Hennessy & Patterson App. B range", "004")
    _add("paging.tlb_access_ns", 0.5, "ns", "TLB access time t_e",
         ASSUMED, "seed 004 gives no t_e; one clock cycle at an assumed 2 GHz (Hennessy & Patterson: TLB hit "
                  "0.5-1 cycle)", 0.1, 2.0, "wide stated range", "004")
    _add("paging.fault_overhead_ns", 0.0, "ns", "software page-fault overhead besides the storage access",
         ASSUMED, "seed 004's T_PF is the storage access: its experiments vary only the storage latency",
         0.0, 10000.0, "up to ~5x the measured 4 KiB page-cache insertion", "004")


def _declare_write_reduction() -> None:
    _add("nvm.line_bytes", 64, "bytes", "NVM write granularity (cache line): MFWR packing, DCW, wear unit of the "
         "lifetime Monte Carlo",
         PUBLISHED, "seed 002 §5.1.1: 'DIMM-based NVMs can be written in cache line granularity (e.g., 64B)'",
         *_exact(64), _EXACT, "002")


def _declare_wear() -> None:
    t1 = "seed 003 Table I and §IV"
    for name, v, unit, what in (("stripe_blocks", 64, "blocks", "blocks per stripe (32 KB of 512 B blocks)"),
                                ("stripes_per_bank", 512, "stripes", "stripes in a bank"),
                                ("banks_per_rank", 16, "banks", "banks in a rank"),
                                ("ranks", 8, "ranks", "ranks in the device"),
                                ("cubes", 32, "-", "SFC cubes splitting the stripe dimension")):
        _add(f"wear.{name}", v, unit, what, PUBLISHED, t1, *_exact(v), _EXACT, "003")
    _add("wear.block_bytes", 512, "bytes", "block (sector) size of the wear-leveling geometry",
         PUBLISHED, "seed 003 Table I: stripe size 64 blocks (32KB)", *_exact(512), _EXACT, "003")
    _add("wear.sg_regions", 32, "-", "start-gap regions of the SG scheme",
         ASSUMED, "seed 003 does not give SG's region size; 32 regions = the size of an SFC cube, so SG and SFC "
                  "pay the same gap moves", 1, 128, "wide stated range", "003")
    _add("wear.gap_interval_writes", 100, "writes", "psi: writes to a region between two gap moves",
         PUBLISHED, "Qureshi et al., MICRO'09 (start-gap, psi = 100), seed 003 ref. [25]", 50, 200,
         "stated band around the start-gap paper's choice")


def _declare_write_cache() -> None:
    _add("write_cache.destage_threshold", 0.95, "-", "PCM utilization that starts destaging",
         PUBLISHED, "seed 003 §III: 'a threshold, e.g., 95% of its total size'", 0.9, 0.99,
         "stated band around the paper's example", "003")
    why = "seed 003 gives no value; ours, fixed once before the comparison with Figs. 5-8"
    _add("write_cache.th_bcounts", 4.0, "blocks", "TH_BCOUNTS: blocks above the average bcounts for a victim",
         ASSUMED, why, 0.0, 64.0, "wide stated range", "003")
    _add("write_cache.th_recency_per_capacity", 0.25, "requests/block",
         "TH_RECENCY as a multiple of the cache capacity in blocks", ASSUMED, why, 0.05, 2.0,
         "wide stated range", "003")
    _add("write_cache.outdate_recency_per_capacity", 4.0, "requests/block",
         "OUTDATE_RECENCY as a multiple of the cache capacity in blocks (>> TH_RECENCY, as the paper asks)",
         ASSUMED, why, 1.0, 16.0, "wide stated range", "003")
    _add("write_cache.relax_bcounts", 1.0, "blocks", "TH_BCOUNTS decrease per scanned bucket",
         ASSUMED, why, 0.25, 8.0, "wide stated range", "003")
    _add("write_cache.relax_recency_fraction", 1 / 16, "-", "TH_RECENCY decrease per scanned bucket "
         "(fraction of TH_RECENCY)", ASSUMED, why, 1 / 64, 1 / 4, "wide stated range", "003")
    _add("write_cache.halo_load_factor", 0.9, "-", "load factor of HALO's cuckoo hash map (DRAM estimate)",
         PUBLISHED, "cuckoo hashing with 4-way buckets reaches ~0.9-0.95 (Pagh & Rodler 2001 and successors)",
         0.85, 0.95, "range across sources")
    _add("write_cache.lru_load_factor", 0.75, "-", "load factor of the LRU cache's hash map (DRAM estimate)",
         ASSUMED, "a usual chained-hash-table load factor (e.g. Java's HashMap default)", 0.5, 1.0,
         "wide stated range")
    _add("write_cache.fin1_dataset_mb", 18.0 * 1024, "MB",
         "Fin1's dataset, the reference the paper's cache sizes are scaled from",
         PUBLISHED, "seed 003 Table II: Fin1 18 GB", *_exact(18.0 * 1024), _EXACT, "003")


def _declare_hdd() -> None:
    _add("hdd.generic.capacity_bytes", 500e9, "bytes", "capacity of the generic HDD profile",
         PUBLISHED, "seed 003 §V: a 500 GB 7200 rpm disk", *_exact(500e9), _EXACT, "003")
    _add("hdd.generic.surfaces", 4, "-", "recording surfaces of the generic HDD profile",
         ASSUMED, "not published; only sets the cylinder count (seek distances are rescaled to the catalogue's "
                  "mean seek)", 2, 8, "wide stated range")
    old = {"hp_c2247a": (0.17010, 0.18686), "hp_c3323a": (0.14550, 0.14550), "hp_c2490a": (0.14841, 0.14841),
           "dec_rz26": (0.07069, 0.07069), "st41601n": (0.09552, 0.09552)}
    for drive, (r, w) in old.items():
        for op, v in (("read", r), ("write", w)):
            _add(f"hdd.bus_ms_per_block.{drive}.{op}", v, "ms",
                 f"per-sector bus transfer time of {drive} ({op}s); its diskspecs give none",
                 PUBLISHED, "DiskSim 4.0 valid/*.parv (BUS1 block transfer time), data/disksim/NOTES.md",
                 *_exact(v), _EXACT)


def _declare_device_char() -> None:
    s1 = "001"
    _add("device_char.psd.read_us", 10.0, "us", "PSD 4 KiB read service time (preset 'psd')",
         ASSUMED, "seed 001 publishes ratios only; as the catalogue's pcm-psd-micron", 2.0, 50.0,
         "wide stated range", s1)
    _add("device_char.psd.write_read_ratio", 19.0, "-", "PSD write / read service time, random and sequential",
         DERIVED, "seed 001 Fig. 2: writes 'up to 19 times' slower; the preset is set to reproduce Fig. 2",
         5.0, 19.0, "the paper's 'up to' is the top; wide below", s1)
    _add("device_char.psd.servers", 3, "-", "PSD parallel service units",
         PUBLISHED, "seed 001 §II.A: three daughter boards, each with its own FPGA controller",
         *_exact(3), _EXACT, s1)
    _add("device_char.mix_requests", 200_000, "requests", "requests simulated per write share in the read/write "
         "mix model (Fig. 3)", ASSUMED, "sampling error of the mean latencies below ~1 % at depth 64 (checked by "
         "comparing seeds)", 20_000, 2_000_000, "wide stated range", s1)
    _add("device_char.ssd.read_us", 90.0, "us", "SSD 4 KiB random read service time (preset 'ssd')",
         ASSUMED, "as the catalogue's sata-ssd (a typical SATA figure)", 50.0, 200.0, "wide stated range", s1)
    _add("device_char.ssd.write_read_ratio_rand", 1.5, "-", "SSD random write / read service time",
         DERIVED, "seed 001 Fig. 2: '1.5 times' (SSD, random); the preset is set to reproduce Fig. 2",
         1.0, 3.0, "wide stated range", s1)
    _add("device_char.ssd.write_read_ratio_seq", 1.2, "-", "SSD sequential write / read service time",
         DERIVED, "seed 001 Fig. 2: '1.2 times' (SSD, sequential); the preset is set to reproduce Fig. 2",
         1.0, 3.0, "wide stated range", s1)
    _add("device_char.ssd.servers_rand", 8, "-", "SSD parallel units for random requests",
         ASSUMED, "typical flash channel count of a SATA SSD (as models.storage.workload.configs)", 4, 16,
         "wide stated range", s1)
    _add("device_char.ssd.seq_parallelism", 6.0, "-", "SSD sequential / random effective parallelism",
         DERIVED, "calibrated on seed 001 Fig. 1's '+500 %' maximum random/sequential ratio", 2.0, 10.0,
         "wide stated range", s1)


def _declare_workload() -> None:
    s0 = "000"
    _add("workload.cpu_cores", 6, "cores", "CPU servers of the Filebench model",
         PUBLISHED, "seed 000 §4.1: Intel i7-7800X (6 cores)", *_exact(6), _EXACT, s0)
    _add("workload.page_cache_bytes", 8 * float(1 << 30), "bytes", "guest page cache",
         ASSUMED, "seed 000's host has 16 GB, the guest's memory is not published: half of the host",
         2 * float(1 << 30), 14 * float(1 << 30), "wide stated range (up to the host less its own needs)", s0)
    _add("workload.host_memory_bytes", 8 * float(1 << 30), "bytes", "host memory mapping the vPCM backing file",
         ASSUMED, "the other half of seed 000's 16 GB host", 2 * float(1 << 30), 14 * float(1 << 30),
         "wide stated range", s0)
    _add("workload.virt_per_op_ns", 2000.0, "ns", "VM overhead per data / sync call of the vPCM configurations",
         ASSUMED, "order of a KVM VM exit + host handling (a few thousand cycles at 3.5 GHz); not measured by "
                  "seed 000", 500.0, 10000.0, "wide stated range", s0)
    _add("workload.ssd_servers", 8, "-", "parallel service units of the SATA SSD configuration",
         ASSUMED, "typical flash channel count (~89 K random IOPS with the catalogue's 90 µs read)", 4, 16,
         "wide stated range")
    _add("workload.psd_servers", 3, "-", "parallel service units of the PCM block device (Micron PSD)",
         PUBLISHED, "seed 001 §II.A: three daughter boards with their own controllers", *_exact(3), _EXACT, "001")
    _add("workload.gated_wait", 1.5, "commits", "mean wait of an fsync under back-to-back jbd2 commits",
         ASSUMED, "gated batch service: the residual half of the running commit plus one's own (a modelling "
                  "approximation)", 1.0, 2.0, "from no residual wait to a full extra commit")
    _add("workload.journal_metadata_blocks", 3, "blocks", "blocks of a jbd2 commit before the commit block",
         PUBLISHED, "descriptor + inode table + block bitmap of one file's fsync (kernel doc "
                    "filesystems/ext4/journal)", 2, 5, "stated band (fsyncs touching more metadata)")
    _add("workload.mb_stream_req_blocks", 16, "blocks", "ext4 mb_stream_req: smaller files are packed",
         PUBLISHED, "Linux kernel doc admin-guide/ext4 (mb_stream_req default)", *_exact(16), _EXACT)
    _add("workload.default_iosize_bytes", 8192.0, "bytes", "I/O size of a read/write flowop that gives none",
         ASSUMED, "none of the bundled personalities relies on it; a common 8 KiB request", 4096.0, 1 << 20,
         "wide stated range")
    _add("workload.hog_ns_per_iteration", 1.0, "ns", "CPU time of one iteration of Filebench's hog flowop",
         ASSUMED, "a busy-loop iteration of ~1 ns; not measured", 0.3, 5.0, "wide stated range")
    vm = ("Linux kernel Documentation/admin-guide/sysctl/vm.rst (default of the sysctl; Fedora 28's kernel 4.18 of "
          "seed 000 §4.1 keeps it)")
    _add("workload.dirty_background_ratio", 10.0, "%",
         "dirty page-cache share of available memory above which the flusher writes back in the background",
         PUBLISHED, vm + ": vm.dirty_background_ratio = 10", *_exact(10.0), _EXACT, s0)
    _add("workload.dirty_expire_centisecs", 3000.0, "cs",
         "age after which dirty data is written back by the next flusher run",
         PUBLISHED, vm + ": vm.dirty_expire_centisecs = 3000 (30 s)", *_exact(3000.0), _EXACT, s0)
    _add("workload.dirty_writeback_centisecs", 500.0, "cs", "interval between flusher wake-ups",
         PUBLISHED, vm + ": vm.dirty_writeback_centisecs = 500 (5 s)", *_exact(500.0), _EXACT, s0)
    _add("workload.run_seconds", 60.0, "s", "run time of a personality whose .f file gives none",
         PUBLISHED, "seed 000 Table 1: runtime 60 s (every personality)", *_exact(60.0), _EXACT, s0)
    _add("workload.cvar_gamma_default", 1.5, "-", "gamma shape of a cvar-gamma file size that states none",
         PUBLISHED, "the shape every bundled Filebench personality states (data/filebench/*.f, gamma:1.5)",
         *_exact(1.5), _EXACT)
    md = _measured_csv("metadata_latency.csv").set_index("op")["latency_ns"]
    src = ("data/measurements/metadata_latency.csv, measured by data/measurements/metadata_bench.c on tmpfs "
           "(median of 5 runs, build machine)")
    for op in ("open", "close", "stat", "create", "unlink", "fsync"):
        v = float(md[op])
        what = ("fsync with nothing to commit (tmpfs no-op)" if op == "fsync"
                else f"{op} system call (Filebench metadata flowops)")
        _add(f"workload.metadata.{op}_ns", v, "ns", what, MEASURED, src, *_band(v, 0.2), _NO_SPREAD)
    fs = _measured_csv("fsync_latency.csv")
    one = fs[fs.threads == 1].iloc[0]
    src = ("data/measurements/fsync_latency.csv, measured by data/measurements/fsync_bench.c: ext4 on a loop "
           "device over tmpfs, one thread, 8 KiB append + fsync (median of 3 runs, build machine)")
    v = float(one.fsync_median_ns)
    _add("workload.fsync.latency_1thread_ns", v, "ns", "one ext4 fsync (one thread): caller CPU + jbd2 commit",
         MEASURED, src, 40e3, v * 1.2, "a zram cross-check gave 40-69 µs (data/SOURCES.md) up to the "
                                       "loop-device median + 20 %")
    v = float(one.caller_cpu_ns_per_fsync)
    _add("workload.fsync.caller_cpu_1thread_ns", v, "ns",
         "CPU time of the calling thread per fsync (write + fsync calls, getrusage)", MEASURED, src,
         *_band(v, 0.2), _NO_SPREAD)


def _declare_planner() -> None:
    _add("planner.write_cache_mb", 64.0, "MB", "PCM write-cache size of the planner's write-cache role",
         ASSUMED, "a small cache relative to the library's scaled-down traces, so the role ranks locality",
         16.0, 1024.0, "wide stated range")
    _add("planner.file_cache_fraction", 0.1, "-", "DRAM file-cache size of the planner's file-cache role, as a "
         "fraction of the trace footprint", ASSUMED, "a cache much smaller than the footprint, as in seed 004 "
         "Figures 3-4 (x axis 0-100 % of the footprint)", 0.01, 0.5, "wide stated range")
    _add("planner.paging_memory_fraction", 0.5, "-", "memory of the planner's paging role, as a fraction of the "
         "trace's 4 KiB-page footprint", ASSUMED, "half the footprint: the paging model's default memory size "
         "(models.memory.paging.paging_inputs)", 0.1, 0.9, "wide stated range")


def _declare_uncertainty() -> None:
    why = ("the catalogue states one value per device column, no range; a band by provenance kind for the "
           "uncertainty layer (models.uncertainty)")
    _add("uncertainty.device_band.measured", 0.1, "-", "relative half-width of a measured catalogue value's range",
         ASSUMED, why, 0.05, 0.2, "wide stated range")
    _add("uncertainty.device_band.published", 0.2, "-", "relative half-width of a published (or user-typed) "
         "catalogue value's range", ASSUMED, why, 0.1, 0.5, "wide stated range")
    _add("uncertainty.device_band.derived", 2.0, "-", "factor below and above a derived catalogue value "
         "(value / f .. value x f)", ASSUMED, why, 1.5, 4.0, "wide stated range")
    _add("uncertainty.device_band.assumed", 3.0, "-", "factor below and above an assumed catalogue value "
         "(value / f .. value x f)", ASSUMED, why, 2.0, 10.0, "wide stated range")
    _add("uncertainty.wide_factor", 4.0, "-", "a positive range spanning this factor or more is sampled uniformly "
         "in its logarithm (derived and assumed values)", ASSUMED,
         "a range over a decade or so is a statement about the order of magnitude, not the value", 2.0, 10.0,
         "wide stated range")


def _declare_traces() -> None:
    t2 = "seed 003 Table II"
    table2 = {  # write fraction, dataset [GiB], average request [KiB]
        "fin1": (0.846, 18.0, 3.38), "fin2": (0.215, 8.85, 2.4), "dap": (0.549, 84.2, 77),
        "exchange": (0.74, 163.8, 13.65), "tpce": (0.998, 13.2, 10.48), "mail": (0.901, 85, 4),
        "randw": (1.0, 5.9, 4),
    }
    for name, (w, gib, kib) in table2.items():
        src = "seed 003 §V.A.1 text (IOmeter 4 KB 100 % random writes over 5.9 GB)" if name == "randw" else t2
        _add(f"trace.{name}.write_fraction", w, "-", f"write share of the {name} preset", PUBLISHED, src,
             *_exact(w), _EXACT, "003")
        _add(f"trace.{name}.dataset_gib", gib, "GiB", f"dataset (address range) of the {name} preset",
             PUBLISHED, src, *_exact(gib), _EXACT, "003")
        _add(f"trace.{name}.avg_request_kib", kib, "KiB", f"average request size of the {name} preset",
             PUBLISHED, src, *_exact(kib), _EXACT, "003")
    mix = {  # zipf share, sequential share, zipf alpha
        "fin1": (0.8, 0.1, 0.9), "fin2": (0.8, 0.1, 0.9), "dap": (0.1, 0.3, 0.9),
        "exchange": (0.6, 0.2, 0.8), "tpce": (0.7, 0.1, 0.7), "mail": (0.2, 0.7, 0.9),
    }
    why = ("seed 003 Table II gives no locality; our synthetic stand-in's mix, chosen from the workload "
           "descriptions")
    for name, (z, s, a) in mix.items():
        _add(f"trace.{name}.zipf_fraction", z, "-", f"share of Zipf-popular requests of the {name} stand-in",
             ASSUMED, why, 0.0, 1.0, "the whole possible range", "003")
        _add(f"trace.{name}.seq_fraction", s, "-", f"share of sequential-run requests of the {name} stand-in",
             ASSUMED, why, 0.0, 1.0, "the whole possible range", "003")
        _add(f"trace.{name}.zipf_alpha", a, "-", f"Zipf exponent of the {name} stand-in",
             ASSUMED, why, 0.5, 1.2, "wide stated range", "003")
    _add("trace.mail.run_requests", 256.0, "requests", "Mail stand-in: mean length of its sequential write runs",
         ASSUMED, "seed 003 §V-A says Mail's writes are mostly sequential, not how long the runs are; the "
                  "first Mail preset's value, restored with its mix when the burst reshaping (done after seeing "
                  "HALO's Mail result) was removed", 16.0, 1024.0, "wide stated range", "003")
    _add("trace.web-server.zipf_alpha", 0.8, "-", "Zipf exponent of web-server file popularity",
         PUBLISHED, "Breslau et al., INFOCOM'99: web request popularity Zipf-like, alpha 0.64-0.83",
         0.64, 0.83, "range across the traces of the source")
    _add("trace.web-proxy.zipf_alpha", 0.7, "-", "Zipf exponent of web-proxy file popularity",
         PUBLISHED, "Breslau et al., INFOCOM'99: web request popularity Zipf-like, alpha 0.64-0.83",
         0.64, 0.83, "range across the traces of the source")
    _add("trace.web-proxy.one_timer_fraction", 0.4, "-", "share of requests to files requested once",
         PUBLISHED, "Breslau et al., INFOCOM'99: proxy traces have many one-timers", 0.2, 0.6,
         "stated band")
    _add("trace.web-server.n_files", 20000, "files", "files of the web-server stand-in (before scaling)",
         ASSUMED, "a mid-size site; seed 004 describes no file set", 1000, 1_000_000, "wide stated range", "004")
    _add("trace.web-proxy.n_files", 50000, "files", "files of the web-proxy stand-in (before scaling)",
         ASSUMED, "a proxy sees more distinct files than one site; seed 004 describes no file set",
         1000, 1_000_000, "wide stated range", "004")
    _add("trace.web-server.median_file_bytes", 12000, "bytes", "median file size of the web-server stand-in",
         PUBLISHED, "Barford & Crovella, SIGMETRICS'98: lognormal web file body, median ~10 KB", 5000.0, 20000.0,
         "stated band")
    _add("trace.web-proxy.median_file_bytes", 10000, "bytes", "median file size of the web-proxy stand-in",
         PUBLISHED, "Barford & Crovella, SIGMETRICS'98: lognormal web file body, median ~10 KB", 5000.0, 20000.0,
         "stated band")
    _add("trace.synthetic_scale", 0.05, "-", "dataset scale of the synthetic presets loaded by name",
         ASSUMED, "shrinks the Table II datasets so a 100k-request trace revisits blocks in seconds",
         0.01, 1.0, "wide stated range")


def _declare_sim() -> None:
    _add("sim.minisim_min_blocks", 0, "blocks", "smallest MiniSim miniature cache: sizes C with C R below it "
         "are simulated on a denser nested spatial sample at rate min(1, this / C); 0 = off",
         ASSUMED, "Waldspurger et al. ATC'17 scale caches by R without a floor (default, fastest); a floor of "
                  "~100 blocks lowers the error at small caches at some cost (docs/models/sim.md)", 0, 1000,
         "off to a 1000-block floor", "")


for _declare in (_declare_sim, _declare_file_cache, _declare_memext, _declare_lifetime, _declare_paging,
                 _declare_write_reduction,
                 _declare_wear, _declare_write_cache, _declare_hdd, _declare_device_char, _declare_workload,
                 _declare_planner, _declare_traces, _declare_uncertainty):
    _declare()

#: The registry: name -> :class:`Param`.
PARAMS: dict[str, Param] = dict(_REGISTRY)


def param(name: str) -> Param:
    """The registered parameter ``name``; ``KeyError`` listing close names.

    >>> param("memext.submit_ns").value
    3500.0
    >>> param("memext.nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "unknown parameter 'memext.nope'; registered under 'memext.': memext.fault_overhead_ns, ...
    """
    try:
        return PARAMS[name]
    except KeyError:
        prefix = name.split(".", 1)[0] + "."
        near = [n for n in PARAMS if n.startswith(prefix)] or list(PARAMS)
        raise KeyError(f"unknown parameter {name!r}; registered under {prefix!r}: {', '.join(near)}") from None


def param_names(prefix: str = "") -> list[str]:
    """Registered names starting with ``prefix``."""
    return [n for n in PARAMS if n.startswith(prefix)]


def params_frame(names=None) -> pd.DataFrame:
    """The registry as a table, one row per parameter (all, or ``names`` in order).

    Columns ``name, value, unit, kind, source, low, high, range_note, seed, description``.

    >>> params_frame(["memext.submit_ns"])[["name", "value", "kind", "low", "high"]]
                   name   value       kind     low    high
    0  memext.submit_ns  3500.0  published  3000.0  4000.0
    """
    rows = [PARAMS[n] if n in PARAMS else param(n) for n in (PARAMS if names is None else names)]
    return pd.DataFrame([{"name": p.name, "value": p.value, "unit": p.unit, "kind": p.kind,
                          "source": p.provenance.source, "low": p.provenance.low, "high": p.provenance.high,
                          "range_note": p.provenance.range_note, "seed": p.provenance.seed,
                          "description": p.description} for p in rows],
                        columns=["name", "value", "unit", "kind", "source", "low", "high", "range_note", "seed",
                                 "description"])


def provenance_of(key: str, devices: dict | None = None) -> tuple[str, str, str]:
    """``(what, kind, source)`` of a registry name or a device value ``"device:<name>.<column>"``.

    ``devices`` (name -> DeviceProfile) resolves device names beyond the bundled catalogue
    (e.g. a session's custom devices).

    >>> provenance_of("device:hdd-7200.avg_seek_ns")[1]
    'derived from a seed result'
    >>> provenance_of("memext.eviction_buffer_pages")[:2]
    ('eviction buffer in DRAM (buffered write-back)', 'assumed')
    """
    if key.startswith("device:"):
        from models.devices import get_device

        dev_name, _, column = key[len("device:"):].rpartition(".")
        dev = (devices or {}).get(dev_name) or get_device(dev_name)
        return (f"{dev.name} {column}", dev.value_kind(column), dev.source)
    p = param(key)
    return p.description, p.kind, p.provenance.source


def device_keys(name: str, columns=None) -> list[str]:
    """Keys ``"device:<name>.<column>"`` of a catalogue device's set numeric values (all, or ``columns``).

    >>> device_keys("hdd-7200", ["avg_seek_ns", "endurance_writes_per_cell"])
    ['device:hdd-7200.avg_seek_ns']
    """
    from models.devices import NUMERIC_COLUMNS, get_device

    dev = get_device(name)
    return [f"device:{name}.{c}" for c in (NUMERIC_COLUMNS if columns is None else columns)
            if getattr(dev, c) is not None]


_DEVICE_UNITS = {"access_unit_bytes": "bytes", "read_latency_ns": "ns", "write_latency_ns": "ns",
                 "read_bandwidth_MBps": "MB/s", "write_bandwidth_MBps": "MB/s",
                 "endurance_writes_per_cell": "writes/cell", "avg_seek_ns": "ns", "rpm": "rev/min"}


def unit_of(key: str) -> str:
    """The unit of a registry name's or device key's value ("-" when it has none).

    >>> unit_of("device:dram.read_latency_ns"), unit_of("memext.submit_ns")
    ('ns', 'ns')
    """
    if key.startswith("device:"):
        return _DEVICE_UNITS.get(key.rpartition(".")[2], "-")
    return PARAMS[key].unit or "-"


def provenance_table(keys, devices: dict | None = None) -> pd.DataFrame:
    """Registry names and device keys resolved to ``key, what, value, unit, kind, source`` rows (no repeats).

    >>> provenance_table(["memext.submit_ns", "device:dram.read_latency_ns"])[["key", "value", "kind"]]
                               key   value       kind
    0             memext.submit_ns  3500.0  published
    1  device:dram.read_latency_ns   101.5  published
    """
    from models.devices import get_device

    rows = []
    for k in dict.fromkeys(keys):
        what, kind, source = provenance_of(k, devices)
        if k.startswith("device:"):
            dev_name, _, col = k[len("device:"):].rpartition(".")
            dev = (devices or {}).get(dev_name) or get_device(dev_name)
            value, unit = getattr(dev, col), unit_of(k)
        else:
            value, unit = PARAMS[k].value, PARAMS[k].unit
        rows.append({"key": k, "what": what, "value": value, "unit": unit, "kind": kind, "source": source})
    return pd.DataFrame(rows, columns=["key", "what", "value", "unit", "kind", "source"])


def depends_on_unverified(keys, devices: dict | None = None) -> list[tuple[str, str, str, str]]:
    """The keys among ``keys`` whose kind is derived or assumed: ``(key, what, kind, source)``.

    >>> [k for k, *_ in depends_on_unverified(["memext.submit_ns", "memext.eviction_buffer_pages"])]
    ['memext.eviction_buffer_pages']
    """
    out = []
    for k in dict.fromkeys(keys):
        what, kind, source = provenance_of(k, devices)
        if kind in UNVERIFIED:
            out.append((k, what, kind, source))
    return out


#: Module-level numeric constants of ``models/`` that are not model parameters (units, formats,
#: limits, sweep grids, the papers' own figures used only for comparison), each with the reason.
#: ``tests/models/test_provenance.py`` fails on any other UPPER_CASE numeric constant that does
#: not read :func:`param`.
NOT_PARAMETERS: dict[str, str] = {
    "models.uncertainty.core.NEGLIGIBLE_SPREAD": "wording threshold of the How sure? sentence (a band under 0.1 % of "
                                                 "the point names no decisive input), not a model input",
    "models.endurance.lifetime.SECONDS_PER_YEAR": "unit (Julian year)",
    "models.endurance.lifetime.GB": "unit (decimal gigabyte)",
    "models.endurance.wear._CODE": "scheme codes",
    "models.endurance.wear.PAPER_LIFE_RATE": "paper figure for comparison (the validation ledger), not an input",
    "models.endurance.wear.PAPER_IMPROVEMENT_SFC_VS_SG": "paper figure for comparison, not an input",
    "models.endurance.write_reduction.PAGE_BYTES": "unit (4 KiB page of the page pairs)",
    "models.endurance.write_reduction._WORDS": "unit (4-byte words per page)",
    "models.endurance.write_reduction._LINE_WORDS": "unit (4-byte words per line)",
    "models.endurance.write_reduction.PAPER_SAVINGS": "paper figures for comparison, not an input",
    "models.memory.memory_extension.PAGE_BYTES": "unit (4 KiB OS page)",
    "models.memory.memory_extension.DRAM_FRACTIONS": "sweep grid of the paper's figures",
    "models.memory.memory_extension.PAPER_SLOWDOWN_25": "paper figures for comparison (the derivation of "
                                                        "memext.fault_overhead_paper_ns starts from them)",
    "models.memory.memory_extension._COUNTER_MAX": "policy codes",
    "models.memory.paging.PAGE_SIZES": "sweep grid (the paper's page sizes)",
    "models.memory.paging.LATENCY_MULTIPLES": "sweep grid (the paper's relative latencies)",
    "models.memory.paging.REFERENCE_PAGE_BYTES": "unit (4 KiB page defining memory fractions)",
    "models.sim.policies._RING": "policy codes (the ring kernel per policy: counter ceiling 0 FIFO, 1 CLOCK, "
                                 "-1 = read at run time for age)",
    "models.sim.primitives._ONE": "math constant",
    "models.sim.shards._ONE": "math constant",
    "models.sim.shards._SCALE": "math constant (2^53)",
    "models.sim.sampling._SCALE": "math constant (2^53)",
    "models.sim.shards._PREFIX": "chunk length of the fixed-size pre-filter (speed only, same results)",
    "models.sim.sampling._GOLDEN": "splitmix64 hash constant",
    "models.sim.sampling._MIX1": "splitmix64 hash constant",
    "models.sim.sampling._MIX2": "splitmix64 hash constant",
    "models.sim.stack_distance._ONE": "math constant",
    "models.storage.file_cache_sim.DEFAULT_FRACTIONS": "sweep grid (x axis of Figures 3-5)",
    "models.storage.file_cache.STEADY_SIZES": "measurement grid (block sizes of data/measurements/insertion_cost)",
    "models.storage.workload.fit._WB_TOL": "numerical tolerance of a fixed point, not a model parameter",
    "models.storage.filebench.MAX_THREADS": "input limit",
    "models.storage.filebench.MAX_FILES": "input limit",
    "models.storage.filebench.MAX_IOSIZE_BYTES": "input limit",
    "models.storage.filebench._MULT": "unit suffixes",
    "models.storage.hdd.spec.SECTOR_BYTES": "unit (512 B sector)",
    "models.storage.hdd.coverage.PARAMETERS": "DiskSim parameter switch values the model implements (a coverage "
                                              "table), not inputs",
    "models.storage.hdd.validation.DISKSIM_DEMERIT_MS": "DiskSim's own results for comparison, not an input",
    "models.storage.workload.costs.BLOCK": "unit (4 KiB file-system block)",
    "models.storage.workload.fit.IOSIZES": "sweep grid (I/O sizes of seed 000 Fig. 5)",
    "models.storage.workload.personalities.TABLE1": "seed 000 Table 1 (published): the paper's workload "
                                                    "settings, a workload definition rather than a model constant",
    "models.storage.write_cache.SECTOR_BYTES": "unit (512 B sector)",
    "models.storage.write_cache.BLOCK_SECTORS": "format (4 KiB PCM block = 8 sectors, one 8-bit bitmap)",
    "models.storage.write_cache.REGION_SECTORS": "format (HALO's 1 MiB bucket region, seed 003 §III)",
    "models.storage.write_cache.PAPER_CACHE_MB": "sweep grid (the paper's cache sizes, Figures 6-8)",
    "models.traces.blocks.MAX_BLOCK_ACCESSES": "memory limit",
    "models.traces.formats.csv._READ_OPS": "format (SCSI opcodes)",
    "models.traces.formats.csv._WRITE_OPS": "format (SCSI opcodes)",
    "models.traces.formats.lackey._HEX": "format (parser table)",
    "models.traces.formats.lackey._KIND_OF": "format (parser table)",
    "models.traces.formats.npz.FORMAT_VERSION": "format version",
    "models.traces.formats.npz.LINE_BYTES": "format (64-byte address granularity)",
    "models.traces.formats.parsing.I64_MAX": "math constant",
    "models.traces.formats.parsing.TIME_UNITS": "units",
    "models.traces.loader.MAX_REQUESTS": "input limit",
    "models.traces.loader.DEFAULT_SYNTHETIC_REQUESTS": "trace length of a preset loaded by name (a size, "
                                                       "not a property of the workload)",
    "models.traces.source.CHUNK_BYTES": "reader buffer size",
    "models.traces.source.MAX_LINE_BYTES": "input limit",
    "models.errors.MAX_MESSAGE_CHARS": "message format (longest message shown)",
    "models.traces.source.MAX_INPUT_BYTES": "input limit",
    "models.traces.source.QUOTE_CHARS": "message format (quoted content length)",
    "models.traces.source.GZIP_MAGIC": "format (magic bytes)",
    "models.traces.source.ZSTD_MAGIC": "format (magic bytes)",
    "models.traces.formats.parsing.DEVICE_MAX": "math constant (int32 range)",
    "models.traces.formats.npz._META_CHARS": "input limit",
    "models.traces.formats.EXAMPLES": "format examples (generated test fixtures)",
    "models.traces.formats.lcs.MAGIC": "format (magic number)",
    "models.traces.formats.lcs.HEADER_BYTES": "format (header size)",
    "models.traces.formats.lcs._END_MAGIC_AT": "format (header layout)",
    "models.traces.formats.lcs._WRITE_OPS": "format (libCacheSim operation codes)",
    "models.traces.formats.lcs._READ_OPS": "format (libCacheSim operation codes)",
    "models.traces.formats.objects.OBJECT_SLOT_BITS": "layout (an object's address slot, 4 GiB)",
    "models.traces.formats.objects._SLOT_BYTES": "layout (an object's address slot, 4 GiB)",
    "models.traces.formats.objects.MAX_OBJECTS": "math constant (slots within the int64 byte range)",
    "models.traces.detect._PEEK_BYTES": "reader buffer size (format sniffing)",
    "models.sweep.hostshare.STALE_S": "house-keeping age of a sweep's leftover shared-split folder (no model input)",
    "models.sweep.registry._BLOCK": "default analysis block size of the sweep adapters (the CLI's --block-size default)",
    "models.traces.blocks.MAX_REQUEST_BLOCKS": "memory limit",
    "models.storage.write_cache.MAX_CACHE_MB": "input limit",
    "models.traces.synthetic.KIB": "unit",
    "models.traces.synthetic.GIB": "unit",
}

