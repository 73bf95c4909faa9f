"""Seeded synthetic block workloads and presets (seed 003 Table II; web server / proxy).

Building blocks (each returns a :class:`BlockTrace`): :func:`zipf_trace` (skewed block
popularity), :func:`uniform_trace`, :func:`sequential_trace` (scans of contiguous requests),
:func:`mixture` (random interleaving of generators), :func:`web_files_trace` (whole-file
reads with Zipf file popularity and heavy-tailed file sizes). Every generator takes a keyword-only ``seed`` (int or
``numpy.random.Generator``), a write ratio and a request-size distribution
(:func:`sample_sizes`); arrivals are a Poisson process at ``iops`` requests per second.

:func:`preset` builds named workloads whose write fraction, dataset size and average request
size match seed 003 Table II (Fin1, Fin2, Dap, Exchange, TPC-E, Mail, plus the paper's Randw)
and web-server / web-proxy file workloads in the spirit of seed 004 §2.

Table II gives only three statistics per trace. The locality mix of each preset (how much is
Zipf-skewed, sequential or uniform) is our assumption, guided by the paper's remarks (Dap:
"access repeatability and temporal locality is very poor"; Mail: "most of write requests ...
are sequential"; Randw: 4 KB, 100 % random writes over 5.9 GB). "KB"/"GB" are read as KiB/GiB.
"Dataset" is the address range the requests are drawn from (``dataset_bytes``); the bytes
actually touched by a short synthetic trace are fewer.

References
----------
Seed 003: HALO caching, Table II "Workload Statistics" and §V.A.1 (workload descriptions).
Seed 004: Park & Bahn 2020, §2 (web server and proxy server file request traces).
Breslau, Cao, Fan, Phillips, Shenker, "Web Caching and Zipf-like Distributions: Evidence and
Implications", IEEE INFOCOM 1999 (request popularity Zipf-like, alpha 0.64-0.83).
Barford, Crovella, "Generating Representative Web Workloads for Network and Server Performance
Evaluation", ACM SIGMETRICS 1998 (file sizes: lognormal body).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit

from models._base import as_generator
from models.provenance import param
from models.traces.blocks import check_block_size
from models.traces.core import BlockTrace, MemTrace

__all__ = [
    "sample_sizes",
    "zipf_ranks",
    "zipf_trace",
    "uniform_trace",
    "sequential_trace",
    "mixture",
    "web_files_trace",
    "PresetSpec",
    "PRESETS",
    "preset",
    "preset_names",
    "mem_trace",
]

KIB = 1024
GIB = 1024**3
SIZE_DISTS = ("fixed", "geometric", "lognormal")


def _check_n(n_requests: int) -> int:
    n = int(n_requests)
    if n != n_requests or n < 0:
        raise ValueError(f"n_requests must be a non-negative integer (got {n_requests!r})")
    return n


def _check_fraction(x: float, name: str) -> float:
    if not 0.0 <= float(x) <= 1.0:
        raise ValueError(f"{name} must be within 0..1 (got {x!r})")
    return float(x)


def sample_sizes(n: int, mean_bytes: float, *, dist: str = "geometric", sector_size: int = 512,
                 max_bytes: int | None = None, sigma: float = 1.0, seed=0) -> np.ndarray:
    """Request sizes [bytes], multiples of ``sector_size``, with mean ``mean_bytes``.

    ``dist``: ``"fixed"`` (every request ``mean_bytes`` rounded to sectors), ``"geometric"``
    (sectors ~ Geometric on 1, 2, ... with mean ``mean_bytes / sector_size``) or
    ``"lognormal"`` (lognormal with log-std ``sigma``, mean ``mean_bytes``, rounded to whole
    sectors, at least one). ``max_bytes`` truncates (the mean then drops slightly).

    >>> s = sample_sizes(100_000, 8192, seed=1)
    >>> bool(abs(s.mean() / 8192 - 1) < 0.02), int(s.min()) % 512
    (True, 0)
    """
    rng = as_generator(seed)
    if not mean_bytes >= sector_size:
        raise ValueError(f"mean_bytes must be >= sector_size {sector_size} [bytes] (got {mean_bytes!r})")
    if dist == "fixed":
        s = np.full(n, max(1, round(mean_bytes / sector_size)), np.int64)
    elif dist == "geometric":
        s = rng.geometric(min(1.0, sector_size / mean_bytes), n).astype(np.int64)
    elif dist == "lognormal":
        mu = np.log(mean_bytes) - sigma**2 / 2
        b = rng.lognormal(mu, sigma, n)
        s = np.maximum(1, np.round(b / sector_size)).astype(np.int64)
    else:
        raise ValueError(f"size dist must be one of {', '.join(SIZE_DISTS)} (got {dist!r})")
    s = s * sector_size
    if max_bytes is not None:
        s = np.minimum(s, max(sector_size, int(max_bytes) // sector_size * sector_size))
    return s


@njit(cache=True, nogil=True)
def _search_right(cdf, v):  # pragma: no cover - compiled
    """``np.searchsorted(cdf, v, side="right")`` for a non-decreasing ``cdf`` (the same indices), through a
    guide table: ``guide[k]`` is the answer at ``k * step`` (``n // 2`` equal steps up to ``cdf[-1]``), so
    each value is searched between two neighbouring guides instead of over all of ``cdf`` (about 4x faster
    on 2 M values over the 2**20-rank Zipf head: fewer dependent cache misses)."""
    n = cdf.shape[0]
    out = np.empty(v.shape[0], np.int64)
    if n == 0:
        out[:] = 0
        return out
    buckets = max(1, n // 2)
    step = cdf[n - 1] / buckets
    guide = np.empty(buckets + 2, np.int64)
    i = 0
    for k in range(buckets + 1):
        t = k * step
        while i < n and cdf[i] <= t:
            i += 1
        guide[k] = i
    guide[buckets + 1] = n
    for j in range(v.shape[0]):
        x = v[j]
        if x != x:
            out[j] = n
            continue
        if not (step > 0.0) or not (x >= 0.0):
            k = 0
        elif x / step >= buckets:
            k = buckets
        else:
            k = int(x / step)
        while k > 0 and k * step > x:
            k -= 1
        while k < buckets and (k + 1) * step <= x:
            k += 1
        lo = guide[k] if k * step <= x else 0
        hi = guide[k + 1]
        while lo < hi:
            mid = (lo + hi) >> 1
            if cdf[mid] <= x:
                lo = mid + 1
            else:
                hi = mid
        out[j] = lo
    return out


def _searchsorted_right(cdf: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``np.searchsorted(cdf, v, side="right")``; many values (>= 2**17) through :func:`_search_right`."""
    return _search_right(cdf, v) if len(v) >= 1 << 17 else np.searchsorted(cdf, v, side="right")


def zipf_ranks(n: int, n_items: int, alpha: float, *, seed=0) -> np.ndarray:
    """Ranks 0..n_items-1 drawn with P(rank r) proportional to (r + 1) ** -alpha.

    Exact inverse-CDF sampling over the first 2**20 ranks; ranks beyond use the continuous
    power law (midpoint rule, relative error below 1e-6 at such ranks), so memory stays
    O(2**20) for any number of items.

    >>> r = zipf_ranks(200_000, 1000, 1.0, seed=0)
    >>> p0 = 1 / np.sum(1 / np.arange(1, 1001))
    >>> bool(abs((r == 0).mean() / p0 - 1) < 0.05)
    True
    """
    rng = as_generator(seed)
    if n_items < 1:
        raise ValueError(f"n_items must be >= 1 (got {n_items})")
    if alpha < 0:
        raise ValueError(f"alpha must be >= 0 (got {alpha})")
    u = rng.random(n)
    a = float(alpha)
    head = min(n_items, 1 << 20)
    w = np.arange(1, head + 1, dtype=np.float64) ** -a
    cdf = np.cumsum(w)
    if head == n_items:
        return np.minimum(_searchsorted_right(cdf, u * cdf[-1]), n_items - 1).astype(np.int64)
    # tail ranks head+1..n_items: integral of x^-a over [head + 0.5, n_items + 0.5] (midpoint rule)
    lo, hi = head + 0.5, n_items + 0.5

    def prim(x):
        return np.log(x) if abs(a - 1.0) < 1e-12 else x ** (1 - a) / (1 - a)

    tail_mass = prim(hi) - prim(lo)
    total = cdf[-1] + tail_mass
    v = u * total
    out = np.empty(n, np.int64)
    in_head = v < cdf[-1]
    out[in_head] = _searchsorted_right(cdf, v[in_head])
    y = prim(lo) + (v[~in_head] - cdf[-1])
    x = np.exp(y) if abs(a - 1.0) < 1e-12 else (y * (1 - a)) ** (1 / (1 - a))
    out[~in_head] = np.floor(x + 0.5).astype(np.int64) - 1
    return np.clip(out, 0, n_items - 1)


def _scatter(ranks: np.ndarray, n_items: int, rng: np.random.Generator) -> np.ndarray:
    """Map ranks to item numbers by a random affine permutation r -> (a r + b) mod n."""
    if n_items <= 1:
        return ranks
    while True:
        a = int(rng.integers(1, n_items)) | 1
        if np.gcd(a, n_items) == 1:
            break
    b = int(rng.integers(0, n_items))
    return ((ranks.astype(object) * a + b) % n_items).astype(np.int64) if n_items > 1 << 31 else \
        (ranks * a + b) % n_items


def _assemble(blocks: np.ndarray, sizes: np.ndarray, write_ratio: float, *, block_size: int, iops: float,
              rng: np.random.Generator, name: str, meta: dict, offsets: np.ndarray | None = None) -> BlockTrace:
    n = len(sizes)
    if iops <= 0:
        raise ValueError(f"iops must be > 0 [requests/s] (got {iops})")
    gaps = rng.exponential(1e9 / iops, n)
    t = np.floor(np.cumsum(gaps) - (gaps[0] if n else 0)).astype(np.int64)
    w = rng.random(n) < write_ratio
    off = blocks.astype(np.int64) * block_size if offsets is None else offsets
    return BlockTrace(t, w, off, sizes, np.zeros(n, np.int32), name=name, meta=meta)


def _common_checks(n_requests, n_blocks, write_ratio, block_size):
    n = _check_n(n_requests)
    if int(n_blocks) < 1:
        raise ValueError(f"n_blocks must be >= 1 (got {n_blocks!r})")
    _check_fraction(write_ratio, "write_ratio")
    check_block_size(block_size)
    return n, int(n_blocks)


def zipf_trace(n_requests: int, *, n_blocks: int, alpha: float = 0.9, write_ratio: float = 0.0,
               mean_size_bytes: float = 4096, size_dist: str = "fixed", block_size: int = 4096,
               iops: float = 1000.0, scatter: bool = True, seed=0, name: str = "zipf") -> BlockTrace:
    """Requests whose start blocks follow Zipf(``alpha``) popularity over ``n_blocks`` blocks.

    Parameters
    ----------
    n_requests : int
        Number of requests.
    n_blocks : int
        Address space [blocks of ``block_size``].
    alpha : float
        Zipf exponent (0 = uniform).
    write_ratio : float
        Probability that a request is a write.
    mean_size_bytes, size_dist
        Request-size distribution, see :func:`sample_sizes` [bytes].
    block_size : int
        Block size [bytes] of the address space.
    iops : float
        Poisson arrival rate [requests/s].
    scatter : bool
        Spread popular blocks over the address space (else rank r is block r).

    >>> t = zipf_trace(1000, n_blocks=100, alpha=1.2, seed=3)
    >>> len(t), int(t.offset_bytes.max()) < 100 * 4096
    (1000, True)
    """
    n, nb = _common_checks(n_requests, n_blocks, write_ratio, block_size)
    rng = as_generator(seed)
    ranks = zipf_ranks(n, nb, alpha, seed=rng)
    blocks = _scatter(ranks, nb, rng) if scatter else ranks
    sizes = sample_sizes(n, mean_size_bytes, dist=size_dist, seed=rng)
    return _assemble(blocks, sizes, write_ratio, block_size=block_size, iops=iops, rng=rng, name=name,
                     meta={"generator": "zipf", "alpha": alpha, "n_blocks": nb})


def uniform_trace(n_requests: int, *, n_blocks: int, write_ratio: float = 0.0, mean_size_bytes: float = 4096,
                  size_dist: str = "fixed", block_size: int = 4096, iops: float = 1000.0, seed=0,
                  name: str = "uniform") -> BlockTrace:
    """Requests starting at uniformly random blocks of an ``n_blocks`` address space.

    Parameters as :func:`zipf_trace`: ``n_blocks`` [blocks of ``block_size``], ``mean_size_bytes``
    [bytes], ``block_size`` [bytes], ``iops`` [requests/s], ``write_ratio`` [-].
    """
    n, nb = _common_checks(n_requests, n_blocks, write_ratio, block_size)
    rng = as_generator(seed)
    blocks = rng.integers(0, nb, n)
    sizes = sample_sizes(n, mean_size_bytes, dist=size_dist, seed=rng)
    return _assemble(blocks, sizes, write_ratio, block_size=block_size, iops=iops, rng=rng, name=name,
                     meta={"generator": "uniform", "n_blocks": nb})


def sequential_trace(n_requests: int, *, n_blocks: int, run_requests: float = 32.0, write_ratio: float = 0.0,
                     mean_size_bytes: float = 4096, size_dist: str = "fixed", block_size: int = 4096,
                     iops: float = 1000.0, seed=0, name: str = "sequential") -> BlockTrace:
    """Sequential scans: runs of contiguous requests starting at random blocks.

    Run lengths are geometric with mean ``run_requests`` requests; within a run each request
    starts where the previous one ended (wrapping at the end of the address space). A run is
    all reads or all writes (probability ``write_ratio``). Other parameters as :func:`zipf_trace`:
    ``n_blocks`` [blocks of ``block_size``], ``mean_size_bytes`` [bytes], ``block_size`` [bytes],
    ``iops`` [requests/s].

    >>> t = sequential_trace(10, n_blocks=1000, run_requests=1e9, seed=0)
    >>> bool(np.all(np.diff(t.offset_bytes) == 4096))
    True
    """
    n, nb = _common_checks(n_requests, n_blocks, write_ratio, block_size)
    if run_requests < 1:
        raise ValueError(f"run_requests must be >= 1 (got {run_requests})")
    rng = as_generator(seed)
    sizes = sample_sizes(n, mean_size_bytes, dist=size_dist, seed=rng)
    new_run = rng.random(n) < 1.0 / run_requests
    if n:
        new_run[0] = True
    run = np.cumsum(new_run) - 1
    n_runs = int(run[-1]) + 1 if n else 0
    run_start = rng.integers(0, nb, n_runs) * np.int64(block_size)
    csum = np.cumsum(sizes) - sizes  # bytes before each request
    first_idx = np.flatnonzero(new_run)
    within = csum - csum[first_idx][run]
    space = np.int64(nb) * block_size
    off = (run_start[run] + within) % space
    off = off // 512 * 512
    t = _assemble(np.zeros(n, np.int64), sizes, 0.0, block_size=block_size, iops=iops, rng=rng, name=name,
                  meta={"generator": "sequential", "n_blocks": nb, "run_requests": run_requests}, offsets=off)
    w = (rng.random(n_runs) < write_ratio)[run] if n else np.zeros(0, bool)
    return BlockTrace(t.time_ns, w, t.offset_bytes, t.size_bytes, t.device, name=name, meta=t.meta)


def mixture(n_requests: int, parts: list[tuple[float, Callable[..., BlockTrace], dict]], *, iops: float = 1000.0,
            burst_requests: float = 1.0, seed=0, name: str = "mixture") -> BlockTrace:
    """Randomly interleave generators: each request comes from part i with probability w_i.

    ``parts`` is a list of ``(weight, generator, kwargs)``; each generator is called as
    ``generator(k, seed=rng, **kwargs)`` for its share k of the requests, and its requests
    keep their order (so sequential runs stay sequential within their part). Arrival times
    are redrawn as one Poisson process at ``iops``.

    ``burst_requests`` is the mean length [requests] of the bursts the parts take turns in
    (geometric lengths, each burst's part drawn with probability w_i): 1 interleaves request
    by request, so a sequential part's runs reach the device broken up by the other parts'
    requests; a long burst keeps them contiguous in time, as a busy sequential writer would.

    >>> t = mixture(1000, [(0.5, uniform_trace, {"n_blocks": 10}), (0.5, zipf_trace, {"n_blocks": 10})], seed=1)
    >>> len(t), sorted(set(t.meta["part"].tolist()))
    (1000, [0, 1])
    >>> t = mixture(1000, [(0.5, uniform_trace, {"n_blocks": 10}), (0.5, zipf_trace, {"n_blocks": 10})],
    ...             burst_requests=100, seed=1)
    >>> int((np.diff(t.meta["part"]) != 0).sum()) < 30     # about 1000 / 100 / 2 switches
    True
    """
    n = _check_n(n_requests)
    if not parts:
        raise ValueError("mixture needs at least one part")
    w = np.array([float(p[0]) for p in parts])
    if (w < 0).any() or w.sum() <= 0:
        raise ValueError("mixture weights must be >= 0 with a positive sum")
    if not burst_requests >= 1:
        raise ValueError(f"burst_requests must be >= 1 (got {burst_requests!r})")
    rng = as_generator(seed)
    if burst_requests == 1:
        label = rng.choice(len(parts), n, p=w / w.sum())
    else:  # bursts of geometric length; burst i's part drawn by weight
        starts = rng.random(n) < 1.0 / burst_requests
        if n:
            starts[0] = True
        burst = np.cumsum(starts) - 1
        label = rng.choice(len(parts), int(burst[-1]) + 1 if n else 0, p=w / w.sum())[burst]
    off = np.zeros(n, np.int64)
    size = np.zeros(n, np.int64)
    wr = np.zeros(n, bool)
    for i, (_, gen, kw) in enumerate(parts):
        idx = np.flatnonzero(label == i)
        if not len(idx):
            continue
        sub = gen(len(idx), seed=rng, **kw)
        off[idx], size[idx], wr[idx] = sub.offset_bytes, sub.size_bytes, sub.is_write
    gaps = rng.exponential(1e9 / iops, n)
    t = np.floor(np.cumsum(gaps) - (gaps[0] if n else 0)).astype(np.int64)
    return BlockTrace(t, wr, off, size, np.zeros(n, np.int32), name=name,
                      meta={"generator": "mixture", "part": label.astype(np.int8)})


def web_files_trace(n_requests: int, *, n_files: int = 20_000, alpha: float = 0.8, one_timer_fraction: float = 0.0,
                    median_file_bytes: float = 12_000, sigma: float = 1.3, max_file_bytes: int = 8 << 20,
                    write_ratio: float = 0.0, block_size: int = 4096, iops: float = 500.0, seed=0,
                    name: str = "web") -> BlockTrace:
    """Whole-file reads of a web server or proxy: Zipf file popularity, lognormal file sizes.

    ``n_files`` files with lognormal sizes (median ``median_file_bytes``, log-std ``sigma``,
    truncated at ``max_file_bytes``) are laid out contiguously, each starting on a block
    boundary. Each request reads one whole file, chosen with Zipf(``alpha``) popularity; a
    share ``one_timer_fraction`` of requests instead fetches a new file requested exactly once
    (a proxy's one-timers, which an admission-controlled cache filters out).

    >>> t = web_files_trace(5000, n_files=500, one_timer_fraction=0.3, seed=0)
    >>> len(t), round(float(t.meta["one_timer"].mean()), 1)
    (5000, 0.3)
    """
    n = _check_n(n_requests)
    _check_fraction(one_timer_fraction, "one_timer_fraction")
    _check_fraction(write_ratio, "write_ratio")
    bs = check_block_size(block_size)
    if int(n_files) < 1:
        raise ValueError(f"n_files must be >= 1 (got {n_files!r})")
    rng = as_generator(seed)
    once = rng.random(n) < one_timer_fraction
    n_once = int(once.sum())
    nf = int(n_files)
    sizes = np.clip(np.round(rng.lognormal(np.log(median_file_bytes), sigma, nf + n_once)), 1, max_file_bytes)
    sizes = sizes.astype(np.int64)
    span = -(-sizes // bs) * bs
    start = np.cumsum(span) - span
    fid = np.empty(n, np.int64)
    pop = _scatter(zipf_ranks(n - n_once, nf, alpha, seed=rng), nf, rng)
    fid[~once] = pop
    fid[once] = nf + np.arange(n_once)
    t = _assemble(np.zeros(n, np.int64), sizes[fid], write_ratio, block_size=bs, iops=iops, rng=rng, name=name,
                  meta={"generator": "web_files", "n_files": nf, "alpha": alpha}, offsets=start[fid])
    t.meta["file"] = fid
    t.meta["one_timer"] = once
    return t


# ----------------------------------------------------------------------------- presets
@dataclass(frozen=True)
class PresetSpec:
    """A named workload: published targets and how we generate it.

    Attributes
    ----------
    description : str
    write_fraction : float
        Target share of write requests [-].
    dataset_bytes : int
        Address range the requests are drawn from [bytes].
    mean_size_bytes : float
        Target average request size [bytes].
    source : str
        Where the targets come from.
    build : callable
        ``build(n_requests, rng, scale) -> BlockTrace``.
    """

    description: str
    write_fraction: float | None
    dataset_bytes: int | None
    mean_size_bytes: float | None
    source: str
    build: Callable[[int, np.random.Generator, float], BlockTrace]


def _table2(write: float, dataset_gib: float, avg_kib: float, *, zipf: float, seq: float, alpha: float = 0.9,
            run: float = 64.0, size_dist: str = "geometric") -> Callable:
    """A Table II workload: Zipf / sequential / uniform mix over the dataset, exact write and size targets."""

    def build(n: int, rng: np.random.Generator, scale: float) -> BlockTrace:
        nb = max(16, int(dataset_gib * GIB * scale) // 4096)
        mean = avg_kib * KIB
        uni = max(0.0, 1.0 - zipf - seq)
        parts = [(zipf, zipf_trace, {"n_blocks": nb, "alpha": alpha}),
                 (seq, sequential_trace, {"n_blocks": nb, "run_requests": run}),
                 (uni, uniform_trace, {"n_blocks": nb})]
        parts = [(w, g, dict(kw, mean_size_bytes=mean, size_dist=size_dist)) for w, g, kw in parts if w > 0]
        t = mixture(n, parts, seed=rng)
        # the write ratio is imposed per request (sequential parts decide per run otherwise)
        wr = rng.random(n) < write
        # keep every request inside the dataset (sizes may run past the last block)
        space = np.int64(nb) * 4096
        off = np.minimum(t.offset_bytes, np.maximum(space - t.size_bytes, 0))
        return BlockTrace(t.time_ns, wr, off, t.size_bytes, t.device, meta=dict(t.meta, n_blocks=nb))

    return build


def _web(alpha: float, one_timer: float, n_files: int, median: float) -> Callable:
    def build(n: int, rng: np.random.Generator, scale: float) -> BlockTrace:
        return web_files_trace(n, n_files=max(10, int(n_files * scale)), alpha=alpha, one_timer_fraction=one_timer,
                               median_file_bytes=median, seed=rng)

    return build


_T2 = "seed 003 Table II (write %, dataset GB, average request KB); locality mix assumed"


def _p(name: str) -> float:
    return param(f"trace.{name}").value


def _t2(name: str, **kw) -> tuple:
    """(write fraction, dataset [bytes], mean size [bytes], builder) of a Table II preset from the registry."""
    w, gib, kib = _p(f"{name}.write_fraction"), _p(f"{name}.dataset_gib"), _p(f"{name}.avg_request_kib")
    return w, int(gib * GIB), kib * KIB, gib, kib, kw


def _table2_preset(name: str, description: str, source: str = _T2, **kw) -> PresetSpec:
    w, ds, mean, gib, kib, _ = _t2(name)
    return PresetSpec(description, w, ds, mean, source, _table2(w, gib, kib, **kw))


def _mix(name: str) -> dict:
    """The assumed locality mix of a Table II stand-in (registry ``trace.<name>.*``)."""
    return {"zipf": _p(f"{name}.zipf_fraction"), "seq": _p(f"{name}.seq_fraction"), "alpha": _p(f"{name}.zipf_alpha")}


#: Public descriptions of the original traces (the stand-ins' descriptions; their locality is not published).
_KAVALANEKAR = ("Kavalanekar, Worthington, Zhang, Sharda, 'Characterization of storage workload traces from "
                "production Windows servers', IISWC 2008 (the SNIA IOTTA Microsoft traces)")
_SOURCES = {
    "fin1": "; original: UMass Trace Repository Financial1.spc, OLTP at a large financial institution (seed 003 [3])",
    "fin2": "; original: UMass Trace Repository Financial2.spc, OLTP at a large financial institution (seed 003 [3])",
    "dap": f"; original: Display Ads Platform payload server, {_KAVALANEKAR}; seed 003 §V-A: 'access "
           "repeatability and temporal locality is very poor'",
    "exchange": f"; original: Microsoft Exchange 2007 server, 5,000 users, {_KAVALANEKAR}",
    "tpce": f"; original: TPC-E on 12 28-disk RAID-0 arrays (seed 003 §V.A.1), {_KAVALANEKAR}",
    "mail": "; original: FIU mail server trace (Koller & Rangaswami, 'I/O Deduplication', FAST 2010), 4 KiB "
            "requests (Table II: 4 KB average, so fixed size); seed 003 §V-A: 'most of write requests in the "
            "Mail trace are sequential' (sequential share 0.7: a majority, value assumed)",
}


def _presets() -> dict[str, PresetSpec]:
    """The presets; every number and its provenance: registry ``trace.*`` (:mod:`models.provenance`).

    The Table II stand-ins all use the same builder (:func:`_table2`): Table II's write share,
    dataset and mean request size (published), a locality mix per trace (registry, assumed
    from the trace descriptions in :data:`_SOURCES`); none is reshaped after a result.
    """
    return {
        "fin1": _table2_preset("fin1", "Fin1: OLTP at a financial institution, small random writes",
                               _T2 + _SOURCES["fin1"], **_mix("fin1")),
        "fin2": _table2_preset("fin2", "Fin2: OLTP at a financial institution, read-mostly",
                               _T2 + _SOURCES["fin2"], **_mix("fin2")),
        "dap": _table2_preset("dap", "Dap: display-advertisement payload server, poor locality, large requests",
                              _T2 + _SOURCES["dap"], **_mix("dap")),
        "exchange": _table2_preset("exchange", "Exchange: Microsoft Exchange 2007 mail server, 5,000 users",
                                   _T2 + _SOURCES["exchange"], **_mix("exchange")),
        "tpce": _table2_preset("tpce", "TPC-E: OLTP benchmark on 12 RAID-0 arrays, almost all writes",
                               _T2 + _SOURCES["tpce"], **_mix("tpce")),
        "mail": _table2_preset("mail", "Mail: FIU mail server, mostly sequential 4 KiB writes", _T2 + _SOURCES["mail"],
                               run=_p("mail.run_requests"), size_dist="fixed", **_mix("mail")),
        "randw": _table2_preset("randw", "Randw: IOmeter 4 KB 100 % random writes over 5.9 GB (seed 003 §V.A.1)",
                                "seed 003 §V.A.1 text", zipf=0.0, seq=0.0, size_dist="fixed"),
        "web-server": PresetSpec("Web server: whole-file reads, Zipf(0.8) popularity, lognormal sizes", 0.0, None, None,
                                 "seed 004 §2 (workload type); Breslau 1999 alpha; Barford & Crovella 1998 sizes",
                                 _web(_p("web-server.zipf_alpha"), 0.0, int(_p("web-server.n_files")),
                                      _p("web-server.median_file_bytes"))),
        "web-proxy": PresetSpec("Web proxy: Zipf(0.7) popularity with 40 % one-timer requests", 0.0, None, None,
                                "seed 004 §2 (workload type); Breslau 1999 alpha and one-timers",
                                _web(_p("web-proxy.zipf_alpha"), _p("web-proxy.one_timer_fraction"),
                                     int(_p("web-proxy.n_files")), _p("web-proxy.median_file_bytes"))),
    }


#: The preset workloads (registry ``trace.*``: Table II targets published, locality mixes assumed).
PRESETS: dict[str, PresetSpec] = _presets()


def preset_names() -> list[str]:
    """Names accepted by :func:`preset`."""
    return list(PRESETS)


def preset(name: str, n_requests: int = 100_000, *, seed=0, scale: float = 1.0) -> BlockTrace:
    """Generate the named preset workload (see :data:`PRESETS`).

    Parameters
    ----------
    name : str
        One of :func:`preset_names` (case-insensitive; ``tpc-e`` and ``exch`` accepted).
    n_requests : int
        Number of requests.
    seed : int or numpy.random.Generator
        Random seed.
    scale : float
        Shrinks the dataset (address range) or the number of files, e.g. 0.01 for small demos.

    Examples
    --------
    >>> t = preset("fin1", 20_000, seed=0)
    >>> round(float(t.is_write.mean()), 2), t.name
    (0.85, 'synthetic:fin1')
    >>> preset("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "unknown preset 'nope'; valid names: fin1, fin2, ...
    """
    key = str(name).strip().lower().removeprefix("synthetic:")
    key = {"tpc-e": "tpce", "exch": "exchange", "webserver": "web-server", "webproxy": "web-proxy"}.get(key, key)
    if key not in PRESETS:
        raise KeyError(f"unknown preset {name!r}; valid names: {', '.join(PRESETS)}")
    if not 0 < scale <= 1:
        raise ValueError(f"scale must be within (0, 1] (got {scale!r})")
    spec = PRESETS[key]
    n = _check_n(n_requests)
    t = spec.build(n, as_generator(seed), float(scale))
    meta = dict(t.meta, preset=key, scale=scale, source=spec.source)
    return BlockTrace(t.time_ns, t.is_write, t.offset_bytes, t.size_bytes, t.device, name=f"synthetic:{key}",
                      meta=meta)


def mem_trace(n_refs: int, *, data_bytes: int = 16 << 20, code_bytes: int = 1 << 20, instr_fraction: float = 0.6,
              write_fraction: float = 0.3, alpha: float = 0.9, run_length: float = 16.0, seed=0,
              name: str = "synthetic-mem") -> MemTrace:
    """A synthetic memory-reference trace (lackey kinds) for the paging pages.

    Instruction fetches run sequentially (4-byte steps) from Zipf(``alpha``)-popular 64-byte
    code lines in runs of geometric mean length ``run_length``; data references are 8-byte
    loads/stores to Zipf(``alpha``)-popular 64-byte lines spread over ``data_bytes``. A share
    ``write_fraction`` of the data references are stores. Code sits at 0x400000, data at
    0x10000000.

    >>> m = mem_trace(10_000, seed=0)
    >>> len(m), round(float((m.kind == 0).mean()), 1), bool(m.address.max() < 0x10000000 + (16 << 20))
    (10000, 0.6, True)
    """
    n = _check_n(n_refs)
    _check_fraction(instr_fraction, "instr_fraction")
    _check_fraction(write_fraction, "write_fraction")
    if data_bytes < 64 or code_bytes < 64:
        raise ValueError("data_bytes and code_bytes must be >= 64 [bytes]")
    if run_length < 1:
        raise ValueError(f"run_length must be >= 1 (got {run_length})")
    rng = as_generator(seed)
    is_i = rng.random(n) < instr_fraction
    ni, nd = int(is_i.sum()), int(n - is_i.sum())
    code_lines = code_bytes // 64
    new_run = rng.random(ni) < 1.0 / run_length
    if ni:
        new_run[0] = True
    run = np.cumsum(new_run) - 1
    starts = _scatter(zipf_ranks(int(run[-1]) + 1 if ni else 0, code_lines, alpha, seed=rng), code_lines, rng) * 64
    first = np.flatnonzero(new_run)
    step = np.arange(ni) - first[run] if ni else np.zeros(0, np.int64)
    iaddr = 0x400000 + (starts[run] + 4 * step) % code_bytes if ni else np.zeros(0, np.int64)
    data_lines_n = data_bytes // 64
    lines = _scatter(zipf_ranks(nd, data_lines_n, alpha, seed=rng), data_lines_n, rng)
    daddr = 0x10000000 + lines * 64 + 8 * rng.integers(0, 8, nd)
    addr = np.empty(n, np.uint64)
    addr[is_i] = iaddr
    addr[~is_i] = daddr
    kind = np.zeros(n, np.uint8)
    kind[~is_i] = np.where(rng.random(nd) < write_fraction, 2, 1)
    size = np.where(is_i, 4, 8).astype(np.uint16)
    return MemTrace(addr, size, kind, name=name, meta={"generator": "mem", "alpha": alpha})
