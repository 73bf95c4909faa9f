"""Parameter sweeps over traces, devices and model parameters, serial or on Dask distributed.

A TOML spec (``docs/sweep.md``) names traces, devices and a parameter grid per model
(:func:`load_spec`); :func:`run_sweep` runs the tasks -- in this process, on a Dask
``LocalCluster`` or on a running Dask scheduler -- storing each finished task so an interrupted
sweep resumes where it stopped, and writes one Parquet table. Dask is imported only when a
sweep runs on it (``import models.sweep`` does not import it).
"""

from models.sweep.registry import SWEEP_MODELS, SweepModel, get_model, load_counts
from models.sweep.run import ID_COLUMNS, SweepRun, estimate_seconds, parts_dir, run_sweep, run_task
from models.sweep.spec import (
    ModelEntry,
    SweepSpec,
    Task,
    TraceEntry,
    check_hosted,
    load_spec,
    parse_spec,
)

__all__ = [
    "SWEEP_MODELS",
    "SweepModel",
    "get_model",
    "load_counts",
    "ID_COLUMNS",
    "SweepRun",
    "estimate_seconds",
    "parts_dir",
    "run_sweep",
    "run_task",
    "ModelEntry",
    "SweepSpec",
    "Task",
    "TraceEntry",
    "load_spec",
    "parse_spec",
    "check_hosted",
]
