"""Measured time base and fault cost (data/measurements/apps, data/measurements/fault_cost; issue 15)."""

from __future__ import annotations

import numpy as np
import pytest

from models.memory import measured
from models.provenance import param


def test_time_per_reference_is_cpu_time_over_lackey_data_references():
    df = measured.app_measurements()
    timed = df.dropna(subset=["ns_per_data_ref"])
    assert len(timed) >= 3 and set(timed["app"]) <= set(measured.PROXY_APPS)
    # one way to count data references: loads + stores + modifies, never instruction fetches
    assert (timed["data_refs"] == timed["loads"] + timed["stores"] + timed["modifies"]).all()
    assert (timed["instruction_fetches"] > timed["data_refs"]).all()
    want = (timed["cpu_median_s"] - timed["startup_cpu_s"].fillna(0)) * 1e9 / timed["data_refs"]
    assert np.allclose(timed["ns_per_data_ref"], want, rtol=1e-5)
    assert (timed["ns_per_data_ref_low"] <= timed["ns_per_data_ref"]).all()
    assert (timed["ns_per_data_ref"] <= timed["ns_per_data_ref_high"]).all()
    for app, t in zip(timed["app"], timed["ns_per_data_ref"], strict=True):
        assert measured.ns_per_ref(app) == measured.ns_per_ref(f"lackey:{app}") == pytest.approx(t)
    # the registry default is the median over the applications, its range their spread
    p = param("memext.base_ns_per_ref")
    assert p.value == round(float(np.median(timed["ns_per_data_ref"])), 4)
    assert p.provenance.low <= timed["ns_per_data_ref_low"].min() + 1e-4
    assert p.provenance.high >= timed["ns_per_data_ref_high"].max() - 1e-4
    assert measured.ns_per_ref("xz") is None  # not timed: the caller falls back to the registry


def test_write_rates_are_stores_per_cpu_second():
    t = measured.app_measurements().dropna(subset=["writes_per_s"])
    cpu = t["cpu_median_s"] - t["startup_cpu_s"].fillna(0)
    assert np.allclose(t["writes_per_s"], (t["stores"] + t["modifies"]) / cpu, rtol=1e-5)
    assert np.allclose(t["bytes_stored_per_s"], t["bytes_stored"] / cpu, rtol=1e-5)


def test_fault_cost_summary_orders_the_mechanisms():
    s = measured.fault_cost_summary().set_index("method")
    assert set(s.index) == {"uffd_copy", "minor_zero", "memcpy_4k", "touch_hit"}
    assert (s["low_ns"] <= s["median_ns"]).all() and (s["median_ns"] <= s["high_ns"]).all()
    # a user-space-resolved fault costs more than a kernel zero-fill fault, which costs more than the
    # 4 KiB copy alone, which costs more than a hit
    m = s["median_ns"]
    assert m["uffd_copy"] > m["minor_zero"] > m["memcpy_4k"] > m["touch_hit"]
    assert param("memext.fault_overhead_ns").value == round(m["uffd_copy"] - m["memcpy_4k"], 1)
    assert param("memext.fault_overhead_paper_ns").value == 5062.0
