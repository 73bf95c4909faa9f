"""ByteBudgetCache: bounded in bytes, LRU, fresh copies, expiry; the upload cache uses it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.components.bytecache import ByteBudgetCache


def _blob(n: int) -> np.ndarray:
    return np.zeros(n, np.uint8)


def test_hits_are_fresh_copies():
    c = ByteBudgetCache(budget_bytes=1 << 20)
    a = c.get_or_compute("k", lambda: _blob(100))
    a[:] = 7  # the caller owns what it got
    b = c.get_or_compute("k", lambda: pytest.fail("recomputed"))
    assert not b.any() and b is not a
    b[:] = 9
    assert not c.get_or_compute("k", lambda: pytest.fail("recomputed")).any()


@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 5000)), max_size=40), st.integers(0, 20_000))
def test_never_over_budget_and_lru_order(ops, budget):
    c = ByteBudgetCache(budget_bytes=budget)
    computed = []
    for key, size in ops:
        c.get_or_compute((key, size), lambda size=size: computed.append(size) or _blob(size))
        assert c.nbytes <= budget
        assert c.nbytes == sum(len(b) for b, _ in c._items.values())
    # the most recently used entry that fits is kept
    if ops:
        key, size = ops[-1]
        n = len(computed)
        c.get_or_compute((key, size), lambda: _blob(size))
        fits = len(c._items) and size + 200 < budget  # pickle overhead of an array is < 200 bytes
        assert (len(computed) == n) or not fits


def test_too_big_is_returned_not_kept_and_errors_not_cached():
    c = ByteBudgetCache(budget_bytes=1000)
    assert len(c.get_or_compute("big", lambda: _blob(5000))) == 5000 and len(c) == 0
    with pytest.raises(ZeroDivisionError):
        c.get_or_compute("bad", lambda: 1 / 0)
    assert c.get_or_compute("bad", lambda: 3) == 3


def test_entries_expire_after_ttl():
    now = [0.0]
    c = ByteBudgetCache(budget_bytes=1 << 20, ttl_s=10, clock=lambda: now[0])
    c.get_or_compute("k", lambda: 1)
    now[0] = 11
    assert c.get_or_compute("k", lambda: 2) == 2 and c.nbytes > 0


def test_upload_cache_is_bounded_in_bytes():
    from app.components import traces

    assert isinstance(traces.UPLOAD_CACHE, ByteBudgetCache)
    assert traces.UPLOAD_CACHE.budget_bytes <= 1 << 30
