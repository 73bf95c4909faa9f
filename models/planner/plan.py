"""The planner for *my* workload: the user's traces and devices -> one verdict per PCM role.

:func:`plan` evaluates every workload the user gives (block trace, memory trace, Filebench
``.f`` file, fio job file or JSON result; :class:`PlanWorkload`) against 2-3 devices side by side
(catalogue names or custom :class:`~models.devices.DeviceProfile`), in every role the workload's
kind can tell something about, against a baseline (like-for-like by default, or a device the
user picks). One row per workload x role x device:

=================  ==========  =====================================================  ===============================
role               needs       value [x] (> 1: the device wins)                        like-for-like baseline
=================  ==========  =====================================================  ===============================
file-cache         block       storage access time of the trace under a DRAM LRU       ``hdd-7200`` (seed 004 Fig. 3
                   trace       file cache (``planner.file_cache_fraction`` of the      HDD vs Fig. 4 SCM)
                               footprint), baseline / device
                               (:func:`models.storage.file_cache_sim.file_cache_curves`)
storage            Filebench   throughput of the workload with the device as its       ext4 + page cache on SATA SSD
                   ``.f``      file system's storage (ext4-DAX if byte-addressable,    (seed 000 compares page-cached
                               else ext4 + page cache), device / baseline              HDD and SSD)
                               (:func:`models.storage.workload.evaluate`)
storage            fio job     time per I/O of the job's mix (read/write share,        ``sata-ssd``
                   or JSON     block size, random or sequential), baseline / device
                               (:meth:`DeviceProfile.transfer_ns`; one I/O at a time)
storage            block       mean response time of the trace replayed on the device  ``sata-ssd``
                   trace       (:mod:`models.planner.replay`), baseline / device
paging             memory      AMAT with the device as the paging store, 4 KiB pages,  ``sata-ssd`` (NAND swap)
                   trace       memory ``planner.paging_memory_fraction`` of the
                               footprint, baseline / device (seed 004 eqs. 4-6,
                               :mod:`models.memory.paging`)
memory-extension   memory      slowdown of a DRAM + device memory extension            ``nand-flash`` (seed 002
                   trace       (``memext.dram_frac`` in DRAM), baseline / device       compares PCM with Flash)
                               (:func:`models.memory.memory_extension.simulate_memext`)
write-cache        block       HDD time without the cache / (HDD time behind a         no cache (seed 003 §V-A)
                   trace with  ``planner.write_cache_mb`` HALO cache + the device's
                   writes      time to absorb every write)
                               (:func:`models.storage.write_cache.run_write_cache`)
=================  ==========  =====================================================  ===============================

``verdict`` is ``wins`` (value > 1), ``loses`` (value < 1), ``about the same`` (a tie: 1x inside the row's
p5-p95 band, or the value within ``planner.tie_tolerance`` of 1x; :func:`~models.planner.verdicts.is_tie`),
``not applicable`` (the role cannot
use this device or this workload, e.g. a trace without writes, DRAM as durable storage) or
``needs data`` (no workload of the kind the role needs was given); for the last two ``reason``
starts with ``"not applicable: "`` / ``"needs data: "`` and the numbers are NaN -- never
invented. With ``uncertainty=N`` the rows also get ``p5, p95`` (of ``value``), ``p_win`` (share of
samples where the device wins) and ``decisive_input`` from the models' uncertainty adapters
(the adapter beside the model (``models/<package>/uncertainty.py``; the table in ``docs/uncertainty.md``), the row's own counts simulated once); a row whose band cannot be
drawn (e.g. the device is the baseline itself) says ``(band not sampled)`` in its reason and why in
``decisive_input``.

A block trace is used whole, whatever its length: one too large to load whole (its file over
:data:`~models.planner.stream_plan.IN_MEMORY_MAX_BYTES`, the work limit in bytes, or its in-memory read over
the run's memory budget) is read twice in chunks by
:func:`~models.planner.stream_plan.stream_block_rows`, each role's state carried across them (its rows say
``(streamed in two passes)``; a role that does not stream yet reads ``needs data``, never a cut verdict).

The pieces: the workloads (:mod:`models.planner.workloads`, fio jobs :mod:`models.planner.fio`),
the roles' table (:mod:`models.planner.roles`), one evaluator per role
(:mod:`~models.planner.role_file_cache`, :mod:`~models.planner.role_storage`,
:mod:`~models.planner.role_memory`, :mod:`~models.planner.role_write_cache`), the rows in words
(:mod:`models.planner.verdicts`) and their bands (:mod:`models.planner.uncertainty`); this module
runs them (:func:`plan`) into a :class:`PlanResult`.

References
----------
.. [1] Seed 000 §4 (Filebench on DAX PCM), seed 002 (memory extension), seed 003 §V (HALO write
   cache), seed 004 §2-5 (file caching and paging with fast SCM storage).
"""

from __future__ import annotations

import contextlib
import math
import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from models._base import ModelResult
from models.budget import BudgetExceeded, reserve
from models.devices import DeviceProfile, get_device
from models.planner import stream_plan
from models.planner.economics import ECON_COLUMNS, economics_columns
from models.planner.fio import FioJob, read_fio_jobs
from models.planner.memory_read import read_memory_trace, trace_bytes
from models.planner.provenance import plan_provenance_keys
from models.planner.role_file_cache import file_cache_rows
from models.planner.role_memory import memory_rows
from models.planner.role_storage import block_storage_rows, filebench_rows, fio_rows
from models.planner.role_write_cache import write_cache_rows
from models.planner.roles import (
    LIKE_FOR_LIKE,
    NEEDS_WHAT,
    ROLE_LEDGER_PAGES,
    ROLE_NEEDS,
    ROLES_PLAN,
    role_metric,
)
from models.planner.stream_plan import role_streams, stream_block_rows, too_large_why
from models.planner.verdicts import (
    BAND_COLUMNS,
    EVALUATED,
    PLAN_COLUMNS,
    SAMPLE_COLUMNS,
    TRACE_COLUMNS,
    VERDICTS,
    plan_row,
)
from models.planner.workloads import (
    WORKLOAD_KINDS,
    PlanWorkload,
    workload_from_path,
    workload_from_upload,
)
from models.provenance import param

__all__ = ["WORKLOAD_KINDS", "ROLES_PLAN", "ROLE_NEEDS", "VERDICTS", "EVALUATED", "PLAN_COLUMNS", "LIKE_FOR_LIKE", "PlanWorkload",
           "PlanResult", "FioJob", "workload_from_path", "workload_from_upload", "read_fio_jobs", "plan",
           "role_metric", "plan_provenance_keys", "ROLE_LEDGER_PAGES", "read_block", "read_memory", "mark_used"]


@dataclass(frozen=True)
class PlanResult(ModelResult):
    """A plan: one row per workload x role x device (:func:`plan`).

    ``to_frame()`` columns: :data:`PLAN_COLUMNS` (``workload, role, device, baseline, metric,
    unit, value, p5, p95, verdict, reason``), then ``p_win, decisive_input`` (:data:`BAND_COLUMNS`),
    ``requests_used, requests_read`` (:data:`TRACE_COLUMNS`: of the workload's trace; NaN for other rows) and
    the economics (:data:`~models.planner.economics.ECON_COLUMNS`: ``capacity_GB, price_usd_per_GB, cost_usd,
    bytes_written_per_s, lifetime_years, replacements, cost_per_work_vs_baseline, economic_verdict,
    economic_reason``; NaN / "unknown" / "needs data: price" where not known), then ``method, sample_rate``
    (:data:`~models.planner.verdicts.SAMPLE_COLUMNS`: ``"exact"`` and 1.0, or the sampling method and its rate for a
    streamed role whose exact per-block state passed the memory budget; ``sample_rate`` NaN for a row not from a trace;
    both empty / NaN for a row without a value: ``not applicable``, ``needs data``).
    """

    #: The rows (dicts with every column).
    rows: tuple
    #: The workloads evaluated.
    workloads: tuple
    #: The devices compared (profiles).
    devices: tuple
    #: ``"like-for-like"`` or the baseline device's name.
    baseline: str
    #: Samples of the uncertainty bands (0: none).
    uncertainty: int
    #: Provenance keys of the parameters the numbers used (:mod:`models.provenance`).
    provenance_keys: tuple
    #: The baseline device's profile (None: like-for-like), so a custom baseline's values resolve too.
    baseline_device: DeviceProfile | None = None
    #: Planning horizon of the economics [years] (``planner.horizon_years`` unless given).
    horizon_years: float = math.nan
    #: The user's module/drive size the capacities were rounded up to [GB] (None: each device's smallest product, exact when unknown).
    module_GB: float | None = None
    #: ``(workload name, message)`` of each workload that could not be read (its rows say "needs data: could
    #: not read ..."; the other workloads are evaluated).
    errors: tuple = ()

    def to_frame(self) -> pd.DataFrame:
        df = pd.DataFrame(list(self.rows),
                          columns=PLAN_COLUMNS + BAND_COLUMNS + TRACE_COLUMNS + ECON_COLUMNS + SAMPLE_COLUMNS)
        for c in ("value", "p5", "p95", "p_win", *TRACE_COLUMNS, "sample_rate",
                  *(c for c in ECON_COLUMNS if not c.startswith("economic_"))):
            df[c] = df[c].astype(float)
        unvalued = ~df["verdict"].isin(EVALUATED)  # no value: nothing evaluated, exactly or from a sample
        df.loc[unvalued, "method"] = ""
        df.loc[unvalued, "sample_rate"] = math.nan
        return df

    def paper_notes(self) -> dict:
        """``{(workload, role, device): sentence}``: why each row far from its seed paper's answer differs
        (:mod:`models.planner.paper_gap`; rows near the paper's, or of roles no paper reports, have none)."""
        from models.planner.paper_gap import paper_notes

        return paper_notes(self.rows)

    @property
    def roles_used(self) -> list[str]:
        """Roles with at least one evaluated (wins/loses) row, in :data:`ROLES_PLAN` order."""
        got = {r["role"] for r in self.rows if r["verdict"] in EVALUATED}
        return [r for r in ROLES_PLAN if r in got]

    @property
    def custom_devices(self) -> dict:
        """Devices of the plan that are not catalogue entries (name -> profile)."""
        from models.devices import load_catalogue

        cat = load_catalogue()
        devs = [*self.devices, *([self.baseline_device] if self.baseline_device is not None else [])]
        return {d.name: d for d in devs if cat.get(d.name) != d}


def _as_device(d) -> DeviceProfile:
    if isinstance(d, DeviceProfile):
        return d
    if isinstance(d, str):
        return get_device(d.strip())
    raise ValueError(f"device: expected a catalogue name or a DeviceProfile, got {type(d).__name__}")


def _as_workload(w) -> PlanWorkload:
    if isinstance(w, PlanWorkload):
        return w
    if isinstance(w, (str, os.PathLike)):
        return workload_from_path(w)
    if isinstance(w, dict):
        return PlanWorkload.model_validate(w)
    raise ValueError(f"workload: expected a PlanWorkload, a path or a bundled name, got {type(w).__name__}")


def plan(workloads, devices, *, baseline: str | DeviceProfile = "like-for-like", uncertainty: int = 0, seed=0,
         n_requests: int | None = None, memory_refs: int | None = None, progress=None,
         horizon_years: float | None = None, module_GB: float | None = None, prices: dict | None = None,
         read_progress=None) -> PlanResult:
    """One verdict per workload x PCM role x device (see the module docstring for the roles).

    Parameters
    ----------
    workloads : sequence of PlanWorkload, path or bundled name
        The user's workloads (:func:`workload_from_path`, :func:`workload_from_upload`); names must be
        distinct.
    devices : sequence of str or DeviceProfile
        1-3 devices to compare side by side (catalogue names or custom profiles; distinct names).
    baseline : str or DeviceProfile, keyword-only
        ``"like-for-like"`` (each role's :data:`LIKE_FOR_LIKE` baseline) or one device used as the
        baseline of every role (write-cache: the same HALO cache on that device).
    uncertainty : int, keyword-only
        Samples of each row's uncertain inputs (0: none); fills ``p5, p95, p_win, decisive_input``.
    seed : int or numpy.random.Generator, keyword-only
        Seed of those samples.
    n_requests : int or None, keyword-only
        Requests used from each block trace [-]: None (default) uses the whole trace, whatever its length; a
        number uses its first ``n_requests``. Either way each row says how many it used of how many it read
        (``requests_used``, ``requests_read`` and its reason). A trace file too large to load whole (over
        :data:`models.planner.stream_plan.IN_MEMORY_MAX_BYTES`, or whose in-memory read passes
        the run's memory budget) is read twice in chunks
        (:func:`models.planner.stream_plan.stream_block_rows`), not cut: its reason says ``"(streamed in two
        passes)"``, and a role that cannot stream yet reads ``needs data`` saying so.
    memory_refs : int or None, keyword-only
        References used from each memory trace [-]: None (default) uses the whole trace, read whole when it fits the
        run's memory budget (:data:`models.planner.memory_read.BYTES_PER_REFERENCE` bytes per reference) and its file
        is at most :data:`~models.planner.stream_plan.IN_MEMORY_MAX_BYTES`, else read twice in chunks
        (:func:`models.planner.stream_memory.stream_memory_rows`; the reason says ``"(streamed in two passes)"``) --
        never cut silently; a number uses its first ``memory_refs`` (the rows say ``"as asked"``), refused with a
        message naming ``--memory-budget`` / ``PCM_MEMORY_BUDGET`` and ``--mem-refs N`` when that many do not fit.
    progress : callable, keyword-only
        Called with the completed fraction 0..1.
    read_progress : callable, keyword-only
        Called with a line of text on a streamed trace's read (``"NAME: pass 1 of 2: 25 % of 1 GB read, 2 M
        requests/s, about 60 s left"``; at most every 0.5 s per pass).
    horizon_years : float or None, keyword-only
        Planning horizon of the economics columns [years] (None: ``planner.horizon_years``, 5): a role's cost
        counts the replacements its wear-out needs within it.
    module_GB : float or None, keyword-only
        Module/drive size [GB]: each role's capacity is rounded up to whole modules (None: each device's smallest
        product, its catalogue ``module_GB``; exact when unknown, :func:`models.planner.economics.module_size`).
    prices : dict or None, keyword-only
        Device name -> price [USD per GB] overriding the catalogue's range (``user-defined``), for the compared
        devices and the baselines (the like-for-like ones too).

    Returns
    -------
    PlanResult

    Raises
    ------
    ValueError, KeyError
        No workload could be read (each named with its error), a device that cannot be found, repeated names,
        no device. A workload that cannot be read while others can fails alone: its rows read ``needs data``
        with the reason ``"needs data: could not read workload 'NAME' (FILE): ERROR"`` and the error is in
        :attr:`PlanResult.errors`.

    Examples
    --------
    >>> r = plan([workload_from_path("mqsim:tpcc-small", name="db")], ["pcm-samsung-20nm", "dram"],
    ...          n_requests=2000)
    >>> df = r.to_frame(); sorted(set(df.verdict))
    ['needs data', 'not applicable', 'wins']
    >>> df[df.role == "paging"].reason.iloc[0][:42]
    'needs data: upload a memory-reference trac'
    """
    from models import traces

    wls = [_as_workload(w) for w in workloads]
    devs = [_as_device(d) for d in (devices or [])]
    if not devs:
        raise ValueError("devices: give at least one device to compare")
    if len(devs) > 6:
        raise ValueError(f"devices: compare at most 6 side by side (got {len(devs)})")
    for what, names in (("workload", [w.name for w in wls]), ("device", [d.name for d in devs])):
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"{what} names must be distinct; repeated: {', '.join(dup)}")
    base = None if isinstance(baseline, str) and baseline.strip() in ("like-for-like", "") else _as_device(baseline)
    devs, base, priced = _apply_prices(prices, devs, base)
    if n_requests is not None and (isinstance(n_requests, bool) or not isinstance(n_requests, (int, np.integer))
                                   or n_requests < 1):
        raise ValueError(f"n_requests must be a whole number >= 1 or None (the whole trace), got {n_requests!r}")
    if memory_refs is not None and (isinstance(memory_refs, bool) or not isinstance(memory_refs, (int, np.integer))
                                    or memory_refs < 1):
        raise ValueError(f"memory_refs must be a whole number >= 1 or None, got {memory_refs!r}")
    horizon = float(param("planner.horizon_years").value) if horizon_years is None else horizon_years
    for label, x in (("horizon_years (planning horizon)", horizon), ("module_GB (module size)", module_GB)):
        if x is not None and (isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating))
                              or not math.isfinite(x) or x <= 0):
            raise ValueError(f"{label} must be a number > 0, got {x!r}")
    uq = (int(uncertainty), seed) if uncertainty else None
    steps = sum(2 if w.kind in ("block", "memory") else 1 for w in wls) or 1
    done = [0]

    def step():
        done[0] += 1
        if progress:
            progress(min(1.0, done[0] / steps))

    rows: list[dict] = []
    errors: list[tuple[str, str]] = []
    for w in wls:
        where = f"workload {w.name!r} ({w.source_label})"  # an upload: the user's file name, not the stored path
        first = len(rows)
        try:
            if w.kind == "block":
                tr, used, why = read_block(traces, w, n_requests)
                if tr is None:  # too large to load whole: streamed in two passes, never cut
                    rows += _streamed_block(w, devs, base, uq, n_requests, why, progress, read_progress,
                                            done[0], steps)
                    step()
                    step()
                    continue
                if not len(tr):
                    raise ValueError("the trace has no requests")
                refused: list[BudgetExceeded] = []
                rows += _role_within_budget(file_cache_rows, "file-cache", refused, w, tr, devs, base, uq)
                step()
                rows += _role_within_budget(write_cache_rows, "write-cache", refused, w, tr, devs, base, uq)
                rows += _role_within_budget(block_storage_rows, "storage", refused, w, tr, devs, base, uq)
                if len(refused) == 3:  # no role fits the budget: the workload fails as a whole, as before
                    raise refused[0]
                step()
                mark_used(rows[first:], used, "requests", "block trace")
            elif w.kind == "memory":
                mt, used, why = read_memory(w, memory_refs)
                if mt is None:  # too large to read whole: streamed in two passes, never cut
                    rows += _streamed_memory(w, devs, base, uq, why, progress, read_progress, done[0], steps)
                    step()
                    step()
                    continue
                if not len(mt):
                    raise ValueError("the trace has no references")
                with reserve(trace_bytes(mt), f"the memory trace of workload {w.name!r}"):  # held by both roles
                    rows += memory_rows(w, mt, devs, base, uq, step)
                mark_used(rows[first:], used, "references", "memory trace")
            elif w.kind == "filebench":
                rows += filebench_rows(w, devs, base, uq)
                step()
            else:
                rows += fio_rows(w, devs, base, uq)
                step()
        except (ValueError, KeyError, OSError, EOFError) as e:  # this workload alone: the others are still evaluated
            del rows[first:]
            msg = f"{where}: {_describe(e)}"
            errors.append((w.name, msg))
            rows += _unread_rows(w, msg, devs, base)
            step()
            if w.kind in ("block", "memory"):
                step()
    if errors and len(errors) == len(wls):
        raise ValueError("no workload could be read: " + "; ".join(m for _, m in errors))
    kinds = {w.kind for w in wls}
    for role in ROLES_PLAN:
        if kinds & set(ROLE_NEEDS[role]):
            continue
        need = ROLE_NEEDS[role][0]
        for d in devs:
            b = base.name if base is not None else (LIKE_FOR_LIKE[role] or "no cache")
            rows.append(plan_row(f"({need} workload)", role, d.name, b, role_metric(role), verdict="needs data",
                                 reason=f"needs data: upload {NEEDS_WHAT[need]}"
                                        + (" with writes" if role == "write-cache" else "")))
    order = {r: i for i, r in enumerate(ROLES_PLAN)}
    worder = {w.name: i for i, w in enumerate(wls)}
    dorder = {d.name: i for i, d in enumerate(devs)}
    rows.sort(key=lambda r: (order[r["role"]], worder.get(r["workload"], len(wls)), dorder[r["device"]]))
    by_name = {d.name: d for d in devs}
    for r in rows:
        b = base if base is not None else (priced(get_device(LIKE_FOR_LIKE[r["role"]])) if LIKE_FOR_LIKE[r["role"]]
                                           else None)
        r.update(economics_columns(r, by_name[r["device"]], b, r.pop("_usage", None), horizon_years=horizon,
                                   module_GB=module_GB))
    if progress:
        progress(1.0)
    used = sorted({r["role"] for r in rows if r["verdict"] in EVALUATED}, key=order.get)
    return PlanResult(rows=tuple(rows), workloads=tuple(wls), devices=tuple(devs),
                      baseline="like-for-like" if base is None else base.name, uncertainty=int(uncertainty),
                      provenance_keys=tuple(plan_provenance_keys(used, devs, base)), baseline_device=base,
                      horizon_years=float(horizon), module_GB=None if module_GB is None else float(module_GB),
                      errors=tuple(errors))


def _apply_prices(prices, devs: list, base):
    """``devs`` and ``base`` with the user's ``prices`` (name -> USD per GB), and a function pricing a
    like-for-like baseline; ValueError naming a price that is not a number > 0 or a device that is not compared."""
    prices = dict(prices or {})
    known = [*(d.name for d in devs), *([base.name] if base is not None else []),
             *(n for n in LIKE_FOR_LIKE.values() if n and base is None)]
    for name, p in prices.items():
        if name not in known:
            raise ValueError(f"prices: {name!r} is not a compared device or a baseline ({', '.join(dict.fromkeys(known))})")
        if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)) or not math.isfinite(p) \
                or p <= 0:
            raise ValueError(f"prices: the price of {name} must be a number > 0 [USD per GB], got {p!r}")

    def priced(d):
        return d.with_price(float(prices[d.name])) if d is not None and d.name in prices else d

    return [priced(d) for d in devs], priced(base), priced


def _role_within_budget(rows_of, role: str, refused: list, w: PlanWorkload, tr, devs, base, uq) -> list[dict]:
    """``rows_of(w, tr, devs, base, uq)``; a role whose step needs more than the run's memory budget
    (:class:`models.budget.BudgetExceeded`) gets ``needs data`` rows naming the budget and the option that
    raises it -- the workload's other roles are still evaluated (a trace of large requests replays in the
    storage role without being cut into blocks). The refusal is appended to ``refused``."""
    try:
        with reserve(getattr(tr, "nbytes", 0), f"the block trace of workload {w.name!r}"):  # held by every step
            return rows_of(w, tr, devs, base, uq)
    except BudgetExceeded as e:
        refused.append(e)
        b = base.name if base is not None else (LIKE_FOR_LIKE[role] or "no cache")
        return [plan_row(w.name, role, d.name, b, role_metric(role), verdict="needs data",
                         reason=f"needs data: more memory than the run's budget: {e}") for d in devs]


def _unread_rows(w: PlanWorkload, msg: str, devs, base) -> list[dict]:
    """The rows of a workload that could not be read: ``needs data`` in each role its kind serves, the reason
    ``"needs data: could not read ..."`` with the error."""
    out = []
    for role in ROLES_PLAN:
        if w.kind not in ROLE_NEEDS[role]:
            continue
        b = base.name if base is not None else (LIKE_FOR_LIKE[role] or "no cache")
        for d in devs:
            out.append(plan_row(w.name, role, d.name, b, role_metric(role), verdict="needs data",
                                reason=f"needs data: could not read {msg}"))
    return out


def _read_used(traces, source, kind: str, limit: int | None, *, whole: bool = True, options: dict | None = None):
    """The trace of ``source`` cut to ``limit`` requests (None: the whole trace, within the run's memory budget),
    and ``(used, read, why)``: requests used [-], requests read [-] (NaN: the trace was not read to its end) and
    why they differ (``"asked"`` or ``""``).

    ``whole=False`` reads only ``limit + 1`` requests: enough to tell a cut trace, not its length (memory traces are
    read by :func:`models.planner.memory_read.read_memory_trace`, bounded in bytes).
    """
    tr = traces.load(source, kind=kind, max_requests=None if whole else int(limit) + 1, **(options or {}))
    n = len(tr)
    read = float(n) if whole else math.nan
    if limit is not None and n > int(limit):
        tr = tr.subset(slice(0, int(limit)))
    elif not whole:  # the whole trace was within the first limit + 1 requests
        read = float(n)
    why = "" if len(tr) == n else "asked"
    return tr, (len(tr), read, why)


def _streamed_block(w: PlanWorkload, devs, base, uq, n_requests, why: str, progress, read_progress, done: int,
                    steps: int) -> list[dict]:
    """The block roles' rows of ``w``'s trace read twice in chunks (:func:`stream_block_rows`), marked as
    streamed; ``progress`` of the plan moves over this workload's first step (``done`` of ``steps``)."""
    got = stream_block_rows(
        w, role_streams(devs=devs, base=base, bands=uq is not None), devs, base, uq, max_requests=n_requests, why=why,
        progress=(lambda f: progress(min(1.0, (done + f) / steps))) if progress else None,
        read_progress=(lambda text: read_progress(f"{w.name}: {text}")) if read_progress else None)
    if len(got.refused) == 3:  # no role fits the budget: the workload fails as a whole
        raise BudgetExceeded(next(iter(got.refused.values())))
    rows = list(got.rows)
    used = (got.requests_used, float(got.requests_read), "" if got.requests_used == got.requests_read else "asked")
    mark_used(rows, used, "requests", "block trace", how="streamed in two passes")
    return rows


def read_memory(w: PlanWorkload, memory_refs: int | None):
    """Memory workload ``w``'s trace read whole (or cut as asked) by
    :func:`~models.planner.memory_read.read_memory_trace` with ``(used, read, why)``, or ``(None, None, why)`` when
    it is to be streamed (:func:`models.planner.stream_memory.stream_memory_rows`) and why: read whole (no
    ``memory_refs``), its file is larger than :data:`~models.planner.stream_plan.IN_MEMORY_MAX_BYTES` (decided from
    its size, before any read), or the whole read does not fit the run's memory budget (refused before or while
    reading). ``--mem-refs N`` stays an explicit cut, read in memory (refused as before when it does not fit)."""
    whole = memory_refs is None
    if whole:
        try:
            size = os.path.getsize(stream_plan.stream_source(w))
        except (FileNotFoundError, OSError):
            size = None
        if size is not None and size > stream_plan.IN_MEMORY_MAX_BYTES:
            return None, None, too_large_why(size)
    try:
        mt, used = read_memory_trace(w.source, memory_refs, options=w.trace_options)
    except BudgetExceeded as e:
        if not whole:
            raise
        return None, None, f"reading it whole needs more than the run's memory budget: {e}"
    return mt, used, ""


def _streamed_memory(w: PlanWorkload, devs, base, uq, why: str, progress, read_progress, done: int,
                     steps: int) -> list[dict]:
    """The memory roles' rows of ``w``'s trace read twice in chunks
    (:func:`models.planner.stream_memory.stream_memory_rows`), marked as streamed; ``progress`` of the plan moves
    over this workload's steps (``done`` of ``steps``)."""
    from models.planner.stream_memory import (
        MEMORY_STREAM_ROLES,
        memory_role_streams,
        stream_memory_rows,
    )

    got = stream_memory_rows(
        w, memory_role_streams(devs=devs, base=base, bands=uq if uq is not None else False), devs, base, uq, why=why,
        progress=(lambda f: progress(min(1.0, (done + 2 * f) / steps))) if progress else None,
        read_progress=(lambda text: read_progress(f"{w.name}: {text}")) if read_progress else None)
    if len(got.refused) == len(MEMORY_STREAM_ROLES):  # no role fits the budget: the workload fails as a whole
        raise BudgetExceeded(next(iter(got.refused.values())))
    rows = list(got.rows)
    used = (got.requests_used, float(got.requests_read), "")
    mark_used(rows, used, "references", "memory trace", how="streamed in two passes")
    return rows


def read_block(traces, w: PlanWorkload, n_requests: int | None):
    """Block workload ``w``'s trace loaded whole, as :func:`_read_used` gives it, or ``(None, None, why)`` when it
    is to be streamed (:func:`models.planner.stream_plan.stream_block_rows`) and why.

    A trace file (not a bundled trace) is streamed when the plan would otherwise not fit it: read whole (no
    ``n_requests``), its file is larger than :data:`~models.planner.stream_plan.IN_MEMORY_MAX_BYTES` (decided
    from its size, before any read), or its in-memory read passes the run's memory budget (the read stops at
    once, within the budget, and the trace is streamed from its start). ``n_requests`` cuts the trace in memory
    as before; when reading on to learn the trace's length does not fit the budget, only its first
    ``n_requests + 1`` requests are read (``requests_read`` NaN: not read to its end), and only when even that
    does not fit is it streamed.
    """
    is_file = os.path.isfile(w.source)
    whole = n_requests is None
    if is_file and whole:
        size = os.path.getsize(w.source)
        if size > stream_plan.IN_MEMORY_MAX_BYTES:
            return None, None, too_large_why(size)
    try:
        tr, used = _read_used(traces, w.source, "block", n_requests, options=w.trace_options)
    except BudgetExceeded as e:
        if not whole:  # the first n_requests as asked, without reading on to learn the trace's length
            with contextlib.suppress(BudgetExceeded):
                tr, used = _read_used(traces, w.source, "block", n_requests, whole=False, options=w.trace_options)
                return tr, used, ""
        if not is_file:
            raise
        return None, None, f"loading it whole needs more than the run's memory budget: {e}"
    return tr, used, ""


def mark_used(rows: list, used: tuple, unit: str, what: str, *, limit: str = "", how: str = "") -> None:
    """Fill ``requests_used, requests_read`` of a workload's rows and say in each reason how much of the
    trace the verdict used (``limit``: the option that cut it, when not the user's own choice; ``how``: how it
    was read, e.g. ``"streamed in two passes"``)."""
    n, read, why = used
    if not why:
        note = f"whole {what}: {n:,} {unit}" + (f" ({how})" if how else "")
    else:
        of = f"{int(read):,}" if math.isfinite(read) else "a longer trace, not read to its end"
        cut = f"the limit of {n:,} {unit} ({limit})" if why == "asked" and limit else "as asked"
        note = f"sampled: the first {n:,} {unit} of {of} ({cut}" + (f"; {how})" if how else ")")
    for r in rows:
        r["requests_used"], r["requests_read"] = float(n), read
        r["reason"] = f"{r['reason']} [{note}]"
        if not math.isfinite(r.get("sample_rate", math.nan)):  # from the trace, not sampled by its role
            r["method"], r["sample_rate"] = r.get("method", "exact"), 1.0


def _describe(e) -> str:
    from models.errors import describe

    return describe(e)
