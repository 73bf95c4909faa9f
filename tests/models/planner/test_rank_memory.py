"""Issue 41 item 1 for ``pcm-planner rank``: no default reference cap on the bundled memory traces. Each is read
whole (as the plan reads it), streamed in two passes when over the run's memory budget or the in-memory limit
(the same rows), and cut only when asked; each memory row says what it used."""

from __future__ import annotations

import pandas as pd
import pytest

from models import traces
from models.planner import rank, rank_workloads, stream_plan
from models.planner.memory_read import BYTES_PER_REFERENCE
from tests import ROOT

LACKEY = ROOT / "tests" / "fixtures" / "plan" / "small_lackey.txt"
MEMORY_ROLES = ("memory-extension", "memory-lifetime")


@pytest.fixture
def small_library(monkeypatch):
    """The bundled memory list replaced by the small fixture trace; its length [references]."""
    real = traces.bundled_traces
    monkeypatch.setattr(traces, "bundled_traces",
                        lambda kind=None: [str(LACKEY)] if kind in ("lackey", "memory") else real(kind))
    return len(traces.load(LACKEY, kind="memory"))


def _memory(df: pd.DataFrame) -> pd.DataFrame:
    return df[df.role.isin(MEMORY_ROLES)].reset_index(drop=True)


def test_the_default_reads_the_whole_memory_trace(small_library):
    n = small_library
    rows = rank._memory_one(str(LACKEY), None)
    assert [r["role"] for r in rows] == list(MEMORY_ROLES)
    assert all(r["requests_used"] == r["requests_read"] == n for r in rows)
    mem = _memory(rank_workloads((), traces=(), memory=True))
    assert len(mem) == 2 and mem.status.eq("ok").all()
    assert mem.reason.str.endswith(f"[whole memory trace: {n:,} references]").all()


def test_an_explicit_cut_is_said_in_the_rows(small_library):
    n = small_library
    rows = rank._memory_one(str(LACKEY), n // 2)
    assert all(r["requests_used"] == n // 2 for r in rows)
    assert all(f"the first {n // 2:,} references of " in r["reason"] and "(as asked)" in r["reason"] for r in rows)


def _streamed_vs_whole(got: pd.DataFrame, want: pd.DataFrame, n: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The memory rows of a streamed run (checked: two, ok, saying they were streamed; the note taken out of the
    reason) and of the whole read, to compare (a CSV's rank column is float when other rows are unranked)."""
    g, w = _memory(got), _memory(want)
    assert len(g) == 2 and g.status.eq("ok").all()
    assert g.reason.str.endswith(f"[whole memory trace: {n:,} references (streamed in two passes)]").all()
    g = g.assign(reason=g.reason.str.replace(" (streamed in two passes)]", "]", regex=False))
    return g.astype(object).reset_index(drop=True), w.astype(object).reset_index(drop=True)


def test_a_memory_trace_over_a_small_budget_is_streamed_not_refused(small_library, run_csv):
    n = small_library
    small = str((n // 3) * BYTES_PER_REFERENCE)  # too small to read the trace whole
    base = ("rank", "--personality", "varmail", "--trace", "synthetic:randw", "--requests", "2000", "--format", "csv")
    g, w = _streamed_vs_whole(run_csv(*base, "--memory-budget", small), run_csv(*base), n)
    assert g.equals(w), (g, w)


def test_a_memory_file_over_the_in_memory_limit_is_streamed(small_library, monkeypatch):
    n = small_library
    want = rank_workloads((), traces=(), memory=True)
    monkeypatch.setattr(stream_plan, "IN_MEMORY_MAX_BYTES", 1000)
    g, w = _streamed_vs_whole(rank_workloads((), traces=(), memory=True), want, n)
    assert g.equals(w), (g, w)
    banded = _memory(rank_workloads((), traces=(), memory=True, uncertainty=8, seed=1))
    ext = banded[banded.role == "memory-extension"].iloc[0]  # the ranking's band needs the whole page stream
    assert pd.isna(ext.p5) and ext.decisive_input.startswith("not sampled: the trace was streamed")
