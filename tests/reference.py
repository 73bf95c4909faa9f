"""Reference models shared by tests: plain Python, independent of the code under test."""

from __future__ import annotations

from collections import OrderedDict

__all__ = ["lru_hits"]


def lru_hits(ids, capacity: int) -> int:
    """Hits of a fully associative LRU of ``capacity`` entries over ``ids``: an OrderedDict.

    >>> lru_hits([1, 2, 1, 3, 2, 1], 2)
    1
    """
    cache, hits = OrderedDict(), 0
    for x in (ids.tolist() if hasattr(ids, "tolist") else ids):
        if x in cache:
            hits += 1
            cache.move_to_end(x)
        else:
            cache[x] = None
            if len(cache) > capacity:
                cache.popitem(last=False)
    return hits
