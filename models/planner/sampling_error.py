"""How far a plan row from a SHARDS sample of the blocks may be from the exact one: the measured bound (issue 41).

A streamed block role whose exact per-block state passes its share of the memory budget falls back to a
spatial sample of the 4 KiB blocks (:class:`models.traces.block_table.BlockTable`). ``bench/bench_plan_sampling.py``
runs the exact and the sampled streams at forced rates on traces where the exact state fits and records the
errors in ``data/measurements/plan_sampling_error.csv`` (columns ``trace, role, metric, kind, rate, error``: one row
per trace, role, metric and rate; ``kind`` ``abs`` -- absolute, e.g. of a hit ratio -- or ``rel`` -- relative).
:func:`error_text` reads the bound a row says for the rate it used: the largest error over the traces at the nearest
measured rate at or below it (a lower rate keeps fewer blocks: its error bounds the higher rate's), and says when the
rate is below the measured range. :func:`table_sampling` is the ``sampling`` dict of a stream holding a table.
"""

from __future__ import annotations

import math
from functools import cache

__all__ = ["ERROR_FILE", "METRIC_WORDS", "error_bounds", "error_text", "table_sampling", "sampling_sentence"]

#: The measured errors (``data/`` relative path), made by ``bench/bench_plan_sampling.py``.
ERROR_FILE = "measurements/plan_sampling_error.csv"
#: How each metric of the file is said.
METRIC_WORDS = {"hit_ratio": "LRU hit ratio", "footprint": "footprint", "value": "value (the verdict's ratio)",
                "break_even_share": "share of blocks reused past n*"}


@cache
def _errors():
    """The measurements as a DataFrame (None when the file is absent)."""
    from models.data import read_csv

    try:
        return read_csv(ERROR_FILE)
    except KeyError:
        return None


def error_bounds(role: str, rate: float) -> tuple[float, dict, int] | None:
    """``(measured rate, {metric: (kind, largest error over the traces)}, traces)`` of ``role`` at the nearest
    measured rate at or below ``rate`` (the lowest measured when ``rate`` is below them all); None: no measurement."""
    df = _errors()
    if df is None:
        return None
    d = df[df.role == role]
    if not len(d):
        return None
    rates = sorted(set(d.rate.astype(float)))
    below = [r for r in rates if r <= rate * (1 + 1e-9)]
    at = max(below) if below else min(rates)
    sel = d[(d.rate.astype(float) - at).abs() <= 1e-12 * max(at, 1e-300)]
    out = {m: (str(g.kind.iloc[0]), float(g.error.max())) for m, g in sel.groupby("metric", sort=False)}
    return at, out, int(sel.trace.nunique())


def error_text(role: str, rate: float) -> str:
    """The measured error bound a sampled ``role`` row says at ``rate``, in words naming the measurement file."""
    got = error_bounds(role, rate)
    if got is None:
        return f"error not measured for the {role} role (no rows in data/{ERROR_FILE})"
    at, m, n = got
    parts = [f"{METRIC_WORDS.get(k, k)} {e:.2g} absolute" if kind == "abs" else f"{METRIC_WORDS.get(k, k)} {e:.1%}"
             for k, (kind, e) in m.items()]
    where = (f"at rate 1/{1 / at:,.0f}" if at <= rate * (1 + 1e-9)
             else f"at rate 1/{1 / at:,.0f}, the lowest measured: the rate used, 1/{1 / rate:,.0f}, is below the "
                  "measured range and its error may be larger")
    return (f"largest error measured against the exact answer over {n} traces {where} (bench/bench_plan_sampling.py, "
            f"data/{ERROR_FILE}): " + ", ".join(parts))


def table_sampling(role: str, table) -> dict | None:
    """The ``sampling`` of a stream holding ``table`` (a :class:`~models.traces.block_table.BlockTable`): None when
    exact, else ``{"method", "rate", "why", "error"}``."""
    from models.traces.block_table import SAMPLE_METHOD

    if not table.sampled:
        return None
    return {"method": SAMPLE_METHOD, "rate": float(table.rate), "why": table.sample_why,
            "error": error_text(role, float(table.rate))}


def sampling_sentence(s: dict) -> str:
    """What a sampled row's reason says: the method, the rate, why and the error bound."""
    rate = float(s["rate"])
    inv = f" (1 in {1 / rate:,.0f})" if rate > 0 and math.isfinite(1 / rate) else ""
    return (f"sampled: {s['method']} at rate {rate:.3g}{inv}, the counts scaled by 1/rate (SHARDS, Waldspurger et al., "
            f"FAST 2015), because {s['why']}; {s['error']}")
