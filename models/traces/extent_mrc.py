"""The exact LRU hit-ratio curve of a block trace from its extents (large requests never expanded per block).

:func:`models.traces.extents.extent_pieces` gives the LRU stack distance of every block access per run of
blocks; the curve is the distances' histogram cumulated, as :func:`models.sim.stack_distance.hit_ratio_curve`
does per access, and equal to it on the split trace with the byte weights of
:func:`models.sim.primitives.access_bytes` (tested): hit counts exactly, byte hit ratios too (the weights are
whole bytes, summed exactly below 2**53).
"""

from __future__ import annotations

import numpy as np

from models.budget import charge
from models.sim.stack_distance import HitRatioCurve, as_sizes
from models.traces.extents import ExtentPieces, extent_pieces, request_blocks

__all__ = ["extent_hit_ratio_curve", "SIZE_BYTES"]

#: Memory charged per cache size of the curve [bytes]: the sizes, hits, two ratios and two cumulative sums
#: (8 bytes each) -- every size 1..footprint of a footprint of 10^8 blocks would be gigabytes.
SIZE_BYTES = 48


def extent_hit_ratio_curve(trace, block_size: int = 4096, *, sizes=None, per_device: bool = True,
                           byte_weights: bool = True, pieces: ExtentPieces | None = None) -> HitRatioCurve:
    """Exact LRU hit-ratio curve of ``trace`` split into ``block_size`` blocks, request- and byte-weighted.

    Parameters
    ----------
    trace : BlockTrace
        The requests.
    block_size : int
        Block size [bytes], a power of two.
    sizes : array_like of int, optional, keyword-only
        Cache sizes [blocks]; default every size ``1..footprint`` (charged against the run's memory budget:
        :data:`SIZE_BYTES` each).
    per_device : bool, keyword-only
        Equal block numbers on different devices are different blocks (default).
    byte_weights : bool, keyword-only
        ``byte_hit_ratio`` weighs each access by the bytes of its request inside the block (default, as
        :func:`models.sim.primitives.access_bytes`); False: equal to ``hit_ratio`` (no weights).
    pieces : ExtentPieces, optional, keyword-only
        ``extent_pieces(trace, block_size, per_device=per_device)`` if the caller has it already.

    Returns
    -------
    HitRatioCurve

    >>> from models.traces.core import BlockTrace
    >>> t = BlockTrace([0, 1], [False, False], [0, 0], [8192, 4096], [0, 0])
    >>> extent_hit_ratio_curve(t, 4096).hits.tolist()
    [0, 1]
    """
    n = len(trace)
    if n == 0:
        raise ValueError("the trace has no requests: no hit-ratio curve")
    p = extent_pieces(trace, block_size, per_device=per_device) if pieces is None else pieces
    footprint = p.footprint_blocks
    if sizes is None:
        charge(float(footprint) * SIZE_BYTES, f"the hit-ratio curve at every cache size 1..{footprint:,} blocks "
                                              f"(--points or --sizes ask for fewer)")
        sizes = np.arange(1, max(footprint, 1) + 1, dtype=np.int64)
    else:
        sizes = as_sizes(sizes)
    first, _ = request_blocks(trace, block_size)
    bs = int(block_size)
    lo_blk = first[p.request] + p.offset
    start = np.asarray(trace.offset_bytes, np.int64)[p.request]
    end = start + np.asarray(trace.size_bytes, np.int64)[p.request]
    if len(lo_blk) and int((lo_blk + p.length).max()) < (1 << 62) // bs:
        nbytes = np.minimum(end, (lo_blk + p.length) * bs) - np.maximum(start, lo_blk * bs)
    else:  # a piece ending near 2**63 bytes: its round-up would wrap int64
        nbytes = np.array([min(int(e), (int(lo) + int(m)) * bs) - max(int(s), int(lo) * bs)
                           for s, e, lo, m in zip(start, end, lo_blk, p.length)], dtype=np.int64)
    accesses = p.accesses
    total_bytes = float(int(nbytes.sum()))
    reuse = p.stack_distance >= 0
    d = p.stack_distance[reuse]
    order = np.argsort(d, kind="stable")
    d = d[order]
    cum = np.concatenate(([0], np.cumsum(p.length[reuse][order])))
    bcum = np.concatenate(([0], np.cumsum(nbytes[reuse][order])))
    k = np.searchsorted(d, sizes, side="left")  # accesses with a distance below the size hit
    hits = cum[k].astype(np.int64)
    bh = bcum[k].astype(np.float64)
    hr = hits / float(accesses)
    bhr = bh / total_bytes if total_bytes > 0 and byte_weights else hr.copy()
    return HitRatioCurve(sizes, np.clip(hr, 0.0, 1.0), np.clip(bhr, 0.0, 1.0), hits, int(accesses), int(footprint))
