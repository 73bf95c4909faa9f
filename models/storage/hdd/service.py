"""Service time of each request of a closed-loop request stream on one drive.

Per request::

    t = controller overhead (by request type, hit/miss and the previous request's type)
      + seek(cylinder distance from where the head is)       [+ write settle, head switch]
      + rotational latency                                  (platter angle from the clock)
      + transfer                                            (media: zone blocks per track x rpm;
                                                             bus: per-sector transfer time)
      + completion overhead

with the drive's cache: a read inside a read-cache segment is a hit (hit overhead + bus
transfer); after a media read the drive keeps reading ahead at media rate during the
think time up to the maximum read-ahead (or, for a track buffer, to the end of the track),
so a sequential read that streams past the filled part waits only for the media; with
``Fast write level >= 1`` writes are write-back (write-hit overhead + bus transfer; the
media write is done in the background and delays the next media access only if it is not
finished).

SCSI bus phases, from the drive's ``.diskspecs``: a drive that may disconnect leaves the bus
after a read-miss command and reselects once the high water mark (>= 1 block) is buffered;
a write-through write reselects for its status after the media write; with "Extra write
disconnect" a write after a write it does not continue disconnects once more after the
command. Every data phase pays the data preparation overhead; write-through positioning is
padded to the "Minimum seek delay" and the write settle is added only when the heads move.
The rules in full and what they changed: ``docs/models/hdd.md``.

Rotational latency is modelled from request timing: the platter angle is ``(t * rpm /
60000) mod 1`` on the model's own clock and the target sector's angle comes from the
layout (:func:`~models.storage.hdd.layout.platter_position`), so same-track and sequential
jumps get their true (short) latency; ``rotation="expected"`` uses half a rotation.

References
----------
.. [1] J. S. Bucy, J. Schindler, S. W. Schlosser, G. R. Ganger, "The DiskSim Simulation
   Environment Version 4.0 Reference Manual", CMU-PDL-08-101, 2008 (disk controller and
   mechanics: ``disk_write_arrive``, ``disk_read_arrive``, ``disk_check_bus``,
   ``dm_seek_time_g1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple

import numpy as np

from models.storage.hdd.layout import lbn_to_chs, platter_position, track_end_lbn
from models.storage.hdd.seek import seek_time_ms

if TYPE_CHECKING:
    from models.storage.hdd.spec import DriveSpec

__all__ = ["ReadSegment", "controller_overhead_ms", "predict_service_ms", "predict_service_detail"]


@dataclass(eq=False, slots=True)
class ReadSegment:
    """One read-cache segment of the drive's buffer.

    It holds blocks ``start`` .. ``filled`` (exclusive) at time ``t0_ms``; while
    ``reading_ahead`` the media keeps filling it at ``rate_blocks_per_ms`` up to ``limit``.
    """

    start: int  #: first block held [LBN]
    filled: float  #: end of the data held at ``t0_ms`` [LBN, exclusive]
    limit: int  #: end of the read-ahead [LBN, exclusive]
    t0_ms: float  #: end of the media read the read-ahead continues [ms]
    rate_blocks_per_ms: float  #: media rate of the read-ahead [blocks/ms]
    reading_ahead: bool  #: the media is still filling the segment
    last_used: int  #: index of the last request served from it (least recently used is replaced)

    def filled_at(self, t_ms: float) -> float:
        """End of the data held at ``t_ms`` [LBN, exclusive]."""
        if self.reading_ahead:
            return min(self.limit, self.filled + max(0.0, t_ms - self.t0_ms) * self.rate_blocks_per_ms)
        return self.filled

    def stop_readahead(self, at_ms: float) -> None:
        """The media is needed elsewhere from ``at_ms``: keep what was read until then."""
        if self.reading_ahead:
            self.filled = self.filled_at(at_ms)
            self.reading_ahead = False

    def serves(self, start: int, end: int, filled: float) -> bool:
        """A read of blocks ``start .. end`` hits: it starts in the data held (``filled`` at its
        arrival) and ends there or in the part still being read ahead."""
        return self.start <= start <= filled and (end <= filled or (self.reading_ahead and end <= self.limit))

    def overlaps(self, start: int, end: int) -> bool:
        """Blocks ``start .. end`` overlap the segment up to its read-ahead limit."""
        return self.start < end and start < self.limit


class _Requests(NamedTuple):
    """Per-request arrays of a stream: as given, and their place on the platters."""

    is_write: np.ndarray
    lbn: np.ndarray  # first block [LBN]
    nblocks: np.ndarray  # size [blocks]
    cyl: np.ndarray  # cylinder of the first block
    surf: np.ndarray  # surface of the first block
    angle: np.ndarray  # angular position of the first block [revolutions]
    bpt: np.ndarray  # blocks per track of the first block's zone
    end_cyl: np.ndarray  # cylinder of the last block
    track_end: np.ndarray | None  # first block after the last block's track (track buffers only)
    xfer_ms: np.ndarray  # media transfer [ms]; track/cylinder skews hide the switches


def _locate(spec: DriveSpec, w: np.ndarray, lb: np.ndarray, nb: np.ndarray) -> _Requests:
    cyl, surf, ang, bpt = platter_position(spec, lb)
    end_cyl = lbn_to_chs(spec, lb + nb - 1)[0]
    trk_end = track_end_lbn(spec, lb + nb - 1) if spec.readahead_to_track_end else None
    return _Requests(w, lb, nb, cyl, surf, ang, bpt, end_cyl, trk_end, nb / bpt * spec.rotation_ms)


def controller_overhead_ms(spec: DriveSpec, write: bool, hit: bool, prev_write: bool) -> float:
    """Controller overhead of a request [ms]: per-request + DiskSim's "<Read|Write> <hit|miss>
    over. after <read|write>".

    >>> from models.storage.hdd import load_drive
    >>> controller_overhead_ms(load_drive("ibm18es"), False, False, True)   # read miss after a write
    0.42386
    """
    key = f"{'write' if write else 'read'}_{'hit' if hit else 'miss'}_after_{'write' if prev_write else 'read'}_ms"
    return spec.per_request_overhead_ms + getattr(spec, key)


class _Drive:
    """Mutable state of the drive while a stream is replayed: head, mechanism, cache."""

    def __init__(self, spec: DriveSpec, req: _Requests, rotation: str, cache_enabled: bool) -> None:
        self.spec, self.req = spec, req
        self.rot = spec.rotation_ms  # [ms]
        self.clock_latency = rotation == "clock"
        self.head_cyl, self.head_surf = int(req.cyl[0]), int(req.surf[0])
        self.mech_free = 0.0  # media busy until [ms]
        self.prev_write, self.prev_end = False, -1
        self.n_segments = spec.cache_segments if cache_enabled else 0
        self.segments: list[ReadSegment] = []
        self.write_back = cache_enabled and spec.fast_write_level >= 1
        self.pending_end, self.pending_done = -1, -1.0  # background write: last block [LBN], end [ms]
        self._seek_memo: dict[int, float] = {}
        self.hit = np.zeros(len(req.is_write), dtype=bool)  # served by the drive's buffer (read hit, write-back)

    # mechanism ------------------------------------------------------------------------
    def seek_ms(self, dist: int) -> float:
        v = self._seek_memo.get(dist)
        if v is None:
            v = self._seek_memo[dist] = float(seek_time_ms(self.spec, dist))
        return v

    def media(self, i: int, ready: float, write: bool, min_pos: float = 0.0) -> tuple[float, float]:
        """Media access of request i, the mechanism free from ``ready`` [ms]: (first sector time, end).

        Positioning = max(seek, head switch), + write settle only if the heads move
        (DiskSim dm_seek_time_g1), padded to ``min_pos`` (DiskSim "Minimum seek delay")."""
        spec, req, rot = self.spec, self.req, self.rot
        c = int(req.cyl[i])
        dist = abs(c - self.head_cyl)
        st = self.seek_ms(dist) if dist else (spec.head_switch_ms if req.surf[i] != self.head_surf else 0.0)
        if write and st > 0:
            st = max(0.0, st + spec.write_settle_ms)
        st = max(st, min_pos)
        at = ready + st
        lat = ((req.angle[i] - at / rot) % 1.0) * rot if self.clock_latency else 0.5 * rot
        self.head_cyl, self.head_surf = int(req.end_cyl[i]), int(req.surf[i])
        return at + lat, at + lat + req.xfer_ms[i]

    def stop_readahead(self, at: float) -> None:
        for g in self.segments:
            g.stop_readahead(at)

    # writes ---------------------------------------------------------------------------
    def write(self, i: int, t: float, s: int, e: int) -> float:
        """Completion time [ms] of write i arriving at ``t``; it invalidates overlapping read segments."""
        bus = self.req.nblocks[i] * self.spec.bus_write_ms_per_block
        self.segments = [g for g in self.segments if not g.overlaps(s, e)]
        if self.write_back:
            self.hit[i] = True
            return self._write_back(i, t, s, e, bus)
        return self._write_through(i, t, s, bus)

    def _write_back(self, i: int, t: float, s: int, e: int, bus: float) -> float:
        """Done after the write-hit overhead and the bus; the media write runs in the background
        (appended to the pending one if it continues it)."""
        spec = self.spec
        done = t + controller_overhead_ms(spec, True, True, self.prev_write) + spec.data_prep_ms + bus
        self.stop_readahead(max(done, self.mech_free))
        if s == self.pending_end and self.pending_done >= done:  # appended to the pending write
            self.mech_free = self.pending_done + float(self.req.xfer_ms[i])
        else:
            _, self.mech_free = self.media(i, max(done, self.mech_free), True)
        self.pending_end, self.pending_done = e, self.mech_free
        return done

    def _write_phases(self, t: float, s: int) -> tuple[float, float, float, float]:
        """SCSI phases of a write-through write (DiskSim disk_write_arrive / disk_check_bus):
        (mechanism ready, data phase start [ms], disconnect after the data, final reselection [ms])."""
        spec = self.spec
        if spec.extra_write_disconnect and not spec.never_disconnect and self.prev_write and s != self.prev_end:
            # write after a non-sequential write: disconnect right after the command,
            # reconnect after the inter-disconnect delay for the data, disconnect again
            mech_ready = t + spec.extradisc_command_ms + spec.extradisc_seek_delta_ms
            bus_start = (t + spec.extradisc_command_ms + spec.extradisc_disconnect1_ms
                         + spec.extradisc_inter_disconnect_ms + spec.reselect_first_ms + spec.data_prep_ms)
            return mech_ready, bus_start, spec.extradisc_disconnect2_ms, spec.reselect_other_ms
        oh = controller_overhead_ms(spec, True, False, self.prev_write)
        tail_disc, tail_resel = ((0.0, 0.0) if spec.never_disconnect
                                 else (spec.write_disconnect_ms, spec.reselect_first_ms))
        return t + oh, t + oh + spec.data_prep_ms, tail_disc, tail_resel

    def _write_through(self, i: int, t: float, s: int, bus: float) -> float:
        """Command, data phase, media write once ``write_low_water`` of the data is in, status."""
        spec, rot, xfer = self.spec, self.rot, self.req.xfer_ms[i]
        mech_ready, bus_start, tail_disc, tail_resel = self._write_phases(t, s)
        begin = max(mech_ready, self.mech_free)
        self.stop_readahead(begin)
        ready = bus_start + spec.write_low_water * bus
        _, mend = self.media(i, begin, True, spec.min_seek_delay_ms)
        if mend - xfer < ready:  # data not there yet: wait whole rotations
            mend += np.ceil((ready - (mend - xfer)) / rot) * rot
        self.mech_free = mend
        return max(mend, bus_start + bus + tail_disc) + tail_resel

    # reads ----------------------------------------------------------------------------
    def read(self, i: int, t: float, s: int, e: int) -> float:
        """Completion time [ms] of read i arriving at ``t``: from a read segment or the media."""
        bus = self.req.nblocks[i] * self.spec.bus_read_ms_per_block
        for g in self.segments:
            filled = g.filled_at(t)
            if g.serves(s, e, filled):
                g.last_used = i
                self.hit[i] = True
                return self._read_hit(t, e, bus, g, filled)
        return self._read_miss(i, t, s, e, bus)

    def _read_hit(self, t: float, e: int, bus: float, g: ReadSegment, filled: float) -> float:
        """Hit overhead + bus; a read streaming into the read-ahead waits for the media."""
        spec = self.spec
        oh = controller_overhead_ms(spec, False, True, self.prev_write)
        oh += spec.data_prep_ms
        if e <= filled:
            return t + oh + bus
        return max(t + oh + bus, t + (e - filled) / g.rate_blocks_per_ms + spec.bus_read_ms_per_block)

    def _read_bus_start(self, i: int, t: float, oh: float, first: float) -> float:
        """Start of the bus transfer of a media read [ms] whose first sector is read at ``first``."""
        spec, nb = self.spec, self.req.nblocks[i]
        blk = self.rot / self.req.bpt[i]
        if spec.never_disconnect:  # holds the bus: data flows from the first block read
            return max(first + blk, t + oh + spec.data_prep_ms)
        # disconnected; reselects once the high water mark (>= 1 block) is buffered
        wm = max(1, int(min(spec.segment_blocks or nb, nb) * spec.read_high_water))
        disc = spec.read_disconnect_after_write_ms if self.prev_write else spec.read_disconnect_after_read_ms
        return max(first + wm * blk, t + oh + disc) + spec.reselect_first_ms + spec.data_prep_ms

    def _read_miss(self, i: int, t: float, s: int, e: int, bus: float) -> float:
        """Miss overhead, media read, bus transfer; then read-ahead into a new segment."""
        spec = self.spec
        oh = controller_overhead_ms(spec, False, False, self.prev_write)
        begin = max(t + oh, self.mech_free)
        self.stop_readahead(begin)
        first, mend = self.media(i, begin, False)
        done = max(self._read_bus_start(i, t, oh, first) + bus, mend + spec.bus_read_ms_per_block)
        self.mech_free = mend
        if self.n_segments:
            self._start_readahead(i, s, e, mend)
        return done

    def _start_readahead(self, i: int, s: int, e: int, mend: float) -> None:
        """A segment for blocks ``s .. e`` read until ``mend`` [ms], read ahead from there,
        replacing the least recently used segment when all are taken."""
        spec = self.spec
        if spec.readahead_to_track_end:  # track buffer: the rest of the last track
            limit = min(e + spec.max_readahead_blocks, int(self.req.track_end[i]))
        else:
            limit = min(e + spec.max_readahead_blocks, s + max(spec.segment_blocks, e - s), spec.block_count)
        if len(self.segments) >= self.n_segments:
            self.segments.remove(min(self.segments, key=lambda g: g.last_used))
        self.segments.append(ReadSegment(start=s, filled=e, limit=max(limit, e), t0_ms=mend,
                                         rate_blocks_per_ms=self.req.bpt[i] / self.rot,
                                         reading_ahead=limit > e, last_used=i))

    # one request ------------------------------------------------------------------------
    def serve(self, i: int, t: float) -> float:
        """Completion time [ms] of request i arriving at ``t``, with the drive's status phase
        (DiskSim "Read/Write completion overhead"; the media is free meanwhile)."""
        req = self.req
        wr = bool(req.is_write[i])
        s, e = int(req.lbn[i]), int(req.lbn[i] + req.nblocks[i])
        done = self.write(i, t, s, e) if wr else self.read(i, t, s, e)
        done += self.spec.write_completion_ms if wr else self.spec.read_completion_ms
        self.prev_write, self.prev_end = wr, e
        return done


def _check_requests(spec: DriveSpec, is_write, lbn, nblocks, think_ms):
    """Requests as arrays (bool, int64 [LBN], int64 [blocks], float [ms]); ValueError if malformed."""
    w = np.asarray(is_write, dtype=bool)
    lb = np.asarray(lbn, dtype=np.int64)
    nb = np.asarray(nblocks, dtype=np.int64)
    n = len(w)
    if len(lb) != n or len(nb) != n:
        raise ValueError("is_write, lbn and nblocks must have the same length")
    think = np.zeros(n) if think_ms is None else np.asarray(think_ms, dtype=float)
    if len(think) != n:
        raise ValueError("think_ms must have one entry per request")
    if n and (nb <= 0).any():
        raise ValueError("nblocks must be > 0")
    if n and (lb.min() < 0 or (lb + nb).max() > spec.block_count):
        raise ValueError(f"requests fall outside the drive (0..{spec.block_count} blocks)")
    return w, lb, nb, think


def predict_service_detail(
    spec: DriveSpec,
    is_write,
    lbn,
    nblocks,
    think_ms=None,
    *,
    rotation: Literal["clock", "expected"] = "clock",
    cache_enabled: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """(service time [ms], served by the buffer [bool]) of each request of a closed-loop stream.

    As :func:`predict_service_ms`; the second array is True for a read served from a read-cache
    segment (a hit, DiskSim's "Read hit over.") and for a write-back write (immediately reported,
    DiskSim's "Write hit over."), False for media reads and write-through writes.

    >>> from models.storage.hdd import load_drive
    >>> t, hit = predict_service_detail(load_drive("ibm18es"), [False, False], [1000, 1004], [4, 4], [10.0, 10.0])
    >>> hit.tolist()
    [False, True]
    """
    w, lb, nb, think = _check_requests(spec, is_write, lbn, nblocks, think_ms)
    n = len(w)
    if n == 0:
        return np.zeros(0), np.zeros(0, dtype=bool)
    drive = _Drive(spec, _locate(spec, w, lb, nb), rotation, cache_enabled)
    out = np.empty(n)
    t = 0.0  # arrival time of the current request [ms]
    for i in range(n):
        done = drive.serve(i, t)
        out[i] = done - t
        t = done + think[i]
    return out, drive.hit


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
    Per request: reads look up the read-cache segments (:class:`ReadSegment`: a segment
    covers its first block up to where read-ahead has filled it; read-ahead runs at media
    rate from the end of the last media read while the drive is idle, up to
    ``max_readahead_blocks``, and stops when the media is needed for something else). A
    full hit costs the hit overhead + bus transfer; a read continuing into the part being
    read ahead waits for the media. A miss costs the miss overhead, then seek (+ head
    switch), rotational latency and media transfer; the bus transfer starts once
    ``max(1, int(read_high_water * n))`` blocks are buffered (plus reselection and data
    preparation if the drive disconnects), so it ends at ``max(start + n * bus, media end +
    1 block of bus)``. Write-back writes complete after overhead + bus transfer; their
    media write runs in the background and delays the next media access until it is done
    (a write starting where the pending one ends is appended to it). Write-through writes
    pay the SCSI bus phases (module docstring) and may start on the media only once
    ``write_low_water`` of the data has crossed the bus.

    >>> from models.storage.hdd import load_drive
    >>> d = load_drive("ibm18es")
    >>> t = predict_service_ms(d, [False, False], [1000, 1004], [4, 4], [10.0, 10.0])
    >>> bool(t[0] > 1.0 and t[1] < 1.0)   # miss, then a read-ahead hit
    True
    """
    return predict_service_detail(spec, is_write, lbn, nblocks, think_ms, rotation=rotation,
                                  cache_enabled=cache_enabled)[0]
