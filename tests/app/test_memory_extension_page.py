"""NVM memory extension page (AppTest): renders, reacts, keeps a bad sweep entry editable."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests import ROOT

PAGE = str(ROOT / "app/views/memory_extension.py")


def test_memory_extension_page():
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["mx.stream_source"] = "pattern"  # the default is the Lulesh trace
    at.session_state["mx.references"] = 200_000
    at.session_state["mx.footprint_pages"] = 256  # 781 page visits: ~3 passes over the footprint
    at.run()
    assert not at.exception and not at.error
    m = {x.label: x.value for x in at.metric}
    pcm, flash = (float(m[f"{d} slowdown at 1:4"].rstrip("×")) for d in ("pcm-memext", "nand-flash"))
    assert flash > pcm > 1
    at.radio(key="mx.accounting").set_value("exclusive").run()
    assert not at.exception and not at.error
    # the same device as fast and slow memory is named, not a crash ("unexpected internal error")
    at.session_state["mx.slow_device"] = "pcm-memext"
    at.run()
    assert not at.exception and any("Slow NVM" in e.value and "pick a device other than the fast one" in e.value
                                    for e in at.error)  # named by its label, right under the input


def test_memory_extension_page_bad_sweep_entry_keeps_the_fields():
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["mx.stream_source"] = "pattern"
    at.session_state["mx.references"] = 50_000
    at.session_state["mx.footprint_pages"] = 256
    at.run()
    at.multiselect(key="mx.prefetch_depths").set_value([]).run()
    assert not at.exception
    assert any("Prefetch depths [pages]" in e.value.replace("\\", "") for e in at.error)  # the label, not the field
    # the emptied field is still on screen to be corrected, and the other inputs are kept
    assert at.multiselect(key="mx.prefetch_depths").value == []
    assert at.text_input(key="mx.references").value == "50000"
    at.multiselect(key="mx.prefetch_depths").set_value(["0", "8"]).run()
    assert not at.exception and not at.error


def test_memory_extension_default_is_the_lulesh_trace_and_its_chart_is_not_flat():
    # Figs. 10-11 are per application: the default workload is the paper's own Lulesh, traced here. Its
    # slowdown must change with the DRAM:NVM ratio (the old synthetic default swept more pages than the
    # largest DRAM share, so FIFO faulted the same at every ratio: a flat chart).
    import pandas as pd

    at = AppTest.from_file(PAGE, default_timeout=300)
    at.run()
    assert not at.exception and not at.error
    assert at.session_state["mx.stream_source"] == "trace" and at.session_state["mx.trace_name"] == "lackey:lulesh"
    assert any("lackey:lulesh" in c.value and "measured" in c.value for c in at.caption)
    df = next(d.value for d in at.dataframe if "DRAM share [-]" in getattr(d.value, "columns", []))
    assert isinstance(df, pd.DataFrame) and set(df["device"]) == {"pcm-memext", "nand-flash"}
    for _, g in df.groupby("device"):
        s = g.sort_values("DRAM share [-]", ascending=False)["slowdown [×]"].to_numpy()
        assert (s[1:] > s[:-1]).all(), s  # less DRAM, slower: strictly, at every step


def test_a_field_the_page_replaces_is_greyed_out_and_says_what_is_used():
    """The default Lulesh trace has a measured t_ref: the t_ref field must not show a value the model does not use."""
    at = AppTest.from_file(PAGE, default_timeout=300).run()
    assert not at.exception
    field = at.number_input(key="mx.base_ns_per_ref")
    assert field.disabled
    used = [c.value for c in at.caption if c.value.startswith("Not used: the traced program's measured")]
    assert len(used) == 1 and "ns" in used[0], used
    at.checkbox(key="mx.trace_time_base").uncheck().run()  # the field applies again: editable, its range shown
    assert not at.number_input(key="mx.base_ns_per_ref").disabled
    assert not any(c.value.startswith("Not used: the traced") for c in at.caption)
    at.checkbox(key="mx.paper_fault_cost").check().run()
    assert at.number_input(key="mx.fault_overhead_ns").disabled


def _pattern_page(refs=100_000):
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["mx.stream_source"] = "pattern"
    at.session_state["mx.references"] = refs
    at.session_state["mx.footprint_pages"] = 256
    return at


def _pattern_stream(at):
    from models.memory import memory_extension as me

    s = at.session_state
    return me.synthetic_page_stream(s["mx.pattern"], footprint_pages=int(s["mx.footprint_pages"]),
                                    references=int(s["mx.references"]), refs_per_visit=int(s["mx.refs_per_visit"]),
                                    write_fraction=float(s["mx.write_fraction"]), seed=int(s["mx.seed"]))


def _ratio_table(at):
    return next(d.value for d in at.dataframe if "DRAM share [-]" in getattr(d.value, "columns", []))


def test_mfwr_option_charges_the_measured_cost_per_written_page():
    """Issue 39: MFWR off by default (its cost field greyed out, saying so); on, each page written costs the
    measured MFWR CPU time (default) or the typed one, as the model computes it."""
    import pytest

    from models.memory import memory_extension as me
    from models.provenance import param

    at = _pattern_page()
    at.session_state["mx.writeback"] = "sync"  # every write-back stalls: MFWR shows in every run
    at.run()
    assert not at.exception and not at.error
    assert at.number_input(key="mx.mfwr_us").disabled
    assert at.number_input(key="mx.mfwr_us").value == param("memext.mfwr_ns_per_page").value / 1e3
    off = _ratio_table(at)
    at.checkbox(key="mx.mfwr").check().run()
    assert not at.exception and not at.error and not at.number_input(key="mx.mfwr_us").disabled
    on = _ratio_table(at)
    stream = _pattern_stream(at)
    common = dict(writeback="sync", fault_overhead_ns=float(at.session_state["mx.fault_overhead_ns"]),
                  base_ns_per_ref=float(at.session_state["mx.base_ns_per_ref"]))
    ref = me.ratio_sweep(stream, devices=("pcm-memext", "nand-flash"), mfwr_ns=param("memext.mfwr_ns_per_page").value,
                         **common)
    assert on["slowdown [×]"].to_numpy() == pytest.approx(ref["slowdown"].to_numpy(), rel=1e-9)
    written = off["writebacks"].to_numpy() > 0
    assert written.any() and (on["slowdown [×]"].to_numpy()[written] > off["slowdown [×]"].to_numpy()[written]).all()
    at.number_input(key="mx.mfwr_us").set_value(-1.0).run()  # out of range: named by its label
    assert not at.exception and any("MFWR CPU time per page written" in e.value for e in at.error)


def _slowdown_line(at, device):
    """The y values of the prefetch chart's slowdown line of ``device`` (the page's Plotly figure)."""
    import json

    from tests.app.chart_rules import values

    for c in at.get("plotly_chart"):
        fig = json.loads(c.proto.spec)
        for tr in fig.get("data", []):
            if tr.get("name") == f"slowdown ({device})":
                return [float(y) for y in values(tr["y"])]
    raise AssertionError(f"no slowdown line of {device}")


def test_prefetch_submit_option_reaches_the_prefetch_sweep():
    """Issue 39: the prefetch sweep follows the page's submission reading (confirmed by default, or every fault
    with no prefetch in progress), as the model computes it."""
    import pytest

    from models.memory import memory_extension as me

    at = _pattern_page(50_000)
    at.session_state["mx.tab"] = "Prefetching (Fig. 13)"
    at.session_state["mx.prefetch_depths"] = ["0", "2"]
    at.run()
    assert not at.exception and not at.error
    assert at.radio(key="mx.prefetch_submit").value == "confirmed"
    stream = _pattern_stream(at)
    s = at.session_state
    common = dict(fault_overhead_ns=float(s["mx.fault_overhead_ns"]), base_ns_per_ref=float(s["mx.base_ns_per_ref"]))
    runs = {m: me.prefetch_sweep(stream, depths=[0, 2], device="pcm-memext", prefetch_submit=m, **common)["slowdown"]
            for m in ("confirmed", "every-fault")}
    assert runs["every-fault"].iloc[1] != pytest.approx(runs["confirmed"].iloc[1], rel=1e-9)  # it matters here
    assert _slowdown_line(at, "pcm-memext") == pytest.approx(runs["confirmed"].tolist(), rel=1e-9)
    at.radio(key="mx.prefetch_submit").set_value("every-fault").run()
    assert not at.exception and not at.error
    assert _slowdown_line(at, "pcm-memext") == pytest.approx(runs["every-fault"].tolist(), rel=1e-9)
