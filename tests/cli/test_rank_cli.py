"""``pcm-planner rank``: the ranking CSV (column contract) and the HTML report written to files."""

import pandas as pd


def test_rank_writes_csv_and_html(run_cli, tmp_path):
    out, rep = tmp_path / "r.csv", tmp_path / "r.html"
    rc, stdout, err = run_cli("rank", "--personality", "varmail", "--trace", "synthetic:randw", "--requests", "2000",
                              "--out", out, "--html", rep)
    assert rc == 0, err
    assert stdout == "" and f"wrote {rep}" in err
    df = pd.read_csv(out)
    assert list(df.columns) == ["role", "rank", "workload", "kind", "metric", "value", "benefit", "status", "reason"]
    assert "varmail" in set(df.workload) and "synthetic:randw" in set(df.workload)
    html = rep.read_text()
    assert html.startswith("<!DOCTYPE html>") and "varmail" in html and html.rstrip().endswith("</html>")


def test_rank_bad_requests_is_a_message(run_cli):
    rc, _, err = run_cli("rank", "--requests", "0")
    assert rc == 2 and "n_requests" in err and "Traceback" not in err
