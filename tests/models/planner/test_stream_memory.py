"""The memory roles' streaming driver (models/planner/stream_memory.py, issue 41): a plan's memory trace over the
in-memory limit or the budget is read twice in chunks, its paging rows those of the whole read; a role whose stream
cannot be imported reads ``needs data`` saying why; the streams' state is charged to the budget."""

from __future__ import annotations

import numpy as np
import pytest

from models import budget
from models.devices import get_device
from models.planner import stream_memory, stream_plan
from models.planner.plan import plan, workload_from_path
from models.planner.role_memory import memory_rows
from models.planner.stream_memory import memory_role_streams, stream_memory_rows
from models.traces import load
from tests import ROOT

LACKEY = ROOT / "tests" / "fixtures" / "plan" / "small_lackey.txt"
DEVS = [get_device("pcm-samsung-20nm"), get_device("optane-dcpmm")]


def _paging(rows) -> list:
    return [r for r in rows if r["role"] == "paging"]


def test_the_driver_gives_the_in_memory_paging_rows_in_small_chunks():
    w = workload_from_path(LACKEY, name="app")
    w = w.model_copy(update={"reader_options": {"chunk_bytes": 2048}})
    got = stream_memory_rows(w, memory_role_streams(["paging"], devs=DEVS), DEVS, None, None)
    want = _paging(memory_rows(w, load(LACKEY, kind="memory"), DEVS, None, None, lambda: None))
    n = len(load(LACKEY, kind="memory"))
    assert got.requests_used == got.requests_read == n
    for g, x in zip(got.rows, want, strict=True):
        assert {k: v for k, v in g.items() if k not in ("method", "sample_rate", "_usage")} == \
            {k: v for k, v in x.items() if k not in ("method", "sample_rate", "_usage")}
        assert g["method"] == "exact" and g["sample_rate"] == 1.0


def test_a_role_without_its_stream_needs_data_saying_why(monkeypatch):
    monkeypatch.setitem(stream_memory.MEMORY_STREAM_ROLES, "memory-extension", "models.planner.no_such_module:Nope")
    w = workload_from_path(LACKEY, name="app")
    got = stream_memory_rows(w, memory_role_streams(devs=DEVS), DEVS, None, None, why="a reason")
    mx = [r for r in got.rows if r["role"] == "memory-extension"]
    assert len(mx) == 2 and all(r["verdict"] == "needs data" for r in mx)
    assert all("does not stream yet" in r["reason"] and "no_such_module" in r["reason"] and "(a reason)" in r["reason"]
               and "--mem-refs N" in r["reason"] for r in mx)
    assert all(r["verdict"] == "wins" for r in _paging(got.rows))


def test_a_plan_streams_a_memory_file_over_the_in_memory_limit(monkeypatch):
    whole = plan([workload_from_path(LACKEY, name="app")], DEVS).to_frame()
    monkeypatch.setattr(stream_plan, "IN_MEMORY_MAX_BYTES", 1000)
    got = plan([workload_from_path(LACKEY, name="app")], DEVS).to_frame()
    g, w = (d[d.role == "paging"].reset_index(drop=True) for d in (got, whole))
    assert g.reason.str.contains("over the in-memory limit", regex=False).sum() == 0  # paging rows evaluated
    assert g.reason.str.endswith("(streamed in two passes)]").all()
    g["reason"] = g.reason.str.replace(" (streamed in two passes)]", "]", regex=False)
    assert g.equals(w)


def test_the_streams_state_is_charged_and_a_refused_role_needs_data():
    w = workload_from_path(LACKEY, name="app")
    w = w.model_copy(update={"reader_options": {"chunk_bytes": 1024}})  # the reader's own charge
    streams = memory_role_streams(["paging"], devs=DEVS)
    table = streams["paging"].state_bytes
    with budget.limit(table + 4000):  # the page table's first slots, not the second pass's arrays
        got = stream_memory_rows(w, streams, DEVS, None, None)
    assert "stack distances and CLOCK" in got.refused["paging"]
    assert all(r["verdict"] == "needs data" and "--memory-budget" in r["reason"] for r in got.rows)


def test_a_block_trace_is_refused_by_the_memory_driver():
    w = workload_from_path(ROOT / "tests" / "fixtures" / "plan" / "small_msr.csv", name="b")
    with pytest.raises(ValueError, match="memory-reference trace"):
        stream_memory_rows(w, memory_role_streams(["paging"], devs=DEVS), DEVS, None, None)


def test_the_roles_see_the_first_n_references_when_cut():
    w = workload_from_path(LACKEY, name="app")
    got = stream_memory_rows(w, memory_role_streams(["paging"], devs=DEVS), DEVS, None, None, max_requests=1500)
    tr = load(LACKEY, kind="memory", max_requests=1500)
    want = _paging(memory_rows(w, tr, DEVS, None, None, lambda: None))
    assert got.requests_used == 1500 and got.requests_read == len(load(LACKEY, kind="memory"))
    assert [r["value"] for r in got.rows] == [r["value"] for r in want]
    assert np.isfinite([r["value"] for r in got.rows]).all()
