"""Run a sweep serially or on Dask distributed, resumably (finished tasks are stored and never recomputed).

Each finished task's table is written at once to ``<out>.parts/<task key>.parquet`` (atomically:
a temporary file renamed), so an interrupted sweep loses only the tasks in flight; a rerun
reads the stored parts and computes only the missing ones. The final table (every task's rows
in spec order, led by the columns ``task, model, trace, device`` and the grid parameters) is
written to ``out`` (Parquet). Dask is imported only when a sweep runs on it: ``scheduler="local"``
starts a ``LocalCluster`` of worker processes (one thread each, :func:`local_cluster`), an address such as
``tcp://10.0.0.5:8786`` uses a running scheduler. A worker loads each trace once
(:class:`models.sweep.registry.TraceContext`), and tasks are handed to the workers by trace
(:class:`_TraceAffinity`), so a trace is loaded only by the workers that share its tasks; trace paths
must be readable on every worker. Workers that share a host also share a trace's block split: the first
to split it publishes the arrays, the others map them (:mod:`models.sweep.hostshare`).
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
import time
import types
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from models._base import ModelResult
from models.sweep import hostshare
from models.sweep.registry import TraceContext, end_share, get_model, sharing
from models.sweep.spec import SweepSpec, Task

__all__ = ["SweepRun", "run_task", "run_sweep", "parts_dir", "estimate_seconds", "ID_COLUMNS", "local_cluster",
           "LOCAL_DASK_CONFIG"]

#: Leading columns of every result row.
ID_COLUMNS = ("task", "model", "trace", "device")
_TIME_COL = "_task_s"
_CPU_COL = "_task_cpu_s"


def parts_dir(out: str | os.PathLike) -> Path:
    """The directory of the per-task results of the sweep written to ``out``: ``<out>.parts``."""
    return Path(f"{os.fspath(out)}.parts")


def run_task(task: Task) -> pd.DataFrame:
    """Run one task (in a worker or in-process) and label its rows.

    Returns
    -------
    pandas.DataFrame
        ``task, model, trace, device``, the grid parameters, then the model's columns (a model
        column named like one of these is dropped: it repeats the parameter), ``_task_s``,
        the task's run time [s], and ``_task_cpu_s``, the CPU time of the thread that ran it [s]
        (less sensitive than the run time to other processes sharing the cores).
    """
    sm = get_model(task.model)
    ctx = TraceContext(task.trace)
    t0, c0 = time.perf_counter(), time.thread_time()
    if task.trace is not None and sm.trace_kind is not None:
        got = ctx.kind
        if got != sm.trace_kind:
            raise ValueError(f"{task.label()}: trace {task.trace.name!r} is a {got} trace; {task.model} needs a "
                             f"{sm.trace_kind} trace")
    out = sm.run(ctx, task.device, sm.with_defaults(dict(task.params)))
    elapsed, cpu = time.perf_counter() - t0, time.thread_time() - c0
    lead = {"task": task.key, "model": task.model, "trace": task.trace.name if task.trace else None,
            "device": task.device, **{k: task.params[k] for k in task.grid_keys}}
    body = out.drop(columns=[c for c in out.columns if c in lead]).reset_index(drop=True)
    head = pd.DataFrame({k: [v] * len(body) for k, v in lead.items()})
    return pd.concat([head, body], axis=1).assign(**{_TIME_COL: elapsed, _CPU_COL: cpu})


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
    task_cpu_seconds : dict
        Task key -> CPU time of the thread that ran it [s] (tasks stored by an older version: absent).
    wall_seconds : float
        Wall time of this run, cluster start-up excluded [s].
    """

    table: pd.DataFrame
    n_tasks: int
    computed: tuple[str, ...]
    task_seconds: dict = field(default_factory=dict)
    wall_seconds: float = 0.0
    task_cpu_seconds: dict = field(default_factory=dict)

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


#: Dask settings of a sweep's own LocalCluster (:func:`local_cluster`). The sweep places the tasks itself
#: (:class:`_TraceAffinity`), so the scheduler's work stealing -- which would move a queued task to a
#: worker without its trace -- is off. On a machine whose cores all run tasks, Dask's own bookkeeping
#: takes CPU from them, so it is thinned: no statistical profiler (a stack sample every 10 ms) or GIL
#: monitor in the workers; the event-loop health tick every 0.5 s instead of 20 ms, the memory monitor
#: every 1 s instead of 0.1 s, the system monitor every 2 s instead of 0.5 s, the cluster's repr
#: refreshed every 5 s (measured on 2 idle workers: 0.63 s -> 0.10 s of CPU per 6 s for the three
#: processes). And the workers keep glibc's default memory allocation: Dask sets
#: ``MALLOC_TRIM_THRESHOLD_`` for them, which also pins glibc's mmap threshold at 128 KiB, so every
#: array the kernels allocate comes as fresh zeroed pages (measured: a 1-worker run of
#: ``bench/bench_sweep.py`` 403 k page faults and 1.36 s system time with it, 119 k and 0.78 s
#: without). The results do not depend on any of it.
LOCAL_DASK_CONFIG = {
    "distributed.scheduler.work-stealing": False,
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.tick.interval": "500ms",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.deploy.cluster-repr-interval": "5s",
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
}


def local_cluster(workers: int | None = None, *, threads_per_worker: int = 1):
    """A Dask ``LocalCluster`` for sweeps: ``workers`` processes (default: the CPU count).

    Each worker's numba-threaded kernels use ``threads_per_worker`` threads
    (``NUMBA_NUM_THREADS``), so a worker uses its own cores only; the Dask settings are
    :data:`LOCAL_DASK_CONFIG`. Worker processes start from a bare ``__main__`` (see
    :func:`_plain_main`). The caller closes it.
    """
    import dask
    from dask.distributed import LocalCluster

    with _plain_main(), dask.config.set(LOCAL_DASK_CONFIG):
        return LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=threads_per_worker,
                            processes=True, dashboard_address=None, silence_logs=logging.ERROR,
                            env={"NUMBA_NUM_THREADS": str(threads_per_worker)})


_ADDRESS = re.compile(r"^(?:tcp://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$")


def check_scheduler(scheduler: str) -> str:
    """``scheduler`` if it is ``local``, ``serial`` or a Dask scheduler address ``[tcp://]HOST:PORT``, else
    ValueError saying what is accepted (Dask's own messages for other schemes and ports are internal:
    "not enough values to unpack", "Python int too large", a TLS or UCX traceback).

    >>> check_scheduler("tcp://10.0.0.5:8786"), check_scheduler("[::1]:8786")
    ('tcp://10.0.0.5:8786', '[::1]:8786')
    >>> check_scheduler("tls://h:1")
    Traceback (most recent call last):
    ...
    ValueError: --scheduler must be local, serial or a Dask scheduler address tcp://HOST:PORT (port 1..65535); got 'tls://h:1'
    """
    s = str(scheduler)
    if s in ("local", "serial"):
        return s
    m = _ADDRESS.match(s)
    if m is None or not 1 <= int(m.group(2)) <= 65535:
        raise ValueError("--scheduler must be local, serial or a Dask scheduler address tcp://HOST:PORT "
                         f"(port 1..65535); got {s[:200]!r}")
    return s


def _client(scheduler: str, workers: int | None):
    from dask.distributed import Client

    if scheduler == "local":
        cluster = local_cluster(workers)
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
        self._count: Counter = Counter()  # (group, model) -> tasks left
        for t in tasks:
            self.left.setdefault(self._group(t), []).append(t)
            self._count[self._group(t), t.model] += 1
        self.loaded: dict[str, set] = {}
        self.started: set = set()
        self._time: dict = {}  # (group, model) -> [total seconds, tasks], tasks that found their trace loaded
        self._first_time: dict = {}  # the same for the tasks that loaded it (their time includes the load)
        self._loaders: set = set()  # keys of the tasks handed to a worker that had not loaded their trace

    def __bool__(self) -> bool:
        return bool(self.left)

    def done(self, task, seconds: float) -> None:
        """Record a finished task's run time [s] (a task that loaded its trace apart: the load is not its model's)."""
        times = self._first_time if task.key in self._loaders else self._time
        t = times.setdefault((self._group(task), task.model), [0.0, 0])
        t[0] += float(seconds)
        t[1] += 1

    def _mean(self, g, model) -> float:
        t = self._time.get((g, model)) or self._first_time.get((g, model))
        return t[0] / t[1] if t else float("inf")

    def take(self, worker: str, budget_s: float) -> list:
        """Tasks ``worker`` runs in one round trip: :meth:`next`, then more of the same trace (same order)
        while the known mean run times add up to at most ``budget_s`` [s] (a model not run yet: one task).

        >>> from types import SimpleNamespace as T
        >>> p = _TraceAffinity([T(trace="x", model="m", key=i) for i in range(5)], group=lambda t: t.trace)
        >>> [t.key for t in p.take("w", 1.0)]  # no run time known yet: one task
        [0]
        >>> p.done(T(trace="x", model="m", key=0), 0.3)
        >>> [t.key for t in p.take("w", 1.0)], [t.key for t in p.take("w", 1.0)]  # 0.3 s each: three fit in 1 s
        ([1, 2, 3], [4])
        """
        first = self.next(worker)
        if first is None:
            return []
        out, g = [first], self._group(first)
        est = self._mean(g, first.model)
        while g in self.left:
            tasks = self.left[g]
            i = max(range(len(tasks)), key=lambda k: (self._mean(g, tasks[k].model), -k))
            est += self._mean(g, tasks[i].model)
            if not est <= budget_s:  # inf (unknown) never fits
                break
            out.append(tasks.pop(i))
            self._count[g, out[-1].model] -= 1
            if not tasks:
                del self.left[g]
        return out

    def left_seconds(self) -> float:
        """Estimated run time of the tasks left [s]: a model not run yet on a trace counts the mean of every
        task done so far (inf when none is done)."""
        runs = sum(n for _, n in self._time.values())
        overall = sum(t for t, _ in self._time.values()) / runs if runs else float("inf")
        if not runs:
            runs = sum(n for _, n in self._first_time.values())
            overall = sum(t for t, _ in self._first_time.values()) / runs if runs else float("inf")
        return sum(n * (overall if (m := self._mean(g, model)) == float("inf") else m)
                   for (g, model), n in self._count.items() if n)

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
        self._count[g, task.model] -= 1
        if not tasks:
            del self.left[g]
        if g not in mine and g is not None:
            self._loaders.add(task.key)
        mine.add(g)
        self.started.add(g)
        return task


_TASK_ERRORS = (ValueError, KeyError, TypeError, FileNotFoundError)  # a task's bad input: reported, others go on


def run_tasks(tasks: Sequence[Task], share: str | None = None) -> list:
    """Run several tasks in turn (one Dask task, one round trip): each one's :func:`run_task` table, or
    the error of a task whose input is bad (ValueError, KeyError, TypeError, FileNotFoundError) in its place.
    ``share``: the sweep's share token when other workers run on this host (their trace splits are shared:
    :mod:`models.sweep.hostshare`)."""
    out = []
    with sharing(share):
        for task in tasks:
            try:
                out.append(run_task(task))
            except _TASK_ERRORS as e:
                out.append(e)
    return out


def _share_tokens(workers: dict, token: str) -> dict[str, str | None]:
    """Worker address -> ``token`` for the workers sharing a host with another one, else None.

    >>> _share_tokens({"tcp://a:1": {"host": "a"}, "tcp://a:2": {"host": "a"}, "tcp://b:1": {"host": "b"}}, "t")
    {'tcp://a:1': 't', 'tcp://a:2': 't', 'tcp://b:1': None}
    """
    hosts = Counter(i.get("host") for i in workers.values())
    return {w: token if hosts[i.get("host")] > 1 else None for w, i in workers.items()}


def failure_text(task: Task, err: Exception, base_dir: str | os.PathLike) -> str:
    """What a failed task's message says: the error, but no quote of a trace file outside the spec's folder.

    A reader's error quotes the offending line (the first one when the format is not recognised); a
    spec naming ``/etc/passwd`` or ``../secret`` would print that file's content. Outside ``base_dir``
    the message names the file, the error class and line only.

    >>> from models.sweep.spec import TraceEntry
    >>> from models.traces.source import TraceFormatError
    >>> t = Task("mrc", TraceEntry(name="a", source=__file__), None, {}, (), "k")
    >>> failure_text(t, TraceFormatError("x: line 1: 'SECRET'", line=1), "/nonexistent")  # doctest: +ELLIPSIS
    "mrc / a: ...run.py: not read (TraceFormatError at line 1); the file lies outside the spec's folder, so its content is not quoted"
    """
    src = Path(task.trace.source) if task.trace is not None else None
    if src is not None and src.is_file():
        base = Path(base_dir).resolve()
        if not src.resolve().is_relative_to(base):
            line = getattr(err, "line", None)
            at = f" at line {line}" if line else ""
            return (f"{task.label()}: {src}: not read ({type(err).__name__}{at}); the file lies outside the spec's "
                    "folder, so its content is not quoted")
    return f"{task.label()}: {err}"


def _run_on_dask(client, pending: list[Task], store: Callable, failures: list[tuple[Task, Exception]], *,
                 bundle_seconds: float = 0.5, token: str | None = None) -> None:
    """Run ``pending`` on the workers of ``client``, keeping each worker on the traces it has loaded.

    Each worker gets its threads' worth of task bundles plus one queued (hiding the round trip),
    chosen by :class:`_TraceAffinity` (which learns the tasks' run times as they finish), and a new
    one as each finishes. A bundle (:func:`run_tasks`) is one task, or several short ones of a trace
    whose known run times add up to at most ``bundle_seconds`` [s] (capped at an eighth of the
    estimated work left per worker, so the end of the sweep stays fine-grained): every round trip
    costs the client, the scheduler and the worker CPU time that a machine whose cores all run
    tasks takes from them. The restrictions are loose: if a worker leaves, the scheduler runs its
    tasks elsewhere; workers that join get tasks from the next refresh (every second). Results are
    gathered as they finish (in the background) and stored as they arrive. With ``token``, workers that share
    a host share their trace splits under it (:func:`_share_tokens`, :mod:`models.sweep.hostshare`).
    """
    from dask.distributed import as_completed

    plan = _TraceAffinity(pending)
    running: dict = {}  # future -> (tasks, worker)
    busy: dict[str, int] = {}
    refreshed = -1.0
    slots: dict[str, int] = {}
    shares: dict[str, str | None] = {}
    done_iter = as_completed([], loop=client.loop, with_results=True)
    while plan or running:
        if not running or time.monotonic() - refreshed > 1.0:  # workers may join or leave a running cluster
            if not running:
                client.wait_for_workers(1)
            info = client.scheduler_info(n_workers=-1)["workers"]
            slots = {w: int(i.get("nthreads", 1)) + 1 for w, i in info.items()}
            shares = _share_tokens(info, token) if token else {}
            refreshed = time.monotonic()
        for w, n in slots.items():
            while plan and busy.get(w, 0) < n:
                budget = min(float(bundle_seconds), plan.left_seconds() / (8 * max(1, len(slots))))
                tasks = plan.take(w, budget)
                fut = client.submit(run_tasks, tasks, shares.get(w), key=f"pcm-sweep-{tasks[0].key}-{len(tasks)}",
                                    pure=False, workers=[w], allow_other_workers=True)
                running[fut] = (tasks, w)
                done_iter.add(fut)
                busy[w] = busy.get(w, 0) + 1
        for fut, results in done_iter.next_batch(block=True):
            tasks, w = running.pop(fut)
            busy[w] -= 1
            for task, df in zip(tasks, results):
                if isinstance(df, Exception):
                    failures.append((task, df))
                    continue
                plan.done(task, float(df[_TIME_COL].iloc[0]) if len(df) else 0.0)
                store(task, df)


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
    if client is None:
        check_scheduler(scheduler)
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
    cpu: dict[str, float] = {}
    failures: list[str] = []
    t0 = time.perf_counter()

    fresh: dict[str, pd.DataFrame] = {}  # parts computed by this run, as written (not read back at the end)

    def store(task: Task, df: pd.DataFrame) -> None:
        nonlocal finished
        seconds[task.key] = float(df[_TIME_COL].iloc[0]) if len(df) else 0.0
        if len(df) and _CPU_COL in df:
            cpu[task.key] = float(df[_CPU_COL].iloc[0])
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
            except _TASK_ERRORS as e:
                failures.append((task, e))
    elif pending:
        own = None
        if client is None:
            client, own = _client(scheduler, workers)
        token = hostshare.new_token()
        try:
            t0 = time.perf_counter()
            _run_on_dask(client, pending, store, failures, token=token)
        finally:
            try:
                client.run(end_share, token)
            except Exception:  # noqa: BLE001 - a worker gone or a closing cluster: its host's splits expire
                logging.getLogger(__name__).debug("sweep share clean-up failed", exc_info=True)
            if own is not None:
                client.close()
                own.close()
    wall = time.perf_counter() - t0
    if failures:
        more = f" (and {len(failures) - 5} more)" if len(failures) > 5 else ""
        raise ValueError(f"{len(failures)} of {len(pending)} sweep task(s) failed; the {len(pending) - len(failures)} "
                         f"others are stored in {folder}: "
                         + "; ".join(failure_text(t, e, spec.base_dir) for t, e in failures[:5]) + more)
    frames = []
    for t in tasks:
        p = folder / f"{t.key}.parquet"
        if t.key in fresh or p.is_file():
            df = fresh[t.key] if t.key in fresh else pd.read_parquet(p)
            seconds.setdefault(t.key, float(df[_TIME_COL].iloc[0]) if len(df) else 0.0)
            if len(df) and _CPU_COL in df:
                cpu.setdefault(t.key, float(df[_CPU_COL].iloc[0]))
            frames.append(df.drop(columns=[_TIME_COL, _CPU_COL], errors="ignore"))
    table = _uniform(pd.concat(frames, ignore_index=True)) if frames else pd.DataFrame(columns=list(ID_COLUMNS))
    tmp = Path(f"{os.fspath(out)}.{os.getpid()}.tmp")
    table.to_parquet(tmp, index=False)
    os.replace(tmp, out)
    table = pd.read_parquet(out)  # the table as the file holds it (its column types)
    return SweepRun(table=table, n_tasks=total, computed=tuple(t.key for t in pending if t.key in seconds),
                    task_seconds=seconds, wall_seconds=wall, task_cpu_seconds=cpu)


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
