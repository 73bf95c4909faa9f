"""A plan's block-trace role over a trace taken chunk by chunk, in memory bounded by its state (issue 41).

A trace longer than memory allows is read twice as column chunks (:mod:`models.traces.chunks`) instead of
loaded whole. Each block role (file cache, write cache, storage replay) that can stream gives a
:class:`RoleStream`: it sees every chunk of the first pass (what it must know before it simulates: the
footprint, the written blocks, ...), then every chunk of the second (the simulation, its state carried
across chunks), then makes the same rows its in-memory function makes from the whole trace
(``<role>_rows(w, tr, devs, base, uq)``) -- exactly for counts, to floating-point summation order for
sums (``tests/models/planner/test_role_streams.py`` checks both over random chunk sizes).

The chunk columns (:class:`Chunk`) are the reader's: ``time_ns`` (int64, **already shifted** so the
trace's earliest request is at 0, as :class:`~models.traces.core.BlockTrace` is: the driver learns the
origin in the first pass and subtracts it in both -- in the first pass ``time_ns`` is on the reader's own
origin), ``is_write`` (bool), ``offset_bytes`` (int64), ``size_bytes`` (int64, > 0), ``device`` (int32);
chunks arrive in trace order, each of >= 1 request, of any length (a request is never split across two
chunks, but the blocks of one request may be many).

Memory (issue 41): a stream gives ``state_bytes`` (its state now [bytes], a block table it shares included) and may give
``holds``: the :class:`~models.budget.Hold` of each state it uses, each state's bytes held once by its own hold (a block
table shared by several streams holds its own bytes: the same hold in each sharer's ``holds``; without ``holds`` the
driver holds ``state_bytes``); it takes ``state_share`` (set by the driver before the first
pass to ``1/k``, ``k`` the distinct states): a stream that can sample keeps its state under ``state_share`` x the
run's budget by falling back to a sample, and says so in ``sampling`` (None when exact, else a dict ``method``,
``rate``, ``why``, ``error``); the driver runs each call with the other streams' state held
(:func:`models.budget.reserve`; the live holds summed), so their sum is checked against the budget. All are optional
(a stream without them counts 0 and never samples).

``meta`` is the trace's metadata as the in-memory reader would give it (``BlockTrace.meta``:
``op_unknown`` when the format has no read/write field, ``time_origin_ns``, ...), known once the first
pass has ended; the driver hands it to :meth:`RoleStream.rows` with an empty
:class:`~models.traces.core.BlockTrace` carrying the name and metadata.
"""

from __future__ import annotations

from typing import Protocol, TypedDict, runtime_checkable

import numpy as np

__all__ = ["Chunk", "RoleStream", "trace_chunks"]


class Chunk(TypedDict):
    """One chunk of a block trace's columns (see the module docstring)."""

    time_ns: np.ndarray
    is_write: np.ndarray
    offset_bytes: np.ndarray
    size_bytes: np.ndarray
    device: np.ndarray


@runtime_checkable
class RoleStream(Protocol):
    """A block role evaluated over a trace's chunks (see the module docstring)."""

    #: The plan role (``"file-cache"``, ``"write-cache"`` or ``"storage"``).
    role: str

    def first(self, chunk: Chunk) -> None:
        """Take a chunk of the first pass (times on the reader's origin)."""

    def end_first(self, meta: dict, t_min_ns: int) -> None:
        """The first pass has ended: the trace's metadata and its earliest arrival [ns, reader's origin]."""

    def second(self, chunk: Chunk) -> None:
        """Take a chunk of the second pass (times shifted to the trace's start)."""

    def rows(self, w, meta_trace, devs, base, uq) -> list[dict]:
        """The role's rows, as ``<role>_rows(w, tr, devs, base, uq)`` gives them for the whole trace ``tr``
        (``meta_trace``: an empty BlockTrace with the trace's name and metadata)."""


def trace_chunks(tr, sizes) -> list[Chunk]:
    """The requests of BlockTrace ``tr`` cut into chunks of the given lengths (cycled; tests and the in-memory
    path): shifted times, as a second pass gives them.

    >>> from models.traces.core import BlockTrace
    >>> tr = BlockTrace([0, 5, 9], [0, 1, 0], [0, 4096, 0], [4096, 4096, 512], [0, 0, 0])
    >>> [len(c["time_ns"]) for c in trace_chunks(tr, [2])]
    [2, 1]
    """
    sizes = [int(s) for s in sizes]
    if not sizes or min(sizes) < 1:
        raise ValueError(f"chunk sizes must be whole numbers >= 1, got {sizes!r}")
    out, i, k = [], 0, 0
    n = len(tr)
    while i < n:
        j = min(n, i + sizes[k % len(sizes)])
        out.append(Chunk(time_ns=tr.time_ns[i:j], is_write=tr.is_write[i:j], offset_bytes=tr.offset_bytes[i:j],
                         size_bytes=tr.size_bytes[i:j], device=tr.device[i:j]))
        i, k = j, k + 1
    return out
