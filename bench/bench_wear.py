"""Benchmark: wear-leveling simulation (models.endurance.wear, numba) vs a pure-Python reference.

Stream: 10M stripe writes, 90 % on a contiguous 10 % of the Table I device and 10 % uniform
(seeded), psi = 100. For every scheme (none, sg, rr, sfc) measured in the same run:

- the numba kernel over all writes (after a warm-up call that compiles / loads the cache),
  reported in writes (requests) per second; the issue's target is 10M writes <= 2 s;
- the pure-Python reference ``simulate_wear_reference`` (moves the data explicitly) on the
  first ``--ref-writes`` writes; its counts must equal the kernel's on that prefix.

Per scheme: ``ratio`` = kernel writes/s / reference writes/s. Then the paper comparison per
bundled trace (one pass and long run) next to seed 003's averages.

  .venv/bin/python bench/bench_wear.py [--writes 10000000] [--ref-writes 200000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.endurance import wear  # noqa: E402


def hot_stream(cfg: wear.WearConfig, n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    cap = cfg.logical_stripes
    hot = rng.random(n) < 0.9
    return np.where(hot, rng.integers(0, cap // 10, n), rng.integers(0, cap, n)).astype(np.int64)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--writes", type=int, default=10_000_000)
    ap.add_argument("--ref-writes", type=int, default=200_000)
    ap.add_argument("--no-traces", action="store_true", help="skip the per-trace paper comparison")
    args = ap.parse_args()

    cfg = wear.WearConfig()
    lsn = hot_stream(cfg, args.writes)
    print(f"stream: {len(lsn):,} stripe writes (90 % on 10 % of the device), Table I geometry, psi = "
          f"{cfg.gap_interval_writes}")
    print(f"{'scheme':6s} {'kernel_s':>9s} {'kernel_writes_per_s':>20s} {'ref_writes_per_s':>17s} {'ratio':>8s} "
          f"{'life_rate':>9s}")
    ratios = []
    for s in wear.SCHEMES:
        wear.simulate_wear(lsn[:1000], s, cfg)  # compile / load the numba cache
        t0 = time.perf_counter()
        r = wear.simulate_wear(lsn, s, cfg)
        tk = time.perf_counter() - t0
        sub = lsn[: args.ref_writes]
        t0 = time.perf_counter()
        ref = wear.simulate_wear_reference(sub, s, cfg)
        tr = time.perf_counter() - t0
        chk = wear.simulate_wear(sub, s, cfg)
        if not (np.array_equal(chk.stripe_writes, ref.stripe_writes) and chk.moves == ref.moves):
            print(f"MISMATCH between kernel and reference for {s}", file=sys.stderr)
            return 1
        k_rate, r_rate = len(lsn) / tk, len(sub) / tr
        ratios.append(k_rate / r_rate)
        print(f"{s:6s} {tk:9.3f} {k_rate:20,.0f} {r_rate:17,.0f} {k_rate / r_rate:8.1f} {r.life_rate:9.4f}")
    print(f"ratio (geometric mean over schemes, kernel vs reference writes/s): "
          f"{float(np.exp(np.mean(np.log(ratios)))):.1f}")

    if not args.no_traces:
        from models.traces import bundled_traces, load

        print("\nper trace (bundled; synthetic presets at 100k requests, scale 0.05): life rate one pass / long run")
        print(f"{'trace':24s} {'writes':>8s} " + " ".join(f"{s + '_1p':>8s} {s + '_lr':>8s}" for s in ("sg", "rr", "sfc"))
              + f" {'sfc/sg_1p':>9s} {'sfc/sg_lr':>9s}")
        acc = {k: [] for k in ("sg", "rr", "sfc")}
        acc_lr = {k: [] for k in ("sg", "rr", "sfc")}
        for name in bundled_traces():
            if name.startswith(("disksim:", "lackey:")):
                continue
            stream = wear.stripe_write_stream(load(name), cfg)
            if len(stream) < 1_000:  # too few writes for 128 banks (e.g. 4 writes): skip
                print(f"{name:24s} {len(stream):8d}  (skipped: < 1,000 stripe writes)")
                continue
            df, _ = wear.compare_schemes(stream, ("sg", "rr", "sfc"), cfg)
            row = df.set_index("scheme")
            for s in acc:
                acc[s].append(row.loc[s, "life_rate"])
                acc_lr[s].append(row.loc[s, "life_rate_long_run"])
            print(f"{name:24s} {len(stream):8d} " + " ".join(
                f"{row.loc[s, 'life_rate']:8.3f} {row.loc[s, 'life_rate_long_run']:8.3f}" for s in acc)
                + f" {row.loc['sfc', 'improvement_vs_sg']:9.2f} {row.loc['sfc', 'improvement_vs_sg_long_run']:9.2f}")
        if acc["sg"]:
            print(f"{'average (ours)':24s} {'':8s} " + " ".join(
                f"{np.mean(acc[s]):8.3f} {np.mean(acc_lr[s]):8.3f}" for s in acc)
                + f" {np.mean(np.array(acc['sfc']) / np.array(acc['sg'])):9.2f}"
                + f" {np.mean(np.array(acc_lr['sfc']) / np.array(acc_lr['sg'])):9.2f}")
        p = wear.PAPER_LIFE_RATE
        print(f"{'paper (7 traces)':24s} {'':8s} {p['sg']:8.4f} {'':8s} {p['rr']:8.3f} {'':8s} {p['sfc']:8.4f} "
              f"{'':8s} {wear.PAPER_IMPROVEMENT_SFC_VS_SG:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
