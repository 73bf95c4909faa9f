"""Hard-disk service-time model calibrated on DiskSim's validated drives.

A drive is described by the three DiskSim 4.0 files of its validation set (bundled in
``data/disksim/``): the measured seek curve ``NAME.seek`` (seek distance [cylinders] ->
time [ms]), the layout and mechanics ``NAME.model`` (cylinders, surfaces, zones with
blocks per track and skews, rpm, head switch and write-settle times) and the controller
description ``NAME.diskspecs`` (overheads, bus transfer time, segmented read cache,
read-ahead and write-back settings). :func:`load_drive` parses them into a
:class:`DriveSpec`.

Service time of one request (:func:`predict_service_ms`)::

    t = controller overhead (by request type, hit/miss and the previous request's type)
      + seek(cylinder distance from where the head is)       [+ write settle, head switch]
      + rotational latency                                  (platter angle from the clock)
      + transfer                                            (media: zone blocks per track x rpm;
                                                             bus: per-sector transfer time)

with the drive's cache: a read inside a read-cache segment is a hit (hit overhead + bus
transfer); after a media read the drive keeps reading ahead at media rate during the
think time up to the maximum read-ahead, so a sequential read that streams past the
filled part waits only for the media; with ``Fast write level >= 1`` writes are
write-back (write-hit overhead + bus transfer; the media write is done in the background
and delays the next media access only if it is not finished).

Rotational latency is *modelled from request timing*: the platter angle is
``(t * rpm / 60000) mod 1`` on the model's own clock, and the target sector's angle comes
from the LBN -> (cylinder, surface, sector) mapping with the zones' track and cylinder
skews. Same-track and sequential jumps therefore get their true (short) latency, while
for random requests the angle at arrival is effectively uniformly distributed. (The
``rotation="expected"`` option uses half a rotation instead; it is what the throughput
curves below use.)

Validation (:func:`validate_drive`) replays the drive's measured ``NAME.trace`` (closed
loop: each request is issued a think time after the previous one completes, so the
trace needs no queueing model) and reports DiskSim's demerit: the RMS horizontal
distance between the predicted and measured service-time CDFs.

Layout: for DiskSim sparing schemes 0 (none), 1 (spare tracks at the end of each zone)
and 3 (spare sectors at the end of every track) LBNs are mapped track by track exactly as
DiskSim's layout does, past each zone's "Empty space at zone front" (hp_c2247a, hp_c2490a,
hp_c3323a, dec_rz26); slipped sectors are not modelled (the last zone absorbs the few
blocks' difference to ``Block count``). For the other schemes (range/zone sparing of the
modern drives) each zone's capacity is scaled so the zones sum to ``Block count``, which
moves a block by at most a few % of a zone. Each request also pays the drive's read or
write completion overhead.

SCSI bus phases (DiskSim ``disk_write_arrive``/``disk_read_arrive``/``disk_check_bus``), from
the diskspecs: a drive that may disconnect ("Never disconnect = 0") disconnects after a
read-miss command ("Read disconnect afterread/afterwrite") and reselects ("First reselect
overhead" + "Data preparation overhead") once the high water mark (>= 1 block, of
``min(segment, request)``) is buffered; every data phase pays the data preparation; a
write-through write reselects for its status after the media write ("Write disconnect
overhead" after the data, "First reselect overhead" before the status). With "Extra write
disconnect" a write that follows a write it does not continue disconnects right after the
command ("Extradisc command/disconnect overhead"), reconnects for the data after the
"Extradisc inter-disconnect delay", disconnects again ("Extradisc 2nd disconnect overhead")
and reselects with "Other reselect overhead"; its mechanism starts after the extradisc
command overhead + "Extradisc seek delta". Write-through positioning is padded to the
"Minimum seek delay", and the write settle is added only when the heads move (DiskSim
``dm_seek_time_g1``). Only hp_c2247a has non-zero phase overheads among the bundled drives;
its measured trace tags exactly the writes our extra-disconnect rule selects as "Trip"
(triple disconnect). This took hp_c2247a from 0.272 ms (3.0x DiskSim's 0.090) to 0.175 ms.

Track buffer: a drive whose cache segment holds no more than one track of data
(``readahead_to_track_end``; among the bundled drives only dec_rz26: 57-block segments, 57
data blocks per track) reads ahead after a miss only to the end of the track holding the
request's last block. Its measured trace shows it: sequential reads that stay on that track
hit 96 % of the time, those that cross its end 10 % (the multi-track-segment drives show no
such step). With the rule the predicted shares are 97 % and 1 % (91 % / 52 % before) and the
mean read is exact (14.88 vs 14.89 ms measured); the demerit moves only from 0.811 to 0.796 ms.

Remaining gap, measured (per-request residuals binned by seek distance and type): dec_rz26
(0.80 ms, 2.3x DiskSim's 0.340) -- reads match within 0.4 ms per distance bin, but writes
seeking 100-800 cylinders miss a revolution on 25-78 % of requests (5-9 % for reads at any
distance and for writes below 100 or above 900 cylinders); the write-only demerit is 1.63 ms.
Per-request residuals of those writes are bimodal (about 0 and +11.2 ms, one rotation), and
no constant positioning delay aligns them (agreement within 2 ms stays about 55 %, against
75 % for reads), so this is not a mis-read seek curve. No parameter in the drive files
explains it: one seek curve for both directions, a *negative* write settle (-0.483 ms),
write-through with "Low (write) water mark = 0", the bus (0.0707 ms/block) faster than the
media, "Never disconnect = 1" (no phase overheads), no minimum seek delay; a reading of
DiskSim 4.0's write path (``disk_write_arrive``, ``disk_buffer_sector_done``,
``dm_seek_time_g1``) finds no distance-dependent term either. DiskSim does not model it:
its published run (valid/dec_rz26.outv) puts 821 writes in the 20-40 ms response bucket
vs 964 measured (ours 761) and its mean write at 16.94 ms vs 17.76 measured (ours 16.42).
Replacing our predictions for just these writes by the measured times would give 0.50 ms
(1.5x). We do not fit a per-band write delay to the trace it is validated on. Not modelled
for dec_rz26 either: "Immediate buffer read = 1" (zero-latency reads).

Simplifications (documented, not tuned): the write buffer holds one pending write (``Maximum
number of write segments = 1`` in every bundled drive); "sneaky"/"almost" hits and
preseeking are off in every bundled drive and are not modelled.

References
----------
.. [1] J. S. Bucy, J. Schindler, S. W. Schlosser, G. R. Ganger, "The DiskSim Simulation
   Environment Version 4.0 Reference Manual", CMU-PDL-08-101, 2008 (drive files and the
   validation traces, ``valid/``; expected RMS demerits from ``valid/runvalid``).
.. [2] C. Ruemmler, J. Wilkes, "An Introduction to Disk Drive Modeling", IEEE Computer
   27(3), 1994 (seek curve a + b sqrt(d) for short seeks, c + e d for long ones).
.. [3] Z. Sun et al., "A PCM-based hybrid storage with HALO caching" (seed 003), sec. V:
   a 7200 rpm disk gives ~100 MB/s sequential and ~0.5 MB/s for small random requests.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import Field, field_validator, model_validator

from models._base import ModelInput

__all__ = [
    "SECTOR_BYTES",
    "DISKSIM_DEMERIT_MS",
    "Zone",
    "DriveSpec",
    "SeekFit",
    "parse_disksim",
    "read_seek_file",
    "drive_names",
    "load_drive",
    "drive_from_files",
    "seek_time_ms",
    "fit_seek_curve",
    "lbn_to_chs",
    "predict_service_ms",
    "cdf_demerit_ms",
    "validate_drive",
    "validation_table",
    "stream_service_ms",
    "stream_throughput_MBps",
    "throughput_curve",
    "generic_drive",
]

#: Bytes per logical block (all DiskSim drives use 512 B sectors).
SECTOR_BYTES = 512

#: DiskSim's expected RMS demerit [ms] per bundled drive (data/disksim/SOURCES.txt,
#: from DiskSim's valid/runvalid). st41601n has no published figure.
DISKSIM_DEMERIT_MS: dict[str, float] = {
    "barracuda": 0.349,
    "ibm18es": 0.135,
    "cheetah4LP": 0.318,
    "atlas10k": 0.268,
    "hp_c2247a": 0.090,
    "hp_c2490a": 0.254,
    "hp_c3323a": 0.306,
    "dec_rz26": 0.340,
}

#: Per-sector bus transfer time [ms] (read, write) of the old drives whose ``*.diskspecs``
#: give no "Bulk sector transfer time"; from DiskSim's valid/*.parv (BUS1 block transfer
#: time), as recorded in data/disksim/NOTES.md.
_OLD_BUS_MS: dict[str, tuple[float, float]] = {
    "hp_c2247a": (0.17010, 0.18686),
    "hp_c3323a": (0.14550, 0.14550),
    "hp_c2490a": (0.14841, 0.14841),
    "dec_rz26": (0.07069, 0.07069),
    "st41601n": (0.09552, 0.09552),
}


# ----------------------------------------------------------------------------- parsing
_TOKEN = re.compile(r"[{}\[\],=]|[^{}\[\],=]+")


def parse_disksim(text: str, *, source: str = "<text>") -> list[tuple[str, dict]]:
    """Parse DiskSim's parameter syntax into ``[(header, block_dict), ...]``.

    Blocks are ``header { key = value, ... }``; values are numbers, words, lists
    ``[v, v, ...]`` or nested blocks ``type { ... }`` (stored as dicts with key
    ``"__type__"``). ``#`` starts a comment.

    >>> parse_disksim("disk X { A b = 1, L = [ 2, 3 ], M = t { c = 4.5 } }")
    [('disk X', {'A b': 1.0, 'L': [2.0, 3.0], 'M': {'__type__': 't', 'c': 4.5}})]
    """
    lines = [ln.split("#", 1)[0] for ln in text.splitlines()]
    toks: list[tuple[str, int]] = []
    for no, ln in enumerate(lines, 1):
        for m in _TOKEN.finditer(ln):
            t = m.group(0).strip()
            if t:
                toks.append((t, no))
    pos = 0

    def err(msg: str) -> ValueError:
        line = toks[min(pos, len(toks) - 1)][1] if toks else 0
        return ValueError(f"{source}: line {line}: {msg}")

    def peek() -> str | None:
        return toks[pos][0] if pos < len(toks) else None

    def take() -> str:
        nonlocal pos
        if pos >= len(toks):
            raise err("unexpected end of file")
        pos += 1
        return toks[pos - 1][0]

    def value():
        t = take()
        if t == "[":
            items = []
            while peek() != "]":
                if peek() == ",":
                    take()
                    continue
                items.append(value())
            take()
            return items
        if t in "{}],=":
            raise err(f"unexpected {t!r}")
        if peek() == "{":
            return block(t)
        try:
            return float(t)
        except ValueError:
            return t

    def block(kind: str) -> dict:
        if take() != "{":
            raise err("expected '{'")
        d: dict = {"__type__": kind}
        while True:
            t = peek()
            if t is None:
                raise err(f"unterminated block {kind!r}")
            if t == "}":
                take()
                return d
            if t == ",":
                take()
                continue
            key = take()
            if take() != "=":
                raise err(f"expected '=' after {key!r}")
            d[key] = value()

    out = []
    while pos < len(toks):
        header = take()
        b = block(header)
        b.pop("__type__")
        out.append((header, b))
    return out


def read_seek_file(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """Read a DiskSim ``*.seek`` file -> (distance [cylinders], time [ms]).

    Format: ``Seek distances measured: N`` then ``distance, time[, stddev]`` lines.
    """
    path = Path(path)
    lines = path.read_text().splitlines()
    if not lines or not lines[0].lower().startswith("seek distances measured"):
        raise ValueError(f"{path.name}: line 1: expected 'Seek distances measured: N'")
    try:
        n = int(lines[0].split(":")[1])
    except (IndexError, ValueError):
        raise ValueError(f"{path.name}: line 1: bad count {lines[0]!r}") from None
    d, t = [], []
    for no, ln in enumerate(lines[1:], 2):
        if not ln.strip():
            continue
        parts = [p for p in re.split(r"[,\s]+", ln.strip()) if p]
        try:
            d.append(float(parts[0]))
            t.append(float(parts[1]))
        except (IndexError, ValueError):
            raise ValueError(f"{path.name}: line {no}: expected 'distance, time', got {ln!r}") from None
    if len(d) != n:
        raise ValueError(f"{path.name}: header says {n} distances, found {len(d)}")
    d_arr, t_arr = np.asarray(d), np.asarray(t)
    if (np.diff(d_arr) <= 0).any() or (d_arr <= 0).any() or (t_arr <= 0).any():
        raise ValueError(f"{path.name}: distances must be positive and increasing, times positive")
    return d_arr, t_arr


# ----------------------------------------------------------------------------- spec
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
    readahead_to_track_end: bool = Field(default=False, description="track buffer: read-ahead after a miss "
                                         "stops at the end of the track holding the request's last block "
                                         "(set when a segment holds no more than one track)")
    fast_write_level: int = Field(default=0, ge=0, le=2, description="0 = write-through, >= 1 = write-back")
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
        from models._base import as_generator

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


def drive_from_files(diskspecs: str | Path, *, name: str | None = None) -> DriveSpec:
    """Build a :class:`DriveSpec` from a ``.diskspecs`` file (it names its ``.model``, which
    names its ``.seek``; they are looked up in the same folder)."""
    diskspecs = Path(diskspecs)
    if not diskspecs.is_file():
        raise FileNotFoundError(f"drive file not found: {diskspecs}")
    folder = diskspecs.parent
    name = name or diskspecs.stem
    blocks = parse_disksim(diskspecs.read_text(), source=diskspecs.name)
    specs = next((b for h, b in blocks if h.startswith("disksim_disk")), None)
    if specs is None:
        raise ValueError(f"{diskspecs.name}: no 'disksim_disk' block")
    model_ref = specs.get("Model")
    model_file = folder / f"{name}.model"
    if isinstance(model_ref, str) and model_ref.startswith("source "):
        model_file = folder / model_ref.split(None, 1)[1].strip()
    if not model_file.is_file():
        raise FileNotFoundError(f"{diskspecs.name}: model file not found: {model_file}")
    mblocks = parse_disksim(model_file.read_text(), source=model_file.name)
    model = next((b for h, b in mblocks if h.startswith("dm_disk")), None)
    if model is None:
        raise ValueError(f"{model_file.name}: no 'dm_disk' block")
    src = model_file.name
    mech = model.get("Mechanical Model")
    layout = model.get("Layout Model")
    if not isinstance(mech, dict) or not isinstance(layout, dict):
        raise ValueError(f"{src}: needs 'Mechanical Model' and 'Layout Model' blocks")
    cylinders = int(_num(model, "Number of cylinders", src))
    # sparing schemes mapped exactly (DiskSim dm_layout_g1): 0 none, 1 spare tracks at the end
    # of each zone, 3 spare sectors at the end of every track; the others are spread evenly
    scheme = int(_num(layout, "Sparing scheme used", src, 0.0))
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
    if zones:  # hp_c2490a's last zone ends on cylinder 'Number of cylinders'; DiskSim tolerates it
        cylinders = max(cylinders, zones[-1].last_cylinder + 1)
    seek_type = mech.get("Seek type")
    if seek_type == "extracted":
        seek_file = folder / str(mech.get("Full seek curve", f"{name}.seek"))
        if not seek_file.is_file():
            raise FileNotFoundError(f"{src}: seek curve file not found: {seek_file}")
        sd, st = read_seek_file(seek_file)
    elif isinstance(seek_type, str) and seek_type.startswith("hpl"):
        sd, st = _hpl_curve(mech, cylinders, src)
    else:
        raise ValueError(f"{src}: unsupported 'Seek type' {seek_type!r}")
    sp = diskspecs.name
    bulk = _num(specs, "Bulk sector transfer time", sp, 0.0)
    bus_r, bus_w = (bulk, bulk) if bulk > 0 else _OLD_BUS_MS.get(name, (0.0, 0.0))
    high_water = _num(specs, "High (read) water mark", sp, 0.0)
    caching = _num(specs, "Enable caching in buffer", sp, 0.0) > 0
    segment = int(_num(specs, "Segment size (in blks)", sp, 0.0))
    # a segment no larger than one track is a track buffer: the measured dec_rz26 trace (57-block
    # segments, 57 data blocks per track) hits on 96 % of sequential reads that stay on the
    # previous request's last track and on 10 % of those that cross its end (module docstring)
    track_buffer = bool(zones) and 0 < segment <= min(z.blocks_per_track - z.spare_sectors_per_track for z in zones)
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
        read_high_water=high_water,
        write_low_water=_num(specs, "Low (write) water mark", sp, 0.0),
        cache_segments=int(_num(specs, "Number of buffer segments", sp, 0.0)) if caching else 0,
        segment_blocks=segment,
        max_readahead_blocks=int(_num(specs, "Maximum read-ahead (blks)", sp, 0.0)),
        readahead_to_track_end=track_buffer,
        fast_write_level=int(_num(specs, "Fast write level", sp, 0.0)),
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
        exact_layout=scheme in (0, 1, 3),
    )


def _resolve(drive: str | Path) -> tuple[Path, str]:
    """``NAME`` (bundled) or ``DIR/NAME`` -> (diskspecs path, name)."""
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
    path, name = _resolve(name)
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
    path, name = _resolve(drive)
    return drive_from_files(path, name=name)


# ----------------------------------------------------------------------------- seek
def seek_time_ms(spec: DriveSpec, distance_cyl) -> np.ndarray:
    """Seek time [ms] for cylinder distances, interpolated linearly in the measured curve
    (0 for distance 0; extrapolated linearly past the last measured point).

    >>> d = load_drive("ibm18es")
    >>> float(seek_time_ms(d, 1)), float(seek_time_ms(d, 0))
    (1.062, 0.0)
    """
    d = np.abs(np.asarray(distance_cyl, dtype=float))
    xs = np.asarray(spec.seek_distance_cyl)
    ys = np.asarray(spec.seek_time_ms)
    t = np.interp(d, xs, ys)
    if len(xs) >= 2:
        slope = (ys[-1] - ys[-2]) / (xs[-1] - xs[-2])
        t = np.where(d > xs[-1], ys[-1] + slope * (d - xs[-1]), t)
    return np.where(d == 0, 0.0, t)


class SeekFit(ModelInput):
    """Ruemmler-Wilkes seek curve: ``a + b sqrt(d)`` for ``d < boundary``, ``c + e d`` beyond."""

    a_ms: float = Field(json_schema_extra={"signed": True}, description="short-seek intercept [ms] (fitted, may be < 0)")
    b_ms: float = Field(json_schema_extra={"signed": True}, description="short-seek sqrt coefficient [ms/sqrt(cyl)]")
    c_ms: float = Field(json_schema_extra={"signed": True}, description="long-seek intercept [ms] (fitted, may be < 0)")
    e_ms: float = Field(json_schema_extra={"signed": True}, description="long-seek slope [ms/cyl]")
    boundary_cyl: float = Field(gt=0)
    rms_error_ms: float = Field(ge=0, description="RMS of fit - measured over all points [ms]")
    rms_error_inliers_ms: float = Field(ge=0, description="RMS over the points that are not outliers [ms]")
    outliers: int = Field(ge=0, description="points further than max(3 robust sigma, 0.25 ms) from the fit")
    robust_cost: float = Field(default=0.0, ge=0, description="soft-L1 loss at the optimum (selects the boundary)")
    max_abs_error_ms: float = Field(ge=0, description="largest |fit - measured| [ms]")

    def __call__(self, distance_cyl) -> np.ndarray:
        d = np.abs(np.asarray(distance_cyl, dtype=float))
        t = np.where(d < self.boundary_cyl, self.a_ms + self.b_ms * np.sqrt(d), self.c_ms + self.e_ms * d)
        return np.where(d == 0, 0.0, t)


def fit_seek_curve(distance_cyl, time_ms, *, boundary_cyl: float | None = None) -> SeekFit:
    """Least-squares fit (``scipy.optimize.least_squares``) of the Ruemmler-Wilkes form.

    A robust (soft L1) loss keeps isolated glitches of the measured curves from pulling
    the fit; the errors are reported over all points and over the non-outliers. With
    ``boundary_cyl=None`` the boundary is chosen among the measured distances (between
    the 10th and 95th percentile) as the one with the smallest robust loss.

    >>> d = load_drive("ibm18es")
    >>> f = fit_seek_curve(d.seek_distance_cyl, d.seek_time_ms)
    >>> round(f.boundary_cyl), f.outliers, f.rms_error_inliers_ms < 0.2
    (800, 3, True)
    """
    from scipy.optimize import least_squares

    d = np.asarray(distance_cyl, dtype=float)
    t = np.asarray(time_ms, dtype=float)
    if d.shape != t.shape or d.ndim != 1 or len(d) < 4:
        raise ValueError("distance_cyl and time_ms must be 1-D arrays of the same length (>= 4 points)")

    def fit_at(bnd: float) -> SeekFit:
        def resid(p):
            a, b, c, e = p
            return np.where(d < bnd, a + b * np.sqrt(d), c + e * d) - t

        short = d < bnd
        p0 = [t[short].min() if short.any() else t.min(), 0.1, t[~short].min() if (~short).any() else t.max(), 1e-3]
        # robust loss: the measured curves hold a few glitches (ibm18es: 1.03 ms at 3400 cylinders)
        r = least_squares(resid, p0, method="trf", loss="soft_l1", f_scale=0.25)
        res = resid(r.x)
        a, b, c, e = (float(x) for x in r.x)
        sigma = 1.4826 * float(np.median(np.abs(res - np.median(res))))
        out = np.abs(res) > max(3 * sigma, 0.25)
        return SeekFit(a_ms=a, b_ms=b, c_ms=c, e_ms=e, boundary_cyl=float(bnd),
                       rms_error_ms=float(np.sqrt(np.mean(res**2))),
                       rms_error_inliers_ms=float(np.sqrt(np.mean(res[~out] ** 2))) if (~out).any() else 0.0,
                       outliers=int(out.sum()),
                       max_abs_error_ms=float(np.abs(res).max()), robust_cost=float(r.cost))

    if boundary_cyl is not None:
        if boundary_cyl <= 0:
            raise ValueError(f"boundary_cyl must be > 0, got {boundary_cyl}")
        return fit_at(boundary_cyl)
    lo, hi = np.quantile(d, [0.10, 0.95])
    cands = np.unique(d[(d >= lo) & (d <= hi)])
    if len(cands) > 40:
        cands = cands[np.linspace(0, len(cands) - 1, 40).round().astype(int)]
    fits = [fit_at(float(b)) for b in cands]
    return min(fits, key=lambda f: f.robust_cost)


# ----------------------------------------------------------------------------- layout
@cache
def _layout_tables(spec: DriveSpec):
    z = spec.zones
    ncyl = np.array([zz.last_cylinder - zz.first_cylinder + 1 for zz in z], dtype=np.int64)
    bpt = np.array([zz.blocks_per_track for zz in z], dtype=np.int64)
    dbpt = bpt - np.array([zz.spare_sectors_per_track for zz in z], dtype=np.int64)  # data blocks per track
    front = np.array([zz.empty_front_blocks for zz in z], dtype=np.int64)
    if spec.exact_layout:
        data_tracks = ncyl * spec.surfaces - np.array([zz.spare_tracks for zz in z], dtype=np.int64)
        cap = np.maximum(data_tracks * dbpt - front, 1)
        # slipped sectors are not modelled: the last zone absorbs the difference to Block count
        cap[-1] += spec.block_count - cap.sum()
        if (dbpt <= 0).any() or cap[-1] <= 0:
            raise ValueError(f"drive {spec.name}: zones hold no data blocks; check spares and front space")
    else:
        # sparing/slips not modelled: scale zone capacities to sum to Block count
        raw = ncyl * bpt * spec.surfaces
        cap = np.floor(raw * (spec.block_count / raw.sum())).astype(np.int64)
        cap[-1] += spec.block_count - cap.sum()
    start = np.concatenate([[0], np.cumsum(cap)])
    first = np.array([zz.first_cylinder for zz in z], dtype=np.int64)
    tskew = np.array([zz.track_skew_blocks for zz in z])
    cskew = np.array([zz.cylinder_skew_blocks for zz in z])
    return start, cap, ncyl, bpt, first, tskew, cskew, dbpt, front


def _scaled_cylinder(off: np.ndarray, per_cyl: np.ndarray, ncyl: np.ndarray) -> np.ndarray:
    """Cylinder (within its zone) of zone offsets ``off`` when cylinder ``c`` holds blocks
    ``floor(c * per_cyl) .. floor((c + 1) * per_cyl) - 1`` (scaled layouts)."""
    ci = np.floor(off / per_cyl).astype(np.int64)
    ci = np.where(np.floor((ci + 1) * per_cyl) <= off, ci + 1, ci)  # float rounding at boundaries
    ci = np.where(np.floor(ci * per_cyl) > off, ci - 1, ci)
    return np.clip(ci, 0, ncyl - 1)


def lbn_to_chs(spec: DriveSpec, lbn) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Map logical blocks to (cylinder, surface, sector, blocks per track of the zone).

    The zones are filled in order, cylinder by cylinder, surface by surface.

    >>> d = load_drive("ibm18es")
    >>> c, s, k, bpt = lbn_to_chs(d, [0, 389, 390, d.block_count - 1])
    >>> c.tolist(), s.tolist(), k.tolist(), int(bpt[0])
    ([0, 0, 0, 11473], [0, 0, 1, 4], [0, 389, 0, 238], 390)
    """
    lbn = np.asarray(lbn, dtype=np.int64)
    if lbn.size and (lbn.min() < 0 or lbn.max() >= spec.block_count):
        raise ValueError(f"lbn out of range 0..{spec.block_count - 1} for drive {spec.name}")
    start, cap, ncyl, bpt, first, _, _, dbpt, front = _layout_tables(spec)
    zi = np.searchsorted(start, lbn, side="right") - 1
    off = lbn - start[zi]
    if spec.exact_layout:  # track by track, past the zone's front space
        trk = (off + front[zi]) // dbpt[zi]
        ci = np.minimum(trk // spec.surfaces, ncyl[zi] - 1)
        return first[zi] + ci, trk % spec.surfaces, (off + front[zi]) % dbpt[zi], bpt[zi]
    per_cyl = cap[zi] / ncyl[zi]  # blocks per cylinder after scaling
    ci = _scaled_cylinder(off, per_cyl, ncyl[zi])
    r = off - np.floor(ci * per_cyl).astype(np.int64)
    surf = np.minimum(r // bpt[zi], spec.surfaces - 1)
    sector = r - surf * bpt[zi]
    sector = np.minimum(sector, bpt[zi] - 1)
    return first[zi] + ci, surf, sector, bpt[zi]


def track_end_lbn(spec: DriveSpec, lbn) -> np.ndarray:
    """First logical block after the track that holds each block (same mapping as
    :func:`lbn_to_chs`).

    >>> d = load_drive("dec_rz26")   # 57 data blocks per track
    >>> track_end_lbn(d, [0, 56, 57]).tolist()
    [57, 57, 114]
    """
    lbn = np.asarray(lbn, dtype=np.int64)
    c, s, k, bpt = lbn_to_chs(spec, lbn)
    start, cap, ncyl, _, first, _, _, dbpt, front = _layout_tables(spec)
    zi = np.searchsorted(start, lbn, side="right") - 1
    if spec.exact_layout:
        end = lbn + (dbpt[zi] - k)
    else:  # same cylinder boundaries as lbn_to_chs
        per_cyl = cap[zi] / ncyl[zi]
        ci = c - first[zi]
        cyl_start = start[zi] + np.floor(ci * per_cyl).astype(np.int64)
        cyl_end = np.where(ci == ncyl[zi] - 1, start[zi] + cap[zi],
                           start[zi] + np.floor((ci + 1) * per_cyl).astype(np.int64))
        end = np.where(s == spec.surfaces - 1, cyl_end, np.minimum(cyl_start + (s + 1) * bpt, cyl_end))
    return np.minimum(end, start[zi] + cap[zi])


def _geometry(spec: DriveSpec, lbn: np.ndarray):
    """(cylinder, surface, angular position [revolutions, 0..1), blocks per track) of blocks."""
    start, cap, ncyl, bpt_z, first, tskew, cskew, _, _ = _layout_tables(spec)
    c, s, k, bpt = lbn_to_chs(spec, lbn)
    zi = np.searchsorted(start, lbn, side="right") - 1
    ci = c - first[zi]
    skew = ci * (cskew[zi] + (spec.surfaces - 1) * tskew[zi]) + s * tskew[zi]
    return c, s, np.mod((k + skew) / bpt, 1.0), bpt


# ----------------------------------------------------------------------------- service
def _overhead(spec: DriveSpec, write: bool, hit: bool, prev_write: bool) -> float:
    key = f"{'write' if write else 'read'}_{'hit' if hit else 'miss'}_after_{'write' if prev_write else 'read'}_ms"
    return spec.per_request_overhead_ms + getattr(spec, key)


def predict_service_ms(
    spec: DriveSpec,
    is_write,
    lbn,
    nblocks,
    think_ms=None,
    *,
    rotation: Literal["clock", "expected"] = "clock",
    cache_enabled: bool = True,
) -> np.ndarray:
    """Predicted service time [ms] of each request of a closed-loop request stream.

    Parameters
    ----------
    spec : DriveSpec
    is_write, lbn, nblocks : array_like
        Request type, first logical block and size [blocks], one entry per request.
    think_ms : array_like or None
        Idle time [ms] between the completion of request ``i`` and the issue of request
        ``i + 1`` (the validation traces' ``next_interarrival``); None = 0 (back to back).
    rotation : {"clock", "expected"}
        Rotational latency from the platter angle on the model clock, or half a rotation.
    cache_enabled : bool
        Model the read cache / read-ahead and write-back (False = every request goes to
        the media, write-through).

    Returns
    -------
    numpy.ndarray
        Service time [ms] per request.

    Notes
    -----
    Per request: reads look up the read-cache segments (a segment covers its first block
    up to where read-ahead has filled it; read-ahead runs at media rate from the end of
    the last media read while the drive is idle, up to ``max_readahead_blocks``, and stops
    when the media is needed for something else). A full hit costs the hit overhead + bus
    transfer; a read continuing into the part being read ahead waits for the media. A
    miss costs the miss overhead, then seek (+ head switch), rotational latency and media
    transfer; the bus transfer starts once ``max(1, int(read_high_water * n))`` blocks are
    buffered (plus reselection and data preparation if the drive disconnects), so it ends
    at ``max(start + n * bus, media end + 1 block of bus)``. Write-through writes pay the
    SCSI phases described in the module docstring.
    Write-back writes complete after overhead + bus transfer; their media write runs in
    the background and delays the next media access until it is done (a write starting
    where the pending one ends is appended to it). Write-through writes may start on the
    media only once ``write_low_water`` of the data has crossed the bus.

    >>> d = load_drive("ibm18es")
    >>> t = predict_service_ms(d, [False, False], [1000, 1004], [4, 4], [10.0, 10.0])
    >>> bool(t[0] > 1.0 and t[1] < 1.0)   # miss, then a read-ahead hit
    True
    """
    w = np.asarray(is_write, dtype=bool)
    lb = np.asarray(lbn, dtype=np.int64)
    nb = np.asarray(nblocks, dtype=np.int64)
    n = len(w)
    if len(lb) != n or len(nb) != n:
        raise ValueError("is_write, lbn and nblocks must have the same length")
    think = np.zeros(n) if think_ms is None else np.asarray(think_ms, dtype=float)
    if len(think) != n:
        raise ValueError("think_ms must have one entry per request")
    if n == 0:
        return np.zeros(0)
    if (nb <= 0).any():
        raise ValueError("nblocks must be > 0")
    if lb.min() < 0 or (lb + nb).max() > spec.block_count:
        raise ValueError(f"requests fall outside the drive (0..{spec.block_count} blocks)")
    rot = spec.rotation_ms
    cyl, surf, ang, bpt = _geometry(spec, lb)
    end_cyl = lbn_to_chs(spec, lb + nb - 1)[0]
    trk_end = track_end_lbn(spec, lb + nb - 1) if spec.readahead_to_track_end else None
    xfer = nb / bpt * rot  # media transfer; track/cylinder skews hide the switches
    seek_tab = {}

    def seek(dist: int) -> float:
        v = seek_tab.get(dist)
        if v is None:
            v = seek_tab[dist] = float(seek_time_ms(spec, dist))
        return v

    out = np.empty(n)
    t = 0.0  # arrival time of the current request [ms]
    head_cyl, head_surf = int(cyl[0]), int(surf[0])
    mech_free = 0.0  # media busy until [ms]
    prev_write, prev_end = False, -1
    nseg = spec.cache_segments if cache_enabled else 0
    # read segments: [start, filled_end at t0, limit, t0, rate blocks/ms, reading_ahead, last_used]
    segs: list[list[float]] = []
    write_back = cache_enabled and spec.fast_write_level >= 1
    pend_end, pend_done = -1, -1.0

    def stop_readahead(at: float) -> None:
        for g in segs:
            if g[5]:
                g[1] = min(g[2], g[1] + max(0.0, at - g[3]) * g[4])
                g[5] = 0

    def media(i: int, ready: float, write: bool, min_pos: float = 0.0) -> tuple[float, float]:
        """Media access of request i, the mechanism free from ``ready``: (first sector time, end).

        Positioning = max(seek, head switch), + write settle only if the heads move
        (DiskSim dm_seek_time_g1), padded to ``min_pos`` (DiskSim "Minimum seek delay")."""
        nonlocal head_cyl, head_surf
        c = int(cyl[i])
        dist = abs(c - head_cyl)
        st = seek(dist) if dist else (spec.head_switch_ms if surf[i] != head_surf else 0.0)
        if write and st > 0:
            st = max(0.0, st + spec.write_settle_ms)
        st = max(st, min_pos)
        at = ready + st
        lat = ((ang[i] - at / rot) % 1.0) * rot if rotation == "clock" else 0.5 * rot
        head_cyl, head_surf = int(end_cyl[i]), int(surf[i])
        return at + lat, at + lat + xfer[i]

    for i in range(n):
        wr = bool(w[i])
        s, e = int(lb[i]), int(lb[i] + nb[i])
        if wr:
            bus = nb[i] * spec.bus_write_ms_per_block
            segs = [g for g in segs if not (g[0] < e and s < g[2])]  # writes invalidate read segments
            if write_back:
                done = t + _overhead(spec, True, True, prev_write) + spec.data_prep_ms + bus
                stop_readahead(max(done, mech_free))
                if s == pend_end and pend_done >= done:  # appended to the pending write
                    mech_free = pend_done + float(xfer[i])
                else:
                    _, mech_free = media(i, max(done, mech_free), True)
                pend_end, pend_done = e, mech_free
            else:
                # SCSI phases (DiskSim disk_write_arrive / disk_check_bus): command overhead,
                # data phase (after a reselection unless the drive never disconnects),
                # disconnect, media write, reselection and status
                if spec.extra_write_disconnect and not spec.never_disconnect and prev_write and s != prev_end:
                    # write after a non-sequential write: disconnect right after the command,
                    # reconnect after the inter-disconnect delay for the data, disconnect again
                    mech_ready = t + spec.extradisc_command_ms + spec.extradisc_seek_delta_ms
                    bus_start = (t + spec.extradisc_command_ms + spec.extradisc_disconnect1_ms
                                 + spec.extradisc_inter_disconnect_ms + spec.reselect_first_ms + spec.data_prep_ms)
                    tail_disc, tail_resel = spec.extradisc_disconnect2_ms, spec.reselect_other_ms
                else:
                    oh = _overhead(spec, True, False, prev_write)
                    mech_ready, bus_start = t + oh, t + oh + spec.data_prep_ms
                    tail_disc, tail_resel = ((0.0, 0.0) if spec.never_disconnect
                                             else (spec.write_disconnect_ms, spec.reselect_first_ms))
                begin = max(mech_ready, mech_free)
                stop_readahead(begin)
                ready = bus_start + spec.write_low_water * bus
                _, mend = media(i, begin, True, spec.min_seek_delay_ms)
                if mend - xfer[i] < ready:  # data not there yet: wait whole rotations
                    mend += np.ceil((ready - (mend - xfer[i])) / rot) * rot
                done = max(mend, bus_start + bus + tail_disc) + tail_resel
                mech_free = mend
        else:
            bus = nb[i] * spec.bus_read_ms_per_block
            hit = None
            for g in segs:
                filled = min(g[2], g[1] + max(0.0, t - g[3]) * g[4]) if g[5] else g[1]
                if g[0] <= s <= filled and (e <= filled or (g[5] and e <= g[2])):
                    hit = (g, filled)
                    break
            if hit is not None:
                g, filled = hit
                oh = _overhead(spec, False, True, prev_write)
                oh += spec.data_prep_ms
                if e <= filled:
                    done = t + oh + bus
                else:  # streaming: wait for the read-ahead to reach the end of the request
                    done = max(t + oh + bus, t + (e - filled) / g[4] + spec.bus_read_ms_per_block)
                g[6] = i
            else:
                oh = _overhead(spec, False, False, prev_write)
                begin = max(t + oh, mech_free)
                stop_readahead(begin)
                first, mend = media(i, begin, False)
                blk = rot / bpt[i]
                if spec.never_disconnect:  # holds the bus: data flows from the first block read
                    xfer_start = max(first + blk, t + oh + spec.data_prep_ms)
                else:  # disconnected; reselects once the high water mark (>= 1 block) is buffered
                    wm = max(1, int(min(spec.segment_blocks or nb[i], nb[i]) * spec.read_high_water))
                    disc = spec.read_disconnect_after_write_ms if prev_write else spec.read_disconnect_after_read_ms
                    xfer_start = (max(first + wm * blk, t + oh + disc)
                                  + spec.reselect_first_ms + spec.data_prep_ms)
                done = max(xfer_start + bus, mend + spec.bus_read_ms_per_block)
                mech_free = mend
                if nseg:
                    if spec.readahead_to_track_end:  # track buffer: the rest of the last track
                        limit = min(e + spec.max_readahead_blocks, int(trk_end[i]))
                    else:
                        limit = min(e + spec.max_readahead_blocks, s + max(spec.segment_blocks, e - s),
                                    spec.block_count)
                    if len(segs) >= nseg:
                        segs.remove(min(segs, key=lambda g: g[6]))
                    segs.append([s, e, max(limit, e), mend, bpt[i] / rot, 1 if limit > e else 0, i])
        # completion overhead: the drive's status phase after the data (DiskSim "Read/Write
        # completion overhead"); the media is free meanwhile
        done += spec.write_completion_ms if wr else spec.read_completion_ms
        out[i] = done - t
        prev_write, prev_end = wr, e
        t = done + think[i]
    return out


def cdf_demerit_ms(predicted_ms, measured_ms) -> float:
    """RMS horizontal distance between two service-time CDFs [ms] (DiskSim's demerit).

    Computed over 1000 evenly spaced quantiles (exact sorted differences when both sets
    have the same size).

    >>> cdf_demerit_ms([1.0, 2.0, 3.0], [1.5, 2.5, 3.5])
    0.5
    """
    p = np.sort(np.asarray(predicted_ms, dtype=float))
    m = np.sort(np.asarray(measured_ms, dtype=float))
    if not len(p) or not len(m):
        raise ValueError("need at least one predicted and one measured time")
    if len(p) != len(m):
        q = (np.arange(1000) + 0.5) / 1000
        p, m = np.quantile(p, q), np.quantile(m, q)
    return float(np.sqrt(np.mean((p - m) ** 2)))


def _read_validate_trace(path: Path):
    from models.traces.readers import read_disksim_validate

    tr = read_disksim_validate(path)
    if len(tr) == 0 or "service_us" not in tr.meta:
        raise ValueError(f"{Path(path).name}: the validation trace has no requests")
    lbn = tr.offset_bytes // SECTOR_BYTES
    nb = tr.size_bytes // SECTOR_BYTES
    measured = np.asarray(tr.meta["service_us"], dtype=float) / 1e3
    # closed loop (DiskSim iotrace_validate_get_ioreq_event): request i+1 is issued the
    # line-i "next interarrival" after request i completes, i.e. it is a think time
    think = np.asarray(tr.meta["interarrival_us"], dtype=float) / 1e3
    return np.asarray(tr.is_write), lbn, nb, think, measured


def validate_drive(drive: str | Path, *, rotation: Literal["clock", "expected"] = "clock",
                   cache_enabled: bool = True) -> dict:
    """Replay a drive's measured validation trace and compare service times.

    ``drive`` is a bundled name or ``DIR/NAME`` (reads NAME.diskspecs/.model/.seek/.trace).

    Returns
    -------
    dict
        ``drive, requests, mean_measured_ms, mean_predicted_ms, demerit_ms`` plus the
        arrays ``measured_ms``, ``predicted_ms`` and ``is_write``.
    """
    spec = load_drive(drive)
    path, name = _resolve(drive)
    trace = path.with_suffix(".trace")
    if not trace.is_file():
        raise FileNotFoundError(f"measured trace not found: {trace}")
    w, lbn, nb, think, measured = _read_validate_trace(trace)
    pred = predict_service_ms(spec, w, lbn, nb, think, rotation=rotation, cache_enabled=cache_enabled)
    return {
        "drive": name,
        "requests": int(len(measured)),
        "mean_measured_ms": float(measured.mean()),
        "mean_predicted_ms": float(pred.mean()),
        "demerit_ms": cdf_demerit_ms(pred, measured),
        "measured_ms": measured,
        "predicted_ms": pred,
        "is_write": w,
    }


def validation_table(drives=None, **kwargs):
    """Validation of every bundled drive as a DataFrame (one row per drive), with DiskSim's
    published demerit and whether ours is within 2x of it."""
    import pandas as pd

    rows = []
    for name in drives or drive_names():
        r = validate_drive(name, **kwargs)
        ref = DISKSIM_DEMERIT_MS.get(name, np.nan)
        rows.append({k: r[k] for k in ("drive", "requests", "mean_measured_ms", "mean_predicted_ms", "demerit_ms")}
                    | {"disksim_demerit_ms": ref, "ratio_to_disksim": r["demerit_ms"] / ref,
                       "within_2x": bool(r["demerit_ms"] <= 2 * ref) if ref == ref else None})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- streams
def stream_service_ms(spec: DriveSpec, lbn, nblocks, is_write=None) -> np.ndarray:
    """Service time [ms] of each request of a back-to-back request stream, vectorised.

    ``overhead + seek(cylinder distance from the previous request's end) + rotation +
    media transfer``; a request that starts exactly where the previous one ended streams
    on (no overhead, seek or rotational latency), any other one pays half a rotation
    (expected latency). No drive cache. Used for the throughput of the HDD stream behind
    a write cache.

    >>> g = generic_drive()
    >>> seq = stream_service_ms(g, np.arange(0, 8000, 8), np.full(1000, 8))
    >>> round(float(seq[1:].mean()), 4) == round(8 / g.zones[0].blocks_per_track * g.rotation_ms, 4)
    True
    """
    lb = np.asarray(lbn, dtype=np.int64)
    nb = np.asarray(nblocks, dtype=np.int64)
    if lb.shape != nb.shape or lb.ndim != 1:
        raise ValueError("lbn and nblocks must be 1-D arrays of the same length")
    n = len(lb)
    if n == 0:
        return np.zeros(0)
    if (nb <= 0).any():
        raise ValueError("nblocks must be > 0")
    lb = np.minimum(lb, spec.block_count - 1)
    w = np.zeros(n, bool) if is_write is None else np.asarray(is_write, dtype=bool)
    cyl, _, _, bpt = lbn_to_chs(spec, lb)
    end_cyl = lbn_to_chs(spec, np.minimum(lb + nb - 1, spec.block_count - 1))[0]
    prev_end_cyl = np.concatenate([[cyl[0]], end_cyl[:-1]])
    prev_end_lbn = np.concatenate([[-1], (lb + nb)[:-1]])
    seq = lb == prev_end_lbn
    rot = spec.rotation_ms
    oh = np.where(w, spec.write_miss_after_write_ms, spec.read_miss_after_read_ms) + spec.per_request_overhead_ms
    dist = cyl - prev_end_cyl
    # write settle only when the heads move (as predict_service_ms and DiskSim's dm_seek_time_g1)
    seek = seek_time_ms(spec, dist) + np.where(w & (dist != 0), spec.write_settle_ms, 0.0)
    seek = np.maximum(seek, 0.0)
    xfer = nb / bpt * rot
    return np.where(seq, xfer, oh + seek + 0.5 * rot + xfer)


def stream_throughput_MBps(spec: DriveSpec, lbn, nblocks, is_write=None) -> float:
    """Average throughput [MB/s, 1e6 B/s] of a back-to-back request stream (see
    :func:`stream_service_ms`)."""
    t = stream_service_ms(spec, lbn, nblocks, is_write)
    if not len(t):
        return float("nan")
    return float(np.asarray(nblocks).sum() * SECTOR_BYTES / (t.sum() * 1e3))


def throughput_curve(spec: DriveSpec, distances_blocks, sizes_bytes=(4096,), *, requests: int = 2000, seed=0):
    """Throughput [MB/s] vs mean inter-request LBN distance and request size.

    For each mean distance ``D`` [blocks] a stream of ``requests`` requests is generated
    whose start-to-start LBN jumps are exponentially distributed with mean ``D`` (random
    direction, reflected at the ends of the disk); ``D`` at or below the request size
    means a purely sequential stream. Each stream goes through
    :func:`stream_throughput_MBps`. Returns a DataFrame with columns
    ``mean_lbn_distance, request_bytes, throughput_MBps``.

    >>> df = throughput_curve(generic_drive(), [0, 1e8], [4096], requests=500)
    >>> bool(df.throughput_MBps.iloc[0] > 50 * df.throughput_MBps.iloc[1])
    True
    """
    import pandas as pd

    from models._base import as_generator

    g = as_generator(seed)
    if requests < 2:
        raise ValueError(f"requests must be >= 2, got {requests}")
    rows = []
    for size in sizes_bytes:
        if size <= 0:
            raise ValueError(f"sizes_bytes must be > 0, got {size}")
        nblk = max(1, int(round(size / SECTOR_BYTES)))
        span = spec.block_count - nblk
        for dist in distances_blocks:
            dist = float(dist)
            if dist < 0:
                raise ValueError(f"distances must be >= 0, got {dist}")
            if dist <= nblk:
                pos = spec.block_count // 4 + np.arange(requests, dtype=np.int64) * nblk
                pos %= span
            else:
                steps = g.exponential(dist, requests).round() * g.choice([-1, 1], requests)
                x = np.mod(span // 2 + np.cumsum(steps), 2 * span)
                pos = np.where(x > span, 2 * span - x, x).astype(np.int64)
            rows.append({"mean_lbn_distance": float(np.abs(np.diff(pos)).mean()), "request_bytes": nblk * SECTOR_BYTES,
                         "throughput_MBps": stream_throughput_MBps(spec, pos, np.full(requests, nblk), None)})
    return pd.DataFrame(rows)


@cache
def generic_drive(device: str = "hdd-7200") -> DriveSpec:
    """Generic drive profile calibrated on a catalogue HDD (default ``hdd-7200``).

    - rpm from the catalogue; one zone whose blocks per track give the catalogue's
      sequential bandwidth (100 MB/s at 7200 rpm -> 1628 blocks per track);
    - 500 GB (the seed's disk), 4 surfaces;
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
    surfaces = 4
    blocks = int(500e9 // SECTOR_BYTES)
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
