"""Object (key-value) cache traces as block traces, and the fixed-size binary record reader they share.

The cache traces of libCacheSim (``oracleGeneral``, ``lcs``) and the Twitter cache traces name an
*object* per request (a 64-bit id or a key) with its size, not a byte range on a device. The
models consume :class:`~models.traces.core.BlockTrace`, so each object is given its own
``2**32``-byte slot of the address space, numbered in order of first access:

``offset_bytes = object_index << 32``, ``size_bytes = object size``,

so a request touches ``ceil(size / block_size)`` blocks of its own slot and never another
object's (``size <= 2**32``; the ``oracleGeneral`` size field is a uint32). ``object_index`` is
``offset_bytes >> 32`` (``meta["object_slot_bytes"]``), the original ids are kept in
``meta["object_id"]`` (uint64, one per request; keys are hashed to 64 bits with
``pandas.util.hash_array``, collision probability ~ n**2 / 2**65 for n distinct keys) and the
number of distinct objects in ``meta["n_objects"]``. A request-count miss-ratio curve of the
trace in blocks of ``block_size`` >= the largest object is the object-level curve; a smaller
block size splits large objects as a byte-granular cache would.

Binary records are read in two stages: the decode (:mod:`models.traces.formats.records`: one
compiled pass per block of whole records, ``chunk_bytes`` rounded down to a multiple of the
record size, at least one record) yields the raw object columns, and the placement
(:class:`ObjectSlots` block by block for a streamed read, :func:`place_objects` over a whole
one) gives each object its slot. A streamed read decodes the next block on a worker thread while
the current one is placed; a block's ids already in the table are looked up by the cores in runs
(the table only read), the new ones then numbered in request order (the numbers, the table's
growth and the errors of one pass over the block). Memory stays bounded by the block plus the kept columns (and
the object table of a stream), ``max_requests`` stops the read early, and a result never
depends on the block size. Bad values and a file that ends inside a record name the byte offset
of the record in the (decompressed) input.
"""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager

import numpy as np
import pandas as pd
from numba import njit

from models.budget import Hold, charge, reserve
from models.sim.primitives import prefetch
from models.traces.chunks import chunk_sink_of
from models.traces.core import BlockTrace
from models.traces.formats.parsing import _block_trace
from models.traces.formats.records import in_runs, record_blocks, runs_of, spare_core
from models.traces.formats.records import read_exact as _read_exact  # noqa: F401 - vscsi reads with it
from models.traces.source import (
    MAX_INPUT_BYTES,
    TraceFormatError,
    charge_parsed,
    source_name,
)

__all__ = ["OBJECT_SLOT_BITS", "ObjectSlots", "object_table", "place_objects", "read_records", "hash_keys"]

#: Address bits of one object's slot: object ``i`` occupies bytes ``[i << 32, (i + 1) << 32)`` [bits].
OBJECT_SLOT_BITS = 32
_SLOT_BYTES = 1 << OBJECT_SLOT_BITS
#: Most distinct objects a trace may hold (the slots must fit in the int64 byte range) [objects].
MAX_OBJECTS = (1 << (63 - OBJECT_SLOT_BITS)) - 1


def hash_keys(keys: np.ndarray) -> np.ndarray:
    """64-bit hashes of string keys (uint64), the same in every run and chunk.

    >>> a = hash_keys(np.array(["k1", "k2", "k1"], dtype=object))
    >>> a.dtype.name, bool(a[0] == a[2] != a[1])
    ('uint64', True)
    """
    return pd.util.hash_array(np.asarray(keys, dtype=object), categorize=False)


def place_objects(trace: BlockTrace, fmt: str) -> BlockTrace:
    """Give each object of ``trace`` (ids in ``meta["object_id"]``) its slot; see the module docstring.

    >>> t = BlockTrace([0, 1, 2], [False] * 3, [0, 0, 0], [100, 5000, 100], [0] * 3,
    ...                meta={"object_id": np.array([7, 2**63, 7], np.uint64)})
    >>> place_objects(t, "x").offset_bytes.tolist(), place_objects(t, "x").meta["n_objects"]
    ([0, 4294967296, 0], 2)
    """
    ids = np.asarray(trace.meta.get("object_id", np.zeros(0, np.uint64)), dtype=np.uint64)
    if len(ids) != len(trace):
        raise ValueError(f"{fmt}: meta['object_id'] has {len(ids)} ids for {len(trace)} requests")
    big = trace.size_bytes > _SLOT_BYTES
    if big.any():
        i = int(np.argmax(big))
        raise TraceFormatError(f"{fmt}: request {i + 1}: object size {int(trace.size_bytes[i]):,} bytes is larger "
                               f"than the {_SLOT_BYTES:,}-byte slot an object is given")
    codes, uniques = pd.factorize(ids, sort=False) if len(ids) else (np.zeros(0, np.int64), np.zeros(0, np.uint64))
    if len(uniques) > MAX_OBJECTS:
        raise TraceFormatError(f"{fmt}: more than {MAX_OBJECTS:,} distinct objects")
    offset = codes.astype(np.int64) << np.int64(OBJECT_SLOT_BITS)
    meta = dict(trace.meta, object_slot_bytes=_SLOT_BYTES, n_objects=len(uniques), object_id=ids)
    return dataclasses.replace(trace, offset_bytes=offset, meta=meta)


#: Hash table slots per distinct object at least: the table of :class:`ObjectSlots` doubles when a new object
#: would pass a load factor of 1/2 (open addressing with linear probing stays a probe or two per lookup) [slots].
_SLOTS_PER_OBJECT = 2
#: Fibonacci hashing multiplier (2**64 / golden ratio, odd): spreads consecutive ids over the table.
_FIB = np.uint64(0x9E3779B97F4A7C15)
#: Most new objects per request (in the block before) at which a block's ids are looked up by the cores first
#: (:meth:`ObjectSlots._look_up_then_number`); above it the block is numbered in one pass, as the look-ups would
#: mostly miss and every miss is looked up again in the numbering pass [objects / request].
_SHARED_LOOKUP_MAX_NEW = 0.5
#: Ids looked ahead: the table slot of id ``i + _LOOKAHEAD`` is prefetched while id ``i`` is placed, so the
#: cache misses of a table larger than the caches overlap instead of following one another [ids].
_LOOKAHEAD = 32




@njit(cache=True, nogil=True)
def _place_kernel(ids, sizes, table, n_objects, shift, slot_bits, out, start, room):  # pragma: no cover - compiled
    """``out[i] = code << slot_bits`` from request ``start`` on, the code of ``ids[i]`` in first-access order,
    inserting new ids into the open-addressing table ``table`` (interleaved ``key, code + 1`` pairs, 0: empty;
    ``shift`` = 64 - log2(pairs)): a lookup touches one cache line. Returns the new object count, the request
    where placing stopped (``len(ids)``: all placed; earlier: a new id found the table holding ``room`` objects,
    to be grown) and the first request whose size exceeds the slot (-1: none; placing stops there)."""
    mask = len(table) // 2 - 1
    limit = np.int64(1) << slot_bits
    n = len(ids)
    for j in range(start, min(start + _LOOKAHEAD, n)):
        prefetch(table, 2 * np.int64((ids[j] * _FIB) >> np.uint64(shift)))
    for i in range(start, n):
        if i + _LOOKAHEAD < n:
            prefetch(table, 2 * np.int64((ids[i + _LOOKAHEAD] * _FIB) >> np.uint64(shift)))
        if sizes[i] > limit:
            return n_objects, i, i
        k = ids[i]
        h = np.int64((k * _FIB) >> np.uint64(shift))
        while True:
            v = table[2 * h + 1]
            if v == 0:
                if n_objects >= room:
                    return n_objects, i, -1
                table[2 * h] = k
                table[2 * h + 1] = np.uint64(n_objects + 1)
                out[i] = n_objects << slot_bits
                n_objects += 1
                break
            if table[2 * h] == k:
                out[i] = np.int64(v - np.uint64(1)) << slot_bits
                break
            h = (h + 1) & mask
    return n_objects, n, -1


@njit(cache=True, nogil=True)
def _lookup_kernel(ids, sizes, table, shift, slot_bits, out, a, b):  # pragma: no cover - compiled
    """``out[i] = code << slot_bits`` for the requests ``a`` to ``b`` whose id the table ``table`` holds, -1 for
    the others (new ids, numbered after by :func:`_place_kernel`); the table is only read. Returns the first
    request whose size exceeds the slot (-1: none; looking stops there)."""
    mask = len(table) // 2 - 1
    limit = np.int64(1) << slot_bits
    for j in range(a, min(a + _LOOKAHEAD, b)):
        prefetch(table, 2 * np.int64((ids[j] * _FIB) >> np.uint64(shift)))
    for i in range(a, b):
        if i + _LOOKAHEAD < b:
            prefetch(table, 2 * np.int64((ids[i + _LOOKAHEAD] * _FIB) >> np.uint64(shift)))
        if sizes[i] > limit:
            return i
        k = ids[i]
        h = np.int64((k * _FIB) >> np.uint64(shift))
        while True:
            v = table[2 * h + 1]
            if v == 0:
                out[i] = -1
                break
            if table[2 * h] == k:
                out[i] = np.int64(v - np.uint64(1)) << slot_bits
                break
            h = (h + 1) & mask
    return -1


@njit(cache=True, nogil=True)
def _rehash(table, new, shift):  # pragma: no cover - compiled
    mask = len(new) // 2 - 1
    pairs = len(table) // 2
    for j in range(pairs):
        ahead = j + _LOOKAHEAD
        if ahead < pairs and table[2 * ahead + 1] != 0:
            prefetch(new, 2 * np.int64((table[2 * ahead] * _FIB) >> np.uint64(shift)))
        if table[2 * j + 1] != 0:
            h = np.int64((table[2 * j] * _FIB) >> np.uint64(shift))
            while new[2 * h + 1] != 0:
                h = (h + 1) & mask
            new[2 * h] = table[2 * j]
            new[2 * h + 1] = table[2 * j + 1]


class ObjectSlots:
    """The placement stage: objects numbered in first-access order across blocks, as
    :func:`~models.traces.formats.objects.place_objects` numbers them over the whole trace: object ``i`` at
    ``offset_bytes = i << 32``.

    State: a hash table of the distinct ids seen and their numbers (open addressing, 16 bytes per slot, key and
    number side by side; :data:`_SLOTS_PER_OBJECT` to twice as many slots per object once grown), charged to the
    run's memory budget as it grows.

    >>> s = ObjectSlots("x")
    >>> [s.place({"meta:object_id": np.array(a, np.uint64), "size_bytes": np.array([1] * len(a))})["offset_bytes"]
    ...  .tolist() for a in ([7, 9, 7], [3, 9])]
    [[0, 4294967296, 0], [8589934592, 4294967296]]
    """

    def __init__(self, fmt: str, hold: Hold | None = None):
        self.fmt = fmt
        self.n_objects = 0
        self._new_share = 1.0  # new objects per request in the last block placed
        self._shared = spare_core()  # look-ups shared by the cores (a core idle when the table was made)
        self._hold = hold  # the table, held while a stream reads (its consumer's steps count it)
        self._grow(1 << 16)

    @property
    def slots(self) -> int:
        """Slots of the hash table [slots]."""
        return len(self.table) // 2

    def _grow(self, slots: int) -> None:
        what = f"the {self.fmt} reader's object table ({self.n_objects:,} distinct objects so far)"
        if self._hold is not None:
            self._hold.resize(16 * slots, what)
        else:
            charge(16 * slots, what)
        table = np.zeros(2 * slots, np.uint64)
        shift = 64 - (slots.bit_length() - 1)
        if self.n_objects:
            _rehash(self.table, table, shift)
        self.table, self.shift = table, shift

    def place(self, cols: dict) -> dict:
        """``cols`` with ``offset_bytes`` set from ``meta:object_id`` (which is dropped with the other ``meta:``)."""
        ids = np.ascontiguousarray(cols["meta:object_id"], np.uint64)
        sizes = np.asarray(cols["size_bytes"])
        offset = np.empty(len(ids), np.int64)
        before = self.n_objects
        if self._shared and runs_of(len(ids)) > 1 and self._new_share <= _SHARED_LOOKUP_MAX_NEW:
            self._look_up_then_number(ids, sizes, offset)
        else:
            self._number(ids, sizes, offset)
        self._new_share = (self.n_objects - before) / max(1, len(ids))
        if self.n_objects > MAX_OBJECTS:
            raise TraceFormatError(f"{self.fmt}: more than {MAX_OBJECTS:,} distinct objects")
        out = {k: v for k, v in cols.items() if not k.startswith("meta:")}
        out["offset_bytes"] = offset
        return out

    def _number(self, ids: np.ndarray, sizes: np.ndarray, offset: np.ndarray) -> None:
        """One pass in request order: each id looked up, a new one numbered (the table grown as it fills)."""
        done = 0
        while True:  # the table grows (doubles) when a new id finds it holding 1 / _SLOTS_PER_OBJECT of its slots
            self.n_objects, done, big = _place_kernel(ids, sizes, self.table, self.n_objects, self.shift,
                                                      OBJECT_SLOT_BITS, offset, done, self.slots // _SLOTS_PER_OBJECT)
            if big >= 0:
                self._too_big(sizes[big])
            if done == len(ids):
                return
            self._grow(2 * self.slots)

    def _look_up_then_number(self, ids: np.ndarray, sizes: np.ndarray, offset: np.ndarray) -> None:
        """The ids the table holds looked up by the cores in runs (the table only read), then the others numbered
        in request order by :meth:`_number`: the numbers, table growth and errors of one pass."""
        runs = runs_of(len(ids))
        cut = [len(ids) * j // runs for j in range(runs + 1)]
        bigs = in_runs(runs, lambda j: _lookup_kernel(ids, sizes, self.table, self.shift, OBJECT_SLOT_BITS, offset,
                                                      cut[j], cut[j + 1]))
        big = min((b for b in bigs if b >= 0), default=len(ids))  # the first request too big for its slot
        new = np.flatnonzero(offset[:big] < 0)
        if len(new):
            placed = np.empty(len(new), np.int64)
            self._number(ids[new], sizes[new], placed)
            offset[new] = placed
        if big < len(ids):
            self._too_big(sizes[big])

    def _too_big(self, size) -> None:
        raise TraceFormatError(f"{self.fmt}: object size {int(size):,} bytes is "
                               f"larger than the {_SLOT_BYTES:,}-byte slot an object is given")


@contextmanager
def object_table(fmt: str, sink):
    """The :class:`ObjectSlots` of a streamed read (``sink`` not None), its table held against the run's memory
    budget while the read lasts (:func:`models.budget.reserve`: the consumer's steps count it); None without a
    stream."""
    if sink is None:
        yield None
        return
    with reserve(0, f"the {fmt} reader's object table") as hold:
        yield ObjectSlots(fmt, hold)


def read_records(src, dtype: np.dtype, decode, *, fmt: str, header_bytes: int = 0, header_check=None,
                 name: str | None, max_requests: int | None, progress, chunk_bytes: int,
                 max_input_bytes: int = MAX_INPUT_BYTES, meta: dict | None = None) -> BlockTrace:
    """Read fixed-size little-endian records of ``dtype`` into an object trace: the decode stage
    (:func:`~models.traces.formats.records.record_blocks`, one compiled pass per block of the memory-mapped file),
    then the placement stage (:class:`ObjectSlots` for a streamed read, :func:`place_objects` for a whole one).

    Parameters
    ----------
    src : path, bytes or binary file object
        The trace (plain, gzip or zstd).
    dtype : numpy.dtype
        One record (packed, little-endian), with the fields ``time``, ``id``, ``size``, ``next`` and optionally
        ``op_tenant`` (see :func:`~models.traces.formats.records.decode_block`).
    decode : callable
        The format's NumPy decode, ``decode(records, offset0) -> dict`` of columns ``time_ns``, ``is_write``,
        ``size_bytes``, ``device``, ``meta:object_id`` for a block of records whose first starts at byte
        ``offset0``; it raises TraceFormatError naming the offset of a bad record (the compiled pass finds the
        block, this names the record).
    fmt : str
        Format name (messages, ``meta["format"]``).
    header_bytes : int
        Bytes before the first record [bytes]; ``header_check(header) -> dict`` validates them and returns
        metadata (it may return a new ``dtype`` as ``"_dtype"``).
    name, max_requests, progress, chunk_bytes, max_input_bytes, meta
        Common reader options (see :mod:`models.traces.formats`).

    Returns
    -------
    BlockTrace
        Objects placed by :func:`place_objects`; size-0 requests are dropped (as libCacheSim
        does) and counted in ``meta["skipped_zero_size"]``.
    """
    if max_requests is not None and max_requests < 1:
        raise ValueError(f"max_requests must be >= 1 (got {max_requests})")
    meta = dict(meta or {})
    parts: list[dict] = []
    n = zero = 0
    sink = chunk_sink_of("block")  # a streaming consumer takes each block's columns, objects placed as they come
    t_lo = None  # the earliest arrival handed to the sink [ns]
    with object_table(fmt, sink) as slots, \
            record_blocks(src, dtype, decode, fmt=fmt, header_bytes=header_bytes, header_check=header_check,
                          progress=progress, chunk_bytes=chunk_bytes, max_input_bytes=max_input_bytes,
                          ahead=sink is not None) as (head, blocks, report):
        meta.update(head)
        for cols, records, lo in blocks:
            k = len(cols["time_ns"])
            zero += records - k
            if sink is not None and k:
                m = k if max_requests is None else min(k, max_requests - n)
                if m < k:
                    cols = {c: v[:m] for c, v in cols.items()}
                    lo = int(cols["time_ns"].min())
                t_lo = lo if t_lo is None else min(t_lo, lo)
                sink(slots.place(cols))
                n += m
            elif k:
                cols["offset_bytes"] = np.zeros(k, np.int64)  # placed once the trace is whole
                parts.append(cols)
                n += k
                charge_parsed(n)  # the memory budget: refuse before joining the pieces
            report()
            if max_requests is not None and n >= max_requests:
                break
    meta.update(format=fmt, source=source_name(src))
    if sink is not None:
        meta.update(n_objects=slots.n_objects, object_slot_bytes=_SLOT_BYTES)
        parts = []
    trace = _block_trace(parts, max_requests, name or source_name(src), meta, fmt=fmt, zero=zero, state={})
    if sink is not None and t_lo is not None:  # the origin the whole trace would carry
        trace.meta["time_origin_ns"] = t_lo
    return trace if sink is not None else place_objects(trace, fmt)


def seconds_ns(t: np.ndarray) -> np.ndarray:
    """Unsigned 32-bit seconds to int64 ns (exact: 2**32 s = 4.3e18 ns < 2**63)."""
    return t.astype(np.int64) * np.int64(1_000_000_000)


def check_next_vtime(v: np.ndarray, offset0: int, rec: int, fmt: str) -> None:
    """``next_access_vtime`` must be -1, INT64_MAX (no next access) or >= 0 (a request index)."""
    bad = (v < 0) & (v != -1)
    if bad.any():
        i = int(np.argmax(bad))
        raise TraceFormatError(f"{fmt}: record at byte offset {offset0 + i * rec:,}: field 'next_access_vtime' "
                               f"is {int(v[i])} (expected -1 or a request index >= 0)")
