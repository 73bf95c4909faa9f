"""Trace-derived NVM write rates the endurance pages use, kept on disk between server starts.

Replaying a bundled memory trace through the memory-extension model takes about a second (the
Lulesh default of the lifetime and write-reduction pages) to minutes (every bundled trace, the
lifetime page's Figure 2); a fresh server would pay it before its first chart. These results
depend on no input, so they live in the disk cache (:mod:`app.components.diskcache`), computed at
install time by ``python -m app.warmup`` and keyed by the content of the model code they run and of
the bundled files they read (:data:`RATE_DATA`), then in ``st.cache_data`` for the process.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from app.components.diskcache import disk_cached, finite_float
from models.endurance import lifetime as lt

__all__ = ["RATE_DATA", "derived_write_rates", "lulesh_write_rate"]

#: Bundled files the trace-derived rates read (globs relative to ``data/``): the memory traces, the
#: measured time bases (also read by the parameter registry) and the device catalogue.
RATE_DATA = ("traces/mem", "measurements", "devices.csv")


@st.cache_data(show_spinner=False, max_entries=1)
def lulesh_write_rate() -> float:
    """:func:`models.endurance.lifetime.measured_write_rate` of the bundled Lulesh trace [bytes/s]."""
    return disk_cached("lifetime-lulesh-write-rate", partial(lt.measured_write_rate, "lulesh"),
                       data=("traces/mem/lulesh.npz", *RATE_DATA[1:]), check=finite_float)


@st.cache_data(show_spinner=False, max_entries=1)
def derived_write_rates() -> tuple[dict, dict]:
    """:func:`models.endurance.lifetime.derived_write_rates` (rates [bytes/s], sources)."""
    return disk_cached("lifetime-derived-write-rates", lt.derived_write_rates, data=RATE_DATA, check=_rates_and_sources)


def _rates_and_sources(value) -> tuple[dict[str, float], dict[str, str]]:
    """The disk cache's check of :func:`derived_write_rates`: [rates by name, sources by name], finite rates."""
    rates, sources = value  # a pair (ValueError / TypeError otherwise)
    if not isinstance(rates, dict) or not isinstance(sources, dict):
        raise TypeError("not a pair of dicts")
    if not all(isinstance(v, str) for v in sources.values()):
        raise TypeError("a source is not text")
    return {str(k): finite_float(v) for k, v in rates.items()}, {str(k): v for k, v in sources.items()}
