"""Progress bar for long model calls (shared by the pages; not copy-pasted)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from time import perf_counter as _now

import streamlit as st

__all__ = ["progress_bar", "SHOW_AFTER_S", "MIN_INTERVAL_S"]

#: A bar appears only once its block has run this long [s]: a call that ends sooner (most closed-form
#: misses: 5-50 ms) sends no bar at all. Each bar is browser work (every element a run sends re-renders
#: the page's React tree: a bar and its removal cost two of the ~80 elements of a closed-form rerun).
SHOW_AFTER_S = 0.25
#: Updates of a shown bar at most this often [s] (each update is one more element sent to the browser).
MIN_INTERVAL_S = 0.1


@contextmanager
def progress_bar(text: str, *, show_after_s: float = SHOW_AFTER_S, min_interval_s: float = MIN_INTERVAL_S,
                 total_bytes: int | None = None) -> Iterator[Callable[[float], None]]:
    """Show an ``st.progress`` bar while the block runs long; yield ``report(fraction)``; remove it after.

    ``report`` takes the done fraction [-] (clipped to 0..1) and shows it as a whole percentage after
    ``text``, at most 99 % (the block is still running: a bar never reads 100 % while work remains), then the
    optional ``detail`` (what runs now, e.g. "claim 3 of 150: ..."). The bar is drawn at the first report ``show_after_s`` [s] or more after the block began
    (where the block began: the block draws nothing else), then updated at most every
    ``min_interval_s`` [s] and when the fraction reaches 1; a block that ends sooner draws nothing.
    With ``total_bytes`` (a long read) the label says the bytes read of the total, the requests parsed per second
    and the time left (:class:`models.traces.progress.ReadProgress`) instead of the percentage alone: give the
    reader ``report.add_requests`` as its ``on_requests`` (the count of requests parsed); a second read of the
    same file calls ``report.restart(text)`` (the label's text, the rate and the time left start again).
    Usable inside ``st.cache_data`` functions (the bar appears only on a miss)::

        with progress_bar("Simulating …") as report:
            return model(..., progress=report)
    """
    t0 = _now()
    state: dict = {"bar": None, "at": -float("inf")}
    read = None
    if total_bytes:
        from models.traces.progress import ReadProgress

        read = ReadProgress(total_bytes)

    def report(fraction: float, detail: str = "") -> None:
        f = min(max(float(fraction), 0.0), 1.0)
        if read is not None:
            read(f)
        now = _now()
        if now - t0 < show_after_s or (now - state["at"] < min_interval_s and f < 1.0):
            return
        state["at"] = now
        f = min(f, 0.99)  # the block still runs: the bar never reads 100 % (it is removed when the block ends)
        label = (f"{text} {read.text()}" if read is not None else f"{text} {int(f * 100 + 1e-9)}%") \
            + (f" · {detail}" if detail else "")
        if state["bar"] is None:
            state["bar"] = st.progress(f, text=label)
        else:
            state["bar"].progress(f, text=label)

    def add_requests(n: int) -> None:
        if read is not None:
            read.add_requests(n)

    def restart(new_text: str) -> None:
        nonlocal read, text
        text = new_text
        if read is not None:
            from models.traces.progress import ReadProgress

            read = ReadProgress(total_bytes)

    report.add_requests = add_requests
    report.restart = restart
    try:
        yield report
    finally:
        if state["bar"] is not None:
            state["bar"].empty()
