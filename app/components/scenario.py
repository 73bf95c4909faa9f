"""Scenario state: widget values <-> Pydantic model <-> URL query params <-> JSON file.

A page declares its inputs as a :class:`Scenario` subclass (a Pydantic model whose fields
have defaults). :func:`init_state` seeds ``st.session_state`` (from the URL on the page's first
run in the session) so shared links reproduce a view; widgets use ``key=scn.key(field)``;
:func:`scenario_controls` validates the values, mirrors them into the URL, and offers
save/load as JSON. Invalid values are reported by field and never wipe the other inputs.

Streamlit deletes the state of widgets that a run does not draw (another page, or an input
hidden by a mode switch). The page's raw input values are therefore also kept in a plain
session key (``PREFIX.__shadow``), refreshed on every run, and :func:`init_state` restores
every missing widget value from it, so going to another page and back keeps the inputs.

Fields whose widget offers a fixed list of options use :func:`one_of` / :func:`some_of` (or
a validator of their own): a value outside the options is a validation error -- the page
warns about it -- instead of being silently replaced by the first option.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

from app.components.errors import describe

S = TypeVar("S", bound="Scenario")

#: Top-level key of a scenario JSON file holding the custom devices its scenario names.
CUSTOM_DEVICES = "custom_devices"


class Scenario(BaseModel):
    """Base class of a page's input set. ``PREFIX`` namespaces its session keys."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    PREFIX: ClassVar[str] = "scn"
    #: Other inputs of the page (name -> default) kept like the fields across page switches,
    #: but neither validated nor put in the URL / JSON (e.g. the trace picker's CSV mapping).
    EXTRA_INPUTS: ClassVar[dict[str, Any]] = {}

    @classmethod
    def key(cls, field: str) -> str:
        """Session-state key of ``field`` (use as the widget key)."""
        return f"{cls.PREFIX}.{field}"


def _options(options: Iterable | Callable[[], Iterable]) -> list:
    return list(options() if callable(options) else options)


def one_of(options: Iterable | Callable[[], Iterable], *, what: str = "value", base: type = str) -> object:
    """Scenario field type: one of ``options`` (a sequence, or a callable giving the current ones).

    >>> from pydantic import ValidationError
    >>> class X(Scenario):
    ...     size: one_of([512, 4096], what="block size", base=int) = 4096
    >>> X(size="512").size
    512
    >>> try:
    ...     X(size=1000)
    ... except ValidationError as e:
    ...     print(describe(e))
    size: unknown block size 1000; valid: 512, 4096 (got 1000)
    """

    def check(v):
        valid = _options(options)
        if v not in valid:
            raise ValueError(f"unknown {what} {v!r}; valid: {', '.join(str(o) for o in valid)}")
        return v

    return Annotated[base, AfterValidator(check)]


def some_of(options: Iterable | Callable[[], Iterable], *, what: str = "value", base: type = str) -> object:
    """Scenario field type: a list whose every item is one of ``options`` (see :func:`one_of`)."""

    def check(v: list) -> list:
        valid = _options(options)
        bad = [x for x in v if x not in valid]
        if bad:
            raise ValueError(f"unknown {what}(s) {', '.join(repr(x) for x in bad)}; "
                             f"valid: {', '.join(str(o) for o in valid)}")
        return v

    return Annotated[list[base], AfterValidator(check)]


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


def _shadow_key(cls: type[Scenario]) -> str:
    return f"{cls.PREFIX}.__shadow"


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

    flag = f"{cls.PREFIX}.__init"
    if not ss.get(flag):
        qp = st.query_params
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
    """The scenario from session state, or ``(None, message)`` naming the bad fields."""
    import streamlit as st

    values = {f: st.session_state.get(cls.key(f)) for f in cls.model_fields}
    values = {k: v for k, v in values.items() if v is not None}
    try:
        return cls.model_validate(values), None
    except ValidationError as e:
        return None, describe(e)


def _used_custom_devices(scn: Scenario) -> list[dict]:
    """The session's custom devices named by a field of ``scn`` (str or list-of-str values)."""
    from app.components.devices import custom_devices

    custom = custom_devices()
    names: list[str] = []
    for v in scn.model_dump().values():
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            if isinstance(x, str) and x in custom and x not in names:
                names.append(x)
    return [custom[n] for n in names]


def scenario_json(scn: Scenario, page: str) -> str:
    """The JSON file of ``scn``: page, inputs and the custom devices they name."""
    payload: dict[str, Any] = {"page": page, "scenario": scn.model_dump(mode="json")}
    used = _used_custom_devices(scn)
    if used:
        payload[CUSTOM_DEVICES] = used
    return json.dumps(payload, indent=2)


def _register_devices(items: Any) -> None:
    """Validate the file's custom devices and add them to the session (ValueError names the entry)."""
    from app.components.devices import add_custom_device
    from models.devices import DeviceProfile

    if not isinstance(items, list):
        raise ValueError(f"{CUSTOM_DEVICES}: expected a list of device profiles")
    profiles = []
    for i, d in enumerate(items):
        try:
            profiles.append(DeviceProfile.model_validate(d))
        except ValidationError as e:
            raise ValueError(f"{CUSTOM_DEVICES}[{i}]: {describe(e)}") from None
    for i, p in enumerate(profiles):
        try:
            add_custom_device(p)
        except ValueError as e:
            raise ValueError(f"{CUSTOM_DEVICES}[{i}].{e}") from None


def _load_json(cls: type[Scenario]) -> None:
    import streamlit as st

    from app.components.devices import CUSTOM_KEY

    up = st.session_state.get(f"{cls.PREFIX}.__upload")
    if up is None:
        return
    before = copy.deepcopy(st.session_state.get(CUSTOM_KEY, {}))
    try:
        data = json.loads(up.getvalue().decode("utf-8"))
        if isinstance(data, dict) and "scenario" in data:
            if CUSTOM_DEVICES in data:  # registered first: the scenario may name them
                _register_devices(data[CUSTOM_DEVICES])
            data = data["scenario"]
        scn = cls.model_validate(data)
    except (ValueError, ValidationError, UnicodeDecodeError) as e:
        st.session_state[CUSTOM_KEY] = before  # a rejected file adds no devices
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

    _save_shadow(cls)
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
            st.download_button("Save scenario (JSON)", scenario_json(scn, page), file_name=f"{page}-scenario.json",
                               mime="application/json", key=f"{cls.PREFIX}.__save")
            st.caption("The page URL encodes these inputs: copy it to share this view "
                       "(custom devices travel only in the saved JSON).")
        st.file_uploader("Load scenario (JSON)", type=["json"], key=f"{cls.PREFIX}.__upload",
                         on_change=_load_json, args=(cls,))
        lerr = st.session_state.get(f"{cls.PREFIX}.__loaderr")
        if lerr:
            st.error(lerr)
    return scn
