"""The Filebench workloads page (AppTest)."""

from streamlit.testing.v1 import AppTest

from tests import ROOT

PAGE = str(ROOT / "app/views/workload.py")


def test_workload_page():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert not at.error
    assert len(at.get("plotly_chart")) >= 2


def test_workload_page_threads_change_changes_throughput():
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.run()
    assert not at.exception
    before = at.dataframe[0].value.copy()
    at.text_input(key="wl.threads").input("1").run()
    assert not at.exception
    after = at.dataframe[0].value
    num = before.select_dtypes("number").columns
    assert not before[num].equals(after[num])
