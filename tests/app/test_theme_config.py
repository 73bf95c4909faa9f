"""The theme configuration follows the user's light / dark preference and its chart colours read on both
(issue 18). tests/app/test_browser_theme.py checks the same in a browser, on the colours Chromium computes."""

from __future__ import annotations

import tomllib

import pytest

from tests import ROOT
from tests.app.test_browser_theme import MIN_MARK_CONTRAST, contrast, rgba

#: The backgrounds of Streamlit's light theme and of its dark theme (1.67: #171614; earlier: #0e1117).
BACKGROUNDS = {"light": ["#ffffff"], "dark": ["#171614", "#0e1117"]}


def _theme() -> dict:
    with open(ROOT / ".streamlit" / "config.toml", "rb") as f:
        return tomllib.load(f).get("theme", {})


def test_no_single_custom_theme_forces_one_scheme():
    """An option directly in [theme] (or a base) makes one custom theme and the preference is ignored."""
    theme = _theme()
    assert {k for k, v in theme.items() if not isinstance(v, dict)} == set(), theme
    assert {"light", "dark"} <= set(theme)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_series_and_accent_colours_reach_3_to_1_on_their_background(scheme):
    section = _theme()[scheme]
    colours = [*section.get("chartCategoricalColors", []), section["primaryColor"]]
    assert len(colours) >= 6
    low = [(c, bg, round(contrast(rgba(c), rgba(bg)), 2)) for c in colours for bg in BACKGROUNDS[scheme]
           if contrast(rgba(c), rgba(bg)) < MIN_MARK_CONTRAST]
    assert low == []


def test_the_first_series_colours_are_distinct_hues():
    """Two series of one chart never share a hue (Streamlit's defaults start with two blues)."""
    import colorsys

    for scheme in ("light", "dark"):
        first = _theme()[scheme]["chartCategoricalColors"][:5]
        hues = [colorsys.rgb_to_hsv(*(v / 255 for v in rgba(c)[:3]))[0] * 360 for c in first]
        gaps = [min(abs(a - b), 360 - abs(a - b)) for i, a in enumerate(hues) for b in hues[i + 1:]]
        assert min(gaps) > 25, (scheme, [round(h) for h in hues])
