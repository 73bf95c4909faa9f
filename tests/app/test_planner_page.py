"""The planner page (AppTest): "My workload" verdicts with custom devices from the link, and the library ranking."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app.components.errors import md_escape
from models.devices import decode_devices, encode_devices, get_device
from tests import ROOT
from tests.app.chart_rules import check_figures, check_texts, page_figures

PAGE = str(ROOT / "app/views/planner.py")
FIX = ROOT / "tests/fixtures/plan"
MY_PCM = get_device("pcm-samsung-20nm").with_updates(name="my-pcm", label="My PCM", write_latency_ns=900.0,
                                                      source="user-defined (from pcm-samsung-20nm)")


def _mine(**query) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=240)
    at.query_params["library"] = "mqsim:tpcc-small"
    at.query_params["plan_requests"] = "2000"
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


def _verdicts(at: AppTest):
    """The verdict table as the user reads it (a static st.table of Markdown-escaped text: escapes removed)."""
    t = next(t.value for t in at.table if "verdict" in [c.replace("\\", "") for c in t.value.columns])
    t = t.rename(columns=lambda c: c.replace("\\", ""))
    return t.apply(lambda col: col.astype(str).str.replace("\\", "", regex=False))


def test_my_workload_gives_verdicts_charts_and_reasons():
    at = _mine(devices="pcm-samsung-20nm,dram")
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    v = _verdicts(at)
    # a block trace: file-cache, storage (its replay) and write-cache evaluated, paging/memory-extension need
    # other data,
    # DRAM cannot be the storage under a DRAM file cache
    assert {"wins", "needs data", "not applicable"} <= set(v.verdict)
    assert set(v[v.verdict == "needs data"].role) == {"paging", "memory-extension"}
    assert ((v.device == "dram") & (v.role == "file-cache") & (v.verdict == "not applicable")).any()
    figs = page_figures(at)
    assert len(figs) == 3  # file-cache, storage and write-cache: the roles with an evaluated row
    assert check_figures(figs) == []
    for _name, fig in figs:
        assert "value" not in fig["layout"]["xaxis"]["title"]["text"].split(" [")[0].lower()
        assert fig["layout"]["xaxis"]["type"] == "log"
        assert any(s.get("x0") == 1 for s in fig["layout"]["shapes"])  # the 1x line
        colours = set(fig["data"][0]["marker"]["color"])
        assert colours <= {"#2e7d32", "#c62828", "#1565c0"}  # wins, loses, about the same
    text = "\n".join(m.value for m in at.markdown)
    assert "needs data" in text and "not applicable" in text and "DRAM" in text  # the reasons, in full
    # the verdict table itself holds every reason in full (a static table: cells wrap, nothing cut off)
    assert not at.dataframe or all("verdict" not in d.value.columns for d in at.dataframe)
    from models.planner.plan import plan, workload_from_path

    expected = plan([workload_from_path("mqsim:tpcc-small")], ["pcm-samsung-20nm", "dram"], n_requests=2000)
    assert sorted(v.reason) == sorted(expected.to_frame().reason)  # every reason, word for word
    assert check_texts([m.value for m in at.markdown] + [c.value for c in at.caption]) == []


def test_default_uses_the_whole_trace_and_says_so():
    """Issue 38 item 1: no "Requests per block trace" given -> every request, said in each row's reason."""
    from models import traces

    n = len(traces.load("mqsim:tpcc-small", kind="block"))
    at = AppTest.from_file(PAGE, default_timeout=240)
    at.query_params["library"] = "mqsim:tpcc-small"
    at.query_params["devices"] = "pcm-samsung-20nm"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    v = _verdicts(at)
    mine = v[v.workload == "mqsim:tpcc-small"]
    assert len(mine) and mine.reason.str.contains(f"whole block trace: {n:,} requests", regex=False).all()


def test_custom_device_of_the_link_is_restored_and_compared():
    at = _mine(devices="my-pcm,pcm-samsung-20nm", dev=encode_devices([MY_PCM]))
    assert not at.exception, [e.message for e in at.exception]
    assert "my-pcm" in at.session_state["custom_devices"]
    v = _verdicts(at)
    assert {"my-pcm", "pcm-samsung-20nm"} == set(v.device)
    # the link the page writes back still carries the device it compares
    assert decode_devices(at.query_params["dev"][0] if isinstance(at.query_params["dev"], list)
                          else at.query_params["dev"]) == [MY_PCM]


def test_link_without_custom_devices_drops_the_dev_parameter():
    at = _mine(devices="pcm-samsung-20nm")
    assert not at.exception
    assert "dev" not in at.query_params


def test_damaged_device_link_is_a_warning_not_a_crash():
    at = _mine(devices="pcm-samsung-20nm", dev="1.not-a-device-list")
    assert not at.exception, [e.message for e in at.exception]
    assert any("Custom devices of the link not restored" in w.value for w in at.warning), [w.value for w in at.warning]
    assert len(_verdicts(at))


def test_more_than_three_devices_is_refused_by_label():
    at = _mine(devices="pcm-samsung-20nm,dram,optane-dcpmm,nvme-tlc")
    assert not at.exception
    msgs = " ".join(e.value for e in at.error) + " ".join(w.value for w in at.warning)
    assert "Devices to compare" in msgs or "devices" in msgs, msgs


def test_uploaded_msr_with_header_and_lackey_are_named_and_evaluated():
    at = AppTest.from_file(PAGE, default_timeout=240)
    at.query_params["plan_requests"] = "2000"
    at.query_params["devices"] = "pcm-samsung-20nm"
    at.run()
    try:
        up = at.get("file_uploader")[0]
    except IndexError:
        pytest.skip("this Streamlit's AppTest has no file_uploader support")
    up.set_value([("small_msr.csv", (FIX / "small_msr.csv").read_bytes(), "text/csv"),
                  ("small_lackey.txt", (FIX / "small_lackey.txt").read_bytes(), "text/plain")]).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    v = _verdicts(at)
    assert {"small_msr", "small_lackey"} <= set(v.workload)
    assert set(v[v.workload == "small_lackey"].role) == {"paging", "memory-extension"}
    # the user renames a workload: the verdicts follow
    next(t for t in at.text_input if t.label == "Name of small_msr.csv").set_value("my database").run()
    assert "my database" in set(_verdicts(at).workload)
    # a second workload of the same name: why it is left out is shown right under its name; the other stays
    lackey = next(t for t in at.text_input if t.label == "Name of small_lackey.txt")
    lackey.set_value("my database").run()
    assert not at.exception, [e.message for e in at.exception]
    from tests.app.test_input_messages import message_under

    under = message_under(at, lackey.key)
    assert under is not None and "Name of small_lackey.txt**: " in under and "left out" in under, under
    v = _verdicts(at)
    assert "my database" in set(v.workload) and "small_lackey" not in set(v.workload)
    assert set(v[v.role == "paging"].verdict) == {"needs data"}  # the memory trace is left out, the block one stays


def _library_tab(**query) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=240)
    at.session_state["plan.tab"] = "Library ranking"
    at.query_params["traces"] = "synthetic:mail"
    at.query_params["n_requests"] = "2000"
    at.query_params["uq_samples"] = "16"  # the ranking samples every row: keep it small here
    at.query_params["personalities"] = "varmail"
    at.query_params["memory"] = "false"
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


def test_library_ranking_tab():
    at = _library_tab()
    assert not at.exception and not at.error
    assert len(at.get("plotly_chart")) >= 2
    assert check_figures(page_figures(at)) == []


def test_library_ranking_widget_change_changes_ranking():
    at = _library_tab(memory="false")
    assert not at.exception
    before = set(at.dataframe[0].value["role"])
    assert "memory-extension" not in before
    at.checkbox(key="plan.memory").check().run()
    assert not at.exception
    assert "memory-extension" in set(at.dataframe[0].value["role"])


def test_whole_number_fields_read_scientific_notation():
    at = _library_tab()
    at.text_input(key="plan.threads").set_value("5e1")
    at.text_input(key="plan.uq_seed").set_value("1e1").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.query_params["threads"] in ("50", ["50"]) and at.query_params["uq_seed"] in ("10", ["10"])
    at.text_input(key="plan.uq_samples").set_value("1.5e1").run()  # not a whole number: refused by its label
    assert any("Samples per workload" in e.value for e in at.error), [e.value for e in at.error]


def test_a_losing_device_is_drawn_red_left_of_the_1x_line():
    at = _mine(devices="sata-ssd,pcm-samsung-20nm", baseline="optane-dcpmm")
    assert not at.exception and not at.error, [e.value for e in at.error]
    v = _verdicts(at)
    lost = v[(v.device == "sata-ssd") & (v.verdict == "loses")]
    assert len(lost) and (lost["value [×]"].astype(float) < 1).all()
    figs = page_figures(at)
    assert check_figures(figs) == []
    bars = [f["data"][0] for _n, f in figs]
    assert any("#c62828" in b["marker"]["color"] for b in bars)


def test_an_unreadable_upload_is_named_and_the_others_still_count():
    at = AppTest.from_file(PAGE, default_timeout=240)
    at.query_params["plan_requests"] = "2000"
    at.query_params["devices"] = "pcm-samsung-20nm"
    at.run()
    at.get("file_uploader")[0].set_value([
        ("junk.bin", b"\x00\x01 not a trace at all \xff" * 10, "application/octet-stream"),
        ("small_msr.csv", (FIX / "small_msr.csv").read_bytes(), "text/csv")]).run()
    assert not at.exception, [e.message for e in at.exception]
    errs = [e.value for e in at.error]
    assert any(e.startswith("junk.bin") for e in errs), errs
    assert "small_msr" in set(_verdicts(at).workload)


def test_a_hostile_device_name_reads_as_typed_in_table_and_charts():
    """A custom device named with markup: the verdict table and the charts show its characters, escaped once
    (show() escapes the figure data; the page itself does not escape it again)."""
    import json

    from reporting.plotly_text import plotly_text

    evil = MY_PCM.with_updates(name="<b>x</b><img src=x>_y_")
    at = _mine(devices=f"{evil.name},pcm-samsung-20nm", dev=encode_devices([evil]))
    assert not at.exception, [e.message for e in at.exception]
    assert evil.name in set(_verdicts(at).device)
    figs = page_figures(at)
    assert figs
    labels = [y for _n, f in figs for y in f["data"][0]["y"]]
    assert f"mqsim:tpcc-small · {plotly_text(evil.name)}" in labels  # escaped exactly once
    dump = json.dumps([f for _n, f in figs])
    assert "<img" not in dump and "<b>x" not in dump and "&amp;lt;" not in dump


def test_a_tie_reads_about_the_same_on_the_page():
    """Issue 38 item 5: the baseline device itself (1x) reads "about the same", never "loses ... 1x worse"."""
    at = AppTest.from_file(PAGE, default_timeout=240)
    at.query_params["library"] = "mqsim:tpcc-small"
    at.query_params["plan_requests"] = "2000"
    at.query_params["devices"] = "hdd-7200,pcm-samsung-20nm"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    v = _verdicts(at)
    row = v[(v.role == "file-cache") & (v.device == "hdd-7200")].iloc[0]
    assert row.verdict == "about the same" and "about the same as hdd-7200" in row.reason
    assert "worse" not in row.reason
    text = "\n".join(m.value for m in at.markdown)
    assert ":blue[**about the same**" in text
    assert any("about the same" in c.value for c in at.caption)


def test_each_verdict_shows_its_roles_ledger_status():
    """Issue 38 item 6: the ledger status of each role's models beside its verdict (the report's counts, reused)."""
    from reporting.planner_report import ledger_confidence, validation_summary

    at = _mine(devices="pcm-samsung-20nm")
    assert not at.exception, [e.message for e in at.exception]
    v = _verdicts(at)
    t = validation_summary(["file-cache", "write-cache"]).set_index("role")
    for role in ("file-cache", "write-cache"):
        cell = v[v.role == role]["validation (ledger)"].iloc[0]
        # compact beside the verdict (the table fits 800 px, issue 38 item 9); the full counts in the caption
        assert cell == ledger_confidence(role).removeprefix("ledger: ") and f"of {t.loc[role, 'claims']} claims" in cell
    caps = [c.value for c in at.caption]
    assert any("How well this role's models validate" in c and t.loc["write-cache", "summary"] in c for c in caps)


def test_an_upload_named_with_markdown_is_labelled_as_typed():
    """Issue 42 item 9: the "Name of <file>" label rendered the file name as Markdown (an image fetch)."""
    at = AppTest.from_file(PAGE, default_timeout=240)
    at.query_params["plan_requests"] = "2000"
    at.query_params["devices"] = "pcm-samsung-20nm"
    at.run()
    evil = "![x](http://127.0.0.1:9/label.png) :red[y] $x$.trace"
    at.get("file_uploader")[0].set_value([(evil, b"0 0 8 8 1\n1000 1 16 8 0\n", "text/plain")]).run()
    assert not at.exception, [e.message for e in at.exception]
    labels = [t.label for t in at.text_input if t.label.startswith("Name of")]
    assert labels == [f"Name of {md_escape(evil)}"], labels
    assert "\\!\\[x\\](" in labels[0] and ":red\\[y\\]" in labels[0] and "\\$x\\$" in labels[0]


def _table_with(at: AppTest, column: str):
    t = next(t.value for t in at.table if column in [c.replace("\\", "") for c in t.value.columns])
    t = t.rename(columns=lambda c: c.replace("\\", ""))
    return t.apply(lambda col: col.astype(str).str.replace("\\", "", regex=False))


def test_economics_beside_the_verdicts_and_a_price_typed_on_the_page():
    """Issue 37: an economic verdict beside each performance verdict, an Economics table with each price's date;
    a device without a price needs data until the user types one."""
    at = _mine(devices="pcm-samsung-20nm,optane-dcpmm")
    assert not at.exception, [e.message for e in at.exception]
    econ = _table_with(at, "cost per work vs baseline [×]")
    assert list(econ.columns[3:5]) == ["verdict", "economic verdict"]  # side by side
    pcm = econ[econ.device == "pcm-samsung-20nm"]
    assert len(pcm) and (pcm["economic verdict"] == "needs data").all()
    opt = econ[econ.device == "optane-dcpmm"]
    assert opt["price [$/GB]"].str.contains("2019-04").all()  # the date next to the price
    # each row's "why" is read at full width under the table (not a narrow column of it)
    assert "why" not in econ.columns
    assert any("needs data: price of pcm-samsung-20nm" in m.value for m in at.markdown)
    at.text_input(key="plan.prices").set_value("pcm-samsung-20nm=3").run()
    assert not at.exception, [e.message for e in at.exception]
    econ = _table_with(at, "cost per work vs baseline [×]")
    pcm = econ[econ.device == "pcm-samsung-20nm"]
    assert (pcm["economic verdict"] != "needs data").all() and (pcm["price [$/GB]"].str.startswith("3")).all()


def test_a_bad_price_is_refused_under_its_field():
    at = _mine(devices="pcm-samsung-20nm")
    at.text_input(key="plan.prices").set_value("pcm-samsung-20nm=-2").run()
    assert not at.exception, [e.message for e in at.exception]
    text = "\n".join(m.value for m in [*at.markdown, *at.error, *at.warning, *at.caption]).replace("\\", "")
    assert "Prices [$/GB]" in text and "price > 0" in text, text[-2000:]


def test_a_scsi_opcode_csv_is_read_with_the_trace_pages_mapping_and_fails_alone_without_it():
    """Issue 38 item 3: the planner takes the trace pages' format / column-mapping controls; without them the
    libCacheSim CSV (op as SCSI opcode) fails alone, under its own name, and the MSR file is still evaluated."""
    csv = "timestamp,op,lba,size\n" + "".join(f"{i * 0.001:.3f},{'2a' if i % 3 else '28'},{(i % 40) * 8},4096\n"
                                              for i in range(200))
    at = AppTest.from_file(PAGE, default_timeout=240)
    at.query_params["devices"] = "pcm-samsung-20nm"
    at.run()
    at.get("file_uploader")[0].set_value([("vm.csv", csv.encode(), "text/csv"),
                                          ("small_msr.csv", (FIX / "small_msr.csv").read_bytes(), "text/csv")]).run()
    assert not at.exception, [e.message for e in at.exception]
    errs = [e.value for e in at.error]
    assert any("vm" in e and "could not be read" in e and "field 'op'" in e for e in errs), errs
    v = _verdicts(at)
    assert set(v[v.workload == "vm"].verdict) == {"needs data"}
    assert set(v[v.workload == "small_msr"].verdict) & {"wins", "loses", "about the same"}
    # the same controls as the trace explorer (app.components.traces.trace_format_controls), under the file's name
    # the first upload's controls are the libCacheSim CSV's
    fmt = next(s for s in at.selectbox if s.key.startswith("plan.fmt.") and s.key.endswith(".upload_format"))
    prefix = fmt.key.removesuffix(".upload_format")
    fmt.set_value("csv").run()
    for k, val in (("csv_time_col", "timestamp"), ("csv_op_col", "op"), ("csv_op_map", "scsi"),
                   ("csv_addr_col", "lba"), ("csv_size_col", "size")):
        at.text_input(key=f"{prefix}.{k}").set_value(val)
    at.radio(key=f"{prefix}.csv_addr_kind").set_value("lba").run()
    assert not at.exception, [e.message for e in at.exception]
    assert not [e.value for e in at.error], [e.value for e in at.error]
    v = _verdicts(at)
    assert set(v[(v.workload == "vm") & (v.role == "write-cache")].verdict) <= {"wins", "loses", "about the same"}


def test_product_targets_table_and_frontier():
    """Issue 37 item 6: the "Product targets" section -- the spec targets of every row and a frontier chart."""
    at = _mine(devices="pcm-samsung-20nm,optane-dcpmm", targets_on="true", frontier_x="write_latency_ns",
               frontier_y="read_latency_ns")
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert any(h.value == "Product targets" for h in at.subheader)
    t = next(t.value for t in at.table if "won while" in [c.replace("\\", "") for c in t.value.columns])
    won = t.iloc[:, [c.replace("\\", "") for c in t.columns].index("won while")].astype(str)
    assert won.str.contains("<=").any()  # a break-even found (the write cache's write latency)
    figs = page_figures(at)
    front = [f for _n, f in figs if "green where it breaks even" in str(f["layout"].get("title", {}).get("text", ""))]
    assert len(front) == 1 and check_figures([("frontier", front[0])]) == []
    assert front[0]["layout"]["xaxis"]["title"]["text"] == "write latency [ns]"
    assert {"catalogue devices"} <= {d.get("name") for d in front[0]["data"]}


def test_frontier_with_price_on_an_axis():
    """Issue 37 item 5: the user picks price for the frontier's x axis; the chart's criterion is the cost per unit
    of work, its axis is titled in USD/GB and the legend counts the catalogue devices left out without a price."""
    at = _mine(devices="optane-dcpmm", targets_on="true")
    at.selectbox(key="plan.frontier_x").set_value("price_usd_per_GB").run()
    at.selectbox(key="plan.frontier_row").set_value(("mqsim:tpcc-small", "storage", "optane-dcpmm")).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    figs = page_figures(at)
    front = [f for _n, f in figs if "costs no more per unit of work than the baseline"
             in str(f["layout"].get("title", {}).get("text", ""))]
    assert len(front) == 1 and check_figures([("frontier", front[0])]) == []
    assert front[0]["layout"]["xaxis"]["title"]["text"] == "price [USD/GB]"
    assert front[0]["layout"]["yaxis"]["title"]["text"] == "read latency [ns]"
    assert any("without a stated price left out" in str(d.get("name")) for d in front[0]["data"])
    assert any(d.get("type") == "heatmap" for d in front[0]["data"])  # storage vs a priced SSD: a region drawn


def test_memory_trace_references_as_asked_and_whole_by_default():
    """Issue 41: 'References per memory trace' (0 = the whole trace) cuts a memory trace only as asked."""
    at = _mine(library="lackey:lulesh", plan_mem_refs="3000", devices="pcm-samsung-20nm")
    assert not at.exception, [e.message for e in at.exception]
    v = _verdicts(at)
    mem = v[v.role.isin(["paging", "memory-extension"])]
    assert len(mem) == 2 and mem.reason.str.contains("[sampled: the first 3,000 references of a longer trace, not "
                                                     "read to its end (as asked)]", regex=False).all()
    assert int(at.session_state["plan.plan_mem_refs"]) == 3000
    assert int(AppTest.from_file(PAGE).run().session_state["plan.plan_mem_refs"]) == 0  # default: the whole trace


def test_a_cut_longer_than_twenty_million_requests_is_taken():
    """Issue 41: no request cap; "Requests per block trace" takes any whole number >= 0 (it had a 20 M maximum):
    30 M on a shorter trace uses every request, and the caption under the field states no maximum."""
    from models import traces

    n = len(traces.load("mqsim:tpcc-small", kind="block"))
    at = _mine(devices="pcm-samsung-20nm", plan_requests="3e7")
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert at.text_input(key="plan.plan_requests").value == "30000000"  # the URL value, applied
    caps = [c.value for c in at.caption if c.value.startswith("allowed:")]
    assert "allowed: ≥ 0" in caps and not [c for c in caps if "20,000,000" in c], caps
    v = _verdicts(at)
    mine = v[v.workload == "mqsim:tpcc-small"]
    assert len(mine) and mine.reason.str.contains(f"{n:,} requests", regex=False).all(), list(mine.reason)
    at.text_input(key="plan.plan_requests").set_value("-1").run()  # below the minimum: refused by its label
    assert any("Requests per block trace" in e.value for e in at.error), [e.value for e in at.error]
