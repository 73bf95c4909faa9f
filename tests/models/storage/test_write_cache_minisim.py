"""MiniSim for the write caches: region sampling and miniature HALO / LRU write caches."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.storage import write_cache as wc
from models.storage.write_cache_minisim import minisim_write_cache, sample_requests
from models.traces.core import BlockTrace
from models.traces.synthetic import preset


def _trace(rows):
    off = [o * 4096 + s * 512 for o, s, _, _ in rows]
    size = [n * 512 for _, _, n, _ in rows]
    return BlockTrace(np.arange(len(rows)), [w for *_, w in rows], off, size, [0] * len(rows))


rows = st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 7), st.integers(1, 24), st.booleans()),
                min_size=1, max_size=120)


@given(rows, st.sampled_from(["halo", "lru"]), st.lists(st.integers(2, 40), min_size=1, max_size=4))
@settings(max_examples=40, deadline=None)
def test_rate_one_is_the_full_simulation(rs, policy, caps):
    req = wc.prepare_requests(_trace(rs))
    ex = minisim_write_cache(req, caps, policy=policy, method="exact")
    ms = minisim_write_cache(req, caps, policy=policy, rate=1.0, seed=3)
    np.testing.assert_allclose(ms.traffic_rate, ex.traffic_rate, atol=1e-12)
    np.testing.assert_allclose(ms.hit_ratio, ex.hit_ratio, atol=1e-12)
    for c, tr in zip(caps, ex.traffic_rate):
        run = wc.simulate_halo(req, c) if policy == "halo" else wc.simulate_lru_write_cache(
            req, c, threshold=wc.HaloParams().threshold)
        assert tr == pytest.approx(run.traffic_rate)


@given(rows, st.floats(0.05, 1.0), st.integers(0, 5))
@settings(max_examples=40, deadline=None)
def test_region_sample_keeps_whole_regions(rs, rate, seed):
    req = wc.prepare_requests(_trace(rs))
    s = sample_requests(req, rate, seed=seed)
    per = wc.REGION_SECTORS // wc.BLOCK_SECTORS
    kept = set((s.block_key // per).tolist())
    # every item of a sampled region is kept, none of the others
    items = req.block_key[req.item]
    want = [k for k in items.tolist() if k // per in kept]
    assert s.block_key[s.item].tolist() == want
    assert s.requested_sectors == sum(bin(int(b)).count("1") for b in s.item_bits)
    assert int(s.nsect.sum()) == s.requested_sectors and len(s.item_ptr) == len(s.is_write) + 1
    if rate == 1.0:
        assert s.item.tolist() == req.item.tolist() and s.lbn.tolist() == req.lbn.tolist()
    b = sample_requests(req, rate, seed=seed, unit="block")
    kept_b = set(b.block_key.tolist())
    assert b.block_key[b.item].tolist() == [k for k in items.tolist() if k in kept_b]
    assert b.n_regions == len(set((b.block_key // per).tolist()))
    with pytest.raises(ValueError, match="unit must be"):
        sample_requests(req, rate, unit="page")


def test_minisim_tracks_exact_and_bad_input():
    req = wc.prepare_requests(preset("fin1", 20000, seed=1))
    caps = [200, 1000, 4000]
    ex = minisim_write_cache(req, caps, policy="lru", method="exact")
    ms = minisim_write_cache(req, caps, policy="lru", rate=0.5, seed=1)
    assert np.abs(ms.traffic_rate - ex.traffic_rate).max() < 0.1
    assert list(ms.to_frame().columns) == ["capacity_blocks", "scaled_blocks", "traffic_rate", "hit_ratio",
                                           "policy", "method", "rate"]
    with pytest.raises(ValueError, match="policy must be 'halo' or 'lru'"):
        minisim_write_cache(req, caps, policy="fifo")
    with pytest.raises(ValueError, match=">= 2 blocks"):
        minisim_write_cache(req, [1])
    with pytest.raises(ValueError, match="method must be"):
        minisim_write_cache(req, caps, method="shards")
    with pytest.raises(ValueError, match="rate"):
        minisim_write_cache(req, caps, rate=0)
