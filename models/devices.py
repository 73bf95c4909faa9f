"""Device catalogue: latency, bandwidth and endurance of memory and storage devices.

Profiles are loaded by name from the bundled ``data/devices.csv`` (every row carries its
source; see ``data/SOURCES.md``). Users can build custom profiles with
:class:`DeviceProfile` directly.

References
----------
.. [1] J. Yang, J. Kim, M. Hoseinzadeh, J. Izraelevitz, S. Swanson, "An Empirical Guide to
   the Behavior and Use of Scalable Persistent Memory", USENIX FAST 2020.
.. [2] NVMain 2.0, ``Config/PCM_ISSCC_2012_4GB.config`` (Samsung 20 nm 8 Gb PRAM, ISSCC 2012).
.. [3] DiskSim 4.0 validated drive models (``barracuda.*``), CMU PDL.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import Field, model_validator

from models._base import ModelInput

__all__ = ["DeviceProfile", "DeviceKind", "load_catalogue", "get_device", "device_names"]

DeviceKind = Literal["dram", "scm", "pcm", "flash", "ssd", "hdd", "custom"]


class DeviceProfile(ModelInput):
    """One memory or storage device.

    Latencies are for one access of ``access_unit_bytes``; bandwidths, when given, are
    sustained sequential figures. When a bandwidth is missing it is derived from the
    access unit and latency (one access at a time).

    >>> d = get_device("pcm-memext")
    >>> d.read_latency_ns, d.write_latency_ns, d.endurance_writes_per_cell
    (150.0, 1500.0, 10000000.0)
    >>> round(d.transfer_ns(4096, write=False), 1)
    150.0
    """

    name: str = Field(min_length=1, max_length=64, description="identifier (catalogue key)")
    label: str = Field(default="", max_length=120, description="human-readable name")
    kind: DeviceKind = Field(default="custom", description="device family")
    byte_addressable: bool = Field(default=False, description="load/store accessible (memory bus)")
    access_unit_bytes: int = Field(default=4096, gt=0, le=1 << 30, description="access unit [bytes]")
    read_latency_ns: float = Field(gt=0, le=1e12, description="latency of one read of the access unit [ns]")
    write_latency_ns: float = Field(gt=0, le=1e12, description="latency of one write of the access unit [ns]")
    read_bandwidth_MBps: float | None = Field(default=None, gt=0, le=1e7, description="sequential read bandwidth [MB/s, 1e6 B/s]")
    write_bandwidth_MBps: float | None = Field(default=None, gt=0, le=1e7, description="sequential write bandwidth [MB/s, 1e6 B/s]")
    endurance_writes_per_cell: float | None = Field(default=None, gt=0, le=1e18, description="write endurance [writes per cell]; None = unlimited or unpublished")
    avg_seek_ns: float | None = Field(default=None, ge=0, le=1e11, description="HDD mean seek time [ns]")
    rpm: float | None = Field(default=None, gt=0, le=30000, description="HDD spindle speed [rev/min]")
    source: str = Field(default="user-defined", max_length=2000, description="where the numbers come from")

    @model_validator(mode="after")
    def _check_hdd(self) -> DeviceProfile:
        if self.kind == "hdd" and self.rpm is None:
            raise ValueError("rpm: an HDD profile needs its spindle speed")
        return self

    @property
    def effective_read_bandwidth_MBps(self) -> float:
        """Read bandwidth [MB/s]: the given figure, else access unit / read latency."""
        if self.read_bandwidth_MBps is not None:
            return self.read_bandwidth_MBps
        return self.access_unit_bytes / self.read_latency_ns * 1e3

    @property
    def effective_write_bandwidth_MBps(self) -> float:
        """Write bandwidth [MB/s]: the given figure, else access unit / write latency."""
        if self.write_bandwidth_MBps is not None:
            return self.write_bandwidth_MBps
        return self.access_unit_bytes / self.write_latency_ns * 1e3

    def transfer_ns(self, size_bytes: float, *, write: bool = False) -> float:
        """Time of one access of ``size_bytes`` [ns]: first-unit latency plus streaming the rest.

        ``latency + max(0, size - unit) / bandwidth``; for sizes up to the access unit the
        latency alone (devices transfer whole units).
        """
        if size_bytes < 0:
            raise ValueError(f"size_bytes must be >= 0, got {size_bytes}")
        lat = self.write_latency_ns if write else self.read_latency_ns
        bw = self.effective_write_bandwidth_MBps if write else self.effective_read_bandwidth_MBps
        extra = max(0.0, float(size_bytes) - self.access_unit_bytes)
        return lat + extra / (bw * 1e6) * 1e9

    def with_updates(self, **changes) -> DeviceProfile:
        """A validated copy with ``changes`` applied (profiles are immutable)."""
        return DeviceProfile.model_validate({**self.model_dump(), **changes})


def _optional(v):
    import math

    return None if v is None or (isinstance(v, float) and math.isnan(v)) else v


@cache
def load_catalogue() -> dict[str, DeviceProfile]:
    """All bundled device profiles, by name (from ``data/devices.csv``)."""
    from models.data import read_csv

    df = read_csv("devices.csv")
    out: dict[str, DeviceProfile] = {}
    for row in df.to_dict(orient="records"):
        row = {k: _optional(v) for k, v in row.items()}
        row["byte_addressable"] = str(row["byte_addressable"]).strip().lower() == "true"
        out[row["name"]] = DeviceProfile.model_validate(row)
    return out


def device_names() -> list[str]:
    """Names of the bundled device profiles.

    >>> "dram" in device_names() and "hdd-7200" in device_names()
    True
    """
    return list(load_catalogue())


def get_device(name: str) -> DeviceProfile:
    """The bundled device profile ``name``; an unknown name raises ``KeyError`` listing valid ones.

    >>> get_device("floppy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "unknown device 'floppy'; valid names: dram, ...
    """
    cat = load_catalogue()
    try:
        return cat[name]
    except KeyError:
        raise KeyError(f"unknown device {name!r}; valid names: {', '.join(cat)}") from None
