"""The import layers run one way, and no modules (nor packages) import each other in a circle.

``app/`` and ``cli/`` use ``models/`` and ``reporting/``; ``reporting/`` may use ``models/``;
``models/`` uses neither. The imports of every module under ``models/``, ``reporting/`` and
``cli/`` are read statically (:mod:`ast`): ``import x``, ``from x import y`` (relative ones
resolved), wherever they are written -- at module level or inside a function (lazy imports) --
and ``importlib.import_module("<literal>")``.

Edges of the module graph:

- ``import a.b.c`` is an edge to ``a.b.c`` (a package's ``__init__`` when ``a.b.c`` is a
  package); ``from a.b import c`` is an edge to ``a.b.c`` when ``c`` is a submodule, else to
  ``a.b`` (the package's ``__init__`` when ``a.b`` is a package).

Two things are exempt from the circle checks (not from the back-arrow check), each because it
runs no code of the imported module:

- the parent packages an import runs on the way (``a`` and ``a.b`` for ``import a.b.c``) are
  *not* edges: every submodule of a package would otherwise be in a circle with a package
  ``__init__`` that re-exports it. An ``__init__`` that imports a submodule which imports the
  ``__init__`` by name (``from models.storage import x`` inside ``models/storage/y.py``) is a
  circle like any other;
- imports under ``if TYPE_CHECKING:`` (annotations only, never run): a module may name the type
  of the object it is handed (``models/storage/hdd/seek.py`` annotates a ``DriveSpec``, whose
  module builds on it).

The tests fail on (a) a back arrow (``models`` importing ``reporting``/``cli``/``app``,
``reporting`` importing ``cli``/``app``, ``cli`` importing ``app``), (b) a strongly connected
component of more than one module (Tarjan), printing one circle through each, and (c) the same
at the level of packages: the subpackages and top-level modules of each layer (``models.sim``,
``models.storage``, ``models.devices``, ``cli.commands``, ...), the module graph collapsed onto
them, so ``models.sim`` does not import ``models.storage`` while ``models.storage`` imports
``models.sim``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests import ROOT

#: The layers checked, lowest first; a module may import its own layer and the layers before it.
LAYERS: tuple[str, ...] = ("models", "reporting", "cli")
#: Every layer (``app`` on top, read by nobody).
ALL_LAYERS: tuple[str, ...] = ("models", "reporting", "cli", "app")
#: The layers each checked layer must not import.
FORBIDDEN: dict[str, tuple[str, ...]] = {layer: ALL_LAYERS[ALL_LAYERS.index(layer) + 1:] for layer in LAYERS}


def module_name(path: Path, root: Path) -> str:
    """Dotted name of ``path`` (``a/b/__init__.py`` -> ``a.b``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def find_modules(root: Path, layers=LAYERS) -> dict[str, Path]:
    """Dotted name -> file of every module under ``layers``."""
    return {module_name(p, root): p for layer in layers for p in sorted((root / layer).rglob("*.py"))}


def _import_module_literal(node: ast.Call) -> str | None:
    """The literal name of ``importlib.import_module("x")`` / ``import_module("x")``, else None."""
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    if name == "import_module" and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str) and not node.args[0].value.startswith("."):
        return node.args[0].value
    return None


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """``id`` of every node under an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``) block."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (getattr(node.test, "id", None) == "TYPE_CHECKING"
                                         or getattr(node.test, "attr", None) == "TYPE_CHECKING"):
            out.update(id(n) for st in node.body for n in ast.walk(st))
    return out


def imports_of(source: str, module: str, is_package: bool) -> list[tuple[str, tuple[str, ...], int, bool]]:
    """``(imported module, names imported from it, line, type-checking only)`` of every import in ``source``.

    Relative imports are resolved against ``module`` (a package resolves ``.`` to itself).

    >>> imports_of("import a.b\\nfrom . import c, d\\nif TYPE_CHECKING:\\n    from ..e import f", "p.q.m", False)
    [('a.b', (), 1, False), ('p.q', ('c', 'd'), 2, False), ('p.e', ('f',), 4, True)]
    """
    tree = ast.parse(source)
    typing_only = _type_checking_nodes(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((a.name, (), node.lineno, id(node) in typing_only) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = module.split(".") if is_package else module.split(".")[:-1]
                pkg = pkg[:len(pkg) - (node.level - 1)]
                base = ".".join(pkg + ([base] if base else []))
            out.append((base, tuple(a.name for a in node.names), node.lineno, id(node) in typing_only))
        elif isinstance(node, ast.Call) and (lit := _import_module_literal(node)):
            out.append((lit, (), node.lineno, id(node) in typing_only))
    return sorted(out, key=lambda t: t[2])


def edges_of(module: str, source: str, modules, is_package: bool) -> list[tuple[str, int]]:
    """``(target module, line)`` of ``module``'s run-time imports of other modules in ``modules``."""
    out = []
    for target, names, line, typing_only in imports_of(source, module, is_package):
        if typing_only:
            continue
        subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in modules]
        others = [n for n in names if f"{target}.{n}" not in modules]
        out.extend((s, line) for s in subs)
        if (others or not names) and target in modules:
            out.append((target, line))
    return [(t, line) for t, line in out if t != module]


def build_graph(root: Path = ROOT, layers=LAYERS):
    """``(graph, raw)``: module -> {target: first line} over ``layers``; raw imports per module."""
    modules = find_modules(root, layers)
    graph: dict[str, dict[str, int]] = {}
    raw: dict[str, list[tuple[str, int]]] = {}
    for mod, path in modules.items():
        src = path.read_text()
        is_pkg = path.name == "__init__.py"
        graph[mod] = {}
        for t, line in edges_of(mod, src, modules, is_pkg):
            graph[mod].setdefault(t, line)
        raw[mod] = [(t, line) for t, _, line, _ in imports_of(src, mod, is_pkg)]
    return graph, raw


def back_arrows(raw) -> list[str]:
    """``"module:line imports target"`` of every import of a layer above the module's."""
    out = []
    for mod, imps in raw.items():
        bad = FORBIDDEN.get(mod.split(".")[0], ())
        out.extend(f"{mod}:{line} imports {t}" for t, line in imps if t.split(".")[0] in bad)
    return out


def strongly_connected(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one node (Tarjan, iterative).

    >>> strongly_connected({"a": {"b": 1}, "b": {"a": 1}, "c": {"a": 1}})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop()
                        on_stack.discard(x)
                        comp.append(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif w not in graph:
                continue
            elif w not in index:
                index[w] = low[w] = counter
                counter += 1
                stack.append(w)
                on_stack.add(w)
                work.append((w, iter(sorted(graph[w]))))
            elif w in on_stack:
                low[v] = min(low[v], index[w])
    return sorted(out)


def a_cycle(graph: dict[str, dict[str, int]], comp: list[str]) -> list[str]:
    """One circle through the first module of ``comp``: ``["a (line) -> b", ...]`` (shortest, by BFS)."""
    members, start = set(comp), comp[0]
    prev: dict[str, str] = {}
    frontier = [start]
    while frontier and start not in prev:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w in members and w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    path = [start]
    while True:
        path.append(prev[path[-1]])
        if path[-1] == start:
            break
    path.reverse()
    return [f"{a}:{graph[a][b]} -> {b}" for a, b in zip(path, path[1:])]


def package_of(module: str) -> str:
    """The unit of the package graph: a layer's subpackage or top-level module (``models.storage.hdd.spec``
    -> ``models.storage``, ``models.devices`` -> ``models.devices``)."""
    return ".".join(module.split(".")[:2])


def package_graph(graph: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """``graph`` collapsed onto :func:`package_of` units; an edge keeps the first module edge behind it,
    as ``{target package: "module:line -> target module"}`` (for the message)."""
    out: dict[str, dict] = {}
    for a in sorted(graph):
        pa = package_of(a)
        out.setdefault(pa, {})
        for b, line in sorted(graph[a].items()):
            pb = package_of(b)
            if pb != pa:
                out[pa].setdefault(pb, f"{a}:{line} -> {b}")
    return out


def describe_cycles(graph, comps) -> str:
    return "\n".join(f"circle among {comp}:\n    " + "\n    ".join(a_cycle(graph, comp)) for comp in comps)


# ----------------------------------------------------------------------------- the tests
@pytest.fixture(scope="module")
def graphs():
    return build_graph()


def test_no_layer_imports_a_layer_above_it(graphs):
    _, raw = graphs
    assert sum(len(v) for v in raw.values()) > 500, "the walk reads the imports"
    bad = back_arrows(raw)
    assert not bad, "back arrows (models < reporting < cli < app):\n" + "\n".join(bad)


def test_no_modules_import_each_other_in_a_circle(graphs):
    graph, _ = graphs
    comps = strongly_connected(graph)
    assert not comps, "import circles:\n" + describe_cycles(graph, comps)


def test_no_packages_import_each_other_in_a_circle(graphs):
    graph, _ = graphs
    pg = package_graph(graph)
    comps = strongly_connected(pg)
    lines = [f"{comp}: " + "; ".join(pg[a][b] for a in comp for b in comp if b in pg[a]) for comp in comps]
    assert not comps, "package circles (an edge each: module:line -> module):\n" + "\n".join(lines)


# ----------------------------------------------------------------------------- the checks can fail
def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp_path


def test_the_checks_find_a_back_arrow_and_a_circle(tmp_path):
    root = _tree(tmp_path, {
        "models/__init__.py": "",
        "models/a.py": "def f():\n    from models.pkg import b  # lazy\n",
        "models/pkg/__init__.py": "from .b import g\n",
        "models/pkg/b.py": "import importlib\nX = importlib.import_module('models.a')\n",
        "models/c.py": "from reporting.r import h\n",
        "reporting/__init__.py": "",
        "reporting/r.py": "from models import c\nimport app.x\n",
        "cli/__init__.py": "",
        "cli/m.py": "from models.pkg import b\nfrom reporting import r\n",
    })
    graph, raw = build_graph(root)
    assert graph["models.a"] == {"models.pkg.b": 2}  # a submodule imported by name is an edge to it
    assert graph["models.pkg"] == {"models.pkg.b": 1}
    assert sorted(back_arrows(raw)) == ["models.c:1 imports reporting.r", "reporting.r:2 imports app.x"]
    comps = strongly_connected(graph)
    assert comps == [["models.a", "models.pkg.b"], ["models.c", "reporting.r"]]
    text = describe_cycles(graph, comps)
    assert "models.a:2 -> models.pkg.b" in text and "models.pkg.b:2 -> models.a" in text
    # an __init__ imported back by its own submodule is a circle; a type-checking import is no edge
    _tree(tmp_path, {"models/pkg/b.py": "from models.pkg import g\n",
                     "models/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from models.pkg import b\n"})
    graph, _ = build_graph(root)
    assert graph["models.a"] == {}
    assert ["models.pkg", "models.pkg.b"] in strongly_connected(graph)


def test_the_package_check_finds_a_circle_of_packages(tmp_path):
    root = _tree(tmp_path, {
        "models/__init__.py": "",
        "models/low/__init__.py": "",
        "models/low/x.py": "def f():\n    from models.high import y  # the one back edge\n",
        "models/high/__init__.py": "",
        "models/high/y.py": "",
        "models/high/z.py": "from models.low.x import f\n",
    })
    graph, _ = build_graph(root)
    assert strongly_connected(graph) == []  # no module circle
    pg = package_graph(graph)
    assert strongly_connected(pg) == [["models.high", "models.low"]]
    assert pg["models.low"]["models.high"] == "models.low.x:2 -> models.high.y"
