"""Device catalogue: latency, bandwidth and endurance of memory and storage devices.

Profiles are loaded by name from the bundled ``data/devices.csv`` (every row carries its
source; see ``data/SOURCES.md``). Its ``provenance`` column gives the kind of every numeric
value of the row (``read_latency_ns=published;avg_seek_ns=derived;...``, kinds of
:mod:`models.provenance`), parsed into :attr:`DeviceProfile.provenance`; loading fails on a
numeric value without a kind, a kind without a value, or an unknown column or kind. Users
can build custom profiles with :class:`DeviceProfile` directly; their values are
``user-defined`` unless they say otherwise.

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

from pydantic import Field, field_validator, model_validator

from models._base import ModelInput

__all__ = ["DeviceProfile", "DeviceKind", "NUMERIC_COLUMNS", "parse_provenance", "format_provenance",
           "load_catalogue", "catalogue_from_frame", "get_device", "device_names", "catalogue_provenance"]

DeviceKind = Literal["dram", "scm", "pcm", "flash", "ssd", "hdd", "custom"]
#: Numeric columns of a device profile: each value carries a provenance kind.
NUMERIC_COLUMNS: tuple[str, ...] = ("access_unit_bytes", "read_latency_ns", "write_latency_ns", "read_bandwidth_MBps",
                                    "write_bandwidth_MBps", "endurance_writes_per_cell", "avg_seek_ns", "rpm")


def parse_provenance(text: str | None) -> dict[str, str]:
    """``"col=kind;col=kind"`` -> ``{col: full kind}`` (ValueError on an unknown column or kind, a repeat).

    >>> parse_provenance("read_latency_ns=published; avg_seek_ns=derived")
    {'read_latency_ns': 'published', 'avg_seek_ns': 'derived from a seed result'}
    >>> parse_provenance("latency=published")
    Traceback (most recent call last):
    ...
    ValueError: provenance: unknown column 'latency'; numeric columns: access_unit_bytes, read_latency_ns, write_latency_ns, read_bandwidth_MBps, write_bandwidth_MBps, endurance_writes_per_cell, avg_seek_ns, rpm
    """
    from models.provenance import normalize_kind

    out: dict[str, str] = {}
    for item in str(text or "").split(";"):
        if not item.strip():
            continue
        col, eq, kind = item.partition("=")
        col = col.strip()
        if not eq:
            raise ValueError(f"provenance: expected column=kind, got {item.strip()!r}")
        if col not in NUMERIC_COLUMNS:
            raise ValueError(f"provenance: unknown column {col!r}; numeric columns: {', '.join(NUMERIC_COLUMNS)}")
        if col in out:
            raise ValueError(f"provenance: column {col!r} given twice")
        try:
            out[col] = normalize_kind(kind)
        except ValueError as e:
            raise ValueError(f"provenance: {col}: {e}") from None
    return out


def format_provenance(prov: dict[str, str]) -> str:
    """The inverse of :func:`parse_provenance`, short kinds, in column order.

    >>> format_provenance({"rpm": "published", "avg_seek_ns": "derived from a seed result"})
    'avg_seek_ns=derived;rpm=published'
    """
    from models.provenance import KIND_ALIASES

    short = {full: a for a, full in reversed(list(KIND_ALIASES.items()))}
    return ";".join(f"{c}={short.get(prov[c], prov[c])}" for c in NUMERIC_COLUMNS if c in prov)


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
    provenance: dict[str, str] = Field(default_factory=dict, description="numeric column -> provenance kind "
                                       "(models.provenance); a column not listed is user-defined or assumed")

    @field_validator("provenance", mode="before")
    @classmethod
    def _parse_provenance(cls, v):
        if v is None:
            return {}
        if isinstance(v, str):
            return parse_provenance(v)
        if isinstance(v, dict):
            return parse_provenance(";".join(f"{k}={kind}" for k, kind in v.items()))
        raise ValueError("provenance: expected 'column=kind;...' or a dict column -> kind")

    @model_validator(mode="after")
    def _check_hdd(self) -> DeviceProfile:
        if self.kind == "hdd" and self.rpm is None:
            raise ValueError("rpm: an HDD profile needs its spindle speed")
        return self

    def __hash__(self) -> int:  # the provenance dict is hashed as sorted items
        return hash(tuple((k, tuple(sorted(v.items())) if isinstance(v, dict) else v)
                          for k, v in self.__dict__.items()))

    def value_kind(self, column: str) -> str:
        """Provenance kind of the value of ``column`` (a numeric column).

        Listed kinds come from :attr:`provenance`; an unlisted value is ``user-defined`` when
        the profile's source says so (custom devices) and ``assumed`` otherwise.

        >>> get_device("hdd-7200").value_kind("avg_seek_ns")
        'derived from a seed result'
        >>> DeviceProfile(name="x", read_latency_ns=1, write_latency_ns=1).value_kind("read_latency_ns")
        'user-defined'
        """
        from models.provenance import ASSUMED, USER_DEFINED

        if column not in NUMERIC_COLUMNS:
            raise KeyError(f"unknown numeric column {column!r}; valid: {', '.join(NUMERIC_COLUMNS)}")
        if column in self.provenance:
            return self.provenance[column]
        return USER_DEFINED if self.source.strip().lower().startswith("user") else ASSUMED

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
        """A validated copy with ``changes`` applied (profiles are immutable).

        Numeric values changed without a ``provenance`` in ``changes`` become ``user-defined``.

        >>> get_device("pcm-memext").with_updates(write_latency_ns=900).value_kind("write_latency_ns")
        'user-defined'
        """
        from models.provenance import USER_DEFINED

        data = {**self.model_dump(), **changes}
        if "provenance" not in changes:
            prov = dict(self.provenance)
            for c in NUMERIC_COLUMNS:
                if c in changes and changes[c] != getattr(self, c):
                    if changes[c] is None:
                        prov.pop(c, None)
                    else:
                        prov[c] = USER_DEFINED
            data["provenance"] = prov
        return DeviceProfile.model_validate(data)


def _optional(v):
    import math

    return None if v is None or (isinstance(v, float) and math.isnan(v)) else v


@cache
def load_catalogue() -> dict[str, DeviceProfile]:
    """All bundled device profiles, by name (from ``data/devices.csv``, :func:`catalogue_from_frame`)."""
    from models.data import read_csv

    return catalogue_from_frame(read_csv("devices.csv", dtype={"provenance": str}))


def catalogue_from_frame(df) -> dict[str, DeviceProfile]:
    """Device profiles of a catalogue table (the columns of ``data/devices.csv``), strictly.

    ValueError naming the row when the ``provenance`` column is missing, names an unknown
    column or kind, leaves a numeric value without a kind or gives a kind to an empty
    column, or when a name repeats; pydantic's ValidationError for a bad value.
    """
    from models.provenance import USER_DEFINED

    if "provenance" not in df.columns:
        raise ValueError("devices.csv: missing the provenance column")
    out: dict[str, DeviceProfile] = {}
    for i, row in enumerate(df.to_dict(orient="records")):
        row = {k: _optional(v) for k, v in row.items()}
        where = f"devices.csv row {i + 1} ({row.get('name')})"
        row["byte_addressable"] = str(row["byte_addressable"]).strip().lower() == "true"
        try:
            prov = parse_provenance(row.get("provenance"))
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
        have = {c for c in NUMERIC_COLUMNS if row.get(c) is not None}
        missing = [c for c in NUMERIC_COLUMNS if c in have - set(prov)]
        if missing:
            raise ValueError(f"{where}: provenance: no kind for {', '.join(missing)}")
        extra = [c for c in NUMERIC_COLUMNS if c in set(prov) - have]
        if extra:
            raise ValueError(f"{where}: provenance: kind for empty column(s) {', '.join(extra)}")
        typed = [c for c, k in prov.items() if k == USER_DEFINED]
        if typed:
            raise ValueError(f"{where}: provenance: a bundled value cannot be user-defined ({', '.join(typed)})")
        row["provenance"] = prov
        if row["name"] in out:
            raise ValueError(f"{where}: duplicate device name")
        out[row["name"]] = DeviceProfile.model_validate(row)
    return out


def device_names() -> list[str]:
    """Names of the bundled device profiles.

    >>> "dram" in device_names() and "hdd-7200" in device_names()
    True
    """
    return list(load_catalogue())


def catalogue_provenance(devices=None):
    """Every numeric value of ``devices`` (default: the catalogue) with its kind, one row per value.

    Columns ``device, column, value, kind, source``.

    >>> t = catalogue_provenance(); sorted(set(t.kind)) <= ['assumed', 'derived from a seed result', 'published']
    True
    """
    import pandas as pd

    devs = load_catalogue().values() if devices is None else devices
    rows = [{"device": d.name, "column": c, "value": getattr(d, c), "kind": d.value_kind(c), "source": d.source}
            for d in devs for c in NUMERIC_COLUMNS if getattr(d, c) is not None]
    return pd.DataFrame(rows, columns=["device", "column", "value", "kind", "source"])


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
