"""``pcm-planner mrc`` and ``pcm-planner cache-sim``: column contracts, agreement with the models, bad input."""

import io

import numpy as np
import pandas as pd

from models.sim import hit_ratio_curve, simulate
from models.traces import load
from models.traces.blocks import split_blocks


def test_cli_mrc_contract(run_cli):
    rc, out, err = run_cli("mrc", "mqsim:tpcc-small", "--sizes", "10,100,1000")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    assert list(df.columns) == ["cache_blocks", "hit_ratio", "byte_hit_ratio", "method"]
    acc = split_blocks(load("mqsim:tpcc-small"), 4096)
    exact = hit_ratio_curve(acc.block, sizes=[10, 100, 1000])
    np.testing.assert_allclose(df.hit_ratio, exact.hit_ratio, rtol=1e-9)
    rc, out, _ = run_cli("mrc", "mqsim:tpcc-small", "--points", "5", "--shards", "0.5")
    assert rc == 0 and len(pd.read_csv(io.StringIO(out))) == 5
    rc, _, err = run_cli("mrc", "mqsim:tpcc-small", "--sizes", "10,x")
    assert rc == 2 and "--sizes" in err
    rc, _, err = run_cli("mrc", "mqsim:tpcc-small", "--shards", "2")
    assert rc == 2 and "rate" in err


def test_cli_cache_sim_contract(run_cli):
    rc, out, err = run_cli("cache-sim", "mqsim:tpcc-small", "--policy", "clock", "--cache-blocks", "100,1000")
    assert rc == 0, err
    df = pd.read_csv(io.StringIO(out))
    for col in ("hits", "misses", "writebacks", "hit_ratio"):
        assert col in df.columns
    acc = split_blocks(load("mqsim:tpcc-small"), 4096)
    r = simulate(acc.block, 1000, "clock", is_write=acc.is_write)
    assert (df.loc[1, "hits"], df.loc[1, "writebacks"]) == (r.hits, r.writebacks)
    assert r.writebacks > 0  # the trace has writes: the dirty model is exercised
    rc, _, err = run_cli("cache-sim", "mqsim:tpcc-small", "--policy", "ac", "--cache-blocks", "-5")
    assert rc == 2 and "cache_blocks" in err
