"""Storage / PCM write cache before an HDD: HALO vs LRU vs no cache (seed 003 sec. III, V-A, Figures 5-8)."""

from __future__ import annotations

from typing import Literal

import streamlit as st
from pydantic import Field

from app.components import download_csv, scenario_controls, user_errors
from app.components.bands import add_error_bars, point_bands, writecache_time_models
from app.components.cache_runs import cache_run
from app.components.charts import figure, show, style
from app.components.claims import claims_strip
from app.components.errors import md_escape
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
from app.components.provenance import assumption_note, param_help
from app.components.scenario import field_range, init_state, model_field
from app.components.tables import table
from app.components.traces import TraceChoice, trace_and_settings
from models.budget import reserve
from models.provenance import trace_values
from models.storage import hdd
from models.storage import write_cache as wc

SizesMb, parse_sizes_mb = number_text("sizes_mb", what="cache sizes in MB", example="16, 64", low=0.01, high=1e6,
                                      max_count=20)
POLICIES = ("none", "lru", "halo")
# HALO constants: the model's own fields, defaults and bounds (HaloParams).
TH_BCOUNTS_MIN, TH_BCOUNTS_MAX = field_range(wc.HaloParams, "th_bcounts")
THRESHOLD_MIN, THRESHOLD_MAX = field_range(wc.HaloParams, "threshold")


class WriteCacheScenario(TraceChoice, UncertaintyFields):
    PREFIX = "wc"
    trace_source: Literal["bundled", "synthetic", "upload"] = Field("synthetic", title="Trace")
    preset: str = Field("tpce", title="Workload preset")
    drive: HddProfile = Field(GENERIC_HDD, title="HDD")
    size_mode: Literal["paper", "manual"] = Field("paper", title="Cache sizes")
    sizes_mb: SizesMb = Field("16, 32, 64, 128", title="Cache sizes [MB]")
    exec_size_index: int = Field(4, ge=0, le=len(wc.PAPER_CACHE_MB) - 1,
                                 title="Figure 5 cache size (index in the sweep)")
    th_bcounts: float = model_field(wc.HaloParams, "th_bcounts", title="TH_BCOUNTS [blocks above the average]")
    threshold: float = model_field(wc.HaloParams, "threshold", title="Destage threshold [utilization]")
    lru_granularity: Literal["sector", "block"] = Field("sector", title="LRU baseline")
    hdd_rotation: Literal["positioned", "expected"] = Field("positioned", title="HDD rotational latency")
    drive_cache: Literal["none", "spec", "size"] = Field("none", title="Drive write cache")
    drive_cache_kib: float = Field(1024.0, ge=0.5, le=1e7, title="Drive write cache size [KiB]")


def drive_cache_value(scn: WriteCacheScenario) -> str | float:
    """``run_write_cache``'s ``drive_cache`` of the page's settings: ``"none"``, ``"spec"`` or a size [bytes]."""
    return scn.drive_cache_kib * 1024 if scn.drive_cache == "size" else scn.drive_cache


def default_hdd_timing(scn: WriteCacheScenario) -> bool:
    """The HDD stream timed as the uncertainty model times it (positioned rotation, no drive cache): only then
    are the How sure? bands the model's."""
    return scn.hdd_rotation == "positioned" and scn.drive_cache == "none"


@st.cache_data(show_spinner=False, max_entries=24)
def _policy_sweep(token: tuple, _req, policy: str, sizes: tuple[float, ...], drive: str, th_bcounts: float,
                  threshold: float, lru_granularity: str, hdd_rotation: str = "positioned",
                  drive_cache: str | float = "none") -> tuple[wc.WriteCacheResult, ...]:
    """One policy at every size (``wc.sweep_cache_sizes``' runs of it); ``token`` (``BlockTrace.fingerprint()``)
    identifies the unhashed ``_req``. Each size's cache simulation is kept apart from its timing
    (:func:`app.components.cache_runs.cache_run`): a change of the drive or of the HDD timing re-times the kept
    simulations without running them again (the same results)."""
    params = wc.HaloParams(th_bcounts=th_bcounts, threshold=threshold)

    def simulated(p: str, c: float) -> wc.CacheRun:
        return cache_run(token, _req, p, c, params=params, lru_granularity=lru_granularity)

    with progress_bar(f"Simulating {policy} at each cache size …") as report:
        return wc.sweep_cache_sizes(_req, sizes, policies=(policy,), drive=drive, params=params,
                                    progress=report, lru_granularity=lru_granularity, hdd_rotation=hdd_rotation,
                                    drive_cache=drive_cache, cache_runs=simulated).results


def _sweep(token: tuple, req, sizes: tuple[float, ...], drive: str, th_bcounts: float, threshold: float,
           lru_granularity: str, hdd_rotation: str = "positioned", drive_cache: str | float = "none") -> wc.WriteCacheSweep:
    """``wc.sweep_cache_sizes`` of every policy (the same runs in the same order), each policy cached by the values
    it reads (issue 18): no cache by none of the settings (simulated once, at any size), LRU not by TH_BCOUNTS,
    HALO not by the LRU baseline's granularity -- a change of one of them re-simulates only the policy it reaches."""
    th0 = wc.HaloParams().th_bcounts
    hdd_time = (hdd_rotation, drive_cache)  # every policy's HDD stream is timed with them
    runs = {"none": _policy_sweep(token, req, "none", (1.0,), drive, th0, wc.HaloParams().threshold, "sector",
                                  *hdd_time),
            "lru": _policy_sweep(token, req, "lru", sizes, drive, th0, threshold, lru_granularity, *hdd_time),
            "halo": _policy_sweep(token, req, "halo", sizes, drive, th_bcounts, threshold, "sector", *hdd_time)}
    return wc.WriteCacheSweep(cache_mb=tuple(sizes), results=tuple(r for p in POLICIES for r in runs[p]))


@st.cache_data(show_spinner=False, max_entries=2, ttl=3600)
def _requests(token: tuple, _trace) -> wc.Requests:
    """:func:`wc.prepare_requests` of the trace ``_trace`` (``token``: its fingerprint), once per trace (two kept:
    the requests of an uploaded trace take about as much memory as the trace)."""
    with reserve(_trace.nbytes, f"the trace {_trace.name!r}"):  # the trace is held beside its cut
        return wc.prepare_requests(_trace, passthrough_reads=True)  # a read of unwritten blocks: one extent


S = WriteCacheScenario
init_state(S)
st.title("PCM write cache before a disk: HALO vs LRU")
claims_strip("write-cache")
st.markdown(
    "A PCM write cache absorbs writes; the HDD sees read misses and the cache's write-backs. **HALO** "
    "(seed 003, Algorithm 1) groups cached 4 KiB blocks by 1 MiB disk region and, at 95 % PCM "
    "utilization, destages a whole region (large and not recently used, or outdated) as one sorted "
    "sequential batch; **LRU** writes back each evicted dirty block. By default the LRU is HALO's like for "
    "like: the same 512 B sector bitmap, the same PCM space and write-back batching, so only the replacement "
    "and grouping differ; the block-fill LRU (a partial write miss first reads the rest of the 4 KiB block "
    "from the HDD, the whole block is written back) models a cache without per-sector valid bits. "
    "Metrics as in the paper: traffic "
    "rate (HDD sectors / requested sectors), mean inter-request LBN distance of the HDD stream, HDD "
    "throughput from the HDD model, and execution time = total I/O × traffic rate / throughput."
)

trace, settings = trace_and_settings(S.PREFIX)
with settings:
    st.selectbox(S.label("drive"), hdd_profiles(), key=S.key("drive"),
                 help=hdd_help("Others: DiskSim drives (traces larger than the drive wrap around)."))
    st.radio(S.label("size_mode"), ["paper", "manual"], key=S.key("size_mode"), horizontal=True,
             format_func={"paper": "paper's 256 MB-6 GB, scaled", "manual": "manual [MB]"}.get,
             help="The paper sweeps 256 MB-6 GB on an 18 GB dataset (Fin1); 'scaled' keeps those ratios "
                  "relative to the trace's footprint.")
    if st.session_state[S.key("size_mode")] == "manual":
        text_list_input(S, "sizes_mb")
    st.slider(S.label("exec_size_index"), 0, len(wc.PAPER_CACHE_MB) - 1, key=S.key("exec_size_index"),
              help="The paper uses 512 MB (index 1) for Fin1/Fin2 and 2 GB (index 4) for the others.")
    st.radio(S.label("lru_granularity"), ["sector", "block"], key=S.key("lru_granularity"), horizontal=True,
             format_func={"block": "4 KiB block-fill (fill + whole-block write-back)",
                          "sector": "512 B sectors (dirty bitmap, like HALO)"}.get,
             help="Sector (default): HALO's like for like, a per-sector dirty bitmap, no fill, never more HDD "
                  "traffic than no cache. Block-fill: a cache that holds only whole blocks; a partial write miss "
                  "reads the block's other sectors from the HDD (counted in the traffic) and an evicted block is "
                  "written back whole, which can move more data than no cache (docs/models/write_cache.md).")
    st.selectbox(S.label("hdd_rotation"), ["positioned", "expected"], key=S.key("hdd_rotation"),
                 format_func={"positioned": "from the platter angle (default)",
                              "expected": "half a rotation per request"}.get,
                 help="Rotational latency of each HDD request. From the platter angle (default): the platter turns "
                      "from where the previous request ended, so an LBN-sorted destage on one track waits only for "
                      "its gaps. Half a rotation: every request that does not continue the previous one waits half "
                      "a rotation (the earlier model, kept as a variant).")
    st.selectbox(S.label("drive_cache"), ["none", "spec", "size"], key=S.key("drive_cache"),
                 format_func={"none": "none (default)", "spec": "the drive's own (DiskSim description)",
                              "size": "a size [KiB]"}.get,
                 help="The HDD's own write-back buffer. A write that fits is reported at buffer speed and written to "
                      "the media in the background, in order (no reordering); reads and writes that do not fit wait "
                      "for it. None (default): seed 003 does not say whether its disk's own cache was on "
                      f"{param_help('write_cache.drive_cache_bytes')}. The drive's own: the DiskSim drives atlas10k, "
                      "barracuda, cheetah4LP and ibm18es describe one (one write segment of 281-511 blocks); the "
                      "generic hdd-7200 has none. In the paper's closed-loop replay the buffer hides each write's "
                      "command overhead behind the media (docs/models/hdd.md).")
    if st.session_state[S.key("drive_cache")] == "size":
        float_input(S, "drive_cache_kib", step=256.0,
                    help="Size of the drive's write-back buffer [KiB]: any number of pending writes, each up to "
                         "the whole buffer (a write larger than it is written through).")
    with st.expander("HALO constants"):
        float_input(S, "th_bcounts", help=param_help("write_cache.th_bcounts"), step=1.0)
        float_input(S, "threshold", help=param_help("write_cache.destage_threshold"), step=0.01)

scn = scenario_controls(S, page="write-cache")
op_known = trace is None or trace.op_known
if scn is not None and not op_known:
    # a format without a read/write field (oracleGeneral, lcs v1, txt, a CSV without an op column): every request
    # reads as a read by convention, so a simulation would show 0 % writes and the metadata of a cache that absorbs
    # nothing -- numbers the trace does not support
    st.caption(f"{md_escape(trace.name)}: {len(trace):,} requests, operation unknown (its format "
               f"{md_escape(str(trace.meta.get('format', '?')))} carries no read/write field)")
    st.warning("**Operation unknown** -- needs data: a trace with reads/writes. The write cache absorbs writes; this "
               "trace does not say which requests write, so no figure of this page is shown for it. Upload a block "
               "trace with an operation field (MSR, SPC, blkparse, vscsi, a CSV with its op column, ...).",
               icon=":material/help:")
idx = None  # set once the sweep ran: the How sure? panel needs its cache size
if scn is not None and trace is not None and op_known:
    with user_errors("Write cache"):
        req = _requests(trace.fingerprint(), trace)
        fp = wc.footprint_bytes(req)
        if scn.size_mode == "paper":
            sizes = wc.sweep_sizes_mb(req)
            labels = [f"{m / 1024:g} GB" if m >= 1024 else f"{m} MB" for m in wc.PAPER_CACHE_MB]
        else:
            sizes = wc.sweep_sizes_mb(req, sorted(set(parse_sizes_mb(scn.sizes_mb))))  # a repeated size is one run
            labels = [f"{s:g} MB" for s in sizes]
        st.caption(f"{md_escape(trace.name)}: {len(trace):,} requests, {req.is_write.mean():.1%} writes, "
                   f"footprint {fp / 2**20:,.1f} MiB; simulated sizes: "
                   + ", ".join(f"{s:.3g} MB" for s in sizes))
        try:  # e.g. "the drive's own" on a drive whose description has none
            hdd.drive_buffer(wc._drive_spec(scn.drive), drive_cache_value(scn))
        except ValueError as e:
            raise ValueError(f"{S.label('drive_cache')}: {e}") from None
        sweep = _sweep(trace.fingerprint(), req, sizes, scn.drive, scn.th_bcounts, scn.threshold, scn.lru_granularity,
                       scn.hdd_rotation, drive_cache_value(scn))

        idx = min(scn.exec_size_index, len(sizes) - 1)
        values = trace_values(trace)
        values.update({"write_cache.th_bcounts": scn.th_bcounts, "write_cache.destage_threshold": scn.threshold})
        keys = wc.provenance_keys_for(trace, scn.drive)
        at = {pol: sweep.at(pol, sizes[idx]) for pol in POLICIES}
        row = metric_row()
        imp = 1 - at["halo"].exec_time_s / at["lru"].exec_time_s
        row.metric("Execution time HALO saves vs LRU", f"{imp:.1%}",
                   help=f"Time saved by HALO: 1 − HALO / LRU execution time, {labels[idx]} cache. "
                        "Paper Figure 5: 47 % Fin1, 27 % Fin2, 19 % Dap, 28 % Exchange, 66 % TPC-E, 2.7 % Mail, "
                        "67 % Randw")
        row.metric("traffic rate LRU / HALO", f"{at['lru'].traffic_rate:.3f} / {at['halo'].traffic_rate:.3f}")
        row.metric("LBN distance LRU / HALO", f"{at['lru'].mean_lbn_distance / max(at['halo'].mean_lbn_distance, 1e-9):.2f}×")
        row.metric("DRAM metadata HALO", f"{at['halo'].dram_bytes / 2**20:,.2f} MiB")

        fig = figure()
        for pol in POLICIES:
            fig.add_bar(x=[pol], y=[at[pol].exec_time_s], name=pol)
        paper_sizes = scn.size_mode == "paper"
        at_size = f"{labels[idx]}" + (f" (simulated {sizes[idx]:.3g} MB)" if paper_sizes else "")
        if str(scn.drive).startswith("hdd-") and default_hdd_timing(scn):
            with user_errors("How sure? band"):  # the HDD's seek, rpm and bandwidth sampled; streams simulated once
                b = point_bands(S, scn, writecache_time_models(req, cache_mb=sizes[idx], drive=scn.drive,
                                                               params=wc.HaloParams(th_bcounts=scn.th_bcounts,
                                                                                    threshold=scn.threshold),
                                                               lru_granularity=scn.lru_granularity),
                                key="wc-fig5", content=(trace.fingerprint(), float(sizes[idx])))
                b = b.set_index("x").loc[list(POLICIES)]
                add_error_bars(fig, list(POLICIES), b.p5, b.p50, b.p95, n=scn.uq_samples)
                fig.update_layout(barmode="overlay")  # one bar per policy: the whiskers sit on its centre
        show(style(fig, title=f"Figure 5: execution time at {at_size}", x="policy", y="execution time [s]"),
             key="wc-fig5")
        # x: the sizes actually simulated; in paper mode each tick also names the paper's size it stands for
        # one short label per tick (the simulated size): the 8 paper sizes lie 0.12 decades apart at 768 M-1 G
        # and 3-4 G, where a second line "≙ 256 MB" made Plotly turn every label of the half-width charts by
        # 90°; the paper's size each point stands for is in the axis title's range, the hover and the caption
        size_axis = (f"simulated PCM cache size [MB] (paper's {labels[0]} … {labels[-1]})" if paper_sizes
                     else "PCM cache size [MB]")
        size_text = [f"{s:.3g}" for s in sizes]
        hover = [f"{s:.3g} MB" + (f" (paper's {lab})" if paper_sizes else "") for s, lab in zip(sizes, labels)]
        names = {"none": "no cache", "lru": f"LRU ({scn.lru_granularity})", "halo": "HALO"}

        def sweep_fig(col: str, title: str, ylab: str, key: str, logy: bool = False) -> None:
            fig = figure()
            for pol in POLICIES:  # no cache: the same run at every size
                fig.add_scatter(x=list(sizes), y=[getattr(sweep.at(pol, c), col) for c in sizes], name=names[pol],
                                mode="lines+markers", line_dash="dot" if pol == "none" else None, text=hover,
                                hovertemplate="%{text}: %{y:.4g}")
            style(fig, title=title, x=size_axis, y=ylab, logy=logy)
            fig.update_xaxes(type="log", tickmode="array", tickvals=list(sizes), ticktext=size_text,
                             tickangle=0 if paper_sizes else None)  # the paper's 8 sizes fit level
            show(fig, key=key)

        c1, c2 = st.columns(2)
        with c1:
            sweep_fig("traffic_rate", "Figures 6-7: traffic rate", "HDD sectors / requested sectors [-]", "wc-fig67")
        with c2:
            sweep_fig("mean_lbn_distance", "Figure 8: mean inter-request LBN distance",
                      "distance [sectors]", "wc-fig8", logy=True)
        c1, c2 = st.columns(2)
        with c1:
            sweep_fig("exec_time_s", "Execution time vs cache size", "execution time [s]", "wc-exec")
        with c2:
            sweep_fig("hdd_throughput_mbps", "HDD average throughput", "throughput [MB/s]", "wc-tput")
        out = sweep.to_frame()
        table(out)
        assumption_note(keys, values)
        download_csv(out, "write-cache-sweep.csv", label="Download sweep (CSV)", key="dl-wc-sweep", provenance=keys,
                     values=values)
        st.caption("HALO constants (TH_RECENCY = capacity/4 requests, OUTDATE_RECENCY = 4 × capacity, "
                   "thresholds relaxed per scanned bucket) are ours: the paper publishes none. Blocks still "
                   "dirty at the end of the trace are not flushed (column dirty_blocks_at_end).")

if scn is not None and trace is not None and op_known and idx is not None:  # (a refused input is said above)
    with user_errors("How sure?"):
        from models.storage.uncertainty import writecache_model

        how_sure(S, scn, (lambda: writecache_model(
            req, cache_mb=sizes[idx], policy="halo", baseline="lru", drive=scn.drive, lru_granularity=scn.lru_granularity,
            params=wc.HaloParams(th_bcounts=scn.th_bcounts, threshold=scn.threshold)))
            if str(scn.drive).startswith("hdd-") and default_hdd_timing(scn) else None, key="wc",
            content=(trace.fingerprint(), float(sizes[idx])),
            why_not=("the HDD figures vary for a catalogue HDD profile (hdd-...); DiskSim drives are measured, pick "
                     "the generic profile" if not str(scn.drive).startswith("hdd-") else
                     "the band's model times the HDD stream from the platter angle with no drive write cache; pick "
                     "those settings"))
