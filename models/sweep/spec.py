"""Sweep specifications: traces x devices x parameter grids, read from TOML (schema in ``docs/sweep.md``).

A spec lists named traces (bundled names or files), catalogue devices, and one or more model
entries, each with a parameter ``grid`` (every combination is a task) and ``fixed`` values.
:meth:`SweepSpec.tasks` expands it into :class:`Task` objects whose ``key`` (a content hash of
the model, the trace source -- and for a file its size and modification time --, the device and
the parameters) names the task's stored result, so a rerun skips finished tasks.

>>> spec = parse_spec('''
... [sweep]
... name = "demo"
... [[traces]]
... name = "tpcc"
... source = "mqsim:tpcc-small"
... max_requests = 2000
... [[models]]
... model = "cache_sim"
... grid = { policy = ["lru", "fifo"], cache_blocks = [64, 256] }
... ''')
>>> [(t.model, t.trace.name, t.params["policy"], t.params["cache_blocks"]) for t in spec.tasks()][:2]
[('cache_sim', 'tpcc', 'lru', 64), ('cache_sim', 'tpcc', 'lru', 256)]
>>> len({t.key for t in spec.tasks()})
4
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import Field, ValidationError, field_validator

from models._base import ModelInput
from models.budget import charge
from models.nesting import loads_toml

__all__ = ["TraceEntry", "ModelEntry", "SweepSpec", "Task", "parse_spec", "load_spec", "check_hosted", "TASK_BYTES"]

#: Memory charged against the run's budget (:mod:`models.budget`) per task of the task list [bytes], before
#: the grid is expanded: measured 544 bytes per task (peak RSS growth of ``SweepSpec.tasks()`` over 20,000 mrc
#: tasks), rounded up; the results of each task come on top.
TASK_BYTES = 1024

Scalar = bool | int | float | str


class TraceEntry(ModelInput):
    """One trace of the sweep.

    Attributes
    ----------
    name : str
        Label in the results (``trace`` column).
    source : str
        A bundled trace name (``mqsim:tpcc-small``, ``synthetic:fin1``, ``lackey:xz``) or a file
        path (relative paths are relative to the spec file); every worker must be able to read it.
    format : str
        Trace format (default ``auto``).
    max_requests : int, optional
        Read at most this many requests [requests].
    options : dict
        Reader options (``n_requests``, ``seed`` for synthetic presets; CSV column mapping, ...).
    """

    name: str = Field(min_length=1, max_length=200)
    source: str = Field(min_length=1)
    format: str = "auto"
    max_requests: int | None = Field(None, ge=1)
    options: dict[str, Scalar] = Field(default_factory=dict)


class ModelEntry(ModelInput):
    """One model of the sweep and its parameter grid.

    Attributes
    ----------
    model : str
        A name in :data:`models.sweep.registry.SWEEP_MODELS`, or ``call:package.module:function``
        for any function of the :mod:`models` package (called with the parameters, plus
        ``trace=`` and ``device=`` when it takes them).
    traces : list of str, optional
        Names of the spec's traces to run it on (default: all; none for a model without a trace).
    devices : list of str, optional
        Devices to run it on (default: the spec's ``devices``; ignored by models without a device).
    grid : dict
        Parameter -> list of values; every combination is a task.
    fixed : dict
        Parameter -> value, the same for every task of the entry.
    """

    model: str = Field(min_length=1)
    traces: list[str] | None = None
    devices: list[str] | None = None
    grid: dict[str, list[Scalar]] = Field(default_factory=dict)
    fixed: dict[str, Scalar] = Field(default_factory=dict)

    @field_validator("grid")
    @classmethod
    def _non_empty(cls, v: dict) -> dict:
        empty = [k for k, vals in v.items() if not vals]
        if empty:
            raise ValueError(f"grid parameter(s) {', '.join(empty)} have no values")
        return v


@dataclass(frozen=True)
class Task:
    """One (model, trace, device, parameters) combination.

    Attributes
    ----------
    model : str
        Model name.
    trace : TraceEntry or None
        The trace (None for a model that takes none).
    device : str or None
        Catalogue device or drive (None for a model that takes none).
    params : dict
        Fixed and grid parameters.
    grid_keys : tuple of str
        The parameters that vary (result columns).
    key : str
        Content hash [16 hex digits]: the name of the task's stored result.
    """

    model: str
    trace: TraceEntry | None
    device: str | None
    params: dict = field(compare=False)
    grid_keys: tuple[str, ...]
    key: str

    def label(self) -> str:
        """Short text naming the task in messages."""
        ps = ", ".join(f"{k}={self.params[k]}" for k in self.grid_keys)
        parts = [self.model, self.trace.name if self.trace else None, self.device, ps or None]
        return " / ".join(p for p in parts if p)


def _source_identity(source: str) -> dict:
    """A file is identified by its path, size and modification time (a change reruns its tasks)."""
    p = Path(source)
    if p.is_file():
        st = p.stat()
        return {"path": str(p.resolve()), "bytes": st.st_size, "mtime_ns": st.st_mtime_ns}
    return {"bundled": source}


class SweepSpec(ModelInput):
    """A sweep: traces, devices and models with parameter grids (see ``docs/sweep.md``).

    Attributes
    ----------
    name : str
        Sweep name.
    traces : list of TraceEntry
        The traces.
    devices : list of str
        Default devices of the models that take one.
    models : list of ModelEntry
        The models and their grids (at least one).
    base_dir : str
        Directory relative trace paths are resolved against (the spec file's).
    """

    name: str = "sweep"
    traces: list[TraceEntry] = Field(default_factory=list)
    devices: list[str] = Field(default_factory=list)
    models: list[ModelEntry] = Field(min_length=1)
    base_dir: str = "."

    def resolved(self, entry: TraceEntry) -> TraceEntry:
        """``entry`` with a relative file path made absolute against :attr:`base_dir`."""
        p = Path(self.base_dir) / entry.source
        if not Path(entry.source).is_absolute() and p.is_file():
            return entry.model_copy(update={"source": str(p.resolve())})
        return entry

    def tasks(self, *, max_tasks: int | None = None) -> list[Task]:
        """Every task, in spec order (model entry, trace, device, grid in row-major order).

        ``max_tasks``: refuse a spec making more tasks, counted as the product of the axis lengths
        before any combination is built (a 10 KB spec can name 10^10 combinations).

        Raises
        ------
        ValueError
            An unknown model, trace name, device or parameter (the message names it); more tasks than
            ``max_tasks``.
        """
        from models.sweep.registry import get_model

        names = [t.name for t in self.traces]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"trace name(s) used twice: {', '.join(dup)}")
        by_name = {t.name: self.resolved(t) for t in self.traces}
        out: list[Task] = []
        counted = 0
        for i, m in enumerate(self.models):
            where = f"models[{i}] ({m.model})"
            sm = get_model(m.model)
            both = sorted(set(m.grid) & set(m.fixed))
            if both:
                raise ValueError(f"{where}: parameter(s) {', '.join(both)} are both in grid and fixed")
            sm.check_params({**m.fixed, **{k: v[0] for k, v in m.grid.items()}}, where)
            if sm.trace_kind is None:
                traces: list[TraceEntry | None] = [None]
            else:
                wanted = m.traces if m.traces is not None else names
                unknown = [n for n in wanted if n not in by_name]
                if unknown:
                    raise ValueError(f"{where}: unknown trace(s) {', '.join(unknown)} (spec traces: "
                                     f"{', '.join(names) or 'none'})")
                traces = [by_name[n] for n in wanted]
                if not traces:
                    raise ValueError(f"{where}: the model needs a trace and the spec lists none")
            if sm.device is None:
                devices: list[str | None] = [None]
            else:
                devices = list(m.devices if m.devices is not None else self.devices)
                if not devices:
                    raise ValueError(f"{where}: the model needs a device; give devices (top level or per model)")
                for d in devices:
                    sm.check_device(d, where)
            counted += len(traces) * len(devices) * math.prod(len(v) for v in m.grid.values())
            if max_tasks is not None and counted > max_tasks:
                raise ValueError(f"the spec makes at least {counted:,} tasks (up to {where}: traces x devices x "
                                 f"grid values); the app runs at most {max_tasks:,} (use pcm-planner sweep for more)")
            charge(float(counted) * TASK_BYTES, f"the sweep's task list (at least {counted:,} tasks, up to {where})")
            keys = list(m.grid)
            for tr, dev, combo in itertools.product(traces, devices, itertools.product(*m.grid.values())):
                params = {**m.fixed, **dict(zip(keys, combo))}
                ident = {"model": m.model, "trace": None if tr is None else
                         {**tr.model_dump(exclude={"name"}), **_source_identity(tr.source)},
                         "device": dev, "params": params}
                key = hashlib.blake2b(json.dumps(ident, sort_keys=True, default=str).encode(),
                                      digest_size=8).hexdigest()
                out.append(Task(m.model, tr, dev, params, tuple(keys), key))
        return out


def check_hosted(spec: SweepSpec, *, max_tasks: int) -> list[Task]:
    """The tasks of ``spec`` if a shared server may run it, else ValueError naming the problem.

    A spec submitted to the web app may use bundled traces only (no paths on the server), the
    named models only (no ``call:``: a function called with user keywords could write files),
    and at most ``max_tasks`` tasks.

    >>> check_hosted(parse_spec('[[traces]]\\nname="a"\\nsource="/etc/passwd"\\n[[models]]\\nmodel="mrc"\\n'),
    ...              max_tasks=10)
    Traceback (most recent call last):
    ...
    ValueError: traces[0] (a): in the app a sweep reads bundled traces only (/etc/passwd is not one); run files with pcm-planner sweep
    """
    from models.traces import bundled_traces

    bundled = set(bundled_traces())
    for i, t in enumerate(spec.traces):
        if t.source not in bundled:
            raise ValueError(f"traces[{i}] ({t.name}): in the app a sweep reads bundled traces only ({t.source} is not "
                             "one); run files with pcm-planner sweep")
    for i, m in enumerate(spec.models):
        if m.model.startswith("call:"):
            raise ValueError(f"models[{i}] ({m.model}): in the app a sweep runs the named models only; call: models "
                             "run with pcm-planner sweep")
    tasks = spec.tasks(max_tasks=max_tasks)  # counted before the grid is expanded
    if len(tasks) > max_tasks:
        raise ValueError(f"the spec makes {len(tasks):,} tasks; the app runs at most {max_tasks:,} (use pcm-planner "
                         "sweep for more)")
    return tasks


def parse_spec(text: str, *, base_dir: str | os.PathLike = ".", what: str = "sweep spec") -> SweepSpec:
    """Parse a TOML sweep spec (``[sweep] name``, ``[[traces]]``, ``devices``, ``[[models]]``).

    Raises
    ------
    ValueError
        Invalid TOML or an invalid spec (the message names the entry and field).
    """
    try:
        doc = loads_toml(text, what=what)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"sweep spec: invalid TOML: {e}") from None
    head = doc.pop("sweep", {})
    if not isinstance(head, dict):
        raise ValueError("sweep spec: [sweep] must be a table")
    data = {**head, **doc, "base_dir": str(base_dir)}
    try:
        return SweepSpec.model_validate(data)
    except ValidationError as e:
        errs = "; ".join(f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}" for err in e.errors()[:5])
        raise ValueError(f"sweep spec: {errs}") from None


def load_spec(path: str | os.PathLike) -> SweepSpec:
    """Read a TOML sweep spec file; relative trace paths are relative to its directory."""
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"sweep spec not found: {path}")
    return parse_spec(p.read_text(encoding="utf-8"), base_dir=p.parent.resolve(), what=f"sweep spec {p.name}")
