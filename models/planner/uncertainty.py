"""Per-role uncertainty of the planner: p5/p95 of a row's value, the probability PCM wins, the decisive input.

Each role's row is analysed with the adapter of its model (the adapter beside the model (``models/<package>/uncertainty.py``; the table in ``docs/uncertainty.md``)),
reusing the simulation the ranking already ran:

================  ============================================  ===========================================
role              band of                                       "PCM wins" when
================  ============================================  ===========================================
file-cache        share of blocks a DRAM cache cannot help      most blocks (> 50 %) cannot be helped: PCM
                  (n* varies; reuse histogram once)             storage leaves a DRAM cache little to do
write-cache       HDD time without / with the HALO PCM cache    the cache saves HDD time (speedup > 1)
memory-extension  slowdown of the PCM extension                 PCM is faster than a Flash extension on the
                                                                same fault counts
memory-lifetime   PCM extension lifetime [years]                it outlives 5 years
storage-vs-*      PCM-DAX / HDD (SSD) Filebench throughput      PCM-DAX beats the page-cached HDD (SSD):
                  (:func:`~models.storage.uncertainty.         speedup > 1
                  workload_model`; the samples re-evaluate
                  the mean-value model of both configurations,
                  vectorised: ~0.4 ms per sample)
================  ============================================  ===========================================

A plan's rows (:func:`models.planner.plan.plan`) get theirs from :func:`row_band`: the role
builds the row's model (device / baseline, often as :func:`inverted` or :func:`ratio_model` of the
models' adapters) and a row whose model cannot be built says why instead.

References
----------
.. [1] Seed 000 §4.6; the models' own references.
"""

from __future__ import annotations

import math

import numpy as np

from models.uncertainty import analyze

__all__ = ["UNCERTAINTY_COLUMNS", "band_columns", "storage_band", "NOT_SAMPLED", "empty_band", "role_summary", "row_band",
           "inverted", "ratio_model"]

#: Columns a ranking with ``uncertainty=N`` adds.
UNCERTAINTY_COLUMNS = ["p5", "p95", "p_win", "decisive_input"]
#: ``decisive_input`` of a role whose model is not sampled (kept for callers; every role is sampled now).
NOT_SAMPLED = "not sampled: each sample re-runs the Filebench MVA"


def empty_band(why: str = "") -> dict:
    """Band columns of a row that has none (``why`` in ``decisive_input``)."""
    return {"p5": math.nan, "p95": math.nan, "p_win": math.nan, "decisive_input": why}


def band_columns(model, *, n: int, seed, win_model=None, scale: float = 1.0) -> dict:
    """``p5, p95, p_win, decisive_input`` of one row.

    Parameters
    ----------
    model : models.uncertainty.UncertainModel
        The row's model; its output (times ``scale``) is the row's ``value``.
    n : int
        Samples [-].
    seed : int or numpy.random.Generator
        Seed of the samples.
    win_model : UncertainModel, optional
        Model whose verdict defines "PCM wins" (default ``model``'s own verdict), sampled with
        the same seed.
    scale : float
        Factor from the model's output to the row's value (e.g. 1 for the same unit).
    """
    if not model.sampled_inputs() and any(i.resimulates for i in model.inputs):
        # every input changes the simulation: a band would need a re-simulation per sample
        return empty_band("not sampled: " + "; ".join(model.notes))
    r = analyze(model, n=n, seed=seed)
    w = r if win_model is None else analyze(win_model, n=n, seed=seed)
    return {"p5": r.p5 * scale, "p95": r.p95 * scale, "p_win": w.p_verdict,
            "decisive_input": r.decisive_label or r.decisive or "none: no uncertain input moves it"}


def storage_band(workload, ref: str, *, threads: int | None, n: int, seed,
                 storage_samples: int | None = None) -> dict:
    """``p5, p95, p_win, decisive_input`` of a storage-vs-``ref`` row: PCM-DAX / ``ref`` Filebench throughput.

    The samples re-evaluate the Filebench model on both configurations, vectorised over the
    samples (:func:`models.storage.workload.evaluate_many`; 1,000 samples ~0.4 s,
    ``bench/bench_uncertainty.py``). ``storage_samples`` caps the samples drawn (None: all ``n``;
    one design of that size, the same seed gives the same band).

    >>> b = storage_band("varmail", "hdd", threads=4, n=16, seed=0)
    >>> b["p_win"], b["p5"] <= b["p95"]
    (1.0, True)
    """
    from models.storage.uncertainty import workload_model

    if storage_samples is not None and (isinstance(storage_samples, bool) or not isinstance(storage_samples, int)
                                        or storage_samples < 1):
        raise ValueError(f"storage_samples must be a whole number >= 1 or None (got {storage_samples!r})")
    m = int(n) if storage_samples is None else min(int(n), storage_samples)
    return band_columns(workload_model(workload, "pcm-dax", ref=ref, threads=threads), n=m, seed=seed)


def role_summary(rows) -> str:
    """One sentence on a role's rows of a ranking made with ``uncertainty``: the range of ``p_win``
    over its workloads and the input that decides most often ("" without those columns).

    >>> import pandas as pd
    >>> role_summary(pd.DataFrame({"role": ["write-cache"] * 2, "status": ["ok", "ok"], "p_win": [0.97, 1.0],
    ...                            "decisive_input": ["HDD mean seek time"] * 2}))
    'write-cache: PCM wins in 97-100 % of samples across 2 workloads; the input that moves the answer most: HDD mean seek time (2 of 2).'
    """
    if "p_win" not in rows or not len(rows):
        return ""
    ok = rows[(rows["status"] == "ok") & rows["p_win"].notna()]
    role = str(rows["role"].iloc[0])
    if not len(ok):
        why = next((d for d in rows["decisive_input"] if d), "")
        return f"{role}: no uncertainty band" + (f" ({why})." if why else ".")
    lo, hi = 100 * ok["p_win"].min(), 100 * ok["p_win"].max()
    span = f"{lo:.0f} %" if round(lo) == round(hi) else f"{lo:.0f}-{hi:.0f} %"
    top = ok["decisive_input"].value_counts()
    return (f"{role}: PCM wins in {span} of samples across {len(ok)} workload{'s' if len(ok) != 1 else ''}; "
            f"the input that moves the answer most: {top.index[0]} ({int(top.iloc[0])} of {len(ok)}).")


# ----------------------------------------------------------------------------- a plan row's band
def inverted(model):
    """``1 / model`` (same inputs), its verdict flipped: for a model whose output is device / baseline."""
    from models.uncertainty import UncertainModel, Verdict

    v = model.verdict
    verdict = None if v is None else Verdict(1.0 / v.threshold, not v.below, v.statement)
    res = None if model.resimulate is None else (lambda o: 1.0 / model.resimulate(o))
    return UncertainModel(model.model, model.output + "_inv", model.unit, model.inputs,
                          lambda vals: 1.0 / np.asarray(model.evaluate(vals), dtype=float), verdict, res, model.notes,
                          f"1 / ({model.output_label or model.output})")


def ratio_model(num, den, statement: str, label: str):
    """``num / den`` on joint samples (inputs of the same name shared): > 1 = the device wins."""
    from models.uncertainty import UncertainModel, Verdict

    ins = {i.name: i for i in num.inputs}
    for i in den.inputs:
        if i.name in ins and ins[i.name].point != i.point:
            raise ValueError(f"input {i.name} differs between the two models")
        ins.setdefault(i.name, i)
    if any(i.resimulates for i in ins.values()):
        raise ValueError("an input re-simulates")
    return UncertainModel(num.model, "ratio", "x", tuple(ins.values()),
                          lambda v: np.asarray(num.evaluate(v), float) / np.asarray(den.evaluate(v), float),
                          Verdict(1.0, False, statement), None, num.notes + den.notes, label)


def row_band(build, uq) -> dict | None:
    """Band columns from ``build()`` -> UncertainModel, or None (not sampled) when it cannot be built."""
    if not uq:
        return None
    try:
        model = build()
    except (ValueError, KeyError) as e:
        return empty_band(f"not sampled: {e}")
    return band_columns(model, n=uq[0], seed=uq[1])
