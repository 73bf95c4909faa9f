"""The charts' own category colours read on both schemes' backgrounds, and no chart is sent with the theme's
category placeholders (Streamlit keeps a placeholder's first-drawn theme colour after a switch of scheme with
the page open: tests/app/test_browser_theme.py, ``test_charts_follow_a_switch_of_scheme_with_the_page_open``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from app.components import charts
from app.components.charts import CATEGORY_COLOURS, THEME_PLACEHOLDER
from tests.app.test_browser_theme import BACKGROUNDS, MIN_MARK_CONTRAST, contrast, rgba


@pytest.mark.parametrize("scheme", sorted(BACKGROUNDS))
@pytest.mark.parametrize("colour", CATEGORY_COLOURS)
def test_each_category_colour_reads_on_both_backgrounds(colour, scheme):
    k = contrast(rgba(colour), rgba(BACKGROUNDS[scheme]))
    assert k >= MIN_MARK_CONTRAST, (colour, scheme, round(k, 2))


def test_category_colours_are_distinct_and_none_is_a_placeholder():
    assert len(set(CATEGORY_COLOURS)) == len(CATEGORY_COLOURS) == 10
    assert not any(THEME_PLACEHOLDER.fullmatch(c) for c in CATEGORY_COLOURS)


def test_a_sent_chart_carries_no_category_placeholder():
    import plotly.express as px
    import streamlit.elements.plotly_chart  # noqa: F401  (registers Streamlit's template as the default)

    df = {"x": [1, 2, 3, 1, 2, 3], "y": [1.0, 2, 3, 2, 3, 4], "c": ["a", "a", "a", "b", "b", "b"]}
    fig = px.line(df, x="x", y="y", color="c")
    fig.add_scatter(x=np.arange(3), y=np.arange(3.0), name="plain")
    text = json.dumps(charts.sent_spec(fig), default=lambda a: a.tolist())
    assert not [c for c in (f"#{i:06d}" for i in range(1, 11)) if f'"{c}"' in text]
    assert f'"{CATEGORY_COLOURS[0]}"' in text and f'"{CATEGORY_COLOURS[1]}"' in text
