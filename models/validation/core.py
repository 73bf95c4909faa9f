"""A claim of a seed paper and its check: the ledger's unit.

A :class:`Claim` holds what the paper says (``paper``, typed from the paper's text, with its
location ``where``) and how we check it: ``compute`` runs our models on named bundled data
and returns an :class:`~models.validation.rules.Outcome` (our value is never typed), and
``rule`` turns paper value and outcome into a status. ``circular`` names the input that was
derived from this same paper result, if any; such a claim is never ``reproduced``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from models.validation.rules import NotHere, Outcome, Rule

__all__ = ["Claim", "ClaimResult", "Paper", "share"]

#: The paper's value: a number, a ``(low, high)`` range, or a direction in words.
Paper = float | tuple[float, float] | str | None


@dataclass(frozen=True)
class Claim:
    """One quantitative or directional claim of a seed paper.

    Attributes
    ----------
    claim_id : str
        ``<seed>-<where>-<what>``, e.g. ``003-fig9-sfc-life-rate``; unique in the ledger.
    seed : str
        ``"000"`` ... ``"004"``.
    where : str
        Figure / table / section of the paper.
    statement : str
        Short paraphrase of the claim.
    paper : float, (float, float), str or None
        The paper's number, range or direction (what the rule compares with).
    unit : str
        Unit of ``paper`` and of our value ("%", "×", "years", "-" ...).
    rule : Rule
        Tolerance or direction test, with its one-line justification (``rule.why``).
    compute : callable or None
        ``() -> Outcome``: runs the models (None only with a :class:`NotHere` rule).
    data : str
        What the computation runs on; a synthetic stand-in for a paper trace says so.
    paper_text : str
        Display of the paper's value when the number alone misleads ("up to 500").
    circular : str
        Non-empty when an input of the computation was derived from this same paper result:
        which input and how.
    why_differs : str
        Why ours may differ (used in the reason when the claim is not reproduced).
    page : str
        URL path of the app page of the model checked (for the page's status strip).
    check : str
        Non-empty when the claim checks the input files, catalogue arithmetic or a structural identity
        of the model rather than a model result (what it checks): an agreement is then ``check only``,
        not ``reproduced``. A :class:`~models.validation.rules.Catalogue` rule is a check by itself.
    variant : str
        Non-empty when the model variant the claim runs is kept (as the default) because it is closer to
        the paper than another reading: which variant and the other reading's value (flagged in the
        reason, whatever the status).
    """

    claim_id: str
    seed: str
    where: str
    statement: str
    paper: Paper
    unit: str
    rule: Rule
    compute: Callable[[], Outcome] | None
    data: str
    paper_text: str = ""
    circular: str = ""
    why_differs: str = ""
    page: str = ""
    check: str = ""
    variant: str = ""

    def __post_init__(self):
        if not self.claim_id.startswith(f"{self.seed}-"):
            raise ValueError(f"{self.claim_id}: claim ids start with the seed ({self.seed}-)")
        if self.compute is None and not isinstance(self.rule, NotHere):
            raise ValueError(f"{self.claim_id}: only a NotHere rule may come without a computation")
        if isinstance(self.rule, NotHere) and not self.rule.why:
            raise ValueError(f"{self.claim_id}: say why the claim is not reproducible here")
        if not self.rule.why:
            raise ValueError(f"{self.claim_id}: the rule needs a one-line justification (why=...)")
        if not self.data:
            raise ValueError(f"{self.claim_id}: name the data the claim runs on")

    @property
    def is_circular(self) -> bool:
        return bool(self.circular)

    @property
    def is_check(self) -> bool:
        """A check of inputs, catalogue arithmetic or a structural identity, not a model reproduction."""
        from models.validation.rules import Catalogue

        return bool(self.check) or isinstance(self.rule, Catalogue)


@dataclass(frozen=True)
class ClaimResult:
    """A claim after its run: outcome, status, reason and run time [s]."""

    claim: Claim
    outcome: Outcome
    status: str
    reason: str
    seconds: float
    rule_status: str = ""


def share(cases: list[tuple[str, int]], *, unit_label: str = "cases") -> Outcome:
    """Outcome of a direction claim from its cases ``(label, +1 holds / 0 neither / -1 opposite)``.

    >>> o = share([("a", 1), ("b", -1), ("c", 0), ("d", 1)])
    >>> o.value, o.opposite, o.cases
    (0.5, 0.25, '2/4 cases')
    >>> o.note
    'Holds: a, d; opposite: b; neither: c.'
    """
    if not cases:
        raise ValueError("a direction claim needs at least one case")
    n = len(cases)
    hold = [lab for lab, v in cases if v > 0]
    opp = [lab for lab, v in cases if v < 0]
    nei = [lab for lab, v in cases if v == 0]
    parts = []
    for name, labs in (("Holds", hold), ("opposite", opp), ("neither", nei)):
        if labs:
            parts.append(f"{name}: {', '.join(labs)}")
    note = "; ".join(parts)
    note = note[0].upper() + note[1:] + "." if note else ""
    return Outcome(len(hold) / n, len(opp) / n, note, f"{len(hold)}/{n} {unit_label}")
