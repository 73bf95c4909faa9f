"""Issue 41: the block table's SHARDS fallback -- a table over its share of the budget keeps a spatial sample of the
(device, 4 KiB block) keys: exactly the keys whose hash falls below ``rate * 2**53``, their counts exact, numbered in
order of first access, whatever the chunking and wherever the downsampling happened."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.budget import BudgetExceeded, limit
from models.sim.sampling import block_hash53, hash_salt, rate_threshold
from models.traces.block_table import MIN_SAMPLE_RATE, BlockTable
from models.traces.stream_stats import _BLOCK_BITS

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _reference(off, size, dev, rate):
    """The kept keys' ids (first access order) over every access, and their counts, by brute force."""
    keys = []
    for o, s, d in zip(off, size, dev):
        first, last = o >> 12, (o + s - 1) >> 12
        keys += [(int(d) << _BLOCK_BITS) + b for b in range(first, last + 1)]
    keys = np.array(keys, np.int64)
    keep = block_hash53(keys.astype(np.uint64), hash_salt(0)) < rate_threshold(rate)
    kept = keys[keep]
    order = {}
    for k in kept.tolist():
        order.setdefault(k, len(order))
    ids = np.array([order[k] for k in kept.tolist()], np.int64)
    return ids, np.bincount(ids, minlength=len(order)), len(keys)


@st.composite
def requests(draw):
    n = draw(st.integers(1, 60))
    off = np.array(draw(st.lists(st.integers(0, 400 * 4096), min_size=n, max_size=n)), np.int64)
    size = np.array(draw(st.lists(st.integers(1, 5 * 4096), min_size=n, max_size=n)), np.int64)
    dev = np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), np.int64)
    cuts = sorted(set(draw(st.lists(st.integers(1, n), max_size=5))) | {n})
    halvings = draw(st.lists(st.integers(0, len(cuts) - 1), max_size=4))  # downsample after these chunks
    return off, size, dev, cuts, halvings


@FAST
@given(requests())
def test_downsampling_keeps_exactly_the_keys_below_the_threshold_with_exact_counts(req):
    off, size, dev, cuts, halvings = req
    t = BlockTable(4096)
    start = 0
    for k, end in enumerate(cuts):
        t.add(off[start:end], size[start:end], dev[start:end])
        for _ in range(halvings.count(k)):
            t.downsample("forced")
        start = end
    rate = 2.0 ** -len(halvings)
    assert t.rate == rate and t.sampled == bool(halvings)
    ids, counts, n = _reference(off, size, dev, rate)
    assert t.n_accesses == n  # every access counted, sampled or not
    assert t.n_unique == len(counts) and t.sampled_accesses == int(counts.sum())
    assert t.counts.tolist() == counts.tolist()
    got = np.concatenate([x for _, x in t.id_slices(off, size, dev)])
    assert got.tolist() == ids.tolist()  # second pass: the sampled keys' ids, in access order, others skipped
    assert t.footprint_blocks == len(counts) / rate


@FAST
@given(requests())
def test_a_table_at_rate_one_is_the_exact_table(req):
    off, size, dev, cuts, _ = req
    t, ref = BlockTable(4096), BlockTable(4096)
    t.share = 1.0  # may sample, but needs not
    start = 0
    for end in cuts:
        t.add(off[start:end], size[start:end], dev[start:end])
        start = end
    ref.add(off, size, dev)
    assert not t.sampled and t.rate == 1.0
    assert t.counts.tolist() == ref.counts.tolist() and t.n_unique == ref.n_unique
    assert t.ids(off, size, dev).tolist() == ref.ids(off, size, dev).tolist()
    assert t.sampled_accesses == t.n_accesses == ref.n_accesses


def test_over_its_share_the_table_samples_under_its_cap_and_says_why():
    g = np.random.default_rng(3)
    off = g.integers(0, 200_000, 60_000) * 4096
    size, dev = np.full(len(off), 4096), np.zeros(len(off), np.int64)
    t = BlockTable(4096, what="the test table")
    t.share, t.extra_bytes_per_key = 0.5, 10
    with limit(400_000):
        for a in range(0, len(off), 7000):
            t.add(off[a:a + 7000], size[a:a + 7000], dev[a:a + 7000])
        t.fit()
    assert t.sampled and t.held_bytes() <= 200_000
    assert "the test table would need about" in t.sample_why and "share of the run's memory budget" in t.sample_why
    ids, counts, _ = _reference(off, size, dev, t.rate)
    assert t.counts.tolist() == counts.tolist()
    exact = len(np.unique(off))
    assert abs(t.footprint_blocks - exact) / exact < 0.2  # the estimate of the distinct blocks (SHARDS)


def test_below_the_lowest_rate_the_budget_refusal_stands():
    t = BlockTable(4096, what="the test table")
    t.share = 1.0
    for _ in range(int(round(-np.log2(MIN_SAMPLE_RATE)))):
        t.downsample("forced")
    with pytest.raises(BudgetExceeded, match="MIN_SAMPLE_RATE.*--memory-budget"):
        t.downsample("forced")
