"""Streaming plumbing of issue 41: sampled per-block statistics when the exact state outgrows the memory budget,
text read block by block charged per block, blocks read ahead in a thread, objects placed by a hash table."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.budget import BudgetExceeded, limit
from models.traces.chunks import chunk_sink
from models.traces.core import BlockTrace
from models.traces.formats.objects import ObjectSlots, place_objects
from models.traces.prefetch import prefetched
from models.traces.readers import read_trace
from models.traces.stats import trace_stats
from models.traces.stream_stats import StatsStream, stream_trace_stats


def _trace(seed: int, n: int) -> BlockTrace:
    rng = np.random.default_rng(seed)
    off = rng.integers(0, 4000, n) * 2048 + rng.integers(0, 2, n) * 512  # unaligned: requests span blocks
    size = rng.choice([512, 4096, 6144, 16384, 65536], n)
    return BlockTrace(np.cumsum(rng.integers(0, 5000, n)), rng.random(n) < 0.4, off, size, rng.integers(0, 3, n))


def _fields(s) -> dict:
    out = {}
    for f in dataclasses.fields(s):
        x = getattr(s, f.name)
        if hasattr(x, "to_dict"):  # a table: NaN cells compared as text (NaN != NaN)
            out[f.name] = x.astype(object).where(x.notna(), "nan").to_dict("list")
        else:
            out[f.name] = "nan" if isinstance(x, float) and math.isnan(x) else x
    return out


def _stream(t: BlockTrace, edges, rate: float) -> dict:
    acc = StatsStream(4096, sample_rate=rate)
    for a, b in zip(edges[:-1], edges[1:]):
        acc.add(t.time_ns[a:b], t.is_write[a:b], t.offset_bytes[a:b], t.size_bytes[a:b], t.device[a:b])
    return _fields(acc.result(t.name))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 400), cuts=st.lists(st.integers(1, 399), max_size=8),
       rate=st.sampled_from([0.5, 0.25, 1 / 16]))
def test_a_sample_does_not_depend_on_the_chunks(seed, n, cuts, rate):
    """The sample is a fixed hash of each (device, block) key: any chunking of the requests (boundaries inside
    multi-block requests included) gives the same sampled statistics as one piece."""
    t = _trace(seed, n)
    edges = [0, *sorted({c for c in cuts if c < n}), n]
    assert _stream(t, edges, rate) == _stream(t, [0, n], rate)


def test_rate_one_is_the_exact_statistics_and_a_sample_estimates_them():
    t = _trace(5, 40_000)
    exact = trace_stats(t, 4096)
    assert _stream(t, [0, 17_000, 40_000], 1.0) == _fields(exact)
    s = _stream(t, [0, 40_000], 0.25)
    assert s["percentiles"].startswith("sampled:") and "rate 0.25" in s["percentiles"]
    for k in ("requests", "writes", "bytes_written", "block_accesses", "size_p50_bytes", "mean_lbn_distance_sectors"):
        assert s[k] == _fields(exact)[k], k  # per-request statistics stay exact
    assert s["footprint_blocks"] != exact.footprint_blocks or s["reuses"] != exact.reuses  # estimated, not copied
    assert abs(s["footprint_blocks"] / exact.footprint_blocks - 1) < 0.05


def test_over_budget_state_falls_back_to_a_named_sample(tmp_path):
    """Under a budget the exact per-block state outgrows, the statistics are sampled and say so (method and rate);
    with room they are exact. An explicit rate of 1 is refused by the budget, naming the option."""
    rng = np.random.default_rng(9)
    n = 60_000  # small requests over a wide range: the state (distinct blocks) outgrows a pass by far
    t = BlockTrace(np.arange(n) * 1000, rng.random(n) < 0.4, rng.integers(0, 10**6, n) * 4096,
                   rng.choice([512, 4096], n), rng.integers(0, 2, n))
    p = tmp_path / "t.csv"
    p.write_text("".join(f"{int(a)},h,{int(d)},{'Write' if w else 'Read'},{int(o)},{int(s)},1\n"
                         for a, d, w, o, s in zip(t.time_ns, t.device, t.is_write, t.offset_bytes, t.size_bytes)))
    full, _ = stream_trace_stats(str(p), 4096, format="msr")
    assert full.percentiles == "exact"
    import models.traces.stream_stats as ss

    old = ss.BATCH_REQUESTS
    ss.BATCH_REQUESTS = 200  # small passes, so the state grows past the budget part way through
    try:
        with limit(ss.STATE_BYTES_PER_BLOCK * full.footprint_blocks * 6 // 10):
            part, _ = stream_trace_stats(str(p), 4096, format="msr", chunk_bytes=16 << 10)
            with pytest.raises(BudgetExceeded, match="per-block state .*--memory-budget"):
                stream_trace_stats(str(p), 4096, format="msr", sample_rate=1.0, chunk_bytes=16 << 10)
    finally:
        ss.BATCH_REQUESTS = old
    assert part.percentiles.startswith("sampled:") and "memory-budget" in part.percentiles
    assert part.requests == full.requests and part.bytes_written == full.bytes_written
    assert abs(part.footprint_blocks / full.footprint_blocks - 1) < 0.1


def test_streamed_text_is_charged_per_block_not_in_total(tmp_path):
    """A text trace of more than twice the budget streams (each block charged alone); read whole it is refused."""
    line = b"128166372003061629,hm,1,Read,4096,512,10\n"
    p = tmp_path / "t.csv"
    p.write_bytes(line * 50_000)  # 2.1 MB of text
    n = [0]
    with limit("600kB"):
        with chunk_sink(lambda cols: n.__setitem__(0, n[0] + len(cols["time_ns"]))):
            read_trace(str(p), "msr", chunk_bytes=64 << 10)
        with pytest.raises(BudgetExceeded, match="--memory-budget"):  # kept whole: the text or its rows
            read_trace(str(p), "msr", chunk_bytes=64 << 10)
    assert n[0] == 50_000


def test_read_ahead_keeps_order_errors_and_stops_when_closed():
    import threading

    produced = []

    def items():
        for i in range(1000):
            produced.append(i)
            yield i

    g = prefetched(items(), depth=2)
    assert [next(g) for _ in range(3)] == [0, 1, 2]
    g.close()  # the consumer stops early (max_requests reached): the thread ends, having read at most a few more
    assert len(produced) <= 3 + 2 + 2
    assert not any(t.name == "trace-prefetch" and t.is_alive() for t in threading.enumerate())

    def bad():
        yield "block 1"
        raise ValueError("msr: line 7: bad")

    got = []
    with pytest.raises(ValueError, match="line 7"):
        for x in prefetched(bad()):
            got.append(x)
    assert got == ["block 1"]  # the block before the error is parsed first, as without reading ahead


def test_read_ahead_carries_the_callers_memory_budget():
    from models.budget import budget_bytes

    def items():
        yield budget_bytes()

    with limit("123kB"):
        assert list(prefetched(items())) == [123_000]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 3000), cuts=st.lists(st.integers(1, 2999), max_size=10),
       spread=st.sampled_from([1, 5, 1000, 2**64 - 1]))
def test_objects_hashed_across_chunks_are_placed_as_in_memory(seed, n, cuts, spread):
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, spread, n, dtype=np.uint64, endpoint=True)
    t = BlockTrace(np.arange(n), np.zeros(n, bool), np.zeros(n, np.int64), np.ones(n, np.int64),
                   np.zeros(n, np.int32), meta={"object_id": ids})
    whole = place_objects(t, "x")
    slots = ObjectSlots("x")
    edges = [0, *sorted({c for c in cuts if c < n}), n]
    got = [slots.place({"meta:object_id": ids[a:b], "size_bytes": np.ones(b - a, np.int64)})["offset_bytes"]
           for a, b in zip(edges[:-1], edges[1:])]
    assert np.array_equal(np.concatenate(got), whole.offset_bytes)
    assert slots.n_objects == whole.meta["n_objects"]
