"""Memory / Virtual memory on SCM: TLB, page faults and AMAT vs page size (Park & Bahn 2020, §3-5)."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots
from pydantic import Field

from app.components import download_csv, scenario_controls, user_errors
from app.components.bands import add_band, curve_band
from app.components.charts import (
    figure,
    figure_from,
    log_axis,
    ordered_colours,
    ref_line,
    show,
    style,
)
from app.components.claims import claims_strip
from app.components.devices import DeviceName, all_devices
from app.components.errors import md_escape
from app.components.how_sure import UncertaintyFields, how_sure
from app.components.inputs import SciInt, float_input, int_input
from app.components.metrics import metric_row
from app.components.provenance import assumption_note, param_help
from app.components.scenario import field_range, init_state, model_field
from app.components.tables import table as show_table
from app.components.traces import TraceChoice, mem_trace_picker
from models.budget import BudgetExceeded, charge
from models.devices import DeviceProfile
from models.memory import paging as pg
from models.memory.uncertainty import amat_model
from models.planner.memory_read import BYTES_PER_REFERENCE
from models.traces.core import MemTrace
from models.traces.memtraces import memtrace_stats
from reporting.plotly_text import plotly_text

#: Latency multiples of the heatmap (the paper's 1x-1000x and points between) [-].
HEAT_MULTIPLES = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
# Model settings: PagingInputs' fields (defaults of the optional ones are the page's own).
STORAGE_LATENCY_NS = field_range(pg.PagingInputs, "storage_latency_ns")
T_E_NS = field_range(pg.PagingInputs, "t_e_ns")
T_R_NS = field_range(pg.PagingInputs, "t_r_ns")
FAULT_OVERHEAD_NS = field_range(pg.PagingInputs, "fault_overhead_ns")


class PagingScenario(TraceChoice, UncertaintyFields):
    PREFIX = "pg"
    max_refs: SciInt = Field(0, ge=0, title="Analyse at most this many references (0 = all)")
    tlb_entries: SciInt = model_field(pg.PagingInputs, "tlb_entries", title="TLB entries")
    memory_mode: Literal["fraction", "mib"] = Field("fraction", title="Memory size")
    memory_fraction: float = Field(0.5, ge=0.001, le=4, title="Memory / footprint (4 KiB pages) [-]")
    memory_mib: float = Field(16.0, ge=0.001, le=1 << 20, title="Memory [MiB]")
    storage_mode: Literal["multiple", "device", "latency"] = Field("multiple", title="Storage")
    latency_multiple: float = Field(10.0, ge=0.01, le=1e6, title="Storage latency / DRAM latency [-]")
    device: DeviceName = Field("optane-dcpmm", title="Storage device")
    storage_latency_ns: float = model_field(pg.PagingInputs, "storage_latency_ns", default=1000.0,
                                            title="Storage latency [ns]")
    t_e_ns: float = model_field(pg.PagingInputs, "t_e_ns", title="t_e: TLB access [ns]")
    t_r_ns: float = model_field(pg.PagingInputs, "t_r_ns", default=pg.default_memory_ns(),
                                title="t_r: memory access [ns]")
    fault_overhead_ns: float = model_field(pg.PagingInputs, "fault_overhead_ns", title="Fault-handling overhead [ns]")
    policy: Literal["clock", "lru"] = Field("clock", title="Memory replacement")
    fault_model: Literal["latency", "transfer"] = Field("latency", title="Fault service time")


S = PagingScenario
init_state(S)
st.title("Virtual memory on SCM: which page size?")
claims_strip("paging")
st.markdown(
    "Every data reference is translated by a fully associative LRU **TLB**, then served from memory or, on a "
    "**page fault** (second-chance / CLOCK replacement), from storage. Park & Bahn's equations 4-6: "
    "**T_ADDR = (1−R_T)·t_e + R_T·(t_e+t_r)**, **T_DATA = (1−R_F)·t_r + R_F·(t_r+T_PF)**, AMAT = T_ADDR + T_DATA, "
    "with **T_PF = overhead + storage latency + page size / storage bandwidth** (*latency* fault model) or "
    "**T_PF = overhead + storage latency × page size / 64 B** (*transfer*: every line of the page costs one "
    "storage access, the paper's 'a larger page requires more time to load data'). Large pages cut TLB misses and "
    "faults; small pages cut the cost of each fault. Which wins depends on how slow storage is."
)

devices = all_devices()
if st.session_state.get(S.key("device")) not in devices:  # e.g. a custom device removed since
    st.session_state[S.key("device")] = "optane-dcpmm"
c1, c2 = st.columns([3, 2])
with c1:
    trace = mem_trace_picker(key=S.PREFIX)
    int_input(S, "max_refs",
              help="0 (default): the whole trace, within the server's memory budget (PCM_MEMORY_BUDGET); a number "
                   "analyses only the first references.")
with c2:
    int_input(S, "tlb_entries", help=param_help("paging.tlb_entries"))
    st.radio(S.label("memory_mode"), ["fraction", "mib"], key=S.key("memory_mode"), horizontal=True,
             format_func={"fraction": "fraction of footprint", "mib": "MiB"}.get)
    if st.session_state[S.key("memory_mode")] == "fraction":
        float_input(S, "memory_fraction", step=0.05, format="%.3f")
    else:
        float_input(S, "memory_mib")
    st.radio(S.label("storage_mode"), ["multiple", "device", "latency"], key=S.key("storage_mode"), horizontal=True,
             format_func={"multiple": "× DRAM latency", "device": "device", "latency": "latency [ns]"}.get)
    mode = st.session_state[S.key("storage_mode")]
    if mode == "multiple":
        float_input(S, "latency_multiple", help="Latency K·t_r and bandwidth DRAM/K.")
    elif mode == "device":
        st.selectbox(S.label("device"), list(devices), key=S.key("device"), format_func=lambda n: devices[n].label or n)
    else:
        float_input(S, "storage_latency_ns")
    with st.expander("Timing parameters"):
        float_input(S, "t_e_ns", help=param_help("paging.tlb_access_ns"))
        float_input(S, "t_r_ns", help="Default: catalogue DRAM read latency "
                             f"[{all_devices()['dram'].value_kind('read_latency_ns')}: {all_devices()['dram'].source}]")
        float_input(S, "fault_overhead_ns", help=param_help("paging.fault_overhead_ns",
                                        "Software cost per fault on top of the storage access."))
        st.radio(S.label("policy"), ["clock", "lru"], key=S.key("policy"), horizontal=True,
                 format_func={"clock": "second chance (CLOCK)", "lru": "LRU"}.get)
        st.radio(S.label("fault_model"), ["latency", "transfer"], key=S.key("fault_model"), horizontal=True,
                 format_func={"latency": "latency + page / bandwidth", "transfer": "latency per 64-B line"}.get,
                 help="'transfer' scales the per-byte storage cost with the latency multiple; it is the reading "
                      "closer to the paper's 512 B optimum at 10× and 100× (validation ledger, seed 004 Fig. 9).")

scn = scenario_controls(S, page="paging")


def _memory(scn) -> dict:
    """The page's memory size as :func:`models.memory.paging.paging_inputs` keywords."""
    return ({"memory_fraction": scn.memory_fraction} if scn.memory_mode == "fraction"
            else {"memory_mib": scn.memory_mib})


@st.cache_data(show_spinner=False, max_entries=6)
def _profile(_trace: MemTrace, fingerprint: str, max_refs: int, memory: dict, policy: str):
    """Stack distances (and CLOCK) of the trace (its first ``max_refs`` data references; 0: all): not recomputed
    when only storage or timing change. Refused over the run's memory budget, naming the budget and the cut."""
    limit = max_refs or None
    data = _trace.data_only()  # the references simulated: data references only, counted one way
    n = len(data) if limit is None else min(len(data), limit)
    try:
        charge(n * BYTES_PER_REFERENCE, f"the paging profile of {n:,} references ({BYTES_PER_REFERENCE} bytes each)")
    except BudgetExceeded as e:
        raise BudgetExceeded(f"{e}; or analyse only the first references ({S.label('max_refs')})") from None
    prof = pg.paging_profile(_trace, pg.paging_inputs(policy=policy, **memory), max_refs=limit)
    return prof, memtrace_stats(data.subset(slice(None, limit))) | {"instructions": int((_trace.kind == 0).sum())}


@st.cache_data(show_spinner=False, max_entries=16, ttl=3600)
def _tables(_prof, fingerprint: str, max_refs: int, common: dict, storage: dict, device_json: str | None):
    """AMAT tables of the profile ``_prof`` (of the trace ``fingerprint`` at ``max_refs``; memory and policy are in
    ``common``): at the chosen storage (``device_json``: a device's values), the latency sweep, the heat map, and the
    best page size per latency under both fault models. Not recomputed per rerun."""
    if device_json is not None:
        storage = {"device": DeviceProfile.model_validate_json(device_json)}
    table = pg.paging_table(_prof, pg.paging_inputs(**storage, **common))
    sweep = pg.paging_table(_prof, pg.paging_inputs(latency_multiple=pg.LATENCY_MULTIPLES, **common))
    heat = pg.paging_table(_prof, pg.paging_inputs(latency_multiple=HEAT_MULTIPLES, **common))
    both = {fm: pg.best_page_sizes(pg.paging_table(_prof, pg.paging_inputs(
        latency_multiple=pg.LATENCY_MULTIPLES, **{**common, "fault_model": fm}))).set_index(
        "latency_multiple")["best_page_amat"] for fm in ("latency", "transfer")}
    for df in (table, sweep, heat):  # the model's "10x DRAM" (its CLI output) as the page writes it: "10× DRAM"
        df["storage"] = df["storage"].str.replace("x DRAM", "× DRAM", regex=False)
    return table, sweep, heat, pd.DataFrame(both).rename_axis("latency_multiple").reset_index()


def _fmt_page(p: int) -> str:
    return f"{p >> 20} MiB" if p >= 1 << 20 else (f"{p >> 10} KiB" if p >= 1024 else f"{p} B")


def _ns(v: float, *, sign: bool = False) -> str:
    """A time [ns] as the page reads it: one decimal from 1 ns (``102.7 ns``), whole nanoseconds with thousands
    separators from 1,000 ns (``199,876 ns``), two significant digits below 1 ns (``0.85 ns``); ``sign``: with
    its sign (``+0.85 ns``, ``−2.1 ns``), for a difference."""
    v = float(v)
    if not np.isfinite(v):
        return "— ns"
    a = abs(v)
    digits = 0 if a >= 999.95 else 1 if a >= 0.995 or a == 0 else 1 - int(np.floor(np.log10(a)))
    text = f"{a:,.{digits}f}"
    neg = v < 0 and text.strip("0.,") != ""
    return ("−" if neg else "+" if sign else "") + text + " ns"


def best_page_text(best: pd.Series, storage: str) -> str:
    """The info box's sentence on the best page size of one :func:`models.memory.paging.best_page_sizes` row:
    the gain over the baseline page (4 KiB) split into address translation and data access, or, when the
    best page *is* the baseline, that plainly (a page size is never compared with itself)."""
    page, base_page = int(best["best_page_amat"]), int(best["baseline_page"])
    head = f"With **{md_escape(storage)}** storage "
    fault = f" By fault rate alone the best page would be **{_fmt_page(int(best['best_page_fault']))}**."
    if page == base_page:
        return (head + f"**{_fmt_page(page)}** is already the best page size of those swept "
                f"(AMAT {_ns(best['amat_ns'])}).{fault}")
    if not np.isfinite(best["baseline_amat_ns"]):  # the baseline page was not swept: nothing to compare with
        return head + f"the best page is **{_fmt_page(page)}** (AMAT {_ns(best['amat_ns'])}).{fault}"
    return (head + f"the best page is **{_fmt_page(page)}**: AMAT {_ns(best['amat_ns'])} vs "
            f"{_ns(best['baseline_amat_ns'])} at {_fmt_page(base_page)} "
            f"({_ns(best['amat_ns'] - best['baseline_amat_ns'], sign=True)}: address translation "
            f"{_ns(best['d_addr_ns'], sign=True)}, data access {_ns(best['d_data_ns'], sign=True)}).{fault}")


def best_page_delta(best: pd.Series) -> str | None:
    """The best-page metric's delta: its AMAT minus the baseline page's (``−7.6 ns vs 4 KiB``); None when
    the best page is the baseline or the baseline was not swept (no difference to show)."""
    if int(best["best_page_amat"]) == int(best["baseline_page"]) or not np.isfinite(best["baseline_amat_ns"]):
        return None
    return f"{_ns(best['amat_ns'] - best['baseline_amat_ns'], sign=True)} vs {_fmt_page(int(best['baseline_page']))}"


def _page_ticks(fig, sizes) -> None:
    """Every x axis of ``fig`` a log page-size axis labelled at the page sizes swept (``512 B`` ... ``2 MiB``)."""
    sizes = sorted({int(p) for p in sizes})
    fig.update_xaxes(type="log", tickmode="array", tickvals=sizes, ticktext=[_fmt_page(p) for p in sizes])


paged = False
if scn is not None and trace is not None:
    with user_errors("Paging"):
        if len(trace) == 0:
            raise ValueError("the trace has no references")
        with st.status("Simulating TLB and memory for 9 page sizes …", expanded=False) as status:
            prof, stats = _profile(trace, trace.fingerprint(), scn.max_refs, _memory(scn), scn.policy)
            status.update(label=f"Simulated {prof.n_refs:,} data references", state="complete")
        common = dict(tlb_entries=scn.tlb_entries, t_e_ns=scn.t_e_ns, t_r_ns=scn.t_r_ns,
                      fault_overhead_ns=scn.fault_overhead_ns, policy=scn.policy, fault_model=scn.fault_model,
                      **_memory(scn))
        if scn.storage_mode == "multiple":
            storage = {"latency_multiple": scn.latency_multiple}
        elif scn.storage_mode == "device":  # a device defined in the session maps to its latency and bandwidth
            storage = {"device": devices[scn.device]}
        else:
            storage = {"storage_latency_ns": scn.storage_latency_ns}
        dev = storage.get("device")
        table, sweep, heat, both = _tables(prof, trace.fingerprint(), scn.max_refs, common,
                                           {} if dev is not None else storage,
                                           dev.model_dump_json() if dev is not None else None)
        best = pg.best_page_sizes(table).iloc[0]
        values = {"paging.tlb_entries": scn.tlb_entries, "paging.tlb_access_ns": scn.t_e_ns,
                  "paging.fault_overhead_ns": scn.fault_overhead_ns}
        keys = pg.provenance_keys_for(scn.t_r_ns, dev)  # dev: the storage device (device mode), else None

        row = metric_row()
        row.metric("Data references", f"{prof.n_refs:,}",
                   help=f"Simulated: loads, stores and modifies (a modify once); {stats['instructions']:,} "
                        "instruction fetches in the trace are not data references and are not simulated.")
        row.metric("Footprint (4 KiB pages)", f"{stats['footprint_MiB']:.1f} MiB")
        row.metric("Memory", f"{table['memory_bytes'].iloc[0] / 2**20:,.2f} MiB")
        row.metric("Best page size (AMAT)", _fmt_page(int(best["best_page_amat"])), best_page_delta(best),
                   delta_color="inverse",  # a lower AMAT than the baseline page's is the good direction
                   help=f"Of the page sizes swept; the delta is its AMAT minus the "
                        f"{_fmt_page(int(best['baseline_page']))} page's.")
        row.metric("AMAT at the best page", _ns(best["amat_ns"]))
        st.info(best_page_text(best, table["storage"].iloc[0]), icon=":material/lightbulb:")
        st.caption(f"Reads {stats['reads']:,} · writes {stats['writes']:,} (Table 1/2 style; M counts as both). "
                   f"t_e = {scn.t_e_ns:g} ns, t_r = {scn.t_r_ns:g} ns, fault overhead = {scn.fault_overhead_ns:g} ns.")
        assumption_note(keys, values)

        tab1, tab2, tab3, tab4 = st.tabs(["TLB", "Page faults", "AMAT", "Table"])
        with tab1:
            top = int(min(4096, max(p.footprint_pages for p in prof.pages.values())))
            entries = np.unique(np.round(np.geomspace(1, max(top, 1), 120)).astype(np.int64))
            hr = prof.tlb_hit_rates(entries)
            tcur = pd.DataFrame({"page_size": np.repeat(prof.page_sizes, len(entries)),
                                 "tlb_entries": np.tile(entries, len(prof.page_sizes)), "tlb_hit_rate": hr.ravel()})
            # drawn as the miss rate on a log axis: hit rates of 0.96-1 squeezed every curve into the top of a
            # linear axis; the misses (compulsory ones included, so never 0 on a trace) spread over decades
            tcur["tlb_miss_rate"] = 1.0 - tcur["tlb_hit_rate"]
            fig = figure()
            for p, colour in zip(prof.page_sizes, ordered_colours(len(prof.page_sizes)), strict=True):
                d = tcur[tcur["page_size"] == p]  # 9 page sizes in one ramp: the theme's colours paired 1 and 64 KiB
                miss = d["tlb_miss_rate"].where(d["tlb_miss_rate"] > 0)  # a 0 has no place on a log axis
                fig.add_scatter(x=d["tlb_entries"], y=miss, name=_fmt_page(p), mode="lines",
                                line=dict(color=colour), customdata=d["tlb_hit_rate"],
                                hovertemplate="%{x:,} entries<br>miss rate %{y:.3g}<br>hit rate %{customdata:.4f}")
            ref_line(fig, x=scn.tlb_entries, dash="dash", text=f"{scn.tlb_entries} entries")
            show(style(fig, title="TLB miss rate vs TLB size (Fig. 10 analogue; miss = 1 − hit rate)",
                       x="TLB entries [-]", y="TLB miss rate [-]", logx=True, logy=True), key="pg-tlb-size")
            download_csv(tcur, "paging-tlb-vs-size.csv", key="dl-pg-tlb-size", provenance=keys, values=values)
            tp = table.drop_duplicates("page_size")[["page_size", "tlb_entries", "tlb_hit_rate", "t_addr_ns"]]
            # two stacked plots on one page-size axis, not a twin y axis: a right-hand axis drawn over the
            # hit rate's took its gridlines, so its ticks landed on odd times (0.86, 1.87, 2.89 ns)
            fig = figure_from(make_subplots, rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.06)
            # the miss rate on a log axis, as above: hit rates of 0.96-1 drawn from 0 read as one flat line at 1
            tp_miss = (1.0 - tp["tlb_hit_rate"]).where(tp["tlb_hit_rate"] < 1.0)
            fig.add_scatter(x=tp["page_size"], y=tp_miss, mode="lines+markers", name="TLB miss rate",
                            customdata=tp["tlb_hit_rate"], row=1, col=1,
                            hovertemplate="%{x:,} B<br>miss rate %{y:.3g}<br>hit rate %{customdata:.4f}<extra></extra>")
            fig.add_scatter(x=tp["page_size"], y=tp["t_addr_ns"], mode="lines+markers", name="T_ADDR",
                            row=2, col=1)
            style(fig, title=f"TLB miss rate and translation time vs page size, {scn.tlb_entries} entries "
                             "(Figs. 6 and 11 analogues; miss = 1 − hit rate)")
            log_axis(fig, "y", row=1, col=1)
            _page_ticks(fig, tp["page_size"])
            fig.update_layout(height=520, showlegend=False, xaxis2=dict(title=dict(text="page size [bytes]")),
                              yaxis=dict(title=dict(text="TLB miss rate [-]")),
                              yaxis2=dict(title=dict(text="T_ADDR [ns]"), rangemode="tozero"))
            show(fig, key="pg-tlb-page")
            download_csv(tp, "paging-tlb-vs-page.csv", key="dl-pg-tlb-page", provenance=keys, values=values)
        with tab2:
            fp = table[["page_size", "frames", "fault_rate", "fault_rate_lru"]].copy()
            fig = figure()
            fig.add_scatter(x=fp["page_size"], y=fp["fault_rate"], mode="lines+markers",
                            name="CLOCK (second chance)" if scn.policy == "clock" else "LRU")
            fig.add_scatter(x=fp["page_size"], y=fp["fault_rate_lru"], mode="lines", line_dash="dot", name="LRU")
            show(style(fig, title="Page-fault rate vs page size (Figs. 7 and 12 analogues)", x="page size [bytes]",
                       y="page faults per reference [-]", logx=True, logy=True), key="pg-faults")
            st.caption("Memory is the same number of bytes for every page size (frames = memory / page size); "
                       "faults include the first touch of each page.")
            download_csv(fp, "paging-faults-vs-page.csv", key="dl-pg-faults", provenance=keys, values=values)
        with tab3:
            fig = figure()
            for lab, g in sweep.groupby("storage", sort=False):
                fig.add_scatter(x=g["page_size"], y=g["amat_ns"], mode="lines+markers", name=lab)
            if scn.storage_mode != "multiple" or scn.latency_multiple not in pg.LATENCY_MULTIPLES:
                fig.add_scatter(x=table["page_size"], y=table["amat_ns"], mode="lines+markers",
                                name=f"▶ {table['storage'].iloc[0]}", line=dict(width=4))
            with user_errors("How sure? band"):  # around the chosen storage's curve, every page size sampled
                inputs = pg.paging_inputs(**storage, **common)
                band = curve_band(S, scn, lambda p: amat_model(prof, inputs, page_size=int(p)),
                                  tuple(int(p) for p in table["page_size"]), key="pg-amat",
                                  content=trace.fingerprint())
                add_band(fig, band.x, band.p5, band.p95, n=scn.uq_samples,
                         what=f"at {table['storage'].iloc[0]}")
            show(style(fig, title="AMAT vs page size per storage latency (Figs. 8, 9 and 13 analogues)",
                       x="page size [bytes]", y="AMAT [ns]", logx=True, logy=True), key="pg-amat")
            download_csv(sweep, "paging-amat-sweep.csv", key="dl-pg-amat", provenance=keys, values=values)
            piv = heat.pivot_table(index="page_size", columns="latency_multiple", values="amat_ns")
            rel = piv / piv.min(axis=0)
            fig = figure(go.Heatmap(z=np.log10(rel.to_numpy()), x=[f"{c:g}×" for c in rel.columns],
                                       y=[_fmt_page(int(p)) for p in rel.index], colorscale="Viridis",
                                       customdata=piv.to_numpy(),
                                       hovertemplate="%{y}, %{x}: AMAT %{customdata:.1f} ns<extra></extra>",
                                       colorbar=dict(title="log10 AMAT / best")))
            bi = np.nanargmin(piv.to_numpy(), axis=0)
            fig.add_scatter(x=[f"{c:g}×" for c in rel.columns], y=[_fmt_page(int(rel.index[i])) for i in bi],
                            mode="markers", marker=dict(symbol="star", size=14, color="white",
                                                        line=dict(color="black", width=1)), name="best page size")
            show(style(fig, title="AMAT relative to the best page size, per storage latency (★ = best)",
                       x="storage latency / DRAM latency", y="page size"), key="pg-heat")
            download_csv(heat, "paging-amat-heatmap.csv", key="dl-pg-heat", provenance=keys, values=values)
            # markers and lines on a log time axis: T_ADDR (a few ns) and T_DATA (100 ns to 10^5 ns) both read;
            # linear stacked bars showed the largest page's T_DATA and eight bars flat at zero
            dec = table[["page_size", "t_addr_ns", "t_data_ns", "amat_ns"]]
            t_addr = dec["t_addr_ns"].where(dec["t_addr_ns"] > 0)  # 0 ns (t_e = 0, no TLB miss) has no log
            fig = figure()  # AMAT = T_ADDR + T_DATA is in the hover (a line of it would hide under T_DATA's)
            fig.add_scatter(x=dec["page_size"], y=t_addr, mode="lines+markers", name="T_ADDR: address translation",
                            hovertemplate="%{y:,.3g} ns")
            fig.add_scatter(x=dec["page_size"], y=dec["t_data_ns"], mode="lines+markers",
                            name="T_DATA: data access", customdata=dec["amat_ns"],
                            hovertemplate="%{y:,.4g} ns (AMAT %{customdata:,.4g} ns)")
            best_page = int(best["best_page_amat"])
            ref_line(fig, x=best_page, dash="dash", text=f"best: {_fmt_page(best_page)}")
            style(fig, title=f"Trade-off at {plotly_text(table['storage'].iloc[0])}: address translation vs data "
                             "access", x="page size [bytes]", y="time per reference [ns]", logy=True)
            _page_ticks(fig, dec["page_size"])
            show(fig, key="pg-decomp")
            if t_addr.isna().any():
                st.caption("T_ADDR is 0 ns at " + ", ".join(_fmt_page(int(p)) for p in dec["page_size"][t_addr.isna()])
                           + " (t_e = 0 and no TLB miss): not drawn on the log axis.")
        with tab4:
            show_table(table)
            download_csv(table, "paging-amat.csv", key="dl-pg-table", provenance=keys, values=values)
            st.markdown("**Best page size per storage latency** (memory as chosen)")
            bt = pg.best_page_sizes(heat)
            show_table(bt)
            st.markdown("**Best page size (AMAT) under each fault model**: the paper finds 512 B best at 10× and "
                        "100× DRAM for every desktop program, 4-8 KB at 1×.")
            show_table(both,
                       labels={"latency_multiple": "storage / DRAM latency [×]", "latency": "latency model",
                               "transfer": "transfer model"})
            download_csv(bt, "paging-best-page.csv", key="dl-pg-best", provenance=keys, values=values)
        paged = True

if scn is not None and trace is not None and paged:  # no panel for a trace the block above refused
    with user_errors("How sure?"):
        how_sure(S, scn, amat_model(prof, pg.paging_inputs(**storage, **common), page_size=int(best["best_page_amat"])),
                 key="pg", content=trace.fingerprint())
