"""Cached CSV bytes (app.components.export.CSV_CACHE) are always the bytes of the frame asked for:
frames that write differently never share a key, and a cached answer equals a fresh build."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from app.components import export
from app.components.export import _csv, _frame_key, csv_bytes

_VALUE = st.one_of(st.text(max_size=4), st.none(), st.integers(-3, 3), st.floats(allow_nan=True, width=64),
                   st.booleans(), st.just(np.nan), st.sampled_from(["1", "1.0", "nan", "", "=x", "True"]))


@st.composite
def frames(draw):
    n = draw(st.integers(0, 4))
    cols = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["object", "str", "float", "int", "bool", "category"]))
        if kind == "object":
            cols.append(pd.Series(draw(st.lists(_VALUE, min_size=n, max_size=n)), dtype=object))
        elif kind == "str":
            cols.append(pd.Series(draw(st.lists(st.one_of(st.text(max_size=3), st.none()), min_size=n, max_size=n)),
                                  dtype="str"))
        elif kind == "float":
            cols.append(pd.Series(draw(st.lists(st.floats(width=64), min_size=n, max_size=n)), dtype=float))
        elif kind == "int":
            cols.append(pd.Series(draw(st.lists(st.integers(-2, 2), min_size=n, max_size=n)), dtype="int64"))
        elif kind == "bool":
            cols.append(pd.Series(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool))
        else:
            cols.append(pd.Series(draw(st.lists(st.sampled_from(["a", "b"]), min_size=n, max_size=n)), dtype="category"))
    df = pd.concat(cols, axis=1)
    df.columns = draw(st.lists(st.sampled_from(["a", "b", "1", 1, "=c"]), min_size=len(cols), max_size=len(cols)))
    return df


@settings(max_examples=300, deadline=None)
@given(frames(), frames(), st.lists(st.sampled_from(["# a", "# b"]), max_size=1))
def test_equal_keys_mean_equal_csv(a, b, head):
    ka, kb = _frame_key(a, head), _frame_key(b, head)
    if ka is not None and ka == kb:
        assert _csv(a, head) == _csv(b, head)


@settings(max_examples=200, deadline=None)
@given(frames())
def test_cached_bytes_equal_fresh_bytes(df):
    first = csv_bytes(df)
    assert first == _csv(df, [])
    assert csv_bytes(df) == first  # the second answer may come from the cache


def test_unchanged_frame_is_served_from_the_cache_and_a_change_is_not(monkeypatch):
    monkeypatch.setattr(export, "CSV_CACHE", export._CsvCache())
    df = pd.DataFrame({"name": ["dram", "=x"], "lat_ns": [80.0, 1e5]})
    csv_bytes(df)
    assert len(export.CSV_CACHE._d) == 1
    assert csv_bytes(df.copy()) == _csv(df, [])
    assert len(export.CSV_CACHE._d) == 1  # same content: no new entry
    changed = df.assign(lat_ns=[80.0, 1e5 + 1])
    assert csv_bytes(changed) == _csv(changed, []) != _csv(df, [])
    assert len(export.CSV_CACHE._d) == 2


def test_cache_stays_within_its_bounds():
    cache = export._CsvCache(max_entries=3, max_bytes=100)
    for i in range(10):
        cache.put(str(i), b"x" * 30)
    assert len(cache._d) <= 3 and cache.bytes <= 100
    cache.put("big", b"x" * 101)
    assert cache.get("big") is None
