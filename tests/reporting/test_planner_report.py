"""The planner's HTML report and role charts (reporting/planner_report.py)."""

import pandas as pd
import pytest

from models.planner import ROLES
from reporting.planner_report import report_html, role_chart


def _ranking():
    rows = [
        ("storage-vs-hdd", 1, "varmail", "filebench", ROLES["storage-vs-hdd"], 221.0, 221.0, "ok", "fsync-heavy"),
        ("storage-vs-hdd", 2, "webserver", "filebench", ROLES["storage-vs-hdd"], 0.86, 0.86, "ok", "read-mostly"),
        ("write-cache", pd.NA, "synthetic:web", "block trace", ROLES["write-cache"], float("nan"), float("nan"),
         "pending", "pending: the trace has no writes <b>"),
    ]
    df = pd.DataFrame(rows, columns=["role", "rank", "workload", "kind", "metric", "value", "benefit", "status",
                                     "reason"])
    df["rank"] = df["rank"].astype("Int64")
    return df


def test_report_has_one_chart_per_role_with_ok_rows_and_the_table():
    html = report_html(_ranking(), title="T <1>")
    assert html.startswith("<!DOCTYPE html>") and html.endswith("</body></html>")
    assert "<title>T &lt;1&gt;</title>" in html  # title escaped
    assert html.count("<h2>") == 3  # storage-vs-hdd, write-cache, full ranking
    assert html.count("Plotly.newPlot") == 1  # the pending-only role has no chart
    assert html.count("<script") >= 2  # plotly.js inlined once, plus the one chart
    assert "&lt;b&gt;" in html and "<b>" not in html  # table cells escaped
    assert "221" in html and "0.86" in html


def test_role_chart_bars_in_rank_order_log_axis_for_storage():
    fig = role_chart(_ranking(), "storage-vs-hdd")
    assert list(fig.data[0].y) == ["varmail", "webserver"]
    assert fig.layout.xaxis.type == "log" and fig.layout.title.text == ROLES["storage-vs-hdd"]
    empty = role_chart(_ranking(), "write-cache")
    assert len(empty.data[0].y) == 0 and empty.layout.xaxis.type != "log"


@pytest.mark.parametrize("role", list(ROLES))
def test_report_of_an_empty_ranking_has_only_the_table(role):
    df = _ranking().iloc[0:0]
    html = report_html(df)
    assert "Plotly.newPlot" not in html and f"<h2>{role}</h2>" not in html


def test_report_shows_no_na_rank_and_colours_wins_and_losses():
    from reporting.planner_report import LOSE_COLOUR, WIN_COLOUR

    html = report_html(_ranking(), provenance=False)
    assert "&lt;NA&gt;" not in html and "<NA>" not in html
    fig = role_chart(_ranking(), "storage-vs-hdd")
    assert list(fig.data[0].marker.color) == [WIN_COLOUR, LOSE_COLOUR]  # 221x wins, 0.86x loses
    assert list(fig.data[0].base) == [1.0, 1.0]  # bars start at the 1x line
    lo, hi = fig.layout.xaxis.range
    assert lo == -hi and [s.x0 for s in fig.layout.shapes] == [1]
