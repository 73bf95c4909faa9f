"""Rule functions of the validation ledger, on crafted values (no model runs)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.validation.core import Claim, share
from models.validation.render import fmt_number
from models.validation.rules import (
    CIRCULAR,
    CONTRADICTED,
    NOT_HERE,
    NOT_REPRODUCED,
    PARTLY,
    REPRODUCED,
    STATUSES,
    AtLeast,
    AtMost,
    Between,
    Catalogue,
    Near,
    NotHere,
    Outcome,
    Share,
    apply_circular,
)
from models.validation.runner import reason_for, run_claim


def judge(rule, paper, value, opposite=None):
    return rule.judge(paper, Outcome(value, opposite))


@pytest.mark.parametrize("value, status", [
    (47.11, REPRODUCED), (57.0, REPRODUCED), (57.2, PARTLY), (27.2, PARTLY), (67.0, PARTLY), (67.2, NOT_REPRODUCED),
    (0.5, NOT_REPRODUCED), (0.0, NOT_REPRODUCED), (-0.5, CONTRADICTED), (float("nan"), NOT_REPRODUCED),
])
def test_near_absolute_with_reference(value, status):
    # paper 47.11 %, +-10 points, partly +-20, a gain on the other side of 0 contradicts; exactly 0 is no effect
    r = Near(tol=10, scale="abs", ref=0, why="t")
    assert judge(r, 47.11, value) == status


@pytest.mark.parametrize("value, status", [
    (500.0, REPRODUCED), (400.0, REPRODUCED), (625.0, REPRODUCED), (374.0, PARTLY), (626.0, PARTLY), (250.0, PARTLY),
    (1000.0, PARTLY), (249.0, NOT_REPRODUCED), (1001.0, NOT_REPRODUCED), (177.0, NOT_REPRODUCED),
    (1414.0, NOT_REPRODUCED), (125.0, NOT_REPRODUCED), (2000.0, NOT_REPRODUCED), (1.0, NOT_REPRODUCED),
    (1.0005, NOT_REPRODUCED), (0.9, CONTRADICTED),
])
def test_near_factor_with_reference(value, status):
    # a factor-2 rule, capped: reproduced only within 25 % of 500 (375..625), partly only within 2x (250..1000)
    # (its own partly band, 2**1.5 = 2.83, is wider than the cap); 361 vs "~200x" is no longer reproduced
    r = Near(tol=2, scale="factor", ref=1, why="t")
    assert judge(r, 500.0, value) == status
    assert judge(r, 200.0, 361.0) == PARTLY


def test_near_factor_partly_band_is_tol_to_the_1_5_within_the_caps():
    r = Near(tol=1.5, scale="factor", why="t")
    band = 1.5**1.5  # 1.84: inside the factor-2 cap, so it decides
    assert judge(r, 0.0598, 0.0598 * 1.2) == REPRODUCED
    assert judge(r, 0.0598, 0.0598 * 1.49) == PARTLY  # within the rule's factor 1.5 but 49 % off
    assert judge(r, 0.0598, 0.0598 * band * 0.999) == PARTLY
    assert judge(r, 0.0598, 0.0598 / (band * 0.999)) == PARTLY
    assert judge(r, 0.0598, 0.0598 * band * 1.001) == NOT_REPRODUCED
    assert judge(r, 0.0598, 0.2711) == NOT_REPRODUCED  # the SG life-rate gap: far outside, not "within 0.1"


@given(st.floats(0.01, 1e6), st.floats(0.01, 1e6), st.floats(1.0, 50.0), st.sampled_from(["abs", "rel", "factor"]))
def test_no_rule_calls_a_number_reproduced_beyond_25_percent_or_partly_beyond_2x(paper, ours, tol, scale):
    r = Near(tol=tol if scale != "rel" else tol / 10, scale=scale, why="t")
    s = judge(r, paper, ours)
    if s == REPRODUCED:
        assert abs(ours / paper - 1) <= 0.25 + 1e-9
    if s in (REPRODUCED, PARTLY):
        assert max(ours / paper, paper / ours) <= 2 + 1e-9


def test_bounds_are_partly_only_within_2x_and_a_directional_bound_detects_the_opposite():
    assert judge(AtLeast(slack=0.25, ref=1.0, why="t"), 1.5, 0.1247) == CONTRADICTED
    assert judge(AtLeast(slack=0.25, why="t"), 1.5, 0.1247) == NOT_REPRODUCED
    assert judge(AtLeast(slack=8, why="t"), 10.0, 4.0) == NOT_REPRODUCED  # within the slack, but 2.5x below
    assert judge(AtLeast(slack=8, why="t"), 10.0, 6.0) == PARTLY
    assert judge(AtMost(slack=30, why="t"), 10.0, 25.0) == NOT_REPRODUCED
    assert judge(AtMost(slack=2, ref=0.0, why="t"), -1.0, 0.5) == CONTRADICTED
    assert judge(Between(slack=50, why="t"), (10.0, 20.0), 45.0) == NOT_REPRODUCED
    assert judge(Between(slack=50, why="t"), (10.0, 20.0), 35.0) == PARTLY


def test_a_mean_that_agrees_only_by_cancellation_is_not_reproduced():
    from models.validation.rules import judge_items

    r = Near(tol=10, scale="abs", ref=0, why="t")
    paper = {"fin1": 47.11, "fin2": 27.48, "dap": 18.97, "exchange": 28.27, "tpce": 66.10, "mail": 2.65, "randw": 67.11}
    ours = {"fin1": 19.35, "fin2": 1.303, "dap": 31.46, "exchange": 32.25, "tpce": 30.69, "mail": 46.6, "randw": 26.72}
    items = [(k, ours[k], paper[k]) for k in paper]
    status, note = judge_items(r, items, PARTLY)
    assert status == NOT_REPRODUCED and "2 of 7" in note and "correlation" in note
    assert judge_items(r, [(k, paper[k] + 1, paper[k]) for k in paper], REPRODUCED) == (REPRODUCED, "")
    assert judge_items(r, items, NOT_REPRODUCED) == (NOT_REPRODUCED, "")


def test_checks_degenerate_samples_and_missing_terms_take_their_own_statuses():
    from models.validation.core import Claim
    from models.validation.rules import CHECK_ONLY, NOT_MODELLED
    from models.validation.runner import judge_claim

    def claim(**kw):
        return Claim("000-x", "000", "Fig. 1", "s", 2.0, "x", Near(tol=0.5, scale="abs", why="t"), lambda: None,
                     "d", **kw)

    assert judge_claim(claim(check="counts the input file"), Outcome(2.0))[0] == CHECK_ONLY
    assert judge_claim(claim(check="counts the input file"), Outcome(9.0))[0] == NOT_REPRODUCED
    assert judge_claim(claim(), Outcome(2.0, degenerate="all pages clean"))[0] == NOT_REPRODUCED
    assert judge_claim(claim(), Outcome(None, missing="a CPU cost"))[0] == NOT_MODELLED
    with pytest.raises(ValueError, match="no value of ours"):
        judge_claim(claim(), Outcome(0.0, missing="a CPU cost"))
    assert judge_claim(claim(circular="from this figure", check="input"), Outcome(2.0))[0] == CHECK_ONLY
    assert judge_claim(claim(circular="from this figure"), Outcome(2.0))[0] == CIRCULAR


def test_near_relative_and_bad_settings():
    r = Near(tol=0.1, scale="rel", why="t")
    assert [judge(r, 19.0, v) for v in (19.0, 20.8, 22.0, 24.0)] == [REPRODUCED, REPRODUCED, PARTLY, NOT_REPRODUCED]


def test_near_relative_with_paper_zero_does_not_divide_by_zero():
    # no relative deviation from 0: the tolerance applies to |ours|
    r = Near(tol=0.1, scale="rel", why="t")
    assert [judge(r, 0.0, v) for v in (0.0, 0.1, -0.05, 0.15, -0.2, 0.25)] == [
        REPRODUCED, REPRODUCED, REPRODUCED, PARTLY, PARTLY, NOT_REPRODUCED]
    assert judge(r, 0, 5) == NOT_REPRODUCED
    with pytest.raises(ValueError, match="scale"):
        Near(tol=1, scale="log", why="t")
    with pytest.raises(ValueError, match="factor"):
        Near(tol=0.5, scale="factor", why="t")


def test_near_factor_non_positive_value_without_reference_is_not_reproduced():
    assert judge(Near(tol=2, scale="factor", why="t"), 3.0, 0.0) == NOT_REPRODUCED


@pytest.mark.parametrize("value, status", [
    (5.0, REPRODUCED), (10.0, REPRODUCED), (7.5, REPRODUCED), (4.9, PARTLY), (15.0, PARTLY), (0.0, PARTLY),
    (15.1, NOT_REPRODUCED), (-0.1, CONTRADICTED),
])
def test_between_with_slack_and_reference(value, status):
    assert judge(Between(slack=5, ref=0, why="t"), (5.0, 10.0), value) == status


def test_between_without_reference_never_contradicts():
    assert judge(Between(slack=3, why="t"), (0.0, 3.0), -14.6) == NOT_REPRODUCED


@pytest.mark.parametrize("value, status", [
    (0.0, REPRODUCED), (3.0, REPRODUCED), (-0.001, CONTRADICTED), (-14.6, CONTRADICTED), (5.0, PARTLY),
    (6.5, NOT_REPRODUCED),
])
def test_between_range_starting_at_reference_can_be_contradicted(value, status):
    # "less than 3 %" read as (0, 3) with ref = 0: lo == ref, so a loss is the opposite effect
    assert judge(Between(slack=3, ref=0, why="t"), (0.0, 3.0), value) == status


def test_between_range_ending_at_reference():
    r = Between(slack=1, ref=0, why="t")
    assert judge(r, (-3.0, 0.0), 0.5) == CONTRADICTED
    assert judge(r, (-3.0, 0.0), -1.0) == REPRODUCED


def test_bounds():
    assert [judge(AtMost(slack=1, why="t"), 1.0, v) for v in (-5.0, 1.0, 2.0, 2.01)] == [
        REPRODUCED, REPRODUCED, PARTLY, NOT_REPRODUCED]
    assert [judge(AtLeast(slack=10, why="t"), 90.0, v) for v in (99.9, 90.0, 80.0, 79.9)] == [
        REPRODUCED, REPRODUCED, PARTLY, NOT_REPRODUCED]
    assert judge(AtMost(why="t"), 1.0, None) == NOT_REPRODUCED


@pytest.mark.parametrize("value, opposite, required, status", [
    (1.0, 0.0, 1.0, REPRODUCED), (0.75, 0.25, 1.0, PARTLY), (0.75, 0.0, 0.5, REPRODUCED),
    (0.5, 0.5, 0.5, REPRODUCED),  # the share asked for is reached: the opposite cases do not matter
    (0.4, 0.6, 0.5, CONTRADICTED),  # opposite in >= half of the cases
    (0.5, 0.5, 1.0, CONTRADICTED),  # boundary: opposite == 0.5 contradicts even with half holding
    (0.5, 0.49, 1.0, PARTLY),
    (0.5, 0.0, 1.0, PARTLY),  # boundary: share == required / 2
    (0.49, 0.0, 1.0, NOT_REPRODUCED),  # below half of the share asked for
    (0.25, 0.0, 1.0, NOT_REPRODUCED),  # a single holding case among four is no partial agreement
    (0.45, 0.45, 0.5, NOT_REPRODUCED),  # reaches required / 2 but not more often than the opposite
    (0.0, 1.0, 1.0, CONTRADICTED), (0.0, 0.5, 1.0, CONTRADICTED), (0.0, 0.4, 1.0, NOT_REPRODUCED),
    (0.0, 0.0, 1.0, NOT_REPRODUCED),
    (5 / 6, 1 / 6, 5 / 6, REPRODUCED), (4 / 6, 2 / 6, 5 / 6, PARTLY), (1 / 6, 0.0, 5 / 6, NOT_REPRODUCED),
])
def test_share(value, opposite, required, status):
    assert judge(Share(required=required, why="t"), "direction", value, opposite) == status


@given(st.integers(1, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))).flatmap(
    lambda t: st.tuples(st.just(t[0]), st.just(t[1]), st.integers(0, t[0] - t[1]))))
def test_share_statuses_match_the_docstring(counts):
    n, hold, opp = counts
    status = Share(required=1.0, why="t").judge("d", Outcome(hold / n, opp / n))
    if hold == n:
        assert status == REPRODUCED
    elif 2 * opp >= n:
        assert status == CONTRADICTED
    elif 2 * hold >= n and hold > opp:
        assert status == PARTLY
    else:
        assert status == NOT_REPRODUCED


def test_catalogue_check_caps_an_assumed_value_at_partly():
    inner = AtMost(slack=0.5, why="t")
    capped = Catalogue(inner=inner, assumed=("sata-ssd.read_latency_ns",), why="t")
    free = Catalogue(inner=inner, why="t")
    assert [capped.judge(3.0, Outcome(v)) for v in (2.9, 3.4, 4.0)] == [PARTLY, PARTLY, NOT_REPRODUCED]
    assert [free.judge(3.0, Outcome(v)) for v in (2.9, 3.4, 4.0)] == [REPRODUCED, PARTLY, NOT_REPRODUCED]
    assert "assumed" in capped.text(3.0) and "catalogue" in free.text(3.0)
    with pytest.raises(ValueError):
        Catalogue(why="t")


def test_share_helper_counts_cases():
    o = share([("a", 1), ("b", 1), ("c", -1)], unit_label="traces")
    assert (o.value, o.opposite, o.cases) == (2 / 3, 1 / 3, "2/3 traces")
    assert o.note == "Holds: a, b; opposite: c."
    with pytest.raises(ValueError):
        share([])


def test_not_here():
    assert judge(NotHere(why="no traces"), None, None) == NOT_HERE


@given(st.sampled_from(STATUSES), st.booleans())
def test_a_circular_claim_is_never_reproduced(status, circular):
    out = apply_circular(status, circular)
    assert out in STATUSES
    if circular:
        assert out != REPRODUCED
        assert out == (CIRCULAR if status in (REPRODUCED, PARTLY) else status)
    else:
        assert out == status


def _claim(**kw):
    base = dict(claim_id="003-test-x", seed="003", where="Fig. 0", statement="s", paper=10.0, unit="%",
                rule=Near(tol=1, scale="abs", why="t"), compute=lambda: Outcome(10.5), data="crafted")
    base.update(kw)
    return Claim(**base)


def test_run_claim_applies_the_rule_and_caps_circular_claims():
    ok = run_claim(_claim())
    assert ok.status == REPRODUCED and ok.reason == ""
    circ = run_claim(_claim(circular="input inverted from this result"))
    assert circ.status == CIRCULAR and circ.rule_status == REPRODUCED
    assert "input inverted from this result" in circ.reason
    off = run_claim(_claim(compute=lambda: Outcome(30.0, note="computed detail"), why_differs="because"))
    assert off.status == NOT_REPRODUCED and off.reason.startswith("because") and "computed detail" in off.reason
    default = run_claim(_claim(compute=lambda: Outcome(30.0)))
    assert default.reason.startswith("Outside the rule")


def test_run_claim_records_or_raises_a_failing_computation():
    def boom():
        raise RuntimeError("model API changed")

    r = run_claim(_claim(compute=boom))
    assert r.status == "error" and "model API changed" in r.reason
    with pytest.raises(RuntimeError):
        run_claim(_claim(compute=boom), strict=True)
    bad = run_claim(_claim(compute=lambda: 3.0))
    assert bad.status == "error" and "Outcome" in bad.reason


def test_claim_definitions_are_checked():
    with pytest.raises(ValueError, match="start with the seed"):
        _claim(claim_id="004-x")
    with pytest.raises(ValueError, match="justification"):
        _claim(rule=Near(tol=1, scale="abs"))
    with pytest.raises(ValueError, match="without a computation"):
        _claim(compute=None)
    with pytest.raises(ValueError, match="why"):
        _claim(compute=None, rule=NotHere())
    with pytest.raises(ValueError, match="data"):
        _claim(data="")
    nh = run_claim(_claim(compute=None, rule=NotHere(why="we lack the traces")))
    assert nh.status == NOT_HERE and nh.reason == "we lack the traces"


def test_reason_is_empty_only_when_reproduced():
    c = _claim(why_differs="w")
    for status in STATUSES:
        text = reason_for(c, Outcome(1.0), status, status)
        assert (text == "") == (status == REPRODUCED)


@pytest.mark.parametrize("x, text", [
    (221.053, "221.1"), (0.61623, "0.6162"), (3580.2, "3580"), (1.0, "1"), (-14.56, "-14.56"), (0.0, "0"),
    (-0.0, "0"), (2.5e-5, "2.500e-05"), (1.2e7, "1.200e+07"), (None, "–"), (math.nan, "–"), (math.inf, "–"),
])
def test_number_format_is_fixed(x, text):
    assert fmt_number(x) == text
