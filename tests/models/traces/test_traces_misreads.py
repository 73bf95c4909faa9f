"""Inputs once read wrong with exit 0 (issue 42, items 5-8): each reproducer is made here."""

from __future__ import annotations

import pytest

from models.traces import FORMATS, TraceFormatError
from models.traces.detect import detect_source
from models.traces.formats import EXAMPLE_OPTIONS, EXAMPLES


def test_ambiguous_csv_header_over_tencent_columns_is_refused_naming_both():
    """Item 5: a generic CSV header over 5 numeric columns fits Tencent (header skipped, x512) and CSV."""
    data = b"time,offset,size,is_write,dev\n" + b"".join(b"%d,%d,4096,1,0\n" % (i, i * 4096) for i in range(100))
    with pytest.raises(TraceFormatError, match=r"tencent.*generic CSV") as e:
        detect_source(data)
    assert "--trace-format" in str(e.value)
    # the published Tencent header and header-less Tencent data stay detected
    assert detect_source(b"Timestamp,Offset,Size,IOType,VolumeID\n1538323200,2048,8,1,1283\n")[0] == "tencent"
    assert detect_source(b"1538323200,2048,8,1,1283\n1538323201,0,16,0,7\n")[0] == "tencent"


_TEXT = [f for f in EXAMPLES if f not in ("oraclegeneral", "lcs")]


def _read(fmt, data, **kw):
    return FORMATS[fmt].reader(data, **EXAMPLE_OPTIONS.get(fmt, {}), **kw)


@pytest.mark.parametrize("fmt", _TEXT)
@pytest.mark.parametrize("chunk", [1 << 20, 1, 5])
def test_lone_cr_then_whitespace_line_drops_no_request(fmt, chunk):
    """Item 6: a lone CR ended a line for pandas only; a whitespace-only line after it then dropped a record."""
    lines = EXAMPLES[fmt].rstrip(b"\n").split(b"\n")
    want = _read(fmt, EXAMPLES[fmt])
    data = b"\n".join(lines[:2]) + b"\n\r" + b"\n".join(lines[2:-1]) + b"\n \n" + lines[-1] + b"\n"
    got = _read(fmt, data, chunk_bytes=chunk)
    assert len(got) == len(want)
    # a CR ending one read and the LF starting the next are one CRLF, not a blank line plus a line end
    crlf = EXAMPLES[fmt].replace(b"\n", b"\r\n")
    assert len(_read(fmt, crlf, chunk_bytes=chunk)) == len(want)
