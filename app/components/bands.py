"""The p5-p95 band of a page's main chart: the "How sure?" panel's samples, drawn where the answer is.

A page's headline chart shows point values (a curve over x, bars, a threshold line). The band
shows where 90 % of the sampled inputs put them, from the same uncertain inputs (provenance
ranges) and the same design (scrambled Sobol', the scenario's sample count and seed) as the
"How sure?" panel (:mod:`app.components.how_sure`):

- :func:`curve_samples` (pure, no Streamlit): the model sampled at each x. Either one model
  whose input ``x_input`` is the chart's x (held at each x, the others sampled, evaluated once
  on an ``(n, len(xs))`` grid: vectorised), or one model built per x (``build(x)``), all with
  the same unit samples (common random numbers: the band is smooth in x).
- :func:`curve_band` / :func:`point_bands`: the same, cached across reruns and sessions by
  content (the page's scenario, the session's custom devices, what the page passes as
  ``content``), with a progress bar while sampling; an unchanged rerun recomputes nothing.
- :func:`add_band` (shaded area between p5 and p95 around a curve), :func:`add_error_bars`
  (p5-p95 whiskers at the median over bars or points), :func:`add_x_band` (a shaded x range
  around a vertical threshold line, e.g. n*). The legend reads "p5–p95 (N samples)".
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from app.components.charts import THEME_PLACEHOLDER
from app.components.charts import recordable as _recordable
from app.components.how_sure import _custom_devices_json, _digest
from app.components.progress import progress_bar
from app.components.scenario import Scenario
from models._base import as_generator
from models.uncertainty import UncertainModel
from models.uncertainty.sampling import unit_samples

__all__ = ["band_label", "sample_outputs", "curve_samples", "curve_band", "point_bands", "add_band",
           "add_error_bars", "add_x_band", "BAND_FILL"]

#: Fill of a band (translucent grey: readable on the light and the dark theme).
BAND_FILL = "rgba(140,140,140,0.4)"
BAND_LINE = "rgba(110,110,110,0.9)"
#: Opacity of a band coloured like its curve (``add_band(of=...)``).
BAND_ALPHA = 0.2
#: Hatching of the 1st, 2nd, ... band of one chart ("": plain grey): bands that overlap stay apart.
BAND_PATTERNS = ("", "/", "\\", "x", ".")


def band_label(n: int, what: str = "") -> str:
    """Legend text of a band: ``"p5–p95 (1,000 samples)"`` (``what``: e.g. ``"of n*"``)."""
    return f"p5–p95{' ' + what if what else ''} ({int(n):,} samples)"


@functools.lru_cache(maxsize=64)
def _design(d: int, n: int, seed: int, method: str) -> np.ndarray:
    """:func:`unit_samples` of an int seed, read-only and kept: a band evaluates the same design at each
    of its x (common random numbers), which drew it anew per x (48 scrambled-Sobol draws, ~8 ms, for the
    device-characterization band's 24 depths x 2 operations)."""
    u = unit_samples(d, n, seed=as_generator(seed), method=method)
    u.setflags(write=False)
    return u


def _unit(model: UncertainModel, hold: Sequence[str], n: int, seed: int, method: str):
    varied = [i for i in model.sampled_inputs() if i.name not in set(hold)]
    u = _design(len(varied), int(n), int(seed), method) if varied else None
    return varied, u


def sample_outputs(model: UncertainModel, *, n: int, seed: int, method: str = "sobol") -> np.ndarray:
    """The model's output at ``n`` samples of its inputs [model unit], the design of
    :func:`models.uncertainty.analyze` (same ``seed``, same samples, same percentiles)."""
    varied, u = _unit(model, (), n, seed, method)
    values = dict(model.points())
    for j, inp in enumerate(varied):
        values[inp.name] = inp.dist.ppf(u[:, j])
    y = np.asarray(model.evaluate(values), dtype=float).reshape(-1)
    return np.broadcast_to(y, (int(n),)).astype(float) if y.size == 1 else y


def _summary(x, point, y: np.ndarray) -> dict:
    p5, p50, p95 = (float(v) for v in np.percentile(y, [5, 50, 95]))
    return {"x": x, "point": float(point), "p5": p5, "p50": p50, "p95": p95}


def curve_samples(build: UncertainModel | Callable[[object], UncertainModel], xs: Sequence, *, n: int, seed: int,
                  x_input: str | None = None, method: str = "sobol",
                  progress: Callable[[float], None] | None = None) -> pd.DataFrame:
    """p5/p50/p95 of a model's output at each ``x`` of ``xs``.

    Parameters
    ----------
    build : UncertainModel or callable
        With ``x_input``: one model whose input ``x_input`` is the chart's x [that input's unit]:
        it is held at each x while the others are sampled, and the model is evaluated once on
        the ``(n, len(xs))`` grid (vectorised; a model that does not broadcast is evaluated per
        x). Without: ``build(x)`` returns the model at x (e.g. an adapter per page size).
    xs : sequence
        The chart's x values (numbers, or categories when ``build`` is a callable).
    n, seed : int, keyword-only
        Samples [-] and seed: the same unit samples at every x (common random numbers), the
        design of :func:`models.uncertainty.analyze`.
    x_input : str, keyword-only
        See ``build``.
    progress : callable, keyword-only
        Called with the fraction done (0..1).

    Returns
    -------
    pandas.DataFrame
        ``x, point, p5, p50, p95`` [model unit], one row per x.

    Examples
    --------
    >>> from models.endurance.uncertainty import lifetime_model
    >>> m = lifetime_model(capacity_bytes=16e9, endurance_writes_per_cell=1e7, write_rate_bytes_per_s=1e9)
    >>> df = curve_samples(m, [1e8, 1e9], n=64, seed=0, x_input="write_rate")
    >>> bool(np.isclose(df.point[1], m.point())), bool((df.p5 <= df.p95).all())
    (True, True)
    """
    xs = list(xs)
    rows = []
    if x_input is not None:
        model = build
        if not isinstance(model, UncertainModel) or x_input not in model.points():
            raise ValueError(f"x_input {x_input!r} is not an input of the model")
        varied, u = _unit(model, (x_input,), n, seed, method)
        grid = np.asarray(xs, dtype=float)
        pts = {**model.points(), x_input: grid}
        point = np.broadcast_to(np.asarray(model.evaluate(pts), dtype=float).reshape(-1), grid.shape)
        values = dict(model.points())
        for j, inp in enumerate(varied):
            values[inp.name] = inp.dist.ppf(u[:, j])[:, None]
        values[x_input] = grid[None, :]
        y = np.asarray(model.evaluate(values), dtype=float)
        if y.shape != (int(n), len(xs)):  # not broadcastable: one evaluation per x
            cols = []
            for k, x in enumerate(grid):
                v = {**{a: (b[:, 0] if isinstance(b, np.ndarray) and b.ndim == 2 else b) for a, b in values.items()},
                     x_input: float(x)}
                cols.append(np.broadcast_to(np.asarray(model.evaluate(v), dtype=float).reshape(-1), (int(n),)))
                if progress:
                    progress((k + 1) / len(xs))
            y = np.stack(cols, axis=1)
        rows = [_summary(x, point[k], y[:, k]) for k, x in enumerate(xs)]
    else:
        for k, x in enumerate(xs):
            m = build(x)
            rows.append(_summary(x, m.point(), sample_outputs(m, n=n, seed=seed, method=method)))
            if progress:
                progress((k + 1) / len(xs))
    if progress:
        progress(1.0)
    return pd.DataFrame(rows, columns=["x", "point", "p5", "p50", "p95"])


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def _cached_curve(fingerprint: str, n: int, seed: int, xs: tuple, x_input: str | None, _build) -> pd.DataFrame:
    """:func:`curve_samples`, identified by ``fingerprint`` (what ``_build`` depends on)."""
    with progress_bar(f"Sampling {n:,} inputs at {len(xs)} points of the chart …") as report:
        return curve_samples(_build, list(xs), n=n, seed=seed, x_input=x_input, progress=report)


def _fingerprint(S: type[Scenario], scn: Scenario, key: str, content: object) -> str:
    return _digest("band", S.__module__, S.__qualname__, key, scn.model_dump_json(), _custom_devices_json(), content)


def curve_band(S: type[Scenario], scn: Scenario, build, xs: Sequence, *, key: str, content: object = None,
               x_input: str | None = None) -> pd.DataFrame:
    """:func:`curve_samples` with the scenario's samples and seed (``uq_samples``, ``uq_seed``), cached by
    content: the page's scenario values, the session's custom devices, ``key`` and ``content`` (what the
    model depends on beyond the scenario, by value, e.g. a trace's fingerprint). ``build`` (a model with
    ``x_input``, or a callable x -> model) is used only on a cache miss."""
    return _cached_curve(_fingerprint(S, scn, key, content), int(scn.uq_samples), int(scn.uq_seed),
                         tuple(xs), x_input, build)


def point_bands(S: type[Scenario], scn: Scenario, builds: Mapping[object, Callable[[], UncertainModel]], *,
                key: str, content: object = None) -> pd.DataFrame:
    """p5/p50/p95 of several models (e.g. one per bar), ``builds``: label -> zero-argument builder.
    Cached like :func:`curve_band`; returns ``x`` (the label), ``point, p5, p50, p95``."""
    labels = list(builds)
    return _cached_curve(_fingerprint(S, scn, key, content), int(scn.uq_samples), int(scn.uq_seed),
                         tuple(labels), None, lambda x: builds[x]())


def _move_first(fig: go.Figure, k: int) -> None:
    """Draw the last ``k`` traces first (under the point curves), keeping their order."""
    data = list(fig.data)
    fig.data = tuple(data[-k:] + data[:-k])


#: Hover text of a band's lower edge: how :func:`_is_band` knows the bands :func:`add_band` drew.
_P5_HOVER = "p5 %{y:.4g}<extra></extra>"
_P95_HOVER = "p95 %{y:.4g}<extra></extra>"


def _is_band(tr) -> bool:
    """A band's filled trace (its lower edge), as :func:`add_band` draws it."""
    return getattr(tr, "fill", None) == "tonexty" and getattr(tr, "hovertemplate", None) == _P5_HOVER


def curve_colour(fig: go.Figure, name: str) -> str:
    """The colour of the curve named ``name`` (its line's, else its markers'); a curve the theme would colour
    in turn gets its colour of the colour sequence set explicitly, so a band can match it."""
    from app.components.express import _colorway

    curves = [t for t in fig.data if not _is_band(t) and getattr(t, "hovertemplate", None) != _P95_HOVER]
    for i, tr in enumerate(curves):
        if tr.name != name:
            continue
        for c in (getattr(getattr(tr, "line", None), "color", None), getattr(tr.marker, "color", None)):
            if isinstance(c, str):
                return c
        c = _colorway()[i % len(_colorway())]
        tr.update(line_color=c, marker_color=c)
        return c
    raise ValueError(f"no curve named {name!r} to colour a band like")


def _translucent(colour: str, alpha: float) -> str:
    """``rgba(...)`` of a ``#rrggbb`` or ``rgb(r, g, b)`` colour with opacity ``alpha``; the grey band fill for a
    theme placeholder colour (the theme swaps the colour itself, not a translucent version of it: the band's
    edges and hatching carry the curve's colour)."""
    from plotly.colors import hex_to_rgb, unlabel_rgb

    if THEME_PLACEHOLDER.fullmatch(colour):
        return BAND_FILL
    try:
        r, g, b = hex_to_rgb(colour) if colour.startswith("#") else unlabel_rgb(colour)[:3]
    except (ValueError, TypeError, IndexError):
        return BAND_FILL
    return f"rgba({int(r)},{int(g)},{int(b)},{alpha})"


@_recordable
def add_band(fig: go.Figure, x, lo, hi, *, n: int, name: str | None = None, what: str = "",
             yaxis: str | None = None, below: bool = True, of: str | None = None) -> go.Figure:
    """Shade the area between ``lo`` (p5) and ``hi`` (p95) over ``x`` (legend :func:`band_label`).

    Non-finite points are left out (a gap); ``below`` draws the band under the other traces. ``of``: the
    name of the curve the band belongs to; the band takes that curve's colour (:func:`curve_colour`), so
    overlapping bands of several curves read apart. Without it the band is grey (a chart's only band).
    """
    x = np.asarray(x)
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    ok = np.isfinite(lo) & np.isfinite(hi)
    x, lo, hi = x[ok], lo[ok], hi[ok]
    label = name or band_label(n, what)
    edge = BAND_LINE if of is None else curve_colour(fig, of)
    fill = BAND_FILL if of is None else _translucent(edge, BAND_ALPHA)
    kw = {"yaxis": yaxis} if yaxis else {}
    # the k-th band of the chart gets the k-th hatching: overlapping bands (and their legend swatches)
    # read apart, each in the legend with the curve it belongs to
    k = sum(1 for t in fig.data if _is_band(t))
    # a band in its curve's colour is always hatched (its fill is grey for a theme colour): the k-th hatching
    shape = BAND_PATTERNS[k % len(BAND_PATTERNS)] if of is None else BAND_PATTERNS[1 + k % (len(BAND_PATTERNS) - 1)]
    pattern = {"fillpattern": dict(shape=shape, fgcolor=edge, size=8, solidity=0.15)} if shape else {}
    fig.add_scatter(x=x, y=hi, mode="lines", line=dict(width=0.5, color=edge), showlegend=False,
                    legendgroup=label, name="p95", hovertemplate=_P95_HOVER, **kw)
    fig.add_scatter(x=x, y=lo, mode="lines", line=dict(width=0.5, color=edge), fill="tonexty",
                    fillcolor=fill, name=label, legendgroup=label,
                    hovertemplate=_P5_HOVER, **kw, **pattern)
    if below:
        _move_first(fig, 2)
    return fig


@_recordable
def add_error_bars(fig: go.Figure, x, lo, mid, hi, *, n: int, name: str | None = None, what: str = "",
                   yaxis: str | None = None, horizontal: bool = False) -> go.Figure:
    """p5-p95 whiskers around the median ``mid`` (p50) at each ``x`` (bars' categories or points);
    a band that does not contain the point estimate still reads right (the whiskers hang off the
    median, not off the bar). ``horizontal``: for horizontal bars (``orientation="h"``), the
    categories ``x`` on the y axis and the whiskers along x. The bars lose their value labels, which the
    whiskers would cross (the page's table and the hover give the values)."""
    lo, mid, hi = (np.asarray(v, dtype=float) for v in (lo, mid, hi))
    kw = {"yaxis": yaxis} if yaxis else {}
    value, cats, err = ("x", "y", "error_x") if horizontal else ("y", "x", "error_y")
    kw.update({cats: list(x), value: mid,
               err: dict(type="data", symmetric=False, array=np.maximum(hi - mid, 0.0),
                         arrayminus=np.maximum(mid - lo, 0.0), color=BAND_LINE, thickness=2.5, width=10)})
    fig.add_scatter(mode="markers", name=name or band_label(n, what),
                    marker=dict(symbol="diamond", size=9, color=BAND_LINE),
                    customdata=np.stack([lo, hi], axis=-1),
                    hovertemplate=f"median %{{{value}:.4g}}, p5 %{{customdata[0]:.4g}} .. p95 %{{customdata[1]:.4g}}"
                                  "<extra></extra>",
                    **kw)
    for tr in fig.data:  # a bar's value label is crossed by the whisker at its top, and at its base when the band
        if tr.type == "bar" and (tr.text is not None or tr.texttemplate is not None):  # reaches down there: the
            tr.update(text=None, texttemplate=None)  # values are in the hover and the table with the chart
    return fig


@_recordable
def add_x_band(fig: go.Figure, lo: float, hi: float, *, n: int, y0: float, y1: float, what: str = "",
               clip: tuple[float, float] | None = None, name: str | None = None) -> go.Figure:
    """A shaded x range ``lo..hi`` (p5..p95 of a threshold drawn as a vertical line) from ``y0`` to ``y1``,
    clipped to ``clip`` (the chart's x extent; the legend says when the band runs past it)."""
    lo, hi = float(lo), float(hi)
    label = name or band_label(n, what)
    a, b = lo, hi
    if clip is not None:
        a, b = max(lo, clip[0]), min(hi, clip[1])
        if hi > clip[1] or lo < clip[0]:
            label += f": {lo:.3g}..{hi:.3g}" + (", beyond the chart" if b <= a else ", clipped to the chart")
    if not (np.isfinite(a) and np.isfinite(b)) or b <= a:  # nothing inside: a legend entry only
        fig.add_scatter(x=[None], y=[None], mode="markers", name=label, marker=dict(color=BAND_FILL, size=12,
                                                                                   symbol="square"))
        return fig
    fig.add_scatter(x=[a, b, b, a, a], y=[y0, y0, y1, y1, y0], mode="lines", fill="toself", fillcolor=BAND_FILL,
                    line=dict(width=0), name=label, hoverinfo="skip")
    _move_first(fig, 1)
    return fig


def writecache_time_models(req, *, cache_mb: float, drive: str, params=None,
                           lru_granularity: str = "sector") -> dict[str, Callable[[], UncertainModel]]:
    """Builders of the execution time [s] of no cache, LRU and HALO (Figure 5's bars) with the HDD's mean
    seek time, rpm and bandwidth sampled as in :func:`models.storage.uncertainty.writecache_model`
    (the same inputs: the same samples): each policy's HDD request stream is simulated once and split
    into seek, rotation and transfer time (:func:`~models.storage.uncertainty.writecache_streams`,
    whose total is the model's execution time)."""
    from models.devices import get_device
    from models.storage.uncertainty import hdd_stream_time_ms, writecache_streams
    from models.uncertainty import device_input

    dev = get_device(drive)
    k = f"device:{dev.name}"
    parts: dict = {}

    def build(pol: str) -> UncertainModel:
        if pol not in parts:
            parts.update(writecache_streams(req, cache_mb=cache_mb, policy="lru" if pol == "none" else pol,
                                            drive=drive, params=params, lru_granularity=lru_granularity))
        ins = (device_input(dev, "avg_seek_ns", label="HDD mean seek time"),
               device_input(dev, "rpm", label="HDD spindle speed"),
               device_input(dev, "read_bandwidth_MBps", label="HDD media bandwidth"))

        def ev(v):
            return hdd_stream_time_ms(parts[pol], dev, v[f"{k}.avg_seek_ns"], v[f"{k}.rpm"],
                                      v[f"{k}.read_bandwidth_MBps"]) / 1e3

        return UncertainModel("writecache", "exec_time_s", "s", ins, ev, output_label=f"execution time ({pol})",
                              notes=("HDD request stream simulated once, split into seek, rotation and transfer",))

    return {pol: (lambda pol=pol: build(pol)) for pol in ("none", "lru", "halo")}


def file_cache_time_models(curves: pd.DataFrame, device, *, block_size_bytes: int, insertion: str,
                           storage_path: str | None = None) -> Callable[[tuple[str, float]], UncertainModel]:
    """Builder ``(policy, cache_fraction) -> model`` of the storage access time [s] of one simulated
    file-cache run (a row of :func:`models.storage.file_cache_sim.file_cache_curves` on ``device``):
    :func:`models.storage.file_cache.cache_run_time_ns`, the counts simulated once, t, T and Tm from
    :func:`models.storage.uncertainty.file_cache_timings` (the inputs of
    :func:`models.storage.uncertainty.breakeven_model`, the How sure? panel's: the same samples),
    the timings that adapter derives n* from."""
    from models.devices import get_device
    from models.storage.file_cache import cache_run_time_ns
    from models.storage.uncertainty import file_cache_timings

    dev = get_device(device) if isinstance(device, str) else device
    _, inputs, timings = file_cache_timings(dev, int(block_size_bytes), insertion, storage_path=storage_path)
    inputs = tuple(inputs)

    rows = curves[curves.device == dev.name].set_index(["policy", "cache_fraction"])

    def build(x: tuple[str, float]) -> UncertainModel:
        r = rows.loc[(x[0], float(x[1]))]
        hits, ins, miss = float(r.hits), float(r.inserts), float(r.misses)

        def ev(v):
            return cache_run_time_ns(hits, ins, miss, *timings(v)) / 1e9

        return UncertainModel("file-cache", "time_s", "s", inputs, ev, output_label=f"storage access time ({x[0]})",
                              notes=("hits, insertions and misses simulated once; t, T and Tm sampled",))

    return build


def device_char_read_model(depth: float) -> UncertainModel:
    """SSD / PSD latency of a random 4 KiB read at I/O depth ``depth`` [x] (seed 001's presets,
    :func:`models.storage.device_char.completion_latency_us` ``s max(1, d / c)``), the presets' registry values
    (``device_char.*``) sampled by their provenance. Verdict: the PSD is faster (ratio > 1)."""
    from models.storage.device_char import completion_latency_us
    from models.uncertainty import Verdict, param_input

    d = float(depth)
    ins = (param_input("device_char.psd.read_us", label="PSD read service time"),
           param_input("device_char.psd.servers", label="PSD parallel units"),
           param_input("device_char.ssd.read_us", label="SSD read service time"),
           param_input("device_char.ssd.servers_rand", label="SSD parallel units (random)", integer=True))

    def lat(v, s, c):
        return completion_latency_us(v[s], v[c], d)

    def ev(v):
        return (lat(v, "device_char.ssd.read_us", "device_char.ssd.servers_rand")
                / lat(v, "device_char.psd.read_us", "device_char.psd.servers"))

    return UncertainModel("device-char", "ssd_over_psd_read", "x", ins, ev,
                          Verdict(1.0, False, f"the PSD serves random 4 KiB reads faster than the SSD at depth {d:g}"),
                          notes=("closed form s max(1, d/c) of the seed 001 presets",),
                          output_label=f"SSD / PSD random-read latency at depth {d:g}")


def device_char_ssd_ratio_model(op: str, depth: float) -> UncertainModel:
    """Random / sequential latency of the SSD preset at I/O depth ``depth`` [x] (Figure 1): its parallel
    units, sequential parallelism and (writes) write/read ratios sampled by their provenance."""
    from models.storage.device_char import completion_latency_us
    from models.uncertainty import param_input

    d = float(depth)
    ins = [param_input("device_char.ssd.servers_rand", label="SSD parallel units (random)", integer=True),
           param_input("device_char.ssd.seq_parallelism", label="SSD sequential parallelism")]
    if op == "write":
        ins += [param_input("device_char.ssd.write_read_ratio_rand", label="SSD random write / read"),
                param_input("device_char.ssd.write_read_ratio_seq", label="SSD sequential write / read")]

    def ev(v):
        c = np.asarray(v["device_char.ssd.servers_rand"], float)
        k = np.asarray(v["device_char.ssd.seq_parallelism"], float)
        s = (np.asarray(v["device_char.ssd.write_read_ratio_rand"], float)
             / np.asarray(v["device_char.ssd.write_read_ratio_seq"], float)) if op == "write" else 1.0
        # random / sequential latency (models.storage.device_char.random_seq_ratio): the random service time
        # relative to the sequential one (s), the sequential parallel units c k
        return completion_latency_us(s, c, d) / completion_latency_us(1.0, c * k, d)

    return UncertainModel("device-char", f"ssd_rand_over_seq_{op}", "x", tuple(ins), ev,
                          output_label=f"SSD random / sequential {op} latency at depth {d:g}")
