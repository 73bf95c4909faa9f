"""How the ledger writes a number: 4 significant digits, deterministic.

One function, below the rules (which quote numbers in their reasons), the claims and the
renderer (:mod:`models.validation.render` re-exports it), so a regenerated ledger is
byte-identical unless a value changed.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["fmt_number"]


def fmt_number(x: float | None) -> str:
    """A number with 4 significant digits, no exponent between 1e-3 and 1e6.

    >>> [fmt_number(v) for v in (221.053, 0.61623, 3580.2, 1.0, -0.0, 2.5e-5, 1.2e7, None, float("nan"))]
    ['221.1', '0.6162', '3580', '1', '0', '2.500e-05', '1.200e+07', '–', '–']
    """
    if x is None or not math.isfinite(float(x)):
        return "–"
    x = float(x)
    if x == 0:
        return "0"
    if 1e-3 <= abs(x) < 1e6:
        s = np.format_float_positional(x, precision=4, unique=False, fractional=False, trim="-")
        return "0" if s in ("-0", "0") else s
    return f"{x:.3e}"
