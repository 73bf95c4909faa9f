"""CSV exports are safe against spreadsheet formula injection."""

import io

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from app.components.export import csv_bytes, safe_cell


@given(st.text() | st.sampled_from(["-", "+", "-3.5", "+1e3"]))
def test_no_cell_starts_a_formula(s):
    """Only a lone sign may start with a sign (a unit column's "-": no formula)."""
    out = safe_cell(s)
    if isinstance(out, str) and out[:1] in ("=", "+", "-", "@", "\t", "\r"):
        assert out == s and s in ("-", "+")
    if s[:1] not in ("=", "+", "-", "@", "\t", "\r"):
        assert out == s


def test_a_lone_sign_is_not_escaped_but_a_number_as_text_is():
    assert [safe_cell(v) for v in ("-", "+")] == ["-", "+"]
    assert [safe_cell(v) for v in ("-3.5", "-1+2", "-cmd", "+A1")] == ["'-3.5", "'-1+2", "'-cmd", "'+A1"]


def test_csv_bytes_escapes_text_but_not_numbers():
    df = pd.DataFrame({"name": ["=cmd|' /C calc'!A0", "ok", "@SUM(1)"], "v": [-1.5, 2.0, 3.0], "=evil": [1, 2, 3]})
    back = pd.read_csv(io.BytesIO(csv_bytes(df)))
    assert back["name"].tolist() == ["'=cmd|' /C calc'!A0", "ok", "'@SUM(1)"]
    assert back["v"].tolist() == [-1.5, 2.0, 3.0]
    assert "'=evil" in back.columns


def test_csv_bytes_with_duplicate_column_names():
    df = pd.DataFrame([["=a", "+b", 1.0]], columns=["c", "c", "v"])
    assert csv_bytes(df).decode().splitlines() == ["c,c,v", "'=a,'+b,1"]
