"""Planner / Target-workload finder: rank workloads by PCM benefit in each role (seed 000 §4.6)."""

from __future__ import annotations

import streamlit as st
from pydantic import Field

from app.components import Scenario, download_csv, scenario_controls, user_errors
from app.components.charts import show
from app.components.claims import claims_strip
from app.components.how_sure import UncertaintyFields
from app.components.inputs import SciInt, int_input
from app.components.provenance import assumption_note
from app.components.scenario import init_state, some_of
from app.components.sweep_panel import sweep_panel
from app.components.tables import table
from models import planner
from models.storage.filebench import bundled_personalities
from models.traces import bundled_traces
from reporting.planner_report import report_html, role_chart


def _trace_names() -> list[str]:
    return [t for t in bundled_traces() if not t.startswith("disksim:")]


Personalities = some_of(bundled_personalities, what="personality")
Traces = some_of(_trace_names, what="trace")


class PlannerScenario(Scenario, UncertaintyFields):
    PREFIX = "plan"
    personalities: Personalities = Field(default_factory=lambda: ["fileserver", "webserver", "webproxy", "varmail"])
    traces: Traces = Field(default_factory=lambda: ["synthetic:mail", "synthetic:web-server", "mqsim:tpcc-small"])
    threads: int = Field(50, ge=1, le=256)
    n_requests: SciInt = Field(20_000, ge=1000, le=1_000_000)
    memory: bool = True


S = PlannerScenario
init_state(S)


@st.cache_data(show_spinner=False, max_entries=8, ttl=3600)
def _rank(personalities: tuple, traces: tuple, threads: int, n_requests: int, memory: bool, uq_samples: int = 0,
          uq_seed: int = 0):
    return planner.rank_workloads(personalities, traces, threads=threads, n_requests=n_requests, memory=memory,
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


st.title("Target-workload finder")
claims_strip("planner")
st.markdown(
    "Which workloads should PCM target? Every workload of the library is run through the project's models and "
    "ranked within each role: **storage** (PCM-DAX vs page-cached HDD/SSD, Filebench model), **file cache** "
    "(share of blocks for which a DRAM cache over PCM still pays), **write cache** (HALO PCM cache in front of an "
    "HDD), **memory extension** (slowdown and lifetime). Seed 000 §4.6: PCM storage pays for *many syncs, "
    "write-intensive, low locality, ~4 KB I/O*. Roles whose model or data is missing show as *pending*."
)

traces = _trace_names()
c1, c2 = st.columns([1, 2])
with c1:
    st.multiselect("Filebench personalities", bundled_personalities(), key=S.key("personalities"))
    st.session_state[S.key("traces")] = [t for t in st.session_state[S.key("traces")] if t in traces]
    st.multiselect("Block traces", traces, key=S.key("traces"))
    st.number_input("Threads (Filebench)", 1, 256, key=S.key("threads"))
    int_input(S, "n_requests", "Requests per block trace")
    st.checkbox("Memory roles", key=S.key("memory"))
    st.number_input("Samples per workload (How sure?)", 16, 100_000, step=256, key=S.key("uq_samples"),
                    help="Uncertain inputs sampled per row: p5/p95 of the value, the share of samples where PCM wins "
                         "(p_win) and the input that moves the answer most (docs/uncertainty.md)")
    st.number_input("Seed (How sure?)", 0, 2**31 - 1, key=S.key("uq_seed"))

scn = scenario_controls(S, page="planner")
if scn is not None:
    with user_errors("Planner"):
        with st.spinner("Evaluating the workload library..."):
            df = _rank(tuple(scn.personalities), tuple(scn.traces), scn.threads, scn.n_requests, scn.memory,
                       scn.uq_samples, scn.uq_seed)
        with c2:
            table(df)
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
                st.info(f"{r.workload}: {r.reason}", icon=":material/hourglass_empty:")
            assumption_note(planner.ROLE_PROVENANCE[role])
            download_csv(sub, f"pcm-{role}.csv", key=f"dl-plan-{role}", provenance=planner.ROLE_PROVENANCE[role])

sweep_panel()
