"""``pcm-planner plan`` on the fixture files the planner page's browser test uploads (tests/fixtures/plan/)."""

import json

import pandas as pd
import pytest

from tests import ROOT

FIX = ROOT / "tests" / "fixtures" / "plan"
COLUMNS = ["workload", "role", "device", "baseline", "metric", "unit", "value", "p5", "p95", "verdict", "reason"]


@pytest.fixture(scope="module")
def written(run_cli, tmp_path_factory):
    d = tmp_path_factory.mktemp("plan")
    out = {"csv": d / "p.csv", "html": d / "p.html", "pdf": d / "p.pdf"}
    rc, stdout, err = run_cli("plan", "--block-trace", FIX / "small_msr.csv", "--mem-trace", FIX / "small_lackey.txt",
                              "--name", "my msr", "--name", "my app",
                              "--device", "pcm-samsung-20nm", "--device", "optane-dcpmm", "--uncertainty", "32",
                              "--csv", out["csv"], "--html", out["html"], "--pdf", out["pdf"])
    return rc, stdout, err, out


def test_plan_writes_csv_html_and_pdf(written):
    rc, stdout, err, out = written
    assert rc == 0, err
    assert stdout == "" and all(f"wrote {p}" in err for p in out.values())
    df = pd.read_csv(out["csv"])
    assert list(df.columns)[:11] == COLUMNS
    assert {"my msr", "my app"} <= set(df.workload)
    assert set(df.device) == {"pcm-samsung-20nm", "optane-dcpmm"}
    assert set(df[df.verdict.isin(["wins", "about the same", "loses"])].role) == {
        "file-cache", "storage", "write-cache", "paging", "memory-extension"}
    storage = df[df.role == "storage"]  # the block trace replayed on each device (issue 38 item 4)
    assert set(storage.workload) == {"my msr"} and storage.value.notna().all()
    html = out["html"].read_text()
    assert html.startswith("<!DOCTYPE html>") and "my msr" in html and "Validation status" in html
    assert out["pdf"].read_bytes().startswith(b"%PDF-")


def test_plan_prints_json_without_csv(run_cli):
    rc, stdout, err = run_cli("plan", "--filebench", FIX / "tiny.f", "--fio", FIX / "small_fio.json",
                              "--device", "pcm-samsung-20nm", "--format", "json")
    assert rc == 0, err
    rows = json.loads(stdout)
    assert {r["workload"] for r in rows} >= {"tiny", "small_fio"} and list(rows[0])[:11] == COLUMNS


def test_plan_custom_devices_from_a_csv(run_cli, tmp_path):
    from models.devices import devices_to_csv, get_device

    pcm = get_device("pcm-samsung-20nm")
    f = tmp_path / "devs.csv"
    f.write_text(devices_to_csv([pcm.with_updates(name="my-cxl", label="my CXL", kind="scm", read_latency_ns=250.0,
                                                  write_latency_ns=250.0)]))
    out = tmp_path / "o.csv"
    rc, _, err = run_cli("plan", "--fio", FIX / "small_fio.json", "--device-csv", f, "--device", "my-cxl",
                         "--device", "pcm-samsung-20nm", "--csv", out)
    assert rc == 0, err
    df = pd.read_csv(out)
    st = df[df.role == "storage"]
    assert list(st.device) == ["my-cxl", "pcm-samsung-20nm"] and st.value.notna().all()
    assert (df[df.role != "storage"].verdict == "needs data").all()


@pytest.mark.parametrize("argv, needle", [
    (["--block-trace", "no/such/file.csv", "--device", "dram"], "file.csv"),
    (["--fio", "FIX/tiny.f", "--device", "dram"], "given as a fio workload"),
    (["--block-trace", "FIX/small_msr.csv", "--device", "floppy"], "unknown device 'floppy'"),
    (["--device", "dram"], "give at least one workload"),
    (["--filebench", "FIX/tiny.f"], "give at least one --device"),
    (["--filebench", "FIX/tiny.f", "--device", "dram", "--device-csv", "FIX/small_msr.csv"], "--device-csv"),
    (["--filebench", "FIX/tiny.f", "--device", "dram", "--uncertainty", "8", "--sample-design", "lhs"], "Sobol'"),
    (["--filebench", "FIX/tiny.f", "--device", "dram", "--name", "a", "--name", "b"], "--name given 2 times"),
    (["--filebench", "FIX/tiny.f", "--device", "dram", "--price", "dram"], "--price 'dram'"),
    (["--filebench", "FIX/tiny.f", "--device", "dram", "--price", "dram=-1"], "DEVICE=USD_PER_GB"),
    (["--filebench", "FIX/tiny.f", "--device", "dram", "--price", "floppy=2"], "'floppy' is not a compared device"),
    (["--filebench", "FIX/tiny.f", "--device", "dram", "--horizon-years", "0"], "horizon_years"),
])
def test_bad_input_is_one_line_and_exit_2(run_cli, argv, needle):
    argv = [a.replace("FIX", str(FIX)) for a in argv]
    rc, stdout, err = run_cli("plan", *argv)
    assert rc == 2 and needle in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and stdout == ""


def test_a_json_that_is_not_fio_is_refused(run_cli, tmp_path):
    f = tmp_path / "x.json"
    f.write_text('{"not": "fio"}')
    rc, _, err = run_cli("plan", "--fio", f, "--device", "pcm-samsung-20nm")
    assert rc == 2 and "x.json" in err and "not a fio" in err


def test_plan_economics_columns_and_a_users_price(run_cli, tmp_path):
    """Issue 37: the economics columns after the existing ones; --price fills an unpriced device's cost."""
    out = tmp_path / "e.csv"
    rc, _, err = run_cli("plan", "--block-trace", FIX / "small_msr.csv", "--device", "pcm-samsung-20nm",
                         "--device", "optane-dcpmm", "--price", "pcm-samsung-20nm=2.5", "--module-gb", "16",
                         "--horizon-years", "3", "--csv", out)
    assert rc == 0, err
    df = pd.read_csv(out)
    assert list(df.columns)[15:] == ["capacity_GB", "price_usd_per_GB", "cost_usd", "bytes_written_per_s",
                                     "lifetime_years", "replacements", "cost_per_work_vs_baseline",
                                     "economic_verdict", "economic_reason", "method", "sample_rate"]
    ev = df[df.verdict.isin(["wins", "about the same", "loses"])]
    pcm = ev[ev.device == "pcm-samsung-20nm"]
    assert (pcm.price_usd_per_GB == 2.5).all() and (pcm.cost_usd > 0).all() and (pcm.capacity_GB % 16 == 0).all()
    assert pcm.economic_reason.str.contains("over 3 years").all()


def _assert_streamed_memory_rows_equal(got, want, n):
    """The streamed run's paging and memory-extension rows are the whole read's, but for the reason's note."""
    for role in ("paging", "memory-extension"):
        g, w = (d[d.role == role].reset_index(drop=True) for d in (got, want))
        assert len(g) == len(w) > 0, role
        assert (g.reason.str.endswith("(streamed in two passes)]")).all(), role
        assert (g.method == "exact").all() and (g.requests_used == n).all() and (g.requests_read == n).all(), role
        g["reason"] = g.reason.str.replace(" (streamed in two passes)]", "]", regex=False)
        pd.testing.assert_frame_equal(g, w)


def test_a_memory_trace_over_the_budget_is_streamed_not_refused(run_cli, run_csv):
    """Issue 41: no default --mem-refs cut; a trace longer than the budget allows to read whole is planned by reading
    it twice in chunks (its paging rows those of the whole read at a larger budget, exact), never cut silently; an
    explicit cut over the budget is still refused naming both options."""

    from models.planner.memory_read import BYTES_PER_REFERENCE
    from models.traces import load

    n = len(load(FIX / "small_lackey.txt", kind="memory"))
    small = str((n // 3) * BYTES_PER_REFERENCE)
    base = ("plan", "--mem-trace", FIX / "small_lackey.txt", "--device", "pcm-samsung-20nm", "--format", "csv")
    got, want = run_csv(*base, "--memory-budget", small), run_csv(*base)
    mem = want[want.role.isin(["paging", "memory-extension"]) & want.value.notna()]
    assert len(mem) == 2 and (mem.requests_used == n).all() and (mem.requests_read == n).all()
    _assert_streamed_memory_rows_equal(got, want, n)
    # with uncertainty bands: the memory-extension stream replays the band's samples in its second pass
    got, want = run_csv(*base, "--uncertainty", "16", "--memory-budget", small), run_csv(*base, "--uncertainty", "16")
    assert want[want.role == "memory-extension"].p_win.notna().all()
    _assert_streamed_memory_rows_equal(got, want, n)
    rc, stdout, err = run_cli(*base, "--memory-budget", small, "--mem-refs", str(n // 2))
    assert rc == 2 and stdout == ""
    assert "--memory-budget" in err and "PCM_MEMORY_BUDGET" in err and f"--mem-refs N (N at most {n // 3:,})" in err
