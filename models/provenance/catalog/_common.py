"""What the declarations of :mod:`models.provenance.catalog` share: ranges, range notes, the measurement tables.

>>> band(100.0, 0.2), exact(3)
((80.0, 120.0), (3.0, 3.0))
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from models.data import read_csv

__all__ = ["Add", "band", "exact", "EXACT", "NO_SPREAD", "measured_csv"]

#: The registry's ``add(name, value, unit, description, kind, source, low, high, range_note, seed="")``
#: a declaration is called with (:mod:`models.provenance.registry`).
Add = Callable[..., None]


def band(value: float, rel: float) -> tuple[float, float]:
    """``value`` -+ ``rel`` (relative) as ``(low, high)``."""
    return value * (1 - rel), value * (1 + rel)


def exact(value: float) -> tuple[float, float]:
    """The range of an exact value: ``(value, value)``."""
    return float(value), float(value)


#: Range note of an exact value.
EXACT = "exact: a definition or configuration of the source, not an estimate"
#: Range note of a measured median without its spread.
NO_SPREAD = ("stated +-20 %: only the median of the runs is recorded, not their spread "
             "(same machine, same program)")


def measured_csv(name: str) -> pd.DataFrame:
    """The bundled measurement table ``data/measurements/<name>``."""
    return read_csv(f"measurements/{name}")
