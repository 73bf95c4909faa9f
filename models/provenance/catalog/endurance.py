"""Registry declarations of the endurance models: lifetime, write reduction, wear leveling.

Each ``declare_<model>(add)`` registers its model's constants with ``add`` (in the order of
:data:`models.provenance.catalog.DECLARATIONS`, which fixes the registry's order).
"""

from __future__ import annotations

from models.provenance.catalog._common import EXACT, Add, exact
from models.provenance_kinds import ASSUMED, DERIVED, PUBLISHED, SIMULATED

__all__ = ["declare_lifetime", "declare_write_reduction", "declare_wear"]


def declare_lifetime(add: Add) -> None:
    # write_rate_for_lifetime(16e9, 1e7, 5.0, wear_efficiency=1.0) (the paper's closed form assumes ideal
    # leveling), written out so this module imports no model
    rate = 16e9 * 1e7 / (5.0 * (365.25 * 24 * 3600.0))
    add("lifetime.lulesh_write_rate_Bps", rate, "bytes/s",
        "cell write rate of Lulesh on the PCM memory extension (seed 002's one published rate)",
        DERIVED, "inverted from seed 002 §5.1.3 / Fig. 9: Lulesh wears a 16 GB, 1e7-endurance PCM extension "
                 "out 'in about 5 years' (baseline)", rate * 5.0 / 7.0, rate * 5.0 / 3.0,
        "'about 5 years' read as 3-7 years", "002")
    add("lifetime.fail_fraction", 1e-3, "-", "share of worn-out lines at which the device counts as failed",
        ASSUMED, "seed 002 gives no failure criterion; one line in a thousand (spare lines cover fewer)",
        1e-6, 0.1, "wide stated range", "002")
    add("lifetime.endurance_sigma", 0.25, "-", "spread (sd of ln endurance) of the per-line endurance on the "
        "Lifetime page (the models' default 0 = identical lines)",
        ASSUMED, "seed 002 gives one endurance per technology; a moderate lognormal spread to show its effect",
        0.0, 1.0, "wide stated range", "002")
    add("lifetime.wear_efficiency", 0.5769, "-",
        "wear-leveling efficiency = life rate (average / maximum bank writes; 1 = perfectly even wear)",
        SIMULATED, "our wear model (models/endurance/wear.py): one-pass SFC life rate averaged over seed 003's seven "
                   "synthetic stand-ins (fin1 0.220, fin2 0.185, dap 0.899, exchange 0.597, tpce 0.631, mail 0.587, "
                   "randw 0.919), data/measurements/wear_efficiency/run.sh -> wear_efficiency.csv; seed 003 Fig. 9 / "
                   "§V-B reports 0.9255 from its own simulation on its real traces (the paper's figure, compared in the "
                   "ledger's 003-fig9-sfc-life-rate, not used here); seed 002's closed form C E / W assumes ideal "
                   "leveling (1.0), an upper bound",
        0.185, 1.0, "our model's lowest per-trace SFC life rate (fin2, one pass) to ideal leveling (our long-run SFC "
        "rate, 1 by construction)", "003")


def declare_write_reduction(add: Add) -> None:
    add("nvm.line_bytes", 64, "bytes", "NVM write granularity (cache line): MFWR packing, DCW, wear unit of the "
        "lifetime Monte Carlo",
        PUBLISHED, "seed 002 §5.1.1: 'DIMM-based NVMs can be written in cache line granularity (e.g., 64B)'",
        *exact(64), EXACT, "002")


def declare_wear(add: Add) -> None:
    t1 = "seed 003 Table I and §IV"
    for name, v, unit, what in (("stripe_blocks", 64, "blocks", "blocks per stripe (32 KB of 512 B blocks)"),
                                ("stripes_per_bank", 512, "stripes", "stripes in a bank"),
                                ("banks_per_rank", 16, "banks", "banks in a rank"),
                                ("ranks", 8, "ranks", "ranks in the device"),
                                ("cubes", 32, "-", "SFC cubes splitting the stripe dimension")):
        add(f"wear.{name}", v, unit, what, PUBLISHED, t1, *exact(v), EXACT, "003")
    add("wear.block_bytes", 512, "bytes", "block (sector) size of the wear-leveling geometry",
        PUBLISHED, "seed 003 Table I: stripe size 64 blocks (32KB)", *exact(512), EXACT, "003")
    add("wear.sg_regions", 32, "-", "start-gap regions of the SG scheme",
        ASSUMED, "seed 003 does not give SG's region size; 32 regions = the size of an SFC cube, so SG and SFC "
                 "pay the same gap moves", 1, 128, "wide stated range", "003")
    add("wear.gap_interval_writes", 100, "writes", "psi: writes to a region between two gap moves",
        PUBLISHED, "Qureshi et al., MICRO'09 (start-gap, psi = 100), seed 003 ref. [25]", 50, 200,
        "stated band around the start-gap paper's choice")
