"""Memory-extension run times for many timing samples from ONE replay of the page stream.

With FIFO or CLOCK and no prefetching, which references fault and which evictions write a
page back does not depend on any time. :func:`miss_events` replays the stream once (the ring
sweep of :func:`models.memory.memory_extension.simulate_memext`) and keeps, per miss, its
reference index, whether it faults (not a cold first touch) and whether it writes a page back.
:func:`run_times` then replays only those events for every sample of ``(t_ref, t_fault,
t_read, t_write)``: the critical path ``N t_ref + F (t_fault + t_read) + stalls``, where a
page write enters the bounded eviction buffer (drained one page per ``t_write``) and the
application waits when the buffer is full -- the same queue as the model's kernel, so a bounded
buffer costs one pass over the misses per sample instead of a re-simulation of every reference.

References
----------
.. [1] A. Awad, S. Blagodurov, Y. Solihin, "Write-Aware Management of NVM-based Memory
   Extensions", ICS 2016 (seed 002), sections 2 and 5.2-5.4.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from models.sim.primitives import evict_block, ring_advance, ring_victim

__all__ = ["miss_events", "run_times"]


@njit(cache=True)
def _events_kernel(ids, is_write, m, cap, counter_max, cold_in_nvm, exclusive):
    n = ids.shape[0]
    resident = np.zeros(m, np.bool_)
    dirty = np.zeros(m, np.bool_)
    ref = np.zeros(m, np.bool_)
    cnt = np.zeros(m, np.int64)
    seen = np.zeros(m, np.bool_)
    ring = np.empty(max(cap, 1), np.int64)
    idx = np.empty(n, np.int64)
    fault = np.zeros(n, np.bool_)
    write = np.zeros(n, np.bool_)
    k = 0
    size = 0
    hand = 0
    for i in range(n):
        x = ids[i]
        if resident[x]:
            ref[x] = True
        else:
            first = not seen[x]
            seen[x] = True
            w = False
            if size < cap:
                ring[size] = x
                size += 1
            else:
                v, hand = ring_victim(ring, hand, cap, ref, cnt, counter_max)
                d = evict_block(v, resident, dirty)
                ring[hand] = x
                hand = ring_advance(hand, cap)
                w = exclusive or d == 1
            resident[x] = True
            ref[x] = False
            cnt[x] = 0
            f = not (first and not cold_in_nvm)
            if w or f:
                idx[k] = i
                fault[k] = f
                write[k] = w
                k += 1
        if is_write[i]:
            dirty[x] = True
    return idx[:k].copy(), fault[:k].copy(), write[:k].copy()


def miss_events(stream, cfg) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(reference index, faults, writes back)`` of every miss of ``stream`` under ``cfg``
    (FIFO or CLOCK, no prefetching; ValueError otherwise)."""
    from models.memory.memory_extension import dram_pages

    if cfg.prefetch_depth != 0 or cfg.policy not in ("fifo", "clock"):
        raise ValueError("miss events need FIFO or CLOCK without prefetching")
    cap = dram_pages(stream.footprint_pages, cfg.dram_frac, cfg.accounting)
    return _events_kernel(np.asarray(stream.ids, np.int64), np.asarray(stream.is_write, np.bool_),
                          int(stream.footprint_pages), int(cap), 0 if cfg.policy == "fifo" else 1,
                          bool(cfg.cold_start_in_nvm), cfg.accounting == "exclusive")


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
                    slot = wb % buf_cap
                    if comp[slot] > now:
                        now = comp[slot]
                    start = now if now > wfree else wfree
                    wfree = start + wr[s]
                    comp[slot] = wfree
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
