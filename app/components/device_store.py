"""The session's custom devices, without widgets: the catalogue plus the devices a user defined.

Custom devices live in ``st.session_state[CUSTOM_KEY]`` (name -> ``DeviceProfile.model_dump()``) and travel
in a page's link under :data:`DEV_PARAM`. Scenario fields naming a device use :func:`device_field` (or
:data:`DeviceName`) so an unknown name in a link or a scenario file is rejected by validation (the page then
warns about it) instead of being silently replaced by the first device of the picker.

This module draws nothing and imports no widget helper (:mod:`app.components.devices` holds the picker and
the custom-device form), so the scenario state, the provenance notes and the input helpers read the devices
without importing each other in a circle.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

from models.devices import NUMERIC_COLUMNS, DeviceProfile, load_catalogue

__all__ = ["CUSTOM_KEY", "DEV_PARAM", "all_devices", "add_custom_device", "custom_devices", "device_names",
           "device_field", "DeviceName", "device_table", "device_provenance_table", "inherit_provenance",
           "devices_param", "restore_url_devices"]

CUSTOM_KEY = "custom_devices"
#: Query parameter holding custom devices (:func:`models.devices.encode_devices`), so a shared link or a
#: reload of the page keeps them.
DEV_PARAM = "dev"


def _session():
    """``st.session_state`` inside a Streamlit run, else None (model code, plain tests)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if get_script_run_ctx(suppress_warning=True) is None:
        return None
    import streamlit as st

    return st.session_state


def custom_devices() -> dict[str, dict]:
    """The custom devices of this session: name -> ``DeviceProfile.model_dump()``."""
    ss = _session()
    return ss.get(CUSTOM_KEY, {}) if ss is not None else {}


def all_devices() -> dict[str, DeviceProfile]:
    """Catalogue devices plus the custom devices defined in this session."""
    out = dict(load_catalogue())
    for d in custom_devices().values():
        out[d["name"]] = DeviceProfile.model_validate(d)
    return out


def _eligible(d: DeviceProfile, kinds: tuple[str, ...] | None, endurance: bool) -> bool:
    if endurance and not d.endurance_writes_per_cell:
        return False
    return kinds is None or d.kind in kinds or d.kind == "custom"


def device_names(kinds: tuple[str, ...] | None = None, *, endurance: bool = False) -> list[str]:
    """Names :func:`device_picker` offers for ``kinds`` (custom-kind devices always; ``endurance``:
    only devices with a published write endurance)."""
    return [n for n, d in all_devices().items() if _eligible(d, kinds, endurance)]


def device_field(kinds: tuple[str, ...] | None = None, *, endurance: bool = False) -> object:
    """Scenario field type: a device name among :func:`device_names` (``kinds``, ``endurance``)."""

    def check(v: str) -> str:
        valid = device_names(kinds, endurance=endurance)
        if v not in valid:
            raise ValueError(f"unknown device {v!r}; valid: {', '.join(valid)}")
        return v

    return Annotated[str, AfterValidator(check)]


#: Scenario field type: any device of the catalogue or of this session's custom devices.
DeviceName = device_field()


def add_custom_device(profile: DeviceProfile) -> None:
    """Store ``profile`` as a custom device for this session (overrides nothing bundled).

    Saving under the name of an existing custom device replaces it (that is how edits work).
    """
    import streamlit as st

    if profile.name in load_catalogue():
        raise ValueError(f"name: {profile.name!r} is a bundled device; choose another name")
    st.session_state.setdefault(CUSTOM_KEY, {})[profile.name] = profile.model_dump()


def device_table():
    """The device catalogue (and custom devices) as a DataFrame for display/export.

    The ``provenance`` column is the catalogue's ``column=kind;...`` text (every numeric value's kind).
    """
    import pandas as pd

    from models.devices import format_provenance

    rows = []
    for d in all_devices().values():
        row = d.model_dump()
        row["provenance"] = format_provenance({c: d.value_kind(c) for c in NUMERIC_COLUMNS
                                               if getattr(d, c) is not None})
        rows.append(row)
    return pd.DataFrame(rows)


def device_provenance_table():
    """One row per device, one column per numeric value: the value's provenance kind ("" = no value)."""
    import pandas as pd

    devs = list(all_devices().values())
    rows = [{"device": d.name, **{c: (d.value_kind(c) if getattr(d, c) is not None else "") for c in NUMERIC_COLUMNS}}
            for d in devs]
    return pd.DataFrame(rows, columns=["device", *NUMERIC_COLUMNS])


def inherit_provenance(base: DeviceProfile, values: dict) -> dict[str, str]:
    """Kinds of a custom device's values: a value equal to the base device's keeps its kind, any
    other is ``user-defined``."""
    from models.provenance import USER_DEFINED

    out = {}
    for c, v in values.items():
        if v is None:
            continue
        out[c] = base.value_kind(c) if getattr(base, c) == v else USER_DEFINED
    return out


def devices_param(names=None) -> str | None:
    """The :data:`DEV_PARAM` value holding the session's custom devices ``names`` (all when None);
    None when there are none."""
    from models.devices import DeviceProfile, encode_devices

    custom = custom_devices()
    chosen = [custom[n] for n in (custom if names is None else names) if n in custom]
    if not chosen:
        return None
    return encode_devices([DeviceProfile.model_validate(d) for d in chosen])


def restore_url_devices(text: str | None) -> str | None:
    """Add the custom devices of a :data:`DEV_PARAM` value to the session (a device of the same name
    already defined in this session is kept as it is). Returns a message when the value is unusable
    (nothing is added then), else None."""
    from models.devices import decode_devices

    if not text:
        return None
    try:
        profiles = decode_devices(text)
    except ValueError as e:
        return str(e)
    ss = _session()
    if ss is None:
        return None
    have = ss.setdefault(CUSTOM_KEY, {})
    cat = load_catalogue()
    bundled = [p.name for p in profiles if p.name in cat]
    if bundled:
        return f"device link: {', '.join(bundled)} is the name of a bundled device"
    for p in profiles:
        have.setdefault(p.name, p.model_dump())
    return None
