"""Row comparison shared by the streamed-role tests: where streamed rows differ from the in-memory rows, to the bit."""

from __future__ import annotations

import math


def values_equal(a, b) -> bool:
    """``a == b``, with NaN equal to NaN, dicts compared key by key and dataclasses field by field."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(values_equal(a[k], b[k]) for k in a)
    if hasattr(a, "__dataclass_fields__"):
        return type(a) is type(b) and values_equal(vars(a) if hasattr(a, "__dict__") else a.__repr__(),
                                                   vars(b) if hasattr(b, "__dict__") else b.__repr__())
    return a == b


def row_differences(got: list, want: list) -> list:
    """Where the rows ``got`` differ from ``want``: ``(row, column, got, want)`` each ("count" when their lengths or
    ``(row, "columns", …)`` when their columns differ); empty when they are equal."""
    if len(got) != len(want):
        return [(None, "count", len(got), len(want))]
    out = []
    for i, (g, w) in enumerate(zip(got, want)):
        if g.keys() != w.keys():
            out.append((i, "columns", sorted(g), sorted(w)))
            continue
        out += [(i, k, g[k], w[k]) for k in g if not values_equal(g[k], w[k])]
    return out
