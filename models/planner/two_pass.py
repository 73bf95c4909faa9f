"""The two-pass driver the streamed roles share: a trace read twice as column chunks, each stream fed (issue 41).

:func:`two_pass_rows` is the driver of :func:`models.planner.stream_plan.stream_block_rows` (block roles, chunk kind
``"block"``) and :func:`models.planner.stream_memory.stream_memory_rows` (memory roles, ``"memory"``): it reads the
source twice within :func:`models.traces.chunks.chunk_sink` (the readers hand each parsed block's columns to the
driver and keep none), feeds every live stream the first pass (``first``), then ``end_first(meta, ...)``, then the
second pass (``second``), checks both passes handed on as many requests, and collects each role's rows -- a role
whose stream is missing or refused by the run's memory budget gets the caller's ``needs data`` rows instead.

The streams' states are summed against the run's memory budget: each stream's calls run with the other streams'
state held (:func:`models.budget.reserve`): every state's bytes are held once, by a :class:`~models.budget.Hold` of
its own (a stream's ``holds``; a block table shared by two streams holds its own bytes, the one hold both streams
name), and the driver sums the live holds (:func:`others_state`), so two states each under the budget but over it
together are refused (the refused stream's state let go at once, the others going on in the memory it held).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from models.budget import BudgetExceeded, Hold, format_bytes, reserve

__all__ = ["StreamedRows", "FirstPassEnd", "two_pass_rows", "source_bytes", "state_groups", "others_state",
           "share_states", "mark_sampling"]


@dataclass(frozen=True)
class StreamedRows:
    """What :func:`two_pass_rows` gives (:func:`models.planner.stream_plan.stream_block_rows`,
    :func:`models.planner.stream_memory.stream_memory_rows`): the roles' rows and how much of the trace they used."""

    #: The rows of every role (dicts, as ``plan_row`` makes them), roles in the order given.
    rows: tuple
    #: Requests the roles saw [-].
    requests_used: int
    #: Requests in the trace [-] (read to its end: the first pass reads it whole).
    requests_read: int
    #: The trace's name and metadata (an empty BlockTrace; an empty MemTrace for the memory roles).
    meta_trace: object = None
    #: ``role -> message`` of each role refused by the run's memory budget (its rows read ``needs data``).
    refused: dict = field(default_factory=dict)
    #: ``role -> sampling`` of each role evaluated from a sample of the blocks (the stream's ``sampling`` dict:
    #: method, rate, why, error), its rows saying so.
    sampling: dict = field(default_factory=dict)


def _holds(stream) -> tuple[Hold, ...]:
    """The holds of the state ``stream`` uses: its ``holds`` (a block table's hold is the same object in every stream
    sharing the table), else one hold of its ``state_bytes`` of its own."""
    hs = getattr(stream, "holds", None)
    if hs is not None:
        return tuple(hs)
    try:
        nbytes = int(getattr(stream, "state_bytes", 0) or 0)
    except (AttributeError, TypeError):
        nbytes = 0
    return (Hold(f"the {getattr(stream, 'role', '') or 'role'}'s state", nbytes),)


def state_groups(streams) -> int:
    """How many distinct states the live ``streams`` hold: streams whose holds overlap (a shared block table) hold
    one state."""
    groups: list[set] = []
    for s in streams:
        g = set(_holds(s))  # a Hold is its own identity: one state's bytes, held once
        for other in [x for x in groups if x & g]:
            g |= other
            groups.remove(other)
        groups.append(g)
    return len(groups)


def others_state(live: dict, role: str) -> tuple[float, str]:
    """``(bytes, words)``: the live holds of the streams other than ``role``'s -- every state's bytes held once by
    its own hold, summed once (a block table ``role`` shares is its own state, not the others') -- and the words
    naming each role's share."""
    seen = set(_holds(live[role]))
    total, parts = 0.0, []
    for r, s in live.items():
        if r == role:
            continue
        new = [h for h in _holds(s) if h not in seen]
        seen.update(new)
        b = sum(h.nbytes for h in new)
        if b > 0:
            total += b
            parts.append(f"{r} {format_bytes(b)}")
    return total, f"the other roles' state ({', '.join(parts) or 'none'})"


def share_states(live: dict) -> None:
    """Set each live stream's ``state_share`` to ``1/k``, ``k`` the distinct states (:func:`state_groups`): a
    stream that can sample keeps its state under that share of the budget."""
    k = state_groups(live.values())
    for s in live.values():
        try:
            s.state_share = 1.0 / k
        except (AttributeError, ValueError):  # a stream that takes no share (no state of its own to cap)
            pass


def _call(live: dict, role: str, method: str, *args) -> None:
    """``live[role].method(*args)`` with the other streams' state held (:func:`models.budget.reserve`): its growth
    is checked against the budget less their sum."""
    nbytes, what = others_state(live, role)
    with reserve(nbytes, what):
        getattr(live[role], method)(*args)


def mark_sampling(rows: list, sampling: dict | None) -> None:
    """Fill the ``method, sample_rate`` columns of a role's rows from its stream's ``sampling`` (None: exact),
    a sampled row's reason saying how (:func:`models.planner.sampling_error.sampling_sentence`)."""
    from models.planner.sampling_error import sampling_sentence
    from models.planner.verdicts import EVALUATED

    for r in rows:
        if sampling is None:
            r["method"], r["sample_rate"] = "exact", 1.0
            continue
        r["method"], r["sample_rate"] = str(sampling["method"]), float(sampling["rate"])
        if r.get("verdict") in EVALUATED:
            r["reason"] = f"{r['reason']} [{sampling_sentence(sampling)}]"


def source_bytes(src) -> int | None:
    """Size of a source [bytes] (a path's file, ``bytes``, a file object that knows it), None when unknown."""
    if isinstance(src, (str, os.PathLike)):
        return os.path.getsize(src) if Path(src).is_file() else None
    if isinstance(src, (bytes, bytearray, memoryview)):
        return len(src)
    size = getattr(src, "size", None)  # Streamlit UploadedFile
    if isinstance(size, int) and size > 0:
        return size
    try:
        if src.seekable():
            pos = src.tell()
            end = src.seek(0, io.SEEK_END)
            src.seek(pos)
            return end
    except (AttributeError, OSError, ValueError):
        return None
    return None


class FirstPassEnd(NamedTuple):
    """What the caller's ``after_first`` makes of the first pass: the rows' ``meta_trace`` (the trace's name and
    metadata, no requests), the ``meta`` each stream's ``end_first`` is handed (a copy each) followed by ``extra``,
    and the ``shift`` of the second pass's times [ns]."""

    meta_trace: object
    meta: dict
    extra: tuple = ()
    shift: int = 0


def two_pass_rows(w, src, items: list, devs, base, uq, *, fmt: str, opts: dict, kind: str, columns: tuple,
                  new_pass: Callable, after_first: Callable, needs_rows: Callable, wrong_type: type, wrong_msg: str,
                  unit: str, max_requests: int | None, share: bool, sampled: bool,
                  progress: Callable[[float], None] | None, read_progress: Callable[[str], None] | None
                  ) -> StreamedRows:
    """The rows of workload ``w``'s roles, its trace ``src`` read twice in chunks (see the module docstring).

    Parameters
    ----------
    w : PlanWorkload
        The workload (its ``name`` and ``source_label`` name it in the errors).
    src : path, bytes or seekable binary file object
        The trace, read twice (the caller has checked it can be).
    items : list of (role, stream or None)
        One per role, in row order; None: no stream (``needs_rows`` says why).
    devs, base, uq
        As the streams' ``rows`` take them.
    fmt, opts : str, dict, keyword-only
        The reader's format and options (:func:`models.traces.readers.read_trace`).
    kind : str, keyword-only
        The chunk kind (:func:`models.traces.chunks.chunk_sink`): ``"block"`` or ``"memory"``.
    columns : tuple of str, keyword-only
        The chunk's columns: a reader that does not stream hands its whole trace as one chunk of these.
    new_pass : callable, keyword-only
        ``new_pass(take, limit, shift)``: a pass's consumer (``seen``, ``used`` requests, ``on_requests``) handing
        each chunk, cut to ``limit`` requests, to ``take(chunk)``.
    after_first : callable, keyword-only
        ``after_first(first, empty) -> FirstPassEnd`` (the first pass's consumer and the reader's empty trace).
    needs_rows : callable, keyword-only
        ``needs_rows(role, budget_msg, n)``: the ``needs data`` rows of a role refused by the budget (``budget_msg``)
        or without a stream (None), ``n`` the trace's requests.
    wrong_type, wrong_msg : type, str, keyword-only
        A reader giving a ``wrong_type`` trace (the other kind) is refused with ValueError(``wrong_msg``).
    unit : str, keyword-only
        What a request is called in the errors (``requests``, ``references``).
    max_requests : int or None, keyword-only
        The streams see the first ``max_requests`` requests (None: all); the first pass still reads the whole trace.
    share : bool, keyword-only
        Set the streams' ``state_share`` before the first pass (:func:`share_states`).
    sampled : bool, keyword-only
        The streams may sample: each role's rows are marked from its stream's ``sampling`` and the result's
        ``sampling`` names them; else every row is exact (:func:`mark_sampling`).
    progress, read_progress : callable or None, keyword-only
        ``progress(fraction)`` [0..1] (each pass half) and ``read_progress(text)`` (one line per update,
        :class:`models.traces.progress.ReadProgress`).

    Returns
    -------
    StreamedRows
    """
    from models.traces.chunks import chunk_sink
    from models.traces.progress import ReadProgress
    from models.traces.readers import read_trace

    live = {role: s for role, s in items if s is not None}
    refused: dict[str, str] = {}

    def refuse(role: str, exc: BaseException) -> None:
        """``role``'s stream is refused by the budget: its rows will say so, its state is let go at once (the
        other roles go on in the memory it held)."""
        refused[role] = str(exc)
        del live[role]
        items[:] = [(r, None if r == role else s) for r, s in items]
    total = source_bytes(src)
    done = [0.0]

    def tell(frac: float) -> None:
        if progress is not None and frac >= done[0]:
            done[0] = frac
            progress(min(frac, 1.0))

    if share:
        share_states(live)

    def feed(method: str):
        def take(chunk: dict) -> None:
            for role in list(live):
                try:
                    _call(live, role, method, chunk)
                except BudgetExceeded as e:
                    refuse(role, e)
        return take

    def read(k: int, consumer, limit: int | None = None):
        rp = ReadProgress(total, (lambda p: read_progress(f"pass {k} of 2: {p.text()}")) if read_progress else None)
        consumer.on_requests = rp.add_requests

        def told(x: float) -> None:
            rp(x)
            if total and x <= 1.0:
                tell((k - 1 + x) / 2)

        with chunk_sink(consumer, kind=kind):
            empty = read_trace(src, fmt, progress=told, max_requests=limit, **opts)
        if isinstance(empty, wrong_type):
            raise ValueError(wrong_msg)
        if len(empty):  # a reader that does not stream: its whole trace (already shifted) is the pass's one chunk
            consumer({c: getattr(empty, c) for c in columns})
        tell(k / 2)
        return empty

    first = new_pass(feed("first"), max_requests, 0)
    empty = read(1, first)
    if not first.used:
        raise ValueError(f"the trace has no {unit}")
    end = after_first(first, empty)
    for role in list(live):
        try:
            _call(live, role, "end_first", dict(end.meta), *end.extra)
        except BudgetExceeded as exc:
            refuse(role, exc)
    second = new_pass(feed("second"), max_requests, end.shift)
    read(2, second, max_requests)
    if second.used != first.used:
        raise ValueError(f"workload {w.name!r} ({w.source_label}): the trace changed between the two reads "
                         f"({first.used:,} then {second.used:,} {unit})")
    rows: list[dict] = []
    sampling: dict[str, dict] = {}
    for role, s in items:
        if role in live:
            try:
                got = s.rows(w, end.meta_trace, devs, base, uq)
                smp = getattr(s, "sampling", None) if sampled else None
                mark_sampling(got, smp)
                if smp is not None:
                    sampling[role] = smp
                rows += got
                continue
            except BudgetExceeded as exc:
                refused[role] = str(exc)
        rows += needs_rows(role, refused.get(role), first.seen)
    tell(1.0)
    return StreamedRows(rows=tuple(rows), requests_used=first.used, requests_read=first.seen,
                        meta_trace=end.meta_trace, refused=refused, sampling=sampling)
