"""First-order and total Sobol' indices: Saltelli (2010) and Jansen (1999) estimators on SciPy.

For a model ``y = f(x_1..x_d)`` of independent inputs, the first-order index ``S_i`` is the
share of ``Var(y)`` explained by ``x_i`` alone and the total index ``ST_i`` the share that
involves ``x_i`` at all (alone or in interactions). From two independent designs ``A`` and
``B`` (``n x d``) and ``A_B^i`` = ``A`` with column ``i`` taken from ``B``:

.. math::

    S_i = \\frac{\\frac1n \\sum_j f(B)_j \\,(f(A_B^i)_j - f(A)_j)}{V}, \\qquad
    S_{T,i} = \\frac{\\frac1{2n} \\sum_j (f(A)_j - f(A_B^i)_j)^2}{V}

with ``V`` the variance of ``f`` over ``A`` and ``B`` together: ``n (d + 2)`` model runs.
``A`` and ``B`` are the two halves of one scrambled Sobol' design in ``2d`` dimensions.
SALib implements the same estimators; a dependency for two formulas did not earn its place.

References
----------
.. [1] A. Saltelli, P. Annoni, I. Azzini, F. Campolongo, M. Ratto, S. Tarantola, "Variance
   based sensitivity analysis of model output. Design and estimator for the total
   sensitivity index", Comput. Phys. Commun. 181(2), 2010, pp. 259-270, Table 2 (b) and (f).
.. [2] M. J. W. Jansen, "Analysis of variance designs for model output", Comput. Phys.
   Commun. 117, 1999.
.. [3] T. Ishigami, T. Homma, "An importance quantification technique in uncertainty
   analysis for computer models", ISUMA 1990 (the test function).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from models.uncertainty.sampling import unit_samples

__all__ = ["sobol_indices", "ishigami", "ishigami_indices"]


def sobol_indices(f: Callable[[np.ndarray], np.ndarray], d: int, n: int, *, seed=None,
                  names=None) -> pd.DataFrame:
    """First-order (Saltelli 2010) and total (Jansen) Sobol' indices of ``f`` on ``[0, 1)^d``.

    Parameters
    ----------
    f : callable
        Vectorised model: an ``(m, d)`` array of unit-cube points (map them to input values
        inside ``f``) -> ``m`` outputs.
    d : int
        Inputs [-], >= 1.
    n : int
        Base samples [-] (a power of two is best); ``f`` is evaluated on ``n (d + 2)`` points.
    seed : int or numpy.random.Generator, keyword-only
        Scrambling randomness.
    names : sequence of str, optional, keyword-only
        Input names (default ``x1..xd``).

    Returns
    -------
    pandas.DataFrame
        Columns ``parameter, S1, ST``, one row per input (zeros when the output does not vary).

    Examples
    --------
    >>> t = sobol_indices(lambda u: u[:, 0] + 0 * u[:, 1], 2, 256, seed=0)
    >>> t.round(6).to_dict("list")
    {'parameter': ['x1', 'x2'], 'S1': [1.0, 0.0], 'ST': [1.0, 0.0]}
    """
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d must be a whole number >= 1 (got {d!r})")
    names = [f"x{i + 1}" for i in range(d)] if names is None else list(names)
    if len(names) != d:
        raise ValueError(f"{len(names)} names for {d} inputs")
    ab = unit_samples(2 * d, n, seed=seed)
    A, B = ab[:, :d], ab[:, d:]
    blocks = [A, B]
    for i in range(d):
        abi = A.copy()
        abi[:, i] = B[:, i]
        blocks.append(abi)
    y = np.asarray(f(np.vstack(blocks)), dtype=float)
    if y.shape != (n * (d + 2),):
        raise ValueError(f"the model returned shape {y.shape}, expected ({n * (d + 2)},)")
    fA, fB = y[:n], y[n:2 * n]
    V = float(np.var(np.concatenate([fA, fB])))
    s1, st = np.zeros(d), np.zeros(d)
    if V > 0 and np.isfinite(V):
        for i in range(d):
            fABi = y[(2 + i) * n:(3 + i) * n]
            s1[i] = np.mean(fB * (fABi - fA)) / V
            st[i] = 0.5 * np.mean((fA - fABi) ** 2) / V
    return pd.DataFrame({"parameter": names, "S1": s1, "ST": st})


def ishigami(x, *, a: float = 7.0, b: float = 0.1) -> np.ndarray:
    """Ishigami function ``sin x1 + a sin^2 x2 + b x3^4 sin x1`` for ``x`` of shape ``(m, 3)``
    in ``[-pi, pi]^3``."""
    x = np.asarray(x, dtype=float)
    return np.sin(x[:, 0]) + a * np.sin(x[:, 1]) ** 2 + b * x[:, 2] ** 4 * np.sin(x[:, 0])


def ishigami_indices(*, a: float = 7.0, b: float = 0.1) -> pd.DataFrame:
    """Analytic Sobol' indices of :func:`ishigami` (columns ``parameter, S1, ST``).

    >>> ishigami_indices().round(3).to_dict("list")
    {'parameter': ['x1', 'x2', 'x3'], 'S1': [0.314, 0.442, 0.0], 'ST': [0.558, 0.442, 0.244]}
    """
    pi = np.pi
    v1 = 0.5 * (1 + b * pi ** 4 / 5) ** 2
    v2 = a ** 2 / 8
    v13 = b ** 2 * pi ** 8 * (1 / 18 - 1 / 50)
    v = v1 + v2 + v13
    return pd.DataFrame({"parameter": ["x1", "x2", "x3"], "S1": [v1 / v, v2 / v, 0.0],
                         "ST": [(v1 + v13) / v, v2 / v, v13 / v]})
