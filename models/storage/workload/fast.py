"""Throughput of a Filebench workload over many samples of its configuration values, vectorised.

:func:`evaluate_many` gives what ``evaluate(workload, config', threads=n, curve=False).ops_per_s``
[ops/s] gives for every sample ``config'`` of a configuration's device latencies / bandwidths,
page cache, host memory, VM overhead and device parallelism, with the same arithmetic:

1. the flowop demands (:mod:`~models.storage.workload.demands`) are walked ONCE with NumPy arrays
   (one value per sample) in place of the varied values -- every operation is the scalar one
   applied elementwise (a branch that differs between samples makes those samples walk one by one);
2. the fixed points at the largest thread count -- write-back shares (secant, else Illinois
   regula falsi), group commit (Illinois regula falsi in a bracket) and exact MVA -- run per sample in one numba kernel that
   repeats :func:`~models.storage.workload.fit.evaluate`'s operations in the same order (NumPy's
   pairwise summation included), so the results equal the reference bit for bit in practice and
   within 1e-12 relative in any case (``tests/models/storage/test_workload_fast.py``); large sample
   sets are split over threads (:func:`sample_threads`, the kernel releases the GIL).

It is what the uncertainty adapter (:func:`models.storage.uncertainty.workload_model`) samples;
``bench/bench_uncertainty.py`` times it against re-running :func:`evaluate` per sample.

The kernels are in :mod:`~models.storage.workload.kernel`, which also solves
:func:`~models.storage.workload.fit.evaluate`'s curve (:func:`solve_curve`, re-exported here).

References
----------
.. [1] Seed 000: Filebench on a DAX PCM file system (Table 1, Figs. 2-5).
.. [2] E. Lazowska et al., "Quantitative System Performance", Prentice-Hall 1984, ch. 6, 8.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from models.storage.filebench import MAX_THREADS, Workload, load_workload
from models.storage.workload import fit as _fit
from models.storage.workload.configs import StorageConfig, get_config
from models.storage.workload.costs import hit_ratio
from models.storage.workload.demands import MixedSigns, _demand_rows, _footprint
from models.storage.workload.kernel import _COLS, _fits_kernel, _many, _params, solve_curve

__all__ = ["DEVICE_COLUMNS", "CONFIG_FIELDS", "evaluate_many", "solve_curve", "sample_threads"]

#: Device values that may vary per sample (``"device.<col>"`` / ``"host_device.<col>"``).
DEVICE_COLUMNS = ("read_latency_ns", "write_latency_ns", "read_bandwidth_MBps", "write_bandwidth_MBps")
#: :class:`StorageConfig` fields that may vary per sample.
CONFIG_FIELDS = ("virt_per_op_ns", "page_cache_bytes", "host_memory_bytes", "device_servers", "host_device_servers")


def sample_threads(samples: int) -> int:
    """Threads :func:`evaluate_many` splits ``samples`` over: one per 128 samples, at most
    ``numba.config.NUMBA_NUM_THREADS`` (set ``NUMBA_NUM_THREADS`` to limit it; the kernel releases the GIL).

    >>> sample_threads(100)
    1
    """
    return int(max(1, min(numba.config.NUMBA_NUM_THREADS, samples // 128)))


def _many_threaded(C, wrow, is_sync, servers, n, prm, memory):
    """:func:`_many` with the samples split in equal ranges over :func:`sample_threads` threads (each sample
    is solved alone: the same values in any split)."""
    S = C.shape[0]
    t = sample_threads(S)
    if t == 1:
        return _many(C, wrow, is_sync, servers, n, prm, memory)
    bounds = np.linspace(0, S, t + 1).astype(np.int64)
    with ThreadPoolExecutor(t) as ex:
        parts = list(ex.map(lambda k: _many(C[bounds[k]:bounds[k + 1]], wrow, is_sync, servers[bounds[k]:bounds[k + 1]],
                                            n, prm, memory[bounds[k]:bounds[k + 1]]), range(t)))
    return np.concatenate([x for x, _ in parts]), np.concatenate([s for _, s in parts])


def _split(changes: Mapping[str, object], cfg: StorageConfig):
    """``changes`` -> (device, host device, config) dicts of arrays of one broadcast shape, and the shape."""
    names = list(changes)
    arrs = np.broadcast_arrays(*(np.asarray(changes[k], dtype=float) for k in names)) if names else []
    shape = arrs[0].shape if names else ()
    dev, host, conf = {}, {}, {}
    for k, a in zip(names, arrs, strict=True):
        a = a.reshape(-1)
        target, _, col = k.partition(".")
        # what StorageConfig / DeviceProfile validation would refuse per sample (their upper bounds aside)
        ok = np.isfinite(a) & ((a >= 0) if k == "virt_per_op_ns" else (a > 0))
        if k.endswith("servers"):
            ok &= (a >= 1) & (a == np.round(a))
        if not ok.all():
            raise ValueError(f"{k}: every sample must be finite and "
                             f"{'>= 0' if k == 'virt_per_op_ns' else 'an integer >= 1' if k.endswith('servers') else '> 0'}"
                             f" (got {a[~ok][0]!r})")
        if col and target in ("device", "host_device") and col in DEVICE_COLUMNS:
            if target == "host_device" and cfg.host_device is None:
                raise ValueError(f"{k}: configuration {cfg.name!r} has no host device")
            (dev if target == "device" else host)[col] = a
        elif k in CONFIG_FIELDS:
            conf[k] = a
        else:
            raise ValueError(f"cannot vary {k!r}; valid: device.<col> / host_device.<col> with <col> in "
                             f"{', '.join(DEVICE_COLUMNS)}, or {', '.join(CONFIG_FIELDS)}")
    return dev, host, conf, shape


def _weights(rows: list[dict]):
    """(wrow, ops_per_loop, is_sync) exactly as :func:`~models.storage.workload.fit.evaluate` computes them."""
    return _fit.loop_weights(tuple((r["group"], r["instances"], r["category"]) for r in rows))


def _per_sample(w, cfg, dev_ch, host_ch, cfg_ch, idx, n, zipf_alpha) -> np.ndarray:
    """The reference :func:`~models.storage.workload.fit.evaluate` on samples ``idx`` (validated configurations)."""
    out = []
    for s in idx:
        one = {k: (int(v[s]) if k.endswith("servers") else float(v[s])) for k, v in cfg_ch.items()}
        if dev_ch:
            one["device"] = cfg.device.with_updates(**{k: float(v[s]) for k, v in dev_ch.items()})
        if host_ch:
            one["host_device"] = cfg.host_device.with_updates(**{k: float(v[s]) for k, v in host_ch.items()})
        out.append(_fit.evaluate(w, get_config(cfg, **one), threads=n, zipf_alpha=zipf_alpha, curve=False).ops_per_s)
    return np.array(out, dtype=float)


def evaluate_many(workload: Workload | str, config: StorageConfig | str, changes: Mapping[str, object] | None = None,
                  *, threads: int | None = None, zipf_alpha: float = 0.0) -> np.ndarray:
    """Throughput [ops/s] at the largest thread count for every sample of ``changes``.

    Parameters
    ----------
    workload : Workload or str
        As :func:`~models.storage.workload.fit.evaluate` (a str is loaded by name).
    config : StorageConfig or str
        The configuration the samples change.
    changes : mapping of str to array_like, optional
        Values per sample, broadcast together: ``"device.<col>"`` and ``"host_device.<col>"`` for
        ``<col>`` in :data:`DEVICE_COLUMNS` (latencies [ns], bandwidths [MB/s]) and the
        :class:`StorageConfig` fields in :data:`CONFIG_FIELDS` (servers rounded by the caller:
        integers expected).
    threads : int, keyword-only
        Threads (default: the workload's).
    zipf_alpha : float, keyword-only
        Locality of file choice (0 = uniform).

    Returns
    -------
    numpy.ndarray
        ``evaluate(workload, get_config(config, **sample), threads=threads, curve=False).ops_per_s``
        per sample [ops/s], in the broadcast shape of ``changes`` (0-d without changes).

    Examples
    --------
    >>> from models.storage.workload import evaluate, paper_workload
    >>> w = paper_workload("varmail")
    >>> y = evaluate_many(w, "hdd", {"device.write_latency_ns": [4e6, 8e6]}, threads=4)
    >>> from models.devices import get_device
    >>> d = get_device("hdd-7200").with_updates(write_latency_ns=8e6)
    >>> float(y[1]) == evaluate(w, get_config("hdd", device=d), threads=4, curve=False).ops_per_s
    True
    """
    w = load_workload(workload) if isinstance(workload, str) else workload
    cfg = get_config(config)
    n = int(threads) if threads is not None else w.nthreads
    if not 1 <= n <= MAX_THREADS:
        raise ValueError(f"threads must be within 1..{MAX_THREADS} (the MVA solver is O(threads x servers)), got {n}")
    dev_ch, host_ch, cfg_ch, shape = _split(changes or {}, cfg)
    S = int(np.prod(shape)) if shape else 1

    def at(field, vals=cfg_ch):  # a config field: array per sample or the config's value
        return vals[field] if field in vals else getattr(cfg, field)

    upd = {k: v for k, v in cfg_ch.items() if k in ("virt_per_op_ns", "page_cache_bytes", "host_memory_bytes")}
    if dev_ch:
        upd["device"] = cfg.device.model_copy(update=dev_ch)
    if host_ch:
        upd["host_device"] = cfg.host_device.model_copy(update=host_ch)
    vcfg = cfg.model_copy(update=upd)  # values as arrays: not validated, read by the demand walk only
    footprint = _footprint(w)
    entries = max(1, w.main_fileset.entries)

    def hit(pc):
        if np.ndim(pc) == 0:
            return hit_ratio(pc, footprint, entries, zipf_alpha=zipf_alpha)
        u, inv = np.unique(pc, return_inverse=True)
        return np.array([hit_ratio(float(c), footprint, entries, zipf_alpha=zipf_alpha) for c in u])[inv]

    def host_fault(hm):
        if not (cfg.mode == "dax" and cfg.host_device is not None):
            return 0.0
        return max(0.0, 1.0 - hm / footprint) if np.ndim(hm) == 0 else np.maximum(0.0, 1.0 - hm / footprint)

    try:
        rows = _demand_rows(w, vcfg, hit(at("page_cache_bytes")), host_fault(at("host_memory_bytes")))
        C = np.empty((S, len(_COLS), len(rows)))
        for i, r in enumerate(rows):
            for j, c in enumerate(_COLS):
                C[:, j, i] = r[c]
    except MixedSigns:  # a branch differs between samples: walk them one by one
        C = None
        for s in range(S):
            one = {k: float(v[s]) for k, v in cfg_ch.items() if k in upd}
            if dev_ch:
                one["device"] = cfg.device.model_copy(update={k: float(v[s]) for k, v in dev_ch.items()})
            if host_ch:
                one["host_device"] = cfg.host_device.model_copy(update={k: float(v[s]) for k, v in host_ch.items()})
            c1 = cfg.model_copy(update=one)
            rows = _demand_rows(w, c1, hit(c1.page_cache_bytes), host_fault(c1.host_memory_bytes))
            if C is None:
                C = np.empty((S, len(_COLS), len(rows)))
            C[s] = [[r[c] for r in rows] for c in _COLS]
    if not rows:
        raise ValueError(f"{w.name}: the flowop loop does no file-system work")
    wrow, ops_per_loop, is_sync = _weights(rows)
    if not _fits_kernel(len(rows), is_sync):  # sums longer than the kernel repeats: the reference per sample
        y = _per_sample(w, cfg, dev_ch, host_ch, cfg_ch, range(S), n, zipf_alpha)
        return y.reshape(shape) if shape else y[0]
    servers = np.empty((S, 4), dtype=np.int64)
    servers[:, 0] = cfg.cpu_cores
    servers[:, 1] = at("device_servers")
    servers[:, 2] = at("host_device_servers")
    servers[:, 3] = 1
    mem = at("page_cache_bytes") if cfg.mode == "pagecache" else at("host_memory_bytes")
    memory = np.broadcast_to(np.asarray(mem, dtype=float), (S,)).copy()
    X, status = _many_threaded(C, wrow, is_sync, servers, n, _params(w, cfg, 0.0), memory)
    out = X * 1e9 * ops_per_loop
    bad = np.flatnonzero(status)
    if (status == 1).any():
        raise ValueError(f"{w.name}: the flowop loop does no file-system work")
    if bad.size:  # invalid write-back input: the reference raises its error
        out[bad] = _per_sample(w, cfg, dev_ch, host_ch, cfg_ch, bad, n, zipf_alpha)
    return out.reshape(shape) if shape else out[0]
