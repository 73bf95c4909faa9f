"""The compiled solution of the workload model's fixed points (numba), shared by the two entry points.

:func:`solve_curve` solves :func:`~models.storage.workload.fit.evaluate`'s fixed points at every
thread count of its curve (each thread count's write-back fixed point starting from the previous
one's, as the NumPy loop does; ``evaluate(..., reference=True)`` runs that loop instead, equal bit
for bit: ``tests/models/storage/workload/``); :func:`_many` solves them at one thread count for
many samples, for :func:`~models.storage.workload.fast.evaluate_many`. The kernels repeat the
reference's operations in the same order (NumPy's pairwise summation included); the tolerances of
the fixed points are the reference's (:mod:`~models.storage.workload.roots`,
:func:`~models.storage.workload.group_commit.group_commit_batch`). The MVA step is the reference
:func:`~models.storage.workload.mva.mva`'s stable recursion (marginals below the server count
only, idle probabilities from the networks without each multi-server station).

References
----------
.. [1] Seed 000: Filebench on a DAX PCM file system (Table 1, Figs. 2-5).
.. [2] E. Lazowska et al., "Quantitative System Performance", Prentice-Hall 1984, ch. 6, 8.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from models.storage.filebench import Workload
from models.storage.workload.configs import StorageConfig
from models.storage.workload.costs import (
    DIRTY_BACKGROUND_RATIO,
    DIRTY_EXPIRE_S,
    DIRTY_WRITEBACK_S,
    RUN_SECONDS,
)
from models.storage.workload.group_commit import GATED_WAIT, group_commit_batch
from models.storage.workload.mva import _mva_step
from models.storage.workload.roots import SECANT_ITERS, WB_RTOL, illinois_step

__all__ = ["solve_curve"]

#: Demand columns handed to the kernel, in this order.
_COLS = ("cpu_ns", "device_ns", "host_ns", "journal_ns", "commit_device_ns", "packed_pos_ns", "writeback_device_ns",
         "writeback_host_ns", "writeback_log_device_ns", "writeback_log_host_ns", "writeback_bytes",
         "writeback_log_bytes")
#: Tolerances of the reference's fixed points (the group commit's read from its function, so the two
#: cannot drift apart; the write-back ones declared once in :mod:`~models.storage.workload.roots`).
_GC_TOL = group_commit_batch.__kwdefaults__["tol"]
_SEC_RTOL, _SEC_ITERS = WB_RTOL, SECANT_ITERS
_ILL_RTOL = WB_RTOL


@njit(cache=True)
def _pairwise(a, lo, n):  # pragma: no cover - compiled
    """``a[lo:lo+n].sum()`` as NumPy computes it for ``n <= 128`` (8-way unrolled; one block of its
    pairwise summation)."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[lo + i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    while i < n - (n % 8):
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@njit(cache=True)
def _station_demands(C, wrow, b, ff, fl, lg, rows, D):  # pragma: no cover - compiled
    """``rows = rows_at(b, (ff, fl)) * wrow[:, None]`` and ``D = rows.sum(axis=0)`` of ``evaluate``."""
    R = C.shape[1]
    mb = min(b, lg)
    for i in range(R):
        dev0 = C[1, i] - C[4, i] - C[5, i]
        jour0 = C[3, i] + C[4, i]
        wbd_f = C[6, i] - C[8, i]
        wbh_f = C[7, i] - C[9, i]
        dev = dev0 + C[5, i] * mb / b + ff * wbd_f + fl * C[8, i]
        host = C[2, i] + ff * wbh_f + fl * C[9, i]
        rows[i, 0] = C[0, i] * wrow[i]
        rows[i, 1] = dev * wrow[i]
        rows[i, 2] = host * wrow[i]
        rows[i, 3] = jour0 / b * wrow[i]
    for k in range(4):
        D[k] = rows[0, k] if R > 0 else 0.0
        for i in range(1, R):
            D[k] += rows[i, k]


@njit(cache=True)
def _mva_at(D, keep, servers, m, p, q, rn, tn, bit, rk):  # pragma: no cover - compiled
    """X [loops/ns] of ``mva(D[keep], servers[keep], m)`` at population ``m``, its residence times per station
    into ``rk`` (0 where not kept): :func:`~models.storage.workload.mva._mva_kernel`'s recursion through the
    same population step (:func:`~models.storage.workload.mva._mva_step`), in place. Work arrays: ``p`` (16, 4,
    >= min(m + 1, max c)) marginals, ``q``, ``rn`` (16, 4) queues and residence times, ``tn`` (16,) cycle
    times of the networks without some multi-server stations, ``bit`` (4,) int (filled here)."""
    r = 0
    for k in range(4):
        bit[k] = 0
        if keep[k] and servers[k] > 1:
            bit[k] = 1 << r
            r += 1
    nets = 1 << r
    for net in range(nets):
        for k in range(4):
            q[net, k] = 0.0
            p[net, k, 0] = 1.0
            for j in range(1, min(max(servers[k], 1), m + 1)):
                p[net, k, j] = 0.0
    for k in range(4):
        rk[k] = 0.0
    for n in range(1, m + 1):
        _mva_step(n, nets, D, keep, servers, bit, p, q, rn, tn)
    for k in range(4):
        if keep[k]:
            rk[k] = rn[0, k]
    return m / tn[0] if tn[0] > 0 else np.inf


@njit(cache=True)
def _mva_work(servers, m):  # pragma: no cover - compiled
    """Work arrays of :func:`_mva_at` for stations with ``servers`` and populations up to ``m`` (``p, q, rn, tn,
    bit, rk``), then the stretch per station of :func:`_n_sync_at`."""
    width = 1
    for k in range(servers.size):
        width = max(width, min(servers[k], m + 1))
    return (np.zeros((16, 4, width)), np.zeros((16, 4)), np.zeros((16, 4)), np.zeros(16), np.zeros(4, dtype=np.int64),
            np.zeros(4), np.zeros(4))


@njit(cache=True)
def _n_sync_at(b, C, wrow, is_sync, servers, keep, m, ff, fl, lg, gated, rows, D, flat, work):  # pragma: no cover
    """(threads in fsync / GATED_WAIT, X [loops/ns]) at batch ``b``: ``group_commit_batch``'s ``solve``."""
    _station_demands(C, wrow, b, ff, fl, lg, rows, D)
    x = _mva_at(D, keep, servers, m, work[0], work[1], work[2], work[3], work[4], work[5])
    for k in range(4):
        work[6][k] = work[5][k] / D[k] if keep[k] else 1.0  # stretch
    j = 0
    for i in range(is_sync.size):
        if is_sync[i]:
            for k in range(4):
                flat[j] = rows[i, k] * work[6][k]
                j += 1
    return x * _pairwise(flat, 0, flat.size) / gated, x


@njit(cache=True)
def _solve(C, wrow, is_sync, servers, m, ff, fl, lg, batchable, gated, gc_tol, rows, D, work, flat):  # pragma: no cover
    """(X [loops/ns], fsyncs per commit b) of ``evaluate``'s ``solve(m, (ff, fl))`` (group commit when
    batchable); the demands per station at ``b`` are left in ``D``, the residence times in ``work[5]``."""
    _station_demands(C, wrow, 1.0, ff, fl, lg, rows, D)
    keep = D > 0
    if not batchable:
        return _mva_at(D, keep, servers, m, work[0], work[1], work[2], work[3], work[4], work[5]), 1.0
    # group_commit_batch's evaluation points in its order -- b = 1, b = m, the regula falsi / bisection points,
    # the bracket's middle -- through one call site (the kernel compiles once per call site)
    lo, hi = 1.0, float(m)
    flo, fhi, side, width2, width1 = 0.0, 0.0, 0, np.inf, np.inf
    b, stage = 1.0, 0
    for it in range(64):
        nb, x = _n_sync_at(b, C, wrow, is_sync, servers, keep, m, ff, fl, lg, gated, rows, D, flat, work)
        if stage == 0:  # b = 1
            if m == 1 or nb <= 1.0:
                return x, 1.0
            flo, b, stage = nb - lo, hi, 1
            continue
        if stage == 3:  # the final middle
            return x, b
        if stage == 1:  # b = m
            if nb >= hi:
                return x, hi
            fhi, stage = nb - hi, 2
        else:  # a point inside the bracket
            lo, flo, hi, fhi, side = illinois_step(lo, flo, hi, fhi, b, nb - b, side)
        if hi - lo < gc_tol or it >= 61:  # (60 points inside the bracket at most)
            b, stage = 0.5 * (lo + hi), 3
        elif hi - lo > 0.5 * width2:
            width2, width1 = width1, hi - lo
            b = 0.5 * (lo + hi)
        else:
            width2, width1 = width1, hi - lo
            b = (lo * fhi - hi * flo) / (fhi - flo)
            b = min(max(b, lo + 0.5 * gc_tol), hi - 0.5 * gc_tol)
    return x, b


@njit(cache=True)
def _shares(x, wb_files, wb_log, F, memory, run_s, bg_ratio, expire_s, writeback_s):  # pragma: no cover
    """``writeback_shares`` at throughput ``x`` [loops/ns]: (f_files, f_log, ok)."""
    loops_per_s = x * 1e9
    r = loops_per_s * wb_files
    rl = loops_per_s * wb_log
    if not (np.isfinite(r) and r >= 0 and np.isfinite(rl) and rl >= 0):
        return 0.0, 0.0, False
    if not (F > 0 and memory > 0 and run_s > 0):
        return 0.0, 0.0, False
    B = bg_ratio / 100.0 * memory
    finite = np.isfinite(F)

    e = expire_s + writeback_s / 2.0
    files = r * e if not finite else (F * r * e / (F + r * e) if r > 0 else 0.0)
    if files + rl * e > B:
        lo, hi = 0.0, e
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            files = r * mid if not finite else (F * r * mid / (F + r * mid) if r > 0 else 0.0)
            if files + rl * mid < B:
                lo = mid
            else:
                hi = mid
        e = 0.5 * (lo + hi)
    ripe = max(0.0, 1.0 - e / run_s)
    absorbed = 1.0 if not finite else F / (F + r * e)
    return ripe * absorbed, ripe, True


@njit(cache=True)
def _g(x, C, wrow, is_sync, servers, m, batchable, prm, wbf, wbl, rows, D, work, flat):  # pragma: no cover
    """(``g(x)``: X [loops/ns] with the write-back shares of throughput ``x``, ok) -- ``evaluate``'s ``g``."""
    f0, f1, ok = _shares(x, wbf, wbl, prm[3], prm[4], prm[5], prm[6], prm[7], prm[8])
    if not ok:
        return 0.0, False
    return _solve(C, wrow, is_sync, servers, m, f0, f1, prm[0], batchable, prm[1], prm[2], rows, D, work, flat)[0], True


@njit(cache=True)
def _fixed_x(x0, C, wrow, is_sync, servers, m, batchable, prm, wbf, wbl, rows, D, work, flat):  # pragma: no cover
    """(x = g(x) [loops/ns] at ``m`` threads, ok): ``evaluate``'s secant from ``x0`` (from ``g(0)`` when
    ``x0 <= 0``; :func:`~models.storage.workload.fit._secant_fixed_point`), else its Illinois regula falsi
    between everything and nothing written back (:func:`~models.storage.workload.fit._fixed_point`)."""
    sec_rtol, sec_iters, ill_rtol = prm[9], int(prm[10]), prm[11]
    xa = x0
    if not xa > 0:
        xa, ok = _g(0.0, C, wrow, is_sync, servers, m, batchable, prm, wbf, wbl, rows, D, work, flat)
        if not ok:
            return 0.0, False
    ga, ok = _g(xa, C, wrow, is_sync, servers, m, batchable, prm, wbf, wbl, rows, D, work, flat)
    if not ok:
        return 0.0, False
    ha = ga - xa
    if abs(ha) <= sec_rtol * abs(xa):
        return xa, True
    xb = xa + ha
    for _ in range(sec_iters):
        if not (np.isfinite(xb) and xb > 0):
            break
        gb, ok = _g(xb, C, wrow, is_sync, servers, m, batchable, prm, wbf, wbl, rows, D, work, flat)
        if not ok:
            return 0.0, False
        hb = gb - xb
        if abs(hb) <= sec_rtol * abs(xb):
            return xb, True
        if hb == ha:
            break
        xa, ha, xb = xb, hb, xb - hb * (xb - xa) / (hb - ha)
    # Illinois regula falsi
    a = _solve(C, wrow, is_sync, servers, m, 1.0, 1.0, prm[0], batchable, prm[1], prm[2], rows, D, work, flat)[0]
    b = _solve(C, wrow, is_sync, servers, m, 0.0, 0.0, prm[0], batchable, prm[1], prm[2], rows, D, work, flat)[0]
    ga, ok = _g(a, C, wrow, is_sync, servers, m, batchable, prm, wbf, wbl, rows, D, work, flat)
    if not ok:
        return 0.0, False
    gb, ok = _g(b, C, wrow, is_sync, servers, m, batchable, prm, wbf, wbl, rows, D, work, flat)
    if not ok:
        return 0.0, False
    ha, hb = ga - a, gb - b
    if ha <= 0 or b <= a:
        return a, True
    if hb >= 0:
        return b, True
    side = 0
    c = a
    for _ in range(100):
        c = (a * hb - b * ha) / (hb - ha)
        gc, ok = _g(c, C, wrow, is_sync, servers, m, batchable, prm, wbf, wbl, rows, D, work, flat)
        if not ok:
            return 0.0, False
        hc = gc - c
        if abs(hc) <= ill_rtol * abs(c) or b - a <= ill_rtol * abs(b):
            return c, True
        a, ha, b, hb, side = illinois_step(a, ha, b, hb, c, hc, side)
    return c, True


@njit(cache=True)
def _curve(C, wrow, is_sync, servers, n, m0, prm, batch, X, wb, res_k, Db):  # pragma: no cover - compiled
    """``evaluate``'s solution at ``m = m0..n`` threads into row ``m - m0`` of the outputs: fsyncs per
    commit, X [loops/ns], write-back shares (files, log), residence times and demands per station [ns].

    ``prm``: ``cpu_cores, GATED_WAIT, group-commit tol, F (bytes written), memory, run_s, background
    ratio, expire_s, writeback_s, secant rtol, secant iterations, Illinois rtol``. Each thread count's
    write-back fixed point starts from the previous one's, as in ``evaluate``. Returns the status: 0 =
    done; 1 = the loop does no file-system work; 2 = the write-back shares got invalid input (the caller
    runs the reference, which raises its error)."""
    R = C.shape[1]
    rows = np.zeros((R, 4))
    D = np.zeros(4)
    work = _mva_work(servers, n)  # MVA work arrays (residence times in work[5]), stretch
    _station_demands(C, wrow, 1.0, 1.0, 1.0, prm[0], rows, D)
    if not (D[0] != 0 or D[1] != 0 or D[2] != 0 or D[3] != 0):
        return 1
    batchable = np.bool_(False)  # not the literal False: one signature of _solve, _g, _fixed_x (a literal compiled each twice)
    n_sync_rows = 0
    for i in range(R):
        if C[3, i] > 0 or C[4, i] > 0 or C[5, i] > 0:
            batchable = True
        if is_sync[i]:
            n_sync_rows += 1
    flat = np.empty(n_sync_rows * 4)
    wbl = _pairwise(C[11] * wrow, 0, R)
    wbf = _pairwise(C[10] * wrow, 0, R) - wbl
    x_prev = 0.0
    for m in range(m0, n + 1):
        ff, fl = 0.0, 0.0
        if wbf + wbl > 0:
            x, ok = _fixed_x(x_prev, C, wrow, is_sync, servers, m, batchable, prm, wbf, wbl, rows, D, work, flat)
            if not ok:
                return 2
            x_prev = x
            ff, fl, ok = _shares(x, wbf, wbl, prm[3], prm[4], prm[5], prm[6], prm[7], prm[8])
            if not ok:
                return 2
        x, b = _solve(C, wrow, is_sync, servers, m, ff, fl, prm[0], batchable, prm[1], prm[2], rows, D, work, flat)
        i = m - m0
        batch[i], X[i], wb[i, 0], wb[i, 1] = b, x, ff, fl
        for k in range(4):
            res_k[i, k] = work[5][k]
            Db[i, k] = D[k]
    return 0


@njit(cache=True, nogil=True)
def _many(C, wrow, is_sync, servers, n, prm, memory):  # pragma: no cover - compiled
    """X [loops/ns] at ``n`` threads and the status (:func:`_curve`) of every sample ``s``: demands ``C[s]``,
    servers ``servers[s]``, write-back memory ``memory[s]`` (``prm[4]``)."""
    S = C.shape[0]
    X = np.zeros(S)
    status = np.zeros(S, dtype=np.int64)
    p = prm.copy()
    batch, x, wb, res_k, Db = np.zeros(1), np.zeros(1), np.zeros((1, 2)), np.zeros((1, 4)), np.zeros((1, 4))
    for s in range(S):
        p[4] = memory[s]
        status[s] = _curve(C[s], wrow, is_sync, servers[s], n, n, p, batch, x, wb, res_k, Db)
        X[s] = x[0] if status[s] == 0 else 0.0
    return X, status


def _params(w: Workload, cfg: StorageConfig, memory: float) -> np.ndarray:
    """The scalars :func:`_curve` reads (its ``prm``), as :func:`~models.storage.workload.fit.evaluate` has them."""
    run_s = float(w.runtime_s) if w.runtime_s else RUN_SECONDS
    written = sum(f.total_bytes for f in w.filesets.values() if f.entries > 1)
    F = float(written) if written > 0 else np.inf
    return np.array([float(cfg.cpu_cores), float(GATED_WAIT), float(_GC_TOL), F, float(memory), run_s,
                     float(DIRTY_BACKGROUND_RATIO), float(DIRTY_EXPIRE_S), float(DIRTY_WRITEBACK_S), float(_SEC_RTOL),
                     float(_SEC_ITERS), float(_ILL_RTOL)])


def _fits_kernel(n_rows: int, is_sync: np.ndarray) -> bool:
    """Whether the kernel's sums repeat NumPy's: :func:`_pairwise` is one block of its pairwise summation
    (PW_BLOCKSIZE = 128 values), so loops of > 128 flowops or > 32 fsync flowops take the reference."""
    return n_rows <= 128 and 4 * int(is_sync.sum()) <= 128


def solve_curve(w: Workload, cfg: StorageConfig, rows: list[dict], wrow: np.ndarray, is_sync: np.ndarray,
                servers: np.ndarray, n: int, m0: int):
    """:func:`~models.storage.workload.fit.evaluate`'s per-thread-count solution for ``m0..n`` threads,
    compiled (the same operations in the same order as its NumPy loop).

    Returns ``(batch, X, shares, residence, demands)`` with one row per thread count ``m0..n``:
    fsyncs per jbd2 commit [-], throughput [loops/ns], write-back shares (files, log) [-], residence
    time and demand per station [ns]; None when the reference loop must run instead (a loop longer than
    the kernel's sums, or write-back shares with invalid input: the reference raises its error).
    """
    if not _fits_kernel(len(rows), is_sync):
        return None
    C = np.array([[r[c] for r in rows] for c in _COLS], dtype=float)
    memory = cfg.page_cache_bytes if cfg.mode == "pagecache" else cfg.host_memory_bytes
    k = n - m0 + 1
    batch, X, wb, res_k, Db = np.zeros(k), np.zeros(k), np.zeros((k, 2)), np.zeros((k, 4)), np.zeros((k, 4))
    status = _curve(C, np.ascontiguousarray(wrow, dtype=float), np.ascontiguousarray(is_sync, dtype=np.bool_),
                    np.ascontiguousarray(servers, dtype=np.int64), int(n), int(m0), _params(w, cfg, memory),
                    batch, X, wb, res_k, Db)
    return (batch, X, wb, res_k, Db) if status == 0 else None
