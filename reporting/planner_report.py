"""Presentation of the planner's ranking: one Plotly bar chart per role and a self-contained HTML report.

Used by ``pcm-planner rank --html`` and the Planner page; the ranking itself is
:func:`models.planner.rank_workloads`.
"""

from __future__ import annotations

import html as _h

import pandas as pd

from models.planner import ROLES, provenance_keys
from models.provenance import UNVERIFIED, provenance_table

__all__ = ["role_chart", "report_html", "provenance_html"]


def role_chart(df: pd.DataFrame, role: str):
    """A horizontal bar chart (plotly) of one role's ranking (its ``ok`` rows, best first)."""
    import plotly.express as px

    sub = df[(df.role == role) & (df.status == "ok")]
    fig = px.bar(sub, x="value", y="workload", orientation="h", hover_data=["reason"],
                 log_x=bool(len(sub)) and role.startswith("storage"), title=ROLES.get(role, role))
    fig.update_layout(yaxis=dict(autorange="reversed"), margin=dict(l=10, r=10, t=50, b=10))
    fig.update_xaxes(title_text=ROLES.get(role, role))  # the measure with its unit, never the column name "value"

    return fig


def provenance_html(keys) -> str:
    """An HTML section naming the provenance of every default the results used.

    ``keys``: registry names and ``"device:<name>.<column>"`` (:mod:`models.provenance`).
    Derived and assumed values are listed first and in bold.

    >>> "derived from a seed result" in provenance_html(["memext.fault_overhead_ns"])
    True
    """
    tab = provenance_table(keys)
    if not len(tab):
        return ""
    flagged = tab.kind.isin(UNVERIFIED)
    tab = pd.concat([tab[flagged], tab[~flagged]], ignore_index=True)
    counts = ", ".join(f"{n} {k}" for k, n in tab.kind.value_counts().items())
    rows = []
    for r in tab.itertuples():
        v = f"{r.value:.6g}" if isinstance(r.value, (int, float)) else str(r.value)
        cells = [_h.escape(str(x)) for x in (r.key, r.what, f"{v} {r.unit}", r.kind, r.source)]
        if r.kind in UNVERIFIED:
            cells = [f"<strong>{c}</strong>" for c in cells]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    n_flag = int(flagged.sum())
    return ("<h2 id='provenance'>Provenance of the defaults</h2>"
            f"<p>The numbers below used {len(tab)} defaults ({_h.escape(counts)}). "
            + (f"<strong>{n_flag} are derived from a seed result or assumed</strong> (bold, listed first): results that "
               "depend on them are only as good as those values. " if n_flag else "")
            + "Registry: <code>models/provenance.py</code>; device values: <code>data/devices.csv</code>.</p>"
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
             "~4 KB I/O. Ranks are within each role; <em>pending</em> rows await a model or data.</p>"]
    if provenance:
        parts.append(provenance_html(provenance_keys([r for r in ROLES if (df.role == r).any()])))
    first = True
    for role in ROLES:
        if not (df.role == role).any():
            continue
        parts.append(f"<h2>{_h.escape(role)}</h2>")
        if ((df.role == role) & (df.status == "ok")).any():
            parts.append(role_chart(df, role).to_html(full_html=False, include_plotlyjs="inline" if first else False))
            first = False
    parts.append("<h2>Full ranking</h2>")
    parts.append(df.to_html(index=False, escape=True, na_rep="", float_format=lambda x: f"{x:.4g}"))
    parts.append("</body></html>")
    return "\n".join(parts)
