"""A plan's memory trace, read whole within the run's memory budget (or its first N references, as asked).

No reference count is a default: without ``memory_refs`` a memory trace is read whole when its memory roles fit
the run's memory budget (:mod:`models.budget`), else refused with a message naming the budget option
(``--memory-budget`` / ``PCM_MEMORY_BUDGET``) and the explicit cut (``--mem-refs N``) -- never silently cut. The
work limit is in bytes: :data:`BYTES_PER_REFERENCE` per reference read, so the budget allows
``(budget - held) // BYTES_PER_REFERENCE`` references, and the read stops one reference past that (a longer trace
is refused without being read to its end). A plan does not stop there: a whole trace refused here is read twice in
chunks instead (:func:`models.planner.plan.read_memory`, :mod:`models.planner.stream_memory`).

>>> from models.budget import limit
>>> tr, used = read_memory_trace("lackey:sqlite", 1000)
>>> len(tr), used
(1000, (1000, nan, 'asked'))
>>> with limit(10 * BYTES_PER_REFERENCE):
...     read_memory_trace("lackey:sqlite", None)
Traceback (most recent call last):
...
models.budget.BudgetExceeded: 5,000,000 references, more than the 10 the run's memory budget of 720 B allows at 72 \
bytes per reference (the trace and its memory roles); the trace is not cut silently: raise the budget to 360 MB with \
--memory-budget (CLI) or the PCM_MEMORY_BUDGET environment variable (app server), or use its first N references \
with --mem-refs N (N at most 10)
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np

from models.budget import (
    CLI_OPTION,
    ENV_VAR,
    BudgetExceeded,
    budget_bytes,
    format_bytes,
    held,
    held_bytes,
)

__all__ = ["BYTES_PER_REFERENCE", "MEM_REFS_OPTION", "references_within_budget", "read_memory_trace", "trace_bytes"]

#: Peak memory of a plan's memory roles per reference of the trace read [bytes], the read included: measured
#: peak RSS of ``pcm-planner plan --mem-trace lackey:xz --device pcm-samsung-20nm --device optane-dcpmm`` at
#: ``--mem-refs`` 2 M / 5 M / 10 M (373 / 546 / 801 MB) above the 261 MB of the same plan at 1,000 references:
#: 56, 57 and 54 bytes per reference; on a generated 30 M-reference trace (``models.traces.synthetic.mem_trace``,
#: 60 % instruction fetches, written with ``save_memtrace_npz``) 1.88 GB whole: 54 bytes per reference. Rounded up past
#: the reader's own charge of 64 bytes per parsed reference (:data:`models.traces.source.PARSED_REQUEST_BYTES`) so
#: that this limit, which names both options, refuses first. 2026-12-05, this machine.
BYTES_PER_REFERENCE = 72
#: The option that cuts a memory trace to its first N references (named in the refusal).
MEM_REFS_OPTION = "--mem-refs"
_UNBOUNDED = sys.maxsize  # no budget (``--memory-budget off``): the read has no limit


def trace_bytes(trace) -> int:
    """Bytes of a memory trace's columns (address, size, kind) [bytes]: what the run holds while its roles run."""
    return int(sum(np.asarray(getattr(trace, c)).nbytes for c in ("address", "size", "kind")))


def references_within_budget() -> int | None:
    """References of a memory trace the run's budget allows [-], what it holds already set aside (None: no
    budget)."""
    budget = budget_bytes()
    if not budget:
        return None
    return max(int((budget - held_bytes()) // BYTES_PER_REFERENCE), 0)


def _refusal(fits: int, cause: BudgetExceeded | None = None, length: int | None = None) -> BudgetExceeded:
    """The refusal of a memory trace longer than the ``fits`` references the budget allows (``length``: its
    references when known without reading it)."""
    in_use = held_bytes()
    refs = f"{length:,} references" if length is not None else f"more than {fits:,} references"
    need = in_use + (fits + 1 if length is None else length) * BYTES_PER_REFERENCE
    less = f" less the {format_bytes(in_use)} held ({', '.join(w for w, b in held() if b)})" if in_use else ""
    cut = (f"or use its first N references with {MEM_REFS_OPTION} N (N at most {fits:,})" if fits
           else f"a cut with {MEM_REFS_OPTION} N does not fit either")
    why = f" (the read stopped: {cause})" if cause is not None else ""
    return BudgetExceeded(
        f"{refs}, more than the {fits:,} the run's memory budget of {format_bytes(budget_bytes())}{less} allows "
        f"at {BYTES_PER_REFERENCE} bytes per reference (the trace and its memory roles); the trace is not cut "
        f"silently: raise the budget {'to' if length is not None else 'above'} {format_bytes(need)} with "
        f"{CLI_OPTION} (CLI) or the {ENV_VAR} environment variable (app server), {cut}{why}")


def _known_length(traces, source) -> int | None:
    """References of a ``.npz`` memory trace (a file or a bundled name) from its header [-]; None otherwise."""
    from models.traces.formats.npz import memtrace_npz_length

    if isinstance(source, str) and not os.path.isfile(source):
        try:
            source = traces.bundled_trace_path(source.strip())
        except KeyError:
            return None
    if not isinstance(source, (str, os.PathLike)) or not os.fspath(source).endswith(".npz"):
        return None
    return memtrace_npz_length(source)


def read_memory_trace(source, memory_refs: int | None, *, options: dict | None = None):
    """Memory trace ``source`` read for a plan, and ``(used, read, why)`` as the rows report it.

    Parameters
    ----------
    source : str, os.PathLike, bytes or file object
        A memory trace (:func:`models.traces.load`).
    memory_refs : int or None
        None: the whole trace, refused (:class:`~models.budget.BudgetExceeded`) when it is longer than the run's
        budget allows (:func:`references_within_budget`), the message naming ``--memory-budget`` /
        ``PCM_MEMORY_BUDGET`` and ``--mem-refs N``; a number: its first ``memory_refs`` references (as asked; the
        same refusal when that many do not fit the budget).
    options : dict, optional
        Reader options of :func:`models.traces.load`.

    Returns
    -------
    trace : MemTrace
    used : tuple
        References used [-], references read [-] (NaN: the trace was not read to its end, cut as asked) and why
        they differ (``"asked"`` or ``""``).
    """
    from models import traces

    fits = references_within_budget()
    want = _UNBOUNDED if memory_refs is None else int(memory_refs)
    stop = want if fits is None else min(want, fits)
    if fits is not None and want > fits:  # a compact .npz trace says its length before it is read
        length = _known_length(traces, source)
        if length is not None and length > fits:
            raise _refusal(fits, length=length)
    try:
        tr = traces.load(source, kind="memory", max_requests=min(stop + 1, _UNBOUNDED), **(options or {}))
    except BudgetExceeded as e:  # the reader's own charge: refused all the same, both options named
        raise _refusal(fits or 0, e) from e
    n = len(tr)
    if n <= stop:  # the trace ends within the read: whole
        return tr, (n, float(n), "")
    if fits is not None and stop == fits and want > fits:  # longer than the budget allows, and not cut as asked
        raise _refusal(fits)
    return tr.subset(slice(0, want)), (want, math.nan, "asked")
