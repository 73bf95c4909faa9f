"""The fleet planner on Dask: 2 workers vs 1 on ``--volumes`` generated MSR volumes (issue 41).

Generates ``--volumes`` MSR Cambridge CSVs of ``--per-volume`` requests each (``--uneven``: sizes drawn
from 0.25-1.75x that, so the largest-first order matters) and plans them with
:func:`models.planner.fleet.run_fleet`:

- serially, in this process (the reference rows; this process has imported the planner already);
- per repetition, for 1 and then 2 LocalCluster workers (processes of one thread each):
  *end to end* -- ``run_fleet(scheduler="local")``: cluster start, every worker's warm-up (imports and
  compiled kernels, :func:`~models.planner.fleet.warm_workers`) and the volumes; and *planning* -- a cluster
  started and warmed first (both timed and printed), then ``run_fleet(client=...)`` over the volumes alone,
  with the CPU time the workers' processes used meanwhile: CPU / (planning time x workers) is the share of a
  core each worker got -- below ~90 % the workers waited (for a core other processes held, or for tasks) --
  and the busiest worker's CPU time 1 vs 2 workers: an estimate of the planning ratio with a free core per
  worker (it counts the work and its split between the workers, not the waiting; Dask's own overhead in
  this process is not in it).

Each line says the load average at its start (the machine is shared: 2 cores, other processes), and
whether the rows equal the serial run's. Last line: ``ratio:`` planning time with 1 worker over
planning time with 2 workers, the last repetition (each repetition's ratios are printed above it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import ROOT, print_ratio
from _gen_msr import write_msr_csv

os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))  # workers load the kernels compiled here


def _load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def make_volumes(folder: Path, volumes: int, per_volume: int, uneven: bool) -> Path:
    """Write the volumes and a fleet spec over them; the spec's path."""
    folder.mkdir(parents=True, exist_ok=True)
    scale = np.random.default_rng(41).uniform(0.25, 1.75, volumes) if uneven else np.ones(volumes)
    for i in range(volumes):
        p = folder / f"vol{i:03d}.csv"
        if not p.exists():
            write_msr_csv(p, max(1, int(per_volume * scale[i])), seed=100 + i)
    spec = folder / "fleet.toml"
    spec.write_text('traces = ["vol*.csv"]\ndevices = ["pcm-samsung-20nm"]\n')
    return spec


def _cpu_s() -> float:
    """CPU time of this process [s] (run on each worker)."""
    return time.process_time()


def _fresh(out: Path) -> Path:
    from models.planner.fleet import parts_dir

    out.unlink(missing_ok=True)
    shutil.rmtree(parts_dir(out), ignore_errors=True)
    return out


def end_to_end(spec, out: Path, workers: int):
    """(seconds, rows) of ``run_fleet`` on a new LocalCluster, start-up and warm-up included."""
    from models.planner.fleet import run_fleet

    t = time.perf_counter()
    rows = run_fleet(spec, _fresh(out), scheduler="local", workers=workers)
    return time.perf_counter() - t, rows


def planning(spec, out: Path, workers: int):
    """(start [s], warm-up [s], planning [s], each worker's CPU during planning [s], rows): a LocalCluster
    started and warmed, then the volumes."""
    from dask.distributed import Client

    from models.planner.fleet import fleet_traces, run_fleet, warm_workers
    from models.sweep.run import local_cluster

    t = time.perf_counter()
    cluster = local_cluster(workers)
    client = Client(cluster)
    try:
        start = time.perf_counter() - t
        warm = warm_workers(client, min(fleet_traces(spec), key=os.path.getsize), spec)
        cpu0 = client.run(_cpu_s)
        t = time.perf_counter()
        rows = run_fleet(spec, _fresh(out), client=client)
        wall = time.perf_counter() - t
        cpu = [c - cpu0[w] for w, c in client.run(_cpu_s).items()]
        return start, warm, wall, cpu, rows
    finally:
        client.close()
        cluster.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--volumes", type=int, default=40)
    ap.add_argument("--per-volume", type=int, default=20_000)
    ap.add_argument("--uneven", action="store_true", help="volume sizes 0.25-1.75x --per-volume (seeded)")
    ap.add_argument("--repeat", type=int, default=1, help="repetitions of the 1-vs-2-worker runs")
    ap.add_argument("--dir", default=None, help="work folder (default: a temporary one; volumes are reused)")
    a = ap.parse_args()
    tmp = Path(a.dir or tempfile.mkdtemp(prefix="bench_fleet_"))
    spec_path = make_volumes(tmp / f"v{a.volumes}x{a.per_volume}{'u' if a.uneven else ''}", a.volumes,
                             a.per_volume, a.uneven)
    from models.planner.fleet import load_fleet_spec, run_fleet

    spec = load_fleet_spec(spec_path)
    print(f"fleet: {a.volumes} volumes x {a.per_volume:,} requests{' (uneven)' if a.uneven else ''}", flush=True)
    load = _load()
    t = time.perf_counter()
    serial = run_fleet(spec, _fresh(tmp / "serial.parquet"), scheduler="serial")
    print(f"serial: {time.perf_counter() - t:.1f} s, {len(serial)} rows ({load})", flush=True)
    for r in range(1, a.repeat + 1):
        e2e, plan_s, busiest = {}, {}, {}
        for w in (1, 2):
            load = _load()
            e2e[w], rows = end_to_end(spec, tmp / f"e2e{w}.parquet", w)
            print(f"[{r}] end to end, {w} worker(s): {e2e[w]:.1f} s; rows equal serial: {rows.equals(serial)} "
                  f"({load})", flush=True)
            load = _load()
            start, warm, plan_s[w], cpu, rows = planning(spec, tmp / f"plan{w}.parquet", w)
            busiest[w] = max(cpu)
            print(f"[{r}] {w} worker(s): cluster start {start:.1f} s, warm-up {warm:.1f} s, planning {plan_s[w]:.1f} s "
                  f"= {len(serial) / plan_s[w]:.1f} rows/s, workers' CPU {' + '.join(f'{c:.1f}' for c in cpu)} s = "
                  f"{sum(cpu) / plan_s[w] / w:.0%} of a core each; rows equal serial: {rows.equals(serial)} ({load})",
                  flush=True)
        print(f"[{r}] 1 worker / 2 workers: planning {plan_s[1] / plan_s[2]:.2f}x, end to end "
              f"{e2e[1] / e2e[2]:.2f}x; CPU of the busiest worker, 1 vs 2 workers: {busiest[1] / busiest[2]:.2f}x "
              f"(an estimate of the planning ratio with a free core per worker) ({_load()})", flush=True)
    print_ratio(plan_s[1], plan_s[2])


if __name__ == "__main__":
    main()
