"""One page table for a streamed plan's memory roles (issue 41): the paging and memory-extension streams share the
trace's distinct pages (models/memory/page_table.py), held once; the rows are those of each role streamed alone, and
a role the budget refuses leaves the other working."""

from __future__ import annotations

import numpy as np

from models import budget
from models.devices import get_device
from models.memory import memext_stream
from models.memory.page_table import PageTable
from models.planner.plan import workload_from_path
from models.planner.stream_memory import memory_role_streams, stream_memory_rows
from models.planner.two_pass import others_state, state_groups
from tests import ROOT

LACKEY = ROOT / "tests" / "fixtures" / "plan" / "small_lackey.txt"
DEVS = [get_device("pcm-samsung-20nm"), get_device("optane-dcpmm")]


def _workload():
    w = workload_from_path(LACKEY, name="app")
    return w.model_copy(update={"reader_options": {"chunk_bytes": 2048}})


def _rows(roles):
    return stream_memory_rows(_workload(), memory_role_streams(roles, devs=DEVS), DEVS, None, None)


def test_the_memory_roles_share_one_table_held_once():
    s = memory_role_streams(devs=DEVS)
    table = s["paging"].page_table
    assert isinstance(table, PageTable) and s["memory-extension"].page_table is table and table.readers == 2
    assert state_groups(s.values()) == 1
    assert "paging and memory-extension roles share" in table.what
    nbytes, _ = others_state(s, "paging")
    assert nbytes == 0  # the table is the paging role's own state too: not counted again


def test_shared_rows_are_each_role_streamed_alone():
    both = _rows(None)
    alone = _rows(["paging"]).rows + _rows(["memory-extension"]).rows
    assert both.refused == {}
    assert list(both.rows) == list(alone)


def test_a_role_the_budget_refuses_leaves_the_other_working(monkeypatch):
    paging = _rows(["paging"]).rows
    monkeypatch.setattr(memext_stream.MemExtRun, "state_bytes_for", staticmethod(lambda pages, cfg: 1e15))
    with budget.limit("4GB"):
        got = _rows(None)
    assert list(got.refused) == ["memory-extension"]
    assert [r for r in got.rows if r["role"] == "paging"] == list(paging)
    assert all(r["verdict"] == "needs data" for r in got.rows if r["role"] == "memory-extension")


def test_the_ids_are_in_page_order_and_looked_up_once():
    rng = np.random.default_rng(5)
    addr = (rng.integers(0, 300, 5000).astype(np.uint64) << np.uint64(12)) + np.uint64(3)
    kind = rng.integers(0, 4, 5000).astype(np.uint8)
    chunks = [{"address": addr[i:i + 700], "kind": kind[i:i + 700]} for i in range(0, 5000, 700)]
    t = PageTable().attach().attach()
    for c in chunks:
        t.add_chunk(c)
        t.add_chunk(c)  # a sharer's second call: the same chunk, added once
    t.end_first()
    data = addr[kind != 0] >> np.uint64(12)
    assert t.data_refs == data.size
    np.testing.assert_array_equal(t.vpn, np.unique(data))
    got = []
    for c in chunks:
        ids = t.chunk_ids(c)
        assert t.chunk_ids(c) is ids  # the second reader gets the same ids
        got.append(ids)
    np.testing.assert_array_equal(np.concatenate(got), np.searchsorted(t.vpn, data.astype(np.int64)))
    assert t.state_bytes == t._table.nbytes + t.vpn.nbytes  # each reader took the last chunk's ids: let go
