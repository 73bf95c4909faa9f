"""Columnar trace containers.

:class:`BlockTrace` holds block-storage requests; :class:`MemTrace` holds memory
references (valgrind lackey kinds). Both are immutable bundles of NumPy arrays of equal
length, validated on construction. ``subset()`` selects rows; ``fingerprint()`` is a stable
hash of the name and the columns, usable as a cache key (``st.cache_data``, ``functools``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

__all__ = ["BlockTrace", "MemTrace", "MEM_KINDS"]

#: Memory reference kinds: instruction fetch, load, store, modify (load+store).
MEM_KINDS = np.array(["I", "L", "S", "M"])


def _arr(x, dtype) -> np.ndarray:
    a = np.ascontiguousarray(np.asarray(x, dtype=dtype))
    if a.ndim != 1:
        raise ValueError("trace columns must be one-dimensional")
    a.setflags(write=False)
    return a


def _fingerprint(trace, columns: tuple[str, ...]) -> str:
    """BLAKE2b-128 hex digest of the class, the name and the columns (memoised on the instance).

    The columns are read-only arrays, so the digest stays valid; ``meta`` is left out.
    """
    memo = trace.__dict__.get("_fingerprint")
    if memo is None:
        h = hashlib.blake2b(digest_size=16)
        h.update(f"{type(trace).__name__}\0{trace.name}\0{len(trace)}".encode())
        for c in columns:
            a = getattr(trace, c)
            h.update(f"\0{c}:{a.dtype.str}\0".encode())
            h.update(a.data)
        memo = h.hexdigest()
        object.__setattr__(trace, "_fingerprint", memo)
    return memo


@dataclass(frozen=True)
class BlockTrace:
    """Block I/O requests, one row per request.

    Attributes
    ----------
    time_ns : int64 array
        Arrival time [ns] (relative to the trace start).
    is_write : bool array
        True for writes.
    offset_bytes : int64 array
        Byte offset of the first byte on the device [bytes].
    size_bytes : int64 array
        Request size [bytes], > 0.
    device : int32 array
        Device / volume number (0 when the format has none).
    name : str
        Human-readable trace name.
    meta : dict
        Reader metadata; ``meta["op_unknown"] = True`` when the format carries no read/write operation
        (oracleGeneral, lcs v1, a CSV without an op column): ``is_write`` is then all False by
        convention, not a measured "no writes" (:attr:`op_known`).
    """

    time_ns: np.ndarray
    is_write: np.ndarray
    offset_bytes: np.ndarray
    size_bytes: np.ndarray
    device: np.ndarray
    name: str = "trace"
    meta: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        dev = np.asarray(self.device)
        if dev.size and dev.dtype.kind in "iuf" and (dev.min() < 0 or dev.max() > 2**31 - 1):
            raise ValueError(f"device numbers must be within 0..{2**31 - 1} (got {dev.min()}..{dev.max()})")
        object.__setattr__(self, "time_ns", _arr(self.time_ns, np.int64))
        object.__setattr__(self, "is_write", _arr(self.is_write, np.bool_))
        object.__setattr__(self, "offset_bytes", _arr(self.offset_bytes, np.int64))
        object.__setattr__(self, "size_bytes", _arr(self.size_bytes, np.int64))
        object.__setattr__(self, "device", _arr(self.device, np.int32))
        n = len(self.time_ns)
        for c in ("is_write", "offset_bytes", "size_bytes", "device"):
            if len(getattr(self, c)) != n:
                raise ValueError(f"column {c} has {len(getattr(self, c))} rows, expected {n}")
        if n and (self.size_bytes <= 0).any():
            i = int(np.argmax(self.size_bytes <= 0))
            raise ValueError(f"request {i}: size_bytes must be > 0 (got {int(self.size_bytes[i])})")
        if n and (self.offset_bytes < 0).any():
            i = int(np.argmax(self.offset_bytes < 0))
            raise ValueError(f"request {i}: offset_bytes must be >= 0 (got {int(self.offset_bytes[i])})")

    def __len__(self) -> int:
        return len(self.time_ns)

    @property
    def op_known(self) -> bool:
        """Whether the trace says which requests are writes (False: the format has no operation).

        >>> t = BlockTrace([0], [False], [0], [512], [0], meta={"op_unknown": True})
        >>> t.op_known, t.subset([0]).op_known, BlockTrace([0], [False], [0], [512], [0]).op_known
        (False, False, True)
        """
        return not bool(self.meta.get("op_unknown", False))

    @property
    def nbytes(self) -> int:
        """Memory of the columns and the per-request arrays of ``meta`` [bytes] (what holding the trace costs,
        :func:`models.budget.reserve`).

        >>> BlockTrace([0, 1], [False, True], [0, 512], [512, 512], [0, 0], meta={"response_ns": np.zeros(2)}).nbytes
        74
        """
        cols = (self.time_ns, self.is_write, self.offset_bytes, self.size_bytes, self.device)
        return int(sum(a.nbytes for a in cols) + sum(v.nbytes for v in self.meta.values()
                                                     if isinstance(v, np.ndarray)))

    @classmethod
    def empty(cls, name: str = "empty") -> BlockTrace:
        z = np.zeros(0, np.int64)
        return cls(z, z.astype(bool), z, z, z.astype(np.int32), name=name)

    def subset(self, mask_or_index) -> BlockTrace:
        """A new trace with the selected rows."""
        return BlockTrace(self.time_ns[mask_or_index], self.is_write[mask_or_index],
                          self.offset_bytes[mask_or_index], self.size_bytes[mask_or_index],
                          self.device[mask_or_index], name=self.name, meta=dict(self.meta))

    def fingerprint(self) -> str:
        """Stable content hash (name and columns, not ``meta``) [32 hex digits], e.g. a cache key.

        >>> a = BlockTrace([0, 1], [False, True], [0, 4096], [512, 512], [0, 0], name="t")
        >>> a.fingerprint() == a.subset(slice(None)).fingerprint() != a.subset([0]).fingerprint()
        True
        """
        return _fingerprint(self, ("time_ns", "is_write", "offset_bytes", "size_bytes", "device"))


@dataclass(frozen=True)
class MemTrace:
    """Memory references, one row per reference (valgrind lackey model).

    Attributes
    ----------
    address : uint64 array
        Virtual address [bytes].
    size : uint8/uint16 array
        Access size [bytes].
    kind : uint8 array
        Index into :data:`MEM_KINDS`: 0 = I (instruction), 1 = L (load), 2 = S (store),
        3 = M (modify: load and store).
    name : str
        Human-readable trace name.
    """

    address: np.ndarray
    size: np.ndarray
    kind: np.ndarray
    name: str = "memtrace"
    meta: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "address", _arr(self.address, np.uint64))
        object.__setattr__(self, "size", _arr(self.size, np.uint16))
        object.__setattr__(self, "kind", _arr(self.kind, np.uint8))
        n = len(self.address)
        if len(self.size) != n or len(self.kind) != n:
            raise ValueError("address, size and kind must have the same length")
        if n and (self.kind > 3).any():
            raise ValueError("kind must be 0..3 (I, L, S, M)")

    def __len__(self) -> int:
        return len(self.address)

    @property
    def is_write(self) -> np.ndarray:
        """True for stores and modifies."""
        return self.kind >= 2

    def subset(self, mask_or_index) -> MemTrace:
        """A new trace with the selected rows (a boolean mask, indexes or a slice).

        >>> MemTrace([0, 64, 128], [8, 8, 8], [1, 2, 3]).subset(slice(None, 2)).kind.tolist()
        [1, 2]
        """
        return MemTrace(self.address[mask_or_index], self.size[mask_or_index], self.kind[mask_or_index],
                        name=self.name, meta=dict(self.meta))

    def data_only(self) -> MemTrace:
        """The trace without instruction fetches."""
        return self.subset(self.kind != 0)

    def fingerprint(self) -> str:
        """Stable content hash (name and columns, not ``meta``) [32 hex digits], e.g. a cache key.

        >>> MemTrace([0, 64], [8, 8], [1, 2]).fingerprint() == MemTrace([0, 64], [8, 8], [1, 2]).fingerprint()
        True
        """
        return _fingerprint(self, ("address", "size", "kind"))
