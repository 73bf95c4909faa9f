"""The "Product targets" report section and frontier figure (issue 37 item 6)."""

import json

from models.planner.plan import plan, workload_from_path
from models.planner.targets import targets_of_plan
from reporting.planner_report import plan_report_html
from reporting.planner_targets_report import frontier_figure, targets_section, targets_table
from tests import ROOT
from tests.app.chart_rules import check_figure

FIX = ROOT / "tests" / "fixtures" / "plan"


def test_report_section_table_and_frontier_follow_the_chart_rules():
    res = plan([workload_from_path(FIX / "small_msr.csv", name="my msr")], ["pcm-samsung-20nm"])
    t = targets_of_plan(res)
    html = plan_report_html(res, extra_sections=[targets_section(t)])
    assert "<h2 id='targets'>Product targets</h2>" in html and "won while" in html
    assert "Product targets" not in plan_report_html(res)  # the hook adds it only when given
    tab = targets_table(t)
    assert len(tab) == len(t.rows) and tab["won while"].str.startswith(("<=", ">=", "")).all()
    rt = next(r for r in t.retimers if r.role == "storage")
    f = frontier_figure(rt, "write_latency_ns", "read_latency_ns", points=6)
    fig = json.loads(f.to_json())
    assert check_figure(fig) == []
    assert fig["layout"]["xaxis"]["type"] == "log" and fig["layout"]["yaxis"]["title"]["text"] == "read latency [ns]"
    z = [float(v) for row in f.data[0].z for v in row]
    assert set(z) == {0.0, 1.0}  # both regions: wins at the fast corner, loses at the slow one
