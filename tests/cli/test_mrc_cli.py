"""``pcm-planner mrc``: --policy/--method/--rate/--by contract, columns with ``method``, clear errors."""

import io

import numpy as np
import pandas as pd
import pytest

from models.sim import simulate
from models.sim.byte_mrc import byte_mrc
from models.sim.minisim import minisim_mrc
from models.traces import load
from models.traces.blocks import split_blocks


def _csv(out):
    return pd.read_csv(io.StringIO(out))


@pytest.mark.parametrize("policy", ["lru", "fifo", "clock", "ac"])
def test_policies_exact_and_minisim(run_cli, policy):
    acc = split_blocks(load("mqsim:tpcc-small"), 4096)
    rc, out, err = run_cli("mrc", "mqsim:tpcc-small", "--policy", policy, "--sizes", "10,1000")
    assert rc == 0, err
    df = _csv(out)
    assert list(df.columns) == ["cache_blocks", "hit_ratio", "byte_hit_ratio", "method"]
    assert set(df.method) == {"exact"}
    assert df.hit_ratio.tolist() == pytest.approx([simulate(acc.block, c, policy).hit_ratio for c in (10, 1000)])
    rc, out, err = run_cli("mrc", "mqsim:tpcc-small", "--policy", policy, "--method", "minisim", "--rate", "0.5",
                           "--sizes", "10,1000", "--seed", "3")
    assert rc == 0, err
    df = _csv(out)
    assert set(df.method) == {"minisim"}
    est = minisim_mrc(acc.block, policy=policy, rate=0.5, sizes=[10, 1000], seed=3)
    assert df.hit_ratio.tolist() == pytest.approx(est.hit_ratio.tolist())


def test_shards_spellings_and_fixed_size(run_cli):
    rc, a, err = run_cli("mrc", "mqsim:tpcc-small", "--points", "5", "--shards", "0.5")
    assert rc == 0, err
    rc, b, err = run_cli("mrc", "mqsim:tpcc-small", "--points", "5", "--method", "shards", "--rate", "0.5")
    assert rc == 0 and a == b and set(_csv(a).method) == {"shards"}
    rc, out, err = run_cli("mrc", "mqsim:tpcc-small", "--points", "5", "--max-samples", "500")
    assert rc == 0, err
    assert set(_csv(out).method) == {"shards"} and len(_csv(out)) == 5


def test_by_bytes(run_cli):
    rc, out, err = run_cli("mrc", "mqsim:tpcc-small", "--by", "bytes", "--sizes", "4096,1000000,100000000")
    assert rc == 0, err
    df = _csv(out)
    assert list(df.columns) == ["cache_bytes", "hit_ratio", "byte_hit_ratio", "method"]
    t = load("mqsim:tpcc-small")
    _, ids = np.unique(np.stack([t.device.astype(np.int64), t.offset_bytes], 1), axis=0, return_inverse=True)
    ex = byte_mrc(ids.reshape(-1), t.size_bytes, capacities=[4096, 1_000_000, 100_000_000])
    assert df.hit_ratio.tolist() == pytest.approx(ex.hit_ratio.tolist())
    rc, out, err = run_cli("mrc", "mqsim:tpcc-small", "--by", "bytes", "--method", "shards", "--rate", "0.5",
                           "--points", "4", "--format", "json")
    assert rc == 0, err
    assert '"method":"shards"' in out.replace(" ", "")


def test_minisim_min_blocks(run_cli):
    rc, out, err = run_cli("mrc", "mqsim:tpcc-small", "--policy", "fifo", "--method", "minisim", "--rate", "0.1",
                           "--min-blocks", "100000", "--sizes", "10,100,1000")
    assert rc == 0, err
    df = _csv(out)
    # a floor above every scaled size runs each size at rate 1: the exact per-size simulation
    rc, out, err = run_cli("mrc", "mqsim:tpcc-small", "--policy", "fifo", "--sizes", "10,100,1000")
    assert rc == 0, err
    assert df.hit_ratio.tolist() == pytest.approx(_csv(out).hit_ratio.tolist())


def test_by_bytes_fifo_clock(run_cli):
    t = load("mqsim:tpcc-small")
    _, ids = np.unique(np.stack([t.device.astype(np.int64), t.offset_bytes], 1), axis=0, return_inverse=True)
    caps = [4096, 1_000_000, 100_000_000]
    for pol in ("fifo", "clock"):
        rc, out, err = run_cli("mrc", "mqsim:tpcc-small", "--by", "bytes", "--policy", pol, "--sizes",
                               ",".join(map(str, caps)))
        assert rc == 0, err
        df = _csv(out)
        ex = byte_mrc(ids.reshape(-1), t.size_bytes, capacities=caps, policy=pol)
        assert df.hit_ratio.tolist() == pytest.approx(ex.hit_ratio.tolist())
        assert set(df.method) == {"exact"}
    rc, out, err = run_cli("mrc", "mqsim:tpcc-small", "--by", "bytes", "--policy", "clock", "--method", "minisim",
                           "--rate", "1", "--sizes", ",".join(map(str, caps)))
    assert rc == 0, err
    df = _csv(out)
    assert set(df.method) == {"minisim"}
    ex = byte_mrc(ids.reshape(-1), t.size_bytes, capacities=caps, policy="clock")
    assert df.hit_ratio.tolist() == pytest.approx(ex.hit_ratio.tolist())  # rate 1: the exact simulation


@pytest.mark.parametrize("argv, words", [
    (["--policy", "fifo", "--method", "shards"], "exact or minisim"),
    (["--by", "bytes", "--policy", "ac"], "fifo or clock with method exact or minisim"),
    (["--by", "bytes", "--method", "minisim"], "policy lru with method exact or shards"),
    (["--by", "bytes", "--policy", "fifo", "--method", "shards"], "fifo or clock with method exact or minisim"),
    (["--rate", "0.1"], "--rate applies"),
    (["--method", "minisim", "--rate", "1.5"], "--rate"),
    (["--policy", "arc"], "lru, fifo, clock, ac"),
    (["--method", "magic"], "exact, shards, minisim"),
    (["--by", "objects"], "--by"),
    (["--shards", "0.1", "--method", "minisim"], "--shards"),
    (["--method", "minisim", "--max-samples", "10"], "--max-samples"),
    (["--min-blocks", "10"], "--min-blocks applies"),
    (["--method", "minisim", "--min-blocks", "-1"], "--min-blocks must be >= 0"),
])
def test_unsupported_combinations(run_cli, argv, words):
    rc, _, err = run_cli("mrc", "mqsim:tpcc-small", *argv)
    assert rc == 2 and words in err, err
