"""jbd2 group commit: concurrent fsyncs share one journal commit.

jbd2 commits one transaction at a time, and every fsync that arrives while a commit runs
joins the next one, so one commit serves ``b`` fsyncs and costs ``1/b`` per fsync. With
commits back to back (gated batch service) a thread in fsync waits on average the residual
half of the running commit plus its own commit, ``GATED_WAIT = 1.5`` commit times, so the
batch is the mean number of threads inside fsync flowops (Little's law on the MVA
solution) divided by 1.5:

.. math::  b = \\mathrm{clip}\\left(X \\, R_{fsync}(b) / 1.5,\\ 1,\\ m\\right)

at ``m`` threads. ``R_fsync`` falls as ``b`` grows, so the fixed point is unique
(:func:`group_commit_batch`, by Illinois regula falsi kept inside the bracket). It is what makes the latency of fsync-heavy
work on page-cached HDD/SSD grow gently with threads (seed 000 §4.5).

A commit is one sequential chain (journal thread hand-off, descriptor and metadata
blocks, cache flush, commit block), so the whole commit -- the journal thread's work and
its device writes -- sits on the single-server ``journal`` station
(:func:`batched_demands`).

References
----------
.. [1] Seed 000 §4.5 (varmail latency vs threads on HDD / SSD).
.. [2] Linux kernel documentation, ``filesystems/ext4/journal`` (jbd2 transactions).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from models.provenance import param
from models.storage.workload.mva import mva
from models.storage.workload.roots import illinois_step

__all__ = ["GATED_WAIT", "batched_demands", "group_commit_batch"]

#: Mean time in a gated batch service (commits back to back) [commit times]: the residual
#: half of the running commit plus one's own (registry ``workload.gated_wait``, assumed).
GATED_WAIT = param("workload.gated_wait").value


def batched_demands(dem: pd.DataFrame, b: float, lgroups: int, *,
                    writeback: float | tuple[float, float] = 0.0) -> np.ndarray:
    """Per-flowop demands [ns] (rows x STATIONS) when ``b`` fsyncs share one jbd2 commit.

    The journal thread's work (``journal_ns``) and the commit's device writes
    (``commit_device_ns``, moved out of the device station) sit on the single-server
    ``journal`` station, paid once per commit, i.e. ``1/b`` per fsync. The positioning of
    packed small-file data (``packed_pos_ns``) is paid once per locality group the batch
    touches, ``min(b, lgroups) / b`` per fsync. At ``b = 1`` the row sums equal
    :func:`~models.storage.workload.demands.flowop_demands`' totals.

    Parameters
    ----------
    dem : pandas.DataFrame
        :func:`~models.storage.workload.demands.flowop_demands` of a workload.
    b : float
        fsyncs per commit [-], >= 1.
    lgroups : int
        ext4 locality groups (one per CPU) [-].
    writeback : float or (float, float), keyword-only
        Shares of the dirty data left to the flusher that it writes within the run [-]
        (:func:`~models.storage.workload.costs.writeback_shares`): ``(files, log)``, or one
        share for both. Adds the shares of ``writeback_device_ns`` to the device and of
        ``writeback_host_ns`` to the host station (default 0: the flowops' own demands).
    """
    cd = dem["commit_device_ns"].to_numpy()
    pp = dem["packed_pos_ns"].to_numpy()
    dev = dem["device_ns"].to_numpy() - cd - pp + pp * min(b, float(lgroups)) / b
    host = dem["host_ns"].to_numpy()
    ff, fl = writeback if isinstance(writeback, tuple) else (writeback, writeback)
    if (ff or fl) and "writeback_device_ns" in dem:
        ld, lh = dem["writeback_log_device_ns"].to_numpy(), dem["writeback_log_host_ns"].to_numpy()
        dev = dev + ff * (dem["writeback_device_ns"].to_numpy() - ld) + fl * ld
        host = host + ff * (dem["writeback_host_ns"].to_numpy() - lh) + fl * lh
    return np.column_stack([dem["cpu_ns"].to_numpy(), dev, host, (dem["journal_ns"].to_numpy() + cd) / b])


def group_commit_batch(rows_b: Callable[[float], np.ndarray], wrow, is_sync, servers, keep, m: int, *,
                       tol: float = 1e-6):
    """fsyncs per jbd2 commit ``b`` at ``m`` threads, by a fixed point of the MVA solution.

    Parameters
    ----------
    rows_b : callable
        ``b -> (rows x stations)`` per-flowop demands [ns] (:func:`batched_demands`).
    wrow : numpy.ndarray
        Weight of each row (thread-group mix) [-].
    is_sync : numpy.ndarray of bool
        Rows that are fsync flowops.
    servers, keep : numpy.ndarray
        Servers per station and the stations with non-zero demand.
    m : int
        Threads [-].
    tol : float, keyword-only
        Width of the final bracket of ``b`` [-] (``b`` is its middle). Regula falsi converges
        superlinearly: 1e-6 takes about half the MVA solutions that bisection took for 1e-3.

    Returns
    -------
    tuple
        ``(b, X [loops/ns], residence per station [ns], demands per station [ns])`` at ``m``.
    """
    def solve(b):
        rows = rows_b(b) * wrow[:, None]
        D = rows.sum(axis=0)
        res = mva(D[keep], servers[keep], m)
        x = res.throughput_per_ns[-1]
        rk = np.zeros(len(D))
        rk[keep] = res.residence_ns[-1]
        stretch = np.ones(len(D))
        stretch[keep] = rk[keep] / D[keep]
        n_sync = x * float((rows[is_sync] * stretch[None, :]).sum()) / GATED_WAIT
        return n_sync, x, rk, D

    lo, hi = 1.0, float(m)
    n1, x, rk, D = solve(1.0)
    if m == 1 or n1 <= 1.0:
        return 1.0, x, rk, D
    nm, x, rk, D = solve(hi)
    if nm >= hi:  # every thread in one commit
        return hi, x, rk, D
    # h(b) = n_sync(b) - b falls from h(1) > 0 to h(m) < 0: Illinois regula falsi kept inside the bracket
    # (every step moves at least tol / 2 from its ends, a bisection when the bracket did not halve in two)
    flo, fhi = n1 - lo, nm - hi
    side, width2, width1 = 0, np.inf, np.inf  # bracket widths before the last two steps
    for _ in range(60):
        if hi - lo < tol:
            break
        if hi - lo > 0.5 * width2:
            c = 0.5 * (lo + hi)
        else:
            c = (lo * fhi - hi * flo) / (fhi - flo)
            c = min(max(c, lo + 0.5 * tol), hi - 0.5 * tol)
        width2, width1 = width1, hi - lo
        fc = solve(c)[0] - c
        lo, flo, hi, fhi, side = illinois_step(lo, flo, hi, fhi, c, fc, side)
    b = 0.5 * (lo + hi)
    _, x, rk, D = solve(b)
    return b, x, rk, D
