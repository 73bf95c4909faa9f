"""Every model page shows the strip of its own validation claims right under its title (issue 13 §3)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import app.components.claims as claims
from app.components.claims import read_ledger
from app.registry import PAGES

VIEWS = Path(__file__).resolve().parents[2] / "app" / "views"
#: Pages without a strip: the landing page and the validation page itself (it lists every claim).
NO_STRIP = {"home.py", "validation.py"}
STRIP_PAGES = [(file, url) for _section, file, _title, _icon, url in PAGES if file not in NO_STRIP]


def _strip_call_after_title(path: Path) -> str | None:
    """The page argument of the ``claims_strip(...)`` statement right after ``st.title(...)``, if any."""
    body = ast.parse(path.read_text()).body
    for i, node in enumerate(body[:-1]):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and ast.unparse(node.value.func) == "st.title":
            nxt = body[i + 1]
            if (isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Call)
                    and ast.unparse(nxt.value.func) == "claims_strip"):
                arg = nxt.value.args[0]
                return arg.value if isinstance(arg, ast.Constant) else None
            return None
    return None


@pytest.mark.parametrize("file, url", STRIP_PAGES, ids=[f for f, _ in STRIP_PAGES])
def test_page_draws_its_own_strip_under_the_title(file, url):
    assert _strip_call_after_title(VIEWS / file) == url


def test_every_claim_is_shown_on_a_page():
    """Each ledger row's page is a registered page that draws the strip (no claim left off every page)."""
    assert set(read_ledger()["page"]) <= {url for _f, url in STRIP_PAGES}


@pytest.mark.parametrize("file, url", [("break_even.py", "break-even"),
                                       ("device_char.py", "device-characterization")])
def test_strip_appears_first_on_the_page(file, url):
    at = AppTest.from_file(str(VIEWS / file), default_timeout=120).run()
    assert not at.exception, [e.message for e in at.exception]
    strip = at.markdown[0].value
    assert strip.startswith("Paper claims checked for this page:")
    assert strip.endswith(f"[details](validation?page={url})")
    mine = read_ledger().query("page == @url")
    assert len(mine) > 0
    for status, n in mine["status"].value_counts().items():
        assert f"{n} {status}]" in strip


def test_ledger_is_read_once_across_page_runs(monkeypatch):
    """The strip reads the ledger file once (st.cache_data keyed by its mtime), not on every rerun."""
    reads = []
    real = claims.read_ledger

    def counting(*a, **k):
        reads.append(1)
        return real(*a, **k)

    monkeypatch.setattr(claims, "read_ledger", counting)
    claims._cached_ledger.clear()

    def page():
        from app.components.claims import claims_strip

        claims_strip("paging")
        claims_strip("wear-leveling")

    at = AppTest.from_function(page, default_timeout=60).run()
    at.run()
    assert not at.exception
    assert len(reads) == 1
    assert sum("validation?page=" in m.value for m in at.markdown) == 2
