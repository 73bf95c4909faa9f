"""Write-reduction page (AppTest): real page pairs by default, synthetic on request."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests import ROOT


def test_write_reduction_page():
    at = AppTest.from_file(str(ROOT / "app/views/write_reduction.py"), default_timeout=180).run()
    assert not at.exception and not at.error
    m = {x.label: x.value for x in at.metric}
    assert m["Paper's ordering (Fig. 8)"] == "holds" and m["Evicted pages"] == "2,000"
    at.radio(key="wr.source").set_value("synthetic").run()
    assert not at.exception and not at.error
    assert {x.label: x.value for x in at.metric}["Evicted pages"] == "1,000"
