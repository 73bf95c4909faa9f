"""HALO vs LRU on the seven stand-ins of seed 003 Figure 5 (a report, not a timing benchmark).

For each of Fin1, Fin2, Dap, Exchange, TPC-E, Mail and Randw (synthetic presets, 100k requests,
scale 0.05, seed 0: the ledger's inputs) at Figure 5's cache size ("512 MB" for Fin1/Fin2, "2 GB"
otherwise, scaled to the stand-in's footprint) it prints HALO's execution-time gain over the
default, like-for-like LRU (512 B sectors, the same PCM space) and over the block-fill LRU, and the
data each policy moves to the HDD (traffic rate: HDD sectors / requested sectors; no cache = 1),
plus the largest traffic rate of each LRU over the 8 sizes. ``python bench/report_write_cache.py``
(about a minute). Numbers: ``docs/models/write_cache.md``.
"""

from __future__ import annotations

import pandas as pd
from _common import ROOT  # noqa: F401  (puts the repository on sys.path)

from models.storage import write_cache as wc
from models.traces import load

SEVEN = ("fin1", "fin2", "dap", "exchange", "tpce", "mail", "randw")


def row(name: str) -> dict:
    req = wc.prepare_requests(load(f"synthetic:{name}", kind="block"))
    sector = wc.sweep_cache_sizes(req)
    block = wc.sweep_cache_sizes(req, policies=("lru",), lru_granularity="block")
    size = sector.cache_mb[list(wc.PAPER_CACHE_MB).index(512 if name in ("fin1", "fin2") else 2048)]
    h, s, b = sector.at("halo", size), sector.at("lru", size), block.at("lru", size)
    sf, bf = sector.to_frame(), block.to_frame()
    return {"trace": name, "cache_mb": round(size, 2),
            "halo_gain_vs_lru_pct": round(100 * (1 - h.exec_time_s / s.exec_time_s), 1),
            "halo_gain_vs_block_lru_pct": round(100 * (1 - h.exec_time_s / b.exec_time_s), 1),
            "traffic_halo": round(h.traffic_rate, 3), "traffic_lru": round(s.traffic_rate, 3),
            "traffic_block_lru": round(b.traffic_rate, 3),
            "max_traffic_lru": round(float(sf.loc[sf.policy == "lru", "traffic_rate"].max()), 3),
            "max_traffic_block_lru": round(float(bf.traffic_rate.max()), 3)}


if __name__ == "__main__":
    df = pd.DataFrame([row(n) for n in SEVEN])
    print(df.to_string(index=False))
    print(f"mean HALO gain vs LRU: {df.halo_gain_vs_lru_pct.mean():.1f} % "
          f"(vs block-fill LRU {df.halo_gain_vs_block_lru_pct.mean():.1f} %; paper 36.8 %)")
