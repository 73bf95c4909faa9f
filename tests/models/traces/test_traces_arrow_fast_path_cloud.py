"""The Arrow fast path of the Alibaba and Tencent readers reads exactly what their pandas path reads, and refuses
the same input with the same message."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.traces.formats import alibaba, tencent
from models.traces.source import TraceFormatError

_FIELD = st.one_of(st.integers(-5, 10**6).map(str), st.sampled_from(
    ["+5", "007", "0x10", "1e3", "1.0", "", " 5", "5 ", "9223372036854775808", "9223372036854775807", "-0", "R",
     "w", "W ", "2", "#c", '"1"', "nan", "2147483648", "18446744073709551615", "99999999999"]))


def _read(mod, data: bytes, fast: bool, **kw):
    real = mod._fast_columns
    if not fast:
        mod._fast_columns = lambda *a: None
    try:
        t = getattr(mod, f"read_{mod.__name__.rsplit('.', 1)[1]}")(data, chunk_bytes=64, **kw)
    except TraceFormatError as e:
        return ("error", str(e))
    finally:
        mod._fast_columns = real
    return ("ok", t.time_ns.tolist(), t.is_write.tolist(), t.offset_bytes.tolist(), t.size_bytes.tolist(),
            t.device.tolist(), t.meta["time_origin_ns"], t.meta["skipped_zero_size"])


def _alibaba_line(rng) -> list[str]:
    return [str(int(rng.integers(0, 5))), ["R", "W", "r", "w"][int(rng.integers(0, 4))],
            str(4096 * int(rng.integers(0, 10**6))), str(512 * int(rng.integers(0, 17))),
            str(1577808144518333 + int(rng.integers(0, 10**6)))]


def _tencent_line(rng) -> list[str]:
    return [str(1538323200 + int(rng.integers(0, 10**4))), str(int(rng.integers(0, 10**9))),
            str(int(rng.integers(0, 33))), str(int(rng.integers(0, 2))), str(int(rng.integers(0, 3000)))]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 30), bad_row=st.integers(0, 40),
       bad_col=st.integers(0, 4), bad=_FIELD, which=st.sampled_from(["alibaba", "tencent"]))
def test_fast_and_pandas_paths_agree(seed, n, bad_row, bad_col, bad, which):
    rng = np.random.default_rng(seed)
    mod, line = (alibaba, _alibaba_line) if which == "alibaba" else (tencent, _tencent_line)
    rows = [line(rng) for _ in range(n)]
    if bad_row < n:  # one field replaced by an edge case (often refused: then both give the same message)
        rows[bad_row][bad_col] = bad
    data = b"\n".join(",".join(r).encode() for r in rows) + b"\n"
    assert _read(mod, data, True) == _read(mod, data, False)


@pytest.mark.parametrize("mod, data", [(alibaba, b"3,W,4096,8192,1577808144518333\n3,R,0,4096,1577808144518340\n"),
                                       (tencent, b"1538323200,2048,8,1,1283\n1538323201,0,16,0,7\n")])
def test_fast_path_is_taken_for_a_plain_block(monkeypatch, mod, data):
    calls = []
    real = mod._fast_columns
    monkeypatch.setattr(mod, "_fast_columns", lambda *a: calls.append(1) or real(*a))
    fast = _read(mod, data, True)
    assert calls and fast[0] == "ok" and len(fast[1]) == 2
    assert fast == _read(mod, data, False)
