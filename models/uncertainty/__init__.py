"""Uncertainty and sensitivity of every model: which assumption decides the answer.

An uncertain input is a distribution (uniform, log-uniform, triangular, normal, lognormal
or the empirical spread of measurements, :mod:`.distributions`) whose default comes from
the value's provenance (:mod:`models.provenance`, the device catalogue). Each model has
an adapter (:mod:`.adapters`) mapping its uncertain inputs to its headline output,
vectorised over samples; trace-driven models simulate once and vary the cost parameters
analytically. :func:`analyze` draws a scrambled Sobol' or Latin-hypercube design
(:mod:`.sampling`, keyword-only ``seed``) and returns the point estimate, p5/p50/p95, the
probability of the model's verdict, a tornado table and first-order/total Sobol' indices
(:mod:`.sobol`, Saltelli 2010 / Jansen estimators). :mod:`.registry` builds the adapter of
a CLI subcommand or app page by name. See ``docs/uncertainty.md``.

>>> from models.storage.uncertainty import hdd_model
>>> r = analyze(hdd_model("hdd-7200"), n=256, seed=0)
>>> r.p5 < r.point < r.p95, r.decisive
(True, 'device:hdd-7200.avg_seek_ns')
"""

from models.uncertainty.core import (
    SOBOL_COLUMNS,
    TORNADO_COLUMNS,
    UncertainInput,
    UncertainModel,
    UncertaintyResult,
    Verdict,
    analyze,
    device_input,
    device_value_range,
    fixed_input,
    param_input,
    tornado,
    user_input,
)
from models.uncertainty.distributions import (
    Distribution,
    Empirical,
    Fixed,
    LogNormal,
    LogUniform,
    Normal,
    Triangular,
    Uniform,
    from_provenance,
)
from models.uncertainty.sampling import unit_samples
from models.uncertainty.sobol import ishigami, ishigami_indices, sobol_indices

__all__ = [
    "adapters",
    "SOBOL_COLUMNS",
    "TORNADO_COLUMNS",
    "UncertainInput",
    "UncertaintyResult",
    "UncertainModel",
    "Verdict",
    "analyze",
    "device_input",
    "device_value_range",
    "fixed_input",
    "param_input",
    "tornado",
    "user_input",
    "Distribution",
    "Empirical",
    "Fixed",
    "LogNormal",
    "LogUniform",
    "Normal",
    "Triangular",
    "Uniform",
    "from_provenance",
    "unit_samples",
    "ishigami",
    "ishigami_indices",
    "sobol_indices",
]
