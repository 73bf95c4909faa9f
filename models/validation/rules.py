"""Rules that turn a computed value into a ledger status.

A claim's status is never set by hand: the claim names a rule, the runner applies it to the
paper's value and our computed :class:`Outcome`, and a circular claim (an input derived from
that same paper result) is capped so it is never ``reproduced``. The only status a claim may
state itself is ``not reproducible here`` (:class:`NotHere`), a property of the data we have.

Statuses
--------
``reproduced``            within the rule's tolerance (or the direction holds in every case asked for)
``partly``                within twice the tolerance on the paper's side (``tol**1.5`` for factor
                          tolerances), or the direction holds in at least half the cases asked for
                          and in more cases than the opposite does
``not reproduced``        outside that, without showing the opposite
``contradicted``          ours shows the opposite effect (other side of the reference value, or the
                          opposite direction in at least half of the cases)
``not reproducible here`` the data the claim needs is not available (e.g. the Android traces)
``circular``              a circular claim whose rule outcome was ``reproduced`` or ``partly``: the
                          agreement is (partly) built in, so it is no evidence
``check only``            an agreement that checks the input files (flowop counts of a personality),
                          catalogue arithmetic or a structural identity of the model (a property that
                          holds by construction), not a model reproduction; it keeps its row but is not
                          counted as reproduced
``not modelled``          the model lacks the term the claim is about: there is no value of ours (never 0)
``error``                 the computation failed (not a paper status; the ledger's tests fail on it)

Caps no rule can loosen (they cannot flatter)
---------------------------------------------
- A number is ``reproduced`` only within :data:`MAX_REPRODUCED_REL` (25 %) of the paper's, whatever the
  claim's own tolerance, and ``partly`` only within a factor :data:`MAX_PARTLY_FACTOR` (2) of it: a
  factor-2 rule no longer calls 361 vs "~200×" reproduced (it is partly), nor 26.9 vs 36.8 % (partly).
- A bound (:class:`AtMost`, :class:`AtLeast`) or a range (:class:`Between`) is ``partly`` only within a
  factor 2 of it.
- A value on the other side of a directional rule's ``ref`` (a slowdown for a claimed speedup) is
  ``contradicted``, never just ``not reproduced``.
- A mean over items (``Outcome.items``) is judged item by item too: when fewer than half of the items
  agree with the paper's, or the items go against the paper's (a negative correlation over three or more
  items), the mean agrees only by cancellation and is at most ``not reproduced``.
- A value computed on a degenerate sample (``Outcome.degenerate``: e.g. mostly unchanged pages) is at
  most ``not reproduced``, and the reason says so.

Every rule carries ``why``: the one-line justification of its tolerance, fixed with the claim
and not tuned to our number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.validation.numbers import fmt_number

__all__ = [
    "REPRODUCED",
    "PARTLY",
    "NOT_REPRODUCED",
    "CONTRADICTED",
    "NOT_HERE",
    "CIRCULAR",
    "CHECK_ONLY",
    "NOT_MODELLED",
    "ERROR",
    "MAX_REPRODUCED_REL",
    "MAX_PARTLY_FACTOR",
    "STATUSES",
    "Outcome",
    "Rule",
    "Near",
    "Between",
    "AtMost",
    "AtLeast",
    "Share",
    "NotHere",
    "Catalogue",
    "apply_circular",
    "apply_check",
    "cap_number",
    "judge_items",
]

REPRODUCED = "reproduced"
PARTLY = "partly"
NOT_REPRODUCED = "not reproduced"
CONTRADICTED = "contradicted"
NOT_HERE = "not reproducible here"
CIRCULAR = "circular"
CHECK_ONLY = "check only"
NOT_MODELLED = "not modelled"
ERROR = "error"
#: Statuses in display order (``error`` last: it is not a statement about the paper).
STATUSES: tuple[str, ...] = (REPRODUCED, PARTLY, NOT_REPRODUCED, CONTRADICTED, NOT_HERE, NOT_MODELLED, CIRCULAR,
                             CHECK_ONLY, ERROR)
#: The statuses that agree with the paper (what circular and check-only claims are capped from).
AGREEING: tuple[str, ...] = (REPRODUCED, PARTLY)
#: The most a reproduced number may differ from the paper's, relative [-] (whatever the claim's tolerance).
MAX_REPRODUCED_REL = 0.25
#: The most a partly reproduced number (or bound) may differ from the paper's, a factor [-].
MAX_PARTLY_FACTOR = 2.0


@dataclass(frozen=True)
class Outcome:
    """What a claim's computation returns.

    Attributes
    ----------
    value : float or None
        Our value in the claim's unit (``None`` only for ``not reproducible here``).
    opposite : float or None
        For :class:`Share` rules: the share of cases showing the opposite effect [-].
    note : str
        One computed sentence of detail (e.g. the per-case values), shown in the reason
        when the claim is not reproduced. Numbers in it are formatted from computed values.
    cases : str
        Short "k/n" description of the cases for :class:`Share` rules.
    items : tuple of (str, float, float)
        For a claim about a mean over items: ``(label, ours, paper's)`` of every item, judged one by
        one with the claim's rule (:func:`judge_items`), so a mean that agrees only by cancellation
        is not reproduced.
    degenerate : str
        Non-empty when the value was computed on a degenerate sample (what makes it so, e.g. "89.5 %
        of the page pairs are unchanged"): the claim is then at most ``not reproduced``.
    missing : str
        Non-empty when the model lacks the term the claim is about (which term): ``value`` is then
        None and the status ``not modelled`` (never an our-value of 0).
    """

    value: float | None
    opposite: float | None = None
    note: str = ""
    cases: str = ""
    items: tuple = ()
    degenerate: str = ""
    missing: str = ""


def _finite(x) -> bool:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(float(x))


def _side(x: float, ref: float, eps: float) -> int:
    """-1, 0 or +1: where ``x`` lies relative to ``ref`` (0 within ``eps``)."""
    if x > ref + eps:
        return 1
    if x < ref - eps:
        return -1
    return 0


@dataclass(frozen=True)
class Rule:
    """Base class: ``judge(paper, outcome) -> status``, ``text(paper) -> str``."""

    why: str = ""

    def judge(self, paper, outcome: Outcome) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def text(self, paper) -> str:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass(frozen=True)
class Near(Rule):
    """Ours within ``tol`` of the paper's number.

    ``scale``: ``"abs"`` (``|ours - paper| <= tol``, in the claim's unit), ``"rel"``
    (``|ours / paper - 1| <= tol``) or ``"factor"`` (``max(ours/paper, paper/ours) <= tol``).
    ``partly`` when within twice the tolerance (``tol**1.5`` for factors: ``tol**2`` would
    double the log-width and let a factor-2 rule call a 4× gap partly) *and* on the paper's
    side of ``ref``. A relative rule against a paper value of 0 compares absolutely (there is
    no relative deviation from 0): ``|ours| <= tol``. With ``ref`` (e.g. 0 for a gain, 1 for a speedup) ours on the other side
    of ``ref`` is ``contradicted``, and ours at ``ref`` (within ``ref_eps``) shows no effect at
    all, so it is ``not reproduced`` whatever the tolerance.

    >>> r = Near(tol=10, scale="abs", ref=0, why="t")
    >>> [r.judge(47.1, Outcome(v)) for v in (40.0, 30.0, 20.0, -5.0)]
    ['reproduced', 'partly', 'not reproduced', 'contradicted']
    >>> f = Near(tol=2, scale="factor", ref=1, why="t")
    >>> [f.judge(500, Outcome(v)) for v in (450.0, 300.0, 200.0, 1.0, 0.5)]
    ['reproduced', 'partly', 'not reproduced', 'not reproduced', 'contradicted']

    Whatever the tolerance, :func:`cap_number` keeps ``reproduced`` within 25 % of the paper's number
    and ``partly`` within a factor 2 (300 is inside the factor-2 rule but 40 % off: partly).
    """

    tol: float = 0.0
    scale: str = "abs"
    ref: float | None = None
    ref_eps: float = 1e-3

    def __post_init__(self):
        if self.scale not in ("abs", "rel", "factor"):
            raise ValueError(f"scale must be abs, rel or factor (got {self.scale!r})")
        if self.scale == "factor" and self.tol < 1:
            raise ValueError("a factor tolerance must be >= 1")

    def _dev(self, paper: float, v: float) -> float:
        if self.scale == "abs":
            return abs(v - paper)
        if self.scale == "rel":
            if paper == 0:
                return abs(v)
            return abs(v / paper - 1.0)
        if v <= 0 or paper <= 0:
            return math.inf
        return max(v / paper, paper / v)

    def judge(self, paper, outcome: Outcome) -> str:
        v = outcome.value
        if not _finite(v):
            return NOT_REPRODUCED
        v, p = float(v), float(paper)
        if self.ref is not None:
            eps = self.ref_eps * max(1.0, abs(self.ref))
            s_ours, s_paper = _side(v, self.ref, eps), _side(p, self.ref, eps)
            if s_ours == 0:
                return NOT_REPRODUCED
            if s_ours == -s_paper:
                return CONTRADICTED
        d = self._dev(p, v)
        if d <= self.tol:
            return cap_number(REPRODUCED, p, v)
        wide = self.tol**1.5 if self.scale == "factor" else 2 * self.tol
        return cap_number(PARTLY, p, v) if d <= wide else NOT_REPRODUCED

    def text(self, paper) -> str:
        p = _num(paper)
        if self.scale == "abs":
            s = f"|ours − {p}| ≤ {_num(self.tol)} (partly ≤ {_num(2 * self.tol)})"
        elif self.scale == "rel":
            s = f"|ours / {p} − 1| ≤ {_num(self.tol)} (partly ≤ {_num(2 * self.tol)})"
        else:
            s = f"within a factor {_num(self.tol)} of {p} (partly {_num(self.tol ** 1.5)})"
        s += _CAPS_TEXT
        if self.ref is not None:
            s += f"; other side of {_num(self.ref)}: contradicted"
        return s


@dataclass(frozen=True)
class Between(Rule):
    """Ours inside the paper's range ``paper = (lo, hi)``; ``partly`` within ``slack`` of it.

    With ``ref``, ours strictly on the other side of ``ref`` from the whole range is
    ``contradicted``; a range that starts (or ends) at ``ref``, like "less than 3 %" read as
    ``(0, 3)`` with ``ref=0``, is contradicted by any value beyond ``ref``.

    >>> r = Between(slack=5, ref=0, why="t")
    >>> [r.judge((5, 10), Outcome(v)) for v in (7.0, 13.0, 20.0, -1.0)]
    ['reproduced', 'partly', 'not reproduced', 'contradicted']
    >>> Between(slack=3, ref=0, why="t").judge((0, 3), Outcome(-14.6))
    'contradicted'
    """

    slack: float = 0.0
    ref: float | None = None

    def judge(self, paper, outcome: Outcome) -> str:
        v = outcome.value
        if not _finite(v):
            return NOT_REPRODUCED
        lo, hi = (float(x) for x in paper)
        v = float(v)
        if self.ref is not None:
            if (lo >= self.ref and v < self.ref) or (hi <= self.ref and v > self.ref):
                return CONTRADICTED
        if lo <= v <= hi:
            return REPRODUCED
        if lo - self.slack <= v <= hi + self.slack:
            return _cap_bound(PARTLY, lo if v < lo else hi, v)
        return NOT_REPRODUCED

    def text(self, paper) -> str:
        lo, hi = paper
        s = f"{_num(lo)} ≤ ours ≤ {_num(hi)} (partly within ±{_num(self.slack)})"
        if self.ref is not None:
            s += f"; other side of {_num(self.ref)}: contradicted"
        return s


@dataclass(frozen=True)
class AtMost(Rule):
    """The paper bounds the value from above (``paper`` is the bound): ours ≤ bound;
    ``partly`` up to ``bound + slack``.

    >>> r = AtMost(slack=1, why="t")
    >>> [r.judge(1.0, Outcome(v)) for v in (0.5, 1.8, 3.0)]
    ['reproduced', 'partly', 'not reproduced']
    """

    slack: float = 0.0
    ref: float | None = None

    def judge(self, paper, outcome: Outcome) -> str:
        v = outcome.value
        if not _finite(v):
            return NOT_REPRODUCED
        b = float(paper)
        if self.ref is not None and b <= self.ref < v:
            return CONTRADICTED
        if v <= b:
            return REPRODUCED
        return _cap_bound(PARTLY, b, v) if v <= b + self.slack else NOT_REPRODUCED

    def text(self, paper) -> str:
        s = f"ours ≤ {_num(paper)} (partly ≤ {_num(float(paper) + self.slack)}, within 2×)"
        if self.ref is not None:
            s += f"; above {_num(self.ref)}: contradicted"
        return s


@dataclass(frozen=True)
class AtLeast(Rule):
    """The paper bounds the value from below: ours ≥ bound; ``partly`` down to ``bound - slack``.

    >>> r = AtLeast(slack=1, why="t")
    >>> [r.judge(2.0, Outcome(v)) for v in (4.0, 1.5, 0.0)]
    ['reproduced', 'partly', 'not reproduced']
    """

    slack: float = 0.0
    ref: float | None = None

    def judge(self, paper, outcome: Outcome) -> str:
        v = outcome.value
        if not _finite(v):
            return NOT_REPRODUCED
        b = float(paper)
        if self.ref is not None and v < self.ref <= b:
            return CONTRADICTED
        if v >= b:
            return REPRODUCED
        return _cap_bound(PARTLY, b, v) if v >= b - self.slack else NOT_REPRODUCED

    def text(self, paper) -> str:
        s = f"ours ≥ {_num(paper)} (partly ≥ {_num(float(paper) - self.slack)}, within 2×)"
        if self.ref is not None:
            s += f"; below {_num(self.ref)}: contradicted"
        return s


@dataclass(frozen=True)
class Share(Rule):
    """A direction claim checked case by case; ``value`` = share of cases where it holds.

    ``reproduced`` when the share reaches ``required`` (1 = every case; the paper's own share
    when it says "most" or "all but one"); else ``contradicted`` when at least half of the
    cases show the opposite (``Outcome.opposite``); else ``partly`` when the share reaches
    half of ``required`` and exceeds the opposite share; else ``not reproduced`` (a single
    holding case among many is no partial agreement).

    >>> r = Share(required=1.0, why="t")
    >>> [r.judge("dir", Outcome(v, o)) for v, o in ((1.0, 0.0), (0.75, 0.25), (0.5, 0.5), (0.25, 0.0), (0.0, 0.0))]
    ['reproduced', 'partly', 'contradicted', 'not reproduced', 'not reproduced']
    """

    required: float = 1.0

    def judge(self, paper, outcome: Outcome) -> str:
        v = outcome.value
        if not _finite(v):
            return NOT_REPRODUCED
        if v >= self.required - 1e-12:
            return REPRODUCED
        if outcome.opposite is not None and outcome.opposite >= 0.5 - 1e-12:
            return CONTRADICTED
        if v >= self.required / 2 - 1e-12 and v > (outcome.opposite or 0.0):
            return PARTLY
        return NOT_REPRODUCED

    def text(self, paper) -> str:
        if self.required >= 1:
            return ("holds in every case (partly: in ≥ 50 % and more often than the opposite; opposite in "
                    "≥ 50 %: contradicted)")
        return (f"holds in ≥ {self.required:.0%} of the cases (partly: in ≥ {self.required / 2:.0%} and more "
                "often than the opposite; opposite in ≥ 50 %: contradicted)")


@dataclass(frozen=True)
class NotHere(Rule):
    """The data the claim needs is not available here: status ``not reproducible here``.

    >>> NotHere(why="no Android traces").judge(None, Outcome(None))
    'not reproducible here'
    """

    def judge(self, paper, outcome: Outcome) -> str:
        return NOT_HERE

    def text(self, paper) -> str:
        return "no data to compute it"


@dataclass(frozen=True)
class Catalogue(Rule):
    """A catalogue check: our value is arithmetic on device-catalogue entries, not a model run.

    ``inner`` judges the value; when any entry it rests on is *assumed* or *simulated* in
    ``data/devices.csv`` (listed in ``assumed`` as ``device.column``), agreement proves nothing about
    the paper, so ``reproduced`` is capped at ``partly`` (the reason says which value it is).

    >>> r = Catalogue(inner=AtMost(slack=1, why="t"), assumed=("sata-ssd.read_latency_ns",), why="t")
    >>> r.judge(3.0, Outcome(2.9)), r.judge(3.0, Outcome(3.5)), r.judge(3.0, Outcome(9.0))
    ('partly', 'partly', 'not reproduced')
    >>> Catalogue(inner=AtMost(why="t"), why="t").judge(3.0, Outcome(2.9))
    'reproduced'
    """

    inner: Rule | None = None
    assumed: tuple[str, ...] = ()

    def __post_init__(self):
        if self.inner is None:
            raise ValueError("a catalogue check needs the rule that judges its value (inner=...)")

    def judge(self, paper, outcome: Outcome) -> str:
        status = self.inner.judge(paper, outcome)
        if self.assumed and status == REPRODUCED:
            return PARTLY
        return status

    def text(self, paper) -> str:
        s = self.inner.text(paper) + "; a catalogue check"
        if self.assumed:
            s += f", at most partly: rests on assumed or simulated catalogue value(s) {', '.join(self.assumed)}"
        return s


def cap_number(status: str, paper: float, ours: float) -> str:
    """``status`` of a number capped so it cannot flatter: ``reproduced`` only within
    :data:`MAX_REPRODUCED_REL` of the paper's value, ``partly`` only within a factor
    :data:`MAX_PARTLY_FACTOR` (a paper value of 0 has no relative deviation: unchanged).

    >>> cap_number("reproduced", 200.0, 361.0), cap_number("reproduced", 36.8, 26.91)
    ('partly', 'partly')
    >>> cap_number("reproduced", 200.0, 240.0), cap_number("partly", 200.0, 450.0), cap_number("partly", 2.0, -1.0)
    ('reproduced', 'not reproduced', 'not reproduced')
    """
    p, v = float(paper), float(ours)
    if status not in AGREEING or p == 0:
        return status
    ratio = v / p
    if ratio <= 0:
        return NOT_REPRODUCED
    if status == REPRODUCED and abs(ratio - 1.0) > MAX_REPRODUCED_REL + 1e-12:
        status = PARTLY
    if status == PARTLY and max(ratio, 1.0 / ratio) > MAX_PARTLY_FACTOR + 1e-12:
        status = NOT_REPRODUCED
    return status


def _cap_bound(status: str, bound: float, ours: float) -> str:
    """``partly`` of a bound or range end only within a factor 2 of it (bounds of one sign; a bound of 0
    or of the other sign: unchanged)."""
    b, v = float(bound), float(ours)
    if status != PARTLY or b == 0 or v == 0 or (b > 0) != (v > 0):
        return status
    r = v / b
    return status if max(r, 1.0 / r) <= MAX_PARTLY_FACTOR + 1e-12 else NOT_REPRODUCED


def judge_items(rule: Rule, items, status: str) -> tuple[str, str]:
    """The status of a mean over ``items`` (``(label, ours, paper's)``; the paper's a number or a
    ``(low, high)`` range, its middle for the correlation), each item judged with ``rule``:
    an agreeing mean is capped at ``not reproduced`` when fewer than half of the items agree, or when
    the items run against the paper's (Pearson correlation < 0 over three or more items), and at
    ``partly`` when exactly half agree (a mean needs a majority of agreeing items to be reproduced). Returns
    ``(status, note)``; the note says why when the cap applies.

    >>> r = Near(tol=10, scale="abs", ref=0, why="t")
    >>> judge_items(r, [("a", 40.0, 45.0), ("b", 50.0, 47.0), ("c", 30.0, 33.0)], "reproduced")[0]
    'reproduced'
    >>> s, note = judge_items(r, [("a", 90.0, 10.0), ("b", 10.0, 60.0), ("c", 20.0, 50.0)], "reproduced")
    >>> s, note.split(":")[0]
    ('not reproduced', 'Agrees only on average')
    >>> judge_items(r, [("a", 40.0, 45.0), ("b", 90.0, 10.0)], "reproduced")[0]
    'partly'
    """
    items = [(str(a), float(o), tuple(float(x) for x in p) if isinstance(p, tuple) else float(p))
             for a, o, p in items]
    if status not in AGREEING or not items:
        return status, ""
    agree = [lab for lab, o, p in items if rule.judge(p, Outcome(o)) in AGREEING]
    ours = [o for _, o, _ in items]
    theirs = [sum(p) / len(p) if isinstance(p, tuple) else p for _, _, p in items]  # a range: its middle
    corr = math.nan
    if len(items) >= 3:
        import numpy as np

        if np.std(ours) > 0 and np.std(theirs) > 0:
            corr = float(np.corrcoef(ours, theirs)[0, 1])
    if 2 * len(agree) > len(items) and not corr < 0:
        return status, ""
    corr_text = f"; per-item correlation with the paper {corr:+.2f}" if corr == corr else ""
    if 2 * len(agree) == len(items) and not corr < 0:
        return PARTLY, (f"Agrees on average, but only half of the items agree with the paper's ({len(agree)} of "
                        f"{len(items)}: {', '.join(agree)}){corr_text}: not a majority, so at most partly.")
    corr_text = f"; per-item correlation with the paper {corr:+.2f}" if corr == corr else ""
    return NOT_REPRODUCED, (f"Agrees only on average: {len(agree)} of {len(items)} items agree with the paper's "
                            f"({', '.join(agree) or 'none'}){corr_text}.")


def apply_check(status: str, check: bool) -> str:
    """A check that is not a model reproduction: an agreement becomes ``check only``.

    >>> apply_check("reproduced", True), apply_check("partly", True), apply_check("contradicted", True)
    ('check only', 'check only', 'contradicted')
    """
    if check and status in AGREEING:
        return CHECK_ONLY
    return status


def apply_circular(status: str, circular: bool) -> str:
    """Cap a circular claim: an agreement (``reproduced`` or ``partly``) becomes ``circular``.

    >>> apply_circular("reproduced", True), apply_circular("partly", True), apply_circular("reproduced", False)
    ('circular', 'circular', 'reproduced')
    >>> apply_circular("not reproduced", True)
    'not reproduced'
    """
    if circular and status in (REPRODUCED, PARTLY):
        return CIRCULAR
    return status


_CAPS_TEXT = (f"; reproduced only within {MAX_REPRODUCED_REL:.0%} of the paper's number, partly within "
              f"{MAX_PARTLY_FACTOR:g}×")


def _num(x) -> str:
    return fmt_number(float(x))
