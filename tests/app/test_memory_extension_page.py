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
