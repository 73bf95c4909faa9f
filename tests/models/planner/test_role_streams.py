"""The planner's block roles over a trace taken chunk by chunk equal the in-memory roles (issue 41).

Write cache: :class:`models.planner.role_write_cache.WriteCacheStream` and the model under it,
:class:`models.storage.write_cache_stream.WriteCacheStream`, against ``write_cache_rows`` and ``run_write_cache``.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.devices import get_device
from models.planner.role_stream import RoleStream, trace_chunks
from models.planner.role_write_cache import WriteCacheStream, write_cache_rows
from models.storage import write_cache as wc
from models.storage import write_cache_stream as wcs
from models.storage.write_cache_stream import WriteCacheStream as WriteCacheModel
from models.traces.core import BlockTrace

W = SimpleNamespace(name="w")


def _trace(draw, n_max=24, meta=None):
    """A random small block trace: reads and writes, requests of 1 sector to ~3 blocks, unaligned, repeats, up to
    three devices (one with a sparse, far address range)."""
    n = draw(st.integers(1, n_max))
    rows = draw(st.lists(st.tuples(st.booleans(), st.integers(0, 40), st.integers(0, 7), st.integers(1, 24),
                                   st.integers(0, 2), st.integers(0, 3)), min_size=n, max_size=n))
    w = [r[0] for r in rows]
    off = [(r[1] * 8 + r[2]) * 512 + (1 << 30 if r[4] == 2 else 0) for r in rows]
    size = [r[3] * 512 for r in rows]
    t = np.cumsum([r[5] * 1000 for r in rows])
    return BlockTrace(t - t[0], w, off, size, [r[4] * 3 for r in rows], meta=meta or {})


def _chunk_sizes(draw, tr):
    """Chunk sizes: 1, random ones, and one cut right after the trace's largest request (it spans blocks)."""
    kind = draw(st.sampled_from(["one", "random", "after-big"]))
    if kind == "one":
        return [1]
    if kind == "random":
        return draw(st.lists(st.integers(1, 9), min_size=1, max_size=4))
    big = int(np.argmax(tr.size_bytes))
    return [big + 1, max(1, len(tr) - big - 1)]


@contextmanager
def _batches(n: int):
    """The stream takes its chunks (and times its HDD runs) in batches of ``n`` requests: small batches, so the
    kernels' and the HDD's state is carried across calls (the default batch would gather a small trace whole)."""
    old = wcs.BATCH_REQUESTS
    wcs.BATCH_REQUESTS = n
    try:
        yield
    finally:
        wcs.BATCH_REQUESTS = old


def _streamed(stream, tr, sizes):
    chunks = trace_chunks(tr, sizes)
    origin = 123_456  # the first pass sees the reader's origin
    for c in chunks:
        stream.first({**c, "time_ns": c["time_ns"] + origin})
    stream.end_first(dict(tr.meta), origin) if isinstance(stream, RoleStream) else stream.end_first()
    for c in chunks:
        stream.second(c)
    return stream


def _same_rows(a: list[dict], b: list[dict]) -> int:
    """Assert rows ``a`` and ``b`` equal field by field (floats to rtol 1e-12); the rows compared."""
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x.keys() == y.keys()
        for k in x:
            u, v = x[k], y[k]
            if k == "_usage" and u is not None:
                assert v is not None and u.keys() == v.keys()
                for j in u:
                    _same_value(u[j], v[j], f"_usage.{j}")
            else:
                _same_value(u, v, k)
    return len(a)


def _same_value(u, v, what: str) -> bool:
    """Assert ``u`` equals ``v`` (floats to rtol 1e-12, NaN equals NaN); True."""
    if isinstance(u, float) and isinstance(v, float):
        assert (math.isnan(u) and math.isnan(v)) or u == pytest.approx(v, rel=1e-12, abs=0), what
    else:
        assert u == v, what
    return True


_SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
DEVS = ["pcm-samsung-20nm", "nand-flash", "dram"]


@_SETTINGS
@given(st.data())
def test_write_cache_stream_model_equals_run_write_cache(data):
    """The streamed HALO and no-cache runs equal ``run_write_cache`` on the whole trace field by field, with a cache
    small enough to destage (its state carried across chunks) and one that never fills."""
    tr = _trace(data.draw, n_max=30)
    if not np.asarray(tr.is_write).any():
        tr = BlockTrace(tr.time_ns, np.ones(len(tr), bool), tr.offset_bytes, tr.size_bytes, tr.device)
    sizes = _chunk_sizes(data.draw, tr)
    mb = data.draw(st.sampled_from([0.008, 0.02, 1.0]))
    with _batches(data.draw(st.sampled_from([1, 2, 5, 1 << 16]))):
        s = _streamed(WriteCacheModel(mb), tr, sizes)
        got = {p: s.result(p) for p in ("none", "halo")}
    for policy in ("none", "halo"):
        ref = wc.run_write_cache(tr, policy, mb)
        got_p = got[policy]
        assert ref.__dataclass_fields__ and all(_same_value(getattr(ref, f), getattr(got_p, f), f"{policy}.{f}")
                                                for f in ref.__dataclass_fields__)


@_SETTINGS
@given(st.data())
def test_write_cache_stream_rows_equal_write_cache_rows(data):
    """WriteCacheStream's rows equal write_cache_rows' (value, verdict, reason, band, usage) like-for-like and
    against a baseline device, over random traces and chunk sizes."""
    tr = _trace(data.draw)
    sizes = _chunk_sizes(data.draw, tr)
    base = data.draw(st.sampled_from([None, "nand-flash", "dram"]))
    base = None if base is None else get_device(base)
    devs = [get_device(d) for d in DEVS]
    uq = data.draw(st.sampled_from([None, (16, 3)]))
    with _batches(data.draw(st.sampled_from([1, 3, 1 << 16]))):
        got = _streamed(WriteCacheStream(), tr, sizes).rows(W, tr.subset([]), devs, base, uq)
    assert _same_rows(write_cache_rows(W, tr, devs, base, uq), got) == len(devs)


def test_write_cache_stream_without_writes_and_op_unknown():
    """A trace without writes: "not applicable"; a format without a read/write field: "needs data" -- as in memory."""
    devs = [get_device(d) for d in DEVS]
    reads = BlockTrace([0, 5, 9], [False] * 3, [0, 4096, 0], [4096, 8192, 512], [0, 0, 1])
    unknown = BlockTrace([0, 5, 9], [False] * 3, [0, 4096, 0], [4096, 8192, 512], [0, 0, 1],
                         meta={"op_unknown": True})
    for tr, verdict in ((reads, "not applicable"), (unknown, "needs data")):
        a = write_cache_rows(W, tr, devs, None, None)
        b = _streamed(WriteCacheStream(), tr, [1]).rows(W, tr.subset([]), devs, None, None)
        _same_rows(a, b)
        assert {r["verdict"] for r in b} == {verdict}


def test_write_cache_stream_band_is_given():
    """With uncertainty asked the streamed rows carry the band (the HDD streams' time components are four sums
    each, summed chunk by chunk), equal to the in-memory band."""
    rng = np.random.default_rng(5)
    n = 200
    tr = BlockTrace(np.arange(n) * 1000, rng.random(n) < 0.5, rng.integers(0, 64, n) * 4096,
                    rng.integers(1, 9, n) * 1024, np.zeros(n, int))
    devs = [get_device("pcm-samsung-20nm")]
    with _batches(7):
        b = _streamed(WriteCacheStream(), tr, [7]).rows(W, tr.subset([]), devs, None, (32, 1))
    _same_rows(write_cache_rows(W, tr, devs, None, (32, 1)), b)
    assert math.isfinite(b[0]["p5"]) and b[0]["p5"] <= b[0]["value"] <= b[0]["p95"]


def test_write_cache_stream_state_does_not_grow_with_length():
    """The state held after each pass is the same for a trace and for ten times as many requests over the same
    blocks: memory bounded by the distinct blocks, not by the length."""
    rng = np.random.default_rng(0)
    n = 500
    w = rng.random(n) < 0.5
    off = rng.integers(0, 2000, n) * 4096
    size = rng.integers(1, 5, n) * 4096

    def state(reps):
        tr = BlockTrace(np.arange(n * reps), np.tile(w, reps), np.tile(off, reps), np.tile(size, reps),
                        np.zeros(n * reps, int))
        s = WriteCacheModel(64.0)
        chunks = trace_chunks(tr, [400])
        for c in chunks:
            s.first(c)
        s.end_first()
        after_first = s.state_nbytes
        for c in chunks:
            s.second(c)
        s.result("halo"), s.result("none")  # the batches taken
        return after_first, s.state_nbytes, s

    one, ten = state(1), state(10)
    assert one[:2] == ten[:2]
    assert ten[2].requests == 10 * one[2].requests
    assert ten[2].result("halo").hits > one[2].result("halo").hits


def test_write_cache_stream_is_a_role_stream_and_charges_its_state():
    """WriteCacheStream is a RoleStream; the state's growth is charged to the run's budget first: over it, the
    refusal names the step (the written blocks' map, cut in 4 KiB blocks by the second pass) and the option. A batch
    refused is split (``tests/models/storage/test_write_cache_stream_split.py``): what is refused is a request."""
    from models import budget

    assert isinstance(WriteCacheStream(), RoleStream) and WriteCacheStream.role == "write-cache"
    n = 20
    tr = BlockTrace(np.arange(n), np.ones(n, bool), np.arange(n) * (64 << 20), np.full(n, 64 << 20), np.zeros(n, int))
    s = WriteCacheStream()
    with budget.limit("1MB"), pytest.raises(budget.BudgetExceeded, match="4 KiB blocks.*--memory-budget"):
        for c in trace_chunks(tr, [5]):
            s.first(c)
        s.end_first({}, 0)  # the chunks gathered are taken
