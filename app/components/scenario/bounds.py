"""Bounds of a scenario field: mirroring a model input's field (:func:`model_field`), reading its range back
(:func:`field_bounds`, :func:`field_range`)."""

from __future__ import annotations

import math
from typing import Any

import annotated_types as at
from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

_LOWER = {"ge": at.Ge, "gt": at.Gt}


_UPPER = {"le": at.Le, "lt": at.Lt}


_LENGTHS = {"min_length": at.MinLen, "max_length": at.MaxLen}


#: ``json_schema_extra`` key naming the model field a Scenario field mirrors (see :func:`model_field`).
MIRRORS = "mirrors"


def _constraints(info: FieldInfo) -> tuple[dict[str, Any], list]:
    """The field's bound / length constraints as ``Field`` keywords, and its other metadata."""
    known = {**_LOWER, **_UPPER, **_LENGTHS, "multiple_of": at.MultipleOf}
    out: dict[str, Any] = {}
    other = []
    for m in info.metadata:
        kw = next((k for k, t in known.items() if type(m) is t), None)
        if kw is None:
            other.append(m)
        else:
            out[kw] = getattr(m, kw)
    return out, other


def _closed(lo: tuple[str, float] | None, hi: tuple[str, float] | None) -> tuple[float, float]:
    """``(low, high)`` of optional ``(kind, value)`` bounds, open ones at their value (-inf / inf if absent)."""
    return (-math.inf if lo is None else lo[1]), (math.inf if hi is None else hi[1])


def model_field(model: type[BaseModel], name: str, *, unit: float = 1.0, **overrides: Any) -> Any:
    """Scenario field mirroring ``model.<name>``: the model's default, bounds and description.

    Use it for a page input that is the same quantity as a field of the model's input
    model, so the page and the model share one contract::

        th_bcounts: float = model_field(wc.HaloParams, "th_bcounts")

    Parameters
    ----------
    model : type[pydantic.BaseModel]
        The model's input model (a :class:`models._base.ModelInput`).
    name : str
        Its field.
    unit : float, keyword-only
        Size of the page's unit in the model's unit, when they differ (µs on the page for ns in
        the model: ``unit=1e3``; GB for bytes: ``1e9``). Bounds and the default are divided by it.
    **overrides
        ``default=`` (required when the model has none, e.g. an optional override whose default
        is None); ``description=``; bounds ``ge/gt/le/lt`` narrowing the model's range (e.g. a
        slider needs a closed lower end where the model's is open -- say why in a comment). A
        bound outside the model's range raises ValueError: the page never accepts more than the
        model does.

    >>> from pydantic import Field
    >>> from app.components.scenario import Scenario
    >>> class In(BaseModel):
    ...     t_ns: float = Field(3500.0, ge=0, le=1e8, description="overhead [ns]")
    >>> class Page(Scenario):
    ...     t_us: float = model_field(In, "t_ns", unit=1e3)
    ...     t_ns: float = model_field(In, "t_ns", le=1e4)
    >>> Page().t_us, field_range(Page, "t_us"), field_range(Page, "t_ns")
    (3.5, (0.0, 100000.0), (0.0, 10000.0))
    >>> model_field(In, "t_ns", le=1e9)
    Traceback (most recent call last):
    ...
    ValueError: In.t_ns: le=1000000000.0 lies outside the model's range [0, 1e+08]
    """
    info = model.model_fields[name]
    cons, other = _constraints(info)
    for kw in ("ge", "gt", "le", "lt"):
        if kw in cons:
            cons[kw] = cons[kw] / unit if unit != 1 else cons[kw]
    narrow = {k: overrides.pop(k) for k in ("ge", "gt", "le", "lt") if k in overrides}
    if narrow:
        lo, hi = _sides(cons)
        for k, v in narrow.items():
            if not _inside(k, v, lo, hi):
                a, b = _closed(lo, hi)
                raise ValueError(f"{model.__name__}.{name}: {k}={v!r} lies outside the model's range [{a:g}, {b:g}]")
        drop = {*(_LOWER if narrow.keys() & _LOWER.keys() else ()), *(_UPPER if narrow.keys() & _UPPER.keys() else ())}
        cons = {k: v for k, v in cons.items() if k not in drop}
        cons.update(narrow)
    if "default" in overrides:
        default = overrides.pop("default")
    elif info.default_factory is not None:
        raise TypeError(f"{model.__name__}.{name}: give default= (the model uses a default factory)")
    else:
        default = info.default
        if default is PydanticUndefined or default is None:
            raise TypeError(f"{model.__name__}.{name}: the model has no default; give default=")
        if unit != 1:
            default = default / unit
    description = overrides.pop("description", info.description if unit == 1 else None)
    extra = {MIRRORS: f"{model.__module__}.{model.__qualname__}.{name}"}
    if unit != 1:
        extra["unit"] = unit
    if narrow:
        extra["narrowed"] = sorted(narrow)
    field = Field(default, description=description, json_schema_extra=extra, **cons, **overrides)
    field.metadata.extend(other)
    return field


def _inside(kind: str, v: float, lo: tuple[str, float] | None, hi: tuple[str, float] | None) -> bool:
    """Whether the bound ``kind=v`` admits no value outside the model's ``lo`` / ``hi`` bounds."""
    if lo is not None and (v < lo[1] or (v == lo[1] and lo[0] == "gt" and kind != "gt")):
        return False
    return hi is None or not (v > hi[1] or (v == hi[1] and hi[0] == "lt" and kind != "lt"))


def _sides(cons: dict[str, Any]) -> tuple[tuple[str, float] | None, tuple[str, float] | None]:
    lo = next(((k, cons[k]) for k in _LOWER if k in cons), None)
    hi = next(((k, cons[k]) for k in _UPPER if k in cons), None)
    return lo, hi


def field_bounds(model: type[BaseModel], name: str) -> tuple[tuple[str, float] | None, tuple[str, float] | None]:
    """The lower and upper bound of ``model.<name>`` as ``(kind, value)`` (kind ``ge``/``gt``/``le``/``lt``;
    None on a side without a bound), so a caption can say "> 0" for an open bound.

    >>> from pydantic import Field
    >>> class In(BaseModel):
    ...     x: float = Field(0.5, gt=0, le=1)
    >>> field_bounds(In, "x")
    (('gt', 0), ('le', 1))
    """
    cons, _ = _constraints(model.model_fields[name])
    return _sides(cons)


def field_range(model: type[BaseModel], name: str, *, unit: float = 1.0) -> tuple[Any, Any]:
    """Widget range ``(min, max)`` of ``model.<name>``, in the page's unit (see :func:`model_field`).

    The lower (``ge``/``gt``) and upper (``le``/``lt``) bound of the field, divided by ``unit``;
    ``None`` on a side without a bound. An open bound of a float field is returned as is (a
    widget has no open ends: the Scenario rejects that value with a message naming the bound);
    on an int field it becomes the next integer. Ints for an int field at ``unit=1``, else floats
    (Streamlit refuses to mix them).

    >>> from pydantic import Field
    >>> class In(BaseModel):
    ...     n: int = Field(4, gt=0, le=64)
    ...     x: float = Field(0.5, gt=0, le=1)
    >>> field_range(In, "n"), field_range(In, "x")
    ((1, 64), (0.0, 1.0))
    """
    info = model.model_fields[name]
    cons, _ = _constraints(info)
    lo, hi = _sides(cons)
    as_int = info.annotation is int and unit == 1

    def conv(b: tuple[str, float] | None, step: int) -> Any:
        if b is None:
            return None
        kind, v = b
        if as_int:
            return int(v) + (step if kind in ("gt", "lt") else 0)
        return float(v) / unit if unit != 1 else float(v)

    return conv(lo, 1), conv(hi, -1)
