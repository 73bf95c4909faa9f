"""A plan's block roles over a trace read twice in chunks (models/planner/stream_plan.py, issue 41): the same rows
as the in-memory plan, a trace longer than the request limit planned whole, sources that cannot be read twice
refused, progress."""

from __future__ import annotations

import gzip
import io
import os
import re

import numpy as np
import pandas as pd
import pytest

from models import traces
from models.budget import BudgetExceeded
from models.devices import get_device
from models.planner import stream_plan
from models.planner.plan import plan, workload_from_path
from models.planner.role_file_cache import file_cache_rows
from models.planner.role_storage import block_storage_rows
from models.planner.role_stream import RoleStream
from models.planner.role_write_cache import write_cache_rows
from models.planner.roles import ROLE_NEEDS
from models.planner.stream_plan import (
    COLLECTING_ENV,
    STREAM_ROLES,
    CollectingStream,
    role_streams,
    stream_block_rows,
)

DEVICES = ["pcm-samsung-20nm", "optane-dcpmm"]
IN_MEMORY = (("file-cache", file_cache_rows), ("write-cache", write_cache_rows), ("storage", block_storage_rows))
NOTE = re.compile(r" \[(whole block trace|sampled: the first)[^\]]*\]$")


def _msr_csv(path, n: int, seed: int = 7, *, op: bool = True):
    """An MSR Cambridge CSV of ``n`` requests (gzip): a hot set and a cold range, requests of 1-32 blocks, times
    out of order now and then (the earliest arrival is not the first line's)."""
    rng = np.random.default_rng(seed)
    ticks = 128166372003061629 + np.cumsum(rng.integers(0, 20_000, n))
    ticks[1] -= 50_000  # the earliest arrival is the second request's
    hot = rng.random(n) < 0.7
    block = np.where(hot, rng.integers(0, 300, n), rng.integers(0, 100_000, n))
    size = 512 * rng.choice(np.array([1, 8, 16, 64]), n, p=[0.2, 0.5, 0.2, 0.1])
    write = rng.random(n) < 0.4
    if not op:  # a generic CSV: header, times in microseconds from 0
        ticks = (ticks - ticks.min()) // 10
    lines = [f"{t},hm,{d},{'Write' if w else 'Read'},{b * 4096},{s},{r}" if op else f"{t},{b * 4096},{s}"
             for t, d, w, b, s, r in zip(ticks, rng.integers(0, 2, n), write, block, size, rng.integers(100, 9000, n))]
    with gzip.open(path, "wt") as fh:
        fh.write(("" if op else "time,offset,size\n") + "\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def msr(tmp_path_factory):
    return _msr_csv(tmp_path_factory.mktemp("stream") / "vol.csv.gz", 2000)


def _in_memory_rows(w, devs):
    tr = traces.load(w.source, kind="block", **w.trace_options)
    return [r for _, f in IN_MEMORY for r in f(w, tr, devs, None, None)], len(tr)


def _collecting():
    return [CollectingStream(f, role) for role, f in IN_MEMORY]


def _frame(rows):
    df = pd.DataFrame(list(rows))
    df["reason"] = df["reason"].str.replace(NOTE, "", regex=True)
    return df[["workload", "role", "device", "baseline", "value", "verdict", "reason"]].reset_index(drop=True)


@pytest.mark.parametrize("source", ["msr", "mqsim:tpcc-small"])
def test_streamed_rows_equal_the_in_memory_rows_over_random_chunk_sizes(source, msr):
    w = workload_from_path(msr if source == "msr" else source)
    devs = [get_device(d) for d in DEVICES]
    want, n = _in_memory_rows(w, devs)
    rng = np.random.default_rng(41)
    # 2 kB: ~30-100 requests per chunk (dozens of chunks); the others: a few chunks, boundaries anywhere
    for chunk_bytes in [2000 + int(rng.integers(0, 100)), *rng.integers(8 << 10, 64 << 10, 2).tolist()]:
        got = stream_block_rows(w, _collecting(), devs, None, None, chunk_bytes=int(chunk_bytes))
        assert got.requests_used == got.requests_read == n
        pd.testing.assert_frame_equal(_frame(got.rows), _frame(want))
    assert {r["verdict"] for r in want} & {"wins", "loses"}  # the comparison sees evaluated rows, not only refusals


def test_a_format_without_operations_streams_with_its_metadata(tmp_path):
    """A CSV without an op column: its trace says the operation is unknown, streamed as loaded (the sink readers
    used to lose ``op_unknown``)."""
    path = _msr_csv(tmp_path / "noop.csv.gz", 300, op=False)
    w = workload_from_path(path, trace_format="csv", reader_options={"time_col": "time", "offset_col": "offset",
                                                                     "size_col": "size", "time_unit": "us"})
    devs = [get_device(DEVICES[0])]
    want, n = _in_memory_rows(w, devs)
    got = stream_block_rows(w, _collecting(), devs, None, None)
    pd.testing.assert_frame_equal(_frame(got.rows), _frame(want))
    assert got.meta_trace.meta["op_unknown"] is True
    assert "operation unknown" in next(r["reason"] for r in got.rows if r["role"] == "write-cache")


@pytest.fixture
def small_limits(monkeypatch):
    """A memory budget that holds 1,000 requests in memory (an in-memory read of a trace file past them is refused,
    :class:`~models.budget.BudgetExceeded`, as the readers refuse it) and the in-memory byte limit out of the way:
    the 2,000-request trace does not fit a whole read. ``refuse["on"] = False`` lifts the budget."""
    real, refuse = traces.load, {"on": True}

    def load(source, *, max_requests=None, **kw):
        if refuse["on"] and isinstance(source, str) and os.path.isfile(source) \
                and (max_requests is None or max_requests > 1000):
            raise BudgetExceeded("reading the trace needs about 128 kB of memory, more than the run's budget of "
                                 "64 kB; raise it with --memory-budget 128kB (CLI)")
        return real(source, max_requests=max_requests, **kw)

    monkeypatch.setattr(traces, "load", load)
    monkeypatch.setattr(stream_plan, "IN_MEMORY_MAX_BYTES", 1 << 40)
    return refuse


def test_a_trace_over_the_budget_is_planned_whole_not_cut(msr, small_limits, monkeypatch):
    w = workload_from_path(msr)
    monkeypatch.setenv(COLLECTING_ENV, "0")
    small_limits["on"] = False
    want = plan([w], DEVICES).to_frame()  # in memory
    small_limits["on"] = True
    monkeypatch.setenv(COLLECTING_ENV, "1")
    got = plan([w], DEVICES).to_frame()
    block = got[got.role.isin(["file-cache", "write-cache", "storage"])]
    assert (block.requests_used == 2000).all() and (block.requests_read == 2000).all()
    assert block.reason.str.endswith("[whole block trace: 2,000 requests (streamed in two passes)]").all()
    assert want.reason.str.contains("[whole block trace: 2,000 requests]", regex=False).any()
    cols = ["role", "device", "value", "verdict", "cost_usd", "economic_verdict"]
    # the role's own stream (STREAM_ROLES) where it has one: sums to floating-point summation order
    pd.testing.assert_frame_equal(got[cols], want[cols], check_exact=False, rtol=1e-9)
    assert got.reason.str.replace(NOTE, "", regex=True).equals(want.reason.str.replace(NOTE, "", regex=True))


def test_a_role_that_does_not_stream_needs_data_never_a_cut_verdict(msr, small_limits, monkeypatch):
    monkeypatch.setenv(COLLECTING_ENV, "0")
    monkeypatch.setattr(stream_plan, "STREAM_ROLES", dict.fromkeys(STREAM_ROLES))
    df = plan([workload_from_path(msr)], DEVICES[:1]).to_frame()
    block = df[df.role.isin(["file-cache", "write-cache", "storage"])]
    assert (block.verdict == "needs data").all() and block.value.isna().all()
    assert block.reason.str.contains("loading it whole needs more than the run's memory budget: reading the trace "
                                     "needs about 128 kB", regex=False).all()
    assert block.reason.str.contains("this role does not stream yet", regex=False).all()
    assert (block.requests_read == 2000).all()


def test_the_users_request_count_still_cuts(msr, small_limits, monkeypatch):
    monkeypatch.setenv(COLLECTING_ENV, "1")
    w = workload_from_path(msr)
    df = plan([w], DEVICES[:1], n_requests=500).to_frame()  # within the budget: in memory, as before
    block = df[df.role == "storage"]
    assert (block.requests_used == 500).all() and block.requests_read.isna().all()  # read to the limit, as before
    assert block.reason.str.endswith("[sampled: the first 500 requests of a longer trace, not read to its end (as "
                                     "asked)]").all()
    df = plan([w], DEVICES[:1], n_requests=1500).to_frame()  # over the budget: streamed, cut as asked
    block = df[df.role == "storage"]
    assert (block.requests_used == 1500).all() and (block.requests_read == 2000).all()
    assert block.reason.str.endswith("[sampled: the first 1,500 requests of 2,000 (as asked; streamed in two "
                                     "passes)]").all()
    ref = stream_block_rows(w, [CollectingStream(block_storage_rows, "storage")], [get_device(DEVICES[0])], None,
                            None, max_requests=1500)
    assert ref.requests_used == 1500 and block.value.iloc[0] == pytest.approx(ref.rows[0]["value"], rel=1e-9)


def test_a_file_over_the_byte_limit_is_streamed_and_says_why(msr, monkeypatch):
    monkeypatch.setattr(stream_plan, "IN_MEMORY_MAX_BYTES", 1000)
    monkeypatch.setenv(COLLECTING_ENV, "0")
    monkeypatch.setattr(stream_plan, "STREAM_ROLES", dict.fromkeys(STREAM_ROLES))
    df = plan([workload_from_path(msr)], DEVICES[:1]).to_frame()
    assert df[df.role == "storage"].reason.str.contains("over the in-memory limit of 1 kB (IN_MEMORY_MAX_BYTES)",
                                                         regex=False).all()


class _Pipe(io.RawIOBase):
    """A binary stream that cannot seek (a pipe)."""

    def __init__(self, data: bytes):
        self._b = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, b):
        return self._b.readinto(b)

    def seekable(self):
        return False


def test_a_source_that_cannot_be_read_twice_is_refused_bytes_are_not(msr):
    w = workload_from_path(msr)
    data = open(msr, "rb").read()
    with pytest.raises(ValueError, match="cannot be read again from its start .*save it to a file or upload it"):
        stream_block_rows(w, _collecting(), [get_device(DEVICES[0])], None, None, source=_Pipe(data))
    got = stream_block_rows(w, _collecting(), [get_device(DEVICES[0])], None, None, source=data)
    assert got.requests_read == 2000
    got = stream_block_rows(w, _collecting(), [get_device(DEVICES[0])], None, None, source=io.BytesIO(data))
    assert got.requests_read == 2000


def test_progress_rises_to_one_and_reports_each_pass(msr):
    seen, texts = [], []
    stream_block_rows(workload_from_path(msr), _collecting(), [get_device(DEVICES[0])], None, None,
                      progress=seen.append, read_progress=texts.append, chunk_bytes=4096)
    assert seen == sorted(seen) and seen[-1] == 1.0 and 0.5 in seen and len(seen) > 4
    assert any(t.startswith("pass 1 of 2: ") for t in texts) and any(t.startswith("pass 2 of 2: ") for t in texts)
    assert all(" read" in t for t in texts)


class _Greedy:
    role = "write-cache"

    def first(self, chunk):
        raise BudgetExceeded("the test stream needs about 9 GB of memory")

    def end_first(self, meta, t_min_ns):
        raise AssertionError("a refused stream is fed no more")

    second = end_first

    def rows(self, *a):
        raise AssertionError("a refused stream makes no rows")


def test_a_stream_over_the_budget_needs_data_the_others_are_evaluated(msr):
    streams = _collecting()
    streams[1] = _Greedy()
    got = stream_block_rows(workload_from_path(msr), streams, [get_device(DEVICES[0])], None, None)
    by_role = {r["role"]: r for r in got.rows}
    assert by_role["write-cache"]["verdict"] == "needs data"
    assert "more memory than the run's budget: the test stream needs about 9 GB" in by_role["write-cache"]["reason"]
    assert by_role["storage"]["verdict"] in ("wins", "loses", "about the same")
    assert set(got.refused) == {"write-cache"}


def test_the_registry_names_every_block_role_and_resolves_to_streams(monkeypatch):
    assert set(STREAM_ROLES) == {r for r, needs in ROLE_NEEDS.items() if "block" in needs}
    monkeypatch.setenv(COLLECTING_ENV, "1")
    for role, s in role_streams().items():
        assert isinstance(s, RoleStream) and s.role == role
    monkeypatch.setenv(COLLECTING_ENV, "0")
    for role, s in role_streams().items():
        assert (s is None) == (STREAM_ROLES[role] is None)
    with pytest.raises(KeyError, match="valid: file-cache"):
        role_streams(["paging"])


def test_spec_targets_of_a_streamed_trace_say_why_they_are_missing(msr, monkeypatch):
    """A plan that streamed its block trace has no re-timer for it (the targets re-time the trace's counts in memory):
    the targets rows of its evaluated block roles read "needs data" naming the streaming and the option that cuts
    the trace -- never a break-even re-timed on the first requests, nor "the baseline"."""
    from models.planner.targets import targets_of_plan

    monkeypatch.setattr(stream_plan, "IN_MEMORY_MAX_BYTES", 1000)
    res = plan([workload_from_path(msr)], DEVICES[:1])
    df = res.to_frame()
    evaluated = df[df.role.isin(["file-cache", "write-cache", "storage"]) & df.verdict.isin(["wins", "loses"])]
    assert len(evaluated) and evaluated.reason.str.contains("streamed in two passes", regex=False).all()
    t = targets_of_plan(res, bands=False).to_frame()
    rows = t[t.role.isin(evaluated.role)]
    assert len(rows) and rows.reason.str.startswith("needs data: the spec targets re-time the trace in memory, and "
                                                    "this one is planned by streaming (its file is").all()
    assert rows.break_even.isna().all()
    small = targets_of_plan(plan([workload_from_path(msr)], DEVICES[:1], n_requests=500), n_requests=500,
                            bands=False).to_frame()  # cut as asked: in memory, re-timed
    assert small[small.role == "storage"].break_even.notna().any()


def test_the_block_roles_share_one_table_of_distinct_blocks(msr):
    """The file-cache and storage streams of one trace hold one table of its distinct blocks (counted once per
    chunk), and their rows are still the in-memory ones."""
    streams = role_streams(devs=[get_device(DEVICES[0])], base=None, bands=False)
    fc, st = streams["file-cache"], streams["storage"]
    assert fc.block_table is st.block_table
    w = workload_from_path(msr)
    got = stream_block_rows(w, streams, [get_device(DEVICES[0])], None, None, chunk_bytes=4096)
    tr = traces.load(w.source, kind="block")
    from models.traces import split_blocks

    acc = split_blocks(tr)
    assert fc.block_table.n_accesses == len(acc.block)  # each access counted once, not once per stream
    ref = {r["role"]: r for r in _in_memory_rows(w, [get_device(DEVICES[0])])[0]}
    for r in got.rows:
        if r["role"] in ("file-cache", "storage"):
            assert r["value"] == pytest.approx(ref[r["role"]]["value"], rel=1e-12)
            assert NOTE.sub("", r["reason"]) == NOTE.sub("", ref[r["role"]]["reason"])


def test_a_shared_table_refused_part_way_refuses_every_sharer(msr, monkeypatch):
    """When the budget refuses the shared table's growth in one stream's first pass (no sample allowed: the lowest
    rate is 1), the other stream sharing it is refused too (its table would hold part of a chunk): both roles read
    "needs data" naming the budget and the option."""
    from models.budget import limit
    from models.traces import block_table

    monkeypatch.setattr(block_table, "MIN_SAMPLE_RATE", 1.0)
    devs = [get_device(DEVICES[0])]
    streams = role_streams(["file-cache", "storage"], devs=devs, base=None, bands=False)
    with limit(60_000):  # the first table (1,024 slots x 24 bytes) fits, its first doubling does not
        got = stream_block_rows(workload_from_path(msr), streams, devs, None, None, chunk_bytes=4096)
    assert set(got.refused) == {"file-cache", "storage"}
    for r in got.rows:
        assert r["verdict"] == "needs data" and "budget" in r["reason"] and "--memory-budget" in r["reason"], r


def test_over_the_budget_the_shared_table_samples_and_both_roles_say_so(msr):
    """Issue 41: where the exact shared table would be refused, both of its roles are evaluated from one SHARDS
    sample of the blocks, each row naming the method and rate (columns and reason)."""
    from models.budget import limit

    devs = [get_device(DEVICES[0])]
    streams = role_streams(["file-cache", "storage"], devs=devs, base=None, bands=False)
    with limit(60_000):
        got = stream_block_rows(workload_from_path(msr), streams, devs, None, None, chunk_bytes=4096)
    assert not got.refused and set(got.sampling) == {"file-cache", "storage"}
    rates = {r["sample_rate"] for r in got.rows}
    assert len(rates) == 1 and 0 < rates.pop() < 1
    for r in got.rows:
        assert r["verdict"] in ("wins", "loses", "about the same") and r["method"].startswith("SHARDS"), r
        assert "sampled: SHARDS spatial sample" in r["reason"] and "plan_sampling_error.csv" in r["reason"]
    assert streams["file-cache"].state_share == 1.0 == streams["storage"].state_share  # one shared table: k = 1


def test_the_streams_states_are_summed_against_the_budget(msr):
    """Two streams each under the budget but over it together: the second is refused (each stream's growth is
    checked with the other's state held); without the summed hold both would pass."""
    from models.budget import limit
    from models.traces.source import PARSED_REQUEST_BYTES

    devs = [get_device(DEVICES[0])]
    n = len(traces.load(msr, kind="block"))
    one = n * PARSED_REQUEST_BYTES
    a, b = CollectingStream(block_storage_rows, "storage"), CollectingStream(file_cache_rows, "file-cache")
    with limit(int(1.5 * one)):
        got = stream_block_rows(workload_from_path(msr), {"storage": a, "file-cache": b}, devs, None, None,
                                chunk_bytes=4096)
    assert len(got.refused) == 1, got.refused  # whichever passes the sum first; its message names the other's
    (role, msg), = got.refused.items()
    other = "storage" if role == "file-cache" else "file-cache"
    assert f"the other roles' state ({other}" in msg
    with limit(int(1.5 * one)):  # each alone fits
        alone = stream_block_rows(workload_from_path(msr), {"file-cache": CollectingStream(file_cache_rows,
                                                                                            "file-cache")},
                                  devs, None, None, chunk_bytes=4096)
    assert not alone.refused


def test_a_budget_under_the_write_caches_batch_cut_still_plans_all_three_roles_exactly(msr):
    """Issue 41: a budget under what cutting one batch of the trace into 4 KiB items needs (the stream's per-batch
    working memory) refused the write-cache role while the other two were evaluated; the batch is now split before
    the cut (charged first), so all three roles are evaluated -- here exactly, the rows those of no budget."""
    from models.budget import limit
    from models.storage.write_cache import ITEM_BYTES

    devs = [get_device(DEVICES[0])]
    tr = traces.load(msr, kind="block")
    off, end = np.asarray(tr.offset_bytes), np.asarray(tr.offset_bytes) + np.asarray(tr.size_bytes)
    batch_cut = float(((end - 1) // 4096 - off // 4096 + 1).sum()) * ITEM_BYTES  # the trace is one batch
    w = workload_from_path(msr)
    ref = stream_block_rows(w, role_streams(devs=devs, base=None, bands=False), devs, None, None)
    with limit(int(0.75 * batch_cut)):
        got = stream_block_rows(w, role_streams(devs=devs, base=None, bands=False), devs, None, None)
    assert not got.refused and not got.sampling, (got.refused, got.sampling)
    assert _frame(got.rows).equals(_frame(ref.rows)) and {r["role"] for r in got.rows} == {r for r, _ in IN_MEMORY}


def test_each_state_is_held_once_and_the_driver_sums_the_live_holds():
    """Every state's bytes are held by one Hold: a block table shared by the file-cache and storage streams holds its
    own bytes (the same hold in both streams' ``holds``); the others' state of a role is the sum of the live holds
    not its own, each once -- whatever shares them (here two plain streams sharing one hold), no block-table case."""
    from types import SimpleNamespace

    from models.budget import Hold
    from models.planner.stream_plan import others_state, state_groups

    devs = [get_device(DEVICES[0])]
    s = role_streams(devs=devs, base=None, bands=False)
    fc, st, wc = s["file-cache"], s["storage"], s["write-cache"]
    assert fc.holds[0] is st.holds[0] is fc.block_table.hold
    for x in (fc, st):
        assert sum(h.nbytes for h in x.holds) == x.state_bytes
    assert state_groups(s.values()) == 2
    assert others_state(s, "write-cache")[0] == fc.state_bytes  # the table once, with the file cache's own
    assert others_state(s, "storage")[0] == wc.state_bytes + fc.state_bytes - fc.block_table.state_bytes
    shared, a, b = Hold("shared", 1000), Hold("a", 10), Hold("b", 1)
    live = {"x": SimpleNamespace(holds=(shared, a)), "y": SimpleNamespace(holds=(shared,)),
            "z": SimpleNamespace(holds=(b,))}
    assert state_groups(live.values()) == 2
    assert others_state(live, "z") == (1010.0, "the other roles' state (x 1 kB)")
    assert others_state(live, "y")[0] == 11.0 and others_state(live, "x")[0] == 1.0
