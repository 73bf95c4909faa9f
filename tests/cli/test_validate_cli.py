"""``pcm-planner validate``: contract columns, filters, formats, errors (small claim subsets: fast)."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from models.validation.render import COLUMNS

CONTRACT = "claim_id,seed,where,statement,paper_value,our_value,unit,status,circular,reason,data"


def test_csv_columns_and_seed_filter(run_cli):
    code, out, err = run_cli("validate", "--seed", "001")
    assert code == 0, err
    assert out.splitlines()[0] == CONTRACT == ",".join(COLUMNS)
    df = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert len(df) >= 5 and set(df["seed"]) == {"001"}
    assert set(df["status"]) <= {"reproduced", "partly", "not reproduced", "contradicted", "not reproducible here",
                                 "circular"}
    assert "validate [" in err  # progress on stderr


def test_status_filter_and_quiet(run_cli):
    code, out, err = run_cli("validate", "--seed", "001", "--status", "circular", "--quiet")
    assert code == 0 and err == ""
    df = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False)
    assert len(df) >= 1 and set(df["status"]) == {"circular"} and set(df["circular"]) == {"True"}


def test_json_and_markdown(run_cli):
    code, out, _ = run_cli("validate", "--claim", "004-fig2-hdd-one-hit", "--claim", "004-fig7-desktop-best-pages",
                           "--format", "json", "--quiet")
    assert code == 0
    rows = json.loads(out)
    assert [r["claim_id"] for r in rows] == ["004-fig2-hdd-one-hit", "004-fig7-desktop-best-pages"]
    assert list(rows[0]) == list(COLUMNS)
    assert rows[1]["status"] == "not reproducible here" and rows[1]["reason"]
    code, out, _ = run_cli("validate", "--claim", "004-fig2-hdd-one-hit", "--format", "md", "--quiet")
    assert code == 0 and out.startswith("# Validation against the papers")
    assert "004-fig2-hdd-one-hit" in out and "Park & Bahn 2020" in out


def test_csv_is_formula_safe(run_cli):
    # SCM LRU caching loses time in our model: a negative value, written as text, must not start with "-"
    code, out, _ = run_cli("validate", "--claim", "004-fig4-scm-lru-under-3pct", "--quiet")
    assert code == 0
    row = pd.read_csv(io.StringIO(out), dtype=str, keep_default_na=False).iloc[0]
    assert not row["our_value"].startswith(("-", "=", "+", "@"))


def test_bad_input(run_cli):
    code, _, err = run_cli("validate", "--claim", "000-no-such-claim")
    assert code == 2 and "000-no-such-claim" in err
    code, _, err = run_cli("validate", "--write", "--seed", "003")
    assert code == 2 and "--write" in err
    with pytest.raises(SystemExit):  # argparse: not one of the seeds
        run_cli("validate", "--seed", "7")
