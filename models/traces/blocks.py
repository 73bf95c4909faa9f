"""Split block requests into fixed-size block accesses with compact block ids.

A request for bytes ``[offset, offset + size)`` touches the blocks
``offset // B .. (offset + size - 1) // B``. :func:`split_blocks` expands a whole trace into
one row per touched block (one compiled pass, no temporaries) and numbers the distinct blocks
0..M-1 in order of first access (a direct table over a small block range, ``pandas.factorize``
-- hash based, O(N), no sort -- otherwise), the form the cache kernels in :mod:`models.sim`
consume.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from numba import njit

from models.traces.core import BlockTrace

__all__ = ["BlockAccesses", "split_blocks", "check_block_size", "MAX_BLOCK_ACCESSES", "MAX_REQUEST_BLOCKS"]

#: Default bound on the rows :func:`split_blocks` may create [block accesses]. Measured peak
#: memory of the split: 31 bytes per access (29.6 kept; 40 M accesses: 1,226 MB peak), so 1e8 accesses ~ 3 GB. The largest
#: bundled trace, synthetic:dap (100k requests) in 512-byte blocks, gives 15.4 million.
MAX_BLOCK_ACCESSES = 100_000_000
#: Default bound on the blocks one request may touch [blocks]: 2**20 blocks is 4 GiB at 4 KiB blocks (512 MiB at
#: 512 B), far above real requests (<= a few MiB), while a one-line file could otherwise ask for ~1e18 blocks.
MAX_REQUEST_BLOCKS = 1 << 20


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

    Attributes
    ----------
    block : int64 array
        Compact block id 0..n_unique-1, numbered in order of first access.
    lbn : int64 array
        Original block number (byte offset // block_size).
    is_write : bool array
        True if the access belongs to a write request.
    request : int64 array
        Index of the request in the trace.
    device : int32 array
        Device of the request.
    n_unique : int
        Number of distinct blocks (footprint) [blocks].
    block_size : int
        Block size [bytes].
    """

    block: np.ndarray
    lbn: np.ndarray
    is_write: np.ndarray
    request: np.ndarray
    device: np.ndarray
    n_unique: int
    block_size: int
    n_requests: int = 0
    meta: dict = field(default_factory=dict, compare=False)

    def __len__(self) -> int:
        return len(self.block)

    @property
    def footprint_bytes(self) -> int:
        """Distinct blocks times the block size [bytes]."""
        return self.n_unique * self.block_size


def split_blocks(trace: BlockTrace, block_size: int = 4096, *, per_device: bool = True,
                 max_block_accesses: int = MAX_BLOCK_ACCESSES,
                 max_request_blocks: int = MAX_REQUEST_BLOCKS) -> BlockAccesses:
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

    Returns
    -------
    BlockAccesses

    Raises
    ------
    ValueError
        Bad block size, or more than ``max_block_accesses`` accesses (the message names the
        largest request).

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
    if total_f > max_block_accesses:
        i = int(np.argmax(count))
        raise ValueError(
            f"the trace expands into {int(total_f)} accesses of {bs}-byte blocks, more than max_block_accesses="
            f"{max_block_accesses}; the largest is request {i} ({int(trace.size_bytes[i])} bytes at offset "
            f"{int(off[i])}, {int(count[i])} blocks). Use a larger block size or fewer requests.")
    total = int(count.sum())
    lbn, request = _expand(np.ascontiguousarray(first, dtype=np.int64), np.ascontiguousarray(count, dtype=np.int64),
                           total)
    device = np.repeat(trace.device, count)
    is_write = np.repeat(trace.is_write, count)
    del first, count
    if per_device and n and trace.device.min() != trace.device.max():
        dev = device.astype(np.int64) - int(trace.device.min())
        span = int(dev.max()) + 1
        top = int(lbn.max()) + 1 if total else 1
        if top < (1 << 62) // span:
            key = dev * top + lbn
            del dev
            codes, n_unique = _codes(key)
        else:  # pragma: no cover - block numbers near 2**62: use a pair index
            codes, uniq = pd.MultiIndex.from_arrays([dev, lbn]).factorize(sort=False)
            n_unique = len(uniq)
    else:
        codes, n_unique = _codes(lbn)
    return BlockAccesses(block=codes, lbn=lbn, is_write=is_write, request=request, device=device,
                         n_unique=n_unique, block_size=bs, n_requests=n, meta={"trace": trace.name})


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
        k = key[i] - lo
        if table[k] < 0:
            table[k] = m
            m += 1
        codes[i] = table[k]
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
