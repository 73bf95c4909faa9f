"""Results of slow, input-free computations over bundled data, kept on disk between server starts.

A page's ``st.cache_data`` lives as long as the server process; a result that takes seconds to
minutes to compute from the bundled traces alone (e.g. the write rates of every bundled memory
trace on the lifetime page) would be recomputed on every cold start. :func:`disk_cached` keeps it
in the numba cache directory (``$NUMBA_CACHE_DIR/pcm-planner/``, the directory ``make`` and the
Docker image warm at install time via ``python -m app.warmup``), keyed by a fingerprint of the
code and data it depends on: every ``models/**/*.py`` source and every file under ``data/``
(path, size, modification time). Any change there recomputes; a missing or unreadable cache file
only costs the computation.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]

__all__ = ["cache_dir", "code_data_fingerprint", "disk_cached"]


def cache_dir() -> Path:
    """``$NUMBA_CACHE_DIR/pcm-planner`` (default ``<repo>/.numba_cache/pcm-planner``)."""
    base = os.environ.get("NUMBA_CACHE_DIR") or str(ROOT / ".numba_cache")
    return Path(base) / "pcm-planner"


@cache
def code_data_fingerprint() -> str:
    """Hash of the model sources (content) and the bundled data files (path, size, mtime)."""
    import models
    from models.data import data_dir

    h = hashlib.sha256()
    src = Path(models.__file__).resolve().parent  # where the models are imported from (checkout or install)
    for p in sorted(src.rglob("*.py")):
        h.update(str(p.relative_to(src)).encode())
        h.update(p.read_bytes())
    try:
        data = data_dir()
    except (OSError, RuntimeError, FileNotFoundError):
        data = None
    if data is not None and data.is_dir():
        for p in sorted(data.rglob("*")):
            if p.is_file():
                st = p.stat()
                h.update(f"{p.relative_to(data)}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:24]


def disk_cached(name: str, compute: Callable[[], T]) -> T:
    """``compute()``, or its result saved by an earlier call with the same code and data.

    ``name``: a file-name-safe identifier of the computation (it takes no inputs: input-dependent
    results belong in ``st.cache_data``).
    """
    path = cache_dir() / f"{name}-{code_data_fingerprint()}.pkl"
    try:
        with path.open("rb") as f:
            return pickle.load(f)  # noqa: S301 - our own file, written below
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        pass
    out = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as f:
            pickle.dump(out, f)
        tmp.replace(path)  # atomic: concurrent sessions never read half a file
        for old in path.parent.glob(f"{name}-*.pkl"):  # results of older code / data
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass
    return out
