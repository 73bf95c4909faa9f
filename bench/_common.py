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

__all__ = ["ROOT", "timed", "print_ratio", "peak_rss_bytes", "PEAK_RSS_CODE"]


def peak_rss_bytes() -> float:
    """This process's own peak RSS [bytes]: ``VmHWM`` of ``/proc/self/status`` (NaN where there is none).

    Not ``ru_maxrss``: on Linux a child's ``ru_maxrss`` carries the forking parent's peak across ``exec`` (a
    1.5 GB parent made an 11 MB child report 1.5 GB), and ``RUSAGE_CHILDREN`` is the largest child so far."""
    try:
        with open("/proc/self/status") as fh:
            return float(next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:")) * 1024)
    except (OSError, StopIteration, ValueError, IndexError):
        return float("nan")


#: Python source a child process runs last to print its own peak RSS as ``peak_rss_bytes=N`` (:func:`peak_rss_bytes`).
PEAK_RSS_CODE = ("\nimport sys as _s\nwith open('/proc/self/status') as _f:\n"
                 "    _s.stdout.write('\\npeak_rss_bytes=%d\\n' % (next(int(l.split()[1]) for l in _f "
                 "if l.startswith('VmHWM:')) * 1024))\n")


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
