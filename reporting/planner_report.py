"""Presentation of the planner's ranking: one Plotly bar chart per role and a self-contained HTML report.

Used by ``pcm-planner rank --html`` and the Planner page; the ranking itself is
:func:`models.planner.rank_workloads`.
"""

from __future__ import annotations

import html as _h
import math

import numpy as np
import pandas as pd

from models.planner import ROLES, provenance_keys
from models.planner.verdicts import EVALUATED
from models.provenance import UNVERIFIED, provenance_table
from reporting.number_text import power_of_ten, provenance_text

__all__ = ["role_chart", "report_html", "provenance_html", "plan_chart", "plan_report_html", "validation_summary",
           "devices_table", "plan_baselines", "executive_summary", "summary_economics", "ECON_COLUMNS",
           "ledger_confidence", "workloads_table", "plan_verdict_table", "ratio_range", "ratio_ticks"]


#: Roles of the library ranking whose value is a ratio with > 1 = PCM wins (bars from the 1x line).
_WIN_RATIO_ROLES = ("storage-vs-hdd", "storage-vs-ssd", "write-cache")
#: Colour of bars that are not a win/loss ratio (a share, a slowdown, a lifetime).
NEUTRAL_COLOUR = "#4a6fa5"


def role_chart(df: pd.DataFrame, role: str):
    """A horizontal bar chart (plotly) of one role's ranking (its ``ok`` rows, best first).

    Data strings (workload names, reasons) are raw: the app's ``show()`` and the reports escape them
    once (:mod:`reporting.plotly_text`).

    Ratio roles (PCM speedup vs HDD/SSD, HDD time saved by the write cache) are drawn from a 1x line
    on a log axis centred on it, green where PCM wins (> 1x) and red where it loses; the
    memory-extension slowdown from 1x (DRAM only) on a log axis; shares and lifetimes on a linear axis.
    """
    import numpy as np
    import plotly.graph_objects as go

    sub = df[(df.role == role) & (df.status == "ok")]
    vals = sub["value"].to_numpy(float)
    names = [str(w) for w in sub["workload"]]  # raw: escaped once where shown (reporting.plotly_text)
    ratio = bool(len(sub)) and (role in _WIN_RATIO_ROLES or role == "memory-extension")
    text = [_ratio_text(v) if ratio else f"{v:.3g}" for v in vals]
    if ratio:
        lo, hi = ratio_range(vals)
        shown = np.clip(np.where(np.isfinite(vals), vals, 10 ** hi), 10 ** lo, 10 ** hi)
        colours = ([WIN_COLOUR if v > 1 else LOSE_COLOUR for v in vals] if role in _WIN_RATIO_ROLES
                   else [NEUTRAL_COLOUR] * len(vals))
        bar = go.Bar(x=shown - 1.0, base=np.ones(len(vals)), y=names, orientation="h", text=text,
                     textposition="inside", insidetextanchor="start", textfont=dict(color="white"),
                     marker=dict(color=colours, line=dict(color=colours, width=1)))
    else:
        bar = go.Bar(x=vals, y=names, orientation="h", text=text, textposition="auto",
                     marker=dict(color=NEUTRAL_COLOUR))
    bar.update(customdata=[str(r) for r in sub["reason"]],
               hovertemplate="%{y}: %{text}<br>%{customdata}<extra></extra>")
    fig = go.Figure(bar)
    fig.update_layout(template="plotly_white", title=ROLES.get(role, role), showlegend=False,
                      yaxis=dict(autorange="reversed", title_text="workload"), margin=dict(l=10, r=10, t=50, b=10))
    fig.update_xaxes(title_text=ROLES.get(role, role))  # the measure with its unit, never the column name "value"
    if ratio:
        tickvals, ticktext = ratio_ticks(lo, hi)
        fig.update_xaxes(type="log", range=[lo, hi], tickvals=tickvals, ticktext=ticktext)
        fig.add_shape(type="line", x0=1, x1=1, y0=0, y1=1, yref="paper",
                      line=dict(color="#222", width=2, dash="dash"))
    return fig


def _fig_html(fig, first: bool) -> str:
    """A figure's HTML fragment (plotly.js inlined with the first one), user text in its data escaped
    once (:func:`reporting.plotly_text.escape_figure_data`: names show as typed, never as markup)."""
    from reporting.plotly_text import escape_figure_data

    return escape_figure_data(fig).to_html(full_html=False, include_plotlyjs="inline" if first else False,
                                           config={"displaylogo": False})


def provenance_html(keys, *, devices: dict | None = None) -> str:
    """An HTML section naming the provenance of every default the results used.

    ``keys``: registry names and ``"device:<name>.<column>"`` (:mod:`models.provenance`);
    ``devices`` (name -> profile) resolves custom devices. Derived and assumed values are listed
    first and in bold.

    >>> "<strong>assumed</strong>" in provenance_html(["planner.write_cache_mb", "memext.fault_overhead_ns"])
    True
    """
    tab = provenance_table(keys, devices)
    if not len(tab):
        return ""
    flagged = tab.kind.isin(UNVERIFIED)
    tab = pd.concat([tab[flagged], tab[~flagged]], ignore_index=True)
    counts = ", ".join(f"{n} {k}" for k, n in tab.kind.value_counts().items())
    rows = []
    for r in tab.itertuples():
        what, value = provenance_text(r.key, r.what, r.value, r.unit)  # as the app's notes write them
        cells = [_h.escape(str(x)) for x in (r.key, what, value, r.kind, r.source)]
        if r.kind in UNVERIFIED:
            cells = [f"<strong>{c}</strong>" for c in cells]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    n_flag = int(flagged.sum())
    return ("<h2 id='provenance'>Provenance of the defaults</h2>"
            f"<p>The numbers below used {len(tab)} defaults ({_h.escape(counts)}). "
            + (f"<strong>{n_flag} are derived from a seed result, simulated or assumed</strong> (bold, listed first): "
               "results that depend on them are only as good as those values. " if n_flag else "")
            + "Registry: <code>models/provenance/</code>; device values: <code>data/devices.csv</code>.</p>"
            "<table><tr><th>key</th><th>what</th><th>value</th><th>kind</th><th>source</th></tr>"
            + "".join(rows) + "</table>")


def report_html(df: pd.DataFrame, title: str = "PCM Planner: target-workload ranking", *,
                provenance: bool = True) -> str:
    """A self-contained HTML report: the provenance of its defaults, one chart per role
    (plotly inlined) and the full table.

    >>> from models.planner import rank_workloads
    >>> html = report_html(rank_workloads(["varmail"], traces=(), memory=False))
    >>> html.startswith("<!DOCTYPE html>") and "plotly" in html and "varmail" in html
    True
    >>> "Provenance of the defaults" in html and "workload.page_cache_bytes" in html
    True
    """
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{_h.escape(title)}</title>"
             "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;font-size:90%}"
             "td,th{border:1px solid #ccc;padding:4px}</style></head><body>",
             f"<h1>{_h.escape(title)}</h1>",
             "<p>Seed 000 §4.6: PCM storage pays for workloads with many syncs, write-intensive, low locality, "
             "~4 KB I/O. Ranks are within each role; rows marked <em>not applicable</em>, <em>needs data</em> or <em>pending</em> carry no number, only the reason.</p>"]
    if provenance:
        parts.append(provenance_html(provenance_keys([r for r in ROLES if (df.role == r).any()])))
    first = True
    for role in ROLES:
        if not (df.role == role).any():
            continue
        parts.append(f"<h2>{_h.escape(role)}</h2>")
        if ((df.role == role) & (df.status == "ok")).any():
            parts.append(_fig_html(role_chart(df, role), first))
            first = False
    parts.append("<h2>Full ranking</h2>")
    shown = df.astype({"rank": object}).assign(rank=[("" if pd.isna(r) else int(r)) for r in df["rank"]]) \
        if "rank" in df else df  # an unranked (pending) row shows an empty rank, not <NA>
    parts.append(shown.to_html(index=False, escape=True, na_rep="", float_format=lambda x: f"{x:.4g}"))
    parts.append("</body></html>")
    return "\n".join(parts)


# ============================================================================= the plan report (pcm-planner plan)
#: Bar colours of a plan chart: the device wins / loses against the baseline.
WIN_COLOUR, LOSE_COLOUR = "#2e7d32", "#c62828"
#: Colour of "about the same" (a tie: :func:`models.planner.verdicts.is_tie`).
TIE_COLOUR = "#1565c0"
#: Colour of each verdict with a value.
VERDICT_COLOUR = {"wins": WIN_COLOUR, "about the same": TIE_COLOUR, "loses": LOSE_COLOUR}
_CSS = ("body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}"
        "table{border-collapse:collapse;font-size:90%;margin:0.5em 0}td,th{border:1px solid #ccc;padding:4px;"
        "vertical-align:top;text-align:left}td.reason{min-width:28em;white-space:normal}"
        ".wins{color:#2e7d32;font-weight:bold}.loses{color:#c62828;font-weight:bold}.tie{color:#1565c0;font-weight:bold}"
        ".na{color:#666}"
        "h2{margin-top:1.6em}.note{color:#555;font-size:90%}")


def ratio_range(values) -> tuple[float, float]:
    """A log-axis range [log10] centred on 1x that holds every finite positive ratio in ``values``.

    >>> ratio_range([0.5, 20.0])
    (-1.5, 1.5)
    >>> ratio_range([])
    (-1.0, 1.0)
    """
    import numpy as np

    v = np.asarray([x for x in values if x == x and 0 < x < float("inf")], dtype=float)
    half = float(np.max(np.abs(np.log10(v)))) if len(v) else 0.0
    half = max(1.0, float(np.ceil((half + 0.15) * 2) / 2))  # half decades, room for the value labels
    return -half, half


def ratio_ticks(lo: float, hi: float) -> tuple[list[float], list[str]]:
    """Decade ticks of a ratio axis (``lo``, ``hi`` in log10): values and labels ``0.1x, 1x, 10x, ...``.

    >>> ratio_ticks(-1.5, 1.5)
    ([0.1, 1.0, 10.0], ['0.1×', '1×', '10×'])
    """
    import math

    ks = range(math.ceil(lo), math.floor(hi) + 1)
    plain = all(-4 < k < 4 for k in ks)  # one style per axis: 0.1× 1× 10×, or 10⁻⁵× … 1× … 10⁵× (as the app's
    return [10.0 ** k for k in ks], [f"{10.0 ** k:,g}×" if plain or k == 0 else f"{power_of_ten(k)}×"  # charts)
                                     for k in ks]


def _bar_rows(df: pd.DataFrame, role: str) -> pd.DataFrame:
    sub = df[(df.role == role) & df.verdict.isin(EVALUATED)].copy()
    sub["label"] = [f"{w} · {d}" for w, d in zip(sub.workload, sub.device)]
    return sub


def _ratio_text(v: float) -> str:
    import math

    if not math.isfinite(v):
        return "∞×"
    return f"{v:,.0f}×" if v >= 100 else f"{v:.3g}×"


def plan_chart(df: pd.DataFrame, role: str):
    """Plotly bar chart of one role of a plan: value [x] per workload · device on a log axis centred on
    a 1x line, each bar drawn from 1x to its value (right: the device wins, green; left: it loses,
    red), p5-p95 whiskers when sampled. Data strings are raw, as in :func:`role_chart`."""
    import numpy as np
    import plotly.graph_objects as go

    sub = _bar_rows(df, role)
    metric = " / ".join(dict.fromkeys(sub["metric"].astype(str))) or role
    vals = sub["value"].to_numpy(float)
    p5, p95 = sub["p5"].to_numpy(float), sub["p95"].to_numpy(float)
    lo, hi = ratio_range(np.concatenate([vals, p5, p95]))
    clip = (10 ** lo, 10 ** hi)
    shown = np.clip(vals, *clip)
    colours = [VERDICT_COLOUR[v] for v in sub.verdict]
    labels = sub["label"].tolist()
    fig = go.Figure(go.Bar(
        x=shown - 1.0, base=np.ones(len(shown)), y=labels, orientation="h",
        marker=dict(color=colours, line=dict(color=colours, width=1)),
        text=[_ratio_text(v) for v in vals], textposition="inside", insidetextanchor="start",
        textfont=dict(color="white"), name="value",
        customdata=np.stack([sub.reason.astype(str), sub.baseline.astype(str), vals], axis=-1),
        hovertemplate="%{y}: %{customdata[2]:.3g}× vs %{customdata[1]}<br>%{customdata[0]}<extra></extra>"))
    has_band = np.isfinite(p5) & np.isfinite(p95)
    if has_band.any():
        lo_b, hi_b = np.clip(p5, *clip), np.clip(p95, *clip)
        fig.add_trace(go.Scatter(
            x=np.where(has_band, shown, np.nan), y=labels, mode="markers", name="p5–p95",
            marker=dict(color="#222", size=5, symbol="line-ns-open"),
            error_x=dict(type="data", symmetric=False, array=np.where(has_band, hi_b - shown, 0),
                         arrayminus=np.where(has_band, shown - lo_b, 0), color="#222", thickness=1.5, width=5),
            hovertemplate="%{y}: p5–p95 band<extra></extra>"))
    tickvals, ticktext = ratio_ticks(lo, hi)
    fig.update_xaxes(type="log", range=[lo, hi], tickvals=tickvals, ticktext=ticktext,
                     title_text=f"{metric} [×, baseline / device; > 1× the device wins]")
    fig.update_yaxes(autorange="reversed", title_text="workload · device")
    fig.add_shape(type="line", x0=1, x1=1, y0=0, y1=1, yref="paper", line=dict(color="#222", width=2, dash="dash"))
    fig.add_annotation(x=0, y=1.0, xref="x", yref="paper", text="1× (baseline)", showarrow=False, yanchor="bottom",
                       font=dict(size=11))
    fig.update_layout(template="plotly_white", height=150 + 40 * max(len(sub), 1), showlegend=False,
                      title=dict(text=f"{role}: {metric}", font=dict(size=15)), margin=dict(l=10, r=30, t=60, b=50))
    return fig


def validation_summary(roles) -> pd.DataFrame:
    """Validation status of the models behind ``roles``: claim counts per status from the ledger
    (``models/validation/ledger.csv``, pages :data:`models.planner.plan.ROLE_LEDGER_PAGES`).

    Columns ``role, pages, claims``, one per status, and ``summary`` (``"3 reproduced, 2 partly, ..."``).

    >>> t = validation_summary(["write-cache"]); t.pages[0], bool(t.claims[0] > 0)
    ('write-cache, hdd-model', True)
    """
    from models.planner.plan import ROLE_LEDGER_PAGES
    from models.validation import STATUSES
    from models.validation.render import table_path

    led = pd.read_csv(table_path(), dtype=str, keep_default_na=False)
    rows = []
    for role in roles:
        pages = ROLE_LEDGER_PAGES[role]
        sub = led[led["page"].isin(pages)]
        counts = sub["status"].value_counts()
        row = {"role": role, "pages": ", ".join(pages), "claims": int(len(sub))}
        row.update({s: int(counts.get(s, 0)) for s in STATUSES})
        row["summary"] = ", ".join(f"{row[s]} {s}" for s in STATUSES if row[s]) or "no claims in the ledger"
        rows.append(row)
    return pd.DataFrame(rows, columns=["role", "pages", "claims", *STATUSES, "summary"])


#: Short spellings of the provenance kinds next to a device value in the report.
_SHORT_KIND = {"measured here": "measured", "derived from a seed result": "derived"}


def _with_kind(d, column: str, value) -> str:
    """``"<value> (<kind>)"``: a device value with its provenance kind; a bandwidth the catalogue leaves
    empty is the models' access unit / latency (``computed by the model``); an empty value is ""."""
    if value is None:
        return ""
    if getattr(d, column) is None:
        return f"{_fmt(float(value))} (computed by the model: unit / latency)"
    kind = d.value_kind(column)
    return f"{_fmt(float(value))} ({_SHORT_KIND.get(kind, kind)})"


def devices_table(devices, baselines=()) -> pd.DataFrame:
    """The figures of the compared devices and the baselines: one row per device (units in the column
    names), each value followed by its provenance kind (``"320 (computed)"``;
    :meth:`~models.devices.DeviceProfile.value_kind`); ``in this plan`` says which it is.

    ``baselines``: ``(profile, roles)`` pairs (:func:`plan_baselines`): a baseline that is also compared is
    one row.

    >>> from models.devices import get_device
    >>> t = devices_table([get_device("pcm-samsung-20nm")], [(get_device("sata-ssd"), ["storage"])])
    >>> t.iloc[0]["write bandwidth [MB/s]"], list(t["in this plan"])
    ('320 (computed)', ['compared', 'baseline (storage)'])
    """
    role_of = {d.name: ["compared"] for d in devices}
    shown = list(devices)
    for b, roles in baselines:
        if b.name not in role_of:
            role_of[b.name] = []
            shown.append(b)
        role_of[b.name].append(f"baseline ({', '.join(roles)})")
    rows = []
    for d in shown:
        rows.append({"device": d.name, "in this plan": "; ".join(role_of[d.name]), "label": d.label, "kind": d.kind,
                     "read latency [ns]": _with_kind(d, "read_latency_ns", d.read_latency_ns),
                     "write latency [ns]": _with_kind(d, "write_latency_ns", d.write_latency_ns),
                     "read bandwidth [MB/s]": _with_kind(d, "read_bandwidth_MBps", d.effective_read_bandwidth_MBps),
                     "write bandwidth [MB/s]": _with_kind(d, "write_bandwidth_MBps", d.effective_write_bandwidth_MBps),
                     "endurance [writes/cell]": _with_kind(d, "endurance_writes_per_cell", d.endurance_writes_per_cell),
                     "source": d.source})
    return pd.DataFrame(rows)


def plan_baselines(res) -> list[tuple]:
    """The baseline devices of a plan's evaluated roles, ``[(profile, [roles])]``: the one baseline device
    of every role, or each role's like-for-like device (the write cache's "no cache" is no device)."""
    from models.devices import get_device
    from models.planner.roles import LIKE_FOR_LIKE

    roles = res.roles_used
    if res.baseline_device is not None:
        return [(res.baseline_device, roles)] if roles else []
    out: dict[str, list[str]] = {}
    for r in roles:
        if LIKE_FOR_LIKE[r]:
            out.setdefault(LIKE_FOR_LIKE[r], []).append(r)
    return [(get_device(n), rs) for n, rs in out.items()]


def role_baseline_name(res, role: str) -> str:
    """The baseline of ``role`` in a plan, in a word: the device's name or "no cache"."""
    from models.planner.roles import LIKE_FOR_LIKE

    if res.baseline_device is not None:
        return res.baseline_device.name
    return LIKE_FOR_LIKE[role] or "no cache"


#: Columns the economics add to a plan's frame (:meth:`PlanResult.to_frame`) -> their labels in the summary.
ECON_COLUMNS = {"cost_usd": "cost [USD]", "lifetime_years": "lifetime [years]", "economic_verdict": "economic verdict"}


def summary_economics(df: pd.DataFrame, index) -> dict:
    """The cost and lifetime slot of the executive summary: ``{label: value}`` of the row ``index`` of the
    plan frame ``df`` for each economic column (:data:`ECON_COLUMNS`) the frame has; ``{}`` when it has none
    (a plan without the economics), so the summary shows no empty columns."""
    return {label: df.at[index, c] for c, label in ECON_COLUMNS.items() if c in df.columns}


def ledger_confidence(role: str) -> str:
    """How far the ledger trusts ``role``'s models in a few words: claims reproduced or partly of all,
    and contradicted (:func:`validation_summary`).

    >>> ledger_confidence("paging")[:7]
    'ledger:'
    """
    t = validation_summary([role]).iloc[0]
    if not t.claims:
        return "ledger: no claims"
    agree = int(t["reproduced"] + t["partly"])
    return f"ledger: {agree} of {int(t.claims)} claims reproduced or partly, {int(t['contradicted'])} contradicted"


def _band_confidence(row) -> str:
    if math.isfinite(row.p5) and math.isfinite(row.p95):
        win = f", P(win) {row.p_win:.0%}" if math.isfinite(row.p_win) else ""
        return f"band p5–p95 {_ratio_text(row.p5)}–{_ratio_text(row.p95)}{win}"
    return "band not sampled"


def executive_summary(res) -> tuple[pd.DataFrame, list[str]]:
    """The answer per role of a plan, for its first page: one row per role and workload with the best device
    (highest baseline / device [×]), its verdict and value against the role's baseline, the confidence (the
    ledger's status of the role's models, the row's p5-p95 band), the economics when the plan has them
    (:func:`summary_economics`); a role with no evaluated row says why in one row. Also the notes of the
    best rows far from their seed paper's answer (:meth:`PlanResult.paper_notes`).

    >>> from models.planner.plan import plan, workload_from_path
    >>> t, notes = executive_summary(plan([workload_from_path("mqsim:tpcc-small", name="db")], ["pcm-samsung-20nm"],
    ...                                   n_requests=2000))
    >>> list(t.columns)[:5], t.role.iloc[0]
    (['role', 'workload', 'best device', 'verdict', 'value'], 'file-cache')
    """
    from models.planner.roles import ROLES_PLAN

    df = res.to_frame()
    notes_all = res.paper_notes()
    rows, notes = [], []
    for role in ROLES_PLAN:
        sub = df[df.role == role]
        if not len(sub):
            continue
        ok = sub[sub.verdict.isin(EVALUATED) & np.isfinite(sub.value.astype(float))]
        if not len(ok):
            first = sub.iloc[0]
            rows.append({"role": role, "workload": "", "best device": "", "verdict": first.verdict,
                         "value": str(first.reason).split(": ", 1)[-1][:160], "confidence": ""})
            continue
        for w in dict.fromkeys(ok.workload):
            i = ok[ok.workload == w].value.astype(float).idxmax()
            r = df.loc[i]
            row = {"role": role, "workload": w, "best device": r.device, "verdict": r.verdict,
                   "value": f"{_ratio_text(float(r.value))} vs {role_baseline_name(res, role)}",
                   "confidence": f"{ledger_confidence(role)}; {_band_confidence(r)}"}
            row.update(summary_economics(df, i))
            rows.append(row)
            note = notes_all.get((w, role, r.device))
            if note:
                notes.append(f"{role} · {w} · {r.device}: {note}")
    cols = ["role", "workload", "best device", "verdict", "value", "confidence",
            *[lab for c, lab in ECON_COLUMNS.items() if c in df.columns]]
    return pd.DataFrame(rows, columns=cols), notes


def workloads_table(workloads) -> pd.DataFrame:
    """The plan's workloads: name, kind and the file's name (an upload: the user's name of it, never the stored
    copy's; a path: its file name, not the full path) or the bundled name."""
    from pathlib import Path

    return pd.DataFrame([{"workload": w.name, "kind": w.kind,
                          "source": w.shown_as or (Path(w.source).name if Path(w.source).is_file() else w.source)}
                         for w in workloads], columns=["workload", "kind", "source"])


def _fmt(x) -> str:
    if isinstance(x, float):
        if x != x:
            return ""
        return f"{x:,.0f}" if abs(x) >= 1e4 and abs(x) < 1e9 else f"{x:.4g}"
    return str(x)


def _table(df: pd.DataFrame, classes: dict | None = None) -> str:
    head = "".join(f"<th>{_h.escape(str(c))}</th>" for c in df.columns)
    body = []
    for r in df.itertuples(index=False):
        cells = []
        for c, v in zip(df.columns, r):
            cls = (classes or {}).get(c, lambda _v: "")(v)
            cells.append(f"<td{f' class={cls!r}' if cls else ''}>{_h.escape(_fmt(v))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def plan_verdict_table(res) -> pd.DataFrame:
    """The plan's rows for reading: verdict and reason next to the names (no sideways scrolling),
    the band as ``p5-p95``."""
    df = res.to_frame()
    band = [f"{a:.3g}–{b:.3g}" if a == a and b == b else "" for a, b in zip(df.p5, df.p95)]
    out = pd.DataFrame({"workload": df.workload, "role": df.role, "device": df.device, "verdict": df.verdict,
                        "value [×]": df.value, "p5–p95 [×]": band, "reason": df.reason, "baseline": df.baseline})
    if res.uncertainty:
        out["P(device wins)"] = df.p_win
        out["decisive input"] = df.decisive_input
    return out


def plan_economics_table(res) -> pd.DataFrame:
    """The plan's economics (issue 37), one row per evaluated workload · role · device: capacity, price (with its
    date), cost over the horizon, lifetime under the workload, cost per unit of work vs the baseline, the
    economic verdict and why."""
    df = res.to_frame()
    ev = df[df.verdict.isin(EVALUATED)]
    dates = {d.name: d.price_date for d in res.devices}
    return pd.DataFrame({
        "workload": ev.workload, "role": ev.role, "device": ev.device, "capacity [GB]": ev.capacity_GB,
        "price [$/GB]": ev.price_usd_per_GB, "price date": [dates.get(d, "") for d in ev.device],
        f"cost over {res.horizon_years:g} years [$]": ev.cost_usd, "lifetime [years]": ev.lifetime_years,
        "cost per work vs baseline [×]": ev.cost_per_work_vs_baseline, "economic verdict": ev.economic_verdict,
        "why": ev.economic_reason})


def summary_lead(res) -> str:
    """The sentence over the summary table: what the value is, against what, how many rows win/lose."""
    df = res.to_frame()
    ok = df[df.verdict.isin(EVALUATED)]
    base = ("each role's like-for-like baseline" if res.baseline == "like-for-like"
            else f"{res.baseline} in every role")
    n_lose = int((ok.verdict == "loses").sum())
    return (f"{(ok.verdict == 'wins').sum()} wins, {(ok.verdict == 'about the same').sum()} about the same and "
            f"{n_lose} {'loss' if n_lose == 1 else 'losses'} over {len(ok)} workload × role × device rows, against {base}. "
            "Value = baseline / device [×] (> 1×: the device wins); per role and workload the best device is shown, "
            "with how far the role's models agree with their seed papers (the validation ledger) and the row's "
            "p5–p95 band.")


def plan_report_html(res, title: str = "PCM Planner: plan for your workloads", *, extra_sections=()) -> str:
    """A self-contained HTML report of a plan (:class:`models.planner.PlanResult`): inputs (workloads,
    devices with their figures), one chart per role (plotly.js inlined once), the verdicts with their
    reasons and bands, the provenance of every parameter used and the validation status of every model;
    ``extra_sections``: callables ``section(first) -> str`` adding sections before the provenance (``first``: plotly.js
    is not yet inlined), e.g. the "Product targets" (:func:`reporting.planner_targets_report.targets_section`).

    >>> from models.planner.plan import plan, workload_from_path
    >>> html = plan_report_html(plan([workload_from_path("mqsim:tpcc-small", name="db")], ["pcm-samsung-20nm"],
    ...                              n_requests=2000))
    >>> html.startswith("<!DOCTYPE html>") and "Validation status" in html and "db" in html
    True
    """
    from models.planner.plan import ROLES_PLAN

    df = res.to_frame()
    base = ("each role's like-for-like baseline" if res.baseline == "like-for-like"
            else f"{res.baseline} as the baseline of every role")
    summary, notes = executive_summary(res)
    verdict_cls = {"verdict": lambda v: {"wins": "wins", "loses": "loses", "about the same": "tie"}.get(v, "na"),
                   "reason": lambda v: "reason"}
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{_h.escape(title)}</title>"
             f"<style>{_CSS}</style></head><body>", f"<h1>{_h.escape(title)}</h1>",
             "<h2 id='summary'>Summary: the answer per role</h2>",
             f"<p>{_h.escape(summary_lead(res))}</p>", _table(summary, verdict_cls)]
    if notes:
        parts.append("<p><strong>Far from the seed paper's answer</strong> (more than a factor 2):</p><ul>"
                     + "".join(f"<li>{_h.escape(n)}</li>" for n in notes) + "</ul>")
    parts += ["<h2 id='details'>Details</h2>",
              f"<p>Each bar is baseline / device [×] for one workload and device, against {_h.escape(base)}: "
              "<span class='wins'>green</span> where the device wins (&gt; 1×), <span class='loses'>red</span> where it "
              "loses, <span class='tie'>blue</span> where it is about the same (1× within the p5–p95 band, or within "
              "the stated tolerance planner.tie_tolerance); whiskers span p5–p95 of the uncertain inputs"
              + (f" ({res.uncertainty} samples)" if res.uncertainty else " (not sampled: run with --uncertainty N)")
              + ". Roles that do not apply or need another kind of workload are listed under their chart.</p>",
              "<h2 id='inputs'>Inputs</h2><h3>Workloads</h3>", _table(workloads_table(res.workloads)),
              "<h3>Devices</h3>", _table(devices_table(res.devices, plan_baselines(res)))]
    first = True
    parts.append("<h2 id='verdicts'>Verdicts per role</h2>")
    for role in ROLES_PLAN:
        sub = df[df.role == role]
        if not len(sub):
            continue
        parts.append(f"<h3>{_h.escape(role)}</h3>")
        if sub.verdict.isin(EVALUATED).any():
            parts.append(_fig_html(plan_chart(df, role), first))
            first = False
        other = sub[~sub.verdict.isin(EVALUATED)]
        if len(other):  # one line per workload and reason, naming its devices
            groups = other.groupby(["workload", "reason"], sort=False)["device"].apply(list)
            items = "".join(f"<li><strong>{_h.escape(str(w))} · {_h.escape(', '.join(map(str, ds)))}</strong>: "
                            f"{_h.escape(str(why))}</li>" for (w, why), ds in groups.items())
            parts.append(f"<ul class='na'>{items}</ul>")
    parts.append("<h2 id='table'>All verdicts</h2>")
    parts.append(_table(plan_verdict_table(res), verdict_cls))
    econ = plan_economics_table(res)
    if len(econ):
        parts.append("<h2 id='economics'>Economics</h2><p>Capacity each role uses, its cost over the horizon with "
                     "the replacements its wear-out needs under the workload, and the cost per unit of work against "
                     "the baseline (&gt; 1×: the device costs more); NaN where not known.</p>")
        parts.append(_table(econ, {"why": lambda v: "reason"}))
    roles = res.roles_used
    if roles:
        vs = validation_summary(roles)
        parts.append("<h2 id='validation'>Validation status of the models used</h2>"
                     "<p>Claims of the seed papers checked by the model behind each role (the validation ledger, "
                     "<code>docs/VALIDATION.md</code>): how far the model is trusted.</p>")
        parts.append(_table(vs[["role", "pages", "claims", "summary"]].rename(
            columns={"pages": "ledger pages", "summary": "status"})))
    for section in extra_sections:
        parts.append(section(first))
        first = first and "plotly" not in parts[-1]
    prov = provenance_html(res.provenance_keys, devices=res.custom_devices)
    if prov:
        parts.append("<h2 id='appendix'>Appendix</h2>" + prov)
    parts.append("</body></html>")
    return "\n".join(parts)
