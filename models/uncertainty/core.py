"""Uncertain inputs, the model adapters' common shape, and the analysis of one model.

An adapter (the adapter beside the model (``models/<package>/uncertainty.py``; the table in ``docs/uncertainty.md``)) describes one model as an
:class:`UncertainModel`: its headline output (name, unit), its uncertain inputs
(:class:`UncertainInput`, each a :class:`~models.uncertainty.distributions.Distribution`
built from the value's provenance), a vectorised ``evaluate`` mapping input arrays to the
output, and optionally the :class:`Verdict` a planner reads ("PCM wins when ...").
:func:`analyze` samples the inputs (scrambled Sobol' or Latin hypercube, ``seed``), and
returns an :class:`UncertaintyResult`: point estimate, p5/p50/p95, the probability of the
verdict, the tornado table and, optionally, first-order and total Sobol' indices.

Inputs that change a simulation itself (``resimulates=True``: e.g. HALO's thresholds) are
held at their point in the sampled band and the Sobol' indices; the tornado runs the
adapter's ``resimulate`` at each of their two ends, and the result lists them in ``notes``.

References
----------
.. [1] A. Saltelli et al., Global Sensitivity Analysis: The Primer, Wiley 2008 (tornado /
   one-at-a-time ranges, variance-based indices).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pandas as pd

from models._base import ModelResult
from models.uncertainty.distributions import Distribution, Fixed, from_provenance
from models.uncertainty.sampling import unit_samples
from models.uncertainty.sobol import sobol_indices

__all__ = [
    "UncertainInput",
    "Verdict",
    "UncertainModel",
    "UncertaintyResult",
    "TORNADO_COLUMNS",
    "SOBOL_COLUMNS",
    "param_input",
    "device_input",
    "device_value_range",
    "fixed_input",
    "user_input",
    "sample_values",
    "tornado",
    "analyze",
]

#: Columns of a tornado table (the CLI's contract).
TORNADO_COLUMNS = ["parameter", "low", "high", "output_low", "output_high", "swing"]
#: Columns of a Sobol' table.
SOBOL_COLUMNS = ["parameter", "S1", "ST"]


@dataclass(frozen=True)
class UncertainInput:
    """One uncertain input of a model.

    Attributes
    ----------
    name : str
        Key: a registry name (``"memext.fault_overhead_ns"``), a device value
        (``"device:hdd-7200.avg_seek_ns"``) or an adapter's own name.
    label : str
        What a planner reads (``"OS page-fault overhead"``).
    unit : str
        Unit of the values.
    dist : Distribution
        Distribution; its ``point`` is the value the model uses.
    kind : str
        Provenance kind of the value.
    resimulates : bool
        Changing it re-runs a simulation (tornado only; held at the point in the band).
    """

    name: str
    label: str
    unit: str
    dist: Distribution
    kind: str = ""
    resimulates: bool = False

    @property
    def point(self) -> float:
        """The value the model uses [unit]."""
        return float(self.dist.point)

    @property
    def fixed_in_band(self) -> bool:
        """Held at its point in the band and the Sobol' indices (zero width or re-simulating)."""
        return self.resimulates or self.dist.fixed

    def display(self) -> str:
        """``"label [unit]"``."""
        return f"{self.label} [{self.unit}]" if self.unit and self.unit != "-" else self.label


@dataclass(frozen=True)
class Verdict:
    """The yes/no reading of an output: ``output < threshold`` (``below``) or ``> threshold``.

    ``statement`` completes "... in 97 % of samples", e.g. ``"a PCM write cache beats no
    cache"``.
    """

    threshold: float
    below: bool
    statement: str

    def holds(self, y) -> np.ndarray:
        """Where the verdict holds (boolean array)."""
        y = np.asarray(y, dtype=float)
        return y < self.threshold if self.below else y > self.threshold


@dataclass(frozen=True)
class UncertainModel:
    """A model as the uncertainty layer sees it.

    Attributes
    ----------
    model : str
        Model name (``"breakeven"``, ``"writecache"``, ...).
    output : str
        Headline output name (``"n_star"``).
    unit : str
        Output unit.
    inputs : tuple of UncertainInput
    evaluate : callable
        ``evaluate(values)`` with ``values`` a mapping input name -> array (or scalar) ->
        output array, vectorised; called with every input.
    verdict : Verdict or None
    resimulate : callable or None
        ``resimulate(overrides)`` -> output for the inputs with ``resimulates=True``
        (``overrides``: name -> value, the others at their points).
    notes : tuple of str
        What was simulated once and what varies analytically.
    output_label : str
        Readable output name for charts (default ``output``).
    """

    model: str
    output: str
    unit: str
    inputs: tuple[UncertainInput, ...]
    evaluate: Callable[[Mapping[str, np.ndarray]], np.ndarray]
    verdict: Verdict | None = None
    resimulate: Callable[[Mapping[str, float]], float] | None = None
    notes: tuple[str, ...] = ()
    output_label: str = ""

    def __post_init__(self):
        names = [i.name for i in self.inputs]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.model}: input names repeat: {names}")
        if any(i.resimulates for i in self.inputs) and self.resimulate is None:
            raise ValueError(f"{self.model}: inputs that re-simulate need a resimulate function")

    def points(self) -> dict[str, float]:
        """Every input at its point."""
        return {i.name: i.point for i in self.inputs}

    def point(self) -> float:
        """The output at every input's point [unit]."""
        return float(np.asarray(self.evaluate(self.points()), dtype=float).reshape(-1)[0])

    def sampled_inputs(self) -> list[UncertainInput]:
        """Inputs varied in the band and Sobol' indices (non-zero width, analytic)."""
        return [i for i in self.inputs if not i.fixed_in_band]

    def label(self) -> str:
        """``"output_label [unit]"``."""
        lab = self.output_label or self.output
        return f"{lab} [{self.unit}]" if self.unit and self.unit != "-" else lab


def param_input(name: str, *, value: float | None = None, label: str | None = None, integer: bool = False,
                resimulates: bool = False) -> UncertainInput:
    """An input from the provenance registry entry ``name`` (its kind and stated range).

    ``value`` (the user's setting) replaces the registry value; the stated range moves with
    it: kept when the value lies inside it, else scaled by ``value / registry value`` (or,
    for a registry value of 0, shifted).

    >>> i = param_input("file_cache.io_stack_factor"); i.dist.describe(), i.kind
    ('triangular 1.2..1.4', 'published')
    >>> param_input("paging.tlb_access_ns", value=4.0).dist.describe()  # registry 0.5 in 0.1..2 (assumed)
    'loguniform 0.8..16'
    """
    from models.provenance import param

    p = param(name)
    v0, lo, hi = float(p.value), p.provenance.low, p.provenance.high
    v = v0 if value is None else float(value)
    if not lo <= v <= hi:
        if v0 != 0 and v / v0 > 0:
            lo, hi = sorted((lo * v / v0, hi * v / v0))
        else:
            lo, hi = lo + (v - v0), hi + (v - v0)
    dist = from_provenance(p.kind, v, lo, hi, integer=integer)
    return UncertainInput(name, label or p.description.split(";")[0], p.unit, dist, p.kind, resimulates)


def device_input(device, column: str, *, label: str | None = None, unit: str | None = None,
                 resimulates: bool = False) -> UncertainInput:
    """An input from a device value (catalogue or custom profile), ranged by its provenance kind.

    The catalogue states no ranges: a measured value gets +-``uncertainty.device_band.measured``,
    a published or user-typed one +-``...published``, a computed one +-``...computed``, a derived one
    value / f .. value x f with f = ``...derived``, a simulated one f = ``...simulated``, an assumed
    one f = ``...assumed`` (registry, all assumed).

    >>> device_input("hdd-7200", "avg_seek_ns").dist.describe()
    'loguniform 2.017e+06..8.067e+06'
    >>> device_input("hdd-7200", "rpm").dist.describe()
    'triangular 5760..8640'
    """
    from models.devices import DeviceProfile, get_device
    from models.provenance import _DEVICE_UNITS

    dev = device if isinstance(device, DeviceProfile) else get_device(device)
    v = getattr(dev, column)
    lo, hi, kind = device_value_range(dev, column)
    dist = from_provenance(kind, float(v), lo, hi)
    return UncertainInput(f"device:{dev.name}.{column}", label or f"{dev.label or dev.name} {column}",
                          unit or _DEVICE_UNITS.get(column, "-"), dist, kind, resimulates)


def device_value_range(device, column: str) -> tuple[float, float, str]:
    """``(low, high, kind)``: the stated range of a device value [its unit] from its provenance kind, as
    :func:`device_input` ranges it (the catalogue states no ranges for the specs the models read: a measured value
    +-``uncertainty.device_band.measured``, a published / computed / user-typed one +- its band, a derived, simulated
    or assumed one value / f .. value x f).

    >>> lo, hi, kind = device_value_range("pcm-samsung-20nm", "write_latency_ns"); kind, round(hi / lo, 6)
    ('simulated', 4.0)
    """
    from models.devices import DeviceProfile, get_device
    from models.provenance import ASSUMED, COMPUTED, DERIVED, MEASURED, SIMULATED, param

    dev = device if isinstance(device, DeviceProfile) else get_device(device)
    v = getattr(dev, column)
    if v is None:
        raise ValueError(f"device {dev.name!r} has no {column}")
    v = float(v)
    kind = dev.value_kind(column)
    if kind in (DERIVED, SIMULATED, ASSUMED):
        f = param("uncertainty.device_band." + {DERIVED: "derived", SIMULATED: "simulated"}.get(kind, "assumed")).value
        return v / f, v * f, kind
    r = param("uncertainty.device_band." + {MEASURED: "measured", COMPUTED: "computed"}.get(kind, "published")).value
    return v * (1 - r), v * (1 + r), kind


def _eval(model: UncertainModel, values: Mapping[str, object], n: int) -> np.ndarray:
    y = np.asarray(model.evaluate(values), dtype=float)
    return np.broadcast_to(y.reshape(-1) if y.ndim else y, (n,)).astype(float) if y.size in (1, n) else y


def tornado(model: UncertainModel) -> pd.DataFrame:
    """Each input at its low and high end, the others at their points (columns :data:`TORNADO_COLUMNS`).

    Rows sorted by ``swing = |output_high - output_low|``, largest first; inputs of zero width
    are left out; inputs that re-simulate run ``model.resimulate`` at both ends.
    """
    pts = model.points()
    base = model.point()
    rows = []
    for inp in model.inputs:
        lo, hi = inp.dist.low_end, inp.dist.high_end
        if lo == hi:
            continue
        if inp.resimulates:
            ylo, yhi = float(model.resimulate({inp.name: lo})), float(model.resimulate({inp.name: hi}))
        else:
            vals = {**pts, inp.name: np.array([lo, hi])}
            ylo, yhi = _eval(model, vals, 2)
        rows.append({"parameter": inp.name, "low": lo, "high": hi, "output_low": float(ylo),
                     "output_high": float(yhi), "swing": abs(float(yhi) - float(ylo)),
                     "label": inp.display(), "kind": inp.kind, "resimulated": inp.resimulates})
    df = pd.DataFrame(rows, columns=[*TORNADO_COLUMNS, "label", "kind", "resimulated"])
    if len(df):
        df = df.sort_values("swing", ascending=False, kind="stable", ignore_index=True)
    df.attrs["point"] = base
    return df


@dataclass(frozen=True)
class UncertaintyResult(ModelResult):
    """Outcome of :func:`analyze` for one model.

    Attributes
    ----------
    model, output, unit : str
        Model, headline output and its unit.
    point, p5, p50, p95, mean : float
        Output at the inputs' points and its sampled percentiles and mean [unit].
    p_verdict : float
        Share of samples where the model's verdict holds [-] (NaN without a verdict).
    verdict : str
        The verdict's statement ("" without one).
    decisive : str
        Name of the input that moves the output most (largest total Sobol' index when
        computed, else largest tornado swing; "" when nothing varies).
    decisive_label : str
        Its readable label.
    n, seed : int
        Samples and seed (``seed`` -1 when a Generator was given).
    method : str
        Design (``"sobol"`` or ``"lhs"``).
    samples : numpy.ndarray
        Every sample's output [unit].
    inputs : pandas.DataFrame
        Sampled input values, one column per varied input.
    tornado : pandas.DataFrame
        :func:`tornado` table.
    sobol : pandas.DataFrame or None
        ``parameter, S1, ST`` (None unless asked).
    notes : tuple of str
        What was simulated once, what re-simulates, what is held.

    ``to_frame()``: one row ``model, output, unit, point, p5, p50, p95, mean, p_verdict,
    verdict, decisive, decisive_label, n, seed, method``.
    """

    model: str
    output: str
    unit: str
    point: float
    p5: float
    p50: float
    p95: float
    mean: float
    p_verdict: float
    verdict: str
    decisive: str
    decisive_label: str
    n: int
    seed: int
    method: str
    samples: np.ndarray = field(repr=False)
    inputs: pd.DataFrame = field(repr=False)
    tornado: pd.DataFrame = field(repr=False)
    sobol: pd.DataFrame | None = field(default=None, repr=False)
    notes: tuple[str, ...] = ()
    output_label: str = ""

    FRAME_EXTRAS: ClassVar[tuple[str, ...]] = ()

    @property
    def negligible_spread(self) -> bool:
        """The p5-p95 band is narrower than :data:`NEGLIGIBLE_SPREAD` of the point (no input "decides" a spread
        that is not there)."""
        vals = (self.p5, self.p95, self.point)
        return all(np.isfinite(vals)) and self.point != 0 and self.p95 - self.p5 <= NEGLIGIBLE_SPREAD * abs(self.point)

    def sentence(self) -> str:
        """One sentence: the verdict's probability and the decisive input.

        e.g. ``"a PCM write cache beats no cache in 97 % of samples; the HDD's mean seek
        time decides most of the spread."``
        """
        parts = []
        if self.verdict:
            parts.append(f"{self.verdict} in {_pct(self.p_verdict)} of {self.n:,} samples")
        else:
            parts.append(f"{self.output_label or self.output} lies between {self.p5:.4g} and {self.p95:.4g} "
                         f"{self.unit} in 90 % of {self.n:,} samples (point {self.point:.4g})")
        if self.decisive and self.negligible_spread:
            parts.append(f"the uncertain inputs move it by less than {NEGLIGIBLE_SPREAD:.1%} of its point "
                         f"({self.decisive_label} the most)")
        elif self.decisive:
            parts.append(f"{self.decisive_label} decides most of the spread")
        else:
            parts.append("no uncertain input moves it")
        s = "; ".join(parts) + "."
        first = s.split(" ", 1)[0]
        # capitalise a plain word ("a PCM ..." -> "A PCM ..."), never a name ("pcm-dax", "hdd-7200")
        return s[0].upper() + s[1:] if first.isalpha() and first.islower() else s


#: A p5-p95 band narrower than this share of the point [-] is called negligible in the sentence.
NEGLIGIBLE_SPREAD = 1e-3


def _pct(p: float) -> str:
    if not np.isfinite(p):
        return "n/a"
    v = 100 * p
    if 0 < v < 1:
        return "< 1 %"
    if 99 < v < 100:
        return "> 99 %"
    return f"{v:.0f} %"


def analyze(model: UncertainModel, *, n: int = 1000, seed=0, method: str = "sobol", sobol: bool = False,
            sobol_n: int | None = None, progress: Callable[[float], None] | None = None) -> UncertaintyResult:
    """Sample ``model``'s inputs and summarise its output.

    Parameters
    ----------
    model : UncertainModel
    n : int, keyword-only
        Samples [-] (>= 1).
    seed : int or numpy.random.Generator, keyword-only
        Randomness of the design; the same int gives the same samples.
    method : {"sobol", "lhs"}, keyword-only
        Design of the band.
    sobol : bool, keyword-only
        Also compute first-order and total Sobol' indices (``sobol_n (d + 2)`` more runs).
    sobol_n : int, keyword-only
        Base samples of the indices (default ``n``).
    progress : callable, keyword-only
        Called with the fraction done (0..1).

    Returns
    -------
    UncertaintyResult

    Examples
    --------
    >>> from models.uncertainty.distributions import Uniform
    >>> m = UncertainModel("demo", "y", "-", (UncertainInput("a", "a", "-", Uniform(1.0, low=0.0, high=2.0)),),
    ...                    lambda v: 2 * np.asarray(v["a"]), Verdict(1.0, True, "y stays below 1"))
    >>> r = analyze(m, n=1024, seed=0)
    >>> r.point, round(r.p50, 2), round(r.p_verdict, 2), r.decisive
    (2.0, 2.0, 0.25, 'a')
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"samples must be a whole number >= 1 (got {n!r})")
    seed_int = int(seed) if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) else -1
    from models._base import as_generator

    rng = as_generator(seed)
    varied = model.sampled_inputs()
    pts = model.points()
    point = model.point()
    if progress:
        progress(0.0)
    if varied:
        u = unit_samples(len(varied), int(n), seed=rng, method=method)
        values = dict(pts)
        cols = {}
        for j, inp in enumerate(varied):
            cols[inp.name] = inp.dist.ppf(u[:, j])
            values[inp.name] = cols[inp.name]
        y = _eval(model, values, int(n))
        inputs = pd.DataFrame(cols)
    else:  # nothing varies: one evaluation, every sample is the point
        y = np.full(int(n), point)
        inputs = pd.DataFrame(index=range(int(n)))
    if progress:
        progress(0.5)
    tor = tornado(model)
    if progress:
        progress(0.7)
    sob = None
    if sobol:
        names = [i.name for i in varied]
        if names:

            def f(unit):
                vals = dict(pts)
                for j, inp in enumerate(varied):
                    vals[inp.name] = inp.dist.ppf(unit[:, j])
                return _eval(model, vals, len(unit))

            sob = sobol_indices(f, len(names), int(sobol_n or n), seed=rng, names=names)
        else:
            sob = pd.DataFrame(columns=SOBOL_COLUMNS)
        # zero-width inputs explain nothing (0); re-simulating ones were not sampled (NaN)
        rest = [i for i in model.inputs if i.name not in set(sob.parameter)]
        if rest:
            v = [np.nan if i.resimulates else 0.0 for i in rest]
            sob = pd.concat([sob, pd.DataFrame({"parameter": [i.name for i in rest], "S1": v, "ST": v})],
                            ignore_index=True)
        sob = sob.astype({"S1": float, "ST": float})
    if progress:
        progress(1.0)
    labels = {i.name: i.label for i in model.inputs}
    decisive = ""
    if sob is not None and sob["ST"].fillna(0).max() > 0:
        decisive = str(sob.loc[sob["ST"].fillna(-1).idxmax(), "parameter"])
    elif len(tor) and tor["swing"].iloc[0] > 0:
        decisive = str(tor["parameter"].iloc[0])
    p5, p50, p95 = (float(v) for v in np.percentile(y, [5, 50, 95]))
    finite = np.isfinite(y)
    notes = list(model.notes)
    held = [i.display() for i in model.inputs if i.resimulates]
    if held:
        notes.append("held at their point in the band (changing them re-runs the simulation; the tornado "
                     "re-simulates both ends): " + ", ".join(held))
    return UncertaintyResult(
        model=model.model, output=model.output, unit=model.unit, point=point, p5=p5, p50=p50, p95=p95,
        mean=float(y[finite].mean()) if finite.any() else float("nan"),
        p_verdict=float(model.verdict.holds(y).mean()) if model.verdict else float("nan"),
        verdict=model.verdict.statement if model.verdict else "", decisive=decisive,
        decisive_label=labels.get(decisive, ""), n=int(n), seed=seed_int, method=method, samples=y,
        inputs=inputs, tornado=tor, sobol=sob, notes=tuple(notes), output_label=model.output_label)


def fixed_input(name: str, label: str, unit: str, value: float) -> UncertainInput:
    """An input of zero width (a value the user set, or an exact one)."""
    return UncertainInput(name, label, unit, Fixed(float(value)), "")


def user_input(name: str, label: str, unit: str, value: float) -> UncertainInput:
    """A value the user typed: ``user-defined``, ranged like a published value (+- the
    ``uncertainty.device_band.published`` band, triangular).

    >>> user_input("t_ns", "cache access time", "ns", 100.0).dist.describe()
    'triangular 80..120'
    """
    from models.provenance import USER_DEFINED, param

    v = float(value)
    r = param("uncertainty.device_band.published").value
    lo, hi = sorted((v * (1 - r), v * (1 + r)))
    return UncertainInput(name, label, unit, from_provenance(USER_DEFINED, v, lo, hi), USER_DEFINED)


def sample_values(values: Mapping, name: str) -> np.ndarray:
    """The values of input ``name`` in a sample mapping (name -> value or array), as a float array
    [the input's unit]: what every adapter's evaluation reads.

    >>> sample_values({"x": [1, 2]}, "x").tolist()
    [1.0, 2.0]
    """
    return np.asarray(values[name], dtype=float)
