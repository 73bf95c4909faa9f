"""Every registered page renders without exception (streamlit AppTest), plus page behaviour."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app.registry import PAGES

VIEWS = Path(__file__).resolve().parents[2] / "app" / "views"


@pytest.mark.parametrize("file", [p[1] for p in PAGES], ids=[p[4] for p in PAGES])
def test_page_renders_without_exception(file):
    at = AppTest.from_file(str(VIEWS / file), default_timeout=180).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title, "every page has a title"


def test_navigation_entry_point_runs():
    at = AppTest.from_file(str(VIEWS.parent / "main.py"), default_timeout=120).run()
    assert not at.exception


def test_registry_files_exist_and_urls_unique():
    urls = [p[4] for p in PAGES]
    assert len(urls) == len(set(urls))
    for _section, file, *_ in PAGES:
        assert (VIEWS / file).is_file(), file


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def test_break_even_widget_changes_result():
    at = AppTest.from_file(str(VIEWS / "break_even.py"), default_timeout=60).run()
    before = _metrics(at)["n*"]
    at.selectbox(key="be.device").set_value("hdd-7200").run()
    after = _metrics(at)["n*"]
    assert before != after and float(after) < 1.01


def test_break_even_manual_and_bad_input_keeps_other_inputs():
    at = AppTest.from_file(str(VIEWS / "break_even.py"), default_timeout=60).run()
    at.radio(key="be.mode").set_value("manual").run()
    assert _metrics(at)["n*"] == "2"
    at.number_input(key="be.Tm_ns").set_value(100.0).run()  # Tm < T: invalid
    assert not at.exception
    assert any("Tm_ns" in e.value for e in at.error)
    assert at.number_input(key="be.t_ns").value == 100.0  # other inputs kept
    assert at.number_input(key="be.T_ns").value == 130.0


def test_break_even_url_params_seed_the_inputs():
    at = AppTest.from_file(str(VIEWS / "break_even.py"), default_timeout=60)
    at.query_params["mode"] = "manual"
    at.query_params["t_ns"] = "10"
    at.query_params["T_ns"] = "20"
    at.query_params["Tm_ns"] = "40"
    at.run()
    assert _metrics(at)["n*"] == "3"
    bad = AppTest.from_file(str(VIEWS / "break_even.py"), default_timeout=60)
    bad.query_params["block_size_bytes"] = "-4"
    bad.run()
    assert not bad.exception and any("block_size_bytes" in w.value for w in bad.warning)


def test_custom_device_is_offered_on_other_pages():
    at = AppTest.from_file(str(VIEWS / "devices.py"), default_timeout=60).run()
    assert not at.exception
    at.text_input[0].set_value("my-scm")
    at.button[0].click().run()
    assert "my-scm" in at.session_state["custom_devices"]
