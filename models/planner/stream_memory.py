"""A plan's memory roles over a memory trace of any length: the trace read twice as column chunks (issue 41).

:func:`models.planner.plan.plan` reads a memory trace whole when it is small (its file at most
:data:`~models.planner.stream_plan.IN_MEMORY_MAX_BYTES`, its whole read within the run's memory budget:
:func:`models.planner.memory_read.read_memory_trace`) and otherwise plans it here, without cutting it:
:func:`stream_memory_rows` reads the workload's file twice within
``models.traces.chunks.chunk_sink(consumer, kind="memory")`` (the memory-trace readers -- lackey text, ``.npz``
in slices -- hand each block's MemTrace columns ``address, size, kind`` to the driver and keep none), feeds every
memory role's stream the first pass (``first``), then ``end_first(meta)``, then the second pass (``second``), and
collects each role's rows (``rows(w, meta_trace, devs, base, uq)``: the rows of
:func:`models.planner.role_memory.memory_rows` for that role, exactly), with the block roles' driver
(:func:`models.planner.two_pass.two_pass_rows`) reading chunks of kind ``"memory"``. Memory is the reader's block
plus the streams' state (the distinct pages), whatever the trace's length; the streams' states are summed against the
run's budget as the block roles' are (each stream's calls run with the others' state held; the page table the roles
share, :func:`memory_role_streams`, held once by its own hold).

The stream class of each memory role is named in :data:`MEMORY_STREAM_ROLES` (``role -> "module:Class"``, built
``cls(devs, base, bands=...)``), imported when a plan streams; a role whose class cannot be imported has no
streamed answer: its rows read ``needs data`` and say why (never a verdict from a cut trace).

The 32 MiB file limit is the block traces' (:data:`~models.planner.stream_plan.IN_MEMORY_MAX_BYTES`): a generated
``.npz`` memory trace holds 2.9 bytes per reference (30 M references in 87.7 MB, ``models.traces.synthetic.
mem_trace`` written with ``save_memtrace_npz``), so a file at the limit holds ~11 M references, ~830 MB at the
:data:`~models.planner.memory_read.BYTES_PER_REFERENCE` a whole plan needs: near the default 1 GiB budget.

>>> from models.devices import get_device
>>> from models.planner.plan import workload_from_path
>>> w = workload_from_path("lackey:numpy")
>>> got = stream_memory_rows(w, {"paging": memory_role_streams(["paging"])["paging"]},
...                          [get_device("pcm-samsung-20nm")], None, None)
>>> got.requests_used == got.requests_read, got.rows[0]["role"], got.rows[0]["verdict"], got.rows[0]["method"]
(True, 'paging', 'wins', 'exact')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import numpy as np

from models.planner.stream_plan import check_rereadable, stream_source
from models.planner.two_pass import FirstPassEnd, StreamedRows, two_pass_rows

__all__ = ["MEMORY_STREAM_ROLES", "MEMORY_COLUMNS", "memory_role_streams", "stream_memory_rows", "MissingStream"]

#: The stream class of each memory role (``"module:Class"``, built as ``cls(devs, base, bands=...)``), in row order.
MEMORY_STREAM_ROLES: dict[str, str] = {
    "paging": "models.planner.role_paging_stream:PagingRoleStream",
    "memory-extension": "models.planner.role_memext_stream:MemExtRoleStream",
}
#: A memory chunk's columns and dtypes (:class:`~models.traces.core.MemTrace`'s).
MEMORY_COLUMNS = ("address", "size", "kind")
_DTYPES = (np.uint64, np.uint16, np.uint8)


class MissingStream:
    """A memory role whose stream class could not be built: ``why`` (its rows read ``needs data`` saying so)."""

    def __init__(self, role: str, why: str):
        self.role, self.why = role, why


def memory_role_streams(roles=None, *, devs=None, base=None, bands: bool | tuple = True) -> dict:
    """A fresh stream per memory role (``roles``: default all of :data:`MEMORY_STREAM_ROLES`), each built as
    ``cls(devs, base, bands=bands)``; a :class:`MissingStream` for a role whose class cannot be imported.
    ``bands``: the plan's ``uq`` ``(samples, seed)`` when the rows will carry uncertainty bands (a stream that
    replays the band's samples in its second pass needs them before it), False without bands; True: bands asked
    for, samples not known in advance (a stream that needs them says its band is unknown). Streams with a
    ``page_table`` (the trace's distinct 4 KiB pages, :class:`~models.memory.page_table.PageTable`) share the first
    one's: one table per trace, held once, each chunk's pages added and looked up once."""
    out: dict = {}
    for role in roles or MEMORY_STREAM_ROLES:
        if role not in MEMORY_STREAM_ROLES:
            raise KeyError(f"role {role!r} has no memory-trace stream; valid: {', '.join(MEMORY_STREAM_ROLES)}")
        mod, _, attr = MEMORY_STREAM_ROLES[role].partition(":")
        try:
            cls = getattr(importlib.import_module(mod), attr)
        except (ImportError, AttributeError) as e:
            out[role] = MissingStream(role, f"its stream ({MEMORY_STREAM_ROLES[role]}) is not available: {e}")
            continue
        out[role] = cls(devs, base, bands=bands)
    tables = [s for s in out.values() if hasattr(s, "page_table")]
    for s in tables[1:]:
        s.page_table = tables[0].page_table
    if len(tables) > 1:  # its refusals name every role that reads it
        tables[0].page_table.what = f"the page table the {' and '.join(s.role for s in tables)} roles share"
    return out


class _MemPass:
    """One pass's consumer: references counted, cut to ``limit``, cast to the chunk's dtypes, handed to
    ``take(chunk)``."""

    def __init__(self, take: Callable[[dict], None], limit: int | None, on_requests=None):
        self.take, self.limit, self.on_requests = take, limit, on_requests
        self.seen = 0  # references of the trace read
        self.used = 0  # references handed on

    def __call__(self, cols: dict) -> None:
        n = len(cols["address"])
        if not n:
            return
        self.seen += n
        if self.on_requests is not None:
            self.on_requests(n)
        m = n if self.limit is None else max(0, min(n, self.limit - self.used))
        if not m:
            return
        self.used += m
        self.take({k: np.asarray(cols[k][:m], t) for k, t in zip(MEMORY_COLUMNS, _DTYPES)})


def _read_options(src, w) -> tuple[str, dict]:
    """The format and reader options of ``w``'s memory trace ``src`` (auto: detected as a memory trace, as
    :func:`models.traces.load` detects it with ``kind="memory"``)."""
    from models.traces.detect import detect_text
    from models.traces.source import peek_text

    opts = dict(w.trace_options)
    fmt = opts.pop("format", "auto")
    if fmt == "auto":
        fmt, guessed = detect_text(peek_text(src), kind="memory")
        opts = {**guessed, **opts}
    return fmt, opts


def stream_memory_rows(w, streams: dict, devs, base, uq, *, progress: Callable[[float], None] | None = None,
                       read_progress: Callable[[str], None] | None = None, source=None,
                       max_requests: int | None = None, why: str = "") -> StreamedRows:
    """The rows of memory workload ``w``'s roles, its trace read twice in chunks (see the module docstring).

    Parameters
    ----------
    w : PlanWorkload
        A memory workload (its reader options apply).
    streams : dict role -> stream or MissingStream
        One per role, in row order (:func:`memory_role_streams`).
    devs, base, uq
        As :func:`models.planner.role_memory.memory_rows` takes them.
    progress : callable, keyword-only
        ``progress(fraction)`` [0..1]: the first pass the first half, the second the second half.
    read_progress : callable, keyword-only
        ``read_progress(text)``: the pass, the share of the bytes read, references/s and the time left.
    source : path, bytes or seekable binary file object, keyword-only
        The trace (default: ``w``'s file, or a bundled trace's).
    max_requests : int or None, keyword-only
        The roles see the first ``max_requests`` references (None: all); the first pass still reads the whole trace.
    why : str, keyword-only
        Why the trace is streamed, said in the rows of a role without a stream.

    Returns
    -------
    StreamedRows
        ``requests_used`` / ``requests_read``: references (instruction fetches included, as a whole read counts).

    Raises
    ------
    ValueError
        A source that cannot be read twice, a malformed trace, a trace without references, a block I/O trace, or a
        trace that changed between the reads.
    """
    from models.traces.core import BlockTrace, MemTrace

    src = stream_source(w) if source is None else source
    check_rereadable(src, f"workload {w.name!r} ({w.source_label})")
    items = [(role, None if isinstance(s, MissingStream) else s) for role, s in streams.items()]
    missing = {role: s.why for role, s in streams.items() if isinstance(s, MissingStream)}
    fmt, opts = _read_options(src, w)

    def after_first(first: _MemPass, empty) -> FirstPassEnd:
        meta = dict(empty.meta)
        return FirstPassEnd(MemTrace(np.zeros(0, np.uint64), np.zeros(0, np.uint16), np.zeros(0, np.uint8),
                                     name=empty.name, meta=meta), meta)

    return two_pass_rows(
        w, src, items, devs, base, uq, fmt=fmt, opts=opts, kind="memory", columns=MEMORY_COLUMNS,
        new_pass=lambda take, limit, shift: _MemPass(take, limit), after_first=after_first,
        needs_rows=lambda role, msg, n: _needs_rows(w, role, devs, base, msg, missing.get(role, ""), why, n),
        wrong_type=BlockTrace, wrong_msg=f"workload {w.name!r} ({w.source_label}): a block I/O trace; the memory "
        "roles need a memory-reference trace", unit="references", max_requests=max_requests, share=False,
        sampled=False, progress=progress, read_progress=read_progress)  # the memory streams are exact


def _needs_rows(w, role: str, devs, base, budget_msg: str | None, missing: str, why: str, n: int) -> list[dict]:
    """``needs data`` rows of a memory role refused by the budget (``budget_msg``) or without a stream
    (``missing``: why)."""
    from models.planner.roles import LIKE_FOR_LIKE, role_metric
    from models.planner.verdicts import plan_row

    if budget_msg is not None:
        reason = f"needs data: more memory than the run's budget: {budget_msg}"
    else:
        reason = (f"needs data: the memory trace ({n:,} references) is planned by streaming it"
                  + (f" ({why})" if why else "") + f"; this role does not stream yet ({missing}); give a maximum "
                  "number of references (--mem-refs N) to plan the first ones in memory")
    b = base.name if base is not None else (LIKE_FOR_LIKE[role] or "no cache")
    return [plan_row(w.name, role, d.name, b, role_metric(role), verdict="needs data", reason=reason) for d in devs]
