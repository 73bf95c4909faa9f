"""Every Pydantic input model in models/ rejects NaN, infinity and negative sizes/times.

Walks all modules of the ``models`` package, finds every ``ModelInput`` subclass and, for
each numeric field, validates a payload with a bad value there: the error must name that
field. Fields whose names carry a non-negative unit (times, sizes, counts, rates) must
reject negatives too, unless the field is declared signed
(``json_schema_extra={"signed": True}``, e.g. fitted coefficients).
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import typing

import pytest

import models
from models._base import ModelInput
from tests import ROOT

NON_NEGATIVE_SUFFIXES = ("_ns", "_us", "_ms", "_s", "_bytes", "_mb", "_gb", "_kb", "_years", "_MBps", "_mbps",
                         "_per_cell", "_entries", "_blocks", "_count", "_size")


def _input_models():
    found = {}
    for info in pkgutil.walk_packages(models.__path__, "models."):
        mod = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(mod, inspect.isclass):
            if issubclass(obj, ModelInput) and obj is not ModelInput and obj.__module__ == mod.__name__:
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


MODELS = _input_models()


def _numeric(ann) -> bool:
    args = typing.get_args(ann)
    if ann in (int, float):
        return True
    return bool(args) and any(a in (int, float) for a in args) and not any(
        typing.get_origin(a) in (list, tuple, dict) for a in args)


def _errors_for(cls, field, value):
    from pydantic import ValidationError

    try:
        cls.model_validate({field: value})
    except ValidationError as e:
        return [err for err in e.errors() if err["loc"] and err["loc"][0] == field]
    return []


def test_there_are_input_models():
    assert "models.storage.file_cache.BreakEvenInputs" in MODELS and "models.devices.DeviceProfile" in MODELS


@pytest.mark.parametrize("name", sorted(MODELS))
def test_rejects_nan_inf_and_negative(name):
    cls = MODELS[name]
    assert cls.model_config.get("frozen") and cls.model_config.get("extra") == "forbid"
    for field, info in cls.model_fields.items():
        if not _numeric(info.annotation):
            continue
        for bad in (math.nan, math.inf, -math.inf):
            if info.annotation is int or typing.get_args(info.annotation) == (int, type(None)):
                continue  # ints cannot hold NaN; pydantic rejects them as non-integers anyway
            assert _errors_for(cls, field, bad), f"{name}.{field} accepts {bad}"
        signed = (info.json_schema_extra or {}).get("signed", False)  # documented signed quantities
        if field.endswith(NON_NEGATIVE_SUFFIXES) and not signed:
            assert _errors_for(cls, field, -1), f"{name}.{field} accepts a negative value"


def _examples():
    """A real instance of every input/result model that has required fields."""
    import numpy as np

    from models import devices
    from models.endurance import lifetime
    from models.storage import device_char, file_cache, hdd, workload

    drive = hdd.load_drive("ibm18es")
    seek = np.array([[1, 1.5], [10, 2.0], [100, 3.2], [1000, 6.0], [5000, 13.0]])
    return {
        "models.storage.device_char.CharProfile": lambda: device_char.get_profile(next(iter(device_char.PRESETS))),
        "models.devices.DeviceProfile": lambda: devices.get_device("pcm-memext"),
        "models.storage.file_cache.BreakEvenInputs": lambda: file_cache.BreakEvenInputs(t_ns=100, T_ns=130, Tm_ns=160),
        "models.storage.hdd.spec.DriveSpec": lambda: drive,
        "models.storage.hdd.seek.SeekFit": lambda: hdd.fit_seek_curve(seek[:, 0], seek[:, 1]),
        "models.storage.hdd.spec.Zone": lambda: drive.zones[0],
        "models.endurance.lifetime.LifetimeDistribution": lambda: lifetime.lifetime_monte_carlo(
            16e9, 1e7, 1e9, endurance_sigma=0.2, trials=50, seed=1, keep_samples=True),
        "models.endurance.lifetime.LifetimeInputs": lambda: lifetime.LifetimeInputs(
            capacity_bytes=16e9, endurance_writes_per_cell=1e7, write_rate_bytes_per_s=1e9),
        "models.storage.workload.configs.StorageConfig": lambda: workload.get_config("pcm-dax"),
        "models.sweep.spec.TraceEntry": lambda: _sweep_example().traces[0],
        "models.sweep.spec.ModelEntry": lambda: _sweep_example().models[0],
        "models.sweep.spec.SweepSpec": _sweep_example,
        "models.planner.workloads.PlanWorkload": lambda: _plan_workload(),
    }


def _plan_workload():
    from models.planner.workloads import workload_from_path

    return workload_from_path("mqsim:tpcc-small", name="tpcc")


def _sweep_example():
    """The documented example sweep spec (docs/sweep_example.toml), as the CLI reads it."""
    from models.sweep.spec import load_spec

    return load_spec(ROOT / "docs" / "sweep_example.toml")


EXAMPLES = _examples()


@pytest.mark.parametrize("name", sorted(MODELS))
def test_json_round_trip(name):
    from pydantic import ValidationError

    cls = MODELS[name]
    if name in EXAMPLES:
        inst = EXAMPLES[name]()
    else:
        try:
            inst = cls()
        except ValidationError as e:  # a new model with required fields needs an entry in _examples
            pytest.fail(f"{name} has required fields: add a real instance to _examples() ({e.error_count()} missing)")
    assert isinstance(inst, cls)
    assert cls.model_validate_json(inst.model_dump_json()) == inst
