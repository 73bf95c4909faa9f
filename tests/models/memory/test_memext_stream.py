"""The memory extension over a memory trace in chunks (issue 41): exactly simulate_memext over the whole trace."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.budget import BudgetExceeded, limit
from models.devices import get_device
from models.memory.memext_stream import MemExtStream
from models.memory.memory_extension import MemExtConfig, page_stream, simulate_memext
from models.planner.memory_read import read_memory_trace

RUNS = {
    "default-pcm": (MemExtConfig(), None),
    "default-flash": (MemExtConfig(), get_device("nand-flash")),
    "prefetch": (MemExtConfig(prefetch_depth=4, policy="clock", dram_frac=0.125), None),
    "age-excl-sync": (MemExtConfig(policy="age", accounting="exclusive", writeback="sync"), None),
    "fifo-unbounded": (MemExtConfig(eviction_buffer_pages=None), get_device("nand-flash")),
}


@pytest.fixture(scope="module")
def trace():
    tr, _ = read_memory_trace("lackey:sqlite", 60_000)
    return tr


def _chunks(tr, sizes):
    out, i, k = [], 0, 0
    while i < len(tr):
        j = min(len(tr), i + sizes[k % len(sizes)])
        out.append({"address": tr.address[i:j], "size": tr.size[i:j], "kind": tr.kind[i:j]})
        i, k = j, k + 1
    return out


def _run(chunks, runs=RUNS, **kw):
    s = MemExtStream(runs, **kw)
    for c in chunks:
        s.first(c)
    s.end_first({})
    for c in chunks:
        s.second(c)
    return s


@pytest.mark.parametrize("sizes", [[60_000], [7_001], [1, 5_000, 333, 12_345]])
def test_equals_whole_trace(trace, sizes):
    s = _run(_chunks(trace, sizes))
    whole = page_stream(trace)
    np.testing.assert_array_equal(s.vpn, whole.vpn)
    got = s.results()
    for k, (cfg, dev) in RUNS.items():
        assert got[k] == simulate_memext(whole, cfg, device=dev), k


@settings(max_examples=15, deadline=None)
@given(sizes=st.lists(st.integers(1, 3000), min_size=1, max_size=5), start=st.integers(0, 50_000),
       instructions=st.booleans())
def test_random_chunks(trace, sizes, start, instructions):
    tr = trace.subset(slice(start, start + 6000))
    runs = {"p": (MemExtConfig(prefetch_depth=2, dram_frac=0.0625), None), "d": RUNS["default-flash"]}
    if not (instructions or (tr.kind != 0).any()):
        return
    s = _run(_chunks(tr, sizes), runs, include_instructions=instructions)
    whole = page_stream(tr, include_instructions=instructions)
    for k, (cfg, dev) in runs.items():
        assert s.results()[k] == simulate_memext(whole, cfg, device=dev)


def test_changed_trace_and_empty_refused(trace):
    chunks = _chunks(trace.subset(slice(0, 2000)), [500])
    s = MemExtStream({"a": (MemExtConfig(), None)})
    for c in chunks[:2]:
        s.first(c)
    s.end_first({})
    with pytest.raises(ValueError, match="changed between the passes"):
        for c in chunks:
            s.second(c)
    s = MemExtStream({"a": (MemExtConfig(), None)})
    s.first({"address": np.array([4096], np.uint64), "size": np.array([8]), "kind": np.array([0], np.uint8)})
    with pytest.raises(ValueError, match="no memory references"):
        s.end_first({})


def test_state_charged_to_the_budget(trace):
    chunks = _chunks(trace, [20_000])
    s = _run(chunks)
    assert s.state_bytes >= s.footprint_pages * 8
    with limit(s.state_bytes // 2), pytest.raises(BudgetExceeded, match="memory extension's state"):
        _run(chunks)
