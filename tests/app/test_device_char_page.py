"""The Device characterization page (AppTest): charts, fio fit, custom device, bad input."""

from streamlit.testing.v1 import AppTest

from tests import ROOT

PAGE = str(ROOT / "app/views/device_char.py")


def test_device_char_page():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    from tests.app.chart_rules import every_tab_figures

    assert len(every_tab_figures(at)) >= 4  # Figs. 1-3 (lazy tabs) and model vs measurement
    at.button(key="dch.add").click().run()
    assert not at.exception
    assert "my-fio-device" in at.session_state["custom_devices"]


def test_page_bad_name_keeps_the_field_and_other_inputs():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.text_input(key="dch.max_depth").input("16").run()
    at.text_input(key="dch.custom_name").set_value("").run()  # min_length 1: the scenario is invalid
    assert not at.exception and any("Name for the fitted device" in e.value for e in at.error)  # the label, not the field
    assert at.text_input(key="dch.custom_name").value == ""  # still on screen, so it can be corrected
    assert at.text_input(key="dch.max_depth").value == "16"
    at.text_input(key="dch.custom_name").set_value("mine").run()
    assert not at.exception and not at.error
