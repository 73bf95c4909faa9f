"""Endurance / Lifetime of NVM memory extensions (seed 002 §2, Figures 2 and 9)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from pydantic import Field

from app.components import Scenario, download_csv, scenario_controls, user_errors
from app.components.bands import add_band, curve_band
from app.components.charts import (
    MIN_HALF_WIDTH,
    bar_chart_height,
    centred_range,
    figure,
    ref_line,
    show,
    style,
)
from app.components.claims import claims_strip
from app.components.devices import all_devices
from app.components.how_sure import UncertaintyFields, how_sure
from app.components.inputs import SciInt, float_input, int_input
from app.components.lazy import lazy_tabs
from app.components.metrics import metric_row
from app.components.provenance import assumption_note, param_help
from app.components.scenario import field_range, init_state, model_field
from app.components.tables import scalar_text, table
from app.components.write_rates import derived_write_rates, lulesh_write_rate
from models.devices import get_device
from models.endurance import lifetime as lt
from models.provenance import param

# Closed-form inputs: LifetimeInputs' fields, in the page's units (GB, MB/s).
CAPACITY_GB = field_range(lt.LifetimeInputs, "capacity_bytes", unit=1e9)
ENDURANCE = field_range(lt.LifetimeInputs, "endurance_writes_per_cell")
RATE_MBPS = field_range(lt.LifetimeInputs, "write_rate_bytes_per_s", unit=1e6)
#: Slider of η: the model accepts (0, 1]; a slider needs a closed range, so it starts at 0.01.
WEAR_EFFICIENCY = (0.01, field_range(lt.LifetimeInputs, "wear_efficiency")[1])
#: Figure 2's top margin [px]: the reference lines' labels sit above the plot (bars fill its top).
FIG2_TOP_PX = 36
#: P10 and P90 within this relative width [-] of each other read as one line on the log chart: the legend says so.
MC_NARROW_RTOL = 1e-2
#: The page's three lazy chart tabs (the curve open by default).
CHART_TABS = ("Lifetime vs write rate", "Monte Carlo distribution", "PCM vs Flash extensions (Figure 2)")


class LifetimeScenario(Scenario, UncertaintyFields):
    PREFIX = "lt"
    capacity_gb: float = model_field(lt.LifetimeInputs, "capacity_bytes", unit=1e9,
                                     default=param("memext.nvm_capacity_bytes").value / 1e9, title="Capacity C [GB]")
    endurance: float = model_field(lt.LifetimeInputs, "endurance_writes_per_cell",
                                   default=get_device("pcm-memext").endurance_writes_per_cell,
                                   title="Endurance E [writes per cell]")
    # default: the rate measured on seed 002's own Lulesh, traced here (not the paper-implied rate, which
    # reproduces the paper's 5 years by construction; it stays a labelled row of Figure 2); kept on disk,
    # so a fresh server does not replay the trace before its first chart (app/components/write_rates.py)
    write_rate_MBps: float = model_field(lt.LifetimeInputs, "write_rate_bytes_per_s", unit=1e6,
                                         default=round(lulesh_write_rate() / 1e6, 1), title="Cell write rate W [MB/s]")
    wear_efficiency: float = model_field(lt.LifetimeInputs, "wear_efficiency", ge=WEAR_EFFICIENCY[0],
                                         title="Wear-leveling efficiency η [-]")
    endurance_sigma: float = Field(param("lifetime.endurance_sigma").value, ge=0, le=5,
                                   title="σ of ln(endurance) across lines [-]")
    fail_fraction: float = Field(param("lifetime.fail_fraction").value, ge=1e-12, le=1,
                                 title="Device fails when this fraction of lines is worn [-]")
    trials: SciInt = Field(2000, ge=10, le=200_000, title="Simulated devices [-]")
    line_bytes: SciInt = Field(param("nvm.line_bytes").value, ge=1, le=1 << 20, title="Line size [bytes]")
    seed: SciInt = Field(0, ge=0, le=2**31 - 1, title="Seed")
    trace_rates: bool = Field(True, title="Trace-derived rates")


@st.cache_data(show_spinner=False, max_entries=32)
def _mc(cap, e, w, eta, sigma, f, line, trials, seed):
    return lt.lifetime_monte_carlo(cap, e, w, wear_efficiency=eta, endurance_sigma=sigma, fail_fraction=f,
                                   line_bytes=line, trials=trials, seed=seed, keep_samples=True)


def _gap_text(scn, closed: float) -> str:
    """Why the Monte Carlo differs from the closed form [years]: with many lines the device dies at the
    fail-fraction quantile of the line endurances, the closed form × exp(σ·Φ⁻¹(f)) (empty when that has no limit:
    no spread, or a device that dies at its last line)."""
    if scn.endurance_sigma == 0 or not 0 < scn.fail_fraction < 1:
        return ""
    weak = float(lt.weak_line_factor(scn.endurance_sigma, scn.fail_fraction))
    side = "below" if weak < 1 else "above" if weak > 1 else "at"
    return (f" The Monte Carlo sits {side} it because the device dies when {scalar_text(scn.fail_fraction * 100)} % of "
            f"its lines are worn out: with many lines that is the closed form × exp(σ·Φ⁻¹(f)) = {scalar_text(closed, 3)} "
            f"× {scalar_text(weak, 3)} = {scalar_text(closed * weak, 3)} years, and P10–P90 narrow as the line count "
            "grows.")


def three_lifetimes_text(scn, closed: float, mc) -> str:
    """The page's three lifetimes in words: what each assumes and why they differ (issue 38 item 9)."""
    spread = (f"here P10–P90 span {scalar_text(mc.p10_years, 3)}–{scalar_text(mc.p90_years, 3)} years: "
              + ("with this many lines the worn-out quantile hardly varies from device to device, so "
                 "P10, P50 and P90 nearly coincide" if mc.p90_years <= mc.p10_years * (1 + MC_NARROW_RTOL) else "they spread"))
    return (
        "**Three lifetimes, three questions.** "
        f"(1) **Closed form** C·E·η/W = {scalar_text(closed, 3)} years: every cell has the same endurance E and "
        "the device dies when the average cell has taken E writes (wear leveling spreads W with efficiency η). "
        f"(2) **Monte Carlo P10/P50/P90**: the same C, E, η and W, but each {scn.line_bytes}-byte line gets its own "
        f"lognormal endurance (σ = {scalar_text(scn.endurance_sigma, 3)}) and the device dies when "
        f"{scalar_text(scn.fail_fraction * 100)} % of its lines are worn out, so the weak lines set the life; "
        f"P10–P90 is the spread over {scn.trials:,} simulated devices ({spread}). "
        "(3) **How sure? p5–p95 band** (below, and the shaded band on the chart): the closed form again, with "
        "the inputs themselves uncertain (E and W ±20 % as typed values or their catalogue ranges, η over its "
        "registered range): how wrong the answer may be because the inputs are not known exactly, not how "
        "cells vary.")


def _curve_chart(scn, mc, cap: float, w: float, keys: list[str], values: dict) -> None:
    """Lifetime vs write rate [years vs MB/s]: the Monte Carlo P10-P90 band (L ∝ 1/W, so its ratios are
    rate-independent), P50, the closed form and the How sure? p5-p95 band, with its CSV."""
    rates = np.logspace(np.log10(w) - 3, np.log10(w) + 2, 120)
    curve = lt.lifetime_band(mc, cap, scn.endurance, rates, wear_efficiency=scn.wear_efficiency)
    fig = figure()
    fig.add_scatter(x=curve.write_rate_MBps, y=curve.p90_years, line=dict(width=0),
                    showlegend=False, name="P90")
    # many lines fail at one rank: the spread can be too narrow to see (say so, not a blank legend swatch)
    narrow = bool(np.allclose(curve.p10_years, curve.p90_years, rtol=MC_NARROW_RTOL))
    fig.add_scatter(x=curve.write_rate_MBps, y=curve.p10_years, fill="tonexty", line=dict(width=0),
                    name="P10–P90 (Monte Carlo" + ("; narrower than the P50 line)" if narrow else ")"))
    fig.add_scatter(x=curve.write_rate_MBps, y=curve.p50_years, name="P50", line_dash="dot")
    fig.add_scatter(x=curve.write_rate_MBps, y=curve.closed_form_years, name="closed form C·E·η/W")
    # How sure? band: endurance and η sampled from their provenance ranges at each W (the x)
    with user_errors("How sure? band"):
        from models.endurance.uncertainty import lifetime_model

        model = lifetime_model(capacity_bytes=cap, endurance_writes_per_cell=scn.endurance,
                               write_rate_bytes_per_s=w, wear_efficiency=scn.wear_efficiency)
        band = curve_band(S, scn, model, tuple(rates), key="lt-curve", x_input="write_rate")
        add_band(fig, curve.write_rate_MBps, band.p5, band.p95, n=scn.uq_samples,
                 what="of C·E·η/W")
    ref_line(fig, x=scn.write_rate_MBps, dash="dash", text="your W")
    show(style(fig, title="Lifetime vs write rate", x="cell write rate W [MB/s]",
               y="lifetime [years]", logx=True, logy=True), key="lt-curve")
    download_csv(curve, "lifetime-vs-write-rate.csv", key="dl-lt-curve", provenance=keys,
                 values=values)


def _hist_chart(scn: LifetimeScenario, mc, keys: list[str], values: dict) -> None:
    """The Monte Carlo lifetime distribution [devices per lifetime bin] with P10 / P50 / P90, with its CSV
    (at σ = 0, or without samples, why there is none)."""
    if not (mc.samples_years and scn.endurance_sigma > 0):
        st.info("No spread to draw: with σ of ln(endurance) = 0 every line endures E writes, so every simulated "
                "device fails at the same time.", icon=":material/info:")
        return
    hist = pd.DataFrame({"lifetime_years": mc.samples_years})
    fig = figure(go.Histogram(x=hist.lifetime_years, nbinsx=40, name="devices"))
    for q, v in (("P10", mc.p10_years), ("P50", mc.p50_years), ("P90", mc.p90_years)):
        ref_line(fig, x=v, text=q)
    spread = float(np.ptp(mc.samples_years)) if len(mc.samples_years) else 0.0
    if spread < 2 * MIN_HALF_WIDTH * abs(mc.p50_years):  # devices failing within 0.1 % of each other: drawn as
        fig.update_xaxes(range=centred_range(mc.samples_years, mc.p50_years))  # the narrow distribution they are
    show(style(fig, title="Monte Carlo lifetime distribution", x="lifetime [years]",
               y="devices [-]"), key="lt-hist")
    download_csv(hist, "lifetime-monte-carlo.csv", key="dl-lt-hist", provenance=keys,
                 values=values)


def _figure2_view(scn: LifetimeScenario, cap: float, w: float, values: dict) -> None:
    """PCM and Flash lifetimes of the same extension under each workload's write rate (Figure 2), chart and table.

    ``cap``: capacity [bytes]; ``w``: the user's cell write rate [B/s]; ``values``: the page's parameter values.
    """
    st.markdown(
        f"Both extensions hold {scn.capacity_gb:g} GB (4× a DRAM of a quarter that size); PCM endures 1e7 writes "
        "per cell, NAND Flash 1e4 (seed 002 §2). Rows: rates **measured** on the paper's own applications "
        "(Lulesh, XSBench, RSBench, SimpleMOC, MiniFE, MiniAMR) and the other bundled programs, traced here "
        "(PCM extension at 1:4, FIFO, page write-backs per second with each program's measured time per "
        "reference; the same bytes per second are assumed at the paper's 16 GB footprint, spread over the "
        "device), our synthetic streams, your rate, and the **paper-implied** Lulesh rate: inverted from the "
        "paper's '~5 years' (Figure 9), so its 5 years are circular, not a result."
    )
    rates = dict(lt.SEED_WRITE_RATES)
    src = {k: "paper-implied: seed 002 §5.1.3 inverted (circular: gives 5 years by construction)" for k in rates}
    rates["your write rate"] = w
    src["your write rate"] = "input"
    if scn.trace_rates:
        with st.spinner("Simulating memory traces …"):
            r2, s2 = derived_write_rates()  # minutes when computed: on disk since install
        rates.update(r2)
        src.update(s2)
    tab = lt.figure2_table(rates, capacity_bytes=cap, wear_efficiency=scn.wear_efficiency, sources=src)
    # horizontal bars: the workload names read level (rotated under vertical bars they took half the
    # chart's height, and the reference labels sat on the lifetime ticks), in the table's order from the top
    fig = figure()
    fig.add_bar(y=tab.workload, x=tab.pcm_years, name="PCM (1e7)", orientation="h")
    fig.add_bar(y=tab.workload, x=tab.flash_years, name="Flash (1e4)", orientation="h")
    ref_line(fig, x=1 / 12, text="1 month", above=True)
    ref_line(fig, x=1.0, text="1 year", above=True)
    fig.update_layout(barmode="group", height=bar_chart_height(2 * len(tab)),
                      yaxis=dict(autorange="reversed"))
    style(fig, x="lifetime [years]", y="workload", logx=True)
    show(fig.update_layout(margin=dict(t=FIG2_TOP_PX)), key="lt-fig2")  # room for the labels above
    table(tab, labels={"pcm_years": "PCM lifetime [years]", "flash_years": "Flash lifetime [years]"})
    fig2_keys = lt.figure2_keys(scn.trace_rates)
    fig2_values = {k: v for k, v in values.items() if k not in ("lifetime.lulesh_write_rate_Bps",)}
    assumption_note(fig2_keys, fig2_values)
    download_csv(tab, "lifetime-figure2.csv", key="dl-lt-fig2", provenance=fig2_keys, values=fig2_values)


S = LifetimeScenario
init_state(S)
st.title("Memory-extension lifetime")
claims_strip("lifetime")
st.markdown(
    "An NVM memory extension with wear leveling lasts **L = C · E · η / W**: capacity **C**, cell "
    "endurance **E** (writes per cell), wear-leveling efficiency **η** ∈ (0, 1] and the rate **W** at which "
    "cells are written (Awad et al., ICS'16, §2 and Figure 9). The paper's closed form assumes perfect leveling "
    "(η = 1), an upper bound no scheme reaches; the default η is the average life rate of SFC wear leveling that "
    f"our wear model simulates on seed 003's stand-in traces ({param('lifetime.wear_efficiency').value:g}, "
    f"{param('lifetime.wear_efficiency').provenance.low:g} on the worst one; a simulation, not a measurement: seed "
    "003's own simulation reports 0.9255). Cells are not identical: the Monte Carlo gives each "
    "64-byte line a lognormal endurance and lets the device fail when a fraction of its lines is worn out."
)

devs = {n: d for n, d in all_devices().items() if d.endurance_writes_per_cell}
c1, c2 = st.columns([1, 2])
with c1:
    float_input(S, "capacity_gb", help=param_help("memext.nvm_capacity_bytes"), step=1.0)
    float_input(S, "endurance", help="Default: catalogue pcm-memext. Catalogue: "
                         + ", ".join(f"{n} {d.endurance_writes_per_cell:.0e} [{d.value_kind('endurance_writes_per_cell')}]"
                                     for n, d in devs.items()), format="%.3g")
    float_input(S, "write_rate_MBps", help="Default: the page write-back rate measured on the paper's own Lulesh, traced here (PCM "
                         "extension at DRAM:NVM 1:4, FIFO, Lulesh's measured time per reference; "
                         "models.endurance.lifetime.measured_write_rate), rounded to 0.1 MB/s. The paper-implied "
                         "rate (about 5 years on 16 GB PCM) is a labelled row of the Figure 2 table.", format="%.4g")
    st.slider(S.label("wear_efficiency"), WEAR_EFFICIENCY[0], WEAR_EFFICIENCY[1], step=0.01,
              key=S.key("wear_efficiency"),
              help=param_help("lifetime.wear_efficiency",
                              "1 = perfect leveling. The Wear leveling page measures life rates of real schemes."))
    with st.expander("Monte Carlo: endurance spread", expanded=True):
        float_input(S, "endurance_sigma", help=param_help("lifetime.endurance_sigma"), step=0.05)
        float_input(S, "fail_fraction", help=param_help("lifetime.fail_fraction"), format="%.3g")
        int_input(S, "trials")
        int_input(S, "line_bytes", help=param_help("nvm.line_bytes"))
        int_input(S, "seed")
    st.checkbox(S.label("trace_rates"), key=S.key("trace_rates"),
                help="Adds the write rates derived from the bundled memory traces and synthetic page streams to the "
                     "Figure 2 table.")

scn = scenario_controls(S, page="lifetime")
if scn is not None:
    with user_errors("Lifetime"):
        cap = scn.capacity_gb * 1e9
        w = scn.write_rate_MBps * 1e6
        closed = lt.lifetime_years(cap, scn.endurance, w, wear_efficiency=scn.wear_efficiency)
        values = {"memext.nvm_capacity_bytes": cap, "lifetime.wear_efficiency": scn.wear_efficiency,
                  "lifetime.endurance_sigma": scn.endurance_sigma, "lifetime.fail_fraction": scn.fail_fraction,
                  "nvm.line_bytes": scn.line_bytes}
        mc_keys = lt.monte_carlo_keys(scn.endurance)
        mc = _mc(cap, scn.endurance, w, scn.wear_efficiency, scn.endurance_sigma, scn.fail_fraction,
                 scn.line_bytes, scn.trials, scn.seed)
        with c2:
            row = metric_row()
            row.metric("Closed form [years]", scalar_text(closed, 3))
            row.metric("P10 [years]", scalar_text(mc.p10_years, 3))
            row.metric("P50 [years]", scalar_text(mc.p50_years, 3))
            row.metric("P90 [years]", scalar_text(mc.p90_years, 3))
            st.caption(f"{mc.lines:,} lines; the device fails at its {mc.fail_rank:,}-th worn line. "
                       f"Closed form = {scalar_text(closed * 365.25)} days.{_gap_text(scn, closed)}")
            st.markdown(three_lifetimes_text(scn, closed, mc))
            assumption_note(mc_keys, values)
            # the page's three charts one at a time: a change redraws (and the browser re-mounts) one of them
            curve, dist, fig2 = CHART_TABS
            lazy_tabs("lt.chart_tab", {curve: lambda: _curve_chart(scn, mc, cap, w, mc_keys, values),
                                       dist: lambda: _hist_chart(scn, mc, mc_keys, values),
                                       fig2: lambda: _figure2_view(scn, cap, w, values)})


if scn is not None:
    with user_errors("How sure?"):
        from models.endurance.uncertainty import lifetime_model

        how_sure(S, scn, lifetime_model(capacity_bytes=scn.capacity_gb * 1e9, endurance_writes_per_cell=scn.endurance,
                                        write_rate_bytes_per_s=scn.write_rate_MBps * 1e6,
                                        wear_efficiency=scn.wear_efficiency), key="lt")
