"""Exact integer sums and means of int64 columns: no float rounding, so any split into blocks gives the same value
(the streamed statistics of :mod:`models.traces.stream_stats` equal the in-memory ones bit for bit)."""

from __future__ import annotations

import numpy as np

__all__ = ["exact_mean", "int_sum"]


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
