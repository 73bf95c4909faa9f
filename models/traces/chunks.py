"""Streaming reads: a consumer takes a trace's columns block by block instead of the whole trace.

Within :func:`chunk_sink` (``kind="block"``, the default), every reader built on :func:`models.traces.formats.parsing.parse_source`
(the text formats) or :func:`models.traces.formats.objects.read_records` (the binary object
formats) hands each parsed block's columns (``time_ns``, ``is_write``, ``offset_bytes``,
``size_bytes``, ``device``; zero-size requests dropped; times [ns] on the reader's own origin,
not shifted to 0) to the consumer and keeps none of them: memory is the block plus the
consumer's state, whatever the trace's length. The reader returns an empty trace holding the
name and metadata. The sink is a context variable: it applies to the reads of this thread only.

Within ``chunk_sink(consumer, kind="memory")`` the memory-trace readers (valgrind lackey text through
:func:`~models.traces.formats.parsing.parse_source`, the compact ``.npz`` format read in slices of its
arrays: :func:`models.traces.formats.npz.read_memtrace_npz`) hand each block's
:class:`~models.traces.core.MemTrace` columns (``address`` uint64 [bytes], ``size`` uint16 [bytes], ``kind``
uint8: 0 I, 1 L, 2 S, 3 M) in order and keep none; they return an empty MemTrace with the name and metadata.
A sink of one kind is not handed to a reader of the other (a block consumer given a memory trace gets the
whole trace back, as before).

Examples
--------
>>> from models.traces.readers import read_trace
>>> sizes = []
>>> with chunk_sink(lambda cols: sizes.extend(cols["size_bytes"].tolist())):
...     t = read_trace(b"0 0 8 8 1\\n1000 0 16 8 0\\n", "mqsim", chunk_bytes=10)
>>> sizes, len(t)
([4096, 4096], 0)
>>> kinds = []
>>> with chunk_sink(lambda cols: kinds.extend(cols["kind"].tolist()), kind="memory"):
...     m = read_trace(b"I  0400d7d4,8\\n L 04222cac,4\\n", "lackey")
>>> kinds, len(m)
([0, 1], 0)
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["KINDS", "chunk_sink", "chunk_sink_of"]

#: The trace kinds a sink takes.
KINDS = ("block", "memory")
_SINK: ContextVar[tuple[str, Callable[[dict], None]] | None] = ContextVar("chunk_sink", default=None)


@contextmanager
def chunk_sink(consumer: Callable[[dict], None], kind: str = "block"):
    """Within the block, the readers of ``kind`` traces (``"block"`` or ``"memory"``) pass each block's columns
    to ``consumer`` (see the module docstring)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)} (got {kind!r})")
    token = _SINK.set((kind, consumer))
    try:
        yield
    finally:
        _SINK.reset(token)


def chunk_sink_of(kind: str) -> Callable[[dict], None] | None:
    """The consumer of the enclosing :func:`chunk_sink` when it takes traces of ``kind``, else None."""
    got = _SINK.get()
    return got[1] if got is not None and got[0] == kind else None
