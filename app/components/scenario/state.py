"""A page's scenario in the session: seeded on every run (shadow copy, URL on the first run), read back
validated, with invalid fields falling back to their last valid value."""

from __future__ import annotations

import copy
from typing import Any

from pydantic import ValidationError

from app.components.scenario.base import (
    S,
    Scenario,
    _box_key,
    _good_key,
    _noted_key,
    _session_values,
    _shadow_key,
)
from app.components.scenario.labels import field_label
from app.components.scenario.messages import field_errors
from app.components.scenario.persistence import _coerce


def _ensure_built(cls: type[Scenario], namespace: dict) -> None:
    """Resolve postponed annotations of a Scenario defined in a page script.

    Streamlit runs pages as scripts, not importable modules, so a page using
    ``from __future__ import annotations`` leaves its Scenario "not fully defined" for
    Pydantic; rebuild it against the page's globals.
    """
    if not getattr(cls, "__pydantic_complete__", True):
        cls.model_rebuild(_types_namespace=dict(namespace))


def _save_shadow(cls: type[Scenario]) -> None:
    """Copy the page's current raw input values into its (non-widget) shadow key."""
    import streamlit as st

    ss = st.session_state
    shadow = dict(ss.get(_shadow_key(cls)) or {})
    for f in [*cls.model_fields, *cls.EXTRA_INPUTS]:
        k = cls.key(f)
        if k in ss:
            shadow[f] = copy.deepcopy(ss[k])
    ss[_shadow_key(cls)] = shadow


def init_state(cls: type[S]) -> None:
    """Seed the page's session keys; call first on every run of the page.

    Every missing key is set to the value last seen on this page (its shadow copy) or else the
    field's default. On the page's first run in the session, valid URL query params override
    the defaults; invalid ones are listed by :func:`scenario_controls` as a warning.
    """
    import sys

    import streamlit as st

    _ensure_built(cls, sys._getframe(1).f_globals)
    ss = st.session_state
    defaults = cls().model_dump()
    shadow = ss.get(_shadow_key(cls)) or {}
    for f, v in {**cls.EXTRA_INPUTS, **defaults}.items():
        k = cls.key(f)
        if k in ss:
            # Re-set the current value through the Session State API, dropping the old entry
            # first: Streamlit keeps the value last set by code under the key next to the
            # widget's own value, and shows that stale one (e.g. the first-run default) once the
            # widget is not drawn. A value set this way outlives its widget.
            v = ss[k]
            del ss[k]
            ss[k] = v
        else:
            ss[k] = copy.deepcopy(shadow.get(f, v))

    ss[_noted_key(cls)] = set()  # fields whose message this run shows under their widget
    ss[_box_key(cls)] = None  # this run's error box (drawn by scenario_controls)
    flag = f"{cls.PREFIX}.__init"
    if not ss.get(flag):
        qp = st.query_params
        from app.components.device_store import DEV_PARAM, restore_url_devices

        dev_msg = restore_url_devices(qp.get(DEV_PARAM))  # first: the fields may name these custom devices
        if dev_msg:
            ss[f"{cls.PREFIX}.__urldev"] = dev_msg
        bad = []
        for f in cls.model_fields:
            if f in qp:
                try:
                    val = cls.model_validate({**defaults, f: _coerce(cls, f, qp[f])})
                    ss[cls.key(f)] = getattr(val, f)
                except ValidationError:
                    bad.append(f)
        if bad:
            ss[f"{cls.PREFIX}.__urlbad"] = bad
        ss[flag] = True
    _save_shadow(cls)


def current(cls: type[S]) -> tuple[S | None, str | None]:
    """The scenario from session state, or ``(None, message)`` naming the bad fields by their labels."""

    values = _session_values(cls)
    errors = field_errors(cls, values)
    if not errors:
        return cls.model_validate(values), None
    return None, "; ".join(f"{field_label(cls, f) if f else 'inputs'}: {m}" for f, m in errors.items())


def resolve(cls: type[S]) -> tuple[S | None, dict[str, str], dict[str, Any]]:
    """The scenario to compute with, the invalid fields' messages, and the values used instead.

    Every invalid field falls back to its last valid value in this session (else its default),
    so one bad entry never blanks the rest of the page; the page shows the message next to the
    input and says which value is used instead. ``(None, errors, {})`` only when the fallback
    values are invalid together (a cross-field rule).
    """
    import streamlit as st

    ss = st.session_state
    values = _session_values(cls)
    errors = field_errors(cls, values)
    if not errors:
        scn = cls.model_validate(values)
        ss[_good_key(cls)] = scn.model_dump()
        return scn, {}, {}
    good = ss.get(_good_key(cls)) or cls().model_dump()
    used: dict[str, Any] = {}
    trial = dict(values)
    for _ in range(len(cls.model_fields) + 1):
        bad = field_errors(cls, trial)
        if not bad:
            return cls.model_validate(trial), errors, used
        fields = [f for f in bad if f in cls.model_fields and f not in used]
        if not fields:
            break
        for f in fields:
            trial[f] = used[f] = good.get(f, cls.model_fields[f].default)
    return None, errors, {}
