"""JSON and TOML from a user, parsed with a bounded nesting depth.

A document nested thousands of levels deep (``[[[[...]]]]``, a few KiB) makes the parsers and
every recursive walk after them fail with ``RecursionError``, which no caller handles as bad
input. :func:`loads_json` and :func:`loads_toml` turn that into a ``ValueError`` naming the
document, and refuse any document nested deeper than :data:`MAX_DEPTH` levels, so the code
reading it never recurses deeper than that.
"""

from __future__ import annotations

import json
import tomllib
from typing import Any

__all__ = ["MAX_DEPTH", "NestingError", "check_depth", "loads_json", "loads_toml"]

#: Deepest nesting of arrays / objects (tables) accepted [levels]; real inputs (scenarios, fio
#: results, sweep specs, device links) nest fewer than 10.
MAX_DEPTH = 64


class NestingError(ValueError):
    """A document nested deeper than :data:`MAX_DEPTH` levels."""


def _too_deep(what: str) -> NestingError:
    return NestingError(f"{what}: nested deeper than {MAX_DEPTH} levels (arrays / objects inside each other); "
                        "not a document this program writes or reads")


def check_depth(doc: Any, *, what: str) -> Any:
    """``doc`` unchanged if its arrays / objects nest at most :data:`MAX_DEPTH` levels, else NestingError.

    Walks the document iteratively (no recursion).

    >>> check_depth({"a": [1, {"b": 2}]}, what="x")
    {'a': [1, {'b': 2}]}
    >>> check_depth(eval("[" * 70 + "]" * 70), what="spec.toml")
    Traceback (most recent call last):
    ...
    models.nesting.NestingError: spec.toml: nested deeper than 64 levels (arrays / objects inside each other); not a document this program writes or reads
    """
    stack = [(doc, 1)]
    while stack:
        node, depth = stack.pop()
        items = node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
        if items is None:
            continue
        if depth > MAX_DEPTH:
            raise _too_deep(what)
        stack.extend((v, depth + 1) for v in items if isinstance(v, (dict, list)))
    return doc


def _bounded(parse, text, what: str):
    """``parse(text)`` whose parser recursion or result depth beyond the bound raises :class:`NestingError`."""
    try:
        doc = parse(text)
    except RecursionError:
        raise _too_deep(what) from None
    return check_depth(doc, what=what)


def loads_json(text: str | bytes, *, what: str) -> Any:
    """``json.loads(text)`` with the nesting bounded (see the module docstring).

    Raises ``json.JSONDecodeError`` for invalid JSON, :class:`NestingError` (a ValueError) for
    a document nested too deep; ``what`` names the document in the message.

    >>> loads_json('{"a": [1]}', what="x")
    {'a': [1]}
    >>> loads_json("[" * 100000, what="scenario.json")
    Traceback (most recent call last):
    ...
    models.nesting.NestingError: scenario.json: nested deeper than 64 levels (arrays / objects inside each other); not a document this program writes or reads
    """
    return _bounded(json.loads, text, what)


def loads_toml(text: str, *, what: str) -> dict:
    """``tomllib.loads(text)`` with the nesting bounded (see the module docstring).

    >>> loads_toml("a = [[1]]", what="x")
    {'a': [[1]]}
    >>> loads_toml("a = " + "[" * 5000 + "]" * 5000, what="spec.toml")
    Traceback (most recent call last):
    ...
    models.nesting.NestingError: spec.toml: nested deeper than 64 levels (arrays / objects inside each other); not a document this program writes or reads
    """
    return _bounded(tomllib.loads, text, what)
