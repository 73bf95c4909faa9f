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


@pytest.mark.parametrize("argv, words", [
    (["--policy", "fifo", "--method", "shards"], "exact or minisim"),
    (["--by", "bytes", "--policy", "clock"], "policy lru with method exact or shards"),
    (["--by", "bytes", "--method", "minisim"], "policy lru with method exact or shards"),
    (["--rate", "0.1"], "--rate applies"),
    (["--method", "minisim", "--rate", "1.5"], "--rate"),
    (["--policy", "arc"], "lru, fifo, clock, ac"),
    (["--method", "magic"], "exact, shards, minisim"),
    (["--by", "objects"], "--by"),
    (["--shards", "0.1", "--method", "minisim"], "--shards"),
    (["--method", "minisim", "--max-samples", "10"], "--max-samples"),
])
def test_unsupported_combinations(run_cli, argv, words):
    rc, _, err = run_cli("mrc", "mqsim:tpcc-small", *argv)
    assert rc == 2 and words in err, err
