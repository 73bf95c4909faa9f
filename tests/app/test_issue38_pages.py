"""Issue 38 item 9 (small page defects) and item 6 (why a role is far from the paper), AppTest per page."""

from __future__ import annotations

import json

import pandas as pd
from streamlit.testing.v1 import AppTest

from tests import ROOT

VIEWS = ROOT / "app" / "views"


def _charts(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def _values(v) -> list[float]:
    """A figure's data array as numbers: a list, or Plotly's typed array (``{"dtype", "bdata"}``, base64)."""
    import base64

    import numpy as np

    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).astype(float).tolist()
    return [float(x) for x in v]


def _text(at) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def test_lifetime_page_explains_its_three_lifetimes():
    at = AppTest.from_file(str(VIEWS / "lifetime.py"), default_timeout=300).run()
    assert not at.exception and not at.error
    text = _text(at)
    assert "Three lifetimes, three questions" in text
    for part in ("Closed form", "Monte Carlo P10/P50/P90", "How sure? p5–p95 band", "lognormal", "inputs themselves"):
        assert part in text, part
    closed = next(m.value for m in at.metric if m.label == "Closed form [years]")
    assert f"= {closed} years" in text  # the sentence quotes the page's own closed form


def test_memory_extension_eviction_buffer_says_when_it_matters_and_is_off_when_sync():
    at = AppTest.from_file(str(VIEWS / "memory_extension.py"), default_timeout=300)
    at.session_state["mx.stream_source"] = "pattern"
    at.session_state["mx.references"] = 50_000
    at.session_state["mx.footprint_pages"] = 256
    at.run()
    assert not at.exception and not at.error
    assert not at.text_input(key="mx.eviction_buffer_pages").disabled
    assert any(c.value.startswith("Eviction buffer (") for c in at.caption)
    at.radio(key="mx.writeback").set_value("sync").run()
    assert not at.exception
    box = at.text_input(key="mx.eviction_buffer_pages")
    assert box.disabled and "synchronous write-back has no eviction buffer" in box.help
    assert any("Eviction buffer: not used" in c.value for c in at.caption)


def test_eviction_buffer_note_reads_the_stalls():
    from streamlit.testing.v1 import AppTest as _  # noqa: F401 - the page module needs streamlit importable

    src = (VIEWS / "memory_extension.py").read_text()
    ns: dict = {}
    start = src.index("def eviction_buffer_note")
    exec("import numpy as np\n" + src[start:src.index("\n\n\n", start)], ns)  # the function alone, no page run
    note = ns["eviction_buffer_note"]
    none = pd.DataFrame({"write_stall_ns": [0.0, 0.0], "time_ns": [1.0, 2.0], "bound": ["fault", "fault"]})
    assert "never full" in note(none, "buffered", 64)
    some = none.assign(write_stall_ns=[0.5, 0.0])
    assert "waits for page writes for 50.00%" in note(some, "buffered", 1)
    bw = some.assign(bound=["bandwidth", "fault"])
    assert "no buffer shortens" in note(bw, "buffered", 1)


def test_filebench_sweeps_say_which_lines_coincide():
    """Varmail's I/O-size sweep gives pcm-hdd, pcm-ssd and pcm-dram the same throughput at every size: one
    legend entry names all three and a caption says they coincide; no two entries draw the same line."""
    at = AppTest.from_file(str(VIEWS / "workload.py"), default_timeout=300)
    at.session_state["wl.sweep_tab"] = "I/O size 64 B-16 KB (Fig. 4)"
    at.run()
    assert not at.exception and not at.error
    io = next(c for c in _charts(at) if "I/O size" in json.dumps(c["layout"].get("xaxis", {})))
    names = [t.get("name", "") for t in io["data"]]
    assert "pcm-hdd = pcm-ssd = pcm-dram" in names, names
    assert any("pcm-hdd, pcm-ssd and pcm-dram coincide" in c.value for c in at.caption)
    ys = [tuple(_values(t["y"])) for t in io["data"] if "y" in t]
    assert len(ys) == len(set(ys)), "two legend entries draw the same line"


def test_coinciding_legend_merges_equal_curves():
    from app.components.charts import coinciding_legend

    ns = {"coinciding_legend": coinciding_legend}
    d = pd.DataFrame({"config": ["hdd"] * 2 + ["pcm-hdd"] * 2 + ["pcm-ssd"] * 2, "threads": [1, 2] * 3,
                      "latency_ms": [5.0, 9.0, 0.1, 0.2, 0.1, 0.2]})
    shown, same = ns["coinciding_legend"](d, "threads", "latency_ms")
    assert same == [["pcm-hdd", "pcm-ssd"]]
    assert set(shown.config) == {"hdd", "pcm-hdd = pcm-ssd"}
    d.loc[5, "latency_ms"] = 0.21  # one point differs: two lines
    assert ns["coinciding_legend"](d, "threads", "latency_ms")[1] == []


def _reuse_chart(at) -> tuple[dict, list[float]]:
    reuse = next(c for c in _charts(at) if "Reuse counts" in json.dumps(c["layout"].get("title", {})))
    xs = [x for t in reuse["data"] if t.get("type") == "bar" for x in _values(t["x"])]
    assert xs
    return reuse, xs


def test_trace_explorer_reuse_axis_is_log_on_a_wide_range():
    """A trace whose blocks are reused up to hundreds of times (a synthetic web server) gets a log x axis with
    labelled decades; the bundled MQSim trace (at most 4 accesses per block) keeps its linear one."""
    at = AppTest.from_file(str(VIEWS / "trace_explorer.py"), default_timeout=300).run()
    assert not at.exception
    reuse, xs = _reuse_chart(at)
    assert max(xs) <= 50 and reuse["layout"]["xaxis"].get("type") in (None, "linear", "-")
    at.session_state["tx.trace_source"] = "synthetic"
    at.session_state["tx.preset"] = "web-server"
    at.session_state["tx.n_requests"] = 20_000
    at.run()
    assert not at.exception
    reuse, xs = _reuse_chart(at)
    assert max(xs) > 50 and reuse["layout"]["xaxis"]["type"] == "log"


def test_file_cache_error_summary_names_fields_by_their_labels():
    at = AppTest.from_file(str(VIEWS / "file_cache_sim.py"), default_timeout=300)
    at.session_state["fcs.n_requests"] = 5000
    at.session_state["fcs.n_sizes"] = 3
    at.run()
    at.text_input(key="fcs.n_requests").set_value("50").run()
    errors = [e.value.replace("\\", "") for e in at.error]
    summary = next(e for e in errors if "Some inputs are not applied" in e)
    assert "**Requests**" in summary and "n requests" not in summary and "n_requests" not in summary, summary


def test_validation_rerun_progress_names_each_claim():
    from models.validation import select_claims

    src = (VIEWS / "validation.py").read_text()
    ns: dict = {}
    start = src.index("def claim_progress_text")
    exec(src[start:src.index("\n\n\n", start)], ns)
    c = next(c for c in select_claims(None) if c.page)
    text = ns["claim_progress_text"](3, 150, c)
    assert text == f"claim 3 of 150: {c.claim_id} ({c.page} page)"
    assert "show_after_s=0.0" in src and "claim_progress_text(k, n, c)" in src


def test_progress_bar_shows_its_detail():
    from streamlit.testing.v1 import AppTest as T

    def script():
        from app.components.progress import progress_bar

        with progress_bar("Working", show_after_s=0.0, min_interval_s=0.0) as report:
            report(0.5, "claim 1 of 2: x")
            import time

            time.sleep(0.2)

    at = T.from_function(script, default_timeout=60).run()
    assert not at.exception


def test_planner_page_says_why_a_role_is_far_from_the_paper():
    at = AppTest.from_file(str(VIEWS / "planner.py"), default_timeout=600)
    at.session_state["plan.library"] = ["lackey:xz"]
    at.session_state["plan.devices"] = ["pcm-samsung-20nm"]
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    md = "\n".join(m.value for m in at.markdown).replace("\\", "")
    assert "Far from the paper" in md and "Seed 002 (002-fig11-pcm-63.8)" in md
    assert "of this trace's references fault" in md and "footprint in DRAM" in md
    caps = "\n".join(c.value for c in at.caption)
    assert "no seed paper reports this role's quantity" in caps  # paging: nothing to compare with
