"""Trace-driven file-cache study (seed 004 §2, Figures 3-5).

The mrc / cache-sim CLI tests are in tests/cli/test_cache_sim_cli.py, the page's in
tests/app/test_file_cache_sim_page.py.
"""


import numpy as np
import pytest

from models.sim import simulate
from models.storage.file_cache import break_even, timings_from_device
from models.storage.file_cache_sim import (
    break_even_share,
    file_cache_curves,
    gains,
    insertion_gains,
    log_sizes,
    reuse_histogram,
    with_insertion,
)
from models.traces import load
from models.traces.blocks import split_blocks
from tests.reference import lru_hits


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


FRACTIONS = (0.1, 0.3, 0.5, 1.0)


@pytest.fixture(scope="module")
def proxy():
    tr = load("synthetic:web-proxy", n_requests=20_000)
    acc = split_blocks(tr, 4096)
    return acc.block, file_cache_curves(acc.block, ["hdd-7200", "optane-dcpmm"], cache_fractions=FRACTIONS)




def test_study_accounting_on_a_proxy_trace(proxy):
    """Exact properties of the Figures 3-5 study (the paper's gains are claims of the validation ledger,
    models/validation: 004-fig3-hdd-lru-gains-70pct, 004-fig4-scm-lru-under-3pct, 004-fig5-ac-gains-20-40pct)."""
    ids, df = proxy
    n = len(ids)
    cnt = np.bincount(ids)
    cnt = cnt[cnt > 0]
    fp = len(cnt)
    # cache sizes: fraction of the footprint rounded to whole blocks
    sizes = df[df.device == "hdd-7200"].groupby("cache_fraction")["cache_blocks"].first()
    assert sizes.tolist() == [int(round(f * fp)) for f in FRACTIONS]
    # LRU hits against an independent OrderedDict LRU (the stack-distance pass is what is checked)
    lru = df[(df.policy == "lru") & (df.device == "hdd-7200")]
    for c, h in zip(lru.cache_blocks, lru.hits, strict=True):
        assert lru_hits(ids, int(c)) == h, c
    # the AC counts are those of the AC simulator with a window of cache_blocks (ghost_fraction 1; the
    # simulator is checked against a Python reference in tests/models/sim/test_sim_kernels.py)
    ac = df[(df.policy == "ac") & (df.device == "hdd-7200")]
    for c, h, i in zip(ac.cache_blocks, ac.hits, ac.inserts, strict=True):
        r = simulate(ids, int(c), "ac", ghost_blocks=int(c))
        assert (r.hits, r.inserts) == (h, i)
    # Limit case, a cache as large as the footprint: LRU misses only the first reference of each block;
    # AC (window = footprint, nothing ever leaves the ghost list) bypasses every first reference, admits
    # each block used twice or more at its second reference and hits the remaining c - 2.
    full = df[df.cache_fraction == 1.0].set_index(["device", "policy"])
    ac_hits, ac_ins = int(np.maximum(cnt - 2, 0).sum()), int((cnt >= 2).sum())
    for dev in ("hdd-7200", "optane-dcpmm"):
        be = timings_from_device(dev)
        assert tuple(full.loc[(dev, "lru"), ["hits", "misses", "inserts"]]) == (n - fp, fp, fp)
        assert tuple(full.loc[(dev, "ac"), ["hits", "misses", "inserts"]]) == (ac_hits, n - ac_hits, ac_ins)
        t_lru = (n - fp) * be.t_ns + fp * be.Tm_ns
        t_ac = ac_hits * be.t_ns + ac_ins * be.Tm_ns + fp * be.T_ns
        assert full.loc[(dev, "lru"), "time_ns"] == pytest.approx(t_lru, rel=1e-12)
        assert full.loc[(dev, "ac"), "time_ns"] == pytest.approx(t_ac, rel=1e-12)
        assert full.loc[(dev, "none"), "time_ns"] == pytest.approx(n * be.T_ns, rel=1e-12)
    g = gains(df).set_index(["device", "cache_fraction"])
    for dev in ("hdd-7200", "optane-dcpmm"):
        be = timings_from_device(dev)
        gd = g.xs(dev)
        rows = df[df.device == dev].set_index(["policy", "cache_fraction"])
        # gain of LRU over no cache with hit ratio h: 1 - (h t + (1 - h) Tm) / T (1e-12: float rounding)
        h = rows.loc["lru", "hit_ratio"]
        np.testing.assert_allclose(gd["lru_vs_none"], 1 - (h * be.t_ns + (1 - h) * be.Tm_ns) / be.T_ns, rtol=1e-12)
        np.testing.assert_allclose(gd["ac_vs_lru"], 1 - rows.loc["ac", "time_ns"] / rows.loc["lru", "time_ns"],
                                   rtol=1e-12)
        # LRU is a stack algorithm: a larger cache never hits less, so its gain never shrinks
        assert gd["lru_vs_none"].is_monotonic_increasing, dev


def test_break_even_share(proxy):
    ids, _ = proxy
    cnt = np.bincount(ids)
    # a block is worth caching when its access count exceeds the device's n* (equation 3)
    for dev in ("hdd-7200", "optane-dcpmm"):
        r = break_even_share(ids, dev)
        n_star = break_even(timings_from_device(dev)).n_star
        keep = cnt > n_star
        assert r.n_star == n_star and r.blocks == int((cnt > 0).sum()), dev
        assert r.worth_blocks == int(keep.sum()), dev
        assert r.share_accesses == pytest.approx(cnt[keep].sum() / len(ids), rel=1e-12), dev
    scm = break_even_share(ids, "optane-dcpmm")
    assert list(scm.to_frame().columns) == ["device", "n_star", "blocks", "worth_blocks", "share_blocks",
                                            "share_footprint_bytes", "share_accesses", "share_bytes"]
    w = np.where(ids % 2 == 0, 4096, 512)
    wb = break_even_share(ids, "hdd-7200", weights=w)
    keep = cnt[ids] > wb.n_star
    assert wb.share_bytes == pytest.approx(w[keep].sum() / w.sum())
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


@pytest.mark.parametrize("src, dst", [("steady", "first-touch"), ("first-touch", "steady")])
def test_with_insertion_equals_a_fresh_run(src, dst):
    # Re-timing the simulated counts with the other insertion model gives exactly what a run with that model
    # gives (hits/inserts do not depend on the timings); rel 1e-12: float rounding only.
    ids = np.random.default_rng(3).zipf(1.3, 3000) % 500
    devs = ["hdd-7200", "optane-dcpmm"]
    a = file_cache_curves(ids, devs, cache_fractions=[0.1, 0.5], insertion=dst)
    b = with_insertion(file_cache_curves(ids, devs, cache_fractions=[0.1, 0.5], insertion=src), dst)
    for col in ("Tm_ns", "time_ns", "mean_access_ns", "time_rel_none"):
        assert b[col].to_numpy() == pytest.approx(a[col].to_numpy(), rel=1e-12)
    with pytest.raises(ValueError, match="insertion must be one of"):
        with_insertion(a, "lru")


def test_lru_time_is_affine_in_the_insertion_cost():
    # time = hits t + inserts Tm + bypasses T: a dearer insertion adds exactly inserts x (difference) per
    # policy; "none" never inserts, so its time does not move; LRU inserts on every miss.
    ids = np.random.default_rng(4).zipf(1.2, 2000) % 300
    st_ = file_cache_curves(ids, "optane-dcpmm", cache_fractions=[0.2, 0.6])
    ft = with_insertion(st_, "first-touch")
    d = float(ft["Tm_ns"].iloc[0] - st_["Tm_ns"].iloc[0])
    assert (ft["time_ns"] - st_["time_ns"]).to_numpy() == pytest.approx((st_["inserts"] * d).to_numpy(), rel=1e-9)
    assert (st_.loc[st_.policy == "lru", "inserts"] == st_.loc[st_.policy == "lru", "misses"]).all()
    g = insertion_gains(st_)
    lru = g.pivot_table(index="cache_fraction", columns="insertion", values="lru_vs_none")
    # the dearer insertion model can only lower LRU's gain over no cache
    cheaper, dearer = ("steady", "first-touch") if d > 0 else ("first-touch", "steady")
    assert (lru[dearer] <= lru[cheaper] + 1e-12).all()


def test_storage_path_same_run_retimes_the_same_counts():
    """Issue 39: ``storage_path="same-run"`` changes only t, T and Tm (the counts are the trace's), to the
    model's same-run timings; below 4 KiB there is no same-run read and the study is refused."""
    import pandas as pd

    from models.storage import file_cache as fc
    from models.storage import file_cache_sim as fcs

    ids = np.array([0, 1, 2, 0, 1, 3, 4, 0, 1, 5, 2, 2])
    devs = ["hdd-7200", "optane-dcpmm"]
    paper = fcs.file_cache_curves(ids, devs, cache_fractions=[0.5, 1.0], storage_path="paper-factor")
    same = fcs.file_cache_curves(ids, devs, cache_fractions=[0.5, 1.0], storage_path="same-run")
    pd.testing.assert_frame_equal(fcs.file_cache_curves(ids, devs, cache_fractions=[0.5, 1.0]), same)  # the default
    counts = ["device", "cache_blocks", "policy", "hits", "misses", "inserts"]
    pd.testing.assert_frame_equal(paper[counts], same[counts])
    for d in devs:
        be = fc.timings_from_device(d, 4096, storage_path="same-run")
        row = same[same.device == d].iloc[0]
        assert (row.t_ns, row.T_ns, row.Tm_ns) == (be.t_ns, be.T_ns, be.Tm_ns)
    assert not np.allclose(paper.time_ns, same.time_ns)
    share = fcs.break_even_share(ids, "optane-dcpmm", storage_path="same-run")
    be = fc.timings_from_device("optane-dcpmm", 4096, storage_path="same-run")
    assert share.n_star == fc.break_even_hits(be.t_ns, be.T_ns, be.Tm_ns)
    with pytest.raises(ValueError, match="no direct read was measured .* for 2048-byte blocks .only 4096-65536 B"):
        fcs.file_cache_curves(ids, devs, block_size_bytes=2048, storage_path="same-run")
    with pytest.raises(ValueError, match=r"storage_path same-run \(the default\).*storage_path paper-factor"):
        fcs.break_even_share(ids, "optane-dcpmm", block_size_bytes=2048)


def test_the_reuse_histogram_of_counts_by_bincount_equals_the_general_one():
    """Issue 41: one byte per access takes the bincount path (no sort, no copies); the frame is the general
    path's (bytes given explicitly), exactly."""
    import pandas as pd

    from models.storage.file_cache_sim import reuse_histogram_of_counts

    g = np.random.default_rng(0)
    for _ in range(200):
        c = g.integers(0, int(g.integers(2, 80)), int(g.integers(1, 50)))
        if not (c > 0).any():
            with pytest.raises(ValueError, match="no accessed block"):
                reuse_histogram_of_counts(c)
            continue
        pd.testing.assert_frame_equal(reuse_histogram_of_counts(c), reuse_histogram_of_counts(c, c.astype(float)),
                                      check_exact=True)
