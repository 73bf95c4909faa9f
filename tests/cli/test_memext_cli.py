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


def _frame(run_cli, *args):
    import io

    import pandas as pd

    rc, out, err = run_cli("memext", *args)
    assert rc == 0, err
    return pd.read_csv(io.StringIO(out))


def test_cli_memext_prefetch_submit_option(tmp_path, run_cli):
    """--prefetch-submit (issue 39): every-fault submits on every fault with no prefetch in progress (more
    submissions than confirmed strides on a trace with few confirmations); each row equals the model's run;
    the column is appended only when the option is given."""
    from models.memory import memory_extension as me
    from models.traces import load

    f = _lackey(tmp_path / "t.lackey")
    base = ["--device", "pcm", "--prefetch-depth", "2"]
    default = _frame(run_cli, f, *base)
    conf = _frame(run_cli, f, *base, "--prefetch-submit", "confirmed")
    every = _frame(run_cli, f, *base, "--prefetch-submit", "every-fault")
    assert "prefetch_submit" not in default.columns
    assert list(every.columns) == [*default.columns, "prefetch_submit"]
    assert conf.drop(columns="prefetch_submit").equals(default)
    stream = me.page_stream(load(str(f), kind="memory"))
    for df, mode in ((conf, "confirmed"), (every, "every-fault")):
        r = me.simulate_memext(stream, me.MemExtConfig(dram_frac=0.25, device="pcm-memext", prefetch_depth=2,
                                                       prefetch_submit=mode))
        assert df["prefetch_submit"].iloc[0] == mode
        assert df["faults"].iloc[0] == r.faults and df["time_ns"].iloc[0] == pytest.approx(r.time_ns, rel=1e-9)
    assert every["time_ns"].iloc[0] != pytest.approx(conf["time_ns"].iloc[0], rel=1e-12)


def test_cli_memext_mfwr_options(tmp_path, run_cli):
    """--mfwr charges the measured MFWR cost per written page, --mfwr-ns another one; with synchronous
    write-back every write-back stalls that long more (the model's time); bad values name the option."""
    from models.provenance import param

    f = _lackey(tmp_path / "t.lackey")
    base = ["--device", "pcm", "--writeback", "sync"]
    off = _frame(run_cli, f, *base)
    on = _frame(run_cli, f, *base, "--mfwr")
    own = _frame(run_cli, f, *base, "--mfwr-ns", "20000")
    assert "mfwr_ns" not in off.columns and list(on.columns) == [*off.columns, "mfwr_ns"]
    mf = param("memext.mfwr_ns_per_page").value
    assert on["mfwr_ns"].iloc[0] == mf and own["mfwr_ns"].iloc[0] == 20000
    wb = int(off["writebacks"].iloc[0])
    assert wb > 0 and on["faults"].iloc[0] == off["faults"].iloc[0]
    assert on["time_ns"].iloc[0] - off["time_ns"].iloc[0] == pytest.approx(wb * mf, rel=1e-9)
    assert own["time_ns"].iloc[0] - off["time_ns"].iloc[0] == pytest.approx(wb * 20000, rel=1e-9)
    for bad in ("-1", "1e9"):
        rc, _, err = run_cli("memext", f, "--mfwr-ns", bad)
        assert rc == 2 and "--mfwr-ns" in err
