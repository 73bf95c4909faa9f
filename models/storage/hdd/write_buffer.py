"""The drive's own write-back buffer in a back-to-back request stream (the HDD behind a write cache).

The stream of :mod:`models.storage.hdd.stream` is replayed closed loop (seed 003 §V-A: "Traces are
replayed in a close-loop way"): request ``i + 1`` is issued when request ``i`` is reported done.
Without a buffer a request is done when its media access ends, and the media's next access starts
there. With the drive's write-back buffer (:class:`DriveBuffer`) a write whose data fits is
reported done at buffer speed and written to the media in the background::

    ack_i     = max(issue_i + h_i, room_i)                   (h_i: write-hit overhead; 0 if it streams on)
    begin_i   = max(ack_i, media_end_(i-1))                  (data in; the media is FIFO, no reordering)
    media_i   = media_end_(i-1) + (begin_i - media_end_(i-1)) + seek + latency + transfer

where ``room_i`` is the time the buffer has room for it: at most ``max_entries`` pending writes
(a write continuing the last pending one is appended to it, DiskSim's "Combine seq writes") of at
most ``entry_blocks`` each, ``capacity_blocks`` in all; a pending write leaves the buffer when its
media write ends. The idle time of the media is therefore the time between requests that the host
side (command overhead) takes; the media writes back to back while the buffer holds data. A write
that does not fit in an empty buffer, and every read, is served write-through: it waits for the
pending writes (FIFO) and pays the miss overhead, positioning and transfer as without a buffer (a
buffer-full write falls back to media time). A read of data still in the buffer is not served from
it (every bundled drive's "Allow read hits on write data" is not modelled, coverage table).

Rotational latency as in :func:`models.storage.hdd.stream_service_ms`: ``"expected"`` half a
rotation per request that does not stream on, ``"positioned"`` from the angle just past the
previous request's last block and the time since its media access ended (the platter turns while
the media idles). With a zero-size buffer every request takes the write-through path and the
response times are those of :func:`~models.storage.hdd.stream_service_ms`, exactly.

Response time of a request = its report time - its issue time; their sum is the time until the
last report. The stream's time (:attr:`BufferedStream.total_ms`, the throughput's denominator)
adds the drain: the media work still in the buffer after the last report, so the stream's data is
on the disk when the time stops (without it a stream that fits in the buffer would take no time).

Bounds (tests): for a write-only stream and a buffer whose write-hit overhead is at most the miss
overhead, each request is reported no later than without the buffer (the media works back to back,
each request's positioning starts no later in the platter's frame, and the wait for the slot only
grows with the delay). DiskSim's ``barracuda`` has a write hit after a write slower than a miss
(0.929 vs 0.816 ms), so the bound does not cover it (where the media idles, the buffer's overhead is the
longer one; a search over random write streams found no slower case).

Not modelled: reordering inside the drive (the DiskSim drives' queue is FCFS with one request
outstanding, "Scheduling policy = 1", "Max queue length = 1"; modern drives reorder their buffered
writes), the bus transfer (the stream model times the media only; with and without the buffer
alike), a read hit on write data.

References
----------
.. [1] J. S. Bucy, J. Schindler, S. W. Schlosser, G. R. Ganger, "The DiskSim Simulation Environment
   Version 4.0 Reference Manual", CMU-PDL-08-101, 2008 ("Fast write level", "Maximum number of write
   segments", "Segment size (in blks)", "Combine seq writes", "Write hit over. after write").
.. [2] Z. Liu, B. Wang, P. Carpenter, D. Li, J. S. Vetter, W. Yu, "PCM-Based Durable Write Cache for
   Fast Disk I/O", MASCOTS 2012 (seed 003), sec. V-A: the HDD trace is replayed closed loop on a
   500 GB 7200 rpm Seagate disk with the host's buffer cache bypassed; the drive's own write cache
   setting is not stated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numba import njit

from models.storage.hdd.spec import SECTOR_BYTES, DriveSpec
from models.storage.hdd.stream import stream_terms

__all__ = ["DriveBuffer", "DRIVE_CACHE_CHOICES", "drive_buffer", "BufferedStream", "buffered_stream",
           "buffered_service_ms", "buffered_throughput_MBps"]

#: The named settings of ``drive_cache`` (besides a size in bytes): no buffer, the drive's own from its spec.
DRIVE_CACHE_CHOICES = ("none", "spec")


@dataclass(frozen=True)
class DriveBuffer:
    """A drive's write-back buffer: ``max_entries`` pending writes of at most ``entry_blocks`` blocks each,
    ``capacity_blocks`` blocks in all (0 = no buffer). ``source`` says where the sizes come from."""

    capacity_blocks: int
    max_entries: int
    entry_blocks: int
    source: str

    @property
    def capacity_bytes(self) -> int:
        return self.capacity_blocks * SECTOR_BYTES


def _spec_buffer(spec: DriveSpec) -> DriveBuffer:
    if spec.write_segments == 0 or spec.segment_blocks == 0:
        raise ValueError(f"drive cache 'spec': drive {spec.name!r} has no write buffer in its description (no "
                         "'Maximum number of write segments' / 'Segment size'); use a size in bytes or a DiskSim "
                         "drive with one (atlas10k, barracuda, cheetah4LP, ibm18es)")
    if spec.fast_write_level < 1 or spec.cache_segments == 0:
        raise ValueError(f"drive cache 'spec': drive {spec.name!r} has write-back off in its description "
                         f"('Fast write level' {spec.fast_write_level}, 'Enable caching in buffer' "
                         f"{int(spec.cache_segments > 0)}); use a size in bytes or a drive with write-back on")
    cap = spec.write_segments * spec.segment_blocks
    return DriveBuffer(cap, spec.write_segments, spec.segment_blocks,
                       f"{spec.name}'s description: {spec.write_segments} write segment(s) of {spec.segment_blocks} "
                       f"blocks, 'Fast write level' {spec.fast_write_level}")


def drive_buffer(spec: DriveSpec, drive_cache: str | int | float = "none") -> DriveBuffer:
    """The write-back buffer ``drive_cache`` asks for on drive ``spec``.

    ``"none"`` (or 0): no buffer; ``"spec"``: the drive's own from its DiskSim description
    ("Maximum number of write segments" x "Segment size (in blks)", write-back when "Fast write
    level" >= 1 and "Enable caching in buffer" is on; ValueError naming the drive otherwise); a
    size in bytes (> 0): a buffer of that many 512 B blocks (rounded down), any number of pending
    writes, each up to the whole buffer.

    >>> from models.storage.hdd import load_drive
    >>> b = drive_buffer(load_drive("ibm18es"), "spec")
    >>> b.capacity_blocks, b.max_entries, b.entry_blocks
    (511, 1, 511)
    >>> drive_buffer(load_drive("ibm18es"), 1 << 20).capacity_blocks
    2048
    """
    if isinstance(drive_cache, str):
        key = drive_cache.strip().lower()
        if key == "none":
            return DriveBuffer(0, 0, 0, "none")
        if key == "spec":
            return _spec_buffer(spec)
        try:
            drive_cache = float(key)
        except ValueError:
            raise ValueError(f"drive cache must be 'none', 'spec' or a size in bytes, got {drive_cache!r}") from None
    size = float(drive_cache)
    if not np.isfinite(size) or size < 0 or size > 2**50:  # 1 PiB: larger than any drive
        raise ValueError(f"drive cache size must be a number of bytes from 0 to 2^50 (1 PiB), got {drive_cache!r}")
    blocks = int(size // SECTOR_BYTES)
    if blocks == 0:
        return DriveBuffer(0, 0, 0, "none" if size == 0 else f"{size:g} bytes: less than one block, none")
    return DriveBuffer(blocks, blocks, blocks, f"{size:g} bytes asked for")


@njit(cache=True)
def _buffered_kernel(is_write, nblocks, seq, oh, hit_oh, seek, xfer, angle_gap, rot, positioned,
                     capacity, max_entries, entry_blocks):
    """(response [ms], report time [ms], media end [ms], taken into the buffer) of each request."""
    n = len(is_write)
    resp = np.empty(n)
    ack = np.empty(n)
    mend = np.empty(n)
    took = np.zeros(n, np.bool_)
    q_end = np.empty(n)  # pending writes (FIFO): media end [ms], blocks
    q_blk = np.zeros(n, np.int64)
    head = 0
    tail = 0
    used = 0
    issue = 0.0
    m_prev = 0.0
    for i in range(n):
        while head < tail and q_end[head] <= issue:  # written to the media by now
            used -= q_blk[head]
            head += 1
        nb = nblocks[i]
        append = False
        buffered = is_write[i] and nb <= entry_blocks and nb <= capacity
        if buffered:
            append = (seq[i] and head < tail and q_blk[tail - 1] + nb <= entry_blocks and used + nb <= capacity)
            if append:
                done = issue
            else:
                room = 0.0
                while head < tail and (tail - head >= max_entries or used + nb > capacity):
                    room = q_end[head]
                    used -= q_blk[head]
                    head += 1
                h = 0.0 if seq[i] else hit_oh[i]
                done = max(issue + h, room)
            gap = max(done - m_prev, 0.0)
        else:  # write-through or read: after the pending writes (m_prev >= issue)
            gap = max((issue - m_prev) + (0.0 if seq[i] else oh[i]), 0.0)
        if seq[i] and gap == 0.0:
            cost = xfer[i]
        else:
            before = gap + seek[i]
            if positioned and i > 0:
                lat = ((angle_gap[i] - before / rot) % 1.0) * rot
            else:
                lat = 0.5 * rot
            cost = before + lat + xfer[i]
        m_new = m_prev + cost
        if buffered:
            if append:
                q_blk[tail - 1] += nb
                q_end[tail - 1] = m_new
            else:
                q_end[tail] = m_new
                q_blk[tail] = nb
                tail += 1
            used += nb
            took[i] = True
            resp[i] = done - issue
            ack[i] = done
        else:
            resp[i] = (m_prev - issue) + cost
            ack[i] = m_new
            done = m_new
        mend[i] = m_new
        m_prev = m_new
        issue = done
    return resp, ack, mend, took


@dataclass(frozen=True)
class BufferedStream:
    """One stream through a drive's write-back buffer (:func:`buffered_stream`); times in ms."""

    #: Report time - issue time of each request [ms] (their sum is the closed-loop replay time).
    response_ms: np.ndarray
    #: When each request was reported done [ms from the first issue].
    reported_ms: np.ndarray
    #: When each request's media access ended [ms].
    media_end_ms: np.ndarray
    #: True for a write taken into the buffer (reported at buffer speed).
    buffered: np.ndarray
    #: The buffer used.
    buffer: DriveBuffer

    @property
    def drain_ms(self) -> float:
        """Media time left after the last report [ms] (0 without a buffer)."""
        return float(self.media_end_ms[-1] - self.reported_ms[-1]) if len(self.media_end_ms) else 0.0

    @property
    def total_ms(self) -> float:
        """Time of the stream until its data is on the media [ms]: the sum of the response times + the
        drain (equal to the sum of :func:`models.storage.hdd.stream_service_ms` without a buffer)."""
        return float(self.response_ms.sum()) + self.drain_ms


def buffered_stream(spec: DriveSpec, lbn, nblocks, is_write=None, *, drive_cache: str | int | float = "none",
                    rotation: Literal["expected", "positioned"] = "expected") -> BufferedStream:
    """A back-to-back closed-loop stream through the drive's write-back buffer (module docstring).

    ``drive_cache`` as in :func:`drive_buffer`; ``rotation`` as in
    :func:`models.storage.hdd.stream_service_ms`.

    >>> from models.storage.hdd import load_drive
    >>> d = load_drive("ibm18es")
    >>> s = buffered_stream(d, [1000, 90000, 5000], [8, 8, 8], [True, True, True], drive_cache="spec")
    >>> s.buffered.tolist(), round(float(s.response_ms[0]), 4)   # reported after the write-hit overhead
    ([True, True, True], 0.1852)
    >>> bool(s.reported_ms[1] == s.media_end_ms[0])   # one write segment: the next write waits for it
    True
    """
    if rotation not in ("expected", "positioned"):
        raise ValueError(f"rotation must be 'expected' or 'positioned', got {rotation!r}")
    buf = drive_buffer(spec, drive_cache)
    t = stream_terms(spec, lbn, nblocks, is_write)
    if t is None:
        z = np.zeros(0)
        return BufferedStream(z, z.copy(), z.copy(), np.zeros(0, bool), buf)
    resp, ack, mend, took = _buffered_kernel(
        t["is_write"], t["nblocks"], t["seq"], t["overhead_ms"], t["hit_overhead_ms"], t["seek_ms"], t["xfer_ms"],
        t["angle_gap"], float(spec.rotation_ms), rotation == "positioned", int(buf.capacity_blocks),
        int(buf.max_entries), int(buf.entry_blocks))
    return BufferedStream(resp, ack, mend, took, buf)


def buffered_service_ms(spec: DriveSpec, lbn, nblocks, is_write=None, *, drive_cache: str | int | float = "none",
                        rotation: Literal["expected", "positioned"] = "expected") -> np.ndarray:
    """Response time [ms] of each request of the stream (:func:`buffered_stream`); with no buffer equal
    to :func:`models.storage.hdd.stream_service_ms`.

    >>> from models.storage.hdd import generic_drive, stream_service_ms
    >>> g = generic_drive()
    >>> lb, nb = np.array([0, 5000, 16, 900000]), np.full(4, 8)
    >>> bool((buffered_service_ms(g, lb, nb, rotation="positioned") == stream_service_ms(g, lb, nb, rotation="positioned")).all())
    True
    """
    return buffered_stream(spec, lbn, nblocks, is_write, drive_cache=drive_cache, rotation=rotation).response_ms


def buffered_throughput_MBps(spec: DriveSpec, lbn, nblocks, is_write=None, *,
                             drive_cache: str | int | float = "none",
                             rotation: Literal["expected", "positioned"] = "expected") -> float:
    """Average throughput [MB/s, 1e6 B/s] of the closed-loop stream: bytes / :attr:`BufferedStream.total_ms`
    (without a buffer equal to :func:`models.storage.hdd.stream_throughput_MBps`)."""
    s = buffered_stream(spec, lbn, nblocks, is_write, drive_cache=drive_cache, rotation=rotation)
    if not len(s.response_ms):
        return float("nan")
    return float(np.asarray(nblocks).sum() * SECTOR_BYTES / (s.total_ms * 1e3))
