"""Measured time base, fault cost and write rates of the traced programs (issue 15, seed 002 §5).

Reads the measurement tables made on the build machine:

- ``data/measurements/apps/apps.csv`` (``data/measurements/apps/build_and_trace.sh``): per
  program, the whole-run lackey counts (data references = loads + stores + modifies; instruction
  fetches are never data references), the native CPU time (median of repeated runs) and from
  them the time per data reference [ns] and the store rate;
- ``data/measurements/programs/programs.csv`` (``data/measurements/programs/run.sh``): the same
  time base for the five other bundled lackey-traced programs (xz, sort, gcc, sqlite, numpy):
  median native CPU time of the run / its data references (valgrind cachegrind Dr + Dw, the
  lackey L + S + M count); xz and gcc are timed and counted on a prefix of their traced input
  that contains the traced window;
- ``data/measurements/fault_cost/fault_cost.csv`` (``fault_cost.c``): the time of a 4 KiB page
  fault resolved by a userfaultfd handler with UFFDIO_COPY from DRAM, a kernel zero-fill fault,
  a 4 KiB ``memcpy`` and the timer overhead.

The memory-extension defaults (registry ``memext.base_ns_per_ref``, ``memext.fault_overhead_ns``)
are computed from the same tables by :mod:`models.provenance`; :func:`ns_per_ref` gives a trace
its own measured time base when it has one.

References
----------
.. [1] A. Awad, S. Blagodurov, Y. Solihin, "Write-Aware Management of NVM-based Memory
   Extensions", ICS 2016 (seed 002), Table 1 (the six applications), §5.2.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from models.data import read_csv

__all__ = ["app_measurements", "program_measurements", "time_bases", "fault_cost_table", "fault_cost_summary",
           "ns_per_ref", "PROXY_APPS", "PROGRAMS"]

#: Seed 002's six DOE proxy applications (Table 1), as named in the bundled traces.
PROXY_APPS = ("lulesh", "xsbench", "rsbench", "simplemoc", "minife", "miniamr")
#: The five other bundled lackey-traced programs (data/traces/make_memtraces.sh).
PROGRAMS = ("xz", "sort", "gcc", "sqlite", "numpy")


@cache
def _apps() -> pd.DataFrame:
    return read_csv("measurements/apps/apps.csv")


@cache
def _programs() -> pd.DataFrame:
    return read_csv("measurements/programs/programs.csv")


def program_measurements() -> pd.DataFrame:
    """One row per bundled program of ``programs.csv`` (whole-run counts, native times, ns per reference).

    Columns include ``program, counter, data_refs, reads, writes, cpu_median_s, ns_per_data_ref,
    ns_per_data_ref_low, ns_per_data_ref_high`` (fastest and slowest of the native runs),
    ``window_end_refs`` (the bundled trace's window ends within the counted run) and ``command``.

    >>> set(program_measurements()["program"]) <= set(PROGRAMS)
    True
    """
    return _programs().copy()


@cache
def time_bases() -> pd.DataFrame:
    """Measured time per data reference of every timed program: ``name, ns_per_ref, low, high, source`` [ns].

    >>> t = time_bases().set_index("name")
    >>> bool((t["low"] <= t["ns_per_ref"]).all() and (t["ns_per_ref"] <= t["high"]).all())
    True
    """
    a = _apps().dropna(subset=["ns_per_data_ref"])
    p = _programs().dropna(subset=["ns_per_data_ref"])
    rows = [pd.DataFrame({"name": a["app"], "ns_per_ref": a["ns_per_data_ref"], "low": a["ns_per_data_ref_low"],
                          "high": a["ns_per_data_ref_high"], "source": "data/measurements/apps/apps.csv"}),
            pd.DataFrame({"name": p["program"], "ns_per_ref": p["ns_per_data_ref"], "low": p["ns_per_data_ref_low"],
                          "high": p["ns_per_data_ref_high"], "source": "data/measurements/programs/programs.csv"})]
    out = pd.concat(rows, ignore_index=True)
    out["low"] = np.minimum(out["low"], out["ns_per_ref"])
    out["high"] = np.maximum(out["high"], out["ns_per_ref"])
    return out


def app_measurements() -> pd.DataFrame:
    """One row per traced program of ``apps.csv`` (counts, native times, ns per reference, write rates).

    Columns include ``app, data_refs, stores, modifies, bytes_stored, cpu_median_s,
    ns_per_data_ref, ns_per_data_ref_low, ns_per_data_ref_high, writes_per_s,
    bytes_stored_per_s`` (rates per second of native CPU time); programs traced only in a
    window (no whole-run counts) have empty time-base columns.

    >>> "lulesh" in set(app_measurements()["app"])
    True
    """
    return _apps().copy()


def _program(name: str) -> str:
    n = str(name).strip()
    return n.split(":", 1)[1] if n.startswith("lackey:") else n


def ns_per_ref(trace_name: str) -> float | None:
    """Measured native time per data reference of a bundled trace's program [ns], or None.

    Seed 002's applications (``apps.csv``) and the five other bundled programs (``programs.csv``).

    >>> ns_per_ref("lackey:lulesh") == ns_per_ref("lulesh") > 0
    True
    >>> ns_per_ref("no-such-trace") is None
    True
    """
    t = time_bases()
    row = t[t["name"] == _program(trace_name)]
    if row.empty or not np.isfinite(row["ns_per_ref"].iloc[0]):
        return None
    return float(row["ns_per_ref"].iloc[0])


@cache
def fault_cost_table() -> pd.DataFrame:
    """``fault_cost.csv``: one row per method and run (percentiles of the per-touch times [ns])."""
    return read_csv("measurements/fault_cost/fault_cost.csv")


def fault_cost_summary() -> pd.DataFrame:
    """Median over the runs of each method's median, lowest and highest run median [ns].

    Methods: ``uffd_copy`` (userfaultfd + UFFDIO_COPY of 4 KiB from DRAM), ``minor_zero``
    (kernel zero-fill fault), ``memcpy_4k`` (the copy alone), ``touch_hit`` (timer overhead).

    >>> s = fault_cost_summary().set_index("method")
    >>> bool(s.loc["uffd_copy", "median_ns"] > s.loc["minor_zero", "median_ns"] > s.loc["memcpy_4k", "median_ns"])
    True
    """
    g = fault_cost_table().groupby("method")["median_ns"]
    return pd.DataFrame({"median_ns": g.median(), "low_ns": g.min(), "high_ns": g.max(),
                         "runs": g.size()}).reset_index()
