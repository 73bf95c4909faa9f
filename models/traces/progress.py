"""Progress of a long trace read: share of the bytes read, requests per second and time left.

The readers report the share of the (compressed) input consumed through their ``progress``
callback (:func:`models.traces.source.open_source`); :class:`ReadProgress` is such a callback that
also counts the requests parsed (:meth:`ReadProgress.add_requests`, called by a streaming consumer)
and turns both into one line of text for the CLI (stderr) and the app (a progress bar's label).

>>> clock = iter([0.0, 2.0, 2.0]).__next__
>>> p = ReadProgress(total_bytes=1000, clock=clock)
>>> p.add_requests(500_000); p(0.25)
>>> p.text()
'25 % of 1 kB read, 250 k requests/s, about 6 s left'
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["ReadProgress", "human"]


def human(x: float, unit: str = "") -> str:
    """``x`` with an SI prefix and three significant digits (a unit starting with a space keeps it apart).

    >>> human(2.5e6, "B"), human(12), human(3.2e9, " requests"), human(250e3, " requests/s")
    ('2.5 MB', '12', '3.2 G requests', '250 k requests/s')
    """
    for div, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.3g} {prefix}{unit}"
    return f"{x:.3g}{unit}"


class ReadProgress:
    """A reader's ``progress`` callback that keeps the rate and the time left (see the module docstring).

    Parameters
    ----------
    total_bytes : int or None
        Size of the input [bytes] (None: unknown; then the callback receives bytes read, not a share).
    on_update : callable, optional
        Called with ``self`` at most every ``every_s`` seconds (and once at the end).
    every_s : float
        Least time between two ``on_update`` calls [s].
    clock : callable
        Time source [s] (tests).
    """

    def __init__(self, total_bytes: int | None = None, on_update: Callable | None = None, every_s: float = 0.5,
                 clock: Callable[[], float] = time.monotonic):
        self.total_bytes = total_bytes
        self.on_update = on_update
        self.every_s = every_s
        self.clock = clock
        self.t0 = clock()
        self.last_shown = -float("inf")
        self.share = 0.0
        self.bytes_read = 0.0
        self.requests = 0
        self.now = self.t0

    def add_requests(self, n: int) -> None:
        """Count ``n`` more requests parsed."""
        self.requests += int(n)

    def __call__(self, value: float) -> None:
        self.now = self.clock()
        if self.total_bytes:
            self.share = min(max(float(value), 0.0), 1.0)
            self.bytes_read = self.share * self.total_bytes
        else:
            self.bytes_read = float(value)
        if self.on_update is not None and (self.now - self.last_shown >= self.every_s or self.share >= 1.0):
            self.last_shown = self.now
            self.on_update(self)

    @property
    def elapsed_s(self) -> float:
        return max(self.now - self.t0, 0.0)

    @property
    def requests_per_s(self) -> float | None:
        return self.requests / self.elapsed_s if self.elapsed_s > 0 and self.requests else None

    @property
    def eta_s(self) -> float | None:
        """Time left [s], from the share read so far (None while unknown)."""
        if not self.total_bytes or self.share <= 0 or self.elapsed_s <= 0:
            return None
        return self.elapsed_s * (1 - self.share) / self.share

    def text(self) -> str:
        """One line: share (or bytes) read, requests/s, time left -- what is known so far."""
        parts = [f"{self.share * 100:.0f} % of {human(self.total_bytes, 'B')} read" if self.total_bytes
                 else f"{human(self.bytes_read, 'B')} read"]
        if self.requests_per_s is not None:
            parts.append(f"{human(self.requests_per_s, ' requests/s')}")
        if self.eta_s is not None and self.share < 1.0:
            parts.append(f"about {self.eta_s:.0f} s left")
        return ", ".join(parts)
