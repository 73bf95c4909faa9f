"""Filebench model: host storage under the emulated PCM and the kernel flusher's dirty write-back (issue 14)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.storage import workload as wf
from models.storage.filebench import parse_workload
from models.storage.workload.costs import DIRTY_BACKGROUND_RATIO, DIRTY_EXPIRE_S, DIRTY_WRITEBACK_S

E = DIRTY_EXPIRE_S + DIRTY_WRITEBACK_S / 2  # a page's dirty episode [s]


def test_kernel_defaults_are_the_documented_ones():
    # Documentation/admin-guide/sysctl/vm.rst: 10 %, 3000 cs, 500 cs
    assert (DIRTY_BACKGROUND_RATIO, DIRTY_EXPIRE_S, DIRTY_WRITEBACK_S) == (10.0, 30.0, 5.0)


@given(r=st.floats(0, 1e10), m=st.floats(1e6, 1e12), run=st.floats(1, 1e4))
def test_writeback_share_without_absorption_is_the_closed_form(r, m, run):
    # every page new (F infinite), no log: the expired share (R - E)/R or, above the background threshold
    # B, all but B -- whichever is larger, clipped to [0, 1]
    B = DIRTY_BACKGROUND_RATIO / 100 * m
    expect = max(0.0, (run - E) / run, 1 - B / (r * run) if r > 0 else 0.0)
    assert wf.writeback_share(r, m, run) == pytest.approx(min(1.0, expect), rel=1e-9, abs=1e-9)


@settings(max_examples=60)
@given(r=st.floats(0, 1e10), rl=st.floats(0, 1e10), F=st.floats(1e3, 1e13), m=st.floats(1e6, 1e12),
       run=st.floats(1, 1e4), k=st.floats(1.0, 10.0))
def test_writeback_shares_bounds_and_directions(r, rl, F, m, run, k):
    ff, fl = wf.writeback_shares(r, rl, F, m, run)
    assert 0 <= ff <= fl <= 1  # rewritten pages can only be absorbed, log appends never
    # a longer run writes a larger share (more of the data has expired)
    ff2, fl2 = wf.writeback_shares(r, rl, F, m, run * k)
    assert fl2 >= fl - 1e-12 and ff2 >= ff - 1e-12
    # writes spread over more bytes are rewritten less often: less is absorbed
    ff3, _ = wf.writeback_shares(r, rl, F * k, m, run)
    assert ff3 >= ff - 1e-12


def test_writeback_shares_absorption_by_hand():
    # 16 MB of files rewritten at 1 MB/s, no log, 1 GB memory (B = 100 MB: never reached), 100 s run:
    # episode E = 32.5 s, a byte is rewritten every F / r = 16 s, share written = F / (F + r E)
    F, r = 16e6, 1e6
    ff, fl = wf.writeback_shares(r, 0.0, F, 1e9, 100.0)
    assert fl == pytest.approx(1 - E / 100, rel=1e-12)
    assert ff == pytest.approx((1 - E / 100) * F / (F + r * E), rel=1e-12)


def test_writeback_shares_reject_bad_input():
    with pytest.raises(ValueError, match="rate_Bps"):
        wf.writeback_shares(-1.0, 0.0, 1e6, 1e9)
    with pytest.raises(ValueError, match="footprint_bytes"):
        wf.writeback_shares(1.0, 0.0, 0.0, 1e9)


_READ_ONLY = """
define fileset name=fs,path=/tmp,size=64k,entries=1000,prealloc
define process name=p,instances=1
{
  thread name=t,memsize=1m,instances=4
  {
    flowop openfile name=open1,filesetname=fs,fd=1
    flowop readwholefile name=read1,fd=1,iosize=16k
    flowop closefile name=close1,fd=1
    flowop statfile name=stat1,filesetname=fs
  }
}
"""


@pytest.mark.parametrize("config", ["hdd", "ssd", "pcm-hdd", "pcm-ssd", "pcm-dram"])
def test_read_only_workload_pays_no_write_back(config):
    w = parse_workload(_READ_ONLY, name="ro")
    d = wf.flowop_demands(w, config)
    cols = ["writeback_device_ns", "writeback_host_ns", "writeback_bytes", "writeback_log_device_ns",
            "writeback_log_host_ns", "writeback_log_bytes"]
    assert (d[cols].to_numpy() == 0).all()
    a = wf.evaluate(dataclasses.replace(w, runtime_s=10.0), config, threads=4)
    b = wf.evaluate(dataclasses.replace(w, runtime_s=3600.0), config, threads=4)
    np.testing.assert_array_equal(a.curve.ops_per_s, b.curve.ops_per_s)  # the flusher has nothing to do


@pytest.mark.parametrize("personality", wf.PERSONALITIES)
def test_pcm_dram_ssd_hdd_order(personality):
    # Same guest (ext4-DAX on a vPCM in a VM), only the host device under the vPCM file differs: its reads
    # (host-memory misses) and the host flusher's write-back cost more on slower host storage, never less.
    ops = {c: wf.evaluate(wf.paper_workload(personality), c).ops_per_s for c in ("pcm-dram", "pcm-ssd", "pcm-hdd")}
    # (each comparison within 1e-9 relative: a chained `a >= b * t >= c * t` would compare b and c exactly)
    assert ops["pcm-dram"] >= ops["pcm-ssd"] * (1 - 1e-9), ops
    assert ops["pcm-ssd"] >= ops["pcm-hdd"] * (1 - 1e-9), ops


@pytest.mark.parametrize("personality", ["fileserver", "varmail"])
def test_slower_host_device_is_never_faster(personality):
    cfg = wf.get_config("pcm-hdd")
    h = cfg.host_device
    slow = h.model_copy(update={"read_latency_ns": 2 * h.read_latency_ns, "write_latency_ns": 2 * h.write_latency_ns,
                                "read_bandwidth_MBps": h.read_bandwidth_MBps / 2,
                                "write_bandwidth_MBps": h.write_bandwidth_MBps / 2,
                                **({"avg_seek_ns": 2 * h.avg_seek_ns} if h.avg_seek_ns else {})})
    w = wf.paper_workload(personality, threads=16)
    fast_r = wf.evaluate(w, cfg)
    slow_r = wf.evaluate(w, wf.get_config(cfg, host_device=slow))
    assert (slow_r.demands.host_ns >= fast_r.demands.host_ns).all()
    assert (slow_r.demands.writeback_host_ns >= fast_r.demands.writeback_host_ns).all()
    assert (slow_r.curve.ops_per_s <= fast_r.curve.ops_per_s * (1 + 1e-9)).all()


def test_guest_fsync_does_not_clean_host_pages():
    # varmail fsyncs every append: nothing is left to the guest flusher on the page-cached HDD, but on the
    # emulated PCM the same bytes are dirty host pages of the vPCM file
    hdd = wf.flowop_demands(wf.paper_workload("varmail"), "hdd")
    pcm = wf.flowop_demands(wf.paper_workload("varmail"), "pcm-hdd")
    assert hdd["writeback_bytes"].sum() == 0
    written = pcm.loc[pcm.category == "write", "bytes"].sum()
    assert pcm["writeback_bytes"].sum() == pytest.approx(written, rel=1e-12)
    assert math.isclose(pcm["writeback_device_ns"].sum(), 0.0)  # nothing on the (DRAM) vPCM device itself
