"""Drive description: zones, mechanics and controller/cache parameters, loaded from DiskSim files.

A drive is described by the three DiskSim 4.0 files of its validation set (bundled in
``data/disksim/``): the measured seek curve ``NAME.seek`` (seek distance [cylinders] ->
time [ms]), the layout and mechanics ``NAME.model`` (cylinders, surfaces, zones with
blocks per track and skews, rpm, head switch and write-settle times) and the controller
description ``NAME.diskspecs`` (overheads, bus transfer time, segmented read cache,
read-ahead and write-back settings). :func:`load_drive` parses them into a
:class:`DriveSpec`; :func:`generic_drive` builds one from a catalogue HDD row.

References
----------
.. [1] J. S. Bucy, J. Schindler, S. W. Schlosser, G. R. Ganger, "The DiskSim Simulation
   Environment Version 4.0 Reference Manual", CMU-PDL-08-101, 2008.
.. [2] Z. Liu, B. Wang, P. Carpenter, D. Li, J. S. Vetter, W. Yu, "PCM-Based Durable Write
   Cache for Fast Disk I/O", MASCOTS 2012 (seed 003), sec. V: a 500 GB 7200 rpm disk gives
   ~100 MB/s sequential and ~0.5 MB/s for small random requests.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
from pydantic import Field, field_validator, model_validator

from models._base import ModelInput, as_generator
from models.provenance import device_keys, param, param_names
from models.storage.hdd.disksim import parse_disksim, read_seek_file
from models.storage.hdd.layout import lbn_to_chs
from models.storage.hdd.seek import seek_time_ms

__all__ = [
    "SECTOR_BYTES",
    "Zone",
    "DriveSpec",
    "drive_names",
    "resolve_drive",
    "load_drive",
    "drive_from_files",
    "generic_drive",
    "GENERIC_PROFILE",
    "drive_keys",
]

#: Bytes per logical block (all DiskSim drives use 512 B sectors).
SECTOR_BYTES = 512

#: Per-sector bus transfer time [ms] (read, write) of the old drives whose ``*.diskspecs``
#: give no "Bulk sector transfer time"; from DiskSim's valid/*.parv (BUS1 block transfer
#: time), as recorded in data/disksim/NOTES.md (registry ``hdd.bus_ms_per_block.<drive>.<op>``).
_OLD_BUS_MS: dict[str, tuple[float, float]] = {
    d: (param(f"hdd.bus_ms_per_block.{d}.read").value, param(f"hdd.bus_ms_per_block.{d}.write").value)
    for d in ("hp_c2247a", "hp_c3323a", "hp_c2490a", "dec_rz26", "st41601n")
}


class Zone(ModelInput):
    """One recording zone: a range of cylinders with a constant number of blocks per track."""

    first_cylinder: int = Field(ge=0, description="first cylinder of the zone")
    last_cylinder: int = Field(ge=0, description="last cylinder of the zone (inclusive)")
    blocks_per_track: int = Field(gt=0, description="sectors per track [blocks]")
    track_skew_blocks: float = Field(default=0.0, ge=0, description="skew for a track switch [blocks]")
    cylinder_skew_blocks: float = Field(default=0.0, ge=0, description="skew for a cylinder switch [blocks]")
    spare_sectors_per_track: int = Field(default=0, ge=0, description="spare sectors at the end of every track "
                                         "(DiskSim sparing scheme 3) [blocks]")
    spare_tracks: int = Field(default=0, ge=0, description="spare tracks at the end of the zone (DiskSim sparing "
                                                            "scheme 1) [tracks]")
    empty_front_blocks: int = Field(default=0, ge=0, description="unused sectors at the front of the zone "
                                                                 "('Empty space at zone front') [blocks]")

    @model_validator(mode="after")
    def _order(self) -> Zone:
        if self.last_cylinder < self.first_cylinder:
            raise ValueError("last_cylinder must be >= first_cylinder")
        return self


class DriveSpec(ModelInput):
    """A disk drive: layout, mechanics and controller/cache parameters.

    Times in milliseconds, sizes in 512 B blocks, as in DiskSim's files.
    """

    name: str = Field(min_length=1, max_length=64)
    rpm: float = Field(gt=0, le=30000, description="spindle speed [rev/min]")
    cylinders: int = Field(gt=0)
    surfaces: int = Field(gt=0, le=64)
    block_count: int = Field(gt=0, description="capacity [blocks]")
    zones: tuple[Zone, ...] = Field(min_length=1)
    seek_distance_cyl: tuple[float, ...] = Field(min_length=2, description="measured seek distances [cylinders]")
    seek_time_ms: tuple[float, ...] = Field(min_length=2, description="measured seek times [ms]")
    head_switch_ms: float = Field(default=0.0, ge=0, le=100)
    write_settle_ms: float = Field(default=0.0, ge=-100, le=100, json_schema_extra={"signed": True}, description="extra settle time of writes [ms] (DiskSim allows negative)")
    read_hit_after_read_ms: float = Field(default=0.0, ge=0, le=100)
    read_hit_after_write_ms: float = Field(default=0.0, ge=0, le=100)
    read_miss_after_read_ms: float = Field(default=0.0, ge=0, le=100)
    read_miss_after_write_ms: float = Field(default=0.0, ge=0, le=100)
    write_hit_after_read_ms: float = Field(default=0.0, ge=0, le=100)
    write_hit_after_write_ms: float = Field(default=0.0, ge=0, le=100)
    write_miss_after_read_ms: float = Field(default=0.0, ge=0, le=100)
    write_miss_after_write_ms: float = Field(default=0.0, ge=0, le=100)
    per_request_overhead_ms: float = Field(default=0.0, ge=0, le=100)
    read_completion_ms: float = Field(default=0.0, ge=0, le=100, description="completion overhead of a read [ms]")
    write_completion_ms: float = Field(default=0.0, ge=0, le=100, description="completion overhead of a write [ms]")
    bus_read_ms_per_block: float = Field(default=0.0, ge=0, le=10, description="bus transfer of one block, reads [ms]")
    bus_write_ms_per_block: float = Field(default=0.0, ge=0, le=10, description="bus transfer of one block, writes [ms]")
    read_high_water: float = Field(default=0.0, ge=0, le=1, description="fraction of a read buffered before the bus transfer starts")
    write_low_water: float = Field(default=0.0, ge=0, le=1, description="fraction of a write received before the media write may start")
    cache_segments: int = Field(default=0, ge=0, le=256, description="read-cache segments (0 = no cache)")
    segment_blocks: int = Field(default=0, ge=0, description="segment size [blocks]")
    max_readahead_blocks: int = Field(default=0, ge=0, description="maximum read-ahead [blocks]")
    readahead_to_track_end: bool = Field(default=False, description="read-ahead after a miss stops at the end "
                                         "of the track holding the request's last block (DiskSim 'Buffer "
                                         "continuous read = 1', BUFFER_READ_UNTIL_TRACK_END)")
    fast_write_level: int = Field(default=0, ge=0, le=2, description="0 = write-through, >= 1 = write-back")
    write_segments: int = Field(default=0, ge=0, le=256, description="buffer segments that may hold write-back "
                                "data (DiskSim 'Maximum number of write segments'; 0 = none given)")
    # SCSI bus phases (DiskSim disk controller); all zero = the drive keeps the bus, no phase overheads
    never_disconnect: bool = Field(default=False, description="'Never disconnect': the drive holds the bus for "
                                   "the whole request (no disconnect/reselect phases)")
    data_prep_ms: float = Field(default=0.0, ge=0, le=100, description="'Data preparation overhead' before every "
                                "data transfer phase [ms]")
    reselect_first_ms: float = Field(default=0.0, ge=0, le=100, description="'First reselect overhead' [ms]")
    reselect_other_ms: float = Field(default=0.0, ge=0, le=100, description="'Other reselect overhead' (final "
                                     "reconnection of an extra-disconnect write) [ms]")
    read_disconnect_after_read_ms: float = Field(default=0.0, ge=0, le=100)
    read_disconnect_after_write_ms: float = Field(default=0.0, ge=0, le=100)
    write_disconnect_ms: float = Field(default=0.0, ge=0, le=100, description="'Write disconnect overhead' after "
                                       "a write's data phase [ms]")
    extra_write_disconnect: bool = Field(default=False, description="'Extra write disconnect': a write following a "
                                         "non-sequential write disconnects once more after the command")
    extradisc_command_ms: float = Field(default=0.0, ge=0, le=100, description="'Extradisc command overhead' [ms]")
    extradisc_disconnect1_ms: float = Field(default=0.0, ge=0, le=100, description="'Extradisc disconnect overhead' [ms]")
    extradisc_inter_disconnect_ms: float = Field(default=0.0, ge=0, le=100, description="'Extradisc inter-disconnect "
                                                 "delay' [ms]")
    extradisc_disconnect2_ms: float = Field(default=0.0, ge=0, le=100, description="'Extradisc 2nd disconnect "
                                            "overhead' [ms]")
    extradisc_seek_delta_ms: float = Field(default=0.0, ge=0, le=100, description="'Extradisc seek delta': extra "
                                           "delay before the mechanism starts [ms]")
    min_seek_delay_ms: float = Field(default=0.0, ge=0, le=100, description="'Minimum seek delay' of write-through "
                                     "writes (positioning is padded to at least this) [ms]")
    exact_layout: bool = Field(default=False, description="map LBNs track by track with the zones' spare sectors, "
                               "spare tracks and front space (True) or spread each zone's blocks evenly over its "
                               "cylinders, scaled to Block count (False)")

    @field_validator("zones")
    @classmethod
    def _zones_sorted(cls, v: tuple[Zone, ...]) -> tuple[Zone, ...]:
        for a, b in zip(v, v[1:]):
            if b.first_cylinder <= a.last_cylinder:
                raise ValueError("zones must be sorted by cylinder and not overlap")
        return v

    @model_validator(mode="after")
    def _check(self) -> DriveSpec:
        if len(self.seek_distance_cyl) != len(self.seek_time_ms):
            raise ValueError("seek_distance_cyl and seek_time_ms must have the same length")
        if np.any(np.diff(self.seek_distance_cyl) <= 0):
            raise ValueError("seek_distance_cyl must be increasing")
        if self.zones[-1].last_cylinder >= self.cylinders:
            raise ValueError("zones extend past the last cylinder")
        return self

    # derived quantities ------------------------------------------------------------
    @property
    def rotation_ms(self) -> float:
        """Time of one revolution [ms]."""
        return 60000.0 / self.rpm

    @property
    def outer_media_MBps(self) -> float:
        """Media transfer rate of the outermost zone [MB/s, 1e6 B/s]."""
        return self.zones[0].blocks_per_track * SECTOR_BYTES / (self.rotation_ms * 1e3)

    def mean_random_seek_ms(self, n: int = 200_000, *, seed=0) -> float:
        """Mean seek time over uniformly random block pairs [ms] (Monte Carlo)."""
        g = as_generator(seed)
        a = lbn_to_chs(self, g.integers(0, self.block_count, n))[0]
        b = lbn_to_chs(self, g.integers(0, self.block_count, n))[0]
        return float(seek_time_ms(self, np.abs(a - b)).mean())


# ----------------------------------------------------------------------------- loading
def _drive_dir() -> Path:
    from models.data import data_dir

    return data_dir() / "disksim"


@cache
def drive_names() -> tuple[str, ...]:
    """Bundled drives with a ``.diskspecs`` and a measured ``.trace``.

    >>> "ibm18es" in drive_names() and "barracuda" in drive_names()
    True
    """
    d = _drive_dir()
    return tuple(sorted(p.stem for p in d.glob("*.diskspecs") if (d / f"{p.stem}.trace").is_file()))


def _num(d: dict, key: str, src: str, default=None) -> float:
    if key not in d:
        if default is None:
            raise ValueError(f"{src}: missing parameter {key!r}")
        return default
    v = d[key]
    if not isinstance(v, float):
        raise ValueError(f"{src}: parameter {key!r} must be a number, got {v!r}")
    return v


def _hpl_curve(mech: dict, cylinders: int, src: str) -> tuple[np.ndarray, np.ndarray]:
    """Seek curve points from DiskSim's HPL seek equation (+ explicit first ten seeks)."""
    hpl = mech.get("HPL seek equation values")
    if not isinstance(hpl, list) or len(hpl) != 6:
        raise ValueError(f"{src}: 'HPL seek equation values' must list 6 numbers")
    bound, a, b, c, e, single = hpl
    d = np.unique(np.concatenate([np.arange(1, 11), np.geomspace(11, cylinders - 1, 120).round()]))
    t = np.where(d < bound, a + b * np.sqrt(d), c + e * d)
    ten = mech.get("First ten seek times")
    if isinstance(ten, list) and len(ten) == 10:
        t[:10] = ten
    if single > 0:
        t[0] = single
    return d.astype(float), t


def _model_blocks(diskspecs: Path, name: str) -> tuple[dict, dict, Path]:
    """(``disksim_disk`` block of the diskspecs, ``dm_disk`` block of the model file it names,
    model file path)."""
    blocks = parse_disksim(diskspecs.read_text(), source=diskspecs.name)
    specs = next((b for h, b in blocks if h.startswith("disksim_disk")), None)
    if specs is None:
        raise ValueError(f"{diskspecs.name}: no 'disksim_disk' block")
    model_ref = specs.get("Model")
    model_file = diskspecs.parent / f"{name}.model"
    if isinstance(model_ref, str) and model_ref.startswith("source "):
        model_file = diskspecs.parent / model_ref.split(None, 1)[1].strip()
    if not model_file.is_file():
        raise FileNotFoundError(f"{diskspecs.name}: model file not found: {model_file}")
    mblocks = parse_disksim(model_file.read_text(), source=model_file.name)
    model = next((b for h, b in mblocks if h.startswith("dm_disk")), None)
    if model is None:
        raise ValueError(f"{model_file.name}: no 'dm_disk' block")
    return specs, model, model_file


def _zones(layout: dict, scheme: int, src: str) -> list[Zone]:
    """The layout's zones. Sparing schemes mapped exactly (DiskSim dm_layout_g1): 0 none, 1 spare
    tracks at the end of each zone, 3 spare sectors at the end of every track; the others are
    spread evenly (:attr:`DriveSpec.exact_layout`)."""
    zones = []
    for z in layout.get("Zones", []):
        if not isinstance(z, dict):
            raise ValueError(f"{src}: bad zone entry {z!r}")
        zones.append(Zone(
            first_cylinder=int(_num(z, "First cylinder number", src)),
            last_cylinder=int(_num(z, "Last cylinder number", src)),
            blocks_per_track=int(_num(z, "Blocks per track", src)),
            track_skew_blocks=_num(z, "Skew for track switch", src, 0.0),
            cylinder_skew_blocks=_num(z, "Skew for cylinder switch", src, 0.0),
            spare_sectors_per_track=int(_num(z, "Number of spares", src, 0.0)) if scheme == 3 else 0,
            spare_tracks=int(_num(z, "Number of spares", src, 0.0)) if scheme == 1 else 0,
            empty_front_blocks=int(_num(z, "Empty space at zone front", src, 0.0)) if scheme in (0, 1, 3) else 0,
        ))
    return zones


def _seek_points(mech: dict, folder: Path, name: str, cylinders: int, src: str) -> tuple[np.ndarray, np.ndarray]:
    """Seek curve (distance [cylinders], time [ms]): the measured ``.seek`` file ("extracted")
    or DiskSim's HPL equation."""
    seek_type = mech.get("Seek type")
    if seek_type == "extracted":
        seek_file = folder / str(mech.get("Full seek curve", f"{name}.seek"))
        if not seek_file.is_file():
            raise FileNotFoundError(f"{src}: seek curve file not found: {seek_file}")
        return read_seek_file(seek_file)
    if isinstance(seek_type, str) and seek_type.startswith("hpl"):
        return _hpl_curve(mech, cylinders, src)
    raise ValueError(f"{src}: unsupported 'Seek type' {seek_type!r}")


def _controller(specs: dict, name: str, zones: list[Zone], sp: str) -> dict:
    """:class:`DriveSpec` fields from the ``disksim_disk`` block: overheads, bus, cache, SCSI phases."""
    bulk = _num(specs, "Bulk sector transfer time", sp, 0.0)
    bus_r, bus_w = (bulk, bulk) if bulk > 0 else _OLD_BUS_MS.get(name, (0.0, 0.0))
    caching = _num(specs, "Enable caching in buffer", sp, 0.0) > 0
    segment = int(_num(specs, "Segment size (in blks)", sp, 0.0))
    # DiskSim "Buffer continuous read": 0 no read-ahead (DiskSim forces the maximum read-ahead to
    # the minimum), 1 read until the end of the track, 2 the cylinder, 3 the segment, 4 DEC's
    # prefetch scheme; 2 and 4 are read as 3 (the coverage table, models.storage.hdd.coverage)
    contread = int(_num(specs, "Buffer continuous read", sp, 3.0))
    track_buffer = contread == 1
    max_ra = int(_num(specs, "Maximum read-ahead (blks)", sp, 0.0))
    if contread == 0:
        max_ra = min(max_ra, int(_num(specs, "Minimum read-ahead (blks)", sp, 0.0)))
    return dict(
        read_hit_after_read_ms=_num(specs, "Read hit over. after read", sp),
        read_hit_after_write_ms=_num(specs, "Read hit over. after write", sp),
        read_miss_after_read_ms=_num(specs, "Read miss over. after read", sp),
        read_miss_after_write_ms=_num(specs, "Read miss over. after write", sp),
        write_hit_after_read_ms=_num(specs, "Write hit over. after read", sp),
        write_hit_after_write_ms=_num(specs, "Write hit over. after write", sp),
        write_miss_after_read_ms=_num(specs, "Write miss over. after read", sp),
        write_miss_after_write_ms=_num(specs, "Write miss over. after write", sp),
        per_request_overhead_ms=_num(specs, "Per-request overhead time", sp, 0.0),
        read_completion_ms=_num(specs, "Read completion overhead", sp, 0.0),
        write_completion_ms=_num(specs, "Write completion overhead", sp, 0.0),
        bus_read_ms_per_block=bus_r,
        bus_write_ms_per_block=bus_w,
        read_high_water=_num(specs, "High (read) water mark", sp, 0.0),
        write_low_water=_num(specs, "Low (write) water mark", sp, 0.0),
        cache_segments=int(_num(specs, "Number of buffer segments", sp, 0.0)) if caching else 0,
        segment_blocks=segment,
        max_readahead_blocks=max_ra,
        readahead_to_track_end=track_buffer,
        fast_write_level=int(_num(specs, "Fast write level", sp, 0.0)),
        write_segments=int(_num(specs, "Maximum number of write segments", sp, 0.0)),
        never_disconnect=_num(specs, "Never disconnect", sp, 0.0) > 0,
        data_prep_ms=_num(specs, "Data preparation overhead", sp, 0.0),
        reselect_first_ms=_num(specs, "First reselect overhead", sp, 0.0),
        reselect_other_ms=_num(specs, "Other reselect overhead", sp, 0.0),
        read_disconnect_after_read_ms=_num(specs, "Read disconnect afterread", sp, 0.0),
        read_disconnect_after_write_ms=_num(specs, "Read disconnect afterwrite", sp, 0.0),
        write_disconnect_ms=_num(specs, "Write disconnect overhead", sp, 0.0),
        extra_write_disconnect=_num(specs, "Extra write disconnect", sp, 0.0) > 0,
        extradisc_command_ms=_num(specs, "Extradisc command overhead", sp, 0.0),
        extradisc_disconnect1_ms=_num(specs, "Extradisc disconnect overhead", sp, 0.0),
        extradisc_inter_disconnect_ms=_num(specs, "Extradisc inter-disconnect delay", sp, 0.0),
        extradisc_disconnect2_ms=_num(specs, "Extradisc 2nd disconnect overhead", sp, 0.0),
        extradisc_seek_delta_ms=_num(specs, "Extradisc seek delta", sp, 0.0),
        min_seek_delay_ms=_num(specs, "Minimum seek delay", sp, 0.0),
    )


def drive_from_files(diskspecs: str | Path, *, name: str | None = None) -> DriveSpec:
    """Build a :class:`DriveSpec` from a ``.diskspecs`` file (it names its ``.model``, which
    names its ``.seek``; they are looked up in the same folder)."""
    diskspecs = Path(diskspecs)
    if not diskspecs.is_file():
        raise FileNotFoundError(f"drive file not found: {diskspecs}")
    name = name or diskspecs.stem
    specs, model, model_file = _model_blocks(diskspecs, name)
    src = model_file.name
    mech = model.get("Mechanical Model")
    layout = model.get("Layout Model")
    if not isinstance(mech, dict) or not isinstance(layout, dict):
        raise ValueError(f"{src}: needs 'Mechanical Model' and 'Layout Model' blocks")
    cylinders = int(_num(model, "Number of cylinders", src))
    scheme = int(_num(layout, "Sparing scheme used", src, 0.0))
    zones = _zones(layout, scheme, src)
    if zones:  # hp_c2490a's last zone ends on cylinder 'Number of cylinders'; DiskSim tolerates it
        cylinders = max(cylinders, zones[-1].last_cylinder + 1)
    sd, st = _seek_points(mech, diskspecs.parent, name, cylinders, src)
    return DriveSpec(
        name=name,
        rpm=_num(mech, "Rotation speed (in rpms)", src),
        cylinders=cylinders,
        surfaces=int(_num(model, "Number of data surfaces", src)),
        block_count=int(_num(model, "Block count", src)),
        zones=zones,
        seek_distance_cyl=sd.tolist(),
        seek_time_ms=st.tolist(),
        head_switch_ms=_num(mech, "Head switch time", src, 0.0),
        write_settle_ms=_num(mech, "Add. write settling delay", src, 0.0),
        exact_layout=scheme in (0, 1, 3),
        **_controller(specs, name, zones, diskspecs.name),
    )


def resolve_drive(drive: str | Path) -> tuple[Path, str]:
    """``NAME`` (bundled) or ``DIR/NAME`` -> (path of its ``.diskspecs``, name).

    An unknown bundled name raises ``KeyError`` listing the valid names.

    >>> path, name = resolve_drive("ibm18es")
    >>> path.name, name
    ('ibm18es.diskspecs', 'ibm18es')
    """
    p = Path(drive)
    if p.suffix in (".diskspecs", ".model", ".seek", ".trace"):
        p = p.with_suffix("")
    if p.parent != Path(".") or p.is_absolute():
        return p.with_name(p.name + ".diskspecs"), p.name
    name = p.name
    if name not in drive_names():
        raise KeyError(f"unknown drive {name!r}; valid names: {', '.join(drive_names())}")
    return _drive_dir() / f"{name}.diskspecs", name


@cache
def _load_bundled(name: str) -> DriveSpec:
    path, name = resolve_drive(name)
    return drive_from_files(path, name=name)


def load_drive(drive: str | Path) -> DriveSpec:
    """Load a drive by bundled name (``"ibm18es"``) or path prefix (``"DIR/NAME"``).

    An unknown bundled name raises ``KeyError`` listing the valid names.

    >>> d = load_drive("ibm18es")
    >>> d.rpm, d.cylinders, d.surfaces, len(d.zones)
    (7200.0, 11474, 5, 55)
    >>> load_drive("floppy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "unknown drive 'floppy'; valid names: atlas10k, barracuda, ...
    """
    p = Path(drive)
    if p.parent == Path(".") and not p.is_absolute() and not p.suffix:
        return _load_bundled(str(drive))
    path, name = resolve_drive(drive)
    return drive_from_files(path, name=name)


@cache
def generic_drive(device: str = "hdd-7200") -> DriveSpec:
    """Generic drive profile calibrated on a catalogue HDD (default ``hdd-7200``).

    - rpm from the catalogue; one zone whose blocks per track give the catalogue's
      sequential bandwidth (100 MB/s at 7200 rpm -> 1628 blocks per track);
    - 500 GB (the seed's disk), 4 surfaces (assumed; registry ``hdd.generic.*``);
    - seek curve: the shape of the measured ibm18es curve (7200 rpm), distances scaled to
      the cylinder count, times scaled so the mean seek over random block pairs equals the
      catalogue's ``avg_seek_ns``; no controller overhead.

    Then a random 4 KiB request costs avg seek + half a rotation + transfer, which the
    catalogue row calibrates to ~8.2 ms (0.5 MB/s, the seed's measurement).

    >>> g = generic_drive()
    >>> round(g.outer_media_MBps), g.rpm
    (100, 7200.0)
    """
    from models.devices import get_device

    dev = get_device(device)
    if dev.kind != "hdd" or dev.rpm is None or dev.avg_seek_ns is None or dev.read_bandwidth_MBps is None:
        raise ValueError(f"device {device!r} must be an HDD with rpm, avg_seek_ns and read_bandwidth_MBps")
    rot_ms = 60000.0 / dev.rpm
    bpt = int(round(dev.read_bandwidth_MBps * 1e3 * rot_ms / SECTOR_BYTES))
    surfaces = int(param("hdd.generic.surfaces").value)
    blocks = int(param("hdd.generic.capacity_bytes").value // SECTOR_BYTES)
    cyl = int(np.ceil(blocks / (bpt * surfaces)))
    ref = load_drive("ibm18es")
    xd = np.asarray(ref.seek_distance_cyl) / (ref.cylinders - 1) * (cyl - 1)
    keep = np.concatenate([[True], np.diff(np.round(xd)) > 0])
    base = DriveSpec(name=device, rpm=dev.rpm, cylinders=cyl, surfaces=surfaces, block_count=blocks,
                     zones=[Zone(first_cylinder=0, last_cylinder=cyl - 1, blocks_per_track=bpt)],
                     seek_distance_cyl=np.round(xd[keep]).tolist(),
                     seek_time_ms=np.asarray(ref.seek_time_ms)[keep].tolist())
    scale = dev.avg_seek_ns / 1e6 / base.mean_random_seek_ms(seed=0)
    return base.model_copy(update={"seek_time_ms": tuple((np.asarray(base.seek_time_ms) * scale).tolist())})


#: The generic catalogue profile (:func:`generic_drive`'s default) the HDD-backed results offer
#: beside DiskSim's drives.
GENERIC_PROFILE = "hdd-7200"


def drive_keys(profile: str) -> list[str]:
    """Provenance keys (:mod:`models.provenance`) of an HDD profile's numbers: the generic
    profile's catalogue row and ``hdd.generic.*``; a DiskSim drive's registered bus times (the rest
    of a DiskSim drive is read from its published files).

    >>> drive_keys("hdd-7200")[:1], drive_keys("dec_rz26"), drive_keys("ibm18es")
    (['hdd.generic.capacity_bytes'], ['hdd.bus_ms_per_block.dec_rz26.read', 'hdd.bus_ms_per_block.dec_rz26.write'], [])
    """
    if profile == GENERIC_PROFILE:
        return [*param_names("hdd.generic."), *device_keys(GENERIC_PROFILE)]
    return param_names(f"hdd.bus_ms_per_block.{profile}.")
