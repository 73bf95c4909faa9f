"""Planner per role: p5/p95 of the value, probability PCM wins, decisive input (issue 16 / 17)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from models.planner import rank_workloads, role_summary
from models.planner.economics import ECON_COLUMNS
from models.planner.uncertainty import NOT_SAMPLED, UNCERTAINTY_COLUMNS


def test_ranking_with_uncertainty_adds_the_band_per_row():
    kw = dict(personalities=(), traces=("synthetic:mail",), n_requests=3000, memory=False)
    plain = rank_workloads(**kw)
    df = rank_workloads(**kw, uncertainty=64, seed=2)
    # the bands after the ranking's own columns, the economics (issue 37) last in both
    assert list(df.columns) == [*plain.columns[:-len(ECON_COLUMNS)], *UNCERTAINTY_COLUMNS, *ECON_COLUMNS]
    assert list(plain.columns[-len(ECON_COLUMNS):]) == ECON_COLUMNS
    pd.testing.assert_frame_equal(plain, df[plain.columns])
    wc = df[df.role == "write-cache"].iloc[0]
    assert wc.p5 <= wc.p95 and 0 <= wc.p_win <= 1
    assert wc.decisive_input == "HDD mean seek time"
    fc = df[df.role == "file-cache"].iloc[0]
    assert fc.p5 <= fc.value <= fc.p95 or np.isclose(fc.p5, fc.value)
    again = rank_workloads(**kw, uncertainty=64, seed=2)
    pd.testing.assert_frame_equal(df, again)  # same seed, same bands
    assert "PCM wins in" in role_summary(df[df.role == "write-cache"])
    assert role_summary(plain[plain.role == "write-cache"]) == ""


def test_storage_roles_are_sampled_with_the_workload_adapter():
    from models.storage import workload as wf
    from models.storage.uncertainty import workload_model
    from models.uncertainty import analyze

    df = rank_workloads(personalities=("varmail",), traces=(), memory=False, threads=4, uncertainty=16, seed=3)
    assert len(df) == 2 and (df.status == "ok").all()
    for row in df.itertuples():
        ref = row.role.split("-")[-1]
        r = analyze(workload_model(wf.as_workload("varmail"), "pcm-dax", ref=ref, threads=4), n=16, seed=3)
        assert np.isclose(r.point, row.value, rtol=1e-12)  # the adapter's point is the row's value
        assert (row.p5, row.p95, row.p_win) == (r.p5, r.p95, r.p_verdict)
        assert row.decisive_input == r.decisive_label and row.decisive_input
    assert "PCM wins in" in role_summary(df[df.role == "storage-vs-hdd"])
    assert NOT_SAMPLED not in set(df.decisive_input)
