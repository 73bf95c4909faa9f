"""Block requests as extents: the reuse of every block access, computed per run of blocks, never per block.

A request touching the blocks ``[a, a + n)`` is one *extent*; :func:`models.traces.blocks.split_blocks`
expands it into ``n`` block accesses in block order at consecutive access indexes. This module gives the
same per-access quantities without expanding: the blocks seen so far are an interval map of maximal runs
whose blocks were last accessed by one request (so at consecutive indexes ``base + b``) and were accessed
equally often. A new extent meets the map in *pieces*: a run of its blocks last accessed by one earlier
request, or a run never seen (cold). Inside a piece ``[x, x + m)`` every quantity is the same for each of
its ``m`` blocks:

- accesses since the previous access of the block: ``(t - a) - base`` (``t`` the extent's first index);
- time since it: the request's time minus the time of the request that last accessed the piece;
- the LRU stack distance (distinct *other* blocks accessed since): ``(x - a) + (m - 1) + E``, where ``E``
  counts the blocks outside ``[a, x + m)`` last accessed after the piece's last block (index ``T = base +
  x + m - 1``). Proof: at the access of ``x + k`` the blocks accessed since are the ``x + k - a`` blocks of
  the extent before it, the ``m - 1 - k`` blocks of the piece after it (indexes in ``(base + x + k, T]``,
  each index one block's) and the blocks outside ``[a, x + m)`` accessed after ``T``; the sum does not
  depend on ``k``.

``E`` is the number of blocks last accessed after ``T`` (a Fenwick tree over the request index holds
each request's live blocks; within the piece's own request, its live blocks past the piece) minus the
blocks of the extent's earlier pieces last accessed after ``T`` (a Fenwick tree over the pieces' ranks).
So a trace of ``R`` requests costs O(P log R) for the ``P`` pieces met (at most 3 new map entries per
request), whatever the requests' sizes: one request of 1 TiB is one piece. It is exact: the tests compare
every output with the block-by-block expansion over generated traces with overlapping extents.

The work is in Python per piece (about 10 microseconds): it pays where requests are large
(:data:`MIN_MEAN_BLOCKS`), not for a trace of many small requests, which the vectorised block split reads
faster.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

import numpy as np

from models.budget import budget_bytes, charge

__all__ = ["ExtentPieces", "extent_pieces", "request_blocks", "use_extents", "MIN_MEAN_BLOCKS",
           "BYTES_PER_REQUEST"]

#: Mean blocks per request from which the trace's block quantities are computed per extent rather than per
#: block (:func:`use_extents`) [blocks]: the Python work per piece (~10 us) against the vectorised split's
#: ~40 ns per block access; a crossover estimate (assumed), not a model input -- the results are equal.
MIN_MEAN_BLOCKS = 1024
#: Memory charged against the run's budget (:mod:`models.budget`) per request of the extent pass [bytes]: up
#: to 3 map entries (Python lists of ints, a set entry; ~100 bytes each) and the pieces' output arrays
#: (6 x 8 bytes per piece, up to 3 pieces per request); an estimate from the structures, rounded up.
BYTES_PER_REQUEST = 600


def request_blocks(trace, block_size: int) -> tuple[np.ndarray, np.ndarray]:
    """``(first block, blocks touched)`` of each request of ``trace`` [blocks], int64."""
    shift = int(block_size).bit_length() - 1
    off = np.asarray(trace.offset_bytes, np.int64)
    first = off >> shift
    count = ((off + np.asarray(trace.size_bytes, np.int64) - 1) >> shift) - first + 1
    return first, count


def use_extents(trace, block_size: int, bytes_per_access: float) -> bool:
    """Whether the block quantities of ``trace`` are computed per extent: large requests (a mean of at least
    :data:`MIN_MEAN_BLOCKS` blocks), or an expansion of ``bytes_per_access`` per block access [bytes] over the
    run's memory budget (the block split would refuse it)."""
    n = len(trace)
    if not n:
        return False
    _, count = request_blocks(trace, block_size)
    total = float(count.sum(dtype=np.float64))
    budget = budget_bytes()
    return total >= MIN_MEAN_BLOCKS * n or bool(budget and total * bytes_per_access > budget)


class _Fenwick:
    """Prefix sums over ``n`` slots with point updates (Python ints: no overflow)."""

    def __init__(self, n: int):
        self.n = n
        self.t = [0] * (n + 1)
        self.total = 0

    def add(self, i: int, v: int) -> None:
        self.total += v
        i += 1
        t, n = self.t, self.n
        while i <= n:
            t[i] += v
            i += i & -i

    def prefix(self, i: int) -> int:
        """Sum of slots ``0..i-1``."""
        s, t = 0, self.t
        while i > 0:
            s += t[i]
            i -= i & -i
        return s


@dataclass(frozen=True)
class ExtentPieces:
    """The block accesses of a trace as pieces: ``length`` accesses each, all with the same reuse.

    Attributes
    ----------
    request : int64 array
        Request of the piece (its index in the trace).
    offset : int64 array
        First block of the piece, counted from the request's first block [blocks].
    length : int64 array
        Block accesses of the piece [blocks].
    stack_distance : int64 array
        LRU stack distance of each access of the piece (distinct other blocks accessed since its previous
        access) [blocks]; -1 for a first access.
    reuse_accesses : int64 array
        Block accesses since the previous access of each block [accesses]; -1 for a first access.
    previous_request : int64 array
        Request of the previous access; -1 for a first access.
    final_length, final_count : int64 arrays
        The blocks at the end as runs: ``final_length[k]`` blocks accessed ``final_count[k]`` times each.
    """

    request: np.ndarray
    offset: np.ndarray
    length: np.ndarray
    stack_distance: np.ndarray
    reuse_accesses: np.ndarray
    previous_request: np.ndarray
    final_length: np.ndarray
    final_count: np.ndarray

    @property
    def accesses(self) -> int:
        """Block accesses [-]."""
        return int(self.length.sum())

    @property
    def footprint_blocks(self) -> int:
        """Distinct blocks [blocks]."""
        return int(self.final_length.sum())


def extent_pieces(trace, block_size: int = 4096, *, per_device: bool = True) -> ExtentPieces:
    """The pieces of ``trace``'s block accesses (module docstring); equal block by block to
    :func:`models.traces.blocks.split_blocks` (same ``block_size`` and ``per_device``).

    Charges :data:`BYTES_PER_REQUEST` per request against the run's memory budget first.

    >>> from models.traces.core import BlockTrace
    >>> t = BlockTrace([0, 1, 2], [False] * 3, [0, 8192, 0], [16384, 4096, 16384], [0, 0, 0])
    >>> p = extent_pieces(t, 4096)
    >>> p.length.tolist(), p.stack_distance.tolist(), p.reuse_accesses.tolist()
    ([4, 1, 2, 1, 1], [-1, 1, 3, 2, 3], [-1, 2, 5, 3, 5])
    """
    n = len(trace)
    charge(float(n) * BYTES_PER_REQUEST, f"the extent pass over {n:,} requests (reuse per run of blocks)")
    first, count = request_blocks(trace, block_size)
    if per_device and n and int(np.min(trace.device)) != int(np.max(trace.device)):
        top = int((first + count).max()) + 1
        _, dev_rank = np.unique(np.asarray(trace.device), return_inverse=True)
        keys = [int(d) * top + int(f) for d, f in zip(dev_rank.tolist(), first.tolist())]
    else:
        keys = first.tolist()
    counts = count.tolist()

    starts: list[int] = []  # the map, sorted by start: [starts[j], ends[j]) last accessed at index bases[j] + b
    ends: list[int] = []
    bases: list[int] = []
    reqs: list[int] = []
    cnts: list[int] = []
    frags: dict[int, dict[int, int]] = {}  # request -> {start: end} of its live runs
    live = _Fenwick(n)  # live blocks per request (last accessed by it)
    out_req, out_off, out_len, out_sd, out_ra, out_prev = [], [], [], [], [], []
    t = 0
    for i in range(n):
        a, cnt_i = keys[i], counts[i]
        e = a + cnt_i
        lo = bisect_right(starts, a) - 1
        if lo < 0 or ends[lo] <= a:
            lo += 1
        hi = lo
        while hi < len(starts) and starts[hi] < e:
            hi += 1
        # the pieces in block order: (x, m, j) with j the map entry, -1 cold
        pieces = []
        pos = a
        for j in range(lo, hi):
            x, y = max(starts[j], a), min(ends[j], e)
            if x > pos:
                pieces.append((pos, x - pos, -1))
            pieces.append((x, y - x, j))
            pos = y
        if pos < e:
            pieces.append((pos, e - pos, -1))
        warm = [p for p in pieces if p[2] >= 0]
        # rank the warm pieces by their last index (distinct: each index is one block's)
        order = sorted(range(len(warm)), key=lambda k: bases[warm[k][2]] + warm[k][0])
        rank = [0] * len(warm)
        for r, k in enumerate(order):
            rank[k] = r
        seen = _Fenwick(len(warm))  # blocks of this extent's earlier warm pieces, by rank
        k = 0
        for x, m, j in pieces:
            out_req.append(i)
            out_off.append(x - a)
            out_len.append(m)
            if j < 0:
                out_sd.append(-1)
                out_ra.append(-1)
                out_prev.append(-1)
                continue
            rq, base = reqs[j], bases[j]
            after = x + m  # blocks of request rq at or past it were accessed after the piece's last block
            own = 0
            for s, en in frags[rq].items():
                if en > after:
                    own += en - max(s, after)
            later = live.total - live.prefix(rq + 1) + own - (seen.total - seen.prefix(rank[k] + 1))
            out_sd.append((x - a) + m - 1 + later)
            out_ra.append(t - a - base)
            out_prev.append(rq)
            seen.add(rank[k], m)
            k += 1
        # the map: drop [a, e) from the entries met, keep what lies outside, insert the extent's runs
        new_s, new_e, new_b, new_r, new_c = [], [], [], [], []
        for j in range(lo, hi):
            s, en, rq = starts[j], ends[j], reqs[j]
            f = frags[rq]
            del f[s]
            live.add(rq, -(min(en, e) - max(s, a)))
            if s < a:
                new_s.append(s), new_e.append(a), new_b.append(bases[j]), new_r.append(rq), new_c.append(cnts[j])
                f[s] = a
        mine = frags.setdefault(i, {})
        for x, m, j in pieces:
            c = 1 if j < 0 else cnts[j] + 1
            if new_r and new_r[-1] == i and new_c[-1] == c and new_e[-1] == x:
                new_e[-1] = x + m
                mine[new_s[-1]] = x + m
            else:
                new_s.append(x), new_e.append(x + m), new_b.append(t - a), new_r.append(i), new_c.append(c)
                mine[x] = x + m
        live.add(i, cnt_i)
        if hi > lo and ends[hi - 1] > e:
            j = hi - 1
            rq = reqs[j]
            new_s.append(e), new_e.append(ends[j]), new_b.append(bases[j]), new_r.append(rq), new_c.append(cnts[j])
            frags[rq][e] = ends[j]
        for j in range(lo, hi):
            if not frags.get(reqs[j], True):
                del frags[reqs[j]]
        starts[lo:hi], ends[lo:hi], bases[lo:hi], reqs[lo:hi], cnts[lo:hi] = new_s, new_e, new_b, new_r, new_c
        t += cnt_i
    as64 = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
    return ExtentPieces(as64(out_req), as64(out_off), as64(out_len), as64(out_sd), as64(out_ra), as64(out_prev),
                        as64([en - s for s, en in zip(starts, ends)]), as64(cnts))
