"""Registry declarations of the planner and the uncertainty layer.

Each ``declare_<model>(add)`` registers its model's constants with ``add`` (in the order of
:data:`models.provenance.catalog.DECLARATIONS`, which fixes the registry's order).
"""

from __future__ import annotations

from models.provenance.catalog._common import Add
from models.provenance_kinds import ASSUMED

__all__ = ["declare_planner", "declare_uncertainty"]


def declare_planner(add: Add) -> None:
    add("planner.write_cache_mb", 64.0, "MB", "PCM write-cache size of the planner's write-cache role",
        ASSUMED, "a small cache relative to the library's scaled-down traces, so the role ranks locality",
        16.0, 1024.0, "wide stated range")
    add("planner.file_cache_fraction", 0.1, "-", "DRAM file-cache size of the planner's file-cache role, as a "
        "fraction of the trace footprint", ASSUMED, "a cache much smaller than the footprint, as in seed 004 "
        "Figures 3-4 (x axis 0-100 % of the footprint)", 0.01, 0.5, "wide stated range")
    add("planner.paging_memory_fraction", 0.5, "-", "memory of the planner's paging role, as a fraction of the "
        "trace's 4 KiB-page footprint", ASSUMED, "half the footprint: the paging model's default memory size "
        "(models.memory.paging.paging_inputs)", 0.1, 0.9, "wide stated range")
    add("planner.replay_queue_depth", 32.0, "-", "requests a (non-HDD) device serves at once when the planner's "
        "storage role replays a block trace (the queue drains at depth / service time; each request still takes "
        "its full service time)", ASSUMED,
        "the SATA native command queue's 32 commands (Serial ATA NCQ), applied to every non-HDD device; at depth 1 "
        "a SATA SSD saturates under dense traces such as mqsim:tpcc-small and the queue, not the device, decides",
        1.0, 64.0, "wide stated range")
    add("planner.tie_tolerance", 0.05, "-", "relative difference within which a plan row's value (baseline / device) "
        "reads 'about the same' instead of wins / loses (1 / (1 + tol) .. 1 + tol)", ASSUMED,
        "the models' inputs are catalogue values with stated ranges of +-10 % or more (uncertainty.device_band.*), "
        "so a difference of a few per cent is not a verdict (issue 38: 0.9986x read 'loses', 1.01x 'wins')",
        0.01, 0.1, "wide stated range")
    add("planner.horizon_years", 5.0, "years", "planning horizon of the planner's economics: a role's device cost "
        "counts the replacements its wear-out needs within it (models.planner.economics)", ASSUMED,
        "a server's usual depreciation and warranty period (enterprise drives' endurance is rated over 5 years, e.g. "
        "the DWPD of data/devices.csv); an input of the plan", 3.0, 7.0, "wide stated range")
    add("planner.dwpd_rating_years", 5.0, "years", "period a catalogue drive-writes-per-day figure is rated over: the "
        "planner's economics turn DWPD into writes per cell as DWPD x 365 days x this, for a device without a "
        "per-cell endurance (models.planner.economics.device_endurance)", ASSUMED,
        "both DWPD figures of data/devices.csv are rated over 5 years (Lenovo's P4500 guide; the Optane PMem "
        "figure of 360 PBW over 5 years); write amplification 1", 3.0, 5.0, "wide stated range")


def declare_uncertainty(add: Add) -> None:
    why = ("the catalogue states one value per device column, no range; a band by provenance kind for the "
           "uncertainty layer (models.uncertainty)")
    add("uncertainty.device_band.measured", 0.1, "-", "relative half-width of a measured catalogue value's range",
        ASSUMED, why, 0.05, 0.2, "wide stated range")
    add("uncertainty.device_band.published", 0.2, "-", "relative half-width of a published (or user-typed) "
        "catalogue value's range", ASSUMED, why, 0.1, 0.5, "wide stated range")
    add("uncertainty.device_band.computed", 0.2, "-", "relative half-width of a computed catalogue value's range "
        "(a formula of published or measured values: their band)", ASSUMED, why + "; as a published value, the "
        "inputs' error carried through the formula", 0.1, 0.5, "wide stated range")
    add("uncertainty.device_band.simulated", 2.0, "-", "factor below and above a simulated catalogue value "
        "(a simulation's parameter or output: value / f .. value x f)", ASSUMED, why + "; a simulation is not a "
        "measurement of the device, as wide as a derived value", 1.5, 4.0, "wide stated range")
    add("uncertainty.device_band.derived", 2.0, "-", "factor below and above a derived catalogue value "
        "(value / f .. value x f)", ASSUMED, why, 1.5, 4.0, "wide stated range")
    add("uncertainty.device_band.assumed", 3.0, "-", "factor below and above an assumed catalogue value "
        "(value / f .. value x f)", ASSUMED, why, 2.0, 10.0, "wide stated range")
    add("uncertainty.wide_factor", 4.0, "-", "a positive range spanning this factor or more is sampled uniformly "
        "in its logarithm (derived and assumed values)", ASSUMED,
        "a range over a decade or so is a statement about the order of magnitude, not the value", 2.0, 10.0,
        "wide stated range")
