"""Issue 41 item 1: the file-cache and storage (replay) roles over a block trace taken chunk by chunk give the
in-memory rows -- counts exactly, times and means to floating-point summation order, the same reason text -- in
memory bounded by the distinct blocks, not by the trace's length."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.budget import BudgetExceeded, limit
from models.devices import get_device
from models.planner.replay import ReplayStream, fifo_response_ns, replay_mean_response_ns
from models.planner.role_file_cache import FileCacheStream, file_cache_rows
from models.planner.role_storage import StorageReplayStream, block_storage_rows
from models.planner.role_stream import RoleStream, trace_chunks
from models.planner.workloads import PlanWorkload
from models.sim.policies import LruStream, simulate_lru
from models.traces import BlockTrace, split_blocks
from models.traces.block_table import BlockTable

W = PlanWorkload(name="t", kind="block", source="mqsim:tpcc-small")
DEVS = [get_device(x) for x in ("pcm-samsung-20nm", "dram", "hdd-7200", "optane-dcpmm")]
BASES = [None, get_device("sata-ssd"), get_device("hdd-7200")]
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def traces(draw, max_n: int = 20):
    """Small block traces: reads and writes, requests of 1 byte to 3 blocks at any byte offset (spanning blocks),
    repeats, up to three devices, equal arrival times, sometimes a format without a read/write field."""
    n = draw(st.integers(1, max_n))
    gap = st.integers(0, 3_000_000)
    times = np.cumsum(draw(st.lists(gap, min_size=n, max_size=n)))
    off = draw(st.lists(st.integers(0, 24 * 4096), min_size=n, max_size=n))
    size = draw(st.lists(st.integers(1, 3 * 4096), min_size=n, max_size=n))
    w = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    dev = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    op_unknown = draw(st.integers(0, 5)) == 0
    if op_unknown:
        w = [False] * n
    repeat = draw(st.integers(1, 3))  # the requests again (reuse)
    return BlockTrace(np.concatenate([times + k * (int(times[-1]) + 1) for k in range(repeat)]), w * repeat,
                      off * repeat, size * repeat, dev * repeat, name="t", meta={"op_unknown": True} if op_unknown else {})


def _cuts_after_multiblock(tr) -> list[int]:
    """Chunk sizes that end a chunk right after each request spanning more than one 4 KiB block."""
    multi = np.flatnonzero((tr.offset_bytes + tr.size_bytes - 1) // 4096 > tr.offset_bytes // 4096)
    ends = sorted({int(i) + 1 for i in multi} | {len(tr)})
    return [b - a for a, b in zip([0, *ends[:-1]], ends)] or [len(tr)]


def _stream(stream, tr, sizes, origin: int = 123_456_789):
    """Both passes of the driver: the first on the reader's origin, the second shifted to the trace's start."""
    for c in trace_chunks(tr, sizes):
        stream.first({**c, "time_ns": c["time_ns"] + origin})
    stream.end_first(dict(tr.meta), origin + int(tr.time_ns.min()))
    for c in trace_chunks(tr, sizes):
        stream.second(c)
    return stream


def _meta_trace(tr):
    e = BlockTrace.empty(tr.name)
    return BlockTrace(e.time_ns, e.is_write, e.offset_bytes, e.size_bytes, e.device, name=tr.name, meta=dict(tr.meta))


def _same_rows(got, want) -> int:
    """Assert rows ``got`` and ``want`` equal field by field (floats to rtol 1e-12); the rows compared."""
    assert len(got) == len(want)
    for g, x in zip(got, want):
        assert g.keys() == x.keys()
        for k in x:
            a, b = g[k], x[k]
            if isinstance(b, dict):
                _same_rows([a], [b])
            elif isinstance(b, float) and not isinstance(b, bool):
                assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=0), k
            else:
                assert a == b, k
    return len(got)


def _sizes(draw_sizes, tr):
    return [max(1, min(s, len(tr))) for s in draw_sizes]


chunk_sizes = st.lists(st.integers(1, 40), min_size=1, max_size=3)


def _file_cache_case(tr, sizes, base, uq) -> int:
    """Assert the file-cache stream's rows equal the in-memory rows over three chunkings; the rows compared."""
    want = file_cache_rows(W, tr, DEVS, base, uq)
    compared = 0
    for sz in (_sizes(sizes, tr), [1], _cuts_after_multiblock(tr)):
        s = _stream(FileCacheStream(), tr, sz)
        assert isinstance(s, RoleStream)
        compared += _same_rows(s.rows(W, _meta_trace(tr), DEVS, base, uq), want)
    return compared


@FAST
@given(tr=traces(), sizes=chunk_sizes, base=st.sampled_from(BASES))
def test_file_cache_stream_rows_equal_the_in_memory_rows(tr, sizes, base):
    assert _file_cache_case(tr, sizes, base, None) == 3 * len(DEVS)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tr=traces(), sizes=chunk_sizes, base=st.sampled_from(BASES))
def test_file_cache_stream_bands_equal_the_in_memory_bands(tr, sizes, base):
    """The band reads only the hits and the accesses: the same draws, the same p5/p95/p_win."""
    assert _file_cache_case(tr, sizes, base, (50, 0)) == 3 * len(DEVS)


@FAST
@given(tr=traces(), sizes=chunk_sizes, base=st.sampled_from(BASES))
def test_storage_stream_rows_equal_the_in_memory_rows(tr, sizes, base):
    want = block_storage_rows(W, tr, DEVS, base, None)
    for sz in (_sizes(sizes, tr), [1], _cuts_after_multiblock(tr)):
        s = _stream(StorageReplayStream(DEVS, base), tr, sz)
        assert isinstance(s, RoleStream)
        _same_rows(s.rows(W, _meta_trace(tr), DEVS, base, None), want)


@FAST
@given(tr=traces(40), sizes=chunk_sizes)
def test_the_kernels_resumed_give_the_whole_trace_answer(tr, sizes):
    acc = split_blocks(tr)
    table = BlockTable()
    for c in trace_chunks(tr, sizes):
        table.add(c["offset_bytes"], c["size_bytes"], c["device"])
    assert table.n_unique == acc.n_unique and table.n_accesses == len(acc.block)
    assert np.array_equal(table.counts, np.bincount(acc.block))
    ids = np.concatenate([table.ids(c["offset_bytes"], c["size_bytes"], c["device"]) for c in trace_chunks(tr, sizes)])
    assert np.array_equal(ids, acc.block)  # split_blocks' numbering: first access first
    for cap in (1, max(1, acc.n_unique // 3), acc.n_unique + 2):
        lru = LruStream(acc.n_unique, cap)
        for c in trace_chunks(tr, sizes):
            lru.add(table.ids(c["offset_bytes"], c["size_bytes"], c["device"]))
        assert lru.result().hits == simulate_lru(acc.block, cap).hits
    for d in (get_device("hdd-7200"), get_device("sata-ssd")):
        rs = ReplayStream(d)
        for c in trace_chunks(tr, sizes):
            rs.add(c["time_ns"], c["is_write"], c["offset_bytes"], c["size_bytes"])
        assert rs.means() == pytest.approx(replay_mean_response_ns(tr, d), rel=1e-12)


def test_fifo_resumed_is_the_closed_form_bit_for_bit():
    g = np.random.default_rng(5)
    a, s = np.cumsum(g.exponential(10.0, 3000)), g.exponential(9.5, 3000)
    from models.planner.replay import fifo_response_chunk_ns

    parts, busy, peak = [], 0.0, -np.inf
    for i in range(0, 3000, 7):
        r, busy, peak = fifo_response_chunk_ns(a[i:i + 7], s[i:i + 7], busy, peak)
        parts.append(r)
    assert np.array_equal(np.concatenate(parts), fifo_response_ns(a, s))


def _repeating(k: int) -> BlockTrace:
    """The same 300 requests over 64 blocks, ``k`` times."""
    g = np.random.default_rng(7)
    off, size, w = g.integers(0, 64, 300) * 4096 + g.integers(0, 4096, 300), g.integers(1, 8192, 300), g.random(300) < .3
    t = np.arange(300 * k, dtype=np.int64) * 1000
    return BlockTrace(t, np.tile(w, k), np.tile(off, k), np.tile(size, k), np.zeros(300 * k, np.int32))


def test_state_memory_does_not_grow_with_the_trace_length():
    states = {}
    for k in (2, 60):
        tr = _repeating(k)
        with limit(200_000):  # far below what the whole trace or its block accesses would need
            fc = _stream(FileCacheStream(), tr, [97])
            sr = _stream(StorageReplayStream(DEVS, None), tr, [97])
            rows = fc.rows(W, _meta_trace(tr), DEVS, None, None) + sr.rows(W, _meta_trace(tr), DEVS, None, None)
        states[k] = (fc.state_bytes, sr.state_bytes)
        assert all(r["verdict"] for r in rows)
    assert states[2] == states[60]
    assert states[60][0] < 200_000


def test_over_the_budget_the_streams_sample_and_a_table_without_a_share_refuses_naming_the_state():
    """Issue 41: a stream whose exact per-block state passes the budget falls back to a SHARDS sample of the blocks
    and says so (``sampling``); a table given no share (never samples) refuses, naming the state."""
    tr = BlockTrace(np.arange(5000), np.zeros(5000, bool), np.arange(5000) * 4096, np.full(5000, 4096),
                    np.zeros(5000, np.int32))
    with limit(50_000):
        fc = _stream(FileCacheStream(), tr, [1000])
        sr = _stream(StorageReplayStream(DEVS, None), tr, [1000])
        rows = fc.rows(W, _meta_trace(tr), DEVS, None, None) + sr.rows(W, _meta_trace(tr), DEVS, None, None)
    for s in (fc, sr):
        smp = s.sampling
        assert smp is not None and 0 < smp["rate"] < 1 and "SHARDS" in smp["method"]
        assert "share of the run's memory budget" in smp["why"] and "plan_sampling_error.csv" in smp["error"]
        assert s.state_bytes <= 50_000
    assert all(r["verdict"] for r in rows)
    t = BlockTable(4096, what="the file cache's per-block state")  # share None: exact or refused
    with limit(50_000), pytest.raises(BudgetExceeded, match="file cache's per-block state"):
        t.add(np.arange(5000) * 4096, np.full(5000, 4096), np.zeros(5000))


def test_the_storage_stream_needs_its_devices_and_refuses_others():
    tr = _repeating(1)
    with pytest.raises(RuntimeError, match="needs the devices"):
        _stream(StorageReplayStream(), tr, [50])
    s = _stream(StorageReplayStream(DEVS, None), tr, [50])
    with pytest.raises(ValueError, match="other devices"):
        s.rows(W, _meta_trace(tr), DEVS[:2], None, None)


def test_large_requests_give_the_in_memory_footprint_and_rows():
    """Requests of thousands of blocks: the in-memory storage role takes the footprint from the extents' union
    (:mod:`models.traces.extents`), the stream from its block table -- the same count; one chunk per request."""
    g = np.random.default_rng(11)
    n = 12
    tr = BlockTrace(np.arange(n) * 10**6, g.random(n) < 0.5, g.integers(0, 3000, n) * 4096 + g.integers(0, 4096, n),
                    g.integers(1000, 3000, n) * 4096, g.integers(0, 2, n), name="big")
    for sizes in ([1], [5]):
        assert _same_rows(_stream(StorageReplayStream(DEVS, None), tr, sizes).rows(W, _meta_trace(tr), DEVS, None,
                                                                                   None),
                          block_storage_rows(W, tr, DEVS, None, None)) == len(DEVS)
        assert _same_rows(_stream(FileCacheStream(), tr, sizes).rows(W, _meta_trace(tr), DEVS, None, None),
                          file_cache_rows(W, tr, DEVS, None, None)) == len(DEVS)
