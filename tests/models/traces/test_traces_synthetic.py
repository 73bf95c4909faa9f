"""Synthetic generators: seeding, statistics vs targets, Table II presets (seed 003)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.traces import synthetic as syn
from models.traces.stats import trace_stats

N = 20_000

# seed 003 Table II: write %, dataset GB, average request size KB (read as GiB / KiB)
TABLE_II = {
    "fin1": (84.6, 18.0, 3.38),
    "fin2": (21.5, 8.85, 2.4),
    "dap": (54.9, 84.2, 77),
    "exchange": (74, 163.8, 13.65),
    "tpce": (99.8, 13.2, 10.48),
    "mail": (90.1, 85, 4),
}


@pytest.mark.parametrize("name", list(TABLE_II))
def test_table2_presets_match_targets(name):
    write_pct, dataset_gib, avg_kib = TABLE_II[name]
    spec = syn.PRESETS[name]
    # the preset declares the published numbers
    assert spec.write_fraction == pytest.approx(write_pct / 100)
    assert spec.dataset_bytes == pytest.approx(dataset_gib * 2**30, rel=1e-9)
    assert spec.mean_size_bytes == pytest.approx(avg_kib * 1024)
    t = syn.preset(name, N, seed=7)
    assert len(t) == N and t.name == f"synthetic:{name}"
    p = write_pct / 100
    # write flags are Bernoulli(p): allow 5 binomial standard deviations (+0.1 % slack)
    assert t.is_write.mean() == pytest.approx(p, abs=5 * math.sqrt(p * (1 - p) / N) + 1e-3)
    # geometric sizes: std of the mean ~ mean / sqrt(N) = 0.7 %; 4 % allows 5 sigma plus clipping
    assert t.size_bytes.mean() == pytest.approx(avg_kib * 1024, rel=0.04)
    # the requests span the whole dataset: the highest byte is within 5 % of the dataset size
    top = int((t.offset_bytes + t.size_bytes).max())
    assert 0.95 * dataset_gib * 2**30 <= top <= dataset_gib * 2**30


def test_randw_and_locality_ordering():
    r = syn.preset("randw", N, seed=1)
    assert r.is_write.all() and set(r.size_bytes.tolist()) == {4096}
    # Mail is mostly sequential, Dap has the poorest reuse, Fin1 the strongest skew (our assumptions,
    # guided by seed 003 §V): check the generated traces show that ordering
    stats = {n: trace_stats(syn.preset(n, N, seed=2, scale=0.05)) for n in ("fin1", "dap", "mail")}
    seq = {n: s.sequential_fraction for n, s in stats.items()}
    assert seq["mail"] > 0.3 > seq["fin1"]
    once = {n: s.blocks_accessed_once / s.footprint_blocks for n, s in stats.items()}
    assert once["dap"] > once["fin1"]
    assert stats["fin1"].mean_accesses_per_block > stats["dap"].mean_accesses_per_block


def test_web_presets():
    server = syn.preset("web-server", N, seed=3)
    proxy = syn.preset("web-proxy", N, seed=3)
    assert not server.is_write.any() and not proxy.is_write.any()
    # a proxy request is a one-timer with probability 0.4: 5 binomial sigmas
    assert proxy.meta["one_timer"].mean() == pytest.approx(0.4, abs=5 * math.sqrt(0.24 / N))
    assert not server.meta["one_timer"].any()
    # every request reads a whole file: each file always has the same offset and size
    f = server.meta["file"]
    order = np.argsort(f, kind="stable")
    same = f[order][1:] == f[order][:-1]
    assert np.all(np.diff(server.offset_bytes[order])[same] == 0)
    # Zipf(0.8) popularity over 20,000 files: share of requests to the most popular file
    w = np.arange(1, 20_001, dtype=float) ** -0.8
    top_share = np.bincount(f).max() / N
    assert top_share == pytest.approx(w[0] / w.sum(), rel=0.2)  # ~1.2 % of requests, ~240 hits: 20 % ~ 3 sigma
    # the proxy's one-timers make more blocks single-access than on the server
    s_srv, s_px = trace_stats(server), trace_stats(proxy)
    assert s_px.blocks_accessed_once / s_px.footprint_blocks > s_srv.blocks_accessed_once / s_srv.footprint_blocks


def test_seeding_and_errors():
    a = syn.preset("fin1", 1000, seed=5)
    b = syn.preset("fin1", 1000, seed=np.random.default_rng(5))
    c = syn.preset("fin1", 1000, seed=6)
    assert np.array_equal(a.offset_bytes, b.offset_bytes) and np.array_equal(a.time_ns, b.time_ns)
    assert not np.array_equal(a.offset_bytes, c.offset_bytes)
    with pytest.raises(KeyError, match="valid names: fin1, fin2, dap, exchange, tpce, mail"):
        syn.preset("fin3")
    assert len(syn.preset("TPC-E", 10)) == 10 and len(syn.preset("synthetic:exch", 10)) == 10
    with pytest.raises(ValueError, match="scale"):
        syn.preset("fin1", 10, scale=0)
    with pytest.raises(ValueError, match="write_ratio"):
        syn.zipf_trace(10, n_blocks=10, write_ratio=1.5)
    with pytest.raises(ValueError, match="size dist"):
        syn.sample_sizes(10, 4096, dist="pareto")
    with pytest.raises(ValueError, match="power of two"):
        syn.uniform_trace(10, n_blocks=10, block_size=1000)


def test_generators_statistics():
    rng = np.random.default_rng(0)
    # Zipf exponent recovered from the rank-frequency slope of the top 100 ranks (+-0.1)
    r = syn.zipf_ranks(400_000, 10_000, 0.9, seed=rng)
    freq = np.bincount(r, minlength=10_000)[:100]
    slope = np.polyfit(np.log(np.arange(1, 101)), np.log(freq), 1)[0]
    assert -slope == pytest.approx(0.9, abs=0.1)
    # the large-population approximation keeps the same head share (within 5 %)
    big = syn.zipf_ranks(400_000, 1 << 23, 0.9, seed=rng)
    exact_p0 = 1 / np.sum(np.arange(1, (1 << 23) + 1, dtype=float) ** -0.9)
    assert (big < 10).mean() == pytest.approx(exact_p0 * np.sum(np.arange(1, 11) ** -0.9), rel=0.05)
    u = syn.uniform_trace(50_000, n_blocks=100, write_ratio=0.3, seed=rng)
    assert u.is_write.mean() == pytest.approx(0.3, abs=0.01)
    assert np.bincount(u.offset_bytes // 4096).min() > 350  # 500 expected per block
    s = syn.sequential_trace(5000, n_blocks=10**6, run_requests=50, mean_size_bytes=8192, size_dist="geometric",
                             seed=rng)
    contiguous = np.mean(s.offset_bytes[1:] == s.offset_bytes[:-1] + s.size_bytes[:-1])
    assert contiguous == pytest.approx(1 - 1 / 50, abs=0.01)
    ln = syn.sample_sizes(100_000, 16384, dist="lognormal", sigma=0.5, seed=rng)
    assert ln.mean() == pytest.approx(16384, rel=0.02) and np.all(ln % 512 == 0)
    m = syn.mixture(10_000, [(0.25, syn.uniform_trace, {"n_blocks": 10}),
                             (0.75, syn.zipf_trace, {"n_blocks": 10, "write_ratio": 1.0})], seed=rng)
    assert m.is_write.mean() == pytest.approx(0.75, abs=0.02)
    assert np.all(np.diff(m.time_ns) >= 0)
    # Poisson arrivals at 1000 IOPS: mean gap 1 ms
    assert np.diff(m.time_ns).mean() == pytest.approx(1e6, rel=0.05)
