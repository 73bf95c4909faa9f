"""One registry entry: a :class:`Param` (name, value, unit, what it is) and its :class:`Provenance`."""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.provenance_kinds import KINDS

__all__ = ["Provenance", "Param"]


@dataclass(frozen=True)
class Provenance:
    """Where a number comes from.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    source : str
        ``measured here``: data file and the program that measured it; ``published``: the
        citation; ``derived from a seed result``: which seed result and how; ``assumed``: a
        one-line reason.
    low, high : float
        Stated range of the value (same unit), ``low <= value <= high``.
    range_note : str
        How the range was stated (measured spread, range across sources, a stated band).
    seed : str
        Seed paper (``"000"`` ... ``"004"``, :mod:`models.references`) the value comes from
        or was derived from; ``""`` when none.
    """

    kind: str
    source: str
    low: float
    high: float
    range_note: str = ""
    seed: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if not self.source.strip():
            raise ValueError("source must name where the value comes from")
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low <= self.high):
            raise ValueError(f"range must be finite with low <= high (got {self.low}..{self.high})")

    def label(self) -> str:
        """``"[kind: source]"``, as appended to the app's help texts."""
        return f"[{self.kind}: {self.source}]"


@dataclass(frozen=True)
class Param:
    """One registered model constant.

    Attributes
    ----------
    name : str
        Registry key, ``"<model>.<constant>"``.
    value : int or float
        The value the models use.
    unit : str
        Unit (``"ns"``, ``"bytes"``, ``"-"`` for a pure number).
    description : str
        What it is.
    provenance : Provenance
    """

    name: str
    value: float
    unit: str
    description: str
    provenance: Provenance

    def __post_init__(self) -> None:
        v = float(self.value)
        if not math.isfinite(v):
            raise ValueError(f"{self.name}: value must be finite")
        if not self.provenance.low <= v <= self.provenance.high:
            raise ValueError(f"{self.name}: value {v:g} outside its stated range "
                             f"{self.provenance.low:g}..{self.provenance.high:g}")
        if not self.unit:
            raise ValueError(f"{self.name}: give a unit ('-' for a pure number)")

    @property
    def kind(self) -> str:
        """The provenance kind."""
        return self.provenance.kind

    def label(self) -> str:
        """``"[kind: source]"``."""
        return self.provenance.label()
