"""The HDD stream's one-pass kernels (:func:`models.storage.hdd.stream.stream_terms`,
:func:`~models.storage.hdd.stream.stream_service_ms`) give exactly, bit for bit, what the vectorised NumPy form
they replaced gave (kept here as the reference): on every DiskSim drive and the generic profile, for random,
sequential and same-track streams of reads and writes, with both rotational latencies."""

from __future__ import annotations

import numpy as np
import pytest

from models.storage import hdd
from models.storage.hdd.layout import platter_position
from models.storage.hdd.seek import seek_table_ms, seek_time_ms
from models.storage.hdd.stream import stream_service_ms, stream_terms


def reference_terms(spec, lbn, nblocks, is_write):
    """``stream_terms`` before the kernel (seq, overhead, seek, xfer, angle gap)."""
    lb = np.minimum(np.asarray(lbn, dtype=np.int64), spec.block_count - 1)
    nb = np.asarray(nblocks, dtype=np.int64)
    w = np.asarray(is_write, dtype=bool)
    cyl, _, start_angle, bpt = platter_position(spec, lb)
    end_cyl, _, last_angle, last_bpt = platter_position(spec, np.minimum(lb + nb - 1, spec.block_count - 1))
    prev_end_cyl = np.concatenate([[cyl[0]], end_cyl[:-1]])
    seq = lb == np.concatenate([[-1], (lb + nb)[:-1]])
    oh = np.where(w, spec.write_miss_after_write_ms, spec.read_miss_after_read_ms) + spec.per_request_overhead_ms
    dist = cyl - prev_end_cyl
    seek = np.maximum(seek_time_ms(spec, dist) + np.where(w & (dist != 0), spec.write_settle_ms, 0.0), 0.0)
    xfer = nb / bpt * spec.rotation_ms
    gap = start_angle - np.concatenate([[0.0], (last_angle + 1.0 / last_bpt)[:-1]])
    return seq, oh, seek, xfer, gap


def reference_service_ms(spec, lbn, nblocks, is_write, rotation):
    seq, oh, seek, xfer, gap = reference_terms(spec, lbn, nblocks, is_write)
    rot = spec.rotation_ms
    if rotation == "expected":
        lat = np.full(len(seq), 0.5 * rot)
    else:
        lat = np.mod(gap - (oh + seek) / rot, 1.0) * rot
        lat[0] = 0.5 * rot
    return np.where(seq, xfer, oh + seek + lat + xfer)


def _streams(spec, rng):
    """Random requests anywhere, a sequential run, and short jumps on a track (LBN-sorted destages)."""
    n = 3000
    bc = spec.block_count
    rand = rng.integers(0, bc, n), rng.integers(1, 300, n)
    seq_nb = rng.integers(1, 64, n)
    seq = (bc // 3 + np.concatenate([[0], np.cumsum(seq_nb)[:-1]])) % (bc - 64), seq_nb
    near = np.sort(rng.integers(0, 20_000, n)) + rng.integers(0, bc - 30_000), np.full(n, 8)
    ends = np.array([0, bc - 1, bc - 8, 5]), np.array([8, 1, 8, 4])  # the drive's ends (clipped last blocks)
    for lb, nb in (rand, seq, near, ends):
        yield lb, nb, rng.random(len(lb)) < 0.6


@pytest.mark.parametrize("drive", ["hdd-7200", *hdd.drive_names()])
def test_stream_kernels_equal_the_vectorised_form_bit_for_bit(drive):
    spec = hdd.generic_drive(drive) if drive.startswith("hdd-") else hdd.load_drive(drive)
    rng = np.random.default_rng(3)
    for lb, nb, w in _streams(spec, rng):
        t = stream_terms(spec, lb, nb, w)
        ref = reference_terms(spec, lb, nb, w)
        for key, want in zip(("seq", "overhead_ms", "seek_ms", "xfer_ms", "angle_gap"), ref):
            assert t[key].dtype == want.dtype and np.array_equal(t[key], want), (drive, key)
        for rotation in ("expected", "positioned"):
            got = stream_service_ms(spec, lb, nb, w, rotation=rotation)
            want = reference_service_ms(spec, lb, nb, w, rotation)
            assert np.array_equal(got.view(np.int64), want.view(np.int64)), (drive, rotation)  # same bits


def test_seek_table_is_the_seek_curve():
    spec = hdd.load_drive("ibm18es")
    d = np.arange(spec.cylinders)
    assert np.array_equal(seek_table_ms(spec), seek_time_ms(spec, d))
    assert not seek_table_ms(spec).flags.writeable


def test_a_block_before_the_drive_is_refused():
    with pytest.raises(ValueError, match="lbn out of range"):
        stream_terms(hdd.generic_drive(), [-1], [8])
