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


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b" ", b"\t", b"\n", b"#", b"a", b"\r", b"\x1c", b"\xc2\xa0", b"\xe9", b"\x0b", b"1"]),
                max_size=40))
def test_dropped_comment_lines_are_not_data_lines(parts):
    """The compiled pass drops only whole lines the line-by-line rule calls no data, and keeps every data line."""
    from models.traces.formats.parsing import _drop_comment_lines

    block = b"".join(parts)
    out = _drop_comment_lines(block, "#")
    lines = block.split(b"\n")
    data = [ln for ln, keep in zip(lines, _reference(block, "#")) if keep]
    assert [ln for ln, keep in zip(out.split(b"\n"), _reference(out, "#")) if keep] == data
    if out is not block:  # what went were whole lines, each no data
        assert len(out) < len(block) and out.count(b"\n") < block.count(b"\n")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([b"# c\n", b"  # c\n", b" \t\n", b"\n", b"#\xc3\xa9\n", b"0 0 8 8 1\n", b"9 1 16 8 0\n"]),
                max_size=30), st.integers(1, 64), st.booleans())
def test_comment_lines_anywhere_read_as_without_them(lines, chunk, bad):
    """A trace with comment and blank lines anywhere reads as the same requests; an error names the same line."""
    data = b"".join(lines) + (b"0 0 x 8 1\n" if bad else b"")
    bare = b"".join(ln for ln in lines if ln.strip() and not ln.lstrip().startswith(b"#")) + \
        (b"0 0 x 8 1\n" if bad else b"")
    if bad:
        last = data.count(b"\n")
        with pytest.raises(TraceFormatError, match=f"line {last}:"):
            read_trace(data, "mqsim", chunk_bytes=chunk)
        return
    if not bare:
        return
    a, b = read_trace(data, "mqsim", chunk_bytes=chunk), read_trace(bare, "mqsim")
    assert (a.offset_bytes.tolist(), a.size_bytes.tolist(), a.is_write.tolist(), a.time_ns.tolist()) == \
        (b.offset_bytes.tolist(), b.size_bytes.tolist(), b.is_write.tolist(), b.time_ns.tolist())
