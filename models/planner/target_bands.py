"""Uncertainty bands of the spec targets: how a break-even moves when the held inputs range over their provenance.

A break-even (:mod:`models.planner.targets`) holds every other input at its point. Here each of those inputs
ranges over its provenance range (:class:`BandRange`, :func:`band_ranges`):

- the device's other performance specs the role's model reads (read/write latency and bandwidth; stated values
  only), ranged by their provenance kind (:func:`models.uncertainty.device_value_range`, the ranges the plan's
  p5-p95 band samples);
- the baseline's performance specs, when the row's retimer re-times the baseline through the same timing
  function (``values([baseline]) == 1``): a slower baseline is a lower bar, i.e. the target speedup scaled by
  ``values([baseline variant])``;
- for the price target: the baseline's published price range (``price_usd_per_GB_low..high``), the device's
  endurance range (its replacements in the horizon) and ``lifetime.wear_efficiency``'s range (the replacements);
  for the endurance target: ``lifetime.wear_efficiency``'s range.

Held, not ranged (said in ``band_method``): the models' own parameters inside the role's re-timing (they are
compiled into the retimer), the role's capacity and write rate (counts of the simulation) and the horizon (the
user's planning input). The device's own price does not move the price target (the cost is linear in it).

Method (:func:`target_band`): the role's value is monotone in each ranged input (lower latency, higher bandwidth,
a slower or dearer baseline, more endurance favour the device), so the break-even's extremes over the box of
ranges are at two corners: every input at the end that favours the device, and every input at the end that
does not. The performance break-even of each corner is found near the point's (a step of x2 from it until the
value crosses the target, then a vectorised Illinois regula falsi to :data:`~models.planner.targets.LOG10_XTOL`
decades; a Newton step from each corner's own slope at the point usually brackets it at once), both corners in
one ``values`` call per step: no full plan is rerun and no sample is drawn. The band is
``[min, max]`` of the point and the two corners (it contains the point; with every range collapsed it is the
point). A corner whose value does not move the favourable way at the point is reported in ``band_method``
("not monotone"). No range at all: ``"not sampled: ..."`` and NaN ends, never 0; a point that is NaN gives
``"unknown: ..."``.
"""

from __future__ import annotations

import dataclasses
import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["BAND_COLUMNS", "BandRange", "band_ranges", "collapsed", "corner_case", "target_band", "frontier_band",
           "PERF_COLUMNS"]

#: Columns the band adds after :data:`models.planner.targets.TARGET_COLUMNS` (a CSV contract).
BAND_COLUMNS = ["break_even_low", "break_even_high", "band_method"]
#: Device columns whose provenance ranges the performance band takes.
PERF_COLUMNS = ("read_latency_ns", "write_latency_ns", "read_bandwidth_MBps", "write_bandwidth_MBps")
#: First step from the point's break-even when looking for a corner's [decades] (x2: a search step, not a model
#: value).
_STEP = math.log10(2.0)
#: Probe beside the point's break-even for each corner's slope [decades] (a numerical step, not a model value).
_PROBE = 0.005
#: Most Illinois iterations per corner [-] (a numerical cap; convergence takes ~3-8).
_MAX_ITER = 60


@dataclass(frozen=True)
class BandRange:
    """One ranged input of a band: its name, what a planner reads, its point and stated range [``unit``], its
    provenance kind, and the end that favours the device (``"low"`` or ``"high"``)."""

    name: str
    label: str
    point: float
    low: float
    high: float
    kind: str
    favourable: str

    def end(self, side: str) -> float:
        """The value at ``side`` ``"favourable"`` / ``"unfavourable"`` [unit]."""
        fav = self.favourable == "low"
        return self.low if (side == "favourable") == fav else self.high

    def words(self) -> str:
        rng = f"{self.low:.3g}" if self.low == self.high else f"{self.low:.3g}..{self.high:.3g}"
        return f"{self.label} {rng} ({self.kind})"


def collapsed(ranges: Sequence[BandRange]) -> list[BandRange]:
    """The same inputs with every range collapsed to its point (the band then equals the break-even)."""
    return [dataclasses.replace(r, low=r.point, high=r.point) for r in ranges]


#: Retimer -> whether it re-times its baseline (one evaluation per row, not per spec).
_RETIMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: Retimer -> {baseline corners: their values}: the target scales of :func:`_base_factors`, per row.
_FACTORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _retimes_baseline(rt) -> bool:
    """The retimer re-times its baseline through the same timing function (its value is 1 there)."""
    if rt.baseline is None or rt.why_not:
        return False
    if rt not in _RETIMES:
        try:
            v = rt.value(rt.baseline)
        except (ValueError, KeyError, ZeroDivisionError):
            v = math.nan
        _RETIMES[rt] = bool(np.isfinite(v) and abs(v - 1.0) <= 1e-9)
    return _RETIMES[rt]


def _perf_ranges(rt, exclude) -> list[BandRange]:
    from models.uncertainty import device_value_range

    out = []
    if rt.why_not:
        return out
    cols = [c for c in PERF_COLUMNS if c in rt.uses and c not in exclude]
    for c in cols:
        if getattr(rt.device, c, None) is not None:
            lo, hi, kind = device_value_range(rt.device, c)
            out.append(BandRange(f"device:{rt.device.name}.{c}", f"{rt.device.name} {c}", float(getattr(rt.device, c)),
                                 lo, hi, kind, "low" if c.endswith("_ns") else "high"))
    if _retimes_baseline(rt):
        b = rt.baseline
        for c in (c for c in PERF_COLUMNS if c in rt.uses):
            if getattr(b, c, None) is not None:
                lo, hi, kind = device_value_range(b, c)
                out.append(BandRange(f"baseline:{b.name}.{c}", f"baseline {b.name} {c}", float(getattr(b, c)), lo, hi,
                                     kind, "high" if c.endswith("_ns") else "low"))
    return out


def _wear_range() -> BandRange:
    from models.provenance import param

    p = param("lifetime.wear_efficiency")
    return BandRange("lifetime.wear_efficiency", "wear-leveling efficiency", float(p.value), float(p.provenance.low),
                     float(p.provenance.high), p.kind, "high")


def _endurance_range(dev) -> BandRange | None:
    """The device's endurance [writes per cell] as its economics holds it, ranged by its provenance kind."""
    from models.planner.economics import device_endurance
    from models.provenance import param
    from models.uncertainty import device_value_range

    e = device_endurance(dev)
    if not math.isfinite(e):
        return None
    if dev.endurance_writes_per_cell is not None:
        lo, hi, kind = device_value_range(dev, "endurance_writes_per_cell")
    else:
        lo, hi, kind = device_value_range(dev, "endurance_DWPD")
        k = 365.0 * float(param("planner.dwpd_rating_years").value)
        lo, hi = lo * k, hi * k
    return BandRange(f"device:{dev.name}.endurance", f"{dev.name} endurance", e, lo, hi, kind, "high")


def _price_range(dev) -> BandRange | None:
    """The baseline's price [USD/GB] over its published range (the point: the middle the plan uses)."""
    p = dev.price_usd_per_GB
    if p is None:
        return None
    lo = float(dev.price_usd_per_GB_low)
    hi = float(dev.price_usd_per_GB_high if dev.price_usd_per_GB_high is not None else lo)
    kind = dev.value_kind("price_usd_per_GB_low")
    return BandRange(f"baseline:{dev.name}.price_usd_per_GB", f"baseline {dev.name} price", float(p), lo, hi, kind,
                     "high")


def band_ranges(rt, spec: str | Sequence[str]) -> list[BandRange]:
    """The ranged inputs of the band of ``spec`` (or, for a frontier, the pair of axis specs) on row ``rt``
    (:class:`~models.planner.retime.Retimer`): the held performance specs of the device and the baseline's, and
    the economics inputs of an endurance or price spec (module docstring)."""
    specs = (spec,) if isinstance(spec, str) else tuple(spec)
    if specs == ("endurance_writes_per_cell",):  # the lifetime: capacity x endurance x efficiency / rate
        return [_wear_range()]
    out = _perf_ranges(rt, set(specs))
    if "endurance_writes_per_cell" in specs or "price_usd_per_GB" in specs:
        out.append(_wear_range())
    if "price_usd_per_GB" in specs:
        e = _endurance_range(rt.device) if "endurance_writes_per_cell" not in specs else None
        p = _price_range(rt.baseline) if rt.baseline is not None else None
        out += [r for r in (e, p) if r is not None]
    return out


def _num(row: dict, col: str) -> float:
    v = row.get(col, math.nan)
    return math.nan if v is None else float(v)


@dataclass(frozen=True)
class Corner:
    """One corner of the ranges: the row re-timed with its device at the corner, the target speedup the baseline's
    corner sets, the plan row's economics at the corner and its wear-leveling efficiency."""

    rt: object
    target: float
    plan_row: dict | None
    wear_efficiency: float | None
    moved_favourably: bool


def corner_case(rt, ranges: Sequence[BandRange], side: str, *, target: float = 1.0, plan_row: dict | None = None,
                horizon_years: float | None = None, factor: float | None = None) -> Corner:
    """Row ``rt`` with every input of ``ranges`` at its ``side`` end (``"favourable"`` / ``"unfavourable"``).

    The device's specs move its profile; the baseline's specs scale the target (``target x values([baseline
    variant])``, or ``factor`` when the caller evaluated it); the economics inputs rescale the plan row's ``cost_per_work_vs_baseline`` (by the baseline's price
    and replacements' ratio and the value at the corner), ``replacements`` and ``value``.
    """
    from models.planner.economics import replacements, role_lifetime_years
    from models.provenance import param

    at = {r.name: r.end(side) for r in ranges}
    dev_up = {r.name.rpartition(".")[2]: at[r.name] for r in ranges
              if r.name.startswith(f"device:{rt.device.name}.") and r.name.rpartition(".")[2] in PERF_COLUMNS}
    base_up = {r.name.rpartition(".")[2]: at[r.name] for r in ranges
               if rt.baseline is not None and r.name.startswith(f"baseline:{rt.baseline.name}.")
               and r.name.rpartition(".")[2] in PERF_COLUMNS}
    dev = rt.device.with_updates(**dev_up) if dev_up else rt.device
    rt_c = dataclasses.replace(rt, device=dev) if dev_up else rt
    if factor is None:
        factor = float(rt.value(rt.baseline.with_updates(**base_up))) if base_up else 1.0
    eta = at.get("lifetime.wear_efficiency")
    row = None
    moved = True
    if plan_row is not None:
        row = dict(plan_row)
        v0 = _num(plan_row, "value")
        v = v0
        if dev_up or base_up:
            v = (float(rt_c.value(dev)) if not rt.why_not else v0) / factor
        moved = (v >= v0) if side == "favourable" else (v <= v0)
        scale = v0 / v if v > 0 else math.nan
        h = float(param("planner.horizon_years").value) if horizon_years is None else float(horizon_years)
        n0 = _num(plan_row, "replacements")
        cap, rate = _num(plan_row, "capacity_GB"), _num(plan_row, "bytes_written_per_s")
        end_name = f"device:{rt.device.name}.endurance"
        if (end_name in at or eta is not None) and math.isfinite(n0) and math.isfinite(cap) and math.isfinite(rate):
            from models.planner.economics import device_endurance

            e = at.get(end_name, device_endurance(rt.device))
            life = float(role_lifetime_years(cap, e, rate, wear_efficiency=eta))
            n = float(replacements(life, h))
            if math.isfinite(n):
                scale *= (1.0 + n) / (1.0 + n0)
                row.update(replacements=n, lifetime_years=life)
        pname = f"baseline:{rt.baseline.name}.price_usd_per_GB" if rt.baseline is not None else ""
        if pname in at:
            point = next(r.point for r in ranges if r.name == pname)
            scale *= point / at[pname]
        row.update(value=v, cost_per_work_vs_baseline=_num(plan_row, "cost_per_work_vs_baseline") * scale)
    return Corner(rt_c, float(target) * factor, row, eta, moved)


def _illinois(f, a, b, fa, fb, tol):
    """Roots of ``f`` (vectorised over cases) in brackets ``[a, b]`` with ``fa * fb < 0``: regula falsi with the
    Illinois halving, until a bracket is narrower than ``tol`` or ``f`` is 0."""
    a, b, fa, fb = (np.array(x, dtype=float) for x in (a, b, fa, fb))
    c = (a + b) / 2
    side = np.zeros(len(a), int)
    todo = np.ones(len(a), bool)
    for _ in range(_MAX_ITER):
        todo &= np.abs(b - a) > tol
        if not todo.any():
            break
        idx = np.nonzero(todo)[0]
        c[idx] = (a[idx] * fb[idx] - b[idx] * fa[idx]) / (fb[idx] - fa[idx])
        fc = np.asarray(f(idx, c[idx]), dtype=float)
        for k, i in enumerate(idx):
            if fc[k] == 0:
                a[i] = b[i] = c[i]
                continue
            if np.sign(fc[k]) == np.sign(fb[i]):
                b[i], fb[i] = c[i], fc[k]
                if side[i] == -1:
                    fa[i] /= 2
                side[i] = -1
            else:
                a[i], fa[i] = c[i], fc[k]
                if side[i] == 1:
                    fb[i] /= 2
                side[i] = 1
    return np.where(np.abs(b - a) <= tol, (a + b) / 2, c)


def _corner_roots(spec: str, corners: Sequence[Corner], x0: float, lo: float,
                  hi: float) -> tuple[list[float], np.ndarray]:
    """The break-even of ``spec`` at each corner, searched from the point's ``x0`` within ``[lo, hi]`` (NaN: no
    crossing in the range), both corners evaluated in one ``values`` call per step; and each corner's
    ``log(value / target)`` at ``x0`` (>= 0 at the favourable corner, <= 0 at the other when monotone)."""
    from models.planner.spec_roots import LOG10_XTOL, SPECS

    want = -1.0 if SPECS[spec][1] == "<=" else 1.0  # sign of d value / d spec
    rt = corners[0].rt
    targets = np.array([c.target for c in corners])

    def g(idx, u):
        vs = [corners[i].rt.device.with_updates(**{spec: float(10.0 ** x)}) for i, x in zip(idx, u)]
        # every corner's device is a variant of the same device: one call re-times them all
        vals = np.asarray(rt.values(vs), dtype=float)
        return np.log(np.maximum(vals, 1e-300) / targets[idx])

    n = len(corners)
    u0 = math.log10(x0)
    ulo, uhi = math.log10(lo), math.log10(hi)
    both = np.concatenate([np.arange(n), np.arange(n)])
    p = _PROBE if u0 + _PROBE <= uhi else -_PROBE
    gg = g(both, np.concatenate([np.full(n, u0), np.full(n, u0 + p)]))  # each corner at x0 and a probe beside it
    g0, g1 = gg[:n], gg[n:]
    seen = [[(u0, g0[i]), (u0 + p, g1[i])] for i in range(n)]
    # Newton step from each corner's own slope, then one call on both sides of the guess: usually a bracket
    slope = (g1 - g0) / p
    ok = (slope * want > 0) & (g0 != 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        u1 = np.where(ok, u0 - g0 / np.where(ok, slope, 1.0), u0 + np.where(g0 * want < 0, _STEP, -_STEP))
    m = 0.25 * np.abs(u1 - u0) + _PROBE
    ends = np.clip(np.concatenate([u1 - m, u1 + m]), ulo, uhi)
    ge = g(both, ends)
    for k, i in enumerate(both):
        seen[i].append((float(ends[k]), float(ge[k])))
    a, b = np.full(n, u0), np.full(n, u0)
    fa, fb = g0.copy(), g0.copy()
    found = g0 == 0
    live = ~found
    step = np.where(g0 * want < 0, _STEP, -_STEP)  # value above target where it falls with the spec: root above
    for i in np.nonzero(live)[0]:
        pts = sorted(seen[i])
        us, gs = np.array([q[0] for q in pts]), np.array([q[1] for q in pts])
        ch = np.nonzero(np.sign(gs[:-1]) != np.sign(gs[1:]))[0]
        if len(ch):  # the bracket nearest the guess
            j = ch[np.argmin(np.abs((us[ch] + us[ch + 1]) / 2 - u1[i]))]
            a[i], fa[i], b[i], fb[i] = us[j], gs[j], us[j + 1], gs[j + 1]
            live[i] = False
        else:  # no crossing yet: expand from the farthest point in the root's direction
            j = int(np.argmax(us)) if step[i] > 0 else int(np.argmin(us))
            a[i] = b[i] = us[j]
            fa[i] = fb[i] = gs[j]
    width = np.full(n, _STEP)
    while live.any():
        idx = np.nonzero(live)[0]
        un = np.clip(b[idx] + step[idx] * width[idx] / _STEP, ulo, uhi)
        at_end = (un == b[idx])
        gn = g(idx, un)
        for k, i in enumerate(idx):
            if at_end[k]:
                live[i] = False
                continue
            a[i], fa[i] = b[i], fb[i]
            b[i], fb[i] = un[k], gn[k]
            if np.sign(gn[k]) != np.sign(fa[i]) or gn[k] == 0:
                live[i] = False
            width[i] *= 2
    out = [math.nan] * n
    cross = np.nonzero(~found & (np.sign(fa) != np.sign(fb)) & (fa != 0) & (fb != 0))[0]
    exact = np.nonzero(~found & (fb == 0))[0]
    for i in np.nonzero(found)[0]:
        out[i] = x0
    for i in exact:
        out[i] = 10.0 ** b[i]
    if len(cross):
        lo_u, hi_u = np.minimum(a[cross], b[cross]), np.maximum(a[cross], b[cross])
        flo = np.where(a[cross] <= b[cross], fa[cross], fb[cross])
        fhi = np.where(a[cross] <= b[cross], fb[cross], fa[cross])
        r = _illinois(lambda idx, u: g(cross[idx], u), lo_u, hi_u, flo, fhi, LOG10_XTOL)
        for k, i in enumerate(cross):
            out[i] = 10.0 ** r[k]
    return out, g0


def _method(ranges: Sequence[BandRange], held: str, notes: list[str]) -> str:
    ranged = [r for r in ranges if r.low != r.high]
    if not ranged:
        return ("no range: every ranged input is exact (" + "; ".join(r.words() for r in ranges) + "): band = the point"
                + (f"; {held}" if held else ""))
    head = "corners of the provenance ranges (all favouring the device / all not): "
    return head + "; ".join(r.words() for r in ranged) + (f"; {held}" if held else "") + "".join(
        f"; {n}" for n in notes)


def _base_factors(rt, ranges: Sequence[BandRange], sides) -> list[float]:
    """``values([baseline at each side])`` in one call (1 where no baseline spec is ranged)."""
    ups = [{r.name.rpartition(".")[2]: r.end(s) for r in ranges
            if rt.baseline is not None and r.name.startswith(f"baseline:{rt.baseline.name}.")
            and r.name.rpartition(".")[2] in PERF_COLUMNS} for s in sides]
    if not any(ups):
        return [1.0] * len(sides)
    key = tuple(tuple(sorted(u.items())) for u in ups)
    memo = _FACTORS.setdefault(rt, {})
    if key not in memo:  # the same baseline corners for every spec of a row: one call per row
        memo[key] = [float(x) for x in np.asarray(rt.values([rt.baseline.with_updates(**u) for u in ups]), dtype=float)]
    return list(memo[key])


def target_band(rt, spec: str, point: float, *, target: float = 1.0, plan_row: dict | None = None,
                horizon_years: float | None = None, ranges: Sequence[BandRange] | None = None) -> dict:
    """``break_even_low, break_even_high, band_method`` of one break-even.

    Parameters
    ----------
    rt : Retimer
        The row (:func:`models.planner.retime.role_retimers`).
    spec : str
        A key of :data:`models.planner.targets.SPECS`.
    point : float
        The row's break-even of ``spec`` [the spec's unit] (NaN: none; the band is then unknown).
    target : float, keyword-only
        The speedup [x] the break-even solves for.
    plan_row : dict or None, keyword-only
        The plan's row with its economics columns (the endurance and price bands need it).
    horizon_years : float or None, keyword-only
        The planning horizon [years] (None: ``planner.horizon_years``).
    ranges : sequence of BandRange or None, keyword-only
        The ranged inputs (None: :func:`band_ranges`; :func:`collapsed` ranges give the point).

    Returns
    -------
    dict
        :data:`BAND_COLUMNS`: the band's ends [the spec's unit] (they contain ``point``) and how it was found.

    Examples
    --------
    >>> from models.planner.retime import Retimer
    >>> from models.devices import get_device
    >>> d = get_device("pcm-memext")
    >>> rt = Retimer("w", "demo", d, lambda vs: np.array([1000.0 / v.write_latency_ns for v in vs]),
    ...              ("write_latency_ns",))
    >>> target_band(rt, "write_latency_ns", 1000.0)["band_method"][:11]
    'not sampled'
    """
    from models.planner.spec_roots import PERFORMANCE_SPECS, economic_break_even, spec_range

    nan = math.nan
    if ranges is None:
        ranges = band_ranges(rt, spec)
    held = "held: capacity, write rate, horizon" + ("" if spec == "endurance_writes_per_cell" else
                                                     ", the role's model parameters")
    if spec in PERFORMANCE_SPECS:
        held = "held: the role's model parameters"
    if not math.isfinite(point):
        return {"break_even_low": nan, "break_even_high": nan, "band_method": "unknown: no break-even to band"}
    if not ranges:
        why = ("not sampled: no held input of this row has a provenance range"
               + (f" (not modelled: {rt.why_not})" if rt.why_not else "")
               + (" and its baseline is not re-timed by the role's timing" if rt.baseline is not None
                  and not _retimes_baseline(rt) else ""))
        return {"break_even_low": nan, "break_even_high": nan, "band_method": why}
    if all(r.low == r.high for r in ranges):
        return {"break_even_low": float(point), "break_even_high": float(point),
                "band_method": _method(ranges, held, [])}
    sides = ("favourable", "unfavourable")
    factors = _base_factors(rt, ranges, sides)
    perf = spec in PERFORMANCE_SPECS
    corners = [corner_case(rt, ranges, s, target=target, plan_row=None if perf else plan_row,
                           horizon_years=horizon_years, factor=f) for s, f in zip(sides, factors)]
    notes = []
    if spec in PERFORMANCE_SPECS:
        lo, hi = spec_range(spec, rt.device)[:2]
        xs, g0 = _corner_roots(spec, corners, float(point), min(lo, point), max(hi, point))
        if g0[0] < -1e-9 or g0[-1] > 1e-9:
            notes.append("not monotone: at the point's break-even a corner's value moved against its side")
    else:
        from models.provenance import param

        h = float(param("planner.horizon_years").value) if horizon_years is None else float(horizon_years)
        xs = [economic_break_even(c.plan_row or {}, rt.device, spec, horizon_years=h,
                                  wear_efficiency=c.wear_efficiency)[0] for c in corners]
        if any(not c.moved_favourably for c in corners):
            notes.append("not monotone: a corner's performance moved against its side")
    if any(not math.isfinite(x) for x in xs):
        notes.append("one end has no break-even in the range (NaN at that end: "
                     + " and ".join(s for s, x in zip(("favourable", "unfavourable"), xs) if not math.isfinite(x))
                     + ")")
    ends = [float(point)] + [x for x in xs if math.isfinite(x)]
    low = min(ends) if all(math.isfinite(x) for x in xs) or spec_down_ok(spec, xs, "low") else nan
    high = max(ends) if all(math.isfinite(x) for x in xs) or spec_down_ok(spec, xs, "high") else nan
    return {"break_even_low": low, "break_even_high": high, "band_method": _method(ranges, held, notes)}


def spec_down_ok(spec: str, xs: Sequence[float], end: str) -> bool:
    """Whether the ``end`` (``"low"`` / ``"high"``) of a band is known when a corner has no break-even in the range:
    the favourable corner lies beyond the point on the winning side (``>=`` for a ``<=`` spec), the unfavourable on
    the other; the end on the side of a missing corner is unknown.

    >>> spec_down_ok("write_latency_ns", [float("nan"), 10.0], "low"), spec_down_ok("write_latency_ns", [float("nan"), 10.0], "high")
    (True, False)
    """
    from models.planner.spec_roots import SPECS

    fav_missing, unfav_missing = (not math.isfinite(xs[0])), (not math.isfinite(xs[1]))
    le = SPECS[spec][1] == "<="
    # a '<=' spec: the favourable corner gives the high end, the unfavourable the low end (reverse for '>=')
    fav_end = "high" if le else "low"
    if end == fav_end:
        return not fav_missing
    return not unfav_missing


def frontier_band(rt, spec_x: str, spec_y: str, xs, ys, *, target: float = 1.0, plan_row: dict | None = None,
                  horizon_years: float | None = None, ranges: Sequence[BandRange] | None = None):
    """The frontier (:func:`models.planner.targets.frontier_grid`) at the two corners of the provenance ranges of
    the inputs held on it (:func:`band_ranges` of the axis pair): ``(favourable grid, unfavourable grid, words)``,
    or None when no held input has a range (the chart then has no band).

    The region between the two grids' boundaries is where the answer depends on where the held inputs really lie
    within their ranges.
    """
    from models.planner.spec_roots import frontier_grid

    if ranges is None:
        ranges = band_ranges(rt, (spec_x, spec_y))
    ranged = [r for r in ranges if r.low != r.high]
    if not ranged:
        return None
    sides = ("favourable", "unfavourable")
    econ = any(s in ("price_usd_per_GB", "endurance_writes_per_cell") for s in (spec_x, spec_y))
    grids = []
    for side, f in zip(sides, _base_factors(rt, ranges, sides)):
        c = corner_case(rt, ranges, side, target=target, plan_row=plan_row if econ else None,
                        horizon_years=horizon_years, factor=f)
        grids.append(frontier_grid(c.rt, spec_x, spec_y, xs, ys, target=c.target,
                                   plan_row=c.plan_row if econ else plan_row, horizon_years=horizon_years,
                                   wear_efficiency=c.wear_efficiency))
    return grids[0], grids[1], "; ".join(r.words() for r in ranged)
