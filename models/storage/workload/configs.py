"""Storage configurations of seed 000: file-system mode, device, CPU, page cache and VM host.

A :class:`StorageConfig` says how a file workload reaches its data: ext4 with the page cache
over a block device (``mode="pagecache"``) or ext4-DAX on a byte-addressable device
(``mode="dax"``), optionally inside a VM whose virtual PCM is a file on a host device (the
paper's PCM-DRAM / PCM-SSD / PCM-HDD emulation: the guest's DAX accesses go through the
host's mapping of that file, so host memory, the host device and the host's dirty
write-back count; see :mod:`~models.storage.workload.demands`). :data:`PAPER_CONFIGS` are
the paper's five cases, :data:`HEADLINE_CONFIGS` add native ext4-DAX on PCM.

Constants and their sources
---------------------------
- Devices: ``data/devices.csv`` (each row cites its source).
- ``CPU_CORES_PAPER = 6``: the paper's Intel i7-7800X has 6 cores (seed 000 §4.1).
- ``PAGE_CACHE_BYTES = 8 GiB``: ASSUMPTION. The paper's host has 16 GB; the guest's memory
  is not published. We take half of the host for the guest page cache and the other half
  (``HOST_MEMORY_BYTES``) for the host's mapping of the vPCM backing file.
- ``VIRT_PER_OP_NS = 2000``: ASSUMPTION, order of a KVM VM exit + host handling
  (a few thousand cycles at 3.5 GHz); the paper does not measure it.
- Device parallelism (``device_servers``): HDD 1 (one actuator); SATA SSD 8 (ASSUMPTION,
  typical flash channel count; with the catalogue's 90 us 4 KiB read it gives ~89 K random
  IOPS, a usual SATA datasheet figure); Micron PSD 3 (three daughter boards, each with its
  own controller, seed 001 §II.A); DAX on PCM 1 (one shared LPDDR x64 bus, NVMain
  config); DRAM 1.

References
----------
.. [1] Seed 000: Filebench on a DAX PCM file system (§4.1, Table 1).
.. [2] Seed 001: J.-Y. Jung et al., "Characterizing a Real PCM Storage Device" (§II.A).
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import Field

from models._base import ModelInput
from models.devices import DeviceProfile, get_device
from models.provenance import device_keys, param, param_names

__all__ = [
    "PAPER_CONFIGS",
    "HEADLINE_CONFIGS",
    "CPU_CORES_PAPER",
    "PAGE_CACHE_BYTES",
    "HOST_MEMORY_BYTES",
    "VIRT_PER_OP_NS",
    "StorageConfig",
    "config_names",
    "get_config",
    "provenance_keys_for",
]

GiB = float(1 << 30)
#: Registry ``workload.*`` (:mod:`models.provenance`): values and their provenance.
CPU_CORES_PAPER = param("workload.cpu_cores").value
PAGE_CACHE_BYTES = param("workload.page_cache_bytes").value
HOST_MEMORY_BYTES = param("workload.host_memory_bytes").value
VIRT_PER_OP_NS = param("workload.virt_per_op_ns").value
_SSD_SERVERS = param("workload.ssd_servers").value
_PSD_SERVERS = param("workload.psd_servers").value


class StorageConfig(ModelInput):
    """A storage configuration: file-system mode, device and host.

    >>> get_config("pcm-dax").mode, get_config("hdd").device.name
    ('dax', 'hdd-7200')
    """

    name: str = Field(min_length=1, max_length=64)
    label: str = Field(default="", max_length=200)
    mode: Literal["pagecache", "dax"] = Field(description="ext4 + page cache, or ext4-DAX")
    device: DeviceProfile
    device_servers: int = Field(default=1, ge=1, le=1024, description="parallel service units of the device [-]")
    cpu_cores: int = Field(default=CPU_CORES_PAPER, ge=1, le=1024, description="CPU servers [-]")
    page_cache_bytes: float = Field(default=PAGE_CACHE_BYTES, gt=0, le=1e15, description="page cache size [bytes]")
    virt_per_op_ns: float = Field(default=0.0, ge=0, le=1e9, description="VM overhead per data/sync call [ns]")
    host_device: DeviceProfile | None = Field(default=None, description="device holding the vPCM backing file")
    host_device_servers: int = Field(default=1, ge=1, le=1024, description="parallel service units of the host device [-]")
    host_memory_bytes: float = Field(default=HOST_MEMORY_BYTES, gt=0, le=1e15, description="host memory mapping the vPCM file [bytes]")


def _cfg(name, label, mode, dev, servers, **kw) -> StorageConfig:
    return StorageConfig(name=name, label=label, mode=mode, device=get_device(dev), device_servers=servers, **kw)


@cache
def _configs() -> dict[str, StorageConfig]:
    out = [
        _cfg("hdd", "ext4 + page cache on HDD", "pagecache", "hdd-7200", 1),
        _cfg("ssd", "ext4 + page cache on SATA SSD", "pagecache", "sata-ssd", _SSD_SERVERS),
        _cfg("pcm-block", "ext4 + page cache on PCM block device (Micron PSD)", "pagecache", "pcm-psd-micron",
             _PSD_SERVERS),
        _cfg("pcm-dax", "ext4-DAX on PCM (Samsung 20 nm, native)", "dax", "pcm-samsung-20nm", 1),
        _cfg("optane-dax", "ext4-DAX on Optane DC PMM (native)", "dax", "optane-dcpmm", 1),
        _cfg("pcm-dram", "ext4-DAX on vPCM in a VM, backing file on DRAM", "dax", "dram", 1,
             virt_per_op_ns=VIRT_PER_OP_NS),
        _cfg("pcm-ssd", "ext4-DAX on vPCM in a VM, backing file on SSD", "dax", "dram", 1,
             virt_per_op_ns=VIRT_PER_OP_NS, host_device=get_device("sata-ssd"), host_device_servers=_SSD_SERVERS),
        _cfg("pcm-hdd", "ext4-DAX on vPCM in a VM, backing file on HDD", "dax", "dram", 1,
             virt_per_op_ns=VIRT_PER_OP_NS, host_device=get_device("hdd-7200")),
    ]
    return {c.name: c for c in out}


#: Seed 000's five cases (Fig. 2(a)): PCM emulated on a file on HDD / SSD / DRAM, page-cached HDD / SSD.
PAPER_CONFIGS: tuple[str, ...] = ("pcm-hdd", "pcm-ssd", "pcm-dram", "hdd", "ssd")
#: The headline comparison: the paper's five plus native ext4-DAX on a real PCM device (not in the paper).
HEADLINE_CONFIGS: tuple[str, ...] = (*PAPER_CONFIGS, "pcm-dax")


def config_names() -> list[str]:
    """Names of the preset configurations.

    >>> config_names()[:4]
    ['hdd', 'ssd', 'pcm-block', 'pcm-dax']
    """
    return list(_configs())


def get_config(name: str | StorageConfig, **changes) -> StorageConfig:
    """A preset configuration by name (``KeyError`` listing the valid ones), with ``changes``.

    >>> get_config("hdd", page_cache_bytes=1e9).page_cache_bytes
    1000000000.0
    """
    if isinstance(name, StorageConfig):
        cfg = name
    else:
        try:
            cfg = _configs()[name]
        except KeyError:
            raise KeyError(f"unknown configuration {name!r}; valid: {', '.join(_configs())}") from None
    if changes:
        cfg = StorageConfig.model_validate({**cfg.model_dump(), **changes})
    return cfg


# ----------------------------------------------------------------------------- provenance of the results
def provenance_keys_for(configs) -> list[str]:
    """Provenance keys (:mod:`models.provenance`) of the workload model evaluated on ``configs``
    (:class:`StorageConfig`): the page cache's read and insertion costs, every ``workload.*`` parameter,
    every value of the configurations' devices (each once) and of the catalogue DRAM.

    >>> provenance_keys_for([get_config("pcm-hdd")])[-1]
    'device:dram.write_bandwidth_MBps'
    """
    devs = {d.name: d for c in configs for d in (c.device, c.host_device) if d is not None}
    return ["file_cache.pagecache_read_4k_ns", "file_cache.pagecache_insert_4k_ns", *param_names("workload."),
            *(k for d in devs.values() for k in device_keys(d)), *device_keys("dram")]
