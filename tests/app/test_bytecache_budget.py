"""The server's caches are bounded in bytes (issue 20): one process-wide budget for every
``st.cache_data`` result (``server.maxCacheDataSize`` in ``.streamlit/config.toml``), and malloc
hands freed memory back (app/components/heavy.py)."""

from __future__ import annotations

import ctypes.util
import tomllib
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit import config
from streamlit.byte_util import config_max_cache_data_size_to_bytes
from streamlit.runtime.caching.global_cache_budget import (
    get_global_cache_budget,
    reconfigure_global_cache_budget_from_config,
)

from app.components import heavy

ROOT = Path(__file__).resolve().parents[2]


def _server_config() -> dict:
    with (ROOT / ".streamlit" / "config.toml").open("rb") as f:
        return tomllib.load(f)["server"]


def test_config_sets_one_byte_budget_for_every_cache_data_result():
    budget = config_max_cache_data_size_to_bytes(_server_config()["maxCacheDataSize"])
    # room for every page's default-input results (~10 MB after each page's first visit) many times over,
    # well inside the 2 GB goal together with the other caches (uploads 768 MiB, traces 320 MiB, figures 96 MiB)
    assert 64 << 20 <= budget <= 512 << 20


@pytest.fixture
def one_mib_budget():
    old = config.get_option("server.maxCacheDataSize")
    config.set_option("server.maxCacheDataSize", "1mb")
    reconfigure_global_cache_budget_from_config()
    yield get_global_cache_budget()
    config.set_option("server.maxCacheDataSize", old)
    reconfigure_global_cache_budget_from_config()


def test_the_budget_spans_functions_evicts_lru_and_hits_return_the_value(one_mib_budget):
    calls = []

    @st.cache_data(show_spinner=False)
    def up(i):
        calls.append(("up", i))
        return np.full(300_000 // 8, i, np.float64)

    @st.cache_data(show_spinner=False)
    def down(i):
        calls.append(("down", i))
        return np.full(300_000 // 8, -i, np.float64)

    for i in range(6):  # 12 values of ~300 kB each: 3.6 MB through a 1 MiB budget
        assert up(i)[0] == i and down(i)[0] == -i
        assert one_mib_budget.total_bytes <= 1 << 20
    n = len(calls)
    assert up(5)[0] == 5 and down(5)[0] == -5 and len(calls) == n  # the most recent stay: hits
    assert up(0)[0] == 0 and len(calls) == n + 1  # the oldest was evicted: computed again
    up.clear()
    down.clear()


def test_malloc_is_tuned_on_glibc_and_trims_are_rate_limited():
    if heavy._LIBC is None:
        assert not heavy.tune_malloc() and not heavy.trim_heap(force=True)
        pytest.skip("not glibc (or PCM_MALLOC_TUNE=0): nothing to tune")
    assert ctypes.util.find_library("c")
    assert heavy.tune_malloc() and heavy.tune_malloc()  # idempotent
    assert heavy.trim_heap(force=True)
    assert not heavy.trim_heap(every_s=3600)  # one just ran
    n = heavy.stats()["trims"]
    assert heavy.trim_heap(every_s=0) and heavy.stats()["trims"] == n + 1


def test_the_last_heavy_slot_released_trims_the_heap(monkeypatch):
    if heavy._LIBC is None or heavy._SEM is None:
        pytest.skip("no glibc or no heavy-slot limit")
    monkeypatch.setattr(heavy, "TRIM_EVERY_S", 0.0)
    n = heavy.stats()["trims"]
    with heavy.heavy_slot():
        with heavy.heavy_slot():  # nested: runs in its caller's slot, no trim on the way out
            pass
        assert heavy.stats()["trims"] == n
    assert heavy.stats()["trims"] == n + 1


def test_no_full_collection_after_every_run():
    """Streamlit's default gc.collect(2) after each script run held the GIL ~140 ms per rerun (more
    than a cached rerun's own work): the shipped config turns it off (Python's own collector stays)."""
    with (ROOT / ".streamlit" / "config.toml").open("rb") as f:
        assert tomllib.load(f)["runner"]["postScriptGC"] is False
