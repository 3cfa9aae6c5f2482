"""Intervals for one proportion: seeds' worked numbers, statsmodels, and laws."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.stats import proportions as P


def test_seed_worked_numbers():
    assert P.standard_error(0.25, 20) == pytest.approx(0.0968, abs=5e-5)
    lo, hi = P.wald(5, 20)
    assert (round(lo * 100, 1), round(hi * 100, 1)) == (6.0, 44.0)
    lo, hi = P.wilson(5, 20)
    assert (round(lo * 100, 2), round(hi * 100, 2)) == (11.19, 46.87)
    assert P.wald(8, 10)[1] == pytest.approx(1.0479, abs=1e-4)
    lo, hi = P.wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert round(P.wilson(0, 50)[1] * 100, 1) == 7.1
    # 700 ones and 300 zeros: normal half-width 0.0284
    assert 1.959964 * P.standard_error(0.7, 1000) == pytest.approx(0.0284, abs=5e-4)


def test_coverage_at_the_edge_matches_the_seed():
    """n = 100 at true p = 0.95: normal covers 87.7%, Wilson 96.6% (exact enumeration)."""

    def coverage(method):
        total = 0.0
        for k in range(101):
            lo, hi = method(k, 100)
            if lo <= 0.95 <= hi:
                total += math.comb(100, k) * 0.95**k * 0.05 ** (100 - k)
        return total

    assert round(coverage(P.wald) * 100, 1) == pytest.approx(87.7, abs=0.15)
    assert round(coverage(P.wilson) * 100, 1) == pytest.approx(96.6, abs=0.15)


@pytest.mark.parametrize(
    "k,n",
    [
        (0, 10),
        (3, 10),
        (5, 20),
        (8, 10),
        (10, 10),
        (143, 164),
        (700, 1000),
        (1, 1000),
        (999, 1000),
        (515, 1319),
    ],
)
@pytest.mark.parametrize(
    "method,sm",
    [
        ("wald", "normal"),
        ("wilson", "wilson"),
        ("agresti-coull", "agresti_coull"),
        ("clopper-pearson", "beta"),
    ],
)
def test_against_statsmodels(k, n, method, sm):
    proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint
    want = proportion_confint(k, n, alpha=0.05, method=sm)
    got = P.METHODS[method](k, n)
    if method in ("agresti-coull", "wald"):
        # statsmodels clips these to [0, 1]; ours report the raw Wald bounds on purpose
        # (interval-out-of-range needs to see them) and clip Agresti-Coull.
        got = (max(0.0, got[0]), min(1.0, got[1]))
        want = (max(0.0, want[0]), min(1.0, want[1]))
    assert got[0] == pytest.approx(want[0], abs=1e-9)
    assert got[1] == pytest.approx(want[1], abs=1e-9)


@pytest.mark.parametrize("k,n,p", [(3, 10, 0.4), (0, 5, 0.2), (17, 40, 0.5), (9, 9, 0.9)])
def test_binom_cdf_against_scipy(k, n, p):
    stats = pytest.importorskip("scipy.stats")
    assert P.binom_cdf(k, n, p) == pytest.approx(stats.binom.cdf(k, n, p), rel=1e-12, abs=1e-15)


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 5000), data=st.data())
def test_wilson_contains_estimate_and_stays_in_unit_interval(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = P.wilson(k, n)
    assert 0.0 <= lo <= k / n + 1e-12
    assert k / n - 1e-12 <= hi <= 1.0


@settings(max_examples=300, deadline=None)
@given(k=st.integers(0, 200), factor=st.integers(2, 20), denominator=st.integers(1, 200))
def test_more_items_never_widen_wilson_at_fixed_phat(k, factor, denominator):
    n = max(k, denominator)
    lo1, hi1 = P.wilson(k, n)
    lo2, hi2 = P.wilson(k * factor, n * factor)
    assert hi2 - lo2 <= hi1 - lo1 + 1e-12


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 300), data=st.data())
def test_clopper_pearson_contains_estimate(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = P.clopper_pearson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
