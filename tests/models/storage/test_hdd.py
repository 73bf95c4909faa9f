"""HDD model: DiskSim file parsing, seek curve and fit, layout, validation on measured traces."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import ValidationError

from models.data import data_dir
from models.storage import hdd


def test_parse_disksim_nested_and_errors():
    blocks = hdd.parse_disksim("d X {\n a = 1, # c\n L = [ z { k = 2 }, ], s = source f.model }")
    assert blocks == [("d X", {"a": 1.0, "L": [{"__type__": "z", "k": 2.0}], "s": "source f.model"})]
    with pytest.raises(ValueError, match="line 2"):
        hdd.parse_disksim("d X {\n a 1 }")
    with pytest.raises(ValueError, match="unterminated"):
        hdd.parse_disksim("d X { a = 1,")


def test_read_seek_file_errors(tmp_path):
    p = tmp_path / "x.seek"
    p.write_text("Seek distances measured: 2\n1, 1.0\n2, abc\n")
    with pytest.raises(ValueError, match="line 3"):
        hdd.read_seek_file(p)
    p.write_text("Seek distances measured: 3\n1, 1.0\n2, 2.0\n")
    with pytest.raises(ValueError, match="header says 3"):
        hdd.read_seek_file(p)


def test_every_bundled_drive_loads():
    names = hdd.drive_names()
    assert set(hdd.DISKSIM_DEMERIT_MS) <= set(names)
    for n in names:
        d = hdd.load_drive(n)
        assert d.zones[0].first_cylinder >= 0 and d.zones[-1].last_cylinder < d.cylinders
        assert 3000 < d.rpm < 11000


def test_ibm18es_parameters_match_files():
    d = hdd.load_drive("ibm18es")
    assert (d.cylinders, d.surfaces, d.block_count) == (11474, 5, 17916240)
    assert d.zones[0].blocks_per_track == 390 and d.zones[-1].blocks_per_track == 247
    assert d.zones[0].track_skew_blocks == 58 and d.zones[0].cylinder_skew_blocks == 101
    assert d.cache_segments == 7 and d.segment_blocks == 511 and d.fast_write_level == 2
    assert d.read_miss_after_write_ms == pytest.approx(0.42386)
    assert d.bus_read_ms_per_block == pytest.approx(0.101)
    assert d.seek_time_ms[0] == pytest.approx(1.062) and len(d.seek_time_ms) == 151


def test_unknown_drive_lists_names_and_path_form():
    with pytest.raises(KeyError, match="valid names: atlas10k"):
        hdd.load_drive("nope")
    d = hdd.load_drive(str(data_dir() / "disksim" / "barracuda"))
    assert d.name == "barracuda" and d.cylinders == 5172


def test_hpl_seek_equation_drive():
    # hp_c2247a has no .seek file: its curve comes from the HPL (Ruemmler-Wilkes) equation
    d = hdd.load_drive("hp_c2247a")
    t = hdd.seek_time_ms(d, [1, 10, 100, 1000])
    assert t[0] == pytest.approx(2.89) and t[1] == pytest.approx(4.99)
    assert t[2] == pytest.approx(3.81 + 0.33 * 10, rel=2e-3)  # linear interpolation between curve points
    assert t[3] == pytest.approx(7.75 + 0.0059 * 1000, rel=2e-3)
    f = hdd.fit_seek_curve(d.seek_distance_cyl[10:], d.seek_time_ms[10:])
    # the points are exactly of the fitted form: the fit must recover it
    assert f.rms_error_ms < 0.05


def test_seek_interpolation_is_linear_between_points_and_extrapolates():
    d = hdd.load_drive("barracuda")
    xs, ys = np.asarray(d.seek_distance_cyl), np.asarray(d.seek_time_ms)
    # measured points are reproduced, a point 1/4 of the way is 1/4 of the way (linear)
    q = xs[20] + 0.25 * (xs[21] - xs[20])
    t = hdd.seek_time_ms(d, [xs[20], q, xs[21]])
    assert t[0] == ys[20] and t[2] == ys[21]
    assert t[1] == pytest.approx(ys[20] + 0.25 * (ys[21] - ys[20]))
    # past the last point: the last segment's slope continues
    slope = (ys[-1] - ys[-2]) / (xs[-1] - xs[-2])
    assert hdd.seek_time_ms(d, xs[-1] + 100) == pytest.approx(ys[-1] + 100 * slope)
    assert hdd.seek_time_ms(d, 0) == 0


@pytest.mark.parametrize("name", ["ibm18es", "barracuda", "atlas10k", "cheetah4LP"])
def test_seek_fit_error_small(name):
    d = hdd.load_drive(name)
    f = hdd.fit_seek_curve(d.seek_distance_cyl, d.seek_time_ms)
    full = max(d.seek_time_ms)
    # Ruemmler & Wilkes report their two-part form within a few % of full-stroke time
    assert f.rms_error_ms < 0.05 * full
    assert 0 < f.boundary_cyl < d.cylinders


def test_lbn_mapping_is_monotone_and_covers_the_disk():
    d = hdd.load_drive("barracuda")
    lbn = np.linspace(0, d.block_count - 1, 5000).astype(np.int64)
    c, s, k, bpt = hdd.lbn_to_chs(d, lbn)
    assert (np.diff(c) >= 0).all()
    assert c[0] == 0 and c[-1] == d.zones[-1].last_cylinder
    assert (k < bpt).all() and (s < d.surfaces).all()
    with pytest.raises(ValueError, match="out of range"):
        hdd.lbn_to_chs(d, [d.block_count])


def test_exact_layout_with_spares_and_front_space():
    # dec_rz26: sparing scheme 3 (1 spare sector per 58-sector track -> 57 LBNs per track),
    # 23142 empty sectors at the zone front = 406 tracks = 29 cylinders of 14 surfaces; the
    # layout then fills Block count exactly (2599 x 14 x 57 - 23142 = 2050860)
    d = hdd.load_drive("dec_rz26")
    assert d.exact_layout and d.zones[0].spare_sectors_per_track == 1
    c, s, k, bpt = hdd.lbn_to_chs(d, [0, 56, 57, 57 * 14, d.block_count - 1])
    assert c.tolist() == [29, 29, 29, 30, 2598] and s.tolist() == [0, 0, 1, 0, 13]
    assert k.tolist() == [0, 56, 0, 0, 56] and int(bpt[0]) == 58
    # hp_c2247a: scheme 1, whole spare tracks at each zone's end; 96-sector tracks stay whole
    h = hdd.load_drive("hp_c2247a")
    assert h.exact_layout and h.zones[0].spare_tracks == 325
    c, s, k, _ = hdd.lbn_to_chs(h, [0, 96 * 9])  # 1632 front sectors = 17 tracks = cyl 1, surface 4
    assert k.tolist() == [0, 0] and s.tolist() == [4, 0] and c.tolist() == [1, 2]
    # the modern drives' range/zone sparing stays spread over the zone (scaled)
    assert not hdd.load_drive("ibm18es").exact_layout


def test_predict_rejects_bad_input():
    d = hdd.load_drive("ibm18es")
    with pytest.raises(ValueError, match="same length"):
        hdd.predict_service_ms(d, [True], [0, 1], [1])
    with pytest.raises(ValueError, match="outside the drive"):
        hdd.predict_service_ms(d, [True], [d.block_count], [1])


def test_read_ahead_and_write_back_behaviour():
    d = hdd.load_drive("ibm18es")
    seq = hdd.predict_service_ms(d, [False] * 20, 1000 + 8 * np.arange(20), [8] * 20, [5.0] * 20)
    nocache = hdd.predict_service_ms(d, [False] * 20, 1000 + 8 * np.arange(20), [8] * 20, [5.0] * 20,
                                     cache_enabled=False)
    assert seq[1:].max() < 1.5 and nocache[1:].mean() > 3 * seq[1:].mean()  # hits vs media accesses
    w = hdd.predict_service_ms(d, [True], [5_000_000], [8], [0.0])
    assert w[0] == pytest.approx(d.write_hit_after_read_ms + 8 * d.bus_write_ms_per_block)


@pytest.mark.parametrize("name", ["barracuda", "dec_rz26", "hp_c2490a"])  # scaled, exact, exact + zones
def test_track_end_is_the_first_block_of_the_next_track(name):
    d = hdd.load_drive(name)
    lbn = np.concatenate([np.random.default_rng(0).integers(0, d.block_count, 20_000), [0, d.block_count - 1]])
    end = hdd.track_end_lbn(d, lbn)
    assert (end > lbn).all() and (end <= d.block_count).all()
    c, s, _, _ = hdd.lbn_to_chs(d, lbn)
    c_last, s_last, _, _ = hdd.lbn_to_chs(d, end - 1)
    assert ((c_last == c) & (s_last == s)).all()  # end - 1 is still on the block's track
    inside = end < d.block_count
    c_next, s_next, _, _ = hdd.lbn_to_chs(d, end[inside])
    assert ((c_next != c[inside]) | (s_next != s[inside])).all()  # end is on another track


def test_track_buffer_readahead_stops_at_track_end():
    # dec_rz26: 57-block segments = one track of data. Its measured trace hits on 96 % of the
    # sequential reads that stay on the previous request's last track and on 10 % of those
    # that cross its end (the other eight drives, with multi-track segments, show no such
    # step). That is DiskSim's "Buffer continuous read = 1" (read ahead to the end of the track),
    # dec_rz26's value; the other drives have 3 (to the end of the segment) or 4.
    d = hdd.load_drive("dec_rz26")
    assert d.readahead_to_track_end and not hdd.load_drive("ibm18es").readahead_to_track_end
    end = int(hdd.track_end_lbn(d, [100_000])[0])
    inside = hdd.predict_service_ms(d, [False, False], [end - 20, end - 12], [8, 8], [20.0, 0.0])
    across = hdd.predict_service_ms(d, [False, False], [end - 12, end - 4], [8, 8], [20.0, 0.0])
    hit_ms = d.read_hit_after_read_ms + 8 * d.bus_read_ms_per_block  # 1.80 ms
    assert inside[1] == pytest.approx(hit_ms) and across[1] > hit_ms + 1.0  # the next track needs the media
    # measured vs predicted hit shares on the real trace
    r = hdd.validate_drive("dec_rz26")
    path, _ = hdd.resolve_drive("dec_rz26")
    w, lbn, nb, *_ = hdd.read_validation_trace(path.with_suffix(".trace"))
    seq = np.flatnonzero((lbn[1:] == lbn[:-1] + nb[:-1]) & ~w[1:] & ~w[:-1]) + 1
    crosses = lbn[seq] + nb[seq] > hdd.track_end_lbn(d, lbn[seq - 1] + nb[seq - 1] - 1)
    for sel in (crosses, ~crosses):
        meas_hit = (r.measured_ms[seq][sel] < 3.8).mean()   # hits take < 3.8 ms (1 ms + bus)
        pred_hit = (r.predicted_ms[seq][sel] < 3.8).mean()
        assert abs(meas_hit - pred_hit) < 0.10, (meas_hit, pred_hit)


def test_zone_tables_are_named_read_only_arrays():
    d = hdd.load_drive("dec_rz26")
    t = hdd.zone_tables(d)
    assert len(t.start_lbn) == len(d.zones) + 1 and t.start_lbn[-1] == d.block_count
    assert int(t.capacity_blocks.sum()) == d.block_count
    assert t.blocks_per_track[0] - t.data_blocks_per_track[0] == d.zones[0].spare_sectors_per_track == 1
    assert t.empty_front_blocks[0] == 23142 and t.first_cylinder[0] == 0
    assert t.zone_of(np.array([0, d.block_count - 1])).tolist() == [0, len(d.zones) - 1]
    with pytest.raises(ValueError, match="read-only"):
        t.capacity_blocks[0] = 0  # shared through the per-drive cache


def test_read_segment_fill_and_hit_rules():
    # filled at 10 blocks at t0 = 2 ms, reading ahead at 4 blocks/ms up to block 30
    g = hdd.ReadSegment(start=0, filled=10, limit=30, t0_ms=2.0, rate_blocks_per_ms=4.0, reading_ahead=True,
                        last_used=0)
    assert g.filled_at(1.0) == 10 and g.filled_at(4.0) == 18 and g.filled_at(100.0) == 30
    assert g.serves(5, 25, g.filled_at(4.0))  # starts in the data, ends in the part still read ahead
    assert not g.serves(20, 24, g.filled_at(4.0))  # starts beyond what is read so far
    g.stop_readahead(3.0)
    assert (g.filled, g.reading_ahead) == (14.0, False) and g.filled_at(100.0) == 14.0
    assert not g.serves(5, 15, g.filled_at(100.0))  # no more read-ahead: a read past 14 misses
    assert g.overlaps(29, 40) and not g.overlaps(30, 40)


def test_drive_validation_result_frame():
    r = hdd.validate_drive("ibm18es")
    df = r.to_frame()
    assert df.columns.tolist() == ["drive", "requests", "mean_measured_ms", "mean_predicted_ms", "demerit_ms",
                                   "disksim_demerit_ms", "ratio_to_disksim", "within_2x"]
    assert len(r.predicted_ms) == len(r.measured_ms) == len(r.is_write) == r.requests == 10000
    assert df.demerit_ms[0] == hdd.cdf_demerit_ms(r.predicted_ms, r.measured_ms)
    assert df.ratio_to_disksim[0] == pytest.approx(r.demerit_ms / 0.135)
    st = hdd.validate_drive("st41601n")
    assert st.within_2x is None and np.isnan(st.ratio_to_disksim)  # no published DiskSim figure


def test_demerit_definition():
    assert hdd.cdf_demerit_ms([1, 2, 3], [1, 2, 3]) == 0
    assert hdd.cdf_demerit_ms([3, 1, 2], [2, 3, 4]) == pytest.approx(1.0)


# Our demerit per drive (see the README table): drives within 2x of DiskSim's own figure
# are asserted (2x is the target; the model is deterministic, so no extra slack:
# hp_c2247a sits at 1.94x with the SCSI bus phases modelled). dec_rz26 (0.80 ms, 2.3x)
# misses it (see docs/models/hdd.md for the measured cause) and is only checked to
# stay below its current level + ~10 % so a regression shows.
WITHIN_2X = ["atlas10k", "barracuda", "cheetah4LP", "hp_c2247a", "hp_c2490a", "hp_c3323a", "ibm18es"]


@pytest.fixture(scope="module")
def table():
    return hdd.validation_table().set_index("drive")


@pytest.mark.parametrize("name", WITHIN_2X)
def test_validation_within_2x_of_disksim(table, name):
    row = table.loc[name]
    assert row.demerit_ms <= 2 * hdd.DISKSIM_DEMERIT_MS[name]
    # mean service time: NOTES.md reports 1-6 % with the cache modelled; ours is 0.3-6.3 %
    # (cheetah4LP the worst), so 7 %
    assert row.mean_predicted_ms == pytest.approx(row.mean_measured_ms, rel=0.07)


def test_validation_other_drives_documented(table):
    assert table.loc["dec_rz26"].demerit_ms < 0.88
    # mean within 4 % (ours: 3.3 %)
    assert table.loc["dec_rz26"].mean_predicted_ms == pytest.approx(table.loc["dec_rz26"].mean_measured_ms, rel=0.04)
    assert table.loc["st41601n"].demerit_ms < 0.5  # no DiskSim figure published
    # without the drive cache the error is several times larger (NOTES.md: 1.5-4 ms)
    r = hdd.validate_drive("ibm18es", cache_enabled=False)
    assert r.demerit_ms > 5 * table.loc["ibm18es"].demerit_ms


def test_generic_profile_honours_its_catalogue_row():
    """The generic drive reproduces the inputs of its catalogue row (rpm, sequential bandwidth, mean seek).
    That those inputs were derived from seed 003's "100 MB/s" and "0.5 MB/s" is provenance; the
    comparison with the seed is the ledger's (003-sec5-hdd-*, marked circular)."""
    from models.devices import get_device
    from models.storage.hdd.seek import seek_time_ms

    dev, g = get_device("hdd-7200"), hdd.generic_drive()
    rot = 60_000.0 / dev.rpm
    assert g.rpm == dev.rpm and g.rotation_ms == pytest.approx(rot, rel=1e-12)
    # blocks per track rounded to a whole number: the media rate within half a block per rotation
    assert abs(g.outer_media_MBps - dev.read_bandwidth_MBps) <= 512 / 2 / (rot * 1e3)
    # the seek curve is scaled so its mean over random block pairs is the catalogue's average seek; on
    # another Monte Carlo sample of 200,000 pairs that mean is within ~0.3 % (3 sigma), 1 % allowed
    assert g.mean_random_seek_ms(seed=3) == pytest.approx(dev.avg_seek_ns / 1e6, rel=0.01)
    # a sequential 4 KiB stream pays positioning once, then streams at the media rate
    bpt = g.zones[0].blocks_per_track
    n = 4000
    t = hdd.stream_service_ms(g, g.block_count // 4 + 8 * np.arange(n), np.full(n, 8))
    xfer = 8 / bpt * rot
    np.testing.assert_allclose(t[1:], xfer, rtol=1e-12)
    assert t[0] == pytest.approx(float(seek_time_ms(g, 0)) + rot / 2 + xfer, rel=1e-12)
    # random 4 KiB requests: seek + half a rotation + transfer, whose mean is the catalogue's average seek;
    # 20,000 independent requests: the sample mean of the seek is within ~0.5 % (3 sigma), 2 % allowed
    rng = np.random.default_rng(7)
    m = 20_000
    tr = hdd.stream_service_ms(g, rng.integers(0, g.block_count - 8, m), np.full(m, 8))
    assert tr[1:].mean() == pytest.approx(dev.avg_seek_ns / 1e6 + rot / 2 + xfer, rel=0.02)
    assert hdd.stream_throughput_MBps(g, rng.integers(0, g.block_count - 8, m), np.full(m, 8)) == pytest.approx(
        4096 / (dev.avg_seek_ns + rot / 2 * 1e6 + xfer * 1e6) * 1e3, rel=0.02)


def test_drive_spec_validation():
    d = hdd.load_drive("ibm18es")
    with pytest.raises(ValidationError, match="rpm"):
        hdd.DriveSpec.model_validate({**d.model_dump(), "rpm": -1})


def test_bus_phase_parameters_parsed():
    d = hdd.load_drive("hp_c2247a")
    assert not d.never_disconnect and d.extra_write_disconnect
    assert (d.data_prep_ms, d.reselect_first_ms, d.reselect_other_ms) == (0.02519, 0.16249, 0.12883)
    assert (d.extradisc_command_ms, d.extradisc_inter_disconnect_ms, d.extradisc_seek_delta_ms) == (0.64244, 0.42885, 0.25)
    assert d.write_disconnect_ms == 0.16565 and d.min_seek_delay_ms == 0.6
    # every other bundled drive has zero phase overheads, so the phases change nothing there
    for n in hdd.drive_names():
        if n != "hp_c2247a":
            o = hdd.load_drive(n)
            assert not o.extra_write_disconnect and o.reselect_first_ms == o.data_prep_ms == o.min_seek_delay_ms == 0
    assert hdd.load_drive("dec_rz26").never_disconnect


def test_extra_write_disconnect_matches_trace_tags():
    # hp_c2247a's measured trace tags each write "Doub" (command + data-phase disconnects) or
    # "Trip" (one more: DiskSim's extra write disconnect). Our rule -- a write right after a
    # write that it does not continue -- must select exactly the "Trip" writes.
    rows = [ln.split() for ln in (data_dir() / "disksim" / "hp_c2247a.trace").read_text().splitlines() if ln.strip()]
    w = np.array([r[0] == "W" for r in rows])
    lbn = np.array([int(r[2]) for r in rows])
    end = lbn + np.array([int(r[3]) for r in rows])
    rule = w & np.r_[False, w[:-1]] & (lbn != np.r_[-1, end[:-1]])
    trip = np.array([r[1] == "Trip" for r in rows])
    assert trip.sum() > 1000 and (rule == trip).all()


def test_extra_write_disconnect_timeline():
    d = hdd.load_drive("hp_c2247a")
    n = 8
    lb = [100_000, 900_000]  # two non-sequential writes, back to back
    t = hdd.predict_service_ms(d, [True, True], lb, [n, n], [0.0, 0.0], rotation="expected")
    t_cyl = hdd.lbn_to_chs(d, lb)[0]
    rot = d.rotation_ms
    bpt = int(hdd.lbn_to_chs(d, [lb[1]])[3][0])
    xfer = n / bpt * rot
    # second write: mechanism starts after the extradisc command overhead + seek delta,
    # the data phase after command, disconnect, inter-disconnect delay and reselection
    seek = float(hdd.seek_time_ms(d, abs(int(t_cyl[1]) - int(t_cyl[0])))) + d.write_settle_ms
    mend = d.extradisc_command_ms + d.extradisc_seek_delta_ms + max(seek, d.min_seek_delay_ms) + 0.5 * rot + xfer
    bus_end = (d.extradisc_command_ms + d.extradisc_disconnect1_ms + d.extradisc_inter_disconnect_ms
               + d.reselect_first_ms + d.data_prep_ms + n * d.bus_write_ms_per_block)
    expect = max(mend, bus_end + d.extradisc_disconnect2_ms) + d.reselect_other_ms + d.write_completion_ms
    assert t[1] == pytest.approx(expect, abs=1e-9)
    # a sequential continuation is not an extra-disconnect write: ordinary write-miss overhead
    t2 = hdd.predict_service_ms(d, [True, True], [lb[0], lb[0] + n], [n, n], [0.0, 0.0], rotation="expected")
    assert t2[1] - d.write_miss_after_write_ms > 0 and t2[1] != pytest.approx(t[1])


def test_write_settle_only_when_heads_move():
    # DiskSim adds the write settle only to a non-zero seek/head-switch; hp_c2247a's is +0.65 ms
    d = hdd.load_drive("hp_c2247a").model_copy(update={"min_seek_delay_ms": 0.0})
    same = hdd.predict_service_ms(d, [False, True], [100_000, 100_010], [4, 4], [0.0, 0.0], rotation="expected")
    moved = hdd.predict_service_ms(d, [False, True], [100_000, 900_000], [4, 4], [0.0, 0.0], rotation="expected")
    c, _, _, bpt = hdd.lbn_to_chs(d, [100_000, 900_000])
    seek = float(hdd.seek_time_ms(d, int(c[1] - c[0])))
    dxfer = 4 * d.rotation_ms * (1 / bpt[1] - 1 / bpt[0])
    # same track: no positioning, no settle; moved: seek + settle (+ the other zone's media rate)
    assert moved[1] - same[1] == pytest.approx(seek + d.write_settle_ms + dxfer, abs=1e-9)
    # the vectorised stream model (write-cache throughput) follows the same rule
    s_same = hdd.stream_service_ms(d, np.array([100_000, 100_010]), np.array([4, 4]), np.array([False, True]))
    s_moved = hdd.stream_service_ms(d, np.array([100_000, 900_000]), np.array([4, 4]), np.array([False, True]))
    assert s_moved[1] - s_same[1] == pytest.approx(seek + d.write_settle_ms + dxfer, abs=1e-9)


def test_throughput_curve_reports_the_simulated_request_size():
    df = hdd.throughput_curve(hdd.generic_drive(), [0], [100, 1331, 4096], requests=50)
    assert df.request_bytes.tolist() == [512, 1536, 4096]  # whole sectors


def test_positioned_rotation_of_a_back_to_back_stream():
    """``rotation="positioned"``: the latency is the platter's turn from where the previous request
    ended to the target's first block, less the overhead and seek; exact on one track."""
    g = hdd.generic_drive()
    bpt, rot = g.zones[0].blocks_per_track, g.rotation_ms
    # an LBN-sorted batch on one track, 8-block requests with gaps of 0..40 blocks: each waits
    # exactly for its gap (no overhead, no seek on the generic profile's track)
    gaps = np.array([0, 8, 16, 40])
    starts = np.concatenate([[0], np.cumsum(8 + gaps[1:])])
    t = hdd.stream_service_ms(g, starts, np.full(4, 8), rotation="positioned")
    np.testing.assert_allclose(t[1:], (gaps[1:] + 8) / bpt * rot, rtol=1e-9)
    # the first request has no previous position: half a rotation, as "expected"
    te = hdd.stream_service_ms(g, starts, np.full(4, 8), rotation="expected")
    assert t[0] == pytest.approx(te[0], rel=1e-12)
    # a request just behind the head waits almost a whole rotation
    back = hdd.stream_service_ms(g, [800, 792], [8, 8], rotation="positioned")
    assert back[1] == pytest.approx((1 - 16 / bpt) * rot + 8 / bpt * rot, rel=1e-9)  # 16 blocks back, then 8
    # every latency is within [0, one rotation)
    rng = np.random.default_rng(11)
    m = 20_000
    lb = rng.integers(0, g.block_count - 8, m)
    tp = hdd.stream_service_ms(g, lb, np.full(m, 8), rotation="positioned")
    tx = hdd.stream_service_ms(g, lb, np.full(m, 8), rotation="expected")
    lat = tp - (tx - rot / 2)
    assert (lat[1:] >= -1e-9).all() and (lat[1:] < rot + 1e-9).all()
    # random requests land at uniformly spread angles: the mean latency is half a rotation
    # (20,000 requests: standard error rot/sqrt(12 m) ~ 0.2 % of rot/2; 2 % allowed)
    assert lat[1:].mean() == pytest.approx(rot / 2, rel=0.02)
    with pytest.raises(ValueError, match="rotation"):
        hdd.stream_service_ms(g, [0], [8], rotation="half")


def test_positioned_rotation_uses_the_skews():
    """On a DiskSim drive with track and cylinder skews the positioned latency uses the layout's angles."""
    from models.storage.hdd.layout import platter_position

    d = hdd.load_drive("ibm18es")
    lb = np.array([0, 390])  # block 390: surface 1, one track skew later (platter_position's doctest)
    t = hdd.stream_service_ms(d, lb, np.array([4, 4]), rotation="positioned")
    te = hdd.stream_service_ms(d, lb, np.array([4, 4]), rotation="expected")
    _, _, ang, bpt = platter_position(d, [0, 3, 390])
    before = te[1] - d.rotation_ms / 2 - 4 / bpt[2] * d.rotation_ms  # overhead + positioning
    want = np.mod(ang[2] - (ang[1] + 1 / bpt[1]) - before / d.rotation_ms, 1.0) * d.rotation_ms
    assert t[1] - (te[1] - d.rotation_ms / 2) == pytest.approx(want, abs=1e-9)
