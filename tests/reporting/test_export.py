"""CSV exports are safe against spreadsheet formula injection."""

import io

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from app.components.export import csv_bytes, safe_cell


@given(st.text() | st.from_regex(r"[-+][0-9.eE+-]{0,6}", fullmatch=True))
def test_no_cell_starts_a_formula(s):
    """Only a plain number or a lone sign may start with a sign (a spreadsheet reads them as values)."""
    out = safe_cell(s)
    if isinstance(out, str) and out[:1] in ("=", "+", "-", "@", "\t", "\r"):
        assert out == s and s[:1] in "+-" and (len(s) == 1 or float(s) == float(s))
    if s[:1] not in ("=", "+", "-", "@", "\t", "\r"):
        assert out == s


def test_plain_numbers_and_a_lone_sign_are_not_escaped():
    assert [safe_cell(v) for v in ("-", "+", "-3.5", "+1e3", "-.5")] == ["-", "+", "-3.5", "+1e3", "-.5"]
    assert [safe_cell(v) for v in ("-1+2", "-cmd", "+A1", "- 1", "-1e")] == ["'-1+2", "'-cmd", "'+A1", "'- 1", "'-1e"]


def test_csv_bytes_escapes_text_but_not_numbers():
    df = pd.DataFrame({"name": ["=cmd|' /C calc'!A0", "ok", "@SUM(1)"], "v": [-1.5, 2.0, 3.0], "=evil": [1, 2, 3]})
    back = pd.read_csv(io.BytesIO(csv_bytes(df)))
    assert back["name"].tolist() == ["'=cmd|' /C calc'!A0", "ok", "'@SUM(1)"]
    assert back["v"].tolist() == [-1.5, 2.0, 3.0]
    assert "'=evil" in back.columns


def test_csv_bytes_with_duplicate_column_names():
    df = pd.DataFrame([["=a", "+b", 1.0]], columns=["c", "c", "v"])
    assert csv_bytes(df).decode().splitlines() == ["c,c,v", "'=a,'+b,1"]
