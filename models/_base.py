"""Shared Pydantic configuration for every model input set.

Every input model in :mod:`models` derives from :class:`ModelInput`: frozen, no extra
fields, no NaN or infinity, so bad input fails early with an error naming the field.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, ClassVar

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ModelInput",
    "ModelResult",
    "results_frame",
    "PositiveFloat",
    "NonNegativeFloat",
    "Fraction",
    "as_generator",
]


class ModelInput(BaseModel):
    """Base class for model input sets: immutable, strict about unknown fields and NaN/inf."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, validate_default=True)


class ModelResult:
    """Mixin for every model's result: a frozen dataclass that converts one way, ``to_frame()``.

    Subclasses are ``@dataclass(frozen=True)``. The default ``to_frame()`` is one row holding
    the scalar fields (numbers, strings, booleans, ``None``) in declaration order, then the
    properties named in ``FRAME_EXTRAS`` (derived scalars such as ``hit_ratio``). Arrays and
    frames are left out of that row; a result whose natural table has many rows (a curve, a
    per-size sweep) overrides ``to_frame()`` and documents its columns.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class R(ModelResult):
    ...     hits: int
    ...     requests: int
    ...     per_request: np.ndarray = None
    ...     FRAME_EXTRAS = ("hit_ratio",)
    ...     @property
    ...     def hit_ratio(self) -> float:
    ...         return self.hits / self.requests
    >>> R(3, 4, np.zeros(4)).to_frame()
       hits  requests  hit_ratio
    0     3         4       0.75
    """

    #: Names of properties appended to the one-row frame, in order.
    FRAME_EXTRAS: ClassVar[tuple[str, ...]] = ()

    def _scalar_items(self) -> dict[str, Any]:
        row: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if v is None or isinstance(v, (bool, int, float, str, np.integer, np.floating, np.bool_)):
                row[f.name] = v
        for name in self.FRAME_EXTRAS:
            row[name] = getattr(self, name)
        return row

    def to_frame(self) -> pd.DataFrame:
        """The result as a table (default: one row of scalar fields and ``FRAME_EXTRAS``)."""
        return pd.DataFrame([self._scalar_items()])


def results_frame(results) -> pd.DataFrame:
    """Stack the ``to_frame()`` of several results into one table (rows in order).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class R(ModelResult):
    ...     x: int
    >>> results_frame([R(1), R(2)])["x"].tolist()
    [1, 2]
    """
    frames = [r.to_frame() for r in results]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


PositiveFloat = Annotated[float, Field(gt=0, allow_inf_nan=False)]
NonNegativeFloat = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Fraction = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]


def as_generator(seed: Any = None) -> np.random.Generator:
    """Return a ``numpy.random.Generator`` from an int seed, a Generator, or None.

    >>> g = as_generator(42); int(g.integers(0, 10**6)) == int(as_generator(42).integers(0, 10**6))
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)
