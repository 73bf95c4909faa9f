"""Bundled traces by name: real block traces under ``data/`` and synthetic presets.

Names:

- ``mqsim:tpcc-small``, ``mqsim:wsrch-small``: MQSim's example traces
  (``data/traces/block/*.trace.gz``, MIT, see ``data/SOURCES.md``);
- ``disksim:<drive>``: DiskSim validation traces (``data/disksim/*.trace``) when present;
- ``lackey:<name>``: valgrind lackey memory traces (``data/traces/mem/*.lackey[.gz|.zst]``, and the compact
  ``*.npz`` conversions made by ``data/traces/make_memtraces.sh``)
  (loaded as :class:`MemTrace`);
- ``synthetic:<preset>``: :func:`models.traces.synthetic.preset` at
  :data:`DEFAULT_SYNTHETIC_REQUESTS` requests, seed 0.

>>> "mqsim:tpcc-small" in bundled_traces() and "synthetic:fin1" in bundled_traces()
True
>>> len(load_bundled_trace("mqsim:tpcc-small"))
6999
"""

from __future__ import annotations

from models.data import data_dir
from models.traces.core import BlockTrace, MemTrace
from models.traces.readers import read_disksim_validate, read_lackey, read_mqsim
from models.traces.synthetic import preset, preset_names

__all__ = ["bundled_traces", "load_bundled_trace", "DEFAULT_SYNTHETIC_REQUESTS", "bundled_trace_path"]

#: Requests in a bundled synthetic preset trace.
DEFAULT_SYNTHETIC_REQUESTS = 100_000
#: Address-range scale of the bundled synthetic presets (keeps footprints laptop-sized).
DEFAULT_SYNTHETIC_SCALE = 0.05


def _real() -> dict[str, tuple[str, object]]:
    root = data_dir()
    out: dict[str, tuple[str, object]] = {}
    for p in sorted((root / "traces" / "block").glob("*.trace*")):
        stem = p.name.split(".trace")[0]
        out[f"mqsim:{stem}"] = (str(p), read_mqsim)
    for p in sorted((root / "disksim").glob("*.trace")):
        out[f"disksim:{p.stem}"] = (str(p), read_disksim_validate)
    for p in sorted((root / "traces" / "mem").glob("*.lackey*")):
        out[f"lackey:{p.name.split('.lackey')[0]}"] = (str(p), read_lackey)
    from models.traces.memtraces import (
        read_memtrace_npz,  # converted lackey traces (see make_memtraces.sh)
    )

    for p in sorted((root / "traces" / "mem").glob("*.npz")):
        out.setdefault(f"lackey:{p.stem}", (str(p), read_memtrace_npz))
    return out


def bundled_traces(kind: str | None = None) -> list[str]:
    """Names of the bundled traces; ``kind`` filters by prefix (``mqsim``, ``disksim``, ``lackey``, ``synthetic``)."""
    names = list(_real()) + [f"synthetic:{p}" for p in preset_names()]
    if kind:
        names = [n for n in names if n.split(":", 1)[0] == kind]
    return names


def bundled_trace_path(name: str) -> str:
    """File path of a bundled real trace (KeyError for synthetic or unknown names)."""
    real = _real()
    if name not in real:
        raise KeyError(f"unknown bundled trace file {name!r}; valid names: {', '.join(real)}")
    return real[name][0]


def load_bundled_trace(name: str, *, n_requests: int | None = None, seed=0, scale: float | None = None,
                       max_requests: int | None = None) -> BlockTrace | MemTrace:
    """Load a bundled trace by name (see :func:`bundled_traces`).

    ``n_requests``, ``seed`` and ``scale`` apply to synthetic presets (defaults
    :data:`DEFAULT_SYNTHETIC_REQUESTS`, 0 and :data:`DEFAULT_SYNTHETIC_SCALE`);
    ``max_requests`` truncates real traces. An unknown name raises ``KeyError`` listing the
    valid names.
    """
    name = str(name).strip()
    real = _real()
    if name in real:
        path, reader = real[name]
        return reader(path, name=name, max_requests=max_requests)
    if name.startswith("synthetic:") and name[len("synthetic:"):] in preset_names():
        n = DEFAULT_SYNTHETIC_REQUESTS if n_requests is None else n_requests
        if max_requests is not None:
            n = min(n, max_requests)
        return preset(name, n, seed=seed, scale=DEFAULT_SYNTHETIC_SCALE if scale is None else scale)
    raise KeyError(f"unknown bundled trace {name!r}; valid names: {', '.join(bundled_traces())}")
