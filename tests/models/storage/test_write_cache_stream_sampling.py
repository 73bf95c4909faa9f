"""The streamed write cache's sampled fallback (issue 41): a 1 MiB-region sample when the exact state exceeds its
share of the memory budget (:class:`models.storage.write_cache_stream.WriteCacheStream`)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models import budget
from models.devices import get_device
from models.planner.role_stream import trace_chunks
from models.planner.role_write_cache import WriteCacheStream as Role
from models.sim.sampling import block_hash53, hash_salt, rate_threshold
from models.storage import write_cache as wc
from models.storage import write_cache_stream as wcs
from models.storage.write_cache_stream import WriteCacheStream as Model
from models.traces.core import BlockTrace
from tests.models.planner.test_role_streams import _batches

_SETTINGS = settings(max_examples=8, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
REGION_BLOCKS = wc.REGION_SECTORS // wc.BLOCK_SECTORS


def _trace(seed: int, n: int = 600, regions: int = 40) -> BlockTrace:
    """Reads and writes of 1-40 blocks, some unaligned and across regions, over ``regions`` 1 MiB regions."""
    rng = np.random.default_rng(seed)
    w = rng.random(n) < 0.6
    off = rng.integers(0, regions * 256, n) * 4096 + rng.integers(0, 8, n) * 512 * (rng.random(n) < 0.3)
    size = rng.integers(1, 41, n) * 4096
    return BlockTrace(np.arange(n) * 1000, w, off, size, np.zeros(n, int))


def _run(model, tr, sizes, seen=None):
    """Both passes of ``tr`` in chunks of ``sizes``; ``seen`` collects state_bytes after every step."""
    chunks = trace_chunks(tr, sizes)
    for c in chunks:
        model.first(c)
        seen is not None and seen.append(model.state_bytes)
    model.end_first()
    seen is not None and seen.append(model.state_bytes)
    for c in chunks:
        model.second(c)
        seen is not None and seen.append(model.state_bytes)
    return model


def _sampled_written(tr, rate: float) -> set[int]:
    """The written 4 KiB blocks of a one-device trace whose 1 MiB region's hash is below the rate's threshold."""
    off, end = np.asarray(tr.offset_bytes), np.asarray(tr.offset_bytes) + np.asarray(tr.size_bytes)
    w = np.asarray(tr.is_write)
    blocks = np.unique(np.concatenate([np.arange(a // 4096, (b - 1) // 4096 + 1) for a, b in zip(off[w], end[w])]))
    keep = block_hash53(blocks // REGION_BLOCKS, hash_salt(0)) < rate_threshold(rate)
    return set(blocks[keep].tolist())


def _fields(r: wc.WriteCacheResult) -> dict:
    return {k: getattr(r, k) for k in ("traffic_rate", "exec_time_s", "hits", "misses", "hdd_requests",
                                       "hdd_write_sectors", "mean_lbn_distance")}


def test_rate_one_is_the_exact_run():
    """At rate 1 (asked, or the budget off) the stream is exact: no sampling said, results those of
    run_write_cache on the whole trace."""
    tr = _trace(1)
    with budget.limit(0):
        m = _run(Model(1.0, sample_rate=1.0), tr, [97])
        ref = wc.run_write_cache(tr, "halo", 1.0)
    assert m.sampling is None and m.rate == 1.0
    got = m.result("halo")
    assert got.hits == ref.hits and got.hdd_requests == ref.hdd_requests
    assert got.traffic_rate == ref.traffic_rate
    assert got.exec_time_s == pytest.approx(ref.exec_time_s, rel=1e-12)


def test_a_tiny_budget_samples_within_the_cap_and_says_so():
    """A budget below the exact state: the stream lowers its region rate, its state stays within the cap after
    every step, the result is the run at that rate from the start, and ``sampling`` names the method, the rate,
    why and the measured error."""
    tr = _trace(2, n=3000, regions=400)
    with budget.limit(0), _batches(200):
        exact = _run(Model(1.0), tr, [150])
        full = exact.state_bytes
    cap = full // 3
    seen: list[int] = []
    with budget.limit(2 * cap), _batches(200):
        m = Model(1.0)
        m.state_share = 0.5
        _run(m, tr, [150], seen)
        got = m.result("halo")
    assert m.rate < 1 and max(seen) <= cap
    s = m.sampling
    assert s["method"] == wcs.SAMPLE_METHOD and s["rate"] == m.rate
    assert "budget" in s["why"] and "--memory-budget" in s["why"]
    assert "measurements/write_cache_sampling_error.csv" in s["error"]
    with budget.limit(0), _batches(200):
        forced = _run(Model(1.0, sample_rate=m.rate), tr, [150]).result("halo")
    assert _fields(got) == _fields(forced)
    assert got.traffic_rate != exact.result("halo").traffic_rate  # a sample, not the exact run
    assert m.result("none") == exact.result("none")  # the no-cache stream stays exact


@_SETTINGS
@given(seed=st.integers(0, 10_000), sizes=st.lists(st.integers(1, 40), min_size=1, max_size=4),
       share=st.sampled_from([0.2, 0.35, 0.6]))
def test_lowering_the_rate_keeps_exactly_the_regions_under_the_threshold(seed, sizes, share):
    """Whatever the chunking and wherever the rate is lowered, the written blocks kept are exactly those whose
    region's hash is below the final rate's threshold, and the run equals one sampled at that rate from the
    start."""
    tr = _trace(seed, n=2000, regions=1000)
    with budget.limit(0):
        full = _run(Model(1.0), tr, [len(tr)]).state_bytes
    with budget.limit(int(full * share)), _batches(32):
        m = _run(Model(1.0), tr, sizes)
        got = m.result("halo")
    assert m.rate < 1
    assert set(m.block_key.tolist()) == _sampled_written(tr, m.rate)
    with budget.limit(0), _batches(32):
        forced = _run(Model(1.0, sample_rate=m.rate), tr, sizes)
    assert np.array_equal(forced.block_key, m.block_key)
    assert _fields(forced.result("halo")) == _fields(got)


def test_refused_below_the_minimum_rate_naming_the_option():
    """A share of the budget smaller than the stream's empty tables: sampled down to the lowest rate, then
    refused with the option named."""
    tr = _trace(3)
    m = Model(1.0)
    m.state_share = 0.005
    with budget.limit(1_000_000), pytest.raises(budget.BudgetExceeded, match="lowest rate.*--memory-budget"):
        _run(m, tr, [len(tr)])
    assert m.rate == wcs.MIN_SAMPLE_RATE


def test_the_error_text_reads_the_measured_bound_or_says_it_is_beyond_it():
    """The error named is the measurement file's at the nearest measured rate at or below the rate used; beyond
    the measured range it says so."""
    from models.data import read_csv

    df = read_csv(wcs.ERROR_FILE)
    r = float(df["rate"].max())
    text = wcs.sampling_error_text(r * 1.5 if r < 1 else r)
    assert f"rate {r:g}" in text and wcs.ERROR_FILE in text
    worst = df[(df.rate == r) & (df.metric == "row_value")]["abs_error"].max()
    assert f"row value within {worst:.0%}" in text
    assert "measured only down to" in wcs.sampling_error_text(float(df["rate"].min()) / 2)


def test_the_role_shares_the_protocol_and_rows_come_from_the_sample():
    """The planner's role exposes state_share / state_bytes / sampling and makes rows (not a refusal) from the
    sample under a budget its exact state exceeds."""
    tr = _trace(4, n=3000, regions=400)
    role = Role(bands=False)
    assert role.state_share == 1.0 and role.sampling is None
    role.state_share = 0.25
    assert role.model.state_share == 0.25
    with budget.limit(0), _batches(200):
        exact = Role(bands=False)
        for c in trace_chunks(tr, [500]):
            exact.first(c)
        exact.end_first({}, 0)
    with budget.limit(4 * exact.state_bytes // 3), _batches(200):
        chunks = trace_chunks(tr, [500])
        for c in chunks:
            role.first(c)
        role.end_first({}, 0)
        for c in chunks:
            role.second(c)
        rows = role.rows(SimpleNamespace(name="w"), tr, [get_device("pcm-samsung-20nm")], None, None)
    assert role.sampling is not None and role.sampling["rate"] < 1
    assert rows[0]["value"] > 0 and rows[0]["verdict"] != "needs data"
