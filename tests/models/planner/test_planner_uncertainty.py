"""Planner per role: p5/p95 of the value, probability PCM wins, decisive input (issue 16 / 17)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from models.planner import rank_workloads, role_summary
from models.planner.uncertainty import NOT_SAMPLED, UNCERTAINTY_COLUMNS


def test_ranking_with_uncertainty_adds_the_band_per_row():
    kw = dict(personalities=(), traces=("synthetic:mail",), n_requests=3000, memory=False)
    plain = rank_workloads(**kw)
    df = rank_workloads(**kw, uncertainty=64, seed=2)
    assert list(df.columns) == [*plain.columns, *UNCERTAINTY_COLUMNS]
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


def test_storage_roles_say_they_are_not_sampled():
    df = rank_workloads(personalities=("varmail",), traces=(), memory=False, uncertainty=16)
    assert (df.decisive_input == NOT_SAMPLED).all() and df.p_win.isna().all()
    assert "no uncertainty band" in role_summary(df[df.role == "storage-vs-hdd"])
