"""Issue 41: the error bound a sampled plan row says is read from the measurements of bench/bench_plan_sampling.py,
at the nearest measured rate at or below the row's, and says when the rate is below the measured range."""

from __future__ import annotations

from models.data import read_csv
from models.planner.sampling_error import ERROR_FILE, error_bounds, error_text, sampling_sentence


def test_the_bound_is_the_largest_error_at_the_nearest_measured_rate_at_or_below():
    df = read_csv(ERROR_FILE)
    rates = sorted(set(df.rate))
    assert {"file-cache", "storage"} <= set(df.role) and len(rates) >= 2
    mid = (rates[0] + rates[1]) / 2  # between the two lowest: the lower one bounds it
    at, m, n = error_bounds("file-cache", mid)
    assert at == rates[0] and n == df.trace.nunique()
    want = df[(df.role == "file-cache") & (df.rate == rates[0]) & (df.metric == "hit_ratio")].error.max()
    assert m["hit_ratio"] == ("abs", want)
    assert error_bounds("file-cache", rates[-1])[0] == rates[-1]
    text = error_text("file-cache", rates[-1])
    assert f"at rate 1/{1 / rates[-1]:,.0f} (" in text and "data/measurements/plan_sampling_error.csv" in text
    low = error_text("storage", rates[0] / 4)
    assert "below the measured range" in low and f"1/{4 / rates[0]:,.0f}" in low
    assert "not measured" in error_text("paging", 0.5)


def test_the_sampling_sentence_names_method_rate_why_and_error():
    s = sampling_sentence({"method": "SHARDS spatial sample of 4 KiB blocks", "rate": 0.125, "why": "W", "error": "E"})
    assert s.startswith("sampled: SHARDS spatial sample of 4 KiB blocks at rate 0.125 (1 in 8)")
    assert "because W; E" in s
