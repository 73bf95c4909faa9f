"""Read ahead: the next blocks of a trace are decompressed and cut into lines while this one is parsed.

:func:`prefetched` runs a block iterator (:func:`models.traces.source.iter_blocks`) in a background thread
and hands its items over through a queue of at most ``depth`` blocks, so decompression (zlib and zstd
release the GIL) overlaps the parse (Arrow's CSV reader and NumPy release it too) -- as Arrow's own
streaming reader reads ahead. The items, their order and every error are those of the iterator: an
exception raised in the thread is raised again here, in the consumer, when its turn comes. The thread
runs in a copy of the caller's context (the run's memory budget, :mod:`models.budget`, is a context
variable). Closing the generator early (``max_requests`` reached, a parse error) stops the thread
before the source is closed.

Examples
--------
>>> list(prefetched(iter(range(5))))
[0, 1, 2, 3, 4]
>>> def bad():
...     yield 1
...     raise ValueError("line 2: bad")
>>> g = prefetched(bad())
>>> next(g)
1
>>> next(g)
Traceback (most recent call last):
...
ValueError: line 2: bad
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Iterator
from typing import TypeVar

__all__ = ["prefetched", "PREFETCH_BLOCKS"]

#: Blocks read ahead of the parse [blocks]: memory is at most this many blocks of text more than without it.
PREFETCH_BLOCKS = 2

T = TypeVar("T")
_END = object()


def prefetched(items: Iterator[T], depth: int = PREFETCH_BLOCKS) -> Iterator[T]:
    """The items of ``items``, produced in a background thread up to ``depth`` ahead (see the module docstring)."""
    q: queue.Queue = queue.Queue(maxsize=max(int(depth), 1))
    stop = threading.Event()

    def put(item) -> bool:
        while not stop.is_set():
            try:
                q.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put((item, None)):
                    return
            put((_END, None))
        except BaseException as e:  # noqa: BLE001 - handed to the consumer, raised there
            put((_END, e))

    worker = threading.Thread(target=contextvars.copy_context().run, args=(produce,), daemon=True,
                              name="trace-prefetch")
    worker.start()
    try:
        while True:
            item, err = q.get()
            if err is not None:
                raise err
            if item is _END:
                return
            yield item
    finally:
        stop.set()
        while worker.is_alive():  # unblock a producer waiting on a full queue, then let it finish its read
            try:
                q.get(timeout=0.05)
            except queue.Empty:
                pass
        worker.join()
