"""The fast sanitizer (a string column without a dangerous cell is kept as it is) gives exactly the
frame of mapping ``safe_cell`` over every text column, the plain definition kept here as the reference."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models import csv_safety
from reporting.csv_safety import safe_cell, sanitize_frame


def reference(df: pd.DataFrame) -> pd.DataFrame:
    """Per-cell definition: every text column mapped through :func:`safe_cell`."""
    out = df.copy()
    out.columns = [safe_cell(str(c)) for c in out.columns]
    for i in range(out.shape[1]):
        col = out.iloc[:, i]
        if col.dtype == object or pd.api.types.is_string_dtype(col):
            out.isetitem(i, col.map(safe_cell))
    return out


_PREFIX = st.sampled_from(["", "", "", "=", "+", "-", "@", "\t", "\r", "'", " ", "a"])
_TEXT = st.builds(lambda p, t: p + t, _PREFIX, st.text(max_size=6))
_CELL = st.one_of(_TEXT, st.none(), st.integers(-5, 5), st.floats(allow_nan=True, allow_infinity=False),
                  st.just(np.nan))
_DTYPES = ["str", "string", "string[pyarrow]", pd.StringDtype("python", na_value=np.nan), object, None]


@st.composite
def frames(draw):
    n = draw(st.integers(0, 8))
    names = draw(st.lists(st.one_of(_TEXT, st.integers(0, 3)), min_size=1, max_size=4))
    data = []
    for _ in names:
        kind = draw(st.sampled_from(["text", "mixed", "float", "int", "bool", "category"]))
        if kind == "text":
            vals = draw(st.lists(st.one_of(_TEXT, st.none()), min_size=n, max_size=n))
            dtype = draw(st.sampled_from(_DTYPES))
            data.append(pd.Series(vals, dtype=dtype))
        elif kind == "mixed":
            data.append(pd.Series(draw(st.lists(_CELL, min_size=n, max_size=n)), dtype=object))
        elif kind == "float":
            data.append(pd.Series(draw(st.lists(st.floats(allow_nan=True), min_size=n, max_size=n)), dtype=float))
        elif kind == "int":
            data.append(pd.Series(draw(st.lists(st.integers(-9, 9), min_size=n, max_size=n)), dtype="int64"))
        elif kind == "bool":
            data.append(pd.Series(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool))
        else:
            data.append(pd.Series(draw(st.lists(_TEXT, min_size=n, max_size=n)), dtype="category"))
    df = pd.concat(data, axis=1) if data else pd.DataFrame()
    df.columns = names  # duplicates allowed: the sanitizer works by position
    return df


def _differences(a: pd.DataFrame, b: pd.DataFrame) -> list[str]:
    """What differs between two frames, column by column by position (names, dtypes, exact values); [] if none."""
    if list(a.columns) != list(b.columns):
        return [f"columns {list(a.columns)} != {list(b.columns)}"]
    if list(a.dtypes) != list(b.dtypes):
        return [f"dtypes {list(a.dtypes)} != {list(b.dtypes)}"]
    out = []
    for i in range(a.shape[1]):
        try:
            pd.testing.assert_series_equal(a.iloc[:, i], b.iloc[:, i], check_exact=True)
        except AssertionError as e:
            out.append(f"column {i}: {e}")
    return out


def _same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    diff = _differences(a, b)
    assert not diff, diff


@settings(max_examples=300, deadline=None)
@given(frames())
def test_fast_sanitizer_equals_the_per_cell_definition(df):
    before = df.copy()
    assert _differences(sanitize_frame(df), reference(df)) == []
    assert _differences(df, before) == []  # the input is never changed


@pytest.mark.parametrize("rows", [3, csv_safety._VECTOR_ROWS + 1])
@pytest.mark.parametrize("dtype", ["str", "string", "string[pyarrow]", object])
def test_dangerous_cell_found_in_small_and_large_columns(rows, dtype):
    vals = ["ok"] * rows
    vals[-1] = "=CMD()"
    df = pd.DataFrame({"a": pd.Series(vals, dtype=dtype), "b": np.arange(rows)})
    out = sanitize_frame(df)
    assert out["a"].iloc[-1] == "'=CMD()" and out["a"].iloc[0] == "ok"
    assert df["a"].iloc[-1] == "=CMD()"  # a copy
    _same(out, reference(df))


def test_clean_frame_changing_the_copy_leaves_the_input():
    df = pd.DataFrame({"a": ["x", "y"], "b": [1.0, 2.0]})
    out = sanitize_frame(df)
    out.iloc[0, 0] = "changed"
    out.iloc[0, 1] = 9.0
    assert df.iloc[0, 0] == "x" and df.iloc[0, 1] == 1.0


@settings(max_examples=200, deadline=None)
@given(frames())
def test_vectorised_check_equals_the_per_cell_definition(df):
    """The check large columns use (pandas' vectorised ``str``), tried on every column."""
    saved = csv_safety._VECTOR_ROWS
    csv_safety._VECTOR_ROWS = 0
    try:
        assert _differences(sanitize_frame(df), reference(df)) == []
    finally:
        csv_safety._VECTOR_ROWS = saved
