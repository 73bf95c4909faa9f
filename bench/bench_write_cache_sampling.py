"""Benchmark: the streamed write cache's sampled fallback (1 MiB regions, MiniSim) against its exact run.

The planner's write-cache role (HALO of ``planner.write_cache_mb`` and no cache, each timed on the HDD model,
:class:`models.storage.write_cache_stream.WriteCacheStream`) falls back to a region sample when its exact state
exceeds its share of the memory budget. Here each trace runs exact (rate 1) and at forced rates (``--rates``,
default 1/2 .. 1/64), with no budget, and per rate and trace the errors are recorded:

- ``halo_traffic_rate``: HALO's HDD traffic rate (HDD sectors / requested sectors), absolute error [-];
- ``halo_hdd_time``: HALO's HDD time (``exec_time_s``), relative error [-] (signed: the sample's seeks span the
  regions it leaves out, so it is biased);
- ``row_value``: the role's row value (HDD time without the cache / with it plus the device's write time) on
  ``--device``, relative error [-];
- ``halo_hdd_ms_per_sector``: the HALO stream's HDD time per sector, relative error [-]: the bias of timing a
  sample (its seeks cross the regions it leaves out).

Traces: the generated 2 M-request MSR trace ``--msr`` (skipped when absent; ``bench/_gen_msr.py`` makes it) and
the bundled real block traces with writes (``mqsim:tpcc-small``, the DiskSim validation traces). Results to
``--out`` (default ``data/measurements/write_cache_sampling_error.csv``, read by
:func:`models.storage.write_cache_stream.sampling_error_text`). The last line is ``ratio: N`` = the exact run's
time / the run at 1/16 on the largest trace (the none stream is exact in both, so the ratio is modest).

  .venv/bin/python bench/bench_write_cache_sampling.py [--msr /tmp/rdr/m2.csv.gz] [--rates 0.5,0.25,...]
"""

from __future__ import annotations

import argparse
import os
import time
from types import SimpleNamespace

import numpy as np
import pandas as pd
from _common import ROOT, print_ratio

from models import budget
from models.devices import get_device
from models.planner.role_stream import trace_chunks
from models.planner.role_write_cache import WriteCacheStream as Role
from models.storage.write_cache_stream import WriteCacheStream as Model
from models.traces.loader import load

BUNDLED = ("mqsim:tpcc-small", "disksim:atlas10k", "disksim:cheetah4LP", "disksim:ibm18es", "disksim:hp_c3323a",
           "disksim:barracuda", "disksim:dec_rz26")
CHUNK = 1 << 16  # requests per chunk fed to the stream


def run(tr, rate: float, dev) -> tuple[dict, float]:
    """(metrics, seconds) of the role on ``tr`` at region sampling ``rate``, no budget."""
    t0 = time.perf_counter()
    with budget.limit(0):
        role = Role(bands=False)
        role.model = Model(role.mb, parts=False, sample_rate=rate)
        chunks = trace_chunks(tr, [CHUNK])
        for c in chunks:
            role.first(c)
        role.end_first(dict(tr.meta), int(np.min(tr.time_ns)))
        for c in chunks:
            role.second(c)
        halo = role.model.result("halo")
        row = role.rows(SimpleNamespace(name="w"), tr, [dev], None, None)[0]
        h = role.model._halo
    return ({"halo_traffic_rate": halo.traffic_rate, "halo_hdd_time": halo.exec_time_s,
             "row_value": float(row["value"]), "halo_hdd_ms_per_sector": h.service_ms / max(h.sectors, 1)},
            time.perf_counter() - t0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--msr", default="/tmp/rdr/m2.csv.gz", help="generated MSR trace (skipped when absent)")
    ap.add_argument("--rates", default=",".join(str(2.0 ** -k) for k in range(1, 7)))
    ap.add_argument("--device", default="pcm-samsung-20nm")
    ap.add_argument("--out", default=str(ROOT / "data" / "measurements" / "write_cache_sampling_error.csv"))
    a = ap.parse_args(argv)
    rates = [float(x) for x in a.rates.split(",")]
    dev = get_device(a.device)
    names = list(BUNDLED) + ([a.msr] if os.path.exists(a.msr) else [])
    if not os.path.exists(a.msr):
        print(f"{a.msr}: absent, skipped (bench/_gen_msr.py makes it)")
    run(load("disksim:atlas10k"), 0.5, dev)  # compile outside the timings
    rows, ratio = [], None
    for name in names:
        tr = load(name, format="msr") if name == a.msr else load(name)
        label = os.path.basename(name) if name == a.msr else name
        ex, t_ex = run(tr, 1.0, dev)
        print(f"{label}: {len(tr):,} requests, exact {t_ex:.1f} s: HALO traffic {ex['halo_traffic_rate']:.4f}, "
              f"HDD time {ex['halo_hdd_time']:.4g} s, value {ex['row_value']:.4f}")
        for r in rates:
            got, dt = run(tr, r, dev)
            for m in got:
                e = got[m] - ex[m] if m == "halo_traffic_rate" else (got[m] / ex[m] - 1 if ex[m] else np.nan)
                rows.append({"trace": label, "requests": len(tr), "rate": r, "metric": m, "exact": ex[m],
                             "sampled": got[m], "error": e, "abs_error": abs(e),
                             "kind": "absolute" if m == "halo_traffic_rate" else "relative"})
            print(f"  rate {r:g}: {dt:.1f} s; traffic {got['halo_traffic_rate']:.4f} "
                  f"({got['halo_traffic_rate'] - ex['halo_traffic_rate']:+.4f}), HDD time "
                  f"{got['halo_hdd_time'] / ex['halo_hdd_time'] - 1:+.1%}, value "
                  f"{got['row_value'] / ex['row_value'] - 1:+.1%}, HDD ms/sector "
                  f"{got['halo_hdd_ms_per_sector'] / ex['halo_hdd_ms_per_sector'] - 1:+.1%}")
            if r == 1 / 16 and name == names[-1]:
                ratio = (t_ex, dt)
    df = pd.DataFrame(rows)
    df.to_csv(a.out, index=False, float_format="%.6g")
    print(f"wrote {a.out}")
    print(df.groupby(["rate", "metric"])["abs_error"].max().unstack().to_string(float_format="%.4f"))
    print_ratio(*(ratio or (1.0, 1.0)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
