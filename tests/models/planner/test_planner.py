"""Target-workload finder: ranking, reasons, pending roles.

The HTML report is tested in tests/reporting/test_planner_report.py, the ``rank`` CLI in
tests/cli/test_rank_cli.py and the page in tests/app/test_planner_page.py.
"""

from __future__ import annotations

import pandas as pd
import pytest

from models import planner


@pytest.fixture(scope="module")
def ranking():
    return planner.rank_workloads(traces=("synthetic:mail", "synthetic:randw", "synthetic:web-server"),
                                  n_requests=5000, memory_refs=200_000)  # a cut, to stay fast: not about the default


def test_ranks_follow_the_values_within_each_role(ranking):
    # rank 1 = most benefit; ties share the smaller rank; pending rows are unranked and listed last
    for role, g in ranking.groupby("role", sort=False):
        ok = g[g.status == "ok"]
        expect = ok.benefit.rank(ascending=False, method="min").astype(int).tolist()
        assert ok["rank"].astype(int).tolist() == expect == sorted(expect), role
        assert g[g.status != "ok"]["rank"].isna().all(), role
        assert list(g.status) == sorted(g.status, key=lambda x: x != "ok"), role


def test_storage_values_are_the_workload_models_ratios(ranking):
    """Which personalities PCM suits (seed 000 §4.6) is the ledger's business (000-fig2a-*); the planner
    must report the workload model's PCM-DAX / HDD and / SSD throughput ratios and name the features."""
    from models.storage import workload as wf

    for w in ("varmail", "fileserver", "webserver", "webproxy"):
        r = {c: wf.evaluate(wf.paper_workload(w), c) for c in ("pcm-dax", "hdd", "ssd")}
        for ref in ("hdd", "ssd"):
            row = ranking[(ranking.role == f"storage-vs-{ref}") & (ranking.workload == w)].iloc[0]
            assert row.value == pytest.approx(r["pcm-dax"].ops_per_s / r[ref].ops_per_s, rel=1e-12), (w, ref)
            assert row.benefit == row.value
            assert (f"than {ref.upper()}" in row.reason) and (("fsync" in row.reason) or ("no fsync" in row.reason))


def test_trace_values_are_the_trace_models_results(ranking):
    from models import traces
    from models.storage import file_cache_sim as fcs
    from models.storage import write_cache as wc

    wcr = ranking[ranking.role == "write-cache"].set_index("workload")
    fcr = ranking[ranking.role == "file-cache"].set_index("workload")
    for name in ("synthetic:mail", "synthetic:randw"):
        tr = traces.load(name, kind="block", n_requests=5000)
        t_none = wc.run_write_cache(tr, "none", 0.0).exec_time_s
        t_halo = wc.run_write_cache(tr, "halo", planner.WRITE_CACHE_MB).exec_time_s
        # no HDD time at all when the cache absorbs every write of the trace: an infinite gain
        expect = t_none / t_halo if t_halo > 0 else float("inf")
        assert wcr.loc[name, "value"] == pytest.approx(expect, rel=1e-12), name
        be = fcs.break_even_share(traces.split_blocks(tr).block, planner.PCM_STORAGE)
        assert fcr.loc[name, "value"] == pytest.approx(1 - be.share_blocks, rel=1e-12), name
    # a read-only trace has nothing for a write cache to absorb: not applicable, never a number
    web = wcr.loc["synthetic:web-server"]
    assert web.status == "not applicable" and web.reason.startswith("not applicable: ") and "no writes" in web.reason
    assert pd.isna(web.value)
    assert ranking.reason.str.len().min() > 10


def test_needs_data_when_no_memory_trace_is_bundled(monkeypatch):
    from models import traces

    real = traces.bundled_traces
    monkeypatch.setattr(traces, "bundled_traces", lambda kind=None: [] if kind in ("lackey", "memory") else real(kind))
    df = planner.rank_workloads([], traces=(), memory=True)
    row = df[df.role == "memory-extension"].iloc[0]
    assert row.status == "needs data" and row.reason.startswith("needs data: ") and pd.isna(row.value)
    assert pd.isna(row["rank"])
    assert "no memory trace" in row.reason


def test_memory_extension_rows_use_bundled_traces():
    df = planner.rank_workloads([], traces=(), memory=True, memory_refs=200_000)
    mem = df[df.role == "memory-extension"]
    assert set(mem.workload) >= {"lackey:xz", "lackey:gcc", "lackey:sort", "lackey:sqlite", "lackey:numpy"}
    assert (mem.value >= 1).all() and mem.status.eq("ok").all()  # a slowdown is never a speed-up


def test_bad_input():
    with pytest.raises(ValueError, match="n_requests"):
        planner.rank_workloads(n_requests=0)


def test_one_bad_workload_is_pending_and_the_rest_is_ranked():
    df = planner.rank_workloads(["varmail", "nope"], traces=("synthetic:randw", "nope:x"), memory=False,
                                n_requests=2000)
    bad = df[df.workload.isin(["nope", "nope:x"])]
    assert len(bad) == 4 and (bad.status == "pending").all() and bad["rank"].isna().all()
    assert bad.reason.str.contains("nope").all()  # the loaders' messages name the bad workload
    ok = df[df.workload.isin(["varmail", "synthetic:randw"])]
    assert (ok.status == "ok").all() and (ok["rank"] == 1).all()
