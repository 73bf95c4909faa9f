"""Storage / Filebench workloads on PCM-DAX vs page-cached storage (seed 000, Figs. 2-5)."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st
from pydantic import Field

from app.components import Scenario, download_csv, scenario_controls, user_errors
from app.components.charts import show, style
from app.components.claims import claims_strip
from app.components.provenance import assumption_note, device_keys, param_help
from app.components.scenario import field_range, init_state, model_field, one_of, some_of
from models._base import results_frame
from models.provenance import param_names
from models.storage import workload as wf
from models.storage.filebench import bundled_personalities

CONFIGS = wf.config_names()
IOSIZES = [64 << i for i in range(19)]  # 64 B .. 16 MiB
Personality = one_of(bundled_personalities, what="personality")
Configs = some_of(CONFIGS, what="configuration")
IoSize = one_of(IOSIZES, what="I/O size [bytes]", base=int)
#: Page cache [GiB]: StorageConfig.page_cache_bytes' range.
PAGE_CACHE_GIB = field_range(wf.StorageConfig, "page_cache_bytes", unit=1 << 30)


class WorkloadScenario(Scenario):
    PREFIX = "wl"
    personality: Personality = "varmail"
    table1: bool = True
    configs: Configs = Field(default_factory=lambda: ["hdd", "ssd", "pcm-dax", "pcm-hdd"])
    threads: int = Field(50, ge=1, le=256)
    iosize_bytes: IoSize = 1 << 20
    files_scale: float = Field(1.0, ge=0.001, le=100)
    page_cache_gib: float = model_field(wf.StorageConfig, "page_cache_bytes", unit=1 << 30)
    zipf_alpha: float = Field(0.0, ge=0, le=2)


S = WorkloadScenario
init_state(S)


@st.cache_data(show_spinner=False)
def _workload(personality: str, table1: bool, iosize: int, files_scale: float, threads: int):
    w = wf.paper_workload(personality) if table1 and personality in wf.TABLE1 else wf.load_workload(personality)
    return w.with_changes(iosize_bytes=float(iosize), files_scale=files_scale, threads=threads)


def _cfgs(names, cache_gib):
    return [wf.get_config(c, page_cache_bytes=cache_gib * (1 << 30)) for c in names]


st.title("Filebench workloads: PCM-DAX vs page-cached storage")
claims_strip("workloads")
st.markdown(
    "Which file workloads benefit from PCM? Each Filebench flowop gets a service demand on the CPU and the "
    "device: **ext4 + page cache** (reads hit the cache with a probability from file-set size vs cache size; "
    "dirty data written back under pressure; fsync = dirty pages + a jbd2 journal commit shared by the threads "
    "fsyncing at the same time, i.e. group commit) or "
    "**ext4-DAX** (every read/write at the device's latency and bandwidth; fsync = a cache-line flush plus the "
    "measured cost of an ext4 journal commit on memory-speed storage; "
    "optional VM overhead as in the paper's PCM-DRAM/SSD/HDD emulation). Threads come from exact Mean Value "
    "Analysis of the closed CPU + device network (seed 000, Table 1 and Figs. 2-5)."
)
c1, c2 = st.columns([1, 2])
with c1:
    st.selectbox("Personality", bundled_personalities(), key=S.key("personality"))
    st.checkbox("Apply the paper's Table 1 configuration", key=S.key("table1"),
                help="100K files (50K for varmail), 128/64/32/16 KB files, 1 MB reads, 16 KB appends, 50 threads")
    st.multiselect("Configurations", CONFIGS, key=S.key("configs"))
    st.number_input("Threads", 1, 256, key=S.key("threads"))
    st.select_slider("Read/write I/O size [bytes]", options=IOSIZES, key=S.key("iosize_bytes"))
    st.number_input("Files scale (0.1 = 10x fewer files)", 0.001, 100.0, key=S.key("files_scale"))
    st.number_input("Page cache [GiB]", PAGE_CACHE_GIB[0], PAGE_CACHE_GIB[1], key=S.key("page_cache_gib"),
                    help=param_help("workload.page_cache_bytes", "Guest page cache."))
    st.slider("Locality (Zipf alpha of file choice; 0 = uniform, as Filebench)", 0.0, 2.0, key=S.key("zipf_alpha"))

scn = scenario_controls(S, page="workloads")
if scn is not None:
    with user_errors("Workload model"):
        if not scn.configs:
            raise ValueError("configs: choose at least one configuration")
        w = _workload(scn.personality, scn.table1, scn.iosize_bytes, scn.files_scale, scn.threads)
        cfgs = _cfgs(scn.configs, scn.page_cache_gib)
        results = [wf.evaluate(w, c, threads=scn.threads, zipf_alpha=scn.zipf_alpha) for c in cfgs]
        devs = {d.name: d for c in cfgs for d in (c.device, c.host_device) if d is not None}
        keys = ["file_cache.pagecache_read_4k_ns", "file_cache.pagecache_insert_4k_ns", *param_names("workload."),
                *(k for d in devs.values() for k in device_keys(d)), *device_keys("dram")]
        values = {"workload.page_cache_bytes": scn.page_cache_gib * (1 << 30)}
        with c2:
            f = wf.workload_features(w)
            st.caption(f"{w.name}: {f.nfiles:,} files x {f.file_size_bytes / 1024:,.0f} KiB, "
                       f"R:W flowops {f.reads}:{f.writes}, {f.fsyncs_per_100_ops:.1f} fsyncs per 100 ops, "
                       f"{w.nthreads} threads")

            summary = results_frame(results)[["config", "ops_per_s", "latency_ms", "hit_ratio"]]
            fig = px.bar(summary, x="config", y="ops_per_s", log_y=True, text_auto=".3s")
            show(style(fig, title=f"Throughput at {scn.threads} threads (Fig. 2)", x="configuration",
                       y="throughput [ops/s]"), key="wl-thr")
            st.dataframe(summary, hide_index=True)
            assumption_note(keys, values)
            download_csv(summary, "workload-summary.csv", key="dl-wl-sum", provenance=keys, values=values)

        st.subheader("Per-flowop latency breakdown (Fig. 3)")
        br = pd.concat([r.breakdown.assign(config=r.config) for r in results], ignore_index=True)
        fig = px.bar(br, x="config", y="latency_ms", color="flowop", hover_data=["kind", "cpu_ms", "device_ms", "host_ms"])
        show(style(fig, x="configuration", y="latency per loop [ms]"), key="wl-br")
        download_csv(br, "workload-breakdown.csv", key="dl-wl-br", provenance=keys, values=values)

        st.subheader("Sweeps (§4.5)")
        t1, t2, t3 = st.tabs(["Threads 1-32 (Fig. 5)", "I/O size 64 B-16 KB (Fig. 4)", "Files: default vs 10x fewer"])
        with t1:
            th = wf.sweep_threads(w, cfgs, 32, zipf_alpha=scn.zipf_alpha)
            fig = px.line(th, x="threads", y="latency_ms", color="config", log_y=True, markers=True)
            show(style(fig, x="threads [-]", y="mean latency per op [ms]"), key="wl-th")
            download_csv(th, "workload-threads.csv", key="dl-wl-th", provenance=keys, values=values)
        with t2:
            io = wf.sweep_iosize(w, cfgs, threads=scn.threads, zipf_alpha=scn.zipf_alpha)
            fig = px.line(io, x="iosize_bytes", y="ops_per_s", color="config", log_x=True, log_y=True, markers=True)
            show(style(fig, x="I/O size [bytes]", y="throughput [ops/s]"), key="wl-io")
            download_csv(io, "workload-iosize.csv", key="dl-wl-io", provenance=keys, values=values)
        with t3:
            fl = wf.sweep_files(w, cfgs, threads=scn.threads, zipf_alpha=scn.zipf_alpha)
            fig = px.bar(fl, x="config", y="ops_per_s", color=fl.files_scale.astype(str), barmode="group", log_y=True)
            show(style(fig, x="configuration", y="throughput [ops/s]"), key="wl-files")
            download_csv(fl, "workload-files.csv", key="dl-wl-files", provenance=keys, values=values)
        st.caption("Model limits: no dirty-page write-back timing (dirty_expire, throttling) in the guest or the "
                   "host, no guest/host page-cache interaction beyond the hit ratio; see docs/models/workload.md.")
