"""Provenance of every model constant (models/provenance/) and of every device-catalogue value."""

import ast
import io
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from pydantic import ValidationError

from models import provenance as pv
from models.devices import (
    NUMERIC_COLUMNS,
    DeviceProfile,
    catalogue_from_frame,
    catalogue_provenance,
    get_device,
    load_catalogue,
)
from models.provenance import KINDS, PARAMS, param, params_frame
from tests import ROOT
from tests.models.not_parameters import NOT_PARAMETERS

MODELS = ROOT / "models"


# ----------------------------------------------------------------------------- the registry
@pytest.mark.parametrize("name", list(PARAMS))
def test_every_entry_has_a_kind_a_source_a_unit_and_a_finite_value_in_its_range(name):
    p = PARAMS[name]
    assert p.name == name and re.fullmatch(r"[a-z_]+(\.[A-Za-z0-9_-]+)+", name), name
    assert p.kind in KINDS
    assert len(p.provenance.source.strip()) > 10, "a source says where the value comes from"
    assert p.unit.strip() and p.description.strip()
    assert math.isfinite(float(p.value))
    lo, hi = p.provenance.low, p.provenance.high
    assert math.isfinite(lo) and math.isfinite(hi) and lo <= float(p.value) <= hi
    assert p.provenance.range_note.strip(), "the range says how it was stated"
    if p.kind == pv.DERIVED:  # which seed result it was inverted from
        assert p.provenance.seed in {"000", "001", "002", "003", "004"} and "seed" in p.provenance.source.lower()
    if p.kind in (pv.DERIVED, pv.ASSUMED):  # a wide stated range, not a point
        assert hi > lo


def test_measured_entries_name_the_data_file_and_the_program_that_measured_it():
    measured = [p for p in PARAMS.values() if p.kind == pv.MEASURED]
    assert measured
    for p in measured:
        files = re.findall(r"data/measurements/[\w./]*\w", p.provenance.source)
        # the program: C, or a numba-compiled Python benchmark (data/measurements/mfwr_cost)
        assert any(f.endswith(".csv") for f in files) and any(f.endswith((".c", ".py")) for f in files), p.name
        for f in files:
            assert (ROOT / f).is_file(), f


def test_registry_rejects_bad_entries():
    src = pv.Provenance(pv.ASSUMED, "a reason", 0.0, 2.0, "wide")
    with pytest.raises(ValueError, match="kind"):
        pv.Provenance("guessed", "a reason", 0.0, 1.0)
    with pytest.raises(ValueError, match="source"):
        pv.Provenance(pv.ASSUMED, "  ", 0.0, 1.0)
    with pytest.raises(ValueError, match="outside its stated range"):
        pv.Param("x.y", 3.0, "-", "x", src)
    with pytest.raises(ValueError, match="finite"):
        pv.Param("x.y", float("nan"), "-", "x", src)
    with pytest.raises(KeyError, match="memext.fault_overhead_ns"):
        param("memext.nope")


def test_params_frame_is_the_registry_as_a_table():
    df = params_frame()
    assert len(df) == len(PARAMS) and list(df.name) == list(PARAMS)
    assert {"name", "value", "unit", "kind", "source", "low", "high"} <= set(df.columns)
    assert set(df.kind) <= set(KINDS)
    # every kind is in use, by a registry constant or a catalogue value (no registry constant is computed yet)
    assert set(df.kind) | set(catalogue_provenance().kind) == set(KINDS)


# ----------------------------------------------------------------------------- derived values agree with their derivation
def test_paper_fault_overhead_is_the_derivation_from_seed_002_figure_11():
    from models.memory import memory_extension as me

    assert param("memext.fault_overhead_paper_ns").value == round(me.implied_fault_overhead_ns(), 0)
    assert me.FAULT_OVERHEAD_PAPER_NS == param("memext.fault_overhead_paper_ns").value
    assert param("memext.fault_overhead_paper_ns").kind == pv.DERIVED


def test_memext_time_base_and_fault_cost_are_the_bundled_measurements():
    import numpy as np

    from models.data import read_csv
    from models.memory import memory_extension as me

    fc = read_csv("measurements/fault_cost/fault_cost.csv")
    med = fc.groupby("method")["median_ns"].median()
    uffd = float(fc.loc[fc["method"] == "uffd_copy", "median_ns"].median())
    p = param("memext.fault_overhead_ns")
    assert p.kind == pv.MEASURED and p.value == round(uffd - float(med["memcpy_4k"]), 1) == me.FAULT_OVERHEAD_NS
    assert p.provenance.low == round(float(med["minor_zero"]), 1) <= p.value <= p.provenance.high
    apps = read_csv("measurements/apps/apps.csv").dropna(subset=["ns_per_data_ref"])
    b = param("memext.base_ns_per_ref")
    assert b.kind == pv.MEASURED and b.value == round(float(np.median(apps["ns_per_data_ref"])), 4)
    assert b.value == me.BASE_NS_PER_REF
    # the time base is CPU time over lackey data references (loads + stores + modifies); miniAMR (MPI, traced
    # in a window only) counts its whole run with cachegrind (Dr + Dw, the same count), start-up subtracted
    lk = apps[apps["counter"] == "lackey"]
    assert len(lk) >= 5 and set(apps["counter"]) <= {"lackey", "cachegrind (start-up subtracted)"}
    assert np.allclose(lk["data_refs"], lk["loads"] + lk["stores"] + lk["modifies"])
    assert np.allclose(apps["ns_per_data_ref"], apps["cpu_median_s"] * 1e9 / apps["data_refs"]
                       - apps["startup_cpu_s"].fillna(0) * 1e9 / apps["data_refs"])


def test_lulesh_write_rate_is_the_inverted_five_years():
    from models.endurance import lifetime as lt

    rate = param("lifetime.lulesh_write_rate_Bps").value
    assert rate == lt.write_rate_for_lifetime(16e9, 1e7, 5.0, wear_efficiency=1.0)  # the paper's ideal leveling
    assert list(lt.SEED_WRITE_RATES.values()) == [rate]
    assert param("lifetime.lulesh_write_rate_Bps").kind == pv.DERIVED


def test_measured_values_are_the_bundled_measurements():
    from models.data import read_csv
    from models.storage.file_cache import pagecache_latency
    from models.storage.workload.costs import metadata_latency

    r, i = pagecache_latency(4096)
    assert r == pytest.approx(param("file_cache.pagecache_read_4k_ns").value, rel=1e-12)
    assert i == pytest.approx(param("file_cache.pagecache_insert_4k_ns").value, rel=1e-12)
    md = read_csv("measurements/metadata_latency.csv").set_index("op")["latency_ns"]
    assert metadata_latency() == {op: float(v) for op, v in md.items()}
    fs = read_csv("measurements/fsync_latency.csv").set_index("threads")
    assert param("workload.fsync.latency_1thread_ns").value == fs.loc[1, "fsync_median_ns"]


def test_device_char_presets_are_built_from_the_registry():
    from models.storage.device_char import PRESETS

    ssd, psd = PRESETS["ssd"], PRESETS["psd"]
    assert ssd.write_rand_us == param("device_char.ssd.read_us").value * param("device_char.ssd.write_read_ratio_rand").value
    assert ssd.servers_seq == param("device_char.ssd.servers_rand").value * param("device_char.ssd.seq_parallelism").value
    assert psd.write_seq_us / psd.read_seq_us == param("device_char.psd.write_read_ratio").value
    assert param("device_char.psd.write_read_ratio").kind == pv.DERIVED


def test_the_mail_preset_is_a_table2_stand_in_like_the_others():
    # issue 14: the burst reshaping (done after seeing seed 003's Fig. 5 Mail result) was withdrawn; the
    # Mail stand-in takes its locality mix from the registry like the other Table II presets, assumed
    from models.traces.synthetic import PRESETS

    for key in ("run_requests", "zipf_fraction", "seq_fraction", "zipf_alpha"):
        assert param(f"trace.mail.{key}").kind == pv.ASSUMED, key
    assert "assumed" in PRESETS["mail"].source and "sequential" in PRESETS["mail"].source


# ----------------------------------------------------------------------------- models read the registry
def _numeric(node) -> bool:
    """An expression built from number literals (arithmetic, containers, calls on numbers)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _numeric(node.operand)
    if isinstance(node, ast.BinOp):
        return _numeric(node.left) or _numeric(node.right)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_numeric(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return any(v is not None and _numeric(v) for v in node.values)
    if isinstance(node, ast.Call):
        return any(_numeric(a) for a in node.args) or any(_numeric(k.value) for k in node.keywords)
    return False


def _reads_param(node) -> bool:
    return any(isinstance(n, ast.Call) and getattr(n.func, "id", getattr(n.func, "attr", None)) in ("param", "_p")
               for n in ast.walk(node))


def _module_constants():
    """(module.NAME, value node) of every module-level UPPER_CASE assignment in models/."""
    for path in sorted(MODELS.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        if rel.parts[1] in ("validation", "provenance"):  # the ledger's claims; the registry itself
            continue
        mod = ".".join(p for p in rel.parts if p != "__init__")
        for st in ast.parse(path.read_text()).body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                name, value = st.targets[0].id, st.value
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
                name, value = st.target.id, st.value
            else:
                continue
            if re.fullmatch(r"_?[A-Z][A-Z0-9_]*", name):
                yield f"{mod}.{name}", value


def test_no_model_module_defines_a_bare_numeric_constant_outside_the_registry():
    bare = [name for name, value in _module_constants()
            if _numeric(value) and not _reads_param(value) and name not in NOT_PARAMETERS]
    assert not bare, ("numeric constants in models/ must read models.provenance.param() (register them with "
                      f"their provenance) or be listed in tests/models/not_parameters.py with a reason: {bare}")


def test_the_allow_list_names_existing_constants_with_a_reason():
    existing = dict(_module_constants())
    stale = [n for n in NOT_PARAMETERS if n not in existing]
    assert not stale, f"NOT_PARAMETERS lists constants that no longer exist: {stale}"
    assert all(len(r) >= 4 for r in NOT_PARAMETERS.values())
    assert not [n for n in NOT_PARAMETERS if _reads_param(existing[n])], "a registry read needs no allow-listing"


def test_the_detector_catches_a_new_bare_constant():
    tree = ast.parse("NEW_LATENCY_NS = 250.0\nOK_NS = param('memext.submit_ns').value\nNAME = 'x'\n")
    flagged = [st.targets[0].id for st in tree.body if _numeric(st.value) and not _reads_param(st.value)]
    assert flagged == ["NEW_LATENCY_NS"]


def test_model_defaults_are_the_registry_values():
    from models.endurance.wear import WearConfig
    from models.memory.memory_extension import MemExtConfig
    from models.memory.paging import PagingInputs
    from models.storage.write_cache import HaloParams

    m = MemExtConfig()
    assert (m.fault_overhead_ns, m.base_ns_per_ref, m.age_max, m.dram_frac) == tuple(
        param(f"memext.{n}").value for n in ("fault_overhead_ns", "base_ns_per_ref", "age_max", "dram_frac"))
    assert WearConfig().gap_interval_writes == param("wear.gap_interval_writes").value
    assert HaloParams().th_bcounts == param("write_cache.th_bcounts").value
    p = PagingInputs()
    assert (p.tlb_entries, p.t_e_ns) == (param("paging.tlb_entries").value, param("paging.tlb_access_ns").value)


# ----------------------------------------------------------------------------- the device catalogue
def test_every_catalogue_value_has_a_kind():
    for dev in load_catalogue().values():
        for c in NUMERIC_COLUMNS:
            if getattr(dev, c) is not None:
                assert dev.provenance.get(c) in KINDS, (dev.name, c)
            else:
                assert c not in dev.provenance, (dev.name, c)


def test_catalogue_kinds_of_the_values_the_issue_names():
    hdd = get_device("hdd-7200")
    assert hdd.value_kind("avg_seek_ns") == pv.DERIVED and hdd.value_kind("rpm") == pv.PUBLISHED
    assert get_device("pcm-psd-micron").value_kind("read_latency_ns") == pv.ASSUMED
    # seed 002 §5 "We assume ... endurance of 10^7 writes per cell": the paper's simulation parameter (issue 39)
    assert get_device("pcm-memext").value_kind("endurance_writes_per_cell") == pv.SIMULATED
    # issue 39: NVMain's LPDDR bus rate is the interface column; the write bandwidth is 8 chips x 40 MB/s
    sam = get_device("pcm-samsung-20nm")
    assert sam.value_kind("write_bandwidth_MBps") == pv.COMPUTED and sam.value_kind("read_latency_ns") == pv.SIMULATED
    assert get_device("sata-ssd").value_kind("read_latency_ns") == pv.PUBLISHED  # Intel DC S4500 specification


_CSV = """# comment
name,label,kind,byte_addressable,access_unit_bytes,read_latency_ns,write_latency_ns,read_bandwidth_MBps,\
write_bandwidth_MBps,endurance_writes_per_cell,avg_seek_ns,rpm,source,provenance
x,X,pcm,true,64,100,200,,,1e6,,,"src, with comma",{prov}
"""
_OK = "access_unit_bytes=published;read_latency_ns=measured;write_latency_ns=derived;endurance_writes_per_cell=assumed"


def _frame(prov: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(_CSV.format(prov=prov)), comment="#", dtype={"provenance": str})


def test_catalogue_loading_parses_the_provenance_column():
    dev = catalogue_from_frame(_frame(_OK))["x"]
    assert dev.provenance == {"access_unit_bytes": pv.PUBLISHED, "read_latency_ns": pv.MEASURED,
                              "write_latency_ns": pv.DERIVED, "endurance_writes_per_cell": pv.ASSUMED}


@pytest.mark.parametrize("prov, message", [
    ("access_unit_bytes=published;read_latency_ns=published;write_latency_ns=published", "no kind for endurance"),
    (_OK + ";rpm=published", "kind for empty column"),
    (_OK.replace("assumed", "guessed"), "unknown provenance kind 'guessed'"),
    (_OK + ";latency=published", "unknown column 'latency'"),
    (_OK + ";read_latency_ns=published", "given twice"),
    (_OK.replace("=assumed", "=user-defined"), "cannot be user-defined"),
    ("", "no kind for access_unit_bytes"),
])
def test_catalogue_loading_is_strict(prov, message):
    with pytest.raises(ValueError, match=message) as e:
        catalogue_from_frame(_frame(prov))
    assert "row 1 (x)" in str(e.value)


def test_catalogue_without_a_provenance_column_is_rejected():
    with pytest.raises(ValueError, match="missing the provenance column"):
        catalogue_from_frame(_frame(_OK).drop(columns="provenance"))


def test_custom_devices_are_user_defined_and_edits_change_the_kind():
    d = DeviceProfile(name="mine", read_latency_ns=10, write_latency_ns=20)
    assert {d.value_kind(c) for c in ("read_latency_ns", "write_latency_ns")} == {pv.USER_DEFINED}
    assert DeviceProfile(name="m", read_latency_ns=1, write_latency_ns=1, source="a datasheet").value_kind(
        "read_latency_ns") == pv.ASSUMED
    edited = get_device("hdd-7200").with_updates(avg_seek_ns=3e6)
    assert edited.value_kind("avg_seek_ns") == pv.USER_DEFINED and edited.value_kind("rpm") == pv.PUBLISHED
    same = get_device("hdd-7200").with_updates(avg_seek_ns=get_device("hdd-7200").avg_seek_ns)
    assert same.value_kind("avg_seek_ns") == pv.DERIVED
    with pytest.raises(ValidationError, match="unknown provenance kind"):
        DeviceProfile(name="m", read_latency_ns=1, write_latency_ns=1, provenance={"read_latency_ns": "vibes"})


def test_device_profiles_stay_hashable_and_round_trip_through_json():
    d = get_device("hdd-7200")
    assert hash(d) == hash(get_device("hdd-7200").model_copy())
    back = DeviceProfile.model_validate_json(d.model_dump_json())
    assert back == d and back.provenance == d.provenance


def test_provenance_table_resolves_registry_names_and_device_values():
    t = pv.provenance_table(["memext.eviction_buffer_pages", "device:hdd-7200.avg_seek_ns",
                             "memext.eviction_buffer_pages"])
    assert list(t.key) == ["memext.eviction_buffer_pages", "device:hdd-7200.avg_seek_ns"]
    assert list(t.kind) == [pv.ASSUMED, pv.DERIVED] and np.isclose(t.value.iloc[1], 4033333.0)
    flagged = pv.depends_on_unverified(["memext.submit_ns", "device:dram.read_latency_ns", "memext.base_ns_per_ref",
                                        "memext.eviction_buffer_pages"])
    assert [k for k, *_ in flagged] == ["memext.eviction_buffer_pages"]  # the time base is measured (issue 15)


def test_planner_roles_name_known_provenance_keys():
    from models.planner import ROLE_PROVENANCE, ROLES, provenance_keys

    assert list(ROLE_PROVENANCE) == list(ROLES)  # the same roles in the same order: provenance_keys() follows it
    t = pv.provenance_table(provenance_keys())
    assert len(t) == len(provenance_keys()) and set(t.kind) <= set(KINDS)
    # the ranking's lifetimes come from the write-backs measured on each trace, not Fig. 9's inverted Lulesh rate
    assert "lifetime.lulesh_write_rate_Bps" not in ROLE_PROVENANCE["memory-lifetime"]


def test_sources_md_documents_the_provenance_column():
    assert "provenance" in Path(ROOT / "data" / "SOURCES.md").read_text().split("## devices.csv", 1)[1][:800]
