"""The process-wide heavy-work limit (app/components/heavy.py): at most SLOTS computations at once,
re-entrant, and wired into Streamlit's cache misses only (hits never wait)."""

from __future__ import annotations

import threading
import time

import pytest

from app.components import heavy


@pytest.fixture
def two_slots(monkeypatch):
    monkeypatch.setattr(heavy, "_SEM", threading.BoundedSemaphore(2))
    return 2


def _run_concurrently(n: int, work) -> None:
    threads = [threading.Thread(target=work) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not any(t.is_alive() for t in threads)


def test_at_most_slots_run_at_once(two_slots):
    running, most, lock = [0], [0], threading.Lock()

    def work():
        with heavy.heavy_slot():
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            time.sleep(0.05)
            with lock:
                running[0] -= 1

    _run_concurrently(8, work)
    assert most[0] == two_slots


def test_nested_work_runs_in_its_callers_slot(monkeypatch):
    monkeypatch.setattr(heavy, "_SEM", threading.BoundedSemaphore(1))
    done = []

    def work():
        with heavy.heavy_slot(), heavy.heavy_slot(), heavy.heavy_slot():  # would deadlock if not re-entrant
            done.append(1)

    _run_concurrently(3, work)
    assert len(done) == 3
    assert heavy._SEM.acquire(blocking=False)  # every slot given back
    heavy._SEM.release()


def test_cache_misses_queue_and_hits_do_not_wait(two_slots, monkeypatch):
    import streamlit as st
    from streamlit.runtime.caching import cache_utils

    monkeypatch.setattr(cache_utils.CachedFunc, "_handle_cache_miss", cache_utils.CachedFunc._handle_cache_miss)
    assert heavy.install() and heavy.install()  # idempotent
    running, most, lock = [0], [0], threading.Lock()

    @st.cache_data(max_entries=16, show_spinner=False)
    def model(k: int) -> int:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return k * k

    keys = iter(range(6))
    klock = threading.Lock()

    def miss():
        with klock:
            k = next(keys)
        assert model(k) == k * k

    _run_concurrently(6, miss)
    assert most[0] == two_slots  # six misses, never more than two computing
    # a hit takes no slot: with both slots held elsewhere it still returns at once
    heavy._SEM.acquire()
    heavy._SEM.acquire()
    try:
        out = []
        t = threading.Thread(target=lambda: out.append(model(3)))
        t.start()
        t.join(5)
        assert out == [9]
    finally:
        heavy._SEM.release()
        heavy._SEM.release()
    model.clear()


def test_at_most_run_slots_page_runs_at_once(monkeypatch):
    monkeypatch.setattr(heavy, "_RUN_SEM", threading.BoundedSemaphore(3))
    running, most, lock = [0], [0], threading.Lock()

    def run():
        with heavy.run_slot(), heavy.run_slot():  # re-entrant
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            time.sleep(0.05)
            with lock:
                running[0] -= 1

    _run_concurrently(9, run)
    assert most[0] == 3


def test_heavy_uploads_leave_run_slots_and_a_heavy_slot_to_cheap_runs(monkeypatch):
    """Issue 42 item 3: four sessions parsing uploads (bulk work) while another session reruns a cheap page:
    the uploads lend their run slots back and take at most SLOTS - CHEAP_SLOTS heavy slots, so the cheap run
    (which even misses its cache once) goes through while every upload is still working."""
    monkeypatch.setattr(heavy, "_RUN_SEM", threading.BoundedSemaphore(2))
    monkeypatch.setattr(heavy, "_SEM", threading.BoundedSemaphore(2))
    monkeypatch.setattr(heavy, "_BULK_SEM", threading.BoundedSemaphore(1))  # 2 heavy slots, 1 kept for cheap work
    release, started, cheap_done = threading.Event(), threading.Semaphore(0), threading.Event()

    def upload():
        with heavy.run_slot():
            started.release()
            with heavy.heavy_slot(bulk=True):
                release.wait(30)

    def cheap():
        with heavy.run_slot(), heavy.heavy_slot():
            cheap_done.set()

    uploads = [threading.Thread(target=upload) for _ in range(4)]
    for t in uploads:
        t.start()
    for _ in range(4):  # every upload got a run slot (lent back inside its bulk work)
        assert started.acquire(timeout=30)
    c = threading.Thread(target=cheap)
    c.start()
    c.join(30)
    assert cheap_done.is_set() and not release.is_set()  # done while the uploads still hold their work
    release.set()
    for t in uploads:
        t.join(30)
    assert not any(t.is_alive() for t in uploads)
