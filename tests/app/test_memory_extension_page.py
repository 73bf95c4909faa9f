"""NVM memory extension page (AppTest): renders, reacts, keeps a bad sweep entry editable."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests import ROOT

PAGE = str(ROOT / "app/views/memory_extension.py")


def test_memory_extension_page():
    at = AppTest.from_file(PAGE, default_timeout=300)
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
    assert not at.exception and any("slow_device" in e.value for e in at.error)


def test_memory_extension_page_bad_sweep_entry_keeps_the_fields():
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["mx.references"] = 50_000
    at.session_state["mx.footprint_pages"] = 256
    at.run()
    at.multiselect(key="mx.prefetch_depths").set_value([]).run()
    assert not at.exception
    assert any("Prefetch depths [pages]" in e.value.replace("\\", "") for e in at.error)  # the label, not the field
    # the emptied field is still on screen to be corrected, and the other inputs are kept
    assert at.multiselect(key="mx.prefetch_depths").value == []
    assert at.number_input(key="mx.references").value == 50_000
    at.multiselect(key="mx.prefetch_depths").set_value(["0", "8"]).run()
    assert not at.exception and not at.error
