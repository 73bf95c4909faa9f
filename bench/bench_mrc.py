"""Benchmark: exact LRU MRC (one stack-distance pass) vs per-size LRU simulation.

Trace: 10M requests, Zipf(0.9) popularity over 1M block ids (seeded). Measured in the
same run:

- the full exact hit-ratio curve (every cache size 1..M) with models.sim.hit_ratio_curve, on 1
  thread and on the default threads (``default_threads``: one per CPU numba sees, at most one per
  2^20 requests), ``--repeat`` interleaved runs each, median and best printed; the goal line uses
  the median on the default threads;
- libCacheSim's LRU (PyPI ``libcachesim``, optional ``bench`` extra), one ``process_trace``
  per size on an oracleGeneral binary file, at 10 sizes; our hit counts must equal its hit
  counts at those sizes. Without libcachesim, the reference is our own per-size numba LRU
  simulator (models.sim.simulate), and the output says so;
- CLOCK and FIFO throughput at one size (a tenth of the footprint) [M requests/s]: the shared ring
  kernel (``simulate``, its counter ceiling compiled in per policy) against the former separate
  FIFO/CLOCK kernel (kept below, only as this reference), ``--repeat`` interleaved runs each, best and
  median, and the ratio shared / former (goal >= 1, within the run-to-run noise); hit counts must be
  equal. ``--one-size-only`` runs this section alone;
- SHARDS at rate 0.01: mean and max absolute error of the hit (= 1 - miss) ratio vs exact;
- MiniSim (models.sim.minisim) for FIFO, CLOCK, AC and LRU at each of ``--minisim-rates``: time
  [M requests/s] and mean / max absolute hit-ratio error against the exact full simulation at
  20 log-spaced sizes (goal for CLOCK/FIFO: >= 50 M requests/s, MAE <= 0.01), with each
  ``--minisim-min-blocks`` floor on the miniature cache (0 = off, the default of the model);
- SHARDS fixed rate (R = 0.01) and fixed size (``--max-samples``), both with SHARDS_adj, on a
  larger Zipf(0.9) trace of ``--shards-requests`` requests (default 100 M; 0 skips it; drawn
  with a numba alias sampler): time [M requests/s] and MAE over every size 1..footprint
  against the exact curve (goal: MAE <= 0.002 at >= 100 M requests/s).

The last line is ``ratio: N`` = reference time at 10 sizes / our full-MRC time.

  .venv/bin/python bench/bench_mrc.py [--requests 10000000] [--ids 1000000] [--shards-requests 100000000]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from numba import njit  # noqa: E402

from models.sim import hit_ratio_curve, shards_mrc, simulate  # noqa: E402
from models.sim.minisim import minisim_mrc  # noqa: E402
from models.sim.primitives import as_flags, as_ids  # noqa: E402
from models.sim.stack_distance import default_threads  # noqa: E402


def zipf_ids(n_ids: int, n: int, alpha: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, n_ids + 1, dtype=float) ** alpha
    ranks = rng.choice(n_ids, n, p=p / p.sum())
    return rng.permutation(n_ids)[ranks].astype(np.int64)  # popularity not tied to id order


@njit(cache=True)
def _alias_draw(prob, alias, n, seed, out):
    np.random.seed(seed)
    m = prob.shape[0]
    for i in range(n):
        k = np.int64(np.random.random() * m)
        out[i] = k if np.random.random() < prob[k] else alias[k]


def zipf_ids_fast(n_ids: int, n: int, alpha: float, seed: int) -> np.ndarray:
    """Zipf(alpha) ids by Walker's alias method (O(1) per draw, for 10^8 requests)."""
    p = 1.0 / np.arange(1, n_ids + 1, dtype=float) ** alpha
    q = p / p.sum() * n_ids
    prob = np.ones(n_ids)
    alias = np.arange(n_ids, dtype=np.int64)
    small = list(np.flatnonzero(q < 1.0))
    large = list(np.flatnonzero(q >= 1.0))
    while small and large:
        s, g = small.pop(), large.pop()
        prob[s], alias[s] = q[s], g
        q[g] -= 1.0 - q[s]
        (small if q[g] < 1.0 else large).append(g)
    ranks = np.empty(n, np.int64)
    _alias_draw(prob, alias, n, seed, ranks)
    return np.random.default_rng(seed).permutation(n_ids)[ranks]


# --------------------------------------------------------------------------- reference only
# The FIFO / CLOCK kernel as it was before FIFO, CLOCK and age shared one ring kernel
# (models/sim/policies.py at commit 8b1f16c: ``_ring`` with its ``_evict``), copied verbatim (renamed)
# as the speed reference of the one-size section. Not used by any model; do not import it.


@njit(cache=True)
def _former_evict(v, cached, dirty):
    """Drop block ``v``; return 1 if it was dirty (one writeback), else 0."""
    cached[v] = False
    if dirty[v]:
        dirty[v] = False
        return 1
    return 0


@njit(cache=True)
def _former_ring(ids, is_write, cap, second_chance, ref_on_insert, n_ids, rec, r_hit, r_ins, r_wb):
    """FIFO, or CLOCK with ``second_chance``: blocks on a ring of ``cap`` slots, one hand.

    ``ref_on_insert``: a newly inserted block starts with its reference bit set (the
    virtual-memory reading: the faulting access is a use) instead of clear.
    """
    n = ids.shape[0]
    if cap <= 0:
        return 0, 0, 0, 0
    ring = np.empty(cap, np.int64)
    cached = np.zeros(n_ids, np.bool_)
    ref = np.zeros(n_ids if second_chance else 0, np.bool_)  # CLOCK reference bits
    dirty = np.zeros(n_ids, np.bool_)
    size = 0
    hand = 0
    hits = 0
    inserts = 0
    wbs = 0
    for i in range(n):
        x = ids[i]
        if cached[x]:
            hits += 1
            if second_chance:
                ref[x] = True
            if rec:
                r_hit[i] = True
        else:
            if size == cap:
                v = ring[hand]
                while second_chance and ref[v]:
                    ref[v] = False
                    hand += 1
                    if hand == cap:
                        hand = 0
                    v = ring[hand]
                if _former_evict(v, cached, dirty):
                    wbs += 1
                    if rec:
                        r_wb[i] = True
                ring[hand] = x
                hand += 1
                if hand == cap:
                    hand = 0
            else:
                ring[size] = x
                size += 1
            cached[x] = True
            if second_chance:
                ref[x] = ref_on_insert
            inserts += 1
            if rec:
                r_ins[i] = True
        if is_write[i]:
            dirty[x] = True
    return hits, inserts, wbs, np.int64(np.count_nonzero(dirty))


def former_hits(ids, cache_blocks: int, policy: str) -> int:
    """Hits of the former FIFO / CLOCK kernel, with the same input preparation as ``simulate``."""
    a = as_ids(ids)
    n = len(a)
    w = as_flags(None, n)
    n_ids = int(a.max()) + 1 if n else 1
    e = np.zeros(0, np.bool_)
    return int(_former_ring(a, w, min(cache_blocks, n_ids), policy == "clock", False, n_ids, False, e, e, e)[0])


def bench_one_size(ids, cache_blocks: int, repeat: int) -> list[str]:
    """One-size FIFO and CLOCK: ``simulate`` (the shared ring kernel) vs the former separate kernel, runs
    interleaved (former, shared) ``repeat`` times; returns the goal line."""
    n = len(ids)
    for pol in ("fifo", "clock"):  # compile (or load) both kernels outside the timings
        former_hits(ids[:5000], 100, pol)
        simulate(ids[:5000], 100, pol)
    ratios = []
    same = True
    for pol in ("fifo", "clock"):
        t_old, t_new = [], []
        for _ in range(max(1, repeat)):
            t0 = time.perf_counter()
            h_old = former_hits(ids, cache_blocks, pol)
            t_old.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            r = simulate(ids, cache_blocks, pol)
            t_new.append(time.perf_counter() - t0)
        same &= r.hits == h_old
        best, med = n / min(t_new) / 1e6, n / float(np.median(t_new)) / 1e6
        best_o, med_o = n / min(t_old) / 1e6, n / float(np.median(t_old)) / 1e6
        ratios.append(min(t_old) / min(t_new))
        print(f"{pol.upper()} at {cache_blocks:,} blocks: hit ratio {r.hit_ratio:.4f}; shared ring kernel "
              f"{best:.1f} M requests/s (median {med:.1f}), former separate kernel {best_o:.1f} (median {med_o:.1f}); "
              f"shared / former {ratios[-1]:.2f}x best, {float(np.median(t_old)) / float(np.median(t_new)):.2f}x median "
              f"({repeat} interleaved runs); hits equal: {r.hits == h_old}")
    goal = (f"one-size FIFO / CLOCK, shared ring kernel vs the former separate kernel: {ratios[0]:.2f}x / "
            f"{ratios[1]:.2f}x (best of {repeat}; goal >= 1 within noise; load average {os.getloadavg()[0]:.1f}); "
            f"hits equal: {same}")
    print(goal)
    return [goal]


def bench_minisim(ids, exact, rates, seed: int, min_blocks=(0,), repeat: int = 3) -> list[str]:
    """MiniSim vs the exact full simulation at 20 sizes, at each sampling rate of ``rates``; returns the goal
    lines. Each MiniSim time is the median of ``repeat`` runs (same seed, same result), kernels compiled first."""
    goals = []
    n = len(ids)
    sizes = np.unique(np.rint(np.geomspace(1000, 0.8 * exact.footprint_blocks, 20)).astype(np.int64))
    for pol in ("fifo", "clock", "ac", "lru"):  # compile (or load) every policy's kernel outside the timings
        minisim_mrc(ids[:5000], policy=pol, rate=0.5, sizes=[10])
    refs = {"lru": exact.hit_ratio[sizes - 1]}
    for pol in ("fifo", "clock", "ac"):
        t0 = time.perf_counter()
        refs[pol] = np.array([simulate(ids, int(c), pol).hit_ratio for c in sizes])
        dt = time.perf_counter() - t0
        print(f"exact {pol.upper()} simulation at {len(sizes)} sizes (MiniSim reference): {dt:.1f} s "
              f"({len(sizes) * n / dt / 1e6:.1f} M requests/s)")
    for rate in rates:
        for mb in min_blocks:
            ok = True
            for pol in ("fifo", "clock", "ac", "lru"):
                times = []
                for _ in range(max(1, repeat)):
                    t0 = time.perf_counter()
                    est = minisim_mrc(ids, policy=pol, rate=rate, sizes=sizes, seed=seed, min_blocks=mb)
                    times.append(time.perf_counter() - t0)
                dt = float(np.median(times))
                err = np.abs(est.hit_ratio - refs[pol])
                print(f"MiniSim {pol.upper()} rate {rate}, min_blocks {mb}, {len(sizes)} sizes: {dt:.3f} s (median of {len(times)}) "
                      f"({n / dt / 1e6:.1f} M requests/s), {est.sampled_blocks:,} sampled blocks; hit-ratio error vs "
                      f"exact simulation: mean {err.mean():.4f}, max {err.max():.4f}")
                if pol in ("fifo", "clock"):
                    ok &= n / dt >= 50e6 and err.mean() <= 0.01
            goals.append(f"MiniSim rate {rate}, min_blocks {mb}: CLOCK/FIFO goals (>= 50 M requests/s, MAE <= 0.01) "
                         f"met: {ok}")
            print(goals[-1])
    return goals


def bench_shards_large(n: int, n_ids: int, alpha: float, seed: int, max_samples: int) -> list[str]:
    t0 = time.perf_counter()
    ids = zipf_ids_fast(n_ids, n, alpha, seed + 1)
    print(f"large trace: {n:,} requests, Zipf({alpha}) over {n_ids:,} ids (alias sampler, {time.perf_counter() - t0:.1f} s)")
    t0 = time.perf_counter()
    exact = hit_ratio_curve(ids)
    t_ex = time.perf_counter() - t0
    print(f"  exact MRC, all {len(exact.cache_blocks):,} sizes: {t_ex:.1f} s ({n / t_ex / 1e6:.1f} M requests/s)")
    shards_mrc(ids[:5000], rate=0.5, max_samples=100)  # compile outside the timings
    goals = []
    for label, kw in (("fixed rate R=0.01", dict(rate=0.01)),
                      (f"fixed size S={max_samples:,}", dict(rate=1.0, max_samples=max_samples))):
        t0 = time.perf_counter()
        sh = shards_mrc(ids, sizes=exact.cache_blocks, seed=seed, **kw)
        dt = time.perf_counter() - t0
        err = np.abs(sh.hit_ratio - exact.hit_ratio)
        goal = err.mean() <= 0.002 and n / dt >= 100e6
        print(f"  SHARDS_adj {label}: {dt:.2f} s ({n / dt / 1e6:.0f} M requests/s), final rate {sh.rate:.5f}, "
              f"{sh.sampled_blocks:,} sampled blocks; error over all sizes: mean {err.mean():.5f}, max {err.max():.4f}; "
              f"goal (MAE <= 0.002, >= 100 M requests/s) met: {goal}")
        goals.append(f"SHARDS_adj {label} on {n:,} requests: goal (MAE <= 0.002, >= 100 M requests/s) met: {goal} "
                     f"({n / dt / 1e6:.0f} M requests/s, MAE {err.mean():.5f})")
    return goals


def write_oracle_general(ids: np.ndarray, path: str) -> None:
    """libCacheSim oracleGeneral: packed <uint32 time, uint64 id, uint32 size, int64 next_vtime>."""
    rec = np.zeros(len(ids), dtype=[("t", "<u4"), ("id", "<u8"), ("sz", "<u4"), ("nv", "<i8")])
    rec["t"] = np.arange(len(ids)) // 1000
    rec["id"] = ids
    rec["sz"] = 1  # unit-size objects: cache_size counts blocks
    rec["nv"] = -1
    rec.tofile(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=10_000_000)
    ap.add_argument("--ids", type=int, default=1_000_000)
    ap.add_argument("--alpha", type=float, default=0.9)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--minisim-rates", type=str, default="0.01,0.03", help="MiniSim sampling rates R,R,...")
    ap.add_argument("--minisim-min-blocks", type=str, default="0,100",
                    help="MiniSim smallest miniature caches M,M,... [blocks] (0 = the paper's plain scaling)")
    ap.add_argument("--shards-requests", type=int, default=100_000_000, help="0 skips the large SHARDS run")
    ap.add_argument("--max-samples", type=int, default=16_384, help="fixed-size SHARDS bound [blocks]")
    ap.add_argument("--repeat", type=int, default=5, help="exact-MRC and one-size timings (median and best of) [-]")
    ap.add_argument("--one-size-only", action="store_true", help="run only the one-size FIFO / CLOCK section")
    a = ap.parse_args(argv)

    ids = zipf_ids(a.ids, a.requests, a.alpha, a.seed)
    n = len(ids)
    print(f"trace: {n:,} requests, Zipf({a.alpha}) over {a.ids:,} ids, footprint {len(np.unique(ids)):,} blocks")
    if a.one_size_only:
        bench_one_size(ids, max(1, len(np.unique(ids)) // 10), a.repeat)
        return 0
    warm = ids[:5000]  # compile (or load the numba cache) outside the timings
    hit_ratio_curve(warm)
    shards_mrc(warm, rate=0.5)
    for pol in ("lru", "fifo", "clock"):
        simulate(warm, 100, pol)

    threads = default_threads(n)
    t_one = []
    t_par = []
    for _ in range(a.repeat):  # interleaved: 1 thread, then the default threads
        t0 = time.perf_counter()
        one = hit_ratio_curve(ids, threads=1)
        t_one.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        exact = hit_ratio_curve(ids, threads=threads)
        t_par.append(time.perf_counter() - t0)
    t_ours, t_1 = float(np.median(t_par)), float(np.median(t_one))
    same = bool(np.array_equal(one.hits, exact.hits))
    print(f"exact MRC, all {len(exact.cache_blocks):,} sizes, median of {a.repeat} (best): 1 thread {t_1:.3f} s "
          f"({n / t_1 / 1e6:.1f} M requests/s; best {n / min(t_one) / 1e6:.1f}); {threads} threads {t_ours:.3f} s "
          f"({n / t_ours / 1e6:.1f} M requests/s; best {n / min(t_par) / 1e6:.1f}); {threads}-thread speed-up "
          f"{t_1 / t_ours:.2f}x; identical curves: {same}")

    sizes = np.unique(np.rint(np.geomspace(1000, 0.8 * exact.footprint_blocks, 10)).astype(np.int64))
    ours = exact.hits[sizes - 1]

    try:
        import libcachesim as lcs
    except ImportError:
        lcs = None
    ref_hits = []
    if lcs is not None:
        ref_name = f"libcachesim {getattr(lcs, '__version__', '')} LRU process_trace".replace("  ", " ")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "zipf.oracleGeneral")
            write_oracle_general(ids, path)
            t_ref = 0.0
            for c in sizes:
                reader = lcs.TraceReader(path, lcs.TraceType.ORACLE_GENERAL_TRACE)
                cache = lcs.LRU(cache_size=int(c))
                t0 = time.perf_counter()
                miss_ratio, _ = cache.process_trace(reader)
                t_ref += time.perf_counter() - t0
                ref_hits.append(int(round(n * (1.0 - miss_ratio))))
    else:
        ref_name = "our per-size numba LRU simulator (libcachesim NOT installed: pip install libcachesim)"
        t_ref = 0.0
        for c in sizes:
            t0 = time.perf_counter()
            ref_hits.append(simulate(ids, int(c), "lru").hits)
            t_ref += time.perf_counter() - t0
    print(f"reference: {ref_name}, {len(sizes)} sizes: {t_ref:.3f} s ({len(sizes) * n / t_ref / 1e6:.1f} M requests/s)")
    print("cache_blocks,our_hits,reference_hits")
    for c, h, r in zip(sizes, ours, ref_hits):
        print(f"{c},{h},{r}")
    match = all(int(h) == int(r) for h, r in zip(ours, ref_hits))
    print(f"hit counts equal at all {len(sizes)} sizes: {match}")

    one_size = bench_one_size(ids, max(1, exact.footprint_blocks // 10), a.repeat)

    t0 = time.perf_counter()
    sh = shards_mrc(ids, rate=0.01, sizes=exact.cache_blocks, seed=a.seed)
    t_sh = time.perf_counter() - t0
    err = np.abs(sh.hit_ratio - exact.hit_ratio)
    at = np.abs(sh.hit_ratio[sizes - 1] - exact.hit_ratio[sizes - 1])
    print(f"SHARDS rate 0.01: {t_sh:.3f} s, miss-ratio error vs exact over all sizes: mean {err.mean():.4f}, "
          f"max {err.max():.4f} (at {int(exact.cache_blocks[err.argmax()]):,} blocks); at the 10 sizes: max {at.max():.4f}")
    goal = n / t_ours >= 15e6
    goals = [f"exact MRC goal >= 15 M requests/s met: {goal} (median {n / t_ours / 1e6:.1f} M requests/s with "
             f"{threads} threads, {n / t_1 / 1e6:.1f} with 1; load average {os.getloadavg()[0]:.1f}, a shared machine "
             f"lowers it; variants tried: docs/models/sim.md)"]
    print(goals[0])
    goals += one_size
    goals += bench_minisim(ids, exact, [float(r) for r in a.minisim_rates.split(",")], a.seed,
                           [int(m) for m in a.minisim_min_blocks.split(",")], repeat=min(a.repeat, 3))
    if a.shards_requests > 0:
        goals += bench_shards_large(a.shards_requests, a.ids, a.alpha, a.seed, a.max_samples)
    print("goals:")
    for g in goals:
        print(f"  {g}")
    if not match:
        print("ERROR: hit counts differ from the reference", file=sys.stderr)
    print(f"ratio: {t_ref / t_ours:.1f}")
    return 0 if match else 1


if __name__ == "__main__":
    sys.exit(main())
