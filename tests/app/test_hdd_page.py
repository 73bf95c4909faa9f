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
    assert table.set_index("drive").loc["ibm18es", "demerit_ms"] == pytest.approx(
        hdd.validate_drive("ibm18es").demerit_ms, abs=1e-4)  # shown rounded to 4 decimals
    before = {m.label: m.value for m in at.metric}
    at.selectbox(key="hdd.drive").set_value("barracuda").run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric} != before
    at.text_input(key="hdd.sizes_kib").set_value("4, abc").run()
    assert not at.exception and any("sizes_kib" in e.value for e in at.error)
    # the bad field stays on screen with the user's text, the other inputs are kept
    assert at.text_input(key="hdd.sizes_kib").value == "4, abc"
    assert at.selectbox(key="hdd.drive").value == "barracuda"
    at.text_input(key="hdd.sizes_kib").set_value("4, 64").run()
    assert not at.exception and not at.error and at.metric
