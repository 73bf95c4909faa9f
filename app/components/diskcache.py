"""Results of slow, input-free computations over bundled data, kept on disk between server starts.

A page's ``st.cache_data`` lives as long as the server process; a result that takes seconds to
minutes to compute from the bundled traces alone (e.g. the write rates of every bundled memory
trace on the lifetime page) would be recomputed on every cold start. :func:`disk_cached` keeps it
in the numba cache directory (``$NUMBA_CACHE_DIR/pcm-planner/``, the directory ``make`` and the
Docker image warm at install time via ``python -m app.warmup``), keyed by a fingerprint of what
the result depends on:

- **code**: the content of the module defining the computation and of every ``models`` module it
  can reach through imports, also imports inside functions (:func:`model_closure`, read from the
  sources without importing them), so an edit elsewhere in ``models`` (a validation claim, another
  page's model) keeps the result;
- **data**: the content of the bundled files it reads (``data=`` globs relative to ``data/``;
  default every bundled file).

Any change there recomputes; a missing or unreadable cache file only costs the computation.

The directory is writable by whoever runs the server, so a file there is data, never code: results are
stored as JSON (which cannot execute, unlike pickle) with the SHA-256 of their canonical text, and what
is read back is verified: the hash must match and ``check`` (the caller's type / shape check, which also
turns JSON lists back into tuples) must accept it. A file that fails either is ignored and recomputed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
#: The package whose modules the code fingerprint follows (third-party code is the installed version).
PACKAGE = "models"
#: Largest cache file read [bytes]: the results kept here are a few kB; a larger file is not ours.
MAX_FILE_BYTES = 1 << 20

__all__ = ["cache_dir", "code_data_fingerprint", "data_fingerprint", "disk_cached", "model_closure", "any_json",
           "finite_float"]


def cache_dir() -> Path:
    """``$NUMBA_CACHE_DIR/pcm-planner`` (default ``<repo>/.numba_cache/pcm-planner``)."""
    base = os.environ.get("NUMBA_CACHE_DIR") or str(ROOT / ".numba_cache")
    return Path(base) / "pcm-planner"


@cache
def _package_dir() -> Path:
    spec = importlib.util.find_spec(PACKAGE)  # the package itself is not imported
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(PACKAGE)
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def _module_file(name: str) -> Path | None:
    """Source file of module ``name`` of :data:`PACKAGE` (``None``: not one of its modules)."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = _package_dir().joinpath(*parts[1:])
    for p in (base / "__init__.py", base.with_suffix(".py")):
        if p.is_file():
            return p
    return None


_FROM = re.compile(rb"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)", re.M)
_IMPORT = re.compile(rb"^[ \t]*import[ \t]+([^\n#;]+)", re.M)


def _names(text: bytes) -> list[str]:
    """``a.b as c, d`` -> ``["a.b", "d"]``."""
    out = []
    for part in text.decode("utf-8", "replace").strip("() \t\\").replace("\n", " ").split(","):
        words = part.split()
        if words and words[0].replace(".", "").replace("_", "").isalnum():
            out.append(words[0])
    return out


def _imports(name: str, path: Path) -> set[str]:
    """Modules ``name`` (source ``path``) imports anywhere in its text, absolute names.

    Every ``import`` / ``from ... import`` line counts, also inside functions (and in strings: an
    over-approximation is safe here, a missed import would keep a stale result). A regular
    expression rather than :mod:`ast`: parsing the sources costs ~0.4 s a cold start.
    """
    is_pkg = path.name == "__init__.py"
    text = path.read_bytes()
    out: set[str] = set()
    for m in _IMPORT.finditer(text):
        out.update(_names(m.group(1)))
    for m in _FROM.finditer(text):
        mod = m.group(1).decode()
        level = len(mod) - len(mod.lstrip("."))
        if level:  # relative: from the package holding this module
            pkg = name.split(".") if is_pkg else name.split(".")[:-1]
            pkg = pkg[: len(pkg) - (level - 1)]
            mod = ".".join(pkg + ([mod[level:]] if mod[level:] else []))
        out.add(mod)
        out.update(f"{mod}.{a}" for a in _names(m.group(2)))  # `from package import submodule`
    # a submodule import runs its parents' __init__ too
    out.update(".".join(m.split(".")[:i]) for m in list(out) for i in range(1, m.count(".") + 1))
    return out


@cache
def model_closure(*modules: str) -> tuple[Path, ...]:
    """Source files of ``modules`` and of every :data:`PACKAGE` module they reach by imports.

    Follows ``import`` statements anywhere in a module (also inside functions), relative
    imports and ``from package import submodule``, without importing anything. A module outside
    :data:`PACKAGE` (e.g. ``app.views.lifetime``) counts by its own file when it can be found.
    Imports by computed names (``importlib.import_module(name)``) are not followed.
    """
    seen: dict[str, Path] = {}
    todo = [".".join(m.split(".")[:i]) for m in modules for i in range(1, m.count(".") + 2)]  # with parents
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = _module_file(name)
        if path is None and name in modules:
            spec = importlib.util.find_spec(name)
            path = Path(spec.origin) if spec is not None and spec.origin and spec.origin.endswith(".py") else None
        if path is None:
            continue
        seen[name] = path
        todo.extend(m for m in _imports(name, path) if m.split(".")[0] == PACKAGE and m not in seen)
    return tuple(sorted(set(seen.values())))


def data_fingerprint(patterns: Iterable[str] = ("**/*",)) -> str:
    """Hash of the names and content of the bundled files matching ``patterns`` (globs relative to
    ``data/``; a folder stands for everything under it)."""
    from models.data import data_dir

    h = hashlib.sha256()
    try:
        root = data_dir()
    except (OSError, RuntimeError):
        return "no-data"
    files: set[Path] = set()
    for pat in patterns:
        for p in root.glob(pat):
            files.update(q for q in (p.rglob("*") if p.is_dir() else [p]) if q.is_file())
    for p in sorted(files):
        h.update(f"{p.relative_to(root)}\0{p.stat().st_size}\0".encode())
        h.update(p.read_bytes())
    return h.hexdigest()


@cache
def code_data_fingerprint(modules: tuple[str, ...] = (PACKAGE,), data: tuple[str, ...] = ("**/*",)) -> str:
    """Hash of the sources of ``modules`` with their :func:`model_closure` (content) and of the
    bundled data files matching ``data`` (:func:`data_fingerprint`); 24 hex digits. Computed once
    per process (a server does not see its code or data change under it)."""
    h = hashlib.sha256()
    if modules == (PACKAGE,):  # everything in the package
        paths = tuple(sorted(_package_dir().rglob("*.py")))
    else:
        paths = model_closure(*modules)
    for p in paths:
        h.update(f"{p.parent.name}/{p.name}\0".encode())
        h.update(p.read_bytes())
    h.update(data_fingerprint(tuple(data)).encode())
    return h.hexdigest()[:24]


def _defining_module(compute: Callable) -> str:
    f = getattr(compute, "func", compute)  # functools.partial
    return getattr(f, "__module__", None) or PACKAGE


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, allow_nan=True, separators=(",", ":"))


def _read(path: Path, check: Callable[[Any], T]) -> tuple[bool, T | None]:
    """(True, value) if ``path`` holds a result whose hash matches and that ``check`` accepts, else (False, None)."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return False, None
        doc = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(doc, dict) or set(doc) != {"sha256", "value"}:
            return False, None
        if hashlib.sha256(_canonical(doc["value"]).encode()).hexdigest() != doc["sha256"]:
            return False, None
        return True, check(doc["value"])
    except (OSError, ValueError, TypeError, KeyError, RecursionError, UnicodeDecodeError):
        return False, None


def any_json(value: Any) -> Any:
    """The default ``check`` of :func:`disk_cached`: the value as read (JSON types only)."""
    return value


def finite_float(value: Any) -> float:
    """``check`` of a result that is one finite number (ValueError otherwise).

    >>> finite_float(1.5), finite_float(2)
    (1.5, 2.0)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    return float(value)


def disk_cached(name: str, compute: Callable[[], T], *, code: Iterable[str] | None = None,
                data: Iterable[str] = ("**/*",), check: Callable[[Any], T] = any_json) -> T:
    """``compute()``, or its result saved by an earlier call with the same code and data.

    Parameters
    ----------
    name : str
        A file-name-safe identifier of the computation (it takes no inputs: input-dependent
        results belong in ``st.cache_data``).
    compute : callable
        The computation (a function or ``functools.partial`` without arguments); its result must be
        JSON-serialisable (numbers, strings, lists, dicts with string keys).
    code : iterable of str, keyword-only
        Modules whose sources (with every ``models`` module they import,
        :func:`model_closure`) the result depends on; default the module defining ``compute``.
    data : iterable of str, keyword-only
        Globs (relative to ``data/``) of the bundled files the result reads; default all.
    check : callable, keyword-only
        Verifies a result read from disk and returns it in the caller's types (raise ValueError or
        TypeError to refuse it: it is then recomputed); default :func:`any_json`.
    """
    modules = tuple(code) if code is not None else (_defining_module(compute),)
    path = cache_dir() / f"{name}-{code_data_fingerprint(modules, tuple(data))}.json"
    ok, got = _read(path, check)
    if ok:
        return got  # type: ignore[return-value]
    out = compute()
    try:
        text = _canonical(out)
        doc = json.dumps({"sha256": hashlib.sha256(text.encode()).hexdigest(), "value": json.loads(text)})
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(doc, encoding="utf-8")
        tmp.replace(path)  # atomic: concurrent sessions never read half a file
        for old in [*path.parent.glob(f"{name}-*.json"), *path.parent.glob(f"{name}-*.pkl")]:
            if old != path:  # results of older code / data, and the pickles of older versions
                old.unlink(missing_ok=True)
    except (OSError, TypeError, ValueError):
        pass
    return out
