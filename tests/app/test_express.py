"""app.components.express draws what plotly.express draws (the same figure JSON), for the options the pages use."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.io as pio
import pytest

from app.components.express import bar, line


def _json(fig) -> dict:
    return json.loads(pio.to_json(fig, validate=False))


@pytest.fixture(params=["plotly", "plotly_white", "plotly_dark"])
def template(request):
    saved = pio.templates.default
    pio.templates.default = request.param
    yield request.param
    pio.templates.default = saved


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    cfg = ["pcm-hdd", "hdd", "ssd"]
    return pd.DataFrame({"config": np.repeat(cfg, 4), "flowop": ["open", "read", "fsync", "close"] * 3,
                         "latency_ms": rng.uniform(1e-3, 50, 12), "kind": ["meta", "data", "sync", "meta"] * 3,
                         "cpu_ms": rng.uniform(0, 1, 12), "threads": np.tile([1, 2, 4, 8], 3)})


@pytest.mark.parametrize("kw", [dict(log_y=True, text_auto=".3s"),
                                dict(color="flowop", barmode="group", hover_data=("kind", "cpu_ms")),
                                dict(color="flowop", barmode="group", log_y=True)])
def test_bar_equals_px_bar(template, kw):
    df = _frame()
    px_kw = {**kw, **({"hover_data": list(kw["hover_data"])} if "hover_data" in kw else {})}
    assert _json(bar(df, "config", "latency_ms", **kw)) == _json(px.bar(df, x="config", y="latency_ms", **px_kw))


@pytest.mark.parametrize("kw", [dict(log_y=True), dict(log_x=True, log_y=True), dict()])
def test_line_equals_px_line(template, kw):
    df = _frame()
    assert _json(line(df, "threads", "latency_ms", color="config", **kw)) == \
        _json(px.line(df, x="threads", y="latency_ms", color="config", markers=True, **kw))


@pytest.mark.parametrize("kw", [dict(log_x=True), dict()])
def test_line_with_dashes_equals_px_line(template, kw):
    """Colour by one column and dash by another, groups met in any order (device characterization, Fig. 1)."""
    df = _frame().assign(op=np.tile(["write", "read", "read", "write"], 3)).iloc[[5, 0, 11, 2, 7, 1, 4, 3, 6, 9, 8, 10]]
    assert _json(line(df, "threads", "latency_ms", color="config", line_dash="op", **kw)) == \
        _json(px.line(df, x="threads", y="latency_ms", color="config", line_dash="op", markers=True, **kw))
