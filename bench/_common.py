"""Shared bench helpers: repository root on ``sys.path``, best-of-N timing, the ``ratio:`` line.

Import it first in a bench script (``python bench/bench_x.py`` puts ``bench/`` on ``sys.path``)::

    from _common import print_ratio, timed

    from models import ...

Importing it puts the repository root on ``sys.path`` so the scripts run without installing
the package. Not a benchmark itself (``make bench`` runs ``bench/bench_*.py`` only).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

__all__ = ["ROOT", "timed", "print_ratio"]


def timed(f, *a, repeat: int = 3, **k):
    """Call ``f(*a, **k)`` ``repeat`` times; return (best wall time [s], last result)."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = f(*a, **k)
        best = min(best, time.perf_counter() - t)
    return best, out


def print_ratio(numerator_s: float, denominator_s: float, digits: int = 2) -> None:
    """Print the last line of a bench, ``ratio: N`` = ``numerator_s / denominator_s``.

    Both times are measured in the same run; each bench's docstring says which is which.
    """
    print(f"ratio: {numerator_s / denominator_s:.{digits}f}")
