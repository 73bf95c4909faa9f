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
from app.components.inputs import SciInt, field_note, float_input, int_input
from app.components.metrics import metric_row
from app.components.provenance import assumption_note, param_help
from app.components.scenario import field_range, init_state, model_field
from app.components.tables import scalar_text
from app.components.tables import table as show_table
from app.components.traces import TraceChoice, trace_and_settings
from models.endurance import lifetime as lt
from models.endurance import wear
from models.endurance.uncertainty import wear_lifetime_model
from models.provenance import trace_values
from models.traces.core import BlockTrace

EnduranceDevice = device_field(endurance=True)
LABEL = {"none": "none (static)", "sg": "SG (start-gap)", "rr": "RR (round-robin)", "sfc": "SFC (Hilbert cubes)"}
#: Bank-write heatmap colours [-] (Plasma): 0 writes dark blue, the most-written bank yellow, the same in
#: both themes. Written as rgb(): Streamlit's chart theme swaps the hex colours #000001..#000040 for its
#: theme's colours, and Inferno's low end "#000004" became the 4th category colour (orange in the light
#: theme, pale yellow in the dark one), so never-written banks read as the hottest.
WRITES_COLORSCALE = [[0.0, "rgb(13, 8, 135)"], [0.111, "rgb(70, 3, 159)"], [0.222, "rgb(114, 1, 168)"],
                     [0.333, "rgb(156, 23, 158)"], [0.444, "rgb(189, 55, 134)"], [0.556, "rgb(216, 87, 107)"],
                     [0.667, "rgb(237, 121, 83)"], [0.778, "rgb(251, 159, 58)"], [0.889, "rgb(253, 202, 38)"],
                     [1.0, "rgb(240, 249, 33)"]]
#: Missing value's bar text (a scheme the paper gives no number for).
NA_TEXT = "n/a"
#: Values spanning at least this ratio [-] are drawn as markers on a log axis, closer ones as bars from 0.
LOG_SPAN = 10.0
#: Table headers, short enough to read in the grid.
TABLE_LABELS = {"scheme": "scheme", "writes": "stripe writes", "avg_bank_writes": "mean bank writes",
                "max_bank_writes": "max bank writes", "life_rate": "life rate",
                "improvement_vs_sg": "vs SG [×]", "life_rate_long_run": "life rate, long run",
                "improvement_vs_sg_long_run": "vs SG, long run [×]", "paper_life_rate_avg": "paper life rate",
                "moves": "gap moves", "movement_overhead": "movement overhead",
                "life_rate_with_movement": "life rate with moves", "write_rate_bytes_per_s": "write rate [B/s]",
                "lifetime_years": "lifetime [years]"}


def bar_text(values, fmt: str = "{:.3g}") -> list[str]:
    """Bar labels of ``values``: ``fmt`` of each finite value, :data:`NA_TEXT` for a missing one (never "NaN")."""
    return [fmt.format(v) if v is not None and np.isfinite(v) else NA_TEXT for v in np.asarray(values, dtype=float)]


def finite_or_none(values) -> list[float | None]:
    """``values`` with every missing / non-finite one as None: Plotly draws no bar there (a NaN is sent as text)."""
    return [float(v) if np.isfinite(v) else None for v in np.asarray(values, dtype=float)]


#: Write rate [MB/s]: LifetimeInputs' cell write rate, plus 0 meaning "the trace's own rate".
RATE_MBPS = (0.0, field_range(lt.LifetimeInputs, "write_rate_bytes_per_s", unit=1e6)[1])


class WearScenario(TraceChoice, UncertaintyFields):
    PREFIX = "wear"
    trace_source: Literal["bundled", "synthetic", "upload"] = Field("synthetic", title="Trace")
    schemes: list[str] = Field(["none", "sg", "rr", "sfc"], title="Schemes")
    gap_interval_writes: SciInt = model_field(wear.WearConfig, "gap_interval_writes",
                                              title="ψ: writes to a region between gap moves [writes]")
    address: Literal["modulo", "first_touch"] = Field("modulo", title="Trace address → stripe")
    literal_sfc: bool = Field(False, title="SFC exactly as equation 1")
    heat_horizon: Literal["one-pass", "long-run"] = Field("one-pass", title="Heatmaps show")
    device: EnduranceDevice = Field("pcm-samsung-20nm", title="Device endurance from")
    write_rate_MBps: float = Field(0.0, ge=RATE_MBPS[0], le=RATE_MBPS[1],
                                   title="Write rate [MB/s] (0 = the trace's own rate)")

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
    st.multiselect(S.label("schemes"), list(wear.SCHEMES), key=S.key("schemes"), format_func=LABEL.get)
    field_note(S, "schemes")
    int_input(S, "gap_interval_writes",
              help=param_help("wear.gap_interval_writes", "Seed 003 does not give its value."))
    st.radio(S.label("address"), ["modulo", "first_touch"], key=S.key("address"), horizontal=True,
             format_func={"modulo": "disk stripe folded onto the device",
                          "first_touch": "allocated in order of first write"}.get)
    st.checkbox(S.label("literal_sfc"), key=S.key("literal_sfc"),
                help="No per-cube rotation over ranks/banks. Literally, 32 consecutive stripes (one per cube) land in one bank; by default each cube's "
                     "curve is rotated so they spread over all ranks, as the paper's text intends.")
    dev = device_picker(S.label("device"), key=S.key("device"), endurance=True,
                        describe=lambda d: f"{d.label or d.name} ({scalar_text(d.endurance_writes_per_cell)} writes/cell)")
    float_input(S, "write_rate_MBps", step=10.0)

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
        values = trace_values(trace)
        values["wear.gap_interval_writes"] = scn.gap_interval_writes
        keys = wear.provenance_keys_for(trace, dev)

        metrics = metric_row()  # each metric as wide as its label ("none (static) life rate" was cut at 1024 px)
        for row in df.itertuples():
            metrics.metric(f"{LABEL[row.scheme]} life rate", f"{row.life_rate:.3f}",
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
        # a missing value (the paper gives none for the static layout) is no bar, labelled "n/a"
        fig.add_bar(x=x, y=finite_or_none(df["life_rate"]), name="one pass", text=bar_text(df["life_rate"]),
                    textposition="outside")
        fig.add_bar(x=x, y=finite_or_none(df["life_rate_long_run"]),
                    name="long run (steady state; SFC = 1 by construction)",
                    text=bar_text(df["life_rate_long_run"]), textposition="outside")
        fig.add_bar(x=x, y=finite_or_none(df["paper_life_rate_avg"]),
                    name="paper (average of 7 traces; none for the static layout)",
                    text=bar_text(df["paper_life_rate_avg"], "{:.4g}"), textposition="outside")
        fig.update_layout(barmode="group", yaxis_range=[0, 1.12])
        show(style(fig, x="wear-leveling scheme", y="life rate = avg / max bank writes [-]"), key="wl-bars")
        st.caption(f"Paper: SFC 0.9255, RR 0.619, SG 0.0598; SFC improves lifetime {wear.PAPER_IMPROVEMENT_SFC_VS_SG}× "
                   "over SG on average. Our presets are synthetic stand-ins for the paper's traces; differences are "
                   "reported, not tuned away.")
        table = df[["scheme", "writes", "avg_bank_writes", "max_bank_writes", "life_rate", "improvement_vs_sg",
                    "life_rate_long_run", "improvement_vs_sg_long_run", "paper_life_rate_avg", "moves",
                    "movement_overhead", "life_rate_with_movement", "write_rate_bytes_per_s", "lifetime_years"]]
        show_table(table.assign(scheme=[LABEL[s] for s in table["scheme"]]), labels=TABLE_LABELS)
        assumption_note(keys, values)
        download_csv(table, "wear-leveling.csv", key="dl-wl-table", provenance=keys, values=values)

        st.subheader(f"Lifetime on {md_escape(dev.label or dev.name)}")
        st.markdown(
            f"Lifetime = capacity × endurance × life rate / (write rate × (1 + movement overhead)) with "
            f"{cfg.capacity_bytes / 2**30:.0f} GiB, {scalar_text(dev.endurance_writes_per_cell)} writes per cell and "
            f"{rate / 1e6:,.3g} MB/s (closed form of `models.endurance.lifetime`, wear efficiency = the life rate "
            "**simulated on this trace**, one pass). The long-run life rate is not turned into a lifetime: for SFC it "
            "is 1 by construction on any stationary stream.")
        years = np.asarray(df["lifetime_years"], dtype=float)
        shown = years[np.isfinite(years)]
        # bar length ∝ lifetime: bars from 0 on a linear axis; lifetimes decades apart as markers on a log axis
        log_life = bool(shown.size and (shown > 0).all() and shown.max() / shown.min() >= LOG_SPAN)
        life_name = "lifetime [years] from the life rate simulated on the trace"
        fig = figure()
        if log_life:
            fig.add_scatter(x=x, y=finite_or_none(years), mode="markers", name=life_name, marker=dict(size=11),
                            hovertemplate="%{x}: %{y:,.3g} years<extra></extra>")
        else:
            fig.add_bar(x=x, y=finite_or_none(years), name=life_name, text=bar_text(years, "{:,.2f} years"),
                        textposition="inside", insidetextanchor="start",
                        hovertemplate="%{x}: %{y:,.3g} years<extra></extra>")
        if np.isfinite(rate):
            with user_errors("How sure? band"):  # each scheme's lifetime, endurance (and a typed rate) sampled
                b = point_bands(S, scn, {r.scheme: (lambda r=r: wear_lifetime_model(
                    cfg, scheme=str(r.scheme), life_rate=float(r.life_rate), movement_overhead=float(r.movement_overhead),
                    device=dev, write_rate_bytes_per_s=rate, rate_typed=scn.write_rate_MBps > 0))
                    for r in df.itertuples()}, key="wl-life", content=trace.fingerprint())
                add_error_bars(fig, [LABEL[s] for s in b.x], b.p5, b.p50, b.p95, n=scn.uq_samples)
        style(fig, x="wear-leveling scheme", y="lifetime [years]", logy=log_life)
        if not log_life:
            fig.update_layout(yaxis=dict(type="linear", rangemode="tozero"))
        show(fig, key="wl-life")

        st.subheader("Bank writes (ranks × banks)")
        st.radio(S.label("heat_horizon"), ["one-pass", "long-run"], key=S.key("heat_horizon"), horizontal=True,
                 format_func={"one-pass": "one pass of the trace", "long-run": "long-run expectation"}.get)
        k = 0 if scn.heat_horizon == "one-pass" else 1
        schemes = list(df["scheme"])
        ncols = min(2, len(schemes))
        nrows = -(-len(schemes) // ncols)
        hm = figure_from(make_subplots, rows=nrows, cols=ncols, subplot_titles=[LABEL[s] for s in schemes],
                           horizontal_spacing=0.1, vertical_spacing=0.15)
        # one colour scale for every panel: 0 at its low end, the most-written bank of any scheme at its top
        zmax = max(1.0, *(float(heat[s][k].max()) for s in schemes))
        rows = []
        for i, s in enumerate(schemes):
            m = heat[s][k]
            hm.add_trace(go.Heatmap(z=m, x=list(range(cfg.banks_per_rank)), y=list(range(cfg.ranks)), zmin=0,
                                    zmax=zmax, coloraxis="coloraxis", name=LABEL[s],
                                    hovertemplate="rank %{y}, bank %{x}: %{z:,.0f} writes<extra></extra>"),
                         row=i // ncols + 1, col=i % ncols + 1)
            r_, b_ = np.indices(m.shape)
            rows.append(pd.DataFrame({"scheme": s, "horizon": scn.heat_horizon, "rank": r_.ravel(),
                                      "bank": b_.ravel(), "bank_writes": m.ravel()}))
        style(hm)
        hm.update_layout(coloraxis=dict(colorscale=WRITES_COLORSCALE, cmin=0, cmax=zmax,
                                        colorbar=dict(title=dict(text="writes per bank [-]", side="right"))),
                         height=280 * nrows + 60, hovermode="closest")
        # the x title under each column's lowest panel only (the top row's ran into the subplot titles below
        # it); a panel above shares that axis (same banks, zoomed together)
        for i in range(len(schemes)):
            low = i % ncols + ncols * ((len(schemes) - 1 - i % ncols) // ncols)  # lowest panel of i's column
            if low == i:
                hm.update_xaxes(title_text="bank [index]", row=i // ncols + 1, col=i % ncols + 1)
            else:
                hm.update_xaxes(matches=f"x{low + 1 if low else ''}", row=i // ncols + 1, col=i % ncols + 1)
        hm.update_yaxes(title_text="rank [index]")
        show(hm, key="wl-heat")
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
