"""The economics of a plan row: capacity, cost, lifetime under the workload and the economic verdict (issue 37).

Each role evaluator reports what its own simulation already gives (:func:`role_usage`): the capacity the
role uses on the device [bytes] and the bytes the device absorbs in it per second of the workload's
duration (the trace's own span for block traces; the modelled run time for memory traces, which carry no
timestamps). From those, with the device's price and endurance, the small vectorised functions below give

- :func:`role_capacity_GB`: the capacity [GB, 1e9 bytes], rounded up to whole modules/drives of
  :func:`module_size` (the user's module size, else the device's smallest product, catalogue ``module_GB``; a
  real device is bought whole and wear-levels its writes over all of it), the exact capacity when neither is known;
- :func:`role_lifetime_years`: years until the capacity wears out under the workload's write rate
  (:func:`models.endurance.lifetime.lifetime_years`: capacity x endurance x wear-leveling efficiency / rate,
  ``lifetime.wear_efficiency`` our wear model's simulated 0.58); never wears out without writes (inf), unknown
  (NaN) when the rate or the endurance is unknown;
- :func:`replacements`: replacements of the capacity within the planning horizon (``planner.horizon_years``);
- :func:`role_cost_usd`: capacity x price x (1 + replacements) [USD];
- :func:`cost_per_work_ratio`: cost per unit of work of the device over the baseline's, ``(cost / cost_base) /
  value`` (value = baseline time / device time: the work each does per unit of time) [x]; > 1: the device costs
  more per unit of work;
- :func:`economic_verdict`: the two verdicts in plain words ("wins on speed and on cost", "faster but 3.1x the
  cost per unit of work", "... wears out in 7 months").

:data:`ECON_COLUMNS` are the plan's columns these fill (:func:`economics_columns`), after its existing ones.
"""

from __future__ import annotations

import math
import re

import numpy as np

from models.provenance import param

__all__ = ["ECON_COLUMNS", "GB", "role_capacity_GB", "role_lifetime_years", "replacements", "role_cost_usd",
           "cost_per_work_ratio", "economic_verdict", "device_endurance", "role_usage", "economics_columns",
           "lifetime_words", "short_life_words", "usd_words", "block_trace_writes", "writes_with_duration",
           "footprint_bytes", "module_size", "capacity_words"]

#: The economics columns of a plan, after ``PLAN_COLUMNS + BAND_COLUMNS + TRACE_COLUMNS`` (a CSV contract).
ECON_COLUMNS = ["capacity_GB", "price_usd_per_GB", "cost_usd", "bytes_written_per_s", "lifetime_years",
                "replacements", "cost_per_work_vs_baseline", "economic_verdict", "economic_reason"]
#: Decimal gigabyte, the unit prices are quoted in [bytes].
GB = 1e9
#: Months in a year (lifetimes in words) [-].
MONTHS_PER_YEAR = 12.0


def role_capacity_GB(capacity_bytes, module_GB=None):
    """Capacity a role uses [GB, 1e9 bytes], rounded up to whole modules of ``module_GB`` [GB] when given.

    >>> role_capacity_GB([64e6, 3e9]).tolist(), role_capacity_GB([64e6, 3e9], module_GB=128).tolist()
    ([0.064, 3.0], [128.0, 128.0])
    """
    c = np.asarray(capacity_bytes, dtype=float) / GB
    if module_GB is None:
        return c
    m = float(module_GB)
    if not m > 0:
        raise ValueError(f"module size must be > 0 GB (got {module_GB!r})")
    return np.where(c > 0, np.ceil(c / m) * m, c)


def device_endurance(dev) -> float:
    """Writes per cell a device's capacity takes before wear-out [writes per cell]: its catalogue value, else its
    rated drive writes per day x 365 days x ``planner.dwpd_rating_years`` (a full-drive write writes every cell
    once: write amplification 1); inf for DRAM and HDDs (no write-cycle wear: a DRAM cell or a magnetic track
    does not wear out by being written); NaN when not known.

    >>> from models.devices import get_device
    >>> device_endurance(get_device("pcm-memext")), device_endurance(get_device("dram"))
    (10000000.0, inf)
    >>> round(device_endurance(get_device("optane-dcpmm")))  # 770.5 DWPD over 5 years
    1406162
    >>> math.isnan(device_endurance(get_device("pcm-memext").with_updates(endurance_writes_per_cell=None)))
    True
    """
    if dev.endurance_writes_per_cell is not None:
        return float(dev.endurance_writes_per_cell)
    if dev.endurance_DWPD is not None:
        return float(dev.endurance_DWPD) * 365.0 * float(param("planner.dwpd_rating_years").value)
    return math.inf if dev.kind in ("dram", "hdd") else math.nan


def role_lifetime_years(capacity_GB, endurance_writes_per_cell, bytes_written_per_s, *, wear_efficiency=None):
    """Years until a role's capacity wears out under the workload [years]: the lifetime model's one equation
    (:func:`models.endurance.lifetime.lifetime_years`, capacity x endurance x ``wear_efficiency`` / rate).

    No writes (rate 0): inf, it never wears out; an unknown rate, endurance or capacity (NaN): NaN, unknown --
    never 0. ``wear_efficiency`` [-] defaults to ``lifetime.wear_efficiency`` (simulated).

    >>> role_lifetime_years([16.0, 16.0, 16.0], 1e7, [1e9, 0.0, np.nan], wear_efficiency=1.0).round(2).tolist()
    [5.07, inf, nan]
    """
    from models.endurance.lifetime import lifetime_years

    eta = float(param("lifetime.wear_efficiency").value) if wear_efficiency is None else wear_efficiency
    c, e, w = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in
                                    (capacity_GB, endurance_writes_per_cell, bytes_written_per_s)))
    ok = (c > 0) & (w > 0) & (e > 0)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        years = lifetime_years(np.where(ok, c * GB, 1.0), np.where(ok, e, 1.0), np.where(ok, w, 1.0),
                               wear_efficiency=eta, check=False)
    out = np.where(ok, years, np.nan)
    return np.where(w == 0, np.inf, out)


def replacements(lifetime_years, horizon_years=None):
    """Replacements of the capacity within the horizon [-]: ``ceil(horizon / lifetime) - 1`` (0 when it outlives
    the horizon; NaN when the lifetime is unknown). ``horizon_years`` defaults to ``planner.horizon_years``.

    >>> replacements([10.0, 5.0, 0.6, np.inf, np.nan], 5.0).tolist()
    [0.0, 0.0, 8.0, 0.0, nan]
    """
    h = float(param("planner.horizon_years").value) if horizon_years is None else float(horizon_years)
    if not h > 0:
        raise ValueError(f"horizon must be > 0 years (got {horizon_years!r})")
    life = np.asarray(lifetime_years, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        n = np.maximum(np.ceil(h / life) - 1.0, 0.0)
    return np.where(np.isnan(life), np.nan, np.where(np.isinf(life), 0.0, n))


def role_cost_usd(capacity_GB, price_usd_per_GB, n_replacements=0.0):
    """Cost of a role's capacity over the horizon [USD]: capacity x price x (1 + replacements); NaN without a price.

    >>> role_cost_usd([1.0, 2.0], 10.0, [0.0, 1.0]).tolist()
    [10.0, 40.0]
    """
    c, p, r = (np.asarray(x, dtype=float) for x in (capacity_GB, price_usd_per_GB, n_replacements))
    return c * p * (1.0 + r)


def cost_per_work_ratio(cost_usd, base_cost_usd, value):
    """Cost per unit of work of the device over the baseline's [x]: ``(cost / base_cost) / value`` with ``value``
    the row's baseline time / device time; > 1: the device costs more per unit of work. NaN when either cost is
    unknown or the baseline costs nothing (no device to compare with).

    >>> cost_per_work_ratio([40.0, 10.0], 10.0, [2.0, 4.0]).tolist()
    [2.0, 0.25]
    """
    c, b, v = (np.asarray(x, dtype=float) for x in (cost_usd, base_cost_usd, value))
    ok = (b > 0) & (v > 0) & np.isfinite(c) & np.isfinite(v)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ok, c / np.where(ok, b, 1.0) / np.where(ok, v, 1.0), np.nan)


def lifetime_words(years: float) -> str:
    """A lifetime in words.

    >>> lifetime_words(0.55), lifetime_words(3.2), lifetime_words(float("inf")), lifetime_words(float("nan"))
    ('7 months', '3.2 years', 'never (no writes)', 'unknown')
    >>> lifetime_words(0.074 / 24 / 365.25), lifetime_words(0.5 / 3600 / 24 / 365.25), lifetime_words(0.1)
    ('4.4 minutes', '0.5 seconds', '1 month')
    """
    if math.isnan(years):
        return "unknown"
    if math.isinf(years):
        return "never (no writes)"
    if years < 1 / MONTHS_PER_YEAR:
        days = years * 365.25
        if days >= 1:
            return f"{days:.2g} days"
        hours = days * 24
        if hours >= 1:
            return f"{hours:.2g} hours"
        return f"{hours * 60:.2g} minutes" if hours * 60 >= 1 else f"{hours * 3600:.2g} seconds"
    if years < 1:
        months = round(years * MONTHS_PER_YEAR)
        return f"{months:g} month{'s' if months != 1 else ''}"
    return f"{years:.3g} years"


def economic_verdict(value, ratio, lifetime_years, horizon_years=None, *, tie=False):
    """The row's performance and cost verdicts in plain words (vectorised over rows).

    ``value`` baseline / device time [x], ``ratio`` :func:`cost_per_work_ratio` [x], ``lifetime_years`` of the
    device in the role, ``tie``: the performance verdict is "about the same". A lifetime shorter than the horizon
    adds "wears out in ...".

    >>> economic_verdict([2.0, 2.0, 0.5], [0.5, 3.1, 0.4], [np.inf, 0.55, 20.0], 5.0).tolist()
    ['wins on speed and on cost', 'faster but 3.1× the cost per unit of work; wears out in 7 months', 'slower but 0.4× the cost per unit of work']
    >>> economic_verdict(2.0, 312.3, 0.0129, 5.0).item()
    'faster but 312× the cost per unit of work; wears out in 4.7 days'
    >>> economic_verdict(2.0, 0.5, np.nan, 5.0).item()
    'wins on speed and on cost; lifetime unknown'

    An unknown lifetime (a device without a published endurance) leaves the cost without replacements: the verdict
    says so.
    """
    h = float(param("planner.horizon_years").value) if horizon_years is None else float(horizon_years)
    v, r, life = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (value, ratio, lifetime_years)))
    t = np.broadcast_to(np.asarray(tie, dtype=bool), v.shape)
    out = []
    for vi, ri, li, ti in zip(v.ravel(), r.ravel(), life.ravel(), t.ravel()):
        rs = f"{ri:,.0f}×" if ri >= 100 else f"{ri:.2g}×"
        if math.isnan(ri):
            s = "cost per unit of work unknown"
        elif ti:
            s = f"about as fast, {rs} the cost per unit of work"
        elif vi > 1 and ri <= 1:
            s = "wins on speed and on cost"
        elif vi > 1:
            s = f"faster but {rs} the cost per unit of work"
        elif ri < 1:
            s = f"slower but {rs} the cost per unit of work"
        else:
            s = "loses on speed and on cost"
        if li < h:
            s += f"; wears out in {lifetime_words(li)}"
        elif math.isnan(li):
            s += "; lifetime unknown"
        out.append(s)
    return np.array(out, dtype=object).reshape(v.shape)


def role_usage(capacity_bytes: float, bytes_written: float, duration_s: float, how: str,
               base_bytes_written: float | None = None, base_duration_s: float | None = None,
               base_capacity_bytes: float | None = None) -> dict:
    """What a role evaluator reports for the economics of one row: the capacity the role uses on the device
    [bytes], the bytes it absorbs in the workload's duration [bytes] over that duration [s] (NaN: unknown, e.g. a
    trace without timestamps), how the duration was taken (stated in the reason), and the same for the baseline
    (defaults: the device's figures; a baseline capacity of 0: no device, e.g. no cache)."""
    return {"capacity_bytes": float(capacity_bytes), "bytes_written": float(bytes_written),
            "duration_s": float(duration_s), "how": how,
            "base_capacity_bytes": float(capacity_bytes if base_capacity_bytes is None else base_capacity_bytes),
            "base_bytes_written": float(bytes_written if base_bytes_written is None else base_bytes_written),
            "base_duration_s": float(duration_s if base_duration_s is None else base_duration_s)}


def block_trace_writes(tr) -> tuple[float, float, str]:
    """The bytes a block trace writes [bytes] (NaN when its format has no read/write field), its own duration
    [s] (last minus first arrival; NaN without timestamps) and that duration in words.

    >>> from models.traces import BlockTrace
    >>> block_trace_writes(BlockTrace([0, 2_000_000_000], [True, False], [0, 4096], [4096, 4096], [0, 0]))
    (4096.0, 2.0, "the trace's own 2 s")
    """
    n = len(tr)
    written = float(np.asarray(tr.size_bytes, float)[np.asarray(tr.is_write, bool)].sum()) if n else 0.0
    if not getattr(tr, "op_known", True):
        written = math.nan
    t = np.asarray(tr.time_ns)
    return writes_with_duration(written, float(t.max() - t.min()) / 1e9 if n else 0.0)


def writes_with_duration(written: float, dur: float) -> tuple[float, float, str]:
    """:func:`block_trace_writes` from the bytes written [bytes] and the last minus first arrival [s] (a trace
    taken in chunks counts them as it goes): NaN and "duration unknown" when the span is not positive.

    >>> writes_with_duration(4096.0, 0.0)
    (4096.0, nan, 'a trace without timestamps: duration unknown')
    """
    if not dur > 0:
        return written, math.nan, "a trace without timestamps: duration unknown"
    return written, dur, f"the trace's own {dur:.3g} s"


def footprint_bytes(block_ids, block_size: int = 4096) -> float:
    """Distinct blocks x block size [bytes]: the data set a block trace touches.

    >>> footprint_bytes(np.array([1, 2, 2, 7]))
    12288.0
    """
    return float(len(np.unique(np.asarray(block_ids)))) * block_size


def _rate(written: float, duration_s: float) -> float:
    """Bytes per second [B/s]: 0 without writes, NaN without a duration."""
    if written == 0:
        return 0.0
    return written / duration_s if duration_s > 0 and math.isfinite(duration_s) else math.nan


def usd_words(x: float) -> str:
    """Dollars as a planner reads them: 4 significant digits, whole dollars with thousands separators from $10,000
    (never "1.954e+04").

    >>> usd_words(267.3), usd_words(4962.8), usd_words(19540.2), usd_words(0.001845)
    ('$267.3', '$4,963', '$19,540', '$0.001845')
    """
    if abs(x) >= 1e4:
        return f"${round(x, -int(math.floor(math.log10(abs(x)))) + 3):,.0f}"
    return f"${x:,.4g}"


def _price_words(dev) -> str:
    lo, hi = dev.price_usd_per_GB_low, dev.price_usd_per_GB_high
    rng = f"${lo:.3g}/GB" if hi is None or hi == lo else f"${lo:.3g}–{hi:.3g}/GB"
    return f"{rng}{', ' + dev.price_date if dev.price_date else ''}"


def short_life_words(lifetime_years: float, horizon_years: float, capacity_GB: float, module_GB=None) -> str:
    """Why a lifetime shorter than the horizon can read wrong to a planner, in words ("" when it outlives it):
    the trace's write rate is assumed sustained for the whole horizon, and without a module size the capacity is
    only the role's footprint on the trace, so the same writes wear few cells (a real device spreads them wider).

    >>> short_life_words(0.0126, 5.0, 0.0838)[:60]
    '. Why so short: the capacity is only what the role uses on t'
    >>> short_life_words(10.0, 5.0, 0.0838)
    ''
    """
    if not lifetime_years < horizon_years:
        return ""
    why = ". Why so short: "
    if not module_GB:
        why += (f"the capacity is only what the role uses on this trace ({capacity_GB:.3g} GB), not a device's size, "
                "so its writes land on that few cells (pick a module / drive size to spread them over whole devices: "
                "--module-gb, or 'Module / drive size [GB]' on the planner page); and ")
    return why + (f"the trace's write rate is taken as sustained for all {horizon_years:g} years (a short trace of a busy "
                  "period over-states a day's writes)")


def module_size(dev, module_GB=None) -> float | None:
    """The module/drive size a device's capacity is bought in [GB]: the user's ``module_GB`` when given, else the
    device's smallest product (catalogue ``module_GB``), else None (not known: the role's exact capacity).

    >>> from models.devices import get_device
    >>> module_size(get_device("optane-dcpmm")), module_size(get_device("optane-dcpmm"), 16), module_size(get_device("pcm-memext"))
    (128.0, 16.0, None)
    """
    if module_GB:
        return float(module_GB)
    m = getattr(dev, "module_GB", None)
    return None if m is None else float(m)


def capacity_words(cap_GB: float, dev, module_GB=None, *, exact_why: str | None = None) -> str:
    """The capacity a row prices, in words, saying which size it was rounded to: the user's module size, the
    device's product (its catalogue ``module_GB``: "1 × 128 GB module (smallest Intel Optane DC PMM product)"),
    or the role's exact capacity on the trace (``exact_why``: why it is not rounded; default: no product size).

    >>> from models.devices import get_device
    >>> capacity_words(128.0, get_device("optane-dcpmm"))
    '1 × 128 GB module (smallest Intel Optane DC PMM product)'
    >>> capacity_words(256.0, get_device("optane-dcpmm"), 128)
    '256 GB (whole 128 GB modules)'
    >>> capacity_words(0.0838, get_device("pcm-memext"))
    "0.0838 GB (the role's capacity on this trace: no product size known for pcm-memext)"
    """
    if module_GB:
        return f"{cap_GB:.3g} GB (whole {module_GB:g} GB modules)"
    m = module_size(dev)
    if m is None or exact_why is not None:
        return f"{cap_GB:.3g} GB (the role's capacity on this trace: {exact_why or f'no product size known for {dev.name}'})"
    n = cap_GB / m
    unit = "module" if dev.byte_addressable else "drive"
    short = re.sub(r"\s*\([^()]*\)$", "", dev.label or "").strip() or dev.name
    clause = next((c for c in dev.source.split(";") if c.strip().startswith(("module size", "drive size"))), "")
    what = f"smallest {short} product" if "smallest" in clause else f"{short} product size"
    return f"{n:,.0f} × {m:g} GB {unit}{'s' if n > 1 else ''} ({what})"


def _rounding(dev, base, no_base: bool, module_GB=None) -> tuple:
    """``(device module, baseline module, why exact)``: the sizes [GB] the device's and the baseline's capacities are
    rounded up to (None: exact) and, when not rounded, why. A user's ``module_GB`` rounds both; else each is bought
    as its own smallest product, but only when both sizes are known (a whole baseline product against a fraction
    of a device without a product size, or the reverse, would not compare like for like): then both stay exact.

    >>> from models.devices import get_device
    >>> _rounding(get_device("optane-dcpmm"), get_device("sata-ssd"), False)
    (128.0, 240.0, None)
    >>> _rounding(get_device("pcm-memext"), get_device("nand-flash"), False)[2]
    'no product size known for pcm-memext, so the baseline nand-flash is not rounded to its 1000 GB product either'
    """
    if module_GB:
        return float(module_GB), float(module_GB), None
    dm = module_size(dev)
    bm = None if no_base else module_size(base)
    if dm is not None and (no_base or bm is not None):
        return dm, bm, None
    if dm is None:
        why = f"no product size known for {dev.name}"
        if bm is not None:
            why += f", so the baseline {base.name} is not rounded to its {bm:g} GB product either"
    else:
        why = f"no product size known for the baseline {base.name}, so {dev.name} is not rounded to its {dm:g} GB product either"
    return None, None, why


def economics_columns(row: dict, dev, base, usage: dict | None, *, horizon_years=None, module_GB=None) -> dict:
    """The :data:`ECON_COLUMNS` of one plan row (``row`` has the performance columns) for device ``dev`` against
    ``base`` (a profile, or None: no device, e.g. no write cache), from the evaluator's ``usage``
    (:func:`role_usage`; None: the role did not run). "needs data: price" when a device has no price.

    Each capacity is rounded up to whole modules/drives (:func:`module_size`): the user's ``module_GB`` [GB] for
    both, else each device's own smallest product (catalogue ``module_GB``), else the role's exact capacity. Wear
    leveling spreads the writes over the whole module, so the lifetime is that of the rounded capacity."""
    h = float(param("planner.horizon_years").value) if horizon_years is None else float(horizon_years)
    nan = math.nan
    out = {"capacity_GB": nan, "price_usd_per_GB": nan, "cost_usd": nan, "bytes_written_per_s": nan,
           "lifetime_years": nan, "replacements": nan, "cost_per_work_vs_baseline": nan}
    price = dev.price_usd_per_GB
    out["price_usd_per_GB"] = nan if price is None else float(price)
    if usage is None or row["verdict"] not in ("wins", "about the same", "loses"):
        why = row["reason"] if row["verdict"] in ("not applicable", "needs data") else "no performance verdict"
        return {**out, "economic_verdict": row["verdict"] or "unknown", "economic_reason": why}
    no_base = base is None or usage["base_capacity_bytes"] == 0
    mod, bmod, exact_why = _rounding(dev, base, no_base, module_GB)
    cap = float(role_capacity_GB(usage["capacity_bytes"], mod))
    rate = _rate(usage["bytes_written"], usage["duration_s"])
    life = float(role_lifetime_years(cap, device_endurance(dev), rate))
    n = float(replacements(life, h))
    out.update(capacity_GB=cap, bytes_written_per_s=rate, lifetime_years=life, replacements=n)
    cap_s = capacity_words(cap, dev, module_GB, exact_why=exact_why)
    wear = (f"absorbs {rate / 1e6:.3g} MB/s over {usage['how']}" if math.isfinite(rate)
            else f"write rate unknown ({usage['how']})")
    life_s = (f"lifetime {lifetime_words(life)}" + (f" (endurance {device_endurance(dev):.3g} writes/cell x "
              f"wear-leveling {float(param('lifetime.wear_efficiency').value):.2f})" if math.isfinite(life) else "")
              + (f", {n:,.0f} replacement{'s' if n > 1 else ''} in {h:g} years" if n > 0 else ""))
    if math.isnan(life) and rate > 0 and math.isnan(device_endurance(dev)):
        life_s = "lifetime unknown (needs data: endurance)"
    if math.isinf(life) and rate > 0:  # DRAM, HDDs: written, but no write-cycle wear (not "no writes")
        life_s = f"no write-cycle wear ({dev.kind}): it does not wear out"
    if not math.isfinite(cap):
        return {**out, "economic_verdict": "unknown",
                "economic_reason": f"unknown: the role's capacity is not modelled ({usage['how']})"}
    if price is None:
        return {**out, "economic_verdict": "needs data",
                "economic_reason": f"needs data: price of {dev.name} ($/GB); {cap_s}, {wear}, {life_s}"}
    cost = float(role_cost_usd(cap, price, 0.0 if math.isnan(n) else n))
    out["cost_usd"] = cost
    base_s, base_cost = "", nan
    if base is None or usage["base_capacity_bytes"] == 0:
        base_s = "the baseline has no device to price (the role adds this cost)"
    elif base.price_usd_per_GB is None:
        base_s = f"needs data: price of the baseline {base.name}"
    else:
        bcap = float(role_capacity_GB(usage["base_capacity_bytes"], bmod))
        blife = float(role_lifetime_years(bcap, device_endurance(base),
                                          _rate(usage["base_bytes_written"], usage["base_duration_s"])))
        bn = float(replacements(blife, h))
        bcap_s = f"{bcap:.3g} GB, exact as the device's" if exact_why else capacity_words(bcap, base, module_GB)
        base_cost = float(role_cost_usd(bcap, base.price_usd_per_GB, 0.0 if math.isnan(bn) else bn))
        base_s = f"{base.name} {usd_words(base_cost)} ({bcap_s}, {_price_words(base)})"
        if bn > 0:  # a cheap baseline made dear by its own wear-out: say so, the ratio is read against it
            base_s += (f", of which {bn:,.0f} replacement{'s' if bn > 1 else ''} (its lifetime "
                       f"{lifetime_words(blife)} in the role)")
    ratio = float(cost_per_work_ratio(cost, base_cost, row["value"]))
    out["cost_per_work_vs_baseline"] = ratio
    verdict = economic_verdict(row["value"], ratio, life, h, tie=row["verdict"] == "about the same").item()
    if base is None or usage["base_capacity_bytes"] == 0:  # no device in the baseline: what the speed costs
        v = row["value"]
        speed = ("about as fast" if row["verdict"] == "about the same"
                 else f"{v:.3g}× faster" if v > 1 else f"{1 / v:.3g}× slower")
        verdict = f"{speed} for {usd_words(cost)}" + verdict.partition(";")[1] + verdict.partition(";")[2]
    reason = (f"{cap_s} at ${price:.3g}/GB ({_price_words(dev)}) = {usd_words(cost)} over {h:g} years; {wear}; {life_s}; "
              f"vs {base_s}") + short_life_words(life, h, cap, mod)
    return {**out, "economic_verdict": verdict, "economic_reason": reason}
