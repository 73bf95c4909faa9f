"""Storage / File-cache simulation: no cache vs LRU vs AC-cache on HDD and SCM (seed 004 §2, Figs 3-5)."""

from __future__ import annotations

import json
from typing import Literal

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from pydantic import Field

from app.components import download_csv, scenario_controls, user_errors
from app.components.charts import show, style
from app.components.claims import claims_strip
from app.components.devices import DeviceName, device_picker
from app.components.progress import progress_bar
from app.components.provenance import assumption_note, device_keys, param_help, trace_keys
from app.components.scenario import init_state, one_of
from app.components.traces import BLOCK_SIZES, TraceChoice, block_size_select, trace_and_settings
from models._base import results_frame
from models.devices import DeviceProfile
from models.provenance import param
from models.storage.file_cache_sim import (
    access_bytes,
    break_even_share,
    file_cache_curves,
    gains,
    reuse_histogram,
)
from models.traces.blocks import split_blocks

BlockSize = one_of(BLOCK_SIZES, what="block size [bytes]", base=int)


class FileCacheSimScenario(TraceChoice):
    PREFIX = "fcs"
    trace_source: Literal["bundled", "synthetic", "upload"] = "synthetic"
    preset: str = "web-proxy"
    hdd_device: DeviceName = "hdd-7200"
    scm_device: DeviceName = "optane-dcpmm"
    block_size_bytes: BlockSize = 4096
    n_sizes: int = Field(10, ge=2, le=40)
    ghost_fraction: float = Field(param("file_cache_sim.ghost_fraction").value, ge=0.0, le=10.0)


@st.cache_data(show_spinner=False, max_entries=8)
def _study(ids: np.ndarray, devices_json: tuple[str, ...], block_size: int, fractions: tuple[float, ...],
           ghost_fraction: float) -> pd.DataFrame:
    devs = [DeviceProfile.model_validate_json(d) for d in devices_json]
    with progress_bar("Simulating the AC-cache at each size …") as report:
        return file_cache_curves(ids, devs, block_size_bytes=block_size, cache_fractions=list(fractions),
                                 ghost_fraction=ghost_fraction, progress=report)


S = FileCacheSimScenario
init_state(S)
st.title("File-cache simulation: LRU vs admission control")
claims_strip("file-cache-sim")
st.markdown(
    "Replay a block trace through a file cache and total the storage access time (Park & Bahn 2020, §2): "
    "a hit costs **t**, a miss that inserts the block costs **Tm**, a miss served directly from storage "
    "costs **T** (t, T, Tm from the device, as on the *File-cache break-even* page). **LRU** inserts every "
    "missed block; the **AC-cache** inserts a block only on its second miss within a ghost window "
    "(the paper's \"used more than once\"). Cache size is a share of the trace footprint (Figures 3-5)."
)

trace, settings = trace_and_settings(S.PREFIX)
with settings:
    hdd = device_picker("Slow storage (Figure 3)", key=S.key("hdd_device"))
    scm = device_picker("Fast storage / SCM (Figures 4-5)", key=S.key("scm_device"))
    block_size_select(S.key("block_size_bytes"))
    st.slider("Cache sizes simulated", 2, 40, key=S.key("n_sizes"),
              help="Evenly spaced from 1/n of the footprint to 100 %.")
    st.number_input("AC ghost window [× cache size]", min_value=0.0, max_value=10.0, step=0.25,
                    key=S.key("ghost_fraction"),
                    help=param_help("file_cache_sim.ghost_fraction",
                                    "A missed block is admitted if its previous miss is among the last "
                                    "(window × cache size) blocks the AC-cache turned away."))

scn = scenario_controls(S, page="file-cache-sim")
if scn is not None and trace is not None:
    with user_errors("File-cache simulation"):
        if len(trace) == 0:
            raise ValueError("the trace has no requests")
        acc = split_blocks(trace, scn.block_size_bytes)
        ids = acc.block
        fractions = tuple(float(f) for f in np.linspace(1.0 / scn.n_sizes, 1.0, scn.n_sizes))
        devs = (hdd, scm) if hdd.name != scm.name else (hdd,)
        df = _study(ids, tuple(d.model_dump_json() for d in devs), scn.block_size_bytes, fractions,
                    scn.ghost_fraction)
        g = gains(df)
        _LAT = ("access_unit_bytes", "read_latency_ns", "read_bandwidth_MBps")
        tkeys, values = trace_keys(trace)
        keys = [*tkeys, "file_cache.io_stack_factor", "file_cache.pagecache_read_4k_ns",
                "file_cache.pagecache_insert_4k_ns", *(k for d in devs for k in device_keys(d, _LAT)),
                *device_keys("dram", _LAT)]
        curve_keys = [*keys, "file_cache_sim.ghost_fraction"]
        values["file_cache_sim.ghost_fraction"] = scn.ghost_fraction
        st.caption(f"{trace.name}: {len(trace):,} requests → {len(ids):,} block accesses of "
                   f"{scn.block_size_bytes:,} B, footprint {acc.n_unique:,} blocks "
                   f"({acc.footprint_bytes / 2**20:,.1f} MiB).")

        def gain_at(dev: str, col: str) -> pd.Series:
            return g[g.device == dev].set_index("cache_fraction")[col]

        m1, m2, m3 = st.columns(3)
        h = gain_at(hdd.name, "lru_vs_none")
        s = gain_at(scm.name, "lru_vs_none")
        a = gain_at(scm.name, "ac_vs_lru")
        m1.metric(f"LRU gain on {hdd.name} (max)", f"{h.max():.1%}",
                  help="1 − T_LRU / T_no-cache; paper Figure 3: about 70 % on HDD")
        m2.metric(f"LRU gain on {scm.name} (max)", f"{s.max():.1%}",
                  help="Paper Figure 4: < 3 % on SCM. Negative = slower than no cache.")
        m3.metric(f"AC vs LRU on {scm.name}", f"{a.min():.0%} … {a.max():.0%}",
                  help="1 − T_AC / T_LRU over the simulated sizes; paper Figure 5: 20-40 %")

        def fig_for(dev: str, policies: list[str], title: str, key: str) -> None:
            fig = go.Figure()
            names = {"none": "no cache", "lru": "LRU-cache", "ac": "AC-cache"}
            for pol in policies:
                d = df[(df.device == dev) & (df.policy == pol)]
                fig.add_scatter(x=100 * d.cache_fraction, y=d.time_ns / 1e9, name=names[pol], mode="lines+markers",
                                line_dash="dot" if pol == "none" else None)
            show(style(fig, title=title, x="cache size [% of footprint]", y="storage access time [s]"), key=key)

        c1, c2 = st.columns(2)
        with c1:
            fig_for(hdd.name, ["none", "lru"], f"Figure 3: caching on {hdd.name}", "fcs-fig3")
        with c2:
            fig_for(scm.name, ["none", "lru"], f"Figure 4: caching on {scm.name}", "fcs-fig4")
        fig_for(scm.name, ["none", "lru", "ac"], f"Figure 5: LRU vs admission control on {scm.name}", "fcs-fig5")
        assumption_note(curve_keys, values)
        download_csv(df, "file-cache-sim.csv", label="Download curves (CSV)", key="dl-fcs-curves",
                     provenance=curve_keys, values=values)
        with st.expander("Relative gains per cache size"):
            st.dataframe(g.style.format({c: "{:.1%}" for c in ("lru_vs_none", "ac_vs_none", "ac_vs_lru")}),
                         hide_index=True)
            download_csv(g, "file-cache-gains.csv", key="dl-fcs-gains", provenance=curve_keys, values=values)

        st.subheader("Break-even rule on the trace's reuse counts")
        w = access_bytes(trace, acc)
        rows = [break_even_share(ids, d, block_size_bytes=scn.block_size_bytes, weights=w) for d in devs]
        be = results_frame(rows)
        st.markdown(
            "A block accessed **n > n\\*** times gains from caching on that device (eq. 3). Share of the "
            "footprint's blocks, of the accesses and of the bytes moved that clear n\\* — what an ideal "
            "admission filter would keep."
        )
        st.dataframe(be.style.format({"n_star": "{:.3g}", "share_blocks": "{:.1%}", "share_footprint_bytes": "{:.1%}",
                                      "share_accesses": "{:.1%}", "share_bytes": "{:.1%}"}), hide_index=True)
        assumption_note(keys, values)
        download_csv(be, "break-even-share.csv", key="dl-fcs-be", provenance=keys, values=values)
        hist = reuse_histogram(ids, weights=w)
        fig = go.Figure()
        fig.add_bar(x=hist.access_count, y=hist.blocks, name="blocks")
        fig.add_bar(x=hist.access_count, y=hist.accesses, name="accesses")
        for r in rows:
            if np.isfinite(r.n_star):
                fig.add_vline(x=r.n_star, line_dash="dash", annotation_text=f"n* {r.device} = {r.n_star:.2g}")
        fig.update_layout(barmode="group")
        show(style(fig, title="Reuse-count histogram", x="accesses per block n [-]", y="count [-]", logx=True,
                   logy=True), key="fcs-hist")
        download_csv(hist, "reuse-histogram.csv", key="dl-fcs-hist", provenance=tkeys, values=values)
        st.caption("Assumptions: " + json.dumps({"block_size_bytes": scn.block_size_bytes,
                                                 "ghost_window": f"{scn.ghost_fraction:g} × cache size"}))
