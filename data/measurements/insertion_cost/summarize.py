"""Summarise insertion_runs.csv into insertion_cost.csv (stdlib only; part of PCM Planner, Apache-2.0).

Per device and block size, for every run: insert_steady = miss_steady - direct, insert_first =
miss_first - direct, insert_evict = miss_evict - direct (the insertion cost Tm - T of Park & Bahn
eq. 1), and hit (t). Prints the median over runs with the lowest and highest run (the spread).
Sizes below the device's sector size have no direct read and are left out.
"""

import csv
import statistics
import sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
val = {(r["device"], int(r["run"]), int(r["size_bytes"]), r["metric"]): float(r["median_ns"]) for r in rows}
runs = defaultdict(set)
for dev, run, size, _ in val:
    runs[(dev, size)].add(run)
derived = {
    "hit_ns": lambda g: g("hit_ns"),
    "direct_ns": lambda g: g("direct_ns"),
    "insert_steady_ns": lambda g: g("miss_steady_ns") - g("direct_ns"),
    "insert_first_ns": lambda g: g("miss_first_ns") - g("direct_ns"),
    "insert_evict_ns": lambda g: g("miss_evict_ns") - g("direct_ns"),
}
print("# File-cache insertion cost Tm - T measured by insertion.c (this folder); see README.md and data/SOURCES.md.")
print("# median over runs of the per-run median; low/high = lowest/highest run.")
print("device,size_bytes,quantity,median_ns,low_ns,high_ns,runs")
for (dev, size) in sorted(runs):
    rs = sorted(runs[(dev, size)])
    if any((dev, r, size, "direct_ns") not in val for r in rs):
        continue
    for q, f in derived.items():
        xs = [f(lambda m, r=r, d=dev, s=size: val[(d, r, s, m)]) for r in rs]
        print(f"{dev},{size},{q},{statistics.median(xs):.1f},{min(xs):.1f},{max(xs):.1f},{len(xs)}")
