"""A scenario field's label is declared once, on the field (``Field(..., title=...)``), and read by its widget
and by every message about it (issue 40).

The labels used to be recovered at run time by parsing the page's source (:mod:`ast`) for widgets keyed by a
field, or registered by the input helpers as they drew them, so a message drawn before its widget named
the field differently. Now (static rules over every page and the trace picker):

- a widget keyed by a scenario field (``key=S.key("f")``) takes its label from the field (``S.label("f")``),
  never a string written at the call (a second copy that could drift from the messages);
- the input helpers (``int_input``, ``float_input``, ``text_list_input``) take no label: they draw the title;
- every field drawn by ``S.label`` or a helper declares its title.
"""

from __future__ import annotations

import ast

import pytest

from tests.app.test_app_state import (
    PAGE_FILES,
    TRACES,
    _func_name,
    _page_namespace,
    _page_scenarios,
)

HELPERS = {"int_input", "float_input", "text_list_input"}


def _key_field(node: ast.AST | None, classes: set[str]) -> str | None:
    """``S.key("f")`` / ``_k(key, "f")`` -> ``"f"``."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    f = node.func
    if isinstance(f, ast.Attribute) and f.attr == "key" and isinstance(f.value, ast.Name) and f.value.id in classes:
        a = node.args[0]
    elif isinstance(f, ast.Name) and f.id == "_k" and len(node.args) == 2:
        a = node.args[1]
    else:
        return None
    return a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None


def label_problems(tree: ast.Module, cls, classes: set[str]) -> tuple[list[str], set[str]]:
    """(widgets of ``cls``' fields labelled by a string written at the call, fields whose widget reads the
    declared label)."""
    bad, read = [], set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _func_name(node)
        if name in HELPERS and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in classes:
            field = node.args[1].value if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) else None
            if len(node.args) > 2 or any(k.arg == "label" for k in node.keywords):
                bad.append(f"{node.lineno}: {name}(..., {field!r}, <label>)")
            if field:
                read.add(field)
            continue
        if name == "label" and isinstance(node.func, ast.Attribute) and node.args \
                and isinstance(node.args[0], ast.Constant):
            read.add(node.args[0].value)
            continue
        field = _key_field(next((k.value for k in node.keywords if k.arg == "key"), None), classes)
        if field is None or field not in cls.model_fields or not node.args:
            continue
        label = node.args[0]
        if isinstance(label, ast.Constant) and isinstance(label.value, str):
            bad.append(f"{node.lineno}: {name}({label.value!r}, key=...{field!r})")
    return bad, read


def _pages():
    from app.components.traces import TraceChoice

    out = [("traces.py", ast.parse(TRACES.read_text()), TraceChoice, {"TraceChoice"})]
    for path in PAGE_FILES:
        ns, tree = _page_namespace(path)
        scns = _page_scenarios(ns)
        if scns:
            out.append((path.name, tree, scns[0], {"S", scns[0].__name__}))
    return out


PAGES = _pages()


@pytest.mark.parametrize("name, tree, cls, classes", PAGES, ids=[p[0] for p in PAGES])
def test_widgets_read_the_label_declared_on_the_field(name, tree, cls, classes):
    bad, read = label_problems(tree, cls, classes)
    assert not bad, f"{name}: declare the label on the field (title=) and draw S.label(field): {bad}"
    untitled = sorted(f for f in read if f in cls.model_fields and not cls.model_fields[f].title)
    assert not untitled, f"{name}: fields drawn with their label but declaring none (title=): {untitled}"


def test_every_page_declares_its_labels():
    assert len(PAGES) >= 14
    for name, tree, cls, classes in PAGES:
        _, read = label_problems(tree, cls, classes)
        assert read, f"{name}: no widget reads a declared label"


def test_the_rule_finds_a_label_written_at_the_call():
    """The check can fail: a literal label next to ``key=S.key(...)``, or passed to a helper."""
    from pydantic import Field

    from app.components.scenario import Scenario

    class X(Scenario):
        PREFIX = "x"
        drive: str = Field("a", title="Drive")
        n: int = 1

    src = ('st.selectbox("Drive", ["a"], key=S.key("drive"))\n'
           'st.selectbox(S.label("drive"), ["a"], key=S.key("drive"))\n'
           'int_input(S, "n", "Count")\n'
           'int_input(S, "n")\n')
    bad, read = label_problems(ast.parse(src), X, {"S"})
    assert bad == ["1: selectbox('Drive', key=...'drive')", "3: int_input(..., 'n', <label>)"]
    assert read == {"drive", "n"}
    assert X.label("drive") == "Drive" and X.label("n") == "n"
