"""Presentation of the planner's ranking: one Plotly bar chart per role and a self-contained HTML report.

Used by ``pcm-planner rank --html`` and the Planner page; the ranking itself is
:func:`models.planner.rank_workloads`.
"""

from __future__ import annotations

import html as _h

import pandas as pd

from models.planner import ROLES

__all__ = ["role_chart", "report_html"]


def role_chart(df: pd.DataFrame, role: str):
    """A horizontal bar chart (plotly) of one role's ranking (its ``ok`` rows, best first)."""
    import plotly.express as px

    sub = df[(df.role == role) & (df.status == "ok")]
    fig = px.bar(sub, x="value", y="workload", orientation="h", hover_data=["reason"],
                 log_x=bool(len(sub)) and role.startswith("storage"), title=ROLES.get(role, role))
    fig.update_layout(template="plotly_white", yaxis=dict(autorange="reversed"), margin=dict(l=10, r=10, t=50, b=10))
    return fig


def report_html(df: pd.DataFrame, title: str = "PCM Planner: target-workload ranking") -> str:
    """A self-contained HTML report: one chart per role (plotly inlined) and the full table.

    >>> from models.planner import rank_workloads
    >>> html = report_html(rank_workloads(["varmail"], traces=(), memory=False))
    >>> html.startswith("<!DOCTYPE html>") and "plotly" in html and "varmail" in html
    True
    """
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{_h.escape(title)}</title>"
             "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;font-size:90%}"
             "td,th{border:1px solid #ccc;padding:4px}</style></head><body>",
             f"<h1>{_h.escape(title)}</h1>",
             "<p>Seed 000 §4.6: PCM storage pays for workloads with many syncs, write-intensive, low locality, "
             "~4 KB I/O. Ranks are within each role; <em>pending</em> rows await a model or data.</p>"]
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
