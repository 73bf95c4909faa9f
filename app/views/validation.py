"""Overview / Validation against the papers: the computed claims ledger (models/validation)."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
import streamlit as st
from pydantic import Field

from app.components import Scenario, download_csv, scenario_controls, user_errors
from app.components.charts import figure, log_axis, show, style
from app.components.claims import STATUS_BADGE, STATUS_HEX, badge, load_ledger, status_style
from app.components.progress import progress_bar
from app.components.scenario import init_state, one_of, some_of
from app.components.tables import table as show_table
from app.registry import PAGES
from models.references import REFERENCES, SEEDS, seed_label
from models.validation.render import REGENERATE, status_counts
from models.validation.rules import STATUSES

PAPER_STATUSES = [s for s in STATUSES if s != "error"]
PageName = one_of(lambda: ["all", *[p[4] for p in PAGES]], what="page")
Seeds = some_of(SEEDS, what="seed")
Statuses = some_of(STATUSES, what="status")
#: a unit of the ledger's claims (the chart plots one unit at a time)
Unit = one_of(lambda: sorted(load_ledger()["unit"].dropna().astype(str).unique()), what="unit")


class ValidationScenario(Scenario):
    PREFIX = "val"
    source: Literal["committed", "live"] = Field("committed", title="Ledger")
    seeds: Seeds = Field(list(SEEDS), title="Seeds")
    statuses: Statuses = Field(list(PAPER_STATUSES), title="Statuses")
    page: PageName = Field("all", title="App page")
    search: str = Field("", title="Search (id, statement, reason)")
    unit: Unit = Field("%", title="Unit")


def claim_progress_text(k: int, n: int, claim) -> str:
    """What the re-run is doing now: ``"claim 3 of 150: 002-fig11-pcm-63.8 (memory-extension page)"``."""
    where = f" ({claim.page} page)" if getattr(claim, "page", "") else ""
    return f"claim {k} of {n}: {claim.claim_id}{where}"


@st.cache_data(show_spinner=False, max_entries=1)
def _live_ledger() -> pd.DataFrame:
    """Run every claim now (about a minute); cached for the server's lifetime."""
    from models.validation import ledger_frame, run_ledger

    # a known long run (~40 s): the bar shows at once and names each claim (and its page) as it starts
    with progress_bar("Running the models for every claim …", show_after_s=0.0, min_interval_s=0.0) as report:
        results = run_ledger(progress=lambda k, n, c, s: report((k - (s is None)) / n, claim_progress_text(k, n, c)))
    df = ledger_frame(results, extras=True)
    return df


S = ValidationScenario
init_state(S)
st.title("Validation against the papers")
st.markdown(
    "Every quantitative or directional claim of the five seed papers, checked by running our models on "
    "bundled data. The paper's value is as printed; ours is computed (never typed), on the data named in "
    "each row (synthetic stand-ins for traces we do not have say so). Each status follows from the claim's "
    "rule, whose tolerance is justified in the ledger; a claim whose input was derived from that same "
    "result is **circular** and never counts as reproduced; an agreement that only checks input files, catalogue "
    "arithmetic or a structural identity is **check only**, not reproduced; a term our models lack is **not "
    "modelled** (no value, never 0). Whatever a claim's tolerance, a number is reproduced only within 25 % of the "
    "paper's and partly within 2×, and a mean whose items disagree is not reproduced. The same table is "
    f"`docs/VALIDATION.md` and `pcm-planner validate`; `{REGENERATE}` regenerates them."
)

c1, c2 = st.columns([1, 2])
with c1:
    st.radio(S.label("source"), ["committed", "live"], key=S.key("source"), horizontal=True,
             format_func={"committed": "As committed (make validate)", "live": "Re-run the models now"}.get,
             help="The committed ledger is the one in docs/VALIDATION.md (a test keeps it fresh). A re-run takes "
                  "about a minute and is cached afterwards.")
scn = scenario_controls(S, page="validation")
if scn is not None:
    with user_errors("Validation ledger"):
        if scn.source == "live":
            ledger = _live_ledger()
        else:
            try:
                ledger = load_ledger()
            except FileNotFoundError:
                st.warning(f"No committed ledger yet: run `{REGENERATE}`, or re-run the models here.")
                st.stop()

        st.subheader("Claims per paper and status")
        counts = status_counts(ledger)
        shown = counts.rename(index=lambda s: seed_label(s) if s in REFERENCES else s)
        show_table(shown, hide_index=False, key="val-counts")
        download_csv(counts.reset_index(), "validation-counts.csv", key="dl-val-counts")
        fig = figure()
        per_seed = counts.drop(index="all")
        for status in [c for c in counts.columns if c != "total"]:
            fig.add_bar(x=[seed_label(s) for s in per_seed.index], y=per_seed[status], name=status,
                        marker_color=STATUS_HEX.get(status, "#888888"))
        fig.update_layout(barmode="stack", hovermode="closest")
        show(style(fig, x="seed paper", y="claims [count]"), key="val-bars")

        st.subheader("Claims")
        f1, f2, f3, f4 = st.columns([1, 2, 1, 1])
        f1.multiselect(S.label("seeds"), list(SEEDS), key=S.key("seeds"), format_func=seed_label)
        f2.multiselect(S.label("statuses"), list(STATUSES), key=S.key("statuses"), format_func=badge)
        f3.selectbox(S.label("page"), ["all", *[p[4] for p in PAGES]], key=S.key("page"),
                     format_func=lambda u: "all pages" if u == "all" else next(p[2] for p in PAGES if p[4] == u))
        f4.text_input(S.label("search"), key=S.key("search"))
        view = ledger[ledger["seed"].isin(scn.seeds) & ledger["status"].isin(scn.statuses)]
        if scn.page != "all":
            view = view[view["page"] == scn.page]
        if scn.search.strip():
            q = scn.search.strip().lower()
            hay = (view["claim_id"] + " " + view["statement"] + " " + view["reason"] + " " + view["where"]).str.lower()
            view = view[hay.str.contains(q, regex=False)]
        table = view.assign(status=view["status"].map(badge))[
            ["claim_id", "status", "paper_value", "our_value", "unit", "rule", "statement", "where", "circular",
             "reason", "data", "justification"]]  # the rule (its tolerance) beside the two values it compares
        st.caption(f"{len(view)} of {len(ledger)} claims")
        show_table(status_style(table), key="val-table", column_config={
            "claim_id": st.column_config.TextColumn("claim", width="medium"),
            "rule": st.column_config.TextColumn("rule (tolerance)", width="large",
                                                help="How the status follows from the two values: the tolerance of "
                                                     "'reproduced' and of 'partly'; the justification column says why"),
            "statement": st.column_config.TextColumn(width="large"),
            "reason": st.column_config.TextColumn(width="large"),
            "circular": st.column_config.CheckboxColumn(),
        })
        download_csv(view.drop(columns=["paper_number", "paper_low", "paper_high", "our_number"]),
                     "validation-ledger.csv", key="dl-val-ledger")

        st.subheader("Paper vs ours (numeric claims)")
        num = view[np.isfinite(view["paper_number"]) & np.isfinite(view["our_number"])]
        units = sorted(num["unit"].unique(), key=lambda u: (-int((num["unit"] == u).sum()), u))
        if not units:
            st.info("No numeric claim among the filtered rows.")
        else:
            if st.session_state.get(S.key("unit")) not in units:
                st.session_state[S.key("unit")] = units[0]
            st.selectbox(S.label("unit"), units, key=S.key("unit"),
                         format_func=lambda u: f"{u} ({int((num['unit'] == u).sum())} claims)",
                         help="Claims are compared in their own unit; pick one to plot.")
            unit = st.session_state[S.key("unit")]
            d = num[num["unit"] == unit]
            pos = d[(d["our_number"] > 0) & (d["paper_low"] > 0)]
            lo = float(np.nanmin(np.r_[d["paper_low"], d["our_number"]]))
            hi = float(np.nanmax(np.r_[d["paper_high"], d["our_number"]]))
            plo = float(np.nanmin(np.r_[pos["paper_low"], pos["our_number"]])) if len(pos) else 0.0
            # log axes when the values span more than ~1.5 decades; non-positive ones cannot be drawn there
            log = len(pos) >= 2 and hi > 0 and plo > 0 and hi / plo > 30
            hidden = d.drop(pos.index) if log else d.iloc[:0]
            d = pos if log else d
            span = [plo / 1.5, hi * 1.5] if log else [lo - 0.05 * (hi - lo or 1.0), hi + 0.05 * (hi - lo or 1.0)]
            fig = figure()
            fig.add_scatter(x=span, y=span, mode="lines", name="ours = paper", line=dict(dash="dash", color="#777"),
                            hoverinfo="skip")
            for status in [s for s in STATUS_BADGE if s in set(d["status"])]:
                g = d[d["status"] == status]
                err = dict(type="data", symmetric=False, array=g["paper_high"] - g["paper_number"],
                           arrayminus=g["paper_number"] - g["paper_low"], visible=True)
                fig.add_scatter(x=g["paper_number"], y=g["our_number"], mode="markers", name=status,
                                error_x=err, marker=dict(size=11, color=STATUS_HEX.get(status)),
                                customdata=np.c_[g["claim_id"], g["statement"], g["paper_value"], g["our_value"]],
                                hovertemplate="%{customdata[0]}<br>%{customdata[1]}<br>paper %{customdata[2]}, "
                                              "ours %{customdata[3]}<extra></extra>")
            style(fig, x=f"paper's value [{unit}]" + (" (log)" if log else ""),
                  y=f"our value [{unit}]" + (" (log)" if log else ""))
            fig.update_layout(hovermode="closest")
            if log:  # the app's decade labels (Plotly's own read "1000" beside "10,000")
                log_axis(fig, "x")
                log_axis(fig, "y")
            if len(hidden):
                st.caption("Not drawn on the log axes (a value ≤ 0): " + "; ".join(
                    f"{r.claim_id} (paper {r.paper_value}, ours {r.our_value})" for r in hidden.itertuples()) + ".")
            show(fig, key="val-scatter")
            st.caption("Horizontal bars: the paper's range. Ranges are plotted at their midpoint; direction "
                       "claims (share of cases) and claims without our value are not plotted.")
            download_csv(d[["claim_id", "statement", "unit", "paper_value", "paper_number", "paper_low",
                            "paper_high", "our_value", "our_number", "status"]],
                         "validation-paper-vs-ours.csv", key="dl-val-scatter")

        st.subheader("References")
        st.markdown("\n".join(f"- **[{k}]** {REFERENCES[k].text()}." + (f" *{REFERENCES[k].note}*"
                                                                        if REFERENCES[k].note else "")
                              for k in SEEDS))
