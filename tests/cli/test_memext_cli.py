"""``pcm-planner memext``: columns, devices, bad input, bundled traces (seed 002 §5.2-6)."""

from __future__ import annotations

import pytest


def _lackey(path):
    lines = []
    for _ in range(3):
        for p in range(200):
            for k in range(4):
                lines.append(f" {'S' if p >= 150 else 'L'} {0x10000000 + p * 4096 + k * 512:08x},8")
        lines.append("I  04001000,4")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_cli_memext(tmp_path, run_cli):
    f = _lackey(tmp_path / "t.lackey")
    rc, out, err = run_cli("memext", f, "--dram-frac", "0.25", "--device", "pcm", "flash")
    assert rc == 0, err
    out = out.splitlines()
    head = out[0].split(",")
    assert {"device", "dram_frac", "faults", "slowdown"} <= set(head) and len(out) == 3
    rows = [dict(zip(head, x.split(","), strict=True)) for x in out[1:]]
    assert [r["device"] for r in rows] == ["pcm-memext", "nand-flash"]
    assert rows[0]["faults"] == rows[1]["faults"] == "400"  # 3 sweeps of 200 pages, DRAM 50 pages: 2 x 200 refaults
    assert float(rows[1]["slowdown"]) > float(rows[0]["slowdown"]) > 1
    rc, _, err = run_cli("memext", f, "--device", "tape")
    assert rc == 2 and "unknown device" in err
    rc, _, _ = run_cli("memext", tmp_path / "missing.lackey")
    assert rc == 2
    # a bundled trace by its short name honours --max-requests (it used to run all 5M references)
    rc, out, err = run_cli("memext", "sqlite", "--max-requests", "1000", "--dram-frac", "0.25", "--device", "pcm")
    assert rc == 0, err
    assert out.splitlines()[1].split(",")[head.index("references")] == "1000"


def test_cli_memext_columns_contract(tmp_path, run_cli):
    rc, out, err = run_cli("memext", _lackey(tmp_path / "t.lackey"), "--policy", "age")
    assert rc == 0, err
    assert out.splitlines()[0] == ("trace,device,dram_frac,dram_pages,footprint_pages,references,faults,"
                                   "full_misses,partial_misses,writebacks,time_ns,slowdown,bound,base_ns_per_ref")


def test_cli_memext_measured_defaults_and_paper_fault_cost(tmp_path, run_cli):
    import io

    import pandas as pd

    from models.memory.measured import ns_per_ref
    from models.provenance import param

    f = _lackey(tmp_path / "t.lackey")
    runs = {}
    for extra in ([], ["--fault-cost", "paper"], ["--fault-overhead-ns", "0"], ["--eviction-buffer-pages", "0"]):
        rc, out, err = run_cli("memext", f, "--device", "pcm", *extra)
        assert rc == 0, err
        runs[" ".join(extra)] = pd.read_csv(io.StringIO(out)).iloc[0]
    d, paper, zero = runs[""], runs["--fault-cost paper"], runs["--fault-overhead-ns 0"]
    assert d["base_ns_per_ref"] == param("memext.base_ns_per_ref").value  # a file: the registry median
    assert d["faults"] == paper["faults"] == zero["faults"] == 400 and d["bound"] in ("fault", "bandwidth", "compute")
    # with microsecond fault costs both runs are fault-bound: their times differ by faults x the difference
    meas, pap = param("memext.fault_overhead_ns").value, param("memext.fault_overhead_paper_ns").value
    assert d["bound"] == paper["bound"] == "fault"
    assert d["time_ns"] - paper["time_ns"] == pytest.approx(400 * (meas - pap), rel=1e-9)
    assert zero["time_ns"] < min(d["time_ns"], paper["time_ns"])
    # a bundled trace of a timed program uses its own measured time base
    rc, out, err = run_cli("memext", "lulesh", "--max-requests", "20000", "--device", "pcm")
    assert rc == 0, err
    assert pd.read_csv(io.StringIO(out))["base_ns_per_ref"].iloc[0] == pytest.approx(ns_per_ref("lulesh"))
    rc, _, err = run_cli("memext", f, "--eviction-buffer-pages", "-1")
    assert rc == 2 and "--eviction-buffer-pages" in err
