"""Memory / NVM memory extension: DRAM:NVM ratio, PCM vs Flash, prefetching, replacement (seed 002 §5.2-6)."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
import streamlit as st
from pydantic import Field, field_validator, model_validator

from app.components import download_csv, scenario_controls, user_errors
from app.components.bands import add_band, curve_band
from app.components.charts import figure, one_to_n_ticks, ratio_axis, show, style
from app.components.claims import claims_strip
from app.components.devices import all_devices, device_field, device_picker
from app.components.errors import md_escape
from app.components.how_sure import UncertaintyFields, how_sure
from app.components.inputs import SciInt, field_note, float_input, int_input
from app.components.metrics import metric_row
from app.components.progress import progress_bar
from app.components.provenance import assumption_note, param_help
from app.components.scenario import field_range, init_state, model_field, one_of
from app.components.tables import scalar_text, table
from app.components.traces import TraceChoice, mem_trace_picker
from models.memory import memory_extension as me
from models.provenance import param
from reporting.plotly_text import plotly_text

FAST_KINDS = ("pcm", "scm")
SLOW_KINDS = ("flash", "ssd", "pcm")
FastDevice = device_field(FAST_KINDS)
SlowDevice = device_field(SLOW_KINDS)
DramFraction = one_of(me.DRAM_FRACTIONS, what="DRAM fraction", base=float)
# Model settings: MemExtConfig's fields (submission overhead and Flash write latency in µs on the page, ns there).
Cfg = me.MemExtConfig
BASE_NS_PER_REF = field_range(Cfg, "base_ns_per_ref")
FAULT_OVERHEAD_NS = field_range(Cfg, "fault_overhead_ns")
SUBMIT_US = field_range(Cfg, "submit_ns", unit=1e3)
FLASH_WRITE_US = field_range(Cfg, "write_ns", unit=1e3)
PREFETCH_DEPTH = field_range(Cfg, "prefetch_depth")


class MemExtScenario(TraceChoice, UncertaintyFields):
    PREFIX = "mx"
    # Default: the paper's own application Lulesh, traced here (seed 002 Figs. 10-11 plot each application's
    # slowdown vs the DRAM:NVM ratio); the synthetic patterns stay an option.
    stream_source: Literal["pattern", "trace"] = Field("trace", title="Page references from")
    trace_name: str = "lackey:lulesh"
    pattern: str = Field("working-set", title="Pattern")
    footprint_pages: SciInt = Field(2048, ge=16, le=1_000_000, title="Footprint [pages]")
    references: SciInt = Field(1_000_000, ge=1000, le=20_000_000, title="References [-]")
    refs_per_visit: SciInt = Field(256, ge=1, le=4096, title="References per page visit [-]")
    write_fraction: float = Field(0.3, ge=0, le=1, title="Written pages [-]")
    fast_device: FastDevice = Field("pcm-memext", title="Fast NVM")
    slow_device: SlowDevice = Field("nand-flash", title="Slow NVM")
    accounting: Literal["inclusive", "exclusive"] = Field("inclusive", title="Capacity accounting")
    policy: Literal["fifo", "clock", "age"] = "fifo"
    age_max: SciInt = model_field(Cfg, "age_max", title="Age-based counter maximum")
    base_ns_per_ref: float = model_field(Cfg, "base_ns_per_ref", title="DRAM-only time per reference t_ref [ns]")
    fault_overhead_ns: float = model_field(Cfg, "fault_overhead_ns", title="OS fault overhead besides the read [ns]")
    writeback: Literal["buffered", "sync"] = Field("buffered", title="Write-back")
    eviction_buffer_pages: SciInt = Field(param("memext.eviction_buffer_pages").value, ge=1, le=1 << 24,
                                          title="Eviction buffer [pages]")
    paper_fault_cost: bool = False
    trace_time_base: bool = Field(True, title="Use the traced program's measured t_ref when it has one")
    cold_start_in_nvm: bool = Field(False, title="Pages start in NVM")
    flash_write_us: list[str] = Field(["25", "100", "200", "400"], title="Flash write latencies [µs]")
    prefetch_depths: list[str] = Field(["0", "1", "2", "4", "8", "16"], title="Prefetch depths [pages]")
    prefetch_frac: DramFraction = Field(param("memext.dram_frac").value, title="Prefetch DRAM:NVM ratio")
    prefetch_threshold: SciInt = model_field(Cfg, "prefetch_threshold", title="Repeats to confirm a stride")
    prefetch_strides: int = model_field(Cfg, "prefetch_strides")
    submit_us: float = model_field(Cfg, "submit_ns", unit=1e3, title="Submission overhead [µs]")
    # issue 39 variants: when the fault handler submits prefetch work, and MFWR's CPU time per page written
    prefetch_submit: Literal["confirmed", "every-fault"] = Field("confirmed", title="Prefetch submitted")
    mfwr: bool = Field(False, title="MFWR: compress each page written (its CPU time per page)")
    mfwr_us: float = model_field(Cfg, "mfwr_ns", unit=1e3, default=param("memext.mfwr_ns_per_page").value / 1e3,
                                 title="MFWR CPU time per page written [µs]")

    @field_validator("pattern")
    @classmethod
    def _pattern(cls, v: str) -> str:
        if v not in me.SYNTHETIC_PATTERNS:
            raise ValueError(f"unknown pattern {v!r}; valid: {', '.join(me.SYNTHETIC_PATTERNS)}")
        return v

    @field_validator("flash_write_us", "prefetch_depths")
    @classmethod
    def _numbers(cls, v: list[str], info) -> list[str]:
        if not v:
            raise ValueError("give at least one value")
        # prefetch depths: whole pages in flight, within MemExtConfig.prefetch_depth's range; Flash write
        # latencies [µs]: within MemExtConfig.write_ns's range (> 0)
        depths = info.field_name == "prefetch_depths"
        lo, hi = PREFETCH_DEPTH if depths else FLASH_WRITE_US
        for x in v:
            try:
                f = float(x)
            except ValueError:
                raise ValueError(f"not a number: {x!r}") from None
            if depths and not (lo <= f <= hi and f == int(f)):
                raise ValueError(f"not a whole number within [{lo:g}, {hi:g}]: {x!r}")
            if not depths and not (lo < f <= hi):
                raise ValueError(f"out of range ({lo:g}, {hi:g}]: {x!r}")
        return v

    @model_validator(mode="after")
    def _two_devices(self):
        if self.fast_device == self.slow_device:
            raise ValueError(f"slow_device: pick a device other than the fast one ({self.fast_device})")
        return self


@st.cache_data(show_spinner=False, max_entries=8)
def _pattern_stream(pattern, footprint, refs, per_visit, wfrac, seed):
    return me.synthetic_page_stream(pattern, footprint_pages=footprint, references=refs, refs_per_visit=per_visit,
                                    write_fraction=wfrac, seed=seed)


# Issue 18: a rerun recomputes only what the changed input reaches. The page stream of a trace and each tab's sweep
# are kept by content (shared, bounded); the sweeps are keyed by the values the model is given (the t_ref applied,
# not the field: a program's measured t_ref overrides it).
@st.cache_resource(show_spinner=False, max_entries=4)
def _trace_stream(fingerprint: str, _trace) -> me.PageStream:
    """``me.page_stream`` of the trace with this fingerprint (shared, not copied: the stream is only read)."""
    return me.page_stream(_trace)


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def _sweep(text: str, fingerprint: str, _run) -> pd.DataFrame:
    """``_run(progress)`` identified by ``fingerprint`` (every value it reads, by content), with a progress bar on a miss."""
    with progress_bar(text) as report:
        return _run(report)


S = MemExtScenario
init_state(S)
st.title("NVM memory extension")
claims_strip("memory-extension")
st.markdown(
    "DRAM holds a fraction of an application's pages; the rest live in an NVM **memory extension** and any "
    "access to them page-faults: the OS copies the page into DRAM and evicts another one (FIFO in the paper), "
    "writing it back through an eviction buffer when dirty (Awad et al., ICS'16, §2, §5.2-5.4, §6). "
    "Time = references × t_ref + faults × (fault overhead + page read) [+ write-backs when not buffered; with "
    "the eviction buffer the application waits only when the buffer is full, and the device must also have time "
    "for every read and write]. Slowdown is relative to all pages in DRAM. Defaults are **measured** on the build "
    "machine: t_ref = native CPU time / lackey data references of seed 002's own applications (a traced program "
    "uses its own), the fault overhead = a userfaultfd-resolved 4 KiB fault (`data/measurements/`). The default "
    "workload is the paper's own application Lulesh, traced here (a 4 M-reference window of a small run): the paper "
    "plots Figures 10-11 per application. The synthetic patterns remain under *Synthetic pattern*."
)

c1, c2 = st.columns([1, 1])
with c1:
    st.radio(S.label("stream_source"), ["pattern", "trace"], key=S.key("stream_source"), horizontal=True,
             format_func={"pattern": "Synthetic pattern (paper's app classes)", "trace": "Memory trace"}.get)
    stream = None
    if st.session_state[S.key("stream_source")] == "pattern":
        st.selectbox(S.label("pattern"), list(me.SYNTHETIC_PATTERNS), key=S.key("pattern"),
                     format_func=lambda p: f"{p}: {me.SYNTHETIC_PATTERNS[p]}")
        a, b = st.columns(2)
        int_input(S, "footprint_pages", container=a)
        int_input(S, "references", container=b)
        int_input(S, "refs_per_visit", container=a,
                  help="Compute done on a page each time it is visited: sets how often faults happen.")
        b.slider(S.label("write_fraction"), 0.0, 1.0, step=0.05, key=S.key("write_fraction"))
    else:
        trace = mem_trace_picker(key=S.PREFIX)
        if trace is not None:
            with user_errors("Trace"):
                stream = _trace_stream(trace.fingerprint(), trace)


def _own_t_ref(stream) -> float | None:
    """The traced program's measured t_ref [ns] when the page uses it in place of the field (else None)."""
    from models.memory.measured import ns_per_ref

    if stream is None or st.session_state[S.key("stream_source")] != "trace" \
            or not st.session_state.get(S.key("trace_time_base")):
        return None
    return ns_per_ref(stream.name)


own_t_ref = _own_t_ref(stream)
paper_fault_ns = param("memext.fault_overhead_paper_ns").value
with c2:
    fast = device_picker(S.label("fast_device"), key=S.key("fast_device"), kinds=FAST_KINDS,
                         help="Seed 002: PCM 150 ns page read / 1500 ns page write ('pcm-memext').")
    slow = device_picker(S.label("slow_device"), key=S.key("slow_device"), kinds=SLOW_KINDS,
                         help="Seed 002: NAND Flash 25 µs per page ('nand-flash').")
    field_note(S, "slow_device")
    a, b = st.columns(2)
    a.radio(S.label("accounting"), ["inclusive", "exclusive"], key=S.key("accounting"),
            help="At DRAM:NVM 1:4, DRAM holds 25 % (inclusive) or 20 % (exclusive) of the footprint. "
                 "Exclusive extensions write every evicted page back.")
    b.radio(S.label("writeback"), ["buffered", "sync"], key=S.key("writeback"),
            format_func={"buffered": "eviction buffer (paper)", "sync": "synchronous"}.get)
    float_input(S, "base_ns_per_ref", container=a, help=param_help("memext.base_ns_per_ref", "DRAM-only time per data reference."), format="%.3g",
                overridden=None if own_t_ref is None else f"the traced program's measured {scalar_text(own_t_ref, 3)} ns "
                                                           "(untick the box below to use this field)")
    float_input(S, "fault_overhead_ns", container=b, help=param_help("memext.fault_overhead_ns",
                                   "With device latencies alone, Flash's excess slowdown would be 166× PCM's, "
                                   "not the paper's 5.8×."), format="%.4g",
                overridden=f"the paper's fault cost {scalar_text(paper_fault_ns)} ns (untick the box below)"
                if st.session_state.get(S.key("paper_fault_cost")) else None)
    a.checkbox(f"Paper's fault cost ({paper_fault_ns:,g} ns)",
               key=S.key("paper_fault_cost"), help=param_help("memext.fault_overhead_paper_ns",
                                                              "Derived from the paper's slowdowns."))
    sync_wb = st.session_state.get(S.key("writeback")) == "sync"
    int_input(S, "eviction_buffer_pages", container=b, disabled=sync_wb,
              help=param_help("memext.eviction_buffer_pages", "Buffered write-back: the application waits "
                                                              "only when this many evicted pages await writing.")
              + (" Disabled: synchronous write-back has no eviction buffer (every dirty eviction waits for its "
                 "page write), so its size has no effect." if sync_wb else ""))
    st.checkbox(S.label("trace_time_base"), key=S.key("trace_time_base"))
    st.checkbox(S.label("cold_start_in_nvm"), key=S.key("cold_start_in_nvm"),
                help="First touches fault too, as in the paper's PerMA emulation.")
    st.checkbox(S.label("mfwr"), key=S.key("mfwr"),
                help="Seed 002 §5.1.1: MFWR compresses each page before it is written to the NVM; the thread that "
                     "writes it pays the CPU time (the eviction buffer drains one page per write + MFWR; a "
                     "synchronous write-back stalls that long). Off: no MFWR.")
    float_input(S, "mfwr_us", help=param_help("memext.mfwr_ns_per_page", "CPU time of MFWR-1W on one 4 KiB page."),
                step=0.5, overridden=None if st.session_state.get(S.key("mfwr")) else
                "not used: MFWR is off (tick the box above)")

# Sweep settings are drawn before validation so an invalid entry stays visible and editable.
with st.expander("Sweep settings: Flash write latency (Fig. 15), prefetching (Fig. 13), replacement (Fig. 14)",
                 icon=":material/tune:"):
    st.multiselect(S.label("flash_write_us"), ["25", "50", "100", "200", "400", "800", "1600"],
                   key=S.key("flash_write_us"), accept_new_options=True)
    field_note(S, "flash_write_us")
    a, b, c, d = st.columns(4)
    a.multiselect(S.label("prefetch_depths"), ["0", "1", "2", "4", "8", "16", "32", "64"],
                  key=S.key("prefetch_depths"), accept_new_options=True)
    field_note(S, "prefetch_depths", a)
    b.select_slider(S.label("prefetch_frac"), options=list(me.DRAM_FRACTIONS)[::-1], key=S.key("prefetch_frac"),
                    help=param_help("memext.dram_frac"))
    int_input(S, "prefetch_threshold", container=c,
              help=param_help("memext.prefetch_threshold"))
    float_input(S, "submit_us", container=d, help=param_help("memext.submit_ns", "Per work item submitted to a kernel worker."), step=0.5)
    st.radio(S.label("prefetch_submit"), ["confirmed", "every-fault"], key=S.key("prefetch_submit"), horizontal=True,
             format_func={"confirmed": "when a stride is confirmed (default)",
                          "every-fault": "on every fault with no prefetch in progress (§5.3's wording)"}.get,
             help="Seed 002 §5.3: the fault handler decides whether to issue a prefetch depending on whether one "
                  "is running. Every-fault pays the submission overhead on each such fault (the validation "
                  "ledger's reading); confirmed submits only when some stride is confirmed.")
    int_input(S, "age_max",
              help=param_help("memext.age_max", "Counter +1 when the reference bit is found set, −1 "
                                                "otherwise; evict at ≤ 0. Maximum 1 behaves exactly like CLOCK."))

scn = scenario_controls(S, page="memory-extension")


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def _counts(fingerprint: str, frac: float, policy: str, _stream, _common: dict) -> me.MemExtResult:
    """A run of the stream whose fault and write-back counts the band's models reuse (``fingerprint``: the stream and every
    setting but the times). With FIFO or CLOCK and no prefetching the counts depend on no time and no device, so a
    change of t_ref or of the fault overhead keeps them; ``memext_model`` reads only the counts of its ``result``
    and checks them against its own replay of the misses."""
    return me.simulate_memext(_stream, me.MemExtConfig(dram_frac=frac, policy=policy, **_common))


@st.cache_data(show_spinner=False, max_entries=16, ttl=3600)
def _events(fingerprint: str, frac: float, policy: str, _stream, _common: dict) -> tuple:
    """The stream's miss events (:func:`models.memory.memext_events.miss_events`) the band's models replay per
    timing sample with a bounded eviction buffer, keyed as :func:`_counts`: like the counts they depend on neither
    the device nor any time, so both devices' bands (and a change of t_ref or of the fault overhead) reuse them.
    10 bytes per miss (the default lulesh trace: 4 kB at 1:2 to 1.8 MB at 1:16): four settings' worth of the four
    DRAM:NVM ratios kept."""
    from models.memory.memext_events import miss_events

    return miss_events(_stream, me.MemExtConfig(dram_frac=frac, policy=policy, **_common))


def _one_device(scn: MemExtScenario) -> MemExtScenario:
    """The scenario as one device's band sees it: the band reads its device by value (its ``content``), not which
    of the two choices it is, so changing the other device keeps this one's band."""
    return scn.model_copy(update={"fast_device": "", "slow_device": ""})


def _effective(scn: MemExtScenario, t_ref: float, fault_ns: float) -> MemExtScenario:
    """The scenario as the band's and the How sure? panel's models see it (their caches are keyed by its values):
    the t_ref and fault overhead applied in place of the fields that choose them, and the other tabs' sweep settings
    at their defaults (those models do not read them), so a change that does not reach them reuses them."""
    tab_only = ("flash_write_us", "prefetch_depths", "prefetch_frac", "prefetch_threshold", "prefetch_strides",
                "submit_us", "prefetch_submit")
    return scn.model_copy(update={**{f: S.model_fields[f].get_default(call_default_factory=True) for f in tab_only},
                                  "base_ns_per_ref": t_ref, "trace_time_base": False, "fault_overhead_ns": fault_ns,
                                  "paper_fault_cost": False})


def _ratio_bands(fig, stream, stream_key, df, devs, common, scn) -> None:
    """p5-p95 band of each device's slowdown curve (memext_model per DRAM:NVM ratio, cached by content;
    ``scn``: :func:`_effective`)."""
    from models.memory.uncertainty import memext_model

    if scn.policy not in ("fifo", "clock"):
        st.caption("No band on this chart: with the age policy the fault counts depend on the times (every input "
                   "re-simulates; the How sure? panel's tornado shows them).")
        return
    content = trace.fingerprint() if st.session_state[S.key("stream_source")] == "trace" else None
    untimed = {k: v for k, v in common.items() if k not in ("base_ns_per_ref", "fault_overhead_ns")}
    counts_key = repr((stream_key, sorted(untimed.items())))
    replays = common["writeback"] == "buffered" and common["eviction_buffer_pages"] is not None  # memext_model's

    def model(f, dev):
        return memext_model(stream, me.MemExtConfig(dram_frac=f, device=dev.name, policy=scn.policy, **common),
                            device=dev, baseline=None, result=_counts(counts_key, f, scn.policy, stream, common),
                            events=_events(counts_key, f, scn.policy, stream, common) if replays else None)

    for dev in devs:
        fr = tuple(float(f) for f in df[df.device == dev.name].dram_frac)
        band = curve_band(S, _one_device(scn), lambda f, dev=dev: model(f, dev), fr, key=f"mx-ratio-{dev.name}",
                          content=(content, dev.model_dump_json()))
        add_band(fig, band.x, band.p5, band.p95, n=scn.uq_samples, what=f"of {dev.name}", of=dev.name)


def eviction_buffer_note(df, writeback: str, pages: int) -> str:
    """Whether the eviction buffer changed the ratio sweep ``df`` (its ``write_stall_ns``): its size matters only
    when the buffer fills, i.e. the application waited for page writes somewhere in the sweep."""
    buf = f"Eviction buffer ({pages:,} page{'' if pages == 1 else 's'})"
    if writeback == "sync":
        return ("Eviction buffer: not used (synchronous write-back: every dirty eviction waits for its page write).")
    stalls = df["write_stall_ns"].to_numpy(float) if "write_stall_ns" in df else np.zeros(0)
    if stalls.size and not (stalls > 0).any():
        return (f"{buf}: never full in this sweep (no time spent waiting for page "
                "writes): the devices write evicted pages back faster than they are evicted, so its size does not "
                "change these results. It does when page writes outpace the device: a slower write latency, a "
                "write-heavier trace or a smaller buffer (try 1 page).")
    fault_bound = (stalls > 0) & (df["bound"].astype(str).to_numpy() != "bandwidth") if "bound" in df else stalls > 0
    if not fault_bound.any():
        return (f"{buf}: it fills, but every run where it does is bandwidth-bound (the "
                "device's busy time sets the run time), which no buffer shortens: its size does not change these "
                "results.")
    share = float(np.sum(stalls[fault_bound]) / max(float(np.sum(df["time_ns"].to_numpy(float)[fault_bound])), 1e-300))
    return (f"{buf}: where it fills, the application waits for page writes for "
            f"{share:.2%} of the run time; a larger buffer shortens that wait.")


if scn is not None:
    with user_errors("Memory extension"):
        fast, slow = all_devices()[scn.fast_device], all_devices()[scn.slow_device]  # the values applied
        if scn.stream_source == "pattern":
            stream = _pattern_stream(scn.pattern, scn.footprint_pages, scn.references, scn.refs_per_visit,
                                     scn.write_fraction, scn.seed)
        if stream is None:
            st.stop()
        t_ref = scn.base_ns_per_ref
        own = own_t_ref
        if own is not None:
            t_ref = own
            st.caption(f"t_ref = {own:.3g} ns: measured for {md_escape(stream.name)} (native CPU time / lackey data "
                       "references, `data/measurements/apps/`, `data/measurements/programs/`).")
        fault_ns = paper_fault_ns if scn.paper_fault_cost else scn.fault_overhead_ns
        common = dict(accounting=scn.accounting, base_ns_per_ref=t_ref,
                      fault_overhead_ns=fault_ns, writeback=scn.writeback,
                      eviction_buffer_pages=scn.eviction_buffer_pages,
                      cold_start_in_nvm=scn.cold_start_in_nvm, age_max=scn.age_max,
                      mfwr_ns=scn.mfwr_us * 1e3 if scn.mfwr else 0.0)
        values = {"memext.base_ns_per_ref": t_ref, "memext.fault_overhead_ns": fault_ns,
                  "memext.eviction_buffer_pages": scn.eviction_buffer_pages,
                  "memext.submit_ns": scn.submit_us * 1e3, "memext.age_max": scn.age_max,
                  "memext.prefetch_threshold": scn.prefetch_threshold,
                  "memext.prefetch_strides": scn.prefetch_strides, "memext.dram_frac": scn.prefetch_frac}
        mfwr_keys = ["memext.mfwr_ns_per_page"] if scn.mfwr else []  # read only when MFWR is on
        if scn.mfwr:
            values["memext.mfwr_ns_per_page"] = scn.mfwr_us * 1e3
        keys = [*me.ratio_sweep_keys(fast, slow), *mfwr_keys]
        # what every sweep reads: the stream (by content), both devices' values, the policy and the applied settings
        stream_key = trace.fingerprint() if scn.stream_source == "trace" else (
            scn.pattern, scn.footprint_pages, scn.references, scn.refs_per_visit, scn.write_fraction, scn.seed)
        run_key = (stream_key, fast.model_dump_json(), slow.model_dump_json(), scn.policy, sorted(common.items()))
        scn_eff = _effective(scn, t_ref, fault_ns)
        st.caption(f"{md_escape(stream.name)}: {len(stream):,} references, footprint {stream.footprint_pages:,} pages "
                   f"({stream.footprint_pages * 4096 / 2**20:,.1f} MiB), {stream.is_write.mean():.1%} writes.")
        # lazy tabs: only the open tab simulates (each tab is a sweep of full trace replays)
        t_ratio, t_lat, t_pf, t_rep = st.tabs(["DRAM:NVM ratio (Figs. 10-11)", "Flash write latency (Fig. 15)",
                                               "Prefetching (Fig. 13)", "Replacement (Fig. 14)"],
                                               key="mx.tab", on_change="rerun")
        if t_ratio.open:
            with t_ratio:
                df = _sweep("Simulating DRAM:NVM ratios …", repr(("ratio", run_key)), lambda report: me.ratio_sweep(
                    stream, devices=(fast, slow), progress=report, policy=scn.policy, **common))
                at25 = df[df.dram_frac == 0.25].set_index("device").slowdown
                row = metric_row()
                row.metric(f"{md_escape(fast.name)} slowdown at 1:4", f"{scalar_text(at25[fast.name], 3)}×",
                           help=f"paper (PCM): {me.PAPER_SLOWDOWN_25['pcm-memext']}×")
                row.metric(f"{md_escape(slow.name)} slowdown at 1:4", f"{scalar_text(at25[slow.name], 3)}×",
                           help=f"paper (Flash): {me.PAPER_SLOWDOWN_25['nand-flash']}×")
                row.metric("Paper at 1:4 (avg. of 6 apps)",
                           f"{scalar_text(me.PAPER_SLOWDOWN_25['pcm-memext'], 3)}× / "
                           f"{scalar_text(me.PAPER_SLOWDOWN_25['nand-flash'], 3)}×")
                b25 = df[df.dram_frac == 0.25].set_index("device")["bound"]
                bw = [d for d, b in b25.items() if b == "bandwidth"]
                if bw:
                    st.warning(f"At 1:4 the result for {', '.join(md_escape(d) for d in bw)} is **bandwidth-bound**, not "
                               "fault-bound: the device cannot write back (or read) pages as fast as they are evicted, "
                               "so the eviction buffer fills or the device's busy time sets the run time.",
                               icon=":material/speed:")
                else:
                    st.caption("At 1:4 no result is bandwidth-bound: the run time is set by "
                               + ", ".join(f"{md_escape(d)}: {b}" for d, b in b25.items()) + ".")
                st.caption(eviction_buffer_note(df, scn.writeback, scn.eviction_buffer_pages))
                fig = figure()
                for d, g in df.groupby("device", sort=False):
                    fig.add_scatter(x=g.dram_frac, y=g.slowdown, name=d, mode="lines+markers")
                with user_errors("How sure? band"):  # per device and ratio: counts simulated once, times sampled
                    _ratio_bands(fig, stream, stream_key, df, (fast, slow), common, scn_eff)
                style(fig, title="Slowdown vs DRAM-only", x="DRAM:NVM capacity ratio [-]", y="slowdown [×]")
                ratio_axis(fig, "y", label="1× = DRAM only", from_one=True)
                show(one_to_n_ticks(fig, df.dram_frac), key="mx-ratio")
                table(df[["device", "dram_frac", "dram_pages", "faults", "writebacks", "slowdown", "bound", "time_ns"]],
                      labels={"dram_frac": "DRAM share [-]", "dram_pages": "DRAM [pages]", "slowdown": "slowdown [×]"})
                assumption_note(keys, values)
                download_csv(df, "memext-ratio.csv", key="dl-mx-ratio", provenance=keys, values=values)
        if t_lat.open:
            with t_lat:
                flash_ns = [float(x) * 1e3 for x in scn.flash_write_us]
                df = _sweep("Simulating write latencies …", repr(("lat", run_key, flash_ns)),
                            lambda report: me.write_latency_sweep(stream, flash_write_ns=flash_ns, progress=report,
                                                                  policy=scn.policy, **common))
                fig = figure()
                for c, g in df.groupby("config", sort=False):
                    fig.add_bar(x=[f"1:{1 / f:g}" for f in g.dram_frac], y=g.slowdown, name=c)
                fig.update_layout(barmode="group")
                style(fig, x="DRAM:NVM ratio", y="slowdown [×]")
                show(ratio_axis(fig, "y", label="1× = DRAM only", from_one=True), key="mx-lat")
                st.caption("PCM = catalogue 'pcm-memext'; Flash = 'nand-flash' (25 µs read) with the write latency varied.")
                lat_keys = [*me.write_latency_sweep_keys(), *mfwr_keys]
                assumption_note(lat_keys, values)
                download_csv(df, "memext-write-latency.csv", key="dl-mx-lat", provenance=lat_keys, values=values)
        if t_pf.open:
            with t_pf:
                depths = sorted({int(float(x)) for x in scn.prefetch_depths})

                def prefetch(report):
                    rows = []
                    for k, dev in enumerate((fast, slow)):
                        sub = me.prefetch_sweep(stream, depths=depths, dram_frac=scn.prefetch_frac, device=dev,
                                                policy=scn.policy, prefetch_threshold=scn.prefetch_threshold,
                                                prefetch_strides=scn.prefetch_strides, submit_ns=scn.submit_us * 1e3,
                                                prefetch_submit=scn.prefetch_submit,
                                                progress=lambda f, k=k: report((k + f) / 2), **common)
                        sub.insert(0, "device", dev.name)
                        rows.append(sub)
                    return pd.concat(rows, ignore_index=True)

                df = _sweep("Simulating prefetch depths …", repr(("pf", run_key, depths, scn.prefetch_frac,
                                                                   scn.prefetch_threshold, scn.prefetch_strides,
                                                                   scn.submit_us, scn.prefetch_submit)), prefetch)
                g = df[df.device == fast.name]
                fig = figure()
                fig.add_bar(x=g.depth.astype(str), y=g.full_misses, name="full misses")
                fig.add_bar(x=g.depth.astype(str), y=g.partial_misses, name="partial misses")
                fig.add_bar(x=g.depth.astype(str), y=g.saved_misses.clip(lower=0), name="saved vs no prefetch")
                fig.update_layout(barmode="stack")
                for dev_name, gg in df.groupby("device", sort=False):
                    fig.add_scatter(x=gg.depth.astype(str), y=gg.slowdown, name=f"slowdown ({dev_name})", yaxis="y2",
                                    mode="lines+markers")
                fig.update_layout(yaxis2=dict(overlaying="y", side="right", title="slowdown [×]"))
                show(style(fig,
                title=f"Stride prefetcher (misses for {plotly_text(fast.name)})", x="prefetch depth [pages]",
                           y="page faults [-]"), key="mx-pf")
                pf_keys = [*me.prefetch_sweep_keys(fast, slow), *mfwr_keys]
                assumption_note(pf_keys, values)
                download_csv(df, "memext-prefetch.csv", key="dl-mx-pf", provenance=pf_keys, values=values)
        if t_rep.open:
            with t_rep:
                df = _sweep("Simulating replacement policies …", repr(("rep", run_key)),
                            lambda report: me.policy_sweep(stream, progress=report, device=fast, **common))
                fig = figure()
                for p, g in df.groupby("policy", sort=False):
                    fig.add_bar(x=[f"1:{1 / f:g}" for f in g.dram_frac], y=g.faults_rel_fifo, name=p)
                fig.update_layout(barmode="group")
                style(fig, title="Page faults relative to FIFO", x="DRAM:NVM ratio", y="faults relative to FIFO (×)")
                show(ratio_axis(fig, "y", label="FIFO"), key="mx-rep")
                rep_keys = [*me.policy_sweep_keys(fast), *mfwr_keys]
                assumption_note(rep_keys, values)
                download_csv(df, "memext-replacement.csv", key="dl-mx-rep", provenance=rep_keys, values=values)

if scn is not None and stream is not None:
    with user_errors("How sure?"):
        from models.memory.uncertainty import memext_model

        st.caption(f"{md_escape(fast.name)} against {md_escape(slow.name)} at DRAM:NVM 1:4, {scn.policy}, no "
                   "prefetching" + ("." if scn.policy == "age" else
                                    ": the same fault counts for both devices, simulated once."))
        # built only on a miss (it simulates): keyed by the applied values (scn_eff), the stream and both devices
        how_sure(S, scn_eff, lambda: memext_model(stream, me.MemExtConfig(dram_frac=0.25, device=fast.name,
                                                                          policy=scn.policy, **common),
                                                  device=fast, baseline=slow), key="mx",
                 content=(trace.fingerprint() if st.session_state[S.key("stream_source")] == "trace" else None,
                          fast.model_dump_json(), slow.model_dump_json()))
