"""A planner row in words: the plan's row and columns, its verdict, numbers and comparisons as text.

:func:`plan_row` builds one row of a plan (:data:`PLAN_COLUMNS`, then :data:`BAND_COLUMNS`);
:func:`verdict_of`, :func:`short_num` and :func:`compare` write its verdict and reason;
:func:`describe_filebench` is the seed 000 §4.6 reason of a Filebench workload, used by both
planners (:mod:`models.planner.rank`, :mod:`models.planner.role_storage`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from models.storage.workload import WorkloadFeatures

__all__ = ["VERDICTS", "EVALUATED", "is_tie", "tie_why", "PLAN_COLUMNS", "BAND_COLUMNS", "TRACE_COLUMNS", "SAMPLE_COLUMNS", "plan_row", "verdict_of", "short_num", "compare",
           "describe_filebench"]

#: Verdicts of a plan row: the device wins, is about the same as or loses against the baseline, or no number and why.
VERDICTS = ("wins", "about the same", "loses", "not applicable", "needs data")
#: The verdicts of a row with a value (a bar in the charts).
EVALUATED = ("wins", "about the same", "loses")
#: Columns of :meth:`PlanResult.to_frame` (the CSV contract), then the uncertainty columns.
PLAN_COLUMNS = ["workload", "role", "device", "baseline", "metric", "unit", "value", "p5", "p95", "verdict", "reason"]
#: The uncertainty columns after :data:`PLAN_COLUMNS` (``p5, p95`` are among those).
BAND_COLUMNS = ["p_win", "decisive_input"]
#: The trace columns after :data:`BAND_COLUMNS`: requests (references) of the workload's trace the row used,
#: and read from it (NaN: not read to its end; both NaN for a workload that is not a trace).
TRACE_COLUMNS = ["requests_used", "requests_read"]
#: The plan's last columns, after the economics (issue 41): how the row's trace was evaluated -- ``method``
#: (``"exact"``, or the sampling method, e.g. a SHARDS spatial sample of the blocks when the exact per-block state
#: passes the memory budget) and ``sample_rate`` (1.0 exact; NaN for a row not from a trace); empty and NaN in a
#: row without a value (``not applicable``, ``needs data``: nothing was evaluated).
SAMPLE_COLUMNS = ["method", "sample_rate"]


def plan_row(workload, role, device, baseline, metric, value=math.nan, verdict="", reason="", band=None, usage=None):
    """One plan row; a band that could not be drawn adds "(band not sampled)" to the reason (why: in
    ``decisive_input``). ``usage``: what the role's simulation says about the device's capacity and the bytes it
    absorbs (:func:`models.planner.economics.role_usage`), kept under ``"_usage"`` for the economics columns."""
    b = band or {}
    if str(b.get("decisive_input", "")).startswith("not sampled"):
        reason += " (band not sampled)"
    return {"workload": workload, "role": role, "device": device, "baseline": baseline, "metric": metric, "unit": "x",
            "value": float(value), "p5": float(b.get("p5", math.nan)), "p95": float(b.get("p95", math.nan)),
            "verdict": verdict, "reason": reason, "p_win": float(b.get("p_win", math.nan)),
            "decisive_input": str(b.get("decisive_input", "")), "requests_used": math.nan,
            "requests_read": math.nan, "method": "exact", "sample_rate": math.nan, "_usage": usage}


def _band(band) -> tuple[float, float]:
    b = band or {}
    return float(b.get("p5", math.nan)), float(b.get("p95", math.nan))


def is_tie(value: float, band=None) -> bool:
    """Whether ``value`` (baseline / device [x]) reads "about the same": within the tolerance
    ``planner.tie_tolerance`` of 1× (``1 / (1 + tol) <= value <= 1 + tol``), or 1× inside the row's
    p5-p95 band when one was computed (the samples cannot tell the two apart).

    >>> is_tie(0.9986), is_tie(1.01), is_tie(1.2), is_tie(1.2, {"p5": 0.8, "p95": 1.5})
    (True, True, False, True)
    """
    from models.provenance import param

    if not np.isfinite(value):
        return False
    tol = float(param("planner.tie_tolerance").value)
    if 1 / (1 + tol) <= value <= 1 + tol:
        return True
    p5, p95 = _band(band)
    return bool(np.isfinite(p5) and np.isfinite(p95) and min(p5, p95) <= 1 <= max(p5, p95))


def tie_why(value: float, band=None) -> str:
    """Why a tie is a tie, in words (the band, else the tolerance).

    >>> tie_why(1.01)
    '1.01×, within ±5 % of 1×'
    """
    from models.provenance import param

    p5, p95 = _band(band)
    tol = float(param("planner.tie_tolerance").value)
    if np.isfinite(p5) and np.isfinite(p95) and min(p5, p95) <= 1 <= max(p5, p95) \
            and not 1 / (1 + tol) <= value <= 1 + tol:
        return f"{short_num(value)}×, its p5–p95 band {short_num(p5)}–{short_num(p95)}× spans 1×"
    return f"{short_num(value)}×, within ±{tol * 100:g} % of 1×"


def verdict_of(value: float, band=None) -> str:
    """``"about the same"`` for a tie (:func:`is_tie`), else ``"wins"`` above 1× (baseline / device) and ``"loses"``
    below.

    >>> verdict_of(2.0), verdict_of(0.9986), verdict_of(0.5), verdict_of(0.5, {"p5": 0.3, "p95": 1.1})
    ('wins', 'about the same', 'loses', 'about the same')
    """
    if is_tie(value, band):
        return "about the same"
    return "wins" if value > 1 else "loses"


def short_num(x: float) -> str:
    """A number in a reason: thousands separated from 100 on, else 3 significant digits.

    >>> short_num(1234.5), short_num(0.01234), short_num(float("inf"))
    ('1,234', '0.0123', 'inf')
    """
    if not np.isfinite(x):
        return "inf" if x > 0 else str(x)
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def compare(value: float, dev: str, base: str, what: str, band=None) -> str:
    """``value`` (baseline / device [x]) in words; a tie (:func:`is_tie`, with the row's ``band``) reads
    "about the same as".

    >>> compare(2.0, "pcm", "ssd", "faster"), compare(0.5, "pcm", "ssd", "faster")
    ('pcm 2× faster than ssd', 'pcm 2× worse than ssd')
    >>> compare(0.9986, "pcm", "ssd", "faster")
    'pcm about the same as ssd (0.999×, within ±5 % of 1×)'
    """
    if is_tie(value, band):
        return f"{dev} about the same as {base} ({tie_why(value, band)})"
    if value > 1:
        return f"{dev} {short_num(value)}× {what} than {base}"
    if value == 1:
        return f"{dev} no better than {base}"
    return f"{dev} {short_num(1 / value)}× worse than {base}"


def describe_filebench(features: WorkloadFeatures, hit: float, speedup: float, ref: str) -> str:
    """§4.6 reason in words, e.g. ``"fsync-heavy, 1:1 R/W, low locality -> PCM-DAX 180× faster than HDD"``.

    ``features`` from :func:`models.storage.workload.workload_features`, ``hit`` the
    page-cache hit ratio [-], ``speedup`` PCM-DAX over ``ref`` [x].

    >>> from models.storage.workload import WorkloadFeatures
    >>> f = WorkloadFeatures(fsyncs_per_100_ops=15.4, write_share=0.5, reads=2, writes=2,
    ...                      fileset_bytes=8e8, nfiles=50_000, iosize_bytes=1 << 20, file_size_bytes=16384)
    >>> describe_filebench(f, 0.5, 180, "HDD")
    'fsync-heavy, 1:1 R/W, low locality (50% cache hits), 1 MiB I/O -> PCM-DAX 180× faster than HDD'
    """
    parts = []
    f = features.fsyncs_per_100_ops
    parts.append("fsync-heavy" if f >= 5 else ("some fsyncs" if f > 0 else "no fsync"))
    r, w = features.reads, features.writes
    g = math.gcd(int(r), int(w)) or 1
    parts.append(f"{int(r) // g}:{int(w) // g} R/W" + (" (write-intensive)" if w > r else ""))
    parts.append(f"{'low' if hit < 0.9 else 'high'} locality ({hit:.0%} cache hits)")
    io = features.iosize_bytes
    if io == io:
        parts.append(f"{io / (1 << 20):g} MiB I/O" if io >= 1 << 20 else f"{io / 1024:g} KiB I/O")
    def num(x):
        return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"

    verdict = (f"PCM-DAX {num(speedup)}× faster than {ref}" if speedup >= 1
               else f"PCM-DAX {num(1 / speedup)}× slower than {ref}")
    return ", ".join(parts) + " -> " + verdict
