"""The economics of a library ranking's rows (issue 37): the plan's economic columns for ``pcm-planner rank``.

The ranking (:mod:`models.planner.rank`) evaluates fixed devices: PCM storage (``pcm-samsung-20nm``, the
Filebench model's ``pcm-dax`` configuration) against the page-cached HDD and SSD, a HALO PCM write cache in front of
the HDD (priced as the same PCM: the write-cache model's HDD time does not depend on the PCM device), and the PCM
memory extension (``pcm-memext``) against the Flash one. Each row whose value is a time ratio carries what its model
already computed (:func:`econ_context`: the device, the baseline, :func:`~models.planner.economics.role_usage` and
the baseline / device time ratio); :func:`economics_frame` turns it into the plan's
:data:`~models.planner.economics.ECON_COLUMNS` with :func:`~models.planner.economics.economics_columns`, the same
function and words as ``pcm-planner plan``. The research PCM devices have no price: their rows read
"needs data: price of ..." until the user prices them (``--price``). Rows whose value is not a time ratio (the
file-cache share of blocks, the memory-lifetime years) and rows without a number say why they have no economics.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from models.planner.economics import ECON_COLUMNS, economics_columns
from models.provenance import param

__all__ = ["RANK_DEVICES", "econ_context", "check_economics", "economics_frame"]

#: The catalogue devices a ranking compares (devices and baselines): the ones ``prices`` may name.
RANK_DEVICES = ("pcm-samsung-20nm", "pcm-memext", "hdd-7200", "sata-ssd", "nand-flash")
#: Why a ranked role without a time ratio has no economic verdict.
NO_TIME_RATIO = {
    "file-cache": "not applicable: the ranking's file-cache value is a share of blocks, not a time ratio to weigh a "
                  "cost against; pcm-planner plan --block-trace prices the file-cache role",
    "memory-lifetime": "not applicable: this row is the extension's lifetime itself; the memory-extension row of the "
                       "same trace carries its cost and economic verdict",
}


def econ_context(device: str, base: str | None, usage: dict, value: float, note: str = "") -> dict:
    """What a ranked row needs for its economics: the device and baseline names (None: no device, e.g. no write
    cache), the model's :func:`~models.planner.economics.role_usage`, the baseline / device time ratio [x] and a
    note put before the economic reason (e.g. which comparison the cost per work is read against)."""
    return {"device": device, "base": base, "usage": usage, "value": float(value), "note": note}


def check_economics(prices: dict | None, horizon_years, module_GB) -> dict:
    """The user's prices (device name -> USD per GB) checked; ValueError naming a device the ranking does not
    compare, a price that is not a number > 0, or a horizon / module size that is not a number > 0."""
    prices = dict(prices or {})
    for name, p in prices.items():
        if name not in RANK_DEVICES:
            raise ValueError(f"prices: {name!r} is not a device of the ranking ({', '.join(RANK_DEVICES)})")
        if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)) or not math.isfinite(p) \
                or p <= 0:
            raise ValueError(f"prices: the price of {name} must be a number > 0 [USD per GB], got {p!r}")
    for label, x in (("horizon_years (planning horizon)", horizon_years), ("module_GB (module size)", module_GB)):
        if x is not None and (isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating))
                              or not math.isfinite(x) or x <= 0):
            raise ValueError(f"{label} must be a number > 0, got {x!r}")
    return prices


def _verdict(value: float) -> str:
    return "wins" if value > 1 else "loses" if value < 1 else "about the same"


def economics_frame(rows: list[dict], *, prices: dict | None = None, horizon_years=None,
                    module_GB=None) -> pd.DataFrame:
    """The :data:`ECON_COLUMNS` of each ranked row (same order; a row's ``_econ`` is its :func:`econ_context`).

    >>> from models.planner.economics import role_usage
    >>> ctx = econ_context("pcm-samsung-20nm", "hdd-7200", role_usage(1e9, 0.0, 1.0, "a test"), 4.0)
    >>> df = economics_frame([{"role": "storage-vs-hdd", "status": "ok", "reason": "", "_econ": ctx}])
    >>> df.economic_verdict[0], df.economic_reason[0][:42]
    ('needs data', 'needs data: price of pcm-samsung-20nm ($/G')
    >>> df = economics_frame([{"role": "storage-vs-hdd", "status": "ok", "reason": "", "_econ": ctx}],
    ...                      prices={"pcm-samsung-20nm": 2.0})
    >>> df.economic_verdict[0], float(df.cost_usd[0])  # 1 GB at $2 against 1 GB of HDD (exact: no PCM product)
    ('faster but 23× the cost per unit of work', 2.0)
    """
    from models.devices import get_device

    prices = check_economics(prices, horizon_years, module_GB)
    h = float(param("planner.horizon_years").value) if horizon_years is None else float(horizon_years)

    def dev(name):
        d = get_device(name)
        return d.with_price(float(prices[name])) if name in prices else d

    out = []
    for r in rows:
        ctx = r.get("_econ")
        if ctx is None or not math.isfinite(ctx["value"]) or ctx["value"] <= 0:
            nan = {c: math.nan for c in ECON_COLUMNS if not c.startswith("economic_")}
            if r.get("status") != "ok":
                why = (r.get("status") or "unknown", r.get("reason") or "no number")
            elif r.get("role") in NO_TIME_RATIO:
                why = ("not applicable", NO_TIME_RATIO[r["role"]])
            elif ctx is not None and math.isinf(ctx["value"]):
                why = ("not applicable", "not applicable: the device takes all the baseline's time away on this trace "
                       "(e.g. the cache absorbs every write: no HDD time left), so no finite speedup to weigh a cost "
                       "against")
            else:
                why = ("not applicable", "not applicable: no finite time ratio to weigh a cost against")
            out.append({**nan, "economic_verdict": why[0], "economic_reason": why[1]})
            continue
        v = ctx["value"]
        prow = {"verdict": _verdict(v), "value": v, "reason": r.get("reason", "")}
        e = economics_columns(prow, dev(ctx["device"]), dev(ctx["base"]) if ctx["base"] else None, ctx["usage"],
                              horizon_years=h, module_GB=module_GB)
        if ctx["note"]:
            e["economic_reason"] = f"{ctx['note']}: {e['economic_reason']}"
        out.append(e)
    df = pd.DataFrame(out, columns=ECON_COLUMNS)
    for c in ECON_COLUMNS:
        if not c.startswith("economic_"):
            df[c] = df[c].astype(float)
    return df
