"""The HDD model page (AppTest): seek fit, validation table, throughput curve, bad size list."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from models.storage import hdd
from tests import ROOT

PAGE = str(ROOT / "app" / "views" / "hdd_model.py")


def test_hdd_page_renders_and_switches_drive():
    at = AppTest.from_file(PAGE, default_timeout=300).run()
    assert not at.exception, [e.message for e in at.exception]
    table = at.dataframe[0].value
    assert table.drive.tolist() == list(hdd.drive_names())
    from app.components.tables import human_label

    assert table.set_index("drive").loc["ibm18es", human_label("demerit_ms")] == pytest.approx(
        hdd.validate_drive("ibm18es").demerit_ms, abs=1e-4)  # shown rounded to 4 decimals
    before = {m.label: m.value for m in at.metric}
    at.selectbox(key="hdd.drive").set_value("barracuda").run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric} != before
    at.text_input(key="hdd.sizes_kib").set_value("4, abc").run()
    assert not at.exception and any("request sizes in KiB" in e.value for e in at.error)
    # the bad field stays on screen with the user's text, the other inputs are kept
    assert at.text_input(key="hdd.sizes_kib").value == "4, abc"
    assert at.selectbox(key="hdd.drive").value == "barracuda"
    at.text_input(key="hdd.sizes_kib").set_value("4, 64").run()
    assert not at.exception and not at.error and at.metric


def test_hdd_page_lists_every_disksim_parameter():
    from models.storage.hdd import PARAMETERS

    at = AppTest.from_file(PAGE, default_timeout=300).run()
    assert not at.exception, [e.message for e in at.exception]
    heads = [h.value for h in at.subheader]
    assert "DiskSim parameters: honoured or ignored" in heads
    tables = [d.value for d in at.dataframe]
    cov = [t for t in tables if len(t) == len(PARAMETERS)]
    assert cov, [len(t) for t in tables]
    assert set(cov[0].iloc[:, 1]) == {p.name for p in PARAMETERS}  # the parameter column
    split = [t for t in tables if "part" in t.columns]
    assert split and split[0].part.iloc[0] == "all"  # the selected drive's demerit split
