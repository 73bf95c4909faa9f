"""Input checks and small numba helpers shared by the simulation kernels."""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic

__all__ = ["as_ids", "as_flags", "as_weights", "popcount64"]


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
    """Validate an optional per-access boolean array of length ``n`` (None -> all False)."""
    if flags is None:
        return np.zeros(n, dtype=np.bool_)
    a = np.asarray(flags)
    if a.ndim != 1 or len(a) != n:
        raise ValueError(f"{name} must be a one-dimensional array of length {n} (got shape {a.shape})")
    if a.dtype.kind not in "biu":
        raise ValueError(f"{name} must be boolean (got dtype {a.dtype})")
    return np.ascontiguousarray(a, dtype=np.bool_)


def as_weights(weights, n: int, name: str = "weights") -> np.ndarray | None:
    """Validate optional per-access weights [bytes]: finite, >= 0, length ``n``."""
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


@intrinsic
def popcount64(typingctx, x):
    """Population count of a uint64 (LLVM ``ctpop``), usable inside numba functions."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen

