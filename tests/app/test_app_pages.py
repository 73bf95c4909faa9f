"""Every registered page renders without exception (streamlit AppTest), and the navigation shell.

Every figure a page draws with every lazy tab opened in turn obeys the chart rules (tests/app/chart_rules.py:
axis titles with units, labelled log decades, reference lines inside the data, finite ranges), its captions
show no raw JSON and its grid tables no "None" for an empty number: tests/app/test_chart_rules_modes.py checks
that walk (``every_mode_figures`` starts with ``every_tab_figures`` over the defaults, then tries each mode
switch), so it is not repeated here. Page-specific behaviour is in tests/app/test_<page>_page.py.
"""

import pytest
from streamlit.testing.v1 import AppTest

from app.registry import PAGES, SECTIONS
from tests import ROOT

VIEWS = ROOT / "app" / "views"


@pytest.mark.parametrize("file", [p[1] for p in PAGES], ids=[p[4] for p in PAGES])
def test_page_renders_without_exception(file):
    at = AppTest.from_file(str(VIEWS / file), default_timeout=180).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title, "every page has a title"
    assert not at.json, "no raw JSON on a page (a table reads it: write reduction's snapshot metadata)"


def test_navigation_entry_point_runs():
    at = AppTest.from_file(str(VIEWS.parent / "main.py"), default_timeout=120).run()
    assert not at.exception


def test_registry_files_exist_and_urls_unique():
    urls = [p[4] for p in PAGES]
    assert len(urls) == len(set(urls))
    for section, file, *_ in PAGES:
        assert (VIEWS / file).is_file(), file
        assert section in SECTIONS, section


def test_custom_device_is_offered_on_other_pages():
    at = AppTest.from_file(str(VIEWS / "devices.py"), default_timeout=60).run()
    assert not at.exception
    at.text_input[0].set_value("my-scm")
    at.button[0].click().run()
    assert "my-scm" in at.session_state["custom_devices"]
