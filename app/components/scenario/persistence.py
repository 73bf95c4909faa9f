"""A scenario outside the session: URL query params, and the JSON file (with the custom devices it names)."""

from __future__ import annotations

import copy
import json
from typing import Any

from pydantic import BaseModel, ValidationError

from app.components.errors import describe
from app.components.scenario.base import Scenario
from app.components.scenario.labels import field_label
from app.components.scenario.messages import field_errors
from models.nesting import loads_json

#: Top-level key of a scenario JSON file holding the custom devices its scenario names.
CUSTOM_DEVICES = "custom_devices"
#: Largest scenario file read [bytes]: a saved scenario is a few kB (inputs and custom devices); checked
#: before parsing (a 60 MB JSON took the server from 0.4 to 2.9 GB, issue 42 item 4).
MAX_SCENARIO_BYTES = 1_000_000


def _coerce(cls: type[Scenario], field: str, raw: str) -> Any:
    ann = cls.model_fields[field].annotation
    if ann is bool:
        return raw.lower() in ("1", "true", "yes", "on")
    if ann is list or getattr(ann, "__origin__", None) is list:
        return [x for x in raw.split(",") if x != ""]
    return raw


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


def _used_custom_devices(scn: Scenario) -> list[dict]:
    """The session's custom devices named by a field of ``scn`` (str or list-of-str values)."""
    from app.components.device_store import custom_devices

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
    from app.components.device_store import add_custom_device
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


def page_title(url: str) -> str:
    """Navigation title of the page at ``url`` (its url path), or ``url`` when unknown."""
    from app.registry import PAGES

    return next((p[2] for p in PAGES if p[4] == url), url)


def _load_json(cls: type[Scenario], page: str | None = None) -> None:
    import streamlit as st

    from app.components.device_store import CUSTOM_KEY

    up = st.session_state.get(f"{cls.PREFIX}.__upload")
    if up is None:
        return
    before = copy.deepcopy(st.session_state.get(CUSTOM_KEY, {}))
    try:
        size = int(getattr(up, "size", None) or len(up.getvalue()))
        if size > MAX_SCENARIO_BYTES:
            raise ValueError(f"the scenario file is {size:,} bytes, more than the {MAX_SCENARIO_BYTES:,} bytes (1 MB) "
                             "a scenario may have (a saved scenario is a few kB); it was not read")
        data = loads_json(up.getvalue().decode("utf-8"), what=str(getattr(up, "name", "") or "the scenario file"))
        other = data.get("page") if isinstance(data, dict) else None
        if page is not None and isinstance(other, str) and other != page:
            raise ValueError(f"this file is a scenario of the page '{page_title(other)}', not of "
                             f"'{page_title(page)}': open that page to load it")
        if isinstance(data, dict) and "scenario" in data:

            if CUSTOM_DEVICES in data:  # registered first: the scenario may name them
                _register_devices(data[CUSTOM_DEVICES])
            data = data["scenario"]
        errors = field_errors(cls, data) if isinstance(data, dict) else {}
        if errors:
            raise ValueError("; ".join(f"{field_label(cls, f) if f else 'inputs'}: {m}" for f, m in errors.items()))
        scn = cls.model_validate(data)
    except (ValueError, ValidationError, UnicodeDecodeError) as e:
        st.session_state[CUSTOM_KEY] = before  # a rejected file adds no devices
        st.session_state[f"{cls.PREFIX}.__loaderr"] = f"could not load scenario file: {describe(e)}"
        return

    for f, v in scn.model_dump().items():
        st.session_state[cls.key(f)] = v
    st.session_state.pop(f"{cls.PREFIX}.__loaderr", None)
