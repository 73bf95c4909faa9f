"""Run a sweep spec (traces x devices x parameter grids) on Dask distributed, resumably.

  pcm-planner sweep docs/sweep_example.toml --out results.parquet                 # LocalCluster, all CPUs
  pcm-planner sweep spec.toml --workers 2 --out results.parquet
  pcm-planner sweep spec.toml --scheduler tcp://10.0.0.5:8786 --out results.parquet   # a running cluster
  pcm-planner sweep spec.toml --scheduler serial --out results.parquet           # in this process

Writes ``results.parquet`` and ``results.csv`` (formula-safe) next to it, one row per task
result led by ``task,model,trace,device`` and the grid parameters; finished tasks are kept in
``results.parquet.parts/`` so an interrupted sweep resumes where it stopped. Prints a summary
(``tasks,computed,reused,wall_s,parquet,csv``) and a progress bar on stderr. Spec schema:
``docs/sweep.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from cli.argtypes import whole_number
from cli.output import add_format_option, emit

NAME = "sweep"
#: Most LocalCluster worker processes (a typo must not fork thousands of processes).
_MAX_WORKERS = 1024
HELP = "run a TOML sweep spec on Dask (LocalCluster or a scheduler address); Parquet + CSV results, resumable"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", metavar="SPEC.toml", help="sweep spec (schema: docs/sweep.md)")
    p.add_argument("--out", required=True, help="result file (.parquet); the CSV is written next to it")
    p.add_argument("--scheduler", default="local",
                   help="local (a Dask LocalCluster, default), a scheduler address tcp://HOST:PORT, or serial "
                        "(in this process, no Dask)")
    p.add_argument("--workers", type=whole_number, default=None,
                   help="LocalCluster worker processes (default: the CPU count)")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar on stderr")
    add_format_option(p)


def _bar():
    def report(fraction: float) -> None:
        stream = sys.stderr  # looked up at each call (a redirected stderr is followed)
        f = min(max(float(fraction), 0.0), 1.0)
        n = int(round(f * 30))
        stream.write(f"\rsweep [{'#' * n}{'.' * (30 - n)}] {f:4.0%}")
        if f >= 1.0:
            stream.write("\n")
        stream.flush()

    return report


def run(args: argparse.Namespace) -> int:
    from models.sweep import load_spec, run_sweep
    from reporting.csv_safety import sanitize_frame

    if args.workers is not None and not 1 <= args.workers <= _MAX_WORKERS:
        raise ValueError(f"--workers must be within 1..{_MAX_WORKERS} (got {args.workers})")
    out = Path(args.out)
    if out.suffix.lower() != ".parquet":
        raise ValueError(f"--out must name a .parquet file (got {args.out!r})")
    out.parent.mkdir(parents=True, exist_ok=True)
    spec = load_spec(args.spec)
    res = run_sweep(spec, out, scheduler=args.scheduler, workers=args.workers,
                    progress=_bar() if args.progress else None)
    csv_path = out.with_suffix(".csv")
    sanitize_frame(res.table).to_csv(csv_path, index=False, float_format="%.10g", lineterminator="\n")
    emit(pd.DataFrame([{"tasks": res.n_tasks, "computed": len(res.computed), "reused": res.reused,
                        "wall_s": round(res.wall_seconds, 3), "parquet": str(out), "csv": str(csv_path)}]),
         args.output_format)
    return 0
