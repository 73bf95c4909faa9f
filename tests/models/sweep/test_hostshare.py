"""Issue 19: a trace's block split shared by the sweep workers of one host (models.sweep.hostshare) --
the mapped split equals the one split here, array for array and dtype for dtype; a worker that finds
it does not load the trace; anything missing, partial or too large falls back to loading."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from models.sweep import hostshare, parse_spec
from models.sweep import registry as reg
from models.traces import load
from models.traces.blocks import split_blocks

SPEC = ('[[traces]]\nname="t"\nsource="synthetic:exchange"\noptions={ n_requests = 4000, seed = 31 }\n'
        '[[models]]\nmodel="cache_sim"\ngrid={ policy=["lru"], cache_blocks=[8] }\n')


@pytest.fixture(autouse=True)
def share_dir(tmp_path, monkeypatch):
    d = tmp_path / "share"
    monkeypatch.setenv("PCM_PLANNER_SHARE_DIR", str(d))
    return d


def _fields(acc):
    return dict(block=acc.block, is_write=acc.is_write, lbn=acc.lbn, request=acc.request, device=acc.device)


def _assert_same(got, want):
    assert (got.n_unique, got.block_size, got.n_requests, got.meta) == \
        (want.n_unique, want.block_size, want.n_requests, want.meta)
    for name, a in _fields(want).items():
        b = getattr(got, name)
        assert b.dtype == a.dtype, name
        np.testing.assert_array_equal(b, a, err_msg=name)


def test_a_published_split_maps_back_equal_and_writable(share_dir):
    acc = split_blocks(load("synthetic:exchange", n_requests=3000, seed=5), 4096)
    token = hostshare.new_token()
    assert hostshare.lookup(token, "k-4096") is None
    assert hostshare.publish(token, "k-4096", acc)
    got = hostshare.lookup(token, "k-4096")
    _assert_same(got, acc)
    assert type(got.block) is np.ndarray and got.block.flags.writeable  # the kernels' compiled array type
    got.block[0] = -7  # copy-on-write: the shared file is not changed
    assert hostshare.lookup(token, "k-4096").block[0] == acc.block[0]
    assert hostshare.has_split(token, "k") and not hostshare.has_split(token, "x")
    assert hostshare.publish(token, "k-4096", acc)  # already there: one folder
    assert [p.name for p in (share_dir / token).iterdir()] == ["k-4096"]
    hostshare.drop(token)
    assert not (share_dir / token).exists() and hostshare.lookup(token, "k-4096") is None


def test_a_partial_or_foreign_folder_is_no_split(share_dir):
    acc = split_blocks(load("synthetic:fin1", n_requests=500, seed=1), 4096)
    token = hostshare.new_token()
    assert hostshare.publish(token, "k-1", acc)
    (share_dir / token / "k-1" / "meta.json").unlink()
    assert hostshare.lookup(token, "k-1") is None
    (share_dir / token / "k-2").mkdir()
    (share_dir / token / "k-2" / "meta.json").write_text("{not json")
    assert hostshare.lookup(token, "k-2") is None
    with pytest.raises(ValueError, match="alphanumeric"):
        hostshare.lookup("../x", "k")


def test_a_split_larger_than_half_the_free_space_is_not_published(share_dir, monkeypatch):
    import shutil

    acc = split_blocks(load("synthetic:fin1", n_requests=500, seed=1), 4096)
    monkeypatch.setattr(shutil, "disk_usage", lambda p: shutil._ntuple_diskusage(10**9, 10**9 - 100, 100))
    token = hostshare.new_token()
    assert not hostshare.publish(token, "k-1", acc)
    assert hostshare.lookup(token, "k-1") is None
    assert not any((share_dir / token).iterdir())  # no temporary folder left


def test_a_stale_sweep_folder_is_removed_by_the_next_publish(share_dir):
    old = share_dir / "0ld"
    (old / "k-1").mkdir(parents=True)
    t = time.time() - hostshare.STALE_S - 60
    os.utime(old, (t, t))
    acc = split_blocks(load("synthetic:fin1", n_requests=500, seed=1), 4096)
    token = hostshare.new_token()
    assert hostshare.publish(token, "k-1", acc)
    assert not old.exists() and (share_dir / token / "k-1").is_dir()


def _forget_this_process():
    """What a second worker process has: nothing loaded or split."""
    for f in (reg._trace_cached, reg._blocks_kept, reg._blocks_shared):
        f.cache_clear()


def test_a_second_worker_maps_the_split_and_does_not_load_the_trace(share_dir):
    entry = parse_spec(SPEC).traces[0]
    key = entry.model_dump_json()
    token = hostshare.new_token()
    _forget_this_process()
    want = split_blocks(load("synthetic:exchange", n_requests=4000, seed=31), 4096)
    with reg.sharing(token):  # worker A: loads, splits and publishes
        a = reg.TraceContext(entry)
        assert a.kind == "block"
        _assert_same(a.blocks(4096), want)
    loads, mapped = reg.load_counts().get(key, 0), reg.shared_counts().get(key, 0)
    _forget_this_process()
    with reg.sharing(token):  # worker B: the kind and the split from A's, no load
        b = reg.TraceContext(entry)
        assert b.kind == "block"
        _assert_same(b.blocks(4096), want)
        assert b.blocks(4096) is b.blocks(4096)
    assert reg.load_counts().get(key, 0) == loads and reg.shared_counts()[key] == mapped + 1
    with reg.sharing(token):  # another block size is not shared: split here
        _assert_same(reg.TraceContext(entry).blocks(512), split_blocks(want_trace := load(
            "synthetic:exchange", n_requests=4000, seed=31), 512))
        assert len(want_trace)
    assert reg.load_counts()[key] == loads + 1
    reg.end_share(token)
    assert not (share_dir / token).exists()
    _forget_this_process()
    with reg.sharing(None):  # without a token nothing is looked up
        _assert_same(reg.TraceContext(entry).blocks(4096), want)
    assert reg.load_counts()[key] == loads + 2
