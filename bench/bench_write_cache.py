"""Benchmark: HALO / LRU write-cache kernels and the HDD model (seed 003).

Measured in the same run, after a warm-up call that compiles the numba kernels:

1. a 1M-request Fin1-like synthetic trace (``models.traces.synthetic.preset("fin1")``) cut
   into 4 KiB items (``prepare_requests``), then HALO (``simulate_halo``) and our LRU write
   cache (``simulate_lru_write_cache``) at the paper's "512 MB" size scaled to the footprint;
   reference: the shared LRU kernel ``models.sim.policies.simulate_lru`` on the same item
   stream (same data structures, no sector bitmaps or HDD stream);
2. the HDD service-time model (``predict_service_ms``) on all bundled validation traces
   [requests/s] and the vectorised stream throughput model on the HALO HDD stream.

The last line is ``ratio: N`` = HALO time / reference LRU kernel time.

  .venv/bin/python bench/bench_write_cache.py [--requests 1000000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _common import print_ratio, timed

from models.sim.policies import simulate_lru
from models.storage import hdd
from models.storage import write_cache as wc
from models.traces.synthetic import preset


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=1_000_000)
    args = ap.parse_args()
    t0 = time.perf_counter()
    trace = preset("fin1", args.requests, seed=0, scale=0.05)
    t_gen = time.perf_counter() - t0
    t_prep, req = timed(wc.prepare_requests, trace, repeat=1)
    cap = max(2, int(wc.scaled_cache_sizes_mb(wc.footprint_bytes(req))[1] * 2**20 // 4096))
    small = wc.prepare_requests(preset("fin1", 2000, seed=1))
    wc.simulate_halo(small, 64)
    wc.simulate_lru_write_cache(small, 64)
    simulate_lru(small.item, 64, is_write=np.repeat(small.is_write, np.diff(small.item_ptr)))
    t_halo, halo = timed(wc.simulate_halo, req, cap)
    t_lru, lru = timed(wc.simulate_lru_write_cache, req, cap)
    w_items = np.repeat(req.is_write, np.diff(req.item_ptr))
    t_ref, _ = timed(simulate_lru, req.item, cap, is_write=w_items)
    print(f"trace: {len(trace):,} requests, {len(req.item):,} items, footprint {req.footprint_blocks:,} blocks, "
          f"cache {cap:,} blocks (generate {t_gen:.2f} s, prepare {t_prep:.2f} s)")
    print(f"HALO  {t_halo:.3f} s  ({len(trace) / t_halo / 1e6:.2f} M requests/s), traffic {halo.traffic_rate:.3f}")
    print(f"LRU   {t_lru:.3f} s  ({len(trace) / t_lru / 1e6:.2f} M requests/s), traffic {lru.traffic_rate:.3f}")
    print(f"reference simulate_lru {t_ref:.3f} s")
    g = hdd.generic_drive()
    t_tp, tp = timed(hdd.stream_throughput_MBps, g, np.mod(halo.hdd_lbn, g.block_count - 1024), halo.hdd_nsect,
                     halo.hdd_write)
    print(f"HDD stream throughput model: {len(halo.hdd_lbn):,} HDD requests in {t_tp:.3f} s -> {tp:.2f} MB/s")
    n = 0
    t = time.perf_counter()
    for name in hdd.drive_names():
        n += hdd.validate_drive(name).requests
    t = time.perf_counter() - t
    print(f"HDD service-time model: {n:,} validation requests in {t:.2f} s ({n / t:,.0f} requests/s)")
    print_ratio(t_halo, t_ref)


if __name__ == "__main__":
    main()
