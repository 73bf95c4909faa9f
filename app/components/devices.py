"""Device picker over the bundled catalogue plus the user's custom devices."""

from __future__ import annotations

from models.devices import DeviceProfile, load_catalogue

CUSTOM_KEY = "custom_devices"


def all_devices() -> dict[str, DeviceProfile]:
    """Catalogue devices plus the custom devices defined in this session."""
    import streamlit as st

    out = dict(load_catalogue())
    for d in st.session_state.get(CUSTOM_KEY, {}).values():
        out[d["name"]] = DeviceProfile.model_validate(d)
    return out


def add_custom_device(profile: DeviceProfile) -> None:
    """Store ``profile`` as a custom device for this session (overrides nothing bundled).

    Saving under the name of an existing custom device replaces it (that is how edits work).
    """
    import streamlit as st

    if profile.name in load_catalogue():
        raise ValueError(f"name: {profile.name!r} is a bundled device; choose another name")
    st.session_state.setdefault(CUSTOM_KEY, {})[profile.name] = profile.model_dump()


def device_picker(label: str, *, key: str, kinds: tuple[str, ...] | None = None, help: str | None = None) -> DeviceProfile:
    """A selectbox of devices (optionally only some kinds); returns the chosen profile."""
    import streamlit as st

    devs = {n: d for n, d in all_devices().items() if kinds is None or d.kind in kinds or d.kind == "custom"}
    names = list(devs)
    if st.session_state.get(key) not in names:
        st.session_state[key] = names[0]
    name = st.selectbox(label, names, key=key, help=help,
                        format_func=lambda n: f"{devs[n].label or n} ({n})")
    return devs[name]


def device_table():
    """The device catalogue (and custom devices) as a DataFrame for display/export."""
    import pandas as pd

    rows = [d.model_dump() for d in all_devices().values()]
    return pd.DataFrame(rows)
