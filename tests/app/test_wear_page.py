"""Wear-leveling page (AppTest): renders and reacts to the scheme choice."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests import ROOT


def test_wear_page_renders_and_reacts():
    at = AppTest.from_file(str(ROOT / "app/views/wear.py"), default_timeout=120).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value == "Wear leveling"
    before = {m.label: m.value for m in at.metric}
    at.multiselect(key="wear.schemes").set_value(["sg", "sfc"]).run()
    assert not at.exception, [e.message for e in at.exception]
    after = {m.label: m.value for m in at.metric}
    assert before != after


def test_wear_page_lifetime_uses_the_simulated_life_rate_not_the_long_run():
    import numpy as np

    from models.devices import get_device
    from models.endurance import wear

    at = AppTest.from_file(str(ROOT / "app/views/wear.py"), default_timeout=120).run()
    assert not at.exception, [e.message for e in at.exception]
    df = at.dataframe[0].value
    life = [c for c in df.columns if "lifetime" in c.lower()]
    assert life and not [c for c in life if "long" in c.lower()]  # no lifetime from the long-run rate
    rate_col = next(c for c in df.columns if c.startswith("write rate") or c == "write_rate_bytes_per_s")
    lr = next(c for c in df.columns if c in ("life rate", "life_rate"))
    ovh = next(c for c in df.columns if c.startswith("movement overhead") or c == "movement_overhead")
    cfg = wear.WearConfig()
    e = get_device(at.session_state["wear.device"]).endurance_writes_per_cell
    for row in df.itertuples(index=False):
        r = dict(zip(df.columns, row, strict=True))
        want = wear.lifetime_years_for(cfg, e, r[rate_col], r[lr], r[ovh])
        assert np.isclose(r[life[0]], want, rtol=1e-9)


# --- chart defects a reviewer saw in screenshots (heatmap colours, NaN text, log bars, raw scheme keys) ---

def _run_page(schemes: list[str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app/views/wear.py"), default_timeout=120).run()
    assert not at.exception, [e.message for e in at.exception]
    if schemes is not None:
        at.multiselect(key="wear.schemes").set_value(schemes).run()
        assert not at.exception, [e.message for e in at.exception]
    return at


def _specs(at: AppTest) -> list[dict]:
    import json

    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def _heatmap(at: AppTest) -> dict:
    figs = [f for f in _specs(at) if any(t.get("type") == "heatmap" for t in f["data"])]
    assert len(figs) == 1
    return figs[0]


def test_wear_heatmap_scale_starts_at_zero_and_is_explicit_in_both_themes():
    import re

    from tests.app.chart_rules import values

    for schemes in (None, ["sg", "rr", "sfc"]):  # four panels, and three (an odd grid)
        at = _run_page(schemes)
        fig = _heatmap(at)
        ca = fig["layout"]["coloraxis"]
        scale = ca["colorscale"]
        assert isinstance(scale, list) and scale[0][0] == 0 and scale[-1][0] == 1  # explicit, not a theme's
        # Streamlit's theme swaps the placeholder hex colours #000001..#000040 for its own (Inferno's
        # "#000004" became orange / pale yellow: never-written banks drawn like the hottest)
        own = {"data": fig["data"], "layout": {k: v for k, v in fig["layout"].items() if k != "template"}}
        placeholders = re.findall(r"#0000(?:[0-3]\d|40)\b", str(own))
        assert not placeholders, placeholders
        traces = [t for t in fig["data"] if t["type"] == "heatmap"]
        zmax = max(max(values(t["z"])) for t in traces)
        assert ca["cmin"] == 0 and ca["cmax"] >= zmax  # 0 at the low end, one top for every panel
        assert all(t["coloraxis"] == "coloraxis" and t["zmin"] == 0 and t["zmax"] == ca["cmax"] for t in traces)
        bar_title = ca["colorbar"]["title"]
        assert "[" in (bar_title["text"] if isinstance(bar_title, dict) else bar_title)  # titled with its unit
        # the x title only under each column's lowest panel: a top-row title ran into the titles below
        lay = fig["layout"]
        x_axes = sorted({t.get("xaxis", "x") for t in traces}, key=lambda a: int(a[1:] or 1))
        titled = [a for a in x_axes if (lay[f"xaxis{a[1:]}"].get("title") or {}).get("text")]
        n, ncols = len(traces), min(2, len(traces))
        assert len(titled) == ncols
        for a in x_axes:
            i = int(a[1:] or 1) - 1
            ax = lay[f"xaxis{a[1:]}"]
            assert (a in titled) == (i + ncols >= n), (a, ax)
            if a not in titled:
                assert ax["matches"] in titled
        assert lay["hovermode"] == "closest"
        human = {"none (static)", "SG (start-gap)", "RR (round-robin)", "SFC (Hilbert cubes)"}
        assert {t["name"] for t in traces} <= human


def test_wear_bars_never_show_nan_text_and_draw_no_bar_for_a_missing_value():
    import math

    from tests.app.chart_rules import values

    at = _run_page()
    bars = [t for f in _specs(at) for t in f["data"] if t.get("type") == "bar"]
    assert bars
    for t in bars:
        text = values(t.get("text"))
        assert not [s for s in text if str(s).strip().lower() in ("nan", "none", "inf", "null")], (t["name"], text)
        for v, s in zip(values(t["y"]), text, strict=False):
            missing = v is None or (isinstance(v, float) and not math.isfinite(v))
            assert missing == (s == "n/a"), (t["name"], v, s)
    paper = next(t for t in bars if t["name"].startswith("paper"))
    assert values(paper["y"])[0] is None and values(paper["text"])[0] == "n/a"  # no paper value for "none"


def test_wear_lifetime_bars_start_at_zero_on_a_linear_axis():
    at = _run_page()
    figs = [f for f in _specs(at) if (f["layout"].get("yaxis", {}).get("title") or {}).get("text") == "lifetime [years]"]
    assert len(figs) == 1
    fig = figs[0]
    ax = fig["layout"]["yaxis"]
    bars = [t for t in fig["data"] if t.get("type") == "bar"]
    if ax.get("type") == "log":  # lifetimes decades apart: markers, never bars, on a log axis
        assert not bars
    else:
        assert bars and ax.get("rangemode") == "tozero"  # bar length ∝ lifetime
    point = bars[0] if bars else fig["data"][0]
    assert point["name"].startswith("lifetime [years]")  # the legend names the quantity drawn and its unit
    # every bar chart of the page: bars on a linear axis (a log axis makes bar lengths meaningless)
    for f in _specs(at):
        for t in f["data"]:
            if t.get("type") == "bar":
                assert f["layout"].get(f"yaxis{t.get('yaxis', 'y')[1:]}", {}).get("type") != "log"


def test_wear_labels_use_human_scheme_names_not_raw_keys():
    from models.endurance import wear

    at = _run_page()
    human = {"none (static)", "SG (start-gap)", "RR (round-robin)", "SFC (Hilbert cubes)"}
    labels = [m.label for m in at.metric if m.label.endswith("life rate")]
    assert len(labels) == len(wear.SCHEMES)
    for label in labels:
        assert any(label.startswith(h) for h in human), label
        raw = {*wear.SCHEMES, *(k.upper() for k in wear.SCHEMES)}
        assert label.removesuffix(" life rate") not in raw, label  # "NONE life rate": an uppercased raw key
    df = at.dataframe[0].value
    assert set(df["scheme"]) == human
    assert all(len(c) <= 20 for c in df.columns), [c for c in df.columns if len(c) > 20]  # headers read whole
    assert not [c for c in df.columns if "_" in c]  # no raw column keys
    for f in _specs(at):  # charts name the schemes the same way
        for t in f["data"]:
            cats = [x for x in (t.get("x") or []) if isinstance(x, str)] if isinstance(t.get("x"), list) else []
            assert set(cats) <= human, cats
