"""Storage / File-cache simulation: no cache vs LRU vs AC-cache on HDD and SCM (seed 004 §2, Figs 3-5)."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
import streamlit as st
from pydantic import Field

from app.components import download_csv, scenario_controls, user_errors
from app.components.bands import add_band, curve_band, file_cache_time_models
from app.components.charts import figure, ref_line, show, style
from app.components.claims import claims_strip
from app.components.devices import DeviceName, device_picker
from app.components.errors import md_escape
from app.components.how_sure import UncertaintyFields, how_sure
from app.components.inputs import float_input
from app.components.metrics import metric_row
from app.components.progress import progress_bar
from app.components.provenance import assumption_note, param_help
from app.components.scenario import init_state, one_of
from app.components.tables import table
from app.components.traces import BLOCK_SIZES, TraceChoice, block_size_select, trace_and_settings
from models._base import results_frame
from models.budget import reserve
from models.devices import DeviceProfile
from models.provenance import param, trace_values
from models.storage import file_cache as fc
from models.storage.file_cache import DEFAULT_INSERTION, INSERTION_MODELS, check_storage_path
from models.storage.file_cache_sim import (
    access_bytes,
    break_even_share,
    file_cache_curves,
    gains,
    insertion_gains,
    provenance_keys_for,
    reuse_histogram,
)
from models.traces.blocks import split_blocks
from reporting.plotly_text import plotly_text

BlockSize = one_of(BLOCK_SIZES, what="block size [bytes]", base=int)
#: Relative-gain columns (fractions, shown as percentages) and their headers.
GAIN_COLUMNS = ("lru_vs_none", "ac_vs_none", "ac_vs_lru")
GAIN_LABELS = {"lru_vs_none": "LRU gain vs no cache", "ac_vs_none": "AC gain vs no cache",
               "ac_vs_lru": "AC gain vs LRU"}


class FileCacheSimScenario(TraceChoice, UncertaintyFields):
    PREFIX = "fcs"
    trace_source: Literal["bundled", "synthetic", "upload"] = Field("synthetic", title="Trace")
    preset: str = Field("web-proxy", title="Workload preset")
    hdd_device: DeviceName = Field("hdd-7200", title="Slow storage (Figure 3)")
    scm_device: DeviceName = Field("optane-dcpmm", title="Fast storage / SCM (Figures 4-5)")
    block_size_bytes: BlockSize = 4096
    n_sizes: int = Field(10, ge=2, le=40, title="Cache sizes simulated")
    ghost_fraction: float = Field(param("file_cache_sim.ghost_fraction").value, ge=0.0, le=10.0,
                                  title="AC ghost window [× cache size]")
    insertion: Literal["steady", "first-touch"] = Field(DEFAULT_INSERTION, title="Insertion cost Tm − T")
    # issue 39: the validation ledger's gains (Figs. 3-5) use the same run's T, not the paper's circular 1.3 t
    storage_path: Literal["same-run", "paper-factor"] = Field(fc.DEFAULT_STORAGE_PATH, title="Storage access time T")


#: The storage-path choices as the page shows them (the model's words: the circular one said so).
STORAGE_PATH_TEXT = fc.STORAGE_PATH_LABELS


@st.cache_data(show_spinner=False, max_entries=8)
def _study(_ids: np.ndarray, fingerprint: str, devices_json: tuple[str, ...], block_size: int,
           fractions: tuple[float, ...], ghost_fraction: float, insertion: str, storage_path: str) -> pd.DataFrame:
    """Curves of the block ids ``_ids`` of the trace ``fingerprint`` (its content hash) at ``block_size``.

    The ids are not hashed by Streamlit (which samples arrays over 500,000 elements, so two traces
    differing elsewhere would share a result): the trace's fingerprint and the block size identify them.
    """
    devs = [DeviceProfile.model_validate_json(d) for d in devices_json]
    with progress_bar("Simulating the AC-cache at each size …") as report:
        return file_cache_curves(_ids, devs, block_size_bytes=block_size, cache_fractions=list(fractions),
                                 ghost_fraction=ghost_fraction, progress=report, insertion=insertion,
                                 storage_path=storage_path)


@st.cache_data(show_spinner=False, max_entries=8, ttl=3600)
def _reuse(_ids: np.ndarray, _weights: np.ndarray, fingerprint: str, devices_json: tuple[str, ...], block_size: int,
           insertion: str, storage_path: str) -> tuple[list, pd.DataFrame]:
    """Break-even shares on each device and the reuse-count histogram of the trace ``fingerprint``'s block ids
    ``_ids`` (bytes moved ``_weights``) at ``block_size``: counted once, not per rerun (unhashed as in :func:`_study`)."""
    rows = [break_even_share(_ids, DeviceProfile.model_validate_json(d), block_size_bytes=block_size,
                             weights=_weights, insertion=insertion, storage_path=storage_path) for d in devices_json]
    return rows, reuse_histogram(_ids, weights=_weights)


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
    hdd = device_picker(S.label("hdd_device"), key=S.key("hdd_device"))
    scm = device_picker(S.label("scm_device"), key=S.key("scm_device"))
    block_size_select(S.key("block_size_bytes"))
    st.slider(S.label("n_sizes"), 2, 40, key=S.key("n_sizes"),
              help="Evenly spaced from 1/n of the footprint to 100 %.")
    float_input(S, "ghost_fraction", help=param_help("file_cache_sim.ghost_fraction",
                                    "A missed block is admitted if its previous miss is among the last "
                                    "(window × cache size) blocks the AC-cache turned away."), step=0.25)
    st.radio(S.label("insertion"), list(INSERTION_MODELS), key=S.key("insertion"), horizontal=True,
             format_func={"steady": "steady state (default)", "first-touch": "first touch"}.get,
             help=param_help("file_cache.insert_steady_4096_ns",
                             "Steady state: buffered miss into a full page cache minus a direct read (measured "
                             "here). First touch: pwrite() into a not yet cached tmpfs region (fresh page)."))
    st.radio(S.label("storage_path"), list(STORAGE_PATH_TEXT), key=S.key("storage_path"),
             format_func=STORAGE_PATH_TEXT.get,
             help=param_help("file_cache.samerun_direct_4096_ns",
                             "How t and T on DRAM-speed storage are obtained. Measured: the page-cache hit and an "
                             "O_DIRECT read on zram in the same runs as the insertion cost (4-64 KiB blocks). "
                             "Paper: T = 1.3 t, read off Park & Bahn's Figure 1 (circular)."))

scn = scenario_controls(S, page="file-cache-sim")
if scn is not None and trace is not None:
    with user_errors("File-cache simulation"):
        if len(trace) == 0:
            raise ValueError("the trace has no requests")
        check_storage_path(scn.storage_path, scn.block_size_bytes, option=S.label("storage_path"),
                           other=f"“{STORAGE_PATH_TEXT['paper-factor']}”")
        with reserve(trace.nbytes, f"the trace {trace.name!r}"):  # the trace is held beside its split
            acc = split_blocks(trace, scn.block_size_bytes)
        ids = acc.block
        fractions = tuple(float(f) for f in np.linspace(1.0 / scn.n_sizes, 1.0, scn.n_sizes))
        devs = (hdd, scm) if hdd.name != scm.name else (hdd,)
        df = _study(ids, trace.fingerprint(), tuple(d.model_dump_json() for d in devs), scn.block_size_bytes, fractions,
                    scn.ghost_fraction, scn.insertion, scn.storage_path)
        g = gains(df)
        pkeys = provenance_keys_for(trace, devs, insertion=scn.insertion, storage_path=scn.storage_path,
                                    block_size_bytes=scn.block_size_bytes)  # per result
        values = trace_values(trace)
        values["file_cache_sim.ghost_fraction"] = scn.ghost_fraction
        st.caption(f"{md_escape(trace.name)}: {len(trace):,} requests → {len(ids):,} block accesses of "
                   f"{scn.block_size_bytes:,} B, footprint {acc.n_unique:,} blocks "
                   f"({acc.footprint_bytes / 2**20:,.1f} MiB).")

        def gain_at(dev: str, col: str) -> pd.Series:
            return g[g.device == dev].set_index("cache_fraction")[col]

        row = metric_row()
        h = gain_at(hdd.name, "lru_vs_none")
        s = gain_at(scm.name, "lru_vs_none")
        a = gain_at(scm.name, "ac_vs_lru")
        row.metric(f"LRU gain on {md_escape(hdd.name)} (max)", f"{h.max():.1%}",
                   help="1 − T_LRU / T_no-cache; paper Figure 3: about 70 % on HDD")
        row.metric(f"LRU gain on {md_escape(scm.name)} (max)", f"{s.max():.1%}",
                   help="Paper Figure 4: < 3 % on SCM. Negative = slower than no cache.")
        row.metric(f"AC vs LRU on {md_escape(scm.name)}", f"{a.min():.0%} … {a.max():.0%}",
                   help="1 − T_AC / T_LRU over the simulated sizes; paper Figure 5: 20-40 %")

        def fig_for(dev: str, policies: list[str], title: str, key: str) -> None:
            fig = figure()
            names = {"none": "no cache", "lru": "LRU-cache", "ac": "AC-cache"}
            for pol in policies:
                d = df[(df.device == dev) & (df.policy == pol)]
                fig.add_scatter(x=100 * d.cache_fraction, y=d.time_ns / 1e9, name=names[pol], mode="lines+markers",
                                line_dash="dot" if pol == "none" else None)
            if key == "fcs-fig5":  # How sure? band: counts simulated once, t, T and Tm sampled
                with user_errors("How sure? band"):
                    build = file_cache_time_models(df, scm, block_size_bytes=scn.block_size_bytes,
                                                   insertion=scn.insertion, storage_path=scn.storage_path)
                    for pol in policies:
                        fr = tuple(float(f) for f in df[(df.device == dev) & (df.policy == pol)].cache_fraction)
                        b = curve_band(S, scn, lambda f, pol=pol: build((pol, f)), fr, key=f"fcs-fig5-{pol}",
                                       content=(trace.fingerprint(), scm.model_dump_json()))
                        add_band(fig, 100 * b.x, b.p5, b.p95, n=scn.uq_samples, what=f"of {names[pol]}",
                                 of=names[pol])
            show(style(fig, title=title, x="cache size [% of footprint]", y="storage access time [s]"), key=key)

        c1, c2 = st.columns(2)
        with c1:
            fig_for(hdd.name, ["none", "lru"], f"Figure 3: caching on {plotly_text(hdd.name)}", "fcs-fig3")
        with c2:
            fig_for(scm.name, ["none", "lru"], f"Figure 4: caching on {plotly_text(scm.name)}", "fcs-fig4")
        fig_for(scm.name, ["none", "lru", "ac"], f"Figure 5: LRU vs admission control on {plotly_text(scm.name)}", "fcs-fig5")
        assumption_note(pkeys.curves, values)
        download_csv(df, "file-cache-sim.csv", label="Download curves (CSV)", key="dl-fcs-curves",
                     provenance=pkeys.curves, values=values)
        with st.expander("Relative gains per cache size"):
            table(g, percent=GAIN_COLUMNS, labels=GAIN_LABELS)
            download_csv(g, "file-cache-gains.csv", key="dl-fcs-gains", provenance=pkeys.curves, values=values)
        with st.expander("How the gains move between the insertion models"):
            st.markdown("Same simulation (hits and insertions do not depend on the timings), re-timed with the "
                        "steady-state and the first-touch insertion cost Tm − T. Mean over the simulated sizes.")
            ig = insertion_gains(df, block_size_bytes=scn.block_size_bytes)
            summary = ig.groupby(["device", "insertion"], sort=False)[["lru_vs_none", "ac_vs_none", "ac_vs_lru"]]
            summary = summary.mean().reset_index()
            table(summary, percent=GAIN_COLUMNS, labels=GAIN_LABELS)
            download_csv(ig, "file-cache-gains-by-insertion.csv", key="dl-fcs-ins", provenance=pkeys.insertion_gains,
                         values=values)

        st.subheader("Break-even rule on the trace's reuse counts")
        w = access_bytes(trace, acc)
        rows, hist = _reuse(ids, w, trace.fingerprint(), tuple(d.model_dump_json() for d in devs),
                            scn.block_size_bytes, scn.insertion, scn.storage_path)
        be = results_frame(rows)
        st.markdown(
            "A block accessed **n > n\\*** times gains from caching on that device (eq. 3). Share of the "
            "footprint's blocks, of the accesses and of the bytes moved that clear n\\* — what an ideal "
            "admission filter would keep."
        )
        table(be, percent=("share_blocks", "share_footprint_bytes", "share_accesses", "share_bytes"), digits=3)
        assumption_note(pkeys.break_even, values)
        download_csv(be, "break-even-share.csv", key="dl-fcs-be", provenance=pkeys.break_even, values=values)
        fig = figure()
        fig.add_bar(x=hist.access_count, y=hist.blocks, name="blocks")
        fig.add_bar(x=hist.access_count, y=hist.accesses, name="accesses")
        for r in rows:
            if np.isfinite(r.n_star):
                ref_line(fig, x=r.n_star, dash="dash", text=f"n* {plotly_text(r.device)} = {r.n_star:.2g}")
        fig.update_layout(barmode="group")
        show(style(fig, title="Reuse-count histogram", x="accesses per block n [-]", y="count [-]", logx=True,
                   logy=True), key="fcs-hist")
        download_csv(hist, "reuse-histogram.csv", key="dl-fcs-hist", provenance=pkeys.trace, values=values)
        st.caption(f"Assumptions: {scn.block_size_bytes:,} B blocks; AC ghost window {scn.ghost_fraction:g} × the "
                   f"cache size; T on DRAM-speed storage: {STORAGE_PATH_TEXT[scn.storage_path]}.")

if scn is not None and trace is not None:
    with user_errors("How sure?"):
        from models.storage.uncertainty import file_cache_share_model

        st.caption(f"Break-even rule on {md_escape(scm.name)}: the share of the footprint's blocks accessed no more "
                   "than n* times, which a DRAM cache over that storage cannot help (the reuse counts are counted "
                   "once; n* varies with the timings).")
        how_sure(S, scn, lambda: file_cache_share_model(ids, scm, block_size_bytes=scn.block_size_bytes,
                                                        insertion=scn.insertion, storage_path=scn.storage_path),
                 key="fcs", content=(trace.fingerprint(), scm.model_dump_json()))
