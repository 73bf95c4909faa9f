"""A trace's block split shared by the sweep workers of one host: generated and split once per host.

A sweep's workers each load a trace the first time one of its tasks needs it
(:class:`~models.sweep.registry.TraceContext`). Workers that share a host would each generate or
read and split the same trace; with a *share token* (set by :func:`~models.sweep.run.run_sweep`
when two or more of its workers run on one host), the first worker to split a trace writes the
arrays of its :class:`~models.traces.blocks.BlockAccesses` under :func:`share_root` (memory-backed
``/dev/shm`` where there is one), and the others map them read-on-demand (copy-on-write: the same
pages, no copy, writable NumPy arrays with the dtypes the kernels were compiled for).

Measured (``synthetic:exchange``, 2 M requests, 7.9 M block accesses, 110 MB of arrays): writing
0.04-0.06 s, mapping 0.001 s and a first pass over ``block`` and ``is_write`` 0.01 s, where generating
and splitting the trace again costs 0.35-0.55 s of a worker's CPU (``bench/bench_sweep.py``).

Safety:

- nothing is shared across sweeps: the token is fresh per :func:`~models.sweep.run.run_sweep`
  call, so a trace file changed between two sweeps is never read from an old split;
- a split is published atomically (written to a temporary folder, then renamed): a reader sees a
  whole split or none;
- a split is published only if it takes at most half the free space of :func:`share_root`;
  any write error just skips publishing, and any read error (a missing or partial folder) counts
  as no split: the worker then loads and splits the trace itself. The results never depend on it;
- :func:`drop` removes a sweep's splits (the sweep calls it on every worker when it ends), a worker
  process removes what it published when it exits, and folders older than :data:`STALE_S` are
  removed by the next publish on that host (a process killed outright leaves its folder behind).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
import threading
import time
import uuid
from pathlib import Path

import numpy as np

__all__ = ["share_root", "publish", "lookup", "has_split", "drop", "new_token", "STALE_S"]

#: Arrays of a :class:`~models.traces.blocks.BlockAccesses` a split folder holds (``per_request`` as three).
_ARRAYS = ("block", "is_write", "first", "count", "device")
#: A share folder older than this [s] belongs to a sweep that ended without removing it.
STALE_S = 2 * 86400.0
_PUBLISHED: set[Path] = set()  # folders this process created (removed at exit)
_GUARD = threading.Lock()


def new_token() -> str:
    """A fresh share token (one per sweep run)."""
    return uuid.uuid4().hex


def share_root() -> Path:
    """Where splits are shared: ``$PCM_PLANNER_SHARE_DIR``, else ``/dev/shm/pcm-planner-<uid>`` (memory-backed),
    else ``<temp dir>/pcm-planner-share-<uid>``."""
    env = os.environ.get("PCM_PLANNER_SHARE_DIR")
    if env:
        return Path(env)
    uid = os.getuid() if hasattr(os, "getuid") else 0
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        return shm / f"pcm-planner-{uid}"
    return Path(tempfile.gettempdir()) / f"pcm-planner-share-{uid}"


def _folder(token: str, key: str) -> Path:
    if not (token.isalnum() and key.replace("-", "").isalnum()):
        raise ValueError(f"share token and key must be alphanumeric (got {token!r}, {key!r})")
    return share_root() / token / key


def _remove_stale(root: Path) -> None:
    now = time.time()
    try:
        for d in root.iterdir():
            try:
                if now - d.stat().st_mtime > STALE_S:
                    shutil.rmtree(d, ignore_errors=True)
            except OSError:
                continue
    except OSError:
        return


def publish(token: str, key: str, acc) -> bool:
    """Share ``acc`` (a :class:`~models.traces.blocks.BlockAccesses`) under ``(token, key)``; True if it
    is now there (published by this call or by another worker first), False if it was not written
    (too large for the free space, or a write error)."""
    dest = _folder(token, key)
    if dest.is_dir():
        return True
    first, count, device = acc.per_request if acc.per_request else (np.zeros(0, np.int64),) * 2 + (np.zeros(0, np.int32),)
    arrays = dict(block=acc.block, is_write=acc.is_write, first=first, count=count, device=device)
    size = sum(np.asarray(a).nbytes for a in arrays.values())
    tmp = dest.parent / f".tmp-{key}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale(dest.parent.parent)
        if size > shutil.disk_usage(dest.parent).free / 2:
            return False
        tmp.mkdir()
        for name, a in arrays.items():
            np.save(tmp / f"{name}.npy", np.ascontiguousarray(a), allow_pickle=False)
        (tmp / "meta.json").write_text(json.dumps(dict(n_unique=int(acc.n_unique), block_size=int(acc.block_size),
                                                       n_requests=int(acc.n_requests), meta=acc.meta,
                                                       per_request=bool(acc.per_request))))
        try:
            os.rename(tmp, dest)
        except OSError:  # another worker published it first
            shutil.rmtree(tmp, ignore_errors=True)
            return dest.is_dir()
        with _GUARD:
            _PUBLISHED.add(dest.parent)
        return True
    except (OSError, TypeError, ValueError):
        shutil.rmtree(tmp, ignore_errors=True)
        return False


def lookup(token: str, key: str):
    """The :class:`~models.traces.blocks.BlockAccesses` shared under ``(token, key)``, its arrays mapped
    copy-on-write; None when there is none (or it cannot be read)."""
    from models.traces.blocks import BlockAccesses

    src = _folder(token, key)
    try:
        meta = json.loads((src / "meta.json").read_text())
        a = {name: np.asarray(np.load(src / f"{name}.npy", mmap_mode="c", allow_pickle=False)) for name in _ARRAYS}
    except (OSError, ValueError, KeyError):
        return None
    per_request = (a["first"], a["count"], a["device"]) if meta["per_request"] else ()
    return BlockAccesses(block=a["block"], is_write=a["is_write"], n_unique=int(meta["n_unique"]),
                         block_size=int(meta["block_size"]), n_requests=int(meta["n_requests"]),
                         meta=dict(meta["meta"]), per_request=per_request)


def has_split(token: str, prefix: str) -> bool:
    """Whether a split whose key starts with ``prefix`` is shared under ``token``."""
    try:
        return any(p.name.startswith(prefix) for p in (share_root() / token).iterdir())
    except (OSError, ValueError):
        return False


def drop(token: str) -> None:
    """Remove the splits of sweep ``token`` from this host (the mapped arrays stay valid where mapped)."""
    d = share_root() / token
    if token.isalnum():
        shutil.rmtree(d, ignore_errors=True)
    with _GUARD:
        _PUBLISHED.discard(d)


@atexit.register
def _drop_published() -> None:
    with _GUARD:
        for d in list(_PUBLISHED):
            shutil.rmtree(d, ignore_errors=True)
        _PUBLISHED.clear()
