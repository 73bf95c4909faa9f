"""Slow bundled-data results kept on disk between server starts (app/components/diskcache.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from app.components import diskcache

ROOT = Path(__file__).resolve().parents[2]


def test_result_is_computed_once_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    calls = []

    def compute():
        calls.append(1)
        return {"lulesh": 1.5e8}

    assert diskcache.disk_cached("t", compute) == {"lulesh": 1.5e8}
    assert diskcache.disk_cached("t", compute) == {"lulesh": 1.5e8}
    assert len(calls) == 1
    assert [p.parent for p in tmp_path.rglob("t-*.json")] == [tmp_path / "pcm-planner"]


def test_other_code_or_data_recomputes_and_drops_the_old_file(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    diskcache.disk_cached("t", lambda: 1)
    monkeypatch.setattr(diskcache, "code_data_fingerprint", lambda *a: "other")
    assert diskcache.disk_cached("t", lambda: 2) == 2
    assert [p.name for p in (tmp_path / "pcm-planner").glob("t-*.json")] == ["t-other.json"]


def test_a_corrupt_cache_file_is_recomputed(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(diskcache, "code_data_fingerprint", lambda *a: "fp")
    (tmp_path / "pcm-planner").mkdir()
    (tmp_path / "pcm-planner" / "t-fp.json").write_bytes(b"\x80\x04garbage")
    assert diskcache.disk_cached("t", lambda: 3) == 3


def _planted(tmp_path, monkeypatch, name: str, body: bytes) -> Path:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(diskcache, "code_data_fingerprint", lambda *a: "fp")
    (tmp_path / "pcm-planner").mkdir(exist_ok=True)
    p = tmp_path / "pcm-planner" / name
    p.write_bytes(body)
    return p


def test_a_pickle_in_the_cache_directory_is_never_loaded(tmp_path, monkeypatch):
    """Issue 42 item 11: a hostile pickle planted where the old cache file lived runs no code."""
    import pickle

    class Boom:
        def __reduce__(self):
            return (os.system, (f"touch {tmp_path / 'pwned'}",))

    _planted(tmp_path, monkeypatch, "t-fp.pkl", pickle.dumps(Boom()))
    _planted(tmp_path, monkeypatch, "t-fp.json", pickle.dumps(Boom()))
    assert diskcache.disk_cached("t", lambda: 4) == 4
    assert not (tmp_path / "pwned").exists()
    assert not (tmp_path / "pcm-planner" / "t-fp.pkl").exists()  # the old format is dropped


def test_a_wrong_type_or_tampered_file_is_ignored_and_recomputed(tmp_path, monkeypatch):
    """Issue 42 item 11: a well-formed file of the wrong type (which broke the lifetime page on every restart)
    or whose value does not match its hash is recomputed, not returned."""
    import hashlib

    text = json.dumps("not a number", sort_keys=True, separators=(",", ":"))
    doc = {"sha256": hashlib.sha256(text.encode()).hexdigest(), "value": "not a number"}
    p = _planted(tmp_path, monkeypatch, "t-fp.json", json.dumps(doc).encode())
    assert diskcache.disk_cached("t", lambda: 2.5, check=diskcache.finite_float) == 2.5
    assert diskcache.disk_cached("t", lambda: 9.0, check=diskcache.finite_float) == 2.5  # the good file, read back
    good = json.loads(p.read_text())
    p.write_text(json.dumps({**good, "value": 7.0}))  # edited without its hash
    assert diskcache.disk_cached("t", lambda: 3.5, check=diskcache.finite_float) == 3.5


def test_the_lifetime_rates_check_refuses_a_wrong_shape():
    from app.components.write_rates import _rates_and_sources

    assert _rates_and_sources([{"a": 1}, {"a": "x"}]) == ({"a": 1.0}, {"a": "x"})
    for bad in ([], [{"a": "x"}, {}], [{"a": 1}, {"a": 2}], {"a": 1}, [{"a": float("nan")}, {}]):
        with pytest.raises((ValueError, TypeError)):
            _rates_and_sources(bad)


def test_the_key_follows_the_module_defining_the_computation(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(diskcache, "code_data_fingerprint", lambda m, d: seen.append((m, d)) or "fp")
    from models.endurance import lifetime as lt

    diskcache.disk_cached("a", lambda: 1)
    diskcache.disk_cached("b", partial(sorted, []), data=("traces/mem",))
    diskcache.disk_cached("c", lt.figure2_table, code=["models.devices"])
    assert seen == [((__name__,), ("**/*",)), (("builtins",), ("traces/mem",)),
                    (("models.devices",), ("**/*",))]


def test_fingerprint_is_stable():
    assert diskcache.code_data_fingerprint() == diskcache.code_data_fingerprint()
    assert len(diskcache.code_data_fingerprint()) == 24
    fp = diskcache.code_data_fingerprint(("models.endurance.lifetime",), ("devices.csv",))
    assert len(fp) == 24 and fp != diskcache.code_data_fingerprint()


@pytest.fixture
def fake_package(tmp_path, monkeypatch):
    """A package ``fakepkg`` whose module ``a`` reaches ``b`` inside a function, ``b`` reaches ``c``
    relatively and ``e`` as ``from fakepkg import e``; ``d`` is reached by nothing."""
    pkg = tmp_path / "fakepkg"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": '"""Package."""\n',
        "a.py": "import numpy as np\n\n\ndef f():\n    from fakepkg.sub import b\n    return b\n",
        "sub/__init__.py": "",
        "sub/b.py": "from ..c import (\n    x,\n    y as z,\n)\nfrom fakepkg import e\n",
        "c.py": "x = y = 1\n",
        "d.py": "import fakepkg.a\n",
        "e.py": "",
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    monkeypatch.setattr(diskcache, "PACKAGE", "fakepkg")
    monkeypatch.setattr(diskcache, "_package_dir", lambda: pkg)
    for f in (diskcache.model_closure, diskcache.code_data_fingerprint):
        f.cache_clear()
    yield pkg
    for f in (diskcache.model_closure, diskcache.code_data_fingerprint):
        f.cache_clear()


def test_closure_follows_imports_in_functions_relative_and_submodules(fake_package):
    got = {str(p.relative_to(fake_package)) for p in diskcache.model_closure("fakepkg.a")}
    assert got == {"__init__.py", "a.py", "sub/__init__.py", "sub/b.py", "c.py", "e.py"}


def test_an_edit_outside_the_closure_keeps_the_key_an_edit_inside_changes_it(fake_package, monkeypatch):
    monkeypatch.setattr(diskcache, "data_fingerprint", lambda patterns: "data")

    def key():
        diskcache.model_closure.cache_clear()
        diskcache.code_data_fingerprint.cache_clear()
        return diskcache.code_data_fingerprint(("fakepkg.a",), ())

    k0 = key()
    (fake_package / "d.py").write_text("import fakepkg.a\nX = 2\n")
    assert key() == k0
    (fake_package / "c.py").write_text("x = y = 2\n")
    assert key() != k0


def test_data_fingerprint_reads_content_of_the_matching_files_only(tmp_path, monkeypatch):
    import models.data

    (tmp_path / "traces" / "mem").mkdir(parents=True)
    (tmp_path / "traces" / "mem" / "t.npz").write_bytes(b"a")
    (tmp_path / "other.csv").write_text("x\n1\n")
    monkeypatch.setattr(models.data, "data_dir", lambda: tmp_path)
    k0 = diskcache.data_fingerprint(("traces/mem",))
    (tmp_path / "other.csv").write_text("x\n2\n")
    assert diskcache.data_fingerprint(("traces/mem",)) == k0
    assert diskcache.data_fingerprint(("traces/mem/*.npz",)) == k0  # a folder = everything under it
    os.utime(tmp_path / "traces" / "mem" / "t.npz", (1, 1))  # same content, another mtime (a fresh clone)
    assert diskcache.data_fingerprint(("traces/mem",)) == k0
    (tmp_path / "traces" / "mem" / "t.npz").write_bytes(b"b")  # same size, other content
    assert diskcache.data_fingerprint(("traces/mem",)) != k0


def test_the_lifetime_closure_leaves_out_unrelated_models():
    names = {p.relative_to(diskcache._package_dir()).as_posix() for p in diskcache.model_closure("models.endurance.lifetime")}
    assert {"endurance/lifetime.py", "memory/memory_extension.py", "memory/measured.py", "traces/loader.py",
            "provenance/__init__.py", "provenance/catalog/memory.py", "devices.py"} <= names  # also the imports
    # inside functions, and the registry's declarations behind the package's re-exports
    assert not {n for n in names if n.startswith(("validation/", "uncertainty/", "storage/", "planner"))}


def test_the_lifetime_rates_declare_every_bundled_file_they_read():
    """The data the disk-cached write rates are keyed by (app/components/write_rates.py RATE_DATA) covers
    every bundled file a fresh process opens to compute the default rate, and every bundled memory trace."""
    from app.components.write_rates import RATE_DATA as patterns

    code = f"""
import json, sys
sys.path.insert(0, {str(ROOT)!r})
from models.data import data_dir
root = str(data_dir()) + "/"
opened = set()
sys.addaudithook(lambda ev, args: ev == "open" and isinstance(args[0], str) and args[0].startswith(root)
                 and opened.add(args[0][len(root):]))
from models.endurance import lifetime as lt
from models.traces import bundled_trace_path, bundled_traces
lt.measured_write_rate("lulesh")
from pathlib import Path
traces = [Path(bundled_trace_path(n)).resolve().relative_to(data_dir().resolve()).as_posix()
          for n in bundled_traces("memory")]
print(json.dumps([sorted(opened), traces]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    opened, traces = json.loads(out.stdout.strip().splitlines()[-1])
    assert "traces/mem/lulesh.npz" in opened and traces

    def covered(rel: str) -> bool:
        return any(Path(rel).match(p) or rel.startswith(p.rstrip("/") + "/") or rel == p for p in patterns)

    assert [f for f in opened + traces if not covered(f)] == []


def test_the_default_lulesh_rate_is_the_models_and_is_read_back_from_disk(tmp_path, monkeypatch):
    from app.components import write_rates
    from models.endurance import lifetime as lt

    monkeypatch.setattr(diskcache, "cache_dir", lambda: tmp_path)
    write_rates.lulesh_write_rate.clear()
    value = write_rates.lulesh_write_rate()
    assert value == lt.measured_write_rate("lulesh")
    assert len(list(tmp_path.glob("lifetime-lulesh-write-rate-*.json"))) == 1
    write_rates.lulesh_write_rate.clear()  # a new server process: only the file is left

    def replay(*a, **k):
        raise AssertionError("the trace was replayed")

    lt.measured_write_rate.cache_clear()
    monkeypatch.setattr(lt, "trace_lifetime_rate", replay)
    assert write_rates.lulesh_write_rate() == value
