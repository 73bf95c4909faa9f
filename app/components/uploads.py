"""Uploaded files kept on disk, for models that read a path (the planner's workloads).

:data:`app.components.traces.UPLOAD_CACHE` keeps parsed traces in memory; the planner instead
reads each workload from a file (a trace, a Filebench ``.f``, a fio job file or JSON result) and
caches plans on the workloads' sources, so an upload is written once to a private folder
(:func:`upload_dir`, mode 0700) under a name made of its SHA-256 and its extension
(:func:`store_upload`: the same upload reuses its file, after checking its content still hashes to
its name: a slot pre-filled with other bytes is rewritten, never analysed). Only uploads that read
as a workload are kept (:func:`workload_from_bytes` deletes the others, and :func:`forget_uploads` those whose
full read inside a plan failed). Files unused for a day are
deleted when a new upload is written, and the oldest go first while the folder would hold more than
:data:`MAX_FOLDER_BYTES` (:func:`prune_uploads`). The user's file name is never opened as a path.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import time
from pathlib import Path

from models.planner.workloads import PlanWorkload, upload_basename, workload_from_upload

__all__ = ["upload_dir", "prune_uploads", "store_upload", "workload_from_bytes", "forget_uploads", "MAX_FOLDER_BYTES"]

#: Most bytes the upload folder holds [bytes]: 2 GB, four uploads of the server's 500 MB upload limit
#: (``.streamlit/config.toml``); older files are evicted first to make room for a new one.
MAX_FOLDER_BYTES = 2_000_000_000


def upload_dir() -> Path:
    """The private upload folder of this user (created mode 0700; OSError when another user owns it
    or it is open to others)."""
    d = Path(tempfile.gettempdir()) / f"pcm-planner-uploads-{os.getuid() if hasattr(os, 'getuid') else 'u'}"
    d.mkdir(mode=0o700, exist_ok=True)
    if hasattr(os, "getuid") and (d.stat().st_uid != os.getuid() or d.stat().st_mode & 0o077):
        raise OSError(f"{d}: upload folder not private to this user")
    return d


def prune_uploads(folder: Path, *, keep_s: float = 24 * 3600, max_bytes: int | None = None,
                  incoming: int = 0) -> int:
    """Delete upload files in ``folder`` not used (modified or reused) for ``keep_s`` seconds
    (default one day), then the least recently used ones while the folder and ``incoming`` bytes
    would hold more than ``max_bytes`` (default :data:`MAX_FOLDER_BYTES`); their count."""
    cap = MAX_FOLDER_BYTES if max_bytes is None else max_bytes
    cutoff, n = time.time() - keep_s, 0
    kept = []
    for f in folder.glob("upload-*"):
        try:
            st = f.stat()
            if st.st_mtime < cutoff:
                f.unlink()
                n += 1
            else:
                kept.append((st.st_mtime, st.st_size, f))
        except OSError:  # removed by another session meanwhile
            continue
    total = sum(size for _, size, _ in kept) + incoming
    for _, size, f in sorted(kept, key=lambda t: t[0]):  # oldest first
        if total <= cap:
            break
        f.unlink(missing_ok=True)
        total -= size
        n += 1
    return n


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


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
    full = hashlib.sha256(bytes(data)).hexdigest()
    target = upload_dir() / f"upload-{full[:32]}{sfx.lower()}"
    if target.is_file() and target.stat().st_size == len(data) and _sha256_file(target) == full:
        os.utime(target)  # the same bytes in use again: not pruned for another day
    else:  # new, or a slot holding other bytes (pre-filled, truncated): (re)written from the upload
        if len(data) > MAX_FOLDER_BYTES:
            raise ValueError(f"{upload_basename(filename) or 'upload'}: {len(data):,} bytes, more than the "
                             f"{MAX_FOLDER_BYTES:,} bytes the upload folder keeps")
        prune_uploads(target.parent, incoming=len(data))
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
    messages name ``filename``, never the stored copy); an upload that does not read as a workload is
    deleted again."""
    path = store_upload(data, filename)
    try:
        return workload_from_upload(path, filename, name=name, kind=kind, trace_format=trace_format,
                                    reader_options=reader_options)
    except ValueError:  # unreadable: not kept (the same bytes would fail the same way)
        path.unlink(missing_ok=True)
        raise


def forget_uploads(sources) -> int:
    """Delete the stored uploads among ``sources`` (paths; anything outside :func:`upload_dir` is left alone):
    the uploads whose full read inside a plan failed are not kept (the same bytes fail the same way; the page
    stores them again from the upload widget if the user runs them again). Returns how many were deleted."""
    d = upload_dir().resolve()
    gone = 0
    for src in sources:
        p = Path(str(src))
        if p.name.startswith("upload-") and p.parent.resolve() == d and p.is_file():
            p.unlink(missing_ok=True)
            gone += 1
    return gone
