"""Streaming reads: a consumer takes a trace's columns block by block instead of the whole trace.

Within :func:`chunk_sink`, every reader built on :func:`models.traces.formats.parsing.parse_source`
(the text formats) or :func:`models.traces.formats.objects.read_records` (the binary object
formats) hands each parsed block's columns (``time_ns``, ``is_write``, ``offset_bytes``,
``size_bytes``, ``device``; zero-size requests dropped; times [ns] on the reader's own origin,
not shifted to 0) to the consumer and keeps none of them: memory is the block plus the
consumer's state, whatever the trace's length. The reader returns an empty trace holding the
name and metadata. The sink is a context variable: it applies to the reads of this thread only.

Examples
--------
>>> from models.traces.readers import read_trace
>>> sizes = []
>>> with chunk_sink(lambda cols: sizes.extend(cols["size_bytes"].tolist())):
...     t = read_trace(b"0 0 8 8 1\\n1000 0 16 8 0\\n", "mqsim", chunk_bytes=10)
>>> sizes, len(t)
([4096, 4096], 0)
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
import pandas as pd

__all__ = ["chunk_sink", "chunk_sink_of", "ObjectSlots"]

_SINK: ContextVar[Callable[[dict], None] | None] = ContextVar("chunk_sink", default=None)


@contextmanager
def chunk_sink(consumer: Callable[[dict], None]):
    """Within the block, block-trace readers pass each block's columns to ``consumer`` (see the module docstring)."""
    token = _SINK.set(consumer)
    try:
        yield
    finally:
        _SINK.reset(token)


def chunk_sink_of(kind: str) -> Callable[[dict], None] | None:
    """The consumer of the enclosing :func:`chunk_sink` for a reader of ``kind`` ("block" only), else None."""
    return _SINK.get() if kind == "block" else None


class ObjectSlots:
    """Objects numbered in first-access order across blocks, as :func:`~models.traces.formats.objects.place_objects`
    numbers them over the whole trace: object ``i`` at ``offset_bytes = i << 32``.

    State: the distinct ids seen (sorted) and their numbers, 16 bytes per object.

    >>> s = ObjectSlots("x")
    >>> [s.place({"meta:object_id": np.array(a, np.uint64), "size_bytes": np.array([1] * len(a))})["offset_bytes"]
    ...  .tolist() for a in ([7, 9, 7], [3, 9])]
    [[0, 4294967296, 0], [8589934592, 4294967296]]
    """

    def __init__(self, fmt: str):
        self.fmt = fmt
        self.ids = np.zeros(0, np.uint64)
        self.codes = np.zeros(0, np.int64)

    @property
    def n_objects(self) -> int:
        return len(self.ids)

    def place(self, cols: dict) -> dict:
        """``cols`` with ``offset_bytes`` set from ``meta:object_id`` (which is dropped with the other ``meta:``)."""
        from models.traces.formats.objects import _SLOT_BYTES, MAX_OBJECTS, OBJECT_SLOT_BITS
        from models.traces.source import TraceFormatError

        ids = np.asarray(cols["meta:object_id"], np.uint64)
        big = cols["size_bytes"] > _SLOT_BYTES
        if big.any():
            raise TraceFormatError(f"{self.fmt}: object size {int(cols['size_bytes'][np.argmax(big)]):,} bytes is "
                                   f"larger than the {_SLOT_BYTES:,}-byte slot an object is given")
        local, uniq = pd.factorize(ids, sort=False)
        uniq = np.asarray(uniq, np.uint64)
        pos = np.searchsorted(self.ids, uniq)
        found = pos < len(self.ids)
        found[found] = self.ids[pos[found]] == uniq[found]
        code = np.empty(len(uniq), np.int64)
        code[found] = self.codes[pos[found]]
        new = np.flatnonzero(~found)  # in first-access order: numbered after every object seen before
        code[new] = len(self.ids) + np.arange(len(new))
        if len(new):
            order = np.argsort(uniq[new], kind="stable")
            at = np.searchsorted(self.ids, uniq[new][order])
            self.ids = np.insert(self.ids, at, uniq[new][order])
            self.codes = np.insert(self.codes, at, code[new][order])
        if len(self.ids) > MAX_OBJECTS:
            raise TraceFormatError(f"{self.fmt}: more than {MAX_OBJECTS:,} distinct objects")
        out = {k: v for k, v in cols.items() if not k.startswith("meta:")}
        out["offset_bytes"] = code[local] << np.int64(OBJECT_SLOT_BITS)
        return out
