"""Storage / HDD model: seek curve fit, validation on DiskSim's measured drives, throughput vs distance."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st
from plotly.subplots import make_subplots
from pydantic import Field, field_validator

from app.components import Scenario, download_csv, scenario_controls, user_errors
from app.components.bands import add_error_bars, point_bands
from app.components.charts import figure, figure_from, ref_line, show, style
from app.components.claims import claims_strip
from app.components.how_sure import UncertaintyFields, how_sure
from app.components.inputs import (
    GENERIC_HDD,
    HddProfile,
    float_input,
    hdd_help,
    hdd_profiles,
    number_text,
    text_list_input,
)
from app.components.metrics import metric_row
from app.components.progress import progress_bar
from app.components.provenance import assumption_note
from app.components.scenario import init_state, model_field
from app.components.tables import scalar_text
from app.components.tables import table as show_table
from models._base import results_frame
from models.storage import hdd

SizesKib, parse_sizes_kib = number_text("sizes_kib", what="request sizes in KiB", example="4, 64", low=0,
                                        low_open=True, high=65536)
#: Manual seek boundary [cylinders]: inside SeekFit.boundary_cyl's range (> 0, unbounded), narrowed to
#: [1, 1e6] -- no drive has a fraction of a cylinder or a million of them, and the widget needs a maximum.
BOUNDARY_CYL = (1.0, 1e6)


class HddScenario(Scenario, UncertaintyFields):
    PREFIX = "hdd"
    drive: str = Field("ibm18es", title="Drive")
    rotation: str = Field("clock", title="Rotational latency")
    boundary_auto: bool = Field(True, title="Fit the boundary")
    boundary_cyl: float = model_field(hdd.SeekFit, "boundary_cyl", default=600.0, ge=BOUNDARY_CYL[0],
                                      le=BOUNDARY_CYL[1], title="Boundary [cylinders]")
    profile_drive: HddProfile = Field(GENERIC_HDD, title="Drive profile")
    sizes_kib: SizesKib = Field("4, 64, 1024", title="Request sizes [KiB]")

    @field_validator("drive")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in hdd.drive_names():
            raise ValueError(f"unknown drive {v!r}; valid names: {', '.join(hdd.drive_names())}")
        return v

    @field_validator("rotation")
    @classmethod
    def _rot(cls, v: str) -> str:
        if v not in ("clock", "expected"):
            raise ValueError("rotation must be 'clock' or 'expected'")
        return v


@st.cache_data(show_spinner=False, max_entries=32)
def _drive_validation(drive: str, rotation: str):
    """One drive's replay of its measured trace (:func:`models.storage.hdd.validate_drive`): computed once for the
    validation table and the selected drive's demerit split (each replay is seconds of simulation)."""
    return hdd.validate_drive(drive, rotation=rotation)


@st.cache_data(show_spinner=False, max_entries=4)
def _validation(rotation: str) -> tuple[pd.DataFrame, dict]:
    """Validation table of every bundled drive and its sorted (measured, predicted) times [ms]."""
    results = []
    names = hdd.drive_names()
    with progress_bar("Replaying the measured traces …") as report:
        for k, n in enumerate(names):
            results.append(_drive_validation(n, rotation))
            report((k + 1) / len(names))
    cdfs = {r.drive: (np.sort(r.measured_ms), np.sort(r.predicted_ms)) for r in results}
    return results_frame(results), cdfs


@st.cache_data(show_spinner=False, max_entries=4)
def _split(drive: str, rotation: str) -> pd.DataFrame:
    """Demerit of one drive's replay split by reads/writes and by the model's cache outcome."""
    return hdd.demerit_split(_drive_validation(drive, rotation))


@st.cache_data(show_spinner=False, max_entries=16, ttl=3600)
def _throughput(profile: str, sizes: tuple[int, ...]) -> pd.DataFrame:
    spec = hdd.generic_drive() if profile == GENERIC_HDD else hdd.load_drive(profile)
    dists = np.concatenate([[0], np.logspace(1, np.log10(spec.block_count / 2), 14)])
    return hdd.throughput_curve(spec, dists, sizes, requests=1500, seed=0)


#: Legend name of the measured seek points far from the fit (the rule of ``SeekFit.outliers``).
OUTLIER_NAME = "far from the fit (off by more than max(3σ, 0.25 ms))"


def _outlier_text(far: pd.DataFrame, boundary_cyl: float) -> str:
    """What the marked points mean for the two curves: the interpolated model (as DiskSim) passes through
    every measured point, these included; the fit does not."""
    at = ", ".join(f"{r.distance_cyl:,.0f} cyl (measured {r.measured_ms:.2f} ms, fit {r.fit_ms:.2f} ms)"
                   for r in far.itertuples())
    return (f"Circled: {len(far)} measured point(s) far from the fit, at {at}. The interpolated model (what "
            "DiskSim and the simulations here use) passes through every measured point, these included; the "
            "Ruemmler-Wilkes fit (robust loss) is not pulled by them."
            + (" The point at the boundary is far from the fit because the fit's two parts meet there with a step, "
               "not because the measurement is off." if (far.distance_cyl == boundary_cyl).any() else ""))


@st.cache_data(show_spinner=False, max_entries=16, ttl=3600)
def _seek_fit(drive: str, boundary_cyl: float | None):
    """The seek-curve fit of a bundled drive (a least-squares fit per boundary candidate: not redone per rerun)."""
    spec = hdd.load_drive(drive)
    return hdd.fit_seek_curve(spec.seek_distance_cyl, spec.seek_time_ms, boundary_cyl=boundary_cyl)


S = HddScenario
init_state(S)
st.title("HDD service-time model")
claims_strip("hdd-model")
st.markdown(
    "A hard disk per request: **controller overhead + seek(cylinder distance) + rotational latency + "
    "transfer** (zone blocks per track × rpm), with the drive's segmented read cache, read-ahead and "
    "write-back as its DiskSim description says. Calibrated on DiskSim's validated drives "
    "(measured seek curves, layouts, controller parameters) and checked against service times "
    "**measured on the real drives**. The generic 7200 rpm profile (catalogue `hdd-7200`) is calibrated "
    "to seed 003's measurements: ~100 MB/s sequential, ~0.5 MB/s small random."
)

names = list(hdd.drive_names())
c1, c2, c3 = st.columns(3)
c1.selectbox(S.label("drive"), names, key=S.key("drive"))
c2.radio(S.label("rotation"), ["clock", "expected"], key=S.key("rotation"), horizontal=True,
         format_func={"clock": "platter angle from timing", "expected": "half a rotation"}.get,
         help="'platter angle': the platter position follows the model clock, so sequential and same-track "
              "requests get their true short latency; 'half a rotation': the expected value everywhere.")
with c3:
    st.checkbox(S.label("boundary_auto"), key=S.key("boundary_auto"),
                help="The short/long seek boundary [cylinders] fitted to the curve; off: set it below.")
    if not st.session_state[S.key("boundary_auto")]:
        float_input(S, "boundary_cyl")

scn = scenario_controls(S, page="hdd-model")
if scn is not None:
    with user_errors("HDD model"):
        spec = hdd.load_drive(scn.drive)
        st.subheader(f"Seek curve: {scn.drive} ({spec.rpm:.0f} rpm, {spec.cylinders:,} cylinders)")
        fit = _seek_fit(scn.drive, None if scn.boundary_auto else float(scn.boundary_cyl))
        d = np.asarray(spec.seek_distance_cyl)
        pts = pd.DataFrame({"distance_cyl": d, "measured_ms": spec.seek_time_ms, "fit_ms": fit(d)})
        pts["error_ms"] = pts.fit_ms - pts.measured_ms
        pts["far_from_fit"] = fit.outlier_mask(d, spec.seek_time_ms)
        grid = np.unique(np.geomspace(1, spec.cylinders - 1, 300).round())
        row = metric_row()  # each metric as wide as its label and value (columns cut both at 1024 px)
        row.metric("short seeks: a + b√d [ms]", f"{fit.a_ms:.2f} + {fit.b_ms:.3f}√d",
                  help=f"a = {fit.a_ms:.4f} ms, b = {fit.b_ms:.5f} ms/√cyl, for d < boundary")
        row.metric("long seeks: c + e·d [ms]", f"{fit.c_ms:.2f} + {scalar_text(fit.e_ms, 2)}·d",
                  help=f"c = {fit.c_ms:.4f} ms, e = {scalar_text(fit.e_ms)} ms/cyl, for d ≥ boundary")
        row.metric("boundary [cyl]", f"{fit.boundary_cyl:,.0f}")
        row.metric("fit RMS error [ms]", f"{fit.rms_error_ms:.3f}",
                  help=f"over all {len(d)} points; {fit.rms_error_inliers_ms:.3f} ms without the {fit.outliers} "
                       f"outlier(s); largest error {fit.max_abs_error_ms:.3f} ms")
        fig = figure_from(make_subplots, rows=2, cols=1, shared_xaxes=True, row_heights=[0.75, 0.25], vertical_spacing=0.04)
        fig.add_scatter(x=pts.distance_cyl, y=pts.measured_ms, mode="markers", name="measured (.seek)", row=1, col=1)
        far = pts[pts.far_from_fit]
        if len(far):  # the interpolated model goes through these too: marked, so a dip reads as the data's
            fig.add_scatter(x=far.distance_cyl, y=far.measured_ms, mode="markers", name=OUTLIER_NAME, row=1, col=1,
                            marker=dict(symbol="circle-open", size=14, line_width=2))
        fig.add_scatter(x=grid, y=hdd.seek_time_ms(spec, grid), name="interpolated (model)", line_dash="dot",
                        row=1, col=1)
        fig.add_scatter(x=grid, y=fit(grid), name="Ruemmler-Wilkes fit", row=1, col=1)
        fig.add_scatter(x=pts.distance_cyl, y=pts.error_ms, mode="markers", name="fit − measured [ms]",
                        row=2, col=1)
        ref_line(fig, y=0, row=2, col=1)
        ref_line(fig, x=fit.boundary_cyl, dash="dash", text="boundary", row=1, col=1)
        ref_line(fig, x=fit.boundary_cyl, dash="dash", row=2, col=1)

        style(fig, logx=True)
        fig.update_xaxes(title_text="seek distance [cylinders]", row=2, col=1)
        fig.update_yaxes(title_text="seek time [ms]", row=1, col=1)
        fig.update_yaxes(title_text="fit error [ms]", row=2, col=1)
        fig.update_layout(height=560)
        show(fig, key="hdd-seek")
        if len(far):
            st.caption(_outlier_text(far, fit.boundary_cyl))
        download_csv(pts, f"seek-{scn.drive}.csv", label="Download seek points and fit (CSV)", key="dl-hdd-seek")

        st.subheader("Validation against measured service times")
        table, cdfs = _validation(scn.rotation)
        show_table(table)
        download_csv(table, "hdd-validation.csv", label="Download validation table (CSV)", key="dl-hdd-val",
                     provenance=hdd.validation_keys(names))
        st.caption("demerit = RMS horizontal distance between predicted and measured service-time CDFs "
                   "(DiskSim's figure of merit; DiskSim's own values from its valid/runvalid). "
                   "Target: within 2× of DiskSim's. st41601n has no published DiskSim figure.")
        meas, pred = cdfs[scn.drive]
        q = np.linspace(0, 1, len(meas), endpoint=False) + 0.5 / len(meas)
        fig = figure()
        fig.add_scatter(x=meas, y=q, name="measured", line_shape="hv")
        fig.add_scatter(x=pred, y=q, name="model", line_shape="hv")
        row = table.set_index("drive").loc[scn.drive]
        show(style(fig, title=f"{scn.drive}: demerit {row.demerit_ms:.3f} ms (DiskSim {row.disksim_demerit_ms} ms)",
                   x="service time [ms]", y="cumulative fraction [-]"), key="hdd-cdf")
        cdf = pd.DataFrame({"quantile": q, "measured_ms": meas, "predicted_ms": pred})
        download_csv(cdf, f"cdf-{scn.drive}.csv", label="Download CDFs (CSV)", key="dl-hdd-cdf")
        split = _split(scn.drive, scn.rotation)
        st.markdown(f"**{scn.drive}: demerit by request type and cache outcome**")
        show_table(split.drop(columns="drive"))
        st.caption("Each part's demerit compares the predicted and measured times of the same requests. Hit / miss "
                   "is the model's (a read served from a read-cache segment; a write reported once in the buffer, "
                   "write-back): the measured traces label almost every request 'Hit'. Leave-one-out and every "
                   "drive's split: docs/models/hdd.md (bench/report_hdd.py).")

# Outside ``if scn``: a bad size list invalidates the scenario, and the field must stay on screen
# (with the user's text) so it can be corrected.
st.subheader("Throughput vs inter-request distance")
t1, t2 = st.columns(2)
t1.selectbox(S.label("profile_drive"), hdd_profiles(), key=S.key("profile_drive"), help=hdd_help())
text_list_input(S, "sizes_kib", container=t2)
if scn is not None:
    with user_errors("Throughput"):
        # whole 512 B sectors, as the model simulates them; sizes that round alike are one curve
        sizes = tuple(sorted({max(512, round(x * 1024 / 512) * 512) for x in parse_sizes_kib(scn.sizes_kib)}))
        tp = _throughput(scn.profile_drive, sizes)
        fig = figure()
        for size, g in tp.groupby("request_bytes"):
            fig.add_scatter(x=g.mean_lbn_distance.clip(lower=1), y=g.throughput_MBps, mode="lines+markers",
                            name=f"{size / 1024:g} KiB")
        if str(scn.profile_drive).startswith("hdd-"):
            with user_errors("How sure? band"):  # the random end: seek, rpm and bandwidth sampled (closed form)
                from models.storage.uncertainty import hdd_model

                b = point_bands(S, scn, {sz: (lambda sz=sz: hdd_model(scn.profile_drive, size_bytes=sz))
                                         for sz in sizes}, key="hdd-tput")
                mbps = {q: b.x.to_numpy(float) / (b[c].to_numpy(float) * 1e3)  # size / service time
                        for q, c in (("lo", "p95"), ("mid", "p50"), ("hi", "p5"))}
                add_error_bars(fig, [float(tp.mean_lbn_distance.max())] * len(b), mbps["lo"], mbps["mid"],
                               mbps["hi"], n=scn.uq_samples, what="of a random request (closed form)")
        show(style(fig, x="mean inter-request LBN distance [sectors]", y="throughput [MB/s]", logx=True, logy=True),
             key="hdd-tput")
        assumption_note(hdd.drive_keys(scn.profile_drive))
        download_csv(tp, "hdd-throughput.csv", label="Download throughput curve (CSV)", key="dl-hdd-tput",
                     provenance=hdd.drive_keys(scn.profile_drive))
        st.caption("Back-to-back requests whose start-to-start jumps are exponential with the given mean; "
                   "half-rotation latency, no drive cache. The leftmost point is a sequential stream. Sizes are "
                   "rounded to whole 512 B sectors.")

# The model's coverage of the DiskSim description: every parameter of the drive files, honoured or ignored.
st.subheader("DiskSim parameters: honoured or ignored")
st.markdown("Every parameter that can appear in a bundled drive's `.diskspecs` or `.model` file, with what DiskSim "
            "4.0 does with it and what this model does: **honoured** (every value), **honoured for listed values** "
            "(the model implements those; another value is read as the nearest), **ignored** (with the reason; "
            "*values*: where ignoring it is exact) or **not applicable** (no effect on one drive serving one "
            "request at a time).")
cov = hdd.coverage_table()
show_table(cov)
download_csv(cov, "hdd-disksim-parameters.csv", label="Download the parameter table (CSV)", key="dl-hdd-cov")
drive_cov = hdd.drive_coverage(st.session_state[S.key("drive")])
off = drive_cov[~drive_cov.modelled]
st.caption(f"{st.session_state[S.key('drive')]}: {len(drive_cov)} parameters in its files, {len(off)} with a value "
           "the model does not reproduce: " + "; ".join(f"{p} = {v}" for p, v in zip(off.parameter, off.value)))

if scn is not None:
    with user_errors("How sure?"):
        from models.storage.uncertainty import hdd_model

        how_sure(S, scn, hdd_model(scn.profile_drive) if str(scn.profile_drive).startswith("hdd-") else None,
                 key="hdd", why_not="the random-request service time varies the figures of a catalogue HDD profile "
                                    "(hdd-...); a DiskSim drive is measured")
