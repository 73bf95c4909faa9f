"""Custom devices that persist: the device CSV (catalogue schema) and the compact URL encoding."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models import devices as dv
from models.provenance import PUBLISHED, USER_DEFINED

_NAMES = st.from_regex(r"[a-z][a-z0-9\-]{0,20}", fullmatch=True).filter(lambda n: n not in dv.device_names())
_LAT = st.floats(min_value=1.0, max_value=1e9, allow_nan=False)
_LABELS = st.text(max_size=40)


@st.composite
def custom_devices(draw, labels=_LABELS):
    """A catalogue device edited the way the devices form does (name, label, some values changed)."""
    base = dv.get_device(draw(st.sampled_from(sorted(dv.device_names()))))
    changes = {"name": draw(_NAMES), "label": draw(labels)}
    if draw(st.booleans()):
        changes["read_latency_ns"] = draw(_LAT)
    if draw(st.booleans()):
        changes["write_latency_ns"] = draw(_LAT)
    if draw(st.booleans()):
        changes["endurance_writes_per_cell"] = draw(st.none() | st.floats(min_value=1.0, max_value=1e12))
    if draw(st.booleans()):
        changes["source"] = f"user-defined (from {base.name})"
    return base.with_updates(**changes)


@settings(max_examples=40)
@given(st.lists(custom_devices(), min_size=1, max_size=3, unique_by=lambda d: d.name))
def test_url_encoding_round_trips(devs):
    text = dv.encode_devices(devs)
    assert set(text) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")  # URL-safe
    assert dv.decode_devices(text) == devs


@settings(max_examples=40)
@given(custom_devices())
def test_one_device_link_stays_short(dev):
    # a label of up to 40 arbitrary characters and four changed values: the link must stay shareable
    assert len(dv.encode_devices([dev])) < 400


def test_url_encoding_stores_only_the_changes():
    base = dv.get_device("optane-dcpmm")
    mine = base.with_updates(name="my-optane", write_latency_ns=500.0, source="user-defined (from optane-dcpmm)")
    whole = dv.DeviceProfile.model_validate({**base.model_dump(), "name": "x"})
    assert len(dv.encode_devices([mine])) < len(dv.encode_devices([whole])) + 40
    back = dv.decode_devices(dv.encode_devices([mine]))[0]
    assert back.value_kind("write_latency_ns") == USER_DEFINED and back.value_kind("read_latency_ns") == PUBLISHED


@pytest.mark.parametrize("text, message", [
    ("2.abc", "unknown encoding"),
    ("nodot", "unknown encoding"),
    ("1.!!!!", "damaged"),
    ("1." + "A" * 30, "damaged"),
])
def test_bad_device_links_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        dv.decode_devices(text)


def _encode_raw(items) -> str:
    import base64
    import json
    import zlib

    return "1." + base64.urlsafe_b64encode(zlib.compress(json.dumps(items).encode())).decode().rstrip("=")


def test_device_link_with_a_bad_value_names_device_and_field():
    with pytest.raises(ValueError, match=r"device 1 \(x\): read_latency_ns: Input should be greater than 0"):
        dv.decode_devices(_encode_raw([{"b": "dram", "name": "x", "read_latency_ns": -1}]))
    with pytest.raises(ValueError, match="unknown base device 'nope'"):
        dv.decode_devices(_encode_raw([{"b": "nope"}]))


def test_device_link_decompression_is_bounded():
    import base64
    import zlib

    bomb = "1." + base64.urlsafe_b64encode(zlib.compress(b"[" + b" " * (1 << 22) + b"]")).decode()
    with pytest.raises(ValueError, match="too large"):
        dv.decode_devices(bomb)


#: CSV cells are read stripped of surrounding blanks, and a label has no control characters.
_CSV_LABELS = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=40).map(str.strip)


@settings(max_examples=30)
@given(st.lists(custom_devices(_CSV_LABELS), min_size=1, max_size=4, unique_by=lambda d: d.name))
def test_csv_round_trips(devs):
    back = dv.devices_from_csv(dv.devices_to_csv(devs))
    assert list(back.values()) == devs


def test_catalogue_csv_round_trips_every_bundled_device():
    cat = dv.load_catalogue()
    back = dv.devices_from_csv(dv.devices_to_csv(cat.values()))
    assert back == cat


def test_csv_export_is_formula_safe_and_reads_back():
    mine = dv.get_device("dram").with_updates(name="=cmd", label="@SUM(A1)", source="+1 datasheet")
    text = dv.devices_to_csv([mine])
    row = text.splitlines()[1]
    assert row.startswith("'=cmd,") and ",'@SUM(A1)," in row and "'+1 datasheet" in row
    assert dv.devices_from_csv(text)["=cmd"] == mine


def test_csv_minimal_columns_are_user_defined():
    d = dv.devices_from_csv("# my drives\nname,read_latency_ns,write_latency_ns\nfast,100,200\n")["fast"]
    assert d.value_kind("read_latency_ns") == USER_DEFINED and d.source.startswith("user-defined")


@pytest.mark.parametrize("text, message", [
    ("name,read_latency_ns,write_latency_ns\nx,1,-5\n", r"row 1 \(x\): column write_latency_ns: Input should be greater"),
    ("name,read_latency_ns,write_latency_ns\na,1,1\nb,1,1\nb,2,2\n", r"row 3 \(b\): duplicate device name"),
    ("name,read_latency_ns\nx,1\n", "missing column.*write_latency_ns"),
    ("name,read_latency_ns,write_latency_ns,colour\nx,1,1,red\n", "unknown column.*'colour'"),
    ("name,read_latency_ns,write_latency_ns,provenance\nx,1,1,read_latency_ns=guessed\n",
     r"row 1 \(x\): provenance: read_latency_ns: unknown provenance kind 'guessed'"),
    ("name,read_latency_ns,write_latency_ns,kind\nx,1,1,floppy\n", r"row 1 \(x\): column kind: Input should be"),
    ("", "not a CSV table"),
])
def test_bad_csv_names_row_and_column(text, message):
    with pytest.raises(ValueError, match=message) as e:
        dv.devices_from_csv(text, where="my.csv")
    assert str(e.value).startswith("my.csv")


def test_csv_bytes_must_be_text():
    with pytest.raises(ValueError, match="not UTF-8"):
        dv.devices_from_csv(b"\xff\xfe\x00name")
