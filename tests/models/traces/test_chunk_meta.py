"""A streaming read (models/traces/chunks.py) returns the metadata the whole trace carries: ``op_unknown`` of a
format without operations, the time origin, the reader's own keys (issue 41: the planner's streamed roles read
them)."""

from __future__ import annotations

import numpy as np
import pytest

from models.traces.chunks import chunk_sink
from models.traces.formats.oracle import write_oracle_general
from models.traces.readers import read_trace

MSR = b"128166372003061629,hm,0,Write,4096,512,10\n128166372003061000,hm,1,Read,8192,4096,9\n"
CSV = b"t,off,sz\n5,0,4096\n3,4096,512\n"


@pytest.mark.parametrize("src, fmt, opts", [
    (MSR, "msr", {}),
    (b"0 0 8 8 1\n1000 0 16 8 0\n", "mqsim", {}),
    (CSV, "csv", {"time_col": "t", "offset_col": "off", "size_col": "sz"}),
    (write_oracle_general(np.arange(10) + 7, np.arange(10) % 3, np.full(10, 100)), "oracleGeneral", {}),
])
def test_a_streamed_read_keeps_the_whole_traces_metadata(src, fmt, opts):
    whole = read_trace(src, fmt, **opts)
    with chunk_sink(lambda cols: None):
        empty = read_trace(src, fmt, chunk_bytes=16, **opts)
    assert len(empty) == 0
    assert empty.meta == {k: v for k, v in whole.meta.items() if not isinstance(v, np.ndarray)}
    assert empty.op_known == whole.op_known
