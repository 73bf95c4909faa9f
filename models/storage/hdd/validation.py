"""Validation of the service-time model on DiskSim's measured drive traces.

:func:`validate_drive` replays a drive's measured ``NAME.trace`` closed loop (each request
is issued a think time after the previous one completes, so the trace needs no queueing
model) and reports DiskSim's demerit, the RMS horizontal distance between the predicted
and measured service-time CDFs::

    demerit = sqrt(mean_q (F_pred^-1(q) - F_meas^-1(q))^2)   [ms]

Per-drive results and the remaining gaps: ``docs/models/hdd.md``.

References
----------
.. [1] J. S. Bucy, J. Schindler, S. W. Schlosser, G. R. Ganger, "The DiskSim Simulation
   Environment Version 4.0 Reference Manual", CMU-PDL-08-101, 2008 (validation traces
   ``valid/``; expected RMS demerits from ``valid/runvalid``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal, NamedTuple

import numpy as np
import pandas as pd

from models._base import ModelResult, results_frame
from models.storage.hdd.service import predict_service_detail
from models.storage.hdd.spec import SECTOR_BYTES, drive_keys, drive_names, load_drive, resolve_drive

__all__ = [
    "DISKSIM_DEMERIT_MS",
    "validation_keys",
    "ValidationTrace",
    "DriveValidation",
    "cdf_demerit_ms",
    "read_validation_trace",
    "validate_drive",
    "validation_table",
    "demerit_split",
    "split_table",
]

#: DiskSim's expected RMS demerit [ms] per bundled drive (data/disksim/SOURCES.txt,
#: from DiskSim's valid/runvalid). st41601n has no published figure.
DISKSIM_DEMERIT_MS: dict[str, float] = {
    "barracuda": 0.349,
    "ibm18es": 0.135,
    "cheetah4LP": 0.318,
    "atlas10k": 0.268,
    "hp_c2247a": 0.090,
    "hp_c2490a": 0.254,
    "hp_c3323a": 0.306,
    "dec_rz26": 0.340,
}


def cdf_demerit_ms(predicted_ms, measured_ms) -> float:
    """RMS horizontal distance between two service-time CDFs [ms] (DiskSim's demerit).

    Computed over 1000 evenly spaced quantiles (exact sorted differences when both sets
    have the same size).

    >>> cdf_demerit_ms([1.0, 2.0, 3.0], [1.5, 2.5, 3.5])
    0.5
    """
    p = np.sort(np.asarray(predicted_ms, dtype=float))
    m = np.sort(np.asarray(measured_ms, dtype=float))
    if not len(p) or not len(m):
        raise ValueError("need at least one predicted and one measured time")
    if len(p) != len(m):
        q = (np.arange(1000) + 0.5) / 1000
        p, m = np.quantile(p, q), np.quantile(m, q)
    return float(np.sqrt(np.mean((p - m) ** 2)))


class ValidationTrace(NamedTuple):
    """A drive's measured validation trace, one entry per request."""

    is_write: np.ndarray
    lbn: np.ndarray  #: first block [LBN]
    nblocks: np.ndarray  #: size [blocks]
    think_ms: np.ndarray  #: idle time after the request completes [ms]
    measured_ms: np.ndarray  #: measured service time [ms]
    label: np.ndarray | None = None  #: the drive's cache label per request ("Hit", "Miss", "Doub", "Trip")


def read_validation_trace(path: str | Path) -> ValidationTrace:
    """Read a DiskSim validation trace (``NAME.trace``) as a closed-loop request stream.

    >>> from models.storage.hdd import resolve_drive
    >>> tr = read_validation_trace(resolve_drive("ibm18es")[0].with_suffix(".trace"))
    >>> len(tr.lbn), round(float(tr.measured_ms.mean()), 4)
    (10000, 5.2605)
    """
    from models.traces.formats import read_disksim_validate

    tr = read_disksim_validate(path)
    if len(tr) == 0 or "service_us" not in tr.meta:
        raise ValueError(f"{Path(path).name}: the validation trace has no requests")
    # closed loop (DiskSim iotrace_validate_get_ioreq_event): request i+1 is issued the
    # line-i "next interarrival" after request i completes, i.e. it is a think time
    return ValidationTrace(
        is_write=np.asarray(tr.is_write),
        lbn=tr.offset_bytes // SECTOR_BYTES,
        nblocks=tr.size_bytes // SECTOR_BYTES,
        think_ms=np.asarray(tr.meta["interarrival_us"], dtype=float) / 1e3,
        measured_ms=np.asarray(tr.meta["service_us"], dtype=float) / 1e3,
        label=np.asarray(tr.meta["cache"]) if "cache" in tr.meta else None,
    )


@dataclass(frozen=True, eq=False)
class DriveValidation(ModelResult):
    """Predicted vs measured service times of one drive (:func:`validate_drive`).

    ``to_frame()``: one row with ``drive, requests, mean_measured_ms, mean_predicted_ms,
    demerit_ms`` and the comparison with DiskSim's own demerit (``disksim_demerit_ms``,
    ``ratio_to_disksim``, ``within_2x``; NaN / None for a drive without a published figure).
    """

    drive: str
    #: Requests replayed.
    requests: int
    #: Mean measured service time [ms].
    mean_measured_ms: float
    #: Mean predicted service time [ms].
    mean_predicted_ms: float
    #: RMS horizontal distance between the predicted and measured CDFs [ms].
    demerit_ms: float
    #: Measured service time per request [ms].
    measured_ms: np.ndarray
    #: Predicted service time per request [ms].
    predicted_ms: np.ndarray
    #: Request type per request.
    is_write: np.ndarray
    #: The model served the request from the drive's buffer (read hit or write-back), per request.
    buffer_hit: np.ndarray | None = None
    #: The drive's own cache label per request, as the measured trace records it ("Hit", "Miss",
    #: "Doub", "Trip"; every request of most traces is labelled "Hit"), or None.
    measured_label: np.ndarray | None = None

    FRAME_EXTRAS: ClassVar[tuple[str, ...]] = ("disksim_demerit_ms", "ratio_to_disksim", "within_2x")

    @property
    def disksim_demerit_ms(self) -> float:
        """DiskSim's published demerit for this drive [ms] (NaN if none)."""
        return DISKSIM_DEMERIT_MS.get(self.drive, np.nan)

    @property
    def ratio_to_disksim(self) -> float:
        """Our demerit / DiskSim's [-]."""
        return self.demerit_ms / self.disksim_demerit_ms

    @property
    def within_2x(self) -> bool | None:
        """Our demerit is at most twice DiskSim's (None without a published figure)."""
        ref = self.disksim_demerit_ms
        return bool(self.demerit_ms <= 2 * ref) if ref == ref else None


def validate_drive(drive: str | Path, *, rotation: Literal["clock", "expected"] = "clock",
                   cache_enabled: bool = True) -> DriveValidation:
    """Replay a drive's measured validation trace and compare service times.

    ``drive`` is a bundled name or ``DIR/NAME`` (reads NAME.diskspecs/.model/.seek/.trace);
    ``rotation`` and ``cache_enabled`` as in :func:`~models.storage.hdd.predict_service_ms`.

    >>> r = validate_drive("ibm18es")
    >>> r.requests, round(r.demerit_ms, 3), r.within_2x
    (10000, 0.237, True)
    """
    spec = load_drive(drive)
    path, name = resolve_drive(drive)
    trace = path.with_suffix(".trace")
    if not trace.is_file():
        raise FileNotFoundError(f"measured trace not found: {trace}")
    tr = read_validation_trace(trace)
    return _validate(spec, name, tr, rotation=rotation, cache_enabled=cache_enabled)


def _validate(spec, name: str, tr: ValidationTrace, *, rotation: str = "clock", cache_enabled: bool = True,
              label: np.ndarray | None = None) -> DriveValidation:
    """Replay ``tr`` on ``spec`` (any :class:`~models.storage.hdd.spec.DriveSpec`, e.g. one with a
    feature switched off) and compare with the measured times."""
    pred, hit = predict_service_detail(spec, tr.is_write, tr.lbn, tr.nblocks, tr.think_ms, rotation=rotation,
                                       cache_enabled=cache_enabled)
    measured = tr.measured_ms
    return DriveValidation(drive=name, requests=int(len(measured)), mean_measured_ms=float(measured.mean()),
                           mean_predicted_ms=float(pred.mean()), demerit_ms=cdf_demerit_ms(pred, measured),
                           measured_ms=measured, predicted_ms=pred, is_write=tr.is_write, buffer_hit=hit,
                           measured_label=label if label is not None else tr.label)


def validation_table(drives=None, **kwargs) -> pd.DataFrame:
    """Validation of every bundled drive (or of ``drives``), one row per drive
    (:meth:`DriveValidation.to_frame`); ``kwargs`` go to :func:`validate_drive`."""
    return results_frame([validate_drive(name, **kwargs) for name in drives or drive_names()])


def validation_keys(drives=None) -> list[str]:
    """Provenance keys of :func:`validation_table` over every bundled drive (or ``drives``): each
    drive's :func:`~models.storage.hdd.spec.drive_keys`."""
    return [k for n in drives or drive_names() for k in drive_keys(n)]


#: The parts of a replay :func:`demerit_split` reports, by (request type, served by the buffer).
SPLIT_PARTS = ("all", "reads", "writes", "read hits", "read misses", "write-back writes", "write-through writes")


def demerit_split(v: DriveValidation) -> pd.DataFrame:
    """Demerit of one replay split by request type and by the model's cache outcome.

    One row per part of :data:`SPLIT_PARTS` that has requests: ``part``, ``requests``,
    ``share`` (of the trace) [-], ``mean_measured_ms``, ``mean_predicted_ms`` and
    ``demerit_ms`` (the CDF demerit of that part's predicted vs measured times, the same
    requests on both sides) [ms]. Hit/miss is the model's (a read served from a read-cache
    segment; a write reported after the bus transfer, i.e. write-back): the measured traces
    label almost every request "Hit" (hp_c2247a's alone carries real labels, see
    ``measured_label``). An empty part is left out.
    """
    w = np.asarray(v.is_write, dtype=bool)
    hit = np.zeros(len(w), dtype=bool) if v.buffer_hit is None else np.asarray(v.buffer_hit, dtype=bool)
    masks = {"all": np.ones(len(w), dtype=bool), "reads": ~w, "writes": w, "read hits": ~w & hit,
             "read misses": ~w & ~hit, "write-back writes": w & hit, "write-through writes": w & ~hit}
    rows = []
    for part in SPLIT_PARTS:
        m = masks[part]
        if not m.any():
            continue
        rows.append({"drive": v.drive, "part": part, "requests": int(m.sum()), "share": float(m.mean()),
                     "mean_measured_ms": float(v.measured_ms[m].mean()),
                     "mean_predicted_ms": float(v.predicted_ms[m].mean()),
                     "demerit_ms": cdf_demerit_ms(v.predicted_ms[m], v.measured_ms[m])})
    return pd.DataFrame(rows)


def split_table(drives=None, **kwargs) -> pd.DataFrame:
    """:func:`demerit_split` of every bundled drive (or of ``drives``), stacked; ``kwargs`` go to
    :func:`validate_drive`."""
    return pd.concat([demerit_split(validate_drive(name, **kwargs)) for name in drives or drive_names()],
                     ignore_index=True)
