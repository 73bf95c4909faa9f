"""MiniSim, fixed-size SHARDS, the policy/method dispatcher and spatial sampling: exact properties."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.sim import hit_ratio_curve, shards_mrc, simulate
from models.sim.minisim import minisim_mrc
from models.sim.mrc import check_method, policy_mrc
from models.sim.sampling import spatial_sample
from models.sim.shards import block_hashes

traces = st.lists(st.integers(0, 15), min_size=1, max_size=150)
size_lists = st.lists(st.integers(0, 20), min_size=1, max_size=6)
policies = st.sampled_from(["lru", "fifo", "clock", "ac"])


@given(traces, size_lists, policies, st.booleans(), st.integers(0, 3))
def test_minisim_rate_one_equals_exact_simulation(ids, sizes, policy, adjust, seed):
    est = minisim_mrc(ids, policy=policy, rate=1.0, sizes=sizes, adjust=adjust, seed=seed)
    exact = [simulate(ids, c, policy).hits for c in sizes]
    assert est.hits.tolist() == [float(h) for h in exact]
    assert est.sampled_requests == len(ids) and est.sampled_blocks == len(set(ids))


@given(traces, size_lists, policies)
def test_exact_policy_mrc_equals_per_size_simulation(ids, sizes, policy):
    c = policy_mrc(ids, policy=policy, method="exact", sizes=sizes)
    assert c.hits.tolist() == [simulate(ids, s, policy).hits for s in sizes]


@given(traces, st.integers(0, 3), st.booleans())
def test_fixed_size_shards_with_room_for_every_block_is_exact(ids, seed, adjust):
    m = len(set(ids))
    ex = hit_ratio_curve(ids)
    for smax in (m, m + 5):
        s = shards_mrc(ids, rate=1.0, max_samples=smax, sizes=ex.cache_blocks, seed=seed, adjust=adjust)
        np.testing.assert_allclose(s.hits, ex.hits, atol=1e-9)
        assert s.rate == 1.0 and s.sampled_blocks == m


@given(traces, policies, st.integers(0, 5))
def test_same_seed_same_result(ids, policy, seed):
    a = minisim_mrc(ids, policy=policy, rate=0.5, sizes=[1, 4, 9], seed=seed)
    b = minisim_mrc(ids, policy=policy, rate=0.5, sizes=[1, 4, 9], seed=seed)
    assert a.hits.tolist() == b.hits.tolist() and a.sampled_blocks == b.sampled_blocks
    c = shards_mrc(ids, rate=0.5, max_samples=3, seed=seed)
    d = shards_mrc(ids, rate=0.5, max_samples=3, seed=seed)
    assert c.hits.tolist() == d.hits.tolist()


@given(traces, size_lists, st.floats(0.05, 1.0), st.integers(0, 3))
def test_minisim_lru_is_monotone(ids, sizes, rate, seed):
    s = np.sort(np.array(sizes))
    c = minisim_mrc(ids, policy="lru", rate=rate, sizes=s, seed=seed)
    assert np.all(np.diff(c.hit_ratio) >= -1e-12)
    assert np.all((c.hit_ratio >= 0) & (c.hit_ratio <= 1))


@settings(max_examples=30)
@given(st.integers(1, 3000), st.floats(0.01, 1.0), st.integers(0, 10))
def test_spatial_sample_is_the_shards_hash_rule(n_ids, rate, seed):
    ids = np.arange(n_ids, dtype=np.int64)[::-1].copy()
    s = spatial_sample(ids, rate, seed=seed)
    keep = block_hashes(n_ids, seed=seed) < int(rate * 2**53)
    assert sorted(s.original.tolist()) == np.flatnonzero(keep).tolist()
    assert np.array_equal(s.original[s.ids], ids[keep[ids]])  # order and every reference kept


def test_minisim_error_on_zipf():
    # 20 log-spaced sizes, rate 0.25 on 400 k Zipf(0.9) requests over 20 k blocks (~5 k sampled
    # blocks; a few hot blocks falling in or out of the sample dominate the error): mean absolute
    # error vs the full simulation per salt 0..2 measured 0.006-0.015 for every policy (at rate
    # 0.1, ~2 k sampled blocks: 0.007-0.055). Bound: mean over the salts < 0.02, each < 0.03.
    rng = np.random.default_rng(5)
    n_ids = 20_000
    p = 1.0 / np.arange(1, n_ids + 1) ** 0.9
    ids = rng.permutation(n_ids)[rng.choice(n_ids, 400_000, p=p / p.sum())]
    sizes = np.unique(np.rint(np.geomspace(200, 15_000, 20)).astype(int))
    for policy in ("fifo", "clock", "ac", "lru"):
        exact = np.array([simulate(ids, int(c), policy).hit_ratio for c in sizes])
        maes = [np.abs(minisim_mrc(ids, policy=policy, rate=0.25, sizes=sizes, seed=s).hit_ratio - exact).mean()
                for s in range(3)]
        assert np.mean(maes) < 0.02 and max(maes) < 0.03, (policy, maes)


def test_fixed_size_adjustment_bounds_memory_and_error():
    rng = np.random.default_rng(3)
    n_ids = 40_000
    p = 1.0 / np.arange(1, n_ids + 1) ** 0.9
    ids = rng.permutation(n_ids)[rng.choice(n_ids, 300_000, p=p / p.sum())]
    ex = hit_ratio_curve(ids)
    s = shards_mrc(ids, rate=1.0, max_samples=4000, sizes=ex.cache_blocks, seed=2)
    assert s.sampled_blocks <= 4000 and s.rate < 0.2
    # SHARDS_adj makes the sampled total match the trace: the curve ends at the right level
    assert abs(s.hit_ratio[-1] - ex.hit_ratio[-1]) < 0.02
    assert np.abs(s.hit_ratio - ex.hit_ratio).mean() < 0.02


def test_unsupported_combinations_name_the_supported_ones():
    with pytest.raises(ValueError, match="exact or minisim"):
        check_method("clock", "shards")
    with pytest.raises(ValueError, match="policy lru with method exact or shards"):
        check_method("lru", "minisim", by="bytes")
    with pytest.raises(ValueError, match="policy must be one of"):
        check_method("arc", "exact")
    with pytest.raises(ValueError, match="method must be one of"):
        check_method("lru", "sampled")
    with pytest.raises(ValueError, match="max_samples"):
        policy_mrc([0, 1], policy="lru", method="minisim", max_samples=3)
    with pytest.raises(ValueError, match="rate"):
        minisim_mrc([0, 1], rate=0.0)


@given(traces, st.integers(1, 20), st.floats(0.1, 1.0), st.integers(0, 3))
def test_lru_curves_are_monotone(ids, smax, rate, seed):
    # stack (inclusion) property: an LRU cache one block larger never hits less
    sizes = np.arange(0, 18)
    for c in (policy_mrc(ids, method="exact", sizes=sizes),
              shards_mrc(ids, rate=rate, sizes=sizes, seed=seed),
              shards_mrc(ids, rate=1.0, max_samples=smax, sizes=sizes, seed=seed)):
        assert np.all(np.diff(c.hit_ratio) >= -1e-12)
        assert np.all(np.diff(c.byte_hit_ratio) >= -1e-12)


@given(st.lists(st.integers(0, 60), min_size=1, max_size=300), st.integers(1, 30), st.integers(1, 100),
       st.sampled_from([1.0, 0.6]), st.booleans())
def test_fixed_size_prefilter_gives_the_same_result(ids, smax, prefix, rate, weighted):
    # the fast path pre-filters everything after a prefix at the prefix's final threshold;
    # the threshold only goes down, so the curve is the same as one kernel pass over the trace
    import models.sim.shards as sh

    w = (np.arange(len(ids)) % 7 + 1.0) if weighted else None
    old = sh._PREFIX
    try:
        sh._PREFIX = prefix
        fast = shards_mrc(ids, rate=rate, max_samples=smax, weights=w, seed=1)
        sh._PREFIX = 10**9
        slow = shards_mrc(ids, rate=rate, max_samples=smax, weights=w, seed=1)
    finally:
        sh._PREFIX = old
    np.testing.assert_allclose(fast.hits, slow.hits, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(fast.byte_hit_ratio, slow.byte_hit_ratio, rtol=1e-12, atol=1e-12)
    assert (fast.rate, fast.sampled_requests) == (slow.rate, slow.sampled_requests)


@given(st.lists(st.integers(0, 60), min_size=1, max_size=300), st.lists(st.integers(1, 40), min_size=1, max_size=5),
       policies, st.booleans(), st.integers(0, 3))
@settings(max_examples=40)
def test_minisim_min_blocks_floor(ids, sizes, policy, adjust, seed):
    # a floor >= every size puts every miniature cache at rate 1: the exact simulation
    est = minisim_mrc(ids, policy=policy, rate=0.25, sizes=sizes, adjust=adjust, seed=seed, min_blocks=40)
    assert est.hits.tolist() == [float(simulate(ids, c, policy).hits) for c in sizes]
    # sizes whose miniature cache already holds >= min_blocks blocks keep the plain estimate
    big = [4 * c + 4 for c in sizes]  # C R >= 1 + ... with R = 0.25 and min_blocks = 1
    a = minisim_mrc(ids, policy=policy, rate=0.25, sizes=big, adjust=adjust, seed=seed, min_blocks=1)
    b = minisim_mrc(ids, policy=policy, rate=0.25, sizes=big, adjust=adjust, seed=seed, min_blocks=0)
    np.testing.assert_allclose(a.hit_ratio, b.hit_ratio, atol=1e-12)
    assert a.rate == b.rate == 0.25 and a.sampled_requests == b.sampled_requests


def test_minisim_min_blocks_nested_sample_and_bad_value():
    ids = np.random.default_rng(5).zipf(1.2, 20_000) % 2000
    # sizes 10 and 40 at R = 0.05 with a 4-block floor: rates 0.4 and 0.1, sub-samples of one sample
    mixed = minisim_mrc(ids, policy="fifo", rate=0.05, sizes=[10, 40, 1000], min_blocks=4, seed=2)
    for c, r in ((10, 0.4), (40, 0.1), (1000, 0.05)):
        one = minisim_mrc(ids, policy="fifo", rate=r, sizes=[c], min_blocks=0, seed=2)
        assert mixed.hit_ratio[[10, 40, 1000].index(c)] == pytest.approx(one.hit_ratio[0], abs=1e-12)
    assert mixed.rate == 0.05
    for bad in (-1, 2.5, True):
        with pytest.raises(ValueError, match="min_blocks must be a whole number"):
            minisim_mrc(ids, policy="fifo", rate=0.1, sizes=[10], min_blocks=bad)
    with pytest.raises(ValueError, match="min_blocks .* applies to method minisim only"):
        policy_mrc(ids, policy="lru", method="exact", min_blocks=10)


def test_parallel_sample_filter_equals_one_pass():
    from models.sim.sampling import (
        _sampled,
        hash_salt,
        rate_threshold,
        sample_filter,
        sampled_positions,
    )

    ids = np.random.default_rng(9).integers(0, 50_000, (1 << 22) + 17)
    salt, th = hash_salt(3), rate_threshold(0.02)
    one = _sampled(ids, salt, th)
    assert np.array_equal(sampled_positions(ids, salt, th), one)
    assert np.array_equal(sample_filter(ids, salt, th), ids[one])


@pytest.mark.parametrize("policy", ["fifo", "clock", "ac"])
@pytest.mark.parametrize("weighted", [False, True])
def test_sizes_in_parallel_threads_equal_one_by_one(policy, weighted, monkeypatch):
    """simulate_sizes runs the sizes in threads when the work is large: same hits as one at a time."""
    import models.sim.minisim as ms

    rng = np.random.default_rng(5)
    ids = (rng.zipf(1.2, 60_000) % 4000).astype(np.int64)
    w = rng.integers(1, 9000, len(ids)).astype(np.float64) if weighted else None
    caps = np.unique(np.rint(np.geomspace(1, 4000, 40)).astype(np.int64))
    assert ms.size_threads(len(ids), len(caps)) >= 1
    monkeypatch.setattr(ms, "size_threads", lambda n, k: 3)
    par = ms.simulate_sizes(ids, caps, policy, w)
    monkeypatch.setattr(ms, "size_threads", lambda n, k: 1)
    one = ms.simulate_sizes(ids, caps, policy, w)
    assert par[0].tolist() == one[0].tolist() and par[1].tolist() == one[1].tolist()
    assert par[0].tolist() == [float(simulate(ids, int(c), policy).hits) for c in caps]
