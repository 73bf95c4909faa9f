"""fio jobs as a plan reads them: :class:`FioJob` from a job file or a JSON result, and its time per I/O.

:func:`read_fio_jobs` reads a fio job file (INI) or a fio ``--output-format=json`` result;
:func:`fio_ns_per_io` is the mean device time of one I/O of a job (one I/O at a time) and
:func:`fio_ns_per_io_sampled` the same with the device latencies of uncertainty samples.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from models.devices import DeviceProfile, transfer_time_ns
from models.nesting import loads_json

__all__ = ["FioJob", "read_fio_jobs", "fio_ns_per_io", "fio_ns_per_io_sampled"]

#: The fio options a job file's sections are read for (others are ignored).
_FIO_KEYS = ("rw", "readwrite", "rwmixread", "rwmixwrite", "bs", "blocksize", "iodepth", "numjobs", "size", "direct",
             "ioengine")


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
            doc = loads_json(text[start:], what=f"{p.name}: fio JSON") if start >= 0 else None
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


def fio_ns_per_io(job: FioJob, dev: DeviceProfile) -> float:
    """Mean device time of one I/O of ``job`` [ns]: random I/O latency + the rest streamed
    (:meth:`DeviceProfile.transfer_ns`); sequential I/O streamed at the device's media bandwidth
    (``effective_*_bandwidth_MBps``, not the interface rate), at least one access unit's latency per access unit."""
    def one(write: bool) -> float:
        if job.random:
            return dev.transfer_ns(job.bs_bytes, write=write)
        bw = dev.effective_write_bandwidth_MBps if write else dev.effective_read_bandwidth_MBps
        return job.bs_bytes / (bw * 1e6) * 1e9
    return job.read_share * one(False) + (1 - job.read_share) * one(True)


def fio_ns_per_io_sampled(job: FioJob, dev: DeviceProfile, v):
    """:func:`fio_ns_per_io` with the device's latencies from the sample ``v`` (arrays)."""
    def one(write: bool):
        col = "write_latency_ns" if write else "read_latency_ns"
        lat = np.asarray(v[f"device:{dev.name}.{col}"], float)
        bw = dev.effective_write_bandwidth_MBps if write else dev.effective_read_bandwidth_MBps
        if job.random:
            return transfer_time_ns(lat, job.bs_bytes, dev.access_unit_bytes, bw)
        return lat * 0 + job.bs_bytes / (bw * 1e6) * 1e9
    return job.read_share * one(False) + (1 - job.read_share) * one(True)
