"""Split block requests into fixed-size block accesses with compact block ids.

A request for bytes ``[offset, offset + size)`` touches the blocks
``offset // B .. (offset + size - 1) // B``. :func:`split_blocks` expands a whole trace into
one row per touched block and numbers the distinct blocks 0..M-1 in order of first access, the
form the cache kernels in :mod:`models.sim` consume: over a small block range in one compiled pass
that expands and looks each block up in a direct table (no temporaries), otherwise by expanding and
``pandas.factorize`` (hash based, O(N), no sort). The original block numbers, request index and
device of each access are expanded only when read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd
from numba import njit

from models.budget import charge
from models.sim.primitives import first_seen
from models.traces.core import BlockTrace

__all__ = ["BlockAccesses", "split_blocks", "check_block_size", "MAX_BLOCK_ACCESSES", "MAX_REQUEST_BLOCKS",
           "SPLIT_BYTES_PER_ACCESS"]

#: Default bound on the rows :func:`split_blocks` may create [block accesses]. Measured peak
#: memory of the split (40 M accesses of 10 M random 16 KiB requests over 20 M blocks): 15 bytes per access
#: (9 kept: block id and write flag; 31 before the other columns were expanded only when read), so 1e8
#: accesses ~ 1.5 GB, 3 GB once ``lbn``/``request``/``device`` are read. The largest bundled trace,
#: synthetic:dap (100k requests) in 512-byte blocks, gives 15.4 million.
MAX_BLOCK_ACCESSES = 100_000_000
#: Default bound on the blocks one request may touch [blocks]: 2**20 blocks is 4 GiB at 4 KiB blocks (512 MiB at
#: 512 B), far above real requests (<= a few MiB), while a one-line file could otherwise ask for ~1e18 blocks.
MAX_REQUEST_BLOCKS = 1 << 20
#: Memory charged against the run's budget (:mod:`models.budget`) per block access of the split [bytes]:
#: measured peak RSS of ``pcm-planner trace-stats`` on traces of 4 GiB requests (2.1 M and 10.5 M accesses of
#: 4 KiB blocks: 30 and 32 bytes per access above the 242 MB of an empty run), rounded up.
SPLIT_BYTES_PER_ACCESS = 40


def check_block_size(block_size: int) -> int:
    """Validate a block size [bytes]: a positive power of two.

    >>> check_block_size(4096)
    4096
    >>> check_block_size(3000)
    Traceback (most recent call last):
    ...
    ValueError: block_size must be a power of two >= 1 [bytes] (got 3000)
    """
    try:
        b = int(block_size)
    except (TypeError, ValueError):
        raise ValueError(f"block_size must be a power of two >= 1 [bytes] (got {block_size!r})") from None
    if b != block_size or b < 1 or b & (b - 1):
        raise ValueError(f"block_size must be a power of two >= 1 [bytes] (got {block_size!r})")
    return b


@dataclass(frozen=True)
class BlockAccesses:
    """Per-block accesses of a trace, one row per (request, touched block).

    ``block`` and ``is_write`` (what the cache kernels read) are built by the split; ``lbn``,
    ``request`` and ``device`` are expanded from the per-request first block and block count on
    first use and then kept (most callers never read them: 20 of the 29 bytes per access).

    Attributes
    ----------
    block : int64 array
        Compact block id 0..n_unique-1, numbered in order of first access.
    is_write : bool array
        True if the access belongs to a write request.
    n_unique : int
        Number of distinct blocks (footprint) [blocks].
    block_size : int
        Block size [bytes].
    n_requests : int
        Requests of the trace.
    lbn : int64 array
        Original block number (byte offset // block_size).
    request : int64 array
        Index of the request in the trace.
    device : int32 array
        Device of the request.
    """

    block: np.ndarray
    is_write: np.ndarray
    n_unique: int
    block_size: int
    n_requests: int = 0
    meta: dict = field(default_factory=dict, compare=False)
    #: (first block [blocks], blocks touched, device) per request: what ``lbn``/``request``/``device`` expand from
    per_request: tuple = field(default=(), repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.block)

    @property
    def footprint_bytes(self) -> int:
        """Distinct blocks times the block size [bytes]."""
        return self.n_unique * self.block_size

    @cached_property
    def _lbn_request(self) -> tuple[np.ndarray, np.ndarray]:
        first, count, _ = self.per_request
        return _expand(first, count, len(self.block))

    @property
    def lbn(self) -> np.ndarray:
        """Original block number of each access (byte offset // block_size) [blocks], int64."""
        return self._lbn_request[0]

    @property
    def request(self) -> np.ndarray:
        """Index of each access's request in the trace, int64."""
        return self._lbn_request[1]

    @cached_property
    def device(self) -> np.ndarray:
        """Device of each access's request, int32."""
        _, count, device = self.per_request
        return np.repeat(device, count)


def split_blocks(trace: BlockTrace, block_size: int = 4096, *, per_device: bool = True,
                 max_block_accesses: int = MAX_BLOCK_ACCESSES,
                 max_request_blocks: int = MAX_REQUEST_BLOCKS,
                 bytes_per_access: float = SPLIT_BYTES_PER_ACCESS) -> BlockAccesses:
    """Expand ``trace`` into the fixed-size blocks each request touches.

    Parameters
    ----------
    trace : BlockTrace
        The requests.
    block_size : int
        Block size [bytes], a power of two.
    per_device : bool
        Treat equal block numbers on different devices as different blocks (default).
    max_block_accesses : int, keyword-only
        Refuse traces that would expand into more block accesses than this (default
        :data:`MAX_BLOCK_ACCESSES`), checked before any allocation.
    max_request_blocks : int, keyword-only
        Refuse a request touching more blocks than this (default :data:`MAX_REQUEST_BLOCKS`).
    bytes_per_access : float, keyword-only
        Memory the caller's whole step needs per block access [bytes] (default
        :data:`SPLIT_BYTES_PER_ACCESS`, the split alone), charged against the run's memory budget
        (:func:`models.budget.charge`) before anything is expanded.

    Returns
    -------
    BlockAccesses

    Raises
    ------
    ValueError
        Bad block size, or more than ``max_block_accesses`` accesses (the message names the
        largest request); :class:`models.budget.BudgetExceeded` (a ValueError) when the expanded
        accesses would need more memory than the run's budget.

    Examples
    --------
    >>> t = BlockTrace([0, 1, 2], [False, True, False], [0, 6144, 4096], [4096, 4096, 512], [0, 0, 0])
    >>> b = split_blocks(t, 4096)
    >>> b.lbn.tolist(), b.block.tolist(), b.request.tolist(), b.n_unique
    ([0, 1, 2, 1], [0, 1, 2, 1], [0, 1, 1, 2], 3)
    """
    bs = check_block_size(block_size)
    shift = bs.bit_length() - 1
    off = trace.offset_bytes
    first = off >> shift
    count = off + trace.size_bytes  # blocks per request, computed in place: last - first + 1
    count -= 1
    count >>= shift
    count -= first
    count += 1
    n = len(trace)
    if isinstance(max_block_accesses, bool) or not isinstance(max_block_accesses, (int, np.integer)) \
            or max_block_accesses < 0:
        raise ValueError(f"max_block_accesses must be an integer >= 0 (got {max_block_accesses!r})")
    if isinstance(max_request_blocks, bool) or not isinstance(max_request_blocks, (int, np.integer)) \
            or max_request_blocks < 1:
        raise ValueError(f"max_request_blocks must be an integer >= 1 (got {max_request_blocks!r})")
    if n and int(count.max()) > max_request_blocks:
        i = int(np.argmax(count > max_request_blocks))
        raise ValueError(
            f"request {i} ({int(trace.size_bytes[i])} bytes at offset {int(off[i])}) touches {int(count[i])} "
            f"{bs}-byte blocks, more than max_request_blocks={max_request_blocks} (the limit per request); "
            "check the size unit, or use a larger block size (--block-size)")
    total_f = float(count.sum(dtype=np.float64)) if n else 0.0  # float: no int64 wrap on absurd sizes
    if n:
        charge(total_f * bytes_per_access,
               f"splitting the trace into {bs}-byte blocks ({total_f:.3g} block accesses; the largest request "
               f"is {int(trace.size_bytes[int(np.argmax(count))])} bytes)")
    if total_f > max_block_accesses:
        i = int(np.argmax(count))
        raise ValueError(
            f"the trace expands into {int(total_f)} accesses of {bs}-byte blocks, more than max_block_accesses="
            f"{max_block_accesses}; the largest is request {i} ({int(trace.size_bytes[i])} bytes at offset "
            f"{int(off[i])}, {int(count[i])} blocks). Use a larger block size or fewer requests.")
    total = int(count.sum())
    first = np.ascontiguousarray(first, dtype=np.int64)
    count = np.ascontiguousarray(count, dtype=np.int64)
    dev = trace.device
    acc = dict(n_unique=0, block_size=bs, n_requests=n, meta={"trace": trace.name}, per_request=(first, count, dev))
    if not total:
        return BlockAccesses(block=np.zeros(0, np.int64), is_write=np.zeros(0, bool), **acc)
    # the key numbered: the block number, offset by device * (largest block + 1) when devices count apart
    top = int((first + count - 1).max()) + 1
    d0, d1 = int(dev.min()), int(dev.max())
    if not per_device or d0 == d1:
        dev_top, lo, hi = 0, int(first.min()), top - 1
    elif top < (1 << 62) // (d1 - d0 + 1):
        dev_top = top
        base = (dev.astype(np.int64) - d0) * top
        lo, hi = int((base + first).min()), int((base + first + count - 1).max())
        del base
    else:  # pragma: no cover - block numbers near 2**62: a pair index
        lbn, request = _expand(first, count, total)
        codes, uniq = pd.MultiIndex.from_arrays([np.repeat(dev, count), lbn]).factorize(sort=False)
        out = BlockAccesses(block=codes.astype(np.int64), is_write=np.repeat(trace.is_write, count),
                            **{**acc, "n_unique": len(uniq)})
        out.__dict__["_lbn_request"] = (lbn, request)
        return out
    if hi - lo < 4 * total + 16:  # a direct table over the key range, in the same pass as the expansion
        codes, is_write, n_unique = _split_dense(first, count, dev, trace.is_write, total, d0, dev_top, lo,
                                                 hi - lo + 1)
        return BlockAccesses(block=codes, is_write=is_write, **{**acc, "n_unique": n_unique})
    lbn, request = _expand(first, count, total)
    key = lbn if not dev_top else (np.repeat(dev, count).astype(np.int64) - d0) * dev_top + lbn
    codes, n_unique = _codes(key)
    del key
    out = BlockAccesses(block=codes, is_write=np.repeat(trace.is_write, count), **{**acc, "n_unique": n_unique})
    out.__dict__["_lbn_request"] = (lbn, request)  # computed already
    return out


@njit(cache=True, nogil=True)
def _split_dense(first, count, dev, is_write_req, total, d0, dev_top, lo, span):  # pragma: no cover - compiled
    """Compact block id and write flag of every touched block in one pass: key ``(dev - d0) * dev_top +
    block`` looked up in a table of ``span`` slots from ``lo`` (first appearance numbered first)."""
    table = np.full(span, -1, np.int64)
    codes = np.empty(total, np.int64)
    is_write = np.empty(total, np.bool_)
    m = 0
    k = 0
    for i in range(len(first)):
        key = (np.int64(dev[i]) - d0) * dev_top + first[i] - lo
        w = is_write_req[i]
        for _ in range(count[i]):
            c = first_seen(table, key, m)
            if c == m:
                m += 1
            codes[k] = c
            is_write[k] = w
            key += 1
            k += 1
    return codes, is_write, m


def _codes(key: np.ndarray) -> tuple[np.ndarray, int]:
    """Number the distinct values of ``key`` 0..M-1 in order of first appearance -> (codes int64, M).

    A direct table over ``key``'s range when that range is at most four times the number of
    keys (8 bytes per value in the range, no hashing), otherwise ``pandas.factorize``.
    """
    if not len(key):
        return np.zeros(0, np.int64), 0
    lo, hi = int(key.min()), int(key.max())
    if hi - lo < 4 * len(key) + 16:
        return _dense_codes(key, lo, hi - lo + 1)
    codes, uniq = pd.factorize(key, sort=False)
    return codes.astype(np.int64, copy=False), len(uniq)


@njit(cache=True, nogil=True)
def _dense_codes(key, lo, span):  # pragma: no cover - compiled
    """:func:`_codes` over a small range: a table of ``span`` slots, first appearance numbered first."""
    table = np.full(span, -1, np.int64)
    codes = np.empty(len(key), np.int64)
    m = 0
    for i in range(len(key)):
        codes[i] = first_seen(table, key[i] - lo, m)
        if codes[i] == m:
            m += 1
    return codes, m


@njit(cache=True, nogil=True)
def _expand(first, count, total):  # pragma: no cover - compiled
    """Block numbers and request index of every touched block, in one pass (no temporaries)."""
    lbn = np.empty(total, np.int64)
    request = np.empty(total, np.int64)
    k = 0
    for i in range(len(first)):
        for j in range(count[i]):
            lbn[k] = first[i] + j
            request[k] = i
            k += 1
    return lbn, request
