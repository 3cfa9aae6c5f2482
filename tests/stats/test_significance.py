"""p-values recomputed from statistics: closed forms against scipy, statcheck-style tolerance."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.stats import chance
from benchaudit.stats import significance as sig


def test_mcnemar_golden():
    # 90 vs 70 discordant items: p = 0.133, so "p < 0.05" cannot be right.
    assert sig.p_from_mcnemar(90, 70) == pytest.approx(0.133, abs=5e-4)
    assert sig.p_from_mcnemar(30, 15) == pytest.approx(0.036, abs=5e-4)
    assert sig.p_from_mcnemar(45, 87) == pytest.approx(3.232e-4, rel=1e-3)
    r = sig.recompute_mcnemar(90, 70, "<", "0.05")
    assert not r.consistent and r.decision_flip


@pytest.mark.parametrize("t,df", [(2.2, 28), (0.5, 3), (10.0, 2), (1.96, 1000), (3.1, 1), (0.0, 5)])
def test_t_against_scipy(t, df):
    from scipy import stats

    assert sig.p_from_t(t, df) == pytest.approx(2 * stats.t.sf(abs(t), df), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize(
    "x,df", [(3.84, 1), (10.0, 5), (0.1, 2), (50.0, 30), (2.256, 1), (200.0, 150)]
)
def test_chi2_against_scipy(x, df):
    from scipy import stats

    assert sig.p_from_chi2(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize(
    "f,d1,d2", [(4.2, 1, 30), (2.5, 3, 100), (0.3, 2, 10), (20.0, 5, 5), (1.0, 40, 40)]
)
def test_f_against_scipy(f, d1, d2):
    from scipy import stats

    assert sig.p_from_f(f, d1, d2) == pytest.approx(stats.f.sf(f, d1, d2), rel=1e-9, abs=1e-15)


def test_z_and_r():
    from scipy import stats

    assert sig.p_from_z(1.96) == pytest.approx(0.04999579, rel=1e-6)
    r, df = 0.35, 48
    t = r * math.sqrt(df / (1 - r * r))
    assert sig.p_from_r(r, df) == pytest.approx(2 * stats.t.sf(t, df), rel=1e-9)


@settings(max_examples=200, deadline=None)
@given(st.floats(0.01, 30), st.integers(1, 500))
def test_t_matches_scipy_everywhere(t, df):
    from scipy import stats

    assert sig.p_from_t(t, df) == pytest.approx(2 * stats.t.sf(t, df), rel=1e-7, abs=1e-300)


@settings(max_examples=200, deadline=None)
@given(st.floats(0.0, 20.0), st.floats(0.0, 20.0), st.integers(1, 60))
def test_p_falls_as_the_statistic_grows(a, b, df):
    lo, hi = sorted((a, b))
    assert sig.p_from_t(hi, df) <= sig.p_from_t(lo, df) + 1e-12
    assert sig.p_from_chi2(hi, df) <= sig.p_from_chi2(lo, df) + 1e-12


def test_rounding_tolerance_statcheck_style():
    # F(1, 30) = 4.17 gives p = 0.0500...; stated "p = .05" is consistent.
    assert sig.recompute("F", "4.17", (1, 30), "=", "0.05").consistent
    # t(28) = 2.20 -> p = 0.036: "p = .04" consistent, "p = .01" not (no flip), "p < .05" fine.
    assert sig.recompute("t", "2.20", (28,), "=", "0.04").consistent
    bad = sig.recompute("t", "2.20", (28,), "=", "0.01")
    assert not bad.consistent and not bad.decision_flip
    assert sig.recompute("t", "2.20", (28,), "<", "0.05").consistent
    flip = sig.recompute("t", "1.20", (28,), "<", "0.05")
    assert not flip.consistent and flip.decision_flip


def test_a_statistic_stands_for_its_rounding_interval():
    # t(10) = 2.2 could be 2.15..2.25: p ranges over both sides of 0.05.
    p, lo, hi = sig.p_range("t", "2.2", (10,))
    assert lo < 0.05 < hi
    assert sig.recompute("t", "2.2", (10,), "<", "0.05").consistent


def test_one_sided_accepted_when_stated():
    two = sig.recompute("t", "1.80", (40,), "=", "0.04")
    one = sig.recompute("t", "1.80", (40,), "=", "0.04", one_sided=True)
    assert not two.consistent and one.consistent


def test_decimals():
    assert sig.decimals("2.20") == 2
    assert sig.decimals("−1.5") == 1
    assert sig.decimals("12") == 0


def test_rotation_chance_golden():
    assert chance.rotation_chance(4, 4, 3) == pytest.approx(0.0508, abs=5e-4)
    assert chance.rotation_chance(4, 4, 4) == pytest.approx(1 / 256)
    assert chance.rotation_chance(4, 1, 1) == pytest.approx(0.25)


def test_kappa_golden():
    # 65/20/5/10 of 100: 85% raw agreement, label rates 70% and 75% -> kappa 0.625.
    assert chance.kappa(0.85, chance.chance_agreement(0.70, 0.75)) == pytest.approx(0.625)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 6), st.integers(1, 8), st.data())
def test_rotation_chance_against_binomial(k, m, data):
    from scipy import stats

    r = data.draw(st.integers(0, m))
    assert chance.rotation_chance(k, m, r) == pytest.approx(
        stats.binom.sf(r - 1, m, 1 / k), abs=1e-12
    )
