"""Shared Pydantic configuration for every model input set.

Every input model in :mod:`models` derives from :class:`ModelInput`: frozen, no extra
fields, no NaN or infinity, so bad input fails early with an error naming the field.
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

__all__ = [
    "ModelInput",
    "PositiveFloat",
    "NonNegativeFloat",
    "Fraction",
    "format_validation_error",
    "as_generator",
]


class ModelInput(BaseModel):
    """Base class for model input sets: immutable, strict about unknown fields and NaN/inf."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, validate_default=True)


PositiveFloat = Annotated[float, Field(gt=0, allow_inf_nan=False)]
NonNegativeFloat = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Fraction = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]


def format_validation_error(err: ValidationError) -> str:
    """Render a Pydantic ``ValidationError`` as one readable line per bad field.

    >>> from pydantic import Field
    >>> class X(ModelInput):
    ...     size_bytes: int = Field(gt=0)
    >>> try:
    ...     X(size_bytes=-1)
    ... except ValidationError as e:
    ...     print(format_validation_error(e))
    size_bytes: Input should be greater than 0 (got -1)
    """
    lines = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e.get("loc", ())) or "input"
        got = e.get("input")
        shown = "" if isinstance(got, dict) else f" (got {got!r})"
        lines.append(f"{loc}: {e.get('msg', 'invalid')}{shown}")
    return "\n".join(lines)


def as_generator(seed: Any = None) -> np.random.Generator:
    """Return a ``numpy.random.Generator`` from an int seed, a Generator, or None.

    >>> g = as_generator(42); int(g.integers(0, 10**6)) == int(as_generator(42).integers(0, 10**6))
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)
