"""Planner: one verdict per PCM role for *my* workloads and devices, and the library ranking (seed 000 §4.6)."""

from __future__ import annotations

import json
import math
from typing import Literal

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from pydantic import Field, field_validator, model_validator

from app.components import Scenario, download_csv, scenario_controls, user_errors
from app.components.charts import ratio_axis, show, style
from app.components.claims import claims_strip
from app.components.devices import (
    DeviceName,
    all_devices,
    custom_device_form,
    device_csv_controls,
)
from app.components.devices import device_names as _device_names
from app.components.errors import md_escape
from app.components.how_sure import UncertaintyFields
from app.components.inputs import SciInt, field_note, float_input, int_input
from app.components.progress import progress_bar
from app.components.provenance import assumption_note
from app.components.scenario import init_state, some_of
from app.components.sweep_panel import sweep_panel
from app.components.tables import table, text_table
from app.components.traces import trace_format_controls
from app.components.uploads import forget_uploads, workload_from_bytes
from models import planner
from models.devices import DeviceProfile
from models.planner.economics import usd_words
from models.planner.paper_gap import NO_PAPER_NUMBER, PAPER_CLAIM
from models.planner.plan import (
    EVALUATED,
    ROLE_LEDGER_PAGES,
    ROLES_PLAN,
    plan,
    role_metric,
    workload_from_path,
)
from models.provenance import param
from models.storage.filebench import bundled_personalities
from models.traces import bundled_traces
from reporting.planner_report import (
    ledger_confidence,
    plan_report_html,
    report_html,
    role_chart,
    validation_summary,
)
from reporting.planner_targets_report import plan_row_frontier, targets_section, targets_table

#: Colours of a verdict (bars and table cells): the device wins / loses against the baseline.
WIN_COLOUR, LOSE_COLOUR = "#2e7d32", "#c62828"
#: Colour of "about the same" (a tie within the band or the tolerance ``planner.tie_tolerance``).
TIE_COLOUR = "#1565c0"
#: Colour of each verdict with a value.
VERDICT_COLOUR = {"wins": WIN_COLOUR, "about the same": TIE_COLOUR, "loses": LOSE_COLOUR}
#: A chart's metric wraps onto lines of at most this many characters (its axis title reads whole at 800 px).
METRIC_WRAP = 40
#: Largest number of devices compared side by side.
MAX_DEVICES = 3


def _trace_names() -> list[str]:
    return [t for t in bundled_traces() if not t.startswith("disksim:")]


def _library() -> list[str]:
    """Workloads the "My workload" section offers from the library: block traces, memory traces, Filebench."""
    return [*_trace_names(), *bundled_traces("memory"), *bundled_personalities()]


Personalities = some_of(bundled_personalities, what="personality")
Traces = some_of(_trace_names, what="trace")
Library = some_of(_library, what="library workload")


def parse_prices(text: str) -> dict[str, float]:
    """``"device=price, device=price"`` [USD per GB] -> {device: price}; ValueError saying what is wrong.

    >>> parse_prices("pcm-memext=2.5, optane-dcpmm = 8")
    {'pcm-memext': 2.5, 'optane-dcpmm': 8.0}
    """
    out: dict[str, float] = {}
    for item in (x.strip() for x in str(text or "").replace(";", ",").split(",")):
        if not item:
            continue
        name, eq, val = item.rpartition("=")
        try:
            p = float(val)
        except ValueError:
            p = math.nan
        if not eq or not name.strip() or not (math.isfinite(p) and p > 0):
            raise ValueError(f"{item!r}: write device=price with a price > 0 in $ per GB, e.g. pcm-memext=2.5")
        out[name.strip()] = p
    return out


class PlannerScenario(Scenario, UncertaintyFields):
    PREFIX = "plan"
    # "My workload": the uploads themselves cannot travel in a link; the library picks, devices and options do
    library: Library = Field(default_factory=list, title="Library workloads")
    devices: list[DeviceName] = Field(default_factory=lambda: ["pcm-samsung-20nm", "optane-dcpmm"],
                                      title="Devices to compare")
    baseline: str = Field("like-for-like", title="Baseline")
    # no upper bound: a trace of any length streams (issue 41); the model takes any whole number >= 1 (0: None)
    plan_requests: SciInt = Field(0, ge=0, title="Requests per block trace (0 = the whole trace)")
    plan_mem_refs: SciInt = Field(0, ge=0, le=10**12, title="References per memory trace (0 = the whole trace)")
    plan_uq: bool = Field(False, title="Uncertainty bands (How sure?)")
    # "Product targets" (inverse design, models.planner.targets)
    targets_on: bool = Field(False, title="Find the spec targets")
    target_speedup: float = Field(1.0, gt=0, le=1e6, description="speedup each spec target solves for [x]",
                                  title="Target speedup [×]")
    frontier_x: Literal["write_latency_ns", "read_latency_ns", "write_bandwidth_MBps", "price_usd_per_GB",
                        "endurance_writes_per_cell"] = Field("write_latency_ns", title="Frontier x axis")
    frontier_y: Literal["read_latency_ns", "write_latency_ns", "write_bandwidth_MBps", "price_usd_per_GB",
                        "endurance_writes_per_cell"] = Field("read_latency_ns", title="Frontier y axis")
    # economics (issue 37): the horizon, whole modules, the user's prices
    horizon_years: float = Field(param("planner.horizon_years").value, gt=0, le=50, title="Planning horizon [years]")
    module_gb: float = Field(0.0, ge=0, le=1e6, title="Module / drive size [GB] (0 = each device's smallest product)")
    prices: str = Field("", max_length=2000, title="Prices [$/GB] (device=price, ...)")
    # "Library ranking"
    personalities: Personalities = Field(default_factory=lambda: ["fileserver", "webserver", "webproxy", "varmail"],
                                         title="Filebench personalities")
    traces: Traces = Field(default_factory=lambda: ["synthetic:mail", "synthetic:web-server", "mqsim:tpcc-small"],
                           title="Block traces")
    threads: SciInt = Field(50, ge=1, le=256, title="Threads (Filebench)")
    n_requests: SciInt = Field(0, ge=0, title="Requests per block trace (0 = the whole trace)")
    memory: bool = Field(True, title="Memory roles")
    # typed as text (int_input): read 1e3
    uq_samples: SciInt = Field(1000, ge=16, le=100_000, description="uncertainty samples [-]",
                               title="Samples per workload (How sure?)")
    uq_seed: SciInt = Field(0, ge=0, le=2**31 - 1, description="seed of the uncertainty samples [-]",
                            title="Seed (How sure?)")

    @field_validator("devices")
    @classmethod
    def _few_devices(cls, v: list[str]) -> list[str]:
        if not 1 <= len(v) <= MAX_DEVICES:
            raise ValueError(f"pick 1 to {MAX_DEVICES} devices (got {len(v)})")
        return v

    @field_validator("prices")
    @classmethod
    def _prices_parse(cls, v: str) -> str:
        parse_prices(v)
        return v

    @model_validator(mode="after")
    def _two_frontier_specs(self) -> PlannerScenario:
        if self.frontier_x == self.frontier_y:
            raise ValueError("frontier_y: pick another spec than the x axis's")
        return self

    @model_validator(mode="after")
    def _known_baseline(self) -> PlannerScenario:
        valid = ["like-for-like", *_device_names()]
        if self.baseline not in valid:
            raise ValueError(f"baseline: unknown baseline {self.baseline!r}; valid: {', '.join(valid)}")
        return self


S = PlannerScenario
# a device just saved with the form below joins the comparison (set before the widgets of this run)
_pending = st.session_state.pop("plan.__adddev", None)
init_state(S)
if _pending and isinstance(st.session_state.get(S.key("devices")), list):
    devs_now = [d for d in st.session_state[S.key("devices")] if d != _pending]
    st.session_state[S.key("devices")] = [*devs_now[:MAX_DEVICES - 1], _pending]


# ----------------------------------------------------------------------------- library ranking (cached)
@st.cache_data(show_spinner=False, max_entries=8, ttl=3600)
def _rank(personalities: tuple, traces: tuple, threads: int, n_requests: int, memory: bool, uq_samples: int = 0,
          uq_seed: int = 0):
    return planner.rank_workloads(personalities, traces, threads=threads, n_requests=n_requests or None, memory=memory,
                                  uncertainty=uq_samples, seed=uq_seed)


@st.cache_data(show_spinner=False, max_entries=8, ttl=3600)
def _charts(personalities: tuple, traces: tuple, threads: int, n_requests: int, memory: bool, uq_samples: int = 0,
            uq_seed: int = 0) -> dict:
    """The chart of each role of :func:`_rank`'s ranking (same key): built once, not per rerun."""
    df = _rank(personalities, traces, threads, n_requests, memory, uq_samples, uq_seed)
    return {role: role_chart(df, role) for role in planner.ROLES if ((df.role == role) & (df.status == "ok")).any()}


@st.cache_data(show_spinner=False, max_entries=4, ttl=3600)
def _report(personalities: tuple, traces: tuple, threads: int, n_requests: int, memory: bool, uq_samples: int = 0,
            uq_seed: int = 0) -> str:
    """The HTML report of :func:`_rank`'s ranking (same key; plotly inlined: megabytes, built on download)."""
    return report_html(_rank(personalities, traces, threads, n_requests, memory, uq_samples, uq_seed))


# ----------------------------------------------------------------------------- my workload (cached by content)
@st.cache_data(show_spinner=False, max_entries=8, ttl=3600)
def _plan(workloads: tuple, devices: tuple, baseline: str, uq: int, seed: int, counts: tuple, econ: tuple = ()):
    """:func:`models.planner.plan.plan` of ``workloads`` (``(name, kind, source, shown_as, trace format, reader
    options as JSON)``; an upload's source
    is a file named by its content hash, shown as the user's file name) and ``devices`` (profiles as JSON: a custom device edited under the same
    name is another key); ``baseline``: "like-for-like" or a profile as JSON; ``econ``: ``(horizon_years,
    module_GB or 0, ((device, price), ...))``; ``counts``: ``(requests per block trace, references per memory trace)``,
    0 = the whole trace."""
    from models.planner.plan import PlanWorkload

    devs = [DeviceProfile.model_validate_json(d) for d in devices]
    base = baseline if baseline == "like-for-like" else DeviceProfile.model_validate_json(baseline)
    wls = [PlanWorkload(name=n, kind=k, source=s, shown_as=a, trace_format=f, reader_options=json.loads(o))
           for n, k, s, a, f, o in workloads]
    horizon, module, prices = econ or (None, 0, ())
    with progress_bar("Evaluating your workloads in every role …") as report:
        last = [0.0]  # a streamed trace's read (issue 41): its pass, share read and time left beside the bar

        def done(fraction: float) -> None:
            last[0] = fraction
            report(fraction)

        return plan(wls, devs, baseline=base, uncertainty=uq, seed=seed, n_requests=counts[0] or None,
                    memory_refs=counts[1] or None, progress=done, read_progress=lambda text: report(last[0], text), horizon_years=horizon,
                    module_GB=module or None, prices=dict(prices))


@st.cache_data(show_spinner=False, max_entries=4, ttl=3600)
def _targets(workloads: tuple, devices: tuple, baseline: str, uq: int, seed: int, counts: tuple, econ: tuple,
             target: float):
    """:func:`models.planner.targets.targets_of_plan` of :func:`_plan`'s plan (same key), without its retimers."""
    import dataclasses

    from models.planner.targets import targets_of_plan

    res = _plan(workloads, devices, baseline, uq, seed, counts, econ)
    with progress_bar("Finding the spec targets …") as report:
        t = targets_of_plan(res, target=target, n_requests=counts[0] or None, memory_refs=counts[1] or None,
                            progress=report)
    return dataclasses.replace(t, retimers=())


@st.cache_data(show_spinner=False, max_entries=8, ttl=3600)
def _frontier(workloads: tuple, devices: tuple, baseline: str, uq: int, seed: int, counts: tuple, econ: tuple,
              target: float, row: tuple, spec_x: str, spec_y: str):
    """The frontier chart of one plan row ``(workload, role, device)`` (:func:`reporting.planner_targets_report.plan_row_frontier`)."""
    res = _plan(workloads, devices, baseline, uq, seed, counts, econ)
    with st.spinner("Drawing the frontier …"):
        return plan_row_frontier(res, *row, spec_x, spec_y, target=target, n_requests=counts[0] or None,
                                 memory_refs=counts[1] or None)


@st.cache_data(show_spinner=False, max_entries=4, ttl=3600)
def _plan_html(workloads: tuple, devices: tuple, baseline: str, uq: int, seed: int, counts: tuple,
               econ: tuple = (), target: float | None = None, frontier: tuple | None = None) -> str:
    """The HTML report; with ``target``, its "Product targets" section, the frontier over the page's ``frontier``
    pair (None: the report's default)."""
    res = _plan(workloads, devices, baseline, uq, seed, counts, econ)
    if target is None:
        return plan_report_html(res)
    from models.planner.targets import targets_of_plan

    t = targets_of_plan(res, target=target, n_requests=counts[0] or None, memory_refs=counts[1] or None)
    return plan_report_html(res, extra_sections=[targets_section(t, *([frontier] if frontier else []))])


@st.cache_data(show_spinner=False, max_entries=4, ttl=3600)
def _plan_pdf(workloads: tuple, devices: tuple, baseline: str, uq: int, seed: int, counts: tuple,
              econ: tuple = (), target: float | None = None) -> bytes:
    from reporting.pdf import plan_report_pdf

    res = _plan(workloads, devices, baseline, uq, seed, counts, econ)
    if target is None:
        return plan_report_pdf(res)
    from models.planner.targets import targets_of_plan

    return plan_report_pdf(res, targets=targets_of_plan(res, target=target, n_requests=counts[0] or None,
                                                        memory_refs=counts[1] or None))


@st.cache_data(show_spinner=False, max_entries=4)
def _validation(roles: tuple) -> dict:
    """Role -> its models' validation-ledger status in words (:func:`reporting.planner_report.validation_summary`)."""
    t = validation_summary(list(roles))
    return {r: f"{s} (of {n} ledger claims)" if n else s for r, s, n in zip(t.role, t.summary, t.claims)}


def _spec_words(spec: str) -> str:
    from models.planner.targets import SPECS

    return f"{SPECS[spec][2]} [{SPECS[spec][0]}]"


def _ratio(v: float) -> str:
    if not math.isfinite(v):
        return "–"
    return f"{v:,.0f}×" if v >= 100 else f"{v:.3g}×"


def verdict_chart(df, role: str) -> go.Figure | None:
    """One role of a plan: baseline / device [×] per workload · device as bars from the 1× line on a log
    axis (right and green: the device wins; left and red: it loses), p5–p95 whiskers when sampled."""
    sub = df[(df.role == role) & df.verdict.isin(EVALUATED)]
    if not len(sub):
        return None
    vals = sub.value.to_numpy(float)
    labels = [f"{w} · {d}" for w, d in zip(sub.workload, sub.device)]  # raw: show() escapes user names once
    colours = [VERDICT_COLOUR[v] for v in sub.verdict]
    fig = go.Figure(go.Bar(
        x=vals - 1.0, base=np.ones(len(vals)), y=labels, orientation="h", marker_color=colours, name="baseline / device",
        text=[_ratio(v) for v in vals], textposition="outside", cliponaxis=False,
        customdata=np.stack([vals, sub.baseline.astype(str)], axis=-1),
        hovertemplate="%{y}: %{customdata[0]:.4g}× vs %{customdata[1]}<extra></extra>"))
    p5, p95 = sub.p5.to_numpy(float), sub.p95.to_numpy(float)
    band = np.isfinite(p5) & np.isfinite(p95)
    if band.any():
        fig.add_scatter(x=np.where(band, vals, np.nan), y=labels, mode="markers", name="p5–p95",
                        marker=dict(color="rgba(0,0,0,0)", size=1),
                        error_x=dict(type="data", symmetric=False, array=np.where(band, np.maximum(p95 - vals, 0), 0),
                                     arrayminus=np.where(band, np.maximum(vals - p5, 0), 0), thickness=1.5, width=6,
                                     color="#888"),  # 3.5:1 on white, 5:1 on the dark theme
                        hovertemplate="%{y}: p5–p95 band<extra></extra>")
    metric = sub.metric.iloc[0]
    # the role as the title and the metric over its unit on two lines: both read whole at 800 px
    import textwrap

    x_title = "<br>".join([*textwrap.wrap(metric, METRIC_WRAP), "[×, baseline / device; > 1×: the device wins]"])
    style(fig, title=role, x=x_title, y="workload · device")
    allv = np.concatenate([vals, p5[band], p95[band]])
    # room for the value labels; the 1x label above the plot, where no bar covers it
    ratio_axis(fig, "x", values=allv * 1.6, label="1× = baseline", above=True)
    fig.update_yaxes(autorange="reversed", type="category")
    # a right margin for the value label past the longest bar (drawn outside the plot: cliponaxis=False)
    fig.update_layout(showlegend=False, height=160 + 42 * len(sub), bargap=0.35, margin_r=60)
    return fig


def price_table(names) -> pd.DataFrame:
    """The price of each device the planner can compare, with its range, date and kind (the catalogue's or the
    user's custom device's)."""
    devs = all_devices()
    rows = []
    for n in names:
        d = devs[n]
        lo, hi = d.price_usd_per_GB_low, d.price_usd_per_GB_high
        rows.append({"device": n, "price used [$/GB]": f"{d.price_usd_per_GB:.3g}" if lo is not None else "needs data",
                     "range [$/GB]": "" if lo is None else f"{lo:.3g}–{(hi if hi is not None else lo):.3g}",
                     "date": d.price_date, "kind": d.value_kind("price_usd_per_GB_low") if lo is not None else ""})
    return pd.DataFrame(rows, columns=["device", "price used [$/GB]", "range [$/GB]", "date", "kind"])


def economics_table(df: pd.DataFrame, res) -> pd.DataFrame:
    """The plan's economics beside its verdicts, one row per evaluated workload · role · device, numbers as text
    ("" where not known), the date of each price next to it."""
    ev = df[df.verdict.isin(EVALUATED)]
    dates = {d.name: d.price_date for d in res.devices}

    def num(v, fmt):
        return fmt.format(v) if isinstance(v, float) and math.isfinite(v) else ("never" if v == math.inf else "")

    out = pd.DataFrame({
        "workload": ev.workload, "role": ev.role, "device": ev.device, "verdict": ev.verdict,
        "economic verdict": ev.economic_verdict,
        "capacity [GB]": [num(v, "{:.3g}") for v in ev.capacity_GB],
        "price [$/GB]": [num(v, "{:.3g}") + (f" ({dates.get(d)})" if dates.get(d) and math.isfinite(v) else "")
                         for v, d in zip(ev.price_usd_per_GB, ev.device)],
        "cost over the horizon [$]": [usd_words(v).removeprefix("$") if math.isfinite(v) else "" for v in ev.cost_usd],
        "written [MB/s]": [num(v / 1e6, "{:.3g}") if math.isfinite(v) else "unknown" for v in ev.bytes_written_per_s],
        "lifetime [years]": [num(v, "{:.3g}") if not math.isnan(v) else "unknown" for v in ev.lifetime_years],
        "replacements [-]": [num(v, "{:,.0f}") for v in ev.replacements],
        "cost per work vs baseline [×]": [num(v, "{:.3g}") for v in ev.cost_per_work_vs_baseline],
        "why": ev.economic_reason})
    return out.reset_index(drop=True)


def _paper_gap(role: str, notes: dict) -> None:
    """Under a role's ledger status: why each of its rows far from the seed paper's answer differs (one
    sentence per row, :mod:`models.planner.paper_gap`), or that no paper reports this role's quantity."""
    mine = [(w, d, n) for (w, r, d), n in notes.items() if r == role]
    if mine:
        st.markdown("\n".join(f"- :material/compare_arrows: **Far from the paper** · {md_escape(w)} · {md_escape(d)}: "
                              f"{md_escape(n, 800)}" for w, d, n in mine))
    elif role not in PAPER_CLAIM:
        st.caption(f"Against the seed papers: {NO_PAPER_NUMBER}.")


def _uploaded_workloads() -> list[tuple[str, str, str, str, str, str]]:
    """The uploaded workloads with the names the user gave them. Under each name field: why that file is
    left out (it cannot be read, or its name is another workload's)."""
    ups = st.session_state.get("plan.uploads") or []
    lib = st.session_state.get(S.key("library"))
    taken = {str(n) for n in lib} if isinstance(lib, list) else set()  # a library pick is named by itself
    out = []
    for up in ups:
        nkey = f"plan.wname.{up.file_id}"
        default = up.name.rsplit(".", 2 if up.name.endswith((".gz", ".zst")) else 1)[0] or up.name
        st.session_state.setdefault(nkey, default)
        label = f"Name of {up.name}"  # raw: escaped where shown (a widget label renders Markdown)
        name = st.text_input(f"Name of {md_escape(up.name)}", key=nkey, max_chars=120)
        name = (name or "").strip() or default
        slot = st.container()  # why the file is left out: right under its name field
        # the trace pages' own format select and CSV column mapping (one component), per uploaded file
        with st.expander(f"Trace format of {md_escape(up.name)}", icon=":material/tune:"):
            try:
                fmt, opts = trace_format_controls(f"plan.fmt.{up.file_id}")
            except ValueError as e:
                slot.error(md_escape(f"{up.name}: {e} -- left out", 400), icon=":material/error:")
                continue
        try:
            w = workload_from_bytes(up.getvalue(), up.name, name=name, trace_format=fmt, reader_options=opts)
        except (ValueError, OSError) as e:
            slot.error(md_escape(f"{up.name}: {e} -- left out", 400), icon=":material/error:")
            continue
        if w.name in taken:
            slot.error(f"**{md_escape(label)}**: " + md_escape(f"{w.name!r} is already the name of another workload; "
                                                              "give this one another name -- left out until then", 400),
                       icon=":material/error:")
            continue
        taken.add(w.name)
        slot.caption(f"{md_escape(up.name)}: read as a **{w.kind}** workload")
        out.append((w.name, w.kind, w.source, w.shown_as, w.trace_format, json.dumps(w.reader_options, sort_keys=True)))
    return out


def _product_targets(scn, key: tuple, df) -> None:
    """The "Product targets" section: the spec targets of every row and the frontier of the row the user picks."""
    st.subheader("Product targets")
    if not scn.targets_on:
        st.caption("Tick **Find the spec targets** (Devices → Product targets) for the read/write latency, write "
                   "bandwidth, endurance and price each role is won at, and a frontier chart over two of them.")
        return
    t = _targets(*key, scn.target_speedup)
    goal = "breaks even" if scn.target_speedup == 1 else f"reaches {scn.target_speedup:g}×"
    st.caption(f"The value of each spec at which the role {goal}, the device's other specs held; endurance: the "
               "value at which the role's capacity lasts the planning horizon, price: the value at which its cost per "
               "unit of work equals the baseline's (from the economics above). Band: the break-even with the held "
               "inputs (the device's other specs, the baseline's, the economics inputs) at the ends of their "
               "provenance ranges that favour the device and that do not; 'not sampled' where none has a range.")
    tt = targets_table(t)
    text_table(tt)
    download_csv(t.to_frame(), "pcm-targets.csv", label="Download spec targets (CSV)", key="dl-plan-targets")
    rows = [tuple(r) for r in df[df.verdict.isin(EVALUATED)][["workload", "role", "device"]].itertuples(index=False)]
    if not rows:
        return
    pick = st.selectbox("Frontier of", rows, format_func=lambda r: " · ".join(map(str, r)), key="plan.frontier_row")
    fig = _frontier(*key, scn.target_speedup, tuple(pick), scn.frontier_x, scn.frontier_y)
    show(fig, key="plan-frontier")
    st.caption("Green: the role is won on every axis's criterion (a latency or bandwidth: value ≥ the target; price: "
               "cost per unit of work ≤ the baseline's; endurance: the role's capacity lasts the planning horizon); "
               "red: not. No region is drawn where a criterion cannot be evaluated (no price, a baseline with no "
               "device to price, an unknown lifetime). Catalogue devices are marked at their own two specs (their "
               "other specs differ: a marker places a device, it is not its verdict); the star is the row's device. "
               "Dashed / dotted: the boundary with the held inputs at the ends of their provenance ranges that favour "
               "the device / that do not.")


# ----------------------------------------------------------------------------- page
st.title("Planner: does PCM pay off for my workload?")
claims_strip("planner")
st.markdown(
    "Bring your workloads and a shortlist of devices: every workload is run through the project's models in each "
    "role PCM (or another SCM) can play -- **file-cache tier**, **storage** for file workloads, **paging device**, "
    "**memory extension** behind DRAM, **write cache** in front of an HDD -- and gets one verdict per device: how "
    "much it wins or loses against the baseline, how sure, and why. The **Library ranking** tab ranks the bundled "
    "workloads instead (seed 000 §4.6: PCM storage pays for *many syncs, write-intensive, low locality, ~4 KB I/O*).")

with st.expander("How sure? (uncertainty samples)", icon=":material/query_stats:"):
    u1, u2 = st.columns(2)
    int_input(S, "uq_samples", container=u1,
              help="Uncertain inputs sampled per row: p5/p95 of the value, the share of samples where the device wins "
                   "(p_win) and the input that moves the answer most (docs/uncertainty.md)")
    int_input(S, "uq_seed", container=u2)

tab_mine, tab_lib = st.tabs(["My workload", "Library ranking"], key="plan.tab", on_change="rerun")

if tab_mine.open:
    with tab_mine:
        w_col, d_col = st.columns(2, gap="large")
        with w_col:
            st.subheader("Workloads")
            st.file_uploader(
                "Upload workloads", accept_multiple_files=True, key="plan.uploads",
                help="Block I/O traces (MSR, SPC, blkparse, MQSim, Alibaba, Tencent, libCacheSim oracleGeneral, lcs, "
                     "vscsi and plain text, ... CSV with or without its header "
                     "line; plain, gzip or zstd), memory traces (valgrind lackey or the compact .npz format), Filebench "
                     ".f files, fio job files or fio --output-format=json results. Name each one below; a trace "
                     "detection cannot tell (e.g. a libCacheSim CSV whose op column holds SCSI opcodes, or a vscsi or "
                     "plain-text trace) takes its format and column mapping under 'Trace format of …', as on the "
                     "trace pages.")
            uploaded = _uploaded_workloads()
            st.multiselect(S.label("library"), _library(), key=S.key("library"),
                           help="Bundled block traces, memory traces (lackey) and Filebench personalities")
            field_note(S, "library")
            int_input(S, "plan_requests", help="0 (default): every request of each block trace; a number: only the "
                                               "first ones (each verdict says how many it used of how many read)")
            int_input(S, "plan_mem_refs", help="0 (default): every reference of each memory trace, read twice in "
                                               "chunks when it does not fit the server's memory budget "
                                               "(PCM_MEMORY_BUDGET) whole; a number: only the first ones (each "
                                               "verdict says how many it used)")
        with d_col:
            st.subheader("Devices")
            names = _device_names()
            st.session_state[S.key("devices")] = [d for d in st.session_state[S.key("devices")] if d in names]
            st.multiselect(S.label("devices"), names, key=S.key("devices"), max_selections=MAX_DEVICES,
                           help="1 to 3 devices side by side: the catalogue and your custom devices")
            field_note(S, "devices")
            st.selectbox(S.label("baseline"), ["like-for-like", *names], key=S.key("baseline"),
                         help="like-for-like: each role's own baseline (file cache: HDD, storage and paging: SATA SSD, "
                              "memory extension: NAND Flash, write cache: no cache); or one device for every role")
            field_note(S, "baseline")
            st.checkbox(S.label("plan_uq"), key=S.key("plan_uq"),
                        help="p5–p95 of each value, P(device wins) and the decisive input, from the samples set above")
            with st.expander("Product targets (inverse design)", icon=":material/target:"):
                st.checkbox(S.label("targets_on"), key=S.key("targets_on"),
                            help="For each role, the read/write latency and write bandwidth at which the device breaks "
                                 "even (or reaches the target speedup), the other specs held; re-times the roles' "
                                 "counts, simulated once (pcm-planner targets)")
                float_input(S, "target_speedup", help="1: break even with the baseline; 2: twice as fast")
                st.selectbox(S.label("frontier_x"), ["write_latency_ns", "read_latency_ns", "write_bandwidth_MBps",
                                                     "price_usd_per_GB", "endurance_writes_per_cell"],
                             key=S.key("frontier_x"), format_func=_spec_words)
                field_note(S, "frontier_x")
                st.selectbox(S.label("frontier_y"), ["read_latency_ns", "write_latency_ns", "write_bandwidth_MBps",
                                                     "price_usd_per_GB", "endurance_writes_per_cell"],
                             key=S.key("frontier_y"), format_func=_spec_words)
                field_note(S, "frontier_y")
            with st.expander("Economics: prices, horizon, module size", icon=":material/payments:"):
                e1, e2 = st.columns(2)
                float_input(S, "horizon_years", container=e1,
                            help="a role's cost counts the replacements its wear-out needs within this horizon "
                                 "(planner.horizon_years, assumed)")
                float_input(S, "module_gb", container=e2,
                            help="each role's capacity rounded up to whole modules/drives of this size (0: of "
                                 "each device's smallest product, the catalogue's module_GB; the exact capacity "
                                 "the role uses when none is known)")
                st.text_input(S.label("prices"), key=S.key("prices"),
                              help="your price for a device, overriding the catalogue's range, e.g. "
                                   "pcm-samsung-20nm=3.5, optane-dcpmm=8 (the compared devices and the baselines)")
                field_note(S, "prices")
                st.caption("Catalogue prices (middle of the range is used; a device without one says "
                           "\"needs data: price\"):")
                text_table(price_table(names))
            with st.expander("Add a custom device", icon=":material/add_circle:"):
                custom_device_form("plan.cdev", on_saved=lambda p: st.session_state.update({"plan.__adddev": p.name}),
                                   narrow=True)
                device_csv_controls("plan.cdev", narrow=True)

if tab_lib.open:
    with tab_lib:
        lib_in, lib_out = st.columns([1, 2])
        with lib_in:
            _traces = _trace_names()
            st.multiselect(S.label("personalities"), bundled_personalities(), key=S.key("personalities"))
            field_note(S, "personalities")
            st.session_state[S.key("traces")] = [t for t in st.session_state[S.key("traces")] if t in _traces]
            st.multiselect(S.label("traces"), _traces, key=S.key("traces"))
            field_note(S, "traces")
            int_input(S, "threads")
            int_input(S, "n_requests", help="0 (default): each bundled block trace whole and 20,000 requests "
                                             "generated per synthetic preset; a number: the first that many requests "
                                             "of each bundled trace, that many generated per preset")
            st.checkbox(S.label("memory"), key=S.key("memory"))

scn = scenario_controls(S, page="planner")

if scn is not None and tab_mine.open:
    with tab_mine, user_errors("Planner"):
        lib = [workload_from_path(n) for n in scn.library]
        wls = [*uploaded, *((w.name, w.kind, w.source, w.shown_as, w.trace_format, "{}") for w in lib)]
        names_seen = [w[0] for w in wls]
        dup = sorted({n for n in names_seen if names_seen.count(n) > 1})
        if dup:
            raise ValueError(f"workload names must be distinct; rename: {', '.join(dup)}")
        if not wls:
            st.info("Upload a workload or pick one from the library to get the verdicts.", icon=":material/upload_file:")
        else:
            devs = all_devices()
            base_key = scn.baseline if scn.baseline == "like-for-like" else devs[scn.baseline].model_dump_json()
            key = (tuple(wls), tuple(devs[d].model_dump_json() for d in scn.devices), base_key,
                   scn.uq_samples if scn.plan_uq else 0, scn.uq_seed, (scn.plan_requests, scn.plan_mem_refs),
                   (scn.horizon_years, scn.module_gb, tuple(sorted(parse_prices(scn.prices).items()))))
            res = _plan(*key)
            df = res.to_frame()
            failed = {wname for wname, _ in res.errors}
            forget_uploads(w[2] for w in uploaded if w[0] in failed)  # an upload that did not read is not kept
            for wname, msg in res.errors:  # each upload fails alone: its error under its own name, the others stand
                st.error(f"**{md_escape(wname)}** could not be read; the other workloads are evaluated. "
                         + md_escape(msg, 600), icon=":material/error:")
            notes = res.paper_notes()
            st.subheader("Verdicts")
            ok = df[df.verdict.isin(EVALUATED)]
            st.caption(f"{(ok.verdict == 'wins').sum()} wins, {(ok.verdict == 'about the same').sum()} about the same "
                       f"and {(ok.verdict == 'loses').sum()} losses over "
                       f"{len(ok)} evaluated workload × role × device rows; value = baseline / device [×] (> 1×: the "
                       "device wins). Each role below repeats its rows' reasons under its chart.")
            trust = _validation(tuple(ROLES_PLAN))
            short_trust = {r: ledger_confidence(r).removeprefix("ledger: ") for r in ROLES_PLAN}
            shown = df[["workload", "role", "device", "verdict"]].copy()
            # how well the role's models validate, beside the verdict (the ledger's claims of its pages)
            shown.insert(4, "validation (ledger)", [short_trust[r] for r in df.role])
            # numbers as text: "" (not "None") where a role does not apply or needs data
            cols = {"value": "value [×]", **({"p5": "p5 [×]", "p95": "p95 [×]", "p_win": "P(device wins) [-]"}
                                             if res.uncertainty else {})}
            for c, label in cols.items():
                shown[label] = [f"{v:.4g}" if math.isfinite(v) else "" for v in df[c].astype(float)]
            shown["reason"] = df.reason  # it names the baseline ("… than sata-ssd (as the storage)"); the CSV has both
            # a static table: each reason wraps and is read in full, no scrolling sideways (issue 17), and long
            # names break so it fits an 800 px window beside the sidebar (issue 38 item 9)
            text_table(shown, wrap_anywhere=True, cell_styles={"verdict": {
                "wins": f"color: {WIN_COLOUR}; font-weight: bold", "loses": f"color: {LOSE_COLOUR}; font-weight: bold",
                "about the same": f"color: {TIE_COLOUR}; font-weight: bold",
                "not applicable": "color: #808080", "needs data": "color: #b26a00"}})
            keys = list(res.provenance_keys)
            d1, d2, d3 = st.columns(3)
            with d1:
                download_csv(df, "pcm-plan.csv", label="Download verdicts (CSV)", key="dl-plan-mine", provenance=keys)
            tkey = scn.target_speedup if scn.targets_on else None
            pair = (scn.frontier_x, scn.frontier_y)
            d2.download_button("Download HTML report", lambda: _plan_html(*key, tkey, pair), file_name="pcm-plan.html",
                               mime="text/html", key="dl-plan-mine-html", icon=":material/description:")
            d3.download_button("Download PDF report", lambda: _plan_pdf(*key, tkey), file_name="pcm-plan.pdf",
                               mime="application/pdf", key="dl-plan-mine-pdf", icon=":material/picture_as_pdf:")
            st.subheader("Economics")
            st.caption(f"Capacity each role uses on the device (from the same simulation as the speed), its cost "
                       f"over {res.horizon_years:g} years including the replacements its wear-out needs under the "
                       "workload's write rate (lifetime: capacity × endurance × wear-leveling efficiency / rate, "
                       "lifetime.wear_efficiency), and the cost per unit of work against the baseline's "
                       "(> 1×: the device costs more per unit of work)."
                       + (f" Capacities rounded up to whole {res.module_GB:g} GB modules." if res.module_GB else
                          " Capacities rounded up to each device's smallest whole product (module / drive) where "
                          "the catalogue knows it; each row's why says which."))
            econ = economics_table(df, res)
            if len(econ):
                # the numbers side by side; each row's "why" (a paragraph) under them, read at full width
                text_table(econ.drop(columns="why"), cell_styles={"economic verdict": {"needs data": "color: #b26a00"}})
                with st.expander("Why: each row's capacity, cost and lifetime in words", expanded=False,
                                 icon=":material/help:"):
                    st.markdown("\n".join(f"- **{md_escape(w)} · {md_escape(r)} · {md_escape(d)}**: {md_escape(y, 1200)}"
                                           for w, r, d, y in zip(econ.workload, econ.role, econ.device, econ.why)))
                download_csv(econ, "pcm-plan-economics.csv", label="Download economics (CSV)",
                             key="dl-plan-econ", provenance=keys)
            else:
                st.caption("No evaluated row: nothing to price.")
            for role in ROLES_PLAN:
                sub = df[df.role == role]
                if not len(sub):
                    continue
                st.subheader(role)
                st.caption(f"How well this role's models validate (validation ledger, pages "
                           f"{', '.join(ROLE_LEDGER_PAGES[role])}): {trust[role]}.")
                _paper_gap(role, notes)
                fig = verdict_chart(df, role)
                if fig is not None:
                    show(fig, key=f"plan-mine-{role}")
                else:
                    st.caption(f"{role_metric(role)}: no workload × device row could be evaluated (see below).")
                lines = []
                for r in sub.itertuples():
                    who = f"**{md_escape(r.workload)} · {md_escape(r.device)}**"
                    if r.verdict in EVALUATED:
                        col = {"wins": "green", "loses": "red"}.get(r.verdict, "blue")
                        band = (f" (p5–p95 {r.p5:.3g}–{r.p95:.3g}×, P(win) {r.p_win:.0%})"
                                if math.isfinite(r.p5) and math.isfinite(r.p95) and math.isfinite(r.p_win) else "")
                        lines.append(f"- {who}: :{col}[**{r.verdict}** {_ratio(r.value)}]{band} — "
                                     f"{md_escape(r.reason, 600)}")
                    elif r.verdict == "not applicable":
                        lines.append(f"- {who}: :gray[**not applicable**] — {md_escape(r.reason.removeprefix('not applicable: '), 600)}")
                    else:
                        lines.append(f"- {who}: :orange[**needs data**] — {md_escape(r.reason.removeprefix('needs data: '), 600)}")
                st.markdown("\n".join(lines))
            assumption_note(keys)
            _product_targets(scn, key, df)

if scn is not None and tab_lib.open:
    with tab_lib, user_errors("Planner"):
        with st.spinner("Evaluating the workload library..."):
            df = _rank(tuple(scn.personalities), tuple(scn.traces), scn.threads, scn.n_requests, scn.memory,
                       scn.uq_samples, scn.uq_seed)
        with lib_out:
            table(df, key="plan-ranking")
            keys = planner.provenance_keys([r for r in planner.ROLES if (df.role == r).any()])
            assumption_note(keys)
            download_csv(df, "pcm-target-workloads.csv", label="Download ranking (CSV)", key="dl-plan",
                         provenance=keys)
            args = (tuple(scn.personalities), tuple(scn.traces), scn.threads, scn.n_requests, scn.memory,
                    scn.uq_samples, scn.uq_seed)
            charts = _charts(*args)
            st.download_button("Download HTML report (charts inline)", lambda: _report(*args),
                               file_name="pcm-target-workloads.html", mime="text/html", key="dl-plan-html",
                               icon=":material/description:")
        for role in planner.ROLES:
            sub = df[df.role == role]
            if not len(sub):
                continue
            st.subheader(role)
            if (sub.status == "ok").any():
                show(charts[role], key=f"plan-{role}")
                st.caption(planner.role_summary(sub))
            for r in sub[sub.status != "ok"].itertuples():
                st.info(f"{md_escape(r.workload)}: {md_escape(r.reason, 400)}", icon=":material/hourglass_empty:")
            assumption_note(planner.ROLE_PROVENANCE[role])
            download_csv(sub, f"pcm-{role}.csv", key=f"dl-plan-{role}", provenance=planner.ROLE_PROVENANCE[role])

sweep_panel()
