"""Virtual memory on fast storage: TLB, page faults and AMAT vs page size (Park & Bahn 2020, §3-5).

Every data reference is translated through a fully associative LRU TLB, then served from
memory or, on a page fault, from storage. With TLB miss rate ``R_T`` and page-fault rate
``R_F`` the average memory access time is (equations 4-6 of the paper)

.. math::

    T_{ADDR} &= (1 - R_T)\\,t_e + R_T\\,(t_e + t_r) \\\\
    T_{DATA} &= (1 - R_F)\\,t_r + R_F\\,(t_r + T_{PF}) \\\\
    T_{TOTAL} &= T_{ADDR} + T_{DATA}

with ``t_e`` the TLB access time, ``t_r`` the memory access time and ``T_PF`` the fault
service time (:func:`fault_service_ns`), one of two models:

- ``latency`` (default): ``T_PF = overhead + storage latency + page_size / storage bandwidth``;
  with a latency multiple the bandwidth is DRAM's divided by ``K``, but DRAM's bandwidth is so
  high that the latency dominates (10x DRAM: 1015 ns + 49 ns for 512 B ... 6.2 us for 64 KiB).
- ``transfer``: ``T_PF = overhead + storage latency x ceil(page_size / 64 B)``: every 64-byte
  line of the page costs one storage access, i.e. the per-byte cost ``t_r / 64 B`` scaled with
  the latency multiple. This is the paper's reading (§4.3: "as the data size becomes large, a
  storage access requires more time to load data"); it is the one that gives 512 B best at 10x
  and 100x (the validation ledger, seed 004 Figure 9 claims, compares both).

How the rates are computed
--------------------------
- Virtual page numbers ``address >> log2(page)`` are made compact once for the smallest
  page size (one sort); larger pages reuse that sort (their ids are a gather).
- One exact LRU stack-distance pass per page size (:func:`models.sim.stack_distance.stack_distances`)
  gives the TLB hit rate at **every** TLB size and the LRU page-fault rate at **every**
  memory size (both are LRU over the same page stream: inclusion property).
- The second-chance (CLOCK) fault rate, the paper's memory policy, is simulated at each
  requested memory size (:func:`models.sim.policies.simulate_clock` with
  ``referenced_on_insert=True``: the faulting access sets the page's reference bit, §3.2), O(N) per size.
- Fault rates count compulsory faults (memory starts empty) and are per data reference.
  Memory holds ``floor(memory_bytes / page_size)`` frames: the same physical memory for
  every page size. A memory *fraction* is relative to the trace footprint in 4 KiB pages.
- Accesses straddling a page boundary are attributed to the page of their first byte.
  Dirty-page write-back is not modelled (equation 6 has no write term).

Storage (``T_PF``)
------------------
- a *latency multiple* ``K`` of DRAM, the paper's "relative access latency of SCM"
  (1x, 10x, 100x, 1000x): latency ``K * t_r`` and bandwidth ``B_DRAM / K`` (DRAM slowed down
  ``K`` times; ``B_DRAM`` = the catalogue DRAM read bandwidth);
- a device profile (:func:`models.devices.get_device`): its read latency and read bandwidth;
- an explicit latency [ns] (bandwidth given, or else scaled like a latency multiple).

Default parameters and sources
------------------------------
``t_e = 0.5 ns`` (:data:`DEFAULT_TLB_ACCESS_NS`)
    One clock cycle at 2 GHz; Hennessy & Patterson (5th ed., App. B) give typical TLB hit
    times of 0.5-1 clock cycle. The paper gives no value.
``t_r = 101.5 ns`` (:func:`default_memory_ns`)
    The catalogue's DRAM random-read latency (Yang et al., FAST 2020). The paper gives no
    value.
``overhead = 0 ns`` (:data:`DEFAULT_FAULT_OVERHEAD_NS`)
    The paper's ``T_PF`` is "the latency for page fault handling including storage access
    time" and its experiments vary only the storage latency relative to DRAM, so by default
    the fault costs the storage access alone; a software overhead (e.g. the measured
    page-cache insertion cost, about 2 us per 4 KiB in ``data/measurements``) is a parameter.
``TLB = 64 entries`` (:data:`DEFAULT_TLB_ENTRIES`)
    A typical first-level data TLB (Hennessy & Patterson: 16-512 entries).

References
----------
.. [1] Y. Park, H. Bahn, "Issues in File Caching and Virtual Memory Paging with Fast SCM
   Storage", ASTESJ 5(5), 2020, doi:10.25046/aj050581 (seed 004), sections 3-5, eqs. 4-6.
.. [2] R. L. Mattson, J. Gecsei, D. R. Slutz, I. L. Traiger, "Evaluation techniques for
   storage hierarchies", IBM Systems Journal 9(2), 1970 (stack distances).
.. [3] J. L. Hennessy, D. A. Patterson, "Computer Architecture: A Quantitative Approach",
   5th ed., 2012, Appendix B (TLB parameters).
.. [4] J. Yang et al., "An Empirical Guide to the Behavior and Use of Scalable Persistent
   Memory", USENIX FAST 2020 (DRAM latency and bandwidth in ``data/devices.csv``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
from pydantic import Field, field_validator, model_validator

from models._base import ModelInput, ModelResult
from models.devices import DeviceProfile, device_names, get_device
from models.provenance import device_keys, param
from models.sim.policies import simulate_clock
from models.sim.stack_distance import hit_ratio_curve, stack_distances
from models.traces.core import MemTrace

__all__ = [
    "PAGE_SIZES",
    "LATENCY_MULTIPLES",
    "REFERENCE_PAGE_BYTES",
    "DEFAULT_TLB_ENTRIES",
    "DEFAULT_TLB_ACCESS_NS",
    "DEFAULT_FAULT_OVERHEAD_NS",
    "default_memory_ns",
    "default_dram_bandwidth_MBps",
    "Storage",
    "storage_from_multiple",
    "storage_from_device",
    "storage_from_latency",
    "fault_service_ns",
    "amat",
    "compact_page_ids",
    "PageSizeProfile",
    "PagingProfile",
    "profile_trace",
    "PagingInputs",
    "paging_inputs",
    "paging_profile",
    "paging_table",
    "run_paging",
    "best_page_sizes",
    "provenance_keys_for",
]

KiB = 1024
#: Page sizes of the paper's study (512 B - 64 KiB) plus the 2 MiB huge page for comparison [bytes].
PAGE_SIZES: tuple[int, ...] = (512, KiB, 2 * KiB, 4 * KiB, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 2 * KiB * KiB)
#: Storage latency as multiples of DRAM (Figures 9 and 13) [-].
LATENCY_MULTIPLES: tuple[float, ...] = (1.0, 10.0, 100.0, 1000.0)
#: Page size whose footprint defines memory fractions [bytes].
REFERENCE_PAGE_BYTES = 4096
#: Defaults of t_e, the fault overhead and the TLB size: registry ``paging.*`` (all assumed, see above).
DEFAULT_TLB_ENTRIES = param("paging.tlb_entries").value
DEFAULT_TLB_ACCESS_NS = param("paging.tlb_access_ns").value
DEFAULT_FAULT_OVERHEAD_NS = param("paging.fault_overhead_ns").value


def default_memory_ns() -> float:
    """Memory access time ``t_r`` [ns]: the catalogue DRAM read latency.

    >>> default_memory_ns()
    101.5
    """
    return float(get_device("dram").read_latency_ns)


def default_dram_bandwidth_MBps() -> float:
    """DRAM read bandwidth [MB/s] used to scale latency-multiple storage (catalogue DRAM).

    >>> default_dram_bandwidth_MBps()
    105560.0
    """
    return float(get_device("dram").effective_read_bandwidth_MBps)


# ----------------------------------------------------------------------------- storage and AMAT
@dataclass(frozen=True)
class Storage:
    """Backing store of the paging system: latency [ns] and bandwidth [MB/s = 1e6 B/s]."""

    label: str
    latency_ns: float
    bandwidth_MBps: float
    latency_multiple: float = float("nan")

    def __post_init__(self) -> None:
        if not (np.isfinite(self.latency_ns) and self.latency_ns >= 0):
            raise ValueError(f"storage latency_ns must be finite and >= 0 (got {self.latency_ns})")
        if not (np.isfinite(self.bandwidth_MBps) and self.bandwidth_MBps > 0):
            raise ValueError(f"storage bandwidth_MBps must be finite and > 0 (got {self.bandwidth_MBps})")


def storage_from_multiple(k: float, *, t_r_ns: float | None = None, dram_bandwidth_MBps: float | None = None) -> Storage:
    """Storage ``k`` times slower than DRAM: latency ``k t_r``, bandwidth ``B_DRAM / k``.

    >>> s = storage_from_multiple(100)
    >>> s.latency_ns, round(s.bandwidth_MBps, 2), s.label
    (10150.0, 1055.6, '100x DRAM')
    """
    if not (np.isfinite(k) and k > 0):
        raise ValueError(f"latency_multiple must be > 0 (got {k})")
    t_r = default_memory_ns() if t_r_ns is None else float(t_r_ns)
    bw = default_dram_bandwidth_MBps() if dram_bandwidth_MBps is None else float(dram_bandwidth_MBps)
    return Storage(f"{k:g}x DRAM", k * t_r, bw / k, float(k))


def storage_from_device(device: DeviceProfile | str, *, t_r_ns: float | None = None) -> Storage:
    """Storage from a device profile: its read latency and (effective) read bandwidth.

    >>> s = storage_from_device("optane-dcpmm")
    >>> s.latency_ns, s.bandwidth_MBps
    (305.0, 37630.0)
    """
    dev = get_device(device) if isinstance(device, str) else device
    t_r = default_memory_ns() if t_r_ns is None else float(t_r_ns)
    return Storage(dev.name, float(dev.read_latency_ns), float(dev.effective_read_bandwidth_MBps),
                   float(dev.read_latency_ns) / t_r)


def storage_from_latency(latency_ns: float, bandwidth_MBps: float | None = None, *, t_r_ns: float | None = None,
                         dram_bandwidth_MBps: float | None = None) -> Storage:
    """Storage with an explicit latency [ns]; without a bandwidth it scales like a latency multiple.

    >>> storage_from_latency(1015.0).bandwidth_MBps == storage_from_multiple(10).bandwidth_MBps
    True
    """
    t_r = default_memory_ns() if t_r_ns is None else float(t_r_ns)
    if not (np.isfinite(latency_ns) and latency_ns > 0):
        raise ValueError(f"storage_latency_ns must be > 0 (got {latency_ns})")
    k = latency_ns / t_r
    if bandwidth_MBps is None:
        bw = (default_dram_bandwidth_MBps() if dram_bandwidth_MBps is None else dram_bandwidth_MBps) / k
    else:
        bw = float(bandwidth_MBps)
    return Storage(f"{latency_ns:g} ns", float(latency_ns), bw, k)


def fault_service_ns(page_size_bytes, storage: Storage, overhead_ns: float = DEFAULT_FAULT_OVERHEAD_NS, *,
                     fault_model: str = "latency", line_bytes: int | None = None):
    """Page-fault service time ``T_PF`` [ns], vectorised over page sizes.

    Parameters
    ----------
    page_size_bytes : array_like
        Page sizes [bytes].
    storage : Storage
        Backing store (latency [ns], bandwidth [MB/s]).
    overhead_ns : float
        Software fault-handling overhead [ns].
    fault_model : {"latency", "transfer"}, keyword-only
        ``"latency"``: ``T_PF = overhead + latency + page / bandwidth`` (one storage access,
        then a stream at the storage bandwidth). ``"transfer"``: ``T_PF = overhead + latency x
        ceil(page / line_bytes)``: the page is brought in line by line and every line costs one
        storage access, so the per-byte cost is ``latency / line_bytes`` -- DRAM's per-byte cost
        ``t_r / line`` scaled with the latency multiple (seed 004 §4.3: "as the data size becomes
        large, a storage access requires more time to load data").
    line_bytes : int, optional, keyword-only
        Transfer unit of the ``"transfer"`` model [bytes] (default: registry ``nvm.line_bytes``,
        64 B, the last-level-cache block the paper's smallest page is bounded by).

    >>> fault_service_ns([512, 4096], Storage("s", 1000.0, 1000.0)).tolist()   # 1 B/ns
    [1512.0, 5096.0]
    >>> fault_service_ns([512, 4096], Storage("s", 1000.0, 1000.0), fault_model="transfer").tolist()
    [8000.0, 64000.0]
    """
    p = np.asarray(page_size_bytes, dtype=float)
    if np.any(p <= 0):
        raise ValueError("page_size_bytes must be > 0")
    if not (np.isfinite(overhead_ns) and overhead_ns >= 0):
        raise ValueError(f"fault_overhead_ns must be >= 0 (got {overhead_ns})")
    if fault_model == "latency":
        return overhead_ns + storage.latency_ns + p / (storage.bandwidth_MBps * 1e6) * 1e9
    if fault_model == "transfer":
        line = int(param("nvm.line_bytes").value if line_bytes is None else line_bytes)
        if line < 1:
            raise ValueError(f"line_bytes must be >= 1 (got {line_bytes})")
        return overhead_ns + storage.latency_ns * np.ceil(p / line)
    raise ValueError(f"fault_model must be 'latency' or 'transfer' (got {fault_model!r})")


def amat(tlb_miss_rate, fault_rate, *, t_e_ns: float, t_r_ns: float, t_pf_ns):
    """Equations 4-6: ``(T_ADDR, T_DATA, T_TOTAL)`` [ns], broadcasting over all arguments.

    Parameters
    ----------
    tlb_miss_rate : array_like
        ``R_T`` [-], in [0, 1].
    fault_rate : array_like
        ``R_F`` [-], in [0, 1].
    t_e_ns : float
        TLB access time ``t_e`` [ns].
    t_r_ns : float
        Memory access time ``t_r`` [ns] (also the page-table access on a TLB miss).
    t_pf_ns : array_like
        Page-fault service time ``T_PF`` [ns].

    Returns
    -------
    tuple of numpy.ndarray
        ``T_ADDR``, ``T_DATA`` and ``T_TOTAL = T_ADDR + T_DATA`` [ns].

    Examples
    --------
    >>> a, d, t = amat(0.1, 0.01, t_e_ns=1.0, t_r_ns=100.0, t_pf_ns=10_000.0)
    >>> round(float(a), 9), round(float(d), 9), round(float(t), 9)   # 1 + 0.1*100, 100 + 0.01*10000
    (11.0, 200.0, 211.0)
    """
    rt = np.asarray(tlb_miss_rate, dtype=float)
    rf = np.asarray(fault_rate, dtype=float)
    tpf = np.asarray(t_pf_ns, dtype=float)
    for name, a in (("tlb_miss_rate", rt), ("fault_rate", rf)):
        if np.any(~np.isfinite(a)) or np.any((a < 0) | (a > 1)):
            raise ValueError(f"{name} must be in [0, 1]")
    for name, v in (("t_e_ns", t_e_ns), ("t_r_ns", t_r_ns)):
        if not (np.isfinite(v) and v >= 0):
            raise ValueError(f"{name} must be finite and >= 0 (got {v})")
    if np.any(~np.isfinite(tpf)) or np.any(tpf < 0):
        raise ValueError("t_pf_ns must be finite and >= 0")
    t_addr = (1.0 - rt) * t_e_ns + rt * (t_e_ns + t_r_ns)
    t_data = (1.0 - rf) * t_r_ns + rf * (t_r_ns + tpf)
    return t_addr, t_data, t_addr + t_data


# ----------------------------------------------------------------------------- page streams
def _check_page_sizes(page_sizes) -> np.ndarray:
    f = np.asarray(page_sizes, dtype=float).ravel()
    if f.size == 0:
        raise ValueError("page_sizes must not be empty")
    out_of_range = ~np.isfinite(f) | (f < 64) | (f > 1 << 30) | (f != np.round(f))
    if out_of_range.any():
        raise ValueError(f"page_sizes: {f[out_of_range][0]:g} is not a power of two between 64 B and 1 GiB")
    p = f.astype(np.int64)
    bad = p & (p - 1) != 0
    if bad.any():
        raise ValueError(f"page_sizes: {int(p[bad][0])} is not a power of two between 64 B and 1 GiB")
    return p


def _addresses(trace, include_instructions: bool) -> np.ndarray:
    if isinstance(trace, MemTrace):
        a = trace.address if include_instructions else trace.address[trace.kind != 0]
    else:
        a = np.asarray(trace)
        if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
            raise ValueError("trace must be a MemTrace or a one-dimensional integer address array")
        if a.size and a.dtype.kind == "i" and a.min() < 0:
            raise ValueError("addresses must be >= 0")
        a = a.astype(np.uint64, copy=False)
    if a.size == 0:
        raise ValueError("the trace has no data references (only instruction fetches, or empty)")
    return a


def compact_page_ids(address, page_sizes) -> dict[int, np.ndarray]:
    """Compact page ids (``0..M-1``) of every reference for each page size.

    One sort of the page numbers at the smallest page size; larger page sizes are a gather
    through the sorted distinct page numbers (shifting keeps their order).

    >>> ids = compact_page_ids(np.array([0, 600, 5000, 100], np.uint64), [512, 4096])
    >>> ids[512].tolist(), ids[4096].tolist()
    ([0, 1, 2, 0], [0, 0, 1, 0])
    """
    p = np.sort(_check_page_sizes(page_sizes))
    addr = np.asarray(address, dtype=np.uint64)
    base = int(p[0]).bit_length() - 1
    # hash-based factorisation (sorted distinct page numbers, codes in their order): the same result as
    # np.unique(..., return_inverse=True), which sorts all n references (~40x slower on 5M references)
    inv, uniq = pd.factorize(addr >> np.uint64(base), sort=True)
    inv = np.asarray(inv, dtype=np.int64).ravel()
    uniq = np.asarray(uniq, dtype=np.uint64)
    out: dict[int, np.ndarray] = {}
    for ps in p:
        j = int(ps).bit_length() - 1 - base
        if j == 0:
            out[int(ps)] = inv
            continue
        g = uniq >> np.uint64(j)
        change = np.empty(len(g), np.int64)
        change[0] = 0
        np.not_equal(g[1:], g[:-1], out=change[1:])
        mapping = np.cumsum(change)
        out[int(ps)] = mapping[inv]
    return out


@dataclass(frozen=True)
class PageSizeProfile(ModelResult):
    """LRU hit counts at every capacity and CLOCK faults at chosen memory sizes, for one page size.

    ``to_frame()``: one row ``page_size_bytes, n_refs, footprint_pages, footprint_bytes``.

    Attributes
    ----------
    page_size_bytes : int
        Page size [bytes].
    n_refs : int
        Data references [-].
    footprint_pages : int
        Distinct pages touched [pages].
    lru_hits : int64 array
        ``lru_hits[C]`` = references that hit in an LRU structure of ``C`` entries, for
        ``C = 0..footprint_pages`` (flat beyond).
    clock_faults : dict
        Frames [pages] -> CLOCK page faults [-] (simulated sizes only).
    """

    page_size_bytes: int
    n_refs: int
    footprint_pages: int
    lru_hits: np.ndarray
    clock_faults: dict = field(default_factory=dict)

    FRAME_EXTRAS = ("footprint_bytes",)

    @property
    def footprint_bytes(self) -> int:
        """Footprint at this page size [bytes]."""
        return self.footprint_pages * self.page_size_bytes

    def lru_hit_rate(self, entries) -> np.ndarray:
        """Hit rate [-] of a fully associative LRU structure with ``entries`` slots (vectorised)."""
        e = np.asarray(entries)
        if np.any(e < 0):
            raise ValueError("entries must be >= 0")
        c = np.minimum(e, self.footprint_pages).astype(np.int64)  # clip first: huge sizes must not overflow
        return self.lru_hits[c] / self.n_refs

    def lru_fault_rate(self, memory_bytes) -> np.ndarray:
        """LRU page-fault rate [-] with ``memory_bytes`` of memory (``floor(memory / page)`` frames)."""
        m = np.asarray(memory_bytes, dtype=float)
        if np.any(~np.isfinite(m)) or np.any(m < 0):
            raise ValueError("memory_bytes must be finite and >= 0")
        return 1.0 - self.lru_hit_rate(np.floor(m / self.page_size_bytes))

    def clock_fault_rate(self, memory_bytes) -> np.ndarray:
        """CLOCK page-fault rate [-] at simulated memory sizes (KeyError for sizes not simulated)."""
        m = np.atleast_1d(np.asarray(memory_bytes, dtype=float))
        out = np.empty(m.shape)
        for i, mb in enumerate(m.ravel()):
            frames = min(int(mb // self.page_size_bytes), self.footprint_pages)
            if frames >= self.footprint_pages:  # everything fits: compulsory faults only
                out.flat[i] = self.footprint_pages / self.n_refs
                continue
            if frames not in self.clock_faults:
                raise KeyError(f"CLOCK was not simulated with {frames} frames of {self.page_size_bytes} B; "
                               f"simulated: {sorted(self.clock_faults)}")
            out.flat[i] = self.clock_faults[frames] / self.n_refs
        return out


@dataclass(frozen=True)
class PagingProfile(ModelResult):
    """Per-page-size profiles of one trace (see :func:`profile_trace`).

    ``to_frame()``: one row per page size (:class:`PageSizeProfile` rows).
    """

    name: str
    n_refs: int
    pages: dict[int, PageSizeProfile]
    #: footprint in 4 KiB pages [bytes], kept when 4 KiB is not among the profiled sizes
    reference_footprint: int | None = None

    @property
    def page_sizes(self) -> list[int]:
        return sorted(self.pages)

    def to_frame(self) -> pd.DataFrame:
        """Columns ``page_size_bytes, n_refs, footprint_pages, footprint_bytes``, one row per page size."""
        return pd.concat([self.pages[p].to_frame() for p in self.page_sizes], ignore_index=True)

    def reference_footprint_bytes(self) -> int:
        """Footprint in :data:`REFERENCE_PAGE_BYTES` pages [bytes] (memory fractions refer to it)."""
        ref = self.pages.get(REFERENCE_PAGE_BYTES)
        if ref is not None:
            return ref.footprint_bytes
        if self.reference_footprint is not None:
            return self.reference_footprint
        raise KeyError(f"the profile has no {REFERENCE_PAGE_BYTES}-byte pages")

    def memory_bytes(self, memory_bytes=None, memory_fraction=None) -> np.ndarray:
        """Memory sizes [bytes] from bytes or fractions of the 4 KiB-page footprint."""
        if (memory_bytes is None) == (memory_fraction is None):
            raise ValueError("give exactly one of memory_bytes and memory_fraction")
        if memory_bytes is not None:
            m = np.atleast_1d(np.asarray(memory_bytes, dtype=float))
        else:
            m = np.atleast_1d(np.asarray(memory_fraction, dtype=float)) * self.reference_footprint_bytes()
        _check_memory_sizes(m)
        return m

    def tlb_hit_rates(self, entries) -> np.ndarray:
        """TLB hit rate [-], shape ``(len(page_sizes), len(entries))``."""
        e = np.atleast_1d(entries)
        return np.stack([self.pages[p].lru_hit_rate(e) for p in self.page_sizes])

    def tlb_curve(self, max_entries: int | None = None) -> pd.DataFrame:
        """TLB hit rate at every size ``1..max_entries`` for every page size (long format).

        Columns ``page_size, tlb_entries, tlb_hit_rate``. Default ``max_entries``: the
        largest footprint (every size up to the point where all curves are flat).
        """
        top = max(pp.footprint_pages for pp in self.pages.values()) if max_entries is None else int(max_entries)
        if top < 1:
            raise ValueError("max_entries must be >= 1")
        e = np.arange(1, top + 1)
        hr = self.tlb_hit_rates(e)
        return pd.DataFrame({"page_size": np.repeat(self.page_sizes, len(e)), "tlb_entries": np.tile(e, len(hr)),
                             "tlb_hit_rate": hr.ravel()})

    def lru_fault_rates(self, memory_bytes) -> np.ndarray:
        """LRU fault rate [-], shape ``(len(page_sizes), len(memory_bytes))``."""
        m = np.atleast_1d(memory_bytes)
        return np.stack([self.pages[p].lru_fault_rate(m) for p in self.page_sizes])

    def clock_fault_rates(self, memory_bytes) -> np.ndarray:
        """CLOCK fault rate [-], shape ``(len(page_sizes), len(memory_bytes))`` (simulated sizes)."""
        m = np.atleast_1d(memory_bytes)
        return np.stack([self.pages[p].clock_fault_rate(m) for p in self.page_sizes])


def _check_memory_sizes(m: np.ndarray) -> None:
    """ValueError unless every memory size [bytes] is finite, >= 0 and below 2**63 (its frame count is an int64)."""
    if np.any(~np.isfinite(m)) or np.any(m < 0):
        raise ValueError("memory sizes must be finite and >= 0")
    if np.any(m >= 2.0**63):
        raise ValueError(f"memory sizes must be below 2**63 bytes (9.2 EB), got {float(np.max(m)):.3g} bytes "
                         "(check the memory fraction or size)")


def profile_trace(trace, *, page_sizes=PAGE_SIZES, memory_bytes=None, memory_fraction=None,
                  include_instructions: bool = False, clock: bool = True, name: str | None = None) -> PagingProfile:
    """Stack distances per page size (all TLB and LRU memory sizes) plus CLOCK at chosen memory sizes.

    Parameters
    ----------
    trace : MemTrace or array_like of uint64
        Memory references (a MemTrace's instruction fetches are dropped unless
        ``include_instructions``) or raw virtual addresses [bytes].
    page_sizes : sequence of int
        Page sizes [bytes], powers of two >= 64.
    memory_bytes, memory_fraction : array_like, optional
        Memory sizes for the CLOCK simulation, in bytes or as fractions of the 4 KiB-page
        footprint (at most one). None: no CLOCK run (LRU curves only).
    include_instructions : bool
        Keep instruction fetches (kind ``I``) of a MemTrace.
    clock : bool
        Run CLOCK at the memory sizes (False: LRU only).

    Returns
    -------
    PagingProfile

    Examples
    --------
    >>> addr = np.array([0, 4096, 0, 8192, 4096, 0] * 10, np.uint64)
    >>> prof = profile_trace(addr, page_sizes=[4096, 8192], memory_bytes=[8192])
    >>> prof.tlb_hit_rates([1, 2, 3]).round(3).tolist()
    [[0.15, 0.467, 0.95], [0.65, 0.967, 0.967]]
    >>> prof.clock_fault_rates([8192]).round(3).tolist()
    [[0.517], [0.35]]
    """
    addr = _addresses(trace, include_instructions)
    ps = _check_page_sizes(page_sizes)
    ids_all = compact_page_ids(addr, ps)
    n = len(addr)
    pages: dict[int, PageSizeProfile] = {}
    if memory_fraction is not None and memory_bytes is not None:
        raise ValueError("give at most one of memory_bytes and memory_fraction")
    ref = ids_all.get(REFERENCE_PAGE_BYTES)
    m4 = int(ref.max()) + 1 if ref is not None else (len(np.unique(addr >> np.uint64(12))) if n else 0)
    fp4k = m4 * REFERENCE_PAGE_BYTES  # memory fractions refer to it
    if memory_fraction is not None:
        memory_bytes = np.atleast_1d(np.asarray(memory_fraction, dtype=float)) * fp4k
    mem = None if memory_bytes is None else np.atleast_1d(np.asarray(memory_bytes, dtype=float))
    if mem is not None:
        _check_memory_sizes(mem)
    for p in sorted(int(x) for x in ps):
        ids = ids_all.pop(p)
        m = int(ids.max()) + 1
        d = stack_distances(ids)
        curve = hit_ratio_curve(ids, distances=d)
        hits = np.concatenate(([0], np.asarray(curve.hits, dtype=np.int64)))
        if len(hits) < m + 1:  # curve stops at the largest distance + 1; flat beyond
            hits = np.concatenate((hits, np.full(m + 1 - len(hits), hits[-1])))
        del d
        cf: dict[int, int] = {}
        if mem is not None and clock:
            for frames in sorted({min(int(x // p), m) for x in mem}):
                if frames >= m:
                    continue
                cf[frames] = int(simulate_clock(ids, frames, referenced_on_insert=True).misses)
        pages[p] = PageSizeProfile(p, n, m, hits[: m + 1], cf)
    nm = name or (trace.name if isinstance(trace, MemTrace) else "addresses")
    return PagingProfile(nm, n, pages, reference_footprint=fp4k)


# ----------------------------------------------------------------------------- inputs and tables
class PagingInputs(ModelInput):
    """Inputs of the AMAT-vs-page-size study (everything except the trace).

    Storage: give ``latency_multiples`` (default 1, 10, 100, 1000 x DRAM), or
    ``storage_latency_ns`` (optionally with ``storage_bandwidth_MBps``), or ``device``.
    Memory: ``memory_bytes`` or ``memory_fraction`` (of the 4 KiB-page footprint; default 0.5).

    >>> PagingInputs(tlb_entries=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for PagingInputs
    tlb_entries
    ...
    """

    page_sizes_bytes: tuple[int, ...] = Field(PAGE_SIZES, min_length=1, max_length=32,
                                              description="page sizes [bytes], powers of two >= 64")
    tlb_entries: int = Field(DEFAULT_TLB_ENTRIES, ge=1, le=1 << 24, description="TLB entries [-]")
    memory_bytes: tuple[float, ...] | None = Field(None, min_length=1, max_length=64, description="memory sizes [bytes]")
    memory_fraction: tuple[float, ...] | None = Field(None, min_length=1, max_length=64,
                                                      description="memory sizes as fractions of the 4 KiB footprint [-]")
    latency_multiples: tuple[float, ...] | None = Field(None, min_length=1, max_length=32,
                                                        description="storage latency as multiples of t_r [-]")
    storage_latency_ns: float | None = Field(None, gt=0, le=1e12, description="storage latency [ns]")
    storage_bandwidth_MBps: float | None = Field(None, gt=0, le=1e9, description="storage bandwidth [MB/s]")
    device: str | None = Field(None, description="storage device (catalogue name)")
    t_e_ns: float = Field(DEFAULT_TLB_ACCESS_NS, ge=0, le=1e6, description="TLB access time t_e [ns]")
    t_r_ns: float | None = Field(None, gt=0, le=1e6, description="memory access time t_r [ns] (default: DRAM)")
    fault_overhead_ns: float = Field(DEFAULT_FAULT_OVERHEAD_NS, ge=0, le=1e12, description="fault-handling overhead [ns]")
    dram_bandwidth_MBps: float | None = Field(None, gt=0, le=1e9,
                                              description="DRAM bandwidth scaled by latency multiples [MB/s]")
    policy: Literal["clock", "lru"] = Field("clock", description="memory replacement policy")
    include_instructions: bool = Field(False, description="count instruction fetches as references")
    fault_model: Literal["latency", "transfer"] = Field(
        "latency", description="fault service time: latency + page/bandwidth, or latency per 64-B line "
                               "(see fault_service_ns)")

    @field_validator("page_sizes_bytes")
    @classmethod
    def _pow2(cls, v):
        _check_page_sizes(v)
        if len(set(v)) != len(v):
            raise ValueError("page sizes must be distinct")
        return tuple(sorted(int(x) for x in v))

    @field_validator("memory_bytes", "memory_fraction", "latency_multiples")
    @classmethod
    def _positive(cls, v):
        if v is not None and any(not np.isfinite(x) or x <= 0 for x in v):
            raise ValueError("values must be finite and > 0")
        return v

    @model_validator(mode="after")
    def _exclusive(self) -> PagingInputs:
        if self.memory_bytes is not None and self.memory_fraction is not None:
            raise ValueError("memory: give memory_bytes or memory_fraction, not both")
        given = [n for n in ("latency_multiples", "storage_latency_ns", "device") if getattr(self, n) is not None]
        if len(given) > 1:
            raise ValueError(f"storage: give only one of latency_multiples, storage_latency_ns, device (got {given})")
        if self.storage_bandwidth_MBps is not None and self.storage_latency_ns is None:
            raise ValueError("storage_bandwidth_MBps needs storage_latency_ns")
        if self.device is not None:
            get_device(self.device)  # KeyError lists the valid names
        return self

    @property
    def t_r(self) -> float:
        return default_memory_ns() if self.t_r_ns is None else self.t_r_ns

    def storages(self) -> list[Storage]:
        """The storage configurations to evaluate."""
        if self.device is not None:
            return [storage_from_device(self.device, t_r_ns=self.t_r)]
        if self.storage_latency_ns is not None:
            return [storage_from_latency(self.storage_latency_ns, self.storage_bandwidth_MBps, t_r_ns=self.t_r,
                                         dram_bandwidth_MBps=self.dram_bandwidth_MBps)]
        ks = self.latency_multiples or LATENCY_MULTIPLES
        return [storage_from_multiple(k, t_r_ns=self.t_r, dram_bandwidth_MBps=self.dram_bandwidth_MBps) for k in ks]

    def memory_kwargs(self) -> dict:
        if self.memory_bytes is not None:
            return {"memory_bytes": list(self.memory_bytes)}
        return {"memory_fraction": list(self.memory_fraction or (0.5,))}


def _storage_fields(latency_multiple, device, storage_latency_ns, storage_bandwidth_MBps) -> dict:
    """PagingInputs storage fields for one storage choice (default: 10x DRAM)."""
    given = [n for n, v in (("latency_multiple", latency_multiple), ("device", device),
                            ("storage_latency_ns", storage_latency_ns)) if v is not None]
    if len(given) > 1:
        raise ValueError(f"storage: give only one of latency_multiple, device, storage_latency_ns (got {given})")
    if storage_bandwidth_MBps is not None and storage_latency_ns is None:
        raise ValueError("storage_bandwidth_MBps needs storage_latency_ns")
    if storage_latency_ns is not None:
        return {"storage_latency_ns": storage_latency_ns, "storage_bandwidth_MBps": storage_bandwidth_MBps}
    if isinstance(device, DeviceProfile) and device.name not in device_names():
        # a device outside the catalogue (e.g. defined in the app): its read latency and bandwidth
        return {"storage_latency_ns": float(device.read_latency_ns),
                "storage_bandwidth_MBps": float(device.effective_read_bandwidth_MBps)}
    if device is not None:
        return {"device": device.name if isinstance(device, DeviceProfile) else device}
    k = 10.0 if latency_multiple is None else latency_multiple
    return {"latency_multiples": tuple(np.atleast_1d(np.asarray(k, dtype=float)).tolist())}


def paging_inputs(*, memory_fraction: float | None = None, memory_mib: float | None = None,
                  latency_multiple=None, device: DeviceProfile | str | None = None,
                  storage_latency_ns: float | None = None, storage_bandwidth_MBps: float | None = None,
                  **options) -> PagingInputs:
    """:class:`PagingInputs` from one memory size and one storage choice (the CLI's and the page's mapping).

    Parameters
    ----------
    memory_fraction : float, optional, keyword-only
        Memory as a fraction of the 4 KiB-page footprint [-] (default 0.5).
    memory_mib : float, optional, keyword-only
        Memory [MiB = 2**20 bytes] (instead of ``memory_fraction``).
    latency_multiple : float or sequence of float, optional, keyword-only
        Storage latency as multiples of ``t_r`` [-] (default 10 when no storage is given).
    device : str or DeviceProfile, optional, keyword-only
        Storage device: a catalogue name, or a profile (one outside the catalogue gives its
        read latency [ns] and effective read bandwidth [MB/s]).
    storage_latency_ns : float, optional, keyword-only
        Storage latency [ns]; ``storage_bandwidth_MBps`` [MB/s] optionally with it.
    **options
        The other :class:`PagingInputs` fields (``tlb_entries``, ``t_e_ns``, ``t_r_ns``,
        ``fault_overhead_ns``, ``policy``, ``include_instructions``, ``page_sizes_bytes``);
        None means the default.

    Raises
    ------
    ValueError or pydantic.ValidationError
        Two memory sizes or two storage choices, or a field out of range (named).

    >>> p = paging_inputs(memory_mib=8, storage_latency_ns=3000, tlb_entries=32)
    >>> p.memory_bytes, p.storage_latency_ns, p.tlb_entries, paging_inputs().latency_multiples
    ((8388608.0,), 3000.0, 32, (10.0,))
    """
    if memory_fraction is not None and memory_mib is not None:
        raise ValueError("memory: give memory_fraction or memory_mib, not both")
    memory = ({"memory_bytes": (memory_mib * (1 << 20),)} if memory_mib is not None
              else {"memory_fraction": (0.5 if memory_fraction is None else memory_fraction,)})
    storage = _storage_fields(latency_multiple, device, storage_latency_ns, storage_bandwidth_MBps)
    fields = {**memory, **storage, **options}
    return PagingInputs(**{k: v for k, v in fields.items() if v is not None})


def paging_profile(trace, inputs: PagingInputs, *, max_refs: int | None = None) -> PagingProfile:
    """:func:`profile_trace` of ``trace`` (its first ``max_refs`` data references) for what ``inputs`` needs.

    Instruction fetches are dropped before truncating unless ``inputs.include_instructions``, so
    ``max_refs`` and the profile's ``n_refs`` count the same references (data references: lackey
    ``L``, ``S``, ``M``; a modify once).

    Uses the page sizes, memory sizes, policy (CLOCK runs only for ``policy="clock"``) and
    ``include_instructions`` of ``inputs``; the storage and timing fields are applied later
    by :func:`paging_table`, so one profile serves every storage choice.

    >>> from models.traces import load
    >>> prof = paging_profile(load("sqlite", max_requests=5000), PagingInputs(page_sizes_bytes=(4096,)),
    ...                       max_refs=2000)
    >>> prof.n_refs, prof.page_sizes
    (2000, [4096])
    """
    if max_refs is not None and max_refs < 1:
        raise ValueError(f"max_refs must be >= 1 (got {max_refs})")
    if isinstance(trace, MemTrace) and not inputs.include_instructions:
        trace = trace.data_only()  # count references one way: max_refs data references (no instruction fetches)
    if max_refs is not None and len(trace) > max_refs:
        trace = trace.subset(slice(None, max_refs)) if isinstance(trace, MemTrace) else np.asarray(trace)[:max_refs]
    return profile_trace(trace, page_sizes=inputs.page_sizes_bytes, include_instructions=inputs.include_instructions,
                         clock=inputs.policy == "clock", **inputs.memory_kwargs())


def paging_table(profile: PagingProfile, inputs: PagingInputs) -> pd.DataFrame:
    """AMAT table: one row per (storage, memory size, page size), all vectorised.

    Columns: ``storage, latency_multiple, memory_bytes, memory_fraction, page_size, frames,
    tlb_entries, tlb_hit_rate, tlb_miss_rate, fault_rate, fault_rate_lru, t_pf_ns,
    t_addr_ns, t_data_ns, amat_ns`` (``fault_rate`` is the chosen policy's).
    """
    mem = profile.memory_bytes(**inputs.memory_kwargs())
    ps = np.array(profile.page_sizes)
    missing = set(inputs.page_sizes_bytes) - set(profile.page_sizes)
    if missing:
        raise ValueError(f"page sizes not in the profile: {sorted(missing)}")
    ps = np.array(inputs.page_sizes_bytes)
    idx = [profile.page_sizes.index(p) for p in ps]
    tlb_hit = profile.tlb_hit_rates([inputs.tlb_entries])[idx, 0]  # (P,)
    lru = profile.lru_fault_rates(mem)[idx]  # (P, M)
    rf = profile.clock_fault_rates(mem)[idx] if inputs.policy == "clock" else lru
    try:
        fp4 = profile.reference_footprint_bytes()
    except KeyError:
        fp4 = np.nan
    rows = []
    t_r = inputs.t_r
    for s in inputs.storages():
        tpf = fault_service_ns(ps, s, inputs.fault_overhead_ns, fault_model=inputs.fault_model)  # (P,)
        t_addr, t_data, tot = amat((1 - tlb_hit)[:, None], rf, t_e_ns=inputs.t_e_ns, t_r_ns=t_r,
                                   t_pf_ns=tpf[:, None])
        t_addr = np.broadcast_to(t_addr, rf.shape)
        P, M = rf.shape
        rows.append(pd.DataFrame({
            "storage": s.label,
            "latency_multiple": s.latency_multiple,
            "memory_bytes": np.tile(mem, P),
            "memory_fraction": np.tile(mem, P) / fp4,
            "page_size": np.repeat(ps, M),
            "frames": (np.tile(mem, P) // np.repeat(ps, M)).astype(np.int64),
            "tlb_entries": inputs.tlb_entries,
            "tlb_hit_rate": np.repeat(tlb_hit, M),
            "tlb_miss_rate": np.repeat(1 - tlb_hit, M),
            "fault_rate": rf.ravel(),
            "fault_rate_lru": lru.ravel(),
            "t_pf_ns": np.repeat(tpf, M),
            "t_addr_ns": t_addr.ravel(),
            "t_data_ns": t_data.ravel(),
            "amat_ns": tot.ravel(),
        }))
    out = pd.concat(rows, ignore_index=True)
    return out.sort_values(["latency_multiple", "memory_bytes", "page_size"], kind="stable", ignore_index=True)


def run_paging(trace, inputs: PagingInputs | None = None) -> pd.DataFrame:
    """Profile ``trace`` and return :func:`paging_table` (convenience; see :class:`PagingInputs`).

    >>> from models.traces import load
    >>> df = run_paging(load("sqlite", max_requests=20_000), PagingInputs(latency_multiples=(1, 100)))
    >>> sorted(df["storage"].unique()), len(df)
    (['100x DRAM', '1x DRAM'], 18)
    """
    inputs = inputs or PagingInputs()
    return paging_table(paging_profile(trace, inputs), inputs)


def best_page_sizes(table: pd.DataFrame, *, baseline_page: int = 4096) -> pd.DataFrame:
    """Best page size per (storage, memory size) by AMAT and by fault rate, with the trade-off.

    For each group: ``best_page_amat`` (min ``amat_ns``; ties -> smaller page), its
    ``t_addr_ns``/``t_data_ns``/``amat_ns``, ``best_page_fault`` (min ``fault_rate``; ties ->
    larger page), and the decomposition of the gain over ``baseline_page``:
    ``d_addr_ns = T_ADDR(best) - T_ADDR(baseline)``, ``d_data_ns`` likewise (their sum is
    the AMAT difference; a negative term is a saving).
    """
    if table.empty:
        raise ValueError("empty table")
    rows = []
    for (st, mem), g in table.groupby(["storage", "memory_bytes"], sort=False):
        g = g.sort_values("page_size")
        b = g.loc[g["amat_ns"].idxmin()]
        f = g.iloc[::-1].loc[g.iloc[::-1]["fault_rate"].idxmin()]
        base = g[g["page_size"] == baseline_page]
        base = base.iloc[0] if len(base) else None
        rows.append({
            "storage": st,
            "latency_multiple": b["latency_multiple"],
            "memory_bytes": mem,
            "memory_fraction": b["memory_fraction"],
            "best_page_amat": int(b["page_size"]),
            "amat_ns": b["amat_ns"],
            "t_addr_ns": b["t_addr_ns"],
            "t_data_ns": b["t_data_ns"],
            "best_page_fault": int(f["page_size"]),
            "baseline_page": baseline_page,
            "baseline_amat_ns": np.nan if base is None else base["amat_ns"],
            "d_addr_ns": np.nan if base is None else b["t_addr_ns"] - base["t_addr_ns"],
            "d_data_ns": np.nan if base is None else b["t_data_ns"] - base["t_data_ns"],
        })
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- provenance of the results
def provenance_keys_for(t_r_ns: float, device: DeviceProfile | str | None = None) -> list[str]:
    """Provenance keys (:mod:`models.provenance`) of a paging study with memory access time ``t_r_ns``
    [ns] and storage ``device`` (None: storage timed by a latency or a multiple of ``t_r_ns``): the TLB's
    and the fault cost's, the catalogue DRAM's when ``t_r_ns`` is :func:`default_memory_ns`, and the
    device's latency, bandwidth and access unit.

    >>> provenance_keys_for(default_memory_ns())[3:]
    ['device:dram.read_latency_ns', 'device:dram.read_bandwidth_MBps']
    >>> provenance_keys_for(50.0, "sata-ssd")[3]
    'device:sata-ssd.read_latency_ns'
    """
    keys = ["paging.tlb_entries", "paging.tlb_access_ns", "paging.fault_overhead_ns"]
    if t_r_ns == default_memory_ns():
        keys += device_keys("dram", ["read_latency_ns", "read_bandwidth_MBps"])
    if device is not None:
        keys += device_keys(device, ["read_latency_ns", "read_bandwidth_MBps", "access_unit_bytes"])
    return keys
