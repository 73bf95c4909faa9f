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

__all__ = ["chunk_sink", "chunk_sink_of"]

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
