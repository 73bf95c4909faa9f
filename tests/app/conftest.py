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
