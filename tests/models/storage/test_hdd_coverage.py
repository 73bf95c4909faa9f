"""Issue 14, HDD side: every DiskSim parameter of the bundled drives is in the coverage registry;
the demerit split and the buffer-hit flags are exact partitions of the replay."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.data import data_dir
from models.storage import hdd
from models.storage.hdd import coverage as cov


def _bundled_files():
    d = data_dir() / "disksim"
    return sorted([*d.glob("*.diskspecs"), *d.glob("*.model")])


def test_every_parameter_of_the_bundled_files_is_in_the_table():
    files = _bundled_files()
    assert len(files) == 18  # 9 drives x (.diskspecs, .model)
    found = {(b, k) for b, k, _ in cov.file_parameters(files)}
    table = cov.coverage_table()
    listed = set(zip(table.block, table.parameter, strict=True))
    assert found <= listed, sorted(found - listed)
    # and the table lists nothing that no drive file has (no invented entries)
    assert listed <= found, sorted(listed - found)
    assert len(listed) == len(table)  # one row per (block, parameter)


def test_table_entries_are_complete():
    table = cov.coverage_table()
    assert set(table.status) <= set(cov.STATUSES)
    assert (table.note.str.len() >= 10).all()  # every row says something
    fields = set(hdd.DriveSpec.model_fields) | set(hdd.Zone.model_fields)
    for f in table.field[table.field != ""]:
        for name in f.split(", "):
            assert name in fields, name  # a "field" names a real DriveSpec / Zone field
    for p in cov.PARAMETERS:
        if p.status == "honoured for listed values":
            assert p.values, p.name  # what is modelled is said


def test_listed_values_cover_the_bundled_drive_where_said():
    # "honoured for listed values" with one value: every bundled drive has it (the note says so)
    for name in hdd.drive_names():
        df = cov.drive_coverage(name)
        assert df.status.ne("unknown").all(), name
        na = df[df.status == "not applicable"]
        assert na.modelled.all()
        for par in ("Max queue length", "Time scale for overheads", "Combine seq writes", "Read directly to buffer",
                    "Allow almost read hits", "Preseeking level", "Scheduling policy"):
            assert df.set_index("parameter").loc[par, "modelled"], (name, par)
    at = cov.drive_coverage("atlas10k").set_index("parameter")
    assert at.loc["Buffer continuous read", "value"] == "4" and not at.loc["Buffer continuous read", "modelled"]
    assert not at.loc["Immediate buffer read", "modelled"]  # ignored, value 1
    ibm = cov.drive_coverage("ibm18es").set_index("parameter")
    assert ibm.loc["Allow read hits on write data", "modelled"]  # value 0: the model's behaviour


def test_buffer_continuous_read_sets_the_read_ahead(tmp_path):
    src = data_dir() / "disksim"
    text = (src / "ibm18es.diskspecs").read_text()
    assert "Buffer continuous read = 3" in text
    for ext in ("model", "seek"):
        (tmp_path / f"ibm18es.{ext}").write_text((src / f"ibm18es.{ext}").read_text())
    base = hdd.load_drive("ibm18es")
    assert not base.readahead_to_track_end and base.max_readahead_blocks == 511
    for value, track_end, ra in (("1", True, 511), ("0", False, 0)):
        (tmp_path / "ibm18es.diskspecs").write_text(text.replace("Buffer continuous read = 3",
                                                                 f"Buffer continuous read = {value}"))
        d = hdd.drive_from_files(tmp_path / "ibm18es.diskspecs")
        assert (d.readahead_to_track_end, d.max_readahead_blocks) == (track_end, ra), value
    # the one bundled drive with 1 is dec_rz26 (a one-track segment)
    assert [n for n in hdd.drive_names() if hdd.load_drive(n).readahead_to_track_end] == ["dec_rz26"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 400), st.integers(1, 64), st.floats(0, 20)),
                min_size=1, max_size=40))
def test_detail_matches_service_and_hits_are_what_the_drive_buffers(reqs):
    spec = hdd.load_drive("ibm18es")  # write-back drive
    w = [r[0] for r in reqs]
    lbn = [1000 + 8 * r[1] for r in reqs]
    nb = [r[2] for r in reqs]
    think = [r[3] for r in reqs]
    t, hit = hdd.predict_service_detail(spec, w, lbn, nb, think)
    np.testing.assert_array_equal(t, hdd.predict_service_ms(spec, w, lbn, nb, think))
    w = np.asarray(w)
    assert hit[w].all()  # write-back: every write is reported from the buffer
    assert not hit[0] or w[0]  # the first read cannot hit an empty cache
    _, hit0 = hdd.predict_service_detail(spec, w, lbn, nb, think, cache_enabled=False)
    assert not hit0.any()


def test_demerit_split_partitions_the_replay():
    v = hdd.validate_drive("hp_c2247a")
    df = hdd.demerit_split(v).set_index("part")
    n = v.requests
    assert df.loc["all", "requests"] == n and df.loc["all", "demerit_ms"] == pytest.approx(v.demerit_ms)
    assert df.loc["reads", "requests"] + df.loc["writes", "requests"] == n
    assert df.loc["read hits", "requests"] + df.loc["read misses", "requests"] == df.loc["reads", "requests"]
    assert "write-back writes" not in df.index  # hp_c2247a is write-through (Fast write level 0)
    assert df.share.sum() == pytest.approx(3.0)  # all + (reads, writes) + (hits, misses, write parts)
    # the part's demerit is the CDF demerit of exactly its requests
    m = ~v.is_write & v.buffer_hit
    assert df.loc["read hits", "demerit_ms"] == pytest.approx(hdd.cdf_demerit_ms(v.predicted_ms[m], v.measured_ms[m]))
    # hp_c2247a's trace has real hit/miss labels: the model's read hits are mostly the drive's
    lab = v.measured_label
    assert set(np.unique(lab)) == {"Hit", "Miss", "Doub", "Trip"}
    reads = ~v.is_write
    agree = np.mean((lab[reads] == "Hit") == v.buffer_hit[reads])
    assert agree > 0.9
