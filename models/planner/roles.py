"""The planner's roles: what each ranks (metric and unit) and the provenance keys its numbers depend on.

>>> sorted(ROLES)[:2]
['file-cache', 'memory-extension']
"""

from __future__ import annotations

from models.provenance import device_keys, param_names

__all__ = ["ROLES", "ROLE_PROVENANCE", "provenance_keys"]

#: Role -> the metric it ranks by, with its unit.
ROLES = {
    "storage-vs-hdd": "PCM-DAX speedup vs page-cached HDD [x]",
    "storage-vs-ssd": "PCM-DAX speedup vs page-cached SSD [x]",
    "file-cache": "share of blocks a DRAM cache over PCM cannot help [-]",
    "write-cache": "HDD time saved by a PCM write cache (none / HALO) [x]",
    "memory-extension": "slowdown of a DRAM+PCM memory extension [x] (benefit = 1/slowdown)",
    "memory-lifetime": "PCM memory-extension lifetime [years]",
}


def _role_provenance() -> dict[str, tuple[str, ...]]:
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
        "memory-lifetime": ("lifetime.lulesh_write_rate_Bps", "memext.nvm_capacity_bytes", "lifetime.wear_efficiency",
                            *device_keys("pcm-memext", ["endurance_writes_per_cell"]),
                            *device_keys("nand-flash", ["endurance_writes_per_cell"])),
    }


#: Registry names and device values (``"device:<name>.<column>"``, :mod:`models.provenance`)
#: each role's numbers depend on.
ROLE_PROVENANCE: dict[str, tuple[str, ...]] = _role_provenance()


def provenance_keys(roles=None) -> list[str]:
    """The provenance keys of ``roles`` (default: every role), without repeats.

    >>> "lifetime.lulesh_write_rate_Bps" in provenance_keys(["memory-lifetime"])
    True
    """
    keys = [k for r in (ROLES if roles is None else roles) for k in ROLE_PROVENANCE[r]]
    return list(dict.fromkeys(keys))
