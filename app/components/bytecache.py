"""A process-wide result cache bounded in bytes, for results whose size depends on the user's input.

``st.cache_data`` bounds a cache by entry count (``max_entries``), not by size: four cached
uploads of 20 M requests each hold ~2.3 GB. :class:`ByteBudgetCache` keeps the same semantics
(values stored pickled, every hit returns a fresh copy, so sessions never share mutable arrays;
entries expire after ``ttl_s``) and evicts least-recently-used entries until the pickled bytes
fit ``budget_bytes``. A value larger than the whole budget is returned but not kept.
"""

from __future__ import annotations

import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")

__all__ = ["ByteBudgetCache"]


class ByteBudgetCache:
    """LRU cache of pickled values whose total size stays within ``budget_bytes``.

    >>> c = ByteBudgetCache(budget_bytes=1 << 20, ttl_s=60)
    >>> c.get_or_compute("k", lambda: [1, 2, 3])
    [1, 2, 3]
    >>> c.get_or_compute("k", lambda: 1 / 0)   # a hit: computed once
    [1, 2, 3]
    >>> len(c), c.nbytes > 0
    (1, True)
    """

    def __init__(self, *, budget_bytes: int, ttl_s: float = 3600.0, clock: Callable[[], float] = time.monotonic):
        if budget_bytes < 0 or ttl_s <= 0:
            raise ValueError(f"budget_bytes must be >= 0 and ttl_s > 0 (got {budget_bytes}, {ttl_s})")
        self.budget_bytes = int(budget_bytes)
        self.ttl_s = float(ttl_s)
        self._clock = clock
        self._items: OrderedDict[Hashable, tuple[bytes, float]] = OrderedDict()
        self._lock = threading.Lock()
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._items.clear()
            self.nbytes = 0

    def _drop(self, key: Hashable) -> None:
        blob, _ = self._items.pop(key)
        self.nbytes -= len(blob)

    def _lookup(self, key: Hashable) -> bytes | None:
        with self._lock:
            hit = self._items.get(key)
            if hit is None:
                return None
            if self._clock() - hit[1] > self.ttl_s:
                self._drop(key)
                return None
            self._items.move_to_end(key)
            return hit[0]

    def _store(self, key: Hashable, blob: bytes) -> None:
        with self._lock:
            if key in self._items:
                self._drop(key)
            if len(blob) > self.budget_bytes:
                return
            while self._items and self.nbytes + len(blob) > self.budget_bytes:
                self._drop(next(iter(self._items)))
            self._items[key] = (blob, self._clock())
            self.nbytes += len(blob)

    def get_or_compute(self, key: Hashable, compute: Callable[[], T]) -> T:
        """A fresh copy of the value cached under ``key``, computing (and caching) it on a miss.

        Exceptions from ``compute`` propagate and nothing is cached. On a miss the computed
        value itself is returned: the cache keeps its own pickled copy.
        """
        blob = self._lookup(key)
        if blob is not None:
            return pickle.loads(blob)
        value = compute()
        blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        self._store(key, blob)
        return value
