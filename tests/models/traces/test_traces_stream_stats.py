"""Streamed trace statistics equal the in-memory ones exactly, whatever the block boundaries."""

from __future__ import annotations

import dataclasses
import math
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.traces import stream_stats
from models.traces.core import BlockTrace
from models.traces.formats.oracle import write_oracle_general
from models.traces.readers import read_trace
from models.traces.stats import trace_stats
from models.traces.stream_stats import (
    StatsStream,
    ValueCounts,
    percentile_of_counts,
    stream_trace_stats,
)


def _same(a, b) -> bool:
    """Every field of two TraceStats equal (an AssertionError naming the first that differs); True."""
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if hasattr(x, "equals"):
            assert x.reset_index(drop=True).equals(y.reset_index(drop=True)), f.name
        elif isinstance(x, float) and math.isnan(x):
            assert isinstance(y, float) and math.isnan(y), f.name
        else:
            assert x == y and type(x) is type(y), (f.name, x, y)
    return True


def _trace(seed: int, n: int) -> BlockTrace:
    rng = np.random.default_rng(seed)
    off = rng.integers(0, 64, n) * 2048 + rng.integers(0, 2, n) * 512  # unaligned: requests span blocks
    size = rng.choice([512, 4096, 6144, 16384], n)
    return BlockTrace(np.cumsum(rng.integers(0, 5000, n)), rng.random(n) < 0.4, off, size, rng.integers(0, 2, n))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 300), cuts=st.lists(st.integers(1, 299), max_size=8),
       block_size=st.sampled_from([512, 4096, 8192]))
def test_streamed_equals_in_memory_over_random_cuts(seed, n, cuts, block_size):
    t = _trace(seed, n)
    acc = StatsStream(block_size)
    edges = [0, *sorted({c for c in cuts if c < n}), n]
    for a, b in zip(edges[:-1], edges[1:]):
        acc.add(t.time_ns[a:b], t.is_write[a:b], t.offset_bytes[a:b], t.size_bytes[a:b], t.device[a:b])
    assert _same(acc.result(t.name), trace_stats(t, block_size))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 300), slice_accesses=st.integers(1, 50))
def test_slices_of_block_accesses_do_not_change_the_result(seed, n, slice_accesses):
    """Requests are expanded in slices of at most SLICE_ACCESSES block accesses (or one request): any slice size
    gives the in-memory statistics exactly."""
    import models.traces.stream_stats as ss

    t = _trace(seed, n)
    old = ss.SLICE_ACCESSES
    ss.SLICE_ACCESSES = slice_accesses
    try:
        acc = StatsStream(4096)
        acc.add(t.time_ns, t.is_write, t.offset_bytes, t.size_bytes, t.device)
    finally:
        ss.SLICE_ACCESSES = old
    assert _same(acc.result(t.name), trace_stats(t, 4096))


def test_the_state_is_charged_to_the_memory_budget():
    """200,000 requests of 2 MiB (102 M distinct blocks, ~4 GB of state; below the extent path's mean request
    size, models.traces.extents) are refused under a 1 GB budget by name, before the state grows past it."""
    from models.budget import BudgetExceeded, limit

    n = 200_000
    acc = StatsStream(4096)
    with limit("1GB"), pytest.raises(BudgetExceeded, match="per-block state .* --memory-budget"):
        acc.add(np.arange(n), np.ones(n, bool), np.arange(n) * 2**21, np.full(n, 2**21), np.zeros(n, np.int64))
    assert acc.state_bytes < 1e9


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), chunk=st.integers(1, 400))
def test_streamed_file_equals_in_memory_for_text_block_splits_inside_lines(seed, chunk):
    # MQSim lines of multi-block requests; text blocks of `chunk` bytes cut the lines anywhere
    rng = np.random.default_rng(seed)
    n = 60
    lines = [f"{i * 1000} {int(rng.integers(0, 2))} {int(rng.integers(0, 200))} {int(rng.choice([1, 9, 24]))} "
             f"{int(rng.integers(0, 2))}" for i in range(n)]
    data = ("\n".join(lines) + "\n").encode()
    batch = stream_stats.BATCH_REQUESTS
    stream_stats.BATCH_REQUESTS = 7  # blocks gathered in small batches: the state carried across many
    try:
        streamed, meta = stream_trace_stats(data, 4096, format="mqsim", chunk_bytes=chunk)
    finally:
        stream_stats.BATCH_REQUESTS = batch
    whole = read_trace(data, "mqsim")
    assert _same(streamed, trace_stats(whole, 4096))
    assert meta["format"] == "mqsim"


def test_streamed_objects_are_placed_as_in_memory(tmp_path):
    rng = np.random.default_rng(3)
    n = 5000
    p = tmp_path / "t.oracleGeneral"
    p.write_bytes(write_oracle_general(np.arange(n) // 10, rng.integers(0, 700, n), rng.integers(1, 9000, n)))
    streamed, _ = stream_trace_stats(p, 4096, chunk_bytes=24 * 37)
    whole = read_trace(p)
    assert _same(streamed, trace_stats(whole, 4096))
    assert streamed.operation == "unknown"


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=60), st.floats(0, 100))
def test_percentile_of_counts_is_numpy_bit_for_bit(xs, q):
    v, c = np.unique(np.array(xs, np.int64), return_counts=True)
    assert percentile_of_counts(v, c, q) == float(np.percentile(np.array(xs, np.int64), q))


def test_outgrown_tables_become_a_histogram_and_say_so():
    vc = ValueCounts(max_entries=10)
    vc.add(np.arange(1000, 5000, 3))
    assert not vc.exact and len(vc.values) <= 4000
    exact = np.percentile(np.arange(1000, 5000, 3), 50)
    assert abs(vc.percentile(50) - exact) / exact < 2**-11
    t = _trace(1, 2000)
    acc = StatsStream(4096, max_value_entries=50)
    acc.add(t.time_ns, t.is_write, t.offset_bytes, t.size_bytes, t.device)
    s = acc.result("x")
    assert "histogram" in s.percentiles and "reuse time" in s.percentiles
    assert s.reuses == trace_stats(t).reuses  # counts stay exact


def test_a_huge_request_is_refused_by_name():
    acc = StatsStream(4096)
    n = 3000  # one request of 2**21 blocks among small ones: a mean below the extent path's (streamed per block)
    size = np.full(n, 4096)
    size[7] = 1 << 33
    with pytest.raises(ValueError, match="max_request_blocks"):
        acc.add(np.arange(n), np.ones(n, bool), np.zeros(n, np.int64), size, np.zeros(n, np.int64))


@pytest.mark.parametrize("fmt, data", [
    # found by bench/fuzz.py (streamed vs in-memory): the text object formats streamed every object at offset 0
    ("txt", b"7\n9\n7\n11\n"),
    ("twitter", b"0,abc,3,100,1,get,0\n0,xyz,3,20,1,set,3600\n2,abc,3,100,2,gets,0\n3,k3,2,9000,2,get,0\n"),
    # ... and vscsi ignored the streaming consumer ("the trace has no requests")
    ("vscsi", struct.pack("<HHIIIQQQ", 0x28, 2 << 8, 0, 4096, 1, 8, 10, 5)
     + struct.pack("<HHIIIQQQ", 0x2A, 2 << 8, 1, 8192, 1, 2**20, 20, 7)
     + struct.pack("<HHIIIQQQ", 0x28, 2 << 8, 2, 512, 1, 8, 30, 7)),
])
@pytest.mark.parametrize("chunk", [1, 40, 1 << 20])
def test_streamed_text_objects_and_vscsi_equal_in_memory(fmt, data, chunk):
    streamed, meta = stream_trace_stats(data, 4096, format=fmt, chunk_bytes=chunk)
    whole = read_trace(data, fmt)
    assert _same(streamed, trace_stats(whole, 4096))
    assert streamed.footprint_blocks == {"txt": 3, "twitter": 5, "vscsi": 3}[fmt]  # twitter: 9,002 bytes = 3 blocks
    if fmt != "vscsi":
        assert meta["n_objects"] == whole.meta["n_objects"]
