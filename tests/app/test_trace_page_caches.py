"""Trace-driven pages cache their simulations by the values each one reads (issue 18): a rerun after an input change
re-simulates only what the input reaches, and draws what the model computes from scratch."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from streamlit.testing.v1 import AppTest

from models.storage import write_cache as wc
from models.traces import load
from tests import ROOT


def _write_cache_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app/views/write_cache.py"), default_timeout=300)
    at.session_state["wc.n_requests"] = 3000  # a small synthetic trace
    return at


def test_write_cache_sweep_per_policy_equals_the_whole_sweep():
    """The page's sweep, cached per policy, is ``wc.sweep_cache_sizes`` of every policy (same runs, same order),
    also after a change of a HALO constant (only HALO re-simulated) and of the LRU baseline."""
    st.cache_data.clear()
    at = _write_cache_page().run()
    assert not at.exception and not at.error
    for change in (lambda: at.number_input(key="wc.th_bcounts").set_value(at.number_input(key="wc.th_bcounts").value + 3),
                   lambda: at.radio(key="wc.lru_granularity").set_value("block"), None):
        if change is not None:
            change()
            at.run()
            assert not at.exception and not at.error
        s = at.session_state
        trace = load(f"synthetic:{s['wc.preset']}", n_requests=int(s["wc.n_requests"]), seed=int(s["wc.seed"]),
                     scale=float(s["wc.scale"]))
        sizes = wc.sweep_sizes_mb(trace)
        want = wc.sweep_cache_sizes(trace, sizes, drive=s["wc.drive"], lru_granularity=s["wc.lru_granularity"],
                                    params=wc.HaloParams(th_bcounts=s["wc.th_bcounts"], threshold=s["wc.threshold"]))
        got = next(d.value for d in at.dataframe if "policy" in d.value.columns).reset_index(drop=True)
        want = want.to_frame()
        got.columns = want.columns  # the table shows the columns with their units
        pd.testing.assert_frame_equal(got, want, check_exact=True)


def _values(v):
    import base64

    import numpy as np

    if isinstance(v, dict):
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
    return np.asarray(v, dtype=float)


def test_memory_extension_band_after_a_t_ref_change_equals_a_fresh_one():
    """A t_ref change keeps the simulated counts (the band's models reuse them) and re-samples only the times: the
    ratio table and the band equal the model's from scratch at the new t_ref."""
    import json

    from app.components.bands import curve_samples
    from models.devices import get_device
    from models.memory import memory_extension as me
    from models.memory.uncertainty import memext_model

    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app/views/memory_extension.py"), default_timeout=300)
    for k, v in {"stream_source": "pattern", "footprint_pages": "256", "references": "20000", "uq_samples": "64"}.items():
        at.session_state[f"mx.{k}"] = v
    at.run()
    assert not at.exception and not at.error
    for t_ref in (3.0, 7.5):
        at.number_input(key="mx.base_ns_per_ref").set_value(t_ref).run()
        assert not at.exception and not at.error
        s = at.session_state
        stream = me.synthetic_page_stream(s["mx.pattern"], footprint_pages=256, references=20000,
                                          refs_per_visit=int(s["mx.refs_per_visit"]),
                                          write_fraction=float(s["mx.write_fraction"]), seed=int(s["mx.seed"]))
        common = dict(accounting=s["mx.accounting"], base_ns_per_ref=t_ref, fault_overhead_ns=s["mx.fault_overhead_ns"],
                      writeback=s["mx.writeback"], eviction_buffer_pages=int(s["mx.eviction_buffer_pages"]),
                      cold_start_in_nvm=s["mx.cold_start_in_nvm"], age_max=int(s["mx.age_max"]))
        devs = [get_device(s["mx.fast_device"]), get_device(s["mx.slow_device"])]
        want = me.ratio_sweep(stream, devices=devs, policy=s["mx.policy"], **common)
        got = next(d.value for d in at.dataframe if "faults" in d.value.columns)
        assert got["slowdown [×]"].tolist() == want["slowdown"].tolist()
        spec = json.loads(at.get("plotly_chart")[0].proto.spec)
        for dev in devs:
            def build(f, dev=dev, stream=stream, common=common, policy=s["mx.policy"]):
                return memext_model(stream, me.MemExtConfig(dram_frac=f, device=dev.name, policy=policy, **common),
                                    device=dev, baseline=None)

            band = curve_samples(build, list(me.DRAM_FRACTIONS), n=64, seed=0)
            p5 = next(tr for tr in spec["data"] if tr.get("name", "").startswith(f"p5–p95 of {dev.name}"))
            assert _values(p5["y"]).tolist() == band.p5.tolist()
