"""Trace statistics: request mix, footprint, sizes, reuse counts and reuse distances.

:func:`trace_stats` summarises a :class:`BlockTrace` (per fixed-size block, via
:func:`models.traces.blocks.split_blocks`) or a :class:`MemTrace` (per page). Everything is
vectorised; the reuse distances use one stable argsort of the block ids.

Definitions
-----------
reuse count
    Accesses per distinct block; the histogram gives how many blocks were accessed k times.
    With the break-even count n* of seed 004 (eq. 3), blocks with more than n* accesses are
    worth caching.
inter-request LBN distance
    Mean |start sector of request i - start sector of request i-1| [512-byte sectors], the
    randomness measure of seed 003 Fig. 8.
sequential fraction
    Share of requests (after the first) starting at the byte where the previous one ended.
reuse distance
    For every access to a block already accessed, the number of block accesses (and the time
    [ns]) since the previous access to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from numba import njit

from models._base import ModelResult
from models.traces.blocks import SPLIT_BYTES_PER_ACCESS, check_block_size, split_blocks
from models.traces.core import BlockTrace, MemTrace
from models.traces.exact import exact_mean, percentile_of_counts
from models.traces.exact import int_sum as _int_sum
from models.traces.extents import extent_pieces, use_extents

__all__ = ["TraceStats", "MemTraceStats", "trace_stats", "statistic_table", "reuse_count_histogram",
           "reuse_distances"]


@dataclass(frozen=True)
class TraceStats(ModelResult):
    """Summary of a block trace. Sizes in bytes, times in ns, distances in 512-byte sectors.

    ``to_frame()`` is one row of the scalar statistics (the histograms ``reuse_count_hist``
    and ``size_hist`` are tables of their own); :func:`statistic_table` gives the
    two-column ``statistic, value`` form.
    """

    name: str
    block_size: int
    requests: int
    reads: int
    writes: int
    write_fraction: float
    bytes_read: int
    bytes_written: int
    block_accesses: int
    footprint_blocks: int
    footprint_bytes: int
    size_mean_bytes: float
    size_min_bytes: int
    size_p50_bytes: float
    size_p90_bytes: float
    size_p99_bytes: float
    size_max_bytes: int
    duration_ns: int
    mean_lbn_distance_sectors: float
    sequential_fraction: float
    blocks_accessed_once: int
    mean_accesses_per_block: float
    reuses: int
    reuse_distance_mean_accesses: float
    reuse_distance_p50_accesses: float
    reuse_distance_p90_accesses: float
    reuse_time_mean_ns: float
    reuse_time_p50_ns: float
    reuse_count_hist: pd.DataFrame = field(repr=False, compare=False)
    size_hist: pd.DataFrame = field(repr=False, compare=False)
    #: ``"read/write"``, or ``"unknown"`` when the trace's format carries no operation
    #: (:attr:`BlockTrace.op_known`): then ``reads, writes, write_fraction, bytes_read, bytes_written``
    #: are None (shown as "unknown") -- never 0.
    operation: str = "read/write"
    #: How the percentiles were found: ``"exact"``, or which came from a histogram and why (a streamed trace
    #: whose distinct values outgrow the exact tables, :mod:`models.traces.stream_stats`).
    percentiles: str = "exact"


@dataclass(frozen=True)
class MemTraceStats(ModelResult):
    """Summary of a memory-reference trace; footprint in pages of ``page_size`` [bytes].

    ``to_frame()`` is one row of the scalar statistics (``reuse_count_hist`` is a table of
    its own).
    """

    name: str
    page_size: int
    references: int
    instruction_fetches: int
    loads: int
    stores: int
    modifies: int
    data_references: int
    write_fraction: float
    footprint_pages: int
    footprint_bytes: int
    instruction_pages: int
    data_pages: int
    mean_accesses_per_page: float
    reuse_count_hist: pd.DataFrame = field(repr=False, compare=False)


def _text(v) -> str:
    if v is None:  # a statistic the trace cannot tell (e.g. writes of a trace with no operation)
        return "unknown"
    return f"{v:.10g}" if isinstance(v, float) else str(v)


def statistic_table(row: pd.DataFrame, *, text: bool = False) -> pd.DataFrame:
    """The two-column form (``statistic``, ``value``) of a one-row table such as ``TraceStats.to_frame()``.

    Parameters
    ----------
    row : pandas.DataFrame
        One row; its columns become the ``statistic`` names, in order.
    text : bool, keyword-only
        Values as text (floats to 10 significant digits) in a string column, so the mixed
        types survive Arrow (the app's tables); else the values themselves in an object
        column (the CLI prints them in full).

    >>> statistic_table(pd.DataFrame([{"requests": 3, "write_fraction": 1 / 3}]), text=True)["value"].tolist()
    ['3', '0.3333333333']
    """
    if len(row) != 1:
        raise ValueError(f"statistic_table needs a one-row table (got {len(row)} rows)")
    values = row.astype(object).iloc[0].tolist()
    if text:
        return pd.DataFrame({"statistic": list(row.columns), "value": [_text(v) for v in values]}, dtype="string")
    return pd.DataFrame({"statistic": list(row.columns), "value": pd.Series(values, dtype=object)})


def reuse_count_histogram(ids: np.ndarray) -> pd.DataFrame:
    """How many distinct ids were accessed k times: columns ``accesses``, ``blocks``, ``share_blocks``.

    >>> reuse_count_histogram(np.array([0, 1, 0, 2, 0])).to_dict("list")
    {'accesses': [1, 3], 'blocks': [2, 1], 'share_blocks': [0.6666666666666666, 0.3333333333333333]}
    """
    ids = np.asarray(ids)
    if not len(ids):
        return pd.DataFrame({"accesses": np.zeros(0, np.int64), "blocks": np.zeros(0, np.int64),
                             "share_blocks": np.zeros(0)})
    codes = ids if ids.min() >= 0 and ids.max() < 4 * len(ids) + 16 else pd.factorize(ids)[0]
    per = np.bincount(codes)
    per = per[per > 0]
    hist = np.bincount(per)
    k = np.flatnonzero(hist)
    return pd.DataFrame({"accesses": k.astype(np.int64), "blocks": hist[k].astype(np.int64),
                         "share_blocks": hist[k] / len(per)})


def reuse_distances(ids: np.ndarray, time_ns: np.ndarray | None = None, *,
                    request: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """Reuse distances of every re-access: (accesses since the previous access, time since it [ns]).

    Returned in the order of the re-accesses (summaries do not depend on order). ``time_ns``
    is the time of each access, or -- with ``request`` -- of each request, ``request[i]``
    naming the request of access ``i`` (so no per-access time array is built). Memory beyond
    the two outputs: one int64 per distinct id when ``ids`` are dense codes ``0..M-1``
    (:func:`models.traces.blocks.split_blocks`), otherwise one factorisation of ``ids``.

    >>> d, t = reuse_distances(np.array([5, 7, 5, 5]), np.array([0, 10, 30, 35]))
    >>> d.tolist(), t.tolist()
    ([2, 1], [30, 5])
    """
    ids = np.asarray(ids)
    if len(ids) < 2:
        z = np.zeros(0, np.int64)
        return z, (z if time_ns is not None else None)
    codes = ids if ids.dtype.kind in "iu" and ids.min() >= 0 and ids.max() < 4 * len(ids) + 16 \
        else pd.factorize(ids)[0]
    n_ids = int(codes.max()) + 1
    if time_ns is None:
        t_arr, req = np.zeros(1, np.int64), np.zeros(0, np.int64)
    else:
        t_arr = np.ascontiguousarray(time_ns, dtype=np.int64)
        req = np.zeros(0, np.int64) if request is None else np.ascontiguousarray(request, dtype=np.int64)
    d, t = _reuse_kernel(np.ascontiguousarray(codes, dtype=np.int64), n_ids, t_arr, req, time_ns is not None)
    return d, (t if time_ns is not None else None)


@njit(cache=True, nogil=True)
def _reuse_kernel(codes, n_ids, time_ns, request, with_time):  # pragma: no cover - compiled
    """One pass: distance and time since the previous access of the same id (see :func:`reuse_distances`)."""
    last = np.full(n_ids, -1, np.int64)
    seen = 0
    for i in range(len(codes)):
        if last[codes[i]] < 0:
            seen += 1
        last[codes[i]] = i
    m = len(codes) - seen
    d = np.empty(m, np.int64)
    t = np.empty(m if with_time else 0, np.int64)
    last[:] = -1
    k = 0
    by_request = len(request) > 0
    for i in range(len(codes)):
        c = codes[i]
        j = last[c]
        if j >= 0:
            d[k] = i - j
            if with_time:
                if by_request:
                    t[k] = time_ns[request[i]] - time_ns[request[j]]
                else:
                    t[k] = time_ns[i] - time_ns[j]
            k += 1
        last[c] = i
    return d, t


def _pct(a: np.ndarray, q: float) -> float:
    """Percentile ``q`` of ``a`` (reorders ``a`` in place: pass arrays this module owns)."""
    return float(np.percentile(a, q, overwrite_input=True)) if len(a) else float("nan")


def trace_stats(trace: BlockTrace | MemTrace, block_size: int = 4096) -> TraceStats | MemTraceStats:
    """Statistics of a block trace (blocks of ``block_size``) or a memory trace (pages of ``block_size``).

    Parameters
    ----------
    trace : BlockTrace or MemTrace
        The trace.
    block_size : int
        Block (or page) size [bytes], a power of two.

    Returns
    -------
    TraceStats or MemTraceStats

    Examples
    --------
    >>> t = BlockTrace([0, 5, 9], [False, True, False], [0, 8192, 0], [4096, 8192, 4096], [0, 0, 0])
    >>> s = trace_stats(t)
    >>> s.requests, s.writes, s.footprint_blocks, s.block_accesses, s.mean_lbn_distance_sectors
    (3, 1, 3, 4, 16.0)
    >>> s.reuse_distance_mean_accesses, s.reuse_time_mean_ns
    (3.0, 9.0)
    """
    if isinstance(trace, MemTrace):
        return _mem_stats(trace, block_size)
    if not isinstance(trace, BlockTrace):
        raise TypeError(f"trace must be a BlockTrace or MemTrace, not {type(trace).__name__}")
    bs = check_block_size(block_size)
    n = len(trace)
    size = trace.size_bytes
    w = trace.is_write
    per_block = _extent_block_fields(trace, bs) if use_extents(trace, bs, SPLIT_BYTES_PER_ACCESS) else \
        _split_block_fields(trace, bs)
    lbn_dist_mean = exact_mean(np.abs(np.diff(trace.offset_bytes // 512))) if n > 1 else float("nan")
    size_q = [float(q) for q in np.percentile(size, [50, 90, 99])] if n else [float("nan")] * 3
    edges = 512 * 2 ** np.arange(0, 16)
    counts = np.histogram(size, bins=np.concatenate((edges, [np.iinfo(np.int64).max])))[0] if n else np.zeros(16)
    size_hist = pd.DataFrame({"size_from_bytes": edges, "size_to_bytes": np.concatenate((edges[1:], [np.nan])),
                              "requests": counts.astype(np.int64)})
    known = trace.op_known
    return TraceStats(
        name=trace.name, block_size=bs, requests=n, reads=int(n - w.sum()) if known else None,
        writes=int(w.sum()) if known else None,
        write_fraction=(float(w.mean()) if n else float("nan")) if known else None,
        bytes_read=_int_sum(size[~w]) if known else None, bytes_written=_int_sum(size[w]) if known else None,
        **{k: v for k, v in per_block.items() if k != "reuse_count_hist"},
        size_mean_bytes=exact_mean(size),
        size_min_bytes=int(size.min()) if n else 0,
        size_p50_bytes=size_q[0], size_p90_bytes=size_q[1], size_p99_bytes=size_q[2],
        size_max_bytes=int(size.max()) if n else 0,
        duration_ns=int(trace.time_ns.max() - trace.time_ns.min()) if n else 0,
        mean_lbn_distance_sectors=lbn_dist_mean,
        sequential_fraction=float(np.mean(trace.offset_bytes[1:] == trace.offset_bytes[:-1] + size[:-1]))
        if n > 1 else float("nan"),
        reuse_count_hist=per_block["reuse_count_hist"], size_hist=size_hist, operation="read/write" if known else "unknown",
    )


def _split_block_fields(trace: BlockTrace, bs: int) -> dict:
    """The per-block fields of :class:`TraceStats` from the block split (one row per block access)."""
    acc = split_blocks(trace, bs)
    n_acc, n_unique = len(acc), acc.n_unique
    block, request = acc.block, acc.request
    del acc  # the per-access block numbers, devices and write flags are not needed below: free them
    hist = reuse_count_histogram(block)
    per_block = np.bincount(block) if n_acc else np.zeros(0, np.int64)
    d, dt = reuse_distances(block, trace.time_ns, request=request)
    del block, request
    return dict(block_accesses=n_acc, footprint_blocks=n_unique, footprint_bytes=n_unique * bs,
                blocks_accessed_once=int((per_block == 1).sum()),
                mean_accesses_per_block=float(n_acc / n_unique) if n_unique else float("nan"),
                reuses=len(d), reuse_distance_mean_accesses=exact_mean(d),
                reuse_distance_p50_accesses=_pct(d, 50), reuse_distance_p90_accesses=_pct(d, 90),
                reuse_time_mean_ns=exact_mean(dt), reuse_time_p50_ns=_pct(dt, 50), reuse_count_hist=hist)


def _counted(values: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct ``values`` ascending with the sum of their ``counts``."""
    v, inv = np.unique(values, return_inverse=True)
    c = np.zeros(len(v), np.int64)
    np.add.at(c, inv, counts)
    return v, c


def _extent_block_fields(trace: BlockTrace, bs: int) -> dict:
    """:func:`_split_block_fields` per run of blocks (:func:`models.traces.extents.extent_pieces`): the same
    values (the percentiles by :func:`models.traces.exact.percentile_of_counts`, equal to NumPy's),
    without expanding a request into its blocks."""
    p = extent_pieces(trace, bs)
    n_acc, n_unique = p.accesses, p.footprint_blocks
    warm = p.stack_distance >= 0
    m = p.length[warm]
    reuses = int(m.sum())
    t = np.asarray(trace.time_ns, np.int64)
    d, dc = _counted(p.reuse_accesses[warm], m)
    dt, tc = _counted(t[p.request[warm]] - t[p.previous_request[warm]], m)
    k, blocks = _counted(p.final_count, p.final_length)
    hist = pd.DataFrame({"accesses": k.astype(np.int64), "blocks": blocks,
                         "share_blocks": blocks / n_unique if n_unique else np.zeros(0)})

    def mean(v, c):
        return sum(int(a) * int(b) for a, b in zip(v, c)) / reuses if reuses else float("nan")

    def pct(v, c, q):
        return percentile_of_counts(v, c, q) if reuses else float("nan")

    return dict(block_accesses=n_acc, footprint_blocks=n_unique, footprint_bytes=n_unique * bs,
                blocks_accessed_once=int(blocks[k == 1].sum()),
                mean_accesses_per_block=float(n_acc / n_unique) if n_unique else float("nan"),
                reuses=reuses, reuse_distance_mean_accesses=mean(d, dc),
                reuse_distance_p50_accesses=pct(d, dc, 50), reuse_distance_p90_accesses=pct(d, dc, 90),
                reuse_time_mean_ns=mean(dt, tc), reuse_time_p50_ns=pct(dt, tc, 50), reuse_count_hist=hist)


def _mem_stats(trace: MemTrace, page_size: int) -> MemTraceStats:
    ps = check_block_size(page_size)
    shift = ps.bit_length() - 1
    k = trace.kind
    n = len(trace)
    first = trace.address >> np.uint64(shift)
    last = (trace.address + np.maximum(trace.size, 1).astype(np.uint64) - np.uint64(1)) >> np.uint64(shift)
    # an access touches every page from its first to its last byte (lackey sizes reach 65535
    # bytes: up to 17 pages of 4 KiB, more of smaller pages)
    extra = (last - first).astype(np.int64)
    span = np.flatnonzero(extra)
    if len(span):
        reps = extra[span]
        starts = np.repeat(first[span], reps)
        step = np.arange(int(reps.sum()), dtype=np.int64) - np.repeat(np.cumsum(reps) - reps, reps) + 1
        pages = np.concatenate((first, starts + step.astype(np.uint64)))
        kinds = np.concatenate((k, np.repeat(k[span], reps)))
    else:
        pages, kinds = first, k
    codes, uniq = pd.factorize(pages)
    hist = reuse_count_histogram(codes)
    counts = np.bincount(k, minlength=4) if n else np.zeros(4, np.int64)
    n_data = int(counts[1:].sum())
    return MemTraceStats(
        name=trace.name, page_size=ps, references=n, instruction_fetches=int(counts[0]), loads=int(counts[1]),
        stores=int(counts[2]), modifies=int(counts[3]), data_references=n_data,
        write_fraction=float((counts[2] + counts[3]) / n_data) if n_data else float("nan"),
        footprint_pages=len(uniq), footprint_bytes=len(uniq) * ps,
        instruction_pages=int(len(pd.unique(pages[kinds == 0]))), data_pages=int(len(pd.unique(pages[kinds != 0]))),
        mean_accesses_per_page=float(len(pages) / len(uniq)) if len(uniq) else float("nan"),
        reuse_count_hist=hist,
    )
