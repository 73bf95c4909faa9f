"""Trace-driven file-cache study: no cache vs LRU vs admission-controlled cache (seed 004 §2).

Park & Bahn replay web-server and proxy-server file traces and plot the total storage
access time against the cache size (percent of the trace footprint) for an HDD (Figure 3:
caching gains ~70 %), for SCM (Figure 4: LRU gains < 3 %) and for SCM with an
admission-controlled cache that inserts a block only when it is used more than once
(Figure 5: 20-40 % better than LRU). This module reproduces those curves for any block
trace and any catalogue device with the per-access costs of equations 1-2:

- a hit costs ``t`` (file-cache access),
- a miss that inserts the block costs ``Tm`` (storage access + insertion; LRU always inserts),
- a miss that bypasses the cache costs ``T`` (AC-cache before admission; no cache at all),

with ``t``, ``T``, ``Tm`` from :func:`models.storage.file_cache.timings_from_device` (keyword
``insertion``: the steady-state insertion cost by default, or ``"first-touch"``; keyword
``storage_path``: ``T`` on DRAM-speed storage as the direct read measured in the insertion cost's own
runs, ``"same-run"``, the default, 4-64 KiB blocks only (others refused), or ``"paper-factor"``, the
paper's 1.3 t). LRU hit
counts for every size come from one stack-distance pass
(:func:`models.sim.stack_distance.hit_ratio_curve`; for a single size, the same count from one LRU
simulation, which is cheaper); the AC-cache is simulated per size
(:func:`models.sim.policies.simulate`, policy ``"ac"``).

:func:`break_even_share` applies the break-even rule (equation 3) to the trace's
reuse-count histogram: the share of blocks (and of the bytes moved) whose access count
exceeds ``n*``, i.e. that a clairvoyant, capacity-unconstrained cache would want to hold.

References
----------
.. [1] Y. Park, H. Bahn, "Issues in File Caching and Virtual Memory Paging with Fast SCM
   Storage", ASTESJ 5(5), 2020, doi:10.25046/aj050581 (seed 004), section 2, eqs. 1-3,
   Figures 3-5.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from models._base import ModelResult
from models.devices import DeviceProfile
from models.provenance import device_keys, param, trace_keys
from models.sim.policies import simulate
from models.sim.primitives import access_bytes, as_ids, as_weights  # access_bytes re-exported
from models.sim.stack_distance import (  # log_sizes re-exported (it lives with the MRC code)
    hit_ratio_curve,
    log_sizes,
)
from models.storage.file_cache import (
    DEFAULT_INSERTION,
    DEFAULT_STORAGE_PATH,
    INSERTION_MODELS,
    break_even_hits,
    cache_run_time_ns,
    insertion_cost,
    storage_path_keys,
    timings_from_device,
)

__all__ = ["DEFAULT_FRACTIONS", "access_bytes", "log_sizes", "file_cache_curves", "with_insertion", "gains",
           "insertion_gains", "reuse_histogram", "reuse_histogram_of_counts", "BreakEvenShare", "break_even_share",
           "break_even_of_histogram", "cache_blocks_of", "SimulationKeys",
           "provenance_keys_for"]

#: Cache sizes as a fraction of the footprint, like the x axis of Figures 3-5.
DEFAULT_FRACTIONS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def _devices(device) -> list:
    if isinstance(device, (str, DeviceProfile)):
        return [device]
    devs = list(device)
    if not devs:
        raise ValueError("device: give at least one device")
    return devs


def _dev_name(d) -> str:
    return d if isinstance(d, str) else d.name


def _fractions(cache_fractions) -> np.ndarray:
    f = np.atleast_1d(np.asarray(DEFAULT_FRACTIONS if cache_fractions is None else cache_fractions, dtype=float))
    if f.ndim != 1 or f.size == 0 or not np.all(np.isfinite(f)) or f.min() <= 0 or f.max() > 1:
        raise ValueError("cache_fractions must be a non-empty list of fractions of the footprint in (0, 1]")
    return f


def cache_blocks_of(cache_fractions, footprint_blocks: int) -> np.ndarray:
    """Cache sizes [blocks] of fractions of a footprint of ``footprint_blocks`` blocks: rounded to whole
    blocks, at least 1 (the sizes :func:`file_cache_curves` simulates).

    >>> cache_blocks_of([0.05, 0.5, 1.0], 10).tolist()
    [1, 5, 10]
    """
    frac = np.asarray(cache_fractions, dtype=float)
    return np.maximum(1, np.rint(frac * footprint_blocks)).astype(np.int64)


def file_cache_curves(
    ids,
    device: str | DeviceProfile | Sequence[str | DeviceProfile],
    *,
    block_size_bytes: int = 4096,
    cache_fractions: Sequence[float] | None = None,
    ghost_fraction: float = param("file_cache_sim.ghost_fraction").value,
    progress: Callable[[float], None] | None = None,
    insertion: str = DEFAULT_INSERTION,
    storage_path: str = DEFAULT_STORAGE_PATH,
) -> pd.DataFrame:
    """Storage access time vs cache size for no cache, LRU and AC-cache (Figures 3-5).

    Parameters
    ----------
    ids : array_like of int
        Block ids of the accesses, compact ``0..M-1`` (e.g. ``split_blocks(trace).block``).
    device : str or DeviceProfile, or a list of them
        Storage device(s) (catalogue names such as ``"hdd-7200"``, ``"optane-dcpmm"``).
    block_size_bytes : int, keyword-only
        Block size [bytes] for the timings (default 4096).
    cache_fractions : sequence of float, optional, keyword-only
        Cache sizes as fractions of the footprint, in (0, 1] (default
        :data:`DEFAULT_FRACTIONS`). Sizes are rounded to whole blocks, at least 1.
    ghost_fraction : float, keyword-only
        AC-cache ghost window as a fraction of the cache size [-] (default 1).
    progress : callable, optional, keyword-only
        Called with the completed fraction (0..1) after each simulated size.
    insertion : {"steady", "first-touch"}, keyword-only
        Insertion model of ``Tm - T`` (:func:`models.storage.file_cache.insertion_cost`).
    storage_path : {"same-run", "paper-factor"}, keyword-only
        How ``t`` and the DRAM-speed ``T`` are obtained (:func:`models.storage.file_cache.timings_from_device`;
        ``"same-run"``, the default, refuses block sizes without a same-run direct read, outside 4-64 KiB).

    Returns
    -------
    pandas.DataFrame
        One row per device, cache size and policy (``none``, ``lru``, ``ac``) with columns
        ``device, t_ns, T_ns, Tm_ns, cache_fraction, cache_blocks, policy, hits, misses,
        inserts, hit_ratio, time_ns`` (total [ns]), ``mean_access_ns`` [ns] and
        ``time_rel_none`` (time / time without a cache [-]).

    Raises
    ------
    ValueError
        On an empty trace, bad ids, fractions, ghost fraction or device.

    Examples
    --------
    >>> ids = np.array([0, 1, 2, 0, 1, 3, 4, 0, 1, 5])
    >>> df = file_cache_curves(ids, "hdd-7200", cache_fractions=[0.5])
    >>> df.set_index("policy")["hits"].to_dict()
    {'none': 0, 'lru': 2, 'ac': 2}
    """
    a = as_ids(ids)
    n = len(a)
    if n == 0:
        raise ValueError("ids is empty: no accesses to replay")
    if not (np.isfinite(ghost_fraction) and ghost_fraction >= 0):
        raise ValueError(f"ghost_fraction must be >= 0 (got {ghost_fraction!r})")
    devs = _devices(device)
    timings = [(_dev_name(d), timings_from_device(d, block_size_bytes, insertion=insertion,
                                                  storage_path=storage_path)) for d in devs]
    frac = _fractions(cache_fractions)
    footprint = int(np.count_nonzero(np.bincount(a)))
    blocks = cache_blocks_of(frac, footprint)
    # LRU hits: one stack-distance pass gives every size; for a single size one LRU simulation is cheaper
    # (about half the time, less memory traffic) and gives the same count (LRU's inclusion property)
    lru_hits = (np.array([simulate(a, int(blocks[0]), "lru").hits]) if len(blocks) == 1
                else hit_ratio_curve(a, sizes=blocks).hits)
    ac_hits, ac_ins = np.zeros(len(blocks), np.int64), np.zeros(len(blocks), np.int64)
    for k, c in enumerate(blocks):
        r = simulate(a, int(c), "ac", ghost_blocks=int(round(ghost_fraction * int(c))))
        ac_hits[k], ac_ins[k] = r.hits, r.inserts
        if progress is not None:
            progress((k + 1) / len(blocks))
    rows = []
    for name, be in timings:
        t, T, Tm = be.t_ns, be.T_ns, be.Tm_ns
        t_none = n * T
        for k, c in enumerate(blocks):
            lh = int(lru_hits[k])
            for pol, hits, ins in (("none", 0, 0), ("lru", lh, n - lh), ("ac", int(ac_hits[k]), int(ac_ins[k]))):
                miss = n - hits
                time_ns = cache_run_time_ns(hits, ins, miss, t, T, Tm)
                rows.append((name, t, T, Tm, float(frac[k]), int(c), pol, hits, miss, ins, hits / n, time_ns,
                             time_ns / n, time_ns / t_none))
    return pd.DataFrame(rows, columns=["device", "t_ns", "T_ns", "Tm_ns", "cache_fraction", "cache_blocks", "policy",
                                       "hits", "misses", "inserts", "hit_ratio", "time_ns", "mean_access_ns",
                                       "time_rel_none"])


def with_insertion(curves: pd.DataFrame, insertion: str, *, block_size_bytes: int = 4096) -> pd.DataFrame:
    """The curves of :func:`file_cache_curves` re-timed under another insertion model.

    Hits, misses and inserts do not depend on the timings, and ``t`` and ``T`` do not depend
    on the insertion model, so only ``Tm_ns = T_ns + insertion_cost(block_size_bytes)`` and
    the times change: no re-simulation.

    Parameters
    ----------
    curves : pandas.DataFrame
        Output of :func:`file_cache_curves`.
    insertion : {"steady", "first-touch"}
        Insertion model (:func:`models.storage.file_cache.insertion_cost`).
    block_size_bytes : int, keyword-only
        The block size the curves were computed with [bytes].

    Returns
    -------
    pandas.DataFrame
        Same columns, ``Tm_ns``, ``time_ns``, ``mean_access_ns`` and ``time_rel_none`` re-computed.

    >>> ids = np.array([0, 1, 0, 1, 2, 0])
    >>> a = file_cache_curves(ids, "optane-dcpmm", cache_fractions=[1.0])
    >>> b = with_insertion(file_cache_curves(ids, "optane-dcpmm", cache_fractions=[1.0], insertion="first-touch"),
    ...                    "steady")
    >>> bool(np.allclose(a.time_ns, b.time_ns))
    True
    """
    if insertion not in INSERTION_MODELS:
        raise ValueError(f"insertion must be one of {', '.join(INSERTION_MODELS)} (got {insertion!r})")
    out = curves.copy()
    out["Tm_ns"] = out["T_ns"] + float(insertion_cost(block_size_bytes, insertion=insertion))
    n = out["hits"] + out["misses"]
    out["time_ns"] = cache_run_time_ns(out["hits"], out["inserts"], out["misses"], out["t_ns"], out["T_ns"],
                                       out["Tm_ns"])
    out["mean_access_ns"] = out["time_ns"] / n
    out["time_rel_none"] = out["time_ns"] / (n * out["T_ns"])
    return out


def insertion_gains(curves: pd.DataFrame, *, block_size_bytes: int = 4096) -> pd.DataFrame:
    """Gains (:func:`gains`) under every insertion model, side by side.

    Returns the columns of :func:`gains` plus ``insertion`` (one block of rows per model of
    :data:`models.storage.file_cache.INSERTION_MODELS`).

    >>> df = file_cache_curves([0, 1, 0, 1, 2, 0], "optane-dcpmm", cache_fractions=[1.0])
    >>> insertion_gains(df)["insertion"].tolist()
    ['steady', 'first-touch']
    """
    return pd.concat([gains(with_insertion(curves, m, block_size_bytes=block_size_bytes)).assign(insertion=m)
                      for m in INSERTION_MODELS], ignore_index=True)


def gains(curves: pd.DataFrame) -> pd.DataFrame:
    """Relative time savings per device and cache size from :func:`file_cache_curves`.

    Returns columns ``device, cache_fraction, cache_blocks, lru_vs_none`` (``1 - T_lru/T_none``,
    the gain of Figures 3-4), ``ac_vs_none`` and ``ac_vs_lru`` (``1 - T_ac/T_lru``, the gain
    of Figure 5) [-]; negative values are losses.

    >>> df = file_cache_curves([0, 1, 0, 1, 2, 0], "hdd-7200", cache_fractions=[1.0])
    >>> round(float(gains(df)["lru_vs_none"].iloc[0]), 2)   # 3 of 6 accesses hit on HDD
    0.5
    """
    p = curves.pivot_table(index=["device", "cache_fraction", "cache_blocks"], columns="policy",
                           values="time_ns", sort=False).reset_index()
    return pd.DataFrame({
        "device": p["device"],
        "cache_fraction": p["cache_fraction"],
        "cache_blocks": p["cache_blocks"],
        "lru_vs_none": 1.0 - p["lru"] / p["none"],
        "ac_vs_none": 1.0 - p["ac"] / p["none"],
        "ac_vs_lru": 1.0 - p["ac"] / p["lru"],
    })


def reuse_histogram(ids, *, weights=None) -> pd.DataFrame:
    """Reuse-count histogram: how many blocks are accessed exactly ``k`` times.

    Parameters
    ----------
    ids : array_like of int
        Block ids of the accesses.
    weights : array_like of float, optional, keyword-only
        Bytes moved by each access [bytes]; default 1 per access.

    Returns
    -------
    pandas.DataFrame
        ``access_count``, ``blocks``, ``accesses``, ``bytes`` (rows only for counts that occur).

    >>> h = reuse_histogram([0, 1, 0, 2, 0])
    >>> h["access_count"].tolist(), h["blocks"].tolist(), h["accesses"].tolist()
    ([1, 3], [2, 1], [2, 3])
    """
    a = as_ids(ids)
    if a.size == 0:
        raise ValueError("ids is empty: no accesses")
    w = as_weights(weights, len(a))
    cnt = np.bincount(a)
    byt = np.bincount(a, weights=w) if w is not None else None
    used = cnt > 0
    return reuse_histogram_of_counts(cnt[used], None if byt is None else byt[used])


def reuse_histogram_of_counts(counts, bytes_moved=None) -> pd.DataFrame:
    """:func:`reuse_histogram` from the access count of each block (any order; blocks of 0 accesses ignored)
    and the bytes moved to each [bytes] (default: one per access), e.g. a streamed trace's
    (:class:`models.traces.block_table.BlockTable` ``counts``).

    >>> reuse_histogram_of_counts([3, 1, 1])["blocks"].tolist()
    [2, 1]
    """
    c = np.asarray(counts, dtype=np.int64)
    if bytes_moved is None and len(c) and 0 <= int(c.min()) and int(c.max()) <= len(c):
        # one per access: the histogram by bincount (8 bytes per possible count, at most one per block), the same
        # sums as below without the copies and the sort of np.unique (a streamed trace's tens of millions of blocks)
        hist = np.bincount(c)
        ks = np.flatnonzero(hist[1:]) + 1
        if not len(ks):
            raise ValueError("counts has no accessed block: no accesses")
        blocks = hist[ks].astype(np.int64)
        return pd.DataFrame({"access_count": ks.astype(np.int64), "blocks": blocks, "accesses": ks * blocks,
                             "bytes": (ks * blocks).astype(float)})
    b = c.astype(float) if bytes_moved is None else np.asarray(bytes_moved, dtype=float)
    if b.shape != c.shape:
        raise ValueError("bytes_moved must give one value per block")
    used = c > 0
    c, b = c[used], b[used]
    if not len(c):
        raise ValueError("counts has no accessed block: no accesses")
    ks, inv = np.unique(c, return_inverse=True)
    return pd.DataFrame({
        "access_count": ks,
        "blocks": np.bincount(inv).astype(np.int64),
        "accesses": np.bincount(inv, weights=c).astype(np.int64),
        "bytes": np.bincount(inv, weights=b),
    })


@dataclass(frozen=True)
class BreakEvenShare(ModelResult):
    """Blocks and bytes of a trace whose access count clears the break-even n* on a device.

    ``to_frame()`` is one row of these fields.

    Attributes
    ----------
    device : str
        Storage device.
    n_star : float
        Break-even access count on the device [-].
    blocks : int
        Footprint [blocks].
    worth_blocks : int
        Blocks accessed more than ``n_star`` times [blocks].
    share_blocks : float
        ``worth_blocks / blocks`` [-].
    share_footprint_bytes : float
        Share of the footprint's bytes (= ``share_blocks``: fixed-size blocks) [-].
    share_accesses, share_bytes : float
        Share of all accesses / bytes moved that go to blocks worth caching [-].
    """

    device: str
    n_star: float
    blocks: int
    worth_blocks: int
    share_blocks: float
    share_footprint_bytes: float
    share_accesses: float
    share_bytes: float


def break_even_share(ids, device: str | DeviceProfile, *, block_size_bytes: int = 4096,
                     weights=None, insertion: str = DEFAULT_INSERTION,
                     storage_path: str = DEFAULT_STORAGE_PATH) -> BreakEvenShare:
    """Share of blocks and bytes whose access count clears the break-even ``n*`` (eq. 3).

    A block accessed ``n > n*`` times gains from caching on ``device`` (ignoring capacity);
    the rest would be better served directly from storage.

    Parameters
    ----------
    ids : array_like of int
        Block ids of the accesses.
    device : str or DeviceProfile
        Storage device.
    block_size_bytes : int, keyword-only
        Block size [bytes].
    weights : array_like of float, optional, keyword-only
        Bytes moved by each access [bytes]; default ``block_size_bytes`` per access.
    insertion : {"steady", "first-touch"}, keyword-only
        Insertion model of ``Tm - T`` (:func:`models.storage.file_cache.insertion_cost`).
    storage_path : {"same-run", "paper-factor"}, keyword-only
        How ``t`` and the DRAM-speed ``T`` are obtained (:func:`models.storage.file_cache.timings_from_device`;
        default ``"same-run"``, 4-64 KiB blocks).

    Returns
    -------
    BreakEvenShare

    >>> r = break_even_share([0, 1, 0, 2, 0, 0, 0], "optane-dcpmm")   # n* ~ 3.7 on Optane
    >>> r.worth_blocks, round(r.share_accesses, 3)   # only block 0 (5 accesses) clears it
    (1, 0.714)
    >>> break_even_share([0, 1, 0, 2, 0], "hdd-7200").share_blocks   # HDD: n* ~ 1, 1 of 3 blocks
    0.3333333333333333
    """
    return break_even_of_histogram(reuse_histogram(ids, weights=weights), device, block_size_bytes=block_size_bytes,
                                   insertion=insertion, storage_path=storage_path)


def break_even_of_histogram(h: pd.DataFrame, device: str | DeviceProfile, *, block_size_bytes: int = 4096,
                            insertion: str = DEFAULT_INSERTION,
                            storage_path: str = DEFAULT_STORAGE_PATH) -> BreakEvenShare:
    """:func:`break_even_share` from a reuse-count histogram (:func:`reuse_histogram`, or
    :func:`reuse_histogram_of_counts` of a streamed trace's per-block counts).

    >>> break_even_of_histogram(reuse_histogram_of_counts([1, 1, 3]), "hdd-7200").share_blocks
    0.3333333333333333
    """
    be = timings_from_device(device, block_size_bytes, insertion=insertion, storage_path=storage_path)
    n_star = float(break_even_hits(be.t_ns, be.T_ns, be.Tm_ns))
    worth = h["access_count"] > n_star
    tot_bytes = float(h["bytes"].sum())
    share_blocks = float(h.loc[worth, "blocks"].sum() / h["blocks"].sum())
    return BreakEvenShare(
        device=_dev_name(device),
        n_star=n_star,
        blocks=int(h["blocks"].sum()),
        worth_blocks=int(h.loc[worth, "blocks"].sum()),
        share_blocks=share_blocks,
        share_footprint_bytes=share_blocks,
        share_accesses=float(h.loc[worth, "accesses"].sum() / h["accesses"].sum()),
        share_bytes=float(h.loc[worth, "bytes"].sum() / tot_bytes) if tot_bytes > 0 else 0.0,
    )


# ----------------------------------------------------------------------------- provenance of the results
#: The device values a simulated time reads (:func:`~models.storage.file_cache.timings_from_device`).
_TIME_COLUMNS = ("access_unit_bytes", "read_latency_ns", "read_bandwidth_MBps")


@dataclass(frozen=True)
class SimulationKeys:
    """Provenance keys (:mod:`models.provenance`) of one trace's file-cache study, per result."""

    trace: list  #: the trace's own (:func:`reuse_histogram`: a synthetic preset's ``trace.*``)
    break_even: list  #: :func:`break_even_share` on the devices (the trace's, the timings')
    curves: list  #: :func:`file_cache_curves` and :func:`gains` (+ the AC ghost window)
    insertion_gains: list  #: :func:`insertion_gains` (+ both insertion costs)


def provenance_keys_for(trace, devices, *, insertion: str = DEFAULT_INSERTION,
                        storage_path: str = DEFAULT_STORAGE_PATH, block_size_bytes: int = 4096) -> SimulationKeys:
    """The keys each result of a study of ``trace`` on ``devices`` (profiles or catalogue names)
    with the ``insertion`` model and the ``storage_path`` (at ``block_size_bytes``) reads.

    >>> from models.traces import load
    >>> k = provenance_keys_for(load("synthetic:mail", n_requests=100), ["hdd-7200"])
    >>> k.curves[-1], k.break_even[len(k.trace)]
    ('file_cache_sim.ghost_fraction', 'file_cache.samerun_hit_4096_ns')
    """
    tkeys = trace_keys(trace)[0]
    keys = [*tkeys, *storage_path_keys(storage_path, block_size_bytes),
            "file_cache.pagecache_insert_4k_ns" if insertion == "first-touch" else "file_cache.insert_steady_4096_ns",
            *(k for d in devices for k in device_keys(d, _TIME_COLUMNS)), *device_keys("dram", _TIME_COLUMNS)]
    curves = [*keys, "file_cache_sim.ghost_fraction"]
    return SimulationKeys(trace=tkeys, break_even=keys, curves=curves,
                          insertion_gains=[*curves, "file_cache.pagecache_insert_4k_ns",
                                           "file_cache.insert_steady_4096_ns"])
