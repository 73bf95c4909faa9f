"""Lifetime of an NVM memory extension from its write rate and cell endurance (seed 002, section 2).

Closed form
-----------
With wear leveling spreading writes over the whole device, every cell can be written
``E`` times and the device absorbs ``W`` bytes of cell writes per second, so it lasts

.. math::  L = \\frac{C \\, E \\, \\eta}{W}

seconds, with ``C`` the capacity [bytes], ``E`` the endurance [writes per cell] and
``eta`` in (0, 1] the wear-leveling efficiency (1 = perfect leveling: every cell reaches
its endurance at the same time; the wear-leveling model supplies simulated values).
This is the calculation behind seed 002's Figures 2 and 9 ("every single cell of the NVM
device can endure ten million writes and we have a 16GB NVM device. We calculate the rate
of writing cells for every application and calculate the estimated lifetime").

Monte Carlo with an endurance spread
------------------------------------
Real cells do not all fail after exactly ``E`` writes. :func:`lifetime_monte_carlo` gives
each of the ``N = C / line_bytes`` lines a lognormal endurance ``E_i = E exp(sigma Z_i)``
(median ``E``) and lets the device fail once a fraction ``f`` of the lines is worn out.
Under leveled wear every line receives ``W / (C eta)`` writes per byte per second, so line
``i`` dies at ``t_i = C E_i eta / W`` and the device at the ``k``-th smallest ``t_i``,
``k = max(1, ceil(f N))``. The ``k``-th order statistic of ``N`` uniforms is
``Beta(k, N - k + 1)``; mapping one Beta draw per trial through the lognormal quantile
gives the exact lifetime distribution without sampling the ~10^8 lines (or any write).
With ``sigma = 0`` every trial equals the closed form; for many lines every trial tends to the
closed form times :func:`weak_line_factor`. Since ``L`` is proportional to ``1 / W``,
the distribution at another write rate is the same one scaled (:func:`lifetime_band`).

Write rates from traces
-----------------------
:func:`derived_write_rates` replays the bundled memory traces and our synthetic page
streams through the memory-extension model (FIFO, DRAM:NVM 1:4) and divides the dirty
write-backs x 4 KiB by the modelled run time, for Figure 2 rows beyond the seed's one rate.

References
----------
.. [1] A. Awad, S. Blagodurov, Y. Solihin, "Write-Aware Management of NVM-based Memory
   Extensions", ICS 2016, doi:10.1145/2925426.2926284 (seed 002), sections 2 and 5.1.3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import pandas as pd
from pydantic import Field
from scipy import special

from models._base import ModelInput, ModelResult, as_generator
from models.provenance import device_keys, param

__all__ = [
    "SECONDS_PER_YEAR",
    "GB",
    "LifetimeInputs",
    "lifetime_seconds",
    "weak_line_factor",
    "lifetime_years",
    "write_rate_for_lifetime",
    "lifetime_monte_carlo",
    "check_spread_inputs",
    "lifetime_bruteforce_lines",
    "LifetimeDistribution",
    "lifetime_band",
    "SEED_WRITE_RATES",
    "derived_write_rates",
    "measured_write_rate",
    "trace_lifetime_rate",
    "TraceWriteRate",
    "RATE_SCALING",
    "figure2_table",
    "lifetime_keys",
    "monte_carlo_keys",
    "figure2_keys",
]

#: Seconds in a Julian year [s].
SECONDS_PER_YEAR = 365.25 * 24 * 3600.0
#: Decimal gigabyte, the unit of the seed's "16GB" device [bytes].
GB = 1e9
#: Default wear-leveling efficiency (registry ``lifetime.wear_efficiency``): our wear model's average one-pass SFC
#: life rate on seed 003's stand-ins (simulated, ~0.58; the paper's own simulation gives 0.9255); 1.0 (ideal,
#: seed 002's closed form) is only the upper end of its range.
_WEAR = param("lifetime.wear_efficiency").value


class LifetimeInputs(ModelInput):
    """Inputs of the closed-form lifetime.

    >>> LifetimeInputs(capacity_bytes=16e9, endurance_writes_per_cell=1e7,
    ...                write_rate_bytes_per_s=1e9, wear_efficiency=1.0).years  # doctest: +ELLIPSIS
    5.07...
    >>> LifetimeInputs(capacity_bytes=16e9, endurance_writes_per_cell=1e7,
    ...                write_rate_bytes_per_s=1e9).years  # default: our SFC life rate (simulated)  # doctest: +ELLIPSIS
    2.92...
    """

    capacity_bytes: float = Field(gt=0, le=1e18, description="device capacity [bytes]")
    endurance_writes_per_cell: float = Field(gt=0, le=1e18, description="cell endurance [writes per cell]")
    write_rate_bytes_per_s: float = Field(gt=0, le=1e15, description="cell write rate [bytes/s]")
    wear_efficiency: float = Field(_WEAR, gt=0, le=1, description="wear-leveling efficiency (0, 1] [-]")

    @property
    def seconds(self) -> float:
        """Lifetime [s]."""
        return float(lifetime_seconds(self.capacity_bytes, self.endurance_writes_per_cell,
                                      self.write_rate_bytes_per_s, wear_efficiency=self.wear_efficiency))

    @property
    def years(self) -> float:
        """Lifetime [years]."""
        return self.seconds / SECONDS_PER_YEAR


def _pos(name: str, a: np.ndarray, *, upper: float | None = None) -> None:
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite (got NaN or infinity)")
    if np.any(a <= 0):
        raise ValueError(f"{name} must be > 0 (got {a[a <= 0].ravel()[0]:g})")
    if upper is not None and np.any(a > upper):
        raise ValueError(f"{name} must be <= {upper:g} (got {a[a > upper].ravel()[0]:g})")


def lifetime_seconds(capacity_bytes, endurance_writes_per_cell, write_rate_bytes_per_s, *,
                     wear_efficiency=_WEAR, check: bool = True):
    """Closed-form lifetime ``C E eta / W`` [s], vectorised over all arguments.

    Parameters
    ----------
    capacity_bytes : array_like
        Device capacity [bytes].
    endurance_writes_per_cell : array_like
        Writes each cell endures [writes per cell].
    write_rate_bytes_per_s : array_like
        Rate of cell writes reaching the device, in bytes of cells programmed [bytes/s].
    wear_efficiency : array_like, keyword-only
        Wear-leveling efficiency in (0, 1] [-]; 1 = perfectly even wear.
    check : bool, keyword-only
        Validate the arguments (default). ``False``: the formula alone, for sampled inputs (the
        uncertainty adapters call it on their samples).

    Returns
    -------
    numpy.ndarray or float
        Lifetime [s]; ``inf`` where it exceeds the largest float (about 1.8e308 s).

    Raises
    ------
    ValueError
        On a non-positive, NaN or infinite argument, or a wear efficiency above 1.

    Examples
    --------
    PCM (1e7 writes per cell) vs NAND Flash (1e4) memory extensions of 16 GB at 100 MB/s:

    >>> [round(lifetime_seconds(16e9, e, 1e8, wear_efficiency=1.0) / SECONDS_PER_YEAR, 4) for e in (1e7, 1e4)]
    [50.7009, 0.0507]
    """
    c, e, w, eta = (np.asarray(x, dtype=float) for x in
                    (capacity_bytes, endurance_writes_per_cell, write_rate_bytes_per_s, wear_efficiency))
    if check:
        _pos("capacity_bytes", c)
        _pos("endurance_writes_per_cell", e)
        _pos("write_rate_bytes_per_s", w)
        _pos("wear_efficiency", eta, upper=1.0)
    # A lifetime past the float range (~1.8e308 s: a write rate below ~1e-290 bytes/s for a 16 GB, 1e7-write
    # device) is inf, as IEEE division gives it; the overflow is that saturation, not an error to report.
    with np.errstate(over="ignore"):
        out = c * e * eta / w
    return out.item() if out.ndim == 0 else out


def lifetime_years(capacity_bytes, endurance_writes_per_cell, write_rate_bytes_per_s, *,
                   wear_efficiency=_WEAR, check: bool = True):
    """Closed-form lifetime [years] (Julian years), vectorised; see :func:`lifetime_seconds`
    (``check=False``: no validation, for sampled inputs).

    >>> round(lifetime_years(16e9, 1e7, 1e9, wear_efficiency=1.0), 2)
    5.07
    >>> lifetime_years([16e9, 32e9], 1e7, 1e9, wear_efficiency=1.0).round(2).tolist()
    [5.07, 10.14]
    """
    s = lifetime_seconds(capacity_bytes, endurance_writes_per_cell, write_rate_bytes_per_s,
                         wear_efficiency=wear_efficiency, check=check)
    return s / SECONDS_PER_YEAR


def write_rate_for_lifetime(capacity_bytes, endurance_writes_per_cell, lifetime_years_, *,
                            wear_efficiency=_WEAR):
    """Invert the closed form: cell write rate [bytes/s] that wears the device out in ``lifetime_years_``.

    >>> round(write_rate_for_lifetime(16e9, 1e7, 5.0, wear_efficiency=1.0) / 1e6)  # seed 002 Fig. 9: Lulesh ~5 years
    1014
    """
    y = np.asarray(lifetime_years_, dtype=float)
    _pos("lifetime_years", y)
    return lifetime_seconds(capacity_bytes, endurance_writes_per_cell, y * SECONDS_PER_YEAR,
                            wear_efficiency=wear_efficiency)


@dataclass(frozen=True)
class LifetimeDistribution(ModelResult):
    """Result of :func:`lifetime_monte_carlo` (all lifetimes in years).

    Attributes
    ----------
    closed_form_years, p10_years, p50_years, p90_years, mean_years : float
        Closed-form lifetime and the Monte Carlo percentiles and mean [years].
    trials : int
        Simulated devices [-].
    lines : int
        Lines per device ``N`` [-].
    fail_rank : int
        ``k``: the device fails when its k-th line wears out [-].
    samples_years : tuple of float
        Every trial's lifetime [years] (empty unless ``keep_samples``).

    ``to_frame()`` is one row of the summary (no samples).
    """

    closed_form_years: float
    p10_years: float
    p50_years: float
    p90_years: float
    mean_years: float
    trials: int
    lines: int
    fail_rank: int
    samples_years: tuple[float, ...] = field(default=(), repr=False)


def check_spread_inputs(capacity_bytes: float, *, endurance_sigma: float, fail_fraction: float,
                        line_bytes: int) -> None:
    """Validate the endurance-spread inputs of :func:`lifetime_monte_carlo` (ValueError naming the field).

    Front ends call it whether or not a Monte Carlo run is asked for, so a bad value is never
    silently ignored.

    >>> check_spread_inputs(16e9, endurance_sigma=float("nan"), fail_fraction=0.01, line_bytes=64)
    Traceback (most recent call last):
    ...
    ValueError: endurance_sigma must be in [0, 5] (got nan)
    """
    _pos("capacity_bytes", np.asarray(capacity_bytes, float))
    if isinstance(line_bytes, bool) or not (isinstance(line_bytes, (int, np.integer)) and 0 < line_bytes <= capacity_bytes):
        raise ValueError(f"line_bytes must be a positive integer <= capacity_bytes (got {line_bytes!r})")
    if not (np.isfinite(endurance_sigma) and 0 <= endurance_sigma <= 5):
        raise ValueError(f"endurance_sigma must be in [0, 5] (got {endurance_sigma!r})")
    if not (np.isfinite(fail_fraction) and 0 < fail_fraction <= 1):
        raise ValueError(f"fail_fraction must be in (0, 1] (got {fail_fraction!r})")


def weak_line_factor(endurance_sigma, fail_fraction):
    """Many-line limit of the Monte Carlo lifetime over the closed form [-]: ``exp(sigma * Phi^-1(f))``.

    With ``N`` lines the device dies at the ``k = ceil(f N)``-th weakest; for large ``N`` that
    order statistic concentrates at the ``f``-quantile of the lognormal endurance, so every
    trial's lifetime tends to the closed form times this factor (P10, P50 and P90 meet).

    Parameters
    ----------
    endurance_sigma : float or array_like
        Standard deviation of ``ln(endurance)`` across lines [-].
    fail_fraction : float or array_like
        Fraction of worn lines at which the device fails, in (0, 1) [-].

    Examples
    --------
    >>> round(float(weak_line_factor(0.25, 1e-3)), 3)  # the weakest 0.1 % of lines: 46 % of the median endurance
    0.462
    >>> float(weak_line_factor(0.0, 1e-3))
    1.0
    """
    return np.exp(np.asarray(endurance_sigma, float) * special.ndtri(np.asarray(fail_fraction, float)))


def lifetime_monte_carlo(capacity_bytes: float, endurance_writes_per_cell: float,
                         write_rate_bytes_per_s: float, *, wear_efficiency: float = _WEAR,
                         endurance_sigma: float = 0.0, fail_fraction: float = param("lifetime.fail_fraction").value,
                         line_bytes: int = param("nvm.line_bytes").value, trials: int = 1000, seed=0,
                         keep_samples: bool = False) -> LifetimeDistribution:
    """Lifetime distribution with a lognormal per-line endurance spread (order statistics).

    Parameters
    ----------
    capacity_bytes : float
        Device capacity [bytes].
    endurance_writes_per_cell : float
        Median endurance of a line [writes per cell].
    write_rate_bytes_per_s : float
        Cell write rate [bytes/s]; 0 (e.g. a trace that writes nothing back): no line ever wears out, every
        trial's lifetime is ``inf``.
    wear_efficiency : float, keyword-only
        Wear-leveling efficiency in (0, 1] [-].
    endurance_sigma : float, keyword-only
        Standard deviation of ``ln(endurance)`` across lines [-]; 0 = identical lines.
    fail_fraction : float, keyword-only
        The device fails once this fraction of its lines is worn out, in (0, 1] [-]; the
        rank is ``k = max(1, ceil(fail_fraction * N))``.
    line_bytes : int, keyword-only
        Wear unit (a memory line) [bytes]; ``N = floor(capacity_bytes / line_bytes)``.
    trials : int, keyword-only
        Number of Monte Carlo devices.
    seed : int or numpy.random.Generator, keyword-only
        Randomness source.
    keep_samples : bool, keyword-only
        Also return every trial's lifetime.

    Returns
    -------
    LifetimeDistribution
        P10/P50/P90/mean lifetime [years], the closed form, ``N`` and ``k``; ``inf`` where the lifetime is
        infinite (nothing written, or past the float range as in :func:`lifetime_seconds`), never NaN.

    Examples
    --------
    >>> r = lifetime_monte_carlo(16e9, 1e7, 1e9, endurance_sigma=0.0, trials=10, seed=1)
    >>> r.p10_years == r.p90_years == r.closed_form_years
    True
    >>> r = lifetime_monte_carlo(16e9, 1e7, 1e9, endurance_sigma=0.25, fail_fraction=1e-6, seed=1)
    >>> round(r.p50_years / r.closed_form_years, 2)  # weakest ppm of lines: exp(0.25 * -4.75)
    0.3
    >>> r = lifetime_monte_carlo(16e9, 1e7, 0.0, endurance_sigma=0.25, trials=10, seed=1)  # nothing written
    >>> r.p10_years, r.p50_years, r.p90_years, r.mean_years
    (inf, inf, inf, inf)
    """
    check_spread_inputs(capacity_bytes, endurance_sigma=endurance_sigma, fail_fraction=fail_fraction,
                        line_bytes=line_bytes)
    if not (isinstance(trials, (int, np.integer)) and 1 <= trials <= 10_000_000):
        raise ValueError(f"trials must be an integer in 1..10^7 (got {trials!r})")
    written = write_rate_bytes_per_s != 0  # 0: nothing written, never wears out (the other inputs still checked)
    closed = lifetime_seconds(capacity_bytes, endurance_writes_per_cell, write_rate_bytes_per_s if written else 1.0,
                              wear_efficiency=wear_efficiency) / SECONDS_PER_YEAR
    if not written:
        closed = math.inf
    n = int(capacity_bytes // line_bytes)
    k = max(1, min(n, math.ceil(fail_fraction * n)))
    rng = as_generator(seed)
    if endurance_sigma == 0.0:
        years = np.full(trials, closed)
    else:
        # k-th smallest of n iid uniforms ~ Beta(k, n-k+1); sampled via its log-space inverse
        # for numerical range (k=1 with n~1e8 puts u near 1e-8).
        u = rng.beta(k, n - k + 1, size=trials)
        u = np.clip(u, np.finfo(float).tiny, 1 - 1e-16)
        z = special.ndtri(u)
        years = closed * np.exp(endurance_sigma * z)
    p10, p50, p90 = _percentiles_with_inf(years, [10, 50, 90])
    return LifetimeDistribution(
        closed_form_years=float(closed), p10_years=float(p10), p50_years=float(p50),
        p90_years=float(p90), mean_years=float(years.mean()), trials=int(trials), lines=n,
        fail_rank=k, samples_years=tuple(years.tolist()) if keep_samples else (),
    )


def _percentiles_with_inf(years: np.ndarray, q) -> np.ndarray:
    """``np.percentile(years, q)`` (linear interpolation) where an infinite lifetime counts as the longest: a
    percentile at or past an ``inf`` sample is ``inf`` (numpy's interpolation gives NaN from ``inf - inf``).

    >>> _percentiles_with_inf(np.array([1.0, 2.0, np.inf, np.inf]), [0, 50, 100]).tolist()
    [1.0, inf, inf]
    """
    if np.all(np.isfinite(years)):
        return np.percentile(years, q)
    s = np.sort(years)
    pos = np.asarray(q, float) / 100 * (len(s) - 1)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, len(s) - 1)
    frac = pos - lo
    a, b = s[lo], s[hi]
    with np.errstate(invalid="ignore"):
        return np.where((frac == 0) | (a == b), a, a + (b - a) * frac)


def lifetime_band(distribution: LifetimeDistribution, capacity_bytes: float, endurance_writes_per_cell: float,
                  write_rates_bytes_per_s, *, wear_efficiency: float = _WEAR) -> pd.DataFrame:
    """Closed-form lifetime and the Monte Carlo P10/P50/P90 band at other write rates.

    ``L`` is proportional to ``1 / W`` for every line, so the distribution's percentiles keep
    their ratio to the closed form at any write rate: ``P_q(W) = L(W) P_q / L_closed``.

    Parameters
    ----------
    distribution : LifetimeDistribution
        A :func:`lifetime_monte_carlo` result for this capacity, endurance and efficiency.
    capacity_bytes, endurance_writes_per_cell : float
        As for :func:`lifetime_seconds` [bytes], [writes per cell].
    write_rates_bytes_per_s : array_like
        Cell write rates [bytes/s].
    wear_efficiency : float, keyword-only
        Wear-leveling efficiency (0, 1] [-].

    Returns
    -------
    pandas.DataFrame
        Columns ``write_rate_MBps`` [MB/s], ``closed_form_years``, ``p10_years``,
        ``p50_years``, ``p90_years`` [years], one row per rate.

    >>> mc = lifetime_monte_carlo(16e9, 1e7, 1e9, endurance_sigma=0.25, seed=1)
    >>> band = lifetime_band(mc, 16e9, 1e7, [1e9, 2e9])
    >>> bool(np.allclose(band.p50_years * [1, 2], mc.p50_years)), band.write_rate_MBps.tolist()
    (True, [1000.0, 2000.0])
    """
    w = np.asarray(write_rates_bytes_per_s, dtype=float)
    base = lifetime_years(capacity_bytes, endurance_writes_per_cell, w, wear_efficiency=wear_efficiency)
    closed = distribution.closed_form_years
    return pd.DataFrame({
        "write_rate_MBps": w / 1e6, "closed_form_years": base,
        "p10_years": base * distribution.p10_years / closed, "p50_years": base * distribution.p50_years / closed,
        "p90_years": base * distribution.p90_years / closed,
    })


def lifetime_bruteforce_lines(n_lines: int, endurance_writes_per_cell: float, seconds_per_write: float,
                              *, endurance_sigma: float, fail_fraction: float, trials: int,
                              seed=0) -> np.ndarray:
    """Reference for tests: sample every line's endurance and take the k-th smallest [s].

    Small devices only (``trials x n_lines`` values). ``seconds_per_write`` is the time
    between two writes of one line under leveled wear [s].

    >>> lifetime_bruteforce_lines(100, 10.0, 1.0, endurance_sigma=0.0, fail_fraction=0.5,
    ...                           trials=2, seed=0).tolist()
    [10.0, 10.0]
    """
    rng = as_generator(seed)
    k = max(1, min(n_lines, math.ceil(fail_fraction * n_lines)))
    e = endurance_writes_per_cell * np.exp(endurance_sigma * rng.standard_normal((trials, n_lines)))
    return np.partition(e, k - 1, axis=1)[:, k - 1] * seconds_per_write


#: Cell write rates taken from seed 002 [bytes/s]. The text gives one figure: Lulesh wears a
#: 16 GB, 1e7-endurance PCM extension out "in about 5 years" (section 5.1.3, Figure 9,
#: baseline); inverting the closed form gives 1.01 GB/s. This row is PAPER-IMPLIED: a lifetime
#: computed from it reproduces the paper's 5 years by construction (circular in the ledger).
#: Figure 2's other per-workload values are only drawn in the figure; rates measured from the
#: traced programs, Lulesh included, come from :func:`derived_write_rates`.
SEED_WRITE_RATES: dict[str, float] = {
    # DERIVED from a seed result (registry ``lifetime.lulesh_write_rate_Bps``): a test checks it
    # equals write_rate_for_lifetime(16e9, 1e7, 5.0, wear_efficiency=1.0) (the paper's ideal leveling)
    "Lulesh, paper-implied (seed 002 Fig. 9: ~5 years)": param("lifetime.lulesh_write_rate_Bps").value,
}


#: How a trace's write rate is carried to a device of another capacity (stated in every table of rates).
RATE_SCALING = ("the trace's write rate [bytes/s] used as is on the device: a run at the device's footprint is "
                "assumed to behave per reference like the traced window (same write-backs per reference at the "
                "same DRAM:NVM ratio, same time per reference), so it writes the same bytes per second spread over "
                "the device's capacity; a larger footprint that misses the CPU caches more runs slower per "
                "reference, so the rate is an upper bound for it")


@dataclass(frozen=True)
class TraceWriteRate(ModelResult):
    """Cell write rate of a memory trace on a PCM memory extension, with its time base.

    Attributes
    ----------
    trace : str
        Trace name.
    write_rate_bytes_per_s : float
        Dirty write-backs x 4 KiB / modelled run time [bytes/s].
    ns_per_ref : float
        Time base: DRAM-only time per data reference [ns].
    time_base : str
        Where ``ns_per_ref`` comes from (measured for the trace's program, given, or the registry median).
    written_bytes : int
        Bytes written back to the NVM over the trace [bytes].
    modelled_s : float
        Modelled run time of the trace [s].
    references : int
        Data references replayed [-].
    dram_frac : float
        DRAM share of the trace's footprint [-].
    scaling : str
        How the rate is carried to the device (:data:`RATE_SCALING`).
    """

    trace: str
    write_rate_bytes_per_s: float
    ns_per_ref: float
    time_base: str
    written_bytes: int
    modelled_s: float
    references: int
    dram_frac: float
    scaling: str = RATE_SCALING


def trace_lifetime_rate(trace, *, time_base: str | float = "measured",
                        dram_frac: float = param("memext.dram_frac").value,
                        measured_name: str | None = None) -> TraceWriteRate:
    """Write rate of a memory trace for the lifetime model, from its time base [bytes/s].

    The trace replays through the memory-extension model (PCM ``pcm-memext``, FIFO, DRAM:NVM
    ``dram_frac``, buffered write-back): dirty write-backs x 4 KiB / modelled run time
    (:func:`models.memory.memory_extension.trace_write_rate`), with run time = references x
    ``t_ref`` + fault and write-back stalls.

    Parameters
    ----------
    trace : MemTrace or PageStream
        The memory trace (data references).
    time_base : "measured", "registry" or float, keyword-only
        ``"measured"``: the native time per data reference measured for the trace's program
        (:func:`models.memory.measured.ns_per_ref` of ``measured_name``; an error when that
        program was not timed); ``"registry"``: the registry median ``memext.base_ns_per_ref``;
        a number: that time per reference [ns].
    dram_frac : float, keyword-only
        DRAM share of the trace's footprint [-].
    measured_name : str, optional, keyword-only
        Bundled trace name whose measured time base ``"measured"`` uses (default: the trace's name).

    Returns
    -------
    TraceWriteRate

    >>> import numpy as np
    >>> from models.memory.memory_extension import page_stream
    >>> s = page_stream(address=np.tile(np.arange(8) * 4096, 4), is_write=np.ones(32, bool))
    >>> r = trace_lifetime_rate(s, time_base=1000.0)
    >>> r.ns_per_ref, r.time_base, r.write_rate_bytes_per_s > 0
    (1000.0, 'given: 1000 ns per data reference', True)
    """
    from models.memory.measured import ns_per_ref
    from models.memory.memory_extension import (
        MemExtConfig,
        PageStream,
        page_stream,
        simulate_memext,
    )

    stream = trace if isinstance(trace, PageStream) else page_stream(trace)
    name = str(getattr(trace, "name", "") or stream.name)
    if isinstance(time_base, str):
        if time_base == "measured":
            t = ns_per_ref(measured_name or name)
            if t is None:
                raise ValueError(f"time base 'measured': no native time measured for {measured_name or name!r} "
                                 "(only the bundled traces' programs were timed, data/measurements/); give a time "
                                 f"per reference in ns (the registry median is {param('memext.base_ns_per_ref').value:g})")
            how = f"measured: {t:.3g} ns per data reference (native CPU time / valgrind data references)"
        elif time_base == "registry":
            t = float(param("memext.base_ns_per_ref").value)
            how = (f"registry median memext.base_ns_per_ref: {t:.3g} ns per data reference (the trace's own "
                   "program not timed)")
        else:
            raise ValueError(f"time base must be 'measured', 'registry' or a number of ns (got {time_base!r})")
    else:
        t = float(time_base)
        if not (t > 0 and math.isfinite(t)):
            raise ValueError(f"time base must be a positive number of ns per reference (got {time_base!r})")
        how = f"given: {t:g} ns per data reference"
    r = simulate_memext(stream, MemExtConfig(dram_frac=dram_frac, base_ns_per_ref=t))
    seconds = r.time_ns * 1e-9
    return TraceWriteRate(trace=name, write_rate_bytes_per_s=float(r.written_bytes / seconds), ns_per_ref=t,
                          time_base=how, written_bytes=int(r.written_bytes), modelled_s=float(seconds),
                          references=int(len(stream)), dram_frac=float(dram_frac))


@cache
def measured_write_rate(trace_name: str, *, dram_frac: float = param("memext.dram_frac").value) -> float:
    """NVM write rate of one bundled memory trace [bytes/s] with its measured time base.

    PCM memory extension (``pcm-memext``), FIFO, DRAM:NVM ``dram_frac``, buffered write-back:
    dirty write-backs x 4 KiB / modelled run time (:func:`trace_lifetime_rate`), the time per
    data reference measured for the trace's program (:func:`models.memory.measured.ns_per_ref`)
    or else the registry median. See :data:`RATE_SCALING` for the scaling to 16 GB.
    """
    from models.memory.measured import ns_per_ref
    from models.traces import load

    tb = "measured" if ns_per_ref(trace_name) is not None else "registry"
    return trace_lifetime_rate(load(trace_name, kind="memory"), time_base=tb, dram_frac=dram_frac,
                               measured_name=trace_name).write_rate_bytes_per_s


def derived_write_rates(*, dram_frac: float = param("memext.dram_frac").value) -> tuple[dict[str, float], dict[str, str]]:
    """Cell write rates [bytes/s] of the bundled memory traces and our synthetic page streams.

    Each trace (by program name: seed 002's proxy applications Lulesh, XSBench, RSBench,
    SimpleMOC, MiniFE, MiniAMR traced here, and the other bundled programs) and each synthetic
    pattern (``synthetic <pattern> (ours)``, seed 0) runs through
    :func:`models.memory.memory_extension.trace_write_rate` with FIFO at ``dram_frac``
    (DRAM:NVM 1:4 by default) on PCM: dirty write-backs x 4 KiB / modelled run time, with the
    time per data reference MEASURED for the trace's program (native CPU time / lackey data
    references, ``data/measurements/apps/apps.csv``, ``data/measurements/programs/programs.csv``)
    or else the registry median
    (``memext.base_ns_per_ref``); synthetic streams use the registry median.

    Scaling to the paper's 16 GB footprint: the rate [bytes/s] is used as is, i.e. a 16 GB run
    is assumed to behave per reference like the traced window (same write-backs per
    reference at the same DRAM:NVM ratio, same time per reference), so it writes the same
    bytes per second spread over a 16 GB device; the lifetime then scales with the capacity
    (:func:`lifetime_years`). A larger footprint that misses the CPU caches more runs slower
    per reference, so these rates are upper bounds for it.

    Returns
    -------
    rates : dict
        Workload name -> cell write rate [bytes/s].
    sources : dict
        Workload name -> how the rate was derived (a ``source`` column of :func:`figure2_table`).
    """
    from models.memory.measured import ns_per_ref
    from models.memory.memory_extension import (
        SYNTHETIC_PATTERNS,
        MemExtConfig,
        synthetic_page_stream,
        trace_write_rate,
    )
    from models.traces import bundled_traces

    cfg = MemExtConfig(dram_frac=dram_frac)
    how = (f"PCM, FIFO at DRAM:NVM 1:{1 / dram_frac:g}, dirty write-backs x 4 KiB / modelled run time; "
           "same bytes/s at 16 GB (per-reference behaviour of the window assumed)")
    rates, sources = {}, {}
    for name in (n.split(":", 1)[1] for n in bundled_traces("memory")):
        t = ns_per_ref(name)
        rates[name] = measured_write_rate(name, dram_frac=dram_frac)
        tb = (f"measured {t:.3g} ns per data reference" if t is not None else
              f"median measured time base {cfg.base_ns_per_ref:.3g} ns per reference (own program not timed)")
        sources[name] = f"measured trace: {how}; {tb}"
    for p in SYNTHETIC_PATTERNS:
        name = f"synthetic {p} (ours)"
        rates[name] = trace_write_rate(synthetic_page_stream(p, seed=0), cfg)
        sources[name] = f"our synthetic page stream: {how}; median measured time base"
    return rates, sources


def figure2_table(write_rates_bytes_per_s: dict[str, float] | None = None, *,
                  capacity_bytes: float = param("memext.nvm_capacity_bytes").value,
                  pcm_endurance: float | None = None, flash_endurance: float | None = None,
                  wear_efficiency: float = _WEAR,
                  sources: dict[str, str] | None = None) -> pd.DataFrame:
    """Figure 2 analogue: PCM vs Flash memory-extension lifetime for workloads' write rates.

    Parameters
    ----------
    write_rates_bytes_per_s : dict, optional
        Workload name -> cell write rate [bytes/s]; default :data:`SEED_WRITE_RATES`.
    capacity_bytes : float, keyword-only
        Memory-extension capacity [bytes] (seed: 16 GB, 4x a 4 GB DRAM).
    pcm_endurance, flash_endurance : float, keyword-only
        Endurance [writes per cell] (default: the catalogue's ``pcm-memext`` and ``nand-flash``,
        seed 002's 1e7 and 1e4).
    wear_efficiency : float, keyword-only
        Wear-leveling efficiency (0, 1] [-].
    sources : dict, optional
        Workload name -> where its rate comes from (a ``source`` column).

    Returns
    -------
    pandas.DataFrame
        Columns ``workload, write_rate_MBps, pcm_years, flash_years, flash_days, source``.

    >>> t = figure2_table(wear_efficiency=1.0)  # the paper's ideal leveling: its ~5 years back
    >>> float(t.pcm_years.iloc[0]), round(float(t.flash_days.iloc[0]), 2)
    (5.0, 1.83)
    """
    from models.devices import get_device

    if pcm_endurance is None:
        pcm_endurance = get_device("pcm-memext").endurance_writes_per_cell
    if flash_endurance is None:
        flash_endurance = get_device("nand-flash").endurance_writes_per_cell
    rates = dict(SEED_WRITE_RATES if write_rates_bytes_per_s is None else write_rates_bytes_per_s)
    if not rates:
        raise ValueError("write_rates_bytes_per_s: give at least one workload")
    names = list(rates)
    w = np.array([rates[n] for n in names], dtype=float)
    pcm = lifetime_years(capacity_bytes, pcm_endurance, w, wear_efficiency=wear_efficiency)
    flash = lifetime_years(capacity_bytes, flash_endurance, w, wear_efficiency=wear_efficiency)
    src = sources or {}
    default_src = "seed 002 (derived from the text)" if write_rates_bytes_per_s is None else ""
    return pd.DataFrame({
        "workload": names,
        "write_rate_MBps": w / 1e6,
        "pcm_years": np.atleast_1d(pcm),
        "flash_years": np.atleast_1d(flash),
        "flash_days": np.atleast_1d(flash) * 365.25,
        "source": [src.get(n, default_src) for n in names],
    })


# ----------------------------------------------------------------------------- provenance of the results
def _pcm_endurance_keys(endurance_writes_per_cell: float) -> list[str]:
    """The catalogue PCM's endurance key when ``endurance_writes_per_cell`` is its value (else typed: none)."""
    from models.devices import get_device

    if endurance_writes_per_cell == get_device("pcm-memext").endurance_writes_per_cell:
        return device_keys("pcm-memext", ["endurance_writes_per_cell"])
    return []


def lifetime_keys(endurance_writes_per_cell: float) -> list[str]:
    """Provenance keys (:mod:`models.provenance`) of :func:`lifetime_years` at the default capacity and
    write rate (measured with Lulesh's time per reference) and ``endurance_writes_per_cell``: the
    catalogue PCM's endurance key when it is that value.

    >>> lifetime_keys(1e7)[-1], len(lifetime_keys(1.5e7))
    ('device:pcm-memext.endurance_writes_per_cell', 3)
    """
    return ["memext.nvm_capacity_bytes", "memext.base_ns_per_ref", "lifetime.wear_efficiency",
            *_pcm_endurance_keys(endurance_writes_per_cell)]


def monte_carlo_keys(endurance_writes_per_cell: float) -> list[str]:
    """Provenance keys of :func:`lifetime_monte_carlo`: :func:`lifetime_keys` and the spread's parameters."""
    return [*lifetime_keys(endurance_writes_per_cell), "lifetime.endurance_sigma", "lifetime.fail_fraction",
            "nvm.line_bytes"]


def figure2_keys(trace_rates: bool = False) -> list[str]:
    """Provenance keys of :func:`figure2_table` over :data:`SEED_WRITE_RATES` (PCM and Flash), with
    :func:`derived_write_rates` (``trace_rates``: the memory-extension simulation's parameters)."""
    keys = ["lifetime.lulesh_write_rate_Bps", "memext.nvm_capacity_bytes", "lifetime.wear_efficiency",
            *device_keys("pcm-memext", ["endurance_writes_per_cell"]),
            *device_keys("nand-flash", ["endurance_writes_per_cell"])]
    if trace_rates:
        keys += ["memext.base_ns_per_ref", "memext.fault_overhead_ns", "memext.eviction_buffer_pages",
                 "memext.dram_frac"]
    return keys
