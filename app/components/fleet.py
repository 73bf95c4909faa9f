"""The fleet view: each role's benefit across the volumes of a ``pcm-planner plan --fleet`` results file.

:func:`read_fleet_results` reads the Parquet or CSV the CLI wrote (checking the columns it needs);
:func:`fleet_view` draws, per role and device, the benefit of every volume (a strip on a log axis
with the 1x break-even line), the share of the fleet that wins, and the volumes that win.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from app.components.charts import ratio_axis, show, style
from app.components.errors import md_escape
from app.components.export import download_csv
from app.components.tables import table
from models.planner.fleet import fleet_summary

__all__ = ["read_fleet_results", "fleet_view", "NEEDED"]

#: Columns a fleet results file must hold.
NEEDED = ("trace", "role", "device", "value", "verdict")


def read_fleet_results(data: bytes, file_name: str) -> pd.DataFrame:
    """The rows of a fleet results file (Parquet, else CSV); ValueError naming the file and what is missing."""
    try:
        df = pd.read_parquet(io.BytesIO(data)) if data[:4] == b"PAR1" else pd.read_csv(io.BytesIO(data))
    except Exception as e:  # noqa: BLE001 - any unreadable file gets one message
        raise ValueError(f"{file_name}: not a fleet results file (Parquet or CSV): {type(e).__name__}") from None
    missing = [c for c in NEEDED if c not in df.columns]
    if missing:
        raise ValueError(f"{file_name}: not a fleet results file (pcm-planner plan --fleet): no column "
                         f"{', '.join(missing)}")
    df["value"] = pd.to_numeric(df["value"], errors="coerce")
    df["trace"] = df["trace"].astype(str)
    return df


def _benefit_chart(df: pd.DataFrame) -> go.Figure:
    fig = go.Figure()
    for (role, device), g in df.groupby(["role", "device"], sort=False):
        v = g[np.isfinite(g["value"]) & (g["value"] > 0)]
        if not len(v):
            continue
        fig.add_trace(go.Box(y=v["value"], name=f"{role} · {device}", boxpoints="all", jitter=0.4, pointpos=0,
                             text=v["trace"].map(lambda t: t.rsplit("/", 1)[-1]), hoverinfo="y+text"))
    style(fig, title="Benefit of each volume, per role and device", x="role · device [-]",
          y="benefit (baseline over device) [x]")
    return ratio_axis(fig, "y", label="1× = break-even")


def _share_text(summary: pd.DataFrame) -> str:
    """The share of the fleet above break-even, one line per role and device (Markdown)."""
    lines = [f"- {md_escape(r.role)} · {md_escape(r.device)}: {r.volumes_winning:,} of {r.volumes:,} volumes "
             f"({100 * r.share_winning:.1f} %)" for r in summary.itertuples()]
    return ("**Share of the fleet above break-even** (verdict *wins*: the benefit is above 1× by more than the "
            "tie band):\n" + "\n".join(lines))


def fleet_view(df: pd.DataFrame) -> None:
    """The fleet's summary table, the benefit chart and the winning volumes (see the module docstring)."""
    s = fleet_summary(df)
    volumes = df["trace"].nunique()
    st.markdown(f"**{volumes:,} volumes**, {len(df):,} verdict rows.")
    table(s.rename(columns={"share_winning": "share of the fleet winning"}), percent=("share of the fleet winning",))
    download_csv(s, "fleet-summary.csv", "Download the summary (CSV)", key="fleet-summary-csv")
    st.markdown(_share_text(s))
    if np.isfinite(df["value"]).any():
        show(_benefit_chart(df))
    else:
        st.info("No row of this file has a benefit value (every role needs data the traces did not have).")
    wins = df[df["verdict"] == "wins"].sort_values("value", ascending=False)
    st.markdown(f"**Volumes that win** ({wins['trace'].nunique():,} of {volumes:,}):")
    table(wins[["trace", "role", "device", "value"]].rename(columns={"value": "benefit [x]"}))
    download_csv(wins, "fleet-winning-volumes.csv", "Download the winning volumes (CSV)", key="fleet-wins-csv")
