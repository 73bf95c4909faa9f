"""Device catalogue: latency, bandwidth and endurance of memory and storage devices.

Profiles are loaded by name from the bundled ``data/devices.csv`` (every row carries its
source; see ``data/SOURCES.md``). Its ``provenance`` column gives the kind of every numeric
value of the row (``read_latency_ns=published;avg_seek_ns=derived;...``, kinds of
:mod:`models.provenance_kinds`), parsed into :attr:`DeviceProfile.provenance`; loading fails on a
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

import numpy as np
from pydantic import Field, field_validator, model_validator

from models._base import ModelInput
from models.nesting import loads_json
from models.provenance_kinds import ASSUMED, KIND_ALIASES, USER_DEFINED, normalize_kind

__all__ = ["DeviceProfile", "DeviceKind", "transfer_time_ns", "NUMERIC_COLUMNS", "INFO_COLUMNS", "MODEL_COLUMNS", "PRICE_COLUMNS", "CSV_COLUMNS", "parse_provenance", "format_provenance",
           "load_catalogue", "catalogue_from_frame", "get_device", "device_names", "catalogue_provenance",
           "devices_to_frame", "devices_to_csv", "devices_from_csv", "encode_devices", "decode_devices"]

DeviceKind = Literal["dram", "scm", "pcm", "flash", "ssd", "hdd", "custom"]
#: Numeric columns of a device profile: each value carries a provenance kind.
NUMERIC_COLUMNS: tuple[str, ...] = ("access_unit_bytes", "read_latency_ns", "write_latency_ns", "read_bandwidth_MBps",
                                    "write_bandwidth_MBps", "interface_bandwidth_MBps", "endurance_writes_per_cell",
                                    "avg_seek_ns", "rpm", "endurance_DWPD", "price_usd_per_GB_low",
                                    "price_usd_per_GB_high", "module_GB")
#: Numeric columns no performance model reads (shown for reference: the link's raw rate is not the device's
#: bandwidth; a drive's rated drive writes per day; the price range and the product size, read only by the
#: planner's economics, :mod:`models.planner.economics`).
INFO_COLUMNS: tuple[str, ...] = ("interface_bandwidth_MBps", "endurance_DWPD", "price_usd_per_GB_low",
                                 "price_usd_per_GB_high", "module_GB")
#: The price columns of a device profile [USD per GB, 1e9 bytes] (a range; the date in ``price_date``).
PRICE_COLUMNS: tuple[str, ...] = ("price_usd_per_GB_low", "price_usd_per_GB_high")
#: Numeric columns the models read (:data:`NUMERIC_COLUMNS` without :data:`INFO_COLUMNS`).
MODEL_COLUMNS: tuple[str, ...] = tuple(c for c in NUMERIC_COLUMNS if c not in INFO_COLUMNS)
#: Columns of a device table (``data/devices.csv``, :func:`devices_to_frame`, :func:`devices_from_csv`), in order.
CSV_COLUMNS: tuple[str, ...] = ("name", "label", "kind", "byte_addressable", *NUMERIC_COLUMNS, "price_date", "source",
                                "provenance")


def parse_provenance(text: str | None) -> dict[str, str]:
    """``"col=kind;col=kind"`` -> ``{col: full kind}`` (ValueError on an unknown column or kind, a repeat).

    >>> parse_provenance("read_latency_ns=published; avg_seek_ns=derived")
    {'read_latency_ns': 'published', 'avg_seek_ns': 'derived from a seed result'}
    >>> parse_provenance("latency=published")
    Traceback (most recent call last):
    ...
    ValueError: provenance: unknown column 'latency'; numeric columns: access_unit_bytes, read_latency_ns, write_latency_ns, read_bandwidth_MBps, write_bandwidth_MBps, interface_bandwidth_MBps, endurance_writes_per_cell, avg_seek_ns, rpm, endurance_DWPD, price_usd_per_GB_low, price_usd_per_GB_high, module_GB
    """
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
    short = {full: a for a, full in reversed(list(KIND_ALIASES.items()))}
    return ";".join(f"{c}={short.get(prov[c], prov[c])}" for c in NUMERIC_COLUMNS if c in prov)


def transfer_time_ns(latency_ns, size_bytes, access_unit_bytes, bandwidth_MBps):
    """Time of one access of ``size_bytes`` [ns]: the first access unit's latency, the rest streamed.

    ``latency_ns + max(0, size_bytes - access_unit_bytes) / bandwidth``, vectorised (NumPy
    broadcasting over every argument; scalars give a float). The one implementation of a device's
    transfer time: :meth:`DeviceProfile.transfer_ns` and the uncertainty adapters (sampled
    latencies and bandwidths) call it.

    Parameters
    ----------
    latency_ns : array_like
        Latency of one access of the access unit [ns].
    size_bytes : array_like
        Bytes accessed [bytes], >= 0; up to the access unit the latency alone (whole units).
    access_unit_bytes : array_like
        The device's access unit [bytes].
    bandwidth_MBps : array_like
        Sustained bandwidth streaming the rest [MB/s, 1e6 B/s].

    Returns
    -------
    numpy.ndarray or float
        Transfer time [ns].

    Examples
    --------
    >>> transfer_time_ns(150.0, 4096, 64, 1000.0)
    4182.0
    >>> transfer_time_ns([100.0, 200.0], [64, 8192], 4096, 2000.0).tolist()
    [100.0, 2248.0]
    """
    lat, size, unit, bw = (np.asarray(x, dtype=float) for x in (latency_ns, size_bytes, access_unit_bytes,
                                                                bandwidth_MBps))
    out = lat + np.maximum(0.0, size - unit) / (bw * 1e6) * 1e9
    return out.item() if out.ndim == 0 else out


class DeviceProfile(ModelInput):
    """One memory or storage device.

    What each column means (the whole catalogue; ``data/SOURCES.md`` section devices.csv):

    - ``read_latency_ns``: one read of ``access_unit_bytes`` on an idle device as software waits
      for it: a memory device's load-to-use latency of one random line; a storage device's
      random read of one unit at queue depth 1 (a datasheet's "random read latency").
    - ``write_latency_ns``: one write of the unit until software may go on: a memory device's
      store + flush + fence into its persistence domain (for DRAM and Optane the memory
      controller's write-pending queue, not the media); a simulator row's media write pulse; a
      storage device's random write of one unit at queue depth 1 (on SSDs usually acknowledged
      from the controller's buffer, not a NAND program). Each row's source says which.
    - ``read_bandwidth_MBps`` / ``write_bandwidth_MBps``: sustained (sequential) bandwidth of the
      device's media as deployed in the source (all threads of the source's configuration for
      memory; the datasheet's sustained sequential figure for drives; the chip's program bandwidth
      times the chips of a rank for PCM): what the models read. When missing it is computed from
      the access unit and latency (one access at a time).
    - ``interface_bandwidth_MBps``: raw data rate of the link the device sits on (a SATA link, a
      PCIe link, the DDR/LPDDR channels of the source's configuration) after line coding, an upper
      bound; no model reads it (:data:`INFO_COLUMNS`).
    - ``endurance_writes_per_cell``: writes (program/erase cycles) per cell before wear-out.
    - ``endurance_DWPD``: a drive's rated drive writes per day over its warranty, as its vendor states
      endurance (read by no model: :data:`INFO_COLUMNS`; the per-cell figure is ``endurance_writes_per_cell``).
    - ``price_usd_per_GB_low`` / ``price_usd_per_GB_high``: the published price range [USD per GB,
      1e9 bytes] read on ``price_date``; read only by the planner's economics (:attr:`price_usd_per_GB`).
    - ``module_GB``: capacity of the smallest whole product (module, drive) of the device [GB, 1e9 bytes], or
      the catalogued drive's own capacity where the row is one drive: the unit a role's capacity is bought in
      and its writes are wear-levelled over (the planner's economics, unless the user gives a module size).

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
    interface_bandwidth_MBps: float | None = Field(default=None, gt=0, le=1e7, description="raw rate of the device's "
                                                   "link (SATA, PCIe, DDR channels) [MB/s, 1e6 B/s]; read by no model")
    endurance_writes_per_cell: float | None = Field(default=None, gt=0, le=1e18, description="write endurance [writes per cell]; None = unlimited or unpublished")
    avg_seek_ns: float | None = Field(default=None, ge=0, le=1e11, description="HDD mean seek time [ns]")
    rpm: float | None = Field(default=None, gt=0, le=30000, description="HDD spindle speed [rev/min]")
    endurance_DWPD: float | None = Field(default=None, gt=0, le=1e6, description="rated drive writes per day over the "
                                         "warranty [drive writes/day]; read by no model")
    price_usd_per_GB_low: float | None = Field(default=None, gt=0, le=1e6, description="low end of the device's price "
                                               "[USD per GB, 1e9 bytes]; None = not known")
    price_usd_per_GB_high: float | None = Field(default=None, gt=0, le=1e6, description="high end of the device's "
                                                "price [USD per GB, 1e9 bytes]; None = the low end")
    module_GB: float | None = Field(default=None, gt=0, le=1e7, description="capacity of the device's smallest "
                                    "whole product (module / drive) [GB, 1e9 bytes]; None = not known; read only by "
                                    "the planner's economics")
    price_date: str = Field(default="", max_length=40, description="when the price was read (e.g. 2019-04)")
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
        lo, hi = self.price_usd_per_GB_low, self.price_usd_per_GB_high
        if hi is not None and lo is None:
            raise ValueError("price_usd_per_GB_low: a price range needs its low end (give one price as the low end)")
        if lo is not None and hi is not None and hi < lo:
            raise ValueError(f"price_usd_per_GB_high: the high end ({hi:g}) is below the low end ({lo:g})")
        return self

    @property
    def price_usd_per_GB(self) -> float | None:
        """The price the planner uses [USD per GB, 1e9 bytes]: the middle of the range (the low end when only
        one price is given); None when the device has no price.

        >>> get_device("optane-dcpmm").price_usd_per_GB > 0, get_device("pcm-memext").price_usd_per_GB is None
        (True, True)
        """
        lo, hi = self.price_usd_per_GB_low, self.price_usd_per_GB_high
        if lo is None:
            return None
        return lo if hi is None else (lo + hi) / 2

    def with_price(self, usd_per_GB: float | None) -> DeviceProfile:
        """A copy priced at ``usd_per_GB`` [USD per GB] (a user's price: ``user-defined``; None removes it).

        >>> d = get_device("pcm-memext").with_price(2.0); d.price_usd_per_GB, d.value_kind("price_usd_per_GB_low")
        (2.0, 'user-defined')
        """
        return self.with_updates(price_usd_per_GB_low=usd_per_GB, price_usd_per_GB_high=usd_per_GB,
                                 price_date="" if usd_per_GB is None else "user-defined")

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
        if column not in NUMERIC_COLUMNS:
            raise KeyError(f"unknown numeric column {column!r}; valid: {', '.join(NUMERIC_COLUMNS)}")
        if column in self.provenance:
            return self.provenance[column]
        return USER_DEFINED if self.source.strip().lower().startswith("user") else ASSUMED

    @property
    def effective_read_bandwidth_MBps(self) -> float:
        """Read bandwidth [MB/s]: the given (media) figure, else access unit / read latency; never the
        interface rate (``interface_bandwidth_MBps``)."""
        if self.read_bandwidth_MBps is not None:
            return self.read_bandwidth_MBps
        return self.access_unit_bytes / self.read_latency_ns * 1e3

    @property
    def effective_write_bandwidth_MBps(self) -> float:
        """Write bandwidth [MB/s]: the given (media) figure, else access unit / write latency; never the
        interface rate (``interface_bandwidth_MBps``)."""
        if self.write_bandwidth_MBps is not None:
            return self.write_bandwidth_MBps
        return self.access_unit_bytes / self.write_latency_ns * 1e3

    def transfer_ns(self, size_bytes: float, *, write: bool = False) -> float:
        """Time of one access of ``size_bytes`` [ns]: first-unit latency plus streaming the rest.

        ``latency + max(0, size - unit) / bandwidth`` with the media bandwidth
        (:attr:`effective_read_bandwidth_MBps` / :attr:`effective_write_bandwidth_MBps`, not the
        interface rate); for sizes up to the access unit the latency alone (devices transfer whole units).
        """
        if size_bytes < 0:
            raise ValueError(f"size_bytes must be >= 0, got {size_bytes}")
        lat = self.write_latency_ns if write else self.read_latency_ns
        bw = self.effective_write_bandwidth_MBps if write else self.effective_read_bandwidth_MBps
        return transfer_time_ns(lat, float(size_bytes), self.access_unit_bytes, bw)  # arrays of a sampled profile too

    def with_updates(self, **changes) -> DeviceProfile:
        """A validated copy with ``changes`` applied (profiles are immutable).

        Numeric values changed without a ``provenance`` in ``changes`` become ``user-defined``.

        >>> get_device("pcm-memext").with_updates(write_latency_ns=900).value_kind("write_latency_ns")
        'user-defined'
        """
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


def catalogue_from_frame(df, *, custom: bool = False, where: str = "devices.csv") -> dict[str, DeviceProfile]:
    """Device profiles of a catalogue table (the columns of ``data/devices.csv``), strictly.

    ValueError naming the row (``where`` row N (name)) when the ``provenance`` column is missing,
    names an unknown column or kind, leaves a numeric value without a kind or gives a kind to an
    empty column, when a name repeats, or, naming the column too, when a value is invalid.

    ``custom=True`` reads a table of the user's devices (:func:`devices_from_csv`): a value
    without a kind is ``user-defined`` and ``user-defined`` is an allowed kind (a bundled value
    cannot be user-defined); the ``provenance`` column may be absent.
    """
    from pydantic import ValidationError

    from models.errors import describe

    unknown = [str(c) for c in df.columns if c not in CSV_COLUMNS]
    if unknown:
        raise ValueError(f"{where}: unknown column(s) {', '.join(repr(c) for c in unknown)}; "
                         f"valid: {', '.join(CSV_COLUMNS)}")
    if "provenance" not in df.columns and not custom:
        raise ValueError(f"{where}: missing the provenance column")
    out: dict[str, DeviceProfile] = {}
    for i, row in enumerate(df.to_dict(orient="records")):
        row = {k: _optional(v) for k, v in row.items()}
        at = f"{where} row {i + 1} ({row.get('name')})"
        row["byte_addressable"] = str(row.get("byte_addressable")).strip().lower() in ("true", "1", "yes")
        try:
            prov = parse_provenance(row.get("provenance"))
        except ValueError as e:
            raise ValueError(f"{at}: {e}") from None
        have = {c for c in NUMERIC_COLUMNS if row.get(c) is not None}
        missing = [c for c in NUMERIC_COLUMNS if c in have - set(prov)]
        if missing and custom:
            prov.update({c: USER_DEFINED for c in missing})
        elif missing:
            raise ValueError(f"{at}: provenance: no kind for {', '.join(missing)}")
        extra = [c for c in NUMERIC_COLUMNS if c in set(prov) - have]
        if extra:
            raise ValueError(f"{at}: provenance: kind for empty column(s) {', '.join(extra)}")
        typed = [c for c, k in prov.items() if k == USER_DEFINED]
        if typed and not custom:
            raise ValueError(f"{at}: provenance: a bundled value cannot be user-defined ({', '.join(typed)})")
        row["provenance"] = prov
        if row.get("name") in out:
            raise ValueError(f"{at}: duplicate device name")
        if custom and row.get("source") is None:
            row["source"] = "user-defined (imported)"
        try:
            out[row.get("name")] = DeviceProfile.model_validate({k: v for k, v in row.items() if v is not None})
        except ValidationError as e:
            raise ValueError(f"{at}: column {describe(e)}") from None
    return out


def devices_to_frame(devices):
    """The catalogue table (:data:`CSV_COLUMNS`) of ``devices`` (profiles), one row per device.

    The ``provenance`` column gives the kind of every set numeric value (:meth:`DeviceProfile.value_kind`),
    so :func:`devices_from_csv` reads it back to equal profiles.

    >>> df = devices_to_frame([get_device("hdd-7200")])
    >>> list(df.columns) == list(CSV_COLUMNS), df.provenance[0].split(";")[0]
    (True, 'access_unit_bytes=assumed')
    """
    import pandas as pd

    rows = []
    for d in devices:
        row = {c: getattr(d, c) for c in CSV_COLUMNS if c != "provenance"}
        row["provenance"] = format_provenance({c: d.value_kind(c) for c in NUMERIC_COLUMNS
                                               if getattr(d, c) is not None})
        rows.append(row)
    return pd.DataFrame(rows, columns=list(CSV_COLUMNS))


def devices_to_csv(devices) -> str:
    """:func:`devices_to_frame` as formula-safe CSV text (:mod:`models.csv_safety`); read it back with
    :func:`devices_from_csv`."""
    from models.csv_safety import sanitize_frame

    return sanitize_frame(devices_to_frame(devices)).to_csv(index=False)


def devices_from_csv(data, *, where: str = "devices CSV") -> dict[str, DeviceProfile]:
    """Custom device profiles of a CSV in the catalogue's schema (text, bytes or a path).

    Lines starting with ``#`` above the header are comments; only ``name``, ``read_latency_ns`` and
    ``write_latency_ns`` are required columns; values without a kind are ``user-defined``. A cell
    escaped against formulas by :func:`devices_to_csv` (a leading apostrophe) is read unescaped.
    Every problem is a ValueError naming the row and the column (``where`` names the file).

    >>> d = devices_from_csv(devices_to_csv([get_device("pcm-memext").with_updates(name="mine")]))["mine"]
    >>> d.read_latency_ns, d.value_kind("read_latency_ns")
    (150.0, 'simulated')
    >>> devices_from_csv("name,read_latency_ns,write_latency_ns\\nx,abc,1\\n")
    Traceback (most recent call last):
    ...
    ValueError: devices CSV row 1 (x): column read_latency_ns: Input should be a valid number, unable to parse string as a number (got 'abc')
    """
    import io
    from pathlib import Path

    import pandas as pd

    if isinstance(data, Path):
        data = data.read_bytes()
    max_bytes = 1 << 20  # format limit of an imported table [bytes] (a device row is ~300 B)
    if isinstance(data, bytes):
        if len(data) > max_bytes:
            raise ValueError(f"{where}: file too large ({len(data):,} bytes; at most {max_bytes:,})")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError(f"{where}: not UTF-8 text") from None
    # comment lines above the header only: a '#' in a cell (a label, a name) is text
    lines = str(data).splitlines(keepends=True)
    skip = next((i for i, line in enumerate(lines) if not line.lstrip().startswith("#")), len(lines))
    text = "".join(lines[skip:])
    try:
        df = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False, skipinitialspace=True)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise ValueError(f"{where}: not a CSV table ({str(e).strip()[:200]})") from None
    need = [c for c in ("name", "read_latency_ns", "write_latency_ns") if c not in df.columns]
    if need:
        raise ValueError(f"{where}: missing column(s) {', '.join(need)}; the columns are those of the catalogue: "
                         f"{', '.join(CSV_COLUMNS)}")

    def cell(v: str):
        v = v.strip()
        if v.startswith("'") and v[1:2] in ("=", "+", "-", "@", "\t", "\r"):
            v = v[1:]  # undo models.csv_safety's escape
        return None if v == "" else v

    df = df.map(cell)
    return catalogue_from_frame(df, custom=True, where=where)


#: Query-parameter encoding of custom devices: version prefix of :func:`encode_devices`' text.
_URL_VERSION = "1"


def _diff(d: DeviceProfile, base: DeviceProfile) -> dict:
    """Fields of ``d`` that differ from ``base`` (plus ``b``: the base name); the provenance only when it is
    not the one :meth:`DeviceProfile.with_updates` infers."""
    out: dict = {"b": base.name}
    for f in CSV_COLUMNS:
        if f == "provenance":
            continue
        v = getattr(d, f)
        if f == "source" and v == f"user-defined (from {base.name})":
            continue
        if f == "source" and v == base.source:
            out[f] = 0  # the base device's own source text
        elif v != getattr(base, f):
            out[f] = v
    inferred = _apply(out, base).provenance
    if inferred != d.provenance:
        out["provenance"] = format_provenance(d.provenance)
    return out


def _apply(diff: dict, base: DeviceProfile) -> DeviceProfile:
    changes = {k: v for k, v in diff.items() if k != "b"}
    src = changes.get("source")
    changes["source"] = base.source if src == 0 else f"user-defined (from {base.name})" if src is None else src
    return base.with_updates(**changes)


def encode_devices(devices) -> str:
    """A short URL-safe text holding ``devices`` (profiles): compressed JSON, base64url, of only the fields
    that differ from the closest catalogue device. :func:`decode_devices` gives the profiles back.

    >>> mine = get_device("pcm-memext").with_updates(name="my-pcm", write_latency_ns=900.0)
    >>> text = encode_devices([mine]); len(text) < 120 and text.startswith("1.")
    True
    >>> decode_devices(text) == [mine]
    True
    """
    import base64
    import json
    import zlib

    cat = load_catalogue()
    items = []
    for d in devices:
        diffs = [_diff(d, b) for b in cat.values()]
        items.append(min(diffs, key=lambda x: len(json.dumps(x, separators=(",", ":")))))
    raw = json.dumps(items, separators=(",", ":")).encode()
    return _URL_VERSION + "." + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def decode_devices(text: str) -> list[DeviceProfile]:
    """The device profiles of an :func:`encode_devices` text; ValueError saying what is wrong (which device,
    which field) for a damaged or foreign text.

    >>> decode_devices("1.abc")
    Traceback (most recent call last):
    ...
    ValueError: device link: not a device list (damaged or cut short)
    """
    import base64
    import binascii
    import json
    import zlib

    from pydantic import ValidationError

    from models.errors import describe

    version, dot, body = str(text).strip().partition(".")
    if not dot or version != _URL_VERSION:
        raise ValueError(f"device link: unknown encoding (expected '{_URL_VERSION}.<data>')")
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        z = zlib.decompressobj()
        raw = z.decompress(packed, 64 << 10)  # format limit [bytes of JSON]: no decompression bomb
        if z.unconsumed_tail:
            raise ValueError("device link: too large")
        items = loads_json(raw, what="device link")
    except (binascii.Error, zlib.error, UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError("device link: not a device list (damaged or cut short)") from None
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
        raise ValueError("device link: not a device list")
    cat = load_catalogue()
    out = []
    for i, item in enumerate(items):
        base = cat.get(item.get("b"))
        if base is None:
            raise ValueError(f"device link: device {i + 1}: unknown base device {item.get('b')!r}")
        try:
            out.append(_apply(item, base))
        except ValidationError as e:
            raise ValueError(f"device link: device {i + 1} ({item.get('name', base.name)}): {describe(e)}") from None
        except (TypeError, ValueError) as e:
            raise ValueError(f"device link: device {i + 1}: {e}") from None
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

    >>> from models.provenance_kinds import KINDS
    >>> t = catalogue_provenance(); set(t.kind) <= set(KINDS)
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
