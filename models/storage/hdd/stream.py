"""Throughput of a back-to-back request stream (the HDD behind a write cache), in one compiled pass per stream.

Each request costs::

    t = overhead + seek(cylinder distance from the previous request's end)
        [+ write settle if the heads move] + rotational latency + media transfer  [ms]

and a request that starts exactly where the previous one ended streams on (media transfer
only). No drive cache. Throughput = bytes / sum of service times.

The per-request terms and service times are computed by numba kernels, each request's first and
last block located and its seek read from the drive's seek table in one pass; they equal, bit for
bit, the vectorised NumPy form they replaced (``tests/models/storage/test_hdd_stream_kernel.py``
keeps it as the reference). Measured on the 240 HDD streams the seed-003 ledger times (43 M
requests): 12.4 s -> 6.5 s CPU (best of 3, load average ~5 on 2 cores).

Rotational latency (``rotation``):

- ``"expected"``: half a rotation for every request that does not stream on;
- ``"positioned"``: the stream is back to back, so the platter angle when request ``i``'s
  positioning starts is the angle just past the previous request's last block
  (:func:`~models.storage.hdd.layout.platter_position`); after overhead + seek the platter
  has turned by ``(overhead + seek) / rotation``, and the head waits for the target's first
  block::

      latency = ((angle(first block) - angle(previous end) - (overhead + seek) / T) mod 1) * T

  so a batch sorted by LBN (a HALO destage, an LRU write-back batch) whose next request is a
  few blocks further on the same track waits only for the gap, not half a rotation. The first
  request (no previous position) pays half a rotation. Random requests get latencies spread
  over a rotation (mean ~T/2, as ``"expected"``).

References
----------
.. [1] Z. Liu, B. Wang, P. Carpenter, D. Li, J. S. Vetter, W. Yu, "PCM-Based Durable Write
   Cache for Fast Disk I/O", MASCOTS 2012 (seed 003), sec. V-A: execution time from the
   HDD stream's average throughput.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
from numba import njit

from models._base import as_generator
from models.storage.hdd.layout import platter_position, zone_tables
from models.storage.hdd.seek import seek_table_ms
from models.storage.hdd.spec import SECTOR_BYTES, DriveSpec

__all__ = ["stream_service_ms", "stream_terms", "stream_throughput_MBps", "throughput_MBps", "throughput_curve"]


def stream_service_ms(spec: DriveSpec, lbn, nblocks, is_write=None, *,
                      rotation: Literal["expected", "positioned"] = "expected") -> np.ndarray:
    """Service time [ms] of each request of a back-to-back request stream (compiled, one pass).

    ``overhead + seek(cylinder distance from the previous request's end) + rotation +
    media transfer``; a request that starts exactly where the previous one ended streams
    on (no overhead, seek or rotational latency), any other one pays half a rotation
    (``rotation="expected"``) or the latency from the platter angle where the previous
    request ended (``"positioned"``, module docstring). No drive cache. Used for the
    throughput of the HDD stream behind a write cache.

    >>> from models.storage.hdd import generic_drive
    >>> g = generic_drive()
    >>> seq = stream_service_ms(g, np.arange(0, 8000, 8), np.full(1000, 8))
    >>> round(float(seq[1:].mean()), 4) == round(8 / g.zones[0].blocks_per_track * g.rotation_ms, 4)
    True
    >>> gap = stream_service_ms(g, [0, 16], [8, 8], rotation="positioned")  # 8 blocks skipped on the track
    >>> round(float(gap[1]), 6) == round(16 / g.zones[0].blocks_per_track * g.rotation_ms, 6)
    True
    """
    if rotation not in ("expected", "positioned"):
        raise ValueError(f"rotation must be 'expected' or 'positioned', got {rotation!r}")
    terms = stream_terms(spec, lbn, nblocks, is_write)
    if terms is None:
        return np.zeros(0)
    return _service_kernel(terms["seq"], terms["overhead_ms"], terms["seek_ms"], terms["xfer_ms"], terms["angle_gap"],
                           spec.rotation_ms, rotation == "positioned")


@njit(cache=True)
def _unit_remainder(x):
    """``np.mod(x, 1.0)`` of one float, as NumPy computes it (``npy_divmod``: ``fmod``, moved into [0, 1) when
    negative, +0 when zero): the same bits."""
    m = np.fmod(x, 1.0)
    if m != 0.0:
        if m < 0.0:
            m += 1.0
    else:
        m = 0.0
    return m


@njit(cache=True)
def _service_kernel(seq, oh, seek, xfer, gap, rot, positioned):
    """:func:`stream_service_ms` from :func:`stream_terms`' arrays in one pass [ms]: ``xfer`` for a request that
    streams on, else ``overhead + seek + latency + xfer`` (half a rotation, or :func:`_latency_from_gap_ms`'s
    latency when ``positioned``), the vectorised form's arithmetic in its order (the same bits)."""
    n = seq.shape[0]
    out = np.empty(n, np.float64)
    half = 0.5 * rot
    for i in range(n):
        if seq[i]:
            out[i] = xfer[i]
            continue
        before = oh[i] + seek[i]
        lat = _unit_remainder(gap[i] - before / rot) * rot if positioned and i > 0 else half
        out[i] = before + lat + xfer[i]
    return out


def stream_terms(spec: DriveSpec, lbn, nblocks, is_write=None) -> dict | None:
    """The per-request terms of a back-to-back stream [ms], vectorised (None for an empty stream):

    ``lbn``, ``nblocks`` (as int64 arrays, LBNs clipped to the drive), ``is_write``, ``seq`` (the
    request starts where the previous one ended: it streams on), ``overhead_ms`` (write or read miss
    overhead + per-request overhead), ``seek_ms`` (from the previous request's end cylinder, + write
    settle when the heads move, >= 0), ``xfer_ms`` (media transfer), ``hit_overhead_ms`` (write-hit
    overhead after a write + per-request overhead: a write taken into the drive's buffer) and
    ``angle_gap`` (angle of the first block - angle just past the previous request's last block
    [rotations]; the positioned latency is ``((angle_gap - before / T) mod 1) T``).
    :func:`stream_service_ms` and the buffered stream (:mod:`models.storage.hdd.write_buffer`) use them.
    """
    lb = np.asarray(lbn, dtype=np.int64)
    nb = np.asarray(nblocks, dtype=np.int64)
    if lb.shape != nb.shape or lb.ndim != 1:
        raise ValueError("lbn and nblocks must be 1-D arrays of the same length")
    n = len(lb)
    if n == 0:
        return None
    if (nb <= 0).any():
        raise ValueError("nblocks must be > 0")
    lb = np.minimum(lb, spec.block_count - 1)
    w = np.zeros(n, bool) if is_write is None else np.asarray(is_write, dtype=bool)
    if w.shape != lb.shape:
        raise ValueError("is_write must have one entry per request")
    if lb.min() < 0:
        raise ValueError(f"lbn out of range 0..{spec.block_count - 1} for drive {spec.name}")
    # each request's first and last block located once (cylinders, blocks per track, angles), in one pass
    seq, oh, seek, xfer, gap = _terms_kernel(
        lb, nb, w, spec.block_count, seek_table_ms(spec), spec.write_settle_ms, spec.write_miss_after_write_ms,
        spec.read_miss_after_read_ms, spec.per_request_overhead_ms, spec.rotation_ms, *_zone_arrays(spec))
    return {"lbn": lb, "nblocks": nb, "is_write": w, "seq": seq, "overhead_ms": oh, "seek_ms": seek,
            "xfer_ms": xfer, "hit_overhead_ms": np.full(n, spec.write_hit_after_write_ms + spec.per_request_overhead_ms),
            "angle_gap": gap}


@njit(cache=True)
def _terms_kernel(lb, nb, w, block_count, seek_table, settle, oh_write, oh_read, per_request, rot,
                  start_lbn, cap, ncyl, bpt, first, front, dbpt, tskew, cskew, surfaces, exact):
    """:func:`stream_terms`' ``seq``, ``overhead_ms``, ``seek_ms``, ``xfer_ms`` and ``angle_gap`` in one pass: each
    request's first and last block located as :func:`~models.storage.hdd.layout.platter_position` locates them
    (its kernel's arithmetic, inline: a compiled helper called per block measured ~3x slower), the seek from the
    previous request's last cylinder read from the drive's table (:func:`~models.storage.hdd.seek.seek_table_ms`).
    Each value is the arithmetic of the vectorised form, in its order (the same bits)."""
    n = lb.shape[0]
    seq = np.empty(n, np.bool_)
    oh = np.empty(n, np.float64)
    seek = np.empty(n, np.float64)
    xfer = np.empty(n, np.float64)
    gap = np.empty(n, np.float64)
    nz = start_lbn.shape[0] - 1
    prev_cyl, prev_end, prev_angle = np.int64(0), np.int64(-1), 0.0
    c0, b0, a0 = np.int64(0), np.int64(1), 0.0
    for i in range(n):
        for j in range(2):  # the first block, then the last one
            x = lb[i] if j == 0 else min(lb[i] + nb[i] - 1, block_count - 1)
            lo, hi = 0, nz  # the last zone whose first block is <= x (searchsorted right - 1)
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if start_lbn[mid] <= x:
                    lo = mid
                else:
                    hi = mid
            z = lo
            off = x - start_lbn[z]
            b = bpt[z]
            if exact:  # track by track, past the zone's front space
                trk = (off + front[z]) // dbpt[z]
                ci = min(trk // surfaces, ncyl[z] - 1)
                s = trk % surfaces
                k = (off + front[z]) % dbpt[z]
            else:
                per_cyl = cap[z] / ncyl[z]  # blocks per cylinder after scaling
                ci = np.int64(np.floor(off / per_cyl))
                if np.floor((ci + 1) * per_cyl) <= off:  # float rounding at boundaries
                    ci += 1
                if np.floor(ci * per_cyl) > off:
                    ci -= 1
                ci = min(max(ci, 0), ncyl[z] - 1)
                r = off - np.int64(np.floor(ci * per_cyl))
                s = min(r // b, surfaces - 1)
                k = min(r - s * b, b - 1)
            skew = ci * (cskew[z] + (surfaces - 1) * tskew[z]) + s * tskew[z]
            a = np.mod((k + skew) / b, 1.0)
            if j == 0:
                c0, b0, a0 = first[z] + ci, b, a
        if i == 0:
            prev_cyl = c0
        dist = c0 - prev_cyl
        seq[i] = lb[i] == prev_end
        oh[i] = (oh_write if w[i] else oh_read) + per_request
        # write settle only when the heads move (as predict_service_ms and DiskSim's dm_seek_time_g1)
        t = seek_table[abs(dist)] + (settle if w[i] and dist != 0 else 0.0)
        seek[i] = t if t >= 0.0 else 0.0
        xfer[i] = nb[i] / b0 * rot
        gap[i] = a0 - prev_angle
        prev_cyl, prev_end, prev_angle = first[z] + ci, lb[i] + nb[i], a + 1.0 / b
    return seq, oh, seek, xfer, gap


def _zone_arrays(spec: DriveSpec) -> tuple:
    """The zone tables of ``spec`` as :func:`_terms_kernel` takes them (as the layout's kernel)."""
    zt = zone_tables(spec)
    return (zt.start_lbn, zt.capacity_blocks, zt.cylinders, zt.blocks_per_track, zt.first_cylinder,
            zt.empty_front_blocks, zt.data_blocks_per_track, np.asarray(zt.track_skew_blocks, np.float64),
            np.asarray(zt.cylinder_skew_blocks, np.float64), int(spec.surfaces), bool(spec.exact_layout))


def _previous_end_angle(last_angle: np.ndarray, last_bpt: np.ndarray) -> np.ndarray:
    """Angle just past the previous request's last block [rotations] (0 for the first request), from the
    angle of each request's last block and its zone's blocks per track."""
    return np.concatenate([[0.0], (last_angle + 1.0 / last_bpt)[:-1]])


def _positioned_latency_ms(spec: DriveSpec, lb: np.ndarray, nb: np.ndarray, before_ms: np.ndarray) -> np.ndarray:
    """Rotational latency [ms] of each request of a back-to-back stream: the platter turns by
    ``before_ms`` (overhead + seek) from the angle just past the previous request's last block
    until the head can read; then it waits for the first block. The first request: half a rotation."""
    _, _, start_angle, _ = platter_position(spec, lb)
    _, _, last_angle, last_bpt = platter_position(spec, np.minimum(lb + nb - 1, spec.block_count - 1))
    return _latency_from_gap_ms(spec, start_angle - _previous_end_angle(last_angle, last_bpt), before_ms)


def _latency_from_gap_ms(spec: DriveSpec, angle_gap: np.ndarray, before_ms: np.ndarray) -> np.ndarray:
    """Rotational latency [ms] from each request's ``angle_gap`` (:func:`stream_terms`) and the time
    ``before_ms`` the platter turns first; the first request: half a rotation."""
    rot = spec.rotation_ms
    lat = np.mod(angle_gap - before_ms / rot, 1.0) * rot
    lat[0] = 0.5 * rot
    return lat


def stream_throughput_MBps(spec: DriveSpec, lbn, nblocks, is_write=None, *,
                           rotation: Literal["expected", "positioned"] = "expected") -> float:
    """Average throughput [MB/s, 1e6 B/s] of a back-to-back request stream (see
    :func:`stream_service_ms`)."""
    t = stream_service_ms(spec, lbn, nblocks, is_write, rotation=rotation)
    if not len(t):
        return float("nan")
    return throughput_MBps(np.asarray(nblocks).sum(), t.sum())


def throughput_MBps(sectors, service_ms) -> float:
    """Throughput [MB/s, 1e6 B/s] of a stream moving ``sectors`` 512 B sectors in ``service_ms`` [ms] of service.

    >>> throughput_MBps(2000, 1.0)
    1024.0
    """
    return float(sectors * SECTOR_BYTES / (service_ms * 1e3))


def _stream_positions(spec: DriveSpec, dist: float, nblk: int, requests: int, g: np.random.Generator) -> np.ndarray:
    """First blocks [LBN] of a stream whose start-to-start jumps are exponential with mean
    ``dist`` [blocks] (random direction, reflected at the ends of the disk); a mean at or
    below the request size ``nblk`` [blocks] is a sequential stream."""
    span = spec.block_count - nblk
    if dist <= nblk:
        pos = spec.block_count // 4 + np.arange(requests, dtype=np.int64) * nblk
        return pos % span
    steps = g.exponential(dist, requests).round() * g.choice([-1, 1], requests)
    x = np.mod(span // 2 + np.cumsum(steps), 2 * span)
    return np.where(x > span, 2 * span - x, x).astype(np.int64)


def throughput_curve(spec: DriveSpec, distances_blocks, sizes_bytes=(4096,), *, requests: int = 2000, seed=0):
    """Throughput [MB/s] vs mean inter-request LBN distance and request size.

    For each mean distance ``D`` [blocks] a stream of ``requests`` requests is generated
    whose start-to-start LBN jumps are exponentially distributed with mean ``D`` (random
    direction, reflected at the ends of the disk); ``D`` at or below the request size
    means a purely sequential stream. Each stream goes through
    :func:`stream_throughput_MBps`. Returns a DataFrame with columns
    ``mean_lbn_distance, request_bytes, throughput_MBps``.

    >>> from models.storage.hdd import generic_drive
    >>> df = throughput_curve(generic_drive(), [0, 1e8], [4096], requests=500)
    >>> bool(df.throughput_MBps.iloc[0] > 50 * df.throughput_MBps.iloc[1])
    True
    """
    g = as_generator(seed)
    if requests < 2:
        raise ValueError(f"requests must be >= 2, got {requests}")
    rows = []
    for size in sizes_bytes:
        if size <= 0:
            raise ValueError(f"sizes_bytes must be > 0, got {size}")
        nblk = max(1, int(round(size / SECTOR_BYTES)))
        for dist in distances_blocks:
            dist = float(dist)
            if dist < 0:
                raise ValueError(f"distances must be >= 0, got {dist}")
            pos = _stream_positions(spec, dist, nblk, requests, g)
            rows.append({"mean_lbn_distance": float(np.abs(np.diff(pos)).mean()), "request_bytes": nblk * SECTOR_BYTES,
                         "throughput_MBps": stream_throughput_MBps(spec, pos, np.full(requests, nblk), None)})
    return pd.DataFrame(rows)
