"""Every input either takes effect or says, next to it and with the label the user sees, why not --
and the rest of the page keeps working (issue 18).

Per input kind: a number-list text field (HDD "Request sizes [KiB]"), a whole-number field read as
text (wear "ψ", ``1e3`` = 1000), a number field without browser-side bounds (HDD "Boundary"), the
device form (write latency -5), a scenario file of another page, a fio JSON with a skipped job.
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app.components.inputs import parse_int
from tests import ROOT

VIEWS = ROOT / "app" / "views"


def _page(name: str) -> AppTest:
    at = AppTest.from_file(str(VIEWS / name), default_timeout=240).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _errors(at: AppTest) -> str:
    """The page's error boxes as the user reads them (Markdown escapes removed)."""
    return "\n".join(e.value for e in at.error).replace("\\", "")


def _charts(at: AppTest) -> int:
    return len(at.get("plotly_chart"))


@pytest.mark.parametrize("text, value", [("1e3", 1000), ("2e5", 200_000), ("200,000", 200_000), ("64", 64),
                                         (" 7 ", 7), (12.0, 12), ("-3", -3)])
def test_whole_numbers_read_scientific_notation(text, value):
    assert parse_int(text) == value


@pytest.mark.parametrize("text", ["1.5e0", "1.5", "abc", "nan", "inf", "", "1e400", True])
def test_non_whole_numbers_are_refused_with_a_message(text):
    with pytest.raises(ValueError, match="give a whole number"):
        parse_int(text)


@pytest.fixture(scope="module")
def hdd():
    return _page("hdd_model.py")


@pytest.mark.parametrize("bad", ["nan", "abc", "-4", "4, nan", ""])
def test_hdd_request_sizes_bad_entry_names_the_label_and_keeps_the_page(hdd, bad):
    n = _charts(hdd)
    assert n >= 3 and not _errors(hdd)
    hdd.text_input(key="hdd.sizes_kib").input(bad).run()
    assert not hdd.exception
    errors = _errors(hdd)
    assert "Request sizes [KiB]" in errors and "sizes_kib" not in errors, errors
    assert "not applied; using 4, 64, 1024" in errors, errors
    assert _charts(hdd) == n, "the other charts (and the throughput curve, at the last valid sizes) stay"
    hdd.text_input(key="hdd.sizes_kib").input("4, 64, 1024").run()
    assert not _errors(hdd)


def test_hdd_boundary_out_of_range_says_why_next_to_the_input(hdd):
    hdd.checkbox(key="hdd.boundary_auto").uncheck().run()
    assert any("allowed: 1 – 1e+06" in c.value for c in hdd.caption), [c.value for c in hdd.caption]
    n = _charts(hdd)
    hdd.number_input(key="hdd.boundary_cyl").set_value(-5.0).run()
    assert not hdd.exception
    errors = _errors(hdd)
    assert "Boundary [cylinders]" in errors and "not applied; using 600" in errors, errors
    assert _charts(hdd) == n
    hdd.number_input(key="hdd.boundary_cyl").set_value(600.0).run()
    hdd.checkbox(key="hdd.boundary_auto").check().run()


def test_wear_psi_reads_1e3_as_1000_and_refuses_1_5():
    at = _page("wear.py")
    n = _charts(at)
    at.text_input(key="wear.gap_interval_writes").input("1e3").run()
    assert not at.exception and not _errors(at), _errors(at)
    assert _charts(at) == n
    assert at.session_state["wear.__good"]["gap_interval_writes"] == 1000  # the value the results used
    at.text_input(key="wear.gap_interval_writes").input("1.5e0").run()
    errors = _errors(at)
    assert "ψ: writes to a region between gap moves [writes]" in errors and "whole number" in errors, errors
    assert "not applied; using 1000" in errors, errors
    assert _charts(at) == n


def test_device_form_says_why_a_negative_write_latency_is_not_saved():
    at = _page("devices.py")
    at.number_input[2].set_value(-5.0)  # Write latency [ns]
    assert at.number_input[2].label == "Write latency [ns]"
    at.button[0].click().run()
    errors = _errors(at)
    assert "Custom device not saved" in errors and "Write latency [ns]" in errors, errors
    assert "custom_devices" not in at.session_state or not at.session_state["custom_devices"]


def _load_script(payload: str, page: str) -> None:
    import streamlit as st

    from app.components.scenario import Scenario, _load_json

    class Lifetime(Scenario):
        PREFIX = "x"
        capacity_gb: float = 1.0

    class Upload:
        def getvalue(self) -> bytes:
            return payload.encode()

    st.session_state["x.__upload"] = Upload()
    _load_json(Lifetime, page)
    st.text(st.session_state.get("x.__loaderr", "loaded"))


def test_scenario_file_of_another_page_names_that_page():
    payload = json.dumps({"page": "hdd-model", "scenario": {"sizes_kib": "4"}})
    at = AppTest.from_function(_load_script, args=(payload, "lifetime"), default_timeout=60).run()
    text = at.text[0].value
    assert "'HDD model'" in text and "'Memory-extension lifetime'" in text, text


def test_scenario_file_with_an_unknown_input_says_so():
    payload = json.dumps({"page": "lifetime", "scenario": {"capacity_gb": 2, "sizes_kib": "4"}})
    at = AppTest.from_function(_load_script, args=(payload, "lifetime"), default_timeout=60).run()
    text = at.text[0].value
    assert "not an input of this page" in text and "Extra inputs" not in text, text


def test_fio_json_with_a_broken_job_names_the_skipped_job():
    from app.components.inputs import fio_skipped_jobs
    from models.data import data_path
    from models.storage import device_char as dc

    doc = json.loads(data_path("fio/tmpfs.json").read_text())
    broken = doc["jobs"][0]["jobname"]
    for op in ("read", "write"):
        doc["jobs"][0][op] = "corrupted"
    raw = json.dumps(doc).encode()
    measured = dc.read_fio_json(raw)
    assert broken not in set(measured.job)
    assert fio_skipped_jobs(raw, measured.job) == [broken]
    assert fio_skipped_jobs(data_path("fio/tmpfs.json").read_bytes(), dc.read_fio_json(data_path("fio/tmpfs.json")).job) == []


#: Whole-number fields still drawn by st.number_input, whose browser side reads "1e3" as 1 (issue 18).
#: A ratchet: converting one to app.components.inputs.int_input (field type SciInt) removes it here;
#: a new int number_input fails this test.
NOT_YET_CONVERTED = {
    "memory_extension.age_max",
    "memory_extension.eviction_buffer_pages", "memory_extension.footprint_pages",
    "memory_extension.prefetch_threshold", "memory_extension.references", "memory_extension.refs_per_visit",
    "planner.threads", "planner.uq_samples", "planner.uq_seed", "trace_explorer.scatter_points",
    "write_reduction.n_pages", "write_reduction.seed", "traces.seed",
}


def test_whole_number_inputs_read_scientific_notation():
    from tests.app.test_app_state import CASES

    ints = set()
    for cid, cls, _ns, kind, f, _call in CASES:
        if kind == "number_input" and cls.model_fields[f].annotation is int:
            ints.add(f"traces.{f}" if ".traces." in cid or cid.startswith("traces.") else cid)  # the picker once
    assert ints == NOT_YET_CONVERTED
