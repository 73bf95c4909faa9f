"""The planner for *my* workload: the user's traces and devices -> one verdict per PCM role.

:func:`plan` evaluates every workload the user gives (block trace, memory trace, Filebench
``.f`` file, fio job file or JSON result; :class:`PlanWorkload`) against 2-3 devices side by side
(catalogue names or custom :class:`~models.devices.DeviceProfile`), in every role the workload's
kind can tell something about, against a baseline (like-for-like by default, or a device the
user picks). One row per workload x role x device:

=================  ==========  =====================================================  ===============================
role               needs       value [x] (> 1: the device wins)                        like-for-like baseline
=================  ==========  =====================================================  ===============================
file-cache         block       storage access time of the trace under a DRAM LRU       ``hdd-7200`` (seed 004 Fig. 3
                   trace       file cache (``planner.file_cache_fraction`` of the      HDD vs Fig. 4 SCM)
                               footprint), baseline / device
                               (:func:`models.storage.file_cache_sim.file_cache_curves`)
storage            Filebench   throughput of the workload with the device as its       ext4 + page cache on SATA SSD
                   ``.f``      file system's storage (ext4-DAX if byte-addressable,    (seed 000 compares page-cached
                               else ext4 + page cache), device / baseline              HDD and SSD)
                               (:func:`models.storage.workload.evaluate`)
storage            fio job     time per I/O of the job's mix (read/write share,        ``sata-ssd``
                   or JSON     block size, random or sequential), baseline / device
                               (:meth:`DeviceProfile.transfer_ns`; one I/O at a time)
paging             memory      AMAT with the device as the paging store, 4 KiB pages,  ``sata-ssd`` (NAND swap)
                   trace       memory ``planner.paging_memory_fraction`` of the
                               footprint, baseline / device (seed 004 eqs. 4-6,
                               :mod:`models.memory.paging`)
memory-extension   memory      slowdown of a DRAM + device memory extension            ``nand-flash`` (seed 002
                   trace       (``memext.dram_frac`` in DRAM), baseline / device       compares PCM with Flash)
                               (:func:`models.memory.memory_extension.simulate_memext`)
write-cache        block       HDD time without the cache / (HDD time behind a         no cache (seed 003 §V-A)
                   trace with  ``planner.write_cache_mb`` HALO cache + the device's
                   writes      time to absorb every write)
                               (:func:`models.storage.write_cache.run_write_cache`)
=================  ==========  =====================================================  ===============================

``verdict`` is ``wins`` (value > 1), ``loses`` (value <= 1), ``not applicable`` (the role cannot
use this device or this workload, e.g. a trace without writes, DRAM as durable storage) or
``needs data`` (no workload of the kind the role needs was given); for the last two ``reason``
starts with ``"not applicable: "`` / ``"needs data: "`` and the numbers are NaN -- never
invented. With ``uncertainty=N`` the rows also get ``p5, p95`` (of ``value``), ``p_win`` (share of
samples where the device wins) and ``decisive_input`` from the models' uncertainty adapters
(:mod:`models.uncertainty.adapters`, the row's own counts simulated once); a row whose band cannot be
drawn (e.g. the device is the baseline itself) says ``(band not sampled)`` in its reason and why in
``decisive_input``.

References
----------
.. [1] Seed 000 §4 (Filebench on DAX PCM), seed 002 (memory extension), seed 003 §V (HALO write
   cache), seed 004 §2-5 (file caching and paging with fast SCM storage).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd
from pydantic import Field, field_validator

from models._base import ModelInput, ModelResult
from models.devices import DeviceProfile, get_device
from models.provenance import param

__all__ = ["WORKLOAD_KINDS", "ROLES_PLAN", "ROLE_NEEDS", "VERDICTS", "PLAN_COLUMNS", "LIKE_FOR_LIKE", "PlanWorkload",
           "PlanResult", "FioJob", "workload_from_path", "workload_from_bytes", "read_fio_jobs", "plan",
           "role_metric", "plan_provenance_keys", "ROLE_LEDGER_PAGES"]

WORKLOAD_KINDS = ("block", "memory", "filebench", "fio")
ROLES_PLAN = ("file-cache", "storage", "paging", "memory-extension", "write-cache")
VERDICTS = ("wins", "loses", "not applicable", "needs data")
#: Columns of :meth:`PlanResult.to_frame` (the CSV contract), then the uncertainty columns.
PLAN_COLUMNS = ["workload", "role", "device", "baseline", "metric", "unit", "value", "p5", "p95", "verdict", "reason"]
BAND_COLUMNS = ["p_win", "decisive_input"]
#: Workload kinds each role can use.
ROLE_NEEDS = {"file-cache": ("block",), "storage": ("filebench", "fio"), "paging": ("memory",),
              "memory-extension": ("memory",), "write-cache": ("block",)}
#: The like-for-like baseline of each role: a catalogue device (or ``None``: no cache).
LIKE_FOR_LIKE = {"file-cache": "hdd-7200", "storage": "sata-ssd", "paging": "sata-ssd",
                 "memory-extension": "nand-flash", "write-cache": None}
#: Validation-ledger pages (``models/validation/ledger.csv`` column ``page``) of each role's models.
ROLE_LEDGER_PAGES = {"file-cache": ("file-cache-sim", "break-even"), "storage": ("workloads", "devices"),
                     "paging": ("paging",), "memory-extension": ("memory-extension",),
                     "write-cache": ("write-cache", "hdd-model")}
_NEEDS_WHAT = {"block": "a block I/O trace (MSR, SPC, blkparse, MQSim, ... CSV with or without its header)",
               "memory": "a memory-reference trace (valgrind lackey or the compact .npz)",
               "filebench": "a Filebench .f file or a fio job file / JSON result"}
_FIO_KEYS = ("rw", "readwrite", "rwmixread", "rwmixwrite", "bs", "blocksize", "iodepth", "numjobs", "size", "direct",
             "ioengine")


def role_metric(role: str, workload_kind: str | None = None) -> str:
    """What a role's ``value`` measures (the unit is ``x``: baseline over device, > 1 = device wins).

    >>> role_metric("paging")
    'AMAT speedup (paging store)'
    """
    return {"file-cache": "storage access time speedup under a DRAM LRU file cache",
            "storage": ("time per I/O speedup (fio job mix)" if workload_kind == "fio"
                        else "file-workload throughput speedup"),
            "paging": "AMAT speedup (paging store)",
            "memory-extension": "memory-extension slowdown, baseline / device",
            "write-cache": "HDD-side time saved by the write cache"}[role]


# ----------------------------------------------------------------------------- workloads
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


# ----------------------------------------------------------------------------- fio jobs
@dataclass(frozen=True)
class FioJob:
    """One fio job's I/O mix: name, read share [-], block size [bytes], random or sequential, depth, jobs."""

    name: str
    read_share: float
    bs_bytes: float
    random: bool
    iodepth: int
    numjobs: int


def _fio_job(name: str, opts: dict, where: str) -> FioJob:
    from models.storage.filebench import parse_size

    rw = str(opts.get("rw", opts.get("readwrite", "read"))).strip().lower()
    valid = ("read", "write", "randread", "randwrite", "rw", "readwrite", "randrw", "trim", "randtrim")
    if rw not in valid:
        raise ValueError(f"{where}: rw={rw!r} is not a fio rw mode ({', '.join(valid[:7])})")
    if "trim" in rw:
        raise ValueError(f"{where}: rw={rw} (trim) is not a read/write workload the planner models")
    try:
        if rw in ("rw", "readwrite", "randrw"):
            if "rwmixread" in opts:
                share = float(opts["rwmixread"]) / 100
            elif "rwmixwrite" in opts:
                share = 1 - float(opts["rwmixwrite"]) / 100
            else:
                share = 0.5
        else:
            share = 1.0 if rw.endswith("read") else 0.0
        bs_text = str(opts.get("bs", opts.get("blocksize", "4k"))).split(",")[0].split(":")[0].strip()
        bs = parse_size(bs_text)
        depth = int(float(opts.get("iodepth", 1)))
        jobs = int(float(opts.get("numjobs", 1)))
    except (TypeError, ValueError) as e:
        raise ValueError(f"{where}: {e}") from None
    if not 0 <= share <= 1:
        raise ValueError(f"{where}: rwmixread/rwmixwrite must be within 0..100")
    if not bs > 0 or depth < 1 or jobs < 1:
        raise ValueError(f"{where}: bs, iodepth and numjobs must be positive (bs={bs_text}, iodepth={depth}, "
                         f"numjobs={jobs})")
    return FioJob(name, share, float(bs), rw.startswith("rand"), depth, jobs)


def read_fio_jobs(path) -> list[FioJob]:
    """The jobs of a fio job file (INI: ``[global]`` and job sections, keys ``rw, rwmixread, bs,
    iodepth, numjobs, size, direct, ioengine``) or of a fio ``--output-format=json`` result.

    >>> from models.data import data_path
    >>> [j.name for j in read_fio_jobs(data_path("fio/pcm_planner.fio"))][:2]
    ['randread-qd1', 'randread-qd16']
    """
    p = Path(path)
    text = p.read_text(encoding="utf-8", errors="replace")
    if text.lstrip().startswith("{") or p.suffix.lower() == ".json":
        start = text.find("{")
        try:
            doc = json.loads(text[start:]) if start >= 0 else None
        except json.JSONDecodeError as e:
            raise ValueError(f"{p.name}: fio JSON: not valid JSON ({e.msg} at line {e.lineno})") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("jobs"), list):
            raise ValueError(f"{p.name}: fio JSON: missing 'jobs' list (run fio with --output-format=json)")
        glob = doc.get("global options") or {}
        out = []
        for i, job in enumerate(doc["jobs"]):
            if not isinstance(job, dict) or not isinstance(job.get("job options", {}) or {}, dict):
                raise ValueError(f"{p.name}: fio JSON: jobs[{i}] is not an object with 'job options'")
            name = str(job.get("jobname", f"job{i}"))
            out.append(_fio_job(name, {**glob, **(job.get("job options") or {})}, f"{p.name}: job {name!r}"))
        if not out:
            raise ValueError(f"{p.name}: fio JSON: no jobs")
        return out
    sections: dict[str, dict] = {}
    cur = None
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.split(";")[0].split("#")[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"\[([^\]]+)\]", line)
        if m:
            cur = m.group(1).strip()
            sections.setdefault(cur, {})
            continue
        if cur is None:
            raise ValueError(f"{p.name}: line {i}: option outside a [section]: {raw.strip()[:80]!r}")
        key, eq, val = line.partition("=")
        sections[cur][key.strip().lower()] = val.strip() if eq else "1"
    glob = sections.pop("global", {})
    if not sections:
        raise ValueError(f"{p.name}: no fio job section ([name] with rw=..., bs=...)")
    return [_fio_job(n, {k: v for k, v in {**glob, **o}.items() if k in _FIO_KEYS}, f"{p.name}: job [{n}]")
            for n, o in sections.items()]


def _fio_ns_per_io(job: FioJob, dev: DeviceProfile) -> float:
    """Mean device time of one I/O of ``job`` [ns]: random I/O latency + the rest streamed
    (:meth:`DeviceProfile.transfer_ns`); sequential I/O streamed at the device's bandwidth, at
    least one access unit's latency per access unit."""
    def one(write: bool) -> float:
        if job.random:
            return dev.transfer_ns(job.bs_bytes, write=write)
        bw = dev.effective_write_bandwidth_MBps if write else dev.effective_read_bandwidth_MBps
        return job.bs_bytes / (bw * 1e6) * 1e9
    return job.read_share * one(False) + (1 - job.read_share) * one(True)


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True)
class PlanResult(ModelResult):
    """A plan: one row per workload x role x device (:func:`plan`).

    ``to_frame()`` columns: :data:`PLAN_COLUMNS` (``workload, role, device, baseline, metric,
    unit, value, p5, p95, verdict, reason``), then ``p_win, decisive_input``.
    """

    #: The rows (dicts with every column).
    rows: tuple
    #: The workloads evaluated.
    workloads: tuple
    #: The devices compared (profiles).
    devices: tuple
    #: ``"like-for-like"`` or the baseline device's name.
    baseline: str
    #: Samples of the uncertainty bands (0: none).
    uncertainty: int
    #: Provenance keys of the parameters the numbers used (:mod:`models.provenance`).
    provenance_keys: tuple
    #: The baseline device's profile (None: like-for-like), so a custom baseline's values resolve too.
    baseline_device: DeviceProfile | None = None

    def to_frame(self) -> pd.DataFrame:
        df = pd.DataFrame(list(self.rows), columns=PLAN_COLUMNS + BAND_COLUMNS)
        for c in ("value", "p5", "p95", "p_win"):
            df[c] = df[c].astype(float)
        return df

    @property
    def roles_used(self) -> list[str]:
        """Roles with at least one evaluated (wins/loses) row, in :data:`ROLES_PLAN` order."""
        got = {r["role"] for r in self.rows if r["verdict"] in ("wins", "loses")}
        return [r for r in ROLES_PLAN if r in got]

    @property
    def custom_devices(self) -> dict:
        """Devices of the plan that are not catalogue entries (name -> profile)."""
        from models.devices import load_catalogue

        cat = load_catalogue()
        devs = [*self.devices, *([self.baseline_device] if self.baseline_device is not None else [])]
        return {d.name: d for d in devs if cat.get(d.name) != d}


def _row(workload, role, device, baseline, metric, value=math.nan, verdict="", reason="", band=None):
    """One plan row; a band that could not be drawn adds "(band not sampled)" to the reason (why: in
    ``decisive_input``)."""
    b = band or {}
    if str(b.get("decisive_input", "")).startswith("not sampled"):
        reason += " (band not sampled)"
    return {"workload": workload, "role": role, "device": device, "baseline": baseline, "metric": metric, "unit": "x",
            "value": float(value), "p5": float(b.get("p5", math.nan)), "p95": float(b.get("p95", math.nan)),
            "verdict": verdict, "reason": reason, "p_win": float(b.get("p_win", math.nan)),
            "decisive_input": str(b.get("decisive_input", ""))}


def _verdict(value: float) -> str:
    return "wins" if value > 1 else "loses"


def _num(x: float) -> str:
    if not np.isfinite(x):
        return "inf" if x > 0 else str(x)
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def _cmp(value: float, dev: str, base: str, what: str) -> str:
    if value > 1:
        return f"{dev} {_num(value)}× {what} than {base}"
    if value == 1:
        return f"{dev} no better than {base}"
    return f"{dev} {_num(1 / value)}× worse than {base}"


# ----------------------------------------------------------------------------- uncertainty helpers
def _inverted(model):
    """``1 / model`` (same inputs), its verdict flipped: for a model whose output is device / baseline."""
    from models.uncertainty import UncertainModel, Verdict

    v = model.verdict
    verdict = None if v is None else Verdict(1.0 / v.threshold, not v.below, v.statement)
    res = None if model.resimulate is None else (lambda o: 1.0 / model.resimulate(o))
    return UncertainModel(model.model, model.output + "_inv", model.unit, model.inputs,
                          lambda vals: 1.0 / np.asarray(model.evaluate(vals), dtype=float), verdict, res, model.notes,
                          f"1 / ({model.output_label or model.output})")


def _ratio_model(num, den, statement: str, label: str):
    """``num / den`` on joint samples (inputs of the same name shared): > 1 = the device wins."""
    from models.uncertainty import UncertainModel, Verdict

    ins = {i.name: i for i in num.inputs}
    for i in den.inputs:
        if i.name in ins and ins[i.name].point != i.point:
            raise ValueError(f"input {i.name} differs between the two models")
        ins.setdefault(i.name, i)
    if any(i.resimulates for i in ins.values()):
        raise ValueError("an input re-simulates")
    return UncertainModel(num.model, "ratio", "x", tuple(ins.values()),
                          lambda v: np.asarray(num.evaluate(v), float) / np.asarray(den.evaluate(v), float),
                          Verdict(1.0, False, statement), None, num.notes + den.notes, label)


def _band(build, uq) -> dict | None:
    """Band columns from ``build()`` -> UncertainModel, or None (not sampled) when it cannot be built."""
    if not uq:
        return None
    from models.planner import uncertainty as pu

    try:
        model = build()
    except (ValueError, KeyError) as e:
        return pu.empty_band(f"not sampled: {e}")
    return pu.band_columns(model, n=uq[0], seed=uq[1])


# ----------------------------------------------------------------------------- roles
def _volatile(dev: DeviceProfile) -> bool:
    return dev.kind == "dram"


def _file_cache_rows(w, tr, devs, base, uq):
    from models.storage import file_cache_sim as fcs
    from models.traces import split_blocks

    role = "file-cache"
    frac = float(param("planner.file_cache_fraction").value)
    acc = split_blocks(tr)
    ids = acc.block
    base_dev = base or get_device(LIKE_FOR_LIKE[role])
    ok = [d for d in devs if not _volatile(d)]
    curves = fcs.file_cache_curves(ids, [base_dev, *ok], cache_fractions=[frac]) if ok else None
    out = []
    blabel = f"{base_dev.name} under the same DRAM LRU cache" + (" (like-for-like, seed 004)" if base is None else "")
    for d in devs:
        if _volatile(d):
            out.append(_row(w.name, role, d.name, blabel, role_metric(role), verdict="not applicable",
                            reason=f"not applicable: {d.name} is DRAM, volatile: it cannot be the storage under a "
                                   "DRAM file cache"))
            continue
        lru = curves[curves.policy == "lru"]
        t_dev = float(lru[lru.device == d.name].time_ns.iloc[0])
        t_base = float(lru[lru.device == base_dev.name].time_ns.iloc[0])
        v = t_base / t_dev
        be = fcs.break_even_share(ids, d)
        hit = float(lru[lru.device == d.name].hit_ratio.iloc[0])
        reason = (f"{hit:.0%} LRU hits with a DRAM cache of {frac:.0%} of the footprint; "
                  f"{be.share_blocks:.1%} of blocks are reused more than n* = {be.n_star:.3g} times on {d.name} "
                  f"(a DRAM cache over it pays only for them) -> {_cmp(v, d.name, base_dev.name, 'faster')}")
        hits = int(lru[lru.device == d.name].hits.iloc[0])
        band = _band(lambda d=d, hits=hits: _file_cache_band_model(hits, len(ids), d, base_dev), uq)
        out.append(_row(w.name, role, d.name, blabel, role_metric(role), v, _verdict(v), reason, band))
    return out


def _file_cache_band_model(hits: int, n: int, dev, base_dev):
    """Time ratio baseline / device of the LRU file cache (``hits * t + misses * Tm`` on each device,
    the hit count simulated once), with the timings of the break-even adapter
    (:func:`models.uncertainty.adapters.breakeven_model`: page-cache costs, I/O-stack factor and the
    devices' latency and bandwidth varied by provenance)."""
    from models.uncertainty import UncertainModel, Verdict
    from models.uncertainty.adapters import _device_timings

    if dev.name == base_dev.name:
        raise ValueError("the baseline is the device itself")
    _, ins_d, tim_d = _device_timings(dev, 4096, None, None)
    _, ins_b, tim_b = _device_timings(base_dev, 4096, None, None)
    ins = {i.name: i for i in ins_d}
    for i in ins_b:
        if i.name in ins and ins[i.name].point != i.point:
            raise ValueError(f"input {i.name} differs between the two devices")
        ins.setdefault(i.name, i)
    miss = n - hits

    def ev(v):
        t, _, tm = tim_d(v)
        tb, _, tmb = tim_b(v)
        return (hits * tb + miss * tmb) / (hits * t + miss * tm)

    return UncertainModel("file-cache", "time_ratio", "x", tuple(ins.values()), ev,
                          Verdict(1.0, False, f"{dev.name} under a DRAM LRU cache beats {base_dev.name}"),
                          notes=(f"LRU hits simulated once ({hits:,} of {n:,}); timings vary analytically",),
                          output_label="storage access time baseline / device")


def _write_cache_rows(w, tr, devs, base, uq):
    from models.storage import write_cache as wc

    role = "write-cache"
    mb = float(param("planner.write_cache_mb").value)
    blabel = ("no cache: HDD hdd-7200 alone (like-for-like, seed 003)" if base is None
              else f"the same {mb:g} MB HALO cache on {base.name}")
    metric = role_metric(role)
    if not len(tr) or not np.asarray(tr.is_write).any():
        return [_row(w.name, role, d.name, blabel, metric, verdict="not applicable",
                     reason="not applicable: the trace has no writes, so a write cache has nothing to absorb")
                for d in devs]
    if base is not None and base.kind in ("dram", "hdd"):
        return [_row(w.name, role, d.name, blabel, metric, verdict="not applicable",
                     reason=f"not applicable: the baseline {base.name} ({base.kind}) cannot be a durable write cache "
                            "in front of an HDD; compare like-for-like (no cache) instead") for d in devs]
    req = wc.prepare_requests(tr)
    none = wc.run_write_cache(req, "none", 0.0)
    halo = wc.run_write_cache(req, "halo", mb)
    sizes = np.asarray(tr.size_bytes, float)[np.asarray(tr.is_write, bool)]
    wshare = float(np.mean(tr.is_write))

    def dev_s(d):
        extra = np.maximum(0.0, sizes - d.access_unit_bytes)
        return float((d.write_latency_ns + extra / (d.effective_write_bandwidth_MBps * 1e6) * 1e9).sum()) / 1e9

    out = []
    for d in devs:
        if d.kind in ("dram", "hdd"):
            why = ("DRAM is volatile: a write cache in front of an HDD must keep the writes across a crash"
                   if d.kind == "dram" else "an HDD cannot cache writes for an HDD")
            out.append(_row(w.name, role, d.name, blabel, metric, verdict="not applicable", reason=f"not applicable: {why}"))
            continue
        t_with = float(halo.exec_time_s) + dev_s(d)
        t_ref = float(none.exec_time_s) if base is None else float(halo.exec_time_s) + dev_s(base)
        v = t_ref / t_with if t_with > 0 else math.inf
        reason = (f"{wshare:.0%} writes; a {mb:g} MB HALO cache on {d.name} cuts HDD traffic to "
                  f"{halo.traffic_rate:.0%} and absorbs the writes in {dev_s(d) * 1e3:.3g} ms of device time -> "
                  + _cmp(v, d.name, "no cache" if base is None else base.name, "less time"))
        band = _band(lambda d=d: _writecache_band_model(req, sizes, d, base, mb), uq)
        out.append(_row(w.name, role, d.name, blabel, metric, v, _verdict(v), reason, band))
    return out


def _writecache_band_model(req, wsizes, dev, base, mb):
    """HDD figures varied (:func:`models.uncertainty.adapters.writecache_streams`, the adapter's
    scaling) plus the cache device's write latency; same value as the row at the points."""
    from models.uncertainty import UncertainModel, Verdict, device_input
    from models.uncertainty.adapters import writecache_streams

    hdd = get_device("hdd-7200")
    parts = writecache_streams(req, cache_mb=mb, policy="halo", drive=hdd.name)
    k = f"device:{hdd.name}"
    ins = [device_input(hdd, "avg_seek_ns", label="HDD mean seek time"),
           device_input(hdd, "rpm", label="HDD spindle speed"),
           device_input(hdd, "read_bandwidth_MBps", label="HDD media bandwidth"),
           device_input(dev, "write_latency_ns", label=f"{dev.name} write latency")]
    if base is not None:
        if base.name == dev.name:
            raise ValueError("the baseline is the device itself")
        ins.append(device_input(base, "write_latency_ns", label=f"{base.name} write latency"))
    s0, r0, b0 = hdd.avg_seek_ns, hdd.rpm, hdd.read_bandwidth_MBps

    def total_ms(v, p):
        seek, rot, xfer, other = p
        return (seek * v[f"{k}.avg_seek_ns"] / s0 + rot * r0 / v[f"{k}.rpm"]
                + xfer * b0 / v[f"{k}.read_bandwidth_MBps"] + other)

    def dev_ms(v, d):
        lat = np.asarray(v[f"device:{d.name}.write_latency_ns"], float)
        extra = float(np.maximum(0.0, wsizes - d.access_unit_bytes).sum()) / (d.effective_write_bandwidth_MBps * 1e6) * 1e9
        return (len(wsizes) * lat + extra) / 1e6

    def ev(v):
        t_c = total_ms(v, parts["halo"]) + dev_ms(v, dev)
        t_ref = total_ms(v, parts["none"]) if base is None else total_ms(v, parts["halo"]) + dev_ms(v, base)
        return t_ref / t_c

    return UncertainModel("writecache", "speedup", "x", tuple(ins), ev,
                          Verdict(1.0, False, f"a {mb:g} MB HALO cache on {dev.name} saves time"),
                          notes=("HDD streams simulated once (writecache_streams); HDD figures and the cache "
                                 "device's write latency vary analytically",),
                          output_label="time without / with the write cache")


def _memory_rows(w, mt, devs, base, uq, progress_step):
    from models.memory import memory_extension as me
    from models.memory import paging as pg

    out = []
    # --- paging
    role = "paging"
    frac = float(param("planner.paging_memory_fraction").value)
    base_dev = base or get_device(LIKE_FOR_LIKE[role])
    blabel = f"{base_dev.name} as the paging store" + (" (like-for-like: NAND SSD swap)" if base is None else "")
    inputs0 = pg.paging_inputs(memory_fraction=frac, page_sizes_bytes=(4096,))
    prof = pg.paging_profile(mt, inputs0)

    def amat(d):
        inp = pg.paging_inputs(memory_fraction=frac, page_sizes_bytes=(4096,), device=d)
        return inp, float(pg.paging_table(prof, inp).amat_ns.iloc[0])

    b_inp, b_amat = amat(base_dev)
    fault = float(pg.paging_table(prof, b_inp).fault_rate.iloc[0])
    for d in devs:
        if _volatile(d):
            out.append(_row(w.name, role, d.name, blabel, role_metric(role), verdict="not applicable",
                            reason=f"not applicable: {d.name} is DRAM, the memory itself: paging to it is no paging"))
            continue
        inp, a = amat(d)
        v = b_amat / a
        reason = (f"{fault:.2%} of references fault with {frac:.0%} of the footprint in memory (4 KiB pages, CLOCK); "
                  f"AMAT {_num(a)} ns on {d.name} vs {_num(b_amat)} ns -> {_cmp(v, d.name, base_dev.name, 'faster')}")
        band = _band(lambda inp=inp: _ratio_model(
            _am(prof, b_inp), _am(prof, inp), f"paging to {inp.device or 'the device'} is faster",
            "AMAT baseline / device"), uq)
        out.append(_row(w.name, role, d.name, blabel, role_metric(role), v, _verdict(v), reason, band))
    progress_step()
    # --- memory extension
    role = "memory-extension"
    base_dev = base or get_device(LIKE_FOR_LIKE[role])
    blabel = f"{base_dev.name} extension" + (" (like-for-like, seed 002: PCM vs Flash)" if base is None else "")
    stream = me.page_stream(mt)
    cfg = me.MemExtConfig()
    rb = me.simulate_memext(stream, cfg, device=base_dev)
    local = get_device("dram")
    for d in devs:
        if _volatile(d) and d.read_latency_ns <= local.read_latency_ns:
            out.append(_row(w.name, role, d.name, blabel, role_metric(role), verdict="not applicable",
                            reason=f"not applicable: {d.name} is as fast as the local DRAM ({local.name}), the fast "
                                   "tier itself; the extension behind DRAM is a slower device (PCM, Flash, "
                                   "CXL-attached memory)"))
            continue
        r = me.simulate_memext(stream, cfg, device=d)
        v = float(rb.slowdown) / float(r.slowdown)
        reason = (f"{r.footprint_pages:,} pages, {r.full_misses / max(r.references, 1):.2%} of references fault with "
                  f"{cfg.dram_frac:.0%} of the footprint in DRAM -> slowdown {_num(float(r.slowdown))}× on {d.name} vs "
                  f"{_num(float(rb.slowdown))}× on {base_dev.name}: {_cmp(v, d.name, base_dev.name, 'faster')}")

        def build(d=d, r=r):
            from models.uncertainty.adapters import memext_model

            if d.name == base_dev.name:
                raise ValueError("the baseline is the device itself")
            return _inverted(memext_model(stream, cfg, device=d, baseline=base_dev, result=r))

        out.append(_row(w.name, role, d.name, blabel, role_metric(role), v, _verdict(v), reason, _band(build, uq)))
    progress_step()
    return out


def _am(prof, inputs):
    """AMAT adapter of the paging profile; custom devices by their typed latency (see amat_model)."""
    from models.uncertainty.adapters import amat_model

    return amat_model(prof, inputs)


def _storage_config(dev: DeviceProfile):
    """The preset configuration of a catalogue device (its parallel units), else ext4-DAX on a
    byte-addressable device and ext4 + page cache on another, one service unit."""
    from models.storage.workload import StorageConfig, config_names, get_config

    for c in map(get_config, config_names()):
        if c.device == dev and c.host_device is None and c.virt_per_op_ns == 0:
            return c
    return StorageConfig(name=f"plan-{dev.name}"[:64], label=f"{dev.name} as the file system's storage",
                         mode="dax" if dev.byte_addressable else "pagecache", device=dev, device_servers=1)


def _filebench_rows(w, devs, base, uq):
    from models.planner import describe_filebench
    from models.storage import workload as wf

    role = "storage"
    wl = wf.as_workload(w.source)
    feats = wf.workload_features(wl)
    if base is None:
        bcfg = wf.get_config("ssd")
        blabel = "ext4 + page cache on SATA SSD (like-for-like, seed 000)"
    else:
        bcfg = _storage_config(base)
        blabel = f"{base.name} as the file system's storage ({bcfg.mode})"
    rb = wf.evaluate(wl, bcfg, curve=False)
    out = []
    for d in devs:
        if _volatile(d):
            out.append(_row(w.name, role, d.name, blabel, role_metric(role, "filebench"), verdict="not applicable",
                            reason=f"not applicable: {d.name} is DRAM, volatile: it cannot hold a file system's "
                                   "data across a power loss"))
            continue
        cfg = _storage_config(d)
        r = wf.evaluate(wl, cfg, curve=False)
        v = r.ops_per_s / rb.ops_per_s
        text = describe_filebench(feats, rb.hit_ratio, v, bcfg.device.name if base else "page-cached SSD")
        text = text.replace("PCM-DAX", f"{d.name} ({cfg.mode})")
        band = _band(lambda cfg=cfg: _filebench_band_model(wl, cfg, bcfg), uq)
        out.append(_row(w.name, role, d.name, blabel, role_metric(role, "filebench"), v, _verdict(v), text, band))
    return out


def _filebench_band_model(wl, cfg, bcfg):
    """The Filebench adapter (:func:`models.uncertainty.adapters.workload_model`): device / baseline throughput."""
    from models.uncertainty import adapters

    if cfg == bcfg:
        raise ValueError("the baseline is the device itself")
    return adapters.workload_model(wl, cfg, ref=bcfg)


def _fio_rows(w, devs, base, uq):
    from models.uncertainty import UncertainModel, Verdict, device_input

    role = "storage"
    jobs = read_fio_jobs(w.source)
    base_dev = base or get_device(LIKE_FOR_LIKE[role])
    blabel = f"{base_dev.name}" + (" (like-for-like: a SATA SSD)" if base is None else "")
    mix = ", ".join(f"{j.name}: {j.read_share:.0%} reads, {j.bs_bytes / 1024:g} KiB "
                    f"{'random' if j.random else 'sequential'}" for j in jobs[:3]) + (" ..." if len(jobs) > 3 else "")

    def mean_ns(dev):
        return float(np.mean([_fio_ns_per_io(j, dev) for j in jobs]))

    tb = mean_ns(base_dev)
    out = []
    for d in devs:
        if _volatile(d):
            out.append(_row(w.name, role, d.name, blabel, role_metric(role, "fio"), verdict="not applicable",
                            reason=f"not applicable: {d.name} is DRAM, volatile: it cannot be the storage a fio "
                                   "job's data must survive on"))
            continue
        t = mean_ns(d)
        v = tb / t
        reason = (f"{mix}; {_num(t / 1e3)} us per I/O on {d.name} vs {_num(tb / 1e3)} us on {base_dev.name}, "
                  f"one I/O at a time (queue depth not modelled) -> {_cmp(v, d.name, base_dev.name, 'faster')}")

        def build(d=d):
            if d.name == base_dev.name:
                raise ValueError("the baseline is the device itself")
            cols = ("read_latency_ns", "write_latency_ns")
            ins = [device_input(x, c, label=f"{x.name} {c.split('_')[0]} latency") for x in (d, base_dev) for c in cols]

            def per_io(sample, x):
                return np.mean([_fio_lat(j, x, sample) for j in jobs], axis=0)

            return UncertainModel("fio", "speedup", "x", tuple(ins),
                                  lambda sample: per_io(sample, base_dev) / per_io(sample, d),
                                  Verdict(1.0, False, f"{d.name} serves the job faster than {base_dev.name}"),
                                  notes=("closed form; the devices' latencies vary by their provenance",),
                                  output_label="time per I/O baseline / device")

        out.append(_row(w.name, role, d.name, blabel, role_metric(role, "fio"), v, _verdict(v), reason,
                        _band(build, uq)))
    return out


def _fio_lat(job: FioJob, dev: DeviceProfile, v):
    """:func:`_fio_ns_per_io` with the device's latencies from the sample ``v`` (arrays)."""
    def one(write: bool):
        col = "write_latency_ns" if write else "read_latency_ns"
        lat = np.asarray(v[f"device:{dev.name}.{col}"], float)
        bw = dev.effective_write_bandwidth_MBps if write else dev.effective_read_bandwidth_MBps
        if job.random:
            return lat + max(0.0, job.bs_bytes - dev.access_unit_bytes) / (bw * 1e6) * 1e9
        return lat * 0 + job.bs_bytes / (bw * 1e6) * 1e9
    return job.read_share * one(False) + (1 - job.read_share) * one(True)


# ----------------------------------------------------------------------------- plan
def _as_device(d) -> DeviceProfile:
    if isinstance(d, DeviceProfile):
        return d
    if isinstance(d, str):
        return get_device(d.strip())
    raise ValueError(f"device: expected a catalogue name or a DeviceProfile, got {type(d).__name__}")


def _as_workload(w) -> PlanWorkload:
    if isinstance(w, PlanWorkload):
        return w
    if isinstance(w, (str, os.PathLike)):
        return workload_from_path(w)
    if isinstance(w, dict):
        return PlanWorkload.model_validate(w)
    raise ValueError(f"workload: expected a PlanWorkload, a path or a bundled name, got {type(w).__name__}")


def plan_provenance_keys(roles, devices, baseline: DeviceProfile | None = None) -> list[str]:
    """Provenance keys (:mod:`models.provenance`) of the parameters ``roles`` use with ``devices``."""
    from models.planner import ROLE_PROVENANCE
    from models.provenance import device_keys, param_names

    def dkeys(d):
        return [f"device:{d.name}.{c}" for c in ("access_unit_bytes", "read_latency_ns", "write_latency_ns",
                                                   "read_bandwidth_MBps", "write_bandwidth_MBps")
                if getattr(d, c) is not None]

    keys: list[str] = []
    for role in roles:
        b = baseline or (get_device(LIKE_FOR_LIKE[role]) if LIKE_FOR_LIKE[role] else None)
        if role == "file-cache":
            keys += ["planner.file_cache_fraction", "file_cache.io_stack_factor", "file_cache.pagecache_read_4k_ns",
                     "file_cache.pagecache_insert_4k_ns", *device_keys("dram")]
        elif role == "storage":
            keys += [k for k in ROLE_PROVENANCE["storage-vs-ssd"] if not k.startswith("device:pcm")]
        elif role == "paging":
            keys += ["planner.paging_memory_fraction", *param_names("paging."), "device:dram.read_latency_ns",
                     "device:dram.read_bandwidth_MBps"]
        elif role == "memory-extension":
            keys += ["memext.fault_overhead_ns", "memext.base_ns_per_ref", "memext.dram_frac"]
        elif role == "write-cache":
            keys += [k for k in ROLE_PROVENANCE["write-cache"] if not k.startswith("trace.")]
        for d in (*devices, *([b] if b is not None else [])):
            keys += dkeys(d)
    return list(dict.fromkeys(keys))


def plan(workloads, devices, *, baseline: str | DeviceProfile = "like-for-like", uncertainty: int = 0, seed=0,
         n_requests: int = 20_000, memory_refs: int | None = 2_000_000, progress=None) -> PlanResult:
    """One verdict per workload x PCM role x device (see the module docstring for the roles).

    Parameters
    ----------
    workloads : sequence of PlanWorkload, path or bundled name
        The user's workloads (:func:`workload_from_path`, :func:`workload_from_bytes`); names must be
        distinct.
    devices : sequence of str or DeviceProfile
        1-3 devices to compare side by side (catalogue names or custom profiles; distinct names).
    baseline : str or DeviceProfile, keyword-only
        ``"like-for-like"`` (each role's :data:`LIKE_FOR_LIKE` baseline) or one device used as the
        baseline of every role (write-cache: the same HALO cache on that device).
    uncertainty : int, keyword-only
        Samples of each row's uncertain inputs (0: none); fills ``p5, p95, p_win, decisive_input``.
    seed : int or numpy.random.Generator, keyword-only
        Seed of those samples.
    n_requests : int, keyword-only
        Requests read from each block trace [-].
    memory_refs : int or None, keyword-only
        References read from each memory trace [-] (None: all).
    progress : callable, keyword-only
        Called with the completed fraction 0..1.

    Returns
    -------
    PlanResult

    Raises
    ------
    ValueError, KeyError, FileNotFoundError
        A workload or device that cannot be read (named), repeated names, no device.

    Examples
    --------
    >>> r = plan([workload_from_path("mqsim:tpcc-small", name="db")], ["pcm-samsung-20nm", "dram"],
    ...          n_requests=2000)
    >>> df = r.to_frame(); sorted(set(df.verdict))
    ['needs data', 'not applicable', 'wins']
    >>> df[df.role == "paging"].reason.iloc[0][:42]
    'needs data: upload a memory-reference trac'
    """
    from models import traces

    wls = [_as_workload(w) for w in workloads]
    devs = [_as_device(d) for d in (devices or [])]
    if not devs:
        raise ValueError("devices: give at least one device to compare")
    if len(devs) > 6:
        raise ValueError(f"devices: compare at most 6 side by side (got {len(devs)})")
    for what, names in (("workload", [w.name for w in wls]), ("device", [d.name for d in devs])):
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"{what} names must be distinct; repeated: {', '.join(dup)}")
    base = None if isinstance(baseline, str) and baseline.strip() in ("like-for-like", "") else _as_device(baseline)
    if isinstance(n_requests, bool) or not isinstance(n_requests, (int, np.integer)) or n_requests < 1:
        raise ValueError(f"n_requests must be a whole number >= 1, got {n_requests!r}")
    if memory_refs is not None and (isinstance(memory_refs, bool) or not isinstance(memory_refs, (int, np.integer))
                                    or memory_refs < 1):
        raise ValueError(f"memory_refs must be a whole number >= 1 or None, got {memory_refs!r}")
    uq = (int(uncertainty), seed) if uncertainty else None
    steps = sum(2 if w.kind in ("block", "memory") else 1 for w in wls) or 1
    done = [0]

    def step():
        done[0] += 1
        if progress:
            progress(min(1.0, done[0] / steps))

    rows: list[dict] = []
    for w in wls:
        where = f"workload {w.name!r} ({w.source})"
        try:
            if w.kind == "block":
                tr = traces.load(w.source, kind="block", max_requests=int(n_requests))
                if not len(tr):
                    raise ValueError("the trace has no requests")
                rows += _file_cache_rows(w, tr, devs, base, uq)
                step()
                rows += _write_cache_rows(w, tr, devs, base, uq)
                step()
            elif w.kind == "memory":
                mt = traces.load(w.source, kind="memory", max_requests=memory_refs)
                if not len(mt):
                    raise ValueError("the trace has no references")
                rows += _memory_rows(w, mt, devs, base, uq, step)
            elif w.kind == "filebench":
                rows += _filebench_rows(w, devs, base, uq)
                step()
            else:
                rows += _fio_rows(w, devs, base, uq)
                step()
        except FileNotFoundError as e:
            raise FileNotFoundError(f"{where}: {_describe(e)}") from None
        except (ValueError, KeyError, OSError, EOFError) as e:
            raise ValueError(f"{where}: {_describe(e)}") from None
    kinds = {w.kind for w in wls}
    for role in ROLES_PLAN:
        if kinds & set(ROLE_NEEDS[role]):
            continue
        need = ROLE_NEEDS[role][0]
        for d in devs:
            b = base.name if base is not None else (LIKE_FOR_LIKE[role] or "no cache")
            rows.append(_row(f"({need} workload)", role, d.name, b, role_metric(role), verdict="needs data",
                             reason=f"needs data: upload {_NEEDS_WHAT[need]}"
                                    + (" with writes" if role == "write-cache" else "")))
    order = {r: i for i, r in enumerate(ROLES_PLAN)}
    worder = {w.name: i for i, w in enumerate(wls)}
    dorder = {d.name: i for i, d in enumerate(devs)}
    rows.sort(key=lambda r: (order[r["role"]], worder.get(r["workload"], len(wls)), dorder[r["device"]]))
    if progress:
        progress(1.0)
    used = sorted({r["role"] for r in rows if r["verdict"] in ("wins", "loses")}, key=order.get)
    return PlanResult(rows=tuple(rows), workloads=tuple(wls), devices=tuple(devs),
                      baseline="like-for-like" if base is None else base.name, uncertainty=int(uncertainty),
                      provenance_keys=tuple(plan_provenance_keys(used, devs, base)), baseline_device=base)


def _describe(e) -> str:
    from models.errors import describe

    return describe(e)
