"""A block trace's statistics and its LRU miss-ratio curve from one read of its file, in bounded memory.

:func:`stream_stats_and_lru` hands every block the readers parse (:func:`models.traces.chunks.chunk_sink`) to a
:class:`~models.traces.stream_stats.StatsStream` and an :class:`~models.traces.stream_mrc.LruStream` at once, so a
trace too large to load gets both the statistics of :func:`~models.traces.stream_stats.stream_trace_stats` and the
curve of :func:`~models.traces.stream_mrc.stream_lru_mrc` -- the same results, exactly where both run -- from one
read instead of two. The two states are summed against the run's memory budget (:mod:`models.budget`): each
stream's steps run with the other's state held. When one of them outgrows it, that one falls back to its spatial
sample (SHARDS, Waldspurger et al., FAST 2015) at a power-of-two rate about a quarter of the share of the input
read when the budget ran out, as the single-analysis functions do (of the two, the one holding the larger state),
and the file is read again (at most
:data:`~models.traces.stream_stats.MAX_SAMPLE_HALVINGS` halvings per analysis): :attr:`StreamedExplore.reads`
counts the reads.

:meth:`StreamedExplore.statistic_methods` says, statistic by statistic, how each was found (exact, estimated from
the sample at which rate, or a percentile read from a histogram of
:data:`~models.traces.stream_stats.SIGNIFICANT_BITS` significant bits); the histograms carry their method and rate
as columns (:meth:`StreamedExplore.size_histogram`, :meth:`StreamedExplore.reuse_histogram`).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from models._base import ModelResult
from models.budget import BudgetExceeded, reserve
from models.traces.chunks import chunk_sink
from models.traces.stats import TraceStats
from models.traces.stream_mrc import LruStream
from models.traces.stream_stats import (
    MAX_SAMPLE_HALVINGS,
    MAX_VALUE_ENTRIES,
    SIGNIFICANT_BITS,
    STATE_BYTES_PER_BLOCK,
    StatsStream,
    _reopenable,
)

__all__ = ["StreamedExplore", "stream_stats_and_lru", "PER_BLOCK_STATISTICS", "PERCENTILE_TABLES"]

#: The statistics estimated from the spatial sample of the blocks when the per-block state is sampled (the
#: footprint, the counts per block, the reuses and their distances and times); the others are per request, exact.
PER_BLOCK_STATISTICS = ("footprint_blocks", "footprint_bytes", "blocks_accessed_once", "mean_accesses_per_block",
                        "reuses", "reuse_distance_mean_accesses", "reuse_distance_p50_accesses",
                        "reuse_distance_p90_accesses", "reuse_time_mean_ns", "reuse_time_p50_ns")
#: The percentiles and the value table each is read from (its label in :attr:`StreamedExplore.histogram_tables`).
PERCENTILE_TABLES = {"size_p50_bytes": "request size", "size_p90_bytes": "request size",
                     "size_p99_bytes": "request size", "reuse_distance_p50_accesses": "reuse distance",
                     "reuse_distance_p90_accesses": "reuse distance", "reuse_time_p50_ns": "reuse time"}
#: The block columns a reader that does not stream returns whole (fed as one chunk).
_COLUMNS = ("time_ns", "is_write", "offset_bytes", "size_bytes", "device")


@dataclass(frozen=True)
class StreamedExplore(ModelResult):
    """What :func:`stream_stats_and_lru` gives.

    Attributes
    ----------
    stats : TraceStats or None
        The trace's statistics (None: a memory-reference trace).
    stats_rate : float or None
        The per-block statistics' sampling rate [-] (None: exact).
    histogram_tables : tuple of str
        The value tables whose percentiles came from a histogram of ``SIGNIFICANT_BITS`` significant bits
        (``"request size"``, ``"reuse distance"``, ``"reuse time"``; empty: every percentile exact).
    curve : HitRatioCurve or ShardsCurve or None
        The LRU hit-ratio curve (None: not asked for, or a memory-reference trace).
    curve_rate : float or None
        The curve's SHARDS rate [-] (None: exact).
    curve_fallback : bool
        True when ``curve_rate`` was chosen because the exact curve's state outgrew the budget.
    reads : int
        Times the file was read [-] (1 unless an analysis fell back to a sample).
    meta : dict
        The reader's metadata.
    """

    stats: TraceStats | None = field(repr=False, compare=False)
    stats_rate: float | None
    histogram_tables: tuple[str, ...]
    curve: object = field(repr=False, compare=False)
    curve_rate: float | None
    curve_fallback: bool
    reads: int
    meta: dict = field(repr=False, compare=False, default_factory=dict)

    def statistic_method(self, statistic: str) -> tuple[str, float]:
        """``(method, sampling_rate)`` of one statistic (a :class:`TraceStats` field): ``"exact"`` and 1, or how
        it was estimated and the rate [-] (1 when only a histogram's rounding applies)."""
        parts = []
        rate = 1.0
        if self.stats_rate is not None and statistic in PER_BLOCK_STATISTICS:
            parts.append(f"SHARDS spatial sample of the blocks, rate {self.stats_rate:.6g}")
            rate = float(self.stats_rate)
        if PERCENTILE_TABLES.get(statistic) in self.histogram_tables:
            parts.append(f"percentile of a {SIGNIFICANT_BITS}-significant-bit histogram "
                         f"(relative error < 2**-{SIGNIFICANT_BITS})")
        return ("; ".join(parts) or "exact"), rate

    def statistic_methods(self) -> pd.DataFrame:
        """One row per statistic of ``stats.to_frame()``: ``statistic``, ``method``, ``sampling_rate`` [-]."""
        names = list(self.stats.to_frame().columns) if self.stats is not None else []
        got = [self.statistic_method(n) for n in names]
        return pd.DataFrame({"statistic": names, "method": [m for m, _ in got],
                             "sampling_rate": np.array([r for _, r in got], float)})

    def size_histogram(self) -> pd.DataFrame:
        """The request-size histogram with ``method`` and ``sampling_rate`` columns (per request: always exact)."""
        return self.stats.size_hist.assign(method="exact", sampling_rate=1.0)

    def reuse_histogram(self) -> pd.DataFrame:
        """The reuse-count histogram (blocks accessed k times) with ``method`` and ``sampling_rate`` columns: the
        sample's counts divided by the rate when the per-block state is sampled."""
        if self.stats_rate is None:
            return self.stats.reuse_count_hist.assign(method="exact", sampling_rate=1.0)
        return self.stats.reuse_count_hist.assign(method="shards sample (blocks scaled by 1/rate)",
                                                  sampling_rate=float(self.stats_rate))


def _next_rate(acc, rate: float) -> float:
    """The rate of the next read after ``acc`` outgrew the budget: a power of two about a quarter of the share
    read (the distinct blocks grow at most in proportion to the input), at least halved."""
    frac = acc.share_read() if acc.progress[1] > 0 else 1.0
    return min(rate / 2, 2.0 ** math.floor(math.log2(max(frac * rate / 4, 2.0 ** -30))))


def _to_sample(stats: StatsStream, lru: LruStream | None, curve_may: bool, halvings: dict) -> str | None:
    """Which analysis a refused read samples next: of those that may still sample (the curve only when no rate was
    asked for; at most ``MAX_SAMPLE_HALVINGS`` halvings each) and hold blocks, the one with the larger state (the
    refused step may be the other's: its state fills the budget they share); None: none may."""
    may = {"stats": stats, "curve": lru if curve_may else None}
    ok = {k: a for k, a in may.items() if a is not None and a.n_keys > 0 and halvings[k] < MAX_SAMPLE_HALVINGS}
    return max(ok, key=lambda k: ok[k].state_bytes) if ok else None


def stream_stats_and_lru(src, block_size: int = 4096, *, format: str = "auto", curve: bool = True,
                         curve_rate: float | None = None, points: int | None = None, sizes=None, seed=0,
                         progress=None, on_requests=None, on_read=None,
                         max_value_entries: int = MAX_VALUE_ENTRIES, **options) -> StreamedExplore:
    """The statistics and the LRU hit-ratio curve of a block trace file, from one read (module docstring).

    Parameters
    ----------
    src : path, bytes or seekable binary file object
        The trace (plain, gzip or zstd).
    block_size : int
        Block size [bytes], a power of two.
    format : str
        Trace format (``"auto"``: detected).
    curve : bool
        Also the LRU curve (False: the statistics alone).
    curve_rate : float or None
        The curve's SHARDS rate [-]; None: exact while its state fits the budget, else the fallback rate.
    points, sizes, seed
        As :func:`~models.traces.stream_mrc.stream_lru_mrc` takes them (cache sizes [blocks]).
    progress : callable
        ``progress(x)``: the share of the input read [-] (or bytes, its size unknown), each read from 0.
    on_requests : callable
        ``on_requests(n)``: ``n`` more requests parsed.
    on_read : callable
        ``on_read(k, why)``: read ``k`` (2, 3, ...) of the file starts, ``why`` saying which analysis is
        sampled now and at which rate.
    max_value_entries : int
        Size of each exact percentile table [entries] (:class:`~models.traces.stream_stats.StatsStream`).
    **options
        The reader's options (``name``, ``max_requests``, a CSV's columns, ``chunk_bytes``).

    Returns
    -------
    StreamedExplore

    Raises
    ------
    BudgetExceeded
        A state the budget refuses even sampled (or ``curve_rate`` given), named.
    LargeExtents
        Requests of many blocks each: their statistics and curve are computed per extent from the whole trace.
    ValueError
        A malformed trace (the reader's error) or a trace without requests.
    """
    if isinstance(src, os.PathLike):
        src = os.fspath(src)
    stats_rate, lru_rate = 1.0, 1.0 if curve_rate is None else float(curve_rate)
    halvings = {"stats": 0, "curve": 0}
    reads = 0
    while True:
        reads += 1
        stats = StatsStream(block_size, max_value_entries=max_value_entries, sample_rate=stats_rate)
        lru = LruStream(block_size, sample_rate=lru_rate, seed=seed) if curve else None
        try:
            empty = _read_once(src, format, stats, lru, progress, on_requests, options)
            if empty is None:
                return StreamedExplore(None, None, (), None, None, False, reads, {})
            with reserve(lru.state_bytes if lru is not None else 0, "the miss-ratio curve's state"):
                st = stats.result(empty.name, op_known=empty.op_known)
            if not st.requests:
                raise ValueError(f"{empty.name}: the trace has no requests")
            crv = None
            if lru is not None:
                lru.flush()
                crv = lru.curve(sizes=sizes, points=points)
        except BudgetExceeded:
            who = _to_sample(stats, lru, curve_rate is None, halvings)
            if who is None or not _reopenable(src):
                raise
            halvings[who] += 1
            if who == "stats":
                stats_rate = _next_rate(stats, stats_rate)
                why = f"the statistics' per-block state sampled at rate {stats_rate:.6g}"
            else:
                lru_rate = _next_rate(lru, lru_rate)
                why = f"the miss-ratio curve's state sampled (SHARDS) at rate {lru_rate:.6g}"
            del stats, lru
            if on_read is not None:
                on_read(reads + 1, f"{why}: the exact state outgrew the run's memory budget")
            continue
        tables = tuple(label for label, v in (("request size", stats.size_counts), ("reuse distance", stats.dist),
                                              ("reuse time", stats.rtime)) if not v.exact)
        return StreamedExplore(st, None if stats_rate == 1 else stats_rate, tables, crv,
                               None if lru_rate == 1 else lru_rate, curve_rate is None and lru_rate < 1, reads,
                               dict(empty.meta))


def _read_once(src, format, stats: StatsStream, lru: LruStream | None, progress, on_requests, options):
    """One read of ``src`` feeding both streams (each step with the other's state held); the reader's empty trace
    (its name and metadata), or None for a memory-reference trace."""
    from models.traces.core import MemTrace
    from models.traces.readers import read_trace

    def told(x):
        if x <= 1.0:  # a fraction of the input (its size known); else bytes
            for acc in (stats, lru):
                if acc is not None:
                    acc.progress = [acc.progress[1], x]
        if progress is not None:
            progress(x)

    def take(cols: dict) -> None:
        with reserve(lru.state_bytes if lru is not None else 0, "the miss-ratio curve's state"):
            stats.add_chunk(cols)
        if lru is not None:
            lru.add_chunk(cols)  # the statistics' table is held (below)
        if on_requests is not None:
            on_requests(len(cols["offset_bytes"]))

    with reserve(STATE_BYTES_PER_BLOCK * len(stats._hkeys), "the trace statistics' per-block state") as hold:
        stats.hold = hold
        try:
            with chunk_sink(take):
                empty = read_trace(src, format, progress=told, **options)
            if isinstance(empty, MemTrace):
                return None
            if len(empty):  # a reader that does not stream: its whole trace is the one chunk
                take({c: getattr(empty, c) for c in _COLUMNS})
        finally:
            stats.hold = None
    return empty
