"""A plan's workloads: :class:`PlanWorkload`, its kind told from a file or a bundled name.

:func:`workload_from_path` reads the kind of a file (block trace, memory trace, Filebench ``.f``,
fio job file or JSON result) from its extension and content, or of a bundled trace / Filebench
personality from its name; :func:`workload_from_bytes` does it for uploaded bytes.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from models._base import ModelInput

__all__ = ["WORKLOAD_KINDS", "PlanWorkload", "workload_from_path", "workload_from_bytes"]

#: Kinds of workload a plan reads.
WORKLOAD_KINDS = ("block", "memory", "filebench", "fio")


class PlanWorkload(ModelInput):
    """One workload of a plan: the user's name for it, its kind and where it comes from.

    ``source`` is a file path or a bundled name (``"mqsim:tpcc-small"``, ``"lackey:lulesh"``,
    a Filebench personality such as ``"fileserver"``).

    >>> PlanWorkload(name="db", kind="block", source="mqsim:tpcc-small").kind
    'block'
    """

    name: str = Field(min_length=1, max_length=120, description="the user's name for the workload")
    kind: Literal["block", "memory", "filebench", "fio"] = Field(description="workload kind")
    source: str = Field(min_length=1, max_length=4096, description="a file path or a bundled name")

    @field_validator("name")
    @classmethod
    def _strip(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("name: give a non-blank name")
        return v


def _sniff_kind(path: Path) -> str:
    """Kind of the file at ``path`` from its extension and content (ValueError naming the file)."""
    from models.traces.detect import detect_source
    from models.traces.formats import FORMATS
    from models.traces.source import peek_text

    suffix = path.suffix.lower()
    if suffix == ".f":
        return "filebench"
    head = peek_text(str(path), 8 << 10)
    if suffix == ".json" or head.lstrip().startswith("{"):
        if '"jobs"' in head or "fio version" in head:
            return "fio"
        raise ValueError(f"{path.name}: a JSON file that is not a fio --output-format=json result (no 'jobs')")
    if suffix in (".fio", ".ini") or re.search(r"(?m)^\s*\[[^\]]+\]\s*$", head) and re.search(r"(?m)^\s*rw\s*=", head):
        return "fio"
    if re.search(r"(?m)^\s*define\s+(fileset|file|process)\b", head) and re.search(r"(?m)^\s*flowop\b", head):
        return "filebench"
    try:
        fmt, _ = detect_source(str(path))
    except ValueError as e:
        raise ValueError(f"{path.name}: cannot tell what kind of workload this is (not a Filebench .f, fio job/JSON "
                         f"or a trace format we read): {e}") from None
    return "memory" if FORMATS[fmt].kind == "memory" else "block"


def _bundled_kind(name: str) -> str | None:
    from models.storage.filebench import bundled_personalities
    from models.traces import loader

    b = loader._resolve(name)
    if b is not None:
        return b.kind
    if name in bundled_personalities():
        return "filebench"
    return None


def workload_from_path(path, *, name: str | None = None, kind: str | None = None) -> PlanWorkload:
    """A :class:`PlanWorkload` for a file (kind inferred from its extension and content) or a bundled name.

    Parameters
    ----------
    path : str or os.PathLike
        The file, or a bundled trace / Filebench personality name.
    name : str, optional, keyword-only
        The user's name for the workload (default: the file's name without its extension).
    kind : {"block", "memory", "filebench", "fio"}, optional, keyword-only
        Force the kind (checked against the file when it can be inferred).

    Raises
    ------
    FileNotFoundError
        Neither a file nor a bundled name.
    ValueError
        The kind cannot be inferred, or it contradicts ``kind`` (naming the file).

    >>> workload_from_path("mqsim:tpcc-small").kind, workload_from_path("varmail").kind
    ('block', 'filebench')
    """
    if kind is not None and kind not in WORKLOAD_KINDS:
        raise ValueError(f"kind must be one of {', '.join(WORKLOAD_KINDS)} (got {kind!r})")
    p = Path(os.fspath(path))
    if p.is_file():
        got = _sniff_kind(p)
        if kind is not None and kind != got and not {kind, got} <= {"block", "memory"}:
            raise ValueError(f"{p.name}: given as a {kind} workload but it reads as a {got} one")
        label = name or re.sub(r"\.(gz|zst|zstd)$", "", p.name).rsplit(".", 1)[0] or p.name
        return PlanWorkload(name=label, kind=kind or got, source=str(p))
    got = _bundled_kind(str(path).strip())
    if got is None:
        raise FileNotFoundError(f"{path}: no such file, and not a bundled trace or Filebench personality")
    if kind is not None and kind != got:
        raise ValueError(f"{path}: given as a {kind} workload but it is a bundled {got} one")
    return PlanWorkload(name=name or str(path).strip(), kind=got, source=str(path).strip())


def _upload_dir() -> Path:
    d = Path(tempfile.gettempdir()) / f"pcm-planner-uploads-{os.getuid() if hasattr(os, 'getuid') else 'u'}"
    d.mkdir(mode=0o700, exist_ok=True)
    if hasattr(os, "getuid") and (d.stat().st_uid != os.getuid() or d.stat().st_mode & 0o077):
        raise OSError(f"{d}: upload folder not private to this user")
    return d


def _prune_uploads(folder: Path, *, keep_s: float = 24 * 3600) -> int:
    """Delete upload files in ``folder`` not used (modified or reused) for ``keep_s`` seconds
    (default one day); their count."""
    import time

    cutoff, n = time.time() - keep_s, 0
    for f in folder.glob("upload-*"):
        try:
            if f.stat().st_mtime < cutoff:
                f.unlink()
                n += 1
        except OSError:  # removed by another session meanwhile
            continue
    return n


def workload_from_bytes(data: bytes, filename: str, *, name: str | None = None, kind: str | None = None) -> PlanWorkload:
    """A :class:`PlanWorkload` for uploaded bytes.

    The bytes are written to a private temporary file named by their SHA-256 (folder mode 0700;
    the same upload reuses its file; files unused for a day are deleted when a new upload is
    written); ``filename`` is used only for its extension (``.f``,
    ``.json``, ``.gz``, ...) and as the default ``name`` -- it is never opened as a path.

    >>> w = workload_from_bytes(b"0 0 8 8 1\\n1000 0 16 8 0\\n", "../../etc/passwd", name="mine")
    >>> w.kind, w.name, "passwd" in w.source
    ('block', 'mine', False)
    """
    if not isinstance(data, (bytes, bytearray)):
        raise ValueError(f"{filename}: expected the file's bytes, got {type(data).__name__}")
    if not data:
        raise ValueError(f"{filename}: the file is empty")
    base = Path(str(filename).replace("\\", "/")).name
    sfx = "".join(s for s in Path(base).suffixes[-2:] if re.fullmatch(r"\.[A-Za-z0-9]{1,8}", s))
    digest = hashlib.sha256(bytes(data)).hexdigest()[:32]
    target = _upload_dir() / f"upload-{digest}{sfx.lower()}"
    if target.exists():
        os.utime(target)  # in use again: not pruned for another day
    else:
        _prune_uploads(target.parent)
        fd, tmp = tempfile.mkstemp(dir=target.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(bytes(data))
        os.replace(tmp, target)
    label = name or re.sub(r"\.(gz|zst|zstd)$", "", base).rsplit(".", 1)[0] or base or "upload"
    try:
        return workload_from_path(target, name=label, kind=kind)
    except ValueError as e:  # the message names the file the user uploaded, never the private copy's path
        raise ValueError(str(e).replace(str(target), base or "upload").replace(target.name, base or "upload")) from None

