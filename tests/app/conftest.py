"""Fixtures shared by the app tests (Streamlit AppTest)."""

from __future__ import annotations

from functools import cache

import pytest


@pytest.fixture(scope="session", autouse=True)
def _one_component_scan_per_session():
    """Scan the installed packages for Streamlit (v2) component manifests once per test session.

    Each new ``AppTest`` scans every installed distribution's metadata on its first run (about 0.25 s
    of CPU, over a hundred AppTests in the suite), where a server scans once when it starts
    (``streamlit.runtime.Runtime``). The installed packages do not change during a run, so the
    first scan's answer is the answer of every later one; each AppTest still registers the
    components itself (``BidiComponentManager.register_from_manifest``).
    """
    from streamlit.components.v2 import manifest_scanner

    scan = cache(manifest_scanner.scan_component_manifests)
    mp = pytest.MonkeyPatch()
    mp.setattr(manifest_scanner, "scan_component_manifests", lambda max_workers=None: list(scan()))
    yield
    mp.undo()


@pytest.fixture(scope="session", autouse=True)
def _one_compile_per_page_source():
    """Compile each page script once per test session, as a server does, not once per ``AppTest`` run.

    Every ``AppTest.run()`` builds a new ``ScriptCache``, so each run reads the page, rewrites it for Streamlit's
    "magic" (an AST walk) and compiles it again: tens of ms of CPU per run for the larger pages, over
    thousands of runs in the suite. A server keeps one ``ScriptCache`` for all its sessions and reruns
    (``streamlit.runtime.Runtime``). Here the compiled code is kept per path *and source text* (the file is
    still read on every run, so an edited or regenerated script is compiled afresh) and magic setting; each
    run still executes the code in a fresh module namespace, as before.
    """
    import os

    from streamlit import config
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    compiled: dict[tuple[str, bytes, bool], object] = {}

    class SharedScriptCache(ScriptCache):
        def get_bytecode(self, script_path: str):
            path = os.path.abspath(script_path)
            with open(path, "rb") as f:
                key = (path, f.read(), bool(config.get_option("runner.magicEnabled")))
            if key not in compiled:
                compiled[key] = super().get_bytecode(script_path)
            return compiled[key]

    mp = pytest.MonkeyPatch()
    mp.setattr(app_test, "ScriptCache", SharedScriptCache)
    mp.setattr(local_script_runner, "ScriptCache", SharedScriptCache)
    yield
    mp.undo()
