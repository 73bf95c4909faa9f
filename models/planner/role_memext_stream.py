"""The plan's memory-extension role over a memory trace read in chunks (issue 41): the rows of
:func:`models.planner.role_memory.memory_rows` for the memory-extension role, exactly, in memory of the distinct
pages and the band's samples.

:class:`MemExtRoleStream` is the memory role stream of :data:`models.planner.stream_memory.MEMORY_STREAM_ROLES`
(``first(chunk)``, ``end_first(meta)``, ``second(chunk)``, ``rows(w, meta_trace, devs, base, uq)``,
``state_bytes``, ``holds``, ``page_table``). Its :class:`~models.memory.memext_stream.MemExtStream` gathers the page
table in the first pass (shared with the paging role's stream when both run)
and runs the role's configuration (:class:`~models.memory.memory_extension.MemExtConfig` defaults) on the baseline
and on every compared device in the second, one resumable run each.

The uncertainty band. In memory, a row's band (:func:`models.memory.uncertainty.memext_model`) replays the
trace's misses through the bounded eviction buffer once per sample of the timing inputs
(:func:`models.memory.memext_events.run_times`), after the simulation. A streamed trace is gone by then, so the
samples are replayed during the second pass: when the stream is built with ``bands=(n, seed)`` (the plan's
``uq``) and an integer seed, ``end_first`` draws the band's design as the row will (it runs the row's analysis on
a stand-in that records the timing samples asked for), and the second pass carries one replay state per
sample (:class:`~models.memory.memext_events.TimesReplay`, charged to the run's budget first) over the misses of
each chunk. The row's band then reads the replayed times: the same p5/p95/p_win/decisive input as in memory. A
stream built with ``bands=True`` (no samples known before the second pass), a Generator seed, or a row whose
samples were not all replayed says so in its band (``not sampled: ...``), never a number made up.
"""

from __future__ import annotations

import numpy as np

from models.budget import Hold, charge
from models.devices import get_device
from models.memory.memext_stream import MemExtStream
from models.memory.memory_extension import MemExtConfig, MemExtResult
from models.memory.page_table import SharesPageTable
from models.planner.roles import LIKE_FOR_LIKE, is_volatile

__all__ = ["MemExtRoleStream", "memext_row_devices"]

ROLE = "memory-extension"
#: The band's refusal when the stream did not know the samples before its second pass.
NO_SAMPLES = ("a streamed trace's band replays its samples during the second pass, and the samples were not known "
              "before it (the stream was built without bands=(samples, seed))")
#: The band's refusal for a seed that is not a whole number (a Generator: its draws are not known in advance).
NOT_INT_SEED = "a streamed trace's band replays its samples during the second pass and needs a whole-number seed"


def memext_row_devices(devs) -> list:
    """The devices of ``devs`` the memory-extension role simulates (not the local DRAM or faster: their rows read
    ``not applicable``), as :func:`models.planner.role_memory.memory_rows` skips them."""
    local = get_device("dram")
    return [d for d in devs if not (is_volatile(d) and d.read_latency_ns <= local.read_latency_ns)]


class _Named:
    """A stand-in for the whole PageStream in :func:`memext_model`: the trace's name only."""

    def __init__(self, name: str):
        self.name = name


def _as_quad(b, f, r, w) -> tuple[np.ndarray, ...]:
    """The four timing samples broadcast together, flat (as :func:`models.memory.memext_events.run_times` reads)."""
    arrs = np.broadcast_arrays(*(np.atleast_1d(np.asarray(a, dtype=float)) for a in (b, f, r, w)))
    return tuple(np.ascontiguousarray(a.reshape(-1)) for a in arrs)


class MemExtRoleStream(SharesPageTable):
    """The memory-extension role's stream (see the module docstring).

    Parameters
    ----------
    devs, base
        The compared devices and the baseline (None: like-for-like, ``nand-flash``).
    bands : bool or (int, seed), keyword-only
        The rows will be asked for uncertainty bands; ``(samples, seed)`` (the plan's ``uq``) lets the second pass
        replay the band's samples (True alone: the bands say they are unknown for a streamed trace).

    Examples
    --------
    >>> from models.planner.workloads import workload_from_path
    >>> from models.traces import load
    >>> t = load("lackey:numpy", max_requests=20_000)
    >>> c = {"address": t.address, "size": t.size, "kind": t.kind}
    >>> s = MemExtRoleStream([get_device("pcm-samsung-20nm")], None, bands=(16, 0))
    >>> s.first(c); s.end_first({"name": t.name}); s.second(c)
    >>> rows = s.rows(workload_from_path("lackey:numpy"), t, [get_device("pcm-samsung-20nm")], None, (16, 0))
    >>> rows[0]["role"], rows[0]["verdict"], rows[0]["p_win"]
    ('memory-extension', 'wins', 1.0)
    """

    role = ROLE

    def __init__(self, devs=None, base=None, *, bands=True):
        self.devs, self.base, self.bands = list(devs or []), base, bands
        self.cfg = MemExtConfig()
        self.base_dev = base or get_device(LIKE_FOR_LIKE[ROLE])
        runs = {"base": (self.cfg, self.base_dev)}
        self._label: list[tuple[object, str]] = [(self.base_dev, "base")]
        for d in memext_row_devices(self.devs):
            if self._run_of(d) is None:
                lab = f"dev{len(self._label)}"
                runs[lab] = (self.cfg, d)
                self._label.append((d, lab))
        self._s = MemExtStream(runs, what="the memory-extension role's state")
        self._hold = Hold("the memory-extension role's runs", 0.0)
        self._replay = None
        self._table: dict = {}
        self._calls: list[tuple] = []
        self._why = NO_SAMPLES
        self._uq = None
        self._ev_sums = np.zeros(2, np.int64)

    def _run_of(self, d) -> str | None:
        return next((lab for dev, lab in self._label if dev == d), None)

    # ------------------------------------------------------------------ memory
    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]: the page table, one run per device, the band's replay states."""
        return self._s.state_bytes + self._replay_bytes()

    def _replay_bytes(self) -> int:
        return 0 if self._replay is None else self._replay.state_bytes + 32 * self._replay.base.size

    @property
    def holds(self) -> tuple:
        """The holds of the state: the page table's own (shared with the paging stream, one hold) and the runs' and
        the band's replay states'."""
        self._hold.nbytes = float(self._s.own_bytes + self._replay_bytes())
        return (self._s.table.hold, self._hold)

    # ------------------------------------------------------------------ passes
    def first(self, chunk: dict) -> None:
        self._s.first(chunk)

    def end_first(self, meta: dict | None = None) -> None:
        self._s.end_first(meta)
        self._plan_band(str((meta or {}).get("name") or ""))

    def second(self, chunk: dict) -> None:
        """Take a chunk of the second pass; a chunk whose working memory the budget refuses (charged before any
        state moves) is taken in halves, down to one reference (the runs are resumable: the same result)."""
        def take(part):
            ev = self._s.second(part, record="base" if self._replay is not None else None)
            if ev is not None:
                self._replay.feed(ev)
                self._ev_sums += (int(ev[1].sum()), int(ev[2].sum()))

        self.in_halves(take, chunk)

    # ------------------------------------------------------------------ the band's samples
    def _band_needs_replay(self) -> bool:
        """The role's configuration prices a band by replaying the misses through a bounded eviction buffer."""
        c = self.cfg
        return (c.prefetch_depth == 0 and c.policy in ("fifo", "clock") and c.writeback == "buffered"
                and c.eviction_buffer_pages is not None)

    def _model(self, name: str, d, r: MemExtResult, times):
        from models.memory.uncertainty import memext_model
        from models.planner.uncertainty import inverted

        if d.name == self.base_dev.name:
            raise ValueError("the baseline is the device itself")
        return inverted(memext_model(_Named(name), self.cfg, device=d, baseline=self.base_dev, result=r, times=times))

    def _plan_band(self, name: str) -> None:
        """Draw the band's design of every row as its analysis will (recording the timing samples asked for) and
        build one replay state per sample for the second pass (charged first)."""
        import warnings

        from models.memory.memext_events import TimesReplay
        from models.planner.uncertainty import band_columns

        if not (isinstance(self.bands, (tuple, list)) and len(self.bands) == 2 and self._band_needs_replay()):
            return
        n, seed = self.bands
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            self._why = NOT_INT_SEED
            return
        refs = self._s.references
        stand_in = MemExtResult(references=refs, footprint_pages=self._s.footprint_pages, dram_pages=1, full_misses=0,
                                partial_misses=0, cold_allocations=0, evictions=0, dirty_evictions=0, writebacks=0,
                                prefetch_submissions=0, prefetched_pages=0, prefetch_useful=0, cpu_ns=1.0,
                                device_busy_ns=0.0, time_ns=1.0, dram_only_ns=1.0)
        calls: dict[tuple, tuple] = {}

        def record(b, f, r, w):
            q = _as_quad(b, f, r, w)
            calls.setdefault(tuple(a.tobytes() for a in q), q)
            return q[0] * refs  # any positive time: the stand-in's answer is thrown away

        for d in memext_row_devices(self.devs):
            try:
                model = self._model(name, d, stand_in, record)
            except (ValueError, KeyError):
                continue  # the row's band cannot be built either: it says why
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                band_columns(model, n=int(n), seed=int(seed))
        if not calls:
            return
        quads = list(calls.values())
        S = sum(q[0].size for q in quads)
        buf = int(self.cfg.eviction_buffer_pages)
        charge(self._s.state_bytes + TimesReplay.state_bytes_for(S, buf) + 32 * S,
               f"the memory-extension role's band ({S:,} timing samples replayed in the second pass)")
        cat = [np.concatenate([q[k] for q in quads]) for k in range(4)]
        self._replay = TimesReplay(base_ns=cat[0], fault_ns=cat[1], read_ns=cat[2], write_ns=cat[3], sync=False,
                                   buf_cap=buf)
        self._calls = [(key, q[0].size) for key, q in calls.items()]
        self._uq = (int(n), int(seed))

    def _lookup(self):
        """The replayed times of the samples recorded in :meth:`_plan_band` (ValueError for any other)."""
        if not self._table:
            t = self._replay.times(self._s.references)
            i = 0
            for key, size in self._calls:
                self._table[key] = t[i:i + size]
                i += size

        def times(b, f, r, w):
            key = tuple(a.tobytes() for a in _as_quad(b, f, r, w))
            if key not in self._table:
                raise ValueError("a streamed trace's band replays its samples during the second pass, and this row "
                                 "asked for samples that were not replayed")
            return self._table[key].copy()
        return times

    def device_results(self) -> dict[str, MemExtResult]:
        """Device name -> the memory-extension run of that device over the whole trace (the baseline and every
        compared device), after the second pass: as ``simulate_memext(page_stream(trace), MemExtConfig(),
        device=d)`` gives it (used by :func:`models.planner.rank.rank_workloads`)."""
        results = self._s.results()
        return {d.name: results[lab] for d, lab in self._label}

    # ------------------------------------------------------------------ rows
    def rows(self, w, meta_trace, devs, base, uq) -> list[dict]:
        """The memory-extension rows, as :func:`models.planner.role_memory.memory_rows` gives them for the whole
        trace (``meta_trace``: a MemTrace with the trace's name; its columns are not read)."""
        from models.planner.role_memory import memext_rows

        if (base or get_device(LIKE_FOR_LIKE[ROLE])) != self.base_dev:
            raise ValueError("the memory-extension stream was built for another baseline")
        results = self._s.results()
        name = getattr(meta_trace, "name", "") or ""
        replayed = self._replay is not None and uq is not None and (int(uq[0]), uq[1]) == self._uq
        if uq is not None and self._uq is None and self._why == NO_SAMPLES:
            seed = uq[1]
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                self._why = NOT_INT_SEED
        if self._replay is not None:
            rb = results["base"]
            if int(self._ev_sums[0]) != rb.full_misses or int(self._ev_sums[1]) != rb.writebacks:
                raise RuntimeError("memory-extension miss replay disagrees with the model's counts")

        def result_of(d):
            lab = self._run_of(d)
            if lab is None:
                raise ValueError(f"the memory-extension stream was not built for the device {d.name}")
            return results[lab]

        def band_model(d, r, base_dev):
            times = None
            if self._band_needs_replay():
                if not replayed:
                    raise ValueError(self._why)
                times = self._lookup()  # a sample not replayed (another trace name, n or seed): ValueError
            return self._model(name, d, r, times)

        return memext_rows(w, devs, base, uq, self.cfg, result_of, band_model)
