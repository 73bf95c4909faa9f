"""The label the user sees for a scenario field (messages name it instead of the field)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from app.components.scenario.base import Scenario

#: Widget labels of scenario fields, ``(PREFIX, field) -> label``, registered by the input helpers.
_WIDGET_LABELS: dict[tuple[str, str], str] = {}


def register_label(cls: type[Scenario], field: str, label: str) -> None:
    """Remember the label the page shows for ``field`` (messages name it instead of the field)."""
    _WIDGET_LABELS[(cls.PREFIX, field)] = label


def _call_name(node: ast.AST) -> str:
    f = node.func if isinstance(node, ast.Call) else None
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


@cache
def _source_labels(path: str, mtime: float) -> dict[str, str]:
    """``field -> label`` of the widgets in a page (or the trace picker) source: calls whose first
    argument is a string literal and whose ``key=`` is ``<X>.key("field")`` or ``_k(key, "field")``."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        label = node.args[0]
        if not (isinstance(label, ast.Constant) and isinstance(label.value, str)):
            continue
        key = next((k.value for k in node.keywords if k.arg == "key"), None)
        if not isinstance(key, ast.Call) or not key.args:
            continue
        name = _call_name(key)
        arg = key.args[-1] if name in ("key", "_k") else None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            out.setdefault(arg.value, label.value)
    return out


def _learn_labels(cls: type[Scenario], page_file: str | None) -> None:
    """Register the labels of ``cls``' widgets read from the page source and the trace picker's."""
    files = [page_file] if page_file else []
    if "trace_source" in cls.model_fields:  # a TraceChoice: its widgets are drawn by the trace picker
        files.append(str(Path(__file__).parents[1] / "traces.py"))
    for f in files:
        try:
            labels = _source_labels(f, Path(f).stat().st_mtime)
        except OSError:
            continue
        for field, label in labels.items():
            if field in cls.model_fields:
                _WIDGET_LABELS.setdefault((cls.PREFIX, field), label)


def field_label(cls: type[Scenario], field: str) -> str:
    """The label the user sees for ``field``: registered by its widget, else ``cls.LABELS``, else the
    field name made readable (``sizes_kib`` -> "sizes [KiB]")."""
    label = _WIDGET_LABELS.get((cls.PREFIX, field)) or cls.LABELS.get(field)
    if label:
        return label
    from app.components.tables import human_label

    return human_label(field)
