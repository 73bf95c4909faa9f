"""The planner over a fleet of volumes: one verdict row per trace x role x device, on Dask, resumably.

A fleet spec (TOML) names the traces (paths or globs, relative to the spec's folder), the devices and
the roles to keep::

    traces = ["volumes/*.csv.gz", "extra/hm_0.csv"]
    devices = ["pcm-samsung-20nm", "optane-dcpmm"]
    roles = ["storage", "write-cache"]           # optional: default the block-trace roles
    requests = 1000000                           # optional: first N requests of each trace
    baseline = "like-for-like"                   # optional

:func:`run_fleet` plans each trace on its own (:func:`models.planner.plan.plan`, one workload) --
serially, on a Dask ``LocalCluster`` (the sweep's :func:`~models.sweep.run.local_cluster`: worker processes of
one thread each), on a running scheduler (:func:`~models.sweep.run.check_scheduler` reads the address) or on a
client the caller made. On Dask, every worker first plans the first :data:`WARM_REQUESTS` requests of one trace
(:func:`warm_worker`: the planner's imports and compiled numba kernels loaded once, all workers at the same time),
then the traces run largest file first, so the last ones to finish are short. Each finished trace's rows are
written at once to ``<out>.parts/<hash of the path>.parquet`` (atomically), so an interrupted run loses only the
traces in flight and a rerun skips the traces already in the parts or in ``out`` (resumable); at the end the
whole table goes to ``out`` (Parquet; the CLI adds the CSV) and the parts are removed. Rows are in spec order
(the traces as the globs list them, sorted within a glob) whatever the scheduler. The rows are the plan's
columns led by ``trace`` (the path as listed).
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import os
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["FleetSpec", "load_fleet_spec", "fleet_traces", "plan_trace", "warm_worker", "warm_workers", "run_fleet", "fleet_summary",
           "parts_dir", "WARM_REQUESTS"]

#: Requests of the one warm-up plan each Dask worker runs before its volumes [-]: enough to import the planner
#: and load every compiled kernel a volume needs (speed only: its rows are discarded).
WARM_REQUESTS = 100


class FleetSpec(BaseModel):
    """A fleet: traces (paths or globs), devices, roles (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    traces: list[str] = Field(min_length=1, title="trace paths or globs")
    devices: list[str] = Field(min_length=1, max_length=3, title="devices (catalogue names)")
    roles: list[str] | None = Field(None, title="roles kept (default: the roles a block trace answers)")
    requests: int | None = Field(None, ge=1, title="requests used from each trace (default: all)")
    baseline: str = Field("like-for-like", title="baseline")
    root: str = Field(".", title="folder the relative trace paths start from")

    @field_validator("roles")
    @classmethod
    def _known_roles(cls, v):
        from models.planner.roles import ROLES_PLAN

        bad = [r for r in v or () if r not in ROLES_PLAN]
        if bad:
            raise ValueError(f"unknown role(s) {', '.join(map(repr, bad))}; valid: {', '.join(ROLES_PLAN)}")
        return v


def load_fleet_spec(path: str | os.PathLike) -> FleetSpec:
    """The :class:`FleetSpec` of a TOML file (relative trace paths start from its folder)."""
    from models.nesting import loads_toml

    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"--fleet {path}: no such file")
    doc = loads_toml(p.read_text(encoding="utf-8"), what=f"--fleet {p.name}")
    doc.setdefault("root", str(p.parent))
    return FleetSpec(**doc)


def fleet_traces(spec: FleetSpec) -> list[str]:
    """The trace files of ``spec``, in spec order (each glob sorted), without repeats; a pattern that matches
    nothing is an error naming it."""
    out: list[str] = []
    for pattern in spec.traces:
        full = pattern if os.path.isabs(pattern) else os.path.join(spec.root, pattern)
        hits = sorted(glob.glob(full)) if glob.has_magic(full) else ([full] if os.path.isfile(full) else [])
        if not hits:
            raise FileNotFoundError(f"fleet trace {pattern!r}: no file matches (relative to {spec.root})")
        out += [h for h in hits if h not in out]
    return out


def plan_trace(path: str, spec: FleetSpec) -> pd.DataFrame:
    """The plan rows of one trace (the spec's roles only), led by ``trace``."""
    from models.planner.plan import plan, workload_from_path

    res = plan([workload_from_path(path, kind="block")], list(spec.devices), baseline=spec.baseline,
               n_requests=spec.requests)
    from models.planner.roles import ROLE_NEEDS

    df = res.to_frame()
    keep = spec.roles or [r for r, needs in ROLE_NEEDS.items() if "block" in needs]
    df = df[df["role"].isin(keep)]
    df.insert(0, "trace", path)
    return df.reset_index(drop=True)


def warm_worker(trace: str, spec: FleetSpec) -> float:
    """Plan the first :data:`WARM_REQUESTS` requests of ``trace`` once and discard the rows, so this process
    has imported the planner and loaded its compiled kernels before its first volume; the time taken [s].

    A trace that cannot be planned is not an error here (its own task reports it)."""
    t0 = time.perf_counter()
    with contextlib.suppress(Exception):
        plan_trace(trace, spec.model_copy(update={"requests": min(spec.requests or WARM_REQUESTS, WARM_REQUESTS)}))
    return time.perf_counter() - t0


def warm_workers(client, trace: str, spec: FleetSpec) -> float:
    """:func:`warm_worker` on every worker of the Dask ``client`` at once (one pinned task each, in the worker's
    own thread); returns when all are done, the time taken [s]."""
    from dask.distributed import wait

    t0 = time.perf_counter()
    wait([client.submit(warm_worker, trace, spec, workers=[w], allow_other_workers=False, pure=False)
          for w in client.scheduler_info(n_workers=-1)["workers"]])
    return time.perf_counter() - t0


def parts_dir(out: str | os.PathLike) -> Path:
    """The directory of the per-trace results of the fleet written to ``out``: ``<out>.parts``."""
    return Path(f"{os.fspath(out)}.parts")


def _part(out: Path, trace: str) -> Path:
    return parts_dir(out) / f"{hashlib.sha1(trace.encode()).hexdigest()[:20]}.parquet"


def _write(df: pd.DataFrame, out: Path) -> None:
    """``out`` (Parquet), written atomically (a temporary file renamed)."""
    tmp = out.with_name(out.name + ".tmp")
    df.to_parquet(tmp, index=False)
    os.replace(tmp, out)


def _stored(out: Path) -> dict[str, pd.DataFrame]:
    """Trace -> its rows, from ``out`` and from the parts of an interrupted run (the parts win)."""
    files = ([out] if out.is_file() else []) + (sorted(parts_dir(out).glob("*.parquet")) if parts_dir(out).is_dir()
                                                else [])
    rows: dict[str, pd.DataFrame] = {}
    for f in files:
        df = pd.read_parquet(f)
        if len(df) and "trace" in df.columns:
            rows.update({t: g.reset_index(drop=True) for t, g in df.groupby("trace", sort=False)})
    return rows


def _largest_first(traces: list[str]) -> list[str]:
    """``traces`` by file size, largest first (ties in the given order)."""
    return sorted(traces, key=lambda t: -os.path.getsize(t))


def _on_dask(client, todo: list[str], spec: FleetSpec, finish: Callable[[str, pd.DataFrame, float], None]) -> None:
    """Warm every worker of ``client`` (all at once), then plan ``todo`` largest first; ``finish`` each result."""
    from dask.distributed import as_completed

    warm_workers(client, min(todo, key=os.path.getsize), spec)
    order = _largest_first(todo)
    t0 = time.perf_counter()
    futures = {client.submit(plan_trace, t, spec, key=f"fleet-{i}-{Path(t).name}", pure=False,
                             priority=len(order) - i): t for i, t in enumerate(order)}
    for fut in as_completed(futures):
        finish(futures[fut], fut.result(), time.perf_counter() - t0)


def run_fleet(spec: FleetSpec, out: str | os.PathLike, *, scheduler: str = "local", workers: int | None = None,
              progress: Callable[[str, int, int, float], None] | None = None, client=None) -> pd.DataFrame:
    """Plan every trace of ``spec``; write each trace's rows to ``<out>.parts/`` as it finishes and the whole
    table to ``out`` (Parquet) at the end; return the rows (the CLI writes the CSV beside it, formula-safe).

    Parameters
    ----------
    scheduler : str
        ``"serial"`` (this process), ``"local"`` (a Dask LocalCluster of ``workers`` processes) or a Dask
        scheduler address ``[tcp://]HOST:PORT``.
    progress : callable, optional
        ``progress(trace, done, total, seconds)`` after each trace (skipped traces are not reported).
    client : dask.distributed.Client, optional
        A running client to plan on (``scheduler`` and ``workers`` are then not used; it is not closed).

    Traces whose rows are in ``out`` or in its parts already are skipped (resumable).
    """
    from models.sweep.run import check_scheduler

    scheduler = check_scheduler(scheduler)
    out = Path(out)
    traces = fleet_traces(spec)
    parts = _stored(out)
    todo = [t for t in traces if t not in parts]

    def finish(trace: str, df: pd.DataFrame, seconds: float) -> None:
        parts[trace] = df
        parts_dir(out).mkdir(parents=True, exist_ok=True)
        _write(df, _part(out, trace))
        if progress is not None:
            progress(trace, sum(t in parts for t in traces), len(traces), seconds)

    if todo and client is not None:
        _on_dask(client, todo, spec, finish)
    elif todo and scheduler == "serial":
        for t in todo:
            t0 = time.perf_counter()
            finish(t, plan_trace(t, spec), time.perf_counter() - t0)
    elif todo:
        from models.sweep.run import _client

        client, cluster = _client(scheduler, workers)
        try:
            _on_dask(client, todo, spec, finish)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    rows = [parts[t] for t in traces if t in parts]
    table = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()
    _write(table, out)
    for f in parts_dir(out).glob("*.parquet") if parts_dir(out).is_dir() else ():
        f.unlink()
    with contextlib.suppress(OSError):
        parts_dir(out).rmdir()
    return table


def fleet_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per role x device: volumes, volumes that win, the share of the fleet winning, and the median benefit.

    >>> fleet_summary(pd.DataFrame({"trace": ["a", "b"], "role": ["r", "r"], "device": ["d", "d"],
    ...                             "value": [2.0, 0.5], "verdict": ["wins", "loses"]})).to_dict("records")
    [{'role': 'r', 'device': 'd', 'volumes': 2, 'volumes_winning': 1, 'share_winning': 0.5, 'median_benefit': 1.25}]
    """
    g = df.groupby(["role", "device"], sort=False)
    out = g.agg(volumes=("trace", "nunique"),
                volumes_winning=("verdict", lambda v: int((v == "wins").sum())),
                median_benefit=("value", "median")).reset_index()
    out["share_winning"] = out["volumes_winning"] / out["volumes"]
    return out[["role", "device", "volumes", "volumes_winning", "share_winning", "median_benefit"]]
