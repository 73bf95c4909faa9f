"""The provenance kinds: the vocabulary of the registry (:mod:`models.provenance`) and of the device catalogue.

A module of its own, below both: the device catalogue (:mod:`models.devices`) reads the kinds of
its values here, and the registry's tables (:mod:`models.provenance.tables`) read the catalogue.

``measured here``
    Measured on our build machine; the source names the data file and the program that measured it.
``published``
    Taken from a publication; the source cites it.
``derived from a seed result``
    Inverted from a result of one of the five seed papers (the source says which): a claim of that
    paper resting on it is circular.
``computed``
    Computed by a formula from published or measured values (unit conversions beyond a power of
    ten, products, sums, averages over a published curve); the source gives the formula and its
    inputs. As trustworthy as its inputs; not a seed result inverted (that is ``derived``).
``simulated``
    A number from a simulation, not from hardware: a paper's simulation output or a parameter a paper
    (or a simulator's configuration) set for its simulation (the source names the paper and
    section/figure, or the configuration file), or our own model run (the source names the script
    and its output under ``data/measurements/``). Never a measurement.
``assumed``
    Our choice; the source gives the one-line reason.
``user-defined``
    A number the user typed (custom devices, overridden inputs); never in the registry.

>>> KINDS
('measured here', 'published', 'computed', 'derived from a seed result', 'simulated', 'assumed')
"""

from __future__ import annotations

__all__ = ["MEASURED", "PUBLISHED", "COMPUTED", "DERIVED", "SIMULATED", "ASSUMED", "USER_DEFINED", "KINDS",
           "DEVICE_KINDS", "KIND_ALIASES",
           "UNVERIFIED", "normalize_kind"]

MEASURED = "measured here"
PUBLISHED = "published"
COMPUTED = "computed"
DERIVED = "derived from a seed result"
SIMULATED = "simulated"
ASSUMED = "assumed"
#: Kind of a number the user typed (custom devices, overridden inputs); never in the registry.
USER_DEFINED = "user-defined"
#: The kinds of a registry entry.
KINDS: tuple[str, ...] = (MEASURED, PUBLISHED, COMPUTED, DERIVED, SIMULATED, ASSUMED)
#: The kinds of a device-catalogue value (the registry's, plus values the user typed).
DEVICE_KINDS: tuple[str, ...] = (*KINDS, USER_DEFINED)
#: Short spellings accepted where a kind is written by hand (``data/devices.csv``).
KIND_ALIASES: dict[str, str] = {"measured": MEASURED, "published": PUBLISHED, "computed": COMPUTED,
                                "derived": DERIVED, "simulated": SIMULATED, "assumed": ASSUMED,
                                "user-defined": USER_DEFINED, "user": USER_DEFINED}
#: Kinds a planner should double-check (the "depends on derived/simulated/assumed values" notes): no
#: hardware stands behind them (a seed result inverted, a simulation, our choice).
UNVERIFIED: tuple[str, ...] = (DERIVED, SIMULATED, ASSUMED)


def normalize_kind(kind: str, *, allowed: tuple[str, ...] = DEVICE_KINDS) -> str:
    """The full kind for ``kind`` (a full kind or a short alias); ValueError listing the valid ones.

    >>> normalize_kind("derived"), normalize_kind("published")
    ('derived from a seed result', 'published')
    """
    k = KIND_ALIASES.get(str(kind).strip().lower(), str(kind).strip())
    if k not in allowed:
        valid = sorted({a for a, full in KIND_ALIASES.items() if full in allowed} | set(allowed))
        raise ValueError(f"unknown provenance kind {kind!r}; valid: {', '.join(valid)}")
    return k
