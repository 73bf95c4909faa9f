"""Break-even of one device spec on one plan row, and the row over a grid of two specs (the frontier).

The search behind :mod:`models.planner.targets` (which re-exports every name here): :func:`break_even` brackets the
root of a row's value (a :class:`~models.planner.retime.Retimer`) on a log grid over the spec's physical range
(:func:`spec_range`) and refines it by Brent's method to :data:`LOG10_XTOL` decades; :func:`economic_break_even`
gives the endurance and price targets in closed form from the plan's economics; :func:`frontier_grid` evaluates a
row on a 2-D grid of two specs. Kept apart from the targets table so that the uncertainty bands
(:mod:`models.planner.target_bands`) and the table both build on it, one way.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from models.devices import DeviceProfile, load_catalogue
from models.planner.retime import Retimer
from models.planner.verdicts import short_num

__all__ = ["SPECS", "PERFORMANCE_SPECS", "LOG10_XTOL", "GRID_POINTS", "format_spec", "spec_range", "break_even",
           "economic_break_even", "held_endurance", "spec_value", "frontier_grid"]

#: The specs: column -> (unit, direction of a win, words). ``<=``: the role is won while the spec is at most
#: the break-even; ``>=``: at least.
SPECS = {"read_latency_ns": ("ns", "<=", "read latency"),
         "write_latency_ns": ("ns", "<=", "write latency"),
         "write_bandwidth_MBps": ("MB/s", ">=", "write bandwidth"),
         "endurance_writes_per_cell": ("writes per cell", ">=", "endurance"),
         "price_usd_per_GB": ("USD/GB", "<=", "price")}
#: The specs a role's performance value depends on (the others need the economics).
PERFORMANCE_SPECS = ("read_latency_ns", "write_latency_ns", "write_bandwidth_MBps")
#: Tolerance of the root finder [decades of the spec]: the reported break-even is within a factor
#: ``10**LOG10_XTOL`` (+-0.01 %) of the exact root (a numerical setting, not a model input).
LOG10_XTOL = 4e-5
#: Points of the log grid that brackets the root and checks monotonicity [-] (a numerical grid).
GRID_POINTS = 17


def format_spec(spec: str, x: float) -> str:
    """A spec value in words with its unit (latencies in ns/µs/ms).

    >>> format_spec("write_latency_ns", 2300), format_spec("write_bandwidth_MBps", 512.3)
    ('2.3 µs', '512 MB/s')
    """
    if not np.isfinite(x):
        return "unknown"
    if spec.endswith("_ns"):
        for k, u in ((1e6, "ms"), (1e3, "µs")):
            if abs(x) >= k:
                return f"{short_num(x / k)} {u}"
        return f"{short_num(x)} ns"
    return f"{short_num(x)} {SPECS[spec][0]}"


def spec_range(spec: str, device: DeviceProfile | None = None) -> tuple[float, float, str, str]:
    """``(low, high, low_device, high_device)``: the physical range of ``spec`` searched [the spec's unit],
    from the catalogue's smallest to largest stated value (widened to ``device``'s own value).

    >>> lo, hi, a, b = spec_range("read_latency_ns"); bool(lo < 200 < 1e6 < hi)
    True
    """
    vals = [(float(getattr(d, spec)), d.name) for d in load_catalogue().values()
            if getattr(d, spec, None) is not None]
    if device is not None and getattr(device, spec, None) is not None:
        vals.append((float(getattr(device, spec)), device.name))
    if not vals:
        raise ValueError(f"no device states {spec}")
    lo, hi = min(vals), max(vals)
    return lo[0], hi[0], lo[1], hi[1]


def _variants(dev: DeviceProfile, spec: str, xs) -> list[DeviceProfile]:
    return [dev.with_updates(**{spec: float(x)}) for x in np.atleast_1d(xs)]


def break_even(rt: Retimer, spec: str, *, target: float = 1.0) -> tuple[float, str]:
    """Break-even of ``spec`` for one row: ``(value, reason)`` (value NaN: no root in the physical range).

    Parameters
    ----------
    rt : Retimer
        The row (:func:`models.planner.retime.role_retimers`).
    spec : str
        One of :data:`PERFORMANCE_SPECS`.
    target : float, keyword-only
        The speedup [x] to reach (1: break even with the baseline).

    Returns
    -------
    (float, str)
        The spec value where the row's value equals ``target`` [the spec's unit] (within
        :data:`LOG10_XTOL` decades), and the reason in words.
    """
    from scipy.optimize import brentq

    unit, direction, words = SPECS[spec]
    dev = rt.device
    held = getattr(dev, spec)
    others = f"other specs held at {dev.name}'s"
    if rt.why_not:
        return math.nan, f"not modelled: {rt.why_not}"
    if spec not in rt.uses:
        v = rt.value(dev)
        won = "won" if v >= target else "not won"
        return math.nan, (f"at any {words}: {won} whatever its {words} (the {rt.role} model does not use it; "
                          f"{short_num(v)}× vs the {short_num(target)}× target)")
    lo, hi, lo_dev, hi_dev = spec_range(spec, dev)
    grid = np.unique(np.concatenate([np.geomspace(lo, hi, GRID_POINTS), [held] if held is not None else []]))
    vals = np.asarray(rt.values(_variants(dev, spec, grid)), dtype=float)
    g = np.log(np.maximum(vals, 1e-300) / target)
    good = grid[0] if direction == "<=" else grid[-1]  # the fastest end
    best_lbl = f"{format_spec(spec, good)} ({lo_dev if direction == '<=' else hi_dev}, the catalogue's best)"
    worst = grid[-1] if direction == "<=" else grid[0]
    worst_lbl = f"{format_spec(spec, worst)} ({hi_dev if direction == '<=' else lo_dev})"
    if np.ptp(vals) <= 1e-12 * max(abs(vals).max(), 1e-300):
        won = "won" if vals[0] >= target else "not won"
        return math.nan, f"at any {words}: {won} at every {words} from {format_spec(spec, lo)} to " \
                         f"{format_spec(spec, hi)} ({short_num(vals[0])}×)"
    step = np.diff(vals)
    tol = 1e-9 * np.abs(vals[:-1])
    want_sign = -1 if direction == "<=" else 1  # value falls with latency, rises with bandwidth
    monotone = bool(np.all(want_sign * step >= -tol))
    note = "" if monotone else (f"; not monotone in {words}: the value moves against it between "
                                f"{format_spec(spec, grid[:-1][want_sign * step < -tol][0])} and "
                                f"{format_spec(spec, grid[1:][want_sign * step < -tol][-1])}")
    s = np.sign(g)
    cross = np.nonzero(s[:-1] * s[1:] < 0)[0]
    exact = np.nonzero(g == 0)[0]
    if not len(cross) and not len(exact):
        if s[0] >= 0 and s[-1] >= 0:
            return math.nan, (f"at any {words} in the catalogue's range, up to {worst_lbl} "
                              f"({short_num(vals.min())}× at worst vs the {short_num(target)}× target; {others}){note}")
        return math.nan, (f"never, even at {best_lbl}: {short_num(vals.max())}× at best vs the "
                          f"{short_num(target)}× target; {others}{note}")
    if len(exact) and not len(cross):
        x = float(grid[exact[0]])
    else:
        ref = float(np.log10(held)) if held is not None else None
        k = cross[0] if ref is None else cross[np.argmin(np.abs(np.log10(grid[cross]) - ref))]

        def f(u):
            return math.log(max(rt.value(_variants(dev, spec, [10.0 ** u])[0]), 1e-300) / target)

        u = brentq(f, math.log10(grid[k]), math.log10(grid[k + 1]), xtol=LOG10_XTOL, rtol=4 * np.finfo(float).eps)
        x = 10.0 ** u
        if len(cross) > 1:
            note += (f"; the value crosses {short_num(target)}× {len(cross)} times in the range "
                     f"(reported: the crossing nearest {dev.name}'s own value)")
    if held is None:
        head = f"{dev.name} does not state its {words}"
    else:
        ratio = x / held
        room = ratio if direction == "<=" else 1 / ratio
        head = (f"{dev.name} has {format_spec(spec, held)}: "
                + (f"{short_num(room)}× headroom" if room >= 1 else f"needs {short_num(1 / room)}× better"))
    verb = "won" if target == 1 else f"at least {short_num(target)}×"
    return x, (f"{verb} while {words} {direction} {format_spec(spec, x)}; {head}; {others}{note}")


def _field_max(model, field: str) -> float:
    """The upper bound (``le``) of a Pydantic field [its unit] (inf: none)."""
    for m in model.model_fields[field].metadata:
        if getattr(m, "le", None) is not None:
            return float(m.le)
    return math.inf


def economic_break_even(row: dict, dev: DeviceProfile, spec: str, *, horizon_years: float,
                        wear_efficiency: float | None = None) -> tuple[float, str]:
    """Break-even of ``endurance_writes_per_cell`` or ``price_usd_per_GB`` for one plan row (its economics columns,
    :data:`models.planner.economics.ECON_COLUMNS`): ``(value, reason)``, value NaN when there is none.

    - endurance: the writes per cell at which the role's capacity lasts ``horizon_years`` [years] under the
      workload's write rate without a replacement (:func:`models.planner.economics.role_lifetime_years` at one
      write per cell, scaled: the lifetime is linear in the endurance);
    - price: the price [USD/GB] at which the role's cost per unit of work equals the baseline's
      (``cost_per_work_vs_baseline`` is linear in the price).

    ``wear_efficiency`` [-]: the lifetime's wear-leveling efficiency (None: ``lifetime.wear_efficiency``, as the
    plan's economics; the uncertainty band moves it over its range).

    >>> from models.devices import get_device
    >>> r = {"capacity_GB": 1.0, "bytes_written_per_s": 0.0, "cost_per_work_vs_baseline": 2.0, "economic_reason": ""}
    >>> economic_break_even(r, get_device("pcm-memext"), "endurance_writes_per_cell", horizon_years=5)[1][:33]
    'at any endurance: the role writes'
    """
    from models.planner.economics import device_endurance, role_lifetime_years

    why_econ = str(row.get("economic_reason", "") or "")
    if spec == "endurance_writes_per_cell":
        cap, rate = float(row.get("capacity_GB", math.nan)), float(row.get("bytes_written_per_s", math.nan))
        if math.isinf(device_endurance(dev)) and dev.endurance_writes_per_cell is None:
            return math.nan, f"at any endurance: {dev.name} ({dev.kind}) does not wear out by being written"
        if rate == 0:
            return math.nan, f"at any endurance: the role writes nothing to {dev.name} under this workload"
        if not (math.isfinite(cap) and cap > 0 and math.isfinite(rate)):
            return math.nan, f"unknown: the role's capacity or write rate is not known ({why_econ or 'no economics'})"
        per_write = float(role_lifetime_years(cap, 1.0, rate, wear_efficiency=wear_efficiency))  # years/write/cell
        x = horizon_years / per_write
        have = held_endurance(dev)
        rated = "" if dev.endurance_writes_per_cell is not None else (
            f" (from its rated {short_num(dev.endurance_DWPD)} drive writes per day, as the economics counts it)")
        head = (f"{dev.name} does not state its endurance" if have is None else
                f"{dev.name} has {short_num(have)} writes per cell{rated}: "
                + (f"{short_num(have / x)}× headroom" if have >= x else f"needs {short_num(x / have)}× more"))
        return x, (f"lasts the {horizon_years:g}-year horizon without a replacement while endurance >= "
                   f"{short_num(x)} writes per cell ({cap:.3g} GB absorbing {rate / 1e6:.3g} MB/s); {head}")
    price = dev.price_usd_per_GB
    ratio = float(row.get("cost_per_work_vs_baseline", math.nan))
    if price is None:
        return math.nan, (f"needs data: price of {dev.name} ($/GB; --price or the page's prices): the cost per unit "
                          "of work, from which the break-even price follows, needs one")
    if not (math.isfinite(ratio) and ratio > 0):
        return math.nan, ("no break-even price: the cost per unit of work has no baseline cost to compare with "
                          f"({why_econ.rpartition('vs ')[2] or 'no economics'})")
    x = float(price) / ratio
    top = _field_max(DeviceProfile, "price_usd_per_GB_low")
    if x > top:
        return math.nan, (f"at any price up to {short_num(top)} USD/GB (the largest a device takes): the cost per unit "
                          f"of work reaches the baseline's only at {short_num(x)} USD/GB; {dev.name} at "
                          f"{short_num(price)} USD/GB")
    room = x / float(price)
    return x, (f"costs no more per unit of work than the baseline while price <= {short_num(x)} USD/GB; {dev.name} "
               f"at {short_num(price)} USD/GB: "
               + (f"{short_num(room)}× headroom" if room >= 1 else f"needs {short_num(1 / room)}× cheaper")
               + " (the performance held)")


def held_endurance(dev) -> float | None:
    """The endurance a device is held at [writes per cell]: the one its economics uses
    (:func:`models.planner.economics.device_endurance`: the catalogue's, else from its rated drive writes per day);
    None when not stated (or unlimited: DRAM, HDD)."""
    from models.planner.economics import device_endurance

    e = device_endurance(dev)
    return float(e) if math.isfinite(e) else None


def spec_value(dev: DeviceProfile, spec: str) -> float | None:
    """A device's own value of ``spec`` [the spec's unit], as the frontier marks it: the endurance its economics uses
    (:func:`held_endurance`), the price it is priced at (:attr:`~models.devices.DeviceProfile.price_usd_per_GB`),
    else its column; None when not stated.

    >>> from models.devices import get_device
    >>> spec_value(get_device("pcm-memext"), "price_usd_per_GB") is None, spec_value(get_device("dram"), "read_latency_ns") > 0
    (True, True)
    """
    if spec == "endurance_writes_per_cell":
        return held_endurance(dev)
    v = getattr(dev, spec, None)
    return None if v is None else float(v)


def _num(row: dict, col: str) -> float:
    v = row.get(col, math.nan)
    return math.nan if v is None else float(v)


def _criteria_unknown(rt: Retimer, plan_row: dict, spec: str) -> str:
    """Why the criterion of economic axis ``spec`` cannot be evaluated on this row ("": it can)."""
    why = str(plan_row.get("economic_reason", "") or "no economics")
    if spec == "price_usd_per_GB":
        if not math.isfinite(_num(plan_row, "price_usd_per_GB")):
            return (f"needs data: price of {rt.device.name} ($/GB): the cost per unit of work at another price is "
                    "scaled from the one at its own price")
        if not (math.isfinite(_num(plan_row, "cost_per_work_vs_baseline"))
                and _num(plan_row, "cost_per_work_vs_baseline") > 0):
            base = why.rpartition("vs ")[2].split(". ")[0] if "vs " in why else why
            return f"no cost per unit of work to compare with the baseline's: {base}"
        return ""
    cap, rate = _num(plan_row, "capacity_GB"), _num(plan_row, "bytes_written_per_s")
    if rate == 0:
        return ""
    if not (math.isfinite(cap) and cap > 0 and math.isfinite(rate)):
        return f"lifetime unknown: the role's capacity or write rate is not known ({why})"
    return ""


def frontier_grid(rt: Retimer, spec_x: str, spec_y: str, xs, ys, *, target: float = 1.0,
                  plan_row: dict | None = None, horizon_years: float | None = None,
                  wear_efficiency: float | None = None) -> pd.DataFrame:
    """The row on a grid of two specs (the others held): wins where every axis's criterion holds.

    The criteria: a performance spec (:data:`PERFORMANCE_SPECS`): the role's value ``>= target``; the price: the
    cost per unit of work at most the baseline's (``cost_per_work_vs_baseline <= 1``, the plan row's ratio scaled
    linearly by the price over the device's own, by the replacements when the endurance is the other axis and by
    the value when a performance spec is: no rerun); the endurance: the role's capacity lasts the planning horizon
    (``lifetime_years >= horizon``, :func:`models.planner.economics.role_lifetime_years` of the row's capacity and
    write rate, linear in the endurance). The write rate is held at the row's whatever the performance (a memory
    trace's rate follows its modelled run time: held, not re-timed).

    Parameters
    ----------
    rt : Retimer
        The row.
    spec_x, spec_y : str
        Two different keys of :data:`SPECS`.
    xs, ys : array_like
        Values of each [the spec's unit].
    target : float, keyword-only
        The speedup [x] a performance axis must reach.
    plan_row : dict or None, keyword-only
        The plan's row with its economics columns (:data:`models.planner.economics.ECON_COLUMNS`); needed for a
        price or endurance axis.
    horizon_years : float or None, keyword-only
        The planning horizon [years] (None: ``planner.horizon_years``).
    wear_efficiency : float or None, keyword-only
        The lifetime's wear-leveling efficiency [-] (None: ``lifetime.wear_efficiency``; the band's corners move it).

    Returns
    -------
    pandas.DataFrame
        Columns ``spec_x, spec_y`` (named by the specs), ``value`` [x], ``cost_per_work_vs_baseline`` [x] with a
        price axis, ``lifetime_years`` [years] with an endurance axis, and ``wins`` (bool; pandas ``boolean`` all
        NA when a criterion cannot be evaluated, ``attrs["unknown"]`` saying why), one row per pair.
    """
    from models.planner.economics import replacements, role_lifetime_years
    from models.provenance import param

    for s in (spec_x, spec_y):
        if s not in SPECS:
            raise ValueError(f"frontier spec {s!r}: give two of {', '.join(SPECS)}")
    if spec_x == spec_y:
        raise ValueError("frontier: give two different specs")
    econ = [s for s in (spec_x, spec_y) if s not in PERFORMANCE_SPECS]
    perf = [s for s in (spec_x, spec_y) if s in PERFORMANCE_SPECS]
    if econ and plan_row is None:
        raise ValueError(f"frontier: a {SPECS[econ[0]][2]} axis needs the plan's row (its economics columns)")
    X, Y = np.meshgrid(np.asarray(xs, float), np.asarray(ys, float))
    at = {spec_x: X.ravel(), spec_y: Y.ravel()}
    out = pd.DataFrame(dict(at))
    if len(perf) == 2:
        variants = [rt.device.with_updates(**{spec_x: float(x), spec_y: float(y)}) for x, y in zip(*at.values())]
        v = np.asarray(rt.values(variants), dtype=float)
    elif perf:
        u, inv = np.unique(at[perf[0]], return_inverse=True)
        v = np.asarray(rt.values(_variants(rt.device, perf[0], u)), dtype=float)[inv.ravel()]
    else:
        v = np.full(len(out), _num(plan_row, "value"))
    out["value"] = v
    wins = v >= target if perf else np.ones(len(out), bool)
    unknown = [w for w in (_criteria_unknown(rt, plan_row, s) for s in econ) if w]
    if econ and not unknown:
        h = float(param("planner.horizon_years").value) if horizon_years is None else float(horizon_years)
        cap, rate = _num(plan_row, "capacity_GB"), _num(plan_row, "bytes_written_per_s")
        if "endurance_writes_per_cell" in econ:
            life = np.asarray(role_lifetime_years(cap, at["endurance_writes_per_cell"], rate,
                                                  wear_efficiency=wear_efficiency), dtype=float)
            if rate == 0:
                life = np.full(len(out), np.inf)
            out["lifetime_years"] = life
            wins &= life >= h
        if "price_usd_per_GB" in econ:
            n0 = _num(plan_row, "replacements")
            scale = at["price_usd_per_GB"] / _num(plan_row, "price_usd_per_GB")
            if "endurance_writes_per_cell" in econ:
                n = np.nan_to_num(replacements(out["lifetime_years"].to_numpy(), h), nan=0.0)
                scale = scale * (1.0 + n) / (1.0 + (0.0 if math.isnan(n0) else n0))
            if perf:
                scale = scale * (rt.value(rt.device) / v)
            ratio = _num(plan_row, "cost_per_work_vs_baseline") * scale
            out["cost_per_work_vs_baseline"] = ratio
            wins &= ratio <= 1.0
    out["wins"] = wins
    if unknown:
        out["wins"] = pd.array([pd.NA] * len(out), dtype="boolean")
        out.attrs["unknown"] = "; ".join(unknown)
    return out
