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
    assert prov.loc["cxl-memexp"].iloc[1:].tolist().count("assumed") == 2  # its read and write latency


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
