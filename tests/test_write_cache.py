"""HALO (seed 003 Algorithm 1) vs LRU write cache; crash consistency; paper directions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from models import write_cache as wc
from models.traces.core import BlockTrace


def _trace(lbn_sectors, nsect, writes):
    lbn = np.asarray(lbn_sectors, dtype=np.int64)
    n = len(lbn)
    return BlockTrace(np.arange(n), np.asarray(writes, bool), lbn * 512, np.asarray(nsect) * 512,
                      np.zeros(n, np.int32))


def test_halo_read_miss_not_allocated_write_hit_in_place():
    # write 1 block, read it (hit), read another (miss, served by HDD, not allocated), read it again
    t = _trace([0, 0, 4096, 4096], [8, 8, 8, 8], [True, False, False, False])
    run = wc.simulate_halo(wc.prepare_requests(t), 64)
    assert (run.hits, run.misses) == (1, 3)
    assert run.hdd_lbn.tolist() == [4096, 4096] and not run.hdd_write.any()
    assert run.dirty_blocks_at_end == 1


def test_partial_block_read_goes_to_hdd_for_missing_sectors():
    t = _trace([0, 0], [2, 8], [True, False])
    run = wc.simulate_halo(wc.prepare_requests(t), 64)
    assert run.hdd_lbn.tolist() == [2] and run.hdd_nsect.tolist() == [6]


def test_destage_writes_whole_bucket_sorted_as_one_batch():
    # 20 PCM blocks, threshold 95 % -> destage at 19 blocks. Fill region 0 with 16 blocks in
    # descending order, then 3 blocks in three other regions far away.
    lbn = [8 * k for k in range(15, -1, -1)] + [2048 * 5, 2048 * 9, 2048 * 13]
    t = _trace(lbn, [8] * len(lbn), [True] * len(lbn))
    run = wc.simulate_halo(wc.prepare_requests(t), 20)
    assert run.destaged_buckets == 1
    # the big bucket (16 > average 4.75 + TH_BCOUNTS 4) went out as one sequential request
    assert run.hdd_lbn.tolist() == [0] and run.hdd_nsect.tolist() == [128] and run.hdd_write.all()


def test_outdated_bucket_destaged_first():
    p = wc.HaloParams(th_bcounts=1000, th_recency=1e9, outdate_recency=5)
    # region 3 touched once at the start, then 18 writes into region 0
    lbn = [2048 * 3] + [8 * k for k in range(18)]
    t = _trace(lbn, [8] * len(lbn), [True] * len(lbn))
    run = wc.simulate_halo(wc.prepare_requests(t), 20, p)
    assert run.hdd_lbn.tolist() == [2048 * 3]


def test_lru_writes_back_dirty_block_on_eviction():
    t = _trace([0, 8, 16, 0], [8, 8, 8, 8], [True, True, True, False])
    run = wc.simulate_lru_write_cache(wc.prepare_requests(t), 2)
    # block 0 evicted by block 16 (written back), then the read of block 0 misses
    assert run.hdd_lbn.tolist() == [0, 0] and run.hdd_write.tolist() == [True, False]


def test_traffic_no_cache_is_one_and_bad_input():
    t = _trace([0, 100], [8, 3], [True, False])
    r = wc.run_write_cache(t, "none", 1)
    assert r["traffic_rate"] == 1.0 and r["dram_bytes"] == 0
    with pytest.raises(ValueError, match="policy"):
        wc.run_write_cache(t, "fifo", 1)
    with pytest.raises(ValueError, match="cache_mb"):
        wc.run_write_cache(t, "halo", 0.001)


def test_dram_model():
    # cuckoo: 8 B per block at load 0.9, bucket table 12 B per MiB of volume
    assert wc.halo_dram_bytes(1000, 2**30) == 12 * 1024 + int(np.ceil(8000 / 0.9))
    assert wc.lru_dram_bytes(1000) > 8 * 1000


def _recovered_value(req, pcm, rec, sector):
    blk = sector // wc.BLOCK_SECTORS
    i = int(np.searchsorted(req.block_key, blk))
    if i < len(req.block_key) and req.block_key[i] == blk and i in rec["map"]:
        p = rec["map"][i]
        if (int(pcm["bits"][p]) >> (sector % wc.BLOCK_SECTORS)) & 1:
            return int(pcm["data"][p, sector % wc.BLOCK_SECTORS])
    return int(pcm["hdd"][sector])


requests_st = st.lists(
    # a small hot range (overwrites, partial blocks) mixed with 3 regions (destaging)
    st.tuples(st.integers(0, 64) | st.integers(0, 3 * 2048 - 16), st.integers(1, 16), st.booleans()),
    min_size=1, max_size=60)


@given(reqs=requests_st, cap=st.integers(2, 24), crash=st.floats(0, 1))
def test_crash_anywhere_then_recover_loses_no_written_data(reqs, cap, crash):
    t = _trace([r[0] for r in reqs], [r[1] for r in reqs], [r[2] for r in reqs])
    req = wc.prepare_requests(t)
    full = wc.simulate_halo(req, cap, track_data=True)
    crash_at = int(crash * full.pcm["steps"])
    run = wc.simulate_halo(req, cap, crash_at=crash_at, track_data=True)
    pcm = run.pcm
    rec = wc.recover(req, pcm)  # raises on inconsistent metadata
    done = pcm["completed_requests"]
    # expected content: the last completed write of each sector; the request in flight
    # at the crash may have reached the sector or not
    expect: dict[int, int] = {}
    for r, (lbn, n, w) in enumerate(reqs[:done]):
        if w:
            for s in range(lbn, lbn + n):
                expect[s] = r + 1
    inflight = {}
    if pcm["crashed"] and reqs[done][2]:
        lbn, n, _ = reqs[done]
        inflight = {s: done + 1 for s in range(lbn, lbn + n)}
    for s in set(expect) | set(inflight):
        got = _recovered_value(req, pcm, rec, s)
        allowed = {expect.get(s, 0)} | ({inflight[s]} if s in inflight else set())
        assert got in allowed, (s, got, allowed)
    # the rebuilt bucket counts equal the valid blocks per region
    assert sum(rec["bcounts"].values()) == int((pcm["bits"] != 0).sum())


def test_recover_detects_corruption():
    t = _trace([0, 8], [8, 8], [True, True])
    req = wc.prepare_requests(t)
    pcm = dict(wc.simulate_halo(req, 8).pcm)
    pcm["item"] = pcm["item"].copy()
    pcm["item"][pcm["bits"] != 0] = 0
    with pytest.raises(ValueError, match="both claim"):
        wc.recover(req, pcm)


def test_scaled_sizes_and_sweep_columns():
    t = _trace(np.arange(0, 8 * 4000, 8), [8] * 4000, [True] * 4000)
    sizes = wc.scaled_cache_sizes_mb(wc.footprint_bytes(t))
    assert sizes[-1] / sizes[0] == pytest.approx(24)
    df = wc.sweep_cache_sizes(t, [1.0, 2.0])
    assert set(df.policy) == {"none", "lru", "halo"} and len(df) == 6


@pytest.fixture(scope="module")
def tpce():
    from models.traces.synthetic import preset

    return preset("tpce", 30_000, seed=0, scale=0.02)


def test_paper_direction_random_writes(tpce):
    # TPC-E-like, 99.8 % writes: HALO's HDD stream is far more sequential and it runs faster
    size = float(wc.scaled_cache_sizes_mb(wc.footprint_bytes(tpce))[4])  # "2 GB"
    h = wc.run_write_cache(tpce, "halo", size)
    lru = wc.run_write_cache(tpce, "lru", size)
    assert h["mean_lbn_distance"] < 0.5 * lru["mean_lbn_distance"]
    assert h["exec_time_s"] < lru["exec_time_s"]
    # traffic: the paper has HALO 5-10 % below LRU; ours is within a few % either way
    # (HALO destages whole buckets at 95 % utilisation) -- see the report, not tuned
    assert h["traffic_rate"] == pytest.approx(lru["traffic_rate"], rel=0.10)


def test_read_only_trace_gains_nothing():
    rng = np.random.default_rng(0)
    t = _trace(rng.integers(0, 10**6, 2000) * 8, [8] * 2000, [False] * 2000)
    for p in ("halo", "lru"):
        assert wc.run_write_cache(t, p, 1.0)["traffic_rate"] == 1.0


def test_write_cache_page_renders_and_reacts():
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    page = Path(__file__).resolve().parents[1] / "app" / "views" / "write_cache.py"
    at = AppTest.from_file(str(page), default_timeout=300)
    at.session_state["wc.n_requests"] = 20_000
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    m = {x.label: x.value for x in at.metric}
    assert any(k.startswith("HALO vs LRU execution time") for k in m)
    at.radio(key="wc.size_mode").set_value("manual").run()
    at.text_input(key="wc.sizes_mb").set_value("1, 2").run()
    assert not at.exception
    assert len(at.dataframe[0].value) == 6  # 3 policies x 2 sizes
    at.text_input(key="wc.sizes_mb").set_value("-1").run()
    assert any("sizes_mb" in e.value for e in at.error)


def test_cli_writecache(capsys, tmp_path):
    from cli.main import main

    assert main(["writecache", "mqsim:tpcc-small", "--policy", "halo", "--policy", "lru", "--policy", "none",
                 "--cache-mb", "4"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0] == "policy,cache_mb,traffic_rate,mean_lbn_distance,hdd_throughput_mbps,exec_time_s,dram_bytes"
    assert [r.split(",")[0] for r in out[1:]] == ["halo", "lru", "none"]
    assert main(["writecache", "mqsim:tpcc-small", "--cache-mb", "4", "--drive", "nope"]) == 2
    assert main(["writecache", str(tmp_path / "none.csv"), "--cache-mb", "4"]) == 2
