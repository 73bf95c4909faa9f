"""Storage / Trace explorer: statistics, histograms, LBN map and miss-ratio curve of a trace (any policy)."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from pydantic import Field

from app.components import download_csv, scenario_controls, user_errors
from app.components.bands import add_x_band
from app.components.charts import figure, ref_line, show, style
from app.components.claims import claims_strip
from app.components.devices import DeviceName, all_devices, device_picker
from app.components.errors import md_escape
from app.components.heavy import heavy_slot
from app.components.how_sure import UncertaintyFields, analysis, how_sure
from app.components.inputs import SciInt, float_input, int_input
from app.components.large_trace import NOT_STREAMED, LargeUpload, StreamedTrace, streamed_trace
from app.components.metrics import metric_row
from app.components.progress import progress_bar
from app.components.provenance import assumption_note
from app.components.scenario import init_state, one_of
from app.components.tables import key_value_table
from app.components.traces import BLOCK_SIZES, TraceChoice, block_size_select, trace_and_settings
from models.budget import reserve
from models.provenance import trace_keys
from models.sim.mrc import EXACT_BYTES_PER_ACCESS, check_method, policy_mrc
from models.traces.blocks import split_blocks
from models.traces.core import BlockTrace
from models.traces.extent_mrc import extent_hit_ratio_curve
from models.traces.extents import extent_pieces, use_extents
from models.traces.stats import statistic_table, trace_stats

BlockSize = one_of(BLOCK_SIZES, what="block size [bytes]", base=int)


class TraceExplorerScenario(TraceChoice, UncertaintyFields):
    PREFIX = "tx"
    block_size_bytes: BlockSize = 4096
    mrc_policy: Literal["lru", "fifo", "clock", "ac"] = Field("lru", title="Miss-ratio curve: cache policy")
    mrc_method: Literal["exact", "shards", "minisim"] = Field("exact", title="Miss-ratio curve")
    shards_rate: float = Field(0.01, ge=0.0001, le=1, title="Sampling rate [-]")
    scatter_points: SciInt = Field(5000, ge=100, le=50_000, title="Points in the LBN scatter")
    cache_over: DeviceName = Field("optane-dcpmm", title="Storage under a DRAM file cache (break-even, How sure?)")


#: Reuse counts beyond this [accesses per block] are drawn on a log x axis (decades labelled), below on a linear one.
REUSE_LOG_X_FROM = 50

#: The Statistics table's names as read (TraceStats fields; the rest read right through human_label).
STAT_LABELS = {
    "name": "trace", "block_size": "block size [B]", "write_fraction": "writes (share of requests)",
    "bytes_read": "bytes read [B]", "bytes_written": "bytes written [B]",
    **{f"size_{q}_bytes": f"request size, {w} [B]" for q, w in (
        ("mean", "mean"), ("min", "min"), ("p50", "P50"), ("p90", "P90"), ("p99", "P99"), ("max", "max"))},
    "mean_lbn_distance_sectors": "mean LBN distance [sectors]", "sequential_fraction": "sequential (share of requests)",
    **{f"reuse_distance_{q}_accesses": f"reuse distance, {w} [accesses]" for q, w in (
        ("mean", "mean"), ("p50", "P50"), ("p90", "P90"))},
    **{f"reuse_time_{q}_ns": f"reuse time, {w} [ns]" for q, w in (("mean", "mean"), ("p50", "P50"))},
}
S = TraceExplorerScenario
init_state(S)
st.title("Trace explorer")
claims_strip("trace-explorer")
st.markdown(
    "Pick a bundled trace, a synthetic workload (seed 003 Table II presets, web server / proxy) or upload your own "
    "(MQSim/DiskSim, DiskSim validation, UMass SPC, MSR Cambridge, blkparse, generic CSV; plain, gzip or zstd). "
    "The page shows the trace's statistics, request sizes, reuse counts, where it accesses the device over time, "
    "and its miss-ratio curve (LRU, FIFO, CLOCK or AC; exact or sampled)."
)

trace, settings = trace_and_settings(S.PREFIX, border=False, stream_large=True)
# an upload too large to read whole: its statistics, histograms and LRU curve streamed from its file (below)
big, trace = (trace, None) if isinstance(trace, LargeUpload) else (None, trace)
with settings:
    block_size_select(S.key("block_size_bytes"),
                      help="Requests are split into the blocks of this size they touch (cache granularity).")
    st.selectbox(S.label("mrc_policy"), ["lru", "fifo", "clock", "ac"], key=S.key("mrc_policy"),
                 format_func={"lru": "LRU", "fifo": "FIFO", "clock": "CLOCK",
                              "ac": "AC (admission-controlled LRU)"}.get)
    st.radio(S.label("mrc_method"), ["exact", "shards", "minisim"], key=S.key("mrc_method"), horizontal=True,
             format_func={"exact": "exact", "shards": "SHARDS sampled (LRU)", "minisim": "MiniSim sampled"}.get,
             help="exact: one Mattson stack-distance pass (LRU) or one simulation per size (others); SHARDS: "
                  "sampled stack distances, LRU only; MiniSim: miniature caches on a spatial sample, any policy.")
    if st.session_state[S.key("mrc_method")] != "exact":
        float_input(S, "shards_rate", step=0.01, format="%.4f")
    int_input(S, "scatter_points")
    device_picker(S.label("cache_over"), key=S.key("cache_over"),
                  help="The break-even rule n* = (Tm − t)/(T − t) on this device: blocks accessed no more than n* "
                       "times gain nothing from a DRAM cache over it.")

scn = scenario_controls(S, page="trace-explorer")


def _check_storage_path(block_size: int) -> None:
    """n* here uses the model's default storage access time T (the direct read measured in the insertion cost's
    runs, 4-64 KiB blocks): another block size is refused naming this page's block size and where the paper's
    factor can be chosen (:func:`models.storage.file_cache.check_storage_path`)."""
    from models.storage import file_cache as fc

    fc.check_storage_path(fc.DEFAULT_STORAGE_PATH, block_size, option="Storage access time T",
                          other=f"the File-cache break-even page's “{fc.STORAGE_PATH_LABELS['paper-factor']}”")


def _share_model(trace, scn):
    """Builder of the break-even share model on ``scn.cache_over`` (the reuse histogram counted on a miss)."""
    from models.storage.uncertainty import file_cache_share_model

    dev = all_devices()[scn.cache_over]
    return lambda: file_cache_share_model(split_blocks(trace, scn.block_size_bytes).block, dev,
                                          block_size_bytes=scn.block_size_bytes)


def _share_content(trace, scn):
    return (trace.fingerprint(), all_devices()[scn.cache_over].model_dump_json())


@st.cache_data(show_spinner=False, max_entries=8)
def _stats(_trace: BlockTrace, fingerprint: str, block_size: int):
    """The trace's statistics (its metrics read them as numbers) and their table (values as text for the grid)."""
    s = trace_stats(_trace, block_size)
    return s, statistic_table(s.to_frame(), text=True)


@st.cache_data(show_spinner=False, max_entries=8)
def _mrc(_trace: BlockTrace, fingerprint: str, block_size: int, method: str, rate: float,
         policy: str = "lru") -> pd.DataFrame:
    with reserve(_trace.nbytes, f"the trace {_trace.name!r}"):  # held while the curve is computed
        return _mrc_of(_trace, block_size, method, rate, policy)


@st.cache_data(show_spinner=False, max_entries=8)
def _streamed_trace(path: str, name: str, nbytes: int, fmt: str, options_json: str, why: str, block_size: int,
                    method: str, rate: float, policy: str) -> StreamedTrace:
    """The statistics, histograms and streamed LRU curve of a large upload from one read of its file
    (:func:`app.components.large_trace.streamed_trace`), keyed by its stored file (named by its SHA-256), with a
    progress bar of the bytes read, the requests/s and the time left (restarted if the file is read again)."""
    up = LargeUpload(path=path, name=name, nbytes=nbytes, format=fmt, options_json=options_json, why=why)
    with heavy_slot(bulk=True), progress_bar(f"Reading {name} for its statistics and miss-ratio curve …",
                                             total_bytes=nbytes) as report:
        def again(k: int, why_again: str) -> None:
            report.restart(f"Reading {name} again (read {k}: {why_again.split(':')[0]}) …")

        return streamed_trace(up, block_size, method=method, rate=rate, policy=policy, progress=report,
                              on_requests=report.add_requests, on_read=again)


def _metrics(stats, *, sampled: bool = False) -> None:
    """The row of four figures over the statistics (footprint marked as estimated when ``sampled``)."""
    row = metric_row()
    row.metric("Requests", f"{stats.requests:,}")
    row.metric("Writes", f"{stats.write_fraction:.1%}" if stats.operation != "unknown" else "operation unknown",
               help=None if stats.operation != "unknown" else
               "this trace's format has no read/write field: the share of writes is unknown, not 0")
    row.metric("Footprint", f"{'≈ ' if sampled else ''}{stats.footprint_bytes / 2**20:,.1f} MiB",
               help="estimated from a spatial sample of the blocks (the rate: in the table below)" if sampled else None)
    row.metric("Mean request", f"{stats.size_mean_bytes / 1024:,.2f} KiB")


def _size_chart(sizes: pd.DataFrame, keys, values, note: str | None = None) -> None:
    """The request-size histogram (bins in KiB) with its CSV; ``note``: how it was computed, under it."""
    sz = sizes[sizes["requests"] > 0]
    # bins in KiB as short labels ("0.5", "32"): "512 B" ... "32 KiB" stood at 90° on a 1024 px window
    labels = [f"{a / 1024:g}" for a in sz["size_from_bytes"]]
    fig = figure(go.Bar(x=labels, y=sz["requests"], name="requests"))
    fig.update_xaxes(type="category")  # one bar per bin, evenly spaced (labels read as numbers drew them on a line)
    show(style(fig, title="Request sizes", x="request size ≥ [KiB]", y="requests [-]"), key="tx-sizes")
    if note:
        st.caption(note)
    download_csv(sizes, "trace-request-sizes.csv", key="dl-tx-sizes", provenance=keys, values=values)


def _reuse_chart(reuse: pd.DataFrame, bs: int, scn, keys, values, note: str | None = None) -> None:
    """The reuse-count histogram with n* on the chosen device and its p5-p95 band, and its CSV; ``note``: how it
    was computed, under it."""
    fig = figure(go.Bar(x=reuse["accesses"], y=reuse["blocks"], name="blocks"))
    x_max = float(reuse["accesses"].max()) if len(reuse) else 1.0
    with user_errors("How sure? band"):  # n* on the chosen device and its p5-p95 (the panel's analysis)
        from models.storage.uncertainty import breakeven_model

        _check_storage_path(bs)
        res = analysis(S, scn, breakeven_model(device=all_devices()[scn.cache_over],
                                               block_size_bytes=bs), key="tx-nstar")
        nb = reuse["blocks"][reuse["blocks"] > 0]
        if np.isfinite(res.point) and 1.0 <= res.point <= x_max:
            ref_line(fig, x=res.point, dash="dash", text=f"n* = {res.point:.3g}")
        if len(nb):
            add_x_band(fig, res.p5, res.p95, n=res.n, what="of n*", y0=float(nb.min()), y1=float(nb.max()),
                       clip=(0.5, x_max + 0.5))  # the bars' extent
    # a real trace's counts run to thousands with most blocks at a few: a log x axis with labelled
    # decades spreads them (a linear axis crammed the bars at its left)
    show(style(fig, title=f"Reuse counts ({bs} B blocks)", x="accesses per block [-]", y="blocks [-]",
               logx=x_max > REUSE_LOG_X_FROM, logy=True), key="tx-reuse")
    if note:
        st.caption(note)
    download_csv(reuse, "trace-reuse-counts.csv", key="dl-tx-reuse", provenance=keys, values=values)


def _mrc_chart(mrc: pd.DataFrame, policy: str, method: str) -> None:
    """The miss-ratio curve's chart (miss ratio over the cache size in MiB, log x)."""
    fig = figure()
    fig.add_scatter(x=mrc["cache_bytes"] / 2**20, y=mrc["miss_ratio"], name="miss ratio (block accesses)",
                    line_shape="hv" if policy == "lru" and method != "minisim" else "linear")
    # the whole 0-1 scale: a curve from 0.995 to 1.0 reads as the flat line it is, not as a steep drop
    fig.update_yaxes(range=[0, 1.02])
    show(style(fig, x=f"{policy.upper()} cache size [MiB]", y="miss ratio [-]", logx=True), key="tx-mrc")


def _mrc_of(_trace: BlockTrace, block_size: int, method: str, rate: float, policy: str) -> pd.DataFrame:
    """The miss-ratio curve table of :func:`_mrc` (uncached)."""
    if policy == "lru" and method == "exact" and use_extents(_trace, block_size, EXACT_BYTES_PER_ACCESS):
        # large requests: the same exact curve per run of blocks (models.traces.extents), never expanded
        p = extent_pieces(_trace, block_size)
        m = p.footprint_blocks
        sizes = np.unique(np.round(np.geomspace(1, max(m, 1), 200)).astype(np.int64))
        c = extent_hit_ratio_curve(_trace, block_size, sizes=sizes, byte_weights=False, pieces=p)
    else:
        # an exact curve is charged its whole memory (models.budget) before the split expands anything
        acc = split_blocks(_trace, block_size,
                           **({"bytes_per_access": EXACT_BYTES_PER_ACCESS} if method == "exact" else {}))
        m = acc.n_unique
        # LRU gives every size in one pass; the other policies cost one simulation per size
        points = 200 if policy == "lru" and method != "minisim" else 40
        sizes = np.unique(np.round(np.geomspace(1, max(m, 1), points)).astype(np.int64))
        c = policy_mrc(acc.block, policy=policy, method=method, rate=1.0 if method == "exact" else rate,
                       sizes=sizes, seed=0)
    df = c.to_frame()
    df.insert(1, "cache_bytes", df["cache_blocks"] * block_size)
    df.insert(2, "cache_fraction_of_footprint", df["cache_blocks"] / max(m, 1))
    df["miss_ratio"] = 1.0 - df["hit_ratio"]
    return df


if scn is not None and trace is not None:
    with user_errors("Trace explorer"):
        if len(trace) == 0:
            raise ValueError("the trace has no requests")
        bs = scn.block_size_bytes
        tok = trace.fingerprint()
        stats, table = _stats(trace, tok, bs)
        reuse, sizes, footprint = stats.reuse_count_hist, stats.size_hist, stats.footprint_blocks
        keys, values = trace_keys(trace)  # a synthetic preset's locality mix is assumed
        assumption_note(keys, values)
        _metrics(stats)

        st.subheader("Statistics")
        key_value_table(table, labels=STAT_LABELS, percent=("write_fraction", "sequential_fraction"))
        download_csv(table, "trace-stats.csv", key="dl-tx-stats", provenance=keys, values=values)

        h1, h2 = st.columns(2)
        with h1:
            _size_chart(sizes, keys, values)
        with h2:
            _reuse_chart(reuse, bs, scn, keys, values)

        st.subheader("Where the trace goes: offset over time")
        rng = np.random.default_rng(0)
        k = min(len(trace), scn.scatter_points)
        idx = np.sort(rng.choice(len(trace), k, replace=False)) if k < len(trace) else np.arange(len(trace))
        pts = pd.DataFrame({"time_s": trace.time_ns[idx] / 1e9, "offset_gib": trace.offset_bytes[idx] / 2**30,
                            "size_bytes": trace.size_bytes[idx], "device": trace.device[idx],
                            "op": np.where(trace.is_write[idx], "write", "read")})
        fig = figure()
        for op, color in (("read", "#1f77b4"), ("write", "#d62728")):
            p = pts[pts["op"] == op]
            fig.add_scatter(x=p["time_s"], y=p["offset_gib"], mode="markers", name=op,
                            marker=dict(size=3, color=color, opacity=0.6))
        fig.update_layout(hovermode="closest")
        show(style(fig, title=f"{k:,} of {len(trace):,} requests (uniform sample)", x="time [s]",
                   y="offset [GiB]"), key="tx-lbn")
        download_csv(pts, "trace-offset-sample.csv", key="dl-tx-lbn", provenance=keys, values=values)

        st.subheader("Miss-ratio curve")
        with st.spinner("Computing the miss-ratio curve …"):
            check_method(scn.mrc_policy, scn.mrc_method)  # names the supported pairs
            mrc = _mrc(trace, tok, bs, scn.mrc_method, scn.shards_rate, scn.mrc_policy)
        _mrc_chart(mrc, scn.mrc_policy, scn.mrc_method)
        how = {"exact": "exact (one Mattson stack-distance pass)" if scn.mrc_policy == "lru" else
               "exact (one full simulation per size)",
               "shards": f"SHARDS estimate at sampling rate {scn.shards_rate:g}",
               "minisim": f"MiniSim estimate at sampling rate {scn.shards_rate:g}"}[scn.mrc_method]
        st.caption(f"Per {bs}-byte block access, {how}; footprint {footprint:,} blocks. Cold misses make the "
                   "curve flatten at 1 − (reuses / accesses) once the cache holds the whole footprint.")
        download_csv(mrc, "trace-mrc.csv", key="dl-tx-mrc", provenance=keys, values=values)

if scn is not None and big is not None:
    with user_errors("Trace explorer"):
        not_drawn = "; ".join(f"the {what} ({why})" for what, why in NOT_STREAMED.items())
        st.info(f"**{md_escape(big.name)}** is read in blocks, never whole: {md_escape(big.why)}. The page streams "
                "its statistics, histograms and LRU miss-ratio curve from the file in one read (as `pcm-planner "
                f"trace-stats` and `pcm-planner mrc` do). Not drawn, as they need the trace in memory: {not_drawn}.",
                icon=":material/info:")
        bs = scn.block_size_bytes
        res = _streamed_trace(big.path, big.name, big.nbytes, big.format, big.options_json, big.why, bs,
                              scn.mrc_method, scn.shards_rate, scn.mrc_policy)
        _metrics(res.stats, sampled=res.sampled)
        st.subheader("Statistics")
        key_value_table(res.table[["statistic", "value"]], labels=STAT_LABELS,
                        percent=("write_fraction", "sequential_fraction"), notes=res.table["method"],
                        notes_header="method (sampling rate)")
        st.caption(f"Per {bs}-byte block: {md_escape(res.stats_how, 1200)}."
                   + (f" The file was read {res.reads} times: the first reads' exact state outgrew the run's memory "
                      "budget." if res.reads > 1 else ""))
        download_csv(res.table, "trace-stats.csv", key="dl-tx-stats")
        h1, h2 = st.columns(2)
        with h1:
            _size_chart(res.sizes, [], {}, note="Method: exact (every request counted, per request), sampling "
                                                "rate 1.")
        with h2:
            _reuse_chart(res.reuse, bs, scn, [], {}, note=f"Method: {res.reuse_how}.")
        st.subheader("Miss-ratio curve")
        if res.mrc is None:
            raise ValueError(res.mrc_error)
        mrc = res.mrc
        _mrc_chart(mrc.table, "lru", scn.mrc_method)
        st.caption(f"Per {bs}-byte block access, {md_escape(mrc.how, 800)}; footprint "
                   f"{mrc.footprint_blocks:,} blocks{' (estimated from the sample)' if mrc.rate else ''}, "
                   f"{mrc.requests:,} block accesses. Cold misses make the curve flatten at 1 − (reuses / accesses) "
                   "once the cache holds the whole footprint.")
        download_csv(mrc.table, "trace-mrc.csv", key="dl-tx-mrc")

if scn is not None and trace is not None:
    with user_errors("How sure?"):
        st.caption(f"Break-even rule on {md_escape(scn.cache_over)}: the share of the footprint's blocks accessed no "
                   "more than n* times, which a DRAM cache over that storage cannot help (the reuse counts are "
                   "counted once; n* varies with the timings).")
        _check_storage_path(scn.block_size_bytes)
        how_sure(S, scn, _share_model(trace, scn), key="tx", content=_share_content(trace, scn))
