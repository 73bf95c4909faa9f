"""The planner over a fleet of volumes: one verdict row per trace x role x device, on Dask, resumably.

A fleet spec (TOML) names the traces (paths or globs, relative to the spec's folder), the devices and
the roles to keep::

    traces = ["volumes/*.csv.gz", "extra/hm_0.csv"]
    devices = ["pcm-samsung-20nm", "optane-dcpmm"]
    roles = ["storage", "write-cache"]           # optional: default the block-trace roles
    requests = 1000000                           # optional: first N requests of each trace
    baseline = "like-for-like"                   # optional

:func:`run_fleet` plans each trace on its own (:func:`models.planner.plan.plan`, one workload) --
serially, on a Dask ``LocalCluster`` (the sweep's :func:`~models.sweep.run.local_cluster`) or on a
running scheduler (:func:`~models.sweep.run.check_scheduler` reads the address) -- and writes the
rows to Parquet after each trace (the CLI adds the CSV), so a rerun skips the traces already in the output
(resumable). Rows are in spec order (the traces as the globs list them, sorted within a glob)
whatever the scheduler. The rows are the plan's columns led by ``trace`` (the path as listed).
"""

from __future__ import annotations

import glob
import os
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["FleetSpec", "load_fleet_spec", "fleet_traces", "plan_trace", "run_fleet", "fleet_summary"]


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


def _write(df: pd.DataFrame, out: Path) -> None:
    """``out`` (Parquet), written atomically (a temporary file renamed)."""
    tmp = out.with_name(out.name + ".tmp")
    df.to_parquet(tmp, index=False)
    os.replace(tmp, out)


def run_fleet(spec: FleetSpec, out: str | os.PathLike, *, scheduler: str = "local", workers: int | None = None,
              progress: Callable[[str, int, int, float], None] | None = None) -> pd.DataFrame:
    """Plan every trace of ``spec``; write ``out`` (Parquet) after each trace; return the rows (the CLI writes
    the CSV beside it, formula-safe).

    Parameters
    ----------
    scheduler : str
        ``"serial"`` (this process), ``"local"`` (a Dask LocalCluster of ``workers`` processes) or a Dask
        scheduler address ``[tcp://]HOST:PORT``.
    progress : callable, optional
        ``progress(trace, done, total, seconds)`` after each trace (skipped traces are not reported).

    Traces whose rows are in ``out`` already are skipped (resumable).
    """
    from models.sweep.run import check_scheduler

    scheduler = check_scheduler(scheduler)
    out = Path(out)
    traces = fleet_traces(spec)
    done = pd.read_parquet(out) if out.is_file() else None
    have = set(done["trace"]) if done is not None and len(done) else set()
    todo = [t for t in traces if t not in have]
    parts: dict[str, pd.DataFrame] = {} if done is None else {t: g for t, g in done.groupby("trace", sort=False)}

    def finish(trace: str, df: pd.DataFrame, seconds: float) -> None:
        parts[trace] = df
        _write(pd.concat([parts[t] for t in traces if t in parts], ignore_index=True), out)
        if progress is not None:
            progress(trace, len(parts), len(traces), seconds)

    if scheduler == "serial":
        for t in todo:
            t0 = time.perf_counter()
            finish(t, plan_trace(t, spec), time.perf_counter() - t0)
    elif todo:
        from dask.distributed import as_completed

        from models.sweep.run import _client

        client, cluster = _client(scheduler, workers)
        try:
            t0 = time.perf_counter()
            futures = {client.submit(plan_trace, t, spec, key=f"fleet-{i}-{Path(t).name}", pure=False): t
                       for i, t in enumerate(todo)}
            for fut in as_completed(futures):
                finish(futures[fut], fut.result(), time.perf_counter() - t0)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    if not parts:
        _write(pd.DataFrame(), out)
        return pd.DataFrame()
    return pd.concat([parts[t] for t in traces if t in parts], ignore_index=True)


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
