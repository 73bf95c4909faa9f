"""Blank, whitespace and comment lines are skipped at NumPy/C speed, and line numbers stay right (issue 42 item 3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.traces.formats.parsing import _trim_blank_lines
from models.traces.readers import read_trace
from models.traces.source import TraceFormatError, data_line_mask


def _reference(block: bytes, comment):
    out = []
    for raw in block.decode("utf-8", errors="replace").split("\n"):
        text = raw.rstrip("\r")
        body = text.split(comment, 1)[0] if comment else text
        out.append(bool(body.strip()))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b" ", b"\t", b"\n", b"#", b"a", b"\r", b"\x1c", b"\xc2\xa0", b"\xe9", b"\x0b"]),
                max_size=40), st.sampled_from(["#", None]))
def test_data_line_mask_is_the_line_by_line_rule(parts, comment):
    block = b"".join(parts)
    assert data_line_mask(block, comment).tolist() == _reference(block, comment)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([b" ", b"\n", b"\r\n", b"1", b"\t"]), max_size=30), st.integers(1, 50))
def test_trimmed_block_keeps_its_rows_and_line_numbers(parts, line0):
    block = b"".join(parts)
    out, first = _trim_blank_lines(block, line0)
    lines = block.split(b"\n")
    kept = [(line0 + i, ln) for i, ln in enumerate(lines) if ln.strip()]
    assert [(first + i, ln) for i, ln in enumerate(out.split(b"\n")) if ln.strip()] == kept


@pytest.mark.parametrize("flood", [b"\n", b"   \n", b"\t\r\n", b"# note\n", b"  # note\n"])
@pytest.mark.parametrize("fmt, line", [("mqsim", b"0 0 8 8 1\n"),
                                       ("msr", b"128166372003061629,hm,1,Read,4096,512,10\n")])
def test_a_flood_between_requests_drops_none_and_numbers_lines(fmt, line, flood):
    n = (2 << 20) // len(flood)  # 2 MiB of filler, across several blocks of 256 KiB
    data = line + flood * n + line
    t = read_trace(data, fmt, chunk_bytes=256 << 10)
    assert len(t) == 2
    bad = line.replace(b"8", b"x", 1) if fmt == "mqsim" else line.replace(b"Read", b"Rd")
    with pytest.raises(TraceFormatError, match=f"line {n + 2}:"):
        read_trace(line + flood * n + bad, fmt, chunk_bytes=256 << 10)
