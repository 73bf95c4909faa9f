"""Fixtures shared by the app tests (Streamlit AppTest; the browser tests' server)."""

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


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The app served on a free local port (``streamlit run app/main.py``), its URL: one server per test session
    (per pytest-xdist worker) for every browser test file, as users share one server.

    Each file used to start its own (module scope): a server's start and its first visit of each page (imports,
    bundled data read into its caches) were paid again by every browser file. Each test still opens its own
    browser sessions (a new session has its own state); what is shared is only what a server shares between its
    users (its caches). The server's output goes to a file (a pipe nobody reads would block it once full) and is
    shown if it does not start."""
    yield from _serve(tmp_path_factory)


@pytest.fixture(scope="module")
def own_server(tmp_path_factory):
    """A server of the test file's own (see :func:`server`), stopped at the file's end: for a file whose work may
    outlive its browser (a long streamed read the script run still finishes) and would slow the shared server's
    next users."""
    yield from _serve(tmp_path_factory)


def _serve(tmp_path_factory):
    """Start the app on a free local port, yield its URL, stop it (see :func:`server`)."""
    import os
    import subprocess
    import sys
    import time
    import urllib.request
    from pathlib import Path

    from tests import ROOT
    from tests.app.test_browser import CHROMIUM

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} missing: `make test` installs Debian's chromium (apt-get install chromium)")
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = tmp_path_factory.mktemp("server") / "streamlit.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / "app" / "main.py"), "--server.port", str(port),
             "--server.address", "127.0.0.1", "--server.headless", "true"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        proc.wait()
        pytest.fail("streamlit server did not become healthy: " + log.read_text(errors="replace")[-2000:])
    yield url
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
