"""The streamed memory-extension role (models/planner/role_memext_stream.py, issue 41) gives exactly the
memory-extension rows of the in-memory plan (models/planner/role_memory.py:memory_rows), bands included, whatever
the chunk sizes of its two passes."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.budget import BudgetExceeded, limit
from models.devices import get_device
from models.planner.role_memext_stream import NO_SAMPLES, NOT_INT_SEED, MemExtRoleStream
from models.planner.role_memory import memory_rows
from models.planner.workloads import workload_from_path
from models.traces import load
from tests.models.planner.row_compare import row_differences, values_equal

DEVS = [get_device("pcm-samsung-20nm"), get_device("optane-dcpmm"), get_device("dram"), get_device("nand-flash")]
COLUMNS = ("address", "size", "kind")
UQ = (40, 3)


@functools.cache
def _trace():
    return load("lackey:numpy", max_requests=60_000)  # a slice of a bundled lackey recording


@functools.cache
def _in_memory(base: str | None, uq: bool) -> list:
    b = get_device(base) if base else None
    rows = memory_rows(workload_from_path("lackey:numpy"), _trace(), DEVS, b, UQ if uq else None, lambda: None)
    return [r for r in rows if r["role"] == "memory-extension"]


def _chunks(t, cuts):
    edges = sorted({0, len(t), *(c % (len(t) + 1) for c in cuts)})
    for a, b in zip(edges[:-1], edges[1:]):
        yield {k: getattr(t, k)[a:b] for k in COLUMNS}


def _streamed(base, uq, cuts1, cuts2, bands=None, rows_uq=None):
    t = _trace()
    b = get_device(base) if base else None
    s = MemExtRoleStream(DEVS, b, bands=(UQ if uq else False) if bands is None else bands)
    for c in _chunks(t, cuts1):
        s.first(c)
    s.end_first({"name": t.name})
    for c in _chunks(t, cuts2):
        s.second(c)
    return s, s.rows(workload_from_path("lackey:numpy"), t, DEVS, b, (UQ if uq else None) if rows_uq is None
                     else rows_uq)


@pytest.mark.parametrize("cuts", [[], [7_001, 14_002, 21_003, 40_000], [1, 2, 59_999]])
@pytest.mark.parametrize("base,uq", [(None, True), ("pcm-samsung-20nm", True), (None, False)])
def test_rows_equal_in_memory(base, uq, cuts):
    s, got = _streamed(base, uq, cuts, cuts[::-1][:2])
    assert row_differences(got, _in_memory(base, uq)) == []
    if uq:
        assert any(r.get("p_win") == r.get("p_win") for r in got)  # some band is a number (NaN != NaN)
    assert s.state_bytes > 0


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cuts1=st.lists(st.integers(0, 60_000), max_size=6), cuts2=st.lists(st.integers(0, 60_000), max_size=6))
def test_rows_equal_random_chunks(cuts1, cuts2):
    assert row_differences(_streamed(None, True, cuts1, cuts2)[1], _in_memory(None, True)) == []


def test_band_unknown_without_samples():
    """Built with bands=True (samples unknown before the second pass) or a Generator seed: the band says so."""
    want = _in_memory(None, True)
    for bands, rows_uq, why in ((True, UQ, NO_SAMPLES), ((40, np.random.default_rng(3)), None, NOT_INT_SEED)):
        _, got = _streamed(None, True, [20_000], [], bands=bands,
                           rows_uq=rows_uq or (40, np.random.default_rng(3)))
        for g, w in zip(got, want):
            assert values_equal(g["value"], w["value"])
            if w["decisive_input"] and not w["decisive_input"].startswith("not sampled") and w["verdict"] != \
                    "not applicable":
                assert math.isnan(g["p5"]) and g["decisive_input"] == f"not sampled: {why}"


def test_state_charged_to_the_budget():
    s, _ = _streamed(None, True, [], [])
    with limit(s.state_bytes // 2), pytest.raises(BudgetExceeded, match="memory-extension role"):
        _streamed(None, True, [], [])
