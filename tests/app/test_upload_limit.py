"""The upload box shows the upload limit that applies (issue 18: it read "1GB per file" while the limit was
512 MB).

Streamlit's frontend converts ``server.maxUploadSize`` [MB] to bytes and formats it for the box with whole
units, in powers of 1000 (1024 on Windows), moving up a unit above half of the next one: 512 MB became
"1GB". :func:`shown` is that formatting (``getSizeDisplay`` of Streamlit's frontend, ``FileUploader``'s
dropzone text); tests/app/test_browser_theme.py reads the text a real browser shows.
"""

from __future__ import annotations

import tomllib

import pytest
from streamlit.testing.v1 import AppTest

from tests import ROOT

UNITS = ["gb", "mb", "kb", "b"]


def shown(size_bytes: float, unit: str = "b", *, base: int = 1000) -> str:
    """The upload box's text for a limit of ``size_bytes``: whole units, one up while above half a unit."""
    i = UNITS.index(unit)
    if i and size_bytes > base / 2:
        return shown(size_bytes / base, UNITS[i - 1], base=base)
    return f"{size_bytes:.0f}{unit.upper()}"


def limit_mb() -> int:
    with open(ROOT / ".streamlit" / "config.toml", "rb") as f:
        return int(tomllib.load(f)["server"]["maxUploadSize"])


@pytest.mark.parametrize("mb, base, text", [(512, 1000, "1GB"), (512, 1024, "512MB"), (200, 1000, "200MB"),
                                            (500, 1000, "500MB"), (501, 1000, "1GB"), (2048, 1024, "2GB")])
def test_formatting_reproduces_what_the_box_showed(mb, base, text):
    assert shown(mb * base ** 2, base=base) == text


@pytest.mark.parametrize("base", [1000, 1024], ids=["linux-mac", "windows"])
def test_the_box_shows_the_configured_limit(base):
    mb = limit_mb()
    assert shown(mb * base ** 2, base=base) == f"{mb}MB", "the box would round the limit to another number"


def test_no_uploader_overrides_the_limit():
    """Every upload of the app uses ``server.maxUploadSize`` (no per-widget ``max_upload_size``), and the
    widget sent to the browser carries it."""
    hits = [p.relative_to(ROOT) for p in (ROOT / "app").rglob("*.py") if "max_upload_size" in p.read_text()]
    assert hits == []
    at = AppTest.from_file(str(ROOT / "app" / "views" / "device_char.py"), default_timeout=120).run()
    assert not at.exception, [e.message for e in at.exception]
    sizes = {u.proto.max_upload_size_mb for u in at.file_uploader}
    assert sizes == {limit_mb()}, sizes
