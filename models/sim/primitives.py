"""Shared building blocks of the cache-simulation kernels: input checks and small numba helpers.

Every kernel that needs one of these imports it from here by name (``from
models.sim.primitives import ring_victim``); no kernel reaches into another module's private
helpers.

- Input checks (plain Python): :func:`as_ids`, :func:`as_flags`, :func:`as_weights`.
- Bit counting: :func:`popcount64` (LLVM ``ctpop``).
- Cache hints: :func:`prefetch` (LLVM ``prefetch``: a table slot looked up soon, fetched ahead).
- Cache state: :func:`evict_block` (drop a block, report whether it was dirty).
- Doubly linked LRU list over block ids: :func:`lru_push_head`, :func:`lru_move_to_head`,
  :func:`lru_pop_tail` (``prev``/``nxt`` arrays indexed by id, ``-1`` = none).
- Ring of ``cap`` slots swept by one hand (FIFO, CLOCK and the age-based counter policy):
  :func:`ring_advance`, :func:`ring_victim`.
- Mark set over access times (stack distances): :func:`fenwick_add`, :func:`unmark_time`.
- Compact ids by first appearance: :func:`first_seen` (a direct table, ``-1`` = not seen yet).
- Max-heap of (hash, block) pairs (fixed-size SHARDS): :func:`heap_push`, :func:`heap_pop`.

The ring sweep
--------------
One sweep serves FIFO, CLOCK and the age-based policy, selected by the counter ceiling
``counter_max`` (as libCacheSim's Clock selects them by ``n-bit-counter``):

- ``counter_max = 0`` (FIFO, no reference bit): evict the block under the hand.
- ``counter_max = 1`` (CLOCK): a set reference bit is cleared and the hand moves on; the
  first block with a clear bit is evicted.
- ``counter_max > 1`` (age-based counter, seed 002 §5.4): a set bit is cleared and the
  block's counter goes up by one (saturating at ``counter_max``); a clear bit takes one off
  the counter and the block is evicted once the counter is ``<= 0``.

With ``counter_max = 1`` the age rule reduces to CLOCK exactly (a clear bit always brings a
counter of 0 or 1 to ``<= 0``), so CLOCK is the 1-level age policy. The counter is *not*
libCacheSim's n-bit Clock for ``counter_max > 1``: there, every hit adds one (saturating)
and the sweep takes one off a non-zero counter; here the sweep samples the reference bit
(at most +1 per revolution, however many hits) and adds where libCacheSim subtracts. See
``docs/models/sim.md``.

numba on-disk cache: the rule
-----------------------------
Kernels are compiled with ``@njit(cache=True)`` and cached under ``NUMBA_CACHE_DIR``
(``.numba_cache/`` under ``make``). numba keys a kernel's cache entry on *its own* source
file only (numba issue #1833): when a helper in this module changes, the kernels that call
it -- in :mod:`models.sim.policies`, :mod:`models.sim.stack_distance`,
:mod:`models.sim.shards`, :mod:`models.memory.memory_extension` and
:mod:`models.storage.write_cache` -- keep running the old compiled helper. So after editing
this module, delete the cache (``make clean`` or ``rm -rf "$NUMBA_CACHE_DIR"``). This is the
one place the rule is written down.

References
----------
.. [1] F. J. Corbato, "A paging experiment with the Multics system", MIT Project MAC
   report MAC-M-384, 1968 (CLOCK).
.. [2] A. Awad, S. Blagodurov, Y. Solihin, "Write-Aware Management of NVM-based Memory
   Extensions", ICS 2016, doi:10.1145/2925426.2926284 (seed 002), section 5.4 (age-based policy).
.. [3] J. Yang et al., libCacheSim, ``Clock.c`` (``n-bit-counter`` parameter),
   https://github.com/1a1a11a/libCacheSim.
.. [4] P. M. Fenwick, "A new data structure for cumulative frequency tables", Software:
   Practice and Experience 24(3), 1994.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = [
    "as_ids",
    "as_flags",
    "as_weights",
    "access_bytes",
    "popcount64",
    "prefetch",
    "evict_block",
    "lru_push_head",
    "lru_move_to_head",
    "lru_pop_tail",
    "ring_advance",
    "ring_victim",
    "fenwick_add",
    "unmark_time",
    "heap_push",
    "heap_pop",
]

_ONE = np.uint64(1)


# --------------------------------------------------------------------------- input checks


def as_ids(ids, name: str = "ids") -> np.ndarray:
    """Validate a block-id array: 1-D, integer, non-negative; return contiguous int64.

    >>> as_ids([3, 0, 1]).dtype
    dtype('int64')
    >>> as_ids([0, -2])
    Traceback (most recent call last):
    ...
    ValueError: ids[1] must be >= 0 (got -2)
    """
    a = np.asarray(ids)
    if a.ndim != 1:
        raise ValueError(f"{name} must be a one-dimensional array (got {a.ndim} dimensions)")
    if a.dtype.kind not in "iu":
        if a.size == 0 and a.dtype.kind == "f":
            a = a.astype(np.int64)
        else:
            raise ValueError(f"{name} must hold integer block ids (got dtype {a.dtype})")
    if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} holds ids larger than int64")
    a = np.ascontiguousarray(a, dtype=np.int64)
    if a.size and a.min() < 0:
        i = int(np.argmax(a < 0))
        raise ValueError(f"{name}[{i}] must be >= 0 (got {int(a[i])})")
    return a


def as_flags(flags, n: int, name: str = "is_write") -> np.ndarray:
    """Validate an optional per-access boolean array of length ``n`` (None -> all False).

    >>> as_flags(None, 2).tolist(), as_flags([1, 0], 2).tolist()
    ([False, False], [True, False])
    """
    if flags is None:
        return np.zeros(n, dtype=np.bool_)
    a = np.asarray(flags)
    if a.ndim != 1 or len(a) != n:
        raise ValueError(f"{name} must be a one-dimensional array of length {n} (got shape {a.shape})")
    if a.dtype.kind not in "biu":
        raise ValueError(f"{name} must be boolean (got dtype {a.dtype})")
    return np.ascontiguousarray(a, dtype=np.bool_)


def as_weights(weights, n: int, name: str = "weights") -> np.ndarray | None:
    """Validate optional per-access weights [bytes]: finite, >= 0, length ``n``.

    >>> as_weights([1, 2.5], 2).tolist(), as_weights(None, 2) is None
    ([1.0, 2.5], True)
    """
    if weights is None:
        return None
    w = np.asarray(weights)
    if w.ndim != 1 or len(w) != n:
        raise ValueError(f"{name} must be a one-dimensional array of length {n} (got shape {w.shape})")
    if w.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric (got dtype {w.dtype})")
    w = np.ascontiguousarray(w, dtype=np.float64)
    if not np.all(np.isfinite(w)):
        raise ValueError(f"{name} must be finite (got NaN or infinity)")
    if w.size and w.min() < 0:
        i = int(np.argmax(w < 0))
        raise ValueError(f"{name}[{i}] must be >= 0 (got {w[i]:g})")
    return w


# --------------------------------------------------------------------------- numba helpers


@intrinsic
def popcount64(typingctx, x):
    """Population count of a uint64 (LLVM ``ctpop``), usable inside numba functions."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def prefetch(typingctx, arr, idx):
    """Hint the CPU to fetch ``arr[idx]`` (one-dimensional ``arr``) into the caches (LLVM ``prefetch``: read, high
    locality), usable inside numba functions; no effect on any value. A loop over lookups of a table larger than the
    caches prefetches the slot of a later lookup, so the cache misses overlap instead of following one another."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        aryty, _ = signature.args
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False, boundscheck=False)
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, nogil=True)
def evict_block(v, cached, dirty):
    """Drop block ``v`` (``cached[v] = False``); return 1 if it was dirty (one writeback), else 0."""
    cached[v] = False
    if dirty[v]:
        dirty[v] = False
        return 1
    return 0


@njit(cache=True, nogil=True)
def lru_push_head(x, head, tail, prev, nxt):
    """Link ``x`` in front of the LRU list; return the new (head, tail)."""
    prev[x] = -1
    nxt[x] = head
    if head >= 0:
        prev[head] = x
    else:
        tail = x
    return x, tail


@njit(cache=True, nogil=True)
def lru_move_to_head(x, head, tail, prev, nxt):
    """Move ``x`` (linked, not the head) to the front of the LRU list; return (head, tail)."""
    p = prev[x]
    q = nxt[x]
    nxt[p] = q
    if q >= 0:
        prev[q] = p
    else:
        tail = p
    return lru_push_head(x, head, tail, prev, nxt)


@njit(cache=True, nogil=True)
def lru_pop_tail(head, tail, prev, nxt):
    """Unlink the least recently used entry; return (entry, head, tail)."""
    v = tail
    tail = prev[v]
    if tail >= 0:
        nxt[tail] = -1
    else:
        head = -1
    return v, head, tail


@njit(cache=True, nogil=True)
def ring_advance(hand, cap):
    """The hand one slot further round a ring of ``cap`` slots."""
    hand += 1
    return 0 if hand == cap else hand


@njit(cache=True, nogil=True)
def ring_victim(ring, hand, cap, ref, cnt, counter_max):
    """Sweep the hand of a full ring to the block to evict; return (block, hand).

    ``ring`` holds the ``cap`` cached block ids; ``ref`` (reference bits) and ``cnt``
    (counters) are indexed by block id. ``counter_max`` selects the policy (module
    docstring): 0 FIFO (``ref``/``cnt`` unused, may be empty), 1 CLOCK (``cnt`` unused),
    ``> 1`` the age-based counter saturating at ``counter_max``. The caller replaces the
    block at the returned hand and advances it.
    """
    if counter_max == 0:
        return ring[hand], hand
    while True:
        v = ring[hand]
        if ref[v]:
            ref[v] = False
            if counter_max > 1:
                c = cnt[v] + 1
                cnt[v] = c if c < counter_max else counter_max
        elif counter_max == 1:
            return v, hand
        else:
            cnt[v] -= 1
            if cnt[v] <= 0:
                return v, hand
        hand = ring_advance(hand, cap)


# Mark set over access times, used by the stack-distance kernels (models.sim.stack_distance,
# models.sim.shards) on their cold paths. ``bits`` holds one mark bit per access time; ``fen``
# is a Fenwick tree (1-indexed) over the mark counts of the completed 64-bit words,
# ``fen_total`` their sum; the word being filled (``wc``) stays out of the tree.


@njit(cache=True, nogil=True, inline="always")
def first_seen(table, key, m):
    """Code of ``key``: ``table[key]``, or ``m`` (the next free code) for a key not seen yet (``-1``), which
    ``table`` then keeps -- the caller moves ``m`` on when the code returned is ``m``; keys are numbered
    0, 1, ... by first appearance."""
    c = table[key]
    if c < 0:
        table[key] = m
        return m
    return c


@njit(cache=True, nogil=True)
def fenwick_add(fen, w, nw, c):
    """Add ``c`` to the count of word ``w`` in the Fenwick tree ``fen`` of ``nw`` words."""
    j = w + 1
    while j <= nw:
        fen[j] += c
        j += j & -j


@njit(cache=True, nogil=True)
def unmark_time(bits, fen, fen_total, nw, p, wc):
    """Clear the mark at access time ``p``; return the new ``fen_total``."""
    w = p >> 6
    bits[w] &= ~(_ONE << np.uint64(p & 63))
    if w != wc:
        fenwick_add(fen, w, nw, -1)
        fen_total -= 1
    return fen_total


# Max-heap of (hash, block) pairs: the tracked blocks of fixed-size SHARDS (models.sim.shards,
# models.traces.stream_mrc), the largest hash on top.


@njit(cache=True, nogil=True)
def heap_push(hh, hid, size, h, x):
    """Push hash ``h`` of block ``x`` on the max-heap ``hh``/``hid`` of ``size`` entries; return the new size
    (fixed-size SHARDS: the tracked block with the largest hash is on top)."""
    i = size
    hh[i] = h
    hid[i] = x
    while i > 0:
        p = (i - 1) >> 1
        if hh[p] >= hh[i]:
            break
        hh[p], hh[i] = hh[i], hh[p]
        hid[p], hid[i] = hid[i], hid[p]
        i = p
    return size + 1


@njit(cache=True, nogil=True)
def heap_pop(hh, hid, size):
    """Drop the top of the max-heap ``hh``/``hid`` of ``size`` entries; return the new size."""
    size -= 1
    hh[0] = hh[size]
    hid[0] = hid[size]
    i = 0
    while True:
        a = 2 * i + 1
        if a >= size:
            break
        b = a + 1
        c = b if (b < size and hh[b] > hh[a]) else a
        if hh[i] >= hh[c]:
            break
        hh[c], hh[i] = hh[i], hh[c]
        hid[c], hid[i] = hid[i], hid[c]
        i = c
    return size


def access_bytes(trace, accesses) -> np.ndarray:
    """Bytes of each block access: the overlap of its request with the block [bytes].

    Parameters
    ----------
    trace : models.traces.core.BlockTrace
        The requests.
    accesses : models.traces.blocks.BlockAccesses
        ``split_blocks(trace, block_size)``.

    Returns
    -------
    numpy.ndarray of int64
        One value per access, in ``1..block_size``; the weights of byte hit ratios.

    >>> from models.traces.core import BlockTrace
    >>> from models.traces.blocks import split_blocks
    >>> t = BlockTrace([0, 1], [False, False], [1024, 0], [8192, 512], [0, 0])
    >>> access_bytes(t, split_blocks(t, 4096)).tolist()
    [3072, 4096, 1024, 512]
    """
    bs = int(accesses.block_size)
    r = accesses.request
    start = trace.offset_bytes[r]
    end = start + trace.size_bytes[r]
    lo = accesses.lbn * bs
    return np.minimum(end, lo + bs) - np.maximum(start, lo)
