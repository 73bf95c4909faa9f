"""Overview / Device catalogue: bundled profiles with sources, plus custom devices."""

import streamlit as st
from pydantic import ValidationError

from app.components import download_csv, show_error
from app.components.claims import claims_strip
from app.components.devices import (
    CUSTOM_KEY,
    add_custom_device,
    all_devices,
    device_provenance_table,
    device_table,
    inherit_provenance,
)
from app.components.errors import md_escape
from app.components.tables import table
from models.devices import DeviceProfile, load_catalogue
from models.provenance import params_frame

st.title("Device catalogue")
claims_strip("devices")
st.markdown("Latency, bandwidth and endurance of every device the models use. The `source` column cites each "
            "number; the `provenance` column and the table below give the kind of every value: **published**, "
            "**derived** from a seed result, **assumed** (replace those with a custom device when you know better) "
            "or **user-defined**.")
df = device_table()
table(df)
download_csv(df, "devices.csv", key="dl-devices")

st.subheader("Provenance of every value")
prov = device_provenance_table()
# pastel cells with dark text: readable in the light and the dark theme
_COLOURS = {k: f"background-color: {c}; color: #1f1f1f" for k, c in (
    ("derived from a seed result", "#fde2c8"), ("assumed", "#fff3b0"), ("user-defined", "#dbeafe"))}
table(prov.style.map(lambda v: _COLOURS.get(v, "")))
st.caption("Derived values were inverted from a seed paper's result (e.g. hdd-7200's seek and 8.2 ms random "
           "access from seed 003's 0.5 MB/s), so that result cannot validate a model that uses them; assumed values "
           "have no source. Model constants (not device values) are listed with their provenance in "
           "models/provenance.py; each page's inputs show theirs in the help text.")
download_csv(prov, "device-provenance.csv", key="dl-devices-prov")

with st.expander("Model constants and their provenance (models/provenance.py)", icon=":material/fact_check:"):
    consts = params_frame()
    counts = consts.kind.value_counts()
    st.caption(f"{len(consts)} registered constants: " + ", ".join(f"{n} {k}" for k, n in counts.items())
               + ". Every model reads its constants from this registry; low/high is the stated range of each.")
    table(consts.style.map(lambda v: _COLOURS.get(v, ""), subset=["kind"]))
    download_csv(consts, "model-constants.csv", key="dl-devices-consts")

st.subheader("Add or edit a custom device")
saved = st.session_state.pop("dev.__saved", None)  # set before the rerun that follows a save
if saved:
    st.success(saved, icon=":material/check_circle:")
devs = all_devices()
base_name = st.selectbox("Start from", list(devs), key="dev.base",
                         format_func=lambda n: f"{devs[n].label or n} ({n})",
                         help="Pre-fills the form; pick one of your custom devices to edit it.")
base = devs[base_name]
is_custom = base_name in st.session_state.get(CUSTOM_KEY, {})
#: DeviceProfile field -> the form's label (messages name what the user sees). The number inputs have no
#: browser-side bounds: a value out of range reaches the check below, which says why it is not saved.
_FORM_LABELS = {"name": "Name (identifier)", "label": "Label", "kind": "Kind", "access_unit_bytes": "Access unit [bytes]",
                "read_latency_ns": "Read latency [ns]", "write_latency_ns": "Write latency [ns]",
                "avg_seek_ns": "Mean seek [ns]", "read_bandwidth_MBps": "Read bandwidth [MB/s]",
                "write_bandwidth_MBps": "Write bandwidth [MB/s]", "endurance_writes_per_cell": "Endurance [writes/cell]",
                "rpm": "RPM"}
with st.form("custom-device"):
    c1, c2, c3 = st.columns(3)
    name = c1.text_input("Name (identifier)", base_name if is_custom else f"my-{base_name}")
    label = c1.text_input("Label", base.label if is_custom else f"My {base.label or base_name}")
    kinds = ["custom", "pcm", "scm", "flash", "ssd", "dram", "hdd"]
    kind = c1.selectbox("Kind", kinds, index=kinds.index(base.kind))
    unit = c2.number_input("Access unit [bytes]", value=base.access_unit_bytes)
    rl = c2.number_input("Read latency [ns]", value=base.read_latency_ns)
    wl = c2.number_input("Write latency [ns]", value=base.write_latency_ns)
    seek = c2.number_input("Mean seek [ns] (HDD only, 0 = n/a)", value=base.avg_seek_ns or 0.0)
    rb = c3.number_input("Read bandwidth [MB/s] (0 = derive)", value=base.read_bandwidth_MBps or 0.0)
    wb = c3.number_input("Write bandwidth [MB/s] (0 = derive)", value=base.write_bandwidth_MBps or 0.0)
    en = c3.number_input("Endurance [writes/cell] (0 = unlimited)", value=base.endurance_writes_per_cell or 0.0, format="%g")
    rpm = c3.number_input("RPM (HDD only, 0 = n/a)", value=base.rpm or 0.0)
    st.caption("Allowed: access unit 1 B – 1 GiB; latencies > 0 and ≤ 10¹² ns; mean seek 0 – 10¹¹ ns; bandwidths "
               "0 (derive) or up to 10⁷ MB/s; endurance 0 (unlimited) or up to 10¹⁸; RPM 0 (n/a) or up to 30,000.")
    if st.form_submit_button("Save device"):
        try:
            nums = dict(access_unit_bytes=int(unit), read_latency_ns=rl, write_latency_ns=wl,
                        read_bandwidth_MBps=rb or None, write_bandwidth_MBps=wb or None,
                        endurance_writes_per_cell=en or None, avg_seek_ns=seek or None, rpm=rpm or None)
            prof = DeviceProfile(name=name.strip(), label=label, kind=kind, **nums,
                                 source=f"user-defined (from {base_name})",
                                 provenance=inherit_provenance(base, nums))
            add_custom_device(prof)
            st.session_state["dev.__saved"] = (f"Saved {md_escape(prof.name)}; it is now in every device picker for this "
                                               "session.")
            st.rerun()
        except ValidationError as e:  # name each bad value by the label of its field in the form
            st.error("Custom device not saved: " + "; ".join(
                f"{_FORM_LABELS.get(str(err['loc'][0]) if err['loc'] else '', 'inputs')}: "
                f"{md_escape(str(err['msg']).removeprefix('Value error, '), 200)}" for err in e.errors()),
                icon=":material/error:")
        except Exception as e:  # noqa: BLE001 - shown as a message naming the field
            show_error(e, "Custom device")

custom = st.session_state.get(CUSTOM_KEY, {})
if custom:
    drop = st.selectbox("Remove a custom device", ["—"] + list(custom), key="dev.drop")
    if drop != "—" and st.button("Remove", key="dev.remove"):
        custom.pop(drop, None)
        st.rerun()
st.caption(f"{len(load_catalogue())} bundled devices; custom devices live in this browser session "
           "(save a page's scenario to keep the numbers it used).")
