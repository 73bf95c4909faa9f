"""A least-recently-used memo bounded in bytes, for loaders whose results are large immutable arrays.

``functools.lru_cache(maxsize=16)`` bounds a cache by entry count: sixteen bundled memory traces
are 42-105 MiB each, so a count bound lets one server hold ~0.6 GB of traces after a page that
visits them all (issue 20). :func:`byte_lru_cache` keeps the same semantics (the cached object
itself is returned, shared by every caller, so it suits immutable results such as the frozen
trace dataclasses; keys are the call's hashable arguments) and evicts least-recently-used entries
until the entries' sizes fit ``max_bytes``. A result larger than ``max_bytes`` is returned but not
kept. The size of a value is :func:`nbytes_of` (its NumPy arrays' bytes).
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import numpy as np

__all__ = ["ByteCacheInfo", "byte_lru_cache", "nbytes_of"]

F = TypeVar("F", bound=Callable[..., Any])


class ByteCacheInfo(NamedTuple):
    """Counters of a :func:`byte_lru_cache` memo (``nbytes`` and ``max_bytes`` in [bytes])."""

    hits: int
    misses: int
    currsize: int
    nbytes: int
    max_bytes: int


def nbytes_of(value: object, _depth: int = 0) -> int:
    """Approximate memory held by ``value`` [bytes]: NumPy arrays' ``nbytes``, looked up through
    dataclass fields, ``__dict__``, tuples, lists and dict values (three levels deep); any other
    object counts ``sys.getsizeof``.

    >>> nbytes_of(np.zeros(1000))
    8000
    >>> nbytes_of((np.zeros(10, dtype=np.uint8), np.zeros(5)))
    50
    """
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if _depth >= 3:
        return sys.getsizeof(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = [getattr(value, f.name, None) for f in dataclasses.fields(value)]
    elif isinstance(value, (tuple, list)):
        items = list(value)
    elif isinstance(value, dict):
        items = list(value.values())
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        items = list(vars(value).values())
    else:
        return sys.getsizeof(value)
    return sum(nbytes_of(v, _depth + 1) for v in items)


def byte_lru_cache(*, max_bytes: int, max_entries: int | None = None,
                   sizeof: Callable[[object], int] = nbytes_of) -> Callable[[F], F]:
    """Memoise a function in an LRU bounded by the total ``sizeof`` of its results [bytes].

    Parameters
    ----------
    max_bytes : int
        Budget of the kept results [bytes]; least-recently-used results are dropped to fit it.
    max_entries : int, optional
        Also at most this many results (None: no count bound).
    sizeof : callable, optional
        Size of a result [bytes] (default :func:`nbytes_of`).

    The wrapper has ``cache_info()`` (:class:`ByteCacheInfo`) and ``cache_clear()``, as
    ``functools.lru_cache``. Thread-safe; two threads missing on the same key both compute (as
    ``lru_cache``), the later result is kept.

    >>> @byte_lru_cache(max_bytes=16_000)
    ... def zeros(n):
    ...     return np.zeros(n)
    >>> a = zeros(1000); b = zeros(1000); a is b      # a hit: the same object
    True
    >>> _ = zeros(1500); zeros.cache_info().currsize    # 8,000 + 12,000 bytes > 16,000: 1000 dropped
    1
    """
    if max_bytes < 0 or (max_entries is not None and max_entries < 1):
        raise ValueError(f"max_bytes must be >= 0 and max_entries >= 1 (got {max_bytes}, {max_entries})")

    def decorate(func: F) -> F:
        items: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        lock = threading.Lock()
        counts = {"hits": 0, "misses": 0, "nbytes": 0}

        def _key(args: tuple, kwargs: dict) -> Any:
            return (args, tuple(sorted(kwargs.items()))) if kwargs else args

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key = _key(args, kwargs)
            with lock:
                hit = items.get(key)
                if hit is not None:
                    items.move_to_end(key)
                    counts["hits"] += 1
                    return hit[0]
                counts["misses"] += 1
            value = func(*args, **kwargs)
            size = int(sizeof(value))
            with lock:
                old = items.pop(key, None)
                if old is not None:
                    counts["nbytes"] -= old[1]
                if size <= max_bytes:
                    while items and (counts["nbytes"] + size > max_bytes
                                     or (max_entries is not None and len(items) >= max_entries)):
                        _, (_, s) = items.popitem(last=False)
                        counts["nbytes"] -= s
                    items[key] = (value, size)
                    counts["nbytes"] += size
            return value

        def cache_info() -> ByteCacheInfo:
            with lock:
                return ByteCacheInfo(counts["hits"], counts["misses"], len(items), counts["nbytes"], max_bytes)

        def cache_clear() -> None:
            with lock:
                items.clear()
                counts.update(hits=0, misses=0, nbytes=0)

        wrapper.cache_info = cache_info  # type: ignore[attr-defined]
        wrapper.cache_clear = cache_clear  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate
