"""The memory extension over a memory trace taken chunk by chunk, in memory bounded by its state (issue 41).

:func:`~models.memory.memory_extension.simulate_memext` needs the whole trace's
:class:`~models.memory.memory_extension.PageStream`: its compact page ids number the distinct pages in
increasing virtual-page order, the footprint sets the DRAM capacity (:func:`~models.memory.memory_extension.dram_pages`)
and the prefetcher looks pages up by virtual page number. :class:`MemExtStream` takes the trace twice as
column chunks (``{"address", "size", "kind"}``, the :class:`~models.traces.core.MemTrace` columns, in trace
order, of any length):

1. the first pass gathers the distinct virtual pages of the data references (instruction fetches dropped
   as :func:`~models.memory.memory_extension.page_stream` drops them) into the trace's
   :class:`~models.memory.page_table.PageTable` (a hash table carried across chunks; shared with the paging stream
   when both roles run, :func:`models.planner.stream_memory.memory_role_streams`), its ids renumbered to page order
   at the end: after it the footprint, the compact ids and the DRAM capacity are those of ``page_stream`` over
   the whole trace;
2. the second pass takes each chunk's page ids from that table (looked up once per chunk) and feeds them to one resumable run
   (:class:`~models.memory.memory_extension.MemExtRun`) per configuration, its state carried across chunks --
   except that time-independent configurations (FIFO or CLOCK without prefetching) with the same page decisions
   (the devices of a plan's role) share one run: the others replay its miss events on their own clock
   (:class:`~models.memory.memory_extension.MemExtClock`, the same bits).

The results are exactly :func:`simulate_memext` of ``page_stream(whole trace)`` (``tests/models/memory/
test_memext_stream.py``). Memory: the page table (:data:`~models.memory.page_table.BYTES_PER_SLOT` per slot, at most half full, and the
sorted pages, 8 bytes per distinct page; held once when shared) and each run's state
(:meth:`MemExtRun.state_bytes_for`, ~21 bytes per distinct page, once per distinct page decisions), whatever the
trace's length; each growth is
charged to the run's budget (:func:`models.budget.charge`) before it is allocated.
"""

from __future__ import annotations

import numpy as np

from models.budget import charge
from models.memory.memory_extension import (
    PAGE_BYTES,
    MemExtClock,
    MemExtConfig,
    MemExtResult,
    MemExtRun,
    page_decisions,
    time_independent,
)
from models.memory.page_table import PageNotSeen, PageTable

__all__ = ["MemExtStream", "chunk_pages"]

#: Bytes per reference of a second-pass chunk's temporaries: its page numbers and compact ids (8 each), the write
#: flags (1) and, while a run records its miss events, up to an index and two flags per reference (10) [bytes].
_CHUNK_BYTES_PER_REF = 8 + 8 + 1 + 10


def chunk_pages(chunk: dict, *, include_instructions: bool = False,
                page_bytes: int = PAGE_BYTES) -> tuple[np.ndarray, np.ndarray]:
    """``(virtual page numbers, is_write)`` of a chunk's references as :func:`page_stream` reads them: instruction
    fetches (kind 0) dropped unless ``include_instructions``, stores and modifies (kind 2, 3) written.

    >>> v, w = chunk_pages({"address": np.array([0, 4096, 8191, 12288], np.uint64), "size": np.array([8, 8, 8, 8]),
    ...                     "kind": np.array([0, 1, 2, 3], np.uint8)})
    >>> v.tolist(), w.tolist()
    ([1, 1, 3], [False, True, True])
    """
    kind = np.asarray(chunk["kind"], np.uint8)
    addr = np.asarray(chunk["address"], np.uint64)
    if addr.shape != kind.shape:
        raise ValueError("a memory-trace chunk's address and kind must have the same length")
    if not include_instructions:
        keep = kind != 0
        addr, kind = addr[keep], kind[keep]
    shift = np.uint64(int(page_bytes).bit_length() - 1)
    return (addr >> shift).astype(np.int64), kind >= 2


class MemExtStream:
    """Memory-extension runs over a memory trace read twice in chunks (see the module docstring).

    Parameters
    ----------
    runs : dict
        ``label -> (MemExtConfig, DeviceProfile or None)``: the runs of the second pass (a device None is
        ``cfg.device`` from the catalogue).
    include_instructions : bool, keyword-only
        Keep instruction fetches (as :func:`page_stream`'s option).
    what : str, keyword-only
        The state's name in a refusal of the memory budget.

    Examples
    --------
    >>> from models.memory.memory_extension import page_stream, simulate_memext
    >>> addr = np.tile(np.arange(8) * 4096, 2).astype(np.uint64)
    >>> chunks = [{"address": addr[a:b], "size": np.full(b - a, 8), "kind": np.full(b - a, 1, np.uint8)}
    ...           for a, b in ((0, 3), (3, 16))]
    >>> s = MemExtStream({"pcm": (MemExtConfig(dram_frac=0.25), None)})
    >>> for c in chunks:
    ...     s.first(c)
    >>> s.end_first()
    >>> for c in chunks:
    ...     s.second(c)
    >>> s.results()["pcm"] == simulate_memext(page_stream(address=addr), MemExtConfig(dram_frac=0.25))
    True
    """

    def __init__(self, runs: dict, *, include_instructions: bool = False, what: str = "the memory extension's state",
                 table: PageTable | None = None):
        self.runs_cfg = {k: (cfg or MemExtConfig(), dev) for k, (cfg, dev) in runs.items()}
        self.include_instructions = include_instructions
        self.what = what
        self._table: PageTable | None = None
        self.table = PageTable(what, include_instructions=include_instructions) if table is None else table
        self._seen_second = 0
        self.runs: dict[str, MemExtRun] = {}
        self.clocks: dict[str, tuple[MemExtClock, str]] = {}
        self._leader_of: dict[str, str] = {}

    # ------------------------------------------------------------------ the page table
    @property
    def table(self) -> PageTable:
        """The trace's distinct pages (:class:`~models.memory.page_table.PageTable`; may be shared with the paging
        stream)."""
        return self._table

    @table.setter
    def table(self, table: PageTable) -> None:
        if self._table is not None and (self._table.pages or self.runs):
            raise ValueError("MemExtStream: the page table is shared before the first pass")
        if table.include_instructions != bool(self.include_instructions):
            raise ValueError("MemExtStream: a shared page table must take the same references "
                             "(include_instructions)")
        if self._table is not None:
            self._table.detach()
        self._table = table.attach()

    @property
    def vpn(self) -> np.ndarray:
        """The distinct virtual pages, increasing (once the first pass has ended; empty before)."""
        return self._table.vpn if self._table.ended else np.zeros(0, np.int64)

    @property
    def references(self) -> int:
        """References of the first pass taken (instruction fetches dropped unless ``include_instructions``) [-]."""
        return self._table.data_refs

    # ------------------------------------------------------------------ memory
    @property
    def own_bytes(self) -> int:
        """Memory of the state beside the page table [bytes]: the runs' states."""
        return int(sum(r.state_bytes for r in self.runs.values()) + sum(c.state_bytes for c, _ in self.clocks.values()))

    @property
    def state_bytes(self) -> int:
        """Memory of the state now [bytes]: the page table and the runs' states."""
        return int(self._table.state_bytes) + self.own_bytes

    @property
    def footprint_pages(self) -> int:
        """Distinct pages referenced [pages] (once the first pass has ended)."""
        return int(self._table.pages)

    # ------------------------------------------------------------------ first pass
    def first(self, chunk: dict) -> None:
        """Take a chunk of the first pass: its distinct pages join the page table (once, if it is shared)."""
        self._table.add_chunk(chunk)

    def end_first(self, meta: dict | None = None) -> None:
        """The first pass has ended: the page table is complete (page order); the runs' states are built (charged
        first)."""
        self._table.end_first()
        if not self.references:
            raise ValueError("trace: no memory references (after dropping instruction fetches)")
        leaders: dict[tuple, str] = {}
        self._leader_of = {}
        for k, (cfg, _) in self.runs_cfg.items():
            key = page_decisions(cfg) if time_independent(cfg) else None
            self._leader_of[k] = leaders.setdefault(key, k) if key is not None else k
        own = [k for k in self.runs_cfg if self._leader_of[k] == k]
        need = self._table.state_bytes + sum(MemExtRun.state_bytes_for(self.footprint_pages, self.runs_cfg[k][0])
                                              for k in own)
        need += 16 * sum(1 + (self.runs_cfg[k][0].eviction_buffer_pages or 1) for k in self.runs_cfg if k not in own)
        charge(need, f"{self.what} ({len(own)} run(s) over {self.footprint_pages:,} pages)")
        self.runs = {k: MemExtRun(self.vpn, self.runs_cfg[k][0], device=self.runs_cfg[k][1]) for k in own}
        self.clocks = {k: (MemExtClock(self.runs[lead], self.runs_cfg[k][0], device=self.runs_cfg[k][1]), lead)
                       for k, lead in self._leader_of.items() if k != lead}
        self._seen_second = 0

    # ------------------------------------------------------------------ second pass
    def page_ids(self, chunk: dict) -> tuple[np.ndarray, np.ndarray]:
        """``(compact page ids, is_write)`` of a chunk's references from the page table (as :func:`page_stream`
        numbers them; looked up once per chunk, whatever streams share the table); ValueError for a page the first
        pass did not see."""
        try:
            ids = self._table.chunk_ids(chunk, beside=float(self.own_bytes))
        except PageNotSeen:
            raise ValueError("the second pass read a page the first pass did not: the trace changed between the "
                             "passes") from None
        kind = np.asarray(chunk["kind"], np.uint8)
        return ids, (kind >= 2 if self.include_instructions else kind[kind != 0] >= 2)

    def second(self, chunk: dict, *, record: str | None = None):
        """Take a chunk of the second pass: every run carries on over its references. ``record``: the label of a
        run whose miss events (:meth:`MemExtRun.feed`; those of the run whose page decisions it shares) to return
        (None: return None)."""
        if not self.runs:
            raise RuntimeError("end_first() must come before the second pass")
        charge(self.state_bytes + len(chunk["kind"]) * _CHUNK_BYTES_PER_REF,
               f"{self.what} (a chunk of {len(chunk['kind']):,} references)")
        ids, w = self.page_ids(chunk)
        self._seen_second += int(ids.size)
        if self._seen_second > self.references:
            raise ValueError("the second pass read more references than the first: the trace changed between the passes")
        want = self._leader_of.get(record) if record is not None else None
        followed = {lead for _, lead in self.clocks.values()}
        events = {}
        for k, run in self.runs.items():
            ev = run._feed(ids, np.ascontiguousarray(w), k == want or k in followed)
            if ev is not None:
                events[k] = ev
        for clock, lead in self.clocks.values():
            clock.feed(ids.size, events[lead])
        return events.get(want)

    def results(self) -> dict[str, MemExtResult]:
        """Each run's result over the whole trace (after the second pass)."""
        if self._seen_second != self.references:
            raise ValueError(f"the second pass read {self._seen_second:,} references, the first {self.references:,}: "
                             "the trace changed between the passes")
        return {k: (self.runs[k].result() if k in self.runs else self.clocks[k][0].result(self.runs[self.clocks[k][1]]))
                for k in self.runs_cfg}

