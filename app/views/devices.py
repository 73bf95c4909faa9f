"""Overview / Device catalogue: bundled profiles with sources, plus custom devices."""

from __future__ import annotations

import streamlit as st

from app.components import download_csv, show_error
from app.components.devices import add_custom_device, device_table
from models.devices import DeviceProfile

st.title("Device catalogue")
st.markdown("Latency, bandwidth and endurance of every device the models use. The `source` column cites each "
            "number; rows marked ASSUMED are assumptions you can replace with a custom device.")
df = device_table()
st.dataframe(df, width="stretch", hide_index=True)
download_csv(df, "devices.csv", key="dl-devices")

st.subheader("Add a custom device")
with st.form("custom-device"):
    c1, c2, c3 = st.columns(3)
    name = c1.text_input("Name (identifier)", "my-pcm")
    label = c1.text_input("Label", "My PCM device")
    kind = c1.selectbox("Kind", ["custom", "pcm", "scm", "flash", "ssd", "dram", "hdd"])
    unit = c2.number_input("Access unit [bytes]", min_value=1, max_value=1 << 30, value=4096)
    rl = c2.number_input("Read latency [ns]", min_value=0.001, max_value=1e12, value=1000.0)
    wl = c2.number_input("Write latency [ns]", min_value=0.001, max_value=1e12, value=5000.0)
    rb = c3.number_input("Read bandwidth [MB/s] (0 = derive)", min_value=0.0, max_value=1e7, value=0.0)
    wb = c3.number_input("Write bandwidth [MB/s] (0 = derive)", min_value=0.0, max_value=1e7, value=0.0)
    en = c3.number_input("Endurance [writes/cell] (0 = unlimited)", min_value=0.0, max_value=1e18, value=1e7, format="%g")
    rpm = c3.number_input("RPM (HDD only, 0 = n/a)", min_value=0.0, max_value=30000.0, value=0.0)
    if st.form_submit_button("Add device"):
        try:
            prof = DeviceProfile(
                name=name.strip(), label=label, kind=kind, access_unit_bytes=int(unit), read_latency_ns=rl,
                write_latency_ns=wl, read_bandwidth_MBps=rb or None, write_bandwidth_MBps=wb or None,
                endurance_writes_per_cell=en or None, rpm=rpm or None, source="user-defined",
            )
            add_custom_device(prof)
            st.success(f"Added {prof.name}; it is now in every device picker for this session.")
            st.rerun()
        except Exception as e:  # noqa: BLE001
            show_error(e, "Custom device")
