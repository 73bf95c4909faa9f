"""Exact Mean Value Analysis of a closed, single-class queueing network with zero think time.

Every thread of a Filebench workload is one customer cycling through the stations; a
station has one server (FCFS queue), ``c > 1`` identical servers (load-dependent) or
infinitely many (delay). With ``D_k`` the demand per cycle at station ``k`` and ``n``
customers:

.. math::

   R_k(n) = D_k \\, (1 + Q_k(n-1))                      \\quad (c_k = 1)

   R_k(n) = D_k \\sum_{j=1}^{n} \\frac{j}{\\min(j, c_k)} p_k(j-1 \\mid n-1)  \\quad (c_k > 1)

   R_k(n) = D_k                                        \\quad (c_k = 0,\\ \\text{delay})

   X(n) = n / \\sum_k R_k(n), \\qquad Q_k(n) = X(n) R_k(n),

   p_k(j \\mid n) = \\frac{X(n) D_k}{\\min(j, c_k)} p_k(j-1 \\mid n-1), \\quad
   p_k(0 \\mid n) = 1 - \\sum_{j \\ge 1} p_k(j \\mid n)

(marginal-probability recursion for multi-server stations). The recursion is exact for
product-form networks; cost O(N^2 K).

References
----------
.. [1] E. Lazowska, J. Zahorjan, G. Graham, K. Sevcik, "Quantitative System Performance",
   Prentice-Hall 1984, ch. 6 (exact MVA) and ch. 8 (load-dependent stations).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from models._base import ModelResult

__all__ = ["MvaResult", "mva"]


@njit(cache=True)
def _mva_kernel(D, servers, n_max):  # pragma: no cover - compiled
    K = D.shape[0]
    X = np.zeros(n_max + 1)
    R = np.zeros((n_max + 1, K))
    Q = np.zeros((n_max + 1, K))
    p = np.zeros((K, n_max + 1))
    for k in range(K):
        p[k, 0] = 1.0
    for n in range(1, n_max + 1):
        for k in range(K):
            c = servers[k]
            if c == 0:
                R[n, k] = D[k]
            elif c == 1:
                R[n, k] = D[k] * (1.0 + Q[n - 1, k])
            else:
                s = 0.0
                for j in range(1, n + 1):
                    s += j / min(j, c) * p[k, j - 1]
                R[n, k] = D[k] * s
        tot = 0.0
        for k in range(K):
            tot += R[n, k]
        X[n] = n / tot if tot > 0 else np.inf
        for k in range(K):
            Q[n, k] = X[n] * R[n, k]
            c = servers[k]
            if c > 1:
                newp = np.zeros(n + 1)
                acc = 0.0
                for j in range(1, n + 1):
                    newp[j] = X[n] * D[k] / min(j, c) * p[k, j - 1]
                    acc += newp[j]
                newp[0] = max(0.0, 1.0 - acc)
                for j in range(n + 1):
                    p[k, j] = newp[j]
    return X, R, Q


@dataclass(frozen=True)
class MvaResult(ModelResult):
    """Throughput and residence times of a closed network for populations 1..n_max.

    Attributes
    ----------
    n : numpy.ndarray of int
        Populations 1..n_max [customers].
    throughput_per_ns : numpy.ndarray
        Cycles completed per ns at each population [1/ns].
    response_ns : numpy.ndarray
        Cycle time at each population [ns].
    residence_ns : numpy.ndarray
        Residence time per cycle at each station (n_max x K) [ns].
    queue : numpy.ndarray
        Mean customers at each station (n_max x K) [-].
    """

    n: np.ndarray
    throughput_per_ns: np.ndarray
    response_ns: np.ndarray
    residence_ns: np.ndarray
    queue: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """One row per population: ``n``, ``throughput_per_ns``, ``response_ns``, then
        ``residence_ns_<k>`` and ``queue_<k>`` for each station ``k`` (0-based)."""
        df = pd.DataFrame({"n": self.n, "throughput_per_ns": self.throughput_per_ns, "response_ns": self.response_ns})
        for k in range(self.residence_ns.shape[1]):
            df[f"residence_ns_{k}"] = self.residence_ns[:, k]
        for k in range(self.queue.shape[1]):
            df[f"queue_{k}"] = self.queue[:, k]
        return df


def mva(demands_ns, servers, n_max: int) -> MvaResult:
    """Exact MVA of a closed, single-class network with zero think time.

    Parameters
    ----------
    demands_ns : array_like
        Service demand per cycle at each station [ns] (>= 0).
    servers : array_like of int
        Servers per station: 1 = queueing (FCFS), c > 1 = c identical servers
        (load-dependent, exact marginal-probability MVA), 0 = delay (infinite servers).
    n_max : int
        Largest population (threads) [-].

    Returns
    -------
    MvaResult
        Throughput, cycle time, residence times and queue lengths for 1..n_max customers.

    Examples
    --------
    One station: X = 1/D whatever N, response N*D.

    >>> r = mva([2.0], [1], 3); r.throughput_per_ns.tolist(), r.response_ns.tolist()
    ([0.5, 0.5, 0.5], [2.0, 4.0, 6.0])

    Two balanced stations (D = 1): X(N) = N / (N + 1).

    >>> mva([1.0, 1.0], [1, 1], 3).throughput_per_ns.round(4).tolist()
    [0.5, 0.6667, 0.75]
    """
    D = np.asarray(demands_ns, dtype=float)
    c = np.asarray(servers, dtype=np.int64)
    if D.ndim != 1 or D.shape != c.shape or D.size == 0:
        raise ValueError("demands_ns and servers must be 1-D arrays of the same non-zero length")
    if not np.all(np.isfinite(D)) or np.any(D < 0):
        raise ValueError("demands_ns must be finite and >= 0")
    if np.any(c < 0):
        raise ValueError("servers must be >= 0 (0 = delay station)")
    if D.sum() <= 0:
        raise ValueError("demands_ns: total demand must be > 0")
    if not 1 <= int(n_max) <= 100_000:
        raise ValueError(f"n_max must be in 1..100000, got {n_max}")
    X, R, Q = _mva_kernel(D, c, int(n_max))
    return MvaResult(n=np.arange(1, n_max + 1), throughput_per_ns=X[1:], response_ns=R[1:].sum(axis=1),
                     residence_ns=R[1:], queue=Q[1:])
