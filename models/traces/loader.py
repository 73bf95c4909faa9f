"""One way to load a trace: a bundled name, a file path, or uploaded bytes (:func:`load`).

Bundled traces, by name (:func:`bundled_traces`):

- ``mqsim:tpcc-small``, ``mqsim:wsrch-small``: MQSim's example traces
  (``data/traces/block/*.trace.gz``, MIT, see ``data/SOURCES.md``);
- ``disksim:<drive>``: DiskSim validation traces (``data/disksim/*.trace``);
- ``lackey:<program>``: valgrind lackey memory traces (``data/traces/mem/*.lackey[.gz|.zst]``
  and the compact ``*.npz`` conversions made by ``data/traces/make_memtraces.sh``); a memory
  trace also answers to its bare program name (``xz`` = ``lackey:xz``);
- ``synthetic:<preset>``: :func:`models.traces.synthetic.preset` at
  :data:`DEFAULT_SYNTHETIC_REQUESTS` requests, seed 0, address scale
  :data:`DEFAULT_SYNTHETIC_SCALE` (``n_requests``, ``seed`` and ``scale`` change them).

The registry is built once; bundled loads are cached (traces are immutable), so every page
and command shares them. Every source obeys the same limit, in bytes: without ``max_requests`` a trace is
read whole within the run's memory budget (:mod:`models.budget`: the readers charge each parsed request and
the text read before joining the pieces, so a small compressed file that expands to billions of lines is
refused early, the message naming ``--memory-budget`` and the cut ``--max-requests N``); an explicit
``max_requests`` reads that many and no more.

>>> "mqsim:tpcc-small" in bundled_traces() and "synthetic:fin1" in bundled_traces(kind="block")
True
>>> len(load("mqsim:tpcc-small")), load("xz", max_requests=1000).name
(6999, 'xz')
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np

from models._lru import byte_lru_cache
from models.budget import BudgetExceeded, charge
from models.data import data_dir
from models.provenance import param
from models.traces.core import BlockTrace, MemTrace
from models.traces.detect import detect_text
from models.traces.formats import read_disksim_validate, read_lackey, read_memtrace_npz, read_mqsim
from models.traces.readers import read_trace
from models.traces.source import PARSED_REQUEST_BYTES, peek_text, source_name
from models.traces.synthetic import preset, preset_names

__all__ = [
    "DEFAULT_SYNTHETIC_REQUESTS",
    "DEFAULT_SYNTHETIC_SCALE",
    "TRACE_KINDS",
    "BundledTrace",
    "bundled_traces",
    "bundled_trace_path",
    "load",
]

#: How a refusal of a whole read names the cut that reads only the first requests (CLI option, app field).
CUT_HINT = ("or read only the first requests: --max-requests N (CLI) or \"Read at most this many requests\" "
            "(app)")
#: Requests in a bundled synthetic preset trace.
DEFAULT_SYNTHETIC_REQUESTS = 100_000
#: Address-range scale of the bundled synthetic presets (keeps footprints laptop-sized; registry
#: ``trace.synthetic_scale``, assumed).
DEFAULT_SYNTHETIC_SCALE = param("trace.synthetic_scale").value
#: Trace kinds: block I/O requests (:class:`BlockTrace`), memory references (:class:`MemTrace`).
TRACE_KINDS = ("block", "memory")
_KIND_TEXT = {"block": "a block I/O trace", "memory": "a memory-reference (lackey) trace"}
_SYNTHETIC_OPTIONS = ("n_requests", "seed", "scale")
#: Input limits of the file readers: accepted (and moot) for bundled traces.
_LIMIT_OPTIONS = ("max_line_bytes", "max_input_bytes")


@dataclasses.dataclass(frozen=True)
class BundledTrace:
    """A bundled trace: its name, kind and how to load it.

    Attributes
    ----------
    name : str
        ``family:name``, e.g. ``mqsim:tpcc-small``.
    kind : {"block", "memory"}
        The trace kind.
    path : str or None
        The data file (None for synthetic presets).
    reader : callable
        ``reader(path, name=..., max_requests=...)`` for files.
    """

    name: str
    kind: str
    path: str | None = None
    reader: Callable | None = None

    @property
    def family(self) -> str:
        """The name's prefix: mqsim, disksim, lackey or synthetic."""
        return self.name.split(":", 1)[0]


@cache
def _registry() -> dict[str, BundledTrace]:
    root = data_dir()
    out: dict[str, BundledTrace] = {}
    for p in sorted((root / "traces" / "block").glob("*.trace*")):
        name = f"mqsim:{p.name.split('.trace')[0]}"
        out[name] = BundledTrace(name, "block", str(p), read_mqsim)
    for p in sorted((root / "disksim").glob("*.trace")):
        out[f"disksim:{p.stem}"] = BundledTrace(f"disksim:{p.stem}", "block", str(p), read_disksim_validate)
    for p in sorted((root / "traces" / "mem").glob("*.lackey*")):
        name = f"lackey:{p.name.split('.lackey')[0]}"
        out[name] = BundledTrace(name, "memory", str(p), read_lackey)
    for p in sorted((root / "traces" / "mem").glob("*.npz")):
        out.setdefault(f"lackey:{p.stem}", BundledTrace(f"lackey:{p.stem}", "memory", str(p), read_memtrace_npz))
    for p in preset_names():
        out[f"synthetic:{p}"] = BundledTrace(f"synthetic:{p}", "block")
    return out


def _resolve(name: str) -> BundledTrace | None:
    """The bundled trace called ``name`` (or, for a memory trace, its bare program name)."""
    reg = _registry()
    return reg.get(name) or (reg.get(f"lackey:{name}") if ":" not in name else None)


def bundled_traces(kind: str | None = None) -> list[str]:
    """Names of the bundled traces.

    Parameters
    ----------
    kind : str, optional
        ``"block"`` or ``"memory"`` (trace kind), or a family prefix (``mqsim``,
        ``disksim``, ``lackey``, ``synthetic``); None lists all.

    >>> bundled_traces("memory") == bundled_traces("lackey")
    True
    """
    return [n for n, b in _registry().items() if kind in (None, b.kind, b.family)]


def bundled_trace_path(name: str) -> str:
    """File path of a bundled trace (KeyError for synthetic presets and unknown names)."""
    b = _resolve(str(name).strip())
    if b is None or b.path is None:
        files = [n for n, e in _registry().items() if e.path is not None]
        raise KeyError(f"unknown bundled trace file {name!r}; valid names: {', '.join(files)}")
    return b.path


def _check_kind(kind: str | None, got: str, label: str) -> None:
    """ValueError when a ``got`` trace is not of the required ``kind`` (None: any)."""
    if kind is not None and got != kind:
        raise ValueError(f"{label}: {_KIND_TEXT[got]}; this analysis needs {_KIND_TEXT[kind]}")


def _kind_of(trace: BlockTrace | MemTrace) -> str:
    return "memory" if isinstance(trace, MemTrace) else "block"


@contextlib.contextmanager
def _whole_read(label: str, whole: bool):
    """Within the block, a whole read (``whole``) refused by the memory budget names the cut too
    (:data:`CUT_HINT`); still a :class:`~models.budget.BudgetExceeded`, which callers that stream catch."""
    if not whole:
        yield
        return
    try:
        yield
    except BudgetExceeded as e:
        if CUT_HINT in str(e):
            raise
        raise BudgetExceeded(f"{label}: {e}; {CUT_HINT}") from None


def _charge_trace(trace: BlockTrace | MemTrace, label: str) -> None:
    """Refuse a whole trace over the run's budget: the readers that charge as they parse already refused it
    before joining its pieces (:data:`PARSED_REQUEST_BYTES` a request, more than a trace's own bytes); this is
    the bound of the others."""
    charge(float(getattr(trace, "nbytes", 0)), f"the trace {label!r} read whole ({len(trace):,} requests)")


# bounded in bytes, not count: the bundled memory traces are 42-105 MiB each (issue 20)
@byte_lru_cache(max_bytes=320 << 20, max_entries=16)
def _load_bundled(given: str, limit: int | None, n_requests: int, seed: int, scale: float) -> BlockTrace | MemTrace:
    b = _resolve(given)
    if b.path is not None:
        return b.reader(b.path, name=given, max_requests=limit)
    return preset(b.name, n_requests if limit is None else min(n_requests, limit), seed=seed, scale=scale)


def _bundled(b: BundledTrace, given: str, max_requests: int | None, options: dict) -> BlockTrace | MemTrace:
    allowed = _SYNTHETIC_OPTIONS if b.path is None else ()
    options = {k: v for k, v in options.items() if k not in _LIMIT_OPTIONS}
    extra = sorted(set(options) - set(allowed))
    if extra:
        raise ValueError(f"option(s) {', '.join(extra)} do not apply to the bundled trace {given!r}"
                         + (f" (valid: {', '.join(allowed)})" if allowed else ""))
    seed = options.get("seed", 0)
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer for a bundled synthetic trace (got {seed!r})")
    n = int(options.get("n_requests", DEFAULT_SYNTHETIC_REQUESTS))
    limit = None if max_requests is None else int(max_requests)
    with _whole_read(given, max_requests is None):
        if b.path is None:  # a synthetic preset: charged before it is generated
            m = n if limit is None else min(n, limit)
            charge(float(m) * PARSED_REQUEST_BYTES, f"generating {given} ({m:,} requests)")
        trace = _load_bundled(given, limit, n, int(seed), float(options.get("scale", DEFAULT_SYNTHETIC_SCALE)))
        if max_requests is None:
            _charge_trace(trace, given)
    return trace


def _label(source, options: dict) -> str:
    """How messages name a file source: the path as given, else the upload's name."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return options.get("name") or source_name(source)


def _file(source, kind: str | None, max_requests: int | None, options: dict) -> BlockTrace | MemTrace:
    fmt = options.get("format", "auto")
    reader_options = {k: v for k, v in options.items() if k != "format"}
    if fmt == "auto" and kind == "memory":  # unrecognised text is read as lackey, which names the bad line
        fmt, guessed = detect_text(peek_text(source), kind="memory")
        reader_options = {**guessed, **reader_options}
    # without max_requests, the memory budget bounds the read: a reader refuses as soon as the requests it has
    # parsed (or the text it has read) need more, before its pieces are joined
    with _whole_read(_label(source, options), max_requests is None):
        trace = read_trace(source, fmt, max_requests=max_requests, **reader_options)
        if max_requests is None:
            _charge_trace(trace, _label(source, options))
    return trace


def _not_found(source, kind: str | None) -> FileNotFoundError:
    what = f"bundled {kind} traces" if kind else "bundled traces"
    return FileNotFoundError(f"trace not found: {source} is neither a file nor a bundled trace "
                             f"({what}: {', '.join(bundled_traces(kind))})")


def load(source, *, kind: str | None = None, max_requests: int | None = None, **options) -> BlockTrace | MemTrace:
    """Load a trace from a bundled name, a file, or uploaded bytes.

    Parameters
    ----------
    source : str, os.PathLike, bytes or binary file object
        An existing file (plain, gzip or zstd; any format in
        :data:`~models.traces.formats.FORMATS`), a bundled name (:func:`bundled_traces`;
        a memory trace also by its bare program name), or the content of a trace file
        (``bytes`` or a binary file object such as a Streamlit ``UploadedFile``).
    kind : {None, "block", "memory"}, keyword-only
        Require a block I/O trace or a memory-reference trace (ValueError naming both
        otherwise); None accepts either.
    max_requests : int, optional, keyword-only
        Read only the first ``max_requests`` requests (memory references). None reads the
        whole trace within the run's memory budget (:class:`~models.budget.BudgetExceeded` beyond,
        naming ``--memory-budget`` and the cut, :data:`CUT_HINT`).
    **options
        For files and uploads: ``format`` (default ``"auto"``) and the reader options
        (``name``, ``progress``, ``chunk_bytes``, the CSV column mapping, ``time_unit``,
        ``action``, ...; see :func:`models.traces.read_trace`). For synthetic presets:
        ``n_requests``, ``seed`` (int) and ``scale``. None values are left out.

    Returns
    -------
    BlockTrace or MemTrace
        Bundled traces are named as given; files by their name without compression
        suffixes (or ``name``).

    Raises
    ------
    FileNotFoundError
        Neither a file nor a bundled name (the message lists the bundled names).
    ValueError
        Wrong trace kind, a whole read over the memory budget (:class:`~models.budget.BudgetExceeded`),
        an option the source does not take, or a malformed file
        (:class:`~models.traces.source.TraceFormatError` names the line and field).

    Examples
    --------
    >>> load("synthetic:fin1", n_requests=500, seed=1).name, len(load("mqsim:tpcc-small", max_requests=10))
    ('synthetic:fin1', 10)
    >>> len(load(b"0 0 8 8 1\\n1000 0 16 8 0\\n", kind="block"))
    2
    >>> load("lackey:sqlite", kind="block")
    Traceback (most recent call last):
    ...
    ValueError: lackey:sqlite: a memory-reference (lackey) trace; this analysis needs a block I/O trace
    """
    if kind is not None and kind not in TRACE_KINDS:
        raise ValueError(f"kind must be None, 'block' or 'memory' (got {kind!r})")
    if max_requests is not None and (isinstance(max_requests, bool) or max_requests < 1):
        raise ValueError(f"max_requests must be >= 1 (got {max_requests!r})")
    options = {k: v for k, v in options.items() if v is not None and not (k == "format" and v == "auto")}
    if isinstance(source, (str, os.PathLike)) and not Path(source).is_file():
        b = _resolve(source.strip()) if isinstance(source, str) else None
        if b is None:
            raise _not_found(source, kind)
        _check_kind(kind, b.kind, source.strip())
        return _bundled(b, source.strip(), max_requests, options)
    trace = _file(source, kind, max_requests, options)
    _check_kind(kind, _kind_of(trace), _label(source, options))
    return trace
