"""The streamed write cache's batch split on the budget's refusal (issue 41): a batch's working memory (its requests cut
into 4 KiB items) is charged before any state moves, and a part refused is halved and retried down to one request
(:func:`models.storage.write_cache_stream._charged_parts`): the results are those of the batch taken whole."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models import budget
from models.planner.role_stream import trace_chunks
from models.storage import write_cache as wc
from models.storage import write_cache_stream as wcs
from models.storage.write_cache_stream import WriteCacheStream as Model
from models.traces.core import BlockTrace
from tests.models.planner.test_role_streams import _batches

_SETTINGS = settings(max_examples=8, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _trace(seed: int, n: int = 400) -> BlockTrace:
    """Reads and writes of 1 sector to 40 blocks, some unaligned and across 1 MiB regions, on two devices."""
    rng = np.random.default_rng(seed)
    w = rng.random(n) < 0.6
    off = rng.integers(0, 30 * 256, n) * 4096 + rng.integers(0, 8, n) * 512 * (rng.random(n) < 0.3)
    size = np.where(rng.random(n) < 0.2, 512, rng.integers(1, 41, n) * 4096)
    return BlockTrace(np.arange(n) * 1000, w, off, size, rng.integers(0, 2, n))


def _run(tr, sizes, rate: float) -> Model:
    m = Model(0.2, sample_rate=rate)  # 51 blocks: HALO destages, its state carried from part to part
    chunks = trace_chunks(tr, sizes)
    for c in chunks:
        m.first(c)
    m.end_first()
    for c in chunks:
        m.second(c)
    m.result("halo")  # the batches gathered are taken
    return m


def _refusing(limit_bytes: float, seen: list):
    """A ``charge`` that refuses every cut of more than one request into 4 KiB items over ``limit_bytes`` (counted
    in ``seen``)."""
    real = wcs.charge

    def charge(nbytes, what, **kw):
        if what.startswith("cutting") and "one request" not in what and nbytes > limit_bytes:
            seen.append(nbytes)
            raise budget.BudgetExceeded(f"{what}: refused by the test")
        real(nbytes, what, **kw)
    return charge


def _state(m: Model) -> dict:
    """Everything the runs leave: counts, HALO's arrays, both HDD streams' sums and time components, the results."""
    out = {k: getattr(m, k) for k in ("requests", "writes", "requested_sectors", "written_bytes", "sampled_sectors",
                                      "_halo_misses", "_none_misses", "_last_block", "_r0", "rate")}
    out["halo_state"] = [a.tolist() for a in m._state]
    for p in ("none", "halo"):
        tm = m._none if p == "none" else m._halo
        out[p] = (tm.service_ms, tm.parts.tolist(), tm.requests, tm.sectors, tm.lbn_distance, m.parts(p),
                  m.result(p))
    return out


@_SETTINGS
@given(seed=st.integers(0, 10_000), frac=st.floats(0.0, 1.0), batch=st.sampled_from([7, 64, 1 << 16]),
       rate=st.sampled_from([1.0, 0.5]), sizes=st.lists(st.integers(1, 90), min_size=1, max_size=3))
def test_a_batch_split_on_refusal_gives_exactly_the_whole_batchs_results(seed, frac, batch, rate, sizes):
    """Refused cuts halve the batch at random depths; every count, HALO's state arrays and the HDD streams' float
    sums are exactly those of the batches taken whole (not to rounding: the HDD timer gets the same batches)."""
    tr = _trace(seed)
    one = float(wc.ITEM_BYTES) * 40  # a request's cut (up to 42 items)
    with _batches(batch):
        whole = _state(_run(tr, sizes, rate))
        seen: list = []
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(wcs, "charge", _refusing(one + frac * 20 * one, seen))
            split = _state(_run(tr, sizes, rate))
    assert split == whole
    if batch > 7 and frac < 0.5:
        assert seen, "the test refused no part: it tested nothing"


def test_one_request_that_cannot_fit_is_refused_naming_the_option_before_anything_is_counted():
    """The only refusal left: a single request whose cut passes the budget; the message names the step, the option and
    the environment variable, and the refused part changed nothing (charged before the counts)."""
    tr = BlockTrace([0, 1, 2], [True, True, True], [0, 1 << 30, 0], [4096, 64 << 20, 4096], [0, 0, 0])
    m = Model(64.0)
    with budget.limit("1MB"), pytest.raises(budget.BudgetExceeded, match=r"one request.*--memory-budget.*"
                                                                          r"PCM_MEMORY_BUDGET"):
        for c in trace_chunks(tr, [3]):
            m.first(c)
        m.end_first()
    assert m.requests == 1 and m.writes == 1  # the first request, taken alone before the big one was refused
