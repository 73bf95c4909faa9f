"""Issue 41: the library ranking reads each bundled block trace whole by default (no default request cut); a cut
is the user's (``n_requests``) and its rows say so; a synthetic preset's length is its generator's parameter."""

from __future__ import annotations

import math

from models import traces
from models.planner.rank import SYNTHETIC_REQUESTS, _read_block, rank_workloads


def test_a_bundled_block_trace_is_read_whole_by_default_and_cut_only_as_asked():
    n = len(traces.load("mqsim:wsrch-small", kind="block"))
    assert n > SYNTHETIC_REQUESTS  # the old default cut (20,000) would have cut it
    tr, used = _read_block("mqsim:wsrch-small", None)
    assert len(tr) == n and used == (n, float(n), "")
    tr, used = _read_block("mqsim:wsrch-small", n)  # a "cut" at its length: whole
    assert len(tr) == n and used == (n, float(n), "")
    tr, (k, read, why) = _read_block("mqsim:wsrch-small", 3000)
    assert len(tr) == k == 3000 and math.isnan(read) and why == "asked"
    assert tr.fingerprint() == traces.load("mqsim:wsrch-small", kind="block", max_requests=3000).fingerprint()
    tr, used = _read_block("synthetic:randw", None)
    assert len(tr) == SYNTHETIC_REQUESTS and used == (SYNTHETIC_REQUESTS, float(SYNTHETIC_REQUESTS), "")
    assert len(_read_block("synthetic:randw", 3000)[0]) == 3000


def test_the_ranking_rows_say_what_each_block_trace_used():
    cut = rank_workloads((), ("mqsim:tpcc-small", "mqsim:wsrch-small"), memory=False, n_requests=3000)
    n_tpcc = len(traces.load("mqsim:tpcc-small", kind="block"))
    for workload, note in (("mqsim:wsrch-small", "[sampled: the first 3,000 requests of a longer trace"),
                           ("mqsim:tpcc-small", "[sampled: the first 3,000 requests of a longer trace")):
        reasons = cut[cut.workload == workload].reason.tolist()
        assert reasons and all(note in r for r in reasons), (workload, reasons)
    whole = rank_workloads((), ("mqsim:tpcc-small",), memory=False)
    reasons = whole[whole.workload == "mqsim:tpcc-small"].reason.tolist()
    assert reasons and all(r.endswith(f"[whole block trace: {n_tpcc:,} requests]") for r in reasons), reasons
