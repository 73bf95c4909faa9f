"""Wear-leveling page (AppTest): renders and reacts to the scheme choice."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests import ROOT


def test_wear_page_renders_and_reacts():
    at = AppTest.from_file(str(ROOT / "app/views/wear.py"), default_timeout=120).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value == "Wear leveling"
    before = {m.label: m.value for m in at.metric}
    at.multiselect(key="wear.schemes").set_value(["sg", "sfc"]).run()
    assert not at.exception, [e.message for e in at.exception]
    after = {m.label: m.value for m in at.metric}
    assert before != after
