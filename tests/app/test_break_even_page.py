"""The File-cache break-even page (AppTest): widgets, manual inputs, bad input, URL parameters."""

from streamlit.testing.v1 import AppTest

from tests import ROOT

PAGE = str(ROOT / "app" / "views" / "break_even.py")


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def test_break_even_widget_changes_result():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    before = _metrics(at)["n*"]
    at.selectbox(key="be.device").set_value("hdd-7200").run()
    after = _metrics(at)["n*"]
    assert before != after and float(after) < 1.01


def test_break_even_manual_and_bad_input_keeps_other_inputs():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.radio(key="be.mode").set_value("manual").run()
    assert _metrics(at)["n*"] == "2"
    at.number_input(key="be.Tm_ns").set_value(100.0).run()  # Tm < T: invalid
    assert not at.exception
    assert any("Tm_ns" in e.value for e in at.error)
    assert at.number_input(key="be.t_ns").value == 100.0  # other inputs kept
    assert at.number_input(key="be.T_ns").value == 130.0


def test_break_even_url_params_seed_the_inputs():
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["mode"] = "manual"
    at.query_params["t_ns"] = "10"
    at.query_params["T_ns"] = "20"
    at.query_params["Tm_ns"] = "40"
    at.run()
    assert _metrics(at)["n*"] == "3"
    bad = AppTest.from_file(PAGE, default_timeout=60)
    bad.query_params["block_size_bytes"] = "-4"
    bad.run()
    assert not bad.exception and any("block_size_bytes" in w.value for w in bad.warning)


def test_break_even_storage_path_default_is_same_run_and_selectable():
    """Issue 39: the page's default T is the same run's measured direct read, said in a caption; the paper's
    1.3 t stays selectable, labelled circular, and gives the model's paper-factor timings."""
    from models.storage import file_cache as fc

    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert at.radio(key="be.storage_path").value == "same-run"
    same = fc.timings_from_device("optane-dcpmm", 4096, storage_path="same-run")
    assert _metrics(at)["T [ns]"] == f"{same.T_ns:,.0f}"
    assert any("same run as the insertion cost" in c.value for c in at.caption)
    assert any("circular" in o for o in at.radio(key="be.storage_path").options)
    at.radio(key="be.storage_path").set_value("paper-factor").run()
    paper = fc.timings_from_device("optane-dcpmm", 4096, storage_path="paper-factor")
    assert _metrics(at)["T [ns]"] == f"{paper.T_ns:,.0f}" and paper.T_ns != same.T_ns
    assert any("**circular**" in c.value for c in at.caption)


def test_break_even_same_run_refuses_small_blocks_naming_the_fields():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.select_slider(key="be.block_size_bytes").set_value(2048).run()
    assert not at.exception
    msg = " ".join(e.value for e in at.error)
    assert "Storage access time T same-run" in msg and "2048-byte blocks" in msg and "1.3 t" in msg
    at.radio(key="be.storage_path").set_value("paper-factor").run()
    assert not at.error and _metrics(at)["n*"] != ""
