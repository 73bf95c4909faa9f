"""Planner / Target-workload finder: rank workloads by PCM benefit in each role (seed 000 §4.6)."""

from __future__ import annotations

import streamlit as st
from pydantic import Field

from app.components import Scenario, download_csv, scenario_controls, user_errors
from app.components.charts import show
from app.components.claims import claims_strip
from app.components.provenance import assumption_note
from app.components.scenario import init_state, some_of
from models import planner
from models.storage.filebench import bundled_personalities
from models.traces import bundled_traces
from reporting.planner_report import report_html, role_chart


def _trace_names() -> list[str]:
    return [t for t in bundled_traces() if not t.startswith("disksim:")]


Personalities = some_of(bundled_personalities, what="personality")
Traces = some_of(_trace_names, what="trace")


class PlannerScenario(Scenario):
    PREFIX = "plan"
    personalities: Personalities = Field(default_factory=lambda: ["fileserver", "webserver", "webproxy", "varmail"])
    traces: Traces = Field(default_factory=lambda: ["synthetic:mail", "synthetic:web-server", "mqsim:tpcc-small"])
    threads: int = Field(50, ge=1, le=256)
    n_requests: int = Field(20_000, ge=1000, le=1_000_000)
    memory: bool = True


S = PlannerScenario
init_state(S)


@st.cache_data(show_spinner=False)
def _rank(personalities: tuple, traces: tuple, threads: int, n_requests: int, memory: bool):
    return planner.rank_workloads(personalities, traces, threads=threads, n_requests=n_requests, memory=memory)


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
    st.number_input("Requests per block trace", 1000, 1_000_000, step=1000, key=S.key("n_requests"))
    st.checkbox("Memory roles", key=S.key("memory"))

scn = scenario_controls(S, page="planner")
if scn is not None:
    with user_errors("Planner"):
        with st.spinner("Evaluating the workload library..."):
            df = _rank(tuple(scn.personalities), tuple(scn.traces), scn.threads, scn.n_requests, scn.memory)
        with c2:
            st.dataframe(df, hide_index=True)
            keys = planner.provenance_keys([r for r in planner.ROLES if (df.role == r).any()])
            assumption_note(keys)
            download_csv(df, "pcm-target-workloads.csv", label="Download ranking (CSV)", key="dl-plan",
                         provenance=keys)
            st.download_button("Download HTML report (charts inline)", report_html(df),
                               file_name="pcm-target-workloads.html", mime="text/html", key="dl-plan-html",
                               icon=":material/description:")
        for role in planner.ROLES:
            sub = df[df.role == role]
            if not len(sub):
                continue
            st.subheader(role)
            if (sub.status == "ok").any():
                show(role_chart(df, role), key=f"plan-{role}")
            for r in sub[sub.status != "ok"].itertuples():
                st.info(f"{r.workload}: {r.reason}", icon=":material/hourglass_empty:")
            assumption_note(planner.ROLE_PROVENANCE[role])
            download_csv(sub, f"pcm-{role}.csv", key=f"dl-plan-{role}", provenance=planner.ROLE_PROVENANCE[role])
