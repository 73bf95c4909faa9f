"""Quasi-random designs on the unit cube (``scipy.stats.qmc``): scrambled Sobol or Latin hypercube.

References
----------
.. [1] I. M. Sobol', "Distribution of points in a cube and approximate evaluation of
   integrals", USSR Comput. Math. Math. Phys. 7, 1967.
.. [2] M. D. McKay, R. J. Beckman, W. J. Conover, "A comparison of three methods for selecting
   values of input variables", Technometrics 21, 1979 (Latin hypercube).
"""

from __future__ import annotations

import warnings

import numpy as np

from models._base import as_generator

__all__ = ["METHODS", "unit_samples"]

#: Designs :func:`unit_samples` draws.
METHODS = ("sobol", "lhs")


def unit_samples(d: int, n: int, *, seed=None, method: str = "sobol") -> np.ndarray:
    """``n`` points of a ``d``-dimensional design on ``[0, 1)^d``, shape ``(n, d)``.

    Parameters
    ----------
    d : int
        Dimensions (uncertain inputs) [-], >= 0.
    n : int
        Points (samples) [-], >= 1.
    seed : int or numpy.random.Generator, keyword-only
        Scrambling randomness: the same int seed gives the same points.
    method : {"sobol", "lhs"}, keyword-only
        Scrambled Sobol' sequence (best with ``n`` a power of two; other ``n`` take its
        first ``n`` points) or Latin hypercube.

    Examples
    --------
    >>> a = unit_samples(3, 8, seed=1); a.shape
    (8, 3)
    >>> bool((a == unit_samples(3, 8, seed=1)).all())
    True
    >>> np.sort(np.floor(unit_samples(1, 4, seed=2, method="lhs")[:, 0] * 4)).tolist()
    [0.0, 1.0, 2.0, 3.0]
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"samples must be a whole number >= 1 (got {n!r})")
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 0:
        raise ValueError(f"dimensions must be a whole number >= 0 (got {d!r})")
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)} (got {method!r})")
    rng = as_generator(seed)
    if d == 0:
        return np.zeros((int(n), 0))
    # ~1 s to import: not before a page needs a design (issue 18, cold start)
    from scipy.stats import qmc

    if method == "lhs":
        return qmc.LatinHypercube(d, rng=rng).random(int(n))
    with warnings.catch_warnings():  # balance warning for n not a power of two
        warnings.simplefilter("ignore", UserWarning)
        return qmc.Sobol(d, scramble=True, rng=rng).random(int(n))
