"""Provenance in the app: input help texts, "depends on derived/simulated/assumed values" notes, export headers."""

import io

import pandas as pd
from streamlit.testing.v1 import AppTest

from app.components.export import csv_bytes
from app.components.provenance import export_header, param_help, params_help, resolve, unverified
from models.provenance import ASSUMED, DERIVED, PUBLISHED, USER_DEFINED, param
from tests import ROOT

VIEWS = ROOT / "app" / "views"
NOTE = "depends on derived/simulated/assumed values"


def _notes(at) -> list[str]:
    return [c.value for c in at.caption if NOTE in c.value]


# ----------------------------------------------------------------------------- the helpers
def test_param_help_shows_the_kind_and_source_from_the_registry():
    h = param_help("memext.eviction_buffer_pages", "Buffer.")
    assert h.startswith("Buffer.") and f"[{ASSUMED}: " in h and "Default 256 pages" in h
    assert param("memext.eviction_buffer_pages").provenance.source in h
    assert f"[{DERIVED}: " in param_help("memext.fault_overhead_paper_ns")
    assert f"[{PUBLISHED}: " in params_help(["memext.submit_ns"], "x")


def test_a_value_changed_on_the_page_is_user_defined_not_the_registry_kind():
    assert resolve("memext.fault_overhead_paper_ns")["kind"] == DERIVED
    changed = resolve("memext.fault_overhead_paper_ns", {"memext.fault_overhead_paper_ns": 2000.0})
    assert changed["kind"] == USER_DEFINED and "default 5062" in changed["source"]
    same = resolve("memext.fault_overhead_paper_ns", {"memext.fault_overhead_paper_ns": 5062.0})
    assert same["kind"] == DERIVED
    assert [r["key"] for r in unverified(["memext.submit_ns", "device:hdd-7200.avg_seek_ns"])] == [
        "device:hdd-7200.avg_seek_ns"]


def test_csv_export_header_names_provenance_stays_parseable_and_formula_safe():
    df = pd.DataFrame({"x": [1.5, 2.0], "label": ["=cmd()", "ok"]})
    keys = ["memext.fault_overhead_paper_ns", "device:hdd-7200.avg_seek_ns", "file_cache.pagecache_read_4k_ns"]
    text = csv_bytes(df, provenance=keys).decode()
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert len(head) == 1 + len(keys) and text.startswith("# PCM Planner export")
    assert DERIVED in head[1] and "seed 002" in head[1] and "measured here" in head[3]
    # one spreadsheet cell per comment line: no separators, no quotes, starts with '#'
    assert all(line.startswith("# ") and "," not in line and '"' not in line for line in head)
    back = pd.read_csv(io.StringIO(text), comment="#")
    assert list(back.columns) == ["x", "label"] and back.x.tolist() == [1.5, 2.0]
    assert back.label.tolist() == ["'=cmd()", "ok"]  # the table itself stays formula-safe
    assert csv_bytes(df) == csv_bytes(df, provenance=[])  # no keys: no header
    assert not csv_bytes(df).startswith(b"#")


def test_export_header_marks_page_overrides():
    lines = export_header(["memext.eviction_buffer_pages"], {"memext.eviction_buffer_pages": 64})
    assert "= 64 pages: user-defined: set on the page (default 256: assumed)" in lines[1]


# ----------------------------------------------------------------------------- on the pages
def test_assumption_note_appears_only_when_a_result_uses_a_derived_or_assumed_value():
    from tests.app.chart_rules import lazy_tabs

    at = AppTest.from_file(str(VIEWS / "break_even.py"), default_timeout=60).run()
    assert not at.exception
    # Optane: published latencies, measured page cache, published I/O factor -> no note on the timings
    assert _notes(at) == []
    # Figure 2 (its lazy tab): its reference marks include the Samsung PCM's simulated (NVMain) and the generic HDD's
    # derived latency -> its own note; the SATA SSD's latency is published since issue 39 (Intel DC S4500)
    at.session_state["be.view_tab"] = lazy_tabs(at)["be.view_tab"][1]
    at.run()
    base = _notes(at)
    assert len(base) == 1 and "pcm-samsung-20nm read latency** = 120 ns" in base[0] and "simulated" in base[0]
    assert "sata-ssd" not in base[0] and "optane" not in base[0]
    at.selectbox(key="be.device").set_value("hdd-7200").run()
    notes = _notes(at)
    assert len(notes) == 2 and "hdd-7200 read latency** = 8.2 ms" in notes[0].replace("\\", "") and DERIVED in notes[0]
    assert "sata-ssd" not in notes[0]
    at.radio(key="be.mode").set_value("manual").run()  # every timing typed by the user
    assert _notes(at) == base


def test_input_help_on_a_page_carries_the_kind():
    at = AppTest.from_file(str(VIEWS / "break_even.py"), default_timeout=60).run()
    assert f"[{PUBLISHED}: seed 004" in at.number_input(key="be.io_stack_factor").help


def test_memory_extension_page_flags_its_measured_time_base_and_fault_cost():
    from models.provenance import MEASURED

    at = AppTest.from_file(str(VIEWS / "memory_extension.py"), default_timeout=180)
    at.session_state["mx.references"] = 20_000
    at.session_state["mx.footprint_pages"] = 256
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert f"[{MEASURED}: " in at.number_input(key="mx.base_ns_per_ref").help
    assert f"[{MEASURED}: " in at.number_input(key="mx.fault_overhead_ns").help
    assert f"[{DERIVED}: " in at.checkbox(key="mx.paper_fault_cost").help
    assert f"[{ASSUMED}: " in at.text_input(key="mx.eviction_buffer_pages").help
    notes = _notes(at)  # only the assumed eviction buffer is flagged: time base and fault cost are measured
    assert notes and "eviction buffer in DRAM" in notes[0]
    assert "DRAM-only run time per data memory reference" not in notes[0]


def test_device_catalogue_page_shows_the_kind_of_every_value():
    at = AppTest.from_file(str(VIEWS / "devices.py"), default_timeout=60).run()
    assert not at.exception
    frames = [d.value for d in at.dataframe]
    cat = frames[0]
    assert "provenance" not in cat.columns  # its "column=kind;..." text is the CSV's; the page shows the table below
    from app.components.devices import device_table

    assert "avg_seek_ns=derived" in device_table().set_index("name").loc["hdd-7200", "provenance"]
    prov = frames[1].data if hasattr(frames[1], "data") else frames[1]
    row = prov.set_index("device").loc["hdd-7200"]
    assert row["avg_seek_ns"] == DERIVED and row["rpm"] == PUBLISHED and row["endurance_writes_per_cell"] == ""


def test_a_custom_device_keeps_the_kinds_of_unchanged_values():
    from app.components.devices import inherit_provenance
    from models.devices import get_device

    base = get_device("hdd-7200")
    kinds = inherit_provenance(base, {"rpm": 7200.0, "avg_seek_ns": 3e6, "endurance_writes_per_cell": None})
    assert kinds == {"rpm": PUBLISHED, "avg_seek_ns": USER_DEFINED}
