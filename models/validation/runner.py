"""Run the claims: compute, apply the rule, cap circular claims, write the reason.

Shared computations (a write-cache sweep, a paging profile) are cached for the process by
:mod:`models.validation.shared`, so the whole ledger runs each of them once.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable, Sequence

from models.validation.core import Claim, ClaimResult
from models.validation.rules import (
    AGREEING,
    CHECK_ONLY,
    CIRCULAR,
    ERROR,
    NOT_HERE,
    NOT_MODELLED,
    NOT_REPRODUCED,
    REPRODUCED,
    STATUSES,
    Catalogue,
    NotHere,
    Outcome,
    apply_check,
    apply_circular,
    judge_items,
)

__all__ = ["all_claims", "select_claims", "run_claim", "run_ledger", "reason_for", "judge_claim", "clear_caches"]


def all_claims() -> list[Claim]:
    """Every claim of the registry, seed by seed (``ValueError`` on a duplicate id)."""
    from models.validation import claims_000, claims_001, claims_002, claims_003, claims_004

    out: list[Claim] = []
    for mod in (claims_000, claims_001, claims_002, claims_003, claims_004):
        out.extend(mod.CLAIMS)
    seen: set[str] = set()
    for c in out:
        if c.claim_id in seen:
            raise ValueError(f"duplicate claim id {c.claim_id}")
        seen.add(c.claim_id)
    return out


def select_claims(seeds: Iterable[str] | None = None, ids: Iterable[str] | None = None) -> list[Claim]:
    """Claims of the given seeds and/or ids (``KeyError`` naming unknown ones)."""
    claims = all_claims()
    if seeds:
        seeds = [str(s).zfill(3) for s in seeds]
        known = {c.seed for c in claims}
        bad = [s for s in seeds if s not in known]
        if bad:
            raise KeyError(f"unknown seed(s) {', '.join(bad)}; valid: {', '.join(sorted(known))}")
        claims = [c for c in claims if c.seed in seeds]
    if ids:
        ids = list(ids)
        by_id = {c.claim_id: c for c in claims}
        bad = [i for i in ids if i not in by_id]
        if bad:
            raise KeyError(f"unknown claim id(s) {', '.join(bad)}")
        claims = [by_id[i] for i in ids]
    return claims


def reason_for(claim: Claim, outcome: Outcome, status: str, rule_status: str, cap_note: str = "") -> str:
    """One or two sentences whenever the claim is not reproduced (empty when it is, unless its model variant
    is flagged). ``cap_note``: why a cap (items, a degenerate sample) moved the rule's status."""
    variant = f"Model variant: {claim.variant.rstrip('.')}." if claim.variant else ""
    if status == REPRODUCED:
        return variant
    if status == NOT_HERE:
        return claim.rule.why
    if status == NOT_MODELLED:
        return " ".join(p for p in (f"Not modelled: {outcome.missing.rstrip('.')}.", outcome.note) if p).strip()
    parts = []
    if claim.is_circular:
        parts.append(f"Circular: {claim.circular.rstrip('.')}.")
        if status == CIRCULAR:
            parts.append(f"The rule alone says {rule_status}.")
    if status == CHECK_ONLY:
        what = claim.check or "catalogue arithmetic (data/devices.csv), not a model run"
        parts.append(f"Check only, not a model reproduction: {what.rstrip('.')}. The rule alone says {rule_status}.")
    rule = claim.rule
    capped = isinstance(rule, Catalogue) and rule.assumed and rule.inner.judge(claim.paper, outcome) == REPRODUCED
    if isinstance(rule, Catalogue) and rule.assumed:
        parts.append(f"Catalogue check, not a model run: rests on assumed or simulated catalogue value(s) "
                     f"({', '.join(rule.assumed)} in data/devices.csv), so it counts as partly at most.")
    if cap_note:
        parts.append(cap_note)
    if status not in (CIRCULAR, CHECK_ONLY):
        if not capped and not cap_note:
            parts.append(claim.why_differs or f"Outside the rule: {claim.rule.text(claim.paper)}.")
        if outcome.note:
            parts.append(outcome.note)
    if variant:
        parts.append(variant)
    text = " ".join(p.strip() for p in parts if p.strip())
    return text if text.endswith(".") or text.endswith(")") else text + "."


def judge_claim(claim: Claim, outcome: Outcome) -> tuple[str, str, str]:
    """``(status, rule status, cap note)`` of ``claim`` with ``outcome``: the rule, then the caps that cannot
    flatter (a mean that agrees only by cancellation, a degenerate sample), then check-only and circular."""
    if outcome.missing:
        if outcome.value is not None:
            raise ValueError(f"{claim.claim_id}: a term that is not modelled has no value of ours")
        return NOT_MODELLED, NOT_MODELLED, ""
    rule_status = claim.rule.judge(claim.paper, outcome)
    if rule_status not in STATUSES:
        raise ValueError(f"{claim.claim_id}: the rule returned an unknown status {rule_status!r}")
    status, note = judge_items(claim.rule, outcome.items, rule_status)
    if outcome.degenerate and status in AGREEING:
        status = NOT_REPRODUCED
        note = (note + " " if note else "") + (f"Computed on a degenerate sample ({outcome.degenerate.rstrip('.')}): "
                                               "no evidence either way.")
    status = apply_check(status, claim.is_check)
    if status != CHECK_ONLY:
        status = apply_circular(status, claim.is_circular)
    return status, rule_status, note


def run_claim(claim: Claim, *, strict: bool = False) -> ClaimResult:
    """Compute one claim and judge it. ``strict``: let a failing computation raise."""
    t0 = time.perf_counter()
    if isinstance(claim.rule, NotHere):
        out = Outcome(None)
        return ClaimResult(claim, out, NOT_HERE, reason_for(claim, out, NOT_HERE, NOT_HERE),
                           time.perf_counter() - t0, NOT_HERE)
    try:
        out = claim.compute()
        if not isinstance(out, Outcome):
            raise TypeError(f"{claim.claim_id}: compute() must return an Outcome, got {type(out).__name__}")
    except Exception as e:  # noqa: BLE001 - reported as an "error" row unless strict
        if strict:
            raise
        last = traceback.extract_tb(e.__traceback__)[-1]
        msg = f"computation failed: {type(e).__name__}: {e} ({last.filename.rsplit('/', 1)[-1]}:{last.lineno})"
        return ClaimResult(claim, Outcome(None), ERROR, msg, time.perf_counter() - t0, ERROR)
    status, rule_status, note = judge_claim(claim, out)
    return ClaimResult(claim, out, status, reason_for(claim, out, status, rule_status, note),
                       time.perf_counter() - t0, rule_status)


def clear_caches() -> None:
    """Drop the computations shared within a run (traces, sweeps, profiles: up to ~2 GB)."""
    from models.validation import claims_000, claims_001, claims_002, claims_003, claims_004, shared

    for mod in (shared, claims_000, claims_001, claims_002, claims_003, claims_004):
        for obj in vars(mod).values():
            if callable(getattr(obj, "cache_clear", None)):
                obj.cache_clear()


def run_ledger(claims: Sequence[Claim] | None = None, *, seeds: Iterable[str] | None = None,
               progress: Callable[[int, int, Claim, float | None], None] | None = None,
               strict: bool = False, keep_cache: bool = False) -> list[ClaimResult]:
    """Run ``claims`` (default: every claim of ``seeds``, or all) in registry order.

    ``progress(k, n, claim, seconds)`` is called before each claim (``seconds`` None) and after
    it (its run time [s]). Shared computations are cached for the run and dropped after it
    unless ``keep_cache``.
    """
    todo = list(claims) if claims is not None else select_claims(seeds)
    out = []
    try:
        for k, c in enumerate(todo, 1):
            if progress:
                progress(k, len(todo), c, None)
            r = run_claim(c, strict=strict)
            out.append(r)
            if progress:
                progress(k, len(todo), c, r.seconds)
    finally:
        if not keep_cache:
            clear_caches()
    return out
