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
                                  n_requests=5000)


def test_storage_ranking_follows_section_4_6(ranking):
    hdd = ranking[ranking.role == "storage-vs-hdd"]
    # §4.6: fsync-heavy / write-intensive first, read-mostly cache-friendly last.
    assert list(hdd.workload[:2]) == ["varmail", "fileserver"]
    assert set(hdd.workload[2:]) == {"webserver", "webproxy"}
    top = hdd.iloc[0]
    assert top["rank"] == 1 and "fsync-heavy" in top.reason and "faster than HDD" in top.reason
    assert (hdd[hdd.workload.isin(["webserver", "webproxy"])].value <= 1).all()


def test_trace_roles_and_reasons(ranking):
    wc = ranking[ranking.role == "write-cache"].set_index("workload")
    # random writes gain most from a PCM write cache; Mail's writes are already sequential
    # (seed 003 §V-A: "not much room"), so it gains less but never loses; a read-only web
    # trace cannot gain at all.
    assert wc.loc["synthetic:randw", "value"] > 1.5
    assert 1.0 <= wc.loc["synthetic:mail", "value"] < wc.loc["synthetic:randw", "value"]
    assert wc.loc["synthetic:randw", "rank"] < wc.loc["synthetic:mail", "rank"]
    web = wc.loc["synthetic:web-server"]
    assert web.status == "pending" and "no writes" in web.reason and pd.isna(web.value)
    fc = ranking[ranking.role == "file-cache"].set_index("workload")
    assert fc.loc["synthetic:mail", "value"] > fc.loc["synthetic:web-server", "value"]
    assert ranking.reason.str.len().min() > 10


def test_pending_when_no_memory_trace_is_bundled(monkeypatch):
    from models import traces

    real = traces.bundled_traces
    monkeypatch.setattr(traces, "bundled_traces", lambda kind=None: [] if kind in ("lackey", "memory") else real(kind))
    df = planner.rank_workloads([], traces=(), memory=True)
    row = df[df.role == "memory-extension"].iloc[0]
    assert row.status == "pending" and pd.isna(row.value) and pd.isna(row["rank"])
    assert "no bundled memory trace" in row.reason


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
