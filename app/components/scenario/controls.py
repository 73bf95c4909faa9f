"""The page's scenario controls: validation box, URL sync, save/load as JSON."""

from __future__ import annotations

from app.components.scenario.base import S, _box_key
from app.components.scenario.labels import field_label
from app.components.scenario.messages import _draw_box
from app.components.scenario.persistence import (
    _load_json,
    _used_custom_devices,
    scenario_json,
    to_query,
)
from app.components.scenario.state import _save_shadow, resolve


def scenario_controls(cls: type[S], *, page: str) -> S | None:
    """Validate the page's inputs, sync the URL, and draw save/load controls.

    Returns the validated scenario, or ``None`` after showing which fields are invalid
    (the widgets keep the user's values).
    """
    import streamlit as st

    from app.components.errors import md_escape

    _save_shadow(cls)
    scn, errors, used = resolve(cls)
    bad_url = st.session_state.pop(f"{cls.PREFIX}.__urlbad", None)
    bad_dev = st.session_state.pop(f"{cls.PREFIX}.__urldev", None)
    if bad_dev:
        st.warning("Custom devices of the link not restored: " + md_escape(bad_dev, 300), icon=":material/link_off:")
    if bad_url:
        # the label the user sees, and the parameter's name as it appears in the link
        st.warning("Ignored invalid link parameter(s): " + ", ".join(f"{md_escape(field_label(cls, f))} (`{f}`)"
                                                                     for f in bad_url), icon=":material/link_off:")
    if errors:
        box = (cls, st.empty(), scn is not None, errors, used)
        st.session_state[_box_key(cls)] = box
        _draw_box(*box)
    else:

        q = to_query(scn)
        from app.components.device_store import DEV_PARAM, devices_param

        dev = devices_param([d["name"] for d in _used_custom_devices(scn)])
        if dev:
            q[DEV_PARAM] = dev  # the custom devices the inputs name travel in the link too
        try:
            if {k: st.query_params.get(k) for k in q} != q or (DEV_PARAM in st.query_params and not dev):
                st.query_params.from_dict(q)
        except Exception:  # noqa: BLE001 - URL sync is best effort
            pass
    with st.expander("Scenario: save, load, share", icon=":material/save:"):
        if scn is not None:
            st.download_button("Save scenario (JSON)", scenario_json(scn, page), file_name=f"{page}-scenario.json",
                               mime="application/json", key=f"{cls.PREFIX}.__save")
            st.caption("The page URL encodes these inputs, and the custom devices they name: copy it to share "
                       "this view.")
        st.file_uploader("Load scenario (JSON)", type=["json"], key=f"{cls.PREFIX}.__upload",
                         on_change=_load_json, args=(cls, page))
        lerr = st.session_state.get(f"{cls.PREFIX}.__loaderr")
        if lerr:
            st.error(md_escape(lerr, 600))

    return scn
