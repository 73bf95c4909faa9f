"""blkparse text output (Linux blktrace): one event per line, one action kept.

References
----------
blkparse(1) manual, blktrace package (default output format ``%D %2c %8s %5T.%9t %5p %2a %3d``).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from models.traces.core import BlockTrace
from models.traces.formats.parsing import (
    Chunk,
    SubChunk,
    finish_chunk,
    parse_source,
    read_frame,
    scaled_column,
    time_column_ns,
)
from models.traces.source import CHUNK_BYTES, MAX_INPUT_BYTES, MAX_LINE_BYTES

__all__ = ["read_blkparse", "DESCRIPTION", "PATTERN"]

DESCRIPTION = "blkparse text output (action Q by default)"
#: An event line, for format detection.
PATTERN = r"^\s*\d+,\d+\s+\d+\s+\d+\s+\d+\.\d+\s+\d+\s+[A-Za-z]{1,2}\b"
_FIELDS = ["dev", "cpu", "seq", "time", "pid", "action", "rwbs", "sector", "plus", "count"]


def read_blkparse(src, *, action: str = "Q", name: str | None = None, max_requests: int | None = None,
                  progress=None, chunk_bytes: int = CHUNK_BYTES,
                max_line_bytes: int = MAX_LINE_BYTES, max_input_bytes: int = MAX_INPUT_BYTES) -> BlockTrace:
    """Read blkparse's default text output, keeping the events of one ``action``.

    Event lines look like ``8,0 3 1 0.000000000 697 Q R 223490 + 8 [kjournald]``: device
    major,minor, CPU, sequence, time [s], PID, action, RWBS, sector + count (512-byte
    sectors). Only events of ``action`` (default ``Q``, queued; ``D`` issued, ``C`` completed)
    with a ``sector + count`` are kept; RWBS containing ``D`` (discard) is skipped, containing
    ``W`` is a write, containing ``R`` a read (others such as flush-only are skipped). Message
    and summary lines are ignored. Devices are numbered 0.. in order of appearance
    (``meta["devices"]`` maps the numbers to ``major,minor``).

    Examples
    --------
    >>> t = read_blkparse(b"8,0 3 1 0.5 697 Q W 8 + 8 [x]\\n8,0 3 2 0.6 697 C W 8 + 8 [0]\\n")
    >>> len(t), t.is_write.tolist(), t.offset_bytes.tolist(), t.meta["devices"]
    (1, [True], [4096], ['8,0'])
    """
    action = str(action).strip()
    if not re.fullmatch(r"[A-Za-z]{1,2}", action):
        raise ValueError(f"action must be a blktrace action letter such as Q, D or C (got {action!r})")

    def parse(block, line0, state):
        ck = Chunk("blkparse", block, line0, comment=None)
        df = read_frame(ck, _FIELDS, r"\s+", usecols=_FIELDS, dtype=str, short_rows=True)
        if not len(df):
            return None
        is_ev = df["dev"].str.fullmatch(r"\d+,\d+", na=False) & (df["action"] == action) & (df["plus"] == "+")
        rwbs = df["rwbs"].fillna("")
        keep = (is_ev & ~rwbs.str.contains("D", regex=False) & rwbs.str.contains("[RW]", regex=True)).to_numpy()
        idx = np.flatnonzero(keep)
        sub = df.iloc[idx].reset_index(drop=True)
        sub_ck = SubChunk(ck, idx)
        devs = state.setdefault("devs", {})
        codes, uniq = pd.factorize(sub["dev"])
        remap = np.array([devs.setdefault(u, len(devs)) for u in uniq], dtype=np.int32)
        state.setdefault("meta", {})["devices"] = list(devs)
        cols = {
            "time_ns": time_column_ns(sub, "time", "time", sub_ck, "s"),
            "is_write": sub["rwbs"].str.contains("W", regex=False).to_numpy(dtype=bool),
            "offset_bytes": scaled_column(sub, "sector", "sector", sub_ck, 512),
            "size_bytes": scaled_column(sub, "count", "count", sub_ck, 512),
            "device": remap[codes] if len(codes) else np.zeros(0, np.int32),
        }
        return finish_chunk(sub_ck, cols, "sector", "count")

    return parse_source(src, parse, fmt="blkparse", name=name, max_requests=max_requests, progress=progress,
                        chunk_bytes=chunk_bytes, max_line_bytes=max_line_bytes,
                        max_input_bytes=max_input_bytes, meta={"action": action})
