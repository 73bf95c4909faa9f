"""Distributions of uncertain model inputs, built from a value's provenance.

Every distribution maps uniform numbers ``u`` in (0, 1) to values with :meth:`ppf` (the
inverse CDF, vectorised), so one quasi-random design (:mod:`models.uncertainty.sampling`)
serves every input. Each has a ``point`` (the value the model uses), and tornado ends
``low_end``/``high_end``: the stated range of a bounded distribution, the 5th and 95th
percentiles of an unbounded one.

Default distribution of a provenance kind (:func:`from_provenance`)
-------------------------------------------------------------------
``measured here``
    The measured spread: :class:`Empirical` when the measurements are given, else a
    :class:`Normal` centred on the value with the stated range as +-2 standard deviations,
    truncated to that range.
``published``
    :class:`Triangular` over the range across sources or the stated band, peaking at the
    value.
``derived from a seed result`` and ``assumed``
    The wide stated range, uniform in the logarithm (:class:`LogUniform`) when it spans a
    factor of :data:`WIDE_FACTOR` (4) or more and is positive, else :class:`Uniform`.
A range of zero width gives :class:`Fixed`: the value itself, exactly.

References
----------
.. [1] A. Saltelli et al., Global Sensitivity Analysis: The Primer, Wiley 2008, ch. 1
   (input distributions from stated ranges).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from models.provenance import param

__all__ = [
    "Distribution",
    "Fixed",
    "Uniform",
    "LogUniform",
    "Triangular",
    "Normal",
    "LogNormal",
    "Empirical",
    "from_provenance",
    "WIDE_FACTOR",
]

#: A positive range spanning this factor or more is sampled uniformly in its logarithm [-]
#: (registry ``uncertainty.wide_factor``, assumed).
WIDE_FACTOR = param("uncertainty.wide_factor").value


def _u(u) -> np.ndarray:
    a = np.asarray(u, dtype=float)
    if np.any(~np.isfinite(a)) or np.any((a < 0) | (a > 1)):
        raise ValueError("uniform numbers must lie in [0, 1]")
    return a


@dataclass(frozen=True)
class Distribution:
    """Base class: ``point`` [input unit], ``ppf(u)``, tornado ends, ``integer`` rounding."""

    point: float
    integer: bool = field(default=False, kw_only=True)

    @property
    def name(self) -> str:
        """Short name shown in tables (``"uniform"``, ...)."""
        return type(self).__name__.lower()

    @property
    def low_end(self) -> float:
        """Low end of the tornado bar [input unit]."""
        return float(self._round(self.ppf(0.05)))

    @property
    def high_end(self) -> float:
        """High end of the tornado bar [input unit]."""
        return float(self._round(self.ppf(0.95)))

    @property
    def fixed(self) -> bool:
        """True when the distribution has zero width (always its point)."""
        return self.low_end == self.high_end

    def _ppf(self, u: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _round(self, x):
        return np.rint(x) if self.integer else x

    def ppf(self, u) -> np.ndarray:
        """Values at the probabilities ``u`` in [0, 1] (vectorised inverse CDF) [input unit]."""
        return self._round(self._ppf(_u(u)))

    def sample(self, n: int, *, seed=None) -> np.ndarray:
        """``n`` independent draws (plain Monte Carlo; the analyses use quasi-random designs)."""
        from models._base import as_generator

        return self.ppf(as_generator(seed).random(n))

    def describe(self) -> str:
        """``"triangular 1.2..1.4"``-style summary."""
        return f"{self.name} {self.low_end:.4g}..{self.high_end:.4g}"


@dataclass(frozen=True)
class Fixed(Distribution):
    """Zero width: every draw is ``point`` exactly."""

    def _ppf(self, u):
        return np.full(np.shape(u), float(self.point))

    @property
    def low_end(self) -> float:
        return float(self.point)

    @property
    def high_end(self) -> float:
        return float(self.point)


@dataclass(frozen=True)
class Uniform(Distribution):
    """Uniform on ``[low, high]``; tornado ends are ``low`` and ``high``."""

    low: float = 0.0
    high: float = 1.0

    def __post_init__(self):
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low <= self.high):
            raise ValueError(f"uniform range must be finite with low <= high (got {self.low}..{self.high})")

    def _ppf(self, u):
        return self.low + u * (self.high - self.low)

    @property
    def low_end(self) -> float:
        return float(self._round(self.low))

    @property
    def high_end(self) -> float:
        return float(self._round(self.high))


@dataclass(frozen=True)
class LogUniform(Uniform):
    """Uniform in ``log`` on ``[low, high]``, ``0 < low`` (a range spanning decades)."""

    def __post_init__(self):
        super().__post_init__()
        if self.low <= 0:
            raise ValueError(f"log-uniform needs low > 0 (got {self.low})")

    def _ppf(self, u):
        x = np.exp(np.log(self.low) + u * (np.log(self.high) - np.log(self.low)))
        return np.clip(x, self.low, self.high)  # no round-off outside the range


@dataclass(frozen=True)
class Triangular(Uniform):
    """Triangular on ``[low, high]`` with its mode at ``point``."""

    def __post_init__(self):
        super().__post_init__()
        if not self.low <= self.point <= self.high:
            raise ValueError(f"triangular mode {self.point} outside {self.low}..{self.high}")

    def _ppf(self, u):
        a, b, c = self.low, self.high, self.point
        if b == a:
            return np.full(np.shape(u), float(a))
        fc = (c - a) / (b - a)
        left = a + np.sqrt(u * (b - a) * (c - a))
        right = b - np.sqrt((1 - u) * (b - a) * (b - c))
        return np.clip(np.where(u < fc, left, right), a, b)  # no round-off outside the range


@dataclass(frozen=True)
class Normal(Distribution):
    """Normal with mean ``point`` and standard deviation ``sd``, optionally truncated to
    ``[low, high]`` (then the tornado ends are ``low`` and ``high``)."""

    sd: float = 1.0
    low: float = -math.inf
    high: float = math.inf

    def __post_init__(self):
        if not (self.sd >= 0 and math.isfinite(self.sd)):
            raise ValueError(f"sd must be finite and >= 0 (got {self.sd})")
        if not self.low <= self.point <= self.high:
            raise ValueError(f"normal mean {self.point} outside its truncation {self.low}..{self.high}")

    def _ppf(self, u):
        if self.sd == 0:
            return np.full(np.shape(u), float(self.point))
        # imported when sampled, not with the module (~1 s: issue 18, cold start)
        from scipy import special, stats

        a, b = (self.low - self.point) / self.sd, (self.high - self.point) / self.sd
        if math.isinf(a) and math.isinf(b):
            return self.point + self.sd * special.ndtri(np.clip(u, 1e-300, 1 - 1e-16))
        return np.clip(stats.truncnorm.ppf(u, a, b, loc=self.point, scale=self.sd), self.low, self.high)

    @property
    def low_end(self) -> float:
        return float(self._round(self.low)) if math.isfinite(self.low) and self.sd > 0 else super().low_end

    @property
    def high_end(self) -> float:
        return float(self._round(self.high)) if math.isfinite(self.high) and self.sd > 0 else super().high_end


@dataclass(frozen=True)
class LogNormal(Distribution):
    """Lognormal with median ``point`` (> 0) and log-standard deviation ``sigma``."""

    sigma: float = 0.1

    def __post_init__(self):
        if not (self.point > 0 and self.sigma >= 0 and math.isfinite(self.sigma)):
            raise ValueError(f"lognormal needs point > 0 and a finite sigma >= 0 (got {self.point}, {self.sigma})")

    def _ppf(self, u):
        if self.sigma == 0:
            return np.full(np.shape(u), float(self.point))
        # imported when sampled, not with the module (issue 18, cold start)
        from scipy import special

        return self.point * np.exp(self.sigma * special.ndtri(np.clip(u, 1e-300, 1 - 1e-16)))


@dataclass(frozen=True)
class Empirical(Distribution):
    """The spread of measurements: the quantile function of ``values`` (linear between order
    statistics); ``point`` is the value the model uses (e.g. their median)."""

    values: tuple[float, ...] = ()

    def __post_init__(self):
        v = np.asarray(self.values, dtype=float)
        if v.size == 0 or np.any(~np.isfinite(v)):
            raise ValueError("empirical distribution needs finite measurements")

    def _ppf(self, u):
        return np.quantile(np.asarray(self.values, dtype=float), u)


def from_provenance(kind: str, value: float, low: float, high: float, *, integer: bool = False,
                    measurements=None) -> Distribution:
    """The default distribution of a value of provenance ``kind`` with stated range ``low..high``.

    Parameters
    ----------
    kind : str
        A provenance kind (:mod:`models.provenance`: measured here, published, derived from
        a seed result, assumed; also user-defined, treated as published).
    value : float
        The value the model uses (the point) [unit of the value].
    low, high : float
        Stated range [unit of the value], ``low <= value <= high``.
    integer : bool, keyword-only
        Round draws to integers (counts such as TLB entries).
    measurements : array_like, optional, keyword-only
        Repeated measurements of a ``measured here`` value: their empirical spread is used.

    Returns
    -------
    Distribution

    Examples
    --------
    >>> from_provenance("published", 1.3, 1.2, 1.4).describe()
    'triangular 1.2..1.4'
    >>> from_provenance("assumed", 5062.0, 1000.0, 20000.0).describe()
    'loguniform 1000..2e+04'
    >>> from_provenance("measured here", 100.0, 80.0, 120.0).describe()
    'normal 80..120'
    >>> from_provenance("assumed", 8.0, 8.0, 8.0).ppf([0.1, 0.9]).tolist()
    [8.0, 8.0]
    """
    from models.provenance import (
        ASSUMED,
        COMPUTED,
        DERIVED,
        MEASURED,
        PUBLISHED,
        SIMULATED,
        USER_DEFINED,
        normalize_kind,
    )

    kind = normalize_kind(kind)
    value, low, high = float(value), float(low), float(high)
    if not (math.isfinite(low) and math.isfinite(high) and low <= value <= high):
        raise ValueError(f"value {value:g} must lie in its stated range {low:g}..{high:g}")
    if measurements is not None:
        return Empirical(value, values=tuple(np.asarray(measurements, float).tolist()), integer=integer)
    if low == high:
        return Fixed(value, integer=integer)
    if kind == MEASURED:
        return Normal(value, sd=(high - low) / 4.0, low=low, high=high, integer=integer)
    if kind in (PUBLISHED, COMPUTED, USER_DEFINED):
        return Triangular(value, low=low, high=high, integer=integer)
    if kind in (DERIVED, SIMULATED, ASSUMED):
        if low > 0 and high / low >= WIDE_FACTOR:
            return LogUniform(value, low=low, high=high, integer=integer)
        return Uniform(value, low=low, high=high, integer=integer)
    raise ValueError(f"no default distribution for kind {kind!r}")  # pragma: no cover
