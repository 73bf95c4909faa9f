"""Large requests as extents (issue 42 item 2): every quantity equals the block-by-block expansion's."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models import budget
from models.sim.primitives import access_bytes
from models.sim.stack_distance import hit_ratio_curve, stack_distances
from models.traces import stats
from models.traces.blocks import split_blocks
from models.traces.core import BlockTrace
from models.traces.extent_mrc import extent_hit_ratio_curve
from models.traces.extents import extent_pieces, use_extents
from models.traces.stats import reuse_distances, trace_stats
from models.traces.stream_stats import LargeExtents, StatsStream


@st.composite
def traces(draw):
    """Small traces whose requests overlap: byte offsets and sizes over a few blocks, one or two devices."""
    n = draw(st.integers(1, 25))
    off = draw(st.lists(st.integers(0, 40 * 512 + 511), min_size=n, max_size=n))
    size = draw(st.lists(st.integers(1, 24 * 512), min_size=n, max_size=n))
    dev = draw(st.lists(st.integers(0, draw(st.integers(0, 2))), min_size=n, max_size=n))
    gaps = draw(st.lists(st.integers(0, 50), min_size=n, max_size=n))
    write = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return BlockTrace(np.cumsum(gaps), write, off, size, dev)


block_sizes = st.sampled_from([512, 1024, 4096])


@settings(max_examples=300, deadline=None)
@given(traces(), block_sizes, st.booleans())
def test_pieces_equal_the_block_expansion(t, bs, per_device):
    acc = split_blocks(t, bs, per_device=per_device)
    p = extent_pieces(t, bs, per_device=per_device)
    assert np.array_equal(np.repeat(p.stack_distance, p.length), stack_distances(acc.block))
    ra = np.repeat(p.reuse_accesses, p.length)
    d, _ = reuse_distances(acc.block)
    assert np.array_equal(ra[ra >= 0], d)
    assert np.array_equal(np.repeat(p.request, p.length), acc.request)
    assert np.array_equal(np.concatenate([np.arange(o, o + m) for o, m in zip(p.offset, p.length)]) +
                          np.repeat((t.offset_bytes // bs)[p.request], p.length), acc.lbn)
    assert p.footprint_blocks == acc.n_unique and p.accesses == len(acc)
    per_block = np.bincount(acc.block)
    assert np.array_equal(np.sort(np.repeat(p.final_count, p.final_length)), np.sort(per_block))


@settings(max_examples=300, deadline=None)
@given(traces(), block_sizes, st.lists(st.integers(0, 400), min_size=1, max_size=6))
def test_extent_curve_equals_the_exact_curve(t, bs, sizes):
    acc = split_blocks(t, bs)
    w = access_bytes(t, acc)
    for s in (None, sizes):
        a = hit_ratio_curve(acc.block, weights=w, sizes=s)
        b = extent_hit_ratio_curve(t, bs, sizes=s)
        for f in ("cache_blocks", "hit_ratio", "byte_hit_ratio", "hits"):
            assert np.array_equal(getattr(a, f), getattr(b, f)), f
        assert (a.requests, a.footprint_blocks) == (b.requests, b.footprint_blocks)
    a = hit_ratio_curve(acc.block, sizes=sizes)  # no weights: byte hit ratio = hit ratio
    b = extent_hit_ratio_curve(t, bs, sizes=sizes, byte_weights=False, pieces=extent_pieces(t, bs))
    assert np.array_equal(a.byte_hit_ratio, b.byte_hit_ratio) and np.array_equal(a.hits, b.hits)


@settings(max_examples=300, deadline=None)
@given(traces(), block_sizes)
def test_extent_statistics_equal_the_split(t, bs):
    a, b = stats._split_block_fields(t, bs), stats._extent_block_fields(t, bs)
    assert a.keys() == b.keys()
    for k in a:
        if k == "reuse_count_hist":
            pd.testing.assert_frame_equal(a[k], b[k], check_exact=True)
        else:
            assert a[k] == b[k] or (a[k] != a[k] and b[k] != b[k]), k  # equal, or both NaN


def test_the_proof_example():
    # blocks 0 1 2 3 | 2 | 0 1 2 3: distances of the last four accesses 3, 3, 2, 3 (distinct others since)
    t = BlockTrace([0, 1, 2], [False] * 3, [0, 8192, 0], [16384, 4096, 16384], [0, 0, 0])
    p = extent_pieces(t, 4096)
    assert np.repeat(p.stack_distance, p.length).tolist() == [-1, -1, -1, -1, 1, 3, 3, 2, 3]


def test_95_requests_of_4_gib_are_95_pieces():
    """The issue's trace: 99.6 M block accesses, answered from 95 pieces within a small budget."""
    t = BlockTrace(np.arange(95), np.zeros(95, bool), np.arange(95) * 2**32, np.full(95, 2**32), np.zeros(95))
    with budget.limit("100MB"):
        assert use_extents(t, 4096, 40)
        s = trace_stats(t, 4096)
        c = extent_hit_ratio_curve(t, 4096, sizes=[1, 2**20, 2**30])
    assert (s.footprint_blocks, s.block_accesses, s.reuses) == (95 << 20, 95 << 20, 0)
    assert c.hits.tolist() == [0, 0, 0] and c.footprint_blocks == 95 << 20
    with budget.limit("100MB"), pytest.raises(budget.BudgetExceeded, match="--points or --sizes"):
        extent_hit_ratio_curve(t, 4096)  # every size 1..99.6 M: refused, naming what asks for fewer


def test_reused_extents_hit_exactly():
    # the same 4 GiB twice: the second pass hits at the footprint, misses one block short of it
    t = BlockTrace([0, 1], [False, False], [0, 0], [2**32, 2**32], [0, 0])
    c = extent_hit_ratio_curve(t, 4096, sizes=[2**20 - 1, 2**20])
    assert c.hits.tolist() == [0, 2**20] and c.requests == 2**21


def test_stream_hands_large_requests_to_the_extent_path():
    s = StatsStream(4096)
    with pytest.raises(LargeExtents):
        s.add([0], [False], [0], [2**32], [0])
    assert s.n == 0  # nothing counted before handing over


def test_byte_weights_near_the_top_of_the_int64_range():
    # pieces past 2**62 bytes are weighed in Python ints (a block's round-up must not wrap): equal to the split
    top = 2**62 + 1000
    t = BlockTrace([0, 1, 2], [False] * 3, [top, top + 5000, top], [3 * 4096, 4096, 3 * 4096], [0, 0, 0])
    acc = split_blocks(t, 4096)
    a = hit_ratio_curve(acc.block, weights=access_bytes(t, acc))
    b = extent_hit_ratio_curve(t, 4096)
    assert np.array_equal(a.byte_hit_ratio, b.byte_hit_ratio) and np.array_equal(a.hits, b.hits)
