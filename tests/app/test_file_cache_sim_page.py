"""The File-cache simulation page (AppTest)."""

from streamlit.testing.v1 import AppTest

from tests import ROOT

PAGE = str(ROOT / "app" / "views" / "file_cache_sim.py")


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def test_page_runs_and_reacts():
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.session_state["fcs.n_requests"] = 20_000
    at.session_state["fcs.n_sizes"] = 4
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    m = _metrics(at)
    assert any(k.startswith("AC vs LRU") for k in m), m
    scm_gain = next(v for k, v in m.items() if k.startswith("LRU gain on optane"))
    # a different SCM device changes the result (dram as "storage": caching pays even less)
    at.selectbox(key="fcs.scm_device").set_value("hdd-7200").run()
    assert not at.exception, [e.message for e in at.exception]
    m2 = _metrics(at)
    assert next(v for k, v in m2.items() if k.startswith("LRU gain on hdd")) != scm_gain
    assert len(at.dataframe) >= 1


def test_page_url_scenario_and_bad_link():
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.query_params["n_requests"] = "5000"
    at.query_params["ghost_fraction"] = "-1"  # invalid: ignored with a warning, default kept
    at.query_params["scm_device"] = "dram"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert any("ghost_fraction" in w.value for w in at.warning)
    assert at.session_state["fcs.ghost_fraction"] == 1.0
    assert any(k.startswith("LRU gain on dram") for k in _metrics(at))


def test_page_storage_path_default_same_run_and_selectable():
    """Issue 39: the page's T on DRAM-speed storage defaults to the same run's measured direct read (as the
    ledger's Figs. 3-5 claims); the paper's 1.3 t is selectable, labelled circular, and moves the SCM gain;
    a block size without a same-run read is refused naming the field."""
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.session_state["fcs.n_requests"] = 5_000
    at.session_state["fcs.n_sizes"] = 2
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    radio = at.radio(key="fcs.storage_path")
    assert radio.value == "same-run" and any("circular" in o for o in radio.options)
    assert any("same run as the insertion cost" in c.value for c in at.caption)
    same = next(v for k, v in _metrics(at).items() if k.startswith("LRU gain on optane"))
    radio.set_value("paper-factor").run()
    assert not at.exception, [e.message for e in at.exception]
    paper = next(v for k, v in _metrics(at).items() if k.startswith("LRU gain on optane"))
    assert paper != same
    assert any("1.3 t" in c.value for c in at.caption)
    at.radio(key="fcs.storage_path").set_value("same-run").run()
    at.select_slider(key="fcs.block_size_bytes").set_value(1024).run()
    assert not at.exception, [e.message for e in at.exception]
    msg = " ".join(e.value for e in at.error)
    assert "Storage access time T same-run" in msg and "1024-byte blocks" in msg
