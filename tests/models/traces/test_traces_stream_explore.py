"""Statistics and LRU curve from one read (models.traces.stream_explore): the same results as the two single
analyses exactly where both run, one read; over the memory budget the analysis that outgrew it is sampled, read
again, and says so statistic by statistic."""

from __future__ import annotations

import numpy as np
import pytest

from models.budget import BudgetExceeded, limit
from models.traces.stream_explore import PER_BLOCK_STATISTICS, stream_stats_and_lru
from models.traces.stream_mrc import stream_lru_mrc
from models.traces.stream_stats import stream_trace_stats
from tests.models.traces.test_traces_stream_stats import _same


def _msr(path, n: int, seed: int = 0, span: int = 20_000) -> str:
    rng = np.random.default_rng(seed)
    lines = [f"{128166372003061629 + i * 1000},hm,{rng.integers(0, 2)},{'Read' if rng.random() < .6 else 'Write'},"
             f"{int(rng.integers(0, span)) * 4096 + int(rng.integers(0, 2)) * 512},"
             f"{int(rng.choice([512, 4096, 65536]))},100" for i in range(n)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_one_read_gives_both_single_analyses_results_exactly(tmp_path):
    p = _msr(tmp_path / "t.csv", 6000)
    got = stream_stats_and_lru(p, 4096, format="msr", points=50, name="mine.csv")
    stats, _ = stream_trace_stats(p, 4096, format="msr", name="mine.csv")
    curve, _, fb = stream_lru_mrc(p, 4096, format="msr", points=50)
    assert got.reads == 1 and got.stats_rate is None and got.curve_rate is None and not got.curve_fallback
    assert _same(got.stats, stats) and got.stats.name == "mine.csv"
    assert got.curve.to_frame().equals(curve.to_frame())
    m = got.statistic_methods()
    assert set(m.method) == {"exact"} and set(m.sampling_rate) == {1.0}
    assert list(m.statistic) == list(stats.to_frame().columns)
    assert set(got.reuse_histogram().method) == {"exact"} and set(got.size_histogram().sampling_rate) == {1.0}


def test_statistics_alone_and_a_shards_curve_at_the_rate_asked(tmp_path):
    p = _msr(tmp_path / "t.csv", 3000, seed=1)
    alone = stream_stats_and_lru(p, 4096, format="msr", curve=False)
    assert alone.curve is None and alone.stats.requests == 3000
    got = stream_stats_and_lru(p, 4096, format="msr", curve_rate=0.25, points=20)
    assert got.curve_rate == 0.25 and not got.curve_fallback and got.stats_rate is None
    assert float(got.curve.rate) == 0.25


def test_over_the_budget_the_state_that_outgrew_it_is_sampled_and_each_statistic_says_how(tmp_path, monkeypatch):
    from models.traces import stream_stats

    monkeypatch.setattr(stream_stats, "BATCH_REQUESTS", 2000)  # small passes: the state outgrows the budget first
    p = _msr(tmp_path / "t.csv", 40_000, seed=2, span=2_000_000)
    reads = []
    with limit("3MB"):
        got = stream_stats_and_lru(p, 4096, format="msr", points=30, chunk_bytes=1 << 16,
                                   on_read=lambda k, why: reads.append((k, why)))
    assert got.reads == len(reads) + 1 >= 2 and [k for k, _ in reads] == list(range(2, got.reads + 1))
    assert got.stats_rate is not None or got.curve_rate is not None
    assert all("outgrew the run's memory budget" in why for _, why in reads)
    m = got.statistic_methods().set_index("statistic")
    exact_stats, _ = stream_trace_stats(p, 4096, format="msr")
    assert got.stats.requests == exact_stats.requests and got.stats.size_p50_bytes == exact_stats.size_p50_bytes
    if got.stats_rate is not None:
        assert 0 < got.stats_rate < 1
        assert (m.loc[list(PER_BLOCK_STATISTICS), "sampling_rate"] == got.stats_rate).all()
        assert m.loc["footprint_blocks", "method"].startswith("SHARDS spatial sample of the blocks, rate")
        assert (got.reuse_histogram().sampling_rate == got.stats_rate).all()
    assert m.loc["requests", "method"] == "exact" and m.loc["size_p50_bytes", "sampling_rate"] == 1.0
    if got.curve_rate is not None:
        assert got.curve_fallback and 0 < got.curve_rate < 1
    with limit("3MB"), pytest.raises(BudgetExceeded):  # a rate asked for: no fallback of the curve
        stream_stats_and_lru(p, 4096, format="msr", curve_rate=1.0, points=30, chunk_bytes=1 << 16)


def test_outgrown_value_tables_say_which_percentiles_are_from_a_histogram(tmp_path):
    p = _msr(tmp_path / "t.csv", 3000, seed=3)
    got = stream_stats_and_lru(p, 4096, format="msr", curve=False, max_value_entries=4)
    m = got.statistic_methods().set_index("statistic")
    assert "reuse distance" in got.histogram_tables
    assert "12-significant-bit histogram" in m.loc["reuse_distance_p50_accesses", "method"]
    assert m.loc["reuse_distance_mean_accesses", "method"] == "exact"


def test_a_memory_trace_gives_nothing(tmp_path):
    p = tmp_path / "t.lackey"
    p.write_text("I  04000000,4\n L 7ff000000,8\n")
    got = stream_stats_and_lru(str(p), 4096)
    assert got.stats is None and got.curve is None
