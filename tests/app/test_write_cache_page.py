"""The PCM write cache page (AppTest): sweep, LRU granularity, manual sizes, HALO constants' bounds."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from models.storage import write_cache as wc
from tests import ROOT

PAGE = str(ROOT / "app" / "views" / "write_cache.py")


def test_write_cache_page_renders_and_reacts():
    from app.components.tables import human_label

    fill, traffic = human_label("hdd_fill_sectors"), human_label("traffic_rate")  # the grid's headers
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["wc.n_requests"] = 20_000
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    m = {x.label: x.value for x in at.metric}
    assert any(k.startswith("Execution time HALO saves vs LRU") for k in m)
    at.radio(key="wc.size_mode").set_value("manual").run()
    at.text_input(key="wc.sizes_mb").set_value("1, 2").run()
    assert not at.exception
    df = at.dataframe[0].value
    assert df.policy.tolist() == ["none", "lru", "lru", "halo", "halo"]  # no cache: one run, any size
    sector = df.set_index("policy")
    assert (sector.loc["lru", fill] == 0).all()  # default: HALO's like for like, no fill
    assert (sector.loc["lru", traffic] <= 1).all()
    at.radio(key="wc.lru_granularity").set_value("block").run()
    assert not at.exception
    block = at.dataframe[0].value.set_index("policy")
    assert (block.loc["lru", fill] > 0).all()  # tpce preset: 31 % partial written blocks
    assert (block.loc["lru", traffic].to_numpy() > sector.loc["lru", traffic].to_numpy()).all()
    at.text_input(key="wc.sizes_mb").set_value("2, 1, 2").run()  # repeated size: one run
    assert not at.exception and len(at.dataframe[0].value) == 5
    at.text_input(key="wc.sizes_mb").set_value("-1").run()
    assert any("cache sizes in MB" in e.value for e in at.error)


def test_halo_constants_take_the_models_bounds():
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["wc.n_requests"] = 5_000
    at.session_state["wc.size_mode"] = "manual"
    at.session_state["wc.sizes_mb"] = "1"
    at.run()
    fields = wc.HaloParams.model_fields
    th = at.number_input(key="wc.th_bcounts")
    assert th.value == fields["th_bcounts"].default
    # no browser bounds (float_input): the model's range is shown under the field and enforced by the page
    le = fields["th_bcounts"].metadata[-1].le
    assert any(f"{le:,.0f}" in c.value or f"{le:g}" in c.value for c in at.caption), [c.value for c in at.caption]
    # the page once capped TH_BCOUNTS at 256 while the model takes up to 1e6: a larger value now runs
    at.number_input(key="wc.th_bcounts").set_value(300.0).run()
    assert not at.exception and not at.error and at.dataframe
    at.number_input(key="wc.threshold").set_value(0.0).run()  # the model needs > 0
    assert any("threshold" in e.value for e in at.error)


def test_an_operation_unknown_trace_says_so_and_shows_no_figures():
    """Issue 38 item 2: an oracleGeneral trace (no read/write field) is never 0 % writes nor MiB of metadata."""
    from models.traces.formats import write_oracle_general

    n = 400
    data = write_oracle_general(list(range(n)), [i % 50 for i in range(n)], [4096] * n)
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["wc.trace_source"] = "upload"
    at.run()
    at.get("file_uploader")[0].set_value([("w.oracleGeneral.bin", data, "application/octet-stream")]).run()
    assert not at.exception, [e.message for e in at.exception]
    text = " ".join([c.value for c in at.caption] + [w.value for w in at.warning])
    assert "operation unknown" in text and "needs data: a trace with reads/writes" in text, text
    assert "% writes" not in text
    assert not [m for m in at.metric if "metadata" in m.label]
    assert not at.dataframe


def test_hdd_rotation_and_drive_cache_reach_the_model():
    """The page's HDD rotational latency and drive write cache settings give run_write_cache's values; the drive's
    own cache on the generic profile (which has none) is refused naming the field; the How sure? band is left out
    for settings its model does not time."""
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["wc.n_requests"] = 5_000
    at.session_state["wc.size_mode"] = "manual"
    at.session_state["wc.sizes_mb"] = "2"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    rot, dc = at.selectbox(key="wc.hdd_rotation"), at.selectbox(key="wc.drive_cache")
    assert rot.value == "positioned" and dc.value == "none"  # the model's defaults
    assert rot.help and dc.help and "seed 003" in dc.help

    def exec_times():
        assert not at.exception, [e.message for e in at.exception]
        return at.dataframe[0].value.set_index("policy")[human_label("exec_time_s")]

    from app.components.tables import human_label
    from models.traces import load

    base = exec_times()
    at.selectbox(key="wc.hdd_rotation").set_value("expected").run()
    half = exec_times()
    req = wc.prepare_requests(load("synthetic:tpce", kind="block", n_requests=5_000))
    assert half["halo"] == wc.run_write_cache(req, "halo", 2.0, hdd_rotation="expected").exec_time_s
    assert half["halo"] != base["halo"]
    at.selectbox(key="wc.drive_cache").set_value("spec").run()  # hdd-7200 describes no buffer
    assert any("Drive write cache" in e.value and "hdd-7200" in e.value for e in at.error), [e.value for e in at.error]
    at.selectbox(key="wc.drive").set_value("ibm18es").run()
    spec = exec_times()
    assert spec["halo"] == wc.run_write_cache(req, "halo", 2.0, drive="ibm18es", hdd_rotation="expected",
                                              drive_cache="spec").exec_time_s
    at.selectbox(key="wc.drive_cache").set_value("size").run()
    at.number_input(key="wc.drive_cache_kib").set_value(64.0).run()
    sized = exec_times()
    assert sized["halo"] == wc.run_write_cache(req, "halo", 2.0, drive="ibm18es", hdd_rotation="expected",
                                               drive_cache=64 * 1024).exec_time_s
    at.number_input(key="wc.drive_cache_kib").set_value(-4.0).run()  # out of the field's range: said, not applied
    assert any("Drive write cache size" in e.value for e in at.error), [e.value for e in at.error]
    at.number_input(key="wc.drive_cache_kib").set_value(64.0).run()
    at.selectbox(key="wc.drive").set_value("hdd-7200").run()  # a catalogue profile, but not the band's timing
    assert not at.exception
    assert any("no drive write cache" in x.value for x in [*at.caption, *at.info, *at.markdown]), \
        "the How sure? section says why it has no band"


def test_a_drive_change_retimes_the_kept_simulations(monkeypatch):
    """Only the drive or the HDD timing changed: the page times the kept HALO / LRU simulations again without
    running them (``simulate_cache`` not called) and shows a fresh run's numbers."""
    import streamlit as st

    from app.components.cache_runs import RUNS
    from app.components.tables import human_label
    from models.traces import load

    st.cache_data.clear()
    RUNS.clear()
    simulated = []
    real = wc.simulate_cache

    def counted(req, policy, *args, **kwargs):
        if policy != "none":  # no cache is the trace's own stream, not a simulation
            simulated.append(policy)
        return real(req, policy, *args, **kwargs)

    monkeypatch.setattr(wc, "simulate_cache", counted)
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["wc.n_requests"] = 5_000
    at.session_state["wc.size_mode"] = "manual"
    at.session_state["wc.sizes_mb"] = "1, 2"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert {"halo", "lru"} <= set(simulated) and len(simulated) >= 4  # the counter sees the page's runs
    simulated.clear()
    at.selectbox(key="wc.drive").set_value("ibm18es").run()
    at.selectbox(key="wc.hdd_rotation").set_value("expected").run()
    assert not at.exception, [e.message for e in at.exception]
    assert simulated == [], f"re-simulated {simulated} on a change of the drive / HDD timing only"

    shown = at.dataframe[0].value
    req = wc.prepare_requests(load("synthetic:tpce", kind="block", n_requests=5_000), passthrough_reads=True)
    fresh = wc.sweep_cache_sizes(req, [1.0, 2.0], drive="ibm18es", hdd_rotation="expected").to_frame()
    assert len(simulated) == 4  # the fresh sweep did run its simulations
    assert shown[human_label("policy")].tolist() == fresh.policy.tolist()
    for col in ("traffic_rate", "mean_lbn_distance", "hdd_throughput_mbps", "exec_time_s", "hits", "hdd_requests"):
        assert shown[human_label(col)].tolist() == fresh[col].tolist(), col
    halo, lru = (fresh[(fresh.policy == p) & (fresh.cache_mb == 2.0)].iloc[0] for p in ("halo", "lru"))
    saved = next(m.value for m in at.metric if m.label.startswith("Execution time HALO saves vs LRU"))
    assert saved == f"{1 - halo.exec_time_s / lru.exec_time_s:.1%}"
