"""Computations several claims share, run once per process (``functools.cache``).

Each function calls the models through their public names and returns plain tables
(``pandas.DataFrame``) or numbers, so a renamed model API is a one-line fix here. Data are
the bundled traces named in each function (see ``data/SOURCES.md``).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

__all__ = [
    "as_frame",
    "block_trace",
    "mem_trace",
    "MEM_TRACES",
    "SEVEN",
    "STANDIN",
    "workload_module",
    "workload_table",
    "workload_result",
    "write_cache_requests",
    "write_cache_run",
    "write_cache_result",
    "write_cache_sweep",
    "write_cache_block",
    "fig5_size_index",
    "fig5_row",
    "wear_table",
    "page_pairs_table",
    "memext_stream",
    "memext_ratio",
    "memext_prefetch",
    "memext_policy",
    "memext_write_latency",
    "synthetic_stream",
    "paging_profile",
    "paging_best",
    "file_cache_gains",
    "device",
    "catalogue_values",
    "catalogue_data",
    "catalogue_rule",
]

#: Seed 003's seven traces, by our synthetic preset names (Table II + Randw).
SEVEN: tuple[str, ...] = ("fin1", "fin2", "dap", "exchange", "tpce", "mail", "randw")
#: The bundled valgrind-lackey memory traces (stand-ins for the seeds' applications).
MEM_TRACES: tuple[str, ...] = ("xz", "sort", "gcc", "sqlite", "numpy")
#: How the ledger names a synthetic stand-in.
STANDIN = "synthetic stand-in"


def as_frame(x) -> pd.DataFrame:
    """A model output as a DataFrame (frames as they are, results via ``to_frame()``)."""
    if isinstance(x, pd.DataFrame):
        return x
    if hasattr(x, "to_frame"):
        return x.to_frame()
    if isinstance(x, dict):
        return pd.DataFrame([x])
    raise TypeError(f"cannot tabulate a {type(x).__name__}")


def _get(x, name: str):
    """Attribute or key ``name`` of a model result (dataclass, pydantic model or dict)."""
    return x[name] if isinstance(x, dict) else getattr(x, name)


# ----------------------------------------------------------------------------- traces
@cache
def block_trace(name: str, n_requests: int | None = None):
    """A bundled block trace by name (synthetic presets at the bundled default size)."""
    from models.traces import load

    kw = {} if n_requests is None else {"n_requests": n_requests}
    return load(name, kind="block", **kw)


@cache
def mem_trace(name: str):
    """A bundled lackey memory trace (the whole bundled window)."""
    from models.traces import load

    return load(f"lackey:{name}", kind="memory")


def device(name: str):
    """A catalogue device (``data/devices.csv``)."""
    from models.devices import get_device

    return get_device(name)


def catalogue_values(refs) -> list[tuple[str, float, str]]:
    """``(ref, value, provenance kind)`` of catalogue entries ``"device.column"``."""
    out = []
    for ref in refs:
        name, col = ref.split(".", 1)
        d = device(name)
        out.append((ref, float(getattr(d, col)), d.provenance.get(col, "assumed")))
    return out


def catalogue_data(refs) -> str:
    """The ``data`` text of a catalogue check: each entry with its value and provenance kind."""
    from models.validation.render import fmt_number

    items = ", ".join(f"{ref} = {fmt_number(v)} ({kind})" for ref, v, kind in catalogue_values(refs))
    return f"catalogue check on data/devices.csv: {items}"


def catalogue_rule(inner, refs):
    """A :class:`~models.validation.rules.Catalogue` rule around ``inner``, listing the entries no hardware
    stands behind: assumed ones and simulated ones (a simulation's parameter or output agrees with a paper's
    statement without saying anything about a device)."""
    from models.provenance import ASSUMED, SIMULATED
    from models.validation.rules import Catalogue

    assumed = tuple(ref for ref, _, kind in catalogue_values(refs) if kind in (ASSUMED, SIMULATED))
    return Catalogue(inner=inner, assumed=assumed, why=inner.why)


# ----------------------------------------------------------------------------- seed 000
def workload_module():
    """The Filebench model package (``models.storage.workload``)."""
    from models.storage import workload

    return workload


@cache
def workload_table() -> pd.DataFrame:
    """Throughput of the four Table 1 personalities on every configuration (Fig. 2(a))."""
    return as_frame(workload_module().compare())


@cache
def workload_result(personality: str, config: str, threads: int | None = None):
    """One evaluation (curve vs threads, per-flowop breakdown) of a Table 1 personality."""
    wf = workload_module()
    return wf.evaluate(wf.paper_workload(personality), config, threads=threads)


# ----------------------------------------------------------------------------- seed 003 write cache
@cache
def write_cache_requests(name: str):
    """Stand-in ``name`` cut into 4 KiB blocks (``write_cache.prepare_requests``, reads of unwritten blocks as
    extents, as ``run_write_cache`` cuts a trace), once for every write-cache run of the ledger on it."""
    from models.storage import write_cache as wc

    return wc.prepare_requests(block_trace(f"synthetic:{name}"), passthrough_reads=True)


@cache
def write_cache_run(name: str, policy: str, cache_mb: float):
    """The cache simulation (``write_cache.simulate_cache``: before the HDD model, default parameters, the
    sector-granular LRU) of ``policy`` at ``cache_mb`` [MB] on stand-in ``name``, run once: the sweep and the
    variants timed on another drive or with another HDD timing share it. Kept only at Figure 5's size (the one
    size the variants time again; a sweep's other runs are dropped once timed: up to ~150 MB a trace)."""
    from models.storage import write_cache as wc

    return wc.simulate_cache(write_cache_requests(name), policy, cache_mb)


def write_cache_result(name: str, policy: str, cache_mb: float, **drive):
    """``write_cache.run_write_cache`` of ``policy`` at Figure 5's size ``cache_mb`` [MB] on stand-in ``name``
    (``drive``: its ``drive``, ``hdd_rotation``, ``drive_cache``) from the simulation :func:`write_cache_run`
    keeps."""
    from models.storage import write_cache as wc

    return wc.run_write_cache(write_cache_requests(name), policy, cache_mb,
                              cache_run=write_cache_run(name, policy, cache_mb), **drive)


@cache
def write_cache_sweep(name: str) -> pd.DataFrame:
    """HALO and the like-for-like (sector-granular, the model's default) LRU at the paper's 8
    sizes scaled to the stand-in's footprint, plus no cache."""
    from models.storage import write_cache as wc

    req = write_cache_requests(name)
    fig5 = wc.sweep_sizes_mb(req)[fig5_size_index(name)]

    def cache_run(policy: str, cache_mb: float):
        keep = policy != "none" and cache_mb == fig5
        return write_cache_run(name, policy, cache_mb) if keep else wc.simulate_cache(req, policy, cache_mb)

    return as_frame(wc.sweep_cache_sizes(req, cache_runs=cache_run))


@cache
def write_cache_block(name: str) -> pd.DataFrame:
    """The block-fill LRU (whole 4 KiB blocks, partial write misses filled from the HDD) at the same sizes."""
    from models.storage import write_cache as wc

    return as_frame(wc.sweep_cache_sizes(write_cache_requests(name), policies=("lru",), lru_granularity="block"))


def fig5_size_index(name: str) -> int:
    """Index of Figure 5's cache size among the paper's sizes: "512 MB" for Fin1/Fin2, "2 GB" else."""
    from models.storage.write_cache import PAPER_CACHE_MB

    return list(PAPER_CACHE_MB).index(512 if name in ("fin1", "fin2") else 2048)


def _sizes(df: pd.DataFrame) -> list[float]:
    return sorted(df.loc[df["policy"] != "none", "cache_mb"].unique().tolist())


def fig5_row(name: str, policy: str, *, block: bool = False) -> pd.Series:
    """The sweep row of ``policy`` at Figure 5's size for stand-in ``name`` (``block``: the block-fill LRU)."""
    df = write_cache_block(name) if block else write_cache_sweep(name)
    size = _sizes(write_cache_sweep(name))[fig5_size_index(name)]
    sel = df[(df["policy"] == policy) & np.isclose(df["cache_mb"], size)]
    return sel.iloc[0]


# ----------------------------------------------------------------------------- seed 003 wear
@cache
def wear_table() -> pd.DataFrame:
    """SG / RR / SFC life rates (one pass and long run) over the seven stand-ins (Fig. 9)."""
    from models.endurance import wear

    rows = []
    for name in SEVEN:
        stream = wear.stripe_write_stream(block_trace(f"synthetic:{name}"))
        df, _ = wear.compare_schemes(stream, ("sg", "rr", "sfc"))
        df = as_frame(df).assign(trace=name)
        rows.append(df)
    return pd.concat(rows, ignore_index=True)


# ----------------------------------------------------------------------------- seed 002
@cache
def page_pairs_table() -> pd.DataFrame:
    """Write reduction per scheme on the bundled real page pairs, overall and per workload."""
    from models.endurance import write_reduction as wr

    return as_frame(wr.write_reduction_table(wr.load_page_pairs(), by_workload=True))


@cache
def memext_stream(name: str):
    """Page-reference stream (4 KiB pages, data references) of a bundled memory trace."""
    from models.memory import memory_extension as me

    return me.page_stream(mem_trace(name))


@cache
def memext_ratio(name: str) -> pd.DataFrame:
    """Slowdown and faults vs DRAM:NVM ratio, PCM and Flash (Figs. 10-11)."""
    from models.memory import memory_extension as me

    return as_frame(me.ratio_sweep(memext_stream(name)))


@cache
def memext_prefetch(name: str) -> pd.DataFrame:
    """Prefetch depths 0-16 at 1:4 on PCM (Fig. 13)."""
    from models.memory import memory_extension as me

    return as_frame(me.prefetch_sweep(memext_stream(name)))


@cache
def memext_policy(name: str) -> pd.DataFrame:
    """FIFO / CLOCK / age-based faults at every DRAM:NVM ratio (Fig. 14)."""
    from models.memory import memory_extension as me

    return as_frame(me.policy_sweep(memext_stream(name)))


@cache
def memext_write_latency(name: str) -> pd.DataFrame:
    """Flash write latency 25-400 us vs PCM at every DRAM:NVM ratio (Fig. 15)."""
    from models.memory import memory_extension as me

    return as_frame(me.write_latency_sweep(memext_stream(name)))


@cache
def synthetic_stream(pattern: str):
    """A seeded synthetic page stream of one application class (model defaults)."""
    from models.memory import memory_extension as me

    return me.synthetic_page_stream(pattern, seed=0)


# ----------------------------------------------------------------------------- seed 004
#: Memory for the paging study: 25 % of the 4 KiB-page footprint (the paper gives no size;
#: its §4.2 discusses the case "when the memory size is insufficient").
PAGING_MEMORY_FRACTION = 0.25


@cache
def paging_profile(name: str):
    """Stack distances per page size and CLOCK faults at 25 % of the footprint (whole trace)."""
    from models.memory import paging as pg

    return pg.profile_trace(mem_trace(name), memory_fraction=[PAGING_MEMORY_FRACTION])


@cache
def paging_table(name: str) -> pd.DataFrame:
    """AMAT table (eqs. 4-6) at 1x, 10x, 100x, 1000x DRAM latency."""
    from models.memory import paging as pg

    inputs = pg.PagingInputs(memory_fraction=(PAGING_MEMORY_FRACTION,))
    return as_frame(pg.paging_table(paging_profile(name), inputs))


@cache
def paging_best(name: str) -> pd.DataFrame:
    """Best page size by AMAT and by fault rate per storage latency."""
    from models.memory import paging as pg

    return as_frame(pg.best_page_sizes(paging_table(name)))


#: Cache sizes of the file-cache study, as fractions of the footprint (Figures 3-5's x axis
#: up to the paper's "in practical environments, the cache size is less than 50 %").
FILE_CACHE_FRACTIONS = (0.1, 0.3, 0.5)
WEB_TRACES = ("web-server", "web-proxy")


@cache
def file_cache_gains(storage_path: str = "same-run", insertion: str = "steady") -> pd.DataFrame:
    """LRU vs none and AC vs LRU gains on HDD and Optane for both web stand-ins (Figs. 3-5), with ``t`` and the
    DRAM-speed ``T`` from ``storage_path`` (:func:`models.storage.file_cache.timings_from_device`; default the
    same run as the insertion cost, not the paper's circular 1.3 t) and the ``insertion`` model."""
    from models.storage.file_cache_sim import file_cache_curves, gains
    from models.traces.blocks import split_blocks

    out = []
    for name in WEB_TRACES:
        acc = split_blocks(block_trace(f"synthetic:{name}"), 4096)
        curves = as_frame(file_cache_curves(acc.block, ["hdd-7200", "optane-dcpmm"],
                                            cache_fractions=list(FILE_CACHE_FRACTIONS), insertion=insertion,
                                            storage_path=storage_path))
        out.append(as_frame(gains(curves)).assign(trace=name))
    return pd.concat(out, ignore_index=True)
