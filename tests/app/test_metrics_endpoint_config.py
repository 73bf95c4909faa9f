"""``/_stcore/metrics`` (issue 42 item 16): Streamlit has no option to turn it off; the config says so and
pins the options that would make it leak user attributes or cost a memory walk per scrape."""

from __future__ import annotations

import tomllib

from tests import ROOT


def test_metrics_endpoint_options_are_pinned_and_explained():
    text = (ROOT / ".streamlit" / "config.toml").read_text()
    server = tomllib.loads(text)["server"]
    assert server["unsafeMetricsUserAttributes"] == []
    assert server["enableExpensiveMemoryStats"] is False
    assert "/_stcore/metrics" in text and "cannot be turned off" in text


def test_streamlit_still_has_no_option_to_disable_the_metrics_route():
    """When a Streamlit upgrade adds one, this fails: set it in .streamlit/config.toml instead of the note."""
    from streamlit import config

    names = [k for k in config._config_options_template if "metric" in k.lower() and not k.startswith("theme.")]
    assert all(k in ("server.unsafeMetricsUserAttributes",) for k in names), names
