"""Why a plan row is far from the seed paper's answer for its role: one sentence from the row's own inputs.

A role whose quantity a seed paper reports (:data:`PAPER_CLAIM`: the validation ledger's claim,
``models/validation/ledger.csv``) gets a note when the row's number differs from the paper's by more
than the ledger's "partly" factor (:data:`models.validation.rules.MAX_PARTLY_FACTOR`): the note names
the paper's number and setup and the inputs of this row that differ from it (the DRAM share, the fault
rate, the device's latency against the paper's device, the baseline, the trace's write share). Roles
whose quantity no seed paper reports (file cache behind DRAM against an HDD, paging AMAT against a SATA
SSD, a HALO cache against no cache) have no entry: there is nothing to compare, and the page says so.

The note rides in each row dict under ``paper_note`` (not a :meth:`PlanResult.to_frame` column: the
CSV's columns are a contract); :func:`paper_notes` collects them.
"""

from __future__ import annotations

import functools
import math

__all__ = ["PAPER_CLAIM", "paper_claim", "far_from_paper", "memext_note", "storage_note", "paper_notes",
           "NO_PAPER_NUMBER"]

#: The ledger claim whose paper number is each role's comparable answer (roles absent: none).
PAPER_CLAIM = {"memory-extension": "002-fig11-pcm-63.8", "storage": "000-abstract-up-to-500x"}
#: What a role without a paper number says instead of a note.
NO_PAPER_NUMBER = "no seed paper reports this role's quantity, so there is no paper number to compare with"


@functools.lru_cache(maxsize=8)
def paper_claim(claim_id: str) -> dict:
    """The ledger row of ``claim_id``: ``claim_id, statement, where, paper_number [unit], unit, status``.

    >>> c = paper_claim("002-fig11-pcm-63.8"); c["paper_number"], c["unit"]
    (63.8, '%')
    """
    import pandas as pd

    from models.validation.render import table_path

    led = pd.read_csv(table_path(), dtype=str, keep_default_na=False)
    row = led[led.claim_id == claim_id]
    if not len(row):
        raise KeyError(f"claim {claim_id!r} is not in the validation ledger")
    r = row.iloc[0]
    return {"claim_id": claim_id, "statement": r.statement, "where": r["where"], "unit": r.unit,
            "paper_number": float(r.paper_number), "status": r.status}


def far_from_paper(ours: float, paper: float) -> bool:
    """Whether ``ours`` and ``paper`` (same quantity, > 0) differ by more than the ledger's "partly"
    factor (:data:`~models.validation.rules.MAX_PARTLY_FACTOR`).

    >>> far_from_paper(20.7, 1.638), far_from_paper(2.0, 1.638)
    (True, False)
    """
    from models.validation.rules import MAX_PARTLY_FACTOR

    if not (math.isfinite(ours) and ours > 0 and paper > 0):
        return False
    return max(ours / paper, paper / ours) > MAX_PARTLY_FACTOR


def _pct(x: float) -> str:
    return f"{x:.2%}" if x < 0.01 else f"{x:.0%}"


def memext_note(device, result, cfg) -> str:
    """Why the slowdown of a memory extension on ``device`` (``result``: its
    :class:`~models.memory.memory_extension.MemExtResult` under ``cfg``) is far from seed 002's PCM
    slowdown at DRAM:NVM 1:4 (Fig. 11), or "" when it is not.

    The slowdown is 1 + faults per reference x cost per fault / work per reference (+ write stalls):
    the sentence gives each term of this row and the paper's setup beside it.
    """
    from models.devices import get_device
    from models.memory.memory_extension import PAGE_BYTES
    from models.planner.verdicts import short_num

    c = paper_claim(PAPER_CLAIM["memory-extension"])
    paper = 1.0 + c["paper_number"] / 100.0  # "degrades performance by 63.8 %" -> 1.638x
    ours = float(result.slowdown)
    if not far_from_paper(ours, paper):
        return ""
    read_ns, _ = cfg.latencies(device)
    paper_dev = get_device("pcm-memext")  # seed 002's simulated PCM (150/1500 ns page read/write)
    paper_read = paper_dev.transfer_ns(PAGE_BYTES, write=False)
    refs = max(int(result.references), 1)
    fault_rate = int(result.full_misses) / refs
    t = max(float(result.time_ns), 1e-300)
    stall = float(result.write_stall_ns) / t
    return (f"Seed 002 ({c['claim_id']}) finds a PCM extension {paper:.3g}× slower than DRAM only at DRAM:NVM "
            f"1:4 on 16 GB HPC runs; here the slowdown is {short_num(ours)}× because {_pct(fault_rate)} of this trace's references fault "
            f"with {cfg.dram_frac:.0%} of its {int(result.footprint_pages):,}-page footprint in DRAM, each fault "
            f"costs {cfg.fault_overhead_ns + read_ns:,.0f} ns (OS fault {cfg.fault_overhead_ns:,.0f} ns + the 4 KiB "
            f"read on {device.name}, {read_ns / paper_read:.3g}× the paper's PCM {paper_read:,.0f} ns) against "
            f"{cfg.base_ns_per_ref:.3g} ns of work per reference, and "
            + (f"waiting for page writes takes {_pct(stall)} of the run." if stall >= 5e-5
               else "no time is spent waiting for page writes."))


def storage_note(device, value: float, baseline, write_share: float | None, what: str) -> str:
    """Why a storage row (``value``: ``baseline`` / ``device`` [x]) is far from seed 000's headline (PCM up
    to 500x over traditional storage on write- and sync-heavy Filebench workloads), or "" when it is not.

    ``write_share``: the workload's share of writes [-] (None: not known); ``what``: the workload in words.
    """
    from models.devices import get_device
    from models.planner.verdicts import short_num

    c = paper_claim(PAPER_CLAIM["storage"])
    paper = c["paper_number"]
    if not far_from_paper(value, paper):
        return ""
    hdd = get_device("hdd-7200")
    b4, h4, d4 = (x.transfer_ns(4096, write=False) for x in (baseline, hdd, device))
    writes = f" with {_pct(write_share)} writes" if write_share is not None and math.isfinite(write_share) else ""
    return (f"Seed 000 ({c['claim_id']}) reports PCM up to {paper:,.0f}× faster than an HDD on sync-heavy Filebench "
            f"workloads; here {short_num(value)}× because the baseline is {baseline.name}, whose 4 KiB read "
            f"({short_num(b4 / 1e3)} µs) is {short_num(h4 / b4)}× faster than the HDD's ({hdd.name}, "
            f"{short_num(h4 / 1e3)} µs), {device.name} reads 4 KiB in {short_num(d4 / 1e3)} µs, and the workload is {what}{writes}.")


def paper_notes(rows) -> dict:
    """``{(workload, role, device): note}`` of the plan ``rows`` (dicts) that carry one."""
    return {(r["workload"], r["role"], r["device"]): r["paper_note"] for r in rows if r.get("paper_note")}
