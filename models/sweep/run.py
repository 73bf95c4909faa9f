"""Run a sweep serially or on Dask distributed, resumably (finished tasks are stored and never recomputed).

Each finished task's table is written at once to ``<out>.parts/<task key>.parquet`` (atomically:
a temporary file renamed), so an interrupted sweep loses only the tasks in flight; a rerun
reads the stored parts and computes only the missing ones. The final table (every task's rows
in spec order, led by the columns ``task, model, trace, device`` and the grid parameters) is
written to ``out`` (Parquet). Dask is imported only when a sweep runs on it: ``scheduler="local"``
starts a ``LocalCluster`` of worker processes (one thread each), an address such as
``tcp://10.0.0.5:8786`` uses a running scheduler. A worker loads each trace once
(:class:`models.sweep.registry.TraceContext`), and tasks are handed to the workers by trace
(:class:`_TraceAffinity`), so a trace is loaded only by the workers that share its tasks; trace paths
must be readable on every worker.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
import types
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from models._base import ModelResult
from models.sweep.registry import TraceContext, get_model
from models.sweep.spec import SweepSpec, Task

__all__ = ["SweepRun", "run_task", "run_sweep", "parts_dir", "estimate_seconds", "ID_COLUMNS"]

#: Leading columns of every result row.
ID_COLUMNS = ("task", "model", "trace", "device")
_TIME_COL = "_task_s"


def parts_dir(out: str | os.PathLike) -> Path:
    """The directory of the per-task results of the sweep written to ``out``: ``<out>.parts``."""
    return Path(f"{os.fspath(out)}.parts")


def run_task(task: Task) -> pd.DataFrame:
    """Run one task (in a worker or in-process) and label its rows.

    Returns
    -------
    pandas.DataFrame
        ``task, model, trace, device``, the grid parameters, then the model's columns (a model
        column named like one of these is dropped: it repeats the parameter), and ``_task_s``,
        the task's run time [s].
    """
    sm = get_model(task.model)
    ctx = TraceContext(task.trace)
    t0 = time.perf_counter()
    if task.trace is not None and sm.trace_kind is not None:
        got = "memory" if hasattr(ctx.trace, "address") else "block"
        if got != sm.trace_kind:
            raise ValueError(f"{task.label()}: trace {task.trace.name!r} is a {got} trace; {task.model} needs a "
                             f"{sm.trace_kind} trace")
    out = sm.run(ctx, task.device, sm.with_defaults(dict(task.params)))
    elapsed = time.perf_counter() - t0
    lead = {"task": task.key, "model": task.model, "trace": task.trace.name if task.trace else None,
            "device": task.device, **{k: task.params[k] for k in task.grid_keys}}
    body = out.drop(columns=[c for c in out.columns if c in lead]).reset_index(drop=True)
    head = pd.DataFrame({k: [v] * len(body) for k, v in lead.items()})
    return pd.concat([head, body], axis=1).assign(**{_TIME_COL: elapsed})


@dataclass(frozen=True)
class SweepRun(ModelResult):
    """A finished sweep.

    Attributes
    ----------
    table : pandas.DataFrame
        Every task's rows in spec order (``to_frame()``).
    n_tasks : int
        Tasks in the spec.
    computed : tuple of str
        Keys of the tasks computed by this run (the others were read from their stored parts).
    task_seconds : dict
        Task key -> its run time [s] (as measured when it was computed).
    wall_seconds : float
        Wall time of this run, cluster start-up excluded [s].
    """

    table: pd.DataFrame
    n_tasks: int
    computed: tuple[str, ...]
    task_seconds: dict = field(default_factory=dict)
    wall_seconds: float = 0.0

    @property
    def reused(self) -> int:
        """Tasks read from stored parts [-]."""
        return self.n_tasks - len(self.computed)

    def to_frame(self) -> pd.DataFrame:
        return self.table


def _write_part(folder: Path, key: str, df: pd.DataFrame) -> None:
    tmp = folder / f".{key}.{os.getpid()}.tmp"
    df.to_parquet(tmp, index=False)
    os.replace(tmp, folder / f"{key}.parquet")


def _uniform(df: pd.DataFrame) -> pd.DataFrame:
    """Object columns mixing types (a grid of numbers and text) become text, as Parquet needs one type."""
    for c in df.columns:
        if df[c].dtype == object:
            kinds = {type(v) for v in df[c].dropna()}
            if len(kinds) > 1:
                df[c] = df[c].map(lambda v: v if v is None or (isinstance(v, float) and v != v) else str(v))
    return df


_MAIN_LOCK = threading.Lock()


@contextmanager
def _plain_main():
    """Start worker processes from a bare ``__main__``.

    Dask starts workers with the ``spawn`` method, which re-runs the parent's ``__main__`` file in
    the child; inside Streamlit that is the page script being run (AppTest: a generated script),
    which must not run in a worker. The workers start while the LocalCluster is built.
    """
    with _MAIN_LOCK:
        saved = sys.modules.get("__main__")
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            if saved is not None:
                sys.modules["__main__"] = saved


def _client(scheduler: str, workers: int | None):
    from dask.distributed import Client, LocalCluster

    if scheduler == "local":
        with _plain_main():
            cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.ERROR,
                                   env={"NUMBA_NUM_THREADS": "1"})  # one core per worker (threaded kernels)
        return Client(cluster), cluster
    return Client(scheduler, timeout="20s"), None


class _TraceAffinity:
    """Which pending task a free worker runs next: each trace is loaded by few workers, long tasks first.

    Tasks are grouped by trace (tasks without a trace form a group every worker may take). A free
    worker takes a task of, in this order: a trace it has loaded already (the one with the most
    tasks left); a trace no worker has started (most tasks left first); else -- it would idle --
    the trace with the most tasks left, which it then loads as well. Submitting the whole spec at
    once instead lets every worker load every trace. Within a trace it takes the task whose model
    has the longest mean run time on that trace so far (:meth:`done` reports them; a model not
    run yet counts as longest, so each model's first task runs early and the short tasks fill the
    end), ties in spec order.

    >>> from types import SimpleNamespace as T
    >>> a = _TraceAffinity([T(trace="x", model="m", key=i) for i in range(3)] + [T(trace="y", model="m", key=3)],
    ...                    group=lambda t: t.trace)
    >>> [a.next("w1").key, a.next("w2").key, a.next("w2").key, a.next("w1").key, a.next("w1")]
    [0, 3, 1, 2, None]
    >>> b = _TraceAffinity([T(trace="x", model=m, key=k) for k, m in enumerate("aabb")], group=lambda t: t.trace)
    >>> order = []
    >>> for sec in (0.1, 2.0, 2.0, 0.1):  # a takes 0.1 s, b 2 s: once known, b's tasks go first
    ...     t = b.next("w"); order.append(t.key); b.done(t, sec)
    >>> order
    [0, 2, 3, 1]
    """

    def __init__(self, tasks, group=None):
        self._group = group or (lambda t: None if t.trace is None else t.trace.model_dump_json())
        self.left: dict = {}
        for t in tasks:
            self.left.setdefault(self._group(t), []).append(t)
        self.loaded: dict[str, set] = {}
        self.started: set = set()
        self._time: dict = {}  # (group, model) -> [total seconds, tasks]

    def __bool__(self) -> bool:
        return bool(self.left)

    def done(self, task, seconds: float) -> None:
        """Record a finished task's run time [s]."""
        t = self._time.setdefault((self._group(task), task.model), [0.0, 0])
        t[0] += float(seconds)
        t[1] += 1

    def _mean(self, g, model) -> float:
        t = self._time.get((g, model))
        return t[0] / t[1] if t else float("inf")

    def next(self, worker: str):
        """The task ``worker`` runs next (its trace is then noted as loaded there), or None when none is left."""
        if not self.left:
            return None
        mine = self.loaded.setdefault(worker, set())
        by_size = sorted(self.left, key=lambda g: -len(self.left[g]))  # stable: spec order among equals
        none = object()  # "no such group" (None is the group of the tasks without a trace)
        g = next((g for g in by_size if g is None or g in mine), none)
        if g is none:
            g = next((g for g in by_size if g not in self.started), by_size[0])
        tasks = self.left[g]
        i = max(range(len(tasks)), key=lambda k: (self._mean(g, tasks[k].model), -k))
        task = tasks.pop(i)
        if not tasks:
            del self.left[g]
        mine.add(g)
        self.started.add(g)
        return task


def _run_on_dask(client, pending: list[Task], store: Callable, failures: list[str]) -> None:
    """Run ``pending`` on the workers of ``client``, keeping each worker on the traces it has loaded.

    Each worker gets its threads' worth of tasks plus one queued (hiding the round trip), chosen
    by :class:`_TraceAffinity` (which learns the tasks' run times as they finish), and a new one as
    each finishes. The restrictions are loose: if a worker leaves, the scheduler runs its tasks
    elsewhere; workers that join get tasks from the next refresh (every second). Results are
    stored as they arrive.
    """
    from dask.distributed import wait

    plan = _TraceAffinity(pending)
    running: dict = {}  # future -> (task, worker)
    busy: dict[str, int] = {}
    refreshed = -1.0
    slots: dict[str, int] = {}
    while plan or running:
        if not running or time.monotonic() - refreshed > 1.0:  # workers may join or leave a running cluster
            if not running:
                client.wait_for_workers(1)
            slots = {w: int(i.get("nthreads", 1)) + 1 for w, i in client.scheduler_info(n_workers=-1)["workers"].items()}
            refreshed = time.monotonic()
        for w, n in slots.items():
            while plan and busy.get(w, 0) < n:
                task = plan.next(w)
                fut = client.submit(run_task, task, key=f"pcm-sweep-{task.key}", pure=False, workers=[w],
                                    allow_other_workers=True)
                running[fut] = (task, w)
                busy[w] = busy.get(w, 0) + 1
        done, _ = wait(list(running), return_when="FIRST_COMPLETED")
        for fut in done:
            task, w = running.pop(fut)
            busy[w] -= 1
            try:
                df = fut.result()
                plan.done(task, float(df[_TIME_COL].iloc[0]) if len(df) else 0.0)
                store(task, df)
            except (ValueError, KeyError, TypeError, FileNotFoundError) as e:
                failures.append(f"{task.label()}: {e}")


def run_sweep(spec: SweepSpec, out: str | os.PathLike, *, scheduler: str = "local", workers: int | None = None,
              progress: Callable[[float], None] | None = None, client=None, only: Sequence[str] | None = None
              ) -> SweepRun:
    """Run every task of ``spec`` not already stored, store each, and write the table to ``out``.

    Parameters
    ----------
    spec : SweepSpec
        The sweep.
    out : path
        Result file (Parquet); per-task parts go to :func:`parts_dir` ``(out)``.
    scheduler : str, keyword-only
        ``"serial"`` (in this process, no Dask), ``"local"`` (a Dask ``LocalCluster``, default) or
        a Dask scheduler address (``tcp://host:8786``).
    workers : int, optional, keyword-only
        LocalCluster worker processes (default: the CPU count).
    progress : callable, optional, keyword-only
        Called with the fraction of the tasks done (0..1), stored ones counted at once.
    client : dask.distributed.Client, optional, keyword-only
        An existing client to use (then ``scheduler`` and ``workers`` are ignored).
    only : sequence of str, optional, keyword-only
        Compute only these task keys (the others must be stored already or are left out).

    Returns
    -------
    SweepRun

    Raises
    ------
    ValueError
        An invalid spec, or failed tasks (the message names them; the finished ones are stored,
        so a rerun after the fix computes only the failed ones).
    """
    tasks = spec.tasks()
    folder = parts_dir(out)
    folder.mkdir(parents=True, exist_ok=True)
    done = {p.stem for p in folder.glob("*.parquet")}
    pending = [t for t in tasks if t.key not in done and (only is None or t.key in set(only))]
    total = len(tasks)
    finished = total - len(pending)
    if progress:
        progress(finished / total if total else 1.0)
    seconds: dict[str, float] = {}
    failures: list[str] = []
    t0 = time.perf_counter()

    fresh: dict[str, pd.DataFrame] = {}  # parts computed by this run, as written (not read back at the end)

    def store(task: Task, df: pd.DataFrame) -> None:
        nonlocal finished
        seconds[task.key] = float(df[_TIME_COL].iloc[0]) if len(df) else 0.0
        fresh[task.key] = _uniform(df)
        _write_part(folder, task.key, fresh[task.key])
        finished += 1
        if progress:
            progress(finished / total)

    if pending and scheduler == "serial" and client is None:
        t0 = time.perf_counter()
        for task in pending:
            try:
                store(task, run_task(task))
            except (ValueError, KeyError, TypeError, FileNotFoundError) as e:
                failures.append(f"{task.label()}: {e}")
    elif pending:
        own = None
        if client is None:
            client, own = _client(scheduler, workers)
        try:
            t0 = time.perf_counter()
            _run_on_dask(client, pending, store, failures)
        finally:
            if own is not None:
                client.close()
                own.close()
    wall = time.perf_counter() - t0
    if failures:
        more = f" (and {len(failures) - 5} more)" if len(failures) > 5 else ""
        raise ValueError(f"{len(failures)} of {len(pending)} sweep task(s) failed; the {len(pending) - len(failures)} "
                         f"others are stored in {folder}: " + "; ".join(failures[:5]) + more)
    frames = []
    for t in tasks:
        p = folder / f"{t.key}.parquet"
        if t.key in fresh or p.is_file():
            df = fresh[t.key] if t.key in fresh else pd.read_parquet(p)
            seconds.setdefault(t.key, float(df[_TIME_COL].iloc[0]) if len(df) else 0.0)
            frames.append(df.drop(columns=[_TIME_COL]))
    table = _uniform(pd.concat(frames, ignore_index=True)) if frames else pd.DataFrame(columns=list(ID_COLUMNS))
    tmp = Path(f"{os.fspath(out)}.{os.getpid()}.tmp")
    table.to_parquet(tmp, index=False)
    os.replace(tmp, out)
    table = pd.read_parquet(out)  # the table as the file holds it (its column types)
    return SweepRun(table=table, n_tasks=total, computed=tuple(t.key for t in pending if t.key in seconds),
                    task_seconds=seconds, wall_seconds=wall)


def estimate_seconds(task_seconds: Sequence[float], workers: int, *, overhead_s: float = 0.0) -> float:
    """Estimated wall time of tasks on ``workers`` workers [s]: greedy longest-first packing plus ``overhead_s``.

    >>> estimate_seconds([4, 3, 3, 2], 2)
    6.0
    """
    loads = [0.0] * max(1, int(workers))
    for s in sorted(task_seconds, reverse=True):
        i = loads.index(min(loads))
        loads[i] += float(s)
    return max(loads) + overhead_s
