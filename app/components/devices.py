"""Device picker over the bundled catalogue plus the user's custom devices.

Scenario fields naming a device use :func:`device_field` (or :data:`DeviceName`) so an unknown
name in a link or a scenario file is rejected by validation (the page then warns about it)
instead of being silently replaced by the first device of the picker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from pydantic import AfterValidator

from models.devices import NUMERIC_COLUMNS, DeviceProfile, load_catalogue

__all__ = ["CUSTOM_KEY", "all_devices", "add_custom_device", "custom_devices", "device_names", "device_field",
           "DeviceName", "device_picker", "device_table", "device_provenance_table", "inherit_provenance"]

CUSTOM_KEY = "custom_devices"


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


def device_picker(label: str, *, key: str, kinds: tuple[str, ...] | None = None, help: str | None = None,
                  endurance: bool = False, describe: Callable[[DeviceProfile], str] | None = None) -> DeviceProfile:
    """A selectbox of devices (optionally only some kinds); returns the chosen profile.

    The options are :func:`device_names` (``kinds``, ``endurance``); ``describe`` gives an option's
    text from its profile (default: label and name).
    """
    import streamlit as st

    devs = {n: d for n, d in all_devices().items() if _eligible(d, kinds, endurance)}
    names = list(devs)
    if st.session_state.get(key) not in names:  # e.g. a custom device removed on the catalogue page
        st.session_state[key] = names[0]
    text = describe or (lambda d: f"{d.label or d.name} ({d.name})")
    name = st.selectbox(label, names, key=key, help=help, format_func=lambda n: text(devs[n]))
    return devs[name]


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
