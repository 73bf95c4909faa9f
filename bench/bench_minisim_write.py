"""Benchmark: MiniSim for the write caches (HALO, LRU write cache) vs their full simulation.

A Fin1-like synthetic trace (``preset("fin1")``, ``--requests``) cut into items; the paper's
cache sizes scaled to its footprint (``scaled_cache_sizes_mb``). Measured in the same run, per
policy: the exact simulation at every size [s] and MiniSim (``models.storage.write_cache_minisim``) at
each ``--rates`` rate [s], with the mean / max absolute error of the traffic rate (HDD sectors /
requested sectors) and of the item hit ratio against the exact values (HALO with its default
region sample and with a block sample). No goal is set in the
issue for the write caches; the last line is ``ratio: N`` = exact time / MiniSim time at the
first rate (HALO).

  .venv/bin/python bench/bench_minisim_write.py [--requests 1000000] [--rates 0.1,0.03]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _common import print_ratio

from models.storage import write_cache as wc
from models.storage.write_cache_minisim import minisim_write_cache
from models.traces.synthetic import preset


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=1_000_000)
    ap.add_argument("--rates", type=str, default="0.1,0.03")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    req = wc.prepare_requests(preset("fin1", a.requests, seed=0, scale=0.05))
    caps = np.unique([max(2, int(mb * 2**20 // 4096)) for mb in wc.scaled_cache_sizes_mb(wc.footprint_bytes(req))])
    print(f"trace: fin1 preset, {a.requests:,} requests, {req.footprint_blocks:,} blocks, {req.n_regions:,} regions; "
          f"{len(caps)} sizes {caps.min():,}-{caps.max():,} blocks")
    small = wc.prepare_requests(preset("fin1", 2000, seed=1))
    minisim_write_cache(small, [64], method="exact")  # compile outside the timings
    minisim_write_cache(small, [64], policy="lru", method="exact")
    first = None
    for pol in ("halo", "lru"):
        t0 = time.perf_counter()
        ex = minisim_write_cache(req, caps, policy=pol, method="exact")
        t_ex = time.perf_counter() - t0
        print(f"{pol.upper()} exact, {len(caps)} sizes: {t_ex:.2f} s")
        for r in (float(x) for x in a.rates.split(",")):
            for unit in (("region", "block") if pol == "halo" else ("block",)):  # the first is the default
                t0 = time.perf_counter()
                ms = minisim_write_cache(req, caps, policy=pol, rate=r, seed=a.seed, unit=unit)
                dt = time.perf_counter() - t0
                et = np.abs(ms.traffic_rate - ex.traffic_rate)
                eh = np.abs(ms.hit_ratio - ex.hit_ratio)
                print(f"  MiniSim rate {r}, {unit} sample: {dt:.3f} s ({t_ex / dt:.1f}x faster), "
                      f"{ms.sampled_requests:,} sampled requests; traffic-rate error mean {et.mean():.4f} max "
                      f"{et.max():.4f}; hit-ratio error mean {eh.mean():.4f} max {eh.max():.4f}")
                if first is None:
                    first = (t_ex, dt)
    print_ratio(*first)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
