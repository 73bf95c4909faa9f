"""split_blocks properties (Hypothesis) and trace statistics."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.traces.blocks import check_block_size, split_blocks
from models.traces.core import BlockTrace, MemTrace
from models.traces.formats import read_lackey, read_mqsim
from models.traces.stats import reuse_count_histogram, reuse_distances, statistic_table, trace_stats

ROOT = Path(__file__).resolve().parents[3]


@st.composite
def traces(draw):
    n = draw(st.integers(0, 40))
    top = draw(st.sampled_from([1 << 20, 1 << 40]))  # a small block range (direct table) or a sparse one (hashing)
    off = draw(st.lists(st.integers(0, top), min_size=n, max_size=n))
    size = draw(st.lists(st.integers(1, 40_000), min_size=n, max_size=n))
    dev = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    wr = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return BlockTrace(np.arange(n), wr, off, size, dev)


@given(traces(), st.integers(0, 14), st.booleans())
def test_split_blocks_properties(t, shift, per_device):
    bs = 1 << shift
    b = split_blocks(t, bs, per_device=per_device)
    off, size = t.offset_bytes, t.size_bytes
    # block count = sum over requests of ceil spans
    spans = (off + size - 1) // bs - off // bs + 1
    assert len(b) == int(spans.sum())
    # ids compact 0..M-1, numbered in order of first access
    if len(b):
        uniq, first = np.unique(b.block, return_index=True)
        assert uniq.tolist() == list(range(b.n_unique))
        assert np.all(np.diff(first) > 0)
    # the blocks of each request cover exactly its bytes: first block holds the first byte,
    # last block the last byte, consecutive blocks within a request
    for i in range(len(t)):
        lb = b.lbn[b.request == i]
        assert lb[0] * bs <= off[i] < (lb[0] + 1) * bs
        assert lb[-1] * bs <= off[i] + size[i] - 1 < (lb[-1] + 1) * bs
        assert np.all(np.diff(lb) == 1)
        assert np.all(b.is_write[b.request == i] == t.is_write[i])
    # same id <=> same (device, lbn) (or same lbn when per_device=False)
    key = list(zip(b.device.tolist(), b.lbn.tolist(), strict=True)) if per_device else b.lbn.tolist()
    codes = pd.factorize(pd.Series(key, dtype=object))[0] if len(key) else np.zeros(0, np.int64)
    assert np.array_equal(codes, b.block)
    assert (b.block.dtype, b.lbn.dtype, b.request.dtype, b.device.dtype, b.is_write.dtype) == \
        (np.int64, np.int64, np.int64, t.device.dtype, bool)


def test_split_blocks_bad_size_and_real_trace():
    t = read_mqsim(ROOT / "data/traces/block/tpcc-small.trace.gz")
    for bad in (3000, 0, -4096, 4096.5):
        with pytest.raises(ValueError, match="power of two"):
            split_blocks(t, bad)
    assert check_block_size(512) == 512
    b = split_blocks(t, 4096)
    # tpcc requests are 8 KiB-aligned multiples: mean 16.66 sectors -> >= 2 blocks per 16-sector request
    assert len(b) >= len(t) * 2
    assert b.n_unique == len(np.unique(np.stack([b.device, b.lbn]), axis=1).T)


def test_reuse_helpers_against_bruteforce():
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 30, 400)
    t = np.cumsum(rng.integers(1, 5, 400))
    d, dt = reuse_distances(ids, t)
    last, exp_d, exp_t = {}, [], []
    for i, x in enumerate(ids.tolist()):
        if x in last:
            exp_d.append(i - last[x])
            exp_t.append(t[i] - t[last[x]])
        last[x] = i
    assert sorted(d.tolist()) == sorted(exp_d) and sorted(dt.tolist()) == sorted(exp_t)
    h = reuse_count_histogram(ids)
    counts = np.bincount(ids)
    assert int((h["accesses"] * h["blocks"]).sum()) == len(ids)
    assert dict(zip(h["accesses"], h["blocks"], strict=True)) == {
        k: int((counts == k).sum()) for k in set(counts.tolist()) if k > 0}


def test_trace_stats_block():
    t = read_mqsim(ROOT / "data/traces/block/tpcc-small.trace.gz")
    s = trace_stats(t, 4096)
    assert (s.requests, s.reads, s.writes) == (6999, 4381, 2618)
    assert s.write_fraction == pytest.approx(2618 / 6999)
    acc = split_blocks(t, 4096)
    assert s.footprint_blocks == acc.n_unique and s.footprint_bytes == acc.n_unique * 4096
    assert int(s.reuse_count_hist["blocks"].sum()) == s.footprint_blocks
    assert int((s.reuse_count_hist["accesses"] * s.reuse_count_hist["blocks"]).sum()) == s.block_accesses
    assert s.reuses == s.block_accesses - s.footprint_blocks
    assert int(s.size_hist["requests"].sum()) == 6999
    assert s.size_p50_bytes == np.median(t.size_bytes)
    lbn = t.offset_bytes // 512
    assert s.mean_lbn_distance_sectors == pytest.approx(np.abs(np.diff(lbn)).mean())
    row = s.to_frame()
    assert len(row) == 1 and row["footprint_blocks"].item() == s.footprint_blocks
    assert "reuse_count_hist" not in row and "size_hist" not in row  # histograms are tables of their own
    tab = statistic_table(row, text=True)
    assert list(tab.columns) == ["statistic", "value"] and tab["statistic"].tolist() == list(row.columns)
    assert tab.set_index("statistic").loc["write_fraction", "value"] == f"{s.write_fraction:.10g}"
    assert statistic_table(row)["value"].tolist() == row.iloc[0].tolist()
    # a bigger block never has a bigger footprint in blocks
    assert trace_stats(t, 65536).footprint_blocks <= s.footprint_blocks


def test_trace_stats_mem():
    m = read_lackey(b"I  00001000,4\n L 00001ffe,4\n S 00005000,8\n M 00005004,4\nI  00001004,4\n")
    s = trace_stats(m, 4096)
    assert (s.references, s.instruction_fetches, s.loads, s.stores, s.modifies) == (5, 2, 1, 1, 1)
    # pages: 0x1 (I, I, L), 0x2 (L crosses 0x1fff -> 0x2001), 0x5 (S, M)
    assert s.footprint_pages == 3 and s.instruction_pages == 1 and s.data_pages == 3
    assert s.write_fraction == pytest.approx(2 / 3)
    assert trace_stats(MemTrace([], [], []), 4096).references == 0


def test_trace_stats_empty_and_type():
    s = trace_stats(BlockTrace.empty())
    assert s.requests == 0 and s.footprint_blocks == 0
    with pytest.raises(TypeError):
        trace_stats([1, 2, 3])


@given(st.lists(st.integers(-(1 << 40), 1 << 40), max_size=60), st.integers(0, 3))
def test_block_codes_equal_factorize_on_both_paths(values, spread):
    """The direct-table numbering (small range) and the hash path number blocks exactly as pandas does."""
    from models.traces.blocks import _codes

    key = np.asarray(values, np.int64) >> (spread * 12)  # spread 3: narrow range -> table path
    codes, m = _codes(key)
    exp, uniq = pd.factorize(key, sort=False)
    assert codes.tolist() == exp.tolist() and m == len(uniq) and codes.dtype == np.int64


@given(st.lists(st.integers(0, 12), min_size=0, max_size=80), st.integers(1, 4))
def test_reuse_distances_by_request_equal_per_access_times(ids, per_request):
    """Times looked up through the request index equal times given per access (no per-access array)."""
    ids = np.asarray(ids, np.int64)
    request = np.arange(len(ids)) // per_request
    t_req = np.cumsum(np.arange(1, len(ids) // per_request + 2) * 7)
    d1, t1 = reuse_distances(ids, t_req[request])
    d2, t2 = reuse_distances(ids, t_req, request=request)
    assert d1.tolist() == d2.tolist() and t1.tolist() == t2.tolist()
    assert len(d1) == len(ids) - len(set(ids.tolist()))
