"""Device catalogue page (AppTest): custom devices persist in the link and move as CSV."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from models.devices import decode_devices, devices_to_csv, encode_devices, get_device
from tests import ROOT

PAGE = str(ROOT / "app/views/devices.py")
MINE = get_device("nvme-tlc").with_updates(name="my-nvme", read_latency_ns=70_000.0,
                                           source="user-defined (from nvme-tlc)")


def _dev_param(at: AppTest) -> str:
    v = at.query_params["dev"]
    return v[0] if isinstance(v, list) else v


def test_new_catalogue_entries_are_listed_with_their_provenance():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    cat = at.dataframe[0].value
    assert {"nvme-tlc", "cxl-memexp"} <= set(cat["Name"] if "Name" in cat else cat.iloc[:, 0])
    prov = at.dataframe[1].value.set_index(at.dataframe[1].value.columns[0])
    # its read and write latency, and (issue 39) its read and write bandwidth: Micron's 36 GB/s is a 2:1 mix figure
    assert prov.loc["cxl-memexp"].iloc[1:].tolist().count("assumed") == 4
    # the catalogue shows the kinds in that table, not as "column=kind;..." text (the CSV keeps the column)
    assert not [c for c in cat.columns if "provenance" in str(c).lower()]
    assert not cat.astype(str).apply(lambda c: c.str.contains("=published")).any().any()


def test_saved_device_goes_into_the_link_and_comes_back_on_reload():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.text_input[0].set_value("my-dram")
    at.button[0].click().run()
    assert not at.exception
    assert "my-dram" in at.session_state["custom_devices"]
    text = _dev_param(at)
    assert [d.name for d in decode_devices(text)] == ["my-dram"] and len(text) < 400
    # a reload is a new session: the link alone brings the device back
    again = AppTest.from_file(PAGE, default_timeout=60)
    again.query_params["dev"] = text
    again.run()
    assert not again.exception
    assert "my-dram" in again.session_state["custom_devices"]


def test_damaged_link_warns_and_keeps_the_page():
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["dev"] = "1.garbage"
    at.run()
    assert not at.exception
    assert any("not restored" in w.value for w in at.warning)


def _import(at: AppTest, name: str, data: bytes) -> AppTest:
    up = next(u for u in at.get("file_uploader") if "Import devices" in u.proto.label)
    return up.set_value((name, data, "text/csv")).run()


def test_csv_import_adds_devices_and_a_bad_file_names_row_and_column_and_loses_nothing():
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["dev"] = encode_devices([MINE])
    at.run()
    _import(at, "mine.csv", devices_to_csv([get_device("dram").with_updates(name="fast-ram")]).encode())
    assert not at.exception
    assert {"my-nvme", "fast-ram"} <= set(at.session_state["custom_devices"])
    bad = b"name,read_latency_ns,write_latency_ns\nok,1,1\nbroken,10,-3\n"
    _import(at, "bad.csv", bad)
    errs = [e.value for e in at.error]
    assert any("bad.csv row 2 (broken): column write_latency_ns" in e for e in errs), errs
    assert "ok" not in at.session_state["custom_devices"]  # all or nothing
    assert {"my-nvme", "fast-ram"} <= set(at.session_state["custom_devices"])


def _no_rerun(monkeypatch) -> list:
    """Record ``st.rerun`` calls (a save or a removal must take effect in the run of the click)."""
    import streamlit as st

    calls: list = []
    monkeypatch.setattr(st, "rerun", lambda *a, **k: calls.append(a))
    return calls


def _names(at: AppTest) -> set[str]:
    cat = at.dataframe[0].value
    return set(cat["Name"] if "Name" in cat else cat.iloc[:, 0])


def test_saving_a_device_shows_it_everywhere_in_the_same_run(monkeypatch):
    """The save is the button's callback: the catalogue drawn above the form, the "Start from" picker and
    the link include the device in the run of the click, with no second script run."""
    calls = _no_rerun(monkeypatch)
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.text_input[0].set_value("one-run")
    next(t for t in at.text_input if t.label == "Read latency").set_value("123")
    at.button[0].click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert calls == []
    assert "one-run" in _names(at)
    assert any(o.endswith("(one-run)") for o in at.selectbox(key="dev.base").options)
    assert any("Saved one-run" in s.value for s in at.success)
    assert at.session_state["custom_devices"]["one-run"]["read_latency_ns"] == 123.0
    assert [d.name for d in decode_devices(_dev_param(at))] == ["one-run"]


def test_a_refused_save_changes_nothing_and_names_the_field(monkeypatch):
    calls = _no_rerun(monkeypatch)
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    next(t for t in at.text_input if t.label == "Read latency").set_value("0")
    at.button[0].click().run()
    assert not at.exception and calls == []
    shown = [e.value.replace("\\", "") for e in at.error]  # as read (Markdown escapes removed)
    assert any("Custom device not saved" in e and "Read latency" in e for e in shown), shown
    assert not at.success
    at.run()  # the message belongs to that click only
    assert not any("Custom device not saved" in e.value for e in at.error)


def test_editing_a_custom_device_prefills_its_values_and_saves_over_it():
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["dev"] = encode_devices([MINE])
    at.run()
    at.selectbox(key="dev.base").set_value("my-nvme").run()
    assert at.text_input[0].value == "my-nvme"
    rl = next(t for t in at.text_input if t.label == "Read latency")
    assert float(rl.value) == 70_000.0
    rl.set_value("8e4")
    at.button[0].click().run()
    assert not at.exception
    assert at.session_state["custom_devices"]["my-nvme"]["read_latency_ns"] == 80_000.0
    at.selectbox(key="dev.base").set_value("dram").run()  # another start: the form is pre-filled again
    assert at.text_input[0].value == "my-dram"
    assert float(next(t for t in at.text_input if t.label == "Read latency").value) == \
        get_device("dram").read_latency_ns


def test_removing_a_device_takes_effect_in_the_same_run(monkeypatch):
    calls = _no_rerun(monkeypatch)
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["dev"] = encode_devices([MINE])
    at.run()
    assert "my-nvme" in _names(at)
    at.selectbox(key="dev.drop").set_value("my-nvme").run()
    at.button(key="dev.remove").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert calls == []
    assert "my-nvme" not in _names(at) and not at.session_state["custom_devices"]
    assert not any(o.endswith("(my-nvme)") for o in at.selectbox(key="dev.base").options)


def test_custom_devices_csv_follows_every_change():
    """The download's bytes are kept while the custom devices are unchanged and rebuilt after any change."""
    from models.devices import DeviceProfile

    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["dev"] = encode_devices([MINE])
    at.run()

    def csv() -> str:
        return at.session_state["dev.__csvbytes"][1]

    def expected() -> str:
        return devices_to_csv([DeviceProfile.model_validate(d) for d in at.session_state["custom_devices"].values()])

    assert csv() == expected() and "70000" in csv()
    at.selectbox(key="dev.base").set_value("my-nvme").run()
    next(t for t in at.text_input if t.label == "Read latency").set_value("90,000")
    at.button[0].click().run()
    assert not at.exception
    assert at.session_state["custom_devices"]["my-nvme"]["read_latency_ns"] == 90_000.0
    assert csv() == expected() and "90000" in csv()


def test_model_constants_are_built_only_while_their_section_is_open():
    from models.provenance import params_frame

    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    closed = len(at.dataframe)
    assert not [b for b in at.get("download_button") if "dl-devices-consts" in b.proto.id]
    at.session_state["dev.constants_open"] = True  # the user opens the section: a rerun draws it
    at.run()
    assert not at.exception
    assert len(at.dataframe) == closed + 1
    shown = at.dataframe[closed].value
    shown = getattr(shown, "data", shown)  # the styled table's frame
    assert len(shown) == len(params_frame()) and "kind" in shown.columns
    assert [b for b in at.get("download_button") if "dl-devices-consts" in b.proto.id]
    assert any("registered constants" in c.value for c in at.caption)


def test_the_form_takes_units_as_the_user_thinks_of_them(monkeypatch):
    """Issue 38 item 8: a unit select next to each latency and bandwidth; the stored profile keeps ns and MB/s."""
    _no_rerun(monkeypatch)
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.text_input[0].set_value("my-units")
    rl = next(t for t in at.text_input if t.label == "Read latency")
    unit = next(s for s in at.selectbox if s.label == "Read latency: unit")
    assert unit.options == ["ns", "µs", "ms"] and unit.value == "ns"
    rl.set_value("120")
    unit.set_value("µs")
    next(t for t in at.text_input if t.label == "Read bandwidth").set_value("2.5")
    next(s for s in at.selectbox if s.label == "Read bandwidth: unit").set_value("GB/s")
    next(t for t in at.text_input if t.label == "Mean seek (HDD only)").set_value("4")
    next(s for s in at.selectbox if s.label == "Mean seek (HDD only): unit").set_value("ms")
    at.button[0].click().run()
    assert not at.exception, [e.message for e in at.exception]
    saved = at.session_state["custom_devices"]["my-units"]
    assert saved["read_latency_ns"] == 120_000.0 and saved["read_bandwidth_MBps"] == 2_500.0
    assert saved["avg_seek_ns"] == 4_000_000.0
    # the range under the field is stated in the unit picked
    caps = [c.value for c in at.caption]
    assert any(c.startswith("allowed:") and "10⁹" in c for c in caps), caps
