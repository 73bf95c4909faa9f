"""The registry: every declared model constant by name (:data:`PARAMS`), looked up and listed.

>>> param("memext.submit_ns").unit, param_names("paging.")[:1]
('ns', ['paging.tlb_entries'])
"""

from __future__ import annotations

import pandas as pd

from models.provenance.catalog import DECLARATIONS
from models.provenance.entries import Param, Provenance

__all__ = ["PARAMS", "param", "param_names", "params_frame"]

_REGISTRY: dict[str, Param] = {}


def _add(name: str, value, unit: str, description: str, kind: str, source: str, low: float, high: float,
         range_note: str, seed: str = "") -> None:
    if name in _REGISTRY:
        raise ValueError(f"{name}: registered twice")
    _REGISTRY[name] = Param(name, value, unit, description,
                            Provenance(kind, source, float(low), float(high), range_note, seed))


for _declare in DECLARATIONS:
    _declare(_add)

#: The registry: name -> :class:`Param`.
PARAMS: dict[str, Param] = dict(_REGISTRY)


def param(name: str) -> Param:
    """The registered parameter ``name``; ``KeyError`` listing close names.

    >>> param("memext.submit_ns").value
    3500.0
    >>> param("memext.nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "unknown parameter 'memext.nope'; registered under 'memext.': memext.fault_overhead_ns, ...
    """
    try:
        return PARAMS[name]
    except KeyError:
        prefix = name.split(".", 1)[0] + "."
        near = [n for n in PARAMS if n.startswith(prefix)] or list(PARAMS)
        raise KeyError(f"unknown parameter {name!r}; registered under {prefix!r}: {', '.join(near)}") from None


def param_names(prefix: str = "") -> list[str]:
    """Registered names starting with ``prefix``."""
    return [n for n in PARAMS if n.startswith(prefix)]


def params_frame(names=None) -> pd.DataFrame:
    """The registry as a table, one row per parameter (all, or ``names`` in order).

    Columns ``name, value, unit, kind, source, low, high, range_note, seed, description``.

    >>> params_frame(["memext.submit_ns"])[["name", "value", "kind", "low", "high"]]
                   name   value       kind     low    high
    0  memext.submit_ns  3500.0  published  3000.0  4000.0
    """
    rows = [PARAMS[n] if n in PARAMS else param(n) for n in (PARAMS if names is None else names)]
    return pd.DataFrame([{"name": p.name, "value": p.value, "unit": p.unit, "kind": p.kind,
                          "source": p.provenance.source, "low": p.provenance.low, "high": p.provenance.high,
                          "range_note": p.provenance.range_note, "seed": p.provenance.seed,
                          "description": p.description} for p in rows],
                        columns=["name", "value", "unit", "kind", "source", "low", "high", "range_note", "seed",
                                 "description"])
