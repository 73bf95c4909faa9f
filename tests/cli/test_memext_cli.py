"""``pcm-planner memext``: columns, devices, bad input, bundled traces (seed 002 §5.2-6)."""

from __future__ import annotations


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
                                   "full_misses,partial_misses,writebacks,time_ns,slowdown")
