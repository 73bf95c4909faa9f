"""The drive layout's one-pass numba kernel (:func:`models.storage.hdd.layout.lbn_to_chs`,
:func:`~models.storage.hdd.layout.platter_position`) gives exactly what the vectorised NumPy mapping it
replaced gave (kept here as the reference), on every DiskSim drive and the generic profile: at every zone's
first and last blocks and on random blocks."""

from __future__ import annotations

import numpy as np
import pytest

from models.storage import hdd
from models.storage.hdd.layout import lbn_to_chs, platter_position, zone_tables


def _reference(spec, lbn):
    """The NumPy mapping before the kernel: (cylinder, surface, sector, blocks per track, angle)."""
    zt = zone_tables(spec)
    zi = np.searchsorted(zt.start_lbn, lbn, side="right") - 1
    off = lbn - zt.start_lbn[zi]
    first, ncyl, bpt = zt.first_cylinder[zi], zt.cylinders[zi], zt.blocks_per_track[zi]
    if spec.exact_layout:
        front, dbpt = zt.empty_front_blocks[zi], zt.data_blocks_per_track[zi]
        trk = (off + front) // dbpt
        ci = np.minimum(trk // spec.surfaces, ncyl - 1)
        s, k = trk % spec.surfaces, (off + front) % dbpt
    else:
        per_cyl = zt.capacity_blocks[zi] / ncyl
        ci = np.floor(off / per_cyl).astype(np.int64)
        ci = np.where(np.floor((ci + 1) * per_cyl) <= off, ci + 1, ci)
        ci = np.where(np.floor(ci * per_cyl) > off, ci - 1, ci)
        ci = np.clip(ci, 0, ncyl - 1)
        r = off - np.floor(ci * per_cyl).astype(np.int64)
        s = np.minimum(r // bpt, spec.surfaces - 1)
        k = np.minimum(r - s * bpt, bpt - 1)
    tskew, cskew = zt.track_skew_blocks[zi], zt.cylinder_skew_blocks[zi]
    skew = ci * (cskew + (spec.surfaces - 1) * tskew) + s * tskew
    return first + ci, s, k, bpt, np.mod((k + skew) / bpt, 1.0)


@pytest.mark.parametrize("drive", ["hdd-7200", *hdd.drive_names()])
def test_the_kernel_maps_every_block_as_the_numpy_reference(drive):
    spec = hdd.generic_drive(drive) if drive.startswith("hdd-") else hdd.load_drive(drive)
    starts = zone_tables(spec).start_lbn
    edges = np.concatenate([starts[:-1], starts[1:] - 1, starts[1:-1] - 2, starts[:-1] + 1])
    rng = np.random.default_rng(0)
    lbn = np.clip(np.concatenate([edges, rng.integers(0, spec.block_count, 20_000)]), 0, spec.block_count - 1)
    c, s, k, bpt = lbn_to_chs(spec, lbn)
    pc, ps, angle, pbpt = platter_position(spec, lbn)
    want = _reference(spec, lbn)
    for got, ref in zip((c, s, k, bpt, angle), want, strict=True):
        assert got.dtype == ref.dtype and np.array_equal(got, ref)
    assert np.array_equal(pc, c) and np.array_equal(ps, s) and np.array_equal(pbpt, bpt)
