"""Shared trace picker: bundled traces, synthetic presets (with parameters) or an upload.

Usage in a page whose Scenario inherits :class:`TraceChoice` (so the choice lives in the
page's session keys and travels in the URL / scenario JSON)::

    class MyScenario(TraceChoice):
        PREFIX = "my"
        ...

    S = MyScenario
    init_state(S)
    trace = block_trace_picker(key=S.PREFIX)   # BlockTrace or None (errors already shown)

Without a Scenario, any ``key`` works: the picker seeds its own session keys
``{key}.trace_source``, ``{key}.trace_name``, ``{key}.preset``, ``{key}.n_requests``,
``{key}.seed``, ``{key}.scale``, ``{key}.upload_format`` (+ upload/CSV-column keys).
Every trace comes from :func:`models.traces.load` (bundled names and presets are cached
there). Parsing an upload shows an ``st.progress`` bar and is cached on the uploaded bytes in
a process-wide cache bounded in bytes (:class:`app.components.bytecache.ByteBudgetCache`); bad
files give an error naming the line and field, and the other inputs stay.
"""

from __future__ import annotations

import hashlib
import io
import json
from typing import Any, ClassVar, Literal

import streamlit as st
from pydantic import Field, field_validator

from app.components.bytecache import ByteBudgetCache
from app.components.errors import show_error
from app.components.heavy import heavy_slot
from app.components.inputs import SciInt, whole_number_input
from app.components.progress import progress_bar
from app.components.scenario import Scenario
from models.traces import FORMATS, bundled_traces, load
from models.traces.core import BlockTrace, MemTrace
from models.traces.loader import DEFAULT_SYNTHETIC_SCALE
from models.traces.synthetic import PRESETS, mem_trace, preset_names

__all__ = ["TraceChoice", "block_trace_picker", "mem_trace_picker", "block_size_select", "BLOCK_SIZES",
           "trace_and_settings", "trace_format_controls"]

SOURCES = {"bundled": "Bundled trace", "synthetic": "Synthetic workload", "upload": "Upload a file"}
BLOCK_SIZES = [512 << i for i in range(12)]  # 512 B .. 1 MiB
DEFAULTS = {"trace_source": "bundled", "trace_name": "mqsim:tpcc-small", "preset": "fin1", "n_requests": 100_000,
            "seed": 0, "scale": DEFAULT_SYNTHETIC_SCALE, "upload_format": "auto"}
#: Picker inputs that are not Scenario fields (not in the URL): seeded here, and kept across page
#: switches like the fields (:attr:`Scenario.EXTRA_INPUTS`).
EXTRA_DEFAULTS = {"mem_refs": 200_000, "mem_data_mib": 16.0, "mem_alpha": 0.9, "max_requests": 0, "blk_action": "Q",
                  "csv_time_col": None, "csv_op_col": None, "csv_op_map": None, "csv_header": True,
                  "csv_addr_kind": "offset", "csv_addr_col": None, "csv_size_col": None, "csv_size_unit": "bytes",
                  "csv_time_unit": "s", "csv_sep": ",", "csv_sector": 512}


def _real_block_names() -> list[str]:
    return [n for n in bundled_traces("block") if not n.startswith("synthetic:")]


class TraceChoice(Scenario):
    """Scenario fields of the trace picker (inherit in a page's Scenario)."""

    EXTRA_INPUTS: ClassVar[dict[str, Any]] = EXTRA_DEFAULTS
    # titles: the labels of the widgets (block_trace_picker), so a message about a field names what the user sees
    trace_source: Literal["bundled", "synthetic", "upload"] = Field("bundled", title="Trace")
    trace_name: str = Field(DEFAULTS["trace_name"], title="Bundled trace")
    preset: str = Field(DEFAULTS["preset"], title="Workload preset")
    n_requests: SciInt = Field(DEFAULTS["n_requests"], ge=100, le=5_000_000, title="Requests")
    seed: SciInt = Field(0, ge=0, le=2**31 - 1, title="Seed")
    scale: float = Field(DEFAULT_SYNTHETIC_SCALE, ge=0.001, le=1, title="Dataset scale [-]")
    upload_format: str = Field("auto", title="Format")

    @field_validator("trace_name")
    @classmethod
    def _known_trace(cls, v: str) -> str:
        valid = [n for n in bundled_traces() if not n.startswith("synthetic:")]
        if v not in valid:
            raise ValueError(f"unknown bundled trace {v!r}; valid names: {', '.join(valid)}")
        return v

    @field_validator("preset")
    @classmethod
    def _known_preset(cls, v: str) -> str:
        if v not in preset_names():
            raise ValueError(f"unknown preset {v!r}; valid names: {', '.join(preset_names())}")
        return v

    @field_validator("upload_format")
    @classmethod
    def _known_format(cls, v: str) -> str:
        if v != "auto" and v not in FORMATS:
            raise ValueError(f"unknown trace format {v!r}; valid: auto, {', '.join(FORMATS)}")
        return v


def _k(key: str, field: str) -> str:
    return f"{key}.{field}"


def _seed_state(key: str) -> None:
    for f, v in {**DEFAULTS, **EXTRA_DEFAULTS}.items():
        st.session_state.setdefault(_k(key, f), v)


@st.cache_data(show_spinner=False, max_entries=8)
def _mem_synthetic(n_refs: int, data_mib: float, alpha: float, write_fraction: float, seed: int):
    trace = mem_trace(n_refs, data_bytes=int(data_mib * (1 << 20)), alpha=alpha, write_fraction=write_fraction,
                      seed=seed)
    trace.fingerprint()  # memoised on the trace: the cached copies carry it
    return trace


#: Parsed uploads, shared by all sessions of this server, bounded in bytes (pickled traces; a
#: 20 M-request block trace is ~0.6 GB) instead of by count: one cached copy per distinct upload.
UPLOAD_CACHE = ByteBudgetCache(budget_bytes=768 << 20, ttl_s=3600)


def _parse_upload(data: bytes, filename: str, kind: str, fmt: str, opts_json: str):
    """Parse uploaded bytes (cache key: the bytes' SHA-256, name, kind, format and options).

    Read whole within the run's memory budget (:mod:`models.budget`) unless the options hold ``max_requests``; the fingerprint is memoised here so the cached copies carry it.
    Cached in :data:`UPLOAD_CACHE` (every hit is a fresh copy, as with ``st.cache_data``).
    """
    def parse():
        # bulk work: its cost grows with the file; it never takes the heavy slots kept for cheap runs
        with heavy_slot(bulk=True), progress_bar(f"Parsing {filename} …", total_bytes=len(data)) as report:
            trace = load(io.BytesIO(data), kind=kind, format=fmt, name=filename, progress=report,
                         **json.loads(opts_json))
        trace.fingerprint()
        return trace

    key = (hashlib.sha256(data).hexdigest(), filename, kind, fmt, opts_json)
    return UPLOAD_CACHE.get_or_compute(key, parse)


def _csv_options(key: str) -> dict:
    """Column-mapping widgets for the generic CSV format."""
    st.caption("Generic CSV: column names (or 0-based indexes without a header).")
    c1, c2 = st.columns(2)
    with c1:
        st.text_input("Time column", key=_k(key, "csv_time_col"), placeholder="e.g. timestamp")
        st.text_input("Operation column", key=_k(key, "csv_op_col"), placeholder="e.g. op")
        st.text_input("Op codes", key=_k(key, "csv_op_map"), placeholder="R=read,W=write or scsi")
        st.checkbox("First line is a header", key=_k(key, "csv_header"))
    with c2:
        st.radio("Address column is", ["offset", "lba"], key=_k(key, "csv_addr_kind"), horizontal=True,
                 format_func={"offset": "byte offset", "lba": "LBA (sectors)"}.get)
        st.text_input("Address column", key=_k(key, "csv_addr_col"), placeholder="e.g. offset")
        st.text_input("Size column", key=_k(key, "csv_size_col"), placeholder="e.g. size")
        st.selectbox("Size unit", ["bytes", "sectors"], key=_k(key, "csv_size_unit"))
    c3, c4, c5 = st.columns(3)
    c3.selectbox("Time unit", ["s", "ms", "us", "ns", "filetime"], key=_k(key, "csv_time_unit"))
    c4.selectbox("Separator", [",", ";", "tab", "whitespace"], key=_k(key, "csv_sep"))
    sector = whole_number_input(_k(key, "csv_sector"), "Sector size [bytes]", low=1, high=1 << 16,
                                default=EXTRA_DEFAULTS["csv_sector"], container=c5)
    ss = st.session_state

    def col(name):
        v = (ss.get(_k(key, name)) or "").strip()
        return None if not v else (int(v) if v.isdigit() else v)

    if not col("csv_size_col") or not col("csv_addr_col"):
        raise ValueError("generic CSV: give at least the address column and the size column")
    opts = {"size_col": col("csv_size_col"), "time_col": col("csv_time_col"), "op_col": col("csv_op_col"),
            "op_map": col("csv_op_map"), "header": bool(ss.get(_k(key, "csv_header"), True)),
            "size_unit": ss.get(_k(key, "csv_size_unit"), "bytes"), "time_unit": ss.get(_k(key, "csv_time_unit"), "s"),
            "sep": ss.get(_k(key, "csv_sep"), ","), "sector_size": sector}
    opts["offset_col" if ss.get(_k(key, "csv_addr_kind"), "offset") == "offset" else "lba_col"] = col("csv_addr_col")
    return {k: v for k, v in opts.items() if v is not None}


def _formats(kind: str | None) -> list[str]:
    return ["auto"] + [f for f, spec in FORMATS.items() if kind in (None, spec.kind)]


def trace_format_controls(key: str, kind: str | None = None) -> tuple[str, dict]:
    """The trace format select and, for the generic CSV, its column mapping (blkparse: its action).

    The one set of format / mapping controls of every trace upload (the trace pages' picker and
    each of the planner's uploads); session keys ``{key}.upload_format`` and ``{key}.csv_*``.

    Parameters
    ----------
    key : str
        Session-key prefix.
    kind : {None, "block", "memory"}
        The formats offered (None: every format).

    Returns
    -------
    tuple
        ``(format, reader options)``: ``"auto"`` or a :data:`models.traces.FORMATS` name, and the
        options for :func:`models.traces.load`. Raises ValueError when the CSV mapping is incomplete.
    """
    _seed_state(key)
    fmts = _formats(kind)
    if st.session_state.get(_k(key, "upload_format")) not in fmts:
        st.session_state[_k(key, "upload_format")] = "auto"
    st.selectbox(TraceChoice.label("upload_format"), fmts, key=_k(key, "upload_format"),
                 format_func=lambda f: "auto-detect" if f == "auto" else f"{f} — {FORMATS[f].description}")
    fmt = st.session_state[_k(key, "upload_format")]
    opts: dict = {}
    if fmt == "csv":
        opts = _csv_options(key)
    elif fmt == "blkparse":
        opts["action"] = st.selectbox("blkparse action", ["Q", "D", "C", "I"], key=_k(key, "blk_action"),
                                      help="Q = queued, D = issued to the driver, C = completed")
    return fmt, opts


def _large_upload(up, data: bytes, fmt: str, opts: dict, why: str):
    """The upload kept on disk and read in blocks (:class:`app.components.large_trace.LargeUpload`)."""
    from app.components.large_trace import LargeUpload
    from app.components.uploads import store_upload

    return LargeUpload(path=str(store_upload(data, up.name)), name=up.name, nbytes=len(data), format=fmt,
                       options_json=json.dumps(opts, sort_keys=True), why=why)


def _upload(key: str, kind: str, label: str, stream_large: bool = False):
    fmts = _formats(kind)
    up = st.file_uploader(label, key=_k(key, "upload"),
                          help="Plain text, gzip or zstd (detected from the content). Formats: "
                               + "; ".join(f"{f}: {FORMATS[f].description}" for f in fmts[1:]))
    slot = st.container()  # a file that cannot be read says why right here, under the upload
    fmt, opts = trace_format_controls(key, kind)
    max_req = whole_number_input(_k(key, "max_requests"), "Read at most this many requests (0 = all)",
                                 low=0, high=None, default=EXTRA_DEFAULTS["max_requests"],
                                 help="0 (default): the whole trace, within the server's memory budget "
                                      "(PCM_MEMORY_BUDGET); a number reads only the first requests.")
    if up is None:
        st.info("Upload a trace file to analyse it.", icon=":material/upload_file:")
        return None
    if max_req:
        opts["max_requests"] = max_req
    data = up.getvalue()
    try:
        if stream_large:  # a file over the in-memory limit is never read whole (app.components.large_trace)
            from app.components.large_trace import stream_reason

            why = stream_reason(len(data))
            if why is not None:
                return _large_upload(up, data, fmt, opts, why)
        return _parse_upload(data, up.name, kind, fmt, json.dumps(opts, sort_keys=True))
    except Exception as exc:  # noqa: BLE001 - shown under the upload; the other inputs stay
        if stream_large:  # a whole read refused for its size (requests or memory): read in blocks instead
            from app.components.large_trace import refused_whole_why

            why = refused_whole_why(exc)
            if why is not None:
                try:
                    return _large_upload(up, data, fmt, opts, why)
                except Exception as exc2:  # noqa: BLE001 - e.g. the upload folder full: shown like any error
                    exc = exc2
        with slot:
            show_error(exc, label)
        return None


def _valid(key: str, field: str, options) -> str:
    """Session key of ``field``, reset to the first option if its value is not among ``options``."""
    k = _k(key, field)
    if st.session_state.get(k) not in options:
        st.session_state[k] = options[0]
    return k


def _pick(key: str, sources, label: str, container, branch):
    """Source radio + ``branch(src)`` in ``container``; errors shown, None returned instead."""
    box = container or st.container()
    with box:
        src_key = _valid(key, "trace_source", list(sources))
        st.radio(label, list(sources), key=src_key, horizontal=True, format_func=SOURCES.get)
        try:
            return branch(st.session_state[src_key])
        except Exception as exc:  # noqa: BLE001 - shown as a message; the other inputs stay
            show_error(exc, "Trace")
            return None


def _pick_bundled(key: str, names: list[str], label: str, **kw):
    name_key = _valid(key, "trace_name", names)
    st.selectbox(label, names, key=name_key, **kw)
    return load(st.session_state[name_key])


def block_trace_picker(key: str = "trace", *, sources: tuple[str, ...] = ("bundled", "synthetic", "upload"),
                       container=None, stream_large: bool = False):
    """Pick a block I/O trace: bundled file, synthetic preset (with parameters) or upload.

    Returns the trace, or None (nothing uploaded yet, or an error already shown). ``stream_large`` (a page that
    streams what it can): an upload too large to read whole (:mod:`app.components.large_trace`) is returned as a
    :class:`~app.components.large_trace.LargeUpload` (its file on disk), not parsed.
    """
    _seed_state(key)

    def branch(src: str) -> BlockTrace | None:
        if src == "bundled":
            return _pick_bundled(key, _real_block_names(), "Bundled trace",
                                 help="MQSim example traces (MIT) and DiskSim validation traces; see data/SOURCES.md")
        if src == "synthetic":
            preset_key = _valid(key, "preset", preset_names())
            from app.components.provenance import param_help, params_help
            from models.provenance import param_names

            chosen = st.session_state.get(preset_key)
            st.selectbox("Workload preset", preset_names(), key=preset_key,
                         format_func=lambda p: f"{p} — {PRESETS[p].description}",
                         help=params_help(param_names(f"trace.{chosen}.") if chosen in PRESETS else [],
                                          "Synthetic stand-in for a paper workload. Its parameters and their "
                                          "provenance (Table II targets published, locality assumed):"))
            c1, c2, c3 = st.columns(3)
            n_req = whole_number_input(_k(key, "n_requests"), TraceChoice.label("n_requests"), low=100, high=5_000_000,
                                       default=DEFAULTS["n_requests"], container=c1)
            seed = whole_number_input(_k(key, "seed"), "Seed", low=0, high=2**31 - 1, default=DEFAULTS["seed"],
                                      container=c2)
            c3.number_input(TraceChoice.label("scale"), min_value=0.001, max_value=1.0, step=0.01, format="%.3f",
                            key=_k(key, "scale"),
                            help=param_help("trace.synthetic_scale",
                                            "Shrinks the preset's address range (Table II dataset size) or file count."))
            ss = st.session_state
            return load(f"synthetic:{ss[preset_key]}", n_requests=n_req,
                        seed=seed, scale=float(ss[_k(key, "scale")]))
        return _upload(key, "block", "Block I/O trace file", stream_large)

    return _pick(key, sources, "Trace", container, branch)


def mem_trace_picker(key: str = "memtrace", *, container=None) -> MemTrace | None:
    """Pick a memory-reference trace: bundled lackey file (if any), synthetic, or upload."""
    _seed_state(key)
    lackey = bundled_traces("memory")
    sources = (["bundled"] if lackey else []) + ["synthetic", "upload"]

    def branch(src: str) -> MemTrace | None:
        if src == "bundled":
            return _pick_bundled(key, lackey, "Bundled memory trace")
        if src == "synthetic":
            c1, c2, c3, c4 = st.columns(4)
            refs = whole_number_input(_k(key, "mem_refs"), "References", low=1000, high=20_000_000,
                                      default=EXTRA_DEFAULTS["mem_refs"], container=c1)
            c2.number_input("Data footprint [MiB]", min_value=0.01, max_value=4096.0,
                            key=_k(key, "mem_data_mib"))
            c3.number_input("Zipf alpha [-]", min_value=0.0, max_value=3.0, step=0.1,
                            key=_k(key, "mem_alpha"))
            seed = whole_number_input(_k(key, "seed"), "Seed", low=0, high=2**31 - 1, default=DEFAULTS["seed"],
                                      container=c4)
            ss = st.session_state
            return _mem_synthetic(refs, float(ss[_k(key, "mem_data_mib")]),
                                  float(ss[_k(key, "mem_alpha")]), 0.3, seed)
        return _upload(key, "memory", "valgrind lackey trace (--tool=lackey --trace-mem=yes) or .npz memory trace")

    return _pick(key, sources, "Memory trace", container, branch)


def block_size_select(key: str, label: str = "Block size [bytes]", *, help: str | None = None) -> int:
    """A block-size select slider (powers of two, 512 B .. 1 MiB); returns the value [bytes]."""
    st.session_state.setdefault(key, 4096)
    if st.session_state[key] not in BLOCK_SIZES:
        st.session_state[key] = 4096
    st.select_slider(label, options=BLOCK_SIZES, key=key, help=help)
    return int(st.session_state[key])


def trace_and_settings(key: str, *, border: bool = True, widths: tuple[int, int] = (3, 2), stream_large: bool = False):
    """Layout of the trace-driven pages: block-trace picker on the left, the page's settings on the right.

    Returns ``(trace or None, right column)``; fill the column with ``with column: ...``. ``stream_large``: as
    :func:`block_trace_picker`'s.
    """
    c1, c2 = st.container(border=border).columns(list(widths))
    return block_trace_picker(key, container=c1, stream_large=stream_large), c2
