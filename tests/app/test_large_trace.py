"""An upload too large to read whole on the trace explorer (app.components.large_trace): its LRU miss-ratio curve
streamed from its file as ``pcm-planner mrc`` streams it -- exact equal to the in-memory curve, SHARDS at the rate
asked, or SHARDS at a rate that fits when the exact state passes the memory budget -- and the text saying which."""

from __future__ import annotations

import json

import numpy as np
import pytest

from app.components.large_trace import (
    LargeUpload,
    mrc_table,
    refused_whole_why,
    stream_reason,
    streamed_mrc,
    streamed_trace,
)
from models.budget import BudgetExceeded, limit
from models.planner.stream_plan import IN_MEMORY_MAX_BYTES
from models.sim.mrc import policy_mrc
from models.traces import load
from models.traces.blocks import split_blocks


def _msr(path, n: int, seed: int = 0) -> str:
    rng = np.random.default_rng(seed)
    lines = [f"{128166372003061629 + i * 1000},hm,{rng.integers(0, 2)},{'Read' if rng.random() < .6 else 'Write'},"
             f"{int(rng.integers(0, 20_000)) * 4096 + int(rng.integers(0, 2)) * 512},"
             f"{int(rng.choice([512, 4096, 65536]))},100" for i in range(n)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _up(path: str, **opts) -> LargeUpload:
    return LargeUpload(path=path, name="my trace.csv", nbytes=1, format="msr",
                       options_json=json.dumps(opts, sort_keys=True), why="a test's reason")


def test_only_a_file_over_the_planners_in_memory_limit_streams_from_its_size():
    assert stream_reason(IN_MEMORY_MAX_BYTES) is None
    why = stream_reason(IN_MEMORY_MAX_BYTES + 1)
    assert why is not None and "in-memory limit" in why and "IN_MEMORY_MAX_BYTES" in why


def test_a_whole_read_refused_for_its_size_streams_any_other_error_does_not():
    assert "budget" in refused_whole_why(BudgetExceeded("needs 2 GB"))
    with limit(100), pytest.raises(BudgetExceeded) as e:  # the loader's refusal of a whole read: by the budget
        load(b"0 0 8 8 1\n1000 0 16 8 0\n" * 10, kind="block", name="t.trace")
    assert "--max-requests N" in str(e.value) and "budget" in refused_whole_why(e.value)
    assert refused_whole_why(ValueError("t.csv line 3, field size: not a number")) is None
    assert refused_whole_why(OSError("gone")) is None


def test_the_streamed_exact_curve_is_the_in_memory_curve(tmp_path):
    p = _msr(tmp_path / "t.csv", 5000)
    res = streamed_mrc(_up(p), 4096, method="exact", rate=0.01)
    t = res.table
    assert res.rate is None and set(t.method) == {"exact"} and set(t.sampling_rate) == {1.0}
    assert res.how == "exact (one Mattson stack-distance pass), streamed from the file"
    acc = split_blocks(load(p, format="msr"), 4096)
    mem = policy_mrc(acc.block, policy="lru", method="exact", sizes=t.cache_blocks.to_numpy(), seed=0)
    np.testing.assert_allclose(t.hit_ratio, mem.hit_ratio, rtol=0, atol=1e-12)
    assert res.footprint_blocks == acc.n_unique and res.requests == len(acc.block)
    assert t.cache_blocks.iloc[-1] == acc.n_unique  # the sizes run to the footprint
    np.testing.assert_allclose(t.miss_ratio, 1 - t.hit_ratio)
    assert (t.cache_bytes == t.cache_blocks * 4096).all()
    assert t.cache_fraction_of_footprint.iloc[-1] == 1.0
    assert list(mrc_table(mem, 4096).columns) == [c for c in t.columns if c not in ("method", "sampling_rate")]


def test_shards_at_the_rate_asked_says_the_rate(tmp_path):
    p = _msr(tmp_path / "t.csv", 5000, seed=2)
    res = streamed_mrc(_up(p), 4096, method="shards", rate=0.25)
    assert res.rate == 0.25 and set(res.table.method) == {"shards"} and set(res.table.sampling_rate) == {0.25}
    assert "SHARDS estimate at sampling rate 0.25" in res.how


def test_over_the_memory_budget_the_exact_curve_falls_back_to_shards_and_says_why(tmp_path):
    p = _msr(tmp_path / "t.csv", 30_000, seed=1)
    with limit("1MB"):
        res = streamed_mrc(_up(p), 4096, method="exact", rate=0.01)
    assert res.rate is not None and 0 < res.rate < 1
    assert set(res.table.method) == {"shards"} and set(res.table.sampling_rate) == {res.rate}
    assert "method shards" in res.how and f"at rate {res.rate:.6g}" in res.how and "budget" in res.how
    with limit("1MB"):  # without the fallback (a rate asked for): the budget's refusal, named
        with pytest.raises(BudgetExceeded):
            streamed_mrc(_up(p), 4096, method="shards", rate=1.0)


def test_the_reader_options_reach_the_stream(tmp_path):
    p = _msr(tmp_path / "t.csv", 3000)
    res = streamed_mrc(_up(p, max_requests=700), 4096, method="exact", rate=0.01)
    assert res.requests == len(split_blocks(load(p, format="msr", max_requests=700), 4096).block)


def test_the_streamed_statistics_and_histograms_carry_their_method_and_rate(tmp_path):
    """streamed_trace: the statistics of the file (exact: every method "exact", rate 1) and the curve from one read;
    the CSVs the page offers carry the method and the rate; another policy: the statistics alone, the curve's
    refusal named; over the budget: the per-block statistics sampled, said per statistic, in the histogram and in
    the caption's text."""
    from app.components.export import csv_bytes
    from models.traces.stats import trace_stats

    p = _msr(tmp_path / "t.csv", 5000, seed=5)
    res = streamed_trace(_up(p), 4096, method="exact", rate=0.01)
    assert res.reads == 1 and not res.sampled and res.mrc is not None and res.mrc_error is None
    mem = trace_stats(load(p, format="msr"), 4096)
    assert res.stats.footprint_blocks == mem.footprint_blocks and res.stats.requests == mem.requests
    assert res.table.columns.tolist() == ["statistic", "value", "method", "sampling_rate"]
    assert set(res.table.method) == {"exact"} and set(res.table.sampling_rate) == {1.0}
    for df in (res.table, res.sizes, res.reuse):
        header = csv_bytes(df, None, None).decode().splitlines()
        assert any(line.endswith("method,sampling_rate") for line in header), header[:3]
    assert res.stats_how == "exact, streamed from the file"
    alone = streamed_trace(_up(p), 4096, method="minisim", rate=0.01)
    assert alone.mrc is None and "LRU with exact or SHARDS" in alone.mrc_error and alone.stats.requests == 5000


def test_over_the_budget_the_streamed_statistics_say_their_sample_per_statistic_and_in_the_captions(tmp_path,
                                                                                                  monkeypatch):
    from models.traces import stream_stats

    monkeypatch.setattr(stream_stats, "BATCH_REQUESTS", 2000)  # small passes: the states outgrow the budget first
    rng = np.random.default_rng(6)
    p = tmp_path / "t.csv"
    p.write_text("".join(f"{128166372003061629 + i * 1000},hm,0,Read,{int(rng.integers(0, 2_000_000)) * 4096},"
                         f"4096,100\n" for i in range(40_000)))
    reads = []
    with limit("3MB"):
        res = streamed_trace(_up(str(p), chunk_bytes=1 << 16), 4096, method="exact", rate=0.01,
                             on_read=lambda k, why: reads.append(k))
    assert res.sampled and res.reads == len(reads) + 1 > 1
    rate = float(res.table.set_index("statistic").loc["footprint_blocks", "sampling_rate"])
    assert 0 < rate < 1 and f"rate {rate:.6g}" in res.stats_how and "budget" in res.stats_how
    m = res.table.set_index("statistic")
    assert m.loc["footprint_blocks", "method"].startswith("SHARDS spatial sample of the blocks")
    assert m.loc["requests", "method"] == "exact" and m.loc["requests", "value"] == "40000"
    assert f"sampling rate {rate:.6g}" in res.reuse_how and set(res.reuse.sampling_rate) == {rate}
    assert set(res.sizes.method) == {"exact"}


@pytest.mark.parametrize("policy, method", [("fifo", "exact"), ("lru", "minisim"), ("clock", "minisim")])
def test_other_policies_and_methods_are_refused_naming_the_upload_and_what_streams(tmp_path, policy, method):
    p = _msr(tmp_path / "t.csv", 100)
    with pytest.raises(ValueError) as e:
        streamed_mrc(_up(p), 4096, method=method, rate=0.01, policy=policy)
    assert str(e.value).startswith("my trace.csv: a test's reason") and "LRU with exact or SHARDS" in str(e.value)


def test_the_trace_explorer_draws_the_streamed_statistics_and_curve_of_a_large_upload(tmp_path, monkeypatch):
    """The page with an upload the picker streams (the picker's answer replaced): the reason above and what is not
    drawn and why, the statistics with their method, both histograms, the curve, a caption saying each method,
    their CSVs; another policy: the statistics stay, the curve is refused by name."""
    import json as _json

    import streamlit as st
    from streamlit.testing.v1 import AppTest

    import app.components.traces as traces_ui
    from tests import ROOT

    p = _msr(tmp_path / "t.csv", 4000)
    up = LargeUpload(path=p, name="big volume.csv", nbytes=IN_MEMORY_MAX_BYTES + 1, format="msr",
                     options_json="{}", why=stream_reason(IN_MEMORY_MAX_BYTES + 1))
    monkeypatch.setattr(traces_ui, "trace_and_settings", lambda key, **kw: (up, st.container()))
    at = AppTest.from_file(str(ROOT / "app/views/trace_explorer.py"), default_timeout=180).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    info = " ".join(i.value for i in at.info)
    assert "big volume.csv" in info and "in-memory limit" in info and "read in blocks" in info
    assert "offset scatter" in info and "How sure? panel" in info  # what is not drawn, and why
    assert [m.label for m in at.metric] == ["Requests", "Writes", "Footprint", "Mean request"]
    assert at.metric[0].value == "4,000"
    figs = [_json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    assert [f["layout"]["yaxis"]["title"]["text"] for f in figs] == ["requests [-]", "blocks [-]", "miss ratio [-]"]
    (stats_df,) = [d.value for d in at.dataframe]
    assert list(stats_df.columns) == ["statistic", "value", "method (sampling rate)"]
    assert set(stats_df["method (sampling rate)"]) == {"exact"}
    captions = [c.value for c in at.caption]
    assert any(c.startswith("Per 4096-byte block: exact, streamed from the file") for c in captions)
    assert any(c.startswith("Per 4096-byte block access, exact (one Mattson") for c in captions)
    assert any("Method: exact (every block's accesses counted), sampling rate 1" in c for c in captions)
    for k in ("dl-tx-stats", "dl-tx-sizes", "dl-tx-reuse", "dl-tx-mrc"):
        assert any(k in b.proto.id for b in at.get("download_button")), k
    at.selectbox(key="tx.mrc_policy").set_value("fifo").run()  # only the LRU curve streams: said by name
    assert not at.exception
    assert any("big volume.csv" in e.value and "LRU with exact or SHARDS" in e.value for e in at.error)
    assert len(at.metric) == 4 and len(at.dataframe) == 1  # the statistics stay


def _stats_of_page(at) -> dict:
    """What the explorer shows of the statistics: the metrics, the table's (statistic, value) rows, the two
    histograms' bars."""
    import json as _json

    figs = {f["layout"]["title"]["text"].split(" (")[0]: f for f in
            (_json.loads(c.proto.spec) for c in at.get("plotly_chart")) if f["layout"].get("title")}
    table = at.dataframe[0].value
    return {"metrics": [(m.label, m.value) for m in at.metric][:4],  # the row over the statistics (not How sure?)
            "table": list(zip(table["statistic"], table["value"])),
            **{name: [(_values(t.get("x")), _values(t.get("y"))) for t in figs[name]["data"]
                      if t.get("type") == "bar"] for name in ("Request sizes", "Reuse counts")}}


def _values(arr) -> tuple:
    """A Plotly data array as the values it holds (a typed array's base64 ``bdata`` decoded)."""
    import base64

    if isinstance(arr, dict) and "bdata" in arr:
        return tuple(np.frombuffer(base64.b64decode(arr["bdata"]), dtype=np.dtype(arr["dtype"])).tolist())
    return tuple(arr or ())


def test_a_small_upload_streamed_shows_the_statistics_of_the_same_file_read_whole(tmp_path, monkeypatch):
    """The same file uploaded twice: read whole (the default limit), then streamed (IN_MEMORY_MAX_BYTES set below
    its size): the metrics, every statistic and both histograms read the same (exact path), the streamed table
    says "exact" for each statistic and the streamed CSV carries the method and the rate."""
    from streamlit.testing.v1 import AppTest

    import app.components.large_trace as lt
    import models.planner.stream_plan as sp
    from tests import ROOT

    data = open(_msr(tmp_path / "t.csv", 3000, seed=4), "rb").read()

    def page():
        at = AppTest.from_file(str(ROOT / "app/views/trace_explorer.py"), default_timeout=180)
        at.session_state["tx.trace_source"] = "upload"
        at.run()
        at.file_uploader(key="tx.upload").set_value(("my volume.csv", data, "text/csv")).run()
        assert not at.exception, [e.message for e in at.exception]
        assert not at.error, [e.value for e in at.error]
        return at

    whole = page()
    assert not any("read in blocks" in i.value for i in whole.info)
    monkeypatch.setattr(lt, "IN_MEMORY_MAX_BYTES", len(data) - 1)
    monkeypatch.setattr(sp, "IN_MEMORY_MAX_BYTES", len(data) - 1)
    streamed = page()
    assert any("read in blocks" in i.value and "in-memory limit" in i.value for i in streamed.info)
    a, b = _stats_of_page(whole), _stats_of_page(streamed)
    assert a["table"] and a["metrics"][0] == ("Requests", "3,000")
    assert sum(a["Request sizes"][0][1]) == 3000 and len(a["Reuse counts"][0][0]) > 1  # the bars themselves
    assert a == b
    assert set(streamed.dataframe[0].value["method (sampling rate)"]) == {"exact"}
    from tests.app.chart_rules import check_figures, check_texts, page_figures, shown_texts

    figs = page_figures(streamed)
    assert len(figs) == 3 and check_figures(figs) == []  # axes titled with units, log decades labelled
    assert check_figures(page_figures(whole)) == []
    assert check_texts(shown_texts(streamed)) == []
