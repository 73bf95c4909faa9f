#!/usr/bin/env python3
"""Post-processing for ``run.sh``: whole-run data-reference counts and the ``programs.csv`` table.

``counts --cachegrind CG.out --out C.json``
    Totals of a cachegrind output file: ``Ir`` (instruction fetches), ``Dr`` (loads; a modify is
    counted once, as a read) and ``Dw`` (stores); data references = Dr + Dw (= lackey L + S + M).
``counts --lackey L.json --out C.json``
    The whole-run counts ``lackey_window`` printed (data references = L + S + M).
``table``
    ``programs.csv`` from every ``<name>.counts.json`` and ``<name>.timing.json`` next to this
    script: time per data reference [ns] = median native CPU time / data references (low = the
    fastest run, high = the slowest run), the wall-time figure, data writes per second of CPU time,
    and where the bundled trace's window lies in the run (``window_end_refs`` <= ``data_refs``).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# data references before the end of each bundled trace's window (skip + kept, data/SOURCES.md)
WINDOW_END = {"xz": 12_000_000, "sort": 7_000_000, "gcc": 7_000_000, "sqlite": 7_000_000, "numpy": 180_000_000}
FIELDS = ["program", "counter", "data_refs", "reads", "writes", "instruction_fetches", "native_runs",
          "cpu_median_s", "cpu_q25_s", "cpu_q75_s", "cpu_min_s", "cpu_max_s", "wall_median_s",
          "ns_per_data_ref", "ns_per_data_ref_low", "ns_per_data_ref_high", "wall_ns_per_data_ref",
          "writes_per_s", "window_end_refs", "trace", "command"]


def cmd_counts(a) -> int:
    if a.cachegrind:
        events = summary = None
        for line in Path(a.cachegrind).read_text().splitlines():
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("summary:"):
                summary = [int(x) for x in line.split()[1:]]
        if not events or not summary:
            raise SystemExit(f"{a.cachegrind}: no events/summary line (did cachegrind run with --cache-sim=yes?)")
        v = dict(zip(events, summary))
        out = {"counter": "cachegrind", "instruction_fetches": v["Ir"], "reads": v["Dr"], "writes": v["Dw"],
               "data_refs": v["Dr"] + v["Dw"]}
    else:
        c = json.loads(Path(a.lackey).read_text())
        out = {"counter": "lackey", "instruction_fetches": c["instruction_fetches"],
               "reads": c["loads"] + c["modifies"], "writes": c["stores"] + c["modifies"],
               "data_refs": c["data_refs"], "lackey": c}
    Path(a.out).write_text(json.dumps(out, indent=1))
    print(f"{a.out}: {out['data_refs']:,} data references ({out['counter']})", file=sys.stderr)
    return 0


def _short(cmd: str) -> str:
    return " ".join(w.split("/")[-1] if "/" in w else w for w in cmd.split())


def cmd_table(a) -> int:
    rows = []
    for cj in sorted(HERE.glob("*.counts.json")):
        name = cj.name.split(".")[0]
        tj = HERE / f"{name}.timing.json"
        if not tj.is_file():
            continue
        c, t = json.loads(cj.read_text()), json.loads(tj.read_text())
        n = c["data_refs"]
        cpu = t["cpu_median_s"]
        rows.append({"program": name, "counter": c["counter"], "data_refs": n, "reads": c["reads"],
                     "writes": c["writes"], "instruction_fetches": c["instruction_fetches"],
                     "native_runs": t["repeats"], "cpu_median_s": cpu, "cpu_q25_s": t["cpu_q25_s"],
                     "cpu_q75_s": t["cpu_q75_s"], "cpu_min_s": t["cpu_min_s"], "cpu_max_s": t["cpu_max_s"],
                     "wall_median_s": t["wall_median_s"], "ns_per_data_ref": cpu / n * 1e9,
                     "ns_per_data_ref_low": t["cpu_min_s"] / n * 1e9,
                     "ns_per_data_ref_high": t["cpu_max_s"] / n * 1e9,
                     "wall_ns_per_data_ref": t["wall_median_s"] / n * 1e9, "writes_per_s": c["writes"] / cpu,
                     "window_end_refs": WINDOW_END.get(name, ""), "trace": f"data/traces/mem/{name}.npz",
                     "command": _short(t["command"])})
    with open(HERE / "programs.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{r[k]:.6g}" if isinstance(r[k], float) else r[k]) for k in FIELDS})
    print((HERE / "programs.csv").read_text())
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("counts")
    g = c.add_mutually_exclusive_group(required=True)
    g.add_argument("--cachegrind")
    g.add_argument("--lackey")
    c.add_argument("--out", required=True)
    sub.add_parser("table")
    a = p.parse_args(argv)
    return {"counts": cmd_counts, "table": cmd_table}[a.cmd](a)


if __name__ == "__main__":
    raise SystemExit(main())
