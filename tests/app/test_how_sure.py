"""The "How sure?" panel: its chart reads right, and samples/seed live in the page's scenario (URL + JSON)."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app.components.how_sure import UncertaintyFields, tornado_figure
from app.components.scenario import Scenario, scenario_json, to_query
from models.uncertainty import adapters as A
from models.uncertainty import analyze
from tests import ROOT
from tests.app.chart_rules import check_figure


@pytest.mark.parametrize("model", [
    A.hdd_model(),
    A.breakeven_model(device="optane-dcpmm"),
    A.breakeven_model(t_ns=100, T_ns=130, Tm_ns=160),
    A.lifetime_model(capacity_bytes=16e9, endurance_writes_per_cell=1e7, write_rate_bytes_per_s=1e9),
], ids=["hdd", "breakeven-device", "breakeven-typed", "lifetime"])
def test_tornado_chart_obeys_the_chart_rules(model):
    res = analyze(model, n=128, seed=0)
    fig = json.loads(tornado_figure(res).to_json())
    assert check_figure(fig) == []
    rows = [tr for tr in fig["data"] if tr["name"].startswith("input at")]
    # one bar per input that moves the output, largest swing on top, the point as a line
    order = fig["layout"]["yaxis"]["categoryarray"]
    assert order[0].startswith("all inputs together") and order[-1].startswith(res.tornado["label"].iloc[0])
    assert len(rows) == 2 and any(s["type"] == "line" for s in fig["layout"]["shapes"])
    assert "[" in fig["layout"]["xaxis"]["title"]["text"]


def test_uncertainty_fields_go_into_the_url_and_the_json():
    class Demo(Scenario, UncertaintyFields):
        PREFIX = "demo"
        x: int = 1

    scn = Demo(uq_samples=2048, uq_seed=9, uq_sobol=True)
    q = to_query(scn)
    assert (q.get("uq_samples"), q.get("uq_seed")) == ("2048", "9")
    assert json.loads(scenario_json(scn, "demo"))["scenario"]["uq_samples"] == 2048
    with pytest.raises(ValueError):
        Demo(uq_samples=1)


def test_lifetime_page_shows_the_panel_and_reads_samples_and_seed_from_the_link():
    at = AppTest.from_file(str(ROOT / "app" / "views" / "lifetime.py"), default_timeout=120)
    at.query_params["uq_samples"] = "256"
    at.query_params["uq_seed"] = "4"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert any(h.value == "How sure?" for h in at.subheader)
    assert at.number_input(key="lt.uq_samples").value == 256 and at.number_input(key="lt.uq_seed").value == 4
    sentence = [m.value for m in at.markdown if "outlives" in m.value]
    assert sentence and "of 256 samples" in sentence[0] and "decides most of the spread" in sentence[0]
    labels = {m.label for m in at.metric}
    assert {"Point estimate [years]", "p5 [years]", "p95 [years]", "Verdict holds in"} <= labels
    at.checkbox(key="lt.uq_sobol").check().run()
    assert not at.exception
    assert "ST" in at.dataframe[-1].value.columns
