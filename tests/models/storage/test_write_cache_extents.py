"""Issue 42 item 2: the write cache without a cache (``policy="none"``) runs per request, not per 4 KiB block,
and equals the block cut field by field; HALO and LRU keep the cut and the budget's refusal names why."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.budget import BudgetExceeded, limit
from models.storage.write_cache import (
    footprint_bytes,
    prepare_requests,
    run_write_cache,
    sweep_cache_sizes,
    sweep_sizes_mb,
)
from models.traces.core import BlockTrace

SECTOR = 512


@st.composite
def traces(draw):
    """Small traces: unaligned offsets and sizes up to 40 blocks (larger than the caches used), overlapping
    requests, reads and writes mixed, one or two devices."""
    n = draw(st.integers(1, 12))
    rows = draw(st.lists(st.tuples(st.integers(0, 300), st.integers(1, 320), st.booleans(), st.integers(0, 1)),
                         min_size=n, max_size=n))
    return BlockTrace(list(range(n)), [w for _, _, w, _ in rows], [o * SECTOR for o, _, _, _ in rows],
                      [s * SECTOR for _, s, _, _ in rows], [d for _, _, _, d in rows])


def _fields(r):
    return {f.name: getattr(r, f.name) for f in dataclasses.fields(r)}


@settings(max_examples=150, deadline=None)
@given(traces(), st.sampled_from(["hdd-7200", "dec_rz26"]), st.sampled_from(["positioned", "expected"]))
def test_none_per_request_equals_the_block_cut(trace, drive, rotation):
    ext = run_write_cache(trace, "none", 1.0, drive=drive, hdd_rotation=rotation)  # per request
    cut = run_write_cache(prepare_requests(trace), "none", 1.0, drive=drive, hdd_rotation=rotation)  # per block
    assert _fields(ext) == _fields(cut)  # every output field, floats bit for bit
    assert footprint_bytes(trace) == footprint_bytes(prepare_requests(trace))


@settings(max_examples=60, deadline=None)
@given(traces())
def test_sweeps_equal_with_and_without_the_cut(trace):
    try:
        sizes = sweep_sizes_mb(prepare_requests(trace))
    except ValueError:  # the default sizes hold < 2 blocks: refused by both the same way
        with pytest.raises(ValueError, match="give the cache sizes"):
            sweep_sizes_mb(trace)
        return
    assert sweep_sizes_mb(trace) == sizes
    ext = sweep_cache_sizes(trace, policies=["none"])
    cut = sweep_cache_sizes(prepare_requests(trace), policies=["none"])
    assert ext.cache_mb == cut.cache_mb
    assert [_fields(r) for r in ext.results] == [_fields(r) for r in cut.results]


def _tib():
    return BlockTrace([0], [True], [0], [1 << 40], [0])


def test_one_tib_write_without_a_cache_runs_per_request():
    with limit(64 << 20):  # 64 MB: the block cut would need ~30 GB
        r = run_write_cache(_tib(), "none", 64.0)
    assert (r.traffic_rate, r.hits, r.misses, r.hdd_requests) == (1.0, 0, 1 << 28, 1)
    assert r.hdd_write_sectors == (1 << 40) // SECTOR


@pytest.mark.parametrize("policy", ["halo", "lru"])
def test_cached_policies_still_refuse_and_say_why(policy):
    with limit(64 << 20), pytest.raises(BudgetExceeded) as e:
        run_write_cache(_tib(), policy, 64.0)
    msg = str(e.value)
    assert "HALO's destage choice" in msg and "LRU writes each evicted 4 KiB block" in msg
    assert "--policy none runs per request" in msg and "--memory-budget" in msg


def test_sweep_of_none_and_a_cache_cuts_once_and_agrees():
    t = BlockTrace([0, 1, 2], [True, False, True], [0, 4096, 1 << 20], [40960, 8192, 512], [0, 0, 0])
    both = sweep_cache_sizes(t, [0.03], policies=["lru", "none"])
    alone = sweep_cache_sizes(t, [0.03], policies=["none"])
    assert _fields(both.at("none", 0)) == _fields(alone.results[0])
    assert np.isfinite(both.at("lru", 0.03).traffic_rate)
