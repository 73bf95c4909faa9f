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
    # one way to count data references: loads + stores + modifies, never instruction fetches (miniAMR's
    # whole run is counted by cachegrind, Dr + Dw, the same count, with MPI's start-up subtracted)
    lk = timed[timed["counter"] == "lackey"]
    assert (lk["data_refs"] == lk["loads"] + lk["stores"] + lk["modifies"]).all()
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
    assert measured.ns_per_ref("no-such-program") is None  # not timed: the caller falls back to the registry


def test_miniamr_time_base_subtracts_the_mpi_start_up_from_time_and_count():
    import json

    from tests import ROOT

    w = json.loads((ROOT / "data/measurements/apps/miniamr.wholerun.json").read_text())
    row = measured.app_measurements().set_index("app").loc["miniamr"]
    assert row["data_refs"] == w["data_refs"] - w["startup_data_refs"] > 0
    cpu = row["cpu_median_s"] - row["startup_cpu_s"]
    assert row["ns_per_data_ref"] == pytest.approx(cpu * 1e9 / row["data_refs"], rel=1e-5)
    assert row["writes_per_s"] == pytest.approx((w["writes"] - w["startup_writes"]) / cpu, rel=1e-5)
    # the repeated cachegrind counts agree (the start-up polling under valgrind is bounded)
    for k in ("data_refs_all", "startup_data_refs_all"):
        v = np.array(w[k], dtype=float)
        assert v.max() / v.min() < 1.05


def test_every_bundled_program_has_its_own_measured_time_base():
    from models.traces import bundled_traces

    progs = measured.program_measurements()
    assert set(progs["program"]) == set(measured.PROGRAMS)
    # t_ref = median CPU time / whole-run data references of the same run, fastest..slowest run around it
    assert np.allclose(progs["ns_per_data_ref"], progs["cpu_median_s"] * 1e9 / progs["data_refs"], rtol=1e-5)
    assert np.allclose(progs["data_refs"], progs["reads"] + progs["writes"])
    assert (progs["ns_per_data_ref_low"] <= progs["ns_per_data_ref"]).all()
    assert (progs["ns_per_data_ref"] <= progs["ns_per_data_ref_high"]).all()
    # the counted run contains the bundled trace's window
    assert (progs["window_end_refs"] <= progs["data_refs"]).all()
    for name in (n.split(":", 1)[1] for n in bundled_traces("memory")):
        t = measured.ns_per_ref(name)
        assert t is not None and t > 0, name
        assert param(f"memext.ns_per_ref.{name}").value == pytest.approx(t, abs=1e-4)
        p = param(f"memext.ns_per_ref.{name}").provenance
        assert p.low <= t + 1e-4 and t - 1e-4 <= p.high


def test_write_rates_are_stores_per_cpu_second():
    t = measured.app_measurements().dropna(subset=["writes_per_s"])
    t = t[t["counter"] == "lackey"]  # miniAMR: cachegrind writes (Dw), checked with its time base
    assert len(t) >= 5
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
