"""SHARDS sampled MRC vs the exact curve on synthetic traces."""

import numpy as np
import pytest

from models.sim import hit_ratio_curve, shards_mrc
from models.sim.shards import block_hashes


def zipf_trace(n_ids, n, alpha, seed):
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, n_ids + 1) ** alpha
    return rng.permutation(n_ids)[rng.choice(n_ids, n, p=p / p.sum())]


@pytest.fixture(scope="module")
def zipf():
    ids = zipf_trace(50_000, 300_000, 0.9, 7)
    w = np.random.default_rng(1).integers(512, 8192, len(ids))
    return ids, w, hit_ratio_curve(ids, weights=w)


def test_rate_one_is_exact(zipf):
    ids, w, ex = zipf
    s = shards_mrc(ids, rate=1.0, sizes=ex.cache_blocks, weights=w)
    assert s.sampled_requests == len(ids) and s.footprint_blocks == ex.footprint_blocks
    np.testing.assert_allclose(s.hit_ratio, ex.hit_ratio, atol=1e-12)
    np.testing.assert_allclose(s.byte_hit_ratio, ex.byte_hit_ratio, atol=1e-12)


def test_fixed_rate_error(zipf):
    # SHARDS (Waldspurger et al., FAST'15) reports mean absolute error ~0.01 or less at
    # R = 0.01 on traces of millions of blocks, i.e. ~10^4 sampled blocks. Here R = 0.1 of
    # 5e4 blocks gives ~5e3 sampled blocks; with Zipf(0.9) a handful of hot blocks falling in
    # or out of the sample dominates the error, so we bound the MAE averaged over 4 hash salts
    # at 0.015 and each salt at 0.03. Measured MAE per salt 0..3: 0.0194, 0.0013, 0.0078,
    # 0.0096 (mean 0.0095); byte-weighted 0.0194, 0.0024, 0.0060, 0.0088.
    ids, w, ex = zipf
    maes, bmaes = [], []
    for seed in range(4):
        s = shards_mrc(ids, rate=0.1, sizes=ex.cache_blocks, weights=w, seed=seed)
        assert 0.08 < s.sampled_blocks / ex.footprint_blocks < 0.12
        maes.append(np.abs(s.hit_ratio - ex.hit_ratio).mean())
        bmaes.append(np.abs(s.byte_hit_ratio - ex.byte_hit_ratio).mean())
    assert max(maes) < 0.03 and np.mean(maes) < 0.015
    assert max(bmaes) < 0.03
    # and the estimate is not trivially flat: it tracks the curve's range
    assert s.hit_ratio[-1] > 0.8 and s.hit_ratio[10] < 0.3


def test_fixed_size_uniform():
    # uniform popularity: no hot-block noise, the error comes from the ~5000 sampled blocks
    # (relative size error ~1/sqrt(5000) = 1.4 % -> up to ~0.015 on the steep curve)
    ids = np.random.default_rng(3).integers(0, 50_000, 400_000)
    ex = hit_ratio_curve(ids)
    s = shards_mrc(ids, rate=0.5, max_samples=5000, sizes=ex.cache_blocks, seed=1)
    assert s.sampled_blocks <= 5000 and 0.08 < s.rate < 0.12
    assert np.abs(s.hit_ratio - ex.hit_ratio).mean() < 0.02


def test_shards_bad_input():
    with pytest.raises(ValueError, match="rate"):
        shards_mrc([0, 1], rate=0)
    with pytest.raises(ValueError, match="max_samples"):
        shards_mrc([0, 1], max_samples=0)
    with pytest.raises(ValueError, match="empty"):
        shards_mrc(np.zeros(0, np.int64))


def _sampled_and_not(rate, seed, n_ids=64):
    """Block ids below ``n_ids`` that SHARDS samples at ``rate`` with salt ``seed``, and the others."""
    hv = block_hashes(n_ids, seed)
    keep = hv < np.uint64(int(rate * 2**53))
    return np.flatnonzero(keep), np.flatnonzero(~keep)


def test_sampled_distance_spread_over_its_true_range():
    # R = 1/4: a loop over 3 sampled blocks has sampled distance 2 at every reuse, standing for
    # true distances [2/R, 3/R) = [8, 12). Each reuse's mass 1/R = 4 is spread evenly over those
    # 4 distances (1 per distance; the paper puts it all at d/R = 8, which would give a step from
    # 0 to (m-1)/m at size 9). Cold misses: 3 x 4 = 12; total 12 + 4 (3m - 3) = 12 m.
    s_ids, _ = _sampled_and_not(0.25, 0)
    m = 10
    ids = np.tile(s_ids[:3], m)
    s = shards_mrc(ids, rate=0.25, sizes=np.arange(1, 14), adjust=False)
    assert s.sampled_requests == 3 * m and s.footprint_blocks == 12
    ramp = np.clip(np.arange(1, 14) - 8, 0, 4) / 4  # share of the reuse mass below each size
    np.testing.assert_allclose(s.hit_ratio, ramp * (m - 1) / m, atol=1e-12)


def test_shards_adj_credits_the_first_bucket_range():
    # Same loop plus 10 references to one unsampled block per cycle: n = 13 m, sampled 3 m, so
    # SHARDS_adj adds n - 3m/R = m references at true distances [0, 1/R) = [0, 4), m/4 each,
    # bringing the total to n. Hit ratio: c/52 up to size 4, 1/13 up to 8, then the reuse ramp.
    s_ids, u_ids = _sampled_and_not(0.25, 0)
    m = 10
    ids = np.tile(np.r_[s_ids[:3], np.full(10, u_ids[0])], m)
    s = shards_mrc(ids, rate=0.25, sizes=np.arange(1, 14))
    c = np.arange(1, 14)
    expect = (np.minimum(c, 4) * m / 4 + np.clip(c - 8, 0, 4) * (3 * m - 3)) / (13 * m)
    np.testing.assert_allclose(s.hit_ratio, expect, atol=1e-12)
    np.testing.assert_allclose(s.hits[-1], expect[-1] * len(ids), rtol=1e-12)
    # without the correction the 10 m unsampled references are simply missing from the estimate
    s0 = shards_mrc(ids, rate=0.25, sizes=np.arange(1, 14), adjust=False)
    np.testing.assert_allclose(s0.hit_ratio, np.clip(c - 8, 0, 4) / 4 * (m - 1) / m, atol=1e-12)
