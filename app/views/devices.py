"""Overview / Device catalogue: bundled profiles with sources, plus custom devices."""

import streamlit as st

from app.components import download_csv
from app.components.claims import claims_strip
from app.components.devices import (
    CUSTOM_KEY,
    DEV_PARAM,
    custom_device_form,
    device_csv_controls,
    device_provenance_table,
    device_table,
    devices_param,
    restore_url_devices,
)
from app.components.errors import md_escape
from app.components.tables import table
from models.devices import load_catalogue
from models.provenance import params_frame

st.title("Device catalogue")
claims_strip("devices")
if not st.session_state.get("dev.__urlinit"):  # first run in this session: custom devices of the link
    st.session_state["dev.__urlinit"] = True
    _msg = restore_url_devices(st.query_params.get(DEV_PARAM))
    if _msg:
        st.session_state["dev.__urlerr"] = _msg
if st.session_state.get("dev.__urlerr"):
    st.warning("Custom devices of the link not restored: " + md_escape(st.session_state["dev.__urlerr"], 300),
               icon=":material/link_off:")
st.markdown("Latency, bandwidth and endurance of every device the models use. The `source` column cites each "
            "number; the table below it gives the kind of every value: **published**, **computed** from published "
            "values (the source gives the formula), **derived** from a seed result, **simulated** (a paper's or a "
            "simulator's simulation, never a measurement), **assumed** (replace those with a custom device when you "
            "know better) or **user-defined**. Bandwidths are the media's; `interface_bandwidth_MBps` is the link's "
            "raw rate, an upper bound no model reads (data/SOURCES.md says what each column means).")
df = device_table()
# the provenance column's "read_latency_ns=published;..." text is the CSV's (one column a spreadsheet and
# the import read back); on the page the table below shows the same kinds one cell per value
table(df.drop(columns=["provenance"]))
download_csv(df, "devices.csv", key="dl-devices")

st.subheader("Provenance of every value")
prov = device_provenance_table()
# pastel cells with dark text: readable in the light and the dark theme
_COLOURS = {k: f"background-color: {c}; color: #1f1f1f" for k, c in (
    ("derived from a seed result", "#fde2c8"), ("simulated", "#e9d8fd"), ("assumed", "#fff3b0"),
    ("user-defined", "#dbeafe"))}
table(prov.style.map(lambda v: _COLOURS.get(v, "")))
st.caption("Derived values were inverted from a seed paper's result (e.g. hdd-7200's seek and 8.2 ms random "
           "access from seed 003's 0.5 MB/s), so that result cannot validate a model that uses them; simulated values "
           "come from a simulation (seed 002's parameters, NVMain's configuration), not from hardware; assumed values "
           "have no source. Model constants (not device values) are listed with their provenance in "
           "models/provenance/; each page's inputs show theirs in the help text.")
download_csv(prov, "device-provenance.csv", key="dl-devices-prov")

# a lazy section: the styled table of every constant is ~117 KB, built and sent only while the section is open
# (it was re-sent, and decoded by the browser, on every rerun of the page with the section closed)
constants = st.expander("Model constants and their provenance (models/provenance/)", icon=":material/fact_check:",
                        key="dev.constants_open", on_change="rerun")
with constants:
    if constants.open:
        consts = params_frame()
        counts = consts.kind.value_counts()
        st.caption(f"{len(consts)} registered constants: " + ", ".join(f"{n} {k}" for k, n in counts.items())
                   + ". Every model reads its constants from this registry; low/high is the stated range of each.")
        table(consts.style.map(lambda v: _COLOURS.get(v, ""), subset=["kind"]))
        download_csv(consts, "model-constants.csv", key="dl-devices-consts")

st.subheader("Add or edit a custom device")
custom_device_form("dev")



def _remove_custom() -> None:
    """on_click of "Remove": runs before the script, so the whole page drops the device in this run."""
    st.session_state.get(CUSTOM_KEY, {}).pop(st.session_state.get("dev.drop"), None)


custom = st.session_state.get(CUSTOM_KEY, {})
if custom:
    drop = st.selectbox("Remove a custom device", ["—"] + list(custom), key="dev.drop")
    if drop != "—":
        st.button("Remove", key="dev.remove", on_click=_remove_custom)
st.subheader("Export or import custom devices")
device_csv_controls("dev")
# the page link carries the custom devices (a reload or a shared link keeps them)
_param = devices_param()
try:
    if st.query_params.get(DEV_PARAM) != _param:
        if _param:
            st.query_params[DEV_PARAM] = _param
        else:
            del st.query_params[DEV_PARAM]
except Exception:  # noqa: BLE001 - URL sync is best effort
    pass
st.caption(f"{len(load_catalogue())} bundled devices. Custom devices live in this browser session, travel in this "
           "page's link and in the link and scenario file of every page that uses them, and export as CSV.")
