"""The memory extension's resumable kernel (issue 41): the stream cut anywhere gives the whole-stream result exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.memory.memory_extension import MemExtConfig, MemExtRun, page_stream, simulate_memext

#: Configurations covering every branch of the kernel: the three policies, prefetching (both submission
#: readings), synchronous / bounded / unbounded write-back, exclusive accounting, cold starts in the NVM, MFWR,
#: and the closed form of FIFO/CLOCK without a bounded buffer.
CONFIGS = {
    "default": {},
    "fifo-prefetch4": {"prefetch_depth": 4, "prefetch_threshold": 2},
    "clock-prefetch2-every": {"policy": "clock", "prefetch_depth": 2, "prefetch_submit": "every-fault",
                              "device": "nand-flash"},
    "age-sync": {"policy": "age", "writeback": "sync", "age_max": 3},
    "age-prefetch-excl": {"policy": "age", "prefetch_depth": 3, "prefetch_threshold": 1, "accounting": "exclusive",
                          "eviction_buffer_pages": 2, "device": "nand-flash", "mfwr_ns": 500.0},
    "clock-unbounded": {"policy": "clock", "eviction_buffer_pages": None},
    "fifo-sync-cold-nvm": {"writeback": "sync", "cold_start_in_nvm": True, "accounting": "exclusive"},
    "small-buffer": {"eviction_buffer_pages": 1, "dram_frac": 0.125, "device": "nand-flash", "write_ns": 4e5},
}


def _stream(seed: int, n: int, pages: int, write_share: float):
    """Sequential runs (strides the prefetcher confirms) between random pages, some written."""
    rng = np.random.default_rng(seed)
    parts = []
    while sum(p.size for p in parts) < n:
        if rng.random() < 0.5:
            start, stride = int(rng.integers(0, pages)), int(rng.choice([1, 2, -1, 3]))
            parts.append((start + stride * np.arange(int(rng.integers(4, 40)))) % pages)
        else:
            parts.append(rng.integers(0, pages, int(rng.integers(1, 30))))
    p = np.concatenate(parts)[:n]
    addr = p.astype(np.int64) * 4096 + rng.integers(0, 4096, n)
    return page_stream(address=addr, is_write=rng.random(n) < write_share)


def _cut(n: int, cuts: list[int]) -> list[tuple[int, int]]:
    pts = sorted({0, n, *(c % (n + 1) for c in cuts)})
    return list(zip(pts[:-1], pts[1:]))


@pytest.mark.parametrize("name", list(CONFIGS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), n=st.integers(1, 1500), pages=st.integers(1, 300),
       write_share=st.sampled_from([0.0, 0.3, 1.0]), cuts=st.lists(st.integers(0, 10**6), max_size=12),
       frac=st.sampled_from([0.5, 0.25, 0.0625]))
def test_cut_anywhere_equals_whole(name, seed, n, pages, write_share, cuts, frac):
    s = _stream(seed, n, pages, write_share)
    cfg = MemExtConfig(**{"dram_frac": frac, **CONFIGS[name]})
    whole = simulate_memext(s, cfg)
    run = MemExtRun(s.vpn, cfg)
    for a, b in _cut(len(s), cuts):
        run.feed(s.ids[a:b], s.is_write[a:b])
    assert run.result() == whole
    # the dedicated kernel too, where simulate_memext takes the closed form of the policy simulator's counts
    assert MemExtRun(s.vpn, cfg, use_sim_kernels=False).feed(s.ids, s.is_write) is None
    slow = simulate_memext(s, cfg, use_sim_kernels=False)
    run = MemExtRun(s.vpn, cfg, use_sim_kernels=False)
    for a, b in _cut(len(s), cuts[::-1]):
        run.feed(s.ids[a:b], s.is_write[a:b])
    assert run.result() == slow


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), cuts=st.lists(st.integers(0, 10**6), max_size=8))
def test_recorded_events_cut_anywhere(seed, cuts):
    """The miss events of the pieces, joined, are the whole stream's (indices in the whole stream)."""
    from models.memory.memext_events import miss_events

    s = _stream(seed, 800, 120, 0.4)
    cfg = MemExtConfig(dram_frac=0.25)
    want = miss_events(s, cfg)
    run = MemExtRun(s.vpn, cfg)
    got = [run.feed(s.ids[a:b], s.is_write[a:b], record=True) for a, b in _cut(len(s), cuts)]
    for k in range(3):
        np.testing.assert_array_equal(np.concatenate([g[k] for g in got]), want[k])


def test_recorded_events_reuse_the_models_compiled_kernel():
    """Recording the miss events calls the kernel with the argument types of the model's own call: no second
    numba signature of the one replay loop (each compile of ``_memext_resume`` costs ~20 s in a fresh process)."""
    from models.memory.memext_events import miss_events
    from models.memory.memory_extension import _memext_resume

    s = _stream(3, 400, 60, 0.4)
    for policy in ("fifo", "clock"):
        cfg = MemExtConfig(dram_frac=0.25, policy=policy)
        simulate_memext(s, cfg)
        before = set(_memext_resume.signatures)
        miss_events(s, cfg)
        assert set(_memext_resume.signatures) == before


def test_state_bytes_estimate_covers_the_state():
    s = _stream(1, 500, 200, 0.3)
    for cfg in (MemExtConfig(), MemExtConfig(prefetch_depth=2, eviction_buffer_pages=None)):
        run = MemExtRun(s.vpn, cfg)
        assert run.state_bytes <= MemExtRun.state_bytes_for(s.footprint_pages, cfg)


def test_bad_ids_refused():
    s = _stream(2, 50, 10, 0.0)
    run = MemExtRun(s.vpn)
    with pytest.raises(ValueError, match="page ids must be in 0"):
        run.feed(np.array([s.footprint_pages]), np.array([False]))
    with pytest.raises(ValueError, match="is_write must have the length"):
        run.feed(np.array([0, 1]), np.array([False]))


#: Time-only variations of a time-independent configuration: a MemExtClock over the leader's events.
CLOCK_VARIANTS = [{}, {"device": "nand-flash"}, {"eviction_buffer_pages": 1, "write_ns": 4e5}, {"writeback": "sync"},
                  {"eviction_buffer_pages": None, "mfwr_ns": 300.0}, {"base_ns_per_ref": 3.0, "fault_overhead_ns": 0.0}]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), n=st.integers(1, 1500), pages=st.integers(1, 300),
       cuts=st.lists(st.integers(0, 10**6), max_size=10), policy=st.sampled_from(["fifo", "clock"]),
       accounting=st.sampled_from(["inclusive", "exclusive"]), cold_nvm=st.booleans(),
       frac=st.sampled_from([0.5, 0.125]))
def test_clock_over_leader_events_equals_own_run(seed, n, pages, cuts, policy, accounting, cold_nvm, frac):
    from models.memory.memory_extension import MemExtClock

    s = _stream(seed, n, pages, 0.4)
    page = {"policy": policy, "accounting": accounting, "cold_start_in_nvm": cold_nvm, "dram_frac": frac}
    lead = MemExtRun(s.vpn, MemExtConfig(**page))
    cfgs = [MemExtConfig(**page, **v) for v in CLOCK_VARIANTS]
    clocks = [MemExtClock(lead, c) for c in cfgs]
    for a, b in _cut(len(s), cuts):
        ev = lead.feed(s.ids[a:b], s.is_write[a:b], record=True)
        for c in clocks:
            c.feed(b - a, ev)
    for c, cfg in zip(clocks, cfgs):
        assert c.result(lead) == simulate_memext(s, cfg)
        assert c.state_bytes < 4096


def test_clock_refuses_other_page_decisions():
    from models.memory.memory_extension import MemExtClock

    s = _stream(3, 50, 20, 0.0)
    lead = MemExtRun(s.vpn, MemExtConfig())
    for other in (MemExtConfig(dram_frac=0.5), MemExtConfig(prefetch_depth=2), MemExtConfig(policy="clock")):
        with pytest.raises(ValueError, match="page decisions"):
            MemExtClock(lead, other)
