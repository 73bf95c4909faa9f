"""The storage role of a plan: the device as the storage of a Filebench workload or a fio job.

- Filebench ``.f``: throughput with the device as the file system's storage (ext4-DAX if
  byte-addressable, else ext4 + page cache; :func:`models.storage.workload.evaluate`), device /
  baseline (like-for-like: ext4 + page cache on a SATA SSD, seed 000) [x];
- fio job file or JSON result: time per I/O of the job's mix (:func:`models.planner.fio.fio_ns_per_io`,
  one I/O at a time), baseline (like-for-like: ``sata-ssd``) / device [x];
- block trace: the trace replayed on the device, arrivals as recorded (:mod:`models.planner.replay`:
  transfer-time service, the HDD model for catalogue HDDs, FIFO queueing), mean response time
  baseline (like-for-like: ``sata-ssd``) / device [x]; :class:`StorageReplayStream` gives the same rows from a
  trace taken chunk by chunk (issue 41), in memory bounded by the distinct blocks (the footprint).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from models.devices import DeviceProfile, get_device
from models.planner.economics import (
    BlockTraceTotals,
    block_trace_writes,
    footprint_bytes,
    role_usage,
)
from models.planner.fio import fio_ns_per_io, fio_ns_per_io_sampled, read_fio_jobs
from models.planner.paper_gap import storage_note
from models.planner.roles import LIKE_FOR_LIKE, is_volatile, role_metric
from models.planner.uncertainty import row_band
from models.planner.verdicts import (
    compare,
    describe_filebench,
    is_tie,
    plan_row,
    short_num,
    verdict_of,
)
from models.traces.block_table import SharesBlockTable

__all__ = ["filebench_rows", "fio_rows", "filebench_band_model", "block_storage_rows", "block_storage_rows_of",
           "StorageFacts", "StorageReplayStream"]


def _storage_config(dev: DeviceProfile):
    """The preset configuration of a catalogue device (its parallel units), else ext4-DAX on a
    byte-addressable device and ext4 + page cache on another, one service unit."""
    from models.storage.workload import StorageConfig, config_names, get_config

    for c in map(get_config, config_names()):
        if c.device == dev and c.host_device is None and c.virt_per_op_ns == 0:
            return c
    return StorageConfig(name=f"plan-{dev.name}"[:64], label=f"{dev.name} as the file system's storage",
                         mode="dax" if dev.byte_addressable else "pagecache", device=dev, device_servers=1)


def filebench_rows(w, devs, base, uq):
    """Storage rows of Filebench workload ``w`` for ``devs`` against ``base`` (None: like-for-like)."""
    from models.storage import workload as wf

    role = "storage"
    wl = wf.as_workload(w.source)
    feats = wf.workload_features(wl)
    if base is None:
        bcfg = wf.get_config("ssd")
        blabel = "ext4 + page cache on SATA SSD (like-for-like, seed 000)"
    else:
        bcfg = _storage_config(base)
        blabel = f"{base.name} as the file system's storage ({bcfg.mode})"
    rb = wf.evaluate(wl, bcfg, curve=False)
    usage = role_usage(feats.fileset_bytes, math.nan, math.nan,
                       "the Filebench model, which counts operations, not the bytes they write: write rate unknown")
    out = []
    for d in devs:
        if is_volatile(d):
            out.append(plan_row(w.name, role, d.name, blabel, role_metric(role, "filebench"), verdict="not applicable",
                                reason=f"not applicable: {d.name} is DRAM, volatile: it cannot hold a file system's "
                                       "data across a power loss"))
            continue
        cfg = _storage_config(d)
        r = wf.evaluate(wl, cfg, curve=False)
        v = r.ops_per_s / rb.ops_per_s
        ref = bcfg.device.name if base else "page-cached SSD"
        band = row_band(lambda cfg=cfg: filebench_band_model(wl, cfg, bcfg), uq)
        text = describe_filebench(feats, rb.hit_ratio, v, ref)
        if is_tie(v, band):
            text = text.rsplit(" -> ", 1)[0] + " -> " + compare(v, "PCM-DAX", f"{ref} (as the storage)", "faster", band)
        text = text.replace("PCM-DAX", f"{d.name} ({cfg.mode})")
        row = plan_row(w.name, role, d.name, blabel, role_metric(role, "filebench"), v, verdict_of(v, band), text,
                       band, usage)
        row["paper_note"] = storage_note(d, v, bcfg.device, None, f"the Filebench workload {w.name!r}")
        out.append(row)
    return out


def filebench_band_model(wl, cfg, bcfg):
    """The Filebench adapter (:func:`models.storage.uncertainty.workload_model`): device / baseline throughput."""
    from models.storage.uncertainty import workload_model

    if cfg == bcfg:
        raise ValueError("the baseline is the device itself")
    return workload_model(wl, cfg, ref=bcfg)


def fio_rows(w, devs, base, uq):
    """Storage rows of fio workload ``w`` (job file or JSON result) for ``devs`` against ``base``."""
    from models.uncertainty import UncertainModel, Verdict, device_input

    role = "storage"
    jobs = read_fio_jobs(w.source)
    base_dev = base or get_device(LIKE_FOR_LIKE[role])
    blabel = f"{base_dev.name}" + (" (like-for-like: a SATA SSD)" if base is None else "")
    mix = ", ".join(f"{j.name}: {j.read_share:.0%} reads, {j.bs_bytes / 1024:g} KiB "
                    f"{'random' if j.random else 'sequential'}" for j in jobs[:3]) + (" ..." if len(jobs) > 3 else "")

    def mean_ns(dev):
        return float(np.mean([fio_ns_per_io(j, dev) for j in jobs]))

    tb = mean_ns(base_dev)
    out = []
    for d in devs:
        if is_volatile(d):
            out.append(plan_row(w.name, role, d.name, blabel, role_metric(role, "fio"), verdict="not applicable",
                                reason=f"not applicable: {d.name} is DRAM, volatile: it cannot be the storage a fio "
                                       "job's data must survive on"))
            continue
        t = mean_ns(d)
        v = tb / t

        def build(d=d):
            if d.name == base_dev.name:
                raise ValueError("the baseline is the device itself")
            cols = ("read_latency_ns", "write_latency_ns")
            ins = [device_input(x, c, label=f"{x.name} {c.split('_')[0]} latency") for x in (d, base_dev) for c in cols]

            def per_io(sample, x):
                return np.mean([fio_ns_per_io_sampled(j, x, sample) for j in jobs], axis=0)

            return UncertainModel("fio", "speedup", "x", tuple(ins),
                                  lambda sample: per_io(sample, base_dev) / per_io(sample, d),
                                  Verdict(1.0, False, f"{d.name} serves the job faster than {base_dev.name}"),
                                  notes=("closed form; the devices' latencies vary by their provenance",),
                                  output_label="time per I/O baseline / device")

        band = row_band(build, uq)
        reason = (f"{mix}; {short_num(t / 1e3)} us per I/O on {d.name} vs {short_num(tb / 1e3)} us on {base_dev.name}, "
                  f"one I/O at a time (queue depth not modelled) -> "
                  f"{compare(v, d.name, f'{base_dev.name} (as the storage)', 'faster', band)}")
        out.append(plan_row(w.name, role, d.name, blabel, role_metric(role, "fio"), v, verdict_of(v, band), reason,
                            band, role_usage(math.nan, math.nan, math.nan, "a fio job: no data-set size or duration "
                                             "modelled")))
    return out




def _footprint_bytes(tr, block_size: int = 4096) -> float:
    """Distinct ``block_size`` blocks of ``tr`` times the block size [bytes]: from the union of the requests'
    extents when they are large (:mod:`models.traces.extents`, never cut into blocks), else from the split."""
    from models.traces import split_blocks
    from models.traces.blocks import SPLIT_BYTES_PER_ACCESS
    from models.traces.extents import extent_pieces, use_extents

    if use_extents(tr, block_size, SPLIT_BYTES_PER_ACCESS):
        return float(extent_pieces(tr, block_size).footprint_blocks) * block_size
    return footprint_bytes(split_blocks(tr, block_size).block, block_size)


def block_storage_rows(w, tr, devs, base, uq):
    """Storage rows of block workload ``w`` (its trace ``tr``): the trace replayed on each device and on the
    baseline (like-for-like: ``sata-ssd``), mean response time baseline / device [x]
    (:func:`models.planner.replay.replay_mean_response_ns`)."""
    from models.planner.replay import replay_mean_response_ns

    op_known = getattr(tr, "op_known", True)
    n = len(tr)
    facts = None if not op_known else StorageFacts(
        n, int(np.count_nonzero(tr.is_write)), _footprint_bytes(tr), block_trace_writes(tr),
        lambda d: replay_mean_response_ns(tr, d))
    return block_storage_rows_of(w, facts, devs, base, uq)


@dataclass(frozen=True)
class StorageFacts:
    """What the block-trace storage rows read from a trace, however it was taken (whole or in chunks).

    Attributes
    ----------
    requests, writes : int
        Requests and write requests of the trace [-].
    footprint_bytes : float
        Distinct 4 KiB blocks x 4 KiB [bytes].
    writes_and_duration : tuple
        :func:`models.planner.economics.block_trace_writes` of the trace.
    replay : callable
        ``replay(device) -> (mean response, mean service)`` [ns] of the trace replayed on the device
        (:func:`models.planner.replay.replay_mean_response_ns`).
    """

    requests: int
    writes: int
    footprint_bytes: float
    writes_and_duration: tuple
    replay: Callable


def block_storage_rows_of(w, facts: StorageFacts | None, devs, base, uq):
    """:func:`block_storage_rows` from the trace's :class:`StorageFacts` (None: a trace whose format has no
    read/write field)."""
    from models.planner.replay import is_modelled_hdd, queue_depth

    role = "storage"
    metric = role_metric(role, "block")
    base_dev = base or get_device(LIKE_FOR_LIKE[role])
    blabel = f"{base_dev.name} replaying the same trace" + (" (like-for-like: a SATA SSD)" if base is None else "")
    if facts is None:
        return [plan_row(w.name, role, d.name, blabel, metric, verdict="needs data",
                         reason="needs data: a trace with reads/writes (this trace's format has no read/write field: "
                                "operation unknown, so the replay cannot tell read from write latencies)") for d in devs]
    n = facts.requests
    wshare = facts.writes / n if n else 0.0
    rb, sb = facts.replay(base_dev)
    q = queue_depth()
    written, dur, how = facts.writes_and_duration
    usage = role_usage(facts.footprint_bytes, written, dur, how)

    def how(d):
        return "the HDD model" if is_modelled_hdd(d) else (f"queue depth {q:g}" if d.kind != "hdd" else "queue depth 1")

    out = []
    for d in devs:
        if is_volatile(d):
            out.append(plan_row(w.name, role, d.name, blabel, metric, verdict="not applicable",
                                reason=f"not applicable: {d.name} is DRAM, volatile: it cannot be the storage a block "
                                       "trace's data must survive on"))
            continue
        r, s = facts.replay(d)
        v = rb / r if r > 0 else np.inf
        band = row_band(lambda: (_ for _ in ()).throw(ValueError("no band model for the block-trace replay")), uq)
        reason = (f"{n:,} requests, {wshare:.0%} writes replayed at their recorded arrivals: mean response "
                  f"{short_num(r / 1e3)} µs on {d.name} ({how(d)}; service {short_num(s / 1e3)} µs) vs "
                  f"{short_num(rb / 1e3)} µs on {base_dev.name} ({how(base_dev)}; service {short_num(sb / 1e3)} µs) -> "
                  f"{compare(v, d.name, f'{base_dev.name} (as the storage)', 'faster', band)}")
        row = plan_row(w.name, role, d.name, blabel, metric, v, verdict_of(v, band), reason, band, usage)
        row["paper_note"] = storage_note(d, v, base_dev, wshare, "a block trace")
        out.append(row)
    return out


class StorageReplayStream(SharesBlockTable):
    """The block-trace storage role (:func:`block_storage_rows`) over a trace taken chunk by chunk
    (:class:`~models.planner.role_stream.RoleStream`), in memory bounded by the trace's distinct blocks.

    First pass: the footprint (the distinct 4 KiB (device, block) keys, :class:`models.traces.block_table.BlockTable`)
    and the totals (requests, writes, bytes written, span). Second pass: the trace replayed on the baseline and on
    each non-volatile device (:class:`models.planner.replay.ReplayStream`: the FIFO queue's and the HDD stream's
    state carried across chunks, O(1) per device), skipped for a trace whose format has no read/write field. The
    replay needs the devices before the second pass: give them to the constructor (or :meth:`use_devices`);
    :meth:`rows` refuses other ones. A table over its share of the budget falls back to a SHARDS sample of the blocks
    (:class:`~models.traces.block_table.BlockTable`): the footprint is then the sample's distinct blocks over the
    rate x 4 KiB (the replay, O(1) state, stays exact; ``sampling`` says so).
    """

    role = "storage"

    def __init__(self, devs=None, base=None, *, bands: bool = True):  # the replay has no band
        from models.traces.block_table import BlockTable

        self._own_table(BlockTable(4096, what="the storage role's footprint (distinct blocks)"))
        self._totals = BlockTraceTotals()
        self._devs = self._base = None
        self._replays: list | None = None
        self._op_known = True
        if devs is not None:
            self.use_devices(devs, base)

    def use_devices(self, devs, base) -> None:
        """The devices and the baseline (None: like-for-like) the rows will be asked for."""
        if self._replays is not None:
            raise RuntimeError("StorageReplayStream: the devices are set before the second pass")
        self._devs, self._base = list(devs), base

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]: the block table (the replays keep a few numbers each)."""
        return self._table.state_bytes

    @property
    def sampling(self) -> dict | None:
        """None when the footprint is exact, else how the blocks were sampled
        (:func:`models.planner.sampling_error.table_sampling`; the replay is exact either way)."""
        from models.planner.sampling_error import table_sampling

        return table_sampling(self.role, self._table)

    def first(self, chunk) -> None:
        self._table.add_chunk(chunk)
        self._totals.add(chunk)

    def end_first(self, meta: dict, t_min_ns: int) -> None:
        from models.planner.replay import ReplayStream

        self._op_known = not bool((meta or {}).get("op_unknown", False))
        if self._devs is None:
            raise RuntimeError("StorageReplayStream needs the devices before the second pass: "
                               "StorageReplayStream(devs, base) or use_devices(devs, base)")
        base_dev = self._base or get_device(LIKE_FOR_LIKE[self.role])
        self._replays = [] if not self._op_known else \
            [(d, ReplayStream(d)) for d in [base_dev, *(d for d in self._devs if not is_volatile(d))]]

    def second(self, chunk) -> None:
        if self._replays is None:
            raise RuntimeError("StorageReplayStream: second pass before end_first")
        for _, rs in self._replays:
            rs.add(chunk["time_ns"], chunk["is_write"], chunk["offset_bytes"], chunk["size_bytes"])

    def _replay(self, d):
        for x, rs in self._replays:
            if x is d or x == d:
                return rs.means()
        raise ValueError(f"StorageReplayStream: {d.name} was not replayed (give it to the constructor)")

    def rows(self, w, meta_trace, devs, base, uq) -> list[dict]:
        if self._replays is None:
            raise RuntimeError("StorageReplayStream: rows before the passes")
        if [d.name for d in devs] != [d.name for d in self._devs] or (base is None) != (self._base is None) \
                or (base is not None and base != self._base):
            raise ValueError("StorageReplayStream: rows asked for other devices or another baseline than those "
                             "replayed")
        op_known = getattr(meta_trace, "op_known", self._op_known) and self._op_known
        if not op_known:
            return block_storage_rows_of(w, None, devs, base, uq)
        n = self._totals.requests
        for _, rs in self._replays:
            if rs.requests != n:
                raise ValueError(f"StorageReplayStream: the second pass gave {rs.requests:,} requests, the first "
                                 f"{n:,}: the two passes differ")
        facts = StorageFacts(n, self._totals.writes, self._table.footprint_blocks * 4096,
                             self._totals.writes_and_duration(True), self._replay)
        return block_storage_rows_of(w, facts, devs, base, uq)
