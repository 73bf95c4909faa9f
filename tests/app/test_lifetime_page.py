"""Lifetime page: the Monte Carlo band's legend says when P10-P90 is too narrow to see on the chart."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app.views.lifetime import LifetimeScenario as S
from tests import ROOT

PAGE = str(ROOT / "app" / "views" / "lifetime.py")


def _band_names(at: AppTest) -> list[str]:
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    return [t["name"] for s in specs for t in s["data"] if str(t.get("name", "")).startswith("P10–P90")]


def test_the_band_legend_says_when_the_spread_is_narrower_than_a_line():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception
    # default: 250 M lines of sigma 0.25 fail at one rank, P10 = P90 to 3 digits
    assert _band_names(at) == ["P10–P90 (Monte Carlo; narrower than the P50 line)"]
    # 15,258 lines of 1 MiB, sigma 2: P10-P90 spans 0.035-0.051 years, a visible band named plainly
    at.number_input(key=S.key("endurance_sigma")).set_value(2.0).run()
    at.text_input(key=S.key("line_bytes")).set_value("1048576").run()
    assert not at.exception
    names = _band_names(at)
    assert names == ["P10–P90 (Monte Carlo)"], names


def test_metrics_of_a_long_lifetime_read_without_e_notation():
    """A 1e9-write endurance gives lifetimes of thousands of years: "1,290", not "1.29e+03"."""
    from tests.app.chart_rules import check_texts, shown_texts

    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.number_input(key=S.key("endurance")).set_value(1e10).run()
    assert not at.exception
    closed = next(m.value for m in at.metric if m.label == "Closed form [years]")
    assert float(closed.replace(",", "")) >= 1000 and "," in closed, closed
    assert check_texts(shown_texts(at)) == []


def test_the_gap_between_the_monte_carlo_and_the_closed_form_is_explained_with_the_shown_numbers():
    """The Monte Carlo P50 sits below the closed form; the caption gives the factor and it matches the metrics."""
    import re

    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception
    metric = {m.label: float(m.value.replace(",", "")) for m in at.metric if m.label.endswith("[years]")}
    note = next(c.value for c in at.caption if "exp(σ·Φ⁻¹(f))" in c.value)
    closed, factor, product = map(float, re.search(r"= ([\d.]+) × ([\d.]+) = ([\d.]+) years", note).groups())
    assert closed == metric["Closed form [years]"] and factor < 1
    assert product == pytest.approx(metric["P50 [years]"], rel=2e-3)


def test_the_gap_note_says_above_when_the_device_dies_at_its_stronger_lines():
    """Failing at 90 % of worn lines puts the Monte Carlo above the closed form; at σ = 0 there is no gap to explain."""
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.number_input(key=S.key("fail_fraction")).set_value(0.9).run()
    assert not at.exception
    assert any("sits above it" in c.value for c in at.caption)
    at.number_input(key=S.key("endurance_sigma")).set_value(0.0).run()
    assert not at.exception and not any("exp(σ·Φ⁻¹(f))" in c.value for c in at.caption)
