"""Storage / Device characterization: randomness, read/write asymmetry, mix, fio import (seed 001)."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
import plotly.express as px
import streamlit as st
from pydantic import Field

from app.components import Scenario, download_csv, scenario_controls, user_errors
from app.components.bands import (
    add_band,
    curve_band,
    device_char_read_model,
    device_char_ssd_ratio_model,
)
from app.components.charts import figure_from, ratio_axis, ref_line, show, style
from app.components.claims import claims_strip
from app.components.devices import add_custom_device
from app.components.errors import md_escape
from app.components.express import bar, line
from app.components.how_sure import UncertaintyFields, how_sure
from app.components.inputs import SciInt, field_note, fio_skipped_jobs, int_input
from app.components.lazy import lazy_tabs
from app.components.provenance import assumption_note, params_help
from app.components.scenario import init_state, model_field, some_of
from app.components.tables import table
from models.data import data_path
from models.provenance import param_names
from models.storage import device_char as dc

Profiles = some_of(lambda: list(dc.PRESETS), what="profile")


class DeviceCharScenario(Scenario, UncertaintyFields):
    PREFIX = "dch"
    profiles: Profiles = Field(default_factory=lambda: ["psd", "ssd"], title="Profiles")
    max_depth: SciInt = Field(64, ge=1, le=1024, title="Largest I/O depth")
    mix_pattern: Literal["rand", "seq"] = Field("seq", title="Mix: pattern")
    mix_depth: SciInt = Field(64, ge=1, le=1024, title="Mix: I/O depth (paper: 64)")
    mix_scheduling: Literal["preset", "fcfs", "read-priority"] = Field("preset", title="Mix: channel scheduling")
    example: Literal["none", "tmpfs", "disk"] = Field("disk", title="Bundled example")
    custom_name: str = model_field(dc.CharProfile, "name", default="my-fio-device", title="Name for the fitted device")


S = DeviceCharScenario


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def _mix(token: str, _profile: dc.CharProfile, pattern: str, depth: int, scheduling: str | None) -> pd.DataFrame:
    """:func:`dc.mix_sensitivity` of ``_profile`` (``token``: its values as JSON), simulated once per input."""
    return dc.mix_sensitivity(_profile, pattern, np.linspace(0, 1, 11), depth=depth, scheduling=scheduling)


@st.cache_data(show_spinner=False, max_entries=16, ttl=3600)
def _fit_example(example: str, name: str):
    """The profile fitted to a bundled fio example (read and fitted once per example and name)."""
    return dc.fit_profile(dc.read_fio_json(data_path(f"fio/{example}.json")), name)


#: The paper's three figures (lazy tabs): randomness vs depth, read/write asymmetry, read/write mix.
FIGURE_TABS = ("Random / sequential vs I/O depth (Fig. 1)", "Write / read (Fig. 2)", "Read/write mix (Fig. 3)")


def _random_seq_view(scn: DeviceCharScenario, profs: list[dc.CharProfile], keys: list[str]) -> None:
    """Random / sequential latency against the I/O depth (Fig. 1), with the SSD preset's band."""
    depths = np.unique(np.round(np.geomspace(1, scn.max_depth, 24))).astype(int)
    rows = []
    for p in profs:
        for op in ("read", "write"):
            r = dc.random_seq_ratio(p, op, depths)
            rows += [dict(profile=p.name, op=op, iodepth=int(d), rand_over_seq=float(x)) for d, x in zip(depths, r, strict=True)]
    ratio = pd.DataFrame(rows)
    fig = figure_from(line, ratio, "iodepth", "rand_over_seq", color="profile", line_dash="op", log_x=True)
    if "ssd" in scn.profiles:
        with user_errors("How sure? band"):  # the SSD preset's units and parallelism sampled per depth
            for op in ("read", "write"):
                b = curve_band(S, scn, lambda d, op=op: device_char_ssd_ratio_model(op, d),
                               tuple(float(d) for d in depths), key=f"dch-rs-{op}")
                add_band(fig, b.x, b.p5, b.p95, n=scn.uq_samples, what=f"of ssd {op}", of=f"ssd, {op}")
    style(fig, title="Random / sequential latency vs I/O depth (Fig. 1)", x="I/O depth [-]",
          y="random / sequential latency (×)")
    show(ratio_axis(fig, "y", label="random = sequential"), key="dch-rs")
    assumption_note(keys)
    download_csv(ratio, "random-seq-ratio.csv", key="dl-dch-rs", provenance=keys)


def _write_read_view(profs: list[dc.CharProfile], keys: list[str]) -> None:
    """Write / read latency of each profile, random and sequential (Fig. 2), against its 1× line."""
    asym = pd.DataFrame([dict(profile=p.name, pattern=pat, write_over_read=float(dc.write_read_ratio(p, pat)))
                         for p in profs for pat in ("rand", "seq")])
    fig = figure_from(bar, asym, "profile", "write_over_read", color="pattern", barmode="group", text_auto=".2f")
    ref_line(fig, y=1.0, text="1× (write = read)", dash="dash")  # a ratio reads against its 1× line
    show(style(fig, title="Write / read latency (Fig. 2)", x="device", y="write / read latency (×)"), key="dch-wr")
    assumption_note(keys)
    download_csv(asym, "write-read-ratio.csv", key="dl-dch-wr", provenance=keys)


def _mix_view(scn: DeviceCharScenario, profs: list[dc.CharProfile], keys: list[str]) -> None:
    """Read and write latency against the write fraction, relative to the 50/50 mix (Fig. 3; simulated)."""
    sched = None if scn.mix_scheduling == "preset" else scn.mix_scheduling
    mix = pd.concat([_mix(p.model_dump_json(), p, scn.mix_pattern, int(scn.mix_depth), sched)
                     .assign(profile=p.name, scheduling=sched or p.scheduling) for p in profs], ignore_index=True)
    long = mix.melt(id_vars=["profile", "write_fraction"], value_vars=["read_rel", "write_rel"],
                    var_name="request", value_name="latency_rel_50_50")
    fig = figure_from(line, long, "write_fraction", "latency_rel_50_50", color="profile", line_dash="request")
    style(fig, title="Latency vs read/write mix, relative to 50/50 (Fig. 3; simulated closed loop)",
          x="write fraction [-]", y="latency / latency at 50 % writes (×)")
    show(ratio_axis(fig, "y", label="50/50 mix"), key="dch-mix")
    assumption_note(keys)
    download_csv(mix, "rw-mix.csv", key="dl-dch-mix", provenance=keys)


init_state(S)
st.title("Device characterization")
claims_strip("device-characterization")
st.markdown(
    "Seed 001 compared a real PCM storage device (Micron PSD) with a SATA SSD: random/sequential latency vs I/O "
    "depth (PSD ≈ 1×, SSD up to 6×), write/read asymmetry (PSD up to 19×, SSD 1.5× random / 1.2× sequential) "
    "and sensitivity to the read/write mix. Each device is a station with service time *s* and *c* parallel "
    "units: completion latency at depth *d* is **s·max(1, d/c)** (exact MVA). In a read/write mix reads and "
    "writes share the units; the closed loop is simulated exactly, and the direction of the curves depends on "
    "the scheduling (FCFS or read priority). Upload your own "
    "`fio --output-format=json` results to fit *s* and *c*, compare model and measurement, and add the "
    "device to the catalogue for the other pages."
)
c1, c2 = st.columns([1, 2])
with c1:
    st.multiselect(S.label("profiles"), list(dc.PRESETS), key=S.key("profiles"),
                   help=params_help(param_names("device_char."),
                                    "Preset values and their provenance (the ratios were set to reproduce the "
                                    "paper's Figures 1-2, so those figures cannot validate them):"))
    field_note(S, "profiles")
    int_input(S, "max_depth")
    st.radio(S.label("mix_pattern"), ["rand", "seq"], key=S.key("mix_pattern"), horizontal=True)
    int_input(S, "mix_depth")
    st.radio(S.label("mix_scheduling"), ["preset", "fcfs", "read-priority"], key=S.key("mix_scheduling"),
             horizontal=True,
             help="Which waiting request a free unit serves. FCFS: the oldest, so fewer slow writes make every "
                  "request faster. Read priority (usual for PCM controllers): reads first, so a "
                  "write waits for the reads and degrades as the read share grows. Preset: each profile's own (FCFS for both presets).")

scn = scenario_controls(S, page="device-characterization")
if scn is not None:
    with user_errors("Device characterization"):
        profs = [dc.get_profile(p) for p in scn.profiles]
        keys = dc.profile_keys(scn.profiles)
        fitted = st.session_state.get("dch.fitted")
        if fitted is not None:
            profs.append(dc.CharProfile.model_validate(fitted))
        if not profs:
            raise ValueError("profiles: choose at least one profile")
        with c2:
            # one figure at a time: a change redraws one chart, not three
            fig1, fig2, fig3 = FIGURE_TABS
            lazy_tabs("dch.figure_tab", {fig1: lambda: _random_seq_view(scn, profs, keys),
                                         fig2: lambda: _write_read_view(profs, keys),
                                         fig3: lambda: _mix_view(scn, profs, keys)})

if scn is not None:
    with user_errors("How sure?"):
        both = {"psd", "ssd"} <= set(scn.profiles)
        how_sure(S, scn, device_char_read_model(scn.mix_depth) if both else None, key="dch",
                 why_not="the comparison needs both presets, psd and ssd (a fitted profile has no stated ranges)")

# Outside ``if scn``: the fio inputs stay on screen (with the upload) while another input is invalid.
st.subheader("Your device: fio JSON → fitted profile")
st.caption("Run e.g. the bundled job file `data/fio/pcm_planner.fio` with `fio --output-format=json` and upload "
           "the output; or pick a bundled example measured on our build machine.")
_uploaded = st.session_state.get("dch.upload") is not None
st.radio(S.label("example"), ["none", "tmpfs", "disk"], key=S.key("example"), horizontal=True, disabled=_uploaded,
         help="Not used while a file is uploaded: remove the upload to use an example.")
if _uploaded:
    st.caption("Using the uploaded file, not the bundled example.")
up = st.file_uploader("fio JSON output", type=["json", "txt"], key="dch.upload")
measured = None
if up is not None:  # read right here: a file that cannot be read (or a skipped job) is named under the upload
    with user_errors("fio JSON output"):
        measured = dc.read_fio_json(up.getvalue())
        skipped = fio_skipped_jobs(up.getvalue(), measured.job)
        if skipped:
            st.warning(f"{len(skipped)} of {len(skipped) + measured.job.nunique()} jobs skipped (no read or "
                       "write data with a positive size): " + ", ".join(md_escape(s) for s in skipped),
                       icon=":material/warning:")
st.text_input(S.label("custom_name"), key=S.key("custom_name"))
field_note(S, "custom_name")
if scn is not None:
    with user_errors("fio import"):
        fit = None
        if up is None and scn.example != "none":
            fit = _fit_example(scn.example, scn.custom_name)
        if measured is not None:
            fit = dc.fit_profile(measured, scn.custom_name)
        if fit is not None:
            prof, cmp_, dev = fit.profile, fit.comparison, fit.device
            fitted_df = fit.to_frame()
            table(fitted_df)
            download_csv(fitted_df, "fitted-profile.csv", label="Download fitted profile (CSV)", key="dl-dch-prof")
            fig = figure_from(px.scatter, cmp_, x="lat_mean_us", y="model_us", color="job", log_x=True, log_y=True)
            lo, hi = float(cmp_[["lat_mean_us", "model_us"]].min().min()), float(cmp_[["lat_mean_us", "model_us"]].max().max())
            fig.add_scatter(x=[lo, hi], y=[lo, hi], mode="lines", name="model = measurement", line_dash="dot")
            show(style(fig, title="Model vs measurement", x="measured latency [µs]", y="model latency [µs]"),
                 key="dch-fit")
            # an exactly fitted job's error is rounding noise (4.4e-16): shown as the 0 it is (the CSV keeps it)
            table(cmp_.assign(rel_error=cmp_["rel_error"].where(cmp_["rel_error"].abs() > 1e-12, 0.0)))
            download_csv(cmp_, "fio-model-vs-measurement.csv", key="dl-dch-fit")
            b1, b2 = st.columns(2)
            # on_click runs before the next run's script, so the charts above draw the profile in that run
            b1.button("Show fitted profile in the charts above", key="dch.show",
                      on_click=st.session_state.__setitem__, args=("dch.fitted", prof.model_dump()))
            if b2.button("Add as custom device", key="dch.add"):
                add_custom_device(dev)
                st.success(f"Added {dev.name!r} (read {dev.read_latency_ns / 1e3:.1f} µs, write "
                           f"{dev.write_latency_ns / 1e3:.1f} µs) to this session's devices.")
