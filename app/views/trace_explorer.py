"""Storage / Trace explorer: statistics, histograms, LBN map and LRU miss-ratio curve of a trace."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from pydantic import Field

from app.components import download_csv, scenario_controls, user_errors
from app.components.charts import show, style
from app.components.claims import claims_strip
from app.components.provenance import assumption_note, trace_keys
from app.components.scenario import init_state, one_of
from app.components.tables import table as show_table
from app.components.traces import BLOCK_SIZES, TraceChoice, block_size_select, trace_and_settings
from models.sim.shards import shards_mrc
from models.sim.stack_distance import hit_ratio_curve
from models.traces.blocks import split_blocks
from models.traces.core import BlockTrace
from models.traces.stats import statistic_table, trace_stats

BlockSize = one_of(BLOCK_SIZES, what="block size [bytes]", base=int)


class TraceExplorerScenario(TraceChoice):
    PREFIX = "tx"
    block_size_bytes: BlockSize = 4096
    mrc_method: Literal["exact", "shards"] = "exact"
    shards_rate: float = Field(0.01, ge=0.0001, le=1)
    scatter_points: int = Field(5000, ge=100, le=50_000)


S = TraceExplorerScenario
init_state(S)
st.title("Trace explorer")
claims_strip("trace-explorer")
st.markdown(
    "Pick a bundled trace, a synthetic workload (seed 003 Table II presets, web server / proxy) or upload your own "
    "(MQSim/DiskSim, DiskSim validation, UMass SPC, MSR Cambridge, blkparse, generic CSV; plain, gzip or zstd). "
    "The page shows the trace's statistics, request sizes, reuse counts, where it accesses the device over time, "
    "and its exact LRU miss-ratio curve."
)

trace, settings = trace_and_settings(S.PREFIX, border=False)
with settings:
    block_size_select(S.key("block_size_bytes"),
                      help="Requests are split into the blocks of this size they touch (cache granularity).")
    st.radio("Miss-ratio curve", ["exact", "shards"], key=S.key("mrc_method"), horizontal=True,
             format_func={"exact": "exact (Mattson stack distances)", "shards": "SHARDS sampled"}.get)
    if st.session_state[S.key("mrc_method")] == "shards":
        st.number_input("SHARDS sampling rate [-]", min_value=0.0001, max_value=1.0, step=0.01, format="%.4f",
                        key=S.key("shards_rate"))
    st.number_input("Points in the LBN scatter", min_value=100, max_value=50_000, step=1000,
                    key=S.key("scatter_points"))

scn = scenario_controls(S, page="trace-explorer")


@st.cache_data(show_spinner=False, max_entries=8)
def _stats(_trace: BlockTrace, fingerprint: str, block_size: int):
    s = trace_stats(_trace, block_size)
    return statistic_table(s.to_frame(), text=True), s.reuse_count_hist, s.size_hist, s.footprint_blocks


@st.cache_data(show_spinner=False, max_entries=8)
def _mrc(_trace: BlockTrace, fingerprint: str, block_size: int, method: str, rate: float) -> pd.DataFrame:
    acc = split_blocks(_trace, block_size)
    m = acc.n_unique
    sizes = np.unique(np.round(np.geomspace(1, max(m, 1), 200)).astype(np.int64))
    if method == "shards":
        c = shards_mrc(acc.block, rate=rate, sizes=sizes, seed=0)
    else:
        c = hit_ratio_curve(acc.block, sizes=sizes)
    df = c.to_frame()
    df.insert(1, "cache_bytes", df["cache_blocks"] * block_size)
    df.insert(2, "cache_fraction_of_footprint", df["cache_blocks"] / max(m, 1))
    df["miss_ratio"] = 1.0 - df["hit_ratio"]
    return df


if scn is not None and trace is not None:
    with user_errors("Trace explorer"):
        if len(trace) == 0:
            raise ValueError("the trace has no requests")
        bs = scn.block_size_bytes
        tok = trace.fingerprint()
        table, reuse, sizes, footprint = _stats(trace, tok, bs)
        keys, values = trace_keys(trace)  # a synthetic preset's locality mix is assumed
        assumption_note(keys, values)
        kv = dict(zip(table["statistic"], table["value"], strict=True))
        m1, m2, m3, m4 = st.columns(4)
        m1.metric("Requests", f"{int(kv['requests']):,}")
        m2.metric("Writes", f"{float(kv['write_fraction']):.1%}")
        m3.metric("Footprint", f"{int(kv['footprint_bytes']) / 2**20:,.1f} MiB")
        m4.metric("Mean request", f"{float(kv['size_mean_bytes']) / 1024:,.2f} KiB")

        st.subheader("Statistics")
        show_table(table)
        download_csv(table, "trace-stats.csv", key="dl-tx-stats", provenance=keys, values=values)

        h1, h2 = st.columns(2)
        with h1:
            sz = sizes[sizes["requests"] > 0]
            labels = [f"{int(a) // 1024} KiB" if a >= 1024 else f"{int(a)} B" for a in sz["size_from_bytes"]]
            fig = go.Figure(go.Bar(x=labels, y=sz["requests"], name="requests"))
            show(style(fig, title="Request sizes", x="request size ≥ [bytes]", y="requests [-]"), key="tx-sizes")
            download_csv(sizes, "trace-request-sizes.csv", key="dl-tx-sizes", provenance=keys, values=values)
        with h2:
            fig = go.Figure(go.Bar(x=reuse["accesses"], y=reuse["blocks"], name="blocks"))
            show(style(fig, title=f"Reuse counts ({bs} B blocks)", x="accesses per block [-]", y="blocks [-]",
                       logy=True), key="tx-reuse")
            download_csv(reuse, "trace-reuse-counts.csv", key="dl-tx-reuse", provenance=keys, values=values)

        st.subheader("Where the trace goes: offset over time")
        rng = np.random.default_rng(0)
        k = min(len(trace), scn.scatter_points)
        idx = np.sort(rng.choice(len(trace), k, replace=False)) if k < len(trace) else np.arange(len(trace))
        pts = pd.DataFrame({"time_s": trace.time_ns[idx] / 1e9, "offset_gib": trace.offset_bytes[idx] / 2**30,
                            "size_bytes": trace.size_bytes[idx], "device": trace.device[idx],
                            "op": np.where(trace.is_write[idx], "write", "read")})
        fig = go.Figure()
        for op, color in (("read", "#1f77b4"), ("write", "#d62728")):
            p = pts[pts["op"] == op]
            fig.add_scatter(x=p["time_s"], y=p["offset_gib"], mode="markers", name=op,
                            marker=dict(size=3, color=color, opacity=0.6))
        fig.update_layout(hovermode="closest")
        show(style(fig, title=f"{k:,} of {len(trace):,} requests (uniform sample)", x="time [s]",
                   y="offset [GiB]"), key="tx-lbn")
        download_csv(pts, "trace-offset-sample.csv", key="dl-tx-lbn", provenance=keys, values=values)

        st.subheader("LRU miss-ratio curve")
        with st.spinner("Computing the miss-ratio curve …"):
            mrc = _mrc(trace, tok, bs, scn.mrc_method, scn.shards_rate)
        fig = go.Figure()
        fig.add_scatter(x=mrc["cache_bytes"] / 2**20, y=mrc["miss_ratio"], name="miss ratio (block accesses)",
                        line_shape="hv")
        show(style(fig, x="LRU cache size [MiB]", y="miss ratio [-]", logx=True), key="tx-mrc")
        how = "exact (one Mattson stack-distance pass)" if scn.mrc_method == "exact" else \
            f"SHARDS estimate at sampling rate {scn.shards_rate:g}"
        st.caption(f"Per {bs}-byte block access, {how}; footprint {footprint:,} blocks. Cold misses make the "
                   "curve flatten at 1 − (reuses / accesses) once the cache holds the whole footprint.")
        download_csv(mrc, "trace-mrc.csv", key="dl-tx-mrc", provenance=keys, values=values)
