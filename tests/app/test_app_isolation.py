"""Sessions share nothing but exact results, and user content is shown as text (issue 20).

- Caches: every ``st.cache_data`` / ``st.cache_resource`` of the app is bounded (``max_entries``)
  and keyed by exact values: an argument Streamlit does not hash (``_trace``) travels with the
  trace's content hash (``fingerprint``), and no hashed argument is an array or a frame (Streamlit
  hashes a sample of those above 500,000 elements / 50,000 rows).
- The issue's reproducer: two sessions upload different traces with the same file name, length
  and column sums; the second session sees its own results (those of a run with empty caches),
  not the first one's. Streamlit's caches are per process, so two AppTests in one test are two
  sessions of one server.
- Markdown: :func:`app.components.errors.md_escape` renders as exactly its characters (CommonMark
  + GFM tables and strikethrough, the markdown-it reference renderer); an uploaded field or file
  name ``![x](http://127.0.0.1:1/p.png)`` is shown as text on the pages, never as an image.
"""

from __future__ import annotations

import ast
import html
import re
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from hypothesis import given, settings
from hypothesis import strategies as hs
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from app.components.errors import md_escape
from models.traces import load
from models.traces.stats import trace_stats

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
VIEWS = APP / "views"
EVIL = "![x](http://127.0.0.1:1/p.png)"
EVIL_NAME = '=HYPERLINK("http://127.0.0.1:1/")![n](http://127.0.0.1:1/n.png).trace'
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


# ----------------------------------------------------------------------------- caches (static)

@cache
def _cached_functions() -> tuple:
    """(file, function node, decorator call) of every st.cache_data / st.cache_resource in app/.

    Parsed once per session (every parametrized case reads the same files; they do not change during a run).
    """
    out = []
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.FunctionDef):
                continue
            for dec in node.decorator_list:
                text = ast.unparse(dec)
                if re.match(r"st\.cache_(data|resource)\b", text):
                    out.append((path.relative_to(ROOT), node, dec))
    return tuple(out)


def test_the_app_has_caches_to_check():
    assert len(list(_cached_functions())) >= 10


@pytest.mark.parametrize("where", [f"{p}:{n.name}" for p, n, _ in _cached_functions()])
def test_every_cache_is_bounded_and_keyed_by_exact_values(where):
    path, node, dec = next((p, n, d) for p, n, d in _cached_functions() if f"{p}:{n.name}" == where)
    assert isinstance(dec, ast.Call) and any(k.arg == "max_entries" for k in dec.keywords), \
        f"{where}: give the cache max_entries (the server's memory is shared by every session)"
    args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
    unhashed = [a.arg for a in args if a.arg.startswith("_")]
    if unhashed:
        assert any(a.arg in ("fingerprint", "token") for a in args), \
            f"{where}: {unhashed} are not hashed by Streamlit; pass the content hash (fingerprint()) too"
    for a in args:
        if a.arg.startswith("_") or a.annotation is None:
            continue
        ann = ast.unparse(a.annotation)
        assert not re.search(r"ndarray|DataFrame|Series|BlockTrace|MemTrace", ann), \
            f"{where}: argument {a.arg}: {ann} is hashed from a sample; pass it unhashed (_{a.arg}) with its hash"


# ----------------------------------------------------------------------------- two sessions

def _mqsim(lbas) -> bytes:
    return "".join(f"{1000 * i} 0 {lba} 8 1\n" for i, lba in enumerate(lbas)).encode()


def _lackey(pages) -> bytes:
    return "".join(f" L {0x10000000 + (p << 12) + 64 * k:08x},8\n" for p in pages for k in range(4)).encode()


def _twins(kind: str) -> tuple[bytes, bytes]:
    """Two different traces with the same length, column sums and (once uploaded) name."""
    rng = np.random.default_rng(7)
    if kind == "block":
        loops = 8 * np.tile(np.arange(100), 4)  # sequential sweeps; shuffled, the same lines
        return _mqsim(loops), _mqsim(rng.permutation(loops))
    sweep = np.tile(np.arange(600), 6)
    return _lackey(sweep), _lackey(rng.permutation(sweep))


@pytest.mark.parametrize("kind", ["block", "memory"])
def test_twins_agree_on_name_length_and_column_sums(kind):
    a, b = _twins(kind)
    ta, tb = (load(x, kind=kind, name=EVIL_NAME) for x in (a, b))
    cols = ("time_ns", "is_write", "offset_bytes", "size_bytes", "device") if kind == "block" else \
        ("address", "size", "kind")
    assert len(a) == len(b) and a != b and ta.name == tb.name and len(ta) == len(tb)
    assert all(int(getattr(ta, c).sum()) == int(getattr(tb, c).sum()) for c in cols)
    assert ta.fingerprint() != tb.fingerprint()


def _session(page: str, prefix: str, data: bytes, fmt: str) -> AppTest:
    at = AppTest.from_file(str(VIEWS / page), default_timeout=240)
    at.query_params["trace_source"] = "upload"
    at.query_params["upload_format"] = fmt
    at.run()
    at.file_uploader(key=f"{prefix}.upload").set_value((EVIL_NAME, data, "application/octet-stream")).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def _outputs(at: AppTest):
    return ([(m.label, m.value) for m in at.metric], [d.value.to_csv() for d in at.dataframe])


def _bodies(at: AppTest) -> list[str]:
    """The Markdown sources of the session's messages, captions, headings, labels and metrics."""
    out = []
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "subheader", "header", "title"):
        out += [e.value for e in at.get(kind)]
    out += [m.label for m in at.metric] + [e.label for e in at.expander]
    return out


def _shown_safely(at: AppTest) -> None:
    for body in _bodies(at):
        rendered = MD.render(body)
        assert "<img" not in rendered and "127.0.0.1:1" not in " ".join(re.findall(r'(?:href|src)="[^"]*"', rendered)), \
            body


def _formula_safe(at: AppTest) -> int:
    """Check every text cell of the session's tables (the grid's copy would paste it); the cells checked."""
    cells = 0
    for d in at.dataframe:
        df = d.value
        for v in [*map(str, df.columns), *(x for c in df.columns for x in df[c] if isinstance(x, str))]:
            assert not v.startswith(FORMULA_START), v
            cells += 1
    return cells


@pytest.mark.parametrize("page,prefix,fmt,kind", [
    ("trace_explorer.py", "tx", "mqsim", "block"),
    ("file_cache_sim.py", "fcs", "mqsim", "block"),
    ("paging.py", "pg", "lackey", "memory"),
])
def test_a_second_session_never_sees_the_first_sessions_results(page, prefix, fmt, kind):
    a, b = _twins(kind)
    st.cache_data.clear()
    at_a = _session(page, prefix, a, fmt)
    at_b = _session(page, prefix, b, fmt)  # another session, same server caches
    st.cache_data.clear()
    alone = _session(page, prefix, b, fmt)  # B with nothing cached
    assert _outputs(at_b) == _outputs(alone)
    assert _outputs(at_a) != _outputs(at_b)
    for at in (at_a, at_b):
        _shown_safely(at)  # the file name is shown as text
        assert _formula_safe(at) > 0
    if page == "trace_explorer.py":  # the symptom: B saw A's sequential fraction
        stats = at_b.dataframe[0].value
        from app.components.tables import number_text

        seq = stats.set_index(stats.columns[0]).loc["sequential (share of requests)"].iloc[0]
        want = trace_stats(load(b, format="mqsim"), 4096).sequential_fraction
        assert seq == number_text(want, "percent")  # as shown: a share, in percent
        assert want < 0.1 < trace_stats(load(a, format="mqsim"), 4096).sequential_fraction


# ----------------------------------------------------------------------------- Markdown escaping

def _text_of(rendered: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", rendered)).split())


_TAGS = re.compile(r"</?([a-z0-9]+)")


@settings(max_examples=300, deadline=None)
@given(hs.lists(hs.characters(codec="utf-8", exclude_categories=("Cs", "Cc")) | hs.sampled_from(
    list("\\`*_[]()<>#+-.!|~$&@:=/ \n\t0123456789x") + ["http://", "www.", "```", "&amp;", "    ", "1. ", "a@b.c"]),
    max_size=40).map("".join))
def test_md_escape_renders_as_exactly_the_text(text):
    rendered = MD.render(md_escape(text))
    assert set(_TAGS.findall(rendered)) <= {"p", "br"}, (text, rendered)
    assert _text_of(rendered) == " ".join(text.split()), (text, rendered)


def test_md_escape_keeps_field_names_and_cuts_long_text():
    assert md_escape("Tm_ns: must be > 0 (got -1)") == "Tm_ns: must be \\> 0 (got -1)"
    assert md_escape("x" * 500, 100) == "x" * 100 + "…"


def test_an_uploaded_field_is_shown_as_text_not_as_an_image():
    at = AppTest.from_file(str(VIEWS / "trace_explorer.py"), default_timeout=240)
    at.query_params["trace_source"] = "upload"
    at.query_params["upload_format"] = "mqsim"
    at.run()
    at.file_uploader(key="tx.upload").set_value(("t.trace", f"0 0 {EVIL} 8 1\n".encode(), "text/plain")).run()
    assert not at.exception
    body = at.error[0].value
    assert "![x](" not in body and "line 1" in body and "lba_sector" in body
    assert EVIL in _text_of(MD.render(body))  # the user sees the characters of the field
    _shown_safely(at)
