"""``pcm-planner writecache``: column contract, policy order, LRU granularity, bad input."""

from __future__ import annotations

import pytest


def test_cli_writecache(run_cli, tmp_path):
    rc, out, err = run_cli("writecache", "mqsim:tpcc-small", "--policy", "halo", "--policy", "lru", "--policy", "none",
                           "--cache-mb", "4")
    assert rc == 0, err
    out = out.strip().splitlines()
    assert out[0] == "policy,cache_mb,traffic_rate,mean_lbn_distance,hdd_throughput_mbps,exec_time_s,dram_bytes"
    assert [r.split(",")[:2] for r in out[1:]] == [["halo", "4"], ["lru", "4"], ["none", "0"]]
    rc, block, err = run_cli("writecache", "mqsim:tpcc-small", "--policy", "lru", "--cache-mb", "4",
                             "--lru-granularity", "block")
    assert rc == 0, err
    block = block.strip().splitlines()[1].split(",")
    sector = out[2].split(",")  # the default LRU: sector granularity
    assert float(sector[2]) < float(block[2])  # tpcc-small: 57 % partial written blocks, fills cost traffic
    with pytest.raises(SystemExit):
        run_cli("writecache", "mqsim:tpcc-small", "--lru-granularity", "page")
    assert run_cli("writecache", "mqsim:tpcc-small", "--cache-mb", "4", "--drive", "nope")[0] == 2
    assert run_cli("writecache", tmp_path / "none.csv", "--cache-mb", "4")[0] == 2
    tiny = tmp_path / "tiny.csv"
    tiny.write_text("time,op,offset,size\n0,W,0,4096\n1,W,4096,4096\n")
    rc, _, err = run_cli("writecache", tiny, "--trace-format", "csv", "--size-col", "size", "--offset-col", "offset")
    assert rc == 2 and "give the cache sizes" in err  # default sizes would hold < 2 blocks
    rc, _, err = run_cli("writecache", tiny, "--trace-format", "csv")  # no column mapping
    assert rc == 2 and "needs a column mapping" in err
    rc, _, err = run_cli("writecache", "mqsim:tpcc-small", "--cache-mb", "1e30")
    assert rc == 2 and "cache_mb must be a finite number" in err
    with pytest.raises(SystemExit) as e:  # argparse: the option reads no "inf"
        run_cli("writecache", "mqsim:tpcc-small", "--cache-mb", "inf")
    assert e.value.code == 2


def test_cli_writecache_default_sizes_are_the_papers_scaled(run_cli):
    import io

    import pandas as pd

    from models.storage import write_cache as wc
    from models.traces import load

    rc, out, err = run_cli("writecache", "mqsim:tpcc-small")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    req = wc.prepare_requests(load("mqsim:tpcc-small"))
    assert (df.policy == "halo").all()
    assert df.cache_mb.tolist() == pytest.approx(wc.scaled_cache_sizes_mb(wc.footprint_bytes(req)).tolist(), rel=1e-9)


def test_cli_writecache_default_lru_never_moves_more_than_no_cache_on_writes(run_cli, tmp_path):
    """Issue 14: on a write-only trace of partial-block writes the default LRU's traffic rate is at most
    no cache's (1); the block-fill LRU (an option) exceeds it."""
    import io

    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(3)
    off = rng.integers(0, 4000, 300) * 512
    rows = "\n".join(f"{k},W,{o},1024" for k, o in enumerate(off.tolist()))
    f = tmp_path / "w.csv"
    f.write_text("time,op,offset,size\n" + rows + "\n")
    common = ("writecache", f, "--trace-format", "csv", "--size-col", "size", "--offset-col", "offset",
              "--op-col", "op", "--op-map", "R=read,W=write", "--policy", "lru", "--policy", "none",
              "--cache-mb", "0.05")
    rc, out, err = run_cli(*common)
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out)).set_index("policy")
    assert df.loc["none", "traffic_rate"] == 1.0 and 0 < df.loc["lru", "traffic_rate"] <= 1.0
    rc, out, err = run_cli(*common, "--lru-granularity", "block")
    assert rc == 0, err
    assert pd.read_csv(io.StringIO(out)).set_index("policy").loc["lru", "traffic_rate"] > 1.0


def test_cli_writecache_hdd_rotation_and_drive_cache(run_cli):
    """--hdd-rotation and --drive-cache reach the model (same values as run_write_cache); the defaults are the
    model's; bad values and the generic drive's missing buffer are refused naming the option."""
    import io

    import pandas as pd

    from models.storage import write_cache as wc
    from models.traces import load

    args = ("writecache", "mqsim:tpcc-small", "--policy", "halo", "--policy", "none", "--cache-mb", "4")
    req = wc.prepare_requests(load("mqsim:tpcc-small"))

    def exec_times(*extra):
        rc, out, err = run_cli(*args, *extra)
        assert rc == 0, err
        return pd.read_csv(io.StringIO(out)).set_index("policy")["exec_time_s"]

    default = exec_times()
    assert exec_times("--hdd-rotation", "positioned", "--drive-cache", "none").equals(default)
    expected = exec_times("--hdd-rotation", "expected")
    assert expected["halo"] == pytest.approx(wc.run_write_cache(req, "halo", 4, hdd_rotation="expected").exec_time_s,
                                             rel=1e-9)
    assert expected["halo"] != pytest.approx(default["halo"], rel=1e-6)
    spec = exec_times("--drive", "ibm18es", "--drive-cache", "spec")
    none = exec_times("--drive", "ibm18es")
    assert spec["halo"] == pytest.approx(wc.run_write_cache(req, "halo", 4, drive="ibm18es",
                                                            drive_cache="spec").exec_time_s, rel=1e-9)
    assert spec["halo"] < none["halo"]
    sized = exec_times("--drive", "ibm18es", "--drive-cache", "1e6")
    assert sized["halo"] == pytest.approx(wc.run_write_cache(req, "halo", 4, drive="ibm18es",
                                                             drive_cache=1e6).exec_time_s, rel=1e-9)
    rc, _, err = run_cli(*args, "--drive-cache", "spec")  # the generic profile has no buffer of its own
    assert rc == 2 and "--drive-cache" in err and "hdd-7200" in err
    rc, _, err = run_cli(*args, "--drive", "ibm18es", "--drive-cache", "spec", "--uncertainty", "4")
    assert rc == 2 and "--drive-cache none" in err
    rc, _, err = run_cli("sensitivity", "writecache", "mqsim:tpcc-small", "--cache-mb", "4", "--hdd-rotation",
                         "expected")  # the indices' model times the stream its own way: refused, not ignored
    assert rc == 2 and "--hdd-rotation positioned" in err
    for bad in ("-1", "lots", "nan"):
        with pytest.raises(SystemExit) as e:
            run_cli(*args, "--drive-cache", bad)
        assert e.value.code == 2
    with pytest.raises(SystemExit):
        run_cli(*args, "--hdd-rotation", "clock")
