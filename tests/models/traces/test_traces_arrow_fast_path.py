"""The Arrow fast path of the MSR reader reads exactly what the pandas path reads, and refuses the same input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from models.traces.formats import msr
from models.traces.formats.arrow_csv import plain_columns
from models.traces.source import TraceFormatError

_FIELD = st.one_of(st.integers(-5, 10**6).map(str), st.sampled_from(
    ["+5", "007", "0x10", "1e3", "1.0", "", " 5", "5 ", "9223372036854775808", "-0", "Read", "WRITE", "write ",
     "hm", "#c", '"1"', "nan", "2147483648"]))


def _line(rng_fields) -> bytes:
    return ",".join(rng_fields).encode()


def _read(data: bytes, fast: bool):
    real = msr._fast_columns
    if not fast:
        msr._fast_columns = lambda block, state: None
    try:
        t = msr.read_msr(data, chunk_bytes=64)
    except TraceFormatError as e:
        return ("error", str(e))
    finally:
        msr._fast_columns = real
    return ("ok", t.time_ns.tolist(), t.is_write.tolist(), t.offset_bytes.tolist(), t.size_bytes.tolist(),
            t.device.tolist(), list(t.meta.get("response_ns", [])), t.meta.get("hostname"), t.meta["time_origin_ns"],
            t.meta["skipped_zero_size"])


def _valid_line(i: int, rng: np.random.Generator) -> list[str]:
    return [str(128166372003061629 + int(rng.integers(0, 10**6))), "hm", str(int(rng.integers(0, 3))),
            ["Read", "Write", "write"][int(rng.integers(0, 3))], str(4096 * int(rng.integers(0, 10**6))),
            str(512 * int(rng.integers(0, 17))), str(int(rng.integers(0, 10**5)))]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 30), bad_row=st.integers(0, 40),
       bad_col=st.integers(0, 6), bad=_FIELD)
@example(seed=0, n=5, bad_row=4, bad_col=1, bad="nan")  # a later hostname that pandas reads as missing
def test_fast_and_pandas_paths_agree(seed, n, bad_row, bad_col, bad):
    rng = np.random.default_rng(seed)
    rows = [_valid_line(i, rng) for i in range(n)]
    if bad_row < n:  # one field replaced by an edge case (often refused: then both give the same message)
        rows[bad_row][bad_col] = bad
    data = b"\n".join(_line(r) for r in rows) + b"\n"
    assert _read(data, True) == _read(data, False)


def test_plain_columns_refuses_what_pandas_reads_otherwise():
    names, ints = ["a", "b"], ("a", "b")
    for block in (b"0x10,1\n", b"1,2\n\n3,4\n", b"1,2\r\n", b"1, 2\n", b"1,2 # c\n", b'"1",2\n', b"1,2,3\n",
                  b"1,\n", b"1.0,2\n"):
        assert plain_columns(block, names, ints) is None, block
    assert plain_columns(b"1,2\n3,4", names, ints)["b"].tolist() == [2, 4]


def test_fast_path_is_taken_for_a_plain_block(monkeypatch):
    calls = []
    real = msr._fast_columns
    monkeypatch.setattr(msr, "_fast_columns", lambda b, s: calls.append(1) or real(b, s))
    t = msr.read_msr(b"128166372003061629,hm,1,Read,4096,512,10\n128166372003061639,hm,0,Write,0,512,20\n")
    assert calls and len(t) == 2 and t.is_write.tolist() == [False, True]


@pytest.mark.parametrize("data", [b"128166372003061629,hm,1,Read,0x10,512,10\n",
                                  b"128166372003061629,hm,1,Rd,16,512,10\n"])
def test_refused_lines_are_named(data):
    with pytest.raises(TraceFormatError, match="line 1"):
        msr.read_msr(data)
