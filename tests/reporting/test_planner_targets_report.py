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


def test_catalogue_names_on_the_frontier_keep_off_each_other():
    """The catalogue's markers on the default frontier (write x read latency): each name's box overlaps no other
    name and stays in the plot, give or take a character drawn into the margin (dram, pcm-samsung-20nm and optane-dcpmm sit within 0.3 decade of each other)."""
    import math

    from models.devices import load_catalogue
    from reporting.planner_targets_report import _CHAR_W, _PLOT_H, _PLOT_W, _label_box, label_sides

    devs = [d for d in load_catalogue().values() if d.write_latency_ns and d.read_latency_ns]
    lx = [math.log10(d.write_latency_ns) for d in devs]
    ly = [math.log10(d.read_latency_ns) for d in devs]
    xr, yr = (min(lx) - 0.1, max(lx) + 0.1), (min(ly) - 0.1, max(ly) + 0.1)
    sides = label_sides(lx, ly, [d.name for d in devs], xr, yr)
    boxes = [_label_box((x - xr[0]) / (xr[1] - xr[0]) * _PLOT_W, (y - yr[0]) / (yr[1] - yr[0]) * _PLOT_H,
                        len(d.name), s) for x, y, d, s in zip(lx, ly, devs, sides)]
    for i, a in enumerate(boxes):
        m = _CHAR_W
        assert a[0] >= -m and a[2] <= _PLOT_W + m and a[1] >= -m and a[3] <= _PLOT_H + m, (devs[i].name, sides[i])
        for j, b in enumerate(boxes[:i]):
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (devs[i].name, sides[i], devs[j].name, sides[j])


def test_frontier_on_a_price_axis_marks_priced_devices_and_says_when_it_cannot_draw():
    """Write latency x price (issue 37 item 5): log axes titled with their units, decades labelled, the catalogue
    devices with a price marked at their own price and the legend counting those without one; against "no cache"
    (the write cache) no region is drawn and the chart says why."""
    from models.devices import load_catalogue
    from reporting.planner_targets_report import plan_row_frontier

    wl = workload_from_path(FIX / "small_msr.csv", name="my msr")
    res = plan([wl], ["optane-dcpmm"])
    f = plan_row_frontier(res, "my msr", "storage", "optane-dcpmm", "write_latency_ns", "price_usd_per_GB")
    fig = json.loads(f.to_json())
    assert check_figure(fig) == []
    y = fig["layout"]["yaxis"]
    assert y["type"] == "log" and y["title"]["text"] == "price [USD/GB]" and y["ticktext"]
    assert "costs no more per unit of work than the baseline" in fig["layout"]["title"]["text"]
    cat = next(d for d in f.data if str(d.name).startswith("catalogue devices"))
    others = [d for d in load_catalogue().values() if d.name != "optane-dcpmm"]
    unpriced = sum(d.price_usd_per_GB is None for d in others)
    assert unpriced and f"{unpriced} without a stated price left out" in cat.name
    assert sorted(cat.y) == sorted(d.price_usd_per_GB for d in others if d.price_usd_per_GB is not None)
    assert {float(v) for row in f.data[0].z for v in row} <= {0.0, 1.0}
    nc = plan_row_frontier(res, "my msr", "write-cache", "optane-dcpmm", "write_latency_ns", "price_usd_per_GB")
    assert check_figure(json.loads(nc.to_json())) == [] and not any(d.type == "heatmap" for d in nc.data)
    assert "region unknown" in nc.layout.title.text
    assert "No region drawn" in nc.layout.annotations[0].text and "baseline" in nc.layout.annotations[0].text


def test_frontier_draws_the_band_boundaries_named_in_the_legend():
    """The band (issue 37 item 5 remainder): the boundary at the two corners of the held inputs' provenance ranges,
    dashed and dotted, each named in the legend; none with band=False; the chart rules hold."""
    res = plan([workload_from_path(FIX / "small_msr.csv", name="my msr")], ["optane-dcpmm"])
    t = targets_of_plan(res)
    rt = next(r for r in t.retimers if r.role == "storage")
    f = frontier_figure(rt, "write_latency_ns", "read_latency_ns", points=8)
    assert check_figure(json.loads(f.to_json())) == []
    band = [d for d in f.data if d.type == "contour"]
    assert [d.line.dash for d in band] == ["dash", "dot"]
    assert all(d.showlegend and "range ends" in d.name for d in band)
    assert {float(v) for d in band for row in d.z for v in row if v == v} <= {0.0, 1.0}
    assert not any(d.type == "contour" for d in frontier_figure(rt, "write_latency_ns", "read_latency_ns", points=8,
                                                                 band=False).data)


def test_report_section_draws_the_chosen_frontier_pair():
    """--frontier-x/--frontier-y reach the report: the section draws the pair asked for (price x endurance reads
    the plan's economics), and the table carries the band column."""
    from reporting.planner_targets_report import BAND_LABEL

    res = plan([workload_from_path(FIX / "small_msr.csv", name="my msr")], ["optane-dcpmm"])
    t = targets_of_plan(res)
    html = plan_report_html(res, extra_sections=[targets_section(t, ("price_usd_per_GB", "read_latency_ns"))])
    assert "Frontier over price × read latency" in html
    assert "price [USD" in html and BAND_LABEL in html  # the axis title (plotly escapes the slash)
    html = plan_report_html(res, extra_sections=[targets_section(t, ("endurance_writes_per_cell", "price_usd_per_GB"))])
    assert "Frontier over endurance × price" in html or "No frontier over endurance × price" in html


def test_a_price_axis_spans_its_break_evens_band():
    """The dotted and dashed boundaries show: a price axis reaches ½ the band's low end and 2× its high end."""
    import math

    res = plan([workload_from_path(FIX / "small_msr.csv", name="my msr")], ["optane-dcpmm"])
    t = targets_of_plan(res)
    df = t.to_frame()
    r = df[(df.role == "storage") & (df.spec == "price_usd_per_GB")].iloc[0]
    assert math.isfinite(r.break_even_low) and math.isfinite(r.break_even_high) and r.break_even_low < r.break_even_high
    rt = next(x for x in t.retimers if x.role == "storage")
    row = next(x for x in res.rows if (x["role"], x["device"]) == ("storage", "optane-dcpmm"))
    h = res.horizon_years if math.isfinite(res.horizon_years) else None
    f = frontier_figure(rt, "write_latency_ns", "price_usd_per_GB", points=6, plan_row=row, horizon_years=h)
    ys = [float(v) for v in f.data[0].y]
    assert min(ys) <= r.break_even_low / 2 * (1 + 1e-9) and max(ys) >= r.break_even_high * 2 * (1 - 1e-9)
