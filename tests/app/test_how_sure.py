"""The "How sure?" panel: its chart reads right, and samples/seed live in the page's scenario (URL + JSON)."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app.components.how_sure import TABS, UncertaintyFields, tornado_figure
from app.components.scenario import Scenario, scenario_json, to_query
from models.uncertainty import analyze
from tests import ROOT
from tests import uncertainty_adapters as A
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
    assert at.text_input(key="lt.uq_samples").value == "256" and at.text_input(key="lt.uq_seed").value == "4"
    sentence = [m.value for m in at.markdown if "outlives" in m.value]
    assert sentence and "of 256 samples" in sentence[0] and "decides most of the spread" in sentence[0]
    labels = {m.label for m in at.metric}
    assert {"p5 [years]", "p95 [years]", "Verdict holds in"} <= labels
    point = [lab for lab in labels if lab.endswith(", point estimate [years]")]
    assert point and not point[0].startswith(","), "the point estimate names its quantity"
    at.checkbox(key="lt.uq_sobol").check().run()
    assert not at.exception
    at.session_state["howsure.tab.lt"] = TABS[1]  # the tornado's lazy tab: chart and table with S1/ST
    at.run()
    assert "Sobol' ST [-]" in at.dataframe[-1].value.columns


def _demo_page():
    """A page drawing the panel for ``y = scale * a`` whose ``scale`` the model reads from outside its inputs
    (as a trace page's model reads its trace): the page passes it as ``content``."""
    import numpy as np
    import streamlit as st

    from app.components.how_sure import UncertaintyFields, how_sure
    from app.components.scenario import Scenario
    from models.uncertainty import UncertainInput, UncertainModel
    from models.uncertainty.distributions import Uniform

    class Demo(Scenario, UncertaintyFields):
        PREFIX = "hsdemo"

    scale = float(st.session_state.get("scale", 1.0))
    st.session_state.setdefault("builds", 0)

    def build():
        st.session_state["builds"] += 1
        return UncertainModel("demo", "y", "-", (UncertainInput("a", "a", "-", Uniform(1.0, low=0.0, high=2.0)),),
                              lambda v: scale * np.asarray(v["a"]))

    how_sure(Demo, Demo(uq_samples=64, uq_seed=int(st.session_state.get("seed", 0))), build, key="demo",
             content=scale)


def _metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def test_the_analysis_is_cached_by_content_across_reruns_and_sessions(monkeypatch):
    import app.components.how_sure as H

    calls = []
    real = H.analyze
    monkeypatch.setattr(H, "analyze", lambda *a, **k: calls.append(k["seed"]) or real(*a, **k))
    H._analysis.clear()

    def session(scale: float, seed: int = 0):
        at = AppTest.from_function(_demo_page, default_timeout=60)
        at.session_state["scale"], at.session_state["seed"] = scale, seed
        at.run()
        assert not at.exception, [e.message for e in at.exception]
        return at

    a = session(1.0)
    first = _metrics(a)
    a.run()  # a rerun with unchanged inputs: neither built nor analysed again, same panel
    assert calls == [0] and a.session_state["builds"] == 1 and _metrics(a) == first
    b = session(1.0)  # another session, same content: shares the analysis
    assert calls == [0] and b.session_state["builds"] == 0 and _metrics(b) == first
    c = session(3.0)  # same scenario, other content: its own analysis, three times the values
    assert calls == [0, 0] and c.session_state["builds"] == 1
    assert _metrics(c)["p95 [-]"] != first["p95 [-]"]
    point = next(k for k in first if k.endswith("point estimate [-]"))
    assert float(_metrics(c)[point]) == 3 * float(first[point])
    d = session(1.0, seed=5)  # another seed: analysed again
    assert calls == [0, 0, 5]
    assert d.session_state["builds"] == 1


def test_model_fingerprint_reads_inputs_verdict_and_point():
    from app.components.how_sure import model_fingerprint

    fps = {model_fingerprint(m) for m in (
        A.lifetime_model(capacity_bytes=16e9, endurance_writes_per_cell=1e7, write_rate_bytes_per_s=1e9),
        A.lifetime_model(capacity_bytes=32e9, endurance_writes_per_cell=1e7, write_rate_bytes_per_s=1e9),
        A.lifetime_model(capacity_bytes=16e9, endurance_writes_per_cell=1e7, write_rate_bytes_per_s=2e9),
        A.breakeven_model(t_ns=100, T_ns=130, Tm_ns=160),
        A.breakeven_model(t_ns=100, T_ns=130, Tm_ns=161),
    )}
    assert len(fps) == 5
    m = A.breakeven_model(t_ns=100, T_ns=130, Tm_ns=160)
    assert model_fingerprint(m) == model_fingerprint(A.breakeven_model(t_ns=100, T_ns=130, Tm_ns=160))
