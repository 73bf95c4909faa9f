"""Issue 19: the planner's sweep panel submits a spec (LocalCluster or in-process) and shows its results."""

from __future__ import annotations

import os

import pytest
from streamlit.testing.v1 import AppTest

SPEC = """[sweep]
name = "app"
devices = ["nand-flash"]
[[traces]]
name = "=cmd|' /C calc'!A0"
source = "mqsim:tpcc-small"
max_requests = 800
[[models]]
model = "cache_sim"
grid = { policy = ["lru", "fifo"], cache_blocks = [16, 64] }
[[models]]
model = "file_cache"
grid = { cache_fraction = [0.5] }
"""


def _page(scheduler: str):
    import streamlit as st

    from app.components.sweep_panel import sweep_panel

    st.title("sweep")
    sweep_panel(scheduler=scheduler)


@pytest.mark.parametrize("scheduler", ["serial", "local"])
def test_sweep_panel_runs_a_spec_and_shows_formula_safe_results(scheduler):
    at = AppTest.from_function(_page, args=(scheduler,), default_timeout=240).run()
    assert not at.exception
    at.text_area[0].set_value(SPEC)
    at.text_input(key="sweep_workers").set_value("1e0")  # read as text: 1e0 = 1 worker
    at.button[0].click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert "5 task(s): 5 computed, 0 reused" in at.success[0].value
    df = at.dataframe[0].value
    assert set(df["model"]) == {"cache_sim"} and len(df) == 4  # the first model is shown
    assert df["trace"].iloc[0].startswith("'=cmd")  # formula-safe on screen too
    assert sorted(df["cache [blocks]"]) == [16, 16, 64, 64]
    at.selectbox[0].set_value("file_cache").run()
    assert set(at.dataframe[0].value["policy"]) == {"none", "lru", "ac"}
    # a rerun of the same spec reuses every stored task
    at.button[0].click().run()
    assert "0 computed, 5 reused" in at.success[0].value


@pytest.mark.parametrize(("spec", "message"), [
    ('[[models]]\nmodel = "warp"\n', "unknown sweep model 'warp'"),
    ('[[traces]]\nname = "p"\nsource = "/etc/passwd"\n[[models]]\nmodel = "mrc"\n', "bundled traces only"),
    ('[[models]]\nmodel = "call:models.traces.formats.npz:save_memtrace_npz"\n', "named models only"),
    ('[[traces]]\nname = "t"\nsource = "mqsim:tpcc-small"\n[[models]]\nmodel = "cache_sim"\n'
     'grid = { policy = ["lru"], cache_blocks = ' + str(list(range(1, 600))) + ' }\n', "at most 500"),
])
def test_a_bad_or_unsafe_spec_is_a_message_not_a_run(spec, message):
    at = AppTest.from_function(_page, args=("serial",), default_timeout=60).run()
    at.text_area[0].set_value(spec)
    at.button[0].click().run()
    assert not at.exception and not at.success
    assert any(message in e.value for e in at.error), [e.value for e in at.error]


def test_workers_is_read_as_text_and_a_bad_value_says_why_under_it():
    from tests.app.test_input_messages import message_under

    at = AppTest.from_function(_page, args=("serial",), default_timeout=60).run()
    assert at.text_input(key="sweep_workers").value == str(min(2, os.cpu_count() or 1))
    at.text_input(key="sweep_workers").set_value("abc").run()
    assert not at.exception
    under = message_under(at, "sweep_workers")
    assert under is not None and "Workers (local processes)" in under and "not applied; using" in under, under
    at.text_input(key="sweep_workers").set_value("1e0").run()
    assert message_under(at, "sweep_workers") is None


def test_an_uploaded_spec_goes_into_the_editor_and_later_edits_stay():
    """The upload was ignored: the editor kept the example spec (its own state won over value=)."""
    at = AppTest.from_function(_page, args=("serial",), default_timeout=60).run()
    editor = at.text_area[0]
    assert "[sweep]" in editor.value and editor.value != SPEC
    at.file_uploader[0].set_value(("mine.toml", SPEC.encode(), "application/toml")).run()
    assert not at.exception
    assert at.text_area[0].value == SPEC
    at.text_area[0].input(SPEC.replace("max_requests = 800", "max_requests = 900")).run()
    assert "max_requests = 900" in at.text_area[0].value  # an edit of the uploaded text is not overwritten
