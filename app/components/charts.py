"""Plotly figure conventions shared by all pages."""

from __future__ import annotations

import plotly.graph_objects as go


def style(fig: go.Figure, *, title: str | None = None, x: str | None = None, y: str | None = None,
          logx: bool = False, logy: bool = False) -> go.Figure:
    """Apply the app's common layout: titles, axis labels with units, log axes, legend."""
    fig.update_layout(
        title=title, template="plotly_white", margin=dict(l=10, r=10, t=50 if title else 20, b=10),
        legend=dict(orientation="h", yanchor="top", y=-0.18, xanchor="left", x=0),
        hovermode="x unified",
    )
    if x:
        fig.update_xaxes(title_text=x)
    if y:
        fig.update_yaxes(title_text=y)
    if logx:
        fig.update_xaxes(type="log")
    if logy:
        fig.update_yaxes(type="log")
    return fig


def show(fig: go.Figure, *, key: str | None = None) -> None:
    """Render a figure full-width."""
    import streamlit as st

    st.plotly_chart(fig, width="stretch", key=key)
