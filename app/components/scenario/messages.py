"""Validation messages of a scenario: per field, with the label the user sees and the value used instead;
the page's error box, which only points to the messages drawn under their widgets."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from app.components.scenario.base import Scenario, _good_key, _noted_key, _session_values
from app.components.scenario.labels import field_label


def _error_text(err: dict, field: str) -> str:
    """One pydantic error as text without the field name (the label is put in front by the caller)."""
    msg = str(err.get("msg", ""))
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    if msg.startswith(f"{field}: "):
        msg = msg[len(field) + 2:]
    if err.get("type") == "extra_forbidden":
        msg = "not an input of this page"
    got = err.get("input")
    if got is None and err.get("type") in ("float_type", "int_type", "finite_number"):
        return "empty or not a number: give a number, e.g. 1.5 or 2e3"
    if err.get("type") not in ("value_error", "extra_forbidden", "missing") and not isinstance(got, (dict, list)):
        shown = repr(got)
        msg += f" (got {shown[:60] + '…' if len(shown) > 60 else shown})"
    return msg


def field_errors(cls: type[Scenario], values: dict[str, Any]) -> dict[str, str]:
    """Message per invalid field of ``values`` (empty dict: valid).

    A cross-field error whose message starts with ``"<field>: "`` (a model validator naming the
    field the user should change) is put under that field; other cross-field errors under ``""``.
    """
    try:
        cls.model_validate(values)
    except ValidationError as e:
        out: dict[str, str] = {}
        for err in e.errors():
            loc = err.get("loc") or ("",)
            f = str(loc[0]) if loc else ""
            if not f:
                head = _error_text(err, "").split(": ", 1)[0]
                f = head if head in cls.model_fields else ""
            out.setdefault(f, _error_text(err, f))
        return out
    return {}


def note_shown(key: str) -> None:
    """Record that this run shows the message of the input under session key ``key`` (``PREFIX.field``)
    right under its widget: the page's error box then only points to it (redrawn if the box is already
    on the page, for widgets drawn after it). No effect outside a page whose Scenario uses ``PREFIX``."""
    import streamlit as st

    ss = st.session_state
    prefix, _, field = key.rpartition(".")
    noted = ss.get(f"{prefix}.__noted")
    if not isinstance(noted, set) or field in noted:
        return
    noted.add(field)
    box = ss.get(f"{prefix}.__box")
    if box is not None:
        _draw_box(*box)


def _draw_box(cls: type[Scenario], placeholder, ok: bool, errors: dict[str, str], used: dict[str, Any]) -> None:
    """The page's error box: messages of the fields not shown under their widget, and a pointer to
    those that are (an input in a collapsed expander stays findable)."""
    import streamlit as st

    from app.components.errors import md_escape

    noted = st.session_state.get(_noted_key(cls)) or set()
    lines, under = [], []
    for f, msg in errors.items():
        label = md_escape(field_label(cls, f)) if f else "Inputs"
        if f and f in noted:
            under.append(f"**{label}**")
            continue
        instead = f" -- not applied; using {md_escape(_shown(used[f]))}" if f in used else ""
        lines.append(f"- **{label}**: {md_escape(msg, 300)}{instead}")
    if under:
        lines.append(f"- not applied, the reason is shown under the input: {', '.join(under)}")
    head = ("Some inputs are not applied; the results use the values named below." if ok
            else "Invalid inputs -- fix them to see the results.")
    placeholder.error(head + "\n" + "\n".join(lines), icon=":material/error:")


def _shown(v: Any) -> str:
    """The value used instead, as the page writes numbers: ``10,000,000``, ``2,000,000``, ``0.5`` (not ``1e+07``)."""
    from reporting.number_text import scalar_text

    if isinstance(v, (list, tuple)):
        return ", ".join(str(x) for x in v) or "none"
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    return f"{v:,}" if isinstance(v, int) else scalar_text(v, 6)


def field_message(cls: type[Scenario], field: str) -> str | None:
    """Why ``field``'s current value is not applied and which value is used instead; None when applied.

    For the input helpers, which show it right under the widget.
    """
    import streamlit as st

    ss = st.session_state
    msg = field_errors(cls, _session_values(cls)).get(field)
    if msg is None:
        return None
    good = ss.get(_good_key(cls)) or cls().model_dump()
    return f"{msg} -- not applied; using {_shown(good.get(field, cls.model_fields[field].default))}"
