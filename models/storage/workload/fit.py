"""Throughput and latency of a Filebench workload on a storage configuration vs threads.

:func:`evaluate` puts the per-flowop demands (:mod:`models.storage.workload.demands`) on a
closed network -- CPU with ``cpu_cores`` servers, device with ``device_servers``, VM host
device with ``host_device_servers`` and the single-server jbd2 ``journal`` -- and solves it
by exact MVA (:mod:`models.storage.workload.mva`) for 1..N threads, think time 0, every
thread one customer running the flowop loop. Group commit
(:mod:`models.storage.workload.group_commit`) is a fixed point at each thread count.
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

import numpy as np
import pandas as pd

from models._base import ModelResult, results_frame
from models.storage.filebench import MAX_THREADS, Workload, load_workload
from models.storage.workload.configs import StorageConfig, get_config
from models.storage.workload.demands import STATIONS, flowop_demands
from models.storage.workload.group_commit import batched_demands, group_commit_batch
from models.storage.workload.mva import mva
from models.storage.workload.personalities import PERSONALITIES, as_workload

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


def evaluate(workload: Workload | str, config: StorageConfig | str, *, threads: int | None = None,
             zipf_alpha: float = 0.0) -> WorkloadResult:
    """Throughput [ops/s] and latency [ms] of ``workload`` on ``config`` for 1..threads threads.

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
        raise ValueError(f"threads must be within 1..{MAX_THREADS} (the MVA solver is O(threads^2)), got {n}")
    dem = flowop_demands(w, cfg, zipf_alpha=zipf_alpha)
    inst = dem.groupby("group", sort=False)["instances"].first()
    weight = inst / inst.sum() if inst.sum() > 0 else inst * 0 + 1.0 / len(inst)
    wrow = dem["group"].map(weight).to_numpy()
    ops_per_loop = float((dem.groupby("group", sort=False).size() * weight).sum())
    servers = np.array([cfg.cpu_cores, cfg.device_servers, cfg.host_device_servers, 1], dtype=np.int64)

    def rows_b(b: float) -> np.ndarray:  # per-flowop demands at batch b
        return batched_demands(dem, b, cfg.cpu_cores)

    D1 = (rows_b(1.0) * wrow[:, None]).sum(axis=0)
    keep = D1 > 0
    if not keep.any():
        raise ValueError(f"{w.name}: the flowop loop does no file-system work")
    is_sync = (dem["category"] == "sync").to_numpy()
    batchable = bool((dem[["journal_ns", "commit_device_ns", "packed_pos_ns"]].to_numpy() > 0).any())
    X = np.zeros(n)
    R = np.zeros(n)
    res_k = np.zeros((n, len(STATIONS)))
    batch = np.ones(n)
    Db = np.zeros((n, len(STATIONS)))
    if not batchable:
        res = mva(D1[keep], servers[keep], n)
        X[:] = res.throughput_per_ns
        R[:] = res.response_ns
        res_k[:, keep] = res.residence_ns
        Db[:] = D1
    else:
        for m in range(1, n + 1):
            b, x, rk, dk = group_commit_batch(rows_b, wrow, is_sync, servers, keep, m)
            batch[m - 1], X[m - 1], R[m - 1] = b, x, rk.sum()
            res_k[m - 1], Db[m - 1] = rk, dk
    Xl = X * 1e9  # loops per second
    curve = pd.DataFrame({"threads": np.arange(1, n + 1), "ops_per_s": Xl * ops_per_loop,
                          "latency_ms": R / ops_per_loop / 1e6, "loop_ms": R / 1e6, "commit_batch": batch})
    util = np.zeros((n, len(STATIONS)))
    util[:, keep] = (Xl[:, None] * Db[:, keep] / 1e9) / servers[keep][None, :]
    for i, s in enumerate(STATIONS):
        curve[f"util_{s}"] = util[:, i]
    stretch = np.ones(len(STATIONS))
    stretch[keep] = res_k[-1, keep] / Db[-1, keep]
    rows = rows_b(batch[-1])
    br = dem[["group", "flowop", "kind", "category"]].copy()
    for i, s in enumerate(STATIONS):
        br[f"{s}_ms"] = rows[:, i] * stretch[i] / 1e6
    br["latency_ms"] = br[[f"{s}_ms" for s in STATIONS]].sum(axis=1)
    br["share"] = br["latency_ms"] * wrow / max(1e-300, float((br["latency_ms"] * wrow).sum()))
    return WorkloadResult(workload=w.name, config=cfg.name, curve=curve, breakdown=br, demands=dem)


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
            r = evaluate(w.with_changes(iosize_bytes=float(s)), c, threads=threads, zipf_alpha=zipf_alpha)
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
            r = evaluate(w.with_changes(files_scale=float(s)), c, threads=threads, zipf_alpha=zipf_alpha)
            rows.append(dict(workload=w.name, config=r.config, files_scale=float(s),
                             nfiles=w.with_changes(files_scale=float(s)).main_fileset.entries,
                             ops_per_s=r.ops_per_s, latency_ms=r.latency_ms, hit_ratio=r.hit_ratio))
    return pd.DataFrame(rows)


def compare(workloads=PERSONALITIES, configs=("hdd", "ssd", "pcm-block", "pcm-dax", "pcm-dram", "pcm-ssd", "pcm-hdd"),
            *, threads: int | None = None, zipf_alpha: float = 0.0) -> pd.DataFrame:
    """Throughput of every workload on every configuration (Fig. 2(a)), with speedups vs HDD/SSD.

    Columns ``workload, config, threads, ops_per_s, latency_ms`` and
    ``speedup_vs_hdd`` / ``speedup_vs_ssd`` when those configurations are included.
    """
    results = [evaluate(w, c, threads=threads, zipf_alpha=zipf_alpha)
               for w in map(as_workload, workloads) for c in configs]
    cols = ["workload", "config", "threads", "ops_per_s", "latency_ms"]
    df = results_frame(results)[cols].copy() if results else pd.DataFrame(columns=cols)
    for ref in ("hdd", "ssd"):
        base = df[df.config == ref].set_index("workload")["ops_per_s"]
        if len(base):
            df[f"speedup_vs_{ref}"] = df["ops_per_s"] / df["workload"].map(base)
    return df
