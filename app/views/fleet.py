"""Planner / Fleet results: each role's benefit across the volumes of a ``pcm-planner plan --fleet`` run."""

from __future__ import annotations

import streamlit as st

from app.components.claims import claims_strip
from app.components.errors import user_errors
from app.components.fleet import fleet_view, read_fleet_results

st.title("Fleet results")
claims_strip("fleet")
st.markdown(
    "Upload the results of `pcm-planner plan --fleet FLEET.toml` (the Parquet file, or the CSV written beside it): "
    "one verdict row per volume × role × device. The page shows how each role's benefit spreads across the "
    "volumes (log axis; the dashed line is 1×, break-even), which volumes win, and the share of the fleet "
    "that wins.")
up = st.file_uploader("Fleet results (.parquet or .csv)", type=["parquet", "csv"], key="fleet.upload")
if up is None:
    st.info("No results file yet. Run for example `pcm-planner plan --fleet fleet.toml --fleet-out fleet.parquet` "
            "(traces as paths or globs, devices and roles in the TOML file) and upload fleet.parquet.")
else:
    with user_errors("Reading the fleet results"):
        df = read_fleet_results(up.getvalue(), up.name)
        fleet_view(df)
