"""The Target-workload finder page (AppTest)."""

from streamlit.testing.v1 import AppTest

from tests import ROOT

PAGE = str(ROOT / "app/views/planner.py")


def test_planner_page():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["traces"] = "synthetic:mail"
    at.query_params["n_requests"] = "2000"
    at.run()
    assert not at.exception and not at.error
    assert len(at.get("plotly_chart")) >= 2


def test_planner_page_widget_change_changes_ranking():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["traces"] = "synthetic:mail"
    at.query_params["n_requests"] = "2000"
    at.query_params["memory"] = "false"
    at.run()
    assert not at.exception
    before = set(at.dataframe[0].value["role"])
    assert "memory-extension" not in before
    at.checkbox(key="plan.memory").check().run()
    assert not at.exception
    assert "memory-extension" in set(at.dataframe[0].value["role"])
