"""An uploaded block trace too large to read whole on a trace page: kept on disk, its LRU curve streamed.

The trace pages parse an upload whole (:func:`app.components.traces.block_trace_picker`). An upload whose file
is larger than the planner's in-memory limit (:data:`models.planner.stream_plan.IN_MEMORY_MAX_BYTES`), or whose
whole read is refused (more memory than the run's budget, :mod:`models.budget`), is instead a :class:`LargeUpload`: the file stored by
:func:`app.components.uploads.store_upload`, read in blocks by the analyses that stream. Its LRU miss-ratio
curve is :func:`models.traces.stream_mrc.stream_lru_mrc`, the path of ``pcm-planner mrc``: exact while the
per-block state fits the budget, else SHARDS at a rate that fits, and the page says which (:func:`streamed_mrc`).
:func:`streamed_trace` gives its statistics, histograms and that curve from one read of the file
(:func:`models.traces.stream_explore.stream_stats_and_lru`), each with its method and sampling rate.
Nothing here draws: the page does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pandas as pd

from models.budget import BudgetExceeded
from models.planner.stream_plan import IN_MEMORY_MAX_BYTES, too_large_why

__all__ = ["LargeUpload", "StreamedMrc", "StreamedTrace", "stream_reason", "refused_whole_why", "streamed_mrc",
           "streamed_trace", "mrc_table", "STREAMED_METHODS", "NOT_STREAMED"]

#: The page's miss-ratio methods a large upload streams (LRU only, as ``pcm-planner mrc`` streams).
STREAMED_METHODS = ("exact", "shards")
#: What the trace explorer draws for a trace in memory and not for a streamed one, and why (the page says so).
NOT_STREAMED = {
    "offset scatter": "it draws a uniform sample of the requests' offsets over time, picked from the whole trace",
    "How sure? panel": "its break-even share model takes every block access in order, from the trace in memory",
}


@dataclass(frozen=True)
class LargeUpload:
    """An uploaded block trace read in blocks, never whole.

    Attributes
    ----------
    path : str
        The stored upload (:func:`app.components.uploads.store_upload`; named by its SHA-256).
    name : str
        The user's file name (messages name it, never ``path``).
    nbytes : int
        The file's size [bytes].
    format : str
        The trace format chosen (``"auto"``: detected).
    options_json : str
        The reader's options (a CSV's column mapping, ``max_requests``) as sorted JSON.
    why : str
        Why it is streamed (the limit, named).
    """

    path: str
    name: str
    nbytes: int
    format: str
    options_json: str
    why: str

    @property
    def options(self) -> dict:
        """The reader's options (:attr:`options_json` read)."""
        return json.loads(self.options_json)


def stream_reason(nbytes: int) -> str | None:
    """Why an upload of ``nbytes`` bytes is streamed without trying its whole read (its file over
    :data:`~models.planner.stream_plan.IN_MEMORY_MAX_BYTES`, as the planner decides), or None.

    >>> stream_reason(1 << 20) is None, stream_reason(IN_MEMORY_MAX_BYTES + 1).endswith("(IN_MEMORY_MAX_BYTES)")
    (True, True)
    """
    return too_large_why(nbytes) if nbytes > IN_MEMORY_MAX_BYTES else None


def refused_whole_why(exc: BaseException) -> str | None:
    """Why a whole read refused with ``exc`` is streamed instead: the run's memory budget
    (:class:`~models.budget.BudgetExceeded`); None for any other error (a bad file: shown as it is)."""
    if isinstance(exc, BudgetExceeded):
        return f"its whole read needs more memory than the run's budget ({exc})"
    return None


def mrc_table(curve, block_size: int) -> pd.DataFrame:
    """The trace pages' miss-ratio table of ``curve`` (a :class:`~models.sim.stack_distance.HitRatioCurve`):
    ``cache_blocks``, ``cache_bytes`` [bytes], ``cache_fraction_of_footprint`` [-], its hit ratios and
    ``miss_ratio`` [-]."""
    df = curve.to_frame()
    m = max(int(curve.footprint_blocks), 1)
    df.insert(1, "cache_bytes", df["cache_blocks"] * block_size)
    df.insert(2, "cache_fraction_of_footprint", df["cache_blocks"] / m)
    df["miss_ratio"] = 1.0 - df["hit_ratio"]
    return df


@dataclass(frozen=True)
class StreamedMrc:
    """What :func:`streamed_mrc` gives.

    Attributes
    ----------
    table : pandas.DataFrame
        :func:`mrc_table` with ``method`` (exact or shards) and ``sampling_rate`` [-] (1: exact) columns.
    how : str
        How it was computed, for the page (method, rate, why sampled; why the file is streamed is
        :attr:`LargeUpload.why`).
    rate : float or None
        The SHARDS rate used [-]; None: exact.
    footprint_blocks : int
        Distinct blocks [blocks] (estimated from the sample for SHARDS).
    requests : int
        Block accesses counted [-].
    """

    table: pd.DataFrame
    how: str
    rate: float | None
    footprint_blocks: int
    requests: int


def streamed_mrc(up: LargeUpload, block_size: int, *, method: str, rate: float, policy: str = "lru",
                 points: int = 200, progress=None) -> StreamedMrc:
    """The LRU miss-ratio curve of the upload read in blocks (:class:`StreamedMrc`).

    ``method`` ``"exact"``: exact while the per-block state fits the run's budget, else SHARDS at the rate
    :func:`~models.traces.stream_mrc.stream_lru_mrc` falls back to (:attr:`StreamedMrc.how` says so and why, as
    ``pcm-planner mrc`` does on stderr); ``"shards"``: SHARDS at ``rate`` [-]. ``points`` log-spaced sizes
    [-] from one block to the footprint; ``progress(fraction)`` is told the share of the file read. ValueError
    (naming the upload) for another policy or method, a memory-reference trace or a trace of large requests.
    """
    from models.traces.stream_mrc import LargeExtents, stream_lru_mrc

    if not _streams(policy, method):
        raise ValueError(_not_streamed(up))
    try:
        curve, _meta, fallback = stream_lru_mrc(up.path, block_size, format=up.format, points=points,
                                                sample_rate=None if method == "exact" else rate, seed=0,
                                                progress=progress, **up.options)
    except LargeExtents:
        raise ValueError(f"{up.name}: its requests span many blocks each (large requests), whose LRU curve is "
                         f"computed from the trace read whole, and {up.why}") from None
    if curve is None:
        raise ValueError(f"{up.name}: a memory-reference trace, not a block trace")
    used = float(getattr(curve, "rate", rate)) if method == "shards" else fallback
    return _mrc_result(curve, block_size, method, used, fallback)


def _streams(policy: str, method: str) -> bool:
    """The curve of ``policy`` by ``method`` streams (LRU, exact or SHARDS)."""
    return policy == "lru" and method in STREAMED_METHODS


def _not_streamed(up: LargeUpload) -> str:
    return (f"{up.name}: {up.why}, so its miss-ratio curve is streamed, and only the LRU curve streams (exact or "
            "SHARDS sampled); pick LRU with exact or SHARDS")


def _mrc_result(curve, block_size: int, method: str, used: float | None, fallback: float | None) -> StreamedMrc:
    """:class:`StreamedMrc` of a streamed ``curve`` (``used``: its SHARDS rate, None exact; ``fallback``: that
    rate when the exact state outgrew the budget)."""
    from models.traces.stream_mrc import budget_note

    # why the file is streamed at all (up.why) is the page's to say once, above the curve
    if fallback is not None:
        how = f"streamed from the file; {budget_note(fallback)}"
    elif method == "shards":
        how = f"SHARDS estimate at sampling rate {used:g}, streamed from the file"
    else:
        how = "exact (one Mattson stack-distance pass), streamed from the file"
    df = mrc_table(curve, block_size)
    df["method"] = "exact" if used is None else "shards"
    df["sampling_rate"] = 1.0 if used is None else used
    return StreamedMrc(df, how, used, int(curve.footprint_blocks), int(curve.requests))


@dataclass(frozen=True)
class StreamedTrace:
    """What :func:`streamed_trace` gives: the trace explorer's statistics, histograms and curve of a large upload.

    Attributes
    ----------
    stats : TraceStats
        The statistics (:func:`models.traces.stream_stats.stream_trace_stats`'s).
    table : pandas.DataFrame
        ``statistic``, ``value`` (text, as the page's table of a trace in memory), ``method``, ``sampling_rate`` [-].
    sizes : pandas.DataFrame
        The request-size histogram with ``method`` and ``sampling_rate`` columns.
    reuse : pandas.DataFrame
        The reuse-count histogram with ``method`` and ``sampling_rate`` columns.
    stats_how : str
        How the statistics were computed (method, rate, why sampled), for the page.
    reuse_how : str
        How the reuse-count histogram was computed.
    sampled : bool
        The per-block statistics come from a sample.
    mrc : StreamedMrc or None
        The LRU curve (None: the policy or method asked for does not stream; :attr:`mrc_error` says why).
    mrc_error : str or None
        Why there is no curve.
    reads : int
        Times the file was read [-].
    """

    stats: object
    table: pd.DataFrame
    sizes: pd.DataFrame
    reuse: pd.DataFrame
    stats_how: str
    reuse_how: str
    sampled: bool
    mrc: StreamedMrc | None
    mrc_error: str | None
    reads: int


def _stats_how(res) -> str:
    """How the streamed statistics were computed, in one sentence or two."""
    from models.traces.stream_stats import SIGNIFICANT_BITS, sampling_note

    how = "exact, streamed from the file" if res.stats_rate is None else \
        f"streamed from the file; {sampling_note(res.stats_rate)}"
    if res.histogram_tables:
        how += (f"; the {', '.join(res.histogram_tables)} percentiles read from a histogram of {SIGNIFICANT_BITS} "
                f"significant bits (relative error < 2**-{SIGNIFICANT_BITS}): more distinct values than the exact "
                "tables hold")
    return how


def streamed_trace(up: LargeUpload, block_size: int, *, method: str, rate: float, policy: str = "lru",
                   points: int = 200, progress=None, on_requests=None, on_read=None) -> StreamedTrace:
    """The statistics, histograms and LRU miss-ratio curve of the upload from one read of its file
    (:class:`StreamedTrace`).

    The curve as :func:`streamed_mrc` gives it (``method``, ``rate`` [-], ``points``); a ``policy`` or ``method``
    that does not stream gives the statistics alone and :attr:`StreamedTrace.mrc_error` naming the upload. The
    statistics are exact while their per-block state fits the run's budget beside the curve's, else estimated
    from a spatial sample of the blocks, the file read again (``on_read(k, why)``; ``progress(fraction)`` of each
    read, ``on_requests(n)`` requests parsed). ValueError (naming the upload) for a memory-reference trace or a
    trace of large requests.
    """
    from models.traces.stream_explore import stream_stats_and_lru
    from models.traces.stream_stats import LargeExtents

    curve = _streams(policy, method)
    try:
        res = stream_stats_and_lru(up.path, block_size, format=up.format, curve=curve,
                                   curve_rate=None if method == "exact" else rate, points=points, seed=0,
                                   progress=progress, on_requests=on_requests, on_read=on_read,
                                   **{"name": up.name, **up.options})
    except LargeExtents:
        raise ValueError(f"{up.name}: its requests span many blocks each (large requests), whose statistics and "
                         f"miss-ratio curve are computed per extent from the trace read whole, and {up.why}") from None
    if res.stats is None:
        raise ValueError(f"{up.name}: a memory-reference trace, not a block trace")
    from models.traces.stats import statistic_table

    table = statistic_table(res.stats.to_frame(), text=True)
    m = res.statistic_methods()
    table["method"] = m["method"].astype("string").to_numpy()
    table["sampling_rate"] = m["sampling_rate"].to_numpy()
    mrc = None
    if curve:
        fallback = res.curve_rate if res.curve_fallback else None
        mrc = _mrc_result(res.curve, block_size, method, res.curve_rate, fallback)
    reuse_how = "exact (every block's accesses counted), sampling rate 1" if res.stats_rate is None else (
        f"SHARDS spatial sample of the blocks, sampling rate {res.stats_rate:.6g} (each count of the sample "
        "divided by the rate)")
    return StreamedTrace(stats=res.stats, table=table, sizes=res.size_histogram(), reuse=res.reuse_histogram(),
                         stats_how=_stats_how(res), reuse_how=reuse_how, sampled=res.stats_rate is not None,
                         mrc=mrc, mrc_error=None if curve else _not_streamed(up), reads=res.reads)
