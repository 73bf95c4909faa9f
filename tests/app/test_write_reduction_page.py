"""Write-reduction page (AppTest): real page pairs by default, synthetic on request."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from models.endurance import write_reduction as wr
from tests import ROOT


def test_write_reduction_page():
    at = AppTest.from_file(str(ROOT / "app/views/write_reduction.py"), default_timeout=180).run()
    assert not at.exception and not at.error
    m = {x.label: x.value for x in at.metric}
    # the page reports what check_ordering says of the same table (whether the ordering holds on our pages
    # is the ledger's claim 002-fig8-ordering), and warns exactly when it does not hold
    # default: the paper's own applications, snapshotted here
    assert at.radio(key="wr.source").value == "apps"
    pages = wr.load_page_pairs("pages/app_page_pairs.npz")
    t = wr.write_reduction_table(pages, by_workload=True)
    bad = wr.check_ordering(t[t.workload == "all"])
    assert m["Paper's ordering (Fig. 8)"] == ("violated" if bad else "holds")
    assert any("Ordering violated" in w.value for w in at.warning) == bool(bad)
    assert m["Evicted pages"] == f"{len(pages):,}" and m["Dirty pages"] == f"{pages.dirty.mean():.1%}"
    at.radio(key="wr.source").set_value("synthetic").run()
    assert not at.exception and not at.error
    assert {x.label: x.value for x in at.metric}["Evicted pages"] == "1,000"
