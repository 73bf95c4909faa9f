"""Inputs once read wrong with exit 0 (issue 42, items 5-8): each reproducer is made here."""

from __future__ import annotations

import pytest

from models.traces import TraceFormatError
from models.traces.detect import detect_source


def test_ambiguous_csv_header_over_tencent_columns_is_refused_naming_both():
    """Item 5: a generic CSV header over 5 numeric columns fits Tencent (header skipped, x512) and CSV."""
    data = b"time,offset,size,is_write,dev\n" + b"".join(b"%d,%d,4096,1,0\n" % (i, i * 4096) for i in range(100))
    with pytest.raises(TraceFormatError, match=r"tencent.*generic CSV") as e:
        detect_source(data)
    assert "--trace-format" in str(e.value)
    # the published Tencent header and header-less Tencent data stay detected
    assert detect_source(b"Timestamp,Offset,Size,IOType,VolumeID\n1538323200,2048,8,1,1283\n")[0] == "tencent"
    assert detect_source(b"1538323200,2048,8,1,1283\n1538323201,0,16,0,7\n")[0] == "tencent"
