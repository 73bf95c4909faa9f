"""Progress bar for long model calls (shared by the pages; not copy-pasted)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import streamlit as st

__all__ = ["progress_bar"]


@contextmanager
def progress_bar(text: str) -> Iterator[Callable[[float], None]]:
    """Show an ``st.progress`` bar while the block runs; yield ``report(fraction)``; remove it after.

    ``report`` takes the done fraction [-] (clipped to 0..1) and shows it as a percentage
    after ``text``. Usable inside ``st.cache_data`` functions (the bar appears only on a miss)::

        with progress_bar("Simulating …") as report:
            return model(..., progress=report)
    """
    bar = st.progress(0.0, text=text)

    def report(fraction: float) -> None:
        f = min(max(float(fraction), 0.0), 1.0)
        bar.progress(f, text=f"{text} {f:.0%}")

    try:
        yield report
    finally:
        bar.empty()
