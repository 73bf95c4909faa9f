"""Provenance of every model constant: one registry, read by the models.

Every number a model uses that is not an input the user types -- a default of a model input
or a constant written in a model -- is registered here once, as a :class:`Param` with its
value, unit and :class:`Provenance`. The models read the value from the registry
(``param("memext.fault_overhead_ns").value``), so a value and the statement of where it
comes from cannot drift apart. Device numbers are not here: they live in
``data/devices.csv``, whose ``provenance`` column gives the kind of every value
(:attr:`models.devices.DeviceProfile.provenance`).

Kinds
-----
``measured here``
    Measured on our build machine; ``source`` names the data file and the program that
    measured it (``data/measurements/``).
``published``
    Taken from a publication; ``source`` cites it.
``computed``
    Computed by a formula from published or measured values; ``source`` gives the formula.
``derived from a seed result``
    Inverted from a result of one of the five seed papers (``source`` says which). A claim
    of that paper that this value was derived from cannot validate the model: it is
    circular.
``simulated``
    From a simulation, never a measurement: a paper's simulation output or parameter
    (``source`` names the paper and figure), or our own model run (``source`` names the script
    and its output under ``data/measurements/``).
``assumed``
    Our choice; ``source`` gives the one-line reason.

Every entry states a range ``low``..``high`` (for the uncertainty layer): the measured
spread, the range across sources or a stated band for published values, a wide stated range
for derived and assumed ones; ``range_note`` says which.

Modules
-------
- :mod:`models.provenance_kinds` (beside this package, below it and the device catalogue): the
  kind vocabulary and :func:`normalize_kind`;
- :mod:`~models.provenance.entries`: :class:`Provenance` and :class:`Param`;
- :mod:`~models.provenance.catalog`: the declarations, one module per domain (storage, memory,
  endurance, traces and simulators, planner and uncertainty), and the order they run in;
- :mod:`~models.provenance.registry`: :data:`PARAMS`, :func:`param`, :func:`param_names`,
  :func:`params_frame`;
- :mod:`~models.provenance.tables`: registry names and device values resolved
  (:func:`provenance_of`, :func:`device_keys`, :func:`provenance_table`,
  :func:`depends_on_unverified`), above the device catalogue.

The allow-list of numeric constants that are not parameters is the test's
(``tests/models/not_parameters.py``).

>>> param("file_cache.io_stack_factor").value, param("file_cache.io_stack_factor").kind
(1.3, 'published')
>>> param("memext.fault_overhead_paper_ns").provenance.kind
'derived from a seed result'
>>> set(params_frame().kind) <= set(KINDS)
True
"""

from __future__ import annotations

from models.provenance.entries import Param, Provenance
from models.provenance.registry import PARAMS, param, param_names, params_frame
from models.provenance.tables import _DEVICE_UNITS as _DEVICE_UNITS
from models.provenance.tables import (
    depends_on_unverified,
    device_keys,
    provenance_of,
    provenance_table,
    trace_keys,
    trace_values,
)
from models.provenance.tables import unit_of as unit_of
from models.provenance_kinds import (
    ASSUMED,
    COMPUTED,
    DERIVED,
    DEVICE_KINDS,
    KIND_ALIASES,
    KINDS,
    MEASURED,
    PUBLISHED,
    SIMULATED,
    USER_DEFINED,
    normalize_kind,
)
from models.provenance_kinds import UNVERIFIED as UNVERIFIED

__all__ = [
    "MEASURED",
    "PUBLISHED",
    "COMPUTED",
    "DERIVED",
    "SIMULATED",
    "ASSUMED",
    "USER_DEFINED",
    "KINDS",
    "DEVICE_KINDS",
    "KIND_ALIASES",
    "normalize_kind",
    "Provenance",
    "Param",
    "PARAMS",
    "param",
    "params_frame",
    "param_names",
    "provenance_of",
    "device_keys",
    "trace_keys",
    "trace_values",
    "depends_on_unverified",
    "provenance_table",
]
# ``X as X``: also read from here, outside __all__ (UNVERIFIED, unit_of by reporting/ and the app,
# _DEVICE_UNITS by models.uncertainty.core)
