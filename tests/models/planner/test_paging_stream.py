"""The streamed paging role (models/planner/role_paging_stream.py, issue 41) gives exactly the paging rows of the
in-memory plan (models/planner/role_memory.py:memory_rows), whatever the chunk sizes of its two passes; its state
follows the distinct pages and is charged to the run's budget."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.budget import BudgetExceeded, limit
from models.devices import get_device
from models.memory.paging import PagingInputs, paging_profile
from models.memory.paging_stream import PagingStream
from models.planner.role_memory import memory_rows
from models.planner.role_paging_stream import PagingRoleStream
from models.planner.workloads import workload_from_path
from models.traces import load
from models.traces.core import MemTrace
from models.traces.synthetic import mem_trace
from tests.models.planner.row_compare import row_differences

DEVS = [get_device("pcm-samsung-20nm"), get_device("optane-dcpmm"), get_device("dram")]
COLUMNS = ("address", "size", "kind")


@functools.cache
def _trace(which: str) -> MemTrace:
    if which == "bundled":
        return load("lackey:numpy", max_requests=60_000)  # a slice of a bundled lackey recording
    return mem_trace(40_000, data_bytes=2 << 20, seed=7)  # 60 % instruction fetches


@functools.cache
def _in_memory(which: str, base: str | None, uq: bool) -> list:
    w = workload_from_path("lackey:numpy")
    b = get_device(base) if base else None
    rows = memory_rows(w, _trace(which), DEVS, b, (40, 3) if uq else None, lambda: None)
    return [r for r in rows if r["role"] == "paging"]


def _chunks(t: MemTrace, cuts: list[int]):
    edges = sorted({0, len(t), *(c % (len(t) + 1) for c in cuts)})
    for a, b in zip(edges[:-1], edges[1:]):
        yield {k: getattr(t, k)[a:b] for k in COLUMNS}


def _streamed(which: str, base: str | None, uq: bool, cuts1, cuts2) -> list:
    t = _trace(which)
    b = get_device(base) if base else None
    s = PagingRoleStream(DEVS, b, bands=uq)
    for c in _chunks(t, cuts1):
        s.first(c)
    s.end_first({})
    for c in _chunks(t, cuts2):
        s.second(c)
    return s.rows(workload_from_path("lackey:numpy"), t, DEVS, b, (40, 3) if uq else None)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.sampled_from(["bundled", "synthetic"]),
       cuts1=st.lists(st.integers(0, 10**6), max_size=12), cuts2=st.lists(st.integers(0, 10**6), max_size=12),
       base=st.sampled_from([None, "sata-ssd"]))
def test_streamed_paging_rows_are_the_in_memory_rows(which, cuts1, cuts2, base):
    assert row_differences(_streamed(which, base, False, cuts1, cuts2), _in_memory(which, base, False)) == []


def test_streamed_paging_rows_with_bands_are_the_in_memory_rows():
    got = _streamed("bundled", None, True, [5000, 17_000], [1, 30_001])
    assert row_differences(got, _in_memory("bundled", None, True)) == []


@settings(max_examples=30, deadline=None)
@given(ids=st.lists(st.integers(0, 40), min_size=1, max_size=300), frac=st.sampled_from([0.05, 0.3, 0.5, 0.9, 1.0]),
       cut=st.integers(1, 50), kinds=st.lists(st.integers(0, 3), min_size=1, max_size=300))
def test_the_profile_is_the_whole_traces_on_small_traces(ids, frac, cut, kinds):
    """Stack distances past the Fenwick tree's renumbering, CLOCK with 0 frames or all pages: as in memory."""
    addr = np.array(ids, np.uint64) * np.uint64(4096) + np.uint64(8)
    kind = np.resize(np.array(kinds, np.uint8), len(addr))
    if not (kind != 0).any():
        kind[0] = 1
    t = MemTrace(addr, np.full(len(addr), 8), kind)
    s = PagingStream(frac)
    for i in range(0, len(t), cut):
        s.first({k: getattr(t, k)[i:i + cut] for k in COLUMNS})
    s.end_first()
    for i in range(0, len(t), cut + 3):
        s.second({k: getattr(t, k)[i:i + cut + 3] for k in COLUMNS})
    got = s.profile()
    want = paging_profile(t, PagingInputs(page_sizes_bytes=(4096,), memory_fraction=(frac,)))
    np.testing.assert_array_equal(got.pages[4096].lru_hits, want.pages[4096].lru_hits)
    assert got.pages[4096].clock_faults == want.pages[4096].clock_faults
    assert (got.n_refs, got.pages[4096].footprint_pages, got.reference_footprint) == \
        (want.n_refs, want.pages[4096].footprint_pages, want.reference_footprint)


def test_the_int64_arrays_of_a_huge_footprint_give_the_same_profile(monkeypatch):
    """Past 2**31 positions the second pass's arrays are int64: the same kernels, the same profile."""
    import models.memory.paging_stream as ps

    monkeypatch.setattr(ps, "_position_dtype", lambda positions: np.int64)
    t = mem_trace(20_000, data_bytes=1 << 20, seed=3)
    s = PagingStream(0.3)
    for i in range(0, len(t), 4000):
        s.first({k: getattr(t, k)[i:i + 4000] for k in COLUMNS})
    s.end_first()
    assert s._second_arrays[0].dtype == np.int64
    for i in range(0, len(t), 6000):
        s.second({k: getattr(t, k)[i:i + 6000] for k in COLUMNS})
    got, want = s.profile(), paging_profile(t, PagingInputs(page_sizes_bytes=(4096,), memory_fraction=(0.3,)))
    np.testing.assert_array_equal(got.pages[4096].lru_hits, want.pages[4096].lru_hits)
    assert got.pages[4096].clock_faults == want.pages[4096].clock_faults


def test_the_state_follows_the_pages_and_is_charged():
    t = _trace("synthetic")
    s = PagingStream(0.5)
    s.first({k: getattr(t, k) for k in COLUMNS})
    s.end_first()
    assert s.state_bytes < 200 * s.pages + 64 * 1024  # per distinct page, not per reference
    many = {"address": np.arange(20_000, dtype=np.uint64) << np.uint64(12), "size": np.full(20_000, 8, np.uint16),
            "kind": np.ones(20_000, np.uint8)}
    with limit(200_000):
        big = PagingStream(0.5)
        with pytest.raises(BudgetExceeded, match="page table, 4,096 distinct 4 KiB pages so far"):
            big.first(many)


def test_only_instruction_fetches_is_refused_as_in_memory():
    s = PagingStream(0.5)
    c = {"address": np.array([4096], np.uint64), "size": np.array([4], np.uint16), "kind": np.array([0], np.uint8)}
    s.first(c)
    s.end_first()
    s.second(c)
    with pytest.raises(ValueError, match="no data references"):
        s.profile()
