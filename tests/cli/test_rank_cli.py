"""``pcm-planner rank``: the ranking CSV (column contract) and the HTML report written to files."""

import pandas as pd

from models.planner.economics import ECON_COLUMNS


def test_rank_writes_csv_and_html(run_cli, tmp_path):
    out, rep = tmp_path / "r.csv", tmp_path / "r.html"
    rc, stdout, err = run_cli("rank", "--personality", "varmail", "--trace", "synthetic:randw", "--requests", "2000",
                              "--mem-refs", "20000", "--out", out, "--html", rep)
    assert rc == 0, err
    assert stdout == "" and f"wrote {rep}" in err
    df = pd.read_csv(out)
    # the ranking's columns, then the plan's economics (issue 37), added after them
    assert list(df.columns) == ["role", "rank", "workload", "kind", "metric", "value", "benefit", "status", "reason",
                                *ECON_COLUMNS]
    assert "varmail" in set(df.workload) and "synthetic:randw" in set(df.workload)
    html = rep.read_text()
    assert html.startswith("<!DOCTYPE html>") and "varmail" in html and html.rstrip().endswith("</html>")


def test_rank_bad_requests_is_a_message(run_cli):
    rc, _, err = run_cli("rank", "--requests", "0")
    assert rc == 2 and "n_requests" in err and "Traceback" not in err


def test_rank_prices_a_pcm_device_for_its_economics(run_cli, tmp_path):
    out = tmp_path / "r.csv"
    args = ("rank", "--personality", "varmail", "--trace", "mqsim:tpcc-small", "--requests", "2000", "--mem-refs", "20000",
            "--out", out)
    rc, _, err = run_cli(*args)
    assert rc == 0, err
    unpriced = pd.read_csv(out).set_index("role")
    assert unpriced.loc["storage-vs-hdd", "economic_reason"].startswith("needs data: price of pcm-samsung-20nm")
    rc, _, err = run_cli(*args, "--price", "pcm-samsung-20nm=3", "--horizon-years", "3")
    assert rc == 0, err
    df = pd.read_csv(out).set_index("role")
    assert df.loc["storage-vs-hdd", "price_usd_per_GB"] == 3.0 and df.loc["storage-vs-hdd", "cost_usd"] > 0
    assert "over 3 years" in df.loc["storage-vs-hdd", "economic_reason"]
    assert " faster for $" in df.loc["write-cache", "economic_verdict"]  # against no cache: what the speed costs


def test_rank_price_of_a_device_it_does_not_rank_is_a_message(run_cli):
    rc, _, err = run_cli("rank", "--personality", "varmail", "--trace", "synthetic:randw", "--requests", "2000",
                         "--mem-refs", "20000", "--price", "optane-dcpmm=8")
    assert rc == 2 and "optane-dcpmm" in err and "not a device of the ranking" in err and "Traceback" not in err
