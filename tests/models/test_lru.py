"""models._lru.byte_lru_cache: an LRU memo bounded in bytes (issue 20); the bundled-trace loader uses it."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from models._lru import byte_lru_cache, nbytes_of
from models.traces import loader


def _counting(max_bytes: int, max_entries: int | None = None):
    calls: list[tuple[int, int]] = []

    @byte_lru_cache(max_bytes=max_bytes, max_entries=max_entries)
    def blob(key: int, n: int) -> np.ndarray:
        calls.append((key, n))
        return np.full(n, key, np.uint8)

    return blob, calls


@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 3000)), max_size=40), st.integers(0, 8000),
       st.one_of(st.none(), st.integers(1, 5)))
def test_within_budget_lru_and_same_result_as_the_function(ops, budget, entries):
    blob, calls = _counting(budget, entries)
    kept: list[tuple[int, int]] = []  # model of the LRU: oldest first, with the sizes
    for key, n in ops:
        before = len(calls)
        out = blob(key, n)
        assert out.shape == (n,) and (out == key).all()  # a hit equals what the function returns
        hit = (key, n) in kept
        assert (len(calls) == before) == hit  # computed exactly on a miss
        if hit:
            kept.remove((key, n))
            kept.append((key, n))
        elif n <= budget:
            while kept and (sum(s for _, s in kept) + n > budget or (entries is not None and len(kept) >= entries)):
                kept.pop(0)
            kept.append((key, n))
        info = blob.cache_info()
        assert info.nbytes == sum(s for _, s in kept) <= budget
        assert info.currsize == len(kept) and (entries is None or info.currsize <= entries)


def test_a_hit_is_the_same_object_and_too_big_is_returned_not_kept():
    blob, calls = _counting(1000)
    a = blob(1, 400)
    assert blob(1, 400) is a and len(calls) == 1
    big = blob(2, 5000)  # larger than the whole budget
    assert big.shape == (5000,) and blob.cache_info().currsize == 1 and blob.cache_info().nbytes == 400
    blob(2, 5000)
    assert len(calls) == 3  # not kept: computed again
    blob.cache_clear()
    assert blob.cache_info() == (0, 0, 0, 0, 1000)


def test_keyword_arguments_are_part_of_the_key_and_errors_are_not_cached():
    n = [0]

    @byte_lru_cache(max_bytes=1 << 20)
    def f(x, *, y=0):
        n[0] += 1
        if x < 0:
            raise ValueError("negative")
        return np.arange(x + y)

    assert len(f(2, y=1)) == 3 and len(f(2)) == 2 and n[0] == 2
    f(2, y=1)
    assert n[0] == 2
    for _ in range(2):
        with pytest.raises(ValueError):
            f(-1)
    assert n[0] == 4 and f.cache_info().currsize == 2


def test_thread_safe_budget():
    blob, _ = _counting(10_000)

    def work(k):
        for i in range(200):
            blob((k * 7 + i) % 13, 1000 + (i % 5) * 500)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    info = blob.cache_info()
    assert info.nbytes <= 10_000 and info.hits + info.misses == 800


def test_nbytes_of_counts_arrays_in_dataclasses_and_containers():
    tr = loader.load("mqsim:tpcc-small")
    assert nbytes_of(tr) >= tr.time_ns.nbytes + tr.offset_bytes.nbytes + tr.size_bytes.nbytes
    assert nbytes_of({"a": np.zeros(10), "b": [np.zeros(3, np.uint8)]}) == 83


def test_bundled_traces_are_cached_by_bytes_and_hits_stay_hits():
    info = loader._load_bundled.cache_info()
    assert info.max_bytes == 320 << 20  # the budget documented in .streamlit/config.toml
    a = loader.load("mqsim:tpcc-small")
    hits = loader._load_bundled.cache_info().hits
    assert loader.load("mqsim:tpcc-small") is a
    assert loader._load_bundled.cache_info().hits == hits + 1
