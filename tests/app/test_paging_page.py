"""Memory / paging page: what its charts and sentences say (figure JSON and texts of an AppTest run).

- The trade-off chart (T_ADDR vs T_DATA at the chosen storage) reads both components: a log time axis
  with both series positive and finite, markers on lines (no bars: a linear stacked bar chart showed one
  2 MiB bar of ~200k ns and eight bars flat at zero, T_ADDR invisible).
- The best-page sentence and metric never compare a page size with itself ("102.7 ns vs 102.7 ns at
  4 KiB: +0.0 ns"); the metric's delta is the AMAT difference from the 4 KiB page, not the AMAT.
- No twin y axis whose ticks follow the other axis's gridlines (T_ADDR ticks at 0.86 / 1.87 / 2.89 ns).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from tests.app.chart_rules import check_figures, page_figures, values

ROOT = Path(__file__).resolve().parents[2]
#: A bundled trace, short enough for a quick run: at 1x DRAM its best page is the 4 KiB baseline, at 10x a
#: smaller one (the paper's finding: 4-8 KB at 1x, smaller pages as storage slows).
STATE = {"pg.trace_source": "bundled", "pg.trace_name": "lackey:gcc", "pg.max_refs": 200_000,
         "pg.storage_mode": "multiple"}
NS = r"([+−-]?[\d,]+(?:\.\d+)?) ns"
SIZES = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20}


def _run(**state):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app" / "views" / "paging.py"), default_timeout=300)
    for k, v in {**STATE, **state}.items():
        at.session_state[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def _ns(text: str) -> float:
    return float(text.replace(",", "").replace("−", "-"))


def _bytes(text: str) -> int:
    n, unit = text.split()
    return int(n) * SIZES[unit]


def _amat_by_page(at) -> dict[int, float]:
    """AMAT [ns] per page size [B] of the page's AMAT table (the Table tab's first grid, headers as shown)."""
    frames = [getattr(d.value, "data", d.value) for d in at.dataframe]
    df = next(f for f in frames if {"page size [B]", "AMAT [ns]"} <= set(f.columns))
    return dict(zip(df["page size [B]"].astype(int), df["AMAT [ns]"].astype(float)))


def _figure(at, title: str) -> dict:
    found = [f for n, f in page_figures(at) if title in n]
    assert len(found) == 1, [n for n, _ in page_figures(at)]
    return found[0]


@pytest.fixture(scope="module")
def slow_storage():
    return _run(**{"pg.latency_multiple": 10.0})


@pytest.fixture(scope="module")
def dram_speed_storage():
    return _run(**{"pg.latency_multiple": 1.0})


def _best(at) -> tuple[int, object]:
    m = next(m for m in at.metric if m.label == "Best page size (AMAT)")
    return _bytes(m.value), m


def test_best_page_is_the_baseline_said_plainly(dram_speed_storage):
    at = dram_speed_storage
    page, metric = _best(at)
    assert page == 4096, "the fixture's premise: at 1x DRAM the 4 KiB baseline is the best page"
    info = next(i.value for i in at.info if "best page" in i.value)
    assert "4 KiB** is already the best page size of those swept" in info
    assert " vs " not in info and "+0.0 ns" not in info  # no comparison of 4 KiB with itself
    assert not metric.proto.delta, f"a meaningless delta {metric.proto.delta!r}"


def test_best_page_compared_with_the_baseline(slow_storage):
    at = slow_storage
    page, metric = _best(at)
    assert page != 4096, "the fixture's premise: at 10x DRAM a page other than 4 KiB is best"
    amat = _amat_by_page(at)
    info = next(i.value for i in at.info if "best page" in i.value)
    m = re.search(rf"best page is \*\*(\d+ \w+)\*\*: AMAT {NS} vs {NS} at (\d+ \w+) \({NS}: address translation "
                  rf"{NS}, data access {NS}\)", info)
    assert m, info
    best_text, a, b, base_text, d, d_addr, d_data = m.groups()
    assert _bytes(best_text) == page and _bytes(base_text) == 4096 != page  # never a page size vs itself
    assert _ns(a) == pytest.approx(amat[page], abs=0.05) and _ns(b) == pytest.approx(amat[4096], abs=0.05)
    assert _ns(d) == pytest.approx(amat[page] - amat[4096], abs=0.05)
    assert _ns(d) < 0  # a saving: the best page beats the baseline
    assert _ns(d_addr) + _ns(d_data) == pytest.approx(_ns(d), abs=0.1)
    # the metric's delta is the difference from the baseline (not the AMAT itself), lower is the good direction
    dm = re.fullmatch(rf"{NS} vs 4 KiB", metric.proto.delta)
    assert dm, metric.proto.delta
    assert _ns(dm.group(1)) == pytest.approx(amat[page] - amat[4096], abs=0.05)
    assert abs(_ns(dm.group(1))) < amat[page] / 2  # not the AMAT
    amat_metric = next(m for m in at.metric if m.label == "AMAT at the best page")
    assert _ns(amat_metric.value.removesuffix(" ns")) == pytest.approx(amat[page], abs=0.05)


def test_trade_off_chart_reads_both_components(slow_storage):
    at = slow_storage
    fig = _figure(at, "Trade-off at")
    assert check_figures([("trade-off", fig)]) == []
    lay = fig["layout"]
    assert lay["yaxis"]["type"] == "log", "T_ADDR (ns) and T_DATA (up to 10^5 ns) on one linear axis: T_ADDR is 0"
    assert "[ns]" in lay["yaxis"]["title"]["text"]
    assert lay["xaxis"]["type"] == "log" and "page size [bytes]" == lay["xaxis"]["title"]["text"]
    assert len(values(lay["xaxis"]["ticktext"])) == 9 and "4 KiB" in values(lay["xaxis"]["ticktext"])
    assert not [t for t in fig["data"] if t.get("type") == "bar"], "bars on a log axis mislead"
    series = {t["name"].split(":")[0]: t for t in fig["data"]}
    assert {"T_ADDR", "T_DATA"} <= set(series), list(series)
    for name in ("T_ADDR", "T_DATA"):
        ys = values(series[name]["y"])
        assert len(ys) == 9 and all(y is not None and math.isfinite(y) and y > 0 for y in ys), (name, ys)
        assert "markers" in series[name]["mode"]
    t_addr, t_data = values(series["T_ADDR"]["y"]), values(series["T_DATA"]["y"])
    # the log axis's labelled decades cover both series (T_ADDR a few ns, T_DATA up to ~10^5 ns)
    ticks = values(lay["yaxis"]["tickvals"])
    assert min(ticks) <= 10 * min(t_addr) and max(ticks) >= max(t_data) / 10
    best, _ = _best(at)
    assert [s.get("label", {}).get("text") for s in lay.get("shapes", [])] == [f"best: {_fmt(best)}"]


def _fmt(p: int) -> str:
    return f"{p >> 20} MiB" if p >= 1 << 20 else (f"{p >> 10} KiB" if p >= 1024 else f"{p} B")


def _round(v: float) -> bool:
    """1, 2, 2.5 or 5 x 10^k: a tick step (or tick) a reader takes in at a glance."""
    if v == 0:
        return True
    m = abs(v) / 10 ** math.floor(math.log10(abs(v)))
    return any(math.isclose(m, r, rel_tol=1e-6) for r in (1, 2, 2.5, 5, 10))


def test_no_twin_axis_with_odd_ticks(slow_storage):
    at = slow_storage
    for name, fig in page_figures(at):
        for key, ax in fig["layout"].items():
            if not (key.startswith("yaxis") and isinstance(ax, dict) and ax.get("overlaying")):
                continue
            # a twin axis follows the other axis's gridlines (tickmode "sync", Streamlit's theme) unless told
            # otherwise: its ticks fall on odd values. It states round ticks or it is a subplot of its own.
            assert ax.get("tickmode") in ("linear", "array"), (name, key, ax.get("tickmode"))
            ticks = [ax["dtick"]] if ax.get("tickmode") == "linear" else values(ax.get("tickvals"))
            assert ticks and all(_round(t) for t in ticks), (name, key, ticks)
    fig = _figure(at, "TLB miss rate and translation time")
    lay = fig["layout"]
    on = {t["name"]: t.get("yaxis", "y") for t in fig["data"]}
    hit, t_addr = (lay[f"yaxis{on[n][1:]}"] for n in ("TLB miss rate", "T_ADDR"))
    assert on["TLB miss rate"] != on["T_ADDR"] and not t_addr.get("overlaying")
    assert hit["title"]["text"] == "TLB miss rate [-]" and t_addr["title"]["text"] == "T_ADDR [ns]"
    assert hit["type"] == "log"  # hit rates of 0.96-1 drawn from 0 read as one flat line
    miss = next(t for t in fig["data"] if t["name"] == "TLB miss rate")
    shown = [m for m in values(miss["y"]) if m is not None and m == m]
    assert shown and all(0 < m < 1 for m in shown)
    assert [round(1 - h, 12) for h, m in zip(values(miss["customdata"]), values(miss["y"])) if m == m and m is not None] \
        == [round(m, 12) for m in shown]  # the hover's hit rate is 1 − the miss rate drawn
    lo, hi = sorted([hit["domain"], t_addr["domain"]])
    assert lo[1] <= hi[0], "the two plots are stacked, not drawn over each other"
    assert check_figures([("tlb-page", fig)]) == []
