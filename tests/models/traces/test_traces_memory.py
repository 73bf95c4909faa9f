"""Readers hold a trace once (issue 20): columns grown in place, the default limit refused before any join.

A 2 MB gzip of 1 GB of valid lines peaked at 1.58 GB: the reader kept every block's arrays,
joined them (a second copy) and only then did the loader refuse the 20,000,001-request trace.
Now the blocks are copied into one growing array per column (``_Columns``), and under
:func:`models.traces.load`'s default limit the reader stops as soon as it has too many requests.
Memory is checked with ``tracemalloc`` (allocations, not wall time); RSS before/after is in
``bench``-style numbers in the issue's closing note.
"""

from __future__ import annotations

import gzip
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import models.traces.formats.parsing as parsing
from models.budget import BudgetExceeded, limit
from models.traces import load
from models.traces.formats.mqsim import read_mqsim
from models.traces.source import PARSED_REQUEST_BYTES, charge_parsed


def _mqsim(n: int) -> bytes:
    i = np.arange(n)
    lines = np.char.add(np.char.add((1000 * i).astype(str), " 0 "), (8 * (i % 5000)).astype(str))
    return ("\n".join(np.char.add(lines, " 8 1").tolist()) + "\n").encode()


@settings(max_examples=60, deadline=None)
@given(sizes=hs.lists(hs.integers(0, 40), min_size=1, max_size=12), wide=hs.integers(0, 11))
def test_grown_columns_equal_the_concatenation(sizes, wide):
    """Any split into blocks, with a block parsed to a wider type (as np.concatenate would widen)."""
    rng = np.random.default_rng(len(sizes))
    parts = []
    for k, m in enumerate(sizes):
        dtype = np.float64 if k == wide else np.int32
        parts.append({"a": rng.integers(-9, 9, m).astype(dtype), "s": np.array([f"x{j}" * (k + 1) for j in range(m)]),
                      "b": rng.random(m) < 0.5})
    cols = parsing._Columns()
    for p in parts:
        cols.append(p, len(p["a"]))
    want = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    got = cols.finish(None)
    for k in want:
        assert got[k].dtype == want[k].dtype and np.array_equal(got[k], want[k])
    short = parsing._Columns()
    for p in parts:
        short.append(p, len(p["a"]))
    cut = short.finish(3)
    assert all(np.array_equal(cut[k], want[k][:3]) for k in want)


def test_a_reader_keeps_one_copy_of_the_trace():
    data = _mqsim(400_000)
    tracemalloc.start()
    try:
        t = read_mqsim(data, chunk_bytes=1 << 18)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    held = sum(getattr(t, c).nbytes for c in ("time_ns", "is_write", "offset_bytes", "size_bytes", "device"))
    assert len(t) == 400_000 and t.offset_bytes[-1] == 4096 * (399_999 % 5000)
    # pieces + their join (the old way) is >= 2x the trace; grown columns keep <= 1.5x plus one block's parse
    assert peak < 1.6 * held + (8 << 20), (peak, held)


def test_a_whole_read_over_the_budget_is_refused_before_the_trace_is_built(monkeypatch):
    """The work limit of a whole read is the memory budget, in bytes: refused while reading (the parsed requests
    charged before their pieces are joined), the message naming the budget's option and the cut."""
    built = []
    real = parsing._join
    monkeypatch.setattr(parsing, "_join", lambda parts, m: built.append(m) or real(parts, m))
    data = gzip.compress(_mqsim(5000))
    budget = 2000 * PARSED_REQUEST_BYTES  # 2,000 parsed requests
    with limit(budget):
        with pytest.raises(BudgetExceeded, match=r"big\.trace: .*--memory-budget .*--max-requests N") as e:
            load(data, name="big.trace")
        assert "Read at most this many requests" in str(e.value)
        assert built == []  # refused while reading, never joined
        # an explicit maximum reads the first ones (in blocks of a few hundred requests, within the budget)
        assert len(load(data, max_requests=1000, chunk_bytes=4096)) == 1000 and built
        assert len(load(_mqsim(1000))) == 1000  # a whole read within the budget is accepted
    assert len(load(data)) == 5000  # and the same whole read under the default budget


def test_parsed_requests_are_bounded_by_the_budget_in_bytes_only():
    from models.budget import BudgetExceeded, limit

    with limit(0):  # no memory budget: no request count limits a read
        charge_parsed(10**12)
    with limit(5 * PARSED_REQUEST_BYTES):  # the budget, in bytes: 5 requests fit, the 6th is refused naming it
        charge_parsed(5)
        with pytest.raises(BudgetExceeded, match=r"6 requests parsed so far.*--memory-budget"):
            charge_parsed(6)
