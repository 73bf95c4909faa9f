"""The drive's own write-back buffer in the HDD stream behind the write cache (models.storage.hdd.write_buffer)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.storage import hdd
from models.storage import write_cache as wc
from models.traces.core import BlockTrace

ROTATIONS = ("expected", "positioned")
#: DiskSim drives with write-back on whose write-hit overhead (after a write) is at most the miss overhead;
#: barracuda's is larger (0.929 vs 0.816 ms), the one case the "never slower" bound does not cover.
HIT_LE_MISS = ("ibm18es", "atlas10k", "cheetah4LP")


def _stream(seed: int, n: int, spec, *, write_share: float = 1.0, seq_share: float = 0.3, max_blocks: int = 64):
    g = np.random.default_rng(seed)
    lb = g.integers(0, spec.block_count - 2 * max_blocks, n)
    nb = g.integers(1, max_blocks + 1, n)
    for k in range(1, n):  # some requests continue the previous one (stream on / combine)
        if g.random() < seq_share:
            lb[k] = min(lb[k - 1] + nb[k - 1], spec.block_count - max_blocks - 1)
    return lb, nb, g.random(n) < write_share


@pytest.mark.parametrize("drive", ["hdd-7200", "ibm18es", "barracuda"])
@pytest.mark.parametrize("rotation", ROTATIONS)
def test_no_buffer_is_the_stream_model_exactly(drive, rotation):
    spec = wc._drive_spec(drive)
    lb, nb, w = _stream(3, 3000, spec, write_share=0.7)
    ref = hdd.stream_service_ms(spec, lb, nb, w, rotation=rotation)
    for size in ("none", 0, 511.0):  # less than one block is no buffer
        s = hdd.buffered_stream(spec, lb, nb, w, drive_cache=size, rotation=rotation)
        assert np.array_equal(s.response_ms, ref)
        assert not s.buffered.any() and s.drain_ms == 0.0
        assert s.total_ms == float(ref.sum())
    assert (hdd.buffered_throughput_MBps(spec, lb, nb, w, drive_cache=0, rotation=rotation)
            == hdd.stream_throughput_MBps(spec, lb, nb, w, rotation=rotation))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 300), drive=st.sampled_from(("hdd-7200", *HIT_LE_MISS)),
       rotation=st.sampled_from(ROTATIONS), size=st.sampled_from(("spec", 4096, 65536, 1 << 20, 1 << 24)),
       seq_share=st.sampled_from((0.0, 0.3, 0.9)))
def test_a_buffer_never_makes_a_write_only_stream_slower(seed, n, drive, rotation, size, seq_share):
    spec = wc._drive_spec(drive)
    if size == "spec" and drive == "hdd-7200":
        size = 1 << 16  # the generic profile has no buffer of its own
    lb, nb, w = _stream(seed, n, spec, seq_share=seq_share)
    done_without = np.cumsum(hdd.stream_service_ms(spec, lb, nb, w, rotation=rotation))
    s = hdd.buffered_stream(spec, lb, nb, w, drive_cache=size, rotation=rotation)
    tol = 1e-9 * max(1.0, float(done_without[-1]))
    assert (s.reported_ms <= done_without + tol).all()  # every request reported no later
    assert (s.media_end_ms <= done_without + tol).all()  # and on the media no later
    assert s.response_ms.sum() <= done_without[-1] + tol
    assert s.total_ms <= done_without[-1] + tol
    assert (s.reported_ms <= s.media_end_ms + tol).all()  # reported before (or when) its data is on the media


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(2, 200), k=st.integers(1, 6),
       rotation=st.sampled_from(ROTATIONS), drive=st.sampled_from(("hdd-7200", "ibm18es", "barracuda")))
def test_a_full_buffer_falls_back_to_media_time(seed, n, k, rotation, drive):
    """Equal-size writes that never continue each other, a buffer of exactly k of them: write i is taken
    once write i - k is on the media (not before), and a write larger than the buffer is written through."""
    spec = wc._drive_spec(drive)
    lb, _, _ = _stream(seed, n, spec, seq_share=0.0)
    lb = lb - lb % 64  # 8-block writes at 64-block boundaries: none starts where the previous ended
    nb = np.full(n, 8)
    if (lb[1:] == lb[:-1] + 8).any():
        return
    s = hdd.buffered_stream(spec, lb, nb, np.ones(n, bool), drive_cache=k * 8 * 512, rotation=rotation)
    assert s.buffered.all()
    h = spec.write_hit_after_write_ms + spec.per_request_overhead_ms
    for i in range(k, n):
        assert s.reported_ms[i] >= s.media_end_ms[i - k]
        assert s.reported_ms[i] == max(s.reported_ms[i - 1] + h, s.media_end_ms[i - k])
    big = hdd.buffered_stream(spec, lb, np.full(n, 9), np.ones(n, bool), drive_cache=8 * 512, rotation=rotation)
    assert not big.buffered.any()
    assert np.array_equal(big.response_ms, hdd.stream_service_ms(spec, lb, np.full(n, 9), np.ones(n, bool),
                                                                 rotation=rotation))


def test_the_buffer_hides_the_write_command_overhead_behind_the_media():
    """ibm18es, one write segment: each write's command is processed while the write before it is on the
    media and is taken when that one ends, so the media writes back to back: with "expected" rotation each
    write after the first costs the media its miss overhead (0.793 ms) less than without the buffer; the
    first one (idle media) the miss overhead less its write-hit overhead (0.185 ms)."""
    d = hdd.load_drive("ibm18es")
    lb = np.array([1000, 900_000, 5000, 4_000_000, 70_000])
    nb = np.full(5, 8)
    w = np.ones(5, bool)
    no = hdd.stream_service_ms(d, lb, nb, w, rotation="expected")
    s = hdd.buffered_stream(d, lb, nb, w, drive_cache="spec", rotation="expected")
    h, miss = d.write_hit_after_write_ms, d.write_miss_after_write_ms
    assert np.allclose(np.diff(s.media_end_ms), no[1:] - miss)
    assert np.array_equal(s.reported_ms[1:], s.media_end_ms[:-1])
    assert np.isclose(s.media_end_ms[0], no[0] - (miss - h))
    assert np.isclose(s.response_ms[0], h)


def test_reads_wait_for_the_buffered_writes():
    d = hdd.load_drive("ibm18es")
    s = hdd.buffered_stream(d, [1000, 900_000], [8, 8], [True, False], drive_cache="spec", rotation="expected")
    assert s.buffered.tolist() == [True, False]
    seek = float(hdd.stream_terms(d, [1000, 900_000], [8, 8], [True, False])["seek_ms"][1])
    # the read's command overhead overlaps the pending write; it positions once the write is on the media
    assert np.isclose(s.media_end_ms[1], s.media_end_ms[0] + max(s.reported_ms[0] + d.read_miss_after_read_ms
                                                                  - s.media_end_ms[0], 0.0)
                      + seek + 0.5 * d.rotation_ms + 8 / d.zones[0].blocks_per_track * d.rotation_ms, rtol=0.05)
    assert s.reported_ms[1] == s.media_end_ms[1]


def test_drive_buffer_sizes_and_refusals():
    assert hdd.drive_buffer(hdd.load_drive("barracuda"), "spec").capacity_blocks == 281
    assert hdd.drive_buffer(hdd.load_drive("atlas10k"), "SPEC").entry_blocks == 374
    assert hdd.drive_buffer(hdd.generic_drive(), "2048").capacity_blocks == 4
    assert hdd.drive_buffer(hdd.generic_drive(), 0).capacity_blocks == 0
    with pytest.raises(ValueError, match="hdd-7200.*no write buffer"):
        hdd.drive_buffer(hdd.generic_drive(), "spec")
    with pytest.raises(ValueError, match="dec_rz26.*write-back off"):
        hdd.drive_buffer(hdd.load_drive("dec_rz26"), "spec")
    for bad in ("lots", -1, float("nan"), float("inf"), 2**51):
        with pytest.raises(ValueError, match="drive cache"):
            hdd.drive_buffer(hdd.generic_drive(), bad)


def test_spec_fields_are_read_from_the_diskspecs():
    for name in ("atlas10k", "barracuda", "cheetah4LP", "ibm18es"):
        d = hdd.load_drive(name)
        assert d.write_segments == 1 and d.fast_write_level >= 1
    assert hdd.generic_drive().write_segments == 0


def test_run_write_cache_drive_cache_option():
    t = BlockTrace(np.arange(400), np.ones(400, bool), (np.arange(400) * 7919 % 5000) * 4096 * 64,
                   np.full(400, 4096), np.zeros(400, np.int32))
    req = wc.prepare_requests(t)
    for drive in ("hdd-7200", "ibm18es"):
        base = wc.run_write_cache(req, "halo", 0.5, drive=drive)
        assert wc.run_write_cache(req, "halo", 0.5, drive=drive, drive_cache=0) == base  # default: no buffer
        cached = wc.run_write_cache(req, "halo", 0.5, drive=drive, drive_cache=1 << 20)
        assert cached.traffic_rate == base.traffic_rate and cached.hdd_requests == base.hdd_requests
        assert cached.exec_time_s <= base.exec_time_s * (1 + 1e-12)
    assert wc.DRIVE_CACHE == "none"
    with pytest.raises(ValueError, match="no write buffer"):
        wc.run_write_cache(req, "halo", 0.5, drive_cache="spec")
    sweep = wc.sweep_cache_sizes(req, [0.5], policies=("none", "halo"), drive="ibm18es", drive_cache="spec")
    assert len(sweep.results) == 2
