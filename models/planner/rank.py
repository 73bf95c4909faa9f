"""The library ranking (target-workload finder): rank a library of workloads by PCM benefit in each role.

Seed 000 (§4.6) concludes that PCM storage pays for workloads with many synchronisation
commands, write-intensive commands, low locality and ~4 KB I/O. This module applies the
project's models to a library of workloads and ranks them, role by role, each with the
reason in words:

==================  =====================================================  ==========================
role                metric (model)                                          workloads
==================  =====================================================  ==========================
storage-vs-hdd      PCM-DAX / HDD throughput (:mod:`models.storage.workload`)       Filebench personalities
storage-vs-ssd      PCM-DAX / SSD throughput (:mod:`models.storage.workload`)       Filebench personalities
file-cache          1 - share of blocks for which a DRAM cache over PCM     block traces
                    still pays (:func:`models.storage.file_cache_sim.break_even_share`)
write-cache         HDD time without / with a HALO PCM write cache          block traces
                    (:func:`models.storage.write_cache.run_write_cache`)
memory-extension    slowdown of a DRAM + PCM extension                      memory traces
                    (:func:`models.memory.memory_extension.simulate_memext`)
memory-lifetime     PCM extension lifetime [years]                          memory-extension workloads
                    (:func:`models.endurance.lifetime.figure2_table`)
==================  =====================================================  ==========================

A workload the models cannot evaluate (unknown name, unreadable trace, a model that
rejects it: ``ValueError``, ``KeyError``, ``FileNotFoundError``) gets ``pending`` rows with
the reason and the other workloads are still ranked -- never an invented number. A role that
does not apply to a workload (a write cache for a trace without writes) is ``not applicable``,
and a role without any workload to evaluate ``needs data``, each with its reason. The
HTML report and the charts of a ranking are in :mod:`reporting.planner_report`.

References
----------
.. [1] Seed 000 §4.6 (application proposal).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from models import traces
from models.endurance import lifetime as lt
from models.endurance.uncertainty import lifetime_model
from models.errors import describe
from models.memory import memory_extension as me
from models.memory.uncertainty import memext_model
from models.planner import uncertainty as _pu
from models.planner.economics import ECON_COLUMNS, block_trace_writes, role_usage
from models.planner.provenance import ROLE_PROVENANCE, provenance_keys
from models.planner.rank_economics import econ_context, economics_frame
from models.planner.verdicts import describe_filebench
from models.provenance import param
from models.storage import file_cache_sim as fcs
from models.storage import workload as wf
from models.storage import write_cache as wc
from models.storage.uncertainty import file_cache_share_model, writecache_model

_INT64_MAX = int(np.iinfo(np.int64).max)  # the largest request count a trace can index [-]
#: The band of a memory-extension row whose trace was streamed (the ranking's band replays the whole page stream).
STREAMED_NO_BAND = ("not sampled: the trace was streamed in two passes, and the ranking's band (slowdown against all "
                    "DRAM) replays the whole page stream, which a streamed trace does not hold")

__all__ = ["ROLES", "DEFAULT_TRACES", "PCM_STORAGE", "WRITE_CACHE_MB", "ROLE_PROVENANCE", "provenance_keys",
           "rank_workloads"]

#: The roles of the ranking and the metric of each.
ROLES = {
    "storage-vs-hdd": "PCM-DAX speedup vs page-cached HDD [x]",
    "storage-vs-ssd": "PCM-DAX speedup vs page-cached SSD [x]",
    "file-cache": "share of blocks a DRAM cache over PCM cannot help [-]",
    "write-cache": "HDD time saved by a PCM write cache (none / HALO) [x]",
    "memory-extension": "slowdown of a DRAM+PCM memory extension [x] (benefit = 1/slowdown)",
    "memory-lifetime": "PCM memory-extension lifetime [years]",
}
#: Block traces in the default library (small bundled / synthetic ones).
DEFAULT_TRACES = ("mqsim:tpcc-small", "mqsim:wsrch-small", "synthetic:fin1", "synthetic:fin2",
                  "synthetic:exchange", "synthetic:tpce", "synthetic:mail", "synthetic:randw",
                  "synthetic:web-server", "synthetic:web-proxy")
PCM_STORAGE = "pcm-samsung-20nm"
#: PCM write-cache size of the write-cache role [MB] (registry ``planner.write_cache_mb``, assumed).
WRITE_CACHE_MB = param("planner.write_cache_mb").value


def _row(role, workload, kind, value, benefit, reason, status="ok", metric=None):
    return dict(role=role, workload=workload, kind=kind, metric=metric or ROLES[role], value=value,
                benefit=benefit, status=status, reason=reason)


def _pending(role, workload, kind, why, status="pending"):
    """A row without a number: ``status`` is ``"pending"`` (the model rejected the workload: the
    reason says why), ``"not applicable"`` (the role does not apply to it) or ``"needs data"``."""
    return _row(role, workload, kind, float("nan"), float("nan"), f"{status}: {why}", status=status)


#: Errors that make one workload pending instead of aborting the ranking.
_GUARDED = (ValueError, KeyError, FileNotFoundError)


def _guarded_rows(names, evaluate, roles, kind):
    """``evaluate(name)`` rows for every name; a name the models reject gives ``pending`` rows
    (with the reason) for its ``roles`` and the others are still evaluated."""
    rows = []
    for name in names:
        try:
            rows += evaluate(name)
        except _GUARDED as e:
            rows += [_pending(role, str(name), kind, describe(e)) for role in roles]
    return rows


def _filebench_rows(personalities, threads, uq=None):
    return _guarded_rows(personalities, lambda p: _filebench_one(p, threads, uq), ("storage-vs-hdd", "storage-vs-ssd"),
                         "filebench")


def _filebench_one(p, threads, uq=None):
    rows = []
    w = wf.as_workload(p)
    feats = wf.workload_features(w)
    res = {c: wf.evaluate(w, c, threads=threads) for c in ("pcm-dax", "hdd", "ssd")}
    hit = res["hdd"].hit_ratio
    usage = role_usage(feats.fileset_bytes, float("nan"), float("nan"),
                       "the Filebench model, which counts operations, not the bytes they write: write rate unknown")
    for ref in ("hdd", "ssd"):
        s = res["pcm-dax"].ops_per_s / res[ref].ops_per_s
        row = _band(_row(f"storage-vs-{ref}", w.name, "filebench", s, s, describe_filebench(feats, hit, s, ref.upper())),
                    uq, lambda ref=ref: _pu.storage_band(w, ref, threads=threads, n=uq[0], seed=uq[1]))
        row["_econ"] = econ_context(wf.get_config("pcm-dax").device.name, wf.get_config(ref).device.name, usage, s)
        rows.append(row)
    return rows


def _trace_rows(traces, n_requests, uq=None):
    return _guarded_rows(traces, lambda t: _trace_one(t, n_requests, uq), ("file-cache", "write-cache"), "block trace")


def _band(row, uq, build):
    """Add the uncertainty columns to ``row`` (``uq = (samples, seed)``; ``build()`` -> band dict)."""
    if uq:
        row.update(build())
    return row


#: Requests generated for each synthetic preset of the ranking when ``n_requests`` is not given [-]: a preset's
#: length is a parameter of its generator (:mod:`models.traces.synthetic`), not a cut of a trace.
SYNTHETIC_REQUESTS = 20_000


def _read_block(name, n_requests):
    """Block trace ``name`` as the ranking reads it and what it used, ``(trace, (requests_used, requests_read,
    why))`` as :func:`models.planner.plan.mark_used` counts them: a synthetic preset generated with ``n_requests``
    (default :data:`SYNTHETIC_REQUESTS`) requests; a bundled trace whole (within the run's memory budget), or its
    first ``n_requests`` when given (read as the loader cuts it; one request more read first to know whether it is
    a cut)."""
    if name.startswith("synthetic:"):
        tr = traces.load(name, kind="block", n_requests=n_requests or SYNTHETIC_REQUESTS)
        return tr, (len(tr), float(len(tr)), "")
    if n_requests is None:
        tr = traces.load(name, kind="block")
        return tr, (len(tr), float(len(tr)), "")
    tr = traces.load(name, kind="block", max_requests=int(n_requests) + 1)
    if len(tr) <= n_requests:
        return tr, (len(tr), float(len(tr)), "")
    return traces.load(name, kind="block", max_requests=int(n_requests)), (int(n_requests), float("nan"), "asked")


def _trace_one(name, n_requests, uq=None):
    from models.planner.plan import mark_used

    tr, used = _read_block(name, n_requests)
    rows = _trace_role_rows(name, tr, uq)
    mark_used(rows, used, "requests", "block trace")
    return rows


def _trace_role_rows(name, tr, uq=None):
    rows = []
    wshare = float(np.mean(tr.is_write)) if len(tr) else float("nan")
    msize = float(np.mean(tr.size_bytes)) if len(tr) else float("nan")
    desc = f"{wshare:.0%} writes, mean request {msize / 1024:.3g} KiB"
    acc = traces.split_blocks(tr)
    be = fcs.break_even_share(acc.block, PCM_STORAGE)
    share = be.share_blocks
    rows.append(_band(_row("file-cache", name, "block trace", 1 - share, 1 - share,
                     f"{desc}; {share:.1%} of blocks are reused more than n* = "
                     + ("once" if be.n_star == 1 else f"{be.n_star:.3g} times") + ", "
                     "so a DRAM cache over PCM storage pays only for them"), uq,
                      lambda: _pu.band_columns(file_cache_share_model(acc.block, PCM_STORAGE), n=uq[0], seed=uq[1])))
    if not tr.is_write.any():
        rows.append(_pending("write-cache", name, "block trace", "the trace has no writes, so a write cache has "
                             "nothing to absorb", status="not applicable"))
        return rows
    none = wc.run_write_cache(tr, "none", 0.0)
    halo = wc.run_write_cache(tr, "halo", WRITE_CACHE_MB)
    t_none, t_halo = float(none.exec_time_s), float(halo.exec_time_s)
    if t_halo > 0:
        gain = t_none / t_halo
        verdict = f"{gain:.3g}x less HDD time"
    else:  # every write stays in the PCM cache over this trace: the HDD is never touched
        gain, verdict = float("inf"), "no HDD time at all (the cache absorbs every write)"
    row = _band(_row("write-cache", name, "block trace", gain, gain,
                     f"{desc}; a {WRITE_CACHE_MB:g} MB HALO PCM write cache cuts HDD traffic to "
                     f"{halo.traffic_rate:.0%} -> {verdict}"), uq,
                lambda: _pu.band_columns(writecache_model(tr, cache_mb=WRITE_CACHE_MB, halo_inputs=False),
                                         n=uq[0], seed=uq[1]))
    written, dur, how = block_trace_writes(tr)
    row["_econ"] = econ_context(PCM_STORAGE, None, role_usage(WRITE_CACHE_MB * 1e6, written, dur, how,
                                                              base_capacity_bytes=0.0), gain,
                                note=f"the write cache's PCM priced as {PCM_STORAGE} (its HDD time does not depend "
                                     "on the PCM device)")
    rows.append(row)
    return rows


#: The devices of the memory-extension row: PCM, and the Flash extension it is compared against.
MEMEXT_DEVICES = ("pcm-memext", "nand-flash")


def _memext_results(name, max_refs):
    """The memory-extension runs of bundled memory trace ``name`` on :data:`MEMEXT_DEVICES`, as the plan reads a
    memory trace (:func:`models.planner.plan.read_memory`): whole by default -- in memory when it fits, else read
    twice in chunks by the plan's memory-extension stream (:func:`models.planner.stream_memory.stream_memory_rows`),
    exactly -- or its first ``max_refs`` references when asked.

    Returns
    -------
    tuple
        ``(results, stream, used, how)``: device name -> :class:`~models.memory.memory_extension.MemExtResult`; the
        page stream (None when streamed: the trace is not held); ``(requests_used, requests_read, why)`` as the
        plan's rows count them; ``"streamed in two passes"`` or ``""``.
    """
    from models.planner.plan import read_memory, workload_from_path

    w = workload_from_path(name)
    mt, used, why = read_memory(w, max_refs)
    if mt is not None:
        stream = me.page_stream(mt)
        return {d: me.simulate_memext(stream, me.MemExtConfig(device=d)) for d in MEMEXT_DEVICES}, stream, used, ""
    from models.budget import BudgetExceeded
    from models.devices import get_device
    from models.planner.stream_memory import MissingStream, memory_role_streams, stream_memory_rows

    pcm, flash = (get_device(d) for d in MEMEXT_DEVICES)
    s = memory_role_streams(["memory-extension"], devs=[pcm], base=flash, bands=False)["memory-extension"]
    if isinstance(s, MissingStream):
        raise ValueError(f"the trace is to be streamed ({why}) and {s.why}")
    got = stream_memory_rows(w, {"memory-extension": s}, [pcm], flash, None, why=why)
    if got.refused:
        raise BudgetExceeded(next(iter(got.refused.values())))
    return s.device_results(), None, (got.requests_used, float(got.requests_read), ""), "streamed in two passes"


def _memory_one(name, max_refs, uq=None):
    from models.planner.plan import mark_used
    from models.planner.role_memory import memext_usage

    res, stream, used, how = _memext_results(name, max_refs)
    sd, sf = float(res["pcm-memext"].slowdown), float(res["nand-flash"].slowdown)
    r = res["pcm-memext"]
    cfg = me.MemExtConfig(device="pcm-memext")
    row = _band(_row("memory-extension", name, "memory trace", sd, 1 / sd,
                     f"{r.footprint_pages} pages, {r.full_misses / max(r.references, 1):.2%} of references fault "
                     f"with 25 % of the footprint in DRAM -> PCM {sd:.3g}x slowdown (Flash {sf:.3g}x)"), uq,
                lambda: _pu.empty_band(STREAMED_NO_BAND) if stream is None else
                _pu.band_columns(memext_model(stream, cfg, baseline=None, result=r), n=uq[0], seed=uq[1],
                                 win_model=memext_model(stream, cfg, baseline="nand-flash", result=r)))
    row["_econ"] = econ_context("pcm-memext", "nand-flash", memext_usage(r, res["nand-flash"]), sf / sd,
                                note=f"against the Flash extension (PCM {sf / sd:.3g}x its speed; the ranking's value "
                                     "is the slowdown vs all DRAM)")
    rows = [row, _lifetime_row(name, res, uq)]
    mark_used(rows, used, "references", "memory trace", how=how)
    return rows


def _write_rate_Bps(result) -> float:
    """NVM write rate of a memory-extension run [bytes/s]: its page write-backs over its modelled run time."""
    return float(result.written_bytes) / (float(result.time_ns) * 1e-9) if result.time_ns > 0 else 0.0


def _lifetime_row(name, res, uq):
    """The memory-lifetime row of a memory trace: the write-backs measured on the trace itself (each device's
    own run: a Flash extension runs slower, so its rate is lower), never a rate inverted from a paper figure."""
    from models.devices import get_device

    cap = param("memext.nvm_capacity_bytes").value
    pcm, flash = get_device("pcm-memext"), get_device("nand-flash")
    rate, rate_f = _write_rate_Bps(res["pcm-memext"]), _write_rate_Bps(res["nand-flash"])
    years = float(lt.lifetime_years(cap, pcm.endurance_writes_per_cell, rate)) if rate > 0 else float("inf")
    days_f = (365.25 * float(lt.lifetime_years(cap, flash.endurance_writes_per_cell, rate_f)) if rate_f > 0
              else float("inf"))
    reason = (f"{rate / 1e6:.4g} MB/s of NVM page write-backs measured on this trace (PCM, FIFO, 25 % of the "
              f"footprint in DRAM, modelled run time) -> a {cap / 1e9:g} GB PCM extension lasts {years:.3g} years "
              f"(Flash, at its own run's {rate_f / 1e6:.4g} MB/s: {days_f:.3g} days)"
              if rate > 0 else "no page is written back: the extension never wears out")
    return _band(_row("memory-lifetime", name, "memory trace", years, years, reason), uq,
                 lambda: _pu.band_columns(_lifetime_model(rate), n=uq[0], seed=uq[1]) if rate > 0
                 else _pu.empty_band("no writes"))


def _lifetime_model(rate_Bps: float):
    """Lifetime adapter of a memory-lifetime row: registry capacity, catalogue PCM endurance, the rate measured on
    the trace (held: it is the trace's own count over the modelled time)."""
    from models.devices import get_device
    from models.uncertainty import device_input, fixed_input

    cap = param("memext.nvm_capacity_bytes").value
    pcm = get_device("pcm-memext")
    return lifetime_model(capacity_bytes=cap, endurance_writes_per_cell=pcm.endurance_writes_per_cell,
                          write_rate_bytes_per_s=rate_Bps,
                          endurance_input=device_input(pcm, "endurance_writes_per_cell", label="PCM endurance"),
                          write_rate_input=fixed_input("write_rate", "NVM write rate measured on the trace", "bytes/s",
                                                       rate_Bps))


def _memory_rows(max_refs, uq=None):
    rows = []
    mem_names = list(traces.bundled_traces("memory"))
    if not mem_names:
        rows.append(_pending("memory-extension", "(memory traces)", "memory trace",
                             "no memory trace: add a lackey or compact memory trace", status="needs data"))
    rows += _guarded_rows(mem_names, lambda name: _memory_one(name, max_refs, uq),
                          ("memory-extension", "memory-lifetime"), "memory trace")
    return rows


def rank_workloads(personalities=("fileserver", "webserver", "webproxy", "varmail"), traces=DEFAULT_TRACES, *,
                   threads: int | None = None, n_requests: int | None = None, memory: bool = True,
                   memory_refs: int | None = None, progress=None, uncertainty: int = 0,
                   seed=0, prices: dict | None = None, horizon_years: float | None = None,
                   module_GB: float | None = None) -> pd.DataFrame:
    """Rank the workload library by PCM benefit in each role.

    Parameters
    ----------
    personalities : sequence of str
        Filebench personalities (Table 1 preset for the four of seed 000).
    traces : sequence of str
        Bundled block-trace names (:func:`models.traces.bundled_traces`).
    threads : int, keyword-only
        Threads for the Filebench model (default: the preset's 50).
    n_requests : int or None, keyword-only
        Requests of each block trace [-]: each synthetic preset is generated with this many (None:
        :data:`SYNTHETIC_REQUESTS`); each bundled trace is cut to its first ``n_requests`` when given, else read
        whole within the run's memory budget (the rows say which).
    memory : bool, keyword-only
        Include the memory roles.
    memory_refs : int or None, keyword-only
        References taken from each bundled memory trace [-]. None (default): the whole trace, as the plan reads it
        (:func:`models.planner.plan.read_memory`): in memory when it fits the run's memory budget and its file is
        at most :data:`~models.planner.stream_plan.IN_MEMORY_MAX_BYTES`, else read twice in chunks by the plan's
        memory-extension stream (the same rows, exactly; the memory-extension band then says it is not sampled).
        A number: the first ``memory_refs`` references, an explicit cut. Each memory row's reason ends with what it
        used (``[whole memory trace: N references]`` or ``[sampled: the first N references of M (as asked)]``).
    progress : callable, keyword-only
        Called with a fraction 0..1 as the library is evaluated.
    uncertainty : int, keyword-only
        Samples of each row's uncertain inputs (0: none). Adds ``p5, p95`` (of ``value``),
        ``p_win`` (share of samples where PCM wins in the role) and ``decisive_input`` (the input
        that moves the answer most), :mod:`models.planner.uncertainty`.
    seed : int, keyword-only
        Seed of those samples.
    prices : dict or None, keyword-only
        Device name -> price [USD per GB] for the economics (:data:`~models.planner.rank_economics.RANK_DEVICES`;
        the research PCM devices have none until given: "needs data: price").
    horizon_years : float or None, keyword-only
        Planning horizon of the economics [years] (None: ``planner.horizon_years``).
    module_GB : float or None, keyword-only
        Module/drive size [GB] the capacities are rounded up to (None: each device's smallest product).

    Returns
    -------
    pandas.DataFrame
        Columns ``role, rank, workload, kind, metric, value, benefit, status, reason`` (then the uncertainty
        columns when sampled), then the plan's economics :data:`~models.planner.economics.ECON_COLUMNS`
        (:mod:`models.planner.rank_economics`: the rows whose value is a time ratio);
        ``rank`` 1 = most PCM benefit within the role (rows without a number unranked).

    Examples
    --------
    >>> df = rank_workloads(["varmail", "webserver"], traces=(), memory=False)
    >>> df[df.role == "storage-vs-hdd"].iloc[0].workload
    'varmail'
    """
    if n_requests is not None and (isinstance(n_requests, bool) or not isinstance(n_requests, (int, np.integer))
                                   or not 1 <= n_requests <= _INT64_MAX):
        raise ValueError(f"n_requests must be a whole number within 1..{_INT64_MAX:,} (the run's memory budget bounds "
                         f"what a trace reads), got {n_requests!r}")
    from models.planner.rank_economics import check_economics

    prices = check_economics(prices, horizon_years, module_GB)  # before the models run: a typo fails at once
    rows = []
    steps = 3
    uq = (int(uncertainty), seed) if uncertainty else None
    rows += _filebench_rows(list(personalities), threads, uq)
    if progress:
        progress(1 / steps)
    rows += _trace_rows(list(traces), n_requests, uq)
    if progress:
        progress(2 / steps)
    if memory:
        rows += _memory_rows(memory_refs, uq)
    if progress:
        progress(1.0)
    df = pd.DataFrame(rows, columns=["role", "workload", "kind", "metric", "value", "benefit", "status", "reason"])
    econ = economics_frame(rows, prices=prices, horizon_years=horizon_years, module_GB=module_GB)
    df["rank"] = df.groupby("role")["benefit"].rank(ascending=False, method="min")
    df["role_order"] = df["role"].map({r: i for i, r in enumerate(ROLES)})
    df = df.sort_values(["role_order", "rank", "workload"], na_position="last").drop(columns="role_order")
    df["rank"] = df["rank"].astype("Int64")
    cols = ["role", "rank", "workload", "kind", "metric", "value", "benefit", "status", "reason"]
    if uq:
        band = pd.DataFrame([{c: row.get(c, _pu.empty_band()[c]) for c in _pu.UNCERTAINTY_COLUMNS} for row in rows])
        df = df.join(band)
        cols += _pu.UNCERTAINTY_COLUMNS
    df = df.join(econ)
    cols += ECON_COLUMNS
    return df[cols].reset_index(drop=True)
