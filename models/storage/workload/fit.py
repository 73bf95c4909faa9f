"""Throughput and latency of a Filebench workload on a storage configuration vs threads.

:func:`evaluate` puts the per-flowop demands (:mod:`models.storage.workload.demands`) on a
closed network -- CPU with ``cpu_cores`` servers, device with ``device_servers``, VM host
device with ``host_device_servers`` and the single-server jbd2 ``journal`` -- and solves it
by exact MVA (:mod:`models.storage.workload.mva`) for 1..N threads, think time 0, every
thread one customer running the flowop loop. Group commit
(:mod:`models.storage.workload.group_commit`) is a fixed point at each thread count, and so
is the share of the dirty data the kernel flusher writes back within the run
(:func:`~models.storage.workload.costs.writeback_shares`: the dirtying rate follows the
throughput, the throughput falls as more is written back).
Throughput [ops/s] counts every flowop execution, as Filebench's "IO Summary" does;
latency [ms] is per flowop:

.. math::  \\mathrm{ops/s} = 10^9 X \\cdot \\mathrm{ops\\ per\\ loop}, \\qquad
           \\mathrm{latency} = R / \\mathrm{ops\\ per\\ loop} / 10^6, \\qquad
           U_k = X D_k / c_k

with ``X`` loops per ns and ``R`` the loop time [ns]. The sweeps reproduce the paper's
figures: configurations (Fig. 2(a)), files (Fig. 2(b)), I/O size (Fig. 4), threads (Fig. 5).

References
----------
.. [1] Seed 000: Filebench on a DAX PCM file system (Table 1, Figs. 2-5, §4.5).
.. [2] E. Lazowska et al., "Quantitative System Performance", Prentice-Hall 1984, ch. 6, 8.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from models._base import ModelResult, results_frame
from models.storage.filebench import MAX_THREADS, Workload, load_workload
from models.storage.workload.configs import HEADLINE_CONFIGS, StorageConfig, get_config
from models.storage.workload.costs import RUN_SECONDS, writeback_shares
from models.storage.workload.demands import STATIONS, demand_rows
from models.storage.workload.group_commit import group_commit_batch
from models.storage.workload.kernel import solve_curve
from models.storage.workload.mva import mva
from models.storage.workload.personalities import PERSONALITIES, as_workload
from models.storage.workload.roots import SECANT_ITERS, WB_RTOL, illinois_step

__all__ = ["WorkloadResult", "evaluate", "IOSIZES", "sweep_threads", "sweep_iosize", "sweep_files", "compare"]


@dataclass(frozen=True)
class WorkloadResult(ModelResult):
    """Throughput and latency of a workload on a configuration vs thread count.

    ``to_frame()`` is one row: ``workload, config, threads, ops_per_s, latency_ms,
    hit_ratio`` at the largest thread count.

    Attributes
    ----------
    workload, config : str
        Names of the workload and the configuration.
    curve : pandas.DataFrame
        One row per thread count: ``threads``, ``ops_per_s``, ``latency_ms`` (per flowop),
        ``loop_ms``, ``commit_batch`` (fsyncs per jbd2 commit) and ``util_<station>``.
    breakdown : pandas.DataFrame
        Per-flowop mean latency [ms] at the largest thread count, by station, with its
        ``share`` of the loop.
    demands : pandas.DataFrame
        :func:`~models.storage.workload.demands.flowop_demands` of the workload.
    """

    workload: str
    config: str
    curve: pd.DataFrame
    breakdown: pd.DataFrame
    demands: pd.DataFrame

    FRAME_EXTRAS = ("threads", "ops_per_s", "latency_ms", "hit_ratio")

    @property
    def threads(self) -> int:
        """The largest thread count evaluated [-]."""
        return int(self.curve["threads"].iloc[-1])

    @property
    def ops_per_s(self) -> float:
        """Throughput at the largest thread count [ops/s]."""
        return float(self.curve["ops_per_s"].iloc[-1])

    @property
    def latency_ms(self) -> float:
        """Mean latency per flowop at the largest thread count [ms]."""
        return float(self.curve["latency_ms"].iloc[-1])

    @property
    def hit_ratio(self) -> float:
        """Page-cache hit ratio of the file accesses [-]."""
        return float(self.demands["hit_ratio"].iloc[0])


def _secant_fixed_point(g, x0: float, rtol: float = WB_RTOL, iters: int = SECANT_ITERS) -> float | None:
    """``x = g(x)`` by the secant method from ``x0`` (> 0), or None when it does not converge.

    >>> round(_secant_fixed_point(lambda x: 1.0 - 0.5 * x, 0.2), 6)
    0.666667
    """
    xa = x0
    ha = g(xa) - xa
    if abs(ha) <= rtol * abs(xa):
        return xa
    xb = xa + ha
    for _ in range(iters):
        if not (np.isfinite(xb) and xb > 0):
            return None
        hb = g(xb) - xb
        if abs(hb) <= rtol * abs(xb):
            return xb
        if hb == ha:
            return None
        xa, ha, xb = xb, hb, xb - hb * (xb - xa) / (hb - ha)
    return None


def _fixed_point(g, lo: float, hi: float, rtol: float = WB_RTOL) -> float:
    """A root of ``g(x) = x`` between ``lo`` and ``hi``, given ``g(lo) >= lo`` and ``g(hi) <= hi``.

    ``g(x)`` is the throughput the network reaches with the write-back shares of throughput
    ``x``; with every share in [0, 1] it lies between the throughputs with everything
    (``lo``) and nothing (``hi``) written back, so the bracket holds a root. Illinois regula
    falsi, to a relative ``rtol``.

    >>> round(_fixed_point(lambda x: 1.0 - 0.5 * x, 0.0, 1.0), 3)
    0.667
    """
    a, b = lo, hi
    ha, hb = g(a) - a, g(b) - b
    if ha <= 0 or b <= a:
        return a
    if hb >= 0:
        return b
    side = 0
    c = a
    for _ in range(100):
        c = (a * hb - b * ha) / (hb - ha)
        hc = g(c) - c
        if abs(hc) <= rtol * abs(c) or b - a <= rtol * abs(b):
            return c
        a, ha, b, hb, side = illinois_step(a, ha, b, hb, c, hc, side)
    return c


@lru_cache(maxsize=256)
def loop_weights(structure: tuple) -> tuple[np.ndarray, float, np.ndarray]:
    """Weights of a flowop loop's rows, from its ``(group, instances, category)`` per row.

    Thread groups with different loops are merged into one class whose loop is their
    instance-weighted mix. Returns ``(wrow, ops_per_loop, is_sync)``: each row's weight [-], the
    flowops per merged loop [-] and which rows are sync flowops (read-only arrays, cached).

    >>> w, ops, sync = loop_weights((("g", 2, "read"), ("g", 2, "sync")))
    >>> w.tolist(), ops, sync.tolist()
    ([1.0, 1.0], 2.0, [False, True])
    """
    groups, instances, categories = zip(*structure, strict=True)
    dem = pd.DataFrame({"group": list(groups), "instances": list(instances), "category": list(categories)})
    inst = dem.groupby("group", sort=False)["instances"].first()
    weight = inst / inst.sum() if inst.sum() > 0 else inst * 0 + 1.0 / len(inst)
    wrow = dem["group"].map(weight).to_numpy(dtype=float)
    ops_per_loop = float((dem.groupby("group", sort=False).size() * weight).sum())
    is_sync = (dem["category"] == "sync").to_numpy()
    wrow.flags.writeable = is_sync.flags.writeable = False  # shared between calls
    return wrow, ops_per_loop, is_sync


def evaluate(workload: Workload | str, config: StorageConfig | str, *, threads: int | None = None,
             zipf_alpha: float = 0.0, curve: bool = True, reference: bool = False) -> WorkloadResult:
    """Throughput [ops/s] and latency [ms] of ``workload`` on ``config`` for 1..threads threads.

    With ``curve=False`` only the largest thread count is solved (the fixed points of group
    commit and write-back at the other counts are skipped) and ``curve`` has that one row:
    what the I/O-size and file-count sweeps need.

    The fixed points run in a compiled kernel
    (:func:`models.storage.workload.kernel.solve_curve`: this function's NumPy loop below, the
    same operations in the same order); ``reference=True`` runs the NumPy loop itself (what
    the kernel is tested against, ``tests/models/storage/workload/``).

    Thread groups with different loops are merged into one class whose loop is their
    instance-weighted mix (exact for the single-group personalities of Table 1).

    >>> from models.storage.workload import paper_workload
    >>> r = evaluate(paper_workload("varmail"), "hdd")
    >>> r.threads, r.ops_per_s < 10_000, round(r.curve.commit_batch.iloc[-1])
    (50, True, 33)
    """
    w = load_workload(workload) if isinstance(workload, str) else workload
    cfg = get_config(config)
    n = int(threads) if threads is not None else w.nthreads
    if not 1 <= n <= MAX_THREADS:
        raise ValueError(f"threads must be within 1..{MAX_THREADS} (the MVA solver is O(threads x servers)), got {n}")
    rows = demand_rows(w, cfg, zipf_alpha=zipf_alpha)
    if not rows:
        raise ValueError(f"{w.name}: the flowop loop does no file-system work")
    dem = pd.DataFrame(rows)
    wrow, ops_per_loop, is_sync = loop_weights(tuple((r["group"], r["instances"], r["category"]) for r in rows))
    servers = np.array([cfg.cpu_cores, cfg.device_servers, cfg.host_device_servers, 1], dtype=np.int64)

    # the demand columns as arrays, read once from the rows (= dem[c].to_numpy(dtype=float); called in hot loops)
    cols = {c: np.array([r[c] for r in rows], dtype=float)
            for c in ("cpu_ns", "device_ns", "host_ns", "journal_ns", "commit_device_ns", "packed_pos_ns",
                      "writeback_device_ns", "writeback_host_ns", "writeback_log_device_ns", "writeback_log_host_ns",
                      "writeback_bytes", "writeback_log_bytes")}
    batchable = bool((np.column_stack([cols["journal_ns"], cols["commit_device_ns"], cols["packed_pos_ns"]]) > 0).any())
    # dirty bytes left to the flusher per loop [bytes]: rewritable files and log appends
    wb_log = float((cols["writeback_log_bytes"] * wrow).sum())
    wb_files = float((cols["writeback_bytes"] * wrow).sum()) - wb_log
    wb_memory = cfg.page_cache_bytes if cfg.mode == "pagecache" else cfg.host_memory_bytes
    run_s = float(w.runtime_s) if w.runtime_s else RUN_SECONDS
    written = sum(f.total_bytes for f in w.filesets.values() if f.entries > 1)
    footprint = written if written > 0 else np.inf

    # batched_demands(dem, b, cfg.cpu_cores, writeback=...), with the columns read once
    dev0 = cols["device_ns"] - cols["commit_device_ns"] - cols["packed_pos_ns"]
    jour0 = cols["journal_ns"] + cols["commit_device_ns"]
    wbd_f = cols["writeback_device_ns"] - cols["writeback_log_device_ns"]
    wbh_f = cols["writeback_host_ns"] - cols["writeback_log_host_ns"]
    lgroups = float(cfg.cpu_cores)

    def rows_at(b: float, f: tuple[float, float]) -> np.ndarray:  # demands at batch b, write-back shares f
        ff, fl = f
        dev = (dev0 + cols["packed_pos_ns"] * min(b, lgroups) / b + ff * wbd_f
               + fl * cols["writeback_log_device_ns"])
        host = cols["host_ns"] + ff * wbh_f + fl * cols["writeback_log_host_ns"]
        return np.column_stack([cols["cpu_ns"], dev, host, jour0 / b])

    if not (rows_at(1.0, (1.0, 1.0)) * wrow[:, None]).sum(axis=0).any():
        raise ValueError(f"{w.name}: the flowop loop does no file-system work")

    def solve(m: int, f: tuple[float, float]):
        """(batch, X [loops/ns], residence per station, demands per station) at m threads, shares f."""
        D = (rows_at(1.0, f) * wrow[:, None]).sum(axis=0)
        keep = D > 0
        if not batchable:
            res = mva(D[keep], servers[keep], m)
            rk = np.zeros(len(STATIONS))
            rk[keep] = res.residence_ns[-1]
            return 1.0, float(res.throughput_per_ns[-1]), rk, D
        return group_commit_batch(lambda b: rows_at(b, f), wrow, is_sync, servers, keep, m)

    def shares_at(x_per_ns: float) -> tuple[float, float]:
        loops_per_s = x_per_ns * 1e9
        return writeback_shares(loops_per_s * wb_files, loops_per_s * wb_log, footprint, wb_memory, run_s)

    X = np.zeros(n)
    R = np.zeros(n)
    res_k = np.zeros((n, len(STATIONS)))
    batch = np.ones(n)
    Db = np.zeros((n, len(STATIONS)))
    wb = np.zeros((n, 2))
    if wb_files + wb_log <= 0 and not batchable:
        D = (rows_at(1.0, (0.0, 0.0)) * wrow[:, None]).sum(axis=0)
        keep = D > 0
        res = mva(D[keep], servers[keep], n)
        X[:] = res.throughput_per_ns
        R[:] = res.response_ns
        res_k[:, keep] = res.residence_ns
        Db[:] = D
    elif not reference and (got := _compiled(w, cfg, rows, wrow, is_sync, servers, n, 1 if curve else n)):
        lo = slice(n - len(got[1]), n)
        batch[lo], X[lo], wb[lo], res_k[lo], Db[lo] = got
        R[lo] = [rk.sum() for rk in res_k[lo]]
    else:
        x_prev = 0.0
        for m in range(1 if curve else n, n + 1):
            f = (0.0, 0.0)
            if wb_files + wb_log > 0:
                # the throughput x with x = X(shares(x)): secant from the last thread count's solution; if that
                # fails, Illinois regula falsi between the throughputs with everything and with nothing written
                # back (shares in [0, 1], so the root lies between them)
                def g(x, m=m):
                    return solve(m, shares_at(x))[1]

                x = _secant_fixed_point(g, x_prev if x_prev > 0 else g(0.0))
                if x is None:
                    x = _fixed_point(g, solve(m, (1.0, 1.0))[1], solve(m, (0.0, 0.0))[1])
                x_prev = x
                f = shares_at(x)
            b, x, rk, dk = solve(m, f)
            batch[m - 1], X[m - 1], R[m - 1], wb[m - 1] = b, x, rk.sum(), f
            res_k[m - 1], Db[m - 1] = rk, dk
    Xl = X * 1e9  # loops per second
    util = (Xl[:, None] * Db / 1e9) / servers[None, :]
    keep_rows = slice(None) if curve else slice(n - 1, n)
    table = pd.DataFrame({"threads": np.arange(1, n + 1)[keep_rows], "ops_per_s": (Xl * ops_per_loop)[keep_rows],
                          "latency_ms": (R / ops_per_loop / 1e6)[keep_rows], "loop_ms": (R / 1e6)[keep_rows],
                          "commit_batch": batch[keep_rows], "writeback_share": wb[keep_rows, 0],
                          "writeback_share_log": wb[keep_rows, 1],
                          **{f"util_{s}": util[keep_rows, i] for i, s in enumerate(STATIONS)}})
    stretch = np.ones(len(STATIONS))
    last = Db[-1] > 0
    stretch[last] = res_k[-1, last] / Db[-1, last]
    per = rows_at(batch[-1], (wb[-1, 0], wb[-1, 1])) * stretch[None, :] / 1e6  # per flowop and station [ms]
    lat_ms = per[:, 0] + per[:, 1] + per[:, 2] + per[:, 3]
    br = pd.DataFrame({"group": dem["group"], "flowop": dem["flowop"], "kind": dem["kind"],
                       "category": dem["category"], **{f"{s}_ms": per[:, i] for i, s in enumerate(STATIONS)},
                       "latency_ms": lat_ms,
                       "share": lat_ms * wrow / max(1e-300, float((lat_ms * wrow).sum()))})
    return WorkloadResult(workload=w.name, config=cfg.name, curve=table, breakdown=br, demands=dem)


def _compiled(w, cfg, rows, wrow, is_sync, servers, n, m0):
    """:func:`models.storage.workload.kernel.solve_curve`."""
    return solve_curve(w, cfg, rows, wrow, is_sync, servers, n, m0)


def _configs(configs) -> list:
    return [configs] if isinstance(configs, (str, StorageConfig)) else list(configs)


def sweep_threads(workload, configs, threads: int = 32, *, zipf_alpha: float = 0.0) -> pd.DataFrame:
    """Throughput and latency for 1..``threads`` threads on each configuration (Fig. 5).

    Returns the :attr:`WorkloadResult.curve` of every configuration with ``workload`` and
    ``config`` columns.

    >>> df = sweep_threads("varmail", ["hdd", "pcm-dax"], 4); len(df)
    8
    """
    w = as_workload(workload)
    out = []
    for c in _configs(configs):
        r = evaluate(w, c, threads=threads, zipf_alpha=zipf_alpha)
        out.append(r.curve.assign(workload=w.name, config=r.config))
    return pd.concat(out, ignore_index=True)


#: I/O sizes of Fig. 4 [bytes].
IOSIZES = (64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384)


def sweep_iosize(workload, configs, iosizes=IOSIZES, *, threads: int | None = None,
                 zipf_alpha: float = 0.0) -> pd.DataFrame:
    """Throughput vs I/O size of the read/write flowops (Fig. 4: 64 B - 16 KB).

    Columns ``workload, config, iosize_bytes, ops_per_s, latency_ms``.

    >>> df = sweep_iosize("webproxy", "pcm-dax", [64, 4096]); bool(df.ops_per_s.iloc[1] > df.ops_per_s.iloc[0])
    True
    """
    w = as_workload(workload)
    rows = []
    for c in _configs(configs):
        for s in iosizes:
            r = evaluate(w.with_changes(iosize_bytes=float(s)), c, threads=threads, zipf_alpha=zipf_alpha,
                         curve=False)
            rows.append(dict(workload=w.name, config=r.config, iosize_bytes=int(s), ops_per_s=r.ops_per_s,
                             latency_ms=r.latency_ms))
    return pd.DataFrame(rows)


def sweep_files(workload, configs, scales=(1.0, 0.1), *, threads: int | None = None,
                zipf_alpha: float = 0.0) -> pd.DataFrame:
    """Throughput with the default and 10x fewer files (Fig. 2(b)).

    Columns ``workload, config, files_scale, nfiles, ops_per_s, latency_ms, hit_ratio``.
    """
    w = as_workload(workload)
    rows = []
    for c in _configs(configs):
        for s in scales:
            r = evaluate(w.with_changes(files_scale=float(s)), c, threads=threads, zipf_alpha=zipf_alpha,
                         curve=False)
            rows.append(dict(workload=w.name, config=r.config, files_scale=float(s),
                             nfiles=w.with_changes(files_scale=float(s)).main_fileset.entries,
                             ops_per_s=r.ops_per_s, latency_ms=r.latency_ms, hit_ratio=r.hit_ratio))
    return pd.DataFrame(rows)


def compare(workloads=PERSONALITIES, configs=HEADLINE_CONFIGS, *, threads: int | None = None,
            zipf_alpha: float = 0.0) -> pd.DataFrame:
    """Throughput of every workload on every configuration (Fig. 2(a)), with speedups vs HDD/SSD.

    Default configurations: the paper's five and native PCM-DAX (:data:`HEADLINE_CONFIGS`).

    Columns ``workload, config, threads, ops_per_s, latency_ms`` and
    ``speedup_vs_hdd`` / ``speedup_vs_ssd`` when those configurations are included.
    """
    results = [evaluate(w, c, threads=threads, zipf_alpha=zipf_alpha, curve=False)
               for w in map(as_workload, workloads) for c in configs]
    cols = ["workload", "config", "threads", "ops_per_s", "latency_ms"]
    df = results_frame(results)[cols].copy() if results else pd.DataFrame(columns=cols)
    for ref in ("hdd", "ssd"):
        base = df[df.config == ref].set_index("workload")["ops_per_s"]
        if len(base):
            df[f"speedup_vs_{ref}"] = df["ops_per_s"] / df["workload"].map(base)
    return df
