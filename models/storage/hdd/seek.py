"""Seek curve: interpolation in a drive's measured curve and the Ruemmler-Wilkes fit.

The model interpolates the measured points linearly (:func:`seek_time_ms`). For reporting,
:func:`fit_seek_curve` fits the two-part form of Ruemmler and Wilkes [1]_::

    t(d) = a + b sqrt(d)   for 0 < d < boundary   [ms, d in cylinders]
    t(d) = c + e d         for d >= boundary
    t(0) = 0

References
----------
.. [1] C. Ruemmler, J. Wilkes, "An Introduction to Disk Drive Modeling", IEEE Computer
   27(3), 1994 (seek curve a + b sqrt(d) for short seeks, c + e d for long ones).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np
from pydantic import Field

from models._base import ModelInput

if TYPE_CHECKING:
    from models.storage.hdd.spec import DriveSpec

__all__ = ["seek_time_ms", "seek_table_ms", "SeekFit", "fit_seek_curve"]


def seek_time_ms(spec: DriveSpec, distance_cyl) -> np.ndarray:
    """Seek time [ms] for cylinder distances, interpolated linearly in the measured curve
    (0 for distance 0; extrapolated linearly past the last measured point).

    >>> from models.storage.hdd import load_drive
    >>> d = load_drive("ibm18es")
    >>> float(seek_time_ms(d, 1)), float(seek_time_ms(d, 0))
    (1.062, 0.0)
    """
    d = np.abs(np.asarray(distance_cyl, dtype=float))
    xs = np.asarray(spec.seek_distance_cyl)
    ys = np.asarray(spec.seek_time_ms)
    t = np.interp(d, xs, ys)
    if len(xs) >= 2:
        slope = (ys[-1] - ys[-2]) / (xs[-1] - xs[-2])
        t = np.where(d > xs[-1], ys[-1] + slope * (d - xs[-1]), t)
    return np.where(d == 0, 0.0, t)


@cache
def seek_table_ms(spec: DriveSpec) -> np.ndarray:
    """:func:`seek_time_ms` of every cylinder distance of the drive, ``0 .. cylinders - 1`` [ms], computed once per
    drive (read-only): a seek of ``d`` cylinders is ``seek_table_ms(spec)[abs(d)]``, the same value.

    >>> from models.storage.hdd import load_drive
    >>> d = load_drive("ibm18es")
    >>> bool((seek_table_ms(d)[[0, 1, 700]] == seek_time_ms(d, [0, -1, 700])).all())
    True
    """
    table = seek_time_ms(spec, np.arange(spec.cylinders, dtype=np.int64))
    table.setflags(write=False)
    return table


class SeekFit(ModelInput):
    """Ruemmler-Wilkes seek curve: ``a + b sqrt(d)`` for ``d < boundary``, ``c + e d`` beyond."""

    a_ms: float = Field(json_schema_extra={"signed": True}, description="short-seek intercept [ms] (fitted, may be < 0)")
    b_ms: float = Field(json_schema_extra={"signed": True}, description="short-seek sqrt coefficient [ms/sqrt(cyl)]")
    c_ms: float = Field(json_schema_extra={"signed": True}, description="long-seek intercept [ms] (fitted, may be < 0)")
    e_ms: float = Field(json_schema_extra={"signed": True}, description="long-seek slope [ms/cyl]")
    boundary_cyl: float = Field(gt=0)
    rms_error_ms: float = Field(ge=0, description="RMS of fit - measured over all points [ms]")
    rms_error_inliers_ms: float = Field(ge=0, description="RMS over the points that are not outliers [ms]")
    outliers: int = Field(ge=0, description="points further than max(3 robust sigma, 0.25 ms) from the fit")
    robust_cost: float = Field(default=0.0, ge=0, description="soft-L1 loss at the optimum (selects the boundary)")
    max_abs_error_ms: float = Field(ge=0, description="largest |fit - measured| [ms]")

    def __call__(self, distance_cyl) -> np.ndarray:
        d = np.abs(np.asarray(distance_cyl, dtype=float))
        t = np.where(d < self.boundary_cyl, self.a_ms + self.b_ms * np.sqrt(d), self.c_ms + self.e_ms * d)
        return np.where(d == 0, 0.0, t)

    def outlier_mask(self, distance_cyl, time_ms) -> np.ndarray:
        """Which measured points [cylinders, ms] are outliers of this fit (the rule :attr:`outliers` counts).

        >>> from models.storage.hdd import load_drive
        >>> d = load_drive("ibm18es")
        >>> f = fit_seek_curve(d.seek_distance_cyl, d.seek_time_ms)
        >>> [int(x) for x in np.asarray(d.seek_distance_cyl)[f.outlier_mask(d.seek_distance_cyl, d.seek_time_ms)]]
        [10, 800, 3400]
        """
        return _outlier_mask(self(distance_cyl) - np.asarray(time_ms, dtype=float))


def _outlier_mask(res: np.ndarray) -> np.ndarray:
    """Residuals [ms] further than max(3 robust sigma, 0.25 ms) from the fit (sigma from the MAD)."""
    sigma = 1.4826 * float(np.median(np.abs(res - np.median(res))))
    return np.abs(res) > max(3 * sigma, 0.25)


def _fit_at(d: np.ndarray, t: np.ndarray, boundary_cyl: float) -> SeekFit:
    """Robust least-squares fit of the two-part form with a fixed boundary [cylinders]."""
    from scipy.optimize import least_squares

    def resid(p):
        a, b, c, e = p
        return np.where(d < boundary_cyl, a + b * np.sqrt(d), c + e * d) - t

    short = d < boundary_cyl
    p0 = [t[short].min() if short.any() else t.min(), 0.1, t[~short].min() if (~short).any() else t.max(), 1e-3]
    # robust loss: the measured curves hold a few glitches (ibm18es: 1.03 ms at 3400 cylinders)
    r = least_squares(resid, p0, method="trf", loss="soft_l1", f_scale=0.25)
    res = resid(r.x)
    a, b, c, e = (float(x) for x in r.x)
    out = _outlier_mask(res)
    return SeekFit(a_ms=a, b_ms=b, c_ms=c, e_ms=e, boundary_cyl=float(boundary_cyl),
                   rms_error_ms=float(np.sqrt(np.mean(res**2))),
                   rms_error_inliers_ms=float(np.sqrt(np.mean(res[~out] ** 2))) if (~out).any() else 0.0,
                   outliers=int(out.sum()),
                   max_abs_error_ms=float(np.abs(res).max()), robust_cost=float(r.cost))


def _boundary_candidates(d: np.ndarray) -> np.ndarray:
    """Up to 40 measured distances between the 10th and 95th percentile [cylinders]."""
    lo, hi = np.quantile(d, [0.10, 0.95])
    cands = np.unique(d[(d >= lo) & (d <= hi)])
    if len(cands) > 40:
        cands = cands[np.linspace(0, len(cands) - 1, 40).round().astype(int)]
    return cands


def fit_seek_curve(distance_cyl, time_ms, *, boundary_cyl: float | None = None) -> SeekFit:
    """Least-squares fit (``scipy.optimize.least_squares``) of the Ruemmler-Wilkes form.

    A robust (soft L1) loss keeps isolated glitches of the measured curves from pulling
    the fit; the errors are reported over all points and over the non-outliers. With
    ``boundary_cyl=None`` the boundary is chosen among the measured distances (between
    the 10th and 95th percentile) as the one with the smallest robust loss.

    >>> from models.storage.hdd import load_drive
    >>> d = load_drive("ibm18es")
    >>> f = fit_seek_curve(d.seek_distance_cyl, d.seek_time_ms)
    >>> round(f.boundary_cyl), f.outliers, f.rms_error_inliers_ms < 0.2
    (800, 3, True)
    """
    d = np.asarray(distance_cyl, dtype=float)
    t = np.asarray(time_ms, dtype=float)
    if d.shape != t.shape or d.ndim != 1 or len(d) < 4:
        raise ValueError("distance_cyl and time_ms must be 1-D arrays of the same length (>= 4 points)")
    if boundary_cyl is not None:
        if boundary_cyl <= 0:
            raise ValueError(f"boundary_cyl must be > 0, got {boundary_cyl}")
        return _fit_at(d, t, boundary_cyl)
    fits = [_fit_at(d, t, float(b)) for b in _boundary_candidates(d)]
    return min(fits, key=lambda f: f.robust_cost)
