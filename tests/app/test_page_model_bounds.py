"""One contract per model (issue 12): a page input that is a model input takes its bounds from the model.

Pages declare such fields with :func:`app.components.scenario.model_field`, which records the model
field it mirrors (``json_schema_extra["mirrors"]``), the page's unit in the model's unit and any
bound the page narrows. These tests check, for every mirrored field, that the page accepts exactly
the model's range (converted to the page's unit), or a range inside it where a narrower one is
documented, and that the widget offers the same range.
"""

from __future__ import annotations

import doctest
import importlib
import math

import annotated_types as at
import pytest
from pydantic import BaseModel, Field, ValidationError

import app.components.scenario as scenario_mod
from app.components.scenario import MIRRORS, Scenario, field_range, model_field
from tests.app.test_app_state import (
    CASES,
    PAGE_FILES,
    _eval,
    _field_bounds,
    _page_namespace,
    _page_scenarios,
)

#: page.field -> (model field it mirrors, page unit in model units, bounds the page narrows).
#: Narrowed ones say why in the page; every other mirror takes the model's range exactly.
MIRRORED = {
    "break_even.t_ns": ("models.storage.file_cache.BreakEvenInputs.t_ns", 1, ()),
    "break_even.T_ns": ("models.storage.file_cache.BreakEvenInputs.T_ns", 1, ()),
    "break_even.Tm_ns": ("models.storage.file_cache.BreakEvenInputs.Tm_ns", 1, ()),
    "device_char.custom_name": ("models.storage.device_char.CharProfile.name", 1, ()),
    "hdd_model.boundary_cyl": ("models.storage.hdd.seek.SeekFit.boundary_cyl", 1, ("ge", "le")),
    "lifetime.capacity_gb": ("models.endurance.lifetime.LifetimeInputs.capacity_bytes", 1e9, ()),
    "lifetime.endurance": ("models.endurance.lifetime.LifetimeInputs.endurance_writes_per_cell", 1, ()),
    "lifetime.write_rate_MBps": ("models.endurance.lifetime.LifetimeInputs.write_rate_bytes_per_s", 1e6, ()),
    "lifetime.wear_efficiency": ("models.endurance.lifetime.LifetimeInputs.wear_efficiency", 1, ("ge",)),
    "memory_extension.age_max": ("models.memory.memory_extension.MemExtConfig.age_max", 1, ()),
    "memory_extension.base_ns_per_ref": ("models.memory.memory_extension.MemExtConfig.base_ns_per_ref", 1, ()),
    "memory_extension.fault_overhead_ns": ("models.memory.memory_extension.MemExtConfig.fault_overhead_ns", 1, ()),
    "memory_extension.prefetch_threshold": ("models.memory.memory_extension.MemExtConfig.prefetch_threshold", 1,
                                            ()),
    "memory_extension.prefetch_strides": ("models.memory.memory_extension.MemExtConfig.prefetch_strides", 1, ()),
    "memory_extension.submit_us": ("models.memory.memory_extension.MemExtConfig.submit_ns", 1e3, ()),
    "memory_extension.mfwr_us": ("models.memory.memory_extension.MemExtConfig.mfwr_ns", 1e3, ()),
    "paging.tlb_entries": ("models.memory.paging.PagingInputs.tlb_entries", 1, ()),
    "paging.storage_latency_ns": ("models.memory.paging.PagingInputs.storage_latency_ns", 1, ()),
    "paging.t_e_ns": ("models.memory.paging.PagingInputs.t_e_ns", 1, ()),
    "paging.t_r_ns": ("models.memory.paging.PagingInputs.t_r_ns", 1, ()),
    "paging.fault_overhead_ns": ("models.memory.paging.PagingInputs.fault_overhead_ns", 1, ()),
    "wear.gap_interval_writes": ("models.endurance.wear.WearConfig.gap_interval_writes", 1, ()),
    "workload.page_cache_gib": ("models.storage.workload.configs.StorageConfig.page_cache_bytes", 1 << 30, ()),
    "write_cache.th_bcounts": ("models.storage.write_cache.HaloParams.th_bcounts", 1, ()),
    "write_cache.threshold": ("models.storage.write_cache.HaloParams.threshold", 1, ()),
    "write_reduction.baseline_rate_MBps": ("models.endurance.lifetime.LifetimeInputs.write_rate_bytes_per_s", 1e6,
                                           ()),
    "write_reduction.capacity_gb": ("models.endurance.lifetime.LifetimeInputs.capacity_bytes", 1e9, ()),
    "write_reduction.endurance": ("models.endurance.lifetime.LifetimeInputs.endurance_writes_per_cell", 1, ()),
}
BOUNDS = ("ge", "gt", "le", "lt")
LENGTHS = ("min_length", "max_length")


def _scenarios() -> dict[str, type[Scenario]]:
    out = {}
    for path in PAGE_FILES:
        ns, _ = _page_namespace(path)
        for cls in _page_scenarios(ns):
            out[path.stem] = cls
    return out


SCENARIOS = _scenarios()


def _model_field(dotted: str) -> tuple[type[BaseModel], str]:
    mod, cls, name = dotted.rsplit(".", 2)
    return getattr(importlib.import_module(mod), cls), name


def _constraints(model: type[BaseModel], name: str) -> dict[str, float]:
    out = {}
    for m in model.model_fields[name].metadata:
        for k in (*BOUNDS, *LENGTHS):
            if hasattr(m, k) and type(m).__module__ == "annotated_types":
                out[k] = getattr(m, k)
    return out


def test_every_mirror_is_declared_with_model_field():
    """The listed page fields are derived from the model (not re-declared), and no other field is."""
    marked = {}
    for page, cls in SCENARIOS.items():
        for f, info in cls.model_fields.items():
            extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
            if MIRRORS in extra:
                marked[f"{page}.{f}"] = (extra[MIRRORS], extra.get("unit", 1), tuple(extra.get("narrowed", ())))
    assert marked == MIRRORED


@pytest.mark.parametrize("pid", sorted(MIRRORED))
def test_page_bounds_equal_the_models(pid):
    """Same bounds as the model, converted to the page's unit; a narrowed side lies inside the model's range."""
    page, field = pid.split(".")
    dotted, unit, narrowed = MIRRORED[pid]
    model, name = _model_field(dotted)
    cls = SCENARIOS[page]
    want = {k: (v / unit if k in BOUNDS else v) for k, v in _constraints(model, name).items()}
    got = _constraints(cls, field)
    lower_narrowed = bool(set(narrowed) & {"ge", "gt"})
    upper_narrowed = bool(set(narrowed) & {"le", "lt"})
    for k in (*BOUNDS, *LENGTHS):
        if (k in ("ge", "gt") and lower_narrowed) or (k in ("le", "lt") and upper_narrowed):
            continue
        assert got.get(k) == want.get(k), f"{pid}: {k}={got.get(k)} on the page, {want.get(k)} in {dotted}"
    if narrowed:
        lo, hi = _field_bounds(cls, field)
        mlo, mhi = _field_bounds(model, name)
        assert mlo / unit <= lo <= hi <= mhi / unit, f"{pid}: [{lo}, {hi}] not inside {dotted}"


def test_wear_write_rate_is_the_lifetime_rate_plus_zero():
    """Wear page's write rate: LifetimeInputs' cell rate [MB/s] up to its maximum, plus 0 = 'the trace's rate'."""
    from models.endurance.lifetime import LifetimeInputs

    lo, hi = _field_bounds(SCENARIOS["wear"], "write_rate_MBps")
    assert (lo, hi) == (0.0, _field_bounds(LifetimeInputs, "write_rate_bytes_per_s")[1] / 1e6)


def test_memory_extension_sweep_lists_take_the_models_ranges():
    """Flash write latencies [µs] lie in MemExtConfig.write_ns's (0, 1e9] ns; prefetch depths in prefetch_depth's."""
    from models.memory.memory_extension import MemExtConfig

    cls = SCENARIOS["memory_extension"]
    w_hi = _field_bounds(MemExtConfig, "write_ns")[1] / 1e3
    d_lo, d_hi = _field_bounds(MemExtConfig, "prefetch_depth")
    cls(flash_write_us=[f"{w_hi:g}", "0.001"], prefetch_depths=[str(int(d_lo)), str(int(d_hi))])
    for bad in ({"flash_write_us": ["0"]}, {"flash_write_us": [f"{w_hi * 1.001:g}"]},
                {"prefetch_depths": [str(int(d_hi) + 1)]}, {"prefetch_depths": ["-1"]}, {"prefetch_depths": ["1.5"]}):
        with pytest.raises(ValidationError):
            cls(**bad)


RANGE_IDS = {c[0]: c for c in CASES if c[3] in ("slider", "number_input")}


@pytest.mark.parametrize("pid", sorted(p for p in MIRRORED if p in RANGE_IDS))
def test_widget_offers_the_fields_range(pid):
    """The widget's min/max are the field's own bounds, so it offers no value the model rejects (up to an
    open end, which the Scenario reports)."""
    _cid, cls, ns, _kind, field, call = RANGE_IDS[pid]
    kw = {k.arg: k.value for k in call.keywords}
    wmin = _eval(kw.get("min_value", call.args[1] if len(call.args) > 1 else None), ns)
    wmax = _eval(kw.get("max_value", call.args[2] if len(call.args) > 2 else None), ns)
    assert (wmin, wmax) == field_range(cls, field)


def _bounded_helper_fields() -> set[str]:
    """``page.field`` drawn by app.components.inputs' int_input / float_input: no browser-side bounds, the
    range shown under the field and checked by the Scenario itself (issue 18), so it is the field's by
    construction."""
    import ast

    out = set()
    for path in PAGE_FILES:
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("int_input", "float_input") and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant)):
                out.add(f"{path.stem}.{node.args[1].value}")
    return out


def test_every_mirrored_number_has_a_widget_checked():
    """Mirrored numeric fields without a range widget are only the ones the page sets without one."""
    numeric = {p for p in MIRRORED if SCENARIOS[p.split(".")[0]].model_fields[p.split(".")[1]].annotation
               in (int, float)}
    assert numeric - set(RANGE_IDS) - _bounded_helper_fields() == {"memory_extension.prefetch_strides"}


# ----------------------------------------------------------------------------- the helpers


class _In(BaseModel):
    t_ns: float = Field(3500.0, ge=0, le=1e8, description="overhead [ns]")
    frac: float = Field(0.5, gt=0, le=1)
    n: int = Field(4, gt=0, lt=65)
    name: str = Field(min_length=1, max_length=8)
    opt_ns: float | None = Field(None, gt=0, le=1e9)


def test_scenario_module_doctests():
    """The doctests of every module of the scenario package (model_field, field_bounds, one_of, ...)."""
    import importlib
    import pkgutil

    results = [doctest.testmod(importlib.import_module(f"{scenario_mod.__name__}.{m.name}"))
               for m in pkgutil.iter_modules(scenario_mod.__path__)]
    assert sum(r.attempted for r in results) >= 10 and sum(r.failed for r in results) == 0


def test_model_field_converts_units_and_keeps_the_contract():
    class P(Scenario):
        t_us: float = model_field(_In, "t_ns", unit=1e3)
        frac: float = model_field(_In, "frac", ge=0.01)
        n: int = model_field(_In, "n")
        name: str = model_field(_In, "name", default="x")
        opt_ns: float = model_field(_In, "opt_ns", default=10.0)

    p = P()
    assert (p.t_us, p.frac, p.n, p.name, p.opt_ns) == (3.5, 0.5, 4, "x", 10.0)
    assert field_range(P, "t_us") == (0.0, 1e5)
    assert field_range(P, "frac") == (0.01, 1.0)
    assert field_range(P, "n") == (1, 64) and all(type(b) is int for b in field_range(P, "n"))
    assert field_range(P, "opt_ns") == (0.0, 1e9)
    assert P.model_fields["t_us"].description is None  # the model's says [ns]
    assert P.model_fields["n"].description is None and P.model_fields["frac"].description is None
    for bad in ({"t_us": 1e5 * (1 + 1e-12)}, {"frac": 0.005}, {"n": 65}, {"name": "123456789"},
                {"opt_ns": 0.0}, {"name": ""}):
        with pytest.raises(ValidationError):
            P(**bad)
    assert P(t_us=1e5, frac=0.01, n=64, name="12345678").n == 64
    assert _In.model_fields["t_ns"].metadata == [at.Ge(0), at.Le(1e8)]  # the model's own field is untouched
    assert _In.model_fields["frac"].metadata == [at.Gt(0), at.Le(1)]


@pytest.mark.parametrize("kw", [{"le": 1e9}, {"ge": -1.0}, {"gt": -1.0}, {"lt": 2e8}])
def test_model_field_refuses_a_range_wider_than_the_models(kw):
    with pytest.raises(ValueError, match="outside the model's range"):
        model_field(_In, "t_ns", **kw)


def test_model_field_refuses_to_close_an_open_bound():
    with pytest.raises(ValueError, match="outside"):
        model_field(_In, "frac", ge=0.0)  # the model rejects 0
    assert math.isclose(field_range(_In, "frac")[0], 0.0)


def test_model_field_needs_a_default_where_the_model_has_none():
    with pytest.raises(TypeError, match="default="):
        model_field(_In, "name")
    with pytest.raises(TypeError, match="default="):
        model_field(_In, "opt_ns")
