"""A plan's workloads: :class:`PlanWorkload`, its kind told from a file or a bundled name.

:func:`workload_from_path` reads the kind of a file (block trace, memory trace, Filebench ``.f``,
fio job file or JSON result) from its extension and content, or of a bundled trace / Filebench
personality from its name; :func:`workload_from_upload` does it for an upload the caller stored
(the page's upload files: :mod:`app.components.uploads`), naming the user's file in its messages.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from models._base import ModelInput

__all__ = ["WORKLOAD_KINDS", "PlanWorkload", "workload_from_path", "workload_from_upload", "upload_basename"]

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
    shown_as: str = Field("", max_length=4096,
                          description="what messages and reports call the source (an upload: the user's file name, "
                                      "never the server's stored path); empty: the source itself")

    trace_format: str = Field("auto", max_length=40,
                              description="a trace's format: 'auto' (detected) or a models.traces.FORMATS name")
    reader_options: dict[str, str | int | bool] = Field(
        default_factory=dict, description="a trace's reader options (the generic CSV's column mapping, op codes, "
                                          "sector size, ...), as models.traces.load takes them")

    @field_validator("trace_format")
    @classmethod
    def _known_format(cls, v: str) -> str:
        from models.traces.formats import FORMATS

        v = v.strip().lower() or "auto"
        if v != "auto" and v not in FORMATS:
            raise ValueError(f"trace_format: unknown trace format {v!r}; valid: auto, {', '.join(FORMATS)}")
        return v

    @property
    def trace_options(self) -> dict:
        """The options :func:`models.traces.load` reads this workload's trace with: ``format``, the reader
        options and, for an upload, the user's file name (``name``: the ``*.oracleGeneral*`` and ``*vscsi*``
        name rules look at it)."""
        return {"format": self.trace_format, **self.reader_options,
                **({"name": self.shown_as} if self.shown_as else {})}

    @property
    def source_label(self) -> str:
        """The source as messages and reports show it (:attr:`shown_as`, else :attr:`source`)."""
        return self.shown_as or self.source

    @field_validator("name")
    @classmethod
    def _strip(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("name: give a non-blank name")
        return v


def _sniff_kind(path: Path, trace_format: str = "auto", reader_options: dict | None = None) -> str:
    """Kind of the file at ``path`` from its extension and content, or from the trace format the user chose
    (ValueError naming the file)."""
    from models.traces.detect import detect_source
    from models.traces.formats import FORMATS
    from models.traces.source import peek_text

    if trace_format != "auto":
        return "memory" if FORMATS[trace_format].kind == "memory" else "block"
    if set(reader_options or {}) & {"size_col", "offset_col", "lba_col"}:
        return "block"  # a column mapping: the generic CSV
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


def workload_from_path(path, *, name: str | None = None, kind: str | None = None, trace_format: str = "auto",
                       reader_options: dict | None = None) -> PlanWorkload:
    """A :class:`PlanWorkload` for a file (kind inferred from its extension and content) or a bundled name.

    Parameters
    ----------
    path : str or os.PathLike
        The file, or a bundled trace / Filebench personality name.
    name : str, optional, keyword-only
        The user's name for the workload (default: the file's name without its extension).
    kind : {"block", "memory", "filebench", "fio"}, optional, keyword-only
        Force the kind (checked against the file when it can be inferred).
    trace_format : str, keyword-only
        A trace's format (``"auto"``: detected; else a :data:`models.traces.FORMATS` name, which also tells the
        kind), as ``--trace-format`` of the trace commands.
    reader_options : dict, optional, keyword-only
        A trace's reader options (the generic CSV's column mapping, ``op_map``, ...), as the trace commands take them.

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
    trace = {"trace_format": trace_format or "auto", "reader_options": dict(reader_options or {})}
    fmt = PlanWorkload(name="x", kind="block", source="x", **trace).trace_format  # checked, normalised
    if p.is_file():
        got = _sniff_kind(p, fmt, trace["reader_options"])
        if kind is not None and kind != got and not {kind, got} <= {"block", "memory"}:
            raise ValueError(f"{p.name}: given as a {kind} workload but it reads as a {got} one")
        label = name or re.sub(r"\.(gz|zst|zstd)$", "", p.name).rsplit(".", 1)[0] or p.name
        return PlanWorkload(name=label, kind=kind or got, source=str(p), **trace)
    got = _bundled_kind(str(path).strip())
    if got is None:
        raise FileNotFoundError(f"{path}: no such file, and not a bundled trace or Filebench personality")
    if kind is not None and kind != got:
        raise ValueError(f"{path}: given as a {kind} workload but it is a bundled {got} one")
    return PlanWorkload(name=name or str(path).strip(), kind=got, source=str(path).strip())


def upload_basename(filename: str) -> str:
    """The name of an uploaded file without any folder: never a path to open.

    >>> upload_basename("../../etc/passwd"), upload_basename("C:\\\\data\\\\t.csv.gz")
    ('passwd', 't.csv.gz')
    """
    return Path(str(filename).replace("\\", "/")).name


def workload_from_upload(path, filename: str, *, name: str | None = None, kind: str | None = None,
                         trace_format: str = "auto", reader_options: dict | None = None) -> PlanWorkload:
    """A :class:`PlanWorkload` for an uploaded file the caller stored at ``path``.

    Parameters
    ----------
    path : str or os.PathLike
        Where the caller keeps the upload's bytes (its extension is the upload's: ``.f``, ``.json``,
        ``.gz``, ... tell the kind).
    filename : str
        The user's name of the file: the default ``name`` and the file named in messages, never
        opened (:func:`upload_basename`).
    name : str, optional, keyword-only
        The user's name for the workload (default: ``filename`` without folder and extension).
    kind : {"block", "memory", "filebench", "fio"}, optional, keyword-only
        Force the kind (:func:`workload_from_path`).
    trace_format, reader_options : keyword-only
        A trace's format and reader options (:func:`workload_from_path`).

    Raises
    ------
    ValueError
        As :func:`workload_from_path`, naming ``filename`` instead of ``path``.
    """
    p = Path(os.fspath(path))
    base = upload_basename(filename)
    label = name or re.sub(r"\.(gz|zst|zstd)$", "", base).rsplit(".", 1)[0] or base or "upload"
    try:
        return workload_from_path(p, name=label, kind=kind, trace_format=trace_format,
                                  reader_options=reader_options).model_copy(update={"shown_as": base or "upload"})
    except ValueError as e:  # the message names the file the user uploaded, never the stored copy's path
        raise ValueError(str(e).replace(str(p), base or "upload").replace(p.name, base or "upload")) from None
