"""Endurance / Wear leveling: start-gap, round-robin and space-filling-curve stripes (seed 003 §IV, §V-B)."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots
from pydantic import Field, field_validator

from app.components import download_csv, scenario_controls, user_errors
from app.components.bands import add_error_bars, point_bands
from app.components.charts import figure, figure_from, show, style
from app.components.claims import claims_strip
from app.components.devices import device_field, device_picker
from app.components.errors import md_escape
from app.components.how_sure import UncertaintyFields, how_sure
from app.components.inputs import SciInt, field_note, int_input
from app.components.provenance import assumption_note, device_keys, param_help, trace_keys
from app.components.scenario import field_range, init_state, model_field
from app.components.tables import table as show_table
from app.components.traces import TraceChoice, trace_and_settings
from models.endurance import lifetime as lt
from models.endurance import wear
from models.provenance import param_names
from models.traces.core import BlockTrace
from models.uncertainty.adapters import wear_lifetime_model

EnduranceDevice = device_field(endurance=True)
LABEL = {"none": "none (static)", "sg": "SG (start-gap)", "rr": "RR (round-robin)", "sfc": "SFC (Hilbert cubes)"}
#: Write rate [MB/s]: LifetimeInputs' cell write rate, plus 0 meaning "the trace's own rate".
RATE_MBPS = (0.0, field_range(lt.LifetimeInputs, "write_rate_bytes_per_s", unit=1e6)[1])


class WearScenario(TraceChoice, UncertaintyFields):
    PREFIX = "wear"
    trace_source: Literal["bundled", "synthetic", "upload"] = "synthetic"
    schemes: list[str] = ["none", "sg", "rr", "sfc"]
    gap_interval_writes: SciInt = model_field(wear.WearConfig, "gap_interval_writes")
    address: Literal["modulo", "first_touch"] = "modulo"
    literal_sfc: bool = False
    heat_horizon: Literal["one-pass", "long-run"] = "one-pass"
    device: EnduranceDevice = "pcm-samsung-20nm"
    write_rate_MBps: float = Field(0.0, ge=RATE_MBPS[0], le=RATE_MBPS[1])

    @field_validator("schemes")
    @classmethod
    def _schemes(cls, v: list[str]) -> list[str]:
        bad = [s for s in v if s not in wear.SCHEMES]
        if bad:
            raise ValueError(f"unknown scheme(s) {bad}; valid: {', '.join(wear.SCHEMES)}")
        if not v:
            raise ValueError("pick at least one scheme")
        return [s for s in wear.SCHEMES if s in v]


S = WearScenario
init_state(S)
st.title("Wear leveling")
claims_strip("wear-leveling")
st.markdown(
    "PCM cells endure a limited number of writes, so a PCM cache must spread writes over its banks. "
    "Seed 003 levels wear in 32 KB **stripes** on a device of 8 ranks × 16 banks × 512 stripes (Table I) and "
    "compares a static start-gap (**SG**), round-robin stripes with start-gap inside each bank (**RR**) and its "
    "**SFC** scheme (equation 1: stripes dealt round-robin to 32 cubes, start-gap inside each cube, a 3-D Hilbert "
    "curve from sequence number to (rank, bank, stripe)). **Life rate** = average / maximum bank writes "
    "(1 = perfect leveling); lifetime improvement = life rate / SG's (Figure 9)."
)

trace, settings = trace_and_settings(S.PREFIX, border=False)
with settings:
    st.multiselect("Schemes", list(wear.SCHEMES), key=S.key("schemes"), format_func=LABEL.get)
    field_note(S, "schemes")
    int_input(S, "gap_interval_writes", "ψ: writes to a region between gap moves [writes]",
              help=param_help("wear.gap_interval_writes", "Seed 003 does not give its value."))
    st.radio("Trace address → stripe", ["modulo", "first_touch"], key=S.key("address"), horizontal=True,
             format_func={"modulo": "disk stripe folded onto the device",
                          "first_touch": "allocated in order of first write"}.get)
    st.checkbox("SFC exactly as equation 1 (no per-cube rotation over ranks/banks)", key=S.key("literal_sfc"),
                help="Literally, 32 consecutive stripes (one per cube) land in one bank; by default each cube's "
                     "curve is rotated so they spread over all ranks, as the paper's text intends.")
    dev = device_picker("Device endurance from", key=S.key("device"), endurance=True,
                        describe=lambda d: f"{d.label or d.name} ({d.endurance_writes_per_cell:.0e} writes/cell)")
    st.number_input("Write rate [MB/s] (0 = the trace's own rate)", min_value=RATE_MBPS[0], max_value=RATE_MBPS[1],
                    step=10.0,
                    key=S.key("write_rate_MBps"))

scn = scenario_controls(S, page="wear-leveling")


@st.cache_data(show_spinner=False, max_entries=8)
def _run(_trace: BlockTrace, token: tuple, schemes: tuple[str, ...], psi: int, address: str, literal: bool):
    cfg = wear.WearConfig(gap_interval_writes=psi, sfc_rotate_cubes=not literal)
    stream = wear.stripe_write_stream(_trace, cfg, address=address)
    if len(stream) == 0:
        raise ValueError("the trace has no write requests: nothing wears")
    df, res = wear.compare_schemes(stream, schemes, cfg)
    heat = {s: (res[s].bank_matrix(), wear.long_run_bank_writes(stream, s, cfg, fold=True)
                .reshape(cfg.ranks, cfg.banks_per_rank)) for s in schemes}
    return df, heat, cfg


df = None  # the schemes' results; None when the simulation could not run (the error box says why)
if scn is not None and trace is not None:
    with user_errors("Wear leveling"):
        with st.spinner("Simulating the schemes …"):
            df, heat, cfg = _run(trace, trace.fingerprint(), tuple(scn.schemes), scn.gap_interval_writes, scn.address,
                                 scn.literal_sfc)
        rate = float("nan")
        if scn.write_rate_MBps > 0:
            rate = scn.write_rate_MBps * 1e6
        else:
            try:
                rate = wear.write_rate_bytes_per_s(trace)
            except ValueError as e:
                st.warning(f"No lifetime: {md_escape(e)}. Enter a write rate [MB/s] above.", icon=":material/warning:")
        df = df.copy()
        df["paper_life_rate_avg"] = [wear.PAPER_LIFE_RATE.get(s, np.nan) for s in df["scheme"]]

        def _life(col: str) -> list[float]:
            if not np.isfinite(rate):
                return [float("nan")] * len(df)
            return [wear.lifetime_years_for(cfg, dev.endurance_writes_per_cell, rate, lr, ovh)
                    for lr, ovh in zip(df[col], df["movement_overhead"], strict=True)]

        # lifetime from the life rate simulated on the trace (one pass); the long-run rate is not
        # used for a lifetime: for SFC it is 1 by construction on any stationary stream
        df["lifetime_years"] = _life("life_rate")
        df["write_rate_bytes_per_s"] = rate
        tkeys, values = trace_keys(trace)
        values["wear.gap_interval_writes"] = scn.gap_interval_writes
        keys = [*tkeys, *param_names("wear."), *device_keys(dev, ["endurance_writes_per_cell"])]

        cols = st.columns(len(df))
        for col, row in zip(cols, df.itertuples(), strict=True):
            col.metric(f"{row.scheme.upper()} life rate", f"{row.life_rate:.3f}",
                       help=f"simulated on the trace (one pass); lifetime {row.lifetime_years:,.2f} years. "
                            f"Steady-state reference: {row.life_rate_long_run:.3f} (SFC = 1 by construction)")

        writes = int(df["writes"].iloc[0])
        sweeps = writes / cfg.cubes / (cfg.region_slots("sfc") * cfg.gap_interval_writes)
        st.caption(f"{writes:,} stripe writes (one per write request and 32 KB stripe touched); the gap of an SFC "
                   f"cube sweeps its 2,048 slots once per {cfg.region_slots('sfc') * cfg.gap_interval_writes:,} "
                   f"cube writes, i.e. ~{sweeps:.2g} sweeps in one pass. With few sweeps every scheme is close to "
                   "a static layout; the **long run** assumes the workload repeats until start-gap has rotated "
                   "every line through its region (SFC cubes then spread writes evenly over all banks).")

        st.subheader("Life rate per scheme (Figure 9 analogue)")
        fig = figure()
        x = [LABEL[s] for s in df["scheme"]]
        fig.add_bar(x=x, y=df["life_rate"], name="one pass", text=df["life_rate"].round(3), textposition="outside")
        fig.add_bar(x=x, y=df["life_rate_long_run"], name="long run (steady state; SFC = 1 by construction)",
                    text=df["life_rate_long_run"].round(3), textposition="outside")
        fig.add_bar(x=x, y=df["paper_life_rate_avg"], name="paper (average of 7 traces)",
                    text=df["paper_life_rate_avg"].round(4), textposition="outside")
        fig.update_layout(barmode="group", yaxis_range=[0, 1.12])
        show(style(fig, x="wear-leveling scheme", y="life rate = avg / max bank writes [-]"), key="wl-bars")
        st.caption(f"Paper: SFC 0.9255, RR 0.619, SG 0.0598; SFC improves lifetime {wear.PAPER_IMPROVEMENT_SFC_VS_SG}× "
                   "over SG on average. Our presets are synthetic stand-ins for the paper's traces; differences are "
                   "reported, not tuned away.")
        table = df[["scheme", "writes", "avg_bank_writes", "max_bank_writes", "life_rate", "improvement_vs_sg",
                    "life_rate_long_run", "improvement_vs_sg_long_run", "paper_life_rate_avg", "moves",
                    "movement_overhead", "life_rate_with_movement", "write_rate_bytes_per_s", "lifetime_years"]]
        show_table(table, labels={"improvement_vs_sg": "improvement vs SG [×]",
                                  "improvement_vs_sg_long_run": "improvement vs SG, long run [×]"})
        assumption_note(keys, values)
        download_csv(table, "wear-leveling.csv", key="dl-wl-table", provenance=keys, values=values)

        st.subheader(f"Lifetime on {md_escape(dev.label or dev.name)}")
        st.markdown(
            f"Lifetime = capacity × endurance × life rate / (write rate × (1 + movement overhead)) with "
            f"{cfg.capacity_bytes / 2**30:.0f} GiB, {dev.endurance_writes_per_cell:.0e} writes per cell and "
            f"{rate / 1e6:,.3g} MB/s (closed form of `models.endurance.lifetime`, wear efficiency = the life rate "
            "**simulated on this trace**, one pass). The long-run life rate is not turned into a lifetime: for SFC it "
            "is 1 by construction on any stationary stream.")
        fig = figure()
        fig.add_bar(x=x, y=df["lifetime_years"], name="life rate simulated on the trace")
        if np.isfinite(rate):
            with user_errors("How sure? band"):  # each scheme's lifetime, endurance (and a typed rate) sampled
                b = point_bands(S, scn, {r.scheme: (lambda r=r: wear_lifetime_model(
                    cfg, scheme=str(r.scheme), life_rate=float(r.life_rate), movement_overhead=float(r.movement_overhead),
                    device=dev, write_rate_bytes_per_s=rate, rate_typed=scn.write_rate_MBps > 0))
                    for r in df.itertuples()}, key="wl-life", content=trace.fingerprint())
                add_error_bars(fig, [LABEL[s] for s in b.x], b.p5, b.p50, b.p95, n=scn.uq_samples)
        show(style(fig, x="wear-leveling scheme", y="lifetime [years]", logy=bool((df["lifetime_years"] > 0).all())),
             key="wl-life")

        st.subheader("Bank writes (ranks × banks)")
        st.radio("Heatmaps show", ["one-pass", "long-run"], key=S.key("heat_horizon"), horizontal=True,
                 format_func={"one-pass": "one pass of the trace", "long-run": "long-run expectation"}.get)
        k = 0 if scn.heat_horizon == "one-pass" else 1
        schemes = list(df["scheme"])
        ncols = min(2, len(schemes))
        nrows = -(-len(schemes) // ncols)
        hm = figure_from(make_subplots, rows=nrows, cols=ncols, subplot_titles=[LABEL[s] for s in schemes],
                           horizontal_spacing=0.08, vertical_spacing=0.15)
        zmax = max(float(heat[s][k].max()) for s in schemes)
        rows = []
        for i, s in enumerate(schemes):
            m = heat[s][k]
            hm.add_trace(go.Heatmap(z=m, x=list(range(cfg.banks_per_rank)), y=list(range(cfg.ranks)), zmin=0,
                                    zmax=zmax, coloraxis="coloraxis", name=s,
                                    hovertemplate="rank %{y}, bank %{x}: %{z:,.0f} writes<extra></extra>"),
                         row=i // ncols + 1, col=i % ncols + 1)
            r_, b_ = np.indices(m.shape)
            rows.append(pd.DataFrame({"scheme": s, "horizon": scn.heat_horizon, "rank": r_.ravel(),
                                      "bank": b_.ravel(), "bank_writes": m.ravel()}))
        hm.update_layout(coloraxis=dict(colorscale="Inferno", colorbar=dict(title="writes")),
                         height=260 * nrows + 60, hovermode="closest")
        hm.update_xaxes(title_text="bank [index]")
        hm.update_yaxes(title_text="rank [index]")
        show(style(hm), key="wl-heat")
        download_csv(pd.concat(rows, ignore_index=True), "wear-bank-writes.csv", key="dl-wl-heat", provenance=keys,
                     values=values)

if scn is not None and trace is not None and df is not None:
    with user_errors("How sure?"):
        row = df.set_index("scheme").loc["sfc" if "sfc" in set(df["scheme"]) else df["scheme"].iloc[0]]
        how_sure(S, scn, wear_lifetime_model(cfg, scheme=str(row.name), life_rate=float(row.life_rate),
                                             movement_overhead=float(row.movement_overhead), device=dev,
                                             write_rate_bytes_per_s=rate, rate_typed=scn.write_rate_MBps > 0)
                 if np.isfinite(rate) else None, key="wl", why_not="no write rate: enter one above",
                 content=trace.fingerprint())
