"""Storage / File-cache break-even (Park & Bahn 2020, section 2, eqs. 1-3, Figure 2)."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
import streamlit as st
from pydantic import Field

from app.components import Scenario, download_csv, scenario_controls, user_errors
from app.components.bands import add_x_band
from app.components.charts import figure, ref_line, show, style
from app.components.claims import claims_strip
from app.components.devices import DeviceName, all_devices
from app.components.how_sure import UncertaintyFields, analysis, how_sure
from app.components.inputs import float_input
from app.components.lazy import lazy_tabs
from app.components.metrics import metric_row
from app.components.provenance import assumption_note, param_help
from app.components.scenario import field_range, init_state, model_field, one_of
from app.components.tables import scalar_text, table
from app.components.traces import BLOCK_SIZES
from models.storage import file_cache as fc
from reporting.plotly_text import plotly_text

BlockSize = one_of(BLOCK_SIZES, what="block size [bytes]", base=int)
#: Manual timings: BreakEvenInputs' range (> 0, <= 1e12 ns), the same for t, T and Tm.
T_MIN, T_MAX = field_range(fc.BreakEvenInputs, "t_ns")


class BreakEvenScenario(Scenario, UncertaintyFields):
    PREFIX = "be"
    mode: Literal["device", "manual"] = Field("device", title="Inputs")
    device: DeviceName = Field("optane-dcpmm", title="Storage device")
    block_size_bytes: BlockSize = Field(4096, title="Block size [bytes]")
    # issue 39: T on DRAM-speed storage measured in the insertion cost's own runs, not the paper's 1.3 t
    storage_path: Literal["same-run", "paper-factor"] = Field(fc.DEFAULT_STORAGE_PATH, title="Storage access time T")
    io_stack_factor: float = Field(fc.IO_STACK_FACTOR, ge=1.0, le=10.0,
                                   title="I/O stack factor (storage path / cache on DRAM-speed storage) [-]")
    insertion: Literal["steady", "first-touch"] = Field(fc.DEFAULT_INSERTION, title="Insertion cost Tm − T")
    t_ns: float = model_field(fc.BreakEvenInputs, "t_ns", default=100.0,
                              title="t: access time from the file cache [ns]")
    T_ns: float = model_field(fc.BreakEvenInputs, "T_ns", default=130.0, title="T: access time from storage [ns]")
    Tm_ns: float = model_field(fc.BreakEvenInputs, "Tm_ns", default=160.0,
                               title="Tm: storage access incl. cache insertion [ns]")
    max_accesses: int = Field(10, ge=2, le=50, title="Accesses shown in the chart")


def _uq_model(scn: BreakEvenScenario):
    """The uncertainty adapter of the page's n* (the How sure? panel and the band on the main chart)."""
    from models.storage.uncertainty import breakeven_model

    if scn.mode == "device":
        return breakeven_model(device=all_devices()[scn.device], block_size_bytes=scn.block_size_bytes,
                               io_stack_factor=scn.io_stack_factor, insertion=scn.insertion,
                               storage_path=scn.storage_path)
    return breakeven_model(t_ns=scn.t_ns, T_ns=scn.T_ns, Tm_ns=scn.Tm_ns)


#: The page's three views (lazy tabs): the closed form's curves, the paper's Figure 2, both insertion models.
VIEW_TABS = ("Access time vs accesses (eqs. 1-2)", "Required hits vs storage latency (Figure 2)",
             "n* under both insertion models")
#: Reference devices of Figure 2 (those in the catalogue), each with its marker.
_MARKED = {"dram": "circle", "optane-dcpmm": "square", "pcm-samsung-20nm": "diamond", "nand-flash": "triangle-up",
           "sata-ssd": "triangle-down", "hdd-7200": "hexagon"}


def _device(scn: BreakEvenScenario, devices: dict):
    """The device whose timings the page uses (None in manual mode: every timing typed by the user)."""
    return devices[scn.device] if scn.mode == "device" else None


def _marked(devices: dict) -> list[str]:
    """The reference devices of Figure 2 that the catalogue holds, in :data:`_MARKED` order."""
    return [name for name in _MARKED if name in devices]


#: The storage-path choices as the page shows them (the model's words: the circular one said so).
STORAGE_PATH_TEXT = fc.STORAGE_PATH_LABELS


def _device_timings(scn: BreakEvenScenario, device, insertion: str) -> fc.BreakEvenInputs:
    """t, T, Tm of ``device`` at the page's block size, storage path and I/O stack factor, with ``insertion``;
    a block size without a same-run direct read is refused naming the page's fields."""
    fc.check_storage_path(scn.storage_path, scn.block_size_bytes, option=S.label("storage_path"),
                          other=f"“{STORAGE_PATH_TEXT['paper-factor']}”")
    return fc.timings_from_device(device, scn.block_size_bytes, io_stack_factor=scn.io_stack_factor,
                                  insertion=insertion, storage_path=scn.storage_path)


def _device_break_even(scn: BreakEvenScenario, device, insertion: str) -> fc.BreakEven:
    """Break-even of ``device`` at the page's block size, storage path and I/O stack factor, with ``insertion``."""
    return fc.break_even(_device_timings(scn, device, insertion))


def storage_path_caption(scn: BreakEvenScenario, timings: fc.BreakEvenInputs) -> str:
    """Which T the page uses, in words, with the DRAM-speed part of it."""
    if scn.storage_path == "same-run":
        _, direct = fc.same_run_timings(scn.block_size_bytes)
        return (f"T on DRAM-speed storage = the direct read measured in the same run as the insertion cost "
                f"({direct:,.0f} ns at {scn.block_size_bytes:,} B, {direct / timings.t_ns:.2g} t; "
                "`data/measurements/insertion_cost`), plus the device's extra time over DRAM. The paper's "
                "1.3 t is circular (read off the figure it would check): choose it under "
                f"*{S.label('storage_path')}*.")
    return (f"T on DRAM-speed storage = {scn.io_stack_factor:g} t (the paper's Figure 1 factor: **circular**, read "
            "off the figure the ledger checks), plus the device's extra time over DRAM. The same run's measured "
            f"direct read is the default under *{S.label('storage_path')}*.")


def _curves_view(scn: BreakEvenScenario, be: fc.BreakEven, keys: list[str], values: dict) -> None:
    """Total access time cached vs uncached against the number of accesses (eqs. 1-2), with n* and its band."""
    n = np.arange(1, scn.max_accesses + 1)
    curves = pd.DataFrame({
        "accesses": n,
        "Tc_cached_ns": fc.access_time_cached(n, be.t_ns, be.Tm_ns),
        "Tx_uncached_ns": fc.access_time_uncached(n, be.T_ns),
    })
    curves["caching_pays"] = curves["Tc_cached_ns"] < curves["Tx_uncached_ns"]
    fig = figure()
    fig.add_scatter(x=n, y=curves["Tc_cached_ns"], name="Tc = Tm + (n−1)t (cached)", mode="lines+markers")
    fig.add_scatter(x=n, y=curves["Tx_uncached_ns"], name="Tx = nT (uncached)", mode="lines+markers")
    if np.isfinite(be.n_star) and be.n_star <= scn.max_accesses:
        ref_line(fig, x=be.n_star, dash="dash", text=f"n* = {be.n_star:.3g}")
    # How sure? band around n*: the panel's analysis (cached: the panel below reuses it)
    with user_errors("How sure? band"):
        res = analysis(S, scn, _uq_model(scn), key="be")
        ys = curves[["Tc_cached_ns", "Tx_uncached_ns"]].to_numpy()
        if np.isfinite(res.p5) and np.isfinite(res.p95):
            add_x_band(fig, res.p5, res.p95, n=res.n, what="of n*", y0=float(ys.min()),
                       y1=float(ys.max()), clip=(1.0, float(scn.max_accesses)))
    show(style(fig, title="Total access time vs accesses (eqs. 1-2)", x="accesses n [-]", y="total time [ns]"),
         key="be-curves")
    download_csv(curves, "break-even-curves.csv", key="dl-be-curves", provenance=keys, values=values)


def _figure2_view(scn: BreakEvenScenario, be: fc.BreakEven, devices: dict, values: dict) -> None:
    """Required hits vs storage latency at the page's t and insertion cost (Figure 2), reference devices marked."""
    ratio = np.logspace(np.log10(1.05), 5, 200)
    insert_ns = be.Tm_ns - be.T_ns
    f2 = fc.hits_vs_storage_latency(ratio, t_ns=be.t_ns, insert_ns=insert_ns)
    fig = figure()
    fig.add_scatter(x=f2["storage_latency_ns"], y=f2["hits_required"], name="hits required (smallest n > n*)",
                    line_shape="hv")
    fig.add_scatter(x=f2["storage_latency_ns"], y=f2["n_star"], name="break-even n* (continuous)", line_dash="dot")
    insertion = scn.insertion if scn.mode == "device" else fc.DEFAULT_INSERTION
    marked = _marked(devices)
    selected = scn.device if scn.mode == "device" else None
    for name in marked:  # one legend entry per device
        if name == selected:  # drawn once, as the selected star (a marker under it read as two devices)
            continue
        b = _device_break_even(scn, devices[name], insertion)
        label = devices[name].label or name
        fig.add_scatter(x=[b.T_ns], y=[b.hits_required], mode="markers", name=name,
                        marker=dict(size=11, symbol=_MARKED[name]),
                        hovertemplate=f"{plotly_text(label)}<br>T = %{{x:,.0f}} ns<br>n* = {b.n_star:.3g}<extra></extra>")
    if selected is not None:
        fig.add_scatter(x=[be.T_ns], y=[be.hits_required], mode="markers", name=f"selected: {scn.device}",
                        marker=dict(size=16, symbol="star-open", line=dict(width=2)))
    show(style(fig, title="Required hits vs storage latency (Figure 2)", x="storage access time T [ns]",
               y="accesses per cached block n [-]", logx=True), key="be-fig2")
    st.caption(f"Cache access t = {be.t_ns:,.0f} ns and insertion cost Tm − T = {insert_ns:,.0f} ns held fixed; "
               "storage latency varies along the x axis.")
    fig2_keys = fc.figure2_keys(_device(scn, devices), [devices[name] for name in marked],
                                block_size_bytes=scn.block_size_bytes, insertion=scn.insertion,
                                storage_path=scn.storage_path)
    assumption_note(fig2_keys, values)
    download_csv(f2, "break-even-figure2.csv", label="Download Figure 2 data (CSV)", key="dl-be-fig2",
                 provenance=fig2_keys, values=values)


def _insertion_models_view(scn: BreakEvenScenario, devices: dict, values: dict) -> None:
    """n* of the reference devices (and the selected one) under the steady-state and first-touch insertion costs."""
    if scn.mode != "device":
        st.info("Both insertion models apply to a device's timings: in manual mode Tm is typed as it is.",
                icon=":material/info:")
        return
    st.markdown("The insertion cost Tm − T is the only term that differs: **steady state** (LRU keeps the "
                "cache full, each insertion takes a page reclaim just freed) or **first touch** (a fresh "
                "page into a growing cache). Both measured on this machine "
                "(`data/measurements/insertion_cost`, `data/measurements/pagecache_latency.csv`).")
    names = _marked(devices)
    names += [scn.device] if scn.device not in names else []
    cmp_rows = []
    for name in names:
        for model in fc.INSERTION_MODELS:
            b = _device_break_even(scn, devices[name], model)
            cmp_rows.append(dict(device=name, insertion=model, insert_ns=b.Tm_ns - b.T_ns, n_star=b.n_star,
                                 hits_required=b.hits_required))
    cmp = pd.DataFrame(cmp_rows)
    wide = cmp.pivot(index="device", columns="insertion", values="n_star").reset_index()
    wide.columns = ["device", *(f"n_star_{c}" for c in wide.columns[1:])]
    table(wide, labels={c: f"n* with {c.removeprefix('n_star_')} insertion [accesses]" for c in wide.columns[1:]})
    cmp_keys = fc.insertion_models_keys(devices[scn.device], [devices[name] for name in names],
                                        block_size_bytes=scn.block_size_bytes, insertion=scn.insertion,
                                        storage_path=scn.storage_path)
    download_csv(cmp, "break-even-insertion-models.csv", key="dl-be-ins", provenance=cmp_keys, values=values)


S = BreakEvenScenario
init_state(S)
st.title("File-cache break-even")
claims_strip("break-even")
st.markdown(
    "Caching a block costs an insertion on its first access; it pays only if later hits save more. "
    "With cache access time **t**, storage access time **T** and storage-plus-insertion time **Tm**, "
    "caching gains iff the block is accessed **n > n\\* = (Tm − t)/(T − t)** times "
    "(Park & Bahn 2020, eq. 3)."
)

devices = all_devices()
if st.session_state.get(S.key("device")) not in devices:  # e.g. a custom device removed since
    st.session_state[S.key("device")] = "optane-dcpmm"
c1, c2 = st.columns([1, 2])
with c1:
    st.radio(S.label("mode"), ["device", "manual"], key=S.key("mode"), horizontal=True,
             format_func={"device": "From a device", "manual": "Manual t / T / Tm"}.get)
    if st.session_state[S.key("mode")] == "device":
        st.selectbox(S.label("device"), list(devices), key=S.key("device"),
                     format_func=lambda n: devices[n].label or n)
        st.select_slider(S.label("block_size_bytes"), options=BLOCK_SIZES, key=S.key("block_size_bytes"))
        st.radio(S.label("storage_path"), list(STORAGE_PATH_TEXT), key=S.key("storage_path"),
                 format_func=STORAGE_PATH_TEXT.get,
                 help=param_help("file_cache.samerun_direct_4096_ns",
                                 "How T on DRAM-speed storage is obtained. Measured: the page-cache hit t and an "
                                 "O_DIRECT read on zram (a memory-speed block device) in the same runs as the "
                                 "insertion cost, 4-64 KiB blocks. Paper: T = 1.3 t, read off Park & Bahn's "
                                 "Figure 1 — circular for the claim that storage is 30 % slower."))
        float_input(S, "io_stack_factor", help=param_help("file_cache.io_stack_factor",
                                        "Park & Bahn measured 1.3 (DRAM used as storage is 30 % slower than the "
                                        "file cache)."), step=0.05,
                    overridden=None if st.session_state.get(S.key("storage_path")) == "paper-factor" else
                    "not used: T is the same run's measured direct read (choose the paper's 1.3 t above to use it)")
        st.radio(S.label("insertion"), list(fc.INSERTION_MODELS), key=S.key("insertion"), horizontal=True,
                 format_func={"steady": "steady state (default)", "first-touch": "first touch"}.get,
                 help=param_help("file_cache.insert_steady_4096_ns",
                                 "Steady state: a buffered read miss into a full page cache (a page reclaim "
                                 "just freed) minus a direct read, measured on a memory-speed block device. "
                                 "First touch: pwrite() into a not yet cached tmpfs region (fresh page), the "
                                 "earlier upper bound."))
    else:
        float_input(S, "t_ns")
        float_input(S, "T_ns")
        float_input(S, "Tm_ns")
    st.slider(S.label("max_accesses"), 2, 50, key=S.key("max_accesses"))

scn = scenario_controls(S, page="break-even")
if scn is not None:
    with user_errors("Break-even"):
        if scn.mode == "device":
            timings = _device_timings(scn, devices[scn.device], scn.insertion)
        else:
            timings = fc.BreakEvenInputs(t_ns=scn.t_ns, T_ns=scn.T_ns, Tm_ns=scn.Tm_ns)
        be = fc.break_even(timings)
        keys = fc.break_even_keys(_device(scn, devices), block_size_bytes=scn.block_size_bytes,
                                  insertion=scn.insertion, storage_path=scn.storage_path)
        values = {"file_cache.io_stack_factor": scn.io_stack_factor} if scn.storage_path == "paper-factor" else {}
        with c2:
            row = metric_row()
            row.metric("t [ns]", f"{be.t_ns:,.0f}")
            row.metric("T [ns]", f"{be.T_ns:,.0f}")
            row.metric("Tm [ns]", f"{be.Tm_ns:,.0f}")
            row.metric("n*", "∞" if not np.isfinite(be.n_star) else scalar_text(be.n_star, 3))
            st.info(fc.verdict(be.t_ns, be.T_ns, be.Tm_ns), icon=":material/lightbulb:")
            if scn.mode == "device":
                st.caption(storage_path_caption(scn, timings))
            assumption_note(keys, values)
            # one view at a time: a change redraws one chart, not two
            curves, fig2, models = VIEW_TABS
            lazy_tabs("be.view_tab", {curves: lambda: _curves_view(scn, be, keys, values),
                                      fig2: lambda: _figure2_view(scn, be, devices, values),
                                      models: lambda: _insertion_models_view(scn, devices, values)})

if scn is not None:
    with user_errors("How sure?"):
        how_sure(S, scn, _uq_model(scn), key="be")
