"""The stable multi-server MVA (:mod:`models.storage.workload.mva`: marginals below the server count, idle
probabilities from the complement networks) against the normalising constants of the same product-form
network computed by convolution -- an independent exact method with positive sums only, so it keeps its
accuracy where the textbook closure ``p(0 | n) = 1 - sum_{j>=1} p(j | n)`` loses it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.storage import workload as wf


def _factors(d: float, c: int, N: int) -> np.ndarray:
    """f(j) = d^j / prod_{i<=j} min(i, c) for j = 0..N (c = 0: delay, min(i, c) -> i)."""
    f = np.empty(N + 1)
    f[0] = 1.0
    for j in range(1, N + 1):
        f[j] = f[j - 1] * d / (j if c == 0 else min(j, c))
    return f


def _convolution(D, c, N):
    """(X(N) [1/ns], Q_k(N), R_k(N) [ns]) from G(n) = (f_1 * ... * f_K)(n): X = G(N-1) / G(N),
    P(n_k = j) = f_k(j) G_{-k}(N - j) / G(N). Demands scaled by their maximum (no overflow)."""
    scale = max(D)
    f = [_factors(d / scale, k, N) for d, k in zip(D, c, strict=True)]

    def conv(parts):
        g = np.zeros(N + 1)
        g[0] = 1.0
        for h in parts:
            g = np.convolve(g, h)[: N + 1]
        return g

    G = conv(f)
    x = G[N - 1] / G[N] / scale
    q = np.array([sum(j * f[k][j] * conv(f[:k] + f[k + 1:])[N - j] for j in range(1, N + 1)) / G[N]
                  for k in range(len(D))])
    return x, q, q / x


@settings(max_examples=150, deadline=None)
@given(stations=st.lists(st.tuples(st.one_of(st.just(0.0), st.floats(1e-3, 1e3)), st.integers(0, 16)),
                         min_size=1, max_size=4),
       N=st.integers(1, 80))
def test_mva_equals_the_convolution_algorithm(stations, N):
    D = [d for d, _ in stations]
    c = [k for _, k in stations]
    if sum(D) <= 0:
        return
    r = wf.mva(D, c, N)
    x, q, res = _convolution(D, c, N)
    assert r.throughput_per_ns[-1] == pytest.approx(x, rel=1e-9)
    np.testing.assert_allclose(r.queue[-1], q, rtol=1e-9, atol=1e-12 * N)
    np.testing.assert_allclose(r.residence_ns[-1], res, rtol=1e-9, atol=1e-12 * max(D))
    assert r.queue[-1].sum() == pytest.approx(N, rel=1e-12)  # every customer is somewhere


@pytest.mark.parametrize(("D", "c", "N"), [
    # webserver on pcm-hdd at 256 threads (the last solve of its fixed point): six CPU servers at 68 %
    # utilisation behind a saturated HDD; 1 - sum p(j) lost 0.9 % of X and 80 % of the CPU residence time
    ([156634.10000657, 38228.01692333], [6, 1], 256),
    # fileserver on optane-dax at 256 threads: saturated CPUs (60 digits were not enough for 1 - sum p(j))
    ([90230.54084225, 11737.53282682], [6, 1], 256),
    # two multi-server stations and a queue, saturated SSD
    ([3.0e4, 9.0e4, 5.0e3], [6, 8, 1], 200),
])
def test_mva_stays_exact_where_the_textbook_closure_does_not(D, c, N):
    r = wf.mva(D, c, N)
    x, q, res = _convolution(D, c, N)
    assert r.throughput_per_ns[-1] == pytest.approx(x, rel=1e-9)
    np.testing.assert_allclose(r.residence_ns[-1], res, rtol=1e-9)


def test_mva_limits_multi_server_stations():
    with pytest.raises(ValueError, match="servers: at most 12 multi-server stations"):
        wf.mva([1.0] * 13, [2] * 13, 3)
