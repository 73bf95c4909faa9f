"""Exact integer sums, means and percentiles of int64 columns: no float rounding, so any split into blocks gives the same value
(the streamed statistics of :mod:`models.traces.stream_stats` equal the in-memory ones bit for bit)."""

from __future__ import annotations

import numpy as np

__all__ = ["exact_mean", "int_sum", "percentile_of_counts"]


def exact_mean(a: np.ndarray) -> float:
    """Mean of an int64 array from its exact integer sum (no float rounding in the sum; any block split agrees).

    >>> exact_mean(np.array([2**62, 2**62, 1]))
    3.0744573456182584e+18
    """
    if not len(a):
        return float("nan")
    return int_sum(a) / len(a)


def int_sum(a: np.ndarray) -> int:
    """Exact sum of an int64 array (split in 32-bit halves so no partial sum wraps)."""
    a = np.asarray(a, np.int64)
    hi, lo = a >> 32, a & 0xFFFFFFFF
    return (int(hi.sum()) << 32) + int(lo.sum())


def percentile_of_counts(values: np.ndarray, counts: np.ndarray, q: float) -> float:
    """``np.percentile(np.repeat(values, counts), q)`` (linear method, bit for bit) without repeating.

    ``values`` sorted ascending, int64; ``counts`` >= 1.

    >>> v, c = np.array([1, 5, 9]), np.array([2, 1, 3])
    >>> percentile_of_counts(v, c, 90) == float(np.percentile(np.repeat(v, c), 90))
    True
    """
    n = int(counts.sum())
    if not n:
        return float("nan")
    virtual = (n - 1) * np.true_divide(q, 100)
    prev = int(np.floor(virtual))
    nxt = prev + 1
    if virtual >= n - 1:
        prev = nxt = n - 1
    cum = np.cumsum(counts)
    a = values[np.searchsorted(cum, prev, side="right")]
    b = values[np.searchsorted(cum, nxt, side="right")]
    gamma = np.float64(virtual - np.floor(virtual)) if prev != n - 1 or nxt != n - 1 else np.float64(virtual - prev)
    diff = b - a
    return float(b - diff * (1 - gamma)) if gamma >= 0.5 else float(a + diff * gamma)
