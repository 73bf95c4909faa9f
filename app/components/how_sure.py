"""The "How sure?" panel: tornado chart, p5-p95 band and the decisive input of a page's headline number.

A page calls :func:`how_sure` with its model's :class:`~models.uncertainty.UncertainModel`
(an adapter of the adapter beside the model (``models/<package>/uncertainty.py``; the table in ``docs/uncertainty.md``)) after drawing its results. The sample
count, the seed and the Sobol' switch are fields of the page's scenario (URL + JSON): page
scenarios add :class:`UncertaintyFields` (``class MyScenario(Scenario, UncertaintyFields)``).

The analysis is cached across reruns and sessions (``st.cache_data``, bounded) by content:
the page's scenario values, the session's custom devices, what the page passes as
``content`` (e.g. the trace's fingerprint) and, for a built model, its inputs, verdict and
point output (:func:`model_fingerprint`). A page whose model is costly to build passes a
zero-argument callable instead of the model: it is built only on a cache miss. A page that draws
the band on its main chart before the panel calls :func:`analysis` (the same cached result);
curves over x use :mod:`app.components.bands`.

The sentence and the p5 / p95 / verdict numbers are drawn on every run; the tornado chart and its
table sit in a lazy tab (:data:`TABS`, ``on_change="rerun"``): built, sent and drawn only while it
is open, so a rerun after an input change draws one Plotly chart and one grid fewer (issue 18).

While it runs, a progress bar shows the one simulation of a trace-driven model and the sampling;
a model that re-runs per sample (e.g. Filebench's MVA) reports its progress chunk by chunk
(:func:`with_progress`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from pydantic import BaseModel, Field

from app.components.charts import centred_range, log_axis, ratio_axis, ref_line, show, style
from app.components.errors import md_escape
from app.components.inputs import SciInt, int_input
from app.components.lazy import lazy_tabs
from app.components.metrics import metric_row
from app.components.progress import progress_bar
from app.components.scenario import Scenario
from app.components.tables import scalar_text, table, unit_text
from models.uncertainty import UncertainModel, UncertaintyResult, analyze

__all__ = ["UncertaintyFields", "how_sure", "analysis", "with_progress", "tornado_figure", "model_fingerprint", "LABELS",
           "TABS"]

#: The panel's two lazy tabs: the band's numbers (open by default) and the tornado chart with its table.
TABS = ("p5..p95 and verdict", "Tornado: each input's effect")
class UncertaintyFields(BaseModel):
    """Scenario fields of a page with a "How sure?" panel: samples, seed, Sobol' switch (in the URL and
    the JSON like every field). A page adds them with ``class MyScenario(Scenario, UncertaintyFields)``."""

    uq_samples: SciInt = Field(1000, ge=16, le=100_000, description="uncertainty samples [-]",
                               title="Samples (How sure?)")
    uq_seed: SciInt = Field(0, ge=0, le=2**31 - 1, description="seed of the uncertainty samples [-]",
                            title="Seed (How sure?)")
    uq_sobol: bool = Field(False, description="also compute first-order and total Sobol' indices",
                           title="Sobol' indices")


#: Labels of the panel's scenario fields (declared on :class:`UncertaintyFields`).
LABELS = {f: UncertaintyFields.model_fields[f].title for f in ("uq_samples", "uq_seed", "uq_sobol")}


def _fmt(v: float) -> str:
    """3 significant digits, thousands separators, no e-notation in 0.001 ... 1e12 (1,415 not 1.41e+03)."""
    return scalar_text(v, 3) if math.isfinite(v) else str(v)


#: Top margin [px] of the tornado: the point's and the 1× line's labels sit above the plot, off the bars.
TORNADO_TOP_PX = 36


def tornado_figure(res: UncertaintyResult, *, max_bars: int = 10) -> go.Figure:
    """Horizontal tornado: each input's low and high end as bars from the point estimate, sorted
    by swing (largest on top), the point as a reference line and the p5-p95 band of all inputs
    together as the bottom bar. Axis titles carry the output's unit."""
    tor = res.tornado.head(max_bars)
    unit = unit_text(res.unit or "-")
    x_title = f"{res.output_label or res.output} [{unit}]"
    labels = [f"{r.label} ({_fmt(r.low)}..{_fmt(r.high)})" + (" (re-simulated)" if r.resimulated else "")
              for r in tor.itertuples()]
    band_label = f"all inputs together: p5..p95 of {res.n:,} samples"
    fig = go.Figure()
    pt = res.point

    def segments(ends, ys):  # thick line segments from the point: bars whose data are the real values
        x, y = [], []
        for e, lab in zip(ends, ys):
            x += [pt, float(e), None]
            y += [lab, lab, None]
        return x, y

    for col, name, color in (("output_low", "input at its low end", "#4c78a8"),
                             ("output_high", "input at its high end", "#c8690b")):
        x, y = segments(tor[col], labels)
        fig.add_scatter(x=x, y=y, mode="lines", name=name, line=dict(color=color, width=18),
                        hovertemplate="%{y}: %{x:.4g}<extra>" + name + "</extra>")
    fig.add_scatter(x=[res.p5, res.p95], y=[band_label, band_label], mode="lines+markers", name="p5..p95 band",
                    line=dict(color="rgba(128,128,128,0.6)", width=18),
                    hovertemplate="%{x:.4g}<extra>p5..p95</extra>")
    order = [band_label, *reversed(labels)]
    fig.update_layout(height=max(260, 48 * (len(labels) + 1) + 120))
    fig.update_yaxes(categoryorder="array", categoryarray=order)
    style(fig, x=x_title, y="uncertain input (its range)")
    fig.update_layout(hovermode="closest")
    vals = np.array([*tor["output_low"], *tor["output_high"], res.p5, res.p95, pt], dtype=float)
    vals = vals[np.isfinite(vals)]
    fig.update_yaxes(automargin=True, title_standoff=8)
    fig.update_layout(margin=dict(l=20, b=90))
    fig.update_layout(margin=dict(t=TORNADO_TOP_PX))  # the reference lines' labels above the bars
    if res.unit == "x" and vals.size and (vals > 0).all() and (vals.max() / vals.min() > 1.5 or vals.min() <= 1 <= vals.max()):
        ratio_axis(fig, "x", values=vals, above=True)  # a ratio that moves a lot or crosses 1: log around 1x
    elif vals.size and (vals > 0).all() and vals.max() / vals.min() > 30:
        log_axis(fig, "x")
    elif vals.size and math.isfinite(pt) and pt != 0:
        fig.update_xaxes(range=centred_range(vals, pt))  # a tiny spread stays small
    if math.isfinite(pt):
        ref_line(fig, x=pt, text=f"point {_fmt(pt)}", dash="solid", above=True)
    return fig


def _table(res: UncertaintyResult) -> pd.DataFrame:
    tor = res.tornado[["label", "kind", "low", "high", "output_low", "output_high", "swing"]]
    tor = tor.rename(columns={"label": "input", "kind": "provenance"})
    if res.sobol is not None:
        s = res.sobol.set_index("parameter")
        tor = tor.assign(S1=res.tornado["parameter"].map(s["S1"]), ST=res.tornado["parameter"].map(s["ST"]))
    return tor


def _table_labels(res: UncertaintyResult) -> dict[str, str]:
    """Headers of :func:`_table`: the output's name and unit on its columns."""
    unit = unit_text(res.unit or "-")
    out = res.output_label or res.output
    return {"low": "input low end", "high": "input high end", "output_low": f"{out}, input low [{unit}]",
            "output_high": f"{out}, input high [{unit}]", "swing": f"swing [{unit}]",
            "S1": "Sobol' S1 [-]", "ST": "Sobol' ST [-]"}


def _digest(*parts: object) -> str:
    h = hashlib.blake2b(digest_size=20)
    for p in parts:
        h.update(repr(p).encode())
        h.update(b"\x00")
    return h.hexdigest()


def model_fingerprint(model: UncertainModel) -> str:
    """Content hash of what :func:`~models.uncertainty.analyze` reads of ``model``: names, unit,
    labels, notes, verdict, every input (name, label, unit, kind, re-simulation flag, distribution
    with its point and range; ``repr`` of floats is exact) and the output at the points.

    >>> from models.storage.uncertainty import hdd_model
    >>> a = model_fingerprint(hdd_model("hdd-7200"))
    >>> a == model_fingerprint(hdd_model("hdd-7200")), a == model_fingerprint(hdd_model("hdd-barracuda"))
    (True, False)
    """
    return _digest(model.model, model.output, model.unit, model.output_label, model.notes, model.verdict,
                   [(i.name, i.label, i.unit, i.kind, i.resimulates, i.dist) for i in model.inputs], model.point())


def _custom_devices_json() -> str:
    """This session's custom devices (name -> values) as text: a model may read them by name."""
    import json

    from app.components.device_store import custom_devices

    return json.dumps(custom_devices(), sort_keys=True, default=str)


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def _analysis(fingerprint: str, n: int, seed: int, sobol: bool,
              _model: UncertainModel | Callable[[], UncertainModel]) -> UncertaintyResult:
    """:func:`analyze` of ``_model`` (or of what the callable builds), identified by ``fingerprint``."""
    built = isinstance(_model, UncertainModel)
    with progress_bar(f"{'' if built else 'Simulating once, then '}sampling {n:,} inputs…".capitalize()) as report:
        model = _model if built else _model()
        model, stage = with_progress(model, report)
        return analyze(model, n=n, seed=seed, sobol=sobol, progress=stage)


def with_progress(model: UncertainModel, report: Callable[[float], None], *, parts: int = 20,
                  fast_s: float = 0.05) -> tuple[UncertainModel, Callable[[float], None]]:
    """``model`` whose ``evaluate`` reports its progress through ``report`` on large sample arrays, and
    the progress callback to give :func:`~models.uncertainty.analyze` (its own stages: 0, 0.5, 0.7, 1).

    A slow model (e.g. one that re-runs a queueing model per sample) would otherwise hold the bar at 0 %
    for the whole band: the arrays are evaluated in ``parts`` chunks, reporting between the stage just
    reported and the next one, unless the first chunk takes less than ``fast_s`` seconds (then the rest
    is evaluated at once). Every model's ``evaluate`` is elementwise over samples, so the values are the
    same."""
    import dataclasses
    import time

    state = {"at": 0.0, "shown": 0.0}

    def stage(f: float) -> None:
        state["at"] = float(f)
        state["shown"] = max(state["shown"], float(f))
        report(state["shown"])

    def evaluate(values):
        arrs = {k: np.asarray(v) for k, v in values.items()}
        size = max((a.shape[0] for a in arrs.values() if a.ndim >= 1), default=1)
        if size < 4 * parts:
            return model.evaluate(values)
        start = state["at"]
        end = 0.5 if start < 0.5 else 1.0
        step = -(-size // parts)

        def part(lo: int, hi: int) -> np.ndarray:
            chunk = {k: (a[lo:hi] if a.ndim >= 1 and a.shape[0] == size else a) for k, a in arrs.items()}
            return np.broadcast_to(np.asarray(model.evaluate(chunk), dtype=float).reshape(-1), (hi - lo,))

        outs, t0, i = [], time.perf_counter(), 0
        while i < size:
            hi = size if i and time.perf_counter() - t0 < fast_s else min(size, i + step)  # fast: the rest at once
            outs.append(part(i, hi))
            i = hi
            state["shown"] = max(state["shown"], start + (end - start) * i / size)  # never backwards
            report(state["shown"])
        return np.concatenate(outs)

    return dataclasses.replace(model, evaluate=evaluate), stage


def analysis(S: type[Scenario], scn: Scenario, model: UncertainModel | Callable[[], UncertainModel], *, key: str,
             content: object = None) -> UncertaintyResult:
    """The cached analysis the panel of ``key`` draws (the same arguments as :func:`how_sure`): a page
    that shows the band on its main chart before the panel calls this first; the panel then reuses it."""
    built = model_fingerprint(model) if isinstance(model, UncertainModel) else "built on a miss"
    fp = _digest(S.__module__, S.__qualname__, key, scn.model_dump_json(), _custom_devices_json(), content, built)
    return _analysis(fp, int(scn.uq_samples), int(scn.uq_seed), bool(scn.uq_sobol), model)


def how_sure(S: type[Scenario], scn: Scenario, model: UncertainModel | Callable[[], UncertainModel] | None, *,
             key: str, why_not: str = "", content: object = None) -> UncertaintyResult | None:
    """Draw the panel for ``model`` (None: say ``why_not``); return the analysis.

    ``S``/``scn``: the page's scenario class and validated values (samples, seed, Sobol'
    switch); ``key`` makes the widget and chart keys unique on the page. ``model`` may be a
    zero-argument callable building the model (then only on a cache miss). ``content``: what
    the model depends on beyond the scenario's fields and the session's custom devices, by
    value (e.g. ``trace.fingerprint()``); it keys the cached analysis, with
    :func:`model_fingerprint` of a built model.
    """
    st.subheader("How sure?")
    c1, c2, c3 = st.columns(3)
    int_input(S, "uq_samples", container=c1,
              help="Quasi-random (scrambled Sobol') samples of the uncertain inputs; ranges from each value's "
                   "provenance (docs/uncertainty.md)")
    int_input(S, "uq_seed", container=c2, help="Same seed, same samples")
    c3.checkbox(S.label("uq_sobol"), key=S.key("uq_sobol"),
                help="First-order (S1) and total (ST) variance shares of each input: n (d + 2) more model runs")
    if model is None:
        st.info(f"No uncertainty analysis here: {why_not}", icon=":material/info:")
        return None
    res = analysis(S, scn, model, key=key, content=content)
    st.markdown(f"**{md_escape(res.sentence())}**")  # read as written: n* is not an italic marker
    # Lazy tabs: the tornado chart and table are built and drawn only while their tab is open -- a Plotly
    # chart and a grid fewer to build, send and draw on every rerun of the page (issue 18, speed)
    def band() -> None:
        row = metric_row()
        unit = unit_text(res.unit or "-")  # the label names it; the value reads without it
        row.metric(f"{res.output_label or res.output}, point estimate [{unit}]", _fmt(res.point))
        row.metric(f"p5 [{unit}]", _fmt(res.p5))
        row.metric(f"p95 [{unit}]", _fmt(res.p95))
        row.metric("Verdict holds in", "n/a" if not res.verdict else f"{100 * res.p_verdict:.0f} % of samples",
                   help=res.verdict or "this output has no yes/no verdict")

    def tornado() -> None:
        if len(res.tornado):
            show(tornado_figure(res), key=f"howsure-{key}")
        table(_table(res), labels=_table_labels(res), key=f"howsure-table-{key}")

    lazy_tabs(f"howsure.tab.{key}", dict(zip(TABS, (band, tornado), strict=True)))
    st.caption(f"{res.n:,} samples ({res.method}), seed {res.seed}. " + " ".join(f"{n}." for n in res.notes))
    return res
