"""Memory-extension run times for many timing samples from ONE replay of the page stream.

With FIFO or CLOCK and no prefetching, which references fault and which evictions write a
page back does not depend on any time. :func:`miss_events` replays the stream once with the
model's own kernel (:func:`models.memory.memory_extension.simulate_memext`'s, recording its
events) and keeps, per miss, its reference index, whether it faults (not a cold first touch)
and whether it writes a page back. :func:`run_times` then replays only those events for every
sample of ``(t_ref, t_fault, t_read, t_write)``: the critical path ``N t_ref + F (t_fault +
t_read) + stalls``, where a page write enters the bounded eviction buffer (drained one page per
``t_write``) and the application waits when the buffer is full -- the model's own queue
(``_enqueue_write``), so a bounded buffer costs one pass over the misses per sample instead of a
re-simulation of every reference. The time between misses is ``(references between) x t_ref``
where the model's kernel adds ``t_ref`` once per reference: the two agree to rounding (1e-9
relative), not to the last bit.

References
----------
.. [1] A. Awad, S. Blagodurov, Y. Solihin, "Write-Aware Management of NVM-based Memory
   Extensions", ICS 2016 (seed 002), sections 2 and 5.2-5.4.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from models.memory.memory_extension import _enqueue_write

__all__ = ["miss_events", "run_times", "TimesReplay"]


def miss_events(stream, cfg) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(reference index, faults, writes back)`` of every miss of ``stream`` under ``cfg``
    (FIFO or CLOCK, no prefetching; ValueError otherwise)."""
    from models.memory.memory_extension import _COUNTER_MAX, _memext_kernel, dram_pages

    if cfg.prefetch_depth != 0 or cfg.policy not in ("fifo", "clock"):
        raise ValueError("miss events need FIFO or CLOCK without prefetching")
    cap = dram_pages(stream.footprint_pages, cfg.dram_frac, cfg.accounting)
    # the model's own replay, times set to anything (without prefetching they decide no eviction), no
    # eviction buffer, recording the events. Every argument passed, with the types simulate_memext's call
    # has: an omitted ``every_fault`` is another numba signature, a second compile of the kernel (~20 s).
    *_, idx, fault, write = _memext_kernel(
        np.asarray(stream.ids, np.int64), np.asarray(stream.vpn, np.int64), np.asarray(stream.is_write, np.bool_),
        int(cap), _COUNTER_MAX[cfg.policy], 0, 1, 1, 1.0, 0.0, 0.0, 0.0, False, 0, 0.0,
        bool(cfg.cold_start_in_nvm), cfg.accounting == "exclusive", True, False)
    return idx, fault, write


@njit(cache=True)
def _times_resume(idx, fault, write, base, fo, rd, wr, sync, buf_cap, now, wfree, wb, last, comp):
    """Carry every sample's critical path (``now``, ``wfree``, ``wb``, ``last``, its buffer row ``comp[s]``, updated
    in place) over the miss events ``idx, fault, write`` (one piece of them, indices in the whole stream)."""
    S = base.shape[0]
    for s in range(S):
        t = now[s]
        wf = wfree[s]
        w = wb[s]
        lst = last[s]
        c = comp[s]
        for k in range(idx.shape[0]):
            t += (idx[k] - lst) * base[s]
            lst = idx[k]
            if write[k]:
                if sync:
                    t += wr[s]
                elif buf_cap > 0:
                    t, wf = _enqueue_write(c, w, buf_cap, t, wf, wr[s])
                w += 1
            if fault[k]:
                t += fo[s] + rd[s]
        now[s] = t
        wfree[s] = wf
        wb[s] = w
        last[s] = lst


class TimesReplay:
    """The critical paths of many timing samples over miss events that arrive in pieces (a streamed trace's second
    pass, :mod:`models.planner.role_memext_stream`): :func:`run_times` with its state (per sample the clock, the
    device's drain time, the writes so far, the last event and the eviction buffer's queue) carried between pieces.

    Parameters
    ----------
    base_ns, fault_ns, read_ns, write_ns : array_like
        The samples (broadcast together) [ns], as :func:`run_times`'s.
    sync : bool
    buf_cap : int
        As :func:`run_times`'s.

    Examples
    --------
    >>> ev = (np.array([2, 5, 9]), np.array([True, False, True]), np.array([False, True, True]))
    >>> rep = TimesReplay(base_ns=[1.0, 2.0], fault_ns=10.0, read_ns=5.0, write_ns=50.0, sync=False, buf_cap=1)
    >>> for a, b in ((0, 1), (1, 3)):
    ...     rep.feed(tuple(e[a:b] for e in ev))
    >>> np.array_equal(rep.times(12), run_times(ev, 12, base_ns=[1.0, 2.0], fault_ns=10.0, read_ns=5.0,
    ...                                          write_ns=50.0, sync=False, buf_cap=1))
    True
    """

    def __init__(self, *, base_ns, fault_ns, read_ns, write_ns, sync: bool, buf_cap: int):
        b, f, r, w = np.broadcast_arrays(*(np.atleast_1d(np.asarray(a, dtype=float)) for a in
                                           (base_ns, fault_ns, read_ns, write_ns)))
        self.base, self.fault, self.read, self.write = (np.ascontiguousarray(a.reshape(-1)) for a in (b, f, r, w))
        self.shape = b.shape
        self.sync, self.buf_cap = bool(sync), int(buf_cap)
        S = self.base.shape[0]
        self.now = np.zeros(S)
        self.wfree = np.zeros(S)
        self.wb = np.zeros(S, np.int64)
        self.last = np.full(S, -1, np.int64)
        self.comp = np.zeros((S, max(self.buf_cap, 1)))

    @staticmethod
    def state_bytes_for(samples: int, buf_cap: int) -> int:
        """Memory of the state of ``samples`` samples [bytes]: the four sample values, four scalars and the buffer
        row of each.

        >>> TimesReplay.state_bytes_for(1000, 256)
        2112000
        """
        return int(samples) * 8 * (8 + max(int(buf_cap), 1))

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]."""
        return int(sum(a.nbytes for a in (self.base, self.fault, self.read, self.write, self.now, self.wfree, self.wb,
                                          self.last, self.comp)))

    def feed(self, events) -> None:
        """Replay the next piece of the miss events ``(reference index in the whole stream, faults, writes back)``."""
        idx, fault, write = events
        _times_resume(np.ascontiguousarray(idx, np.int64), np.ascontiguousarray(fault, np.bool_),
                      np.ascontiguousarray(write, np.bool_), self.base, self.fault, self.read, self.write, self.sync,
                      self.buf_cap, self.now, self.wfree, self.wb, self.last, self.comp)

    def times(self, n: int) -> np.ndarray:
        """Critical-path time [ns] of each sample over ``n`` references (the events fed so far)."""
        return (self.now + (int(n) - 1 - self.last) * self.base).reshape(self.shape)


def run_times(events, n: int, *, base_ns, fault_ns, read_ns, write_ns, sync: bool, buf_cap: int) -> np.ndarray:
    """Critical-path time [ns] of each timing sample (arrays broadcast together) over the miss ``events``.

    ``n`` references; ``sync``: synchronous write-back; ``buf_cap``: eviction buffer [pages]
    (0 = unbounded). The modelled run time is ``max(this, F t_read + Wb t_write)`` for buffered
    write-back, as in :func:`models.memory.memory_extension.simulate_memext`.
    """
    rep = TimesReplay(base_ns=base_ns, fault_ns=fault_ns, read_ns=read_ns, write_ns=write_ns, sync=sync,
                      buf_cap=buf_cap)
    rep.feed(events)
    return rep.times(n).reshape(-1)
