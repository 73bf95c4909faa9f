"""The p5-p95 band on the pages' main charts (app/components/bands.py): the same samples as the How sure?
panel, the point curve where the model's point is, charts that obey the chart rules, no recomputation on an
unchanged rerun, and the local adapters equal to the models they re-time."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from streamlit.testing.v1 import AppTest

from app.components import bands as B
from app.components import charts
from app.components.how_sure import TABS, with_progress
from models import traces
from models.storage import file_cache_sim as fcs
from models.storage import write_cache as wc
from models.uncertainty import analyze
from tests import ROOT
from tests import uncertainty_adapters as A
from tests.app.chart_rules import check_figure, lazy_tabs, page_figures, values

LIFETIME = dict(capacity_bytes=16e9, endurance_writes_per_cell=1e7, write_rate_bytes_per_s=1e9)


def _json(fig: go.Figure) -> dict:
    return json.loads(charts._finish(fig).to_json())  # what show() sends


@pytest.fixture(scope="module")
def block_trace():
    return traces.load("synthetic:fin1", kind="block", n_requests=3000)


@pytest.mark.parametrize("model", [A.hdd_model(), A.breakeven_model(device="optane-dcpmm"),
                                   A.lifetime_model(**LIFETIME)], ids=["hdd", "breakeven", "lifetime"])
def test_band_samples_are_the_panels(model):
    """Same seed and count: the band's samples are the How sure? analysis' samples (its p5/p95)."""
    y = B.sample_outputs(model, n=300, seed=7)
    res = analyze(model, n=300, seed=7)
    np.testing.assert_array_equal(y, res.samples)


@settings(max_examples=15, deadline=None)
@given(seed=hs.integers(0, 2**31 - 1), n=hs.integers(16, 400))
def test_curve_band_vectorised_equals_one_model_per_x(seed, n):
    """Holding the x input on the (n, len(xs)) grid gives exactly what building the model at each x gives
    (common random numbers), the point curve is the model's point at each x, and p5 <= p50 <= p95."""
    xs = [1e7, 3e8, 1e9, 4e10]
    grid = B.curve_samples(A.lifetime_model(**LIFETIME), xs, n=n, seed=seed, x_input="write_rate")

    def build(x):
        from models.uncertainty import fixed_input

        m = A.lifetime_model(**LIFETIME)
        ins = tuple(fixed_input("write_rate", "w", "bytes/s", x) if i.name == "write_rate" else i for i in m.inputs)
        return A.UncertainModel(**{**m.__dict__, "inputs": ins})

    per_x = B.curve_samples(build, xs, n=n, seed=seed)
    np.testing.assert_allclose(grid[["point", "p5", "p50", "p95"]], per_x[["point", "p5", "p50", "p95"]], rtol=1e-12)
    for x, p in zip(xs, grid.point, strict=True):
        assert p == pytest.approx(A.lifetime_model(**{**LIFETIME, "write_rate_bytes_per_s": x}).point(), rel=1e-12)
    assert (grid.p5 <= grid.p50).all() and (grid.p50 <= grid.p95).all()


def test_curve_band_of_a_non_input_is_refused():
    with pytest.raises(ValueError, match="not an input"):
        B.curve_samples(A.hdd_model(), [1, 2], n=16, seed=0, x_input="nope")


def test_band_drawings_obey_the_chart_rules_and_name_the_samples():
    x = np.geomspace(1, 1e4, 30)
    fig = go.Figure(go.Scatter(x=x, y=100 / x, name="point"))
    B.add_band(fig, x, 50 / x, 200 / x, n=1000)
    charts.style(fig, x="write rate [MB/s]", y="lifetime [years]", logx=True, logy=True)
    f = _json(fig)
    assert check_figure(f) == []
    names = [t.get("name") for t in f["data"]]
    assert names[1] == "p5–p95 (1,000 samples)" and names[2] == "point"  # under the point curve
    assert f["data"][1]["fill"] == "tonexty"

    bars = go.Figure(go.Bar(x=["none", "lru", "halo"], y=[3.0, 2.0, 1.0], name="time"))
    B.add_error_bars(bars, ["none", "lru", "halo"], [2.5, 1.5, 0.9], [2.9, 1.9, 1.2], [3.5, 2.2, 1.1], n=64)
    charts.style(bars, x="policy", y="execution time [s]")
    f = _json(bars)
    assert check_figure(f) == []
    err = f["data"][1]["error_y"]
    assert values(err["array"]) == pytest.approx([0.6, 0.3, 0.0])
    assert values(err["arrayminus"]) == pytest.approx([0.4, 0.4, 0.3])

    labelled = go.Figure(go.Bar(x=["hdd", "pcm"], y=[30.0, 9000.0], texttemplate="%{y:.3s}"))
    B.add_error_bars(labelled, ["hdd", "pcm"], [20, 8000], [31, 9100], [40, 9900], n=64)
    bar = labelled.data[0]  # the whisker hangs off the median at the bar's top and reached the label at its base
    assert bar.texttemplate is None and bar.text is None


@pytest.mark.parametrize("lo, hi, inside, note", [(2.0, 3.0, True, ""), (8.0, 30.0, True, "clipped to the chart"),
                                                  (20.0, 30.0, False, "beyond the chart")])
def test_x_band_is_clipped_to_the_chart(lo, hi, inside, note):
    n = np.arange(1, 11)
    fig = go.Figure(go.Scatter(x=n, y=5.0 * n, name="Tc"))
    B.add_x_band(fig, lo, hi, n=100, what="of n*", y0=5.0, y1=50.0, clip=(1.0, 10.0))
    charts.style(fig, x="accesses n [-]", y="total time [ns]")
    f = _json(fig)
    assert check_figure(f) == []
    band = [t for t in f["data"] if t["name"].startswith("p5–p95 of n* (100 samples)")]
    assert len(band) == 1 and note in band[0]["name"]
    xs = [v for v in band[0]["x"] if v is not None]
    assert (min(xs) >= 1.0 and max(xs) <= 10.0) if inside else not xs


def test_write_cache_bars_band_point_is_the_models_execution_time(block_trace):
    req = wc.prepare_requests(block_trace)
    builds = B.writecache_time_models(req, cache_mb=4.0, drive="hdd-7200")
    for pol in ("none", "lru", "halo"):
        want = wc.run_write_cache(req, pol, 0.0 if pol == "none" else 4.0).exec_time_s
        m = builds[pol]()
        assert m.point() == pytest.approx(want, rel=1e-9)
        # the same inputs (names and ranges) as the panel's write-cache adapter: the same samples
        panel = A.writecache_model(req, cache_mb=4.0, halo_inputs=False)
        assert [(i.name, i.dist) for i in m.inputs] == [(i.name, i.dist) for i in panel.inputs]
    # a slower seek makes every policy slower
    m = builds["lru"]()
    seek = "device:hdd-7200.avg_seek_ns"
    assert float(m.evaluate({**m.points(), seek: 2 * m.points()[seek]})) > m.point()


def test_file_cache_band_point_is_the_simulated_time_and_its_n_star_the_adapters(block_trace):
    acc = traces.split_blocks(block_trace)
    pf = {"storage_path": "paper-factor"}  # the factor below enters only the paper's storage path
    curves = fcs.file_cache_curves(acc.block, ["optane-dcpmm"], cache_fractions=[0.1, 0.5, 1.0], **pf)
    build = B.file_cache_time_models(curves, "optane-dcpmm", block_size_bytes=4096, insertion="steady", **pf)
    for r in curves.itertuples():
        m = build((r.policy, r.cache_fraction))
        assert m.point() == pytest.approx(r.time_ns / 1e9, rel=1e-12)
    # other input values: the run re-timed with the timings the model derives for them
    from models.devices import get_device
    from models.storage import file_cache as fc

    be = A.breakeven_model(device="optane-dcpmm", insertion="steady", **pf)
    v = {**be.points(), "file_cache.io_stack_factor": 1.37, "device:optane-dcpmm.read_latency_ns": 500.0}
    tm = fc.timings_from_device(get_device("optane-dcpmm").with_updates(read_latency_ns=500.0), 4096,
                                io_stack_factor=1.37, insertion="steady", **pf)
    r = curves[(curves.policy == "lru") & (curves.cache_fraction == 0.5)].iloc[0]
    want = (r.hits * tm.t_ns + r.inserts * tm.Tm_ns + (r.misses - r.inserts) * tm.T_ns) / 1e9
    assert float(build(("lru", 0.5)).evaluate(v)) == pytest.approx(want, rel=1e-12)
    assert float(be.evaluate(v)) == pytest.approx(fc.break_even(tm).n_star, rel=1e-12)  # the panel's n*, same v


def test_with_progress_keeps_the_values_and_reports_forward():
    m = A.hdd_model()
    shown: list[float] = []
    wrapped, stage = with_progress(m, shown.append, fast_s=-1.0)  # never "fast": every chunk reports
    res = analyze(wrapped, n=512, seed=3, sobol=True, progress=stage)
    ref = analyze(A.hdd_model(), n=512, seed=3, sobol=True)
    np.testing.assert_array_equal(res.samples, ref.samples)
    assert res.sobol.equals(ref.sobol) and res.tornado.equals(ref.tornado)
    assert shown == sorted(shown) and shown[-1] == 1.0
    assert len([s for s in shown if 0 < s < 0.5]) >= 10  # the band's evaluation reported in chunks


def _band_page():
    """A page drawing a curve band whose model depends on ``scale`` from outside the scenario (``content``)."""
    import plotly.graph_objects as go
    import streamlit as st

    from app.components.bands import add_band, curve_band
    from app.components.charts import show, style
    from app.components.how_sure import UncertaintyFields
    from app.components.scenario import Scenario
    from tests import uncertainty_adapters as A

    class Demo(Scenario, UncertaintyFields):
        PREFIX = "bdemo"

    scale = float(st.session_state.get("scale", 1.0))
    model = A.lifetime_model(capacity_bytes=16e9 * scale, endurance_writes_per_cell=1e7, write_rate_bytes_per_s=1e9)
    xs = (1e8, 1e9, 1e10)
    fig = go.Figure(go.Scatter(x=xs, y=[1.0, 2.0, 3.0], name="point"))
    scn = Demo(uq_samples=64)
    b = curve_band(Demo, scn, model, xs, key="demo", content=scale, x_input="write_rate")
    add_band(fig, b.x, b.p5, b.p95, n=scn.uq_samples)
    show(style(fig, x="write rate [bytes/s]", y="lifetime [years]", logx=True, logy=True), key="demo")


def test_curve_band_is_cached_by_content_across_reruns(monkeypatch):
    calls = []
    real = B.curve_samples
    monkeypatch.setattr(B, "curve_samples", lambda *a, **k: calls.append(k["seed"]) or real(*a, **k))
    B._cached_curve.clear()

    def session(scale: float):
        at = AppTest.from_function(_band_page, default_timeout=60)
        at.session_state["scale"] = scale
        at.run()
        assert not at.exception, [e.message for e in at.exception]
        return at

    a = session(1.0)
    figs = page_figures(a)
    assert [t["name"] for t in figs[0][1]["data"]][:2] == ["p95", "p5–p95 (64 samples)"]
    a.run()  # unchanged inputs: the band is not recomputed
    assert calls == [0]
    session(1.0)
    assert calls == [0]
    session(2.0)  # other content: its own band
    assert calls == [0, 0]


@pytest.mark.parametrize("page, chart, band", [
    ("break_even", "Total access time vs accesses", "p5–p95 of n* (64 samples)"),
    ("memory_extension", "Slowdown vs DRAM-only", "p5–p95 of"),
])
def test_pages_draw_the_band_on_their_main_chart(page, chart, band):
    at = AppTest.from_file(str(ROOT / "app" / "views" / f"{page}.py"), default_timeout=180)
    at.query_params["uq_samples"] = "64"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert not [e.value for e in at.error]
    figs = dict(page_figures(at))
    main = [f for name, f in figs.items() if chart in name]
    assert main, list(figs)
    names = [t.get("name") or "" for t in main[0]["data"]]
    assert any(n.startswith(band) for n in names), names
    assert check_figure(main[0]) == []


@pytest.mark.parametrize("page, prefix, verdict", [
    ("trace_explorer", "tx", "cannot help most blocks"),
    ("device_char", "dch", "the PSD serves random 4 KiB reads faster than the SSD"),
    ("write_reduction", "wr", "outlives 5 years"),
    ("workload", "wl", "beats"),
])
def test_pages_without_a_panel_before_have_one(page, prefix, verdict):
    """Trace explorer, device characterization, Filebench workloads and write reduction: the sentence with the
    verdict's probability and the decisive input, the metrics and the tornado (sorted by swing, point line)."""
    at = AppTest.from_file(str(ROOT / "app" / "views" / f"{page}.py"), default_timeout=300)
    at.query_params["uq_samples"] = "16"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert any(h.value == "How sure?" for h in at.subheader)
    assert at.text_input(key=f"{prefix}.uq_samples").value == "16"
    sentence = [m.value for m in at.markdown if "of 16 samples" in m.value]
    assert sentence and verdict.lower() in sentence[0].lower()
    assert "decides most of the spread" in sentence[0] or "the most)" in sentence[0]  # or: a negligible spread
    labels = {m.label for m in at.metric}
    assert "Verdict holds in" in labels and any(lab.startswith("p95") for lab in labels)
    panel_tabs = [k for k in lazy_tabs(at) if k.startswith("howsure.tab.")]
    assert len(panel_tabs) == 1
    at.session_state[panel_tabs[0]] = TABS[1]  # the tornado is drawn in its lazy tab
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    tornado = [f for name, f in page_figures(at) if any((t.get("name") or "").startswith("input at") for t in f["data"])]
    assert len(tornado) == 1 and check_figure(tornado[0]) == []
