"""Issue 42 item 2: the write cache without a cache (``policy="none"``) runs per request, not per 4 KiB block,
and HALO and LRU run a read that touches no written block as one extent; both equal the block cut field by
field. What HALO and LRU still cut (writes, reads of written blocks) is refused by the budget, naming why."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.budget import BudgetExceeded, limit
from models.storage.write_cache import (
    HaloParams,
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


@st.composite
def sparse_traces(draw):
    """Small traces over several 1 MiB regions: requests up to 60 blocks (larger than the caches used),
    reads and writes mixed, some reads overlapping written blocks and some not, one or two devices."""
    n = draw(st.integers(1, 14))
    rows = draw(st.lists(st.tuples(st.integers(0, 12_000), st.integers(1, 480), st.booleans(), st.integers(0, 1)),
                         min_size=n, max_size=n))
    return BlockTrace(list(range(n)), [w for _, _, w, _ in rows], [o * SECTOR for o, _, _, _ in rows],
                      [s * SECTOR for _, s, _, _ in rows], [d for _, _, _, d in rows])


_SMALL_HALO = HaloParams(threshold=0.75, th_bcounts=1.0, th_recency=2.0, outdate_recency=6.0)


@settings(max_examples=200, deadline=None)
@given(sparse_traces(), st.integers(2, 24), st.sampled_from(["halo", "lru-sector", "lru-block"]),
       st.sampled_from([None, _SMALL_HALO]))
def test_passthrough_reads_equal_the_block_cut(trace, cap_blocks, policy, params):
    policy, _, gran = policy.partition("-")
    kw = {"params": params, "lru_granularity": gran or "sector"}
    mb = cap_blocks * 4096 / 2**20
    ext = run_write_cache(trace, policy, mb, **kw)  # pass-through reads as extents
    full = prepare_requests(trace)
    cut = run_write_cache(full, policy, mb, **kw)  # every item cut
    assert _fields(ext) == _fields(cut) or (np.isnan(ext.hdd_throughput_mbps) and np.isnan(cut.hdd_throughput_mbps)
                                            and {**_fields(ext), "hdd_throughput_mbps": 0}
                                            == {**_fields(cut), "hdd_throughput_mbps": 0})
    red = prepare_requests(trace, passthrough_reads=True)
    assert red.footprint_blocks == full.footprint_blocks and red.n_regions == full.n_regions
    assert len(red.item) + red.skipped_items == len(full.item)


def test_passthrough_cuts_a_read_that_touches_no_written_block_to_one_item():
    t = BlockTrace([0, 1, 2, 3], [True, False, False, True], [0, 1 << 20, 4096, 3 << 20], [8192, 1 << 20, 8192, 512],
                   [0, 0, 0, 0])
    red = prepare_requests(t, passthrough_reads=True)
    assert red.passthrough.tolist() == [1] and red.skipped_items == 255  # request 2 reads block 1, written by 0
    for policy in ("halo", "lru"):
        a, b = run_write_cache(t, policy, 0.01), run_write_cache(prepare_requests(t), policy, 0.01)
        assert _fields(a) == _fields(b)


def test_95_reads_of_4_gib_run_under_halo_and_lru_within_a_small_budget():
    gib4 = 4 << 30
    t = BlockTrace(list(range(95)), [False] * 95, [i * gib4 for i in range(95)], [gib4] * 95, [0] * 95)
    with limit(256 << 20):  # the block cut would need ~11 GB
        for policy in ("halo", "lru"):
            r = run_write_cache(t, policy, 64.0)
            assert (r.hits, r.misses, r.hdd_requests, r.traffic_rate) == (0, 95 << 20, 95, 1.0)
            assert r.hdd_read_sectors == 95 * gib4 // SECTOR


def test_a_read_over_a_huge_range_is_charged_for_halos_region_table():
    t = BlockTrace([0], [False], [0], [1 << 50], [0])  # 1 PiB: 2^30 regions of 1 MiB
    with limit(64 << 20), pytest.raises(BudgetExceeded, match="bucket table of 1,073,741,824 regions"):
        run_write_cache(t, "halo", 64.0)
    with limit(64 << 20):  # the LRU keeps no table per region: one extent
        assert run_write_cache(t, "lru", 64.0).misses == 1 << 38
