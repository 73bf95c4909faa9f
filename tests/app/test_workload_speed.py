"""The workloads page's per-configuration caches and compiled model path draw what the reference computes (issue 18:
a rerun recomputes only what the changed input reaches, with the same results)."""

from __future__ import annotations

import base64
import json

import numpy as np
from streamlit.testing.v1 import AppTest

from app.components.bands import curve_samples
from models.storage import workload as wf
from models.storage.uncertainty import workload_model
from tests import ROOT

PAGE = str(ROOT / "app/views/workload.py")


def _values(v) -> np.ndarray:
    """A Plotly JSON array (a list, or typed-array base64 ``{"dtype", "bdata"}``)."""
    if isinstance(v, dict):
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
    return np.asarray(v, dtype=float)


def _charts(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def _reference(at):
    s = at.session_state
    p, threads = s["wl.personality"], int(s["wl.threads"])
    w = wf.paper_workload(p) if s["wl.table1"] and p in wf.TABLE1 else wf.load_workload(p)
    w = w.with_changes(iosize_bytes=float(s["wl.iosize_bytes"]), files_scale=float(s["wl.files_scale"]), threads=threads)
    cfgs = {c: wf.get_config(c, page_cache_bytes=float(s["wl.page_cache_gib"]) * (1 << 30)) for c in s["wl.configs"]}
    return w, cfgs, threads


def _check(at) -> None:
    w, cfgs, threads = _reference(at)
    summary = at.dataframe[0].value
    want = [wf.evaluate(w, c, threads=threads, reference=True).ops_per_s for c in cfgs.values()]
    assert summary.iloc[:, 1].tolist() == want  # throughput [ops/s], the NumPy reference loop's values exactly
    thr, _, sweep = _charts(at)[:3]
    for tr in sweep["data"]:  # Fig. 5: latency vs threads per configuration
        ref = wf.evaluate(w, cfgs[tr["name"]], threads=32, reference=True).curve
        assert _values(tr["y"]).tolist() == ref["latency_ms"].tolist()
    bars = [tr for tr in thr["data"] if tr.get("error_y")]
    assert len(bars) == 1
    band = curve_samples(lambda c: workload_model(w, cfgs[c], threads=threads), list(cfgs), n=64, seed=0)
    e = bars[0]
    assert _values(e["y"]).tolist() == band.p50.tolist()
    assert _values(e["error_y"]["array"]).tolist() == np.maximum(band.p95 - band.p50, 0).tolist()
    assert _values(e["error_y"]["arrayminus"]).tolist() == np.maximum(band.p50 - band.p5, 0).tolist()


def test_page_draws_the_reference_values_after_input_changes():
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["wl.uq_samples"] = "64"  # a small band (the page's default samples: 1,000)
    at.session_state["wl.threads"] = "12"
    at.run()
    assert int(at.session_state["wl.uq_samples"]) == 64 and int(at.session_state["wl.threads"]) == 12
    assert not at.exception and not at.error
    _check(at)
    # a page-cache change: the ext4-DAX bands are kept from the cache (their throughput does not read it)
    at.number_input(key="wl.page_cache_gib").set_value(0.25).run()
    assert not at.exception and not at.error
    _check(at)
    at.multiselect(key="wl.configs").set_value(["ssd", "pcm-dax", "hdd"]).run()  # configurations reordered, fewer
    at.number_input(key="wl.files_scale").set_value(0.5).run()
    assert not at.exception and not at.error
    _check(at)
