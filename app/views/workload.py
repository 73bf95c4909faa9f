"""Storage / Filebench workloads on PCM-DAX vs page-cached storage (seed 000, Figs. 2-5)."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st
from pydantic import Field

from app.components import Scenario, download_csv, scenario_controls, user_errors
from app.components.bands import add_error_bars
from app.components.charts import coinciding_legend, figure_from, show, style
from app.components.claims import claims_strip
from app.components.express import bar, line
from app.components.how_sure import UncertaintyFields, how_sure
from app.components.inputs import SciInt, field_note, float_input, int_input
from app.components.progress import progress_bar
from app.components.provenance import assumption_note, param_help
from app.components.scenario import field_range, init_state, model_field, one_of, some_of
from app.components.tables import table
from models._base import results_frame
from models.storage import workload as wf
from models.storage.filebench import bundled_personalities

CONFIGS = wf.config_names()
IOSIZES = [64 << i for i in range(19)]  # 64 B .. 16 MiB
Personality = one_of(bundled_personalities, what="personality")
Configs = some_of(CONFIGS, what="configuration", min_count=1)
IoSize = one_of(IOSIZES, what="I/O size [bytes]", base=int)
#: Page cache [GiB]: StorageConfig.page_cache_bytes' range.
PAGE_CACHE_GIB = field_range(wf.StorageConfig, "page_cache_bytes", unit=1 << 30)


class WorkloadScenario(Scenario, UncertaintyFields):
    PREFIX = "wl"
    # each sample re-runs the mean-value model of each configuration (compiled: ~0.003-0.15 ms per sample at 50 threads)
    uq_band: bool = Field(True, description="draw the p5-p95 band on the throughput chart (re-runs the model)",
                          title="p5–p95 band")
    personality: Personality = Field("varmail", title="Personality")
    table1: bool = Field(True, title="Table 1 settings")
    configs: Configs = Field(default_factory=lambda: list(wf.HEADLINE_CONFIGS), title="Configurations")
    threads: SciInt = Field(50, ge=1, le=256, title="Threads")
    iosize_bytes: IoSize = Field(1 << 20, title="Read/write I/O size [bytes]")
    files_scale: float = Field(1.0, ge=0.001, le=100, title="Files scale (0.1 = 10× fewer files)")
    page_cache_gib: float = model_field(wf.StorageConfig, "page_cache_bytes", unit=1 << 30, title="Page cache [GiB]")
    zipf_alpha: float = Field(0.0, ge=0, le=2, title="Locality (Zipf alpha of file choice; 0 = uniform, as Filebench)")


S = WorkloadScenario
init_state(S)


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def _workload(personality: str, table1: bool, iosize: int, files_scale: float, threads: int):
    w = wf.paper_workload(personality) if table1 and personality in wf.TABLE1 else wf.load_workload(personality)
    return w.with_changes(iosize_bytes=float(iosize), files_scale=files_scale, threads=threads)


def _cfg(name: str, cache_gib: float | None):
    """Configuration ``name`` with the page's page cache (None: the preset's)."""
    return wf.get_config(name) if cache_gib is None else wf.get_config(name, page_cache_bytes=cache_gib * (1 << 30))


# Model results per configuration and by input (issue 18: a rerun that changes one input recomputes only what
# depends on it -- adding a configuration computes that one; bounded so concurrent sessions cannot grow the server
# without limit). `inputs` = (personality, table1, iosize, files_scale, threads).
@st.cache_data(show_spinner=False, max_entries=256, ttl=3600)
def _evaluate(inputs: tuple, config: str, cache_gib: float, zipf: float):
    return wf.evaluate(_workload(*inputs), _cfg(config, cache_gib), threads=inputs[-1], zipf_alpha=zipf)


@st.cache_data(show_spinner=False, max_entries=256, ttl=3600)
def _sweep(kind: str, inputs: tuple, config: str, cache_gib: float, zipf: float) -> pd.DataFrame:
    w, cfgs, threads = _workload(*inputs), [_cfg(config, cache_gib)], inputs[-1]
    if kind == "threads":
        return wf.sweep_threads(w, cfgs, 32, zipf_alpha=zipf)
    if kind == "iosize":
        return wf.sweep_iosize(w, cfgs, threads=threads, zipf_alpha=zipf)
    return wf.sweep_files(w, cfgs, threads=threads, zipf_alpha=zipf)


def _sweeps(kind: str, inputs: tuple, configs, cache_gib: float, zipf: float) -> pd.DataFrame:
    """The sweep of every configuration (``wf.sweep_*`` of them all: the same rows), cached per configuration."""
    return pd.concat([_sweep(kind, inputs, c, cache_gib, zipf) for c in configs], ignore_index=True)


def _band_page_cache(config: str, cache_gib: float) -> float | None:
    """The page cache a configuration's band depends on: None for ext4-DAX ones (their throughput does not read it:
    tests/models/storage/workload/test_compiled_curve.py), so a page-cache change re-samples the page-cached
    configurations only."""
    return cache_gib if wf.get_config(config).mode == "pagecache" else None


@st.cache_data(show_spinner=False, max_entries=256, ttl=3600)
def _band(inputs: tuple, config: str, cache_gib: float | None, n: int, seed: int) -> pd.DataFrame:
    """p5/p50/p95 of one configuration's throughput (the How sure? panel's samples and seed): ``point_bands``'
    row of that configuration, cached per configuration."""
    from app.components.bands import curve_samples
    from models.storage.uncertainty import workload_model

    model = workload_model(_workload(*inputs), _cfg(config, cache_gib), threads=inputs[-1])
    with progress_bar(f"Sampling {n:,} inputs of {config} …") as report:
        return curve_samples(lambda _x: model, [config], n=n, seed=seed, progress=report)


def _coincide_caption(same: list[list[str]]) -> None:
    for g in same:
        st.caption(f"{', '.join(g[:-1])} and {g[-1]} coincide: the model gives them the same values at every point "
                   "here (one line, named for all of them in the legend), not a line hidden by mistake.")


def _compared(results, configs) -> tuple[str, str | None]:
    """The configurations the How sure? panel compares: the fastest PCM one and the fastest other one
    (None when the choice has no PCM or no other configuration: then the first one alone)."""
    ops = {r.config: r.ops_per_s for r in results}
    pcm = [c for c in configs if "pcm" in c or "optane" in c]
    other = [c for c in configs if c not in pcm]
    return (max(pcm, key=ops.get) if pcm else configs[0]), (max(other, key=ops.get) if pcm and other else None)


st.title("Filebench workloads: PCM-DAX vs page-cached storage")
claims_strip("workloads")
st.markdown(
    "Which file workloads benefit from PCM? Each Filebench flowop gets a service demand on the CPU and the "
    "device: **ext4 + page cache** (reads hit the cache with a probability from file-set size vs cache size; "
    "dirty data written back under pressure and by the kernel flusher (30 s expiry, 5 s wake-ups, 10 % "
    "background ratio: kernel defaults; rewrites before the write-back are absorbed); fsync = dirty pages + a "
    "jbd2 journal commit shared by the threads fsyncing at the same time, i.e. group commit) or "
    "**ext4-DAX** (every read/write at the device's latency and bandwidth; fsync = a cache-line flush plus the "
    "measured cost of an ext4 journal commit on memory-speed storage). The paper's **PCM-DRAM/SSD/HDD** run "
    "ext4-DAX in a VM whose PCM is a file on the host: each call pays a VM exit, reads that miss host memory "
    "go to the host device, and every written byte dirties a host page the host's flusher writes back to it. "
    "Threads come from exact Mean Value Analysis of the closed CPU + device + host network (seed 000, Table 1 "
    "and Figs. 2-5). Default configurations: the paper's five cases plus native ext4-DAX on PCM (not in the "
    "paper)."
)
c1, c2 = st.columns([1, 2])
with c1:
    st.selectbox(S.label("personality"), bundled_personalities(), key=S.key("personality"))
    st.checkbox(S.label("table1"), key=S.key("table1"),
                help="The paper's Table 1: 100K files (50K for varmail), 128/64/32/16 KB files, 1 MB reads, 16 KB appends, 50 threads")
    st.multiselect(S.label("configs"), CONFIGS, key=S.key("configs"))
    field_note(S, "configs")
    int_input(S, "threads")
    st.select_slider(S.label("iosize_bytes"), options=IOSIZES, key=S.key("iosize_bytes"))
    float_input(S, "files_scale")
    float_input(S, "page_cache_gib", help=param_help("workload.page_cache_bytes", "Guest page cache."))
    st.slider(S.label("zipf_alpha"), 0.0, 2.0, key=S.key("zipf_alpha"))
    st.checkbox(S.label("uq_band"), key=S.key("uq_band"),
                help="On the throughput chart: each configuration's uncertain inputs sampled (the How sure? panel's samples and seed): each "
                     "sample re-runs the mean-value model (vectorised: ~0.003-0.15 s CPU per 1,000 samples and "
                     "configuration at 50 threads).")

scn = scenario_controls(S, page="workloads")
if scn is not None:
    with user_errors("Workload model"):
        if not scn.configs:
            raise ValueError("configs: choose at least one configuration")
        w = _workload(scn.personality, scn.table1, scn.iosize_bytes, scn.files_scale, scn.threads)
        cfgs = [_cfg(c, scn.page_cache_gib) for c in scn.configs]
        inputs = (scn.personality, scn.table1, scn.iosize_bytes, scn.files_scale, scn.threads)
        model = (scn.page_cache_gib, scn.zipf_alpha)
        results = [_evaluate(inputs, c, *model) for c in scn.configs]
        keys = wf.provenance_keys_for(cfgs)
        values = {"workload.page_cache_bytes": scn.page_cache_gib * (1 << 30)}
        with c2:
            f = wf.workload_features(w)
            st.caption(f"{w.name}: {f.nfiles:,} files × {f.file_size_bytes / 1024:,.0f} KiB, "
                       f"R:W flowops {f.reads}:{f.writes}, {f.fsyncs_per_100_ops:.1f} fsyncs per 100 ops, "
                       f"{w.nthreads} threads")

            summary = results_frame(results)[["config", "ops_per_s", "latency_ms", "hit_ratio"]].assign(
                writeback_share=[float(r.curve["writeback_share"].iloc[-1]) for r in results],
                writeback_share_log=[float(r.curve["writeback_share_log"].iloc[-1]) for r in results])
            fig = figure_from(bar, summary, "config", "ops_per_s", log_y=True, text_auto=".3s")
            if scn.uq_band and scn.zipf_alpha == 0:
                with user_errors("How sure? band"):  # every configuration, its inputs sampled (re-run per sample)
                    b = pd.concat([_band(inputs, c, _band_page_cache(c, scn.page_cache_gib), int(scn.uq_samples),
                                         int(scn.uq_seed)) for c in scn.configs], ignore_index=True)
                    add_error_bars(fig, list(b.x), b.p5, b.p50, b.p95, n=scn.uq_samples)
            show(style(fig, title=f"Throughput at {scn.threads} threads (Fig. 2)", x="configuration",
                       y="throughput [ops/s]"), key="wl-thr")
            table(summary, labels={"config": "configuration", "ops_per_s": "throughput [ops/s]",
                                   "hit_ratio": "page-cache hit ratio [-]",
                                   "writeback_share": "share of rewritable dirty data written back in the run [-]",
                                   "writeback_share_log": "share of log appends written back in the run [-]"})
            assumption_note(keys, values)
            download_csv(summary, "workload-summary.csv", key="dl-wl-sum", provenance=keys, values=values)

        st.subheader("Per-flowop latency breakdown (Fig. 3)")
        br = pd.concat([r.breakdown.assign(config=r.config) for r in results], ignore_index=True)
        # grouped on a log axis: the HDD's flowops are 100-1000x the others', which a linear stack hides
        fig = figure_from(bar, br, "config", "latency_ms", color="flowop", barmode="group",
                          hover_data=("kind", "cpu_ms", "device_ms", "host_ms"))
        show(style(fig, x="configuration", y="latency per flowop and loop [ms]", logy=True), key="wl-br")
        download_csv(br, "workload-breakdown.csv", key="dl-wl-br", provenance=keys, values=values)

        st.subheader("Sweeps (§4.5)")
        # lazy tabs: only the open tab's sweep runs (the I/O-size sweep alone is 19 model runs per configuration)
        t1, t2, t3 = st.tabs(["Threads 1-32 (Fig. 5)", "I/O size 64 B-16 KB (Fig. 4)", "Files: default vs 10× fewer"],
                             key="wl.sweep_tab", on_change="rerun")
        sweep_args = (inputs, tuple(scn.configs), *model)
        if t1.open:
            with t1:
                th = _sweeps("threads", *sweep_args)
                shown, same = coinciding_legend(th, "threads", "latency_ms")
                fig = figure_from(line, shown, "threads", "latency_ms", color="config", log_y=True)
                show(style(fig, x="threads [-]", y="mean latency per op [ms]"), key="wl-th")
                _coincide_caption(same)
                download_csv(th, "workload-threads.csv", key="dl-wl-th", provenance=keys, values=values)
        if t2.open:
            with t2:
                io = _sweeps("iosize", *sweep_args)
                shown, same = coinciding_legend(io, "iosize_bytes", "ops_per_s")
                fig = figure_from(line, shown, "iosize_bytes", "ops_per_s", color="config", log_x=True, log_y=True)
                show(style(fig, x="I/O size [bytes]", y="throughput [ops/s]"), key="wl-io")
                _coincide_caption(same)
                download_csv(io, "workload-iosize.csv", key="dl-wl-io", provenance=keys, values=values)
        if t3.open:
            with t3:
                fl = _sweeps("files", *sweep_args)
                fig = figure_from(px.bar, fl, x="config", y="ops_per_s", color=fl.files_scale.astype(str), barmode="group", log_y=True)
                fig.update_layout(legend_title_text="file count [× default]")
                show(style(fig, x="configuration", y="throughput [ops/s]"), key="wl-files")
                download_csv(fl, "workload-files.csv", key="dl-wl-files", provenance=keys, values=values)
        st.caption("Model limits: no dirty-page write-back timing (dirty_expire, throttling) in the guest or the "
                   "host, no guest/host page-cache interaction beyond the hit ratio; see docs/models/workload.md.")

if scn is not None and scn.configs:
    with user_errors("How sure?"):
        from models.storage.uncertainty import workload_model

        best_pcm, best_other = _compared(results, scn.configs)
        st.caption(f"Throughput of {best_pcm}" + (f" over the best non-PCM configuration chosen, {best_other}"
                                                   if best_other else "") +
                   f", {scn.threads} threads. Each sample re-runs the mean-value model (no simulation to reuse), "
                   "vectorised over the samples.")
        by_name = dict(zip(scn.configs, cfgs, strict=True))
        # the panel's analysis is cached by the scenario's values: only those its model reads (the two configurations
        # compared, not the others chosen, nor the band switch), so a change elsewhere reuses it
        compared = [best_pcm] + ([best_other] if best_other else [])
        how_sure(S, scn.model_copy(update={"configs": compared, "uq_band": True}),
                 (lambda: workload_model(w, by_name[best_pcm], threads=scn.threads,
                                                 ref=by_name[best_other] if best_other else None))
                 if scn.zipf_alpha == 0 else None, key="wl",
                 why_not="the uncertainty adapter evaluates Filebench's uniform file choice (locality 0)")
