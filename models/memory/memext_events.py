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

__all__ = ["miss_events", "run_times"]


def miss_events(stream, cfg) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(reference index, faults, writes back)`` of every miss of ``stream`` under ``cfg``
    (FIFO or CLOCK, no prefetching; ValueError otherwise)."""
    from models.memory.memory_extension import _COUNTER_MAX, _memext_kernel, dram_pages

    if cfg.prefetch_depth != 0 or cfg.policy not in ("fifo", "clock"):
        raise ValueError("miss events need FIFO or CLOCK without prefetching")
    cap = dram_pages(stream.footprint_pages, cfg.dram_frac, cfg.accounting)
    # the model's own replay, times set to anything (without prefetching they decide no eviction), no
    # eviction buffer, recording the events
    *_, idx, fault, write = _memext_kernel(
        np.asarray(stream.ids, np.int64), np.asarray(stream.vpn, np.int64), np.asarray(stream.is_write, np.bool_),
        int(cap), _COUNTER_MAX[cfg.policy], 0, 1, 1, 1.0, 0.0, 0.0, 0.0, False, 0, 0.0,
        bool(cfg.cold_start_in_nvm), cfg.accounting == "exclusive", True)
    return idx, fault, write


@njit(cache=True)
def _times_kernel(idx, fault, write, n, base, fo, rd, wr, sync, buf_cap):
    S = base.shape[0]
    out = np.empty(S)
    comp = np.zeros(max(buf_cap, 1))
    for s in range(S):
        comp[:] = 0.0
        now = 0.0
        wfree = 0.0
        wb = 0
        last = -1
        for k in range(idx.shape[0]):
            now += (idx[k] - last) * base[s]
            last = idx[k]
            if write[k]:
                if sync:
                    now += wr[s]
                elif buf_cap > 0:
                    now, wfree = _enqueue_write(comp, wb, buf_cap, now, wfree, wr[s])
                wb += 1
            if fault[k]:
                now += fo[s] + rd[s]
        out[s] = now + (n - 1 - last) * base[s]
    return out


def run_times(events, n: int, *, base_ns, fault_ns, read_ns, write_ns, sync: bool, buf_cap: int) -> np.ndarray:
    """Critical-path time [ns] of each timing sample (arrays broadcast together) over the miss ``events``.

    ``n`` references; ``sync``: synchronous write-back; ``buf_cap``: eviction buffer [pages]
    (0 = unbounded). The modelled run time is ``max(this, F t_read + Wb t_write)`` for buffered
    write-back, as in :func:`models.memory.memory_extension.simulate_memext`.
    """
    b, f, r, w = np.broadcast_arrays(*(np.atleast_1d(np.asarray(a, dtype=float)) for a in
                                       (base_ns, fault_ns, read_ns, write_ns)))
    idx, fault, write = events
    return _times_kernel(idx, fault, write, int(n), np.ascontiguousarray(b), np.ascontiguousarray(f),
                         np.ascontiguousarray(r), np.ascontiguousarray(w), bool(sync), int(buf_cap))
