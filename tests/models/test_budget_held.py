"""The memory budget summed over what lives together (issue 42): an allocation held while later steps run
(:func:`models.budget.reserve`: the trace a plan's roles share, the 4 KiB cut beside HALO's bucket table) counts
against every step charged meanwhile -- two steps each under the budget but over it together are refused."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from models import budget
from models.traces.blocks import SPLIT_BYTES_PER_ACCESS
from models.traces.source import PARSED_REQUEST_BYTES


def test_a_step_is_checked_against_the_budget_less_what_is_held():
    with budget.limit(1000):
        budget.charge(1000, "alone")  # the whole budget, nothing held
        with budget.reserve(600, "the trace"):
            budget.charge(400, "the curve")  # 600 + 400 = the budget: fits
            with pytest.raises(budget.BudgetExceeded) as e:
                budget.charge(401, "the curve")
            assert budget.held_bytes() == 600
        budget.charge(1000, "alone again")  # released on exit
    msg = str(e.value)
    assert msg.startswith("the curve needs about 401 B of memory, more than the run's budget of 1 kB less the 600 B "
                          "held (the trace);")
    assert "--memory-budget 1.1kB" in msg and budget.ENV_VAR in msg  # raise it to the sum


def test_nested_holds_sum_and_a_hold_is_charged_itself():
    with budget.limit(1000), budget.reserve(300, "the trace"), budget.reserve(300, "the split"):
        assert budget.held_bytes() == 600
        with pytest.raises(budget.BudgetExceeded, match=r"held \(the trace, the split\)"):
            budget.charge(500, "the curve")
        with pytest.raises(budget.BudgetExceeded):
            with budget.reserve(500, "a third"):
                pass  # pragma: no cover - refused on entry
        assert budget.held_bytes() == 600
    assert budget.held_bytes() == 0


def test_a_hold_released_when_its_block_raises():
    with budget.limit(1000):
        with pytest.raises(KeyError), budget.reserve(900, "the trace"):
            raise KeyError("x")
        budget.charge(1000, "after")


def test_no_budget_holds_nothing_back():
    with budget.limit(0), budget.reserve(1e18, "a huge trace"):
        assert budget.budget_bytes() == 0
        budget.charge(1e18, "a huge step")  # no budget: nothing refused, whatever is held (a raise fails the test)


def test_the_readers_read_ahead_thread_sees_what_is_held():
    # the text readers charge in their read-ahead thread (contextvars copied): what the run holds counts there too
    from models.traces import read_trace

    data = b"".join(b"%d 0 %d 8 0\n" % (i, 8 * i) for i in range(20_000))  # ~0.4 MB of text
    with budget.limit(50_000_000):
        assert len(read_trace(data, "mqsim")) == 20_000
        with budget.reserve(49_900_000, "the other trace"), pytest.raises(budget.BudgetExceeded, match="held"):
            read_trace(data, "mqsim")
    seen = []
    with budget.limit(1000), budget.reserve(10, "x"):
        t = threading.Thread(target=lambda: seen.append(budget.held_bytes()))
        t.start()
        t.join()
    assert seen == [0.0]  # a thread started without the context holds nothing (and has no run budget)


def test_the_plan_s_trace_counts_beside_a_role_s_split(tmp_path):
    """The file-cache role splits the trace into blocks while the trace stays alive for the other roles: a budget
    that holds the read and the split each alone, but not the split beside the trace, refuses the role by name."""
    from models.planner.plan import plan
    from models.traces import read_trace

    n = 50_000
    f = tmp_path / "ones.trace"
    f.write_text("".join(f"{i} 0 {8 * (i % 40_000)} 8 0\n" for i in range(n)))  # 1 block each
    tr = read_trace(str(f), "mqsim")
    read, split = n * PARSED_REQUEST_BYTES, n * SPLIT_BYTES_PER_ACCESS
    b = (max(read, split) + split + tr.nbytes) // 2
    assert max(read, split) <= b < split + tr.nbytes  # each step alone fits; together they do not
    with budget.limit(b):  # the roles that split the whole trace are refused; the write cache cuts it in parts
        df = plan([str(f)], ["pcm-samsung-20nm"]).to_frame().set_index("role")
    msg = df.loc["file-cache", "reason"]
    assert "splitting the trace into 4096-byte blocks" in msg and "--memory-budget" in msg
    assert "less the 1.4 MB held (the block trace of workload 'ones')" in msg
    assert df.loc["write-cache", "verdict"] != "needs data"
    with budget.limit(split + tr.nbytes + 1_000_000):  # the sum (and a margin for the roles' small arrays) fits
        df = plan([str(f)], ["pcm-samsung-20nm"]).to_frame().set_index("role")
    assert df.loc["file-cache", "verdict"] != "needs data"


def test_halo_s_bucket_table_counts_beside_the_cut():
    from models.storage.write_cache import (
        REGION_BYTES,
        _held_bytes,
        prepare_requests,
        simulate_halo,
    )
    from models.traces.core import BlockTrace

    # requests 1 GiB apart: few items, many 1 MiB regions (the table), and the cut's arrays beside it
    k = 2000
    t = BlockTrace(np.arange(k), np.ones(k, bool), np.arange(k) * 2**30, np.full(k, 4096), np.zeros(k))
    req = prepare_requests(t)
    table, cut = req.n_regions * REGION_BYTES, _held_bytes(req)
    assert table > 0 and cut > 0
    with budget.limit(table + cut // 2), pytest.raises(budget.BudgetExceeded, match="the trace cut into 4 KiB"):
        simulate_halo(req, 64)
    with budget.limit(table + cut + 1):
        assert simulate_halo(req, 64) is not None


def test_a_streamed_read_counts_the_reader_s_object_table_beside_the_statistics_state(tmp_path, monkeypatch):
    """trace-stats streaming an object trace: the reader's object table and the statistics' per-block table grow
    together; each one's growth is charged with the other held."""
    from models.traces import stream_stats
    from models.traces.formats import objects
    from models.traces.formats.oracle import write_oracle_general

    n = 6000
    p = tmp_path / "t.oracleGeneral"
    p.write_bytes(write_oracle_general(np.arange(n) // 10, np.arange(n) % 5000, np.full(n, 4096)))
    seen = {"stats": [], "objects": []}
    charge = stream_stats.charge
    resize = budget.Hold.resize

    def stats_charge(nbytes, what, **k):
        seen["stats"].append([w for w, b in budget.held() if b])
        return charge(nbytes, what, **k)

    def table_resize(self, nbytes, what=None, **k):
        seen["objects"].append([w for w, b in budget.held() if b])
        return resize(self, nbytes, what, **k)

    monkeypatch.setattr(stream_stats, "charge", stats_charge)
    monkeypatch.setattr(budget.Hold, "resize", table_resize)
    monkeypatch.setattr(stream_stats, "BATCH_REQUESTS", 500)  # the state grows while the reader reads
    monkeypatch.setattr(objects, "_SLOTS_PER_OBJECT", 40)  # the reader's table grows while the state does
    with budget.limit("1GB"):
        stream_stats.stream_trace_stats(p, 4096, chunk_bytes=24 * 400)
    table, state = "the oracleGeneral reader's object table", "the trace statistics' per-block state"
    assert any(table in h and state in h for h in seen["stats"])  # the state's growth sees the reader's table
    assert any(state in h for h in seen["objects"][1:])  # and the table's growth sees the state
    assert budget.held() == []
