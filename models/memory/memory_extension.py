"""NVM memory extension behind DRAM: page faults, slowdown, prefetching, replacement (seed 002, §5.2-6).

The OS keeps a fixed number of pages in DRAM; any access to a page held in the NVM faults,
the handler copies the page to DRAM and evicts one (FIFO in the paper; CLOCK and an
age-based counter policy as alternatives, §5.4). Evicted dirty pages (every evicted page
in an exclusive extension) are written to the NVM through an eviction buffer flushed by a
kernel thread, off the critical path (§2).

Time model
----------
For ``N`` memory references with ``F`` NVM faults and ``Wb`` page write-backs:

.. math::  T_{cpu} = N t_{ref} + F (t_{fault} + t_{read}) + S t_{submit} [+ Wb\\,t_{write}]

with ``t_ref`` the DRAM-only time per reference (:data:`BASE_NS_PER_REF`),
``t_fault`` the OS fault-handling cost outside the device access
(:data:`FAULT_OVERHEAD_NS`), ``t_read`` / ``t_write`` the device's page latencies and
``S`` the prefetch submissions (3-4 us each, §5.3). The bracketed term is paid only by
synchronous (unbuffered) write-back. With the eviction buffer (default, §2: "buffered in a
pre-allocated fixed-size eviction buffer in DRAM ... flushed through a kernel thread without
affecting the critical path") an evicted page goes into a buffer of ``B`` pages
(:data:`EVICTION_BUFFER_PAGES`) that the device drains one page per ``t_write``; the
application waits only when the buffer is full (until its oldest page is written). The
device must also find time for every read and write:

.. math::  T = \\max\\left(T_{cpu},\\; (F + P) t_{read} + Wb\\, t_{write}\\right)

(``P`` prefetched pages), so slow Flash writes show once the buffer fills or the device
saturates (Figure 15). With MFWR (``mfwr_ns`` > 0, §5.1.1) each page written is first compressed
by the thread that writes it: the eviction buffer drains one page per ``t_write + t_mfwr`` (a
synchronous write-back stalls that long); the device's busy time is unchanged. Slowdown = ``T / (N t_ref)`` (DRAM-only = 1). A result is
*bandwidth-bound* when the device's busy time exceeds the critical path or buffer waits cost
more than the faults, *fault-bound* when fault handling costs more than the DRAM-only run
(:attr:`MemExtResult.bound`). ``eviction_buffer_pages=None`` is an unbounded buffer (only the
``max`` above).

Defaults are measured on the build machine: ``t_ref`` from the proxy applications' native
runs (:data:`BASE_NS_PER_REF`), ``t_fault`` from a userfaultfd-resolved 4 KiB fault
(:data:`FAULT_OVERHEAD_NS`); the paper-derived fault cost stays available as
:data:`FAULT_OVERHEAD_PAPER_NS`.

Capacity accounting (§5.2): at DRAM:NVM ratio ``r`` an inclusive extension (NVM holds
every page) keeps ``r`` of the footprint in DRAM, an exclusive one ``r / (1 + r)`` (1:4 ->
25 % vs 20 %). Exclusive extensions write every evicted page, inclusive ones only dirty
pages. First touches allocate in DRAM without an NVM read unless ``cold_start_in_nvm``.

Replacement (§5.4): DRAM pages sit on a ring swept by one hand, the kernel shared with
:mod:`models.sim.policies` (:func:`models.sim.primitives.ring_victim`). FIFO evicts the page
under the hand; CLOCK clears set reference bits until it finds a clear one; the age-based
policy adds 1 to a page's counter (at most ``age_max``) when the sweep finds its bit set
(clearing it), subtracts 1 otherwise and evicts at ``<= 0``. Pages enter with a clear bit
and counter 0; ``age_max = 1`` is CLOCK. The counter follows the paper's text, not
libCacheSim's n-bit Clock, which adds 1 per hit (``docs/models/sim.md``).

Prefetcher (§5.3): the page-fault handler trains a stride detector on the faulting virtual
page numbers: it keeps the 8 most recent distinct strides with a count each; strides seen
at least 5 times are "confirmed". On a fault, if no prefetch is in progress and some
stride is confirmed, the handler pays the submission overhead and a kernel thread fetches
``depth`` pages ahead along every confirmed stride, one after another (``t_read`` each),
inserting them into DRAM (evicting per the policy). An access to a page whose prefetch has
not completed is a *partial miss* (it waits for the rest of the transfer, at most
``t_read``, plus the fault overhead); an access to a page neither in DRAM nor in flight is a
*full miss*.

When the handler submits (``prefetch_submit``) has two readings of §5.3: ``"confirmed"`` (the
default) submits only when some stride is confirmed; ``"every-fault"`` follows the text ("the
page fault handler decides whether to issue a prefetch or not, depending on if there is a
currently running prefetch thread"; "for almost every page fault ... issue a prefetching
request"): every fault that finds no prefetch in progress pays the submission and the worker
prefetches along the confirmed strides, if any (with ``depth = 0`` nothing is ever submitted).

References
----------
.. [1] A. Awad, S. Blagodurov, Y. Solihin, "Write-Aware Management of NVM-based Memory
   Extensions", ICS 2016, doi:10.1145/2925426.2926284 (seed 002), sections 2, 4.3, 5.2-5.4, 6.
.. [2] A. S. Tanenbaum, Modern Operating Systems, 2009 (CLOCK).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

import numpy as np
import pandas as pd
from numba import njit
from pydantic import Field

from models._base import ModelInput, ModelResult, results_frame
from models.devices import DeviceProfile, get_device
from models.provenance import device_keys, param
from models.sim.primitives import evict_block, ring_advance, ring_victim

__all__ = [
    "PAGE_BYTES",
    "DRAM_FRACTIONS",
    "PAPER_SLOWDOWN_25",
    "BASE_NS_PER_REF",
    "FAULT_OVERHEAD_NS",
    "FAULT_OVERHEAD_PAPER_NS",
    "EVICTION_BUFFER_PAGES",
    "SUBMIT_NS",
    "implied_fault_overhead_ns",
    "PageStream",
    "page_stream",
    "dram_pages",
    "MemExtConfig",
    "MemExtResult",
    "simulate_memext",
    "MemExtRun",
    "MemExtClock",
    "time_independent",
    "page_decisions",
    "ratio_sweep",
    "prefetch_sweep",
    "policy_sweep",
    "write_latency_sweep",
    "trace_write_rate",
    "SYNTHETIC_PATTERNS",
    "synthetic_page_stream",
    "TIME_COLUMNS",
    "ratio_sweep_keys",
    "write_latency_sweep_keys",
    "prefetch_sweep_keys",
    "policy_sweep_keys",
]

PAGE_BYTES = 4096
#: DRAM:NVM ratios of Figures 10, 11 and 15 [-].
DRAM_FRACTIONS = (0.5, 0.25, 0.125, 0.0625)
#: Seed 002 §5.2, Figure 11: average slowdown vs DRAM-only at 1:4 (PCM "63.8 % performance
#: degradation", Flash "368 %").
PAPER_SLOWDOWN_25 = {"pcm-memext": 1.638, "nand-flash": 4.68}
#: DRAM-only time per (data) memory reference [ns]: MEASURED here (registry
#: ``memext.base_ns_per_ref``): the median over seed 002's proxy applications of native CPU
#: time / lackey data references (``data/measurements/apps/apps.csv``); a bundled trace uses its
#: own program's measurement (``apps.csv``, ``data/measurements/programs/programs.csv``) (:func:`models.memory.measured.ns_per_ref`).
BASE_NS_PER_REF = param("memext.base_ns_per_ref").value
#: Submission of a prefetch work item to a kernel worker, "about 3-4 microseconds" (§5.3) [ns]
#: (registry ``memext.submit_ns``, published).
SUBMIT_NS = param("memext.submit_ns").value


def implied_fault_overhead_ns(pcm_slowdown: float = PAPER_SLOWDOWN_25["pcm-memext"],
                              flash_slowdown: float = PAPER_SLOWDOWN_25["nand-flash"], *,
                              pcm_read_ns: float | None = None, flash_read_ns: float | None = None) -> float:
    """OS fault cost (outside the device read) implied by two slowdowns of the same workloads [ns].

    With the same faults per reference, ``(S - 1) ∝ (t_fault + t_read)``, so the ratio of the
    PCM and Flash excess slowdowns fixes ``t_fault``:
    ``t_fault = (t_read,F - q t_read,P) / (q - 1)``, ``q = (S_F - 1)/(S_P - 1)``. Fed the
    paper's averages at 1:4 (1.638x and 4.68x, Figure 11) it gives ~5.1 us: the paper's
    slowdowns cannot come from the device latencies alone (150 ns vs 25 us would make the
    Flash excess 166x the PCM one, not 5.8x); the emulated fault path (trap, PerMA driver,
    4 KiB copy, remap) costs microseconds. The read latencies default to the catalogue's
    ``pcm-memext`` and ``nand-flash`` (150 ns and 25 us, seed 002).

    >>> round(implied_fault_overhead_ns())
    5062
    """
    if pcm_read_ns is None:
        pcm_read_ns = get_device("pcm-memext").read_latency_ns
    if flash_read_ns is None:
        flash_read_ns = get_device("nand-flash").read_latency_ns
    q = (flash_slowdown - 1.0) / (pcm_slowdown - 1.0)
    if not (np.isfinite(q) and q > 1.0):
        raise ValueError("flash_slowdown - 1 must exceed pcm_slowdown - 1 (both > 1)")
    h = (flash_read_ns - q * pcm_read_ns) / (q - 1.0)
    if h < 0:
        raise ValueError("the slowdowns imply a negative fault overhead")
    return float(h)


#: OS page-fault handling cost besides the device read [ns]: MEASURED here (registry
#: ``memext.fault_overhead_ns``): a 4 KiB page fault resolved through userfaultfd with
#: UFFDIO_COPY from a DRAM buffer (a memory-speed device) minus the 4 KiB copy itself, median
#: of the runs in ``data/measurements/fault_cost/fault_cost.csv`` (:mod:`models.memory.measured`).
FAULT_OVERHEAD_NS = param("memext.fault_overhead_ns").value
#: The paper-derived alternative [ns]: inverted from seed 002's two Figure 11 averages by
#: :func:`implied_fault_overhead_ns` (registry ``memext.fault_overhead_paper_ns``; a test checks
#: it equals ``round(implied_fault_overhead_ns())``).
FAULT_OVERHEAD_PAPER_NS = param("memext.fault_overhead_paper_ns").value
#: Eviction buffer in DRAM [pages] (registry ``memext.eviction_buffer_pages``, assumed: the paper
#: says "pre-allocated fixed-size" without a size).
EVICTION_BUFFER_PAGES = param("memext.eviction_buffer_pages").value


@dataclass(frozen=True)
class PageStream:
    """A memory trace reduced to page references.

    Attributes
    ----------
    ids : int64 array
        Compact page id per reference, ``0..M-1`` in increasing virtual-page order.
    vpn : int64 array
        Sorted distinct virtual page numbers (``vpn[ids]`` = the referenced page).
    is_write : bool array
        True for stores and modifies.
    name : str
    """

    ids: np.ndarray
    vpn: np.ndarray
    is_write: np.ndarray
    name: str = "pages"

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    @property
    def footprint_pages(self) -> int:
        """Distinct pages referenced [pages]."""
        return int(self.vpn.shape[0])


def page_stream(trace=None, *, address=None, is_write=None, include_instructions: bool = False,
                page_bytes: int = PAGE_BYTES, name: str | None = None) -> PageStream:
    """Page references of a :class:`models.traces.core.MemTrace` (or raw addresses).

    Instruction fetches are dropped by default: the memory extension holds the heap (the
    paper interposes ``malloc``), code pages stay file-backed.

    >>> s = page_stream(address=[0, 4095, 8192, 40960], is_write=[0, 1, 0, 0])
    >>> s.ids.tolist(), s.vpn.tolist(), s.footprint_pages
    ([0, 0, 1, 2], [0, 2, 10], 3)
    """
    if page_bytes <= 0 or page_bytes & (page_bytes - 1):
        raise ValueError(f"page_bytes must be a power of two (got {page_bytes})")
    if trace is not None:
        t = trace if include_instructions else trace.data_only()
        addr = np.asarray(t.address, dtype=np.uint64)
        w = np.asarray(t.is_write, dtype=bool)
        name = name or t.name
    else:
        if address is None:
            raise ValueError("give a MemTrace or address=")
        addr = np.asarray(address)
        if addr.ndim != 1 or addr.dtype.kind not in "iu":
            raise ValueError("address must be a one-dimensional integer array [bytes]")
        if addr.size and addr.dtype.kind == "i" and addr.min() < 0:
            raise ValueError("address must be >= 0")
        addr = addr.astype(np.uint64)
        w = np.zeros(addr.size, bool) if is_write is None else np.asarray(is_write, dtype=bool)
        if w.shape != addr.shape:
            raise ValueError(f"is_write must have the length of address ({addr.size})")
    if addr.size == 0:
        raise ValueError("trace: no memory references (after dropping instruction fetches)")
    shift = np.uint64(int(page_bytes).bit_length() - 1)
    v = (addr >> shift).astype(np.int64)
    # hash-based factorisation, codes in sorted page order: the result of np.unique(v, return_inverse=True)
    # without sorting all n references (~10x less CPU on a 2 M-reference bundled trace)
    inv, uniq = pd.factorize(v, sort=True)
    return PageStream(np.ascontiguousarray(inv, np.int64), np.asarray(uniq, np.int64), np.ascontiguousarray(w),
                      name or "pages")


def dram_pages(footprint_pages: int, dram_frac: float, accounting: str = "inclusive") -> int:
    """DRAM capacity [pages] at DRAM:NVM ratio ``dram_frac`` (§5.2).

    Inclusive: ``r x footprint``; exclusive: ``r / (1 + r) x footprint`` (at least 1 page).

    >>> dram_pages(1000, 0.25, "inclusive"), dram_pages(1000, 0.25, "exclusive")
    (250, 200)
    """
    if not (0 < dram_frac <= 1 and np.isfinite(dram_frac)):
        raise ValueError(f"dram_frac must be in (0, 1] (got {dram_frac!r})")
    if accounting == "inclusive":
        f = dram_frac
    elif accounting == "exclusive":
        f = dram_frac / (1.0 + dram_frac)
    else:
        raise ValueError(f"accounting must be 'inclusive' or 'exclusive' (got {accounting!r})")
    return max(1, int(round(f * footprint_pages)))


class MemExtConfig(ModelInput):
    """One memory-extension configuration (times in ns).

    >>> MemExtConfig(device="nand-flash", write_ns=4e5).latencies()
    (25000.0, 400000.0)
    """

    dram_frac: float = Field(param("memext.dram_frac").value, gt=0, le=1, description="DRAM:NVM capacity ratio [-]")
    accounting: Literal["inclusive", "exclusive"] = "inclusive"
    policy: Literal["fifo", "clock", "age"] = "fifo"
    age_max: int = Field(param("memext.age_max").value, ge=1, le=255, description="age-based counter saturation [-]")
    device: str = Field("pcm-memext", description="catalogue device of the NVM")
    read_ns: float | None = Field(None, gt=0, le=1e9, description="page read latency override [ns]")
    write_ns: float | None = Field(None, gt=0, le=1e9, description="page write latency override [ns]")
    fault_overhead_ns: float = Field(FAULT_OVERHEAD_NS, ge=0, le=1e8, description="OS fault cost [ns]")
    base_ns_per_ref: float = Field(BASE_NS_PER_REF, gt=0, le=1e6, description="DRAM-only time per reference [ns]")
    writeback: Literal["buffered", "sync"] = "buffered"
    eviction_buffer_pages: int | None = Field(
        EVICTION_BUFFER_PAGES, ge=1, le=1 << 24,
        description="eviction buffer in DRAM [pages] (buffered write-back; None = unbounded)")
    prefetch_depth: int = Field(0, ge=0, le=256, description="pages prefetched per confirmed stride [-]")
    prefetch_strides: int = Field(param("memext.prefetch_strides").value, ge=1, le=64,
                                  description="strides remembered [-]")
    prefetch_threshold: int = Field(param("memext.prefetch_threshold").value, ge=1, le=1000,
                                    description="repeats that confirm a stride [-]")
    submit_ns: float = Field(SUBMIT_NS, ge=0, le=1e8, description="prefetch submission overhead [ns]")
    prefetch_submit: Literal["confirmed", "every-fault"] = Field(
        "confirmed", description="when the fault handler submits prefetch work: only when a stride is confirmed, "
                                 "or on every fault with no prefetch in progress (seed 002 §5.3's wording)")
    mfwr_ns: float = Field(0.0, ge=0, le=1e8,
                           description="CPU time of MFWR on each page written to the NVM [ns] (0 = no MFWR; "
                                       "measured: registry memext.mfwr_ns_per_page)")
    cold_start_in_nvm: bool = False

    def latencies(self, device: DeviceProfile | None = None) -> tuple[float, float]:
        """(page read, page write) latency [ns]: the overrides, else the device's 4 KiB transfer."""
        d = device or get_device(self.device)
        r = self.read_ns if self.read_ns is not None else d.transfer_ns(PAGE_BYTES, write=False)
        w = self.write_ns if self.write_ns is not None else d.transfer_ns(PAGE_BYTES, write=True)
        return float(r), float(w)


@dataclass(frozen=True)
class MemExtResult(ModelResult):
    """Outcome of :func:`simulate_memext` (counts and times).

    Attributes
    ----------
    references : int
        Page references simulated [references].
    footprint_pages, dram_pages : int
        Distinct pages referenced; DRAM capacity [pages].
    full_misses, partial_misses : int
        NVM faults on pages neither in DRAM nor in flight / on pages whose prefetch is still
        in flight [faults].
    cold_allocations : int
        First touches allocated in DRAM without an NVM read [pages].
    evictions, dirty_evictions : int
        Pages evicted from DRAM, of which dirty [pages].
    writebacks : int
        Pages written to the NVM [pages] (every eviction when exclusive, else the dirty ones).
    prefetch_submissions, prefetched_pages, prefetch_useful : int
        Prefetch work items submitted; pages prefetched; prefetched pages referenced before
        eviction [-].
    cpu_ns, device_busy_ns, time_ns, dram_only_ns : float
        Critical-path time, device busy time, modelled run time, DRAM-only run time [ns].
    fault_ns, write_stall_ns : float
        Critical-path time in fault handling (fault overhead + device reads + prefetch
        submissions) and waiting for page writes (a full eviction buffer, or every write when
        synchronous) [ns].

    ``to_frame()``: one row of these fields, then ``faults``, ``slowdown`` and ``bound``.
    """

    references: int
    footprint_pages: int
    dram_pages: int
    full_misses: int
    partial_misses: int
    cold_allocations: int
    evictions: int
    dirty_evictions: int
    writebacks: int
    prefetch_submissions: int
    prefetched_pages: int
    prefetch_useful: int
    cpu_ns: float
    device_busy_ns: float
    time_ns: float
    dram_only_ns: float
    fault_ns: float = 0.0
    write_stall_ns: float = 0.0

    FRAME_EXTRAS: ClassVar[tuple[str, ...]] = ("faults", "slowdown", "bound")

    @property
    def bound(self) -> str:
        """What limits the run: ``bandwidth``, ``fault`` or ``compute``.

        ``bandwidth`` when the device cannot keep up (its busy time exceeds the critical path,
        so the run time is the device's) or waiting for page writes (a full eviction buffer)
        costs more than the faults; else ``fault`` when fault handling costs more than the
        DRAM-only run; else ``compute``.
        """
        if self.device_busy_ns > self.cpu_ns or self.write_stall_ns > self.fault_ns:
            return "bandwidth"
        if self.fault_ns > self.dram_only_ns:
            return "fault"
        return "compute"

    @property
    def faults(self) -> int:
        """NVM page faults, full plus partial [faults]."""
        return self.full_misses + self.partial_misses

    @property
    def slowdown(self) -> float:
        """Time relative to DRAM-only [-]."""
        return self.time_ns / self.dram_only_ns

    @property
    def written_bytes(self) -> int:
        """Bytes written to the NVM [bytes] (whole pages)."""
        return self.writebacks * PAGE_BYTES


#: Ring sweep of each policy: the counter ceiling of :func:`models.sim.primitives.ring_victim`
#: (0 FIFO, 1 CLOCK); the age policy uses ``age_max`` (1 is CLOCK exactly).
_COUNTER_MAX = {"fifo": 0, "clock": 1}


@njit(cache=True)
def _replace(v, page, ring, hand, cap, resident, dirty, pref):
    """Evict ``v`` (under the hand) and put ``page`` in its slot; return (1 if v was dirty else 0, hand)."""
    d = evict_block(v, resident, dirty)
    pref[v] = False
    ring[hand] = page
    return d, ring_advance(hand, cap)


@njit(cache=True)
def _enqueue_write(comp, wb_count, buf_cap, t, wfree, write_ns):
    """Put one page write into the eviction buffer at time ``t``.

    Returns (time the writer may go on, new drain-completion time of the device). The buffer
    holds ``buf_cap`` pages; the device drains them one after another (``write_ns`` each); a
    writer finding the buffer full waits until the oldest buffered page is written.
    """
    slot = wb_count % buf_cap
    if comp[slot] > t:
        t = comp[slot]
    start = t if t > wfree else wfree
    wfree = start + write_ns
    comp[slot] = wfree
    return t, wfree


#: The integer scalars of a run's state (:attr:`MemExtRun.iscal`), in order: the counts of
#: :class:`MemExtResult` first (as the kernel's ``out``), then the ring, write-buffer and stride-detector positions.
_ISCAL = ("full", "partial", "cold", "evictions", "dirty_ev", "submits", "pf_pages", "pf_useful",
          "wb_count", "size", "hand", "s_used", "s_next", "last_vpn", "have_last", "refs")
#: The float scalars of a run's state (:attr:`MemExtRun.fscal`) [ns]: critical-path clock, write stalls, time in
#: fault handling, the device's write-drain completion, the end of the prefetch in flight.
_FSCAL = ("now", "stall", "in_faults", "wfree", "busy_until")


@njit(cache=True)
def _memext_resume(ids, vpn, is_write, resident, dirty, ref, cnt, arrival, pref, seen, ring, comp, s_val, s_cnt,
                   iscal, fscal, cap, counter_max, depth, n_strides, threshold,
                   base_ns, fault_ns, read_ns, write_ns, sync_writes, buf_cap, submit_ns, cold_in_nvm, exclusive,
                   record, every_fault):
    """The replay of the memory extension, reference by reference, over the references ``ids`` (one piece of
    the stream, or all of it) from the state held in the arrays (:func:`_fresh_state`'s; updated in place, so the
    next piece carries on where this one stopped: pieces in order give what the whole stream gives in one piece,
    to the last bit; ``tests/models/memory/test_memext_resume.py`` checks it over random cut points). The only copy
    of the loop: :func:`_memext_kernel` (the whole stream) and :class:`MemExtRun` (a stream in pieces) both run it.

    The page id is read once as unsigned (``ux``; ``uc`` for a prefetched page, ``np.uint64(v)`` for a victim) and
    every per-page array is indexed with it: an int64 index makes numba wrap negative values around each array's
    own length, and with the state passed in as arguments (lengths the compiler cannot see are equal) that cost the
    loop ~1.3x its time (``lackey:xz``, 10 M references, 2026-12-05; ``bench/bench_memext_resume.py``).

    ``record``: also return, per demand miss that faults or writes a page back, its reference index in the whole
    stream, whether it faults (not a cold first touch) and whether its eviction writes a page back (the events
    :mod:`models.memory.memext_events` re-times per sample); empty arrays otherwise. ``every_fault``: the handler
    submits a work item on every fault that finds no prefetch in progress (the worker then prefetches along the
    confirmed strides, if any), not only when a stride is confirmed."""
    n = ids.shape[0]
    ev_idx = np.empty(n if record else 0, np.int64)
    ev_fault = np.zeros(n if record else 0, np.bool_)
    ev_write = np.zeros(n if record else 0, np.bool_)
    n_ev = 0
    m = vpn.shape[0]
    full = iscal[0]
    partial = iscal[1]
    cold = iscal[2]
    evictions = iscal[3]
    dirty_ev = iscal[4]
    submits = iscal[5]
    pf_pages = iscal[6]
    pf_useful = iscal[7]
    wb_count = iscal[8]
    size = iscal[9]
    hand = iscal[10]
    s_used = iscal[11]
    s_next = iscal[12]
    last_vpn = iscal[13]
    have_last = iscal[14] != 0
    i0 = iscal[15]
    now = fscal[0]
    stall = fscal[1]
    in_faults = fscal[2]
    wfree = fscal[3]
    busy_until = fscal[4]
    for i in range(n):
        x = ids[i]
        ux = np.uint64(x)  # the page as an index known >= 0 (docstring)
        now += base_ns
        fault = False
        if resident[ux]:
            if arrival[ux] > now:
                partial += 1
                wait = arrival[ux] - now
                if wait > read_ns:
                    wait = read_ns
                now += fault_ns + wait
                in_faults += fault_ns + wait
                fault = True
            if pref[ux]:
                pref[ux] = False
                pf_useful += 1
            ref[ux] = True
        else:
            first = not seen[ux]
            seen[ux] = True
            writes_back = False
            # ---- insert x, evicting a victim when DRAM is full (as prefetch below)
            if size < cap:
                ring[size] = x
                size += 1
            else:
                v, hand = ring_victim(ring, hand, cap, ref, cnt, counter_max)
                d, hand = _replace(np.uint64(v), x, ring, hand, cap, resident, dirty, pref)
                evictions += 1
                dirty_ev += d
                writes_back = exclusive or d == 1
                if exclusive or d:
                    if sync_writes:
                        now += write_ns
                        stall += write_ns
                    elif buf_cap > 0:
                        t2, wfree = _enqueue_write(comp, wb_count, buf_cap, now, wfree, write_ns)
                        stall += t2 - now
                        now = t2
                    wb_count += 1
            resident[ux] = True
            ref[ux] = False
            cnt[ux] = 0
            arrival[ux] = 0.0
            if first and not cold_in_nvm:
                cold += 1
            else:
                full += 1
                now += fault_ns + read_ns
                in_faults += fault_ns + read_ns
                fault = True
            if record and (fault or writes_back):
                ev_idx[n_ev] = i0 + i
                ev_fault[n_ev] = fault
                ev_write[n_ev] = writes_back
                n_ev += 1
        if fault and depth > 0 and cap >= 2:
            p = vpn[ux]
            if have_last:
                s = p - last_vpn
                if s != 0:
                    found = -1
                    for q in range(s_used):
                        if s_val[q] == s:
                            found = q
                            break
                    if found >= 0:
                        s_cnt[found] += 1
                    else:
                        s_val[s_next] = s
                        s_cnt[s_next] = 1
                        s_next += 1
                        if s_next == n_strides:
                            s_next = 0
                        if s_used < n_strides:
                            s_used += 1
            last_vpn = p
            have_last = True
            if now >= busy_until:
                confirmed = False
                for q in range(s_used):
                    if s_cnt[q] >= threshold:
                        confirmed = True
                if confirmed or (every_fault and depth > 0):
                    submits += 1
                    now += submit_ns
                    in_faults += submit_ns
                    t = now
                    for q in range(s_used):
                        if s_cnt[q] < threshold:
                            continue
                        for j in range(1, depth + 1):
                            target = p + j * s_val[q]
                            c = np.searchsorted(vpn, target)
                            uc = np.uint64(c)  # as ux
                            if c >= m or vpn[uc] != target or resident[uc]:
                                continue
                            if not (cold_in_nvm or seen[uc]):
                                continue
                            # insert c (prefetch): same eviction path, no stall for the app
                            if size < cap:
                                ring[size] = c
                                size += 1
                            else:
                                v, hand = ring_victim(ring, hand, cap, ref, cnt, counter_max)
                                if v == x:  # never evict the page just faulted in
                                    hand = ring_advance(hand, cap)
                                    continue
                                d, hand = _replace(np.uint64(v), c, ring, hand, cap, resident, dirty, pref)
                                evictions += 1
                                dirty_ev += d  # written by the kernel thread: no stall for the app
                                if (exclusive or d) and buf_cap > 0 and not sync_writes:
                                    t, wfree = _enqueue_write(comp, wb_count, buf_cap, t, wfree, write_ns)
                                if exclusive or d:
                                    wb_count += 1
                            seen[uc] = True
                            resident[uc] = True
                            ref[uc] = False
                            cnt[uc] = 0
                            pref[uc] = True
                            t += read_ns
                            arrival[uc] = t
                            pf_pages += 1
                    busy_until = t
        if is_write[i]:
            dirty[ux] = True
    iscal[0] = full
    iscal[1] = partial
    iscal[2] = cold
    iscal[3] = evictions
    iscal[4] = dirty_ev
    iscal[5] = submits
    iscal[6] = pf_pages
    iscal[7] = pf_useful
    iscal[8] = wb_count
    iscal[9] = size
    iscal[10] = hand
    iscal[11] = s_used
    iscal[12] = s_next
    iscal[13] = last_vpn
    iscal[14] = 1 if have_last else 0
    iscal[15] = i0 + n
    fscal[0] = now
    fscal[1] = stall
    fscal[2] = in_faults
    fscal[3] = wfree
    fscal[4] = busy_until
    return ev_idx[:n_ev].copy(), ev_fault[:n_ev].copy(), ev_write[:n_ev].copy()


def _fresh_state(m: int, cap: int, buf_cap: int, n_strides: int) -> tuple:
    """The state of a run at its start, as :func:`_memext_resume` takes it (after ``ids, vpn, is_write``):
    per page (``m``) resident, dirty, reference-bit, counter, arrival time, prefetched and seen; the DRAM ring
    (``cap`` slots), the eviction buffer's completion times (``buf_cap`` pages), the stride detector
    (``n_strides`` strides and their counts), the integer and float scalars (:data:`_ISCAL`, :data:`_FSCAL`)."""
    iscal = np.zeros(len(_ISCAL), np.int64)
    iscal[_ISCAL.index("last_vpn")] = -1
    return (np.zeros(m, np.bool_), np.zeros(m, np.bool_), np.zeros(m, np.bool_), np.zeros(m, np.int64),
            np.zeros(m, np.float64), np.zeros(m, np.bool_), np.zeros(m, np.bool_), np.empty(max(cap, 1), np.int64),
            np.zeros(max(buf_cap, 1), np.float64), np.zeros(n_strides, np.int64), np.zeros(n_strides, np.int64),
            iscal, np.zeros(len(_FSCAL), np.float64))


def _memext_kernel(ids, vpn, is_write, cap, counter_max, depth, n_strides, threshold,
                   base_ns, fault_ns, read_ns, write_ns, sync_writes, buf_cap, submit_ns, cold_in_nvm, exclusive,
                   record=False, every_fault=False):
    """The replay of the memory extension over a whole stream: :func:`_memext_resume` from a fresh state
    (:func:`_fresh_state`), in one piece. Returns (the counts of :data:`_ISCAL`'s first 8 names, critical-path
    clock [ns], write stalls [ns], time in fault handling [ns], the recorded events' three arrays)."""
    state = _fresh_state(vpn.shape[0], cap, buf_cap, n_strides)
    ev_idx, ev_fault, ev_write = _memext_resume(
        ids, vpn, is_write, *state, cap, counter_max, depth, n_strides, threshold, base_ns, fault_ns, read_ns,
        write_ns, sync_writes, buf_cap, submit_ns, cold_in_nvm, exclusive, record, every_fault)
    iscal, fscal = state[-2:]
    return iscal[:8].copy(), float(fscal[0]), float(fscal[1]), float(fscal[2]), ev_idx, ev_fault, ev_write


class MemExtRun:
    """One memory-extension run whose page stream arrives in pieces: the state of :func:`simulate_memext`'s
    kernel (resident set, ring and hand, reference bits and counters, dirty and prefetched pages, the eviction
    buffer's queue, the stride detector, clocks and counts) held between pieces.

    Feeding the stream's references in order, cut anywhere, then :meth:`result` gives exactly the
    :class:`MemExtResult` of :func:`simulate_memext` over the whole stream (``tests/models/memory/
    test_memext_resume.py`` checks it over random cut points).

    Parameters
    ----------
    vpn : int64 array
        The stream's sorted distinct virtual page numbers (:attr:`PageStream.vpn`; compact page id ``k`` is
        ``vpn[k]``): the footprint, which sets the DRAM capacity, and the prefetcher's page lookup. Kept, not copied.
    cfg : MemExtConfig
    device : DeviceProfile, keyword-only
        As :func:`simulate_memext`'s.
    use_sim_kernels : bool, keyword-only
        As :func:`simulate_memext`'s: where that function derives the times in closed form from
        :func:`models.sim.policies.simulate`'s counts, :meth:`result` does the same from this kernel's counts
        (the same ring sweep), so both give the same result.

    Examples
    --------
    >>> s = page_stream(address=np.tile(np.arange(8) * 4096, 2))
    >>> run = MemExtRun(s.vpn, MemExtConfig(dram_frac=0.25))
    >>> for a, b in ((0, 5), (5, 16)):
    ...     run.feed(s.ids[a:b], s.is_write[a:b])
    >>> run.result() == simulate_memext(s, MemExtConfig(dram_frac=0.25))
    True
    """

    def __init__(self, vpn, cfg: MemExtConfig | None = None, *, device: DeviceProfile | None = None,
                 use_sim_kernels: bool = True):
        self.cfg = cfg = cfg or MemExtConfig()
        self.device = dev = device or get_device(cfg.device)
        self.vpn = np.ascontiguousarray(vpn, np.int64)
        self.read_ns, self.write_ns = cfg.latencies(dev)
        m = self.footprint_pages = int(self.vpn.shape[0])
        if m < 1:
            raise ValueError("the page stream has no pages")
        self.cap = dram_pages(m, cfg.dram_frac, cfg.accounting)
        self.exclusive = cfg.accounting == "exclusive"
        self.sync = cfg.writeback == "sync"
        self.buf = 0 if (self.sync or cfg.eviction_buffer_pages is None) else int(cfg.eviction_buffer_pages)
        self.closed_form = bool(use_sim_kernels and cfg.prefetch_depth == 0 and cfg.policy in ("fifo", "clock")
                                and self.buf == 0)
        self._alloc()

    @staticmethod
    def state_bytes_for(footprint_pages: int, cfg: MemExtConfig | None = None) -> int:
        """Memory of a run's state [bytes] for ``footprint_pages`` distinct pages (charge it before building one):
        five flags, a counter and an arrival time per page, the DRAM ring, the eviction buffer, the strides.

        >>> MemExtRun.state_bytes_for(1000)  # 21 per page, 8 per slot of the ring (250) and buffer (256)
        25344
        """
        cfg = cfg or MemExtConfig()
        m = int(footprint_pages)
        cap = dram_pages(m, cfg.dram_frac, cfg.accounting) if m else 1
        buf = cfg.eviction_buffer_pages or 1
        return m * (5 + 8 + 8) + 8 * (cap + buf + 2 * cfg.prefetch_strides) + 8 * (len(_ISCAL) + len(_FSCAL))

    def _alloc(self) -> None:
        (self.resident, self.dirty, self.ref, self.cnt, self.arrival, self.pref, self.seen, self.ring, self.comp,
         self.s_val, self.s_cnt, self.iscal, self.fscal) = _fresh_state(self.footprint_pages, self.cap, self.buf,
                                                                       self.cfg.prefetch_strides)

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes] (its arrays)."""
        return int(sum(a.nbytes for a in (self.resident, self.dirty, self.ref, self.cnt, self.arrival, self.pref,
                                          self.seen, self.ring, self.comp, self.s_val, self.s_cnt, self.iscal,
                                          self.fscal)))

    @property
    def references(self) -> int:
        """References fed so far [references]."""
        return int(self.iscal[_ISCAL.index("refs")])

    def feed(self, ids, is_write, *, record: bool = False):
        """Run the next references: compact page ids ``ids`` (int64, ``0 <= id < footprint_pages``) and their
        ``is_write`` flags. ``record``: return the piece's miss events (reference index in the whole stream,
        faults, writes back; :mod:`models.memory.memext_events`), else None."""
        ids = np.ascontiguousarray(ids, np.int64)
        w = np.ascontiguousarray(is_write, np.bool_)
        if w.shape != ids.shape:
            raise ValueError(f"is_write must have the length of ids ({ids.size})")
        # one pass: a negative id read as unsigned is beyond any footprint
        if ids.size and int(ids.view(np.uint64).max()) >= self.footprint_pages:
            raise ValueError(f"page ids must be in 0..{self.footprint_pages - 1} (the footprint)")
        return self._feed(ids, w, record)

    def _feed(self, ids, w, record: bool = False):
        """:meth:`feed` of checked contiguous arrays."""
        cfg = self.cfg
        ev = _memext_resume(
            ids, self.vpn, w, self.resident, self.dirty, self.ref, self.cnt, self.arrival, self.pref, self.seen,
            self.ring, self.comp, self.s_val, self.s_cnt, self.iscal, self.fscal, self.cap,
            _COUNTER_MAX.get(cfg.policy, cfg.age_max), cfg.prefetch_depth, cfg.prefetch_strides,
            cfg.prefetch_threshold, cfg.base_ns_per_ref, cfg.fault_overhead_ns, self.read_ns,
            self.write_ns + cfg.mfwr_ns, self.sync, self.buf, cfg.submit_ns, cfg.cold_start_in_nvm, self.exclusive,
            bool(record), cfg.prefetch_submit == "every-fault")
        return ev if record else None

    def result(self) -> MemExtResult:
        """The run's result over the references fed so far (as :func:`simulate_memext` over them)."""
        cfg, n, m, cap = self.cfg, self.references, self.footprint_pages, self.cap
        counts = {k: int(self.iscal[i]) for i, k in enumerate(_ISCAL[:8])}
        now, stall, in_faults = (float(self.fscal[i]) for i in range(3))
        if self.closed_form:  # simulate_memext's closed form (FIFO/CLOCK, no prefetching, no bounded buffer)
            writes = counts["evictions"] if self.exclusive else counts["dirty_ev"]
            in_faults = counts["full"] * (cfg.fault_overhead_ns + self.read_ns)
            stall = writes * (self.write_ns + cfg.mfwr_ns) if self.sync else 0.0
            now = n * cfg.base_ns_per_ref + in_faults + stall
        return _memext_result(cfg, n, m, cap, counts, now, stall, in_faults, self.read_ns, self.write_ns)


@njit(cache=True)
def _clock_resume(n, ev_idx, ev_fault, ev_write, base_ns, fault_ns, read_ns, write_ns, sync_writes, buf_cap, comp,
                  iscal, fscal):
    """The critical-path clock of :func:`_memext_resume` without prefetching, over ``n`` references whose misses
    are the events ``ev_idx, ev_fault, ev_write`` (another run's, FIFO or CLOCK: which references miss and write
    back does not depend on any time): per reference the same additions in the same order, so the same bits.
    State in place: ``iscal`` = (pages written so far, references so far), ``fscal`` = (now, stall, in_faults,
    wfree)."""
    wb_count = iscal[0]
    i0 = iscal[1]
    now = fscal[0]
    stall = fscal[1]
    in_faults = fscal[2]
    wfree = fscal[3]
    k = 0
    n_ev = ev_idx.shape[0]
    for i in range(n):
        now += base_ns
        if k < n_ev and ev_idx[k] == i0 + i:
            if ev_write[k]:
                if sync_writes:
                    now += write_ns
                    stall += write_ns
                elif buf_cap > 0:
                    t2, wfree = _enqueue_write(comp, wb_count, buf_cap, now, wfree, write_ns)
                    stall += t2 - now
                    now = t2
                wb_count += 1
            if ev_fault[k]:
                now += fault_ns + read_ns
                in_faults += fault_ns + read_ns
            k += 1
    iscal[0] = wb_count
    iscal[1] = i0 + n
    fscal[0] = now
    fscal[1] = stall
    fscal[2] = in_faults
    fscal[3] = wfree


def time_independent(cfg: MemExtConfig) -> bool:
    """Which references miss and which evictions write back does not depend on any time (FIFO or CLOCK without
    prefetching): runs differing only in times (device, latencies, fault cost, write-back, buffer) share them."""
    return cfg.prefetch_depth == 0 and cfg.policy in ("fifo", "clock")


def page_decisions(cfg: MemExtConfig) -> tuple:
    """The fields of ``cfg`` that decide which pages are resident (two time-independent runs with the same
    decisions miss on the same references)."""
    return (cfg.dram_frac, cfg.accounting, cfg.policy, cfg.cold_start_in_nvm)


class MemExtClock:
    """A :class:`MemExtRun` that shares another run's page decisions: a time-independent configuration
    (:func:`time_independent`) with the leader's :func:`page_decisions`, fed the leader's miss events; only its
    clock and eviction buffer are its own (a few bytes, not ~21 per page). Its :meth:`result` is what its own
    :class:`MemExtRun` would give, exactly.

    >>> s = page_stream(address=np.tile(np.arange(8) * 4096, 3), is_write=np.tile([True, False], 12))
    >>> lead = MemExtRun(s.vpn, MemExtConfig(dram_frac=0.25, eviction_buffer_pages=1))
    >>> other = MemExtConfig(dram_frac=0.25, eviction_buffer_pages=1, device="nand-flash")
    >>> clock = MemExtClock(lead, other)
    >>> clock.feed(len(s), lead.feed(s.ids, s.is_write, record=True))
    >>> clock.result(lead) == simulate_memext(s, other)
    True
    """

    def __init__(self, leader: MemExtRun, cfg: MemExtConfig, *, device: DeviceProfile | None = None,
                 use_sim_kernels: bool = True):
        if not (time_independent(cfg) and time_independent(leader.cfg)
                and page_decisions(cfg) == page_decisions(leader.cfg)):
            raise ValueError("a MemExtClock needs FIFO or CLOCK without prefetching and the leader's page decisions")
        self.cfg = cfg
        self.device = dev = device or get_device(cfg.device)
        self.read_ns, self.write_ns = cfg.latencies(dev)
        self.sync = cfg.writeback == "sync"
        self.buf = 0 if (self.sync or cfg.eviction_buffer_pages is None) else int(cfg.eviction_buffer_pages)
        self.closed_form = bool(use_sim_kernels and self.buf == 0)
        self.comp = np.zeros(max(self.buf, 1), np.float64)
        self.iscal = np.zeros(2, np.int64)
        self.fscal = np.zeros(4, np.float64)

    @property
    def state_bytes(self) -> int:
        """Memory of the state [bytes]."""
        return int(self.comp.nbytes + self.iscal.nbytes + self.fscal.nbytes)

    def feed(self, n: int, events) -> None:
        """The next ``n`` references, whose miss events (the leader's :meth:`MemExtRun.feed` with ``record``) are
        ``events``."""
        idx, fault, write = events
        c = self.cfg
        _clock_resume(int(n), idx, fault, write, c.base_ns_per_ref, c.fault_overhead_ns, self.read_ns,
                      self.write_ns + c.mfwr_ns, self.sync, self.buf, self.comp, self.iscal, self.fscal)

    def result(self, leader: MemExtRun) -> MemExtResult:
        """The result over the references fed so far, the counts the ``leader``'s."""
        cfg, n = self.cfg, int(self.iscal[1])
        if n != leader.references:
            raise ValueError(f"the clock saw {n:,} references, its leader {leader.references:,}")
        counts = {k: int(leader.iscal[i]) for i, k in enumerate(_ISCAL[:8])}
        now, stall, in_faults = (float(self.fscal[i]) for i in range(3))
        if self.closed_form:  # as MemExtRun.result
            writes = counts["evictions"] if cfg.accounting == "exclusive" else counts["dirty_ev"]
            in_faults = counts["full"] * (cfg.fault_overhead_ns + self.read_ns)
            stall = writes * (self.write_ns + cfg.mfwr_ns) if self.sync else 0.0
            now = n * cfg.base_ns_per_ref + in_faults + stall
        return _memext_result(cfg, n, leader.footprint_pages, leader.cap, counts, now, stall, in_faults, self.read_ns,
                              self.write_ns)


def _memext_result(cfg, n, m, cap, counts, now, stall, in_faults, read_ns, write_ns) -> MemExtResult:
    """The :class:`MemExtResult` of a run's counts and critical-path times (device busy time and run time)."""
    writes = counts["evictions"] if cfg.accounting == "exclusive" else counts["dirty_ev"]
    busy = (counts["full"] + counts["pf_pages"]) * read_ns + writes * write_ns
    total = max(float(now), busy) if cfg.writeback == "buffered" else float(now)
    return MemExtResult(
        references=n, footprint_pages=m, dram_pages=cap, full_misses=counts["full"],
        partial_misses=counts["partial"], cold_allocations=counts["cold"],
        evictions=counts["evictions"], dirty_evictions=counts["dirty_ev"], writebacks=int(writes),
        prefetch_submissions=counts["submits"], prefetched_pages=counts["pf_pages"],
        prefetch_useful=counts["pf_useful"], cpu_ns=float(now), device_busy_ns=float(busy),
        time_ns=total, dram_only_ns=n * cfg.base_ns_per_ref, fault_ns=float(in_faults),
        write_stall_ns=float(stall),
    )


def simulate_memext(stream: PageStream, cfg: MemExtConfig | None = None, *,
                    device: DeviceProfile | None = None, use_sim_kernels: bool = True) -> MemExtResult:
    """Run a page stream through a DRAM + NVM memory extension.

    Parameters
    ----------
    stream : PageStream
        Page references (see :func:`page_stream`).
    cfg : MemExtConfig
        Configuration (default: PCM, 1:4 inclusive, FIFO, buffered write-back, no prefetch).
    device : DeviceProfile, keyword-only
        Device profile to use instead of the catalogue entry ``cfg.device``.
    use_sim_kernels : bool, keyword-only
        Count FIFO/CLOCK faults without prefetching with :func:`models.sim.policies.simulate`
        and derive the times in closed form; otherwise (and always for the age policy or
        prefetching) the dedicated kernel here, which tracks time reference by reference. Both
        evict with the same ring sweep.

    Returns
    -------
    MemExtResult

    Examples
    --------
    A sequential sweep over 8 pages twice, DRAM holding 2 pages: 16 references x 1 us plus 8 faults
    x (5062 + 150) ns = 57.7 us, 3.61 x the 16 us of DRAM only, set by the faults:

    >>> s = page_stream(address=np.tile(np.arange(8) * 4096, 2))
    >>> r = simulate_memext(s, MemExtConfig(dram_frac=0.25, base_ns_per_ref=1000, fault_overhead_ns=5062))
    >>> r.dram_pages, r.cold_allocations, r.full_misses, round(r.slowdown, 2), r.bound
    (2, 8, 8, 3.61, 'fault')
    """
    cfg = cfg or MemExtConfig()
    dev = device or get_device(cfg.device)
    read_ns, write_ns = cfg.latencies(dev)
    n = len(stream)
    m = stream.footprint_pages
    cap = dram_pages(m, cfg.dram_frac, cfg.accounting)
    exclusive = cfg.accounting == "exclusive"
    sync = cfg.writeback == "sync"
    buf = 0 if (sync or cfg.eviction_buffer_pages is None) else int(cfg.eviction_buffer_pages)
    if use_sim_kernels and cfg.prefetch_depth == 0 and cfg.policy in ("fifo", "clock") and buf == 0:
        from models.sim.policies import simulate

        r = simulate(stream.ids, cap, cfg.policy, is_write=stream.is_write)
        cold = 0 if cfg.cold_start_in_nvm else m
        full = r.misses - cold
        evictions = max(0, r.inserts - cap)
        dirty_ev = r.writebacks
        writes = evictions if exclusive else dirty_ev
        in_faults = full * (cfg.fault_overhead_ns + read_ns)
        stall = writes * (write_ns + cfg.mfwr_ns) if sync else 0.0
        now = n * cfg.base_ns_per_ref + in_faults + stall
        counts = dict(full=full, partial=0, cold=cold, evictions=evictions, dirty_ev=dirty_ev,
                      submits=0, pf_pages=0, pf_useful=0)
        return _memext_result(cfg, n, m, cap, counts, now, stall, in_faults, read_ns, write_ns)
    out, now, stall, in_faults, _, _, _ = _memext_kernel(
        stream.ids, stream.vpn, stream.is_write, cap, _COUNTER_MAX.get(cfg.policy, cfg.age_max),
        cfg.prefetch_depth, cfg.prefetch_strides, cfg.prefetch_threshold, cfg.base_ns_per_ref,
        cfg.fault_overhead_ns, read_ns, write_ns + cfg.mfwr_ns, sync, buf, cfg.submit_ns, cfg.cold_start_in_nvm,
        exclusive,
        False, cfg.prefetch_submit == "every-fault")
    counts = {k: int(out[i]) for i, k in enumerate(_ISCAL[:8])}
    return _memext_result(cfg, n, m, cap, counts, now, stall, in_faults, read_ns, write_ns)


def _run(stream: PageStream, cfg: dict) -> MemExtResult:
    """simulate_memext with ``cfg["device"]`` a catalogue name or a DeviceProfile (custom devices)."""
    d = cfg.get("device", "pcm-memext")
    if isinstance(d, DeviceProfile):
        return simulate_memext(stream, MemExtConfig(**{**cfg, "device": d.name}), device=d)
    return simulate_memext(stream, MemExtConfig(**cfg))


def _progress(cb, i, total):
    if cb is not None:
        cb(i / total)


def _sweep_table(keys: list[dict], results: list[MemExtResult], after: list[dict] | None = None) -> pd.DataFrame:
    """One row per run: its ``keys`` columns, its result (``to_frame()`` columns), then ``after``."""
    parts = [pd.DataFrame(keys), results_frame(results)] + ([pd.DataFrame(after)] if after is not None else [])
    return pd.concat(parts, axis=1)


def ratio_sweep(stream: PageStream, *, devices=("pcm-memext", "nand-flash"),
                fractions=DRAM_FRACTIONS, progress=None, **cfg) -> pd.DataFrame:
    """Figures 10/11: faults and slowdown vs DRAM:NVM ratio for each device.

    ``cfg`` holds further :class:`MemExtConfig` fields; ``progress`` an optional
    ``callable(fraction)``.

    Returns
    -------
    pandas.DataFrame
        ``device, dram_frac, dram_pages, faults, writebacks, time_ns, slowdown`` and the other
        :class:`MemExtResult` fields.
    """
    keys, results = [], []
    jobs = [(d, f) for d in devices for f in fractions]
    for i, (d, f) in enumerate(jobs):
        dev = d if isinstance(d, DeviceProfile) else get_device(d)
        results.append(simulate_memext(stream, MemExtConfig(**{**cfg, "dram_frac": f, "device": dev.name}), device=dev))
        keys.append({"device": dev.name, "dram_frac": f})
        _progress(progress, i + 1, len(jobs))
    return _sweep_table(keys, results)


def prefetch_sweep(stream: PageStream, *, depths=(0, 1, 2, 4, 8, 16), progress=None, **cfg) -> pd.DataFrame:
    """Figure 13: full / partial misses, misses saved and time vs prefetch depth.

    ``cfg`` holds further :class:`MemExtConfig` fields (``device`` may be a DeviceProfile).

    Returns
    -------
    pandas.DataFrame
        ``depth, full_misses, partial_misses, faults, saved_misses, time_ns, slowdown,
        speedup_vs_no_prefetch`` and the other result fields.
    """
    keys, results, after = [], [], []
    base = _run(stream, {**cfg, "prefetch_depth": 0})
    for i, d in enumerate(depths):
        r = base if d == 0 else _run(stream, {**cfg, "prefetch_depth": int(d)})
        keys.append({"depth": int(d)})
        results.append(r)
        after.append({"saved_misses": base.faults - r.faults, "speedup_vs_no_prefetch": base.time_ns / r.time_ns})
        _progress(progress, i + 1, len(depths))
    return _sweep_table(keys, results, after)


def policy_sweep(stream: PageStream, *, policies=("fifo", "clock", "age"), fractions=DRAM_FRACTIONS,
                 progress=None, **cfg) -> pd.DataFrame:
    """Figure 14: page faults of CLOCK and age-based counters relative to FIFO.

    Returns
    -------
    pandas.DataFrame
        ``policy, dram_frac, faults, faults_rel_fifo, slowdown`` and the other result fields.
    """
    keys, results = [], []
    jobs = [(f, p) for f in fractions for p in policies]
    fifo = {}
    for i, (f, p) in enumerate(jobs):
        r = _run(stream, {**cfg, "dram_frac": f, "policy": p})
        if p == "fifo":
            fifo[f] = r.faults
        keys.append({"policy": p, "dram_frac": f})
        results.append(r)
        _progress(progress, i + 1, len(jobs))
    df = _sweep_table(keys, results)
    if "fifo" not in policies:
        for f in fractions:
            fifo[f] = _run(stream, {**cfg, "dram_frac": f, "policy": "fifo"}).faults
    ref = df["dram_frac"].map(fifo).astype(float)
    df["faults_rel_fifo"] = np.where(ref > 0, df["faults"] / ref.where(ref > 0, 1.0), np.nan)
    return df


def write_latency_sweep(stream: PageStream, *, flash_write_ns=(25e3, 100e3, 200e3, 400e3),
                        fractions=DRAM_FRACTIONS, progress=None, **cfg) -> pd.DataFrame:
    """Figure 15: slowdown of Flash (25 us read, varying write) vs PCM, per DRAM:NVM ratio.

    Returns
    -------
    pandas.DataFrame
        ``config, write_ns, dram_frac, slowdown, ...`` (``config`` = ``pcm`` or ``flash-w<us>``).
    """
    keys, results = [], []
    cfgs = [("pcm", "pcm-memext", None)] + [(f"flash-w{w / 1e3:g}us", "nand-flash", float(w)) for w in flash_write_ns]
    jobs = [(c, f) for c in cfgs for f in fractions]
    for i, ((label, dev, w), f) in enumerate(jobs):
        c = MemExtConfig(**{**cfg, "dram_frac": f, "device": dev, "write_ns": w})
        results.append(simulate_memext(stream, c))
        keys.append({"config": label, "write_ns": c.latencies()[1], "dram_frac": f})
        _progress(progress, i + 1, len(jobs))
    return _sweep_table(keys, results)


def trace_write_rate(stream: PageStream, cfg: MemExtConfig | None = None) -> float:
    """NVM write rate of a trace [bytes/s]: written pages x 4 KiB / modelled run time.

    This is the rate the lifetime model needs (seed 002 Figures 2 and 9 use cell write
    rates of the applications); the time base is ``cfg.base_ns_per_ref`` (measured).

    >>> s = page_stream(address=np.tile(np.arange(8) * 4096, 4), is_write=np.ones(32, bool))
    >>> trace_write_rate(s, MemExtConfig(dram_frac=0.25, base_ns_per_ref=1000)) > 0
    True
    """
    r = simulate_memext(stream, cfg or MemExtConfig())
    return r.written_bytes / (r.time_ns * 1e-9)


#: Synthetic page-reference patterns standing in for the paper's application classes (§5.2-5.4).
SYNTHETIC_PATTERNS = {
    "streaming": "repeated sequential sweeps over the whole footprint, little reuse (MiniAMR/SimpleMoC-like)",
    "working-set": "sweeps over a hot working set (40 % of the footprint) with occasional full sweeps (Lulesh/MiniFE-like)",
    "indirection": "a small hot pointer table (1 %) between random accesses to big arrays (XSBench-like)",
}


def synthetic_page_stream(pattern: str = "working-set", *, footprint_pages: int = 4096,
                          references: int = 400_000, refs_per_visit: int = 8, write_fraction: float = 0.3,
                          seed=0) -> PageStream:
    """A synthetic page-reference stream of one of :data:`SYNTHETIC_PATTERNS` (seeded).

    These are NOT measured traces: they mimic the access structure the paper describes for its
    application classes so the models can be explored without a trace. ``write_fraction`` of
    the pages it visits (a contiguous region, like an output array) are written on every visit.

    >>> s = synthetic_page_stream("streaming", footprint_pages=64, references=2048, seed=0)
    >>> len(s), s.footprint_pages
    (2048, 64)
    >>> s = synthetic_page_stream("working-set", footprint_pages=2048, references=1_000_000, refs_per_visit=256)
    >>> s.footprint_pages, round(float(np.unique(s.vpn[s.ids[s.is_write]]).size / s.footprint_pages), 2)
    (819, 0.3)
    """
    from models._base import as_generator

    if pattern not in SYNTHETIC_PATTERNS:
        raise ValueError(f"pattern: unknown {pattern!r}; valid: {', '.join(SYNTHETIC_PATTERNS)}")
    if not (isinstance(footprint_pages, (int, np.integer)) and 16 <= footprint_pages <= 10_000_000):
        raise ValueError(f"footprint_pages must be an integer in 16..1e7 (got {footprint_pages!r})")
    if not (isinstance(references, (int, np.integer)) and 1 <= references <= 200_000_000):
        raise ValueError(f"references must be an integer in 1..2e8 (got {references!r})")
    if not (isinstance(refs_per_visit, (int, np.integer)) and 1 <= refs_per_visit <= 4096):
        raise ValueError(f"refs_per_visit must be an integer in 1..4096 (got {refs_per_visit!r})")
    if not (0 <= write_fraction <= 1):
        raise ValueError(f"write_fraction must be in [0, 1] (got {write_fraction!r})")
    rng = as_generator(seed)
    F = int(footprint_pages)
    visits = -(-int(references) // refs_per_visit)
    if pattern == "streaming":
        pages = np.arange(visits) % F
    elif pattern == "working-set":
        hot = max(1, int(0.4 * F))
        sweep = np.concatenate([np.tile(np.arange(hot), 4), np.arange(F)])
        pages = np.resize(sweep, visits)
    else:
        table = max(1, F // 100)
        big = rng.integers(table, F, size=visits)
        hot = rng.integers(0, table, size=visits)
        pages = np.where(np.arange(visits) % 2 == 0, hot, big)
    pages = np.repeat(pages, refs_per_visit)[:references]
    # writes: a contiguous "output" region at the top of the pages the stream visits (a short
    # working-set stream may end before its first full sweep: the region must be among its pages)
    top = int(pages.max()) + 1 if len(pages) else F
    w = pages >= top - int(round(write_fraction * top))
    offs = np.tile(np.arange(refs_per_visit) * (PAGE_BYTES // refs_per_visit), visits)[:references]
    addr = pages.astype(np.int64) * PAGE_BYTES + offs
    return page_stream(address=addr, is_write=w, name=f"synthetic:{pattern}")


# ----------------------------------------------------------------------------- provenance of the results
#: The device values a simulated time reads (a page's transfer in both directions).
TIME_COLUMNS = ("access_unit_bytes", "read_latency_ns", "write_latency_ns", "read_bandwidth_MBps",
                "write_bandwidth_MBps")


def ratio_sweep_keys(fast: DeviceProfile | str, slow: DeviceProfile | str) -> list[str]:
    """Provenance keys (:mod:`models.provenance`) of :func:`ratio_sweep` on the devices ``fast`` and
    ``slow``: time per reference, fault cost, eviction buffer and both devices' transfer values.

    >>> ratio_sweep_keys("pcm-memext", "nand-flash")[3]
    'device:pcm-memext.access_unit_bytes'
    """
    return ["memext.base_ns_per_ref", "memext.fault_overhead_ns", "memext.eviction_buffer_pages",
            *device_keys(fast, TIME_COLUMNS), *device_keys(slow, TIME_COLUMNS)]


def write_latency_sweep_keys() -> list[str]:
    """Provenance keys of :func:`write_latency_sweep`: the catalogue PCM and Flash (its write latency varied)."""
    return ["memext.base_ns_per_ref", "memext.fault_overhead_ns", *device_keys("pcm-memext", TIME_COLUMNS),
            *device_keys("nand-flash", ("read_latency_ns", "access_unit_bytes"))]


def prefetch_sweep_keys(fast: DeviceProfile | str, slow: DeviceProfile | str) -> list[str]:
    """Provenance keys of :func:`prefetch_sweep` on ``fast`` and ``slow``: :func:`ratio_sweep_keys` and the
    prefetcher's (submission cost, threshold, strides) at its DRAM share."""
    return [*ratio_sweep_keys(fast, slow), "memext.submit_ns", "memext.prefetch_threshold",
            "memext.prefetch_strides", "memext.dram_frac"]


def policy_sweep_keys(device: DeviceProfile | str) -> list[str]:
    """Provenance keys of :func:`policy_sweep` on ``device``: the age policy's ceiling and its transfer values."""
    return ["memext.age_max", *device_keys(device, TIME_COLUMNS)]
