"""Drive layout: logical block -> (cylinder, surface, sector) and the platter angle of a block.

Zones are filled in order, cylinder by cylinder, surface by surface. For DiskSim sparing
schemes 0 (none), 1 (spare tracks at the end of each zone) and 3 (spare sectors at the
end of every track) LBNs are mapped track by track exactly as DiskSim's layout does, past
each zone's "Empty space at zone front"; slipped sectors are not modelled (the last zone
absorbs the few blocks' difference to ``Block count``). For the other schemes (range/zone
sparing of the modern drives) each zone's capacity is scaled so the zones sum to ``Block
count``, which moves a block by at most a few % of a zone.

The angular position of block ``k`` of a track [revolutions] is::

    angle = ((k + skew) / blocks_per_track) mod 1
    skew  = c (cylinder_skew + (surfaces - 1) track_skew) + s track_skew   [blocks]

with ``c`` the cylinder within the zone and ``s`` the surface.

References
----------
.. [1] J. S. Bucy, J. Schindler, S. W. Schlosser, G. R. Ganger, "The DiskSim Simulation
   Environment Version 4.0 Reference Manual", CMU-PDL-08-101, 2008 (``dm_layout_g1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

if TYPE_CHECKING:
    from models.storage.hdd.spec import DriveSpec

__all__ = ["ZoneTables", "zone_tables", "lbn_to_chs", "track_end_lbn", "platter_position"]


@dataclass(frozen=True)
class ZoneTables:
    """Per-zone layout arrays of a drive (one entry per zone, read-only)."""

    #: First LBN of each zone, plus one last entry = ``block_count`` [blocks].
    start_lbn: np.ndarray
    #: LBNs the zone holds [blocks].
    capacity_blocks: np.ndarray
    #: Cylinders of the zone.
    cylinders: np.ndarray
    #: Sectors per track, spares included [blocks].
    blocks_per_track: np.ndarray
    #: First cylinder of the zone.
    first_cylinder: np.ndarray
    #: Skew for a track switch [blocks].
    track_skew_blocks: np.ndarray
    #: Skew for a cylinder switch [blocks].
    cylinder_skew_blocks: np.ndarray
    #: LBNs per track (sectors per track minus spare sectors) [blocks].
    data_blocks_per_track: np.ndarray
    #: Unused sectors at the zone front [blocks].
    empty_front_blocks: np.ndarray

    def zone_of(self, lbn: np.ndarray) -> np.ndarray:
        """Zone index of each logical block."""
        return np.searchsorted(self.start_lbn, lbn, side="right") - 1


def _capacities(spec: DriveSpec, ncyl: np.ndarray, bpt: np.ndarray, dbpt: np.ndarray,
                front: np.ndarray) -> np.ndarray:
    """LBNs per zone [blocks]: track by track (exact layouts) or scaled to ``block_count``."""
    z = spec.zones
    if spec.exact_layout:
        data_tracks = ncyl * spec.surfaces - np.array([zz.spare_tracks for zz in z], dtype=np.int64)
        cap = np.maximum(data_tracks * dbpt - front, 1)
        # slipped sectors are not modelled: the last zone absorbs the difference to Block count
        cap[-1] += spec.block_count - cap.sum()
        if (dbpt <= 0).any() or cap[-1] <= 0:
            raise ValueError(f"drive {spec.name}: zones hold no data blocks; check spares and front space")
        return cap
    # sparing/slips not modelled: scale zone capacities to sum to Block count
    raw = ncyl * bpt * spec.surfaces
    cap = np.floor(raw * (spec.block_count / raw.sum())).astype(np.int64)
    cap[-1] += spec.block_count - cap.sum()
    return cap


@cache
def zone_tables(spec: DriveSpec) -> ZoneTables:
    """The drive's per-zone layout arrays (cached per drive).

    >>> from models.storage.hdd import load_drive
    >>> t = zone_tables(load_drive("dec_rz26"))
    >>> int(t.blocks_per_track[0]), int(t.data_blocks_per_track[0]), int(t.start_lbn[-1])
    (58, 57, 2050860)
    """
    z = spec.zones
    ncyl = np.array([zz.last_cylinder - zz.first_cylinder + 1 for zz in z], dtype=np.int64)
    bpt = np.array([zz.blocks_per_track for zz in z], dtype=np.int64)
    dbpt = bpt - np.array([zz.spare_sectors_per_track for zz in z], dtype=np.int64)
    front = np.array([zz.empty_front_blocks for zz in z], dtype=np.int64)
    cap = _capacities(spec, ncyl, bpt, dbpt, front)
    tables = ZoneTables(
        start_lbn=np.concatenate([[0], np.cumsum(cap)]),
        capacity_blocks=cap,
        cylinders=ncyl,
        blocks_per_track=bpt,
        first_cylinder=np.array([zz.first_cylinder for zz in z], dtype=np.int64),
        track_skew_blocks=np.array([zz.track_skew_blocks for zz in z]),
        cylinder_skew_blocks=np.array([zz.cylinder_skew_blocks for zz in z]),
        data_blocks_per_track=dbpt,
        empty_front_blocks=front,
    )
    for a in vars(tables).values():  # shared by every caller through the cache
        a.setflags(write=False)
    return tables


@njit(cache=True)
def _locate_kernel(lbn, start_lbn, cap, ncyl, bpt, first, front, dbpt, tskew, cskew, surfaces, exact):
    """(cylinder, surface, sector, blocks per track, angle [revolutions]) of each block in one pass.

    Exact layouts map track by track; scaled ones put cylinder ``c`` at blocks ``floor(c * per_cyl) ..
    floor((c + 1) * per_cyl) - 1`` of its zone (with the float rounding at the boundaries corrected)."""
    n = lbn.shape[0]
    cyl = np.empty(n, np.int64)
    surf = np.empty(n, np.int64)
    sector = np.empty(n, np.int64)
    per_track = np.empty(n, np.int64)
    angle = np.empty(n, np.float64)
    nz = start_lbn.shape[0] - 1
    for i in range(n):
        x = lbn[i]
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
        cyl[i] = first[z] + ci
        surf[i] = s
        sector[i] = k
        per_track[i] = b
        skew = ci * (cskew[z] + (surfaces - 1) * tskew[z]) + s * tskew[z]
        angle[i] = np.mod((k + skew) / b, 1.0)
    return cyl, surf, sector, per_track, angle


def _locate(spec: DriveSpec, lbn) -> tuple[np.ndarray, ...]:
    """(cylinder, surface, sector, blocks per track, angle [revolutions]) of logical blocks."""
    lbn = np.ascontiguousarray(lbn, dtype=np.int64)
    if lbn.size and (lbn.min() < 0 or lbn.max() >= spec.block_count):
        raise ValueError(f"lbn out of range 0..{spec.block_count - 1} for drive {spec.name}")
    zt = zone_tables(spec)
    return _locate_kernel(lbn, zt.start_lbn, zt.capacity_blocks, zt.cylinders, zt.blocks_per_track,
                          zt.first_cylinder, zt.empty_front_blocks, zt.data_blocks_per_track,
                          np.asarray(zt.track_skew_blocks, np.float64), np.asarray(zt.cylinder_skew_blocks, np.float64),
                          int(spec.surfaces), bool(spec.exact_layout))


def lbn_to_chs(spec: DriveSpec, lbn) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Map logical blocks to (cylinder, surface, sector, blocks per track of the zone).

    The zones are filled in order, cylinder by cylinder, surface by surface.

    >>> from models.storage.hdd import load_drive
    >>> d = load_drive("ibm18es")
    >>> c, s, k, bpt = lbn_to_chs(d, [0, 389, 390, d.block_count - 1])
    >>> c.tolist(), s.tolist(), k.tolist(), int(bpt[0])
    ([0, 0, 0, 11473], [0, 0, 1, 4], [0, 389, 0, 238], 390)
    """
    return _locate(spec, lbn)[:4]


def track_end_lbn(spec: DriveSpec, lbn) -> np.ndarray:
    """First logical block after the track that holds each block (same mapping as
    :func:`lbn_to_chs`).

    >>> from models.storage.hdd import load_drive
    >>> d = load_drive("dec_rz26")   # 57 data blocks per track
    >>> track_end_lbn(d, [0, 56, 57]).tolist()
    [57, 57, 114]
    """
    lbn = np.asarray(lbn, dtype=np.int64)
    c, s, k, bpt = lbn_to_chs(spec, lbn)
    zt = zone_tables(spec)
    zi = zt.zone_of(lbn)
    start, cap, ncyl = zt.start_lbn[zi], zt.capacity_blocks[zi], zt.cylinders[zi]
    if spec.exact_layout:
        end = lbn + (zt.data_blocks_per_track[zi] - k)
    else:  # same cylinder boundaries as lbn_to_chs
        per_cyl = cap / ncyl
        ci = c - zt.first_cylinder[zi]
        cyl_start = start + np.floor(ci * per_cyl).astype(np.int64)
        cyl_end = np.where(ci == ncyl - 1, start + cap, start + np.floor((ci + 1) * per_cyl).astype(np.int64))
        end = np.where(s == spec.surfaces - 1, cyl_end, np.minimum(cyl_start + (s + 1) * bpt, cyl_end))
    return np.minimum(end, start + cap)


def platter_position(spec: DriveSpec, lbn) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(cylinder, surface, angular position [revolutions, 0..1), blocks per track) of blocks,
    with the zones' track and cylinder skews.

    >>> from models.storage.hdd import load_drive
    >>> c, s, angle, bpt = platter_position(load_drive("ibm18es"), [0, 195, 390])
    >>> angle.round(4).tolist()   # block 390 is on surface 1: one track skew (58 blocks) later
    [0.0, 0.5, 0.1487]
    """
    c, s, _, bpt, angle = _locate(spec, lbn)
    return c, s, angle, bpt
