"""The one ring kernel (FIFO / CLOCK / age counter), the public primitives and SimResult.to_frame."""

import ast
from collections import deque

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.sim import simulate
from models.sim.policies import simulate_age, simulate_clock
from tests import ROOT
from tests.fresh_compile import fresh_signatures

traces = st.lists(st.integers(0, 12), min_size=1, max_size=150)
writes = st.lists(st.booleans(), min_size=150, max_size=150)


def ref_age(ids, cap, is_write, age_max):
    """Seed 002 §5.4's age-based policy, written from the paper's text independently of the kernel.

    Pages sit in a FIFO queue swept from its head: "the counter is incremented if the reference
    bit is found to be set, and decremented otherwise. If a page has its counter with value less
    than or equal to zero, it will be selected for eviction" (saturating at ``age_max``).
    """
    q, ref, cnt, dirty, hits, wb = deque(), {}, {}, {}, 0, 0
    for x, w in zip(ids, is_write, strict=False):
        if cap == 0:
            continue
        if x in ref:
            hits += 1
            ref[x] = True
        else:
            if len(q) == cap:
                while True:
                    v = q[0]
                    if ref[v]:
                        ref[v] = False
                        cnt[v] = min(cnt[v] + 1, age_max)
                    else:
                        cnt[v] -= 1
                        if cnt[v] <= 0:
                            break
                    q.rotate(-1)
                q.popleft()
                del ref[v], cnt[v]
                wb += dirty.pop(v)
            q.append(x)
            ref[x], cnt[x], dirty[x] = False, 0, False
        dirty[x] = dirty[x] or w
    return hits, wb


@given(traces, writes, st.integers(0, 14), st.integers(1, 6))
def test_age_matches_the_papers_rule(ids, w, cap, age_max):
    a, iw = np.array(ids), np.array(w[: len(ids)])
    r = simulate_age(a, cap, is_write=iw, age_max=age_max)
    assert (r.hits, r.writebacks) == ref_age(ids, cap, iw.tolist(), age_max)
    assert r.policy == "age" and r.hits + r.misses == len(ids)


@given(traces, writes, st.integers(0, 14))
def test_age_with_one_level_is_clock_request_by_request(ids, w, cap):
    a, iw = np.array(ids), np.array(w[: len(ids)])
    age = simulate_age(a, cap, is_write=iw, age_max=1, record=True)
    clock = simulate_clock(a, cap, is_write=iw, record=True)
    for f in ("hit", "inserted", "writeback"):
        assert getattr(age, f).tolist() == getattr(clock, f).tolist(), f
    assert (age.writebacks, age.dirty_at_end) == (clock.writebacks, clock.dirty_at_end)


def _run_kernel(kernel, ids, is_write, cap, counter_max, ref_on_insert):
    n = len(ids)
    recs = (np.zeros(n, np.bool_), np.zeros(n, np.bool_), np.zeros(n, np.bool_))
    out = kernel(ids, is_write, cap, counter_max, ref_on_insert, int(ids.max()) + 1, True, *recs)
    return tuple(int(v) for v in out), [r.tolist() for r in recs]


@given(st.lists(st.integers(0, 40), min_size=1, max_size=400), st.lists(st.booleans(), min_size=400, max_size=400),
       st.integers(0, 45), st.booleans())
def test_kernels_with_the_ceiling_compiled_in_equal_the_run_time_ceiling_kernel(ids, w, cap, ref_on_insert):
    # FIFO and CLOCK run the ring kernel with their counter ceiling frozen in as a constant; the age
    # policy's kernel (the same source, the ceiling read at run time) is the previous behaviour:
    # counts and the per-request hit / insert / writeback records must be identical.
    from models.sim.policies import _RING

    a, iw = np.array(ids, np.int64), np.array(w[: len(ids)])
    for policy, counter_max, roi in (("fifo", 0, False), ("clock", 1, False), ("clock", 1, ref_on_insert)):
        got = _run_kernel(_RING[policy], a, iw, cap, counter_max, roi)
        assert got == _run_kernel(_RING["age"], a, iw, cap, counter_max, roi), (policy, roi)


def test_age_counter_is_sampled_by_the_sweep_not_counted_per_hit():
    # Not libCacheSim's n-bit Clock: there the three hits on 0 would bank 3 lives; here the sweep
    # sees one set bit, so 0 survives one sweep (counter 1), then goes (counter 0). Cache of 2:
    # inserting 2 sweeps 0 (bit -> counter 1) and evicts 1; inserting 3 evicts 0 (counter 1 -> 0).
    ids = [0, 0, 0, 0, 1, 2, 3]
    r = simulate_age(ids, 2, age_max=3, record=True)
    assert r.hit.tolist() == [False, True, True, True, False, False, False]
    assert simulate_age(ids + [0], 2, age_max=3).hits == 3  # 0 was evicted by 3


def test_age_max_must_be_a_positive_integer():
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="age_max"):
            simulate_age([0, 1], 1, age_max=bad)


def test_sim_result_to_frame_is_one_row_without_record_arrays():
    for record in (False, True):
        r = simulate([0, 1, 0, 2, 0], 2, "clock", is_write=[1, 0, 0, 0, 0], record=record)
        df = r.to_frame()
        assert df.columns.tolist() == ["policy", "cache_blocks", "requests", "hits", "misses", "inserts",
                                       "writebacks", "dirty_at_end", "hit_ratio"]
        assert df.iloc[0].tolist() == ["clock", 2, 5, r.hits, r.misses, r.inserts, r.writebacks, r.dirty_at_end,
                                       r.hit_ratio]
    assert not hasattr(r, "as_dict")


def _private_sim_imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("models.sim"):
            if node.module.rsplit(".", 1)[-1].startswith("_"):
                yield f"{path.relative_to(ROOT)}: from {node.module}"
            for a in node.names:
                if a.name.startswith("_"):
                    yield f"{path.relative_to(ROOT)}: {a.name} from {node.module}"


def test_no_private_sim_helpers_imported_across_modules():
    bad = [hit for top in ("models", "app", "cli", "bench") for p in sorted((ROOT / top).rglob("*.py"))
           for hit in _private_sim_imports(p)]
    assert bad == []


def test_primitives_are_public_and_documented():
    from models.sim import primitives

    for name in primitives.__all__:
        assert getattr(primitives, name).__doc__, name
    assert "cache" in primitives.__doc__ and "make clean" in primitives.__doc__


def test_ring_victim_policies_by_hand():
    from models.sim.primitives import ring_victim

    ring = np.array([0, 1, 2], np.int64)
    ref = np.array([True, False, True])
    cnt = np.zeros(3, np.int64)
    assert ring_victim(ring, 0, 3, ref.copy(), cnt.copy(), 0) == (0, 0)  # FIFO: under the hand
    assert ring_victim(ring, 0, 3, ref.copy(), cnt.copy(), 1) == (1, 1)  # CLOCK: 0 gets a second chance
    c = np.array([0, 2, 0], np.int64)
    r = ref.copy()
    # age: 0 -> counter 1 (bit), 1 -> counter 1 (no bit, 2 - 1), 2 -> counter 1 (bit), 0 -> 0: evicted
    assert ring_victim(ring, 0, 3, r, c, 3) == (0, 0)
    assert c.tolist() == [0, 1, 1] and not r.any()


def test_hit_ratio_curve_to_frame_still_three_columns():
    from models.sim import hit_ratio_curve

    df = hit_ratio_curve([0, 1, 0]).to_frame()
    assert isinstance(df, pd.DataFrame) and df.columns.tolist() == ["cache_blocks", "hit_ratio", "byte_hit_ratio"]


def test_the_ring_helpers_are_compiled_for_an_int64_hand_only(tmp_path):
    """FIFO, CLOCK and the age policy each compile ``ring_victim`` and ``ring_advance`` once (the ceiling frozen in is
    by design): the hand starts as an int64, not the literal 0 numba compiled as a second signature of each. Counted
    in a fresh process with an empty numba cache (helpers of cached callers are never typed in this one)."""
    got = fresh_signatures("""
        import numpy as np
        from models.sim import simulate
        from models.sim.policies import simulate_age
        from models.sim.primitives import ring_advance, ring_victim
        ids = np.arange(60) % 17
        for policy in ("fifo", "clock"):
            simulate(ids, 5, policy=policy)
        simulate_age(ids, 5, age_max=3)
    """, {"ring_victim": "ring_victim", "ring_advance": "ring_advance"}, tmp_path / "numba")
    hands = [sig[1] for sig in got["ring_victim"]] + [sig[0] for sig in got["ring_advance"]]
    assert hands and all(h == "int64" for h in hands), got
