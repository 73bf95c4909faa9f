"""The roles of a plan (:func:`models.planner.plan.plan`): what each needs, its baseline, its metric.

The table of roles, values and like-for-like baselines is in :mod:`models.planner.plan`; each
role's evaluator is its own module (``role_file_cache``, ``role_storage``, ``role_memory``,
``role_write_cache``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models.devices import DeviceProfile

__all__ = ["ROLES_PLAN", "ROLE_NEEDS", "LIKE_FOR_LIKE", "ROLE_LEDGER_PAGES", "NEEDS_WHAT", "role_metric", "is_volatile"]

#: The roles of a plan, in the order of its rows.
ROLES_PLAN = ("file-cache", "storage", "paging", "memory-extension", "write-cache")
#: Workload kinds each role can use.
ROLE_NEEDS = {"file-cache": ("block",), "storage": ("filebench", "fio", "block"), "paging": ("memory",),
              "memory-extension": ("memory",), "write-cache": ("block",)}
#: The like-for-like baseline of each role: a catalogue device (or ``None``: no cache).
LIKE_FOR_LIKE = {"file-cache": "hdd-7200", "storage": "sata-ssd", "paging": "sata-ssd",
                 "memory-extension": "nand-flash", "write-cache": None}
#: Validation-ledger pages (``models/validation/ledger.csv`` column ``page``) of each role's models.
ROLE_LEDGER_PAGES = {"file-cache": ("file-cache-sim", "break-even"), "storage": ("workloads", "devices"),
                     "paging": ("paging",), "memory-extension": ("memory-extension",),
                     "write-cache": ("write-cache", "hdd-model")}
#: What to upload for a role that needs data, by the workload kind it needs.
NEEDS_WHAT = {"block": "a block I/O trace (MSR, SPC, blkparse, MQSim, ... CSV with or without its header)",
              "memory": "a memory-reference trace (valgrind lackey or the compact .npz)",
              "filebench": "a Filebench .f file, a fio job file / JSON result or a block I/O trace"}


def role_metric(role: str, workload_kind: str | None = None) -> str:
    """What a role's ``value`` measures (the unit is ``x``: baseline over device, > 1 = device wins).

    >>> role_metric("paging")
    'AMAT speedup (paging store)'
    """
    return {"file-cache": "storage access time speedup under a DRAM LRU file cache",
            "storage": ("time per I/O speedup (fio job mix)" if workload_kind == "fio"
                        else "mean response time speedup (block trace replay)" if workload_kind == "block"
                        else "file-workload throughput speedup"),
            "paging": "AMAT speedup (paging store)",
            "memory-extension": "memory-extension slowdown, baseline / device",
            "write-cache": "HDD-side time saved by the write cache"}[role]


def is_volatile(dev: DeviceProfile) -> bool:
    """A volatile device (DRAM): it cannot be storage, a durable write cache or a paging store."""
    return dev.kind == "dram"
