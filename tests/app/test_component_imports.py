"""No modules of ``app/`` import each other in a circle, lazy imports included (issue 40).

The scenario state, the input helpers, the provenance notes and the device widgets used to import each
other inside functions (scenario -> devices -> inputs -> scenario; inputs -> provenance -> devices ->
inputs). The devices the session holds now live in :mod:`app.components.device_store`, which draws nothing,
and the scenario package's modules run one way (labels < base < messages < persistence < state < controls;
bounds and choices import none of them). The walk is the one of ``tests/test_import_layers.py`` (:mod:`ast`, imports at module
level and inside functions, Tarjan's strongly connected components) over the ``app`` layer.
"""

from __future__ import annotations

from pathlib import Path

from tests.test_import_layers import build_graph, describe_cycles, strongly_connected

#: The modules that hold state and draw nothing: they must not import a widget helper.
WIDGET_FREE = {
    "app.components.device_store": ("app.components.devices", "app.components.inputs", "app.components.scenario",
                                    "app.components.provenance"),
}


def _app_graph(root: Path | None = None):
    graph, _ = build_graph(root, layers=("app",)) if root is not None else build_graph(layers=("app",))
    return graph


def test_app_modules_import_each_other_in_no_circle():
    graph = _app_graph()
    assert {"app.components.scenario", "app.components.device_store", "app.components.inputs"} <= set(graph)
    assert sum(len(v) for v in graph.values()) > 100, "the walk reads the imports"
    comps = strongly_connected(graph)
    assert not comps, "import circles:\n" + describe_cycles(graph, comps)


def test_the_device_store_imports_no_widget_helper():
    graph = _app_graph()
    for mod, banned in WIDGET_FREE.items():
        bad = [t for t in graph[mod] if t.startswith(banned)]
        assert not bad, f"{mod} imports {bad}"


def test_the_walk_finds_a_circle_through_a_lazy_import(tmp_path):
    """The check can fail: the old circle (a store importing a widget helper inside a function)."""
    files = {
        "app/__init__.py": "",
        "app/components/__init__.py": "",
        "app/components/store.py": "def f():\n    from app.components.widgets import g  # lazy\n",
        "app/components/widgets.py": "from app.components.store import f\n",
        "app/components/other.py": "from app.components import store\n",
    }
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    graph = _app_graph(tmp_path)
    assert graph["app.components.store"] == {"app.components.widgets": 2}
    comps = strongly_connected(graph)
    assert comps == [["app.components.store", "app.components.widgets"]]
    assert "app.components.store:2 -> app.components.widgets" in describe_cycles(graph, comps)
