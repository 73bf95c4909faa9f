"""What the HDD model does with every DiskSim 4.0 drive parameter: honoured, or ignored and why.

:data:`PARAMETERS` is the registry: one :class:`ParamCoverage` per parameter name that can
appear in a drive's ``*.diskspecs`` (block ``disksim_disk`` and its ``disksim_ioqueue``
scheduler) or ``*.model`` (blocks ``dm_disk``, ``dm_layout_g1`` with its zones, ``dm_mech_g1``).
Each says what DiskSim 4.0 does with the parameter (its source: ``disksim_disk.c``,
``disksim_diskctlr.c``, ``disksim_diskcache.c``, ``disksim_ioqueue.c``, ``diskmodel/``) and
what our model does:

- ``honoured``: read into :class:`~models.storage.hdd.spec.DriveSpec` and used with DiskSim's
  meaning, for every value;
- ``honoured for listed values``: the model implements DiskSim's behaviour for the values in
  ``values`` only (every bundled drive uses one of them); another value is read as the
  nearest one and :func:`drive_coverage` flags it;
- ``ignored``: not used, with the reason and the effect (``values``: the values at which
  ignoring it is exact, e.g. a switch that is off);
- ``not applicable``: no effect on one drive serving one request at a time (the validation
  replay is closed loop and every bundled drive has "Max queue length = 1"; the write-cache
  stream is served in order).

:func:`coverage_table` is the table shown on the HDD page and in ``docs/models/hdd.md``;
:func:`file_parameters` lists the parameter names present in drive files (a test checks
every bundled name is in the registry); :func:`drive_coverage` gives one drive's values
against the registry, so a drive the model was not built on shows which of its settings
are not modelled.

References
----------
.. [1] J. S. Bucy, J. Schindler, S. W. Schlosser, G. R. Ganger, "The DiskSim Simulation
   Environment Version 4.0 Reference Manual", CMU-PDL-08-101, 2008 (parameter meanings).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from models.storage.hdd.disksim import parse_disksim

__all__ = ["ParamCoverage", "PARAMETERS", "STATUSES", "coverage_table", "file_parameters", "drive_coverage",
           "lookup"]

#: The statuses of :class:`ParamCoverage`, in the table's order.
STATUSES = ("honoured", "honoured for listed values", "ignored", "not applicable")


@dataclass(frozen=True)
class ParamCoverage:
    """One DiskSim parameter and what the model does with it."""

    #: DiskSim block: ``disksim_disk``, ``disksim_ioqueue``, ``dm_disk``, ``dm_layout_g1``, ``zone``, ``dm_mech_g1``.
    block: str
    #: The parameter's name as written in the files.
    name: str
    #: One of :data:`STATUSES`.
    status: str
    #: What DiskSim 4.0 does with it, and what the model does (how it is honoured or why it is not).
    note: str
    #: ``honoured for listed values``: the values the model implements; ``ignored``: the values at
    #: which ignoring the parameter changes nothing (an empty list is written ``"[]"``); () = none.
    values: tuple = ()
    #: :class:`~models.storage.hdd.spec.DriveSpec` field(s) it sets ("" if none).
    field: str = ""


_ONE = ("one request at a time: the validation replay is closed loop (the next request is issued a think "
        "time after the previous completes) and every bundled drive has 'Max queue length = 1'")
_BUS = "the drive is alone on its bus in the validation set-up, so there is no bus contention to model"

_H, _V, _I, _N = STATUSES

PARAMETERS: tuple[ParamCoverage, ...] = (
    # ------------------------------------------------------------------ disksim_disk: controller
    ParamCoverage("disksim_disk", "Model", _H, "the .model file holding the mechanics and layout (read)"),
    ParamCoverage("disksim_disk", "Scheduler", _N, "the request queue's block (disksim_ioqueue, below); " + _ONE),
    ParamCoverage("disksim_disk", "Max queue length", _V, "requests the drive accepts at once; the model serves "
                  "one at a time, which is this value", (1.0,)),
    ParamCoverage("disksim_disk", "Segment size (in blks)", _H, "size of each read-cache segment [blocks]; bounds "
                  "the read-ahead (with 'Maximum read-ahead') and the high water mark", field="segment_blocks"),
    ParamCoverage("disksim_disk", "Number of buffer segments", _H, "read-cache segments; the least recently used "
                  "is replaced after a miss", field="cache_segments"),
    ParamCoverage("disksim_disk", "Print stats", _N, "DiskSim output switch; no effect on timing"),
    ParamCoverage("disksim_disk", "Per-request overhead time", _H, "added to every request's controller overhead",
                  field="per_request_overhead_ms"),
    ParamCoverage("disksim_disk", "Time scale for overheads", _V, "DiskSim multiplies the controller overheads by "
                  "it; every bundled drive has 1, which the model assumes", (1.0,)),
    ParamCoverage("disksim_disk", "Bulk sector transfer time", _H, "bus time per block [ms]; DiskSim takes the larger "
                  "of it and the bus's own block time. A 0 (the old drives) means the bus's: DiskSim's valid/*.parv "
                  "BUS1 block transfer time (registry hdd.bus_ms_per_block.*)",
                  field="bus_read_ms_per_block, bus_write_ms_per_block"),
    ParamCoverage("disksim_disk", "Never disconnect", _H, "1: the drive holds the bus for the whole request (no "
                  "disconnect/reselect phases); 0: SCSI disconnect after a read-miss command, reselect at the high "
                  "water mark", field="never_disconnect"),
    ParamCoverage("disksim_disk", "Avg sectors per cylinder", _N, "used by DiskSim's request queue to map LBNs to "
                  "cylinders for seek-aware scheduling ('Cylinder mapping strategy'); " + _ONE),
    ParamCoverage("disksim_disk", "Maximum number of write segments", _V, "buffer segments that may hold write "
                  "data; the validation replay keeps one pending write-back write, the write-cache stream's drive "
                  "buffer (models.storage.hdd.write_buffer) holds at most this many pending writes of at most a "
                  "segment each", (1.0,), field="write_segments"),
    ParamCoverage("disksim_disk", "Use separate write segment", _I, "1: one segment is reserved for writes, 0: a "
                  "write takes a read segment. The model always keeps the pending write apart from the read "
                  "segments (the value-1 behaviour); for a value-0 drive with one outstanding request this only "
                  "makes a write-back evict one read segment less", (1.0,)),
    ParamCoverage("disksim_disk", "Low (write) water mark", _H, "fraction of a write-through write received "
                  "before the media write may start", field="write_low_water"),
    ParamCoverage("disksim_disk", "High (read) water mark", _H, "fraction buffered before a disconnected drive "
                  "reselects for the read's data phase (at least one block)", field="read_high_water"),
    ParamCoverage("disksim_disk", "Set watermark by reqsize", _V, "1: the water marks are fractions of the request "
                  "(capped by the segment), 0: of the segment; the model uses the request", (1.0,)),
    ParamCoverage("disksim_disk", "Calc sector by sector", _V, "1: DiskSim times the media transfer sector by "
                  "sector (track and cylinder switches inside a request included); the model charges "
                  "blocks / (blocks per track) rotations with the zone's skews absorbing the switches, which is "
                  "the same when the skew covers the switch time (DiskSim's skews are set so)", (1.0,)),
    ParamCoverage("disksim_disk", "Enable caching in buffer", _V, "0: no read cache and no write-back; 1 or 2: "
                  "the buffer caches data (2, hp_c2490a's, is read as 1)", (0.0, 1.0), field="cache_segments"),
    ParamCoverage("disksim_disk", "Buffer continuous read", _V, "read-ahead after a media read: 0 none, 1 to the "
                  "end of the track (dec_rz26), 2 to the end of the cylinder, 3 to the end of the segment, 4 "
                  "DEC's prefetch scheme (atlas10k). 0, 1 and 3 are modelled; 2 and 4 are read as 3",
                  (0.0, 1.0, 3.0), field="readahead_to_track_end, max_readahead_blocks"),
    ParamCoverage("disksim_disk", "Minimum read-ahead (blks)", _V, "read-ahead that is not preempted by the next "
                  "request; 0 (every bundled drive): read-ahead stops as soon as the media is needed, as "
                  "modelled", (0.0,)),
    ParamCoverage("disksim_disk", "Maximum read-ahead (blks)", _H, "read-ahead beyond the request [blocks]",
                  field="max_readahead_blocks"),
    ParamCoverage("disksim_disk", "Read-ahead over requested", _I, "whether prefetched data may overwrite the "
                  "requested data in the segment (-1, 0, 1). The model always keeps the requested blocks in the "
                  "segment (read-ahead ends at the segment's size from the request's start) whatever the value"),
    ParamCoverage("disksim_disk", "Read-ahead on idle hit", _I, "1: a read hit on an idle drive restarts "
                  "read-ahead. The model lets the read-ahead started by the last miss run to its limit through "
                  "hits and never starts a new one on a hit, whatever the value"),
    ParamCoverage("disksim_disk", "Read any free blocks", _I, "1: while idle the drive also buffers blocks that "
                  "pass under the head before the read-ahead point; not modelled (more hits on short backward "
                  "jumps for atlas10k and ibm18es)", (0.0,)),
    ParamCoverage("disksim_disk", "Fast write level", _H, "0: write-through; 1 (limited) and 2 (full): the write "
                  "is reported once its data is in the buffer (write-back). 1 and 2 differ only in how a queued "
                  "write appending to the one being written is chained, which needs a second outstanding "
                  "request", field="fast_write_level"),
    ParamCoverage("disksim_disk", "Immediate buffer read", _I, "lets a read hit start its bus transfer before the "
                  "previous request's completion phase ends (dec_rz26, atlas10k); not modelled: the hit pays its "
                  "overhead and bus transfer after arriving", (0.0,)),
    ParamCoverage("disksim_disk", "Immediate buffer write", _I, "the same for write-back writes (atlas10k); not "
                  "modelled", (0.0,)),
    ParamCoverage("disksim_disk", "Combine seq writes", _V, "1: a write-back write that continues the pending one "
                  "is appended to it (no repositioning), as modelled", (1.0,)),
    ParamCoverage("disksim_disk", "Stop prefetch in sector", _V, "1: a preempted read-ahead may stop in the middle "
                  "of a sector; 0: it finishes the sector. The model stops at once (the value-1 behaviour); for a "
                  "value-0 drive it is early by less than one sector's media time", (1.0,)),
    ParamCoverage("disksim_disk", "Disconnect write if seek", _V, "1: a write disconnects while the heads seek; 0 "
                  "(every bundled drive) as modelled", (0.0,)),
    ParamCoverage("disksim_disk", "Write hit stop prefetch", _V, "1: a write-back write stops the read-ahead in "
                  "progress, as modelled", (1.0,)),
    ParamCoverage("disksim_disk", "Read directly to buffer", _V, "1: media reads go through a buffer segment, from "
                  "which the bus transfer starts at the high water mark, as modelled", (1.0,)),
    ParamCoverage("disksim_disk", "Immed transfer partial hit", _V, "1: a read whose first part is buffered "
                  "transfers it at once while the rest is read. The model serves a read that starts in a segment "
                  "and ends within its read-ahead as a hit that waits for the media; a read running past the "
                  "read-ahead limit is a miss (every bundled drive has 1)", (1.0,)),
    *[ParamCoverage("disksim_disk", f"{op} {hm} over. after {prev}", _H, f"controller overhead of a {op.lower()} "
                    f"{hm} that follows a {prev} [ms]", field=f"{op.lower()}_{hm}_after_{prev}_ms")
      for op in ("Read", "Write") for hm in ("hit", "miss") for prev in ("read", "write")],
    ParamCoverage("disksim_disk", "Read completion overhead", _H, "status phase after a read [ms]",
                  field="read_completion_ms"),
    ParamCoverage("disksim_disk", "Write completion overhead", _H, "status phase after a write [ms]",
                  field="write_completion_ms"),
    ParamCoverage("disksim_disk", "Data preparation overhead", _H, "before every data phase [ms]",
                  field="data_prep_ms"),
    ParamCoverage("disksim_disk", "First reselect overhead", _H, "reselection for a data or status phase [ms]",
                  field="reselect_first_ms"),
    ParamCoverage("disksim_disk", "Other reselect overhead", _H, "final reselection of an extra-disconnect write "
                  "[ms]", field="reselect_other_ms"),
    ParamCoverage("disksim_disk", "Read disconnect afterread", _H, "disconnect after a read-miss command that "
                  "follows a read [ms]", field="read_disconnect_after_read_ms"),
    ParamCoverage("disksim_disk", "Read disconnect afterwrite", _H, "the same after a write [ms]",
                  field="read_disconnect_after_write_ms"),
    ParamCoverage("disksim_disk", "Write disconnect overhead", _H, "disconnect after a write-through write's data "
                  "[ms]", field="write_disconnect_ms"),
    ParamCoverage("disksim_disk", "Extra write disconnect", _H, "1: a write following a non-sequential write "
                  "disconnects right after the command (DiskSim disk_buffer_select_segment's condition)",
                  field="extra_write_disconnect"),
    ParamCoverage("disksim_disk", "Extradisc command overhead", _H, "command overhead of an extra-disconnect write "
                  "[ms]", field="extradisc_command_ms"),
    ParamCoverage("disksim_disk", "Extradisc disconnect overhead", _H, "its first disconnect [ms]",
                  field="extradisc_disconnect1_ms"),
    ParamCoverage("disksim_disk", "Extradisc inter-disconnect delay", _H, "before it reconnects for the data [ms]",
                  field="extradisc_inter_disconnect_ms"),
    ParamCoverage("disksim_disk", "Extradisc 2nd disconnect overhead", _H, "its second disconnect [ms]",
                  field="extradisc_disconnect2_ms"),
    ParamCoverage("disksim_disk", "Extradisc seek delta", _H, "delay before its mechanism starts [ms]",
                  field="extradisc_seek_delta_ms"),
    ParamCoverage("disksim_disk", "Minimum seek delay", _H, "write-through positioning is padded to it [ms]",
                  field="min_seek_delay_ms"),
    ParamCoverage("disksim_disk", "Hold bus entire read xfer", _N, "keep the bus between the blocks of a read; "
                  + _BUS),
    ParamCoverage("disksim_disk", "Hold bus entire write xfer", _N, "the same for writes; " + _BUS),
    ParamCoverage("disksim_disk", "Allow almost read hits", _V, "1: a read of blocks about to be read ahead is a "
                  "hit; 0 (every bundled drive), as modelled", (0.0,)),
    ParamCoverage("disksim_disk", "Allow sneaky full read hits", _V, "1: a read may hit a segment being filled for "
                  "another request; 0 (every bundled drive), as modelled", (0.0,)),
    ParamCoverage("disksim_disk", "Allow sneaky partial read hits", _V, "the same for partial hits; 0, as "
                  "modelled", (0.0,)),
    ParamCoverage("disksim_disk", "Allow sneaky intermediate read hits", _V, "the same for intermediate hits; 0, as "
                  "modelled", (0.0,)),
    ParamCoverage("disksim_disk", "Allow read hits on write data", _V, "1: a read may hit data a write left in the "
                  "buffer. The model drops the read segments a write overlaps and never serves a read from write "
                  "data (the value-0 behaviour, ibm18es's); the other drives' 1 is not modelled", (0.0,)),
    ParamCoverage("disksim_disk", "Allow write prebuffering", _V, "1: write data may be taken before the segment "
                  "is free; 0, as modelled", (0.0,)),
    ParamCoverage("disksim_disk", "Preseeking level", _V, "1-2: the heads start seeking for the next request "
                  "during the completion phase; 0 (every bundled drive), as modelled", (0.0,)),
    # ------------------------------------------------------------------ disksim_ioqueue (the scheduler)
    ParamCoverage("disksim_ioqueue", "Scheduling policy", _V, "1 = FCFS: requests are served in arrival order, as "
                  "the model does", (1.0,)),
    *[ParamCoverage("disksim_ioqueue", n, _N, "request-queue setting (0 = off in every bundled drive); " + _ONE)
      for n in ("Cylinder mapping strategy", "Write initiation delay", "Read initiation delay",
                "Sequential stream scheme", "Maximum concat size", "Overlapping request scheme",
                "Sequential stream diff maximum", "Scheduling timeout scheme", "Timeout time/weight",
                "Timeout scheduling", "Scheduling priority scheme", "Priority scheduling")],
    # ------------------------------------------------------------------ dm_disk
    ParamCoverage("dm_disk", "Block count", _H, "capacity [blocks]; the layout ends there", field="block_count"),
    ParamCoverage("dm_disk", "Number of data surfaces", _H, "surfaces (tracks per cylinder)", field="surfaces"),
    ParamCoverage("dm_disk", "Number of cylinders", _H, "cylinders of the drive", field="cylinders"),
    ParamCoverage("dm_disk", "Mechanical Model", _H, "the dm_mech_g1 block (below)"),
    ParamCoverage("dm_disk", "Layout Model", _H, "the dm_layout_g1 block (below)"),
    # ------------------------------------------------------------------ dm_layout_g1
    ParamCoverage("dm_layout_g1", "LBN-to-PBN mapping scheme", _V, "0: LBNs fill a cylinder's tracks surface by "
                  "surface, then the next cylinder, as modelled; 1 (atlas10k) is read as 0", (0.0,)),
    ParamCoverage("dm_layout_g1", "Sparing scheme used", _V, "0 none, 1 spare tracks at each zone's end, 3 spare "
                  "sectors at each track's end: mapped track by track as DiskSim does; the range/zone schemes "
                  "(2, 7, 8, 9 of the modern drives) are approximated by scaling each zone so the zones sum to "
                  "'Block count' (a block moves by at most a few % of a zone)", (0.0, 1.0, 3.0),
                  field="exact_layout"),
    ParamCoverage("dm_layout_g1", "Rangesize for sparing", _N, "used only by the range-sparing schemes (7-9), "
                  "which are approximated as a whole ('Sparing scheme used')"),
    ParamCoverage("dm_layout_g1", "Zones", _H, "the zone list (below)", field="zones"),
    ParamCoverage("zone", "First cylinder number", _H, "first cylinder of the zone", field="first_cylinder"),
    ParamCoverage("zone", "Last cylinder number", _H, "last cylinder of the zone", field="last_cylinder"),
    ParamCoverage("zone", "Blocks per track", _H, "sectors per track (media rate, angular position)",
                  field="blocks_per_track"),
    ParamCoverage("zone", "Offset of first block", _I, "angular offset of the zone's first block [sectors]; not "
                  "read: the model puts each zone's first block at angle 0 (non-zero only on the old HP drives "
                  "and st41601n; it shifts the rotational latency of a jump between zones)", (0.0,)),
    ParamCoverage("zone", "Empty space at zone front", _H, "unused sectors before the zone's first block "
                  "(sparing schemes 0, 1, 3)", field="empty_front_blocks"),
    ParamCoverage("zone", "Skew for track switch", _H, "skew between consecutive tracks [blocks]",
                  field="track_skew_blocks"),
    ParamCoverage("zone", "Skew for cylinder switch", _H, "skew between consecutive cylinders [blocks]",
                  field="cylinder_skew_blocks"),
    ParamCoverage("zone", "Number of spares", _H, "spare tracks (scheme 1) or sectors per track (scheme 3)",
                  field="spare_tracks, spare_sectors_per_track"),
    ParamCoverage("zone", "slips", _I, "slipped sectors (defects skipped by the layout); not modelled: the last "
                  "zone absorbs the few blocks' difference to 'Block count'", ("[]",)),
    ParamCoverage("zone", "defects", _I, "remapped defective sectors; not modelled (empty in every bundled "
                  "drive)", ("[]",)),
    # ------------------------------------------------------------------ dm_mech_g1
    ParamCoverage("dm_mech_g1", "Access time type", _V, "trackSwitchPlusRotation: positioning = seek (or head "
                  "switch on the same cylinder) + rotational latency, as modelled", ("trackSwitchPlusRotation",)),
    ParamCoverage("dm_mech_g1", "Seek type", _V, "extracted: the measured .seek curve, interpolated; hplplus10: "
                  "the HPL equation with the first ten seek times", ("extracted", "hplplus10"),
                  field="seek_distance_cyl, seek_time_ms"),
    ParamCoverage("dm_mech_g1", "Full seek curve", _H, "the .seek file of an extracted curve"),
    ParamCoverage("dm_mech_g1", "HPL seek equation values", _H, "the HPL curve (a + b sqrt(d) below the bound, c + "
                  "e d above, single-cylinder time)"),
    ParamCoverage("dm_mech_g1", "First ten seek times", _H, "seeks of 1-10 cylinders of the hplplus10 curve"),
    ParamCoverage("dm_mech_g1", "Average seek time", _N, "used by DiskSim's seek types built from a few points "
                  "(const, linear); not by an extracted or HPL curve, which every bundled drive uses"),
    ParamCoverage("dm_mech_g1", "Single cylinder seek time", _N, "the same: the bundled drives' curves give the "
                  "one-cylinder seek"),
    ParamCoverage("dm_mech_g1", "Full strobe seek time", _N, "the same for a full-stroke seek"),
    ParamCoverage("dm_mech_g1", "Add. write settling delay", _H, "added to a write's positioning when the heads move "
                  "(may be negative)", field="write_settle_ms"),
    ParamCoverage("dm_mech_g1", "Head switch time", _H, "positioning on the same cylinder, another surface",
                  field="head_switch_ms"),
    ParamCoverage("dm_mech_g1", "Rotation speed (in rpms)", _H, "spindle speed", field="rpm"),
    ParamCoverage("dm_mech_g1", "Percent error in rpms", _V, "spread of the spindle speed; 0 (every bundled drive) = "
                  "a constant speed, as modelled", (0.0,)),
)

_INDEX = {(p.block, p.name): p for p in PARAMETERS}


def lookup(block: str, name: str) -> ParamCoverage:
    """The registry entry of parameter ``name`` of ``block`` (KeyError if absent)."""
    return _INDEX[(block, name)]


def coverage_table() -> pd.DataFrame:
    """The registry as a table: ``block, parameter, status, values, note, field``, one row per parameter
    (``values``: implemented values, or for an ignored parameter the values at which ignoring it is exact)."""
    return pd.DataFrame([{"block": p.block, "parameter": p.name, "status": p.status,
                          "values": ", ".join(str(v).removesuffix(".0") for v in p.values) if p.values else "",
                          "note": p.note, "field": p.field} for p in PARAMETERS])


def _block_of(header_or_type: str) -> str:
    t = header_or_type.split()[0]
    return {"Zones": "zone"}.get(t, t)


def _walk(block: str, d: dict, out: list) -> None:
    for key, v in d.items():
        if key == "__type__":
            continue
        out.append((block, key, v))
        if isinstance(v, dict):
            _walk(_block_of(v.get("__type__", key)), v, out)
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, dict):
                    _walk("zone" if key == "Zones" else _block_of(x.get("__type__", key)), x, out)


def file_parameters(paths) -> list[tuple[str, str, object]]:
    """(block, parameter name, value) of every parameter in DiskSim files ``paths``
    (``*.diskspecs`` / ``*.model``), nested blocks and zone lists included.

    >>> file_parameters([])
    []
    """
    out: list = []
    for path in paths:
        path = Path(path)
        for header, block in parse_disksim(path.read_text(), source=path.name):
            _walk(_block_of(header), block, out)
    return out


def drive_coverage(drive: str | Path) -> pd.DataFrame:
    """One drive's parameters against the registry: ``block, parameter, value, status, modelled``.

    ``modelled`` is False for an ignored parameter and for a value outside the listed ones of a
    ``honoured for listed values`` parameter (True for ``not applicable`` ones); a parameter
    missing from the registry gets status ``"unknown"`` and ``modelled`` False. Zone entries
    are reported once per parameter (all zones' values joined).

    >>> df = drive_coverage("atlas10k")
    >>> row = df.set_index("parameter").loc["Buffer continuous read"]
    >>> row.value, bool(row.modelled)
    ('4', False)
    """
    from models.storage.hdd.spec import _model_blocks, resolve_drive

    spec_path, name = resolve_drive(drive)
    _, _, model_path = _model_blocks(spec_path, name)
    seen: dict[tuple[str, str], list] = {}
    for block, key, v in file_parameters([spec_path, model_path]):
        seen.setdefault((block, key), []).append(v)
    rows = []
    for (block, key), vals in seen.items():
        shown = sorted({_show(v) for v in vals})
        entry = _INDEX.get((block, key))
        if entry is None:
            rows.append({"block": block, "parameter": key, "value": ", ".join(shown), "status": "unknown",
                         "modelled": False})
            continue
        if entry.status == _I:
            ok = bool(entry.values) and all(_show(v) in {_show(x) for x in entry.values} for v in vals)
        elif entry.status == _V:
            ok = all(v in entry.values for v in vals)
        else:
            ok = True
        rows.append({"block": block, "parameter": key, "value": ", ".join(shown), "status": entry.status,
                     "modelled": bool(ok)})
    return pd.DataFrame(rows)


def _show(v) -> str:
    if isinstance(v, dict):
        return "{block}"
    if isinstance(v, list):  # a list parameter (slips, spares) by its length: "1 entry", "18 entries", "none"
        return f"{len(v)} entr{'y' if len(v) == 1 else 'ies'}" if v else "none"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)
