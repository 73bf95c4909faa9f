"""The planner's "Add a custom device" form (app.components.devices.custom_device_form with on_saved): a
saved device joins the comparison in the run of the click (a button callback, no second script run)."""

from streamlit.testing.v1 import AppTest

from tests import ROOT

PAGE = str(ROOT / "app/views/planner.py")


def test_device_saved_in_the_planner_form_joins_the_comparison(monkeypatch):
    import streamlit as st

    reruns: list = []
    monkeypatch.setattr(st, "rerun", lambda *a, **k: reruns.append(a))
    at = AppTest.from_file(PAGE, default_timeout=240).run()
    assert not at.exception, [e.message for e in at.exception]
    name = next(t for t in at.text_input if t.label == "Name (identifier)")
    assert name.key.startswith("plan.cdev.f.name.")
    name.set_value("my-planned")
    next(b for b in at.button if b.label == "Save device").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert reruns == []
    assert "my-planned" in at.session_state["custom_devices"]
    assert "my-planned" in at.multiselect(key=next(m.key for m in at.multiselect
                                                   if m.label == "Devices to compare")).value
    assert any("Saved my-planned" in s.value for s in at.success)


def test_a_custom_device_takes_a_price(monkeypatch):
    """Issue 37: the form's "Price [$/GB]" saves one price (both ends of the range, user-defined); a catalogue
    device's own price is pre-filled as the middle of its range."""
    import streamlit as st

    monkeypatch.setattr(st, "rerun", lambda *a, **k: None)
    at = AppTest.from_file(PAGE, default_timeout=240).run()
    assert not at.exception, [e.message for e in at.exception]
    next(t for t in at.text_input if t.label == "Name (identifier)").set_value("my-priced")
    price = next(t for t in at.text_input if t.label.startswith("Price [$/GB]"))
    price.set_value("2.5")
    next(b for b in at.button if b.label == "Save device").click().run()
    assert not at.exception, [e.message for e in at.exception]
    d = at.session_state["custom_devices"]["my-priced"]
    assert d["price_usd_per_GB_low"] == d["price_usd_per_GB_high"] == 2.5
    assert d["provenance"]["price_usd_per_GB_low"] == "user-defined"
