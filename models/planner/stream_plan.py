"""A plan's block roles over a trace of any length: the trace read twice as column chunks (issue 41).

:func:`models.planner.plan.plan` loads a block trace whole when it is small (its file at most
:data:`IN_MEMORY_MAX_BYTES`, its whole read within the run's memory
budget) and otherwise plans it here, without cutting it: :func:`stream_block_rows` reads the workload's file
twice with :func:`models.traces.chunks.chunk_sink` (the readers hand each parsed block's columns to the
driver and keep none), feeds every role's :class:`~models.planner.role_stream.RoleStream` the first pass
(``first``), then ``end_first(meta, t_min)``, then the second pass with the times shifted by the trace's
earliest arrival (int64, as :class:`~models.traces.core.BlockTrace` shifts them), and collects each role's rows
(the driver, shared with the memory roles: :func:`models.planner.two_pass.two_pass_rows`).
Memory is the reader's block plus the streams' state, whatever the trace's length.

The streams' states are summed against the run's memory budget: each stream's calls run with the other streams'
state held (:func:`models.budget.reserve`): every state's bytes are held once, by a :class:`~models.budget.Hold`
of its own (a stream's ``holds``; a block table shared by two streams holds its own bytes, the one hold both
streams name), and the driver sums the live holds (:func:`others_state`), so two states each
under the budget but over it together are refused; and before the first pass each stream's ``state_share`` is set to
``1/k`` (``k`` distinct states): a stream that can sample (the block roles' shared
:class:`~models.traces.block_table.BlockTable`) falls back to a SHARDS spatial sample of the blocks rather than pass
that share, and its rows say so (``method``, ``sample_rate`` and the reason: :func:`mark_sampling`).

The stream class of each block role is named in :data:`STREAM_ROLES` (``role -> "module:Class"``, the class
built as ``cls(devs, base, bands=...)``: the compared devices and the baseline, None for like-for-like). A role
without one has no streamed answer: its rows read ``needs data`` and say why
(never a verdict from a cut trace). :class:`CollectingStream` gathers the second pass into a whole trace and
calls the role's in-memory function (memory unbounded: a reference for tests, used for a role without a class
only when the environment variable :data:`COLLECTING_ENV` is ``1``).

A source is read twice: a path, ``bytes`` or a seekable binary file object; a stream that cannot seek is
refused (:func:`check_rereadable`).

>>> from models.devices import get_device
>>> from models.planner.plan import workload_from_path
>>> from models.planner.role_storage import block_storage_rows
>>> w = workload_from_path("mqsim:tpcc-small")
>>> got = stream_block_rows(w, [CollectingStream(block_storage_rows, "storage")], [get_device("pcm-samsung-20nm")],
...                         None, None)
>>> got.requests_used, got.requests_read, got.rows[0]["role"], got.rows[0]["verdict"]
(6999, 6999, 'storage', 'wins')
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from models.budget import charge, format_bytes
from models.planner.role_stream import Chunk, RoleStream
from models.planner.two_pass import (
    FirstPassEnd,
    StreamedRows,
    mark_sampling,
    others_state,
    share_states,
    source_bytes,
    state_groups,
    two_pass_rows,
)

__all__ = ["STREAM_ROLES", "ROWS_OF", "IN_MEMORY_MAX_BYTES", "COLLECTING_ENV", "CollectingStream", "StreamedRows",
           "role_streams", "stream_block_rows", "too_large_why", "check_rereadable", "source_bytes", "stream_source",
           "state_groups", "others_state", "share_states", "mark_sampling"]

#: Largest block trace file [bytes on disk, compressed or not] a plan loads whole in memory; a larger one is
#: streamed (:func:`stream_block_rows`), as is a smaller one whose in-memory read is refused (more than
#: the run's memory budget). The work limit that decides it, in bytes.
#: 32 MiB: the densest trace file measured, a gzip MSR CSV of ``bench/_gen_msr.py``, holds ~15.5 bytes per request
#: (2 M requests in 31 MB), and the in-memory plan of those 2 M requests peaked at 980 MB RSS
#: (``bench/bench_stream.py --plan-sizes 2000000 --plan-compare``, 2026-12-05): a file under the limit stays near
#: the default 1 GiB budget in memory.
IN_MEMORY_MAX_BYTES = 32 << 20
#: ``1``: a block role without a stream class is streamed by :class:`CollectingStream` (tests only).
COLLECTING_ENV = "PCM_TEST_COLLECTING_STREAMS"

#: The stream class of each block role (``"module:Class"``, built as ``cls(devs, base, bands=...)``), None: the role does not
#: stream yet (its rows then read ``needs data`` for a streamed trace).
STREAM_ROLES: dict[str, str | None] = {
    "file-cache": "models.planner.role_file_cache:FileCacheStream",
    "write-cache": "models.planner.role_write_cache:WriteCacheStream",
    "storage": "models.planner.role_storage:StorageReplayStream",
}
#: The in-memory rows function of each block role (``"module:function"``): ``f(w, tr, devs, base, uq)``.
ROWS_OF: dict[str, str] = {
    "file-cache": "models.planner.role_file_cache:file_cache_rows",
    "write-cache": "models.planner.role_write_cache:write_cache_rows",
    "storage": "models.planner.role_storage:block_storage_rows",
}
#: The chunk columns and their dtypes (:class:`~models.planner.role_stream.Chunk`, as BlockTrace holds them).
_COLUMNS = ("time_ns", "is_write", "offset_bytes", "size_bytes", "device")
_DTYPES = (np.int64, np.bool_, np.int64, np.int64, np.int32)


def _resolve(path: str):
    mod, _, attr = path.partition(":")
    return getattr(importlib.import_module(mod), attr)


class CollectingStream:
    """A :class:`~models.planner.role_stream.RoleStream` that keeps the second pass's chunks, joins them into the
    whole trace and calls the role's in-memory ``rows_fn(w, tr, devs, base, uq)``: the in-memory answer through
    the streaming driver. Memory grows with the trace (charged against the run's budget as the reader charges
    a loaded trace): a reference for tests, never a default.

    Parameters
    ----------
    rows_fn : callable
        The role's in-memory rows function (:data:`ROWS_OF`).
    role : str
        The plan role.
    """

    def __init__(self, rows_fn: Callable, role: str = ""):
        self.rows_fn = rows_fn
        self.role = role
        self._parts: list[Chunk] = []
        self._n = 0

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]: the requests kept, as charged."""
        from models.traces.source import PARSED_REQUEST_BYTES

        return self._n * PARSED_REQUEST_BYTES

    def first(self, chunk: Chunk) -> None:
        pass

    def end_first(self, meta: dict, t_min_ns: int) -> None:
        self._parts, self._n = [], 0

    def second(self, chunk: Chunk) -> None:
        from models.traces.source import PARSED_REQUEST_BYTES

        self._n += len(chunk["time_ns"])
        charge(self._n * PARSED_REQUEST_BYTES, f"the {self.role or 'role'}'s whole trace ({self._n:,} requests kept)")
        self._parts.append({k: np.array(chunk[k]) for k in _COLUMNS})

    def rows(self, w, meta_trace, devs, base, uq) -> list[dict]:
        from models.traces.core import BlockTrace

        cols = {k: np.concatenate([p[k] for p in self._parts]) if self._parts else np.zeros(0, t)
                for k, t in zip(_COLUMNS, _DTYPES)}
        self._parts = []
        tr = BlockTrace(cols["time_ns"], cols["is_write"], cols["offset_bytes"], cols["size_bytes"], cols["device"],
                        name=meta_trace.name, meta=dict(meta_trace.meta))
        return self.rows_fn(w, tr, devs, base, uq)


def role_streams(roles=None, *, devs=None, base=None, bands: bool = True,
                 collecting: bool | None = None) -> dict[str, RoleStream | None]:
    """A fresh stream per block role (``roles``: default all of :data:`STREAM_ROLES`), None for a role that does
    not stream; each built as ``cls(devs, base, bands=bands)`` (the devices the rows will be asked for and the
    baseline, None: like-for-like -- a replay needs them before its second pass; ``bands``: the rows will be asked
    for uncertainty bands, so keep what they need). Streams with a ``block_table`` (the trace's distinct 4 KiB
    blocks) share the first one's: one table per trace, each chunk added once
    (:meth:`~models.traces.block_table.BlockTable.add_chunk`). ``collecting`` (default: the environment variable
    :data:`COLLECTING_ENV` is ``1``): a role without a stream class gets a :class:`CollectingStream` of its
    in-memory function instead of None."""
    if collecting is None:
        collecting = os.environ.get(COLLECTING_ENV, "").strip() == "1"
    out: dict[str, RoleStream | None] = {}
    for role in roles or STREAM_ROLES:
        if role not in STREAM_ROLES:
            raise KeyError(f"role {role!r} has no block-trace stream; valid: {', '.join(STREAM_ROLES)}")
        cls = STREAM_ROLES[role]
        if cls is not None:
            out[role] = _resolve(cls)(devs, base, bands=bands)
        elif collecting:
            out[role] = CollectingStream(_resolve(ROWS_OF[role]), role)
        else:
            out[role] = None
    tables = [s for s in out.values() if s is not None and hasattr(s, "block_table")]
    for s in tables[1:]:
        s.block_table = tables[0].block_table
    if len(tables) > 1:  # its refusals and sampling sentences name every role that reads it
        tables[0].block_table.what = f"the per-block state the {' and '.join(s.role for s in tables)} roles share"
    return out


def check_rereadable(src, label: str) -> None:
    """ValueError naming ``label`` when ``src`` cannot be read a second time from its start (a path, ``bytes``
    and a seekable binary file object can; a pipe or socket stream cannot)."""
    if isinstance(src, (str, os.PathLike, bytes, bytearray, memoryview)):
        return
    try:
        ok = bool(src.seekable())
    except (AttributeError, OSError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"{label}: the trace is planned whole by reading it twice (it is too large to load in "
                         "memory), but this source cannot be read again from its start (a stream that cannot seek); "
                         "save it to a file or upload it, or give a maximum number of requests to plan the first ones")


def stream_source(w):
    """What :func:`stream_block_rows` reads for workload ``w``: its file, or a bundled trace's file
    (FileNotFoundError for a bundled trace without one, e.g. a synthetic preset: it is generated, not read)."""
    if Path(w.source).is_file():
        return w.source
    from models.traces.loader import bundled_trace_path

    try:
        return bundled_trace_path(w.source)
    except KeyError:
        raise FileNotFoundError(f"{w.source}: no trace file to stream (a bundled synthetic preset is generated "
                                "whole; give n_requests to plan fewer requests)") from None


class _Pass:
    """One pass's consumer: requests counted, cut to ``limit``, cast to the chunk's dtypes, shifted by ``shift``,
    handed to ``take(chunk)``; the earliest and latest arrivals of all requests read kept (first pass: the
    origin, as :func:`models.traces.load` shifts a trace by its earliest arrival, also when it is then cut)."""

    def __init__(self, take: Callable[[Chunk], None], limit: int | None, shift: int, on_requests=None):
        self.take, self.limit, self.shift, self.on_requests = take, limit, shift, on_requests
        self.seen = 0  # requests of the trace read
        self.used = 0  # requests handed on
        self.t_min: int | None = None  # the earliest and latest arrivals read [ns, reader's origin]
        self.t_max: int | None = None

    def __call__(self, cols: dict) -> None:
        n = len(cols["time_ns"])
        if not n:
            return
        self.seen += n
        if self.on_requests is not None:
            self.on_requests(n)
        lo, hi = int(cols["time_ns"].min()), int(cols["time_ns"].max())  # over the whole trace, as a load shifts it
        self.t_min = lo if self.t_min is None else min(self.t_min, lo)
        self.t_max = hi if self.t_max is None else max(self.t_max, hi)
        m = n if self.limit is None else max(0, min(n, self.limit - self.used))
        if not m:
            return
        chunk = {k: np.asarray(cols[k][:m], t) for k, t in zip(_COLUMNS, _DTYPES)}
        if self.shift:
            chunk["time_ns"] = chunk["time_ns"] - np.int64(self.shift)
        self.used += m
        self.take(chunk)


def stream_block_rows(w, streams, devs, base, uq, *, progress: Callable[[float], None] | None = None,
                      read_progress: Callable[[str], None] | None = None, source=None,
                      max_requests: int | None = None, chunk_bytes: int | None = None,
                      why: str = "") -> StreamedRows:
    """The rows of block workload ``w``'s roles, its trace read twice in chunks (see the module docstring).

    Parameters
    ----------
    w : PlanWorkload
        A block workload (its reader options apply).
    streams : sequence of RoleStream or dict role -> RoleStream or None
        One per role, in row order (:func:`role_streams`); None: the role does not stream -- its rows read
        ``needs data`` with the reason ``why``.
    devs, base, uq
        As the roles' in-memory functions take them.
    progress : callable, keyword-only
        ``progress(fraction)`` [0..1]: the first pass is the first half, the second the second half
        (only at each pass's end when the source's size is unknown).
    read_progress : callable, keyword-only
        ``read_progress(text)``: one line per update (at most every 0.5 s per pass): the pass, the share of the
        bytes read, requests/s and the time left (:class:`models.traces.progress.ReadProgress`).
    source : path, bytes or seekable binary file object, keyword-only
        The trace (default: ``w``'s file, :func:`stream_source`).
    max_requests : int or None, keyword-only
        The roles see the first ``max_requests`` requests (None: all); the first pass still reads the whole
        trace, so ``requests_read`` is its length.
    chunk_bytes : int or None, keyword-only
        The readers' block size [bytes of text] (None: their default).
    why : str, keyword-only
        Why the trace is streamed, said in the rows of a role without a stream.

    Returns
    -------
    StreamedRows

    Raises
    ------
    ValueError
        A source that cannot be read twice (:func:`check_rereadable`), a malformed trace (the reader's error),
        a trace without requests, or a memory-reference trace.
    """
    from models.traces.core import BlockTrace, MemTrace

    src = stream_source(w) if source is None else source
    check_rereadable(src, f"workload {w.name!r} ({w.source_label})")
    items = list(streams.items()) if isinstance(streams, dict) else [(getattr(s, "role", ""), s) for s in streams]
    streams = None  # noqa: F841 -- the streams live in ``items`` and the driver's ``live`` only: a refused one is freed
    opts = dict(w.trace_options)
    fmt = opts.pop("format", "auto")
    if chunk_bytes is not None:
        opts["chunk_bytes"] = chunk_bytes

    def after_first(first: _Pass, empty) -> FirstPassEnd:
        """The times' origin (the earliest arrival read, kept in the metadata) and the second pass shifted by it."""
        t_min = int(first.t_min)
        if first.t_max - t_min > np.iinfo(np.int64).max:
            raise ValueError(f"workload {w.name!r} ({w.source_label}): the arrival times span more than "
                             f"{np.iinfo(np.int64).max} ns (int64); check the time unit")
        meta = dict(empty.meta)
        if not int(meta.get("time_origin_ns", 0)):
            meta["time_origin_ns"] = t_min
        e = BlockTrace.empty(empty.name)
        meta_trace = BlockTrace(e.time_ns, e.is_write, e.offset_bytes, e.size_bytes, e.device, name=empty.name,
                                meta=meta)
        return FirstPassEnd(meta_trace, meta, (t_min,), t_min)

    return two_pass_rows(
        w, src, items, devs, base, uq, fmt=fmt, opts=opts, kind="block", columns=_COLUMNS, new_pass=_Pass,
        after_first=after_first, needs_rows=lambda role, msg, n: _needs_rows(w, role, devs, base, msg, why, n),
        wrong_type=MemTrace, wrong_msg=f"workload {w.name!r} ({w.source_label}): a memory-reference trace; the "
        "block roles need a block I/O trace", unit="requests", max_requests=max_requests, share=True, sampled=True,
        progress=progress, read_progress=read_progress)


def _needs_rows(w, role: str, devs, base, budget_msg: str | None, why: str, n: int) -> list[dict]:
    """``needs data`` rows of a role refused by the budget (``budget_msg``) or without a stream."""
    from models.planner.roles import LIKE_FOR_LIKE, role_metric
    from models.planner.verdicts import plan_row

    if budget_msg is not None:
        reason = f"needs data: more memory than the run's budget: {budget_msg}"
    else:
        reason = (f"needs data: the block trace ({n:,} requests) is planned by streaming it"
                  + (f" ({why})" if why else "") + "; this role does not stream yet (give a maximum number of "
                  "requests -- --requests, n_requests -- to plan the first ones in memory)")
    b = base.name if base is not None else (LIKE_FOR_LIKE[role] or "no cache")
    return [plan_row(w.name, role, d.name, b, role_metric(role), verdict="needs data", reason=reason) for d in devs]


def too_large_why(size: int | None) -> str:
    """Why a trace file of ``size`` bytes is streamed: the in-memory limit, named (:data:`IN_MEMORY_MAX_BYTES`)."""
    return (f"its file is {format_bytes(size)}, over the in-memory limit of {format_bytes(IN_MEMORY_MAX_BYTES)} "
            "(IN_MEMORY_MAX_BYTES)") if size is not None else ""

