"""Inputs once read wrong with exit 0 (issue 42, items 5-8): each reproducer is made here."""

from __future__ import annotations

import pytest

from models.traces import FORMATS, TraceFormatError
from models.traces.detect import detect_source
from models.traces.formats import EXAMPLE_OPTIONS, EXAMPLES, read_lackey, read_mqsim, read_twitter
from models.traces.stats import trace_stats


def test_ambiguous_csv_header_over_tencent_columns_is_refused_naming_both():
    """Item 5: a generic CSV header over 5 numeric columns fits Tencent (header skipped, x512) and CSV."""
    data = b"time,offset,size,is_write,dev\n" + b"".join(b"%d,%d,4096,1,0\n" % (i, i * 4096) for i in range(100))
    with pytest.raises(TraceFormatError, match=r"tencent.*generic CSV") as e:
        detect_source(data)
    assert "--trace-format" in str(e.value)
    # the published Tencent header and header-less Tencent data stay detected
    assert detect_source(b"Timestamp,Offset,Size,IOType,VolumeID\n1538323200,2048,8,1,1283\n")[0] == "tencent"
    assert detect_source(b"1538323200,2048,8,1,1283\n1538323201,0,16,0,7\n")[0] == "tencent"


_TEXT = [f for f in EXAMPLES if f not in ("oraclegeneral", "lcs", "vscsi")]


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


@pytest.mark.parametrize("chunk", [1 << 20, 1, 2])
def test_lackey_bom_keeps_the_first_record(chunk):
    """Item 7: a UTF-8 byte order mark made the first lackey record an unknown line."""
    data = b"\xef\xbb\xbfI  0400d7d4,8\n L 04222cac,4\n"
    assert detect_source(data)[0] == "lackey"
    m = read_lackey(data, chunk_bytes=chunk)
    assert m.address.tolist() == [0x400D7D4, 0x4222CAC]
    # a BOM before a block format's first line, too
    assert len(read_mqsim(b"\xef\xbb\xbf0 0 8 8 1\n1000 1 16 8 0\n", chunk_bytes=chunk)) == 2


def test_lackey_access_over_three_pages_counts_three():
    """Item 7: ``S 1000,12288`` touches pages 1, 2 and 3 (it counted first and last only)."""
    s = trace_stats(read_lackey(b" S 1000,12288\n"), 4096)
    assert s.footprint_pages == 3 and s.data_pages == 3
    s = trace_stats(read_lackey(b" S 1000,12288\n L 3fff,1\nI  0ffc,8\n"), 4096)
    assert (s.footprint_pages, s.data_pages, s.instruction_pages) == (4, 3, 2)


def test_twitter_keys_differing_in_leading_blanks_stay_distinct():
    """Item 8: ``abc`` and `` abc`` were one object (the key's leading blanks were dropped)."""
    t = read_twitter(b"0,abc,3,100,1,get,0\n1, abc,4,100,1,get,0\n2,abc ,4,100,1,get,0\n 3,abc,3,100, 1,get, 0\n")
    assert (t.offset_bytes >> 32).tolist() == [0, 1, 2, 0]
    assert t.meta["n_objects"] == 3
