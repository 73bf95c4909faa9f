"""The streamed table of distinct blocks (:class:`models.traces.block_table.BlockTable`): its ids and counts are
those of :func:`models.traces.split_blocks` over any chunking; the counts widen to int64 before they would pass the
int32 range, and a table asked for more distinct blocks than int32 ids can number refuses, naming the option."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.traces import BlockTrace, split_blocks
from models.traces import block_table as bt


def _trace(draw_blocks, sizes, devices) -> BlockTrace:
    n = len(draw_blocks)
    return BlockTrace(np.arange(n), np.zeros(n, bool), np.asarray(draw_blocks, np.int64) * 4096,
                      np.asarray(sizes, np.int64), np.asarray(devices, np.int32))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(1, 5 * 4096), st.integers(0, 2)), min_size=1,
                max_size=80), st.integers(1, 9))
def test_ids_and_counts_are_split_blocks_over_any_chunking(reqs, chunk):
    tr = _trace(*zip(*reqs))
    t = bt.BlockTable(4096)
    for i in range(0, len(tr), chunk):
        t.add(tr.offset_bytes[i:i + chunk], tr.size_bytes[i:i + chunk], tr.device[i:i + chunk])
    acc = split_blocks(tr)
    ids = np.concatenate([x for _, x in t.id_slices(tr.offset_bytes, tr.size_bytes, tr.device)])
    assert np.array_equal(ids, acc.block)
    assert np.array_equal(t.counts, np.bincount(acc.block)) and t.n_unique == acc.n_unique


def test_counts_widen_before_passing_int32(monkeypatch):
    monkeypatch.setattr(bt, "_INT32_MAX", 10)
    t = bt.BlockTable(4096)
    t.add([0] * 8, [4096] * 8, [0] * 8)
    assert t._hcount.dtype == np.int32
    t.add([0] * 8 + [4096], [4096] * 9, [0] * 9)  # 17 accesses: past the (patched) int32 range
    assert t._hcount.dtype == np.int64 and sorted(t.counts.tolist()) == [1, 16]


def test_more_distinct_blocks_than_int32_ids_is_refused(monkeypatch):
    monkeypatch.setattr(bt, "_INT32_MAX", 5)
    t = bt.BlockTable(4096, what="the test's table")
    with pytest.raises(ValueError, match=r"the test's table: more than 5 distinct 4096-byte blocks .*--block-size"):
        t.add(np.arange(8) * 4096, [4096] * 8, [0] * 8)


def test_the_tables_hold_follows_its_bytes_through_growth_sampling_and_wide_counts():
    """A block table holds its own bytes (``hold``, what the streams sharing it name to the budget): equal to its
    ``state_bytes`` after every doubling, a downsampling and the switch to int64 counts; named as the table is."""
    t = bt.BlockTable(4096, what="the test table")
    assert t.hold.nbytes == t.state_bytes > 0 and t.hold.what == "the test table"
    rng = np.random.default_rng(3)
    for _ in range(5):
        t.add(rng.integers(0, 50_000, 2000) * 4096, np.full(2000, 4096), np.zeros(2000, int))
        assert t.hold.nbytes == t.state_bytes
    t.downsample("the test")
    assert t.hold.nbytes == t.state_bytes
    t._wide_counts()
    assert t._hcount.dtype == np.int64 and t.hold.nbytes == t.state_bytes
    t.what = "renamed"
    assert t.hold.what == "renamed"
