"""The provenance keys each page shows come from the model (issue 40) and are the ones the page
composed by hand before: the same keys in the same order, for a few inputs per page.

The reference functions below (``_old_*``) are the pages' former key compositions, copied as they
were (with the app's former ``device_keys``, ``trace_keys`` and ``hdd_keys``); no browser, no AppTest.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from models.devices import MODEL_COLUMNS, DeviceProfile, get_device, load_catalogue
from models.endurance import lifetime as lt
from models.endurance import wear
from models.endurance import write_reduction as wr
from models.memory import memory_extension as me
from models.memory import paging as pg
from models.provenance import param_names, trace_keys
from models.storage import device_char as dc
from models.storage import file_cache as fc
from models.storage import file_cache_sim as fcs
from models.storage import hdd
from models.storage import workload as wf
from models.storage import write_cache as wc
from models.traces import load

# ----------------------------------------------------------------------------- the former app helpers
CUSTOM = DeviceProfile(name="my-scm", read_latency_ns=900.0, write_latency_ns=2500.0, access_unit_bytes=256,
                       read_bandwidth_MBps=5000.0, endurance_writes_per_cell=3e6)
CUSTOM_NO_BW = DeviceProfile(name="my-slow", read_latency_ns=5e4, write_latency_ns=9e4)


def _devices() -> dict:
    return {**load_catalogue(), CUSTOM.name: CUSTOM, CUSTOM_NO_BW.name: CUSTOM_NO_BW}


def _old_device_keys(device, columns=None) -> list[str]:
    if isinstance(device, str):
        device = _devices().get(device) or get_device(device)
    cols = MODEL_COLUMNS if columns is None else tuple(columns)  # the numeric columns a model reads (the interface rate is read by none)
    return [f"device:{device.name}.{c}" for c in cols if getattr(device, c) is not None]


def _old_trace_keys(trace) -> tuple[list[str], dict]:
    meta = getattr(trace, "meta", None) or {}
    preset = meta.get("preset")
    if not preset:
        return [], {}
    keys = param_names(f"trace.{preset}.")
    if "scale" in meta:
        keys.append("trace.synthetic_scale")
        return keys, {"trace.synthetic_scale": meta["scale"]}
    return keys, {}


def _old_hdd_keys(profile: str) -> list[str]:
    if profile == "hdd-7200":
        return [*param_names("hdd.generic."), *_old_device_keys("hdd-7200")]
    return param_names(f"hdd.bus_ms_per_block.{profile}.")


@pytest.fixture(scope="module")
def traces() -> list:
    """A real bundled block trace, two synthetic presets (one at another scale), a preset without its
    scale and no trace at all."""
    return [load("mqsim:wsrch-small", max_requests=50), load("synthetic:mail", n_requests=50),
            load("synthetic:fin1", n_requests=50, scale=0.1), SimpleNamespace(meta={"preset": "dap"}), None]


def test_trace_keys_moved_to_the_models_unchanged(traces):
    from app.components.provenance import trace_keys as app_trace_keys

    assert app_trace_keys is trace_keys
    for t in traces:
        assert trace_keys(t) == _old_trace_keys(t)
    assert trace_keys(traces[1])[0] and not trace_keys(traces[0])[0]  # the cases differ


def test_device_keys_take_a_profile_or_a_name():
    from app.components.provenance import device_keys as app_device_keys
    from models.provenance import device_keys

    for d in ("dram", "hdd-7200", "nand-flash", get_device("sata-ssd"), CUSTOM, CUSTOM_NO_BW):
        for cols in (None, ["read_latency_ns", "rpm"], ("endurance_writes_per_cell",)):
            assert device_keys(d, cols) == _old_device_keys(d, cols)
            assert app_device_keys(d, cols) == _old_device_keys(d, cols)


def test_hdd_drive_keys_are_the_former_hdd_keys():
    from app.components.inputs import hdd_keys

    for n in ("hdd-7200", *hdd.drive_names()):
        assert hdd.drive_keys(n) == _old_hdd_keys(n) == hdd_keys(n)
    assert hdd.validation_keys() == [k for n in hdd.drive_names() for k in _old_hdd_keys(n)]
    assert hdd.drive_keys("hdd-7200") != hdd.drive_keys("dec_rz26") != []


# ----------------------------------------------------------------------------- break-even
_BE_LAT = ("read_latency_ns", "read_bandwidth_MBps", "access_unit_bytes")
_MARKED = ("dram", "optane-dcpmm", "pcm-samsung-20nm", "nand-flash", "sata-ssd", "hdd-7200")


def _old_nearest_size(size: int) -> int:
    sizes = np.asarray(fc.STEADY_SIZES, dtype=float)
    return int(sizes[int(np.argmin(np.abs(np.log(sizes / size))))])


def _old_timing_keys(mode, device, block, insertion) -> list[str]:
    if mode != "device":
        return []
    ins_key = ("file_cache.pagecache_insert_4k_ns" if insertion == "first-touch"
               else f"file_cache.insert_steady_{_old_nearest_size(block)}_ns")
    return ["file_cache.io_stack_factor", "file_cache.pagecache_read_4k_ns", ins_key,
            *_old_device_keys(_devices()[device], _BE_LAT), *_old_device_keys("dram", _BE_LAT)]


@pytest.mark.parametrize("mode", ["device", "manual"])
@pytest.mark.parametrize("device", ["optane-dcpmm", "hdd-7200", "my-scm", "my-slow"])
@pytest.mark.parametrize("block", [100, 512, 4096, 5000, 65536])
@pytest.mark.parametrize("insertion", fc.INSERTION_MODELS)
def test_break_even_page_keys(mode, device, block, insertion):
    devices = _devices()
    dev = devices[device] if mode == "device" else None
    keys = _old_timing_keys(mode, device, block, insertion)
    pf = {"storage_path": "paper-factor"}  # the keys these old functions computed (the factor's path)
    assert fc.break_even_keys(dev, block_size_bytes=block, insertion=insertion, **pf) == keys
    marked = [n for n in _MARKED if n in devices]
    old_fig2 = [*keys, *(k for name in marked for k in _old_device_keys(devices[name], _BE_LAT))]
    assert fc.figure2_keys(dev, [devices[n] for n in marked], block_size_bytes=block, insertion=insertion,
                           **pf) == old_fig2
    if mode == "device":
        names = marked + ([device] if device not in marked else [])
        old_cmp = [*keys, *(k for name in names for k in _old_device_keys(devices[name], _BE_LAT)),
                   "file_cache.pagecache_insert_4k_ns", f"file_cache.insert_steady_{_old_nearest_size(block)}_ns"]
        assert fc.insertion_models_keys(dev, [devices[n] for n in names], block_size_bytes=block,
                                        insertion=insertion, **pf) == old_cmp


# ----------------------------------------------------------------------------- file-cache simulation
@pytest.mark.parametrize("pair", [("hdd-7200", "optane-dcpmm"), ("hdd-7200", "hdd-7200"), ("sata-ssd", "my-scm")])
@pytest.mark.parametrize("insertion", fc.INSERTION_MODELS)
def test_file_cache_sim_page_keys(traces, pair, insertion):
    hdd_dev, scm = (_devices()[n] for n in pair)
    devs = (hdd_dev, scm) if hdd_dev.name != scm.name else (hdd_dev,)
    lat = ("access_unit_bytes", "read_latency_ns", "read_bandwidth_MBps")
    for trace in traces:
        tkeys, _ = _old_trace_keys(trace)
        keys = [*tkeys, "file_cache.io_stack_factor", "file_cache.pagecache_read_4k_ns",
                "file_cache.pagecache_insert_4k_ns" if insertion == "first-touch"
                else "file_cache.insert_steady_4096_ns", *(k for d in devs for k in _old_device_keys(d, lat)),
                *_old_device_keys("dram", lat)]
        curve_keys = [*keys, "file_cache_sim.ghost_fraction"]
        ins_keys = [*curve_keys, "file_cache.pagecache_insert_4k_ns", "file_cache.insert_steady_4096_ns"]
        got = fcs.provenance_keys_for(trace, devs, insertion=insertion, storage_path="paper-factor")
        assert (got.trace, got.break_even, got.curves, got.insertion_gains) == (tkeys, keys, curve_keys, ins_keys)


# ----------------------------------------------------------------------------- device characterization, HDD
@pytest.mark.parametrize("profiles", [[], ["psd"], ["ssd", "psd"], list(dc.PRESETS)])
def test_device_char_page_keys(profiles):
    assert dc.profile_keys(profiles) == [k for p in profiles for k in param_names(f"device_char.{p}.")]


# ----------------------------------------------------------------------------- lifetime, write reduction
@pytest.mark.parametrize("endurance", [get_device("pcm-memext").endurance_writes_per_cell, 1e4, 3.3e7])
@pytest.mark.parametrize("trace_rates", [False, True])
def test_lifetime_page_keys(endurance, trace_rates):
    keys = ["memext.nvm_capacity_bytes", "memext.base_ns_per_ref", "lifetime.wear_efficiency"]
    if endurance == get_device("pcm-memext").endurance_writes_per_cell:
        keys += _old_device_keys("pcm-memext", ["endurance_writes_per_cell"])
    mc_keys = [*keys, "lifetime.endurance_sigma", "lifetime.fail_fraction", "nvm.line_bytes"]
    fig2_keys = ["lifetime.lulesh_write_rate_Bps", "memext.nvm_capacity_bytes", "lifetime.wear_efficiency",
                 *_old_device_keys("pcm-memext", ["endurance_writes_per_cell"]),
                 *_old_device_keys("nand-flash", ["endurance_writes_per_cell"])]
    if trace_rates:
        fig2_keys += ["memext.base_ns_per_ref", "memext.fault_overhead_ns", "memext.eviction_buffer_pages",
                      "memext.dram_frac"]
    assert lt.lifetime_keys(endurance) == keys
    assert lt.monte_carlo_keys(endurance) == mc_keys
    assert lt.figure2_keys(trace_rates) == fig2_keys


@pytest.mark.parametrize("endurance", [get_device("pcm-memext").endurance_writes_per_cell, 1e4])
def test_write_reduction_page_keys(endurance):
    life_keys = ["memext.base_ns_per_ref", "memext.nvm_capacity_bytes", "lifetime.wear_efficiency",
                 "nvm.line_bytes"]
    if endurance == get_device("pcm-memext").endurance_writes_per_cell:
        life_keys += _old_device_keys("pcm-memext", ["endurance_writes_per_cell"])
    assert wr.lifetime_by_scheme_keys(endurance) == life_keys
    assert wr.write_reduction_keys() == ["nvm.line_bytes"]


# ----------------------------------------------------------------------------- memory extension, paging
@pytest.mark.parametrize("pair", [("pcm-memext", "nand-flash"), ("optane-dcpmm", "my-slow"), ("my-scm", "sata-ssd")])
def test_memory_extension_page_keys(pair):
    fast, slow = (_devices()[n] for n in pair)
    lat = ("access_unit_bytes", "read_latency_ns", "write_latency_ns", "read_bandwidth_MBps", "write_bandwidth_MBps")
    keys = ["memext.base_ns_per_ref", "memext.fault_overhead_ns", "memext.eviction_buffer_pages",
            *_old_device_keys(fast, lat), *_old_device_keys(slow, lat)]
    lat_keys = ["memext.base_ns_per_ref", "memext.fault_overhead_ns", *_old_device_keys("pcm-memext", lat),
                *_old_device_keys("nand-flash", ("read_latency_ns", "access_unit_bytes"))]
    pf_keys = [*keys, "memext.submit_ns", "memext.prefetch_threshold", "memext.prefetch_strides", "memext.dram_frac"]
    rep_keys = ["memext.age_max", *_old_device_keys(fast, lat)]
    assert me.ratio_sweep_keys(fast, slow) == keys
    assert me.write_latency_sweep_keys() == lat_keys
    assert me.prefetch_sweep_keys(fast, slow) == pf_keys
    assert me.policy_sweep_keys(fast) == rep_keys


@pytest.mark.parametrize("t_r_ns", [pg.default_memory_ns(), 60.0])
@pytest.mark.parametrize("storage_mode", ["multiple", "device", "latency"])
@pytest.mark.parametrize("device", ["sata-ssd", "my-scm", "my-slow"])
def test_paging_page_keys(t_r_ns, storage_mode, device):
    devices = _devices()
    keys = ["paging.tlb_entries", "paging.tlb_access_ns", "paging.fault_overhead_ns"]
    if t_r_ns == pg.default_memory_ns():
        keys += _old_device_keys("dram", ["read_latency_ns", "read_bandwidth_MBps"])
    if storage_mode == "device":
        keys += _old_device_keys(devices[device], ["read_latency_ns", "read_bandwidth_MBps", "access_unit_bytes"])
    dev = devices[device] if storage_mode == "device" else None  # the page's storage.get("device")
    assert pg.provenance_keys_for(t_r_ns, dev) == keys


# ----------------------------------------------------------------------------- trace-driven pages
@pytest.mark.parametrize("device", ["pcm-memext", "nand-flash", "my-scm"])
def test_wear_page_keys(traces, device):
    dev = _devices()[device]
    for trace in traces:
        tkeys, _ = _old_trace_keys(trace)
        old = [*tkeys, *param_names("wear."), *_old_device_keys(dev, ["endurance_writes_per_cell"])]
        assert wear.provenance_keys_for(trace, dev) == old


@pytest.mark.parametrize("drive", ["hdd-7200", "dec_rz26", "ibm18es"])
def test_write_cache_page_keys(traces, drive):
    for trace in traces:
        tkeys, _ = _old_trace_keys(trace)
        assert wc.provenance_keys_for(trace, drive) == [*tkeys, *param_names("write_cache."), *_old_hdd_keys(drive)]


@pytest.mark.parametrize("names", [["pcm-hdd"], ["pcm-hdd", "pcm-ssd", "hdd"], list(wf.HEADLINE_CONFIGS), []])
@pytest.mark.parametrize("cache_gib", [None, 2.0])
def test_workload_page_keys(names, cache_gib):
    cfgs = [wf.get_config(c) if cache_gib is None else wf.get_config(c, page_cache_bytes=cache_gib * (1 << 30))
            for c in names]
    devs = {d.name: d for c in cfgs for d in (c.device, c.host_device) if d is not None}
    old = ["file_cache.pagecache_read_4k_ns", "file_cache.pagecache_insert_4k_ns", *param_names("workload."),
           *(k for d in devs.values() for k in _old_device_keys(d)), *_old_device_keys("dram")]
    assert wf.provenance_keys_for(cfgs) == old
