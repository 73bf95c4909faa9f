"""The :class:`Scenario` base class and the session keys of a page's scenario (no widgets, no validation
messages): the field keys, the shadow copy, the last valid values, the fields drawn as number fields."""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict

from app.components.scenario.labels import field_label

S = TypeVar("S", bound="Scenario")


class Scenario(BaseModel):
    """Base class of a page's input set. ``PREFIX`` namespaces its session keys; each field declares the
    label the user sees as its ``title`` (:meth:`label`)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    PREFIX: ClassVar[str] = "scn"
    #: Other inputs of the page (name -> default) kept like the fields across page switches,
    #: but neither validated nor put in the URL / JSON (e.g. the trace picker's CSV mapping).
    EXTRA_INPUTS: ClassVar[dict[str, Any]] = {}

    @classmethod
    def key(cls, field: str) -> str:
        """Session-state key of ``field`` (use as the widget key)."""
        return f"{cls.PREFIX}.{field}"

    @classmethod
    def label(cls, field: str) -> str:
        """The label the user sees for ``field`` (its declared ``title``; use as the widget's label): the
        messages about the field name it (:func:`app.components.scenario.labels.field_label`)."""
        return field_label(cls, field)


def _shadow_key(cls: type[Scenario]) -> str:
    return f"{cls.PREFIX}.__shadow"


def _good_key(cls: type[Scenario]) -> str:
    return f"{cls.PREFIX}.__good"


def _noted_key(cls: type[Scenario]) -> str:
    return f"{cls.PREFIX}.__noted"


def _box_key(cls: type[Scenario]) -> str:
    return f"{cls.PREFIX}.__box"


#: ``(prefix, field)`` of the number fields a page draws (:func:`app.components.inputs.float_input`): an empty one
#: is an error naming it, not the default applied silently (the browser leaves a number field empty for "abc").
_NUMBER_FIELDS: set[tuple[str, str]] = set()


def require_number(cls: type[Scenario], field: str) -> None:
    """Mark ``field`` as drawn by a number field: its empty value (None) is refused with a message."""
    _NUMBER_FIELDS.add((cls.PREFIX, field))


def _session_values(cls: type[Scenario]) -> dict[str, Any]:
    """The scenario's values in the session: unset ones left out (their defaults apply), except an emptied
    number field, kept as None so that validation says so."""
    import streamlit as st

    values = {f: st.session_state.get(cls.key(f)) for f in cls.model_fields}
    return {k: v for k, v in values.items() if v is not None or (cls.PREFIX, k) in _NUMBER_FIELDS}
