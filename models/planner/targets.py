"""Spec targets (inverse design): the device spec at which a plan row breaks even, the others held.

For each workload x role x device of a plan, :func:`plan_targets` finds the value of each device spec
(:data:`SPECS`: read latency, write latency, write bandwidth, endurance, price per GB) at which the
role's value (baseline / device [x], the plan's ``value``) equals 1 -- or a target speedup -- with every
other spec held at the device's own value: "this role is won while write latency <= 2.3 µs".

How: the role's counts are simulated once per workload (:mod:`models.planner.retime`) and re-timed per spec
value through the models' own timing functions; the root is bracketed on a log grid over the spec's
physical range (:func:`spec_range`: the catalogue's fastest to slowest device, widened to the device's own
value) and refined by Brent's method in log10 of the spec to :data:`LOG10_XTOL` decades. The grid also
checks monotonicity: a row whose value is not monotone in a spec says so in its reason (and which crossing
it reports: the one nearest the device's own value). No root in the range reads "at any <spec> in the
catalogue's range" or "never, even at <fastest> (<device>)" -- break_even is NaN then, never a made-up value.

``endurance_writes_per_cell`` and ``price_usd_per_GB`` do not move any performance value; their targets come
from the plan's economics (:mod:`models.planner.economics`), in closed form (:func:`economic_break_even`):
the role's lifetime is linear in the endurance, so the endurance at which the role's capacity lasts the
planning horizon without a replacement is ``horizon / role_lifetime_years(capacity, 1, write rate)``; the cost
is linear in the price (the replacements do not depend on it), so the price at which the cost per unit of
work equals the baseline's is ``price / cost_per_work_vs_baseline``.

:func:`frontier_grid` evaluates a row on a 2-D grid of two specs (wins / loses), the "Product targets"
region chart's data.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from models._base import ModelResult
from models.planner.retime import Retimer, workload_retimers
from models.planner.spec_roots import (  # noqa: F401  (re-exported: the targets' public names)
    GRID_POINTS,
    LOG10_XTOL,
    PERFORMANCE_SPECS,
    SPECS,
    _criteria_unknown,
    break_even,
    economic_break_even,
    format_spec,
    frontier_grid,
    held_endurance,
    spec_range,
    spec_value,
)
from models.planner.verdicts import EVALUATED

__all__ = ["SPECS", "PERFORMANCE_SPECS", "TARGET_COLUMNS", "LOG10_XTOL", "TargetsResult", "spec_range",
           "break_even", "economic_break_even", "row_targets", "plan_targets", "targets_of_plan", "frontier_grid", "format_spec",
           "spec_value"]

#: Columns of :meth:`TargetsResult.to_frame` (the CSV contract of ``pcm-planner targets``).
TARGET_COLUMNS = ["workload", "role", "device", "spec", "unit", "break_even", "held_at", "direction", "reason"]



@dataclass(frozen=True)
class TargetsResult(ModelResult):
    """Spec targets of a plan: one row per workload x role x device x spec (:func:`plan_targets`).

    ``to_frame()`` columns: :data:`TARGET_COLUMNS`. ``break_even`` and ``held_at`` are in ``unit``;
    ``held_at`` is the device's own value of the spec (NaN: the device does not state it);
    ``direction`` ``<=`` / ``>=``: the role is won while the spec is at most / at least ``break_even``.
    With bands (the default of :func:`targets_of_plan`), :data:`models.planner.target_bands.BAND_COLUMNS` follow:
    ``break_even_low``, ``break_even_high`` [``unit``] (the break-even's range when the held inputs range over
    their provenance ranges; NaN where unknown or not sampled) and ``band_method`` (how, or why not).
    """

    #: The rows (dicts with :data:`TARGET_COLUMNS`).
    rows: tuple
    #: The target speedup [x] the break-evens solve for.
    target: float
    #: The retimers (one per evaluated row), for :func:`frontier_grid`.
    retimers: tuple = ()

    #: The plan's rows (dicts with its economics columns), in the order of :attr:`retimers`, for the frontier's
    #: price and endurance axes.
    plan_rows: tuple = ()
    #: The plan's horizon [years] (NaN: ``planner.horizon_years``).
    horizon_years: float = math.nan

    def to_frame(self) -> pd.DataFrame:
        from models.planner.target_bands import BAND_COLUMNS

        banded = bool(self.rows) and all(c in self.rows[0] for c in BAND_COLUMNS)
        df = pd.DataFrame(list(self.rows), columns=TARGET_COLUMNS + (BAND_COLUMNS if banded else []))
        for c in ("break_even", "held_at") + (("break_even_low", "break_even_high") if banded else ()):
            df[c] = df[c].astype(float)
        return df


def row_targets(rt: Retimer, *, target: float = 1.0, specs: Sequence[str] = tuple(SPECS), plan_row: dict | None = None,
                horizon_years: float | None = None, bands: bool = True) -> list[dict]:
    """The :data:`TARGET_COLUMNS` rows of one evaluated plan row, one per spec (``plan_row``: the plan's row with
    its economics columns, for the endurance and price targets; ``horizon_years`` [years]: the plan's horizon);
    ``bands``: each with its uncertainty band (:func:`models.planner.target_bands.target_band`)."""
    from models.planner.target_bands import target_band
    from models.provenance import param

    h = float(param("planner.horizon_years").value) if horizon_years is None or not math.isfinite(horizon_years) \
        else float(horizon_years)
    out = []
    for spec in specs:
        unit, direction, words = SPECS[spec]
        held = held_endurance(rt.device) if spec == "endurance_writes_per_cell" else getattr(rt.device, spec, None)
        if spec in PERFORMANCE_SPECS:
            x, why = break_even(rt, spec, target=target)
        elif plan_row is None:
            x, why = math.nan, f"needs data: the plan's economics (its row) for the {words} target"
        else:
            x, why = economic_break_even(plan_row, rt.device, spec, horizon_years=h)
        row = {"workload": rt.workload, "role": rt.role, "device": rt.device.name, "spec": spec, "unit": unit,
               "break_even": float(x), "held_at": math.nan if held is None else float(held),
               "direction": direction, "reason": why}
        if bands:
            if spec not in PERFORMANCE_SPECS and plan_row is None:
                row.update(break_even_low=math.nan, break_even_high=math.nan,
                           band_method="unknown: needs the plan's economics")
            else:
                row.update(target_band(rt, spec, float(x), target=target, plan_row=plan_row, horizon_years=h))
        out.append(row)
    return out


def targets_of_plan(res, *, target: float = 1.0, specs: Sequence[str] = tuple(SPECS), n_requests: int | None = None,
                    memory_refs: int | None = None, progress=None, bands: bool = True) -> TargetsResult:
    """Spec targets of a computed plan (:class:`~models.planner.plan.PlanResult`), in its row order.

    Rows the plan could not evaluate (not applicable, needs data) keep its reason; a device that is its role's
    baseline says so. ``n_requests`` and ``memory_refs`` must be the plan's (the same trace sample). ``bands``: add
    the uncertainty band columns (:data:`models.planner.target_bands.BAND_COLUMNS`).
    """
    if not (np.isfinite(target) and target > 0):
        raise ValueError(f"target speedup must be a number > 0 (got {target!r})")
    bad = [s for s in specs if s not in SPECS]
    if bad:
        raise ValueError(f"spec: unknown {', '.join(bad)}; valid: {', '.join(SPECS)}")
    base = res.baseline_device
    devs = list(res.devices)
    rts: dict[tuple, Retimer] = {}
    streamed: dict[str, str] = {}  # workload -> why its trace is planned by streaming (no re-timer)
    for i, w in enumerate(res.workloads):
        got, why = workload_retimers(w, devs, base, n_requests=n_requests, memory_refs=memory_refs)
        if why:
            streamed[w.name] = why
        for rt in got:
            rts[(rt.workload, rt.role, rt.device.name)] = rt
        if progress:
            progress((i + 1) / max(len(res.workloads), 1) * 0.5)
    rows: list[dict] = []
    todo = list(res.rows)
    for j, r in enumerate(todo):
        rt = rts.get((r["workload"], r["role"], r["device"]))
        if rt is not None and r["verdict"] in EVALUATED:
            rows += row_targets(rt, target=target, specs=specs, plan_row=r,
                                horizon_years=getattr(res, "horizon_years", None), bands=bands)
        else:
            why = r["reason"] if r["verdict"] not in EVALUATED else (
                f"needs data: the spec targets re-time the trace in memory, and this one is planned by streaming "
                f"({streamed[r['workload']]}); find them on its first requests (n_requests, --requests)"
                if r["workload"] in streamed else
                f"not applicable: {r['device']} is this role's baseline ({r['baseline']}): the value is 1× at any spec")
            dev = next((d for d in devs if d.name == r["device"]), None)
            for spec in specs:
                held = getattr(dev, spec, None) if dev is not None else None
                rows.append({"workload": r["workload"], "role": r["role"], "device": r["device"], "spec": spec,
                             "unit": SPECS[spec][0], "break_even": math.nan,
                             "held_at": math.nan if held is None else float(held), "direction": SPECS[spec][1],
                             "reason": why,
                             **({"break_even_low": math.nan, "break_even_high": math.nan,
                                 "band_method": "unknown: no break-even (the reason says why)"} if bands else {})})
        if progress:
            progress(0.5 + 0.5 * (j + 1) / max(len(todo), 1))
    by_key = {(r["workload"], r["role"], r["device"]): r for r in res.rows}
    h = getattr(res, "horizon_years", None)
    return TargetsResult(rows=tuple(rows), target=float(target), retimers=tuple(rts.values()),
                         plan_rows=tuple(by_key.get(k) for k in rts),
                         horizon_years=math.nan if h is None else float(h))


def plan_targets(workloads, devices, *, baseline="like-for-like", target: float = 1.0,
                 specs: Sequence[str] = tuple(SPECS), n_requests: int | None = None,
                 memory_refs: int | None = None, horizon_years: float | None = None,
                 module_GB: float | None = None, prices: dict | None = None, bands: bool = True) -> TargetsResult:
    """Spec targets for workloads and devices: :func:`models.planner.plan.plan`, then :func:`targets_of_plan`.

    Parameters
    ----------
    workloads, devices, baseline, n_requests, memory_refs, horizon_years, module_GB, prices
        As :func:`models.planner.plan.plan` (the last three: its economics, which the endurance and price targets
        read).
    target : float, keyword-only
        The speedup [x] each break-even solves for (default 1: break even with the baseline).
    specs : sequence of str, keyword-only
        Specs to solve (default all of :data:`SPECS`).
    bands : bool, keyword-only
        Add each break-even's uncertainty band (:mod:`models.planner.target_bands`).

    Returns
    -------
    TargetsResult

    Examples
    --------
    >>> from models.planner.plan import workload_from_path
    >>> t = plan_targets([workload_from_path("mqsim:tpcc-small", name="db")], ["pcm-samsung-20nm"],
    ...                  n_requests=2000, specs=["write_latency_ns"]).to_frame()
    >>> r = t[t.role == "write-cache"].iloc[0]; r.direction, bool(r.break_even > r.held_at)
    ('<=', True)
    """
    from models.planner.plan import plan

    res = plan(workloads, devices, baseline=baseline, n_requests=n_requests, memory_refs=memory_refs,
               horizon_years=horizon_years, module_GB=module_GB, prices=prices)
    return targets_of_plan(res, target=target, specs=specs, n_requests=n_requests, memory_refs=memory_refs,
                           bands=bands)
