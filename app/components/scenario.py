"""Scenario state: widget values <-> Pydantic model <-> URL query params <-> JSON file.

A page declares its inputs as a :class:`Scenario` subclass (a Pydantic model whose fields
have defaults). :func:`init_state` seeds ``st.session_state`` from the URL (once per
session and page) so shared links reproduce a view; widgets use ``key=scn.key(field)``;
:func:`scenario_controls` validates the values, mirrors them into the URL, and offers
save/load as JSON. Invalid values are reported by field and never wipe the other inputs.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from app.components.errors import describe

S = TypeVar("S", bound="Scenario")


class Scenario(BaseModel):
    """Base class of a page's input set. ``PREFIX`` namespaces its session keys."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    PREFIX: ClassVar[str] = "scn"

    @classmethod
    def key(cls, field: str) -> str:
        """Session-state key of ``field`` (use as the widget key)."""
        return f"{cls.PREFIX}.{field}"


def _coerce(cls: type[Scenario], field: str, raw: str) -> Any:
    ann = cls.model_fields[field].annotation
    if ann is bool:
        return raw.lower() in ("1", "true", "yes", "on")
    if ann is list or getattr(ann, "__origin__", None) is list:
        return [x for x in raw.split(",") if x != ""]
    return raw


def _ensure_built(cls: type[Scenario], namespace: dict) -> None:
    """Resolve postponed annotations of a Scenario defined in a page script.

    Streamlit runs pages as scripts, not importable modules, so a page using
    ``from __future__ import annotations`` leaves its Scenario "not fully defined" for
    Pydantic; rebuild it against the page's globals.
    """
    if not getattr(cls, "__pydantic_complete__", True):
        cls.model_rebuild(_types_namespace=dict(namespace))


def init_state(cls: type[S]) -> None:
    """Seed session state with defaults, overridden by valid URL query params (first run only)."""
    import sys

    import streamlit as st

    _ensure_built(cls, sys._getframe(1).f_globals)

    flag = f"{cls.PREFIX}.__init"
    if st.session_state.get(flag):
        return
    defaults = cls().model_dump()
    for f, v in defaults.items():
        st.session_state.setdefault(cls.key(f), v)
    qp = st.query_params
    bad = []
    for f in cls.model_fields:
        if f in qp:
            raw = qp.get_all(f) if False else qp[f]
            try:
                val = cls.model_validate({**defaults, f: _coerce(cls, f, raw)})
                st.session_state[cls.key(f)] = getattr(val, f)
            except ValidationError:
                bad.append(f)
    if bad:
        st.session_state[f"{cls.PREFIX}.__urlbad"] = bad
    st.session_state[flag] = True


def current(cls: type[S]) -> tuple[S | None, str | None]:
    """The scenario from session state, or ``(None, message)`` naming the bad fields."""
    import streamlit as st

    values = {f: st.session_state.get(cls.key(f)) for f in cls.model_fields}
    values = {k: v for k, v in values.items() if v is not None}
    try:
        return cls.model_validate(values), None
    except ValidationError as e:
        return None, describe(e)


def _load_json(cls: type[Scenario]) -> None:
    import streamlit as st

    up = st.session_state.get(f"{cls.PREFIX}.__upload")
    if up is None:
        return
    try:
        data = json.loads(up.getvalue().decode("utf-8"))
        if isinstance(data, dict) and "scenario" in data:
            data = data["scenario"]
        scn = cls.model_validate(data)
    except (ValueError, ValidationError, UnicodeDecodeError) as e:
        st.session_state[f"{cls.PREFIX}.__loaderr"] = f"could not load scenario file: {describe(e)}"
        return
    for f, v in scn.model_dump().items():
        st.session_state[cls.key(f)] = v
    st.session_state.pop(f"{cls.PREFIX}.__loaderr", None)


def to_query(scn: Scenario) -> dict[str, str]:
    """Query-param encoding of a scenario (lists comma-joined)."""
    out = {}
    for f, v in scn.model_dump().items():
        if isinstance(v, (list, tuple)):
            out[f] = ",".join(str(x) for x in v)
        elif isinstance(v, (dict, BaseModel)) or v is None:
            continue
        else:
            out[f] = str(v)
    return out


def scenario_controls(cls: type[S], *, page: str) -> S | None:
    """Validate the page's inputs, sync the URL, and draw save/load controls.

    Returns the validated scenario, or ``None`` after showing which fields are invalid
    (the widgets keep the user's values).
    """
    import streamlit as st

    scn, err = current(cls)
    bad_url = st.session_state.pop(f"{cls.PREFIX}.__urlbad", None)
    if bad_url:
        st.warning(f"Ignored invalid link parameter(s): {', '.join(bad_url)}", icon=":material/link_off:")
    if err:
        st.error(f"Invalid input -- {err}", icon=":material/error:")
    else:
        q = to_query(scn)
        try:
            if {k: st.query_params.get(k) for k in q} != q:
                st.query_params.from_dict(q)
        except Exception:  # noqa: BLE001 - URL sync is best effort
            pass
    with st.expander("Scenario: save, load, share", icon=":material/save:"):
        if scn is not None:
            payload = json.dumps({"page": page, "scenario": scn.model_dump(mode="json")}, indent=2)
            st.download_button("Save scenario (JSON)", payload, file_name=f"{page}-scenario.json",
                               mime="application/json", key=f"{cls.PREFIX}.__save")
            st.caption("The page URL encodes these inputs: copy it to share this view.")
        st.file_uploader("Load scenario (JSON)", type=["json"], key=f"{cls.PREFIX}.__upload",
                         on_change=_load_json, args=(cls,))
        lerr = st.session_state.get(f"{cls.PREFIX}.__loaderr")
        if lerr:
            st.error(lerr)
    return scn
