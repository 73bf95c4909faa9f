"""Device characterization: "Show fitted profile in the charts above" draws the fitted profile in the
charts above in the run of the click (a button callback, no second script run)."""

import json

from streamlit.testing.v1 import AppTest

from tests import ROOT

PAGE = str(ROOT / "app/views/device_char.py")


def _profiles_drawn(at: AppTest) -> set[str]:
    names = set()
    for el in at.get("plotly_chart"):
        names |= {str(t.get("legendgroup") or t.get("name")) for t in json.loads(el.proto.spec).get("data", [])}
    return names


def test_show_fitted_profile_draws_it_in_the_run_of_the_click(monkeypatch):
    import streamlit as st

    reruns: list = []
    monkeypatch.setattr(st, "rerun", lambda *a, **k: reruns.append(a))
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    name = at.text_input(key="dch.custom_name").value
    assert "dch.fitted" not in at.session_state
    assert not any(name in n for n in _profiles_drawn(at))
    at.button(key="dch.show").click().run()
    assert not at.exception and reruns == []
    assert at.session_state["dch.fitted"]["name"] == name
    assert any(name in n for n in _profiles_drawn(at))
