"""Which registry values each planner role's numbers depend on (:mod:`models.provenance` keys).

:data:`ROLE_PROVENANCE` and :func:`provenance_keys` for the roles of the library ranking
(:mod:`models.planner.rank`), :func:`plan_provenance_keys` for the roles of a plan
(:mod:`models.planner.plan`) with the devices it compares.
"""

from __future__ import annotations

from models.devices import DeviceProfile, get_device
from models.planner.roles import LIKE_FOR_LIKE

__all__ = ["ROLE_PROVENANCE", "provenance_keys", "plan_provenance_keys"]


def _role_provenance() -> dict[str, tuple[str, ...]]:
    from models.provenance import device_keys, param_names

    pagecache = ("file_cache.pagecache_read_4k_ns", "file_cache.pagecache_insert_4k_ns")
    storage = (*pagecache, *param_names("workload."), *device_keys("dram"), *device_keys("pcm-samsung-20nm"))
    return {
        "storage-vs-hdd": (*storage, *device_keys("hdd-7200")),
        "storage-vs-ssd": (*storage, *device_keys("sata-ssd")),
        "file-cache": ("file_cache.io_stack_factor", *pagecache, *device_keys("pcm-samsung-20nm"),
                       *device_keys("dram")),
        "write-cache": ("planner.write_cache_mb", *param_names("write_cache."), *param_names("hdd.generic."),
                        *device_keys("hdd-7200"), "trace.synthetic_scale",
                        *(n for n in param_names("trace.") if n != "trace.synthetic_scale")),
        "memory-extension": ("memext.fault_overhead_ns", "memext.base_ns_per_ref", "memext.dram_frac",
                             *device_keys("pcm-memext", ["read_latency_ns", "write_latency_ns"]),
                             *device_keys("nand-flash", ["read_latency_ns", "write_latency_ns"])),
        "memory-lifetime": ("memext.nvm_capacity_bytes", "lifetime.wear_efficiency", "memext.base_ns_per_ref",
                            "memext.fault_overhead_ns",
                            *device_keys("pcm-memext", ["endurance_writes_per_cell"]),
                            *device_keys("nand-flash", ["endurance_writes_per_cell"])),
    }


#: Registry names and device values (``"device:<name>.<column>"``, :mod:`models.provenance`)
#: each role's numbers depend on.
ROLE_PROVENANCE: dict[str, tuple[str, ...]] = _role_provenance()


def provenance_keys(roles=None) -> list[str]:
    """The provenance keys of ranking ``roles`` (default: every role of :data:`models.planner.rank.ROLES`),
    without repeats.

    >>> "lifetime.lulesh_write_rate_Bps" in provenance_keys(["memory-lifetime"])  # measured rates, not Fig. 9's
    False
    """
    keys = [k for r in (ROLE_PROVENANCE if roles is None else roles) for k in ROLE_PROVENANCE[r]]
    return list(dict.fromkeys(keys))


def plan_provenance_keys(roles, devices, baseline: DeviceProfile | None = None) -> list[str]:
    """Provenance keys (:mod:`models.provenance`) of the parameters ``roles`` use with ``devices``."""
    from models.provenance import device_keys, param_names

    def dkeys(d):
        return [f"device:{d.name}.{c}" for c in ("access_unit_bytes", "read_latency_ns", "write_latency_ns",
                                                   "read_bandwidth_MBps", "write_bandwidth_MBps")
                if getattr(d, c) is not None]

    # every evaluated row's verdict reads the tie tolerance; its economics the horizon and the wear model
    keys: list[str] = (["planner.tie_tolerance", "planner.horizon_years", "planner.dwpd_rating_years",
                        "lifetime.wear_efficiency"] if roles else [])
    for role in roles:
        b = baseline or (get_device(LIKE_FOR_LIKE[role]) if LIKE_FOR_LIKE[role] else None)
        if role == "file-cache":
            keys += ["planner.file_cache_fraction", "file_cache.io_stack_factor", "file_cache.pagecache_read_4k_ns",
                     "file_cache.pagecache_insert_4k_ns", *device_keys("dram")]
        elif role == "storage":
            keys += [k for k in ROLE_PROVENANCE["storage-vs-ssd"] if not k.startswith("device:pcm")]
        elif role == "paging":
            keys += ["planner.paging_memory_fraction", *param_names("paging."), "device:dram.read_latency_ns",
                     "device:dram.read_bandwidth_MBps"]
        elif role == "memory-extension":
            keys += ["memext.fault_overhead_ns", "memext.base_ns_per_ref", "memext.dram_frac"]
        elif role == "write-cache":
            keys += [k for k in ROLE_PROVENANCE["write-cache"] if not k.startswith("trace.")]
        for d in (*devices, *([b] if b is not None else [])):
            keys += dkeys(d)
            keys += [f"device:{d.name}.{c}" for c in ("endurance_writes_per_cell", "endurance_DWPD", "price_usd_per_GB_low",
                                                       "price_usd_per_GB_high", "module_GB") if getattr(d, c) is not None]
    return list(dict.fromkeys(keys))
