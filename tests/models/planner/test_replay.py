"""Issue 38 item 4: the storage role answers from a block trace, replayed on the device and on the baseline."""

from __future__ import annotations

import numpy as np
import pytest

from models.devices import get_device, transfer_time_ns
from models.planner.plan import plan, workload_from_path
from models.planner.replay import (
    fifo_response_ns,
    queue_depth,
    replay_mean_response_ns,
    service_times_ns,
)
from models.traces import BlockTrace, load


def _loop_fifo(a, s):
    done, out = -np.inf, []
    for ai, si in zip(a, s):
        done = max(done, ai) + si
        out.append(done - ai)
    return np.array(out)


def test_fifo_closed_form_equals_the_queue_simulated_request_by_request():
    g = np.random.default_rng(3)
    a = np.cumsum(g.exponential(10.0, 2000))
    s = g.exponential(9.0, 2000)  # near saturation: long busy periods
    assert np.allclose(fifo_response_ns(a, s), _loop_fifo(a, s))
    with pytest.raises(ValueError):
        fifo_response_ns([0, 1], [1])


def test_service_is_the_transfer_time_equation_and_the_hdd_model_for_an_hdd():
    t = load("mqsim:tpcc-small", kind="block", max_requests=400)
    d = get_device("pcm-samsung-20nm")
    w = t.is_write
    want = transfer_time_ns(np.where(w, d.write_latency_ns, d.read_latency_ns), t.size_bytes.astype(float),
                            d.access_unit_bytes,
                            np.where(w, d.effective_write_bandwidth_MBps, d.effective_read_bandwidth_MBps))
    assert np.allclose(service_times_ns(t, d), want)
    from models.storage import hdd

    h = get_device("hdd-7200")
    spec = hdd.generic_drive("hdd-7200")
    lbn = (t.offset_bytes // 512) % spec.block_count
    nblk = np.maximum(1, -(-t.size_bytes // 512))
    assert np.allclose(service_times_ns(t, h), hdd.stream_service_ms(spec, lbn, nblk, w) * 1e6)


def test_queue_depth_shortens_the_wait_never_the_service():
    # two requests at once: at depth 1 the second waits a whole service, at depth 2 half of it
    t = BlockTrace([0, 0], [False, False], [0, 4096], [4096, 4096], [0, 0])
    d = get_device("sata-ssd")
    s = float(service_times_ns(t, d)[0])
    assert replay_mean_response_ns(t, d, depth=1)[0] == pytest.approx(1.5 * s)
    assert replay_mean_response_ns(t, d, depth=2)[0] == pytest.approx(1.25 * s)
    assert queue_depth() >= 1


def test_the_storage_role_answers_from_a_block_trace_like_for_like():
    t = load("mqsim:tpcc-small", kind="block")
    df = plan([workload_from_path("mqsim:tpcc-small", name="db")], ["pcm-samsung-20nm", "sata-ssd"]).to_frame()
    st = df[df.role == "storage"].set_index("device")
    assert st.loc["pcm-samsung-20nm", "verdict"] == "wins"
    r_pcm, _ = replay_mean_response_ns(t, get_device("pcm-samsung-20nm"))
    r_ssd, _ = replay_mean_response_ns(t, get_device("sata-ssd"))
    assert st.loc["pcm-samsung-20nm", "value"] == pytest.approx(r_ssd / r_pcm)
    assert st.loc["sata-ssd", "value"] == 1.0 and st.loc["sata-ssd", "verdict"] == "about the same"
    assert "sata-ssd (as the storage)" in st.loc["pcm-samsung-20nm", "reason"]
    assert st.loc["pcm-samsung-20nm", "metric"] == "mean response time speedup (block trace replay)"
