"""Trace-driven file-cache study (seed 004 §2, Figures 3-5) and the mrc / cache-sim CLI."""

import io

import numpy as np
import pandas as pd
import pytest

from models.sim import hit_ratio_curve, simulate
from models.storage.file_cache import timings_from_device
from models.storage.file_cache_sim import (
    break_even_share,
    file_cache_curves,
    gains,
    log_sizes,
    reuse_histogram,
)
from models.traces.blocks import split_blocks
from models.traces.bundled import load_bundled_trace


def test_time_accounting_by_hand():
    ids = np.array([0, 1, 0, 1, 2, 0, 0, 3])
    be = timings_from_device("optane-dcpmm")
    df = file_cache_curves(ids, "optane-dcpmm", cache_fractions=[1.0]).set_index("policy")
    n, m = len(ids), 4
    # full-size LRU: the 4 first references miss and insert (Tm), the other 4 hit (t)
    assert df.loc["lru", "time_ns"] == pytest.approx(m * be.Tm_ns + (n - m) * be.t_ns)
    assert df.loc["none", "time_ns"] == pytest.approx(n * be.T_ns)
    # AC, window 4: 0 and 1 are admitted on their 2nd reference, then 0 hits twice;
    # 2 and 3 (one reference each) are never cached
    ac = simulate(ids, 4, "ac", record=True)
    assert ac.inserted.tolist() == [0, 0, 1, 1, 0, 0, 0, 0] and ac.hits == 2
    assert df.loc["ac", "time_ns"] == pytest.approx(2 * be.t_ns + 2 * be.Tm_ns + 4 * be.T_ns)
    assert df.loc["ac", "time_rel_none"] == pytest.approx(df.loc["ac", "time_ns"] / (n * be.T_ns))


def test_ac_ghost_window_is_a_fraction_of_the_cache():
    # footprint 4, cache 0.5 -> 2 blocks. 0 recurs at t4 after 4 ghost records (0, 1, 2, 3):
    # window 2 (ghost_fraction 1) or 3: recorded again, admitted at t5, no hit;
    # window 4 (ghost_fraction 2): admitted at t4, hits at t5
    ids = [0, 1, 2, 3, 0, 0]
    def ac(gf):
        df = file_cache_curves(ids, "optane-dcpmm", cache_fractions=[0.5], ghost_fraction=gf)
        return tuple(df.set_index("policy").loc["ac", ["cache_blocks", "hits", "inserts"]])
    assert ac(1.0) == (2, 0, 1) and ac(1.5) == (2, 0, 1)
    assert ac(2.0) == (2, 1, 1)
    assert ac(0.0) == (2, 0, 0)  # an empty window admits nothing


@pytest.fixture(scope="module")
def proxy():
    tr = load_bundled_trace("synthetic:web-proxy", n_requests=20_000)
    acc = split_blocks(tr, 4096)
    return acc.block, file_cache_curves(acc.block, ["hdd-7200", "optane-dcpmm"], cache_fractions=[0.1, 0.3, 0.5])


def test_figures_3_to_5_shape(proxy):
    ids, df = proxy
    g = gains(df).set_index(["device", "cache_fraction"])
    hdd, scm = g.xs("hdd-7200"), g.xs("optane-dcpmm")
    # Figure 3: on HDD caching gains a lot (paper: ~70 %); our proxy-like synthetic trace has
    # ~40 % one-timer requests, which caps the gain at its reuse share (observed 28/43/48 %
    # at 10/30/50 % of the footprint), so we ask for > 30 % from 30 % of the footprint on.
    assert (hdd["lru_vs_none"] > 0.2).all() and (hdd.loc[[0.3, 0.5], "lru_vs_none"] > 0.3).all()
    # Figure 4: on SCM, LRU gains < 3 % (paper). With our measured insertion cost
    # (Tm = 2.10 T on Optane, test_file_cache.py) LRU is slower than no cache: with hit ratio h,
    # 1 - T_lru/T_none = 1 - (h t + (1 - h) Tm) / T, a loss whenever h < (Tm - T)/(Tm - t) = 0.76.
    be = timings_from_device("optane-dcpmm")
    lru = df[(df.policy == "lru") & (df.device == "optane-dcpmm")].set_index("cache_fraction")
    h = lru["hit_ratio"]
    expect = 1 - (h * be.t_ns + (1 - h) * be.Tm_ns) / be.T_ns
    np.testing.assert_allclose(scm["lru_vs_none"], expect, rtol=1e-12)
    # Measured on this trace (20k requests, seed 0): h = 0.28/0.43/0.48, loss 69/47/40 % at
    # 10/30/50 %; seeds 1-5 give 40-76 %; the 100k-request default trace 40/26/25 %
    # (README: -55..-25 %, the longer trace reuses more).
    # Band -85..-30 %: every seed inside with margin, and no LRU gain at all.
    assert (h < 0.76).all()
    assert scm["lru_vs_none"].between(-0.85, -0.30).all()
    assert scm["lru_vs_none"].is_monotonic_increasing  # bigger cache, more hits, smaller loss
    # Figure 5: admission control regains 20-40 % over LRU on SCM (paper); we only require
    # a clear improvement > 20 % and do not tune the trace to hit the paper's range.
    assert (scm["ac_vs_lru"] > 0.2).all()
    # cache sizes: fraction of the footprint rounded to whole blocks
    fp = len(np.unique(ids))
    sizes = df[df.device == "hdd-7200"].groupby("cache_fraction")["cache_blocks"].first()
    assert sizes.tolist() == [int(round(f * fp)) for f in (0.1, 0.3, 0.5)]
    # the LRU hit counts in the study are those of the LRU simulator, the AC counts those of the
    # AC simulator with a window of cache_blocks (ghost_fraction 1; the simulator is checked
    # against a Python reference in test_sim_kernels.py)
    lru = df[(df.policy == "lru") & (df.device == "hdd-7200")]
    for c, h in zip(lru.cache_blocks, lru.hits):
        assert simulate(ids, int(c), "lru").hits == h
    ac = df[(df.policy == "ac") & (df.device == "hdd-7200")]
    for c, h, i in zip(ac.cache_blocks, ac.hits, ac.inserts):
        r = simulate(ids, int(c), "ac", ghost_blocks=int(c))
        assert (r.hits, r.inserts) == (h, i)


def test_break_even_share(proxy):
    ids, _ = proxy
    cnt = np.bincount(ids)
    hdd = break_even_share(ids, "hdd-7200")
    # HDD: n* ~ 1.0002, so every block used at least twice is worth caching
    assert hdd["n_star"] == pytest.approx(1.0, abs=1e-2)
    assert hdd["worth_blocks"] == int((cnt >= 2).sum())
    assert hdd["share_accesses"] == pytest.approx(cnt[cnt >= 2].sum() / len(ids))
    scm = break_even_share(ids, "optane-dcpmm")
    assert scm["n_star"] > 2 and scm["worth_blocks"] <= hdd["worth_blocks"]
    w = np.where(ids % 2 == 0, 4096, 512)
    wb = break_even_share(ids, "hdd-7200", weights=w)
    keep = cnt[ids] >= 2
    assert wb["share_bytes"] == pytest.approx(w[keep].sum() / w.sum())
    h = reuse_histogram(ids)
    assert h["blocks"].sum() == len(np.unique(ids)) and h["accesses"].sum() == len(ids)


def test_access_bytes_split_each_request_exactly():
    from models.storage.file_cache_sim import access_bytes
    from models.traces.core import BlockTrace

    # unaligned requests spanning 1-3 blocks: per-block overlaps sum to each request's size
    t = BlockTrace([0, 1, 2], [False] * 3, [1000, 4096, 8000], [7000, 100, 500], [0, 0, 0])
    acc = split_blocks(t, 4096)
    b = access_bytes(t, acc)
    assert b.tolist() == [3096, 3904, 100, 192, 308]
    assert np.bincount(acc.request, weights=b).tolist() == [7000, 100, 500]


def test_bad_input():
    with pytest.raises(ValueError, match="cache_fractions"):
        file_cache_curves([0, 1], "hdd-7200", cache_fractions=[0.0])
    with pytest.raises(ValueError, match="empty"):
        file_cache_curves(np.zeros(0, np.int64), "hdd-7200")
    with pytest.raises(KeyError):
        file_cache_curves([0, 1], "no-such-device")
    with pytest.raises(ValueError, match="points"):
        log_sizes(10, 0)


def test_cli_mrc_contract(run_cli):
    rc, out, err = run_cli("mrc", "mqsim:tpcc-small", "--sizes", "10,100,1000")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    assert list(df.columns) == ["cache_blocks", "hit_ratio", "byte_hit_ratio"]
    acc = split_blocks(load_bundled_trace("mqsim:tpcc-small"), 4096)
    exact = hit_ratio_curve(acc.block, sizes=[10, 100, 1000])
    np.testing.assert_allclose(df.hit_ratio, exact.hit_ratio, rtol=1e-9)
    rc, out, _ = run_cli("mrc", "mqsim:tpcc-small", "--points", "5", "--shards", "0.5")
    assert rc == 0 and len(pd.read_csv(io.StringIO(out))) == 5
    rc, _, err = run_cli("mrc", "mqsim:tpcc-small", "--sizes", "10,x")
    assert rc == 2 and "--sizes" in err
    rc, _, err = run_cli("mrc", "mqsim:tpcc-small", "--shards", "2")
    assert rc == 2 and "rate" in err


def test_cli_cache_sim_contract(run_cli):
    rc, out, err = run_cli("cache-sim", "mqsim:tpcc-small", "--policy", "clock", "--cache-blocks", "100,1000")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    for col in ("hits", "misses", "writebacks", "hit_ratio"):
        assert col in df.columns
    acc = split_blocks(load_bundled_trace("mqsim:tpcc-small"), 4096)
    r = simulate(acc.block, 1000, "clock", is_write=acc.is_write)
    assert (df.loc[1, "hits"], df.loc[1, "writebacks"]) == (r.hits, r.writebacks)
    assert r.writebacks > 0  # the trace has writes: the dirty model is exercised
    rc, _, err = run_cli("cache-sim", "mqsim:tpcc-small", "--policy", "ac", "--cache-blocks", "-5")
    assert rc == 2 and "cache_blocks" in err
