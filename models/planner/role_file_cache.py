"""The file-cache role of a plan: storage access time of a block trace under a DRAM LRU file cache.

Each device holds the trace's blocks under a DRAM LRU cache of ``planner.file_cache_fraction`` of
the footprint (the LRU rows of :func:`models.storage.file_cache_sim.file_cache_curves`: one LRU simulation,
the same timings); the value is the baseline's (like-for-like: ``hdd-7200``, seed 004 Fig. 3 vs Fig. 4) time
over the device's [x]. :class:`FileCacheStream` gives the same rows from a trace taken chunk by chunk
(issue 41), in memory bounded by the distinct blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.budget import Hold
from models.devices import get_device
from models.planner.economics import BlockTraceTotals, block_trace_writes, role_usage
from models.planner.roles import LIKE_FOR_LIKE, is_volatile, role_metric
from models.planner.uncertainty import row_band
from models.planner.verdicts import compare, plan_row, verdict_of
from models.provenance import param
from models.sim.policies import LRU_STATE_BYTES_PER_ID
from models.traces.block_table import SharesBlockTable

__all__ = ["file_cache_rows", "file_cache_band_model", "FileCacheStream", "FileCacheFacts"]

#: Block size of the file cache [bytes] (the page cache's page, :func:`models.traces.split_blocks`'s default).
_BLOCK = 4096


@dataclass(frozen=True)
class FileCacheFacts:
    """What the file-cache rows read from a block trace, however it was taken (whole or in chunks).

    Attributes
    ----------
    accesses : int
        Block accesses [-].
    footprint_blocks : int
        Distinct blocks [blocks].
    lru_hits : int
        Hits of the DRAM LRU cache of ``planner.file_cache_fraction`` of the footprint [-] (0 when not simulated).
    block_counts : numpy.ndarray
        Accesses of each distinct block (any order) [-]: the reuse-count histogram's
        (:func:`models.storage.file_cache_sim.reuse_histogram_of_counts`).
    writes : tuple
        :func:`models.planner.economics.block_trace_writes` of the trace.
    """

    accesses: int
    footprint_blocks: int
    lru_hits: int
    block_counts: np.ndarray
    writes: tuple


def _cache_blocks(footprint_blocks: int) -> int:
    """The DRAM cache's size [blocks]: ``planner.file_cache_fraction`` of the footprint."""
    from models.storage.file_cache_sim import _fractions, cache_blocks_of

    return int(cache_blocks_of(_fractions([float(param("planner.file_cache_fraction").value)]), footprint_blocks)[0])


def file_cache_rows(w, tr, devs, base, uq):
    """File-cache rows of block workload ``w`` (its trace ``tr``) for ``devs`` against ``base`` (None:
    like-for-like); ``uq = (samples, seed)`` or None."""
    from models.sim.policies import simulate
    from models.traces import split_blocks

    ids = split_blocks(tr).block
    counts = np.bincount(ids)
    m = int(np.count_nonzero(counts))
    hits = 0
    if any(not is_volatile(d) for d in devs):
        if not len(ids):
            raise ValueError("ids is empty: no accesses to replay")
        hits = simulate(ids, _cache_blocks(m), "lru").hits
    facts = FileCacheFacts(len(ids), m, hits, counts, block_trace_writes(tr))
    return file_cache_rows_of(w, facts, devs, base, uq)


def file_cache_rows_of(w, facts: FileCacheFacts, devs, base, uq):
    """:func:`file_cache_rows` from the trace's :class:`FileCacheFacts`: the LRU time ``hits * t + misses * Tm``
    on each device (:func:`models.storage.file_cache.cache_run_time_ns`, the timings of
    :func:`models.storage.file_cache.timings_from_device`, as :func:`models.storage.file_cache_sim.file_cache_curves`)."""
    from models.storage import file_cache_sim as fcs
    from models.storage.file_cache import cache_run_time_ns, timings_from_device

    role = "file-cache"
    frac = float(param("planner.file_cache_fraction").value)
    n, hits = facts.accesses, facts.lru_hits
    base_dev = base or get_device(LIKE_FOR_LIKE[role])
    written, dur, how = facts.writes
    usage = role_usage(float(facts.footprint_blocks) * _BLOCK, written, dur, how)  # the storage under the DRAM cache

    def lru_time_ns(d):
        be = timings_from_device(d, _BLOCK)
        return cache_run_time_ns(hits, n - hits, n - hits, be.t_ns, be.T_ns, be.Tm_ns)

    out = []
    blabel = f"{base_dev.name} under the same DRAM LRU cache" + (" (like-for-like, seed 004)" if base is None else "")
    t_base = reuse = None
    for d in devs:
        if is_volatile(d):
            out.append(plan_row(w.name, role, d.name, blabel, role_metric(role), verdict="not applicable",
                                reason=f"not applicable: {d.name} is DRAM, volatile: it cannot be the storage under a "
                                       "DRAM file cache"))
            continue
        if t_base is None:
            t_base, reuse = float(lru_time_ns(base_dev)), fcs.reuse_histogram_of_counts(facts.block_counts)
        v = t_base / float(lru_time_ns(d))
        be = fcs.break_even_of_histogram(reuse, d)
        hit = hits / n
        band = row_band(lambda d=d: file_cache_band_model(hits, n, d, base_dev), uq)
        reason = (f"{hit:.0%} LRU hits with a DRAM cache of {frac:.0%} of the footprint; "
                  f"{be.share_blocks:.1%} of blocks are reused more than n* = {be.n_star:.3g} times on {d.name} "
                  f"(a DRAM cache over it pays only for them) -> "
                  f"{compare(v, d.name, f'{base_dev.name} (the storage under the cache)', 'faster', band)}")
        out.append(plan_row(w.name, role, d.name, blabel, role_metric(role), v, verdict_of(v, band), reason, band,
                            usage))
    return out


class FileCacheStream(SharesBlockTable):
    """The file-cache role (:func:`file_cache_rows`) over a block trace taken chunk by chunk
    (:class:`~models.planner.role_stream.RoleStream`), in memory bounded by the trace's distinct blocks.

    First pass: each 4 KiB (device, block) key gets its compact id and access count
    (:class:`models.traces.block_table.BlockTable`), and the totals of the requests (written bytes, span). Second
    pass: the DRAM LRU cache of ``planner.file_cache_fraction`` of the footprint, resumed over each chunk's ids
    (:class:`models.sim.policies.LruStream`, the kernel of :func:`models.sim.policies.simulate`): the hits are
    the in-memory ones exactly. State: the table (:data:`~models.traces.block_table.TABLE_BYTES_PER_SLOT` per slot,
    at most 3/4 full) and the LRU's :data:`~models.sim.policies.LRU_STATE_BYTES_PER_ID` per distinct block,
    each charged to the run's memory budget before it is allocated. When they would pass the stream's share of
    the budget (``state_share``, set by :func:`models.planner.stream_plan.stream_block_rows`), the table falls back
    to a SHARDS spatial sample of the blocks (:meth:`~models.traces.block_table.BlockTable.downsample`): the LRU of
    ``planner.file_cache_fraction`` of the *sampled* footprint runs over the sampled blocks' accesses (SHARDS
    scaling), the hits are its hit ratio times every access (counted exactly), the footprint the sample's over the
    rate, the reuse histogram the sampled blocks' (``sampling`` says so). ``devs``/``base`` are not needed (the LRU hits do
    not depend on the device): the rows take them.
    """

    role = "file-cache"
    #: The LRU's state per distinct block [bytes], counted in the table's cap (:data:`~models.sim.policies.LRU_STATE_BYTES_PER_ID`).
    extra_bytes_per_key = LRU_STATE_BYTES_PER_ID

    def __init__(self, devs=None, base=None, *, bands: bool = True):  # the band needs only the hits: always there
        from models.traces.block_table import BlockTable

        self._own_table(BlockTable(_BLOCK, what="the file cache's per-block state"))
        self._totals = BlockTraceTotals()
        self._lru = None
        self._lru_hold = Hold("the file cache's LRU state", 0.0)
        self._op_known = True

    _lru_result = None

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]: the block table and the LRU."""
        return self._table.state_bytes + (self._lru.state_bytes if self._lru is not None else 0)

    def _own_holds(self):
        """The LRU's hold beside the table's (:attr:`holds`): its state now [bytes]."""
        self._lru_hold.nbytes = float(self._lru.state_bytes if self._lru is not None else 0)
        return (self._lru_hold,)

    @property
    def sampling(self) -> dict | None:
        """None when exact, else how the blocks were sampled (:func:`models.planner.sampling_error.table_sampling`)."""
        from models.planner.sampling_error import table_sampling

        return table_sampling(self.role, self._table)

    def first(self, chunk) -> None:
        self._table.add_chunk(chunk)
        self._totals.add(chunk)

    def end_first(self, meta: dict, t_min_ns: int) -> None:
        from models.budget import BudgetExceeded
        from models.sim.policies import LruStream

        self._op_known = not bool((meta or {}).get("op_unknown", False))
        t = self._table
        t.fit()  # the table and the LRU within the table's share of the budget (a table with one samples)
        while True:
            m = t.n_unique
            try:
                self._lru = LruStream(m, _cache_blocks(m) if m else 0, what="the file cache's LRU state")
                return
            except BudgetExceeded as e:
                if t.share is None:
                    raise
                t.downsample(f"what the run's budget allows for the LRU beside the other roles' state ({e})")

    def second(self, chunk) -> None:
        if self._lru is None:
            raise RuntimeError("FileCacheStream: second pass before end_first")
        for _, ids in self._table.id_slices(chunk["offset_bytes"], chunk["size_bytes"], chunk["device"]):
            self._lru.add(ids)

    def rows(self, w, meta_trace, devs, base, uq) -> list[dict]:
        t = self._table
        n = t.n_accesses
        if not n and any(not is_volatile(d) for d in devs):
            raise ValueError("ids is empty: no accesses to replay")
        kept = t.sampled_accesses  # n when exact
        if self._lru is not None:  # the LRU's counts kept, its per-block state let go before the rows' histogram
            self._lru_result, self._lru = self._lru.result(), None
        got = getattr(self, "_lru_result", None)
        if got is None or got.requests != kept:
            raise ValueError(f"FileCacheStream: the second pass gave {0 if got is None else got.requests:,} "
                             f"block accesses, the first {kept:,}: the two passes differ")
        hits = got.hits if any(not is_volatile(d) for d in devs) else 0
        footprint = t.n_unique
        if t.sampled:  # SHARDS: the sample's LRU of the fraction of its footprint; its hit ratio on every access
            hits = int(round(hits / kept * n)) if kept else 0
            footprint = int(round(t.footprint_blocks))
        op_known = getattr(meta_trace, "op_known", self._op_known)
        facts = FileCacheFacts(n, footprint, hits, t.counts, self._totals.writes_and_duration(op_known))
        return file_cache_rows_of(w, facts, devs, base, uq)


def file_cache_band_model(hits: int, n: int, dev, base_dev):
    """Time ratio baseline / device of the LRU file cache (``hits * t + misses * Tm`` on each device,
    the hit count simulated once), with the timings of the break-even adapter
    (:func:`models.storage.uncertainty.file_cache_timings`: page-cache costs, I/O-stack factor and the
    devices' latency and bandwidth varied by provenance)."""
    from models.storage.file_cache import cache_run_time_ns
    from models.storage.uncertainty import file_cache_timings
    from models.uncertainty import UncertainModel, Verdict

    if dev.name == base_dev.name:
        raise ValueError("the baseline is the device itself")
    _, ins_d, tim_d = file_cache_timings(dev, 4096)
    _, ins_b, tim_b = file_cache_timings(base_dev, 4096)
    ins = {i.name: i for i in ins_d}
    for i in ins_b:
        if i.name in ins and ins[i.name].point != i.point:
            raise ValueError(f"input {i.name} differs between the two devices")
        ins.setdefault(i.name, i)
    miss = n - hits

    def ev(v):
        t, T, tm = tim_d(v)
        tb, Tb, tmb = tim_b(v)  # every miss inserts: no bypassing miss
        return cache_run_time_ns(hits, miss, miss, tb, Tb, tmb) / cache_run_time_ns(hits, miss, miss, t, T, tm)

    return UncertainModel("file-cache", "time_ratio", "x", tuple(ins.values()), ev,
                          Verdict(1.0, False, f"{dev.name} under a DRAM LRU cache beats {base_dev.name}"),
                          notes=(f"LRU hits simulated once ({hits:,} of {n:,}); timings vary analytically",),
                          output_label="storage access time baseline / device")


