"""Uploaded files kept on disk, for models that read a path (the planner's workloads).

:data:`app.components.traces.UPLOAD_CACHE` keeps parsed traces in memory; the planner instead
reads each workload from a file (a trace, a Filebench ``.f``, a fio job file or JSON result) and
caches plans on the workloads' sources, so an upload is written once to a private folder
(:func:`upload_dir`, mode 0700) under a name made of its SHA-256 and its extension
(:func:`store_upload`: the same upload reuses its file). Files unused for a day are deleted when
a new upload is written (:func:`prune_uploads`). The user's file name is never opened as a path.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import time
from pathlib import Path

from models.planner.workloads import PlanWorkload, upload_basename, workload_from_upload

__all__ = ["upload_dir", "prune_uploads", "store_upload", "workload_from_bytes"]


def upload_dir() -> Path:
    """The private upload folder of this user (created mode 0700; OSError when another user owns it
    or it is open to others)."""
    d = Path(tempfile.gettempdir()) / f"pcm-planner-uploads-{os.getuid() if hasattr(os, 'getuid') else 'u'}"
    d.mkdir(mode=0o700, exist_ok=True)
    if hasattr(os, "getuid") and (d.stat().st_uid != os.getuid() or d.stat().st_mode & 0o077):
        raise OSError(f"{d}: upload folder not private to this user")
    return d


def prune_uploads(folder: Path, *, keep_s: float = 24 * 3600) -> int:
    """Delete upload files in ``folder`` not used (modified or reused) for ``keep_s`` seconds
    (default one day); their count."""
    cutoff, n = time.time() - keep_s, 0
    for f in folder.glob("upload-*"):
        try:
            if f.stat().st_mtime < cutoff:
                f.unlink()
                n += 1
        except OSError:  # removed by another session meanwhile
            continue
    return n


def store_upload(data: bytes, filename: str) -> Path:
    """The file holding the uploaded ``data`` (written if new; a reused one is kept another day).

    The file is named by the bytes' SHA-256 and the extension of ``filename`` (up to two, e.g.
    ``.csv.gz``); ``filename`` is used for nothing else.
    """
    if not isinstance(data, (bytes, bytearray)):
        raise ValueError(f"{filename}: expected the file's bytes, got {type(data).__name__}")
    if not data:
        raise ValueError(f"{filename}: the file is empty")
    base = upload_basename(filename)
    sfx = "".join(s for s in Path(base).suffixes[-2:] if re.fullmatch(r"\.[A-Za-z0-9]{1,8}", s))
    digest = hashlib.sha256(bytes(data)).hexdigest()[:32]
    target = upload_dir() / f"upload-{digest}{sfx.lower()}"
    if target.exists():
        os.utime(target)  # in use again: not pruned for another day
    else:
        prune_uploads(target.parent)
        fd, tmp = tempfile.mkstemp(dir=target.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(bytes(data))
        os.replace(tmp, target)
    return target


def workload_from_bytes(data: bytes, filename: str, *, name: str | None = None, kind: str | None = None,
                        trace_format: str = "auto", reader_options: dict | None = None) -> PlanWorkload:
    """A planner workload for uploaded bytes: :func:`store_upload`, then
    :func:`models.planner.workloads.workload_from_upload` (its kind from the extension and content, or from
    the trace format chosen; ``reader_options``: a CSV's column mapping, as the trace pages take it;
    messages name ``filename``, never the stored copy)."""
    return workload_from_upload(store_upload(data, filename), filename, name=name, kind=kind,
                                trace_format=trace_format, reader_options=reader_options)
