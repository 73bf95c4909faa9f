"""Slow bundled-data results kept on disk between server starts (app/components/diskcache.py)."""

from __future__ import annotations

from app.components import diskcache


def test_result_is_computed_once_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    calls = []

    def compute():
        calls.append(1)
        return {"lulesh": 1.5e8}

    assert diskcache.disk_cached("t", compute) == {"lulesh": 1.5e8}
    assert diskcache.disk_cached("t", compute) == {"lulesh": 1.5e8}
    assert len(calls) == 1
    assert [p.parent for p in tmp_path.rglob("t-*.pkl")] == [tmp_path / "pcm-planner"]


def test_other_code_or_data_recomputes_and_drops_the_old_file(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    diskcache.disk_cached("t", lambda: 1)
    monkeypatch.setattr(diskcache, "code_data_fingerprint", lambda: "other")
    assert diskcache.disk_cached("t", lambda: 2) == 2
    assert [p.name for p in (tmp_path / "pcm-planner").glob("t-*.pkl")] == ["t-other.pkl"]


def test_a_corrupt_cache_file_is_recomputed(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(diskcache, "code_data_fingerprint", lambda: "fp")
    (tmp_path / "pcm-planner").mkdir()
    (tmp_path / "pcm-planner" / "t-fp.pkl").write_bytes(b"\x80\x04garbage")
    assert diskcache.disk_cached("t", lambda: 3) == 3


def test_fingerprint_is_stable():
    assert diskcache.code_data_fingerprint() == diskcache.code_data_fingerprint()
    assert len(diskcache.code_data_fingerprint()) == 24
