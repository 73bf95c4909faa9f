"""Trace explorer page (AppTest): renders, widgets change results, URL carries the trace choice."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parents[2] / "app" / "views" / "trace_explorer.py")


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def test_explorer_renders_bundled_trace_with_mrc():
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    m = _metrics(at)
    assert m["Requests"] == "6,999" and m["Writes"] == "37.4%"  # tpcc-small: 2,618 of 6,999 writes
    assert any("stack-distance" in c.value for c in at.caption)  # the MRC section computed
    assert len(at.get("plotly_chart")) == 4  # sizes, reuse, offset map, MRC (How sure? tornado: a lazy tab)
    # one download button per table/chart
    assert len([b for b in at.get("download_button")]) >= 5
    import json

    mrc = next(json.loads(c.proto.spec) for c in at.get("plotly_chart")
               if "miss ratio" in json.dumps(json.loads(c.proto.spec)["layout"].get("yaxis", {})))
    assert mrc["layout"]["yaxis"]["range"] == [0, 1.02]  # the whole 0-1 scale, not 0.99-1.00


def test_explorer_widgets_change_results():
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    before = _metrics(at)["Footprint"]
    at.select_slider(key="tx.block_size_bytes").set_value(65536).run()
    assert not at.exception
    assert _metrics(at)["Footprint"] != before
    at.selectbox(key="tx.trace_name").set_value("mqsim:wsrch-small").run()
    assert _metrics(at)["Requests"] == "24,783"
    at.radio(key="tx.trace_source").set_value("synthetic").run()
    at.selectbox(key="tx.preset").set_value("tpce").run()
    at.text_input(key="tx.n_requests").input("5e3").run()  # a whole number read as text: 5e3 = 5000 (issue 18)
    assert not at.exception
    m = _metrics(at)
    assert m["Requests"] == "5,000" and float(m["Writes"].rstrip("%")) > 99  # TPC-E: 99.8 % writes
    at.radio(key="tx.mrc_method").set_value("shards").run()
    assert not at.exception and any("SHARDS" in c.value for c in at.caption)


def test_explorer_mrc_policy_and_method():
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    at.selectbox(key="tx.mrc_policy").set_value("fifo").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("one full simulation per size" in c.value for c in at.caption)
    def mrc_spec():
        return next(c.proto.spec for c in at.get("plotly_chart") if "tx-mrc" in c.proto.id)

    exact = mrc_spec()
    at.radio(key="tx.mrc_method").set_value("minisim").run()
    assert not at.exception and any("MiniSim estimate" in c.value for c in at.caption)
    assert mrc_spec() != exact
    assert "FIFO cache size [MiB]" in mrc_spec()
    at.radio(key="tx.mrc_method").set_value("shards").run()  # SHARDS is LRU only: a clear message, no crash
    assert not at.exception and any("exact or minisim" in e.value for e in at.error)


def test_explorer_url_and_bad_params():
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.query_params["trace_source"] = "synthetic"
    at.query_params["preset"] = "mail"
    at.query_params["n_requests"] = "2000"
    at.run()
    assert not at.exception
    assert _metrics(at)["Requests"] == "2,000"
    assert at.selectbox(key="tx.preset").value == "mail"
    bad = AppTest.from_file(PAGE, default_timeout=180)
    bad.query_params["trace_name"] = "mqsim:nope"
    bad.run()
    assert not bad.exception
    assert any("trace_name" in w.value for w in bad.warning)
    assert _metrics(bad)["Requests"] == "6,999"  # falls back to the default trace


def test_explorer_upload_mode_waits_for_a_file():
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    at.radio(key="tx.trace_source").set_value("upload").run()
    assert not at.exception
    assert any("Upload a trace file" in i.value for i in at.info)
    at.selectbox(key="tx.upload_format").set_value("csv").run()
    assert not at.exception
    # no columns given yet: a clear message, and the block size input is untouched
    assert any("address column and the size column" in e.value for e in at.error)
    assert at.select_slider(key="tx.block_size_bytes").value == 4096


def test_upload_is_bounded_by_the_budget_unless_the_user_limits_it(monkeypatch):
    # a small compressed upload can expand to billions of lines: a whole read stops at the run's memory budget,
    # the message naming it and the field that reads only the first requests
    from app.components import traces
    from models.budget import BudgetExceeded
    from models.traces.source import PARSED_REQUEST_BYTES

    monkeypatch.setenv("PCM_MEMORY_BUDGET", str(4 * PARSED_REQUEST_BYTES))
    data = b"".join(f"{i} 0 {8 * i} 8 1\n".encode() for i in range(8))
    with pytest.raises(BudgetExceeded, match="cap-test.trace: .*PCM_MEMORY_BUDGET.*Read at most this many requests"):
        traces._parse_upload(data, "cap-test.trace", "block", "mqsim", "{}")
    # the first requests, parsed a few lines at a time: within the budget
    assert len(traces._parse_upload(data, "cap-test.trace", "block", "mqsim", '{"chunk_bytes": 32, "max_requests": 2}')) == 2
    monkeypatch.delenv("PCM_MEMORY_BUDGET")
    with pytest.raises(ValueError, match="needs a memory-reference"):
        traces._parse_upload(data, "cap-test.trace", "memory", "auto", '{"max_requests": 2}')


def test_explorer_n_star_outside_the_measured_block_sizes_is_refused_naming_them():
    """n* here uses the default storage access time T (the direct read measured with the insertion cost,
    4-64 KiB): at 2 KiB blocks the n* band and the How sure? panel say why they are missing -- the measured
    range and where the paper's factor can be chosen -- and the rest of the page still renders."""
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    assert not at.error, [e.value for e in at.error]
    at.select_slider(key="tx.block_size_bytes").set_value(2048).run()
    assert not at.exception
    msgs = [e.value for e in at.error]
    assert msgs and all("Storage access time T same-run (the default)" in m and "2048-byte blocks" in m
                        and "4096-65536 B" in m and "File-cache break-even page" in m and "1.3 t" in m for m in msgs)
    assert _metrics(at)["Requests"] == "6,999" and any("stack-distance" in c.value for c in at.caption)
