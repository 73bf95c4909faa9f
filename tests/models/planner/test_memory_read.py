"""Issue 41 item 1: no default reference cap on a plan's memory traces; the work limit is in bytes and named."""

from __future__ import annotations

import numpy as np
import pytest

from models import budget, traces
from models.planner.memory_read import (
    BYTES_PER_REFERENCE,
    read_memory_trace,
    references_within_budget,
)
from models.planner.plan import plan, workload_from_path
from tests import ROOT

FIX = ROOT / "tests" / "fixtures" / "plan"
LACKEY = FIX / "small_lackey.txt"
DEVICES = ["pcm-samsung-20nm", "optane-dcpmm"]


def _memory_rows(df):
    return df[df.role.isin(["paging", "memory-extension"])]


def test_the_default_reads_the_whole_memory_trace():
    n = len(traces.load(LACKEY, kind="memory"))
    rows = _memory_rows(plan([workload_from_path(LACKEY, name="app")], DEVICES).to_frame())
    assert len(rows) == 4 and (rows.requests_used == n).all() and (rows.requests_read == n).all()
    assert rows.reason.str.endswith(f"[whole memory trace: {n:,} references]").all()


def test_a_bundled_trace_longer_than_the_old_cut_is_used_whole():
    """The old default cut every bundled trace at 2,000,000 references; sqlite holds more."""
    tr, (used, read, why) = read_memory_trace("lackey:sqlite", None)
    assert len(tr) == used == read > 2_000_000 and why == ""


def test_an_explicit_cut_is_used_as_asked():
    rows = _memory_rows(plan([workload_from_path(LACKEY, name="app")], DEVICES, memory_refs=1500).to_frame())
    assert (rows.requests_used == 1500).all() and rows.requests_read.isna().all()
    assert rows.reason.str.contains("[sampled: the first 1,500 references of a longer trace, not read to its end "
                                    "(as asked)]", regex=False).all()
    whole = read_memory_trace(LACKEY, None)[0]
    cut = read_memory_trace(LACKEY, 1500)[0]
    assert np.array_equal(cut.address, whole.address[:1500]) and np.array_equal(cut.kind, whole.kind[:1500])


def test_a_budget_too_small_refuses_naming_both_options():
    n = len(traces.load(LACKEY, kind="memory"))
    small = (n // 3) * BYTES_PER_REFERENCE  # a third of the trace fits
    with budget.limit(small):
        assert references_within_budget() == n // 3
        with pytest.raises(budget.BudgetExceeded) as e:
            read_memory_trace(LACKEY, None)
        msg = str(e.value)
        for named in ("--memory-budget", budget.ENV_VAR, "--mem-refs N", f"N at most {n // 3:,}", "not cut silently"):
            assert named in msg
        # the plan of that trace is streamed in two passes instead (models/planner/stream_memory.py), never cut:
        # its paging rows are the whole trace's, exact
        df = plan([workload_from_path(LACKEY, name="app")], DEVICES).to_frame()
        paging = df[df.role == "paging"]
        assert (paging.requests_used == n).all() and (paging.requests_read == n).all()
        assert paging.reason.str.endswith(f"[whole memory trace: {n:,} references (streamed in two passes)]").all()
        assert (paging.method == "exact").all() and paging.value.notna().all()
        # the explicit cut the message offers is read within the same budget (in reads small enough for the
        # reader's own charge of each read block: the fixture is one default block)
        tr, used = read_memory_trace(LACKEY, n // 4, options={"chunk_bytes": 4096})
        assert len(tr) == n // 4 and used[0] == n // 4


def test_an_explicit_cut_larger_than_the_budget_allows_is_refused():
    n = len(traces.load(LACKEY, kind="memory"))
    with budget.limit((n // 3) * BYTES_PER_REFERENCE), pytest.raises(budget.BudgetExceeded, match="--mem-refs N"):
        read_memory_trace(LACKEY, n // 2)


def test_no_budget_reads_whole():
    n = len(traces.load(LACKEY, kind="memory"))
    with budget.limit(0):
        assert references_within_budget() is None
        tr, used = read_memory_trace(LACKEY, None)
    assert len(tr) == n and used == (n, float(n), "")


def test_a_compact_trace_too_long_is_refused_from_its_header(monkeypatch):
    """A .npz trace says its length: refused at once, naming its length and the budget it needs, unread."""
    n = len(traces.load("lackey:sqlite", kind="memory", max_requests=10**9))

    def no_read(*a, **k):
        raise AssertionError("the trace was read")

    monkeypatch.setattr(traces, "load", no_read)
    with budget.limit(1000 * BYTES_PER_REFERENCE), pytest.raises(budget.BudgetExceeded) as e:
        read_memory_trace("lackey:sqlite", None)
    assert f"{n:,} references, more than the 1,000" in str(e.value)
    assert f"raise the budget to {budget.format_bytes(n * BYTES_PER_REFERENCE)}" in str(e.value)
    assert "--mem-refs N (N at most 1,000)" in str(e.value)
