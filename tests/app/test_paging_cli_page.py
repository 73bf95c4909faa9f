"""`pcm-planner amat` (column contract, trace sources, errors) and the Memory / paging page (AppTest)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from models.traces import bundled_traces, load
from models.traces.formats import save_memtrace_npz

ROOT = Path(__file__).resolve().parents[2]
COLS = ["page_size", "tlb_miss_rate", "fault_rate", "t_addr_ns", "t_data_ns", "amat_ns"]


def test_amat_bundled_trace_columns_contract(run_cli):
    rc, out, err = run_cli("amat", "sqlite", "--max-requests", "50000", "--latency-multiple", "100")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    assert list(df.columns) == COLS
    assert df["page_size"].tolist() == [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 2097152]
    assert ((df["tlb_miss_rate"] >= 0) & (df["tlb_miss_rate"] <= 1)).all()
    assert np.allclose(df["t_addr_ns"] + df["t_data_ns"], df["amat_ns"])
    # TLB miss rate falls as pages grow (same 64-entry TLB covers more memory)
    assert df["tlb_miss_rate"].iloc[0] > df["tlb_miss_rate"].iloc[-2]


def test_amat_fault_model_option(run_cli):
    from models.memory import paging as pg

    got = {}
    for fm in ("latency", "transfer"):
        rc, out, err = run_cli("amat", "sqlite", "--max-requests", "20000", "--latency-multiple", "100",
                               "--page-sizes", "512,4k", "--fault-model", fm)
        assert rc == 0, err
        got[fm] = pd.read_csv(io.StringIO(out))
        assert list(got[fm].columns) == COLS
    # same TLB and fault rates; only the fault service time differs, by the formula of each model
    assert got["latency"][["tlb_miss_rate", "fault_rate"]].equals(got["transfer"][["tlb_miss_rate", "fault_rate"]])
    s = pg.storage_from_multiple(100.0)
    d = (pg.fault_service_ns([512, 4096], s, fault_model="transfer") - pg.fault_service_ns([512, 4096], s))
    assert np.allclose(got["transfer"]["amat_ns"] - got["latency"]["amat_ns"], got["latency"]["fault_rate"] * d)
    with pytest.raises(SystemExit):  # argparse rejects the choice and names the option
        run_cli("amat", "sqlite", "--fault-model", "both")


def test_amat_options_and_lackey_file(tmp_path, run_cli):
    # a small lackey text file: a loop over 40 KiB with stores
    lines = ["==1== Lackey"]
    for r in range(20):
        for a in range(0, 40960, 64):
            lines.append(f" {'S' if r % 2 else 'L'} {0x10000000 + a:08x},8")
            lines.append(f"I  {0x400000 + (a & 255):08x},4")
    p = tmp_path / "loop.lackey"
    p.write_text("\n".join(lines) + "\n")
    rc, out, err = run_cli("amat", str(p), "--page-sizes", "512,4k,64k", "--tlb-entries", "4", "--memory-frac", "2",
                           "--storage-latency-ns", "5000")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    assert df["page_size"].tolist() == [512, 4096, 65536]
    # 80 KiB of memory holds the 40 KiB footprint at every page size: compulsory faults only
    n = 20 * 640
    assert df["fault_rate"].tolist() == pytest.approx([80 / n, 10 / n, 1 / n])
    # with 40 KiB of memory a 64 KiB page cannot be held at all: every reference faults
    rc, out, _ = run_cli("amat", str(p), "--page-sizes", "4k,64k", "--memory-frac", "1")
    assert pd.read_csv(io.StringIO(out))["fault_rate"].tolist() == pytest.approx([10 / n, 1.0])
    rc, out, _ = run_cli("amat", str(p), "--device", "optane-dcpmm", "--memory-mb", "0.01", "--format", "json")
    assert rc == 0
    assert len(json.loads(out)) == 9


def test_amat_npz_file(tmp_path, run_cli):
    t = load("gcc", max_requests=20_000)
    f = save_memtrace_npz(tmp_path / "g.npz", t.address, t.kind, t.size, {"program": "test"})
    rc, out, err = run_cli("amat", str(f), "--latency-multiple", "1", "--page-sizes", "4096")
    assert rc == 0, err
    rc2, out2, _ = run_cli("amat", "gcc", "--max-requests", "20000", "--latency-multiple", "1", "--page-sizes", "4096")
    assert out == out2


@pytest.mark.parametrize("argv, msg", [
    (["amat", "nope-trace"], "bundled memory traces: " + ", ".join(bundled_traces("memory"))),
    (["amat", "mqsim:tpcc-small"], "needs a memory-reference (lackey) trace"),
    (["amat", "sqlite", "--page-sizes", "3000"], "page_sizes_bytes"),
    (["amat", "sqlite", "--tlb-entries", "0"], "tlb_entries"),
    (["amat", "sqlite", "--device", "floppy"], "floppy"),
    (["amat", "sqlite", "--memory-frac", "-1"], "memory_fraction"),
    (["amat", "sqlite", "--storage-bandwidth-MBps", "10"], "storage_bandwidth_MBps needs storage_latency_ns"),
])
def test_amat_bad_input_is_a_clean_error(argv, msg, run_cli):
    rc, out, err = run_cli(*argv)
    assert rc == 2
    assert msg in err
    assert "Traceback" not in err


def test_amat_bad_lackey_line_names_the_line(tmp_path, run_cli):
    p = tmp_path / "bad.lackey"
    p.write_text(" L 0400,8\n S zz,8\n")
    rc, _, err = run_cli("amat", str(p))
    assert rc == 2
    assert "line 2" in err


# ----------------------------------------------------------------------------- page
def _page(**state):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app" / "views" / "paging.py"), default_timeout=180)
    for k, v in state.items():
        at.session_state[k] = v
    return at


def test_paging_page_runs_with_a_synthetic_trace():
    at = _page(**{"pg.trace_source": "synthetic", "pg.mem_refs": 20_000, "pg.max_refs": 20_000})
    at.run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert any("best page" in i.value for i in at.info)
    assert len(at.get("plotly_chart")) >= 5
    labels = [b.label for b in at.get("download_button")]
    assert sum("CSV" in lab for lab in labels) >= 6


def test_paging_page_bundled_trace_and_device():
    state = {"pg.max_refs": 30_000, "pg.storage_mode": "device", "pg.device": "optane-dcpmm",
             "pg.trace_source": "bundled", "pg.trace_name": "lackey:sqlite"}
    at = _page(**state)
    at.run()
    assert not at.exception, at.exception
    assert "Memory trace" in [r.label for r in at.radio]
    assert not at.error, [e.value for e in at.error]
    assert any("optane-dcpmm" in i.value for i in at.info)
    assert any("30,000" in m.value for m in at.metric)


def test_paging_page_latency_change_changes_amat_table():
    at = _page(**{"pg.max_refs": 30_000, "pg.trace_source": "bundled", "pg.trace_name": "lackey:xz",
                  "pg.storage_mode": "multiple", "pg.latency_multiple": 1.0})
    at.run()
    assert not at.exception, at.exception
    before = at.dataframe[0].value.copy()
    at.number_input(key="pg.latency_multiple").set_value(1000.0).run()
    assert not at.exception
    after = at.dataframe[0].value
    col = next(c for c in before.columns if "amat" in c.lower())
    assert (after[col].to_numpy() > before[col].to_numpy()).all()  # slower storage, higher AMAT at every page size


def test_paging_page_bad_link_parameter_is_named_and_ignored():
    at = _page(**{"pg.trace_source": "synthetic", "pg.mem_refs": 5000, "pg.max_refs": 5000})
    at.query_params["tlb_entries"] = "0"
    at.run()
    assert not at.exception
    assert any("tlb_entries" in w.value for w in at.warning)
    assert int(at.session_state["pg.tlb_entries"]) == 64  # the default stays (a whole-number text input)
