"""Storage-device characterization: randomness, read/write asymmetry, mix (seed 001) and fio import.

Seed 001 measured a Micron PCIe PCM prototype (PSD) against a SATA SSD with fio and
reported three normalised views: the random/sequential completion-latency ratio vs I/O
depth (PSD ~1x, SSD up to 6x, Fig. 1), the write/read latency ratio (PSD up to 19x,
SSD 1.5x random / 1.2x sequential, Fig. 2) and the sensitivity to the read/write mix
(Fig. 3). This module reproduces them with a small queueing model and fits the same
model to a user's own ``fio --output-format=json`` results.

Model
-----
A device serves requests of one kind (read/write x random/sequential) with a service
time ``s`` [us] and ``c`` parallel service units. With ``d`` requests outstanding (I/O
depth, a closed loop with no think time) the exact MVA of one ``c``-server station gives
the completion latency

.. math::  L(d) = s \\cdot \\max(1, d / c)

(all ``d`` requests in service while ``d <= c``, then throughput ``c / s``). Sequential
streams merge and prefetch, which we express as a larger effective parallelism
``c_seq`` than ``c_rand``: the random/sequential ratio then grows from ``s_rand/s_seq`` at
depth 1 to ``(s_rand/s_seq)(c_seq/c_rand)`` at high depth. A read/write mix shares the
servers (the PSD's reads and writes go through the same PCM channels), which makes the
classes interact, so :func:`mix_sensitivity` simulates the closed loop exactly (``d``
requests outstanding, each new request a write with probability ``w``, deterministic
service times, ``c`` servers; :func:`_mix_kernel`). Which request a freed server takes is
the device's ``scheduling``:

``"fcfs"``
    the oldest waiting request. Fewer writes shorten every request's wait behind the slow
    writes, so sequential write latency *falls* as the write share drops.
``"read-priority"``
    a waiting read first (non-preemptive). Writes are served only when no read waits, so
    the more reads the longer a write waits: write latency *rises* as the write share
    drops, while reads barely notice the writes. Read priority is the usual baseline of
    PCM controllers, whose writes take ~10-20x a read (Qureshi et al., HPCA 2010).

Seed 001's Figure 3 (PSD sequential writes keep degrading as the write share falls, the
SSD's improve) is not explained by one policy: read priority gives the PSD's direction but
makes the SSD degrade too, FCFS reverses the PSD. Both presets keep FCFS (the model's
neutral default, fixed before the comparison); read priority is an option, and the ledger
reports the PSD's Figure 3 claim as contradicted with the read-priority curve in its note.

Preset profiles (sources)
-------------------------
- ``psd``: 4 KiB read 10 us (ASSUMPTION, as the catalogue's ``pcm-psd-micron``; the paper
  publishes ratios only), writes 19x slower for random and sequential (Fig. 2), random =
  sequential (Fig. 1 "almost identical"), 3 service units (three daughter boards with
  their own FPGA controllers, §II.A), FCFS scheduling (ASSUMPTION, see above).
- ``ssd``: 4 KiB random read 90 us (a typical SATA figure, ASSUMPTION), sequential read at
  depth 1 the same, random write 1.5x and sequential write 1.2x the reads (Fig. 2), 8
  service units for random requests (ASSUMPTION, as :mod:`models.storage.workload.configs`) and
  6 x 8 = 48 for sequential ones: the one constant set from the paper's "+500 %" maximum
  of Fig. 1 (a calibration, stated as such).

References
----------
.. [1] Seed 001: J.-Y. Jung, K. Ireland, J. Ouyang, B. Childers, S. Cho, "Characterizing a
   Real PCM Storage Device", Figs. 1-3.
.. [2] fio JSON output format, fio documentation ("--output-format=json").
.. [3] M. K. Qureshi, M. M. Franceschini, L. A. Lastras-Montano, "Improving read performance
   of phase change memories via write cancellation and write pausing", HPCA 2010 (read
   priority as the PCM controller baseline).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd
from numba import njit
from pydantic import Field

from models._base import ModelInput, ModelResult, as_generator
from models.devices import DeviceProfile
from models.nesting import loads_json
from models.provenance import param, param_names

__all__ = [
    "CharProfile",
    "PRESETS",
    "get_profile",
    "completion_latency_us",
    "latency_us",
    "random_seq_ratio",
    "write_read_ratio",
    "mix_sensitivity",
    "read_fio_json",
    "ProfileFit",
    "fit_profile",
    "model_vs_measurement",
    "to_device_profile",
    "profile_keys",
]

Op = Literal["read", "write"]
Pattern = Literal["rand", "seq"]
Scheduling = Literal["fcfs", "read-priority"]


class CharProfile(ModelInput):
    """Service times [us] at depth 1 and parallelism [-] of one device.

    >>> p = get_profile("psd"); p.write_rand_us / p.read_rand_us
    19.0
    """

    name: str = Field(min_length=1, max_length=64)
    label: str = Field(default="", max_length=200)
    read_rand_us: float = Field(gt=0, le=1e8, description="random read service time [us]")
    read_seq_us: float = Field(gt=0, le=1e8, description="sequential read service time [us]")
    write_rand_us: float = Field(gt=0, le=1e8, description="random write service time [us]")
    write_seq_us: float = Field(gt=0, le=1e8, description="sequential write service time [us]")
    servers_rand: float = Field(default=1.0, ge=1, le=4096, description="parallel units, random requests [-]")
    servers_seq: float = Field(default=1.0, ge=1, le=4096, description="effective parallelism, sequential [-]")
    block_bytes: int = Field(default=4096, gt=0, le=1 << 30, description="request size [bytes]")
    scheduling: Scheduling = Field(default="fcfs", description="which waiting request a free unit serves")
    source: str = Field(default="user-defined", max_length=2000)

    def service_us(self, op: Op, pattern: Pattern) -> float:
        """Service time of one request [us]."""
        _check(op, pattern)
        return float(getattr(self, f"{op}_{pattern}_us"))

    def servers(self, pattern: Pattern) -> float:
        """Parallel units for a pattern [-]."""
        return float(self.servers_rand if pattern == "rand" else self.servers_seq)


def _presets() -> dict[str, CharProfile]:
    """The preset profiles, built from the registry's ``device_char.*`` values."""
    def v(name):
        return param(f"device_char.{name}").value

    psd_read, ssd_read = v("psd.read_us"), v("ssd.read_us")
    return {
        "psd": CharProfile(name="psd", label="Micron PCIe PCM prototype (PSD, seed 001)", read_rand_us=psd_read,
                           read_seq_us=psd_read, write_rand_us=psd_read * v("psd.write_read_ratio"),
                           write_seq_us=psd_read * v("psd.write_read_ratio"), servers_rand=v("psd.servers"),
                           servers_seq=v("psd.servers"),
                           source="seed 001 Figs. 1-2 ratios (DERIVED: set to reproduce them); 10 µs read ASSUMED; "
                                  "3 daughter-board controllers; FCFS scheduling ASSUMED (read priority is an "
                                  "option: seed 001 Fig. 3)"),
        "ssd": CharProfile(name="ssd", label="SATA SSD (seed 001 ratios)", read_rand_us=ssd_read, read_seq_us=ssd_read,
                           write_rand_us=ssd_read * v("ssd.write_read_ratio_rand"),
                           write_seq_us=ssd_read * v("ssd.write_read_ratio_seq"), servers_rand=v("ssd.servers_rand"),
                           servers_seq=v("ssd.servers_rand") * v("ssd.seq_parallelism"),
                           source="seed 001 Fig. 2 ratios (1.5x rand, 1.2x seq; DERIVED: set to reproduce them); "
                                  "90 µs read and 8 units ASSUMED; seq parallelism 6x calibrated on Fig. 1's +500 % "
                                  "maximum"),
    }


#: Preset profiles (values and their provenance: registry ``device_char.*``).
PRESETS: dict[str, CharProfile] = _presets()


def get_profile(name: str) -> CharProfile:
    """A preset profile by name (``KeyError`` listing the valid ones)."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown device profile {name!r}; valid: {', '.join(PRESETS)}") from None


def _check(op: str, pattern: str) -> None:
    if op not in ("read", "write"):
        raise ValueError(f"op must be 'read' or 'write', got {op!r}")
    if pattern not in ("rand", "seq"):
        raise ValueError(f"pattern must be 'rand' or 'seq', got {pattern!r}")


def _depths(depth) -> np.ndarray:
    d = np.asarray(depth, dtype=float)
    if not np.all(np.isfinite(d)) or np.any(d < 1):
        raise ValueError("depth: I/O depth must be >= 1")
    return d


def completion_latency_us(service_us, servers, depth):
    """Completion latency ``s max(1, d/c)`` [us] of ``c`` parallel units of service time ``s`` at
    I/O depth ``d`` (seed 001's queue), vectorised over all arguments (NumPy broadcasting;
    scalars give a float). The one implementation: :func:`latency_us` and the uncertainty bands
    (sampled service times and units) call it.

    Parameters
    ----------
    service_us : array_like
        Service time of one request [us] (or any unit: the result is in it).
    servers : array_like
        Parallel units [-].
    depth : array_like
        I/O depth (requests in flight) [-].

    Returns
    -------
    numpy.ndarray or float
        Completion latency [us].

    >>> completion_latency_us(90.0, 8, [1, 8, 64]).tolist()
    [90.0, 90.0, 720.0]
    >>> completion_latency_us([90.0, 10.0], [8, 4], 16).tolist()
    [180.0, 40.0]
    """
    s, c, d = (np.asarray(x, dtype=float) for x in (service_us, servers, depth))
    out = s * np.maximum(1.0, d / c)
    return out.item() if out.ndim == 0 else out


def latency_us(profile: CharProfile, op: Op, pattern: Pattern, depth):
    """Completion latency ``s max(1, d/c)`` at I/O depth ``d`` [us] (:func:`completion_latency_us`
    with the profile's service time and parallel units).

    >>> latency_us(get_profile("ssd"), "read", "rand", [1, 8, 64]).tolist()
    [90.0, 90.0, 720.0]
    """
    return completion_latency_us(profile.service_us(op, pattern), profile.servers(pattern), _depths(depth))


def random_seq_ratio(profile: CharProfile, op: Op, depth):
    """Random / sequential latency ratio vs I/O depth (Fig. 1) [-].

    >>> random_seq_ratio(get_profile("ssd"), "read", [1, 16, 64, 256]).round(2).tolist()
    [1.0, 2.0, 6.0, 6.0]
    >>> random_seq_ratio(get_profile("psd"), "write", 64)
    1.0
    """
    out = np.divide(latency_us(profile, op, "rand", depth), latency_us(profile, op, "seq", depth))
    return out.item() if np.ndim(out) == 0 else out


def write_read_ratio(profile: CharProfile, pattern: Pattern, depth=1):
    """Write / read latency ratio (Fig. 2) [-].

    >>> write_read_ratio(get_profile("ssd"), "rand"), write_read_ratio(get_profile("ssd"), "seq")
    (1.5, 1.2)
    """
    out = np.divide(latency_us(profile, "write", pattern, depth), latency_us(profile, "read", pattern, depth))
    return out.item() if np.ndim(out) == 0 else out


@njit(cache=True)
def _mix_kernel(depth, servers, s_read, s_write, is_write, read_priority, warmup):  # pragma: no cover - compiled
    """Closed loop of ``depth`` requests on ``servers`` units: mean read and write latency [us].

    ``is_write[k]`` is the kind of the k-th request issued (the first ``depth`` start the
    loop, each completion issues the next); the first ``warmup`` completions are not counted.
    """
    n = is_write.size
    qr = np.zeros(depth)  # arrival times, ring buffers (at most ``depth`` waiting)
    qw = np.zeros(depth)
    hr = tr = nr = 0
    hw = tw = nw = 0
    until = np.full(servers, np.inf)
    arrived = np.zeros(servers)
    kind_w = np.zeros(servers, np.bool_)
    t = 0.0
    k = 0
    for _ in range(depth):
        if is_write[k]:
            qw[tw] = 0.0
            tw = (tw + 1) % depth
            nw += 1
        else:
            qr[tr] = 0.0
            tr = (tr + 1) % depth
            nr += 1
        k += 1
    sum_r = sum_w = 0.0
    cnt_r = cnt_w = 0
    done = 0
    while k < n:
        for u in range(servers):
            if until[u] == np.inf and nr + nw > 0:
                take_w = nr == 0 or (nw > 0 and not read_priority and qw[hw] < qr[hr])
                if take_w:
                    arrived[u] = qw[hw]
                    hw = (hw + 1) % depth
                    nw -= 1
                    kind_w[u] = True
                    until[u] = t + s_write
                else:
                    arrived[u] = qr[hr]
                    hr = (hr + 1) % depth
                    nr -= 1
                    kind_w[u] = False
                    until[u] = t + s_read
        u = np.argmin(until)
        t = until[u]
        if done >= warmup:
            if kind_w[u]:
                sum_w += t - arrived[u]
                cnt_w += 1
            else:
                sum_r += t - arrived[u]
                cnt_r += 1
        done += 1
        until[u] = np.inf
        if is_write[k]:
            qw[tw] = t
            tw = (tw + 1) % depth
            nw += 1
        else:
            qr[tr] = t
            tr = (tr + 1) % depth
            nr += 1
        k += 1
    return (sum_r / cnt_r if cnt_r else np.nan), (sum_w / cnt_w if cnt_w else np.nan)


def mix_sensitivity(profile: CharProfile, pattern: Pattern, write_fractions, *, depth: float = 64,
                    reference: float = 0.5, scheduling: Scheduling | None = None,
                    requests: int = int(param("device_char.mix_requests").value), seed=0) -> pd.DataFrame:
    """Read and write latency vs the write fraction of the mix, normalised to a 50/50 mix (Fig. 3).

    Parameters
    ----------
    profile : CharProfile
        Device; its ``pattern`` service times and parallelism are used.
    pattern : {"rand", "seq"}
        Request pattern.
    write_fractions : array_like
        Write shares of the requests issued, in [0, 1].
    depth : float, keyword-only
        I/O depth (requests outstanding) [-], default 64 (seed 001's Fig. 3 set-up).
    reference : float, keyword-only
        Write share the latencies are normalised to, default 0.5.
    scheduling : {"fcfs", "read-priority"}, optional, keyword-only
        Override the profile's scheduling.
    requests : int, keyword-only
        Requests simulated per write share (10 % of them warm-up) [-].
    seed : int or numpy.random.Generator, keyword-only
        Random request kinds; the same uniform stream for every write share (common random
        numbers), so the curves are smooth in ``w``.

    Returns
    -------
    pandas.DataFrame
        ``write_fraction``, ``read_latency_us``, ``write_latency_us``, ``read_rel``,
        ``write_rel`` (latency / latency at ``reference``; < 1 = faster). A kind never issued
        (w = 0 for writes, w = 1 for reads) has NaN latency.

    Examples
    --------
    FCFS: fewer 19x-slower writes ahead of every request, so writes get faster too.

    >>> psd = get_profile("psd")
    >>> mix_sensitivity(psd, "seq", [0.1, 0.5], scheduling="fcfs").write_rel.round(2).tolist()
    [0.34, 1.0]

    Read priority: a write waits for the reads, so it degrades as reads grow.

    >>> mix_sensitivity(psd, "seq", [0.1, 0.5], scheduling="read-priority").write_rel.round(2).tolist()
    [1.38, 1.0]
    """
    w = np.atleast_1d(np.asarray(write_fractions, dtype=float))
    if np.any(~np.isfinite(w)) or np.any((w < 0) | (w > 1)) or not 0 <= reference <= 1:
        raise ValueError("write_fractions and reference must be in [0, 1]")
    d = int(round(float(_depths(depth))))
    sched = profile.scheduling if scheduling is None else scheduling
    if sched not in ("fcfs", "read-priority"):
        raise ValueError(f"scheduling must be 'fcfs' or 'read-priority', got {sched!r}")
    if not 100 <= int(requests) <= 100_000_000:
        raise ValueError(f"requests must be within 100..1e8, got {requests}")
    sr, sw = profile.service_us("read", pattern), profile.service_us("write", pattern)
    c = max(1, int(round(profile.servers(pattern))))
    u = as_generator(seed).random(int(requests) + d)
    warm = int(requests) // 10

    def lat(wf: float) -> tuple[float, float]:
        return _mix_kernel(d, c, sr, sw, u < wf, sched == "read-priority", warm)

    r, wl = np.array([lat(x) for x in w]).T
    r0, w0 = lat(float(reference))
    return pd.DataFrame({"write_fraction": w, "read_latency_us": r, "write_latency_us": wl,
                         "read_rel": r / r0, "write_rel": wl / w0})


# ---------------------------------------------------------------------------- fio


def _fio_size(v) -> float:
    from models.storage.filebench import parse_size

    s = str(v).split(",")[0].split(":")[0].strip()
    return parse_size(s)


def read_fio_json(src) -> pd.DataFrame:
    """Results of ``fio --output-format=json`` as one row per job and direction.

    Parameters
    ----------
    src : str, Path, bytes or dict
        A path, the JSON text/bytes, or the parsed dictionary.

    Returns
    -------
    pandas.DataFrame
        Columns ``job``, ``rw``, ``op`` (read/write), ``pattern`` (rand/seq), ``bs_bytes``,
        ``iodepth``, ``iops``, ``bw_MBps`` [1e6 B/s], ``lat_mean_us`` (total latency,
        submission + completion), ``clat_mean_us``, ``runtime_ms``.

    Raises
    ------
    ValueError
        When the input is not fio JSON, naming the missing field.

    >>> from models.data import data_path
    >>> df = read_fio_json(data_path("fio/tmpfs.json"))
    >>> sorted(set(df.op)), sorted(set(df.iodepth))
    (['read', 'write'], [1, 16])
    """
    if isinstance(src, dict):
        doc = src
    else:
        if isinstance(src, Path) or (isinstance(src, str) and not src.lstrip().startswith("{")):
            text = Path(src).read_text(encoding="utf-8", errors="replace")
        elif isinstance(src, bytes):
            text = src.decode("utf-8", errors="replace")
        else:
            text = src
        start = text.find("{")  # fio may print warnings before the JSON
        if start < 0:
            raise ValueError("fio JSON: no JSON object found")
        try:
            doc = loads_json(text[start:], what="fio JSON")
        except json.JSONDecodeError as e:
            raise ValueError(f"fio JSON: not valid JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(doc, dict) or "jobs" not in doc or not isinstance(doc["jobs"], list):
        raise ValueError("fio JSON: missing 'jobs' list (run fio with --output-format=json)")
    glob = doc.get("global options", {}) or {}
    if not isinstance(glob, dict):
        raise ValueError("fio JSON: 'global options' must be an object")
    rows = []
    for i, job in enumerate(doc["jobs"]):
        if not isinstance(job, dict):
            raise ValueError(f"fio JSON: jobs[{i}] must be an object, got {type(job).__name__}")
        jopts = job.get("job options", {}) or {}
        if not isinstance(jopts, dict):
            raise ValueError(f"fio JSON: jobs[{i}]: 'job options' must be an object")
        opts = {**glob, **jopts}
        name = job.get("jobname", f"job{i}")
        rw = str(opts.get("rw", opts.get("readwrite", "read")))
        pattern = "rand" if rw.startswith("rand") else "seq"
        try:
            bs = _fio_size(opts.get("bs", opts.get("blocksize", "4k")))
            depth = int(float(opts.get("iodepth", 1)))
        except (ValueError, TypeError) as e:
            raise ValueError(f"fio JSON: job {name!r}: {e}") from None
        for op in ("read", "write"):
            part = job.get(op)
            if not isinstance(part, dict):
                continue

            def num(d, key, default=None, *, _op=op, _name=name):
                v = d.get(key, default)
                try:
                    x = float(v)
                except (TypeError, ValueError):
                    raise ValueError(f"fio JSON: job {_name!r} {_op}: field {key!r} is not a number: {v!r}") from None
                if default is not None and not np.isnan(default) and not np.isfinite(x):
                    raise ValueError(f"fio JSON: job {_name!r} {_op}: field {key!r} is not finite: {v!r}")
                return x

            moved = num(part, "io_bytes", 0) if "io_bytes" in part else num(part, "io_kbytes", 0)
            if not moved > 0:
                continue
            lat = part.get("lat_ns", {}) or {}
            clat = part.get("clat_ns", {}) or {}
            if not isinstance(lat, dict) or not isinstance(clat, dict):
                raise ValueError(f"fio JSON: job {name!r} {op}: lat_ns/clat_ns must be objects")
            if "mean" not in lat and "mean" not in clat:
                raise ValueError(f"fio JSON: job {name!r} {op}: no lat_ns/clat_ns mean (fio >= 3 needed)")
            lat_ns = num(lat, "mean", 0.0) if "mean" in lat else num(clat, "mean", 0.0)
            if not lat_ns > 0:
                raise ValueError(f"fio JSON: job {name!r} {op}: latency mean must be > 0, got {lat_ns!r}")
            rows.append(dict(job=name, rw=rw, op=op, pattern=pattern, bs_bytes=bs, iodepth=depth,
                             iops=num(part, "iops", 0.0), bw_MBps=num(part, "bw", 0.0) * 1024 / 1e6,
                             lat_mean_us=lat_ns / 1e3, clat_mean_us=num(clat, "mean", np.nan) / 1e3,
                             runtime_ms=num(part, "runtime", np.nan)))
    if not rows:
        raise ValueError("fio JSON: no job moved any data")
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class ProfileFit(ModelResult):
    """A profile fitted to fio results, the model against each measurement, and the device it gives.

    ``to_frame()`` is one row: the fitted profile's fields.

    Attributes
    ----------
    profile : CharProfile
        Fitted service times [us] and parallelism [-].
    comparison : pandas.DataFrame
        :func:`model_vs_measurement` of the profile on the measurements.
    device : DeviceProfile
        :func:`to_device_profile` of the profile and the measurements (catalogue form).
    """

    profile: CharProfile
    comparison: pd.DataFrame
    device: DeviceProfile

    def to_frame(self) -> pd.DataFrame:
        """One row with the fitted profile's fields (``name``, ``read_rand_us``, ...)."""
        return pd.DataFrame([self.profile.model_dump()])


def fit_profile(measured: pd.DataFrame, name: str = "my-device", *, label: str = "") -> ProfileFit:
    """Fit service times and parallelism to fio results (SciPy least squares on log latency).

    For each (op, pattern) present: ``s`` and ``c`` of ``L(d) = s max(1, d/c)`` (``c`` is
    fixed to 1 when only one depth was measured). A missing pattern copies the other one;
    a missing op copies the other op.

    Parameters
    ----------
    measured : pandas.DataFrame
        :func:`read_fio_json` rows (at least ``op``, ``pattern``, ``iodepth``, ``lat_mean_us``).
    name, label : str
        Name and label of the fitted profile and device.

    Returns
    -------
    ProfileFit

    >>> from models.data import data_path
    >>> fit = fit_profile(read_fio_json(data_path("fio/disk.json")), "vda")
    >>> p = fit.profile; 10 < p.read_rand_us < 1000 and p.servers_rand > 1
    True
    >>> bool(fit.comparison.rel_error.abs().max() < 0.25), fit.device.name
    (True, 'vda')
    """
    from scipy.optimize import least_squares

    need = {"op", "pattern", "iodepth", "lat_mean_us"}
    if not need <= set(measured.columns):
        raise ValueError(f"measured: missing columns {sorted(need - set(measured.columns))}")
    fits: dict[tuple[str, str], tuple[float, float]] = {}
    for (op, pat), g in measured.groupby(["op", "pattern"]):
        d = g["iodepth"].to_numpy(float)
        y = g["lat_mean_us"].to_numpy(float)
        ok = np.isfinite(y) & (y > 0) & (d >= 1)
        d, y = d[ok], y[ok]
        if len(y) == 0:
            continue
        if len(np.unique(d)) < 2:
            fits[(op, pat)] = (float(np.exp(np.mean(np.log(y / d)))) if d.min() > 1 else float(np.exp(np.mean(np.log(y)))), 1.0)
            continue

        def resid(x, d=d, y=y):
            s, c = np.exp(x)
            return np.log(s * np.maximum(1.0, d / c)) - np.log(y)

        x0 = [np.log(y[np.argmin(d)]), np.log(2.0)]
        sol = least_squares(resid, x0, bounds=([np.log(1e-6), 0.0], [np.log(1e9), np.log(4096)]))
        s, c = np.exp(sol.x)
        fits[(op, pat)] = (float(s), float(c))
    if not fits:
        raise ValueError("measured: no usable latency rows")

    def get(op, pat):
        for key in ((op, pat), (op, "seq" if pat == "rand" else "rand"),
                    ("write" if op == "read" else "read", pat)):
            if key in fits:
                return fits[key]
        return next(iter(fits.values()))

    bs = int(measured["bs_bytes"].median()) if "bs_bytes" in measured else 4096
    prof = CharProfile(name=name, label=label or name, read_rand_us=get("read", "rand")[0],
                       read_seq_us=get("read", "seq")[0], write_rand_us=get("write", "rand")[0],
                       write_seq_us=get("write", "seq")[0],
                       servers_rand=max(1.0, float(np.mean([get(o, "rand")[1] for o in ("read", "write")]))),
                       servers_seq=max(1.0, float(np.mean([get(o, "seq")[1] for o in ("read", "write")]))),
                       block_bytes=max(1, bs), source="fitted to fio JSON results")
    return ProfileFit(profile=prof, comparison=model_vs_measurement(prof, measured),
                      device=to_device_profile(prof, measured))


def model_vs_measurement(profile: CharProfile, measured: pd.DataFrame) -> pd.DataFrame:
    """Measured vs modelled latency per fio row, with the relative error [-].

    Columns ``job`` (when measured has it), ``op``, ``pattern``, ``iodepth``,
    ``lat_mean_us``, ``model_us``, ``rel_error``. Note: the fitted profile shares one
    parallelism per pattern between reads and writes.
    """
    out = measured[[c for c in ("job", "op", "pattern", "iodepth", "lat_mean_us") if c in measured]].copy()
    out["model_us"] = [latency_us(profile, o, p, d) for o, p, d in zip(out.op, out.pattern, out.iodepth, strict=True)]
    out["rel_error"] = out["model_us"] / out["lat_mean_us"] - 1.0
    return out


def to_device_profile(profile: CharProfile, measured: pd.DataFrame | None = None, *,
                      name: str | None = None) -> DeviceProfile:
    """A catalogue :class:`~models.devices.DeviceProfile` from a (fitted) profile.

    Latencies are the random service times; bandwidths the best measured sequential
    throughput when ``measured`` is given. Provenance of the values: a preset's as in the
    registry (read assumed, write derived from seed 001), anything else ``user-defined``
    (the user's own fio run or numbers).

    >>> d = to_device_profile(get_profile("ssd")); d.read_latency_ns, d.write_latency_ns
    (90000.0, 135000.0)
    >>> d.value_kind("write_latency_ns")
    'derived from a seed result'
    """
    from models.provenance import ASSUMED, DERIVED, PUBLISHED, USER_DEFINED

    bw = {}
    if measured is not None and len(measured) and "bw_MBps" in measured:
        for op in ("read", "write"):
            sel = measured[(measured.op == op)]
            if len(sel) and sel.bw_MBps.max() > 0:
                bw[f"{op}_bandwidth_MBps"] = float(sel.bw_MBps.max())
    preset = PRESETS.get(profile.name) == profile
    prov = {c: USER_DEFINED for c in ("access_unit_bytes", "read_latency_ns", "write_latency_ns", *bw)}
    if preset:
        prov.update(access_unit_bytes=PUBLISHED, read_latency_ns=ASSUMED, write_latency_ns=DERIVED)
    return DeviceProfile(name=name or profile.name, label=profile.label or profile.name, kind="custom",
                         access_unit_bytes=profile.block_bytes, read_latency_ns=profile.read_rand_us * 1e3,
                         write_latency_ns=profile.write_rand_us * 1e3, source=profile.source[:2000], **bw,
                         provenance=prov)


def profile_keys(names) -> list[str]:
    """Provenance keys (:mod:`models.provenance`) of the preset profiles ``names``
    (:data:`PRESETS`): each one's ``device_char.<name>.*`` (a fitted profile has none).

    >>> profile_keys(["psd"])[:2]
    ['device_char.psd.read_us', 'device_char.psd.write_read_ratio']
    """
    return [k for p in names for k in param_names(f"device_char.{p}.")]
