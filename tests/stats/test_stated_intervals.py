"""Stated intervals against n: golden numbers and statsmodels' intervals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.stats import stated_intervals as I

SM_NAMES = {
    "wald": "normal",
    "wilson": "wilson",
    "agresti-coull": "agresti_coull",
    "clopper-pearson": "beta",
}


def test_94_2_plus_minus_0_1_on_1000_items():
    v = I.check_plus_minus("94.2", "0.1", 1000)
    assert not v.consistent
    lo, hi = v.expected["wald"]
    assert (hi - lo) / 2 * 100 == pytest.approx(1.45, abs=0.005)
    assert I.check_plus_minus("94.2", "1.4", 1000).consistent
    assert I.check_plus_minus("94.2", "1.45", 1000).consistent


def test_one_standard_error_is_recognised():
    v = I.check_plus_minus("94.2", "0.7", 1000)
    assert not v.consistent and v.only_as_se
    assert I.check_plus_minus("94.2", "0.7", 1000, kind="se").consistent


def test_eight_of_ten():
    v = I.check_bounds("80", "55.2", "104.8", 10)
    assert v.consistent and v.method == "wald"
    lo, hi = v.expected["wilson"]
    assert (round(lo * 100, 1), round(hi * 100, 1)) == (49.0, 94.3)
    assert I.implied_n(0.8, 0.248) == 10


def test_levels():
    assert I.check_bounds("87.2", "82.2", "90.9", 164, level=0.90).consistent
    assert not I.check_bounds("87.2", "82.2", "90.9", 164).consistent


def test_expected_matches_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    for k, n in [(5, 20), (143, 164), (942, 1000), (8, 10), (1, 30)]:
        got = I.expected(k / n, n)
        for method, sm in SM_NAMES.items():
            lo, hi = proportion_confint(k, n, alpha=0.05, method=sm)
            # statsmodels clips every method to [0, 1]; ours leaves Wald unclipped on purpose.
            assert max(got[method][0], 0.0) == pytest.approx(lo, abs=1e-6)
            assert min(got[method][1], 1.0) == pytest.approx(hi, abs=1e-6)


@settings(max_examples=25, deadline=None)
@given(st.integers(10, 600), st.data())
def test_every_method_is_consistent_with_itself(n, data):
    """An interval computed by any standard method, written to one decimal, passes."""
    k = data.draw(st.integers(1, n - 1))
    p = k / n
    value = f"{100 * p:.1f}"
    for lo, hi in I.expected(p, n).values():
        if lo < 0 or hi > 1:
            continue
        assert I.check_bounds(value, f"{100 * lo:.1f}", f"{100 * hi:.1f}", n).consistent


def test_clopper_pearson_matches_scipy_beta_quantiles():
    from scipy.stats import beta

    from benchaudit.stats.proportions import clopper_pearson

    for k, n in [(0, 50), (1, 30), (5, 20), (143, 164), (942, 1000), (10, 10), (7000, 14042)]:
        lo, hi = clopper_pearson(k, n)
        want_lo = 0.0 if k == 0 else beta.ppf(0.025, k, n - k + 1)
        want_hi = 1.0 if k == n else beta.ppf(0.975, k + 1, n - k)
        assert lo == pytest.approx(want_lo, abs=1e-9) and hi == pytest.approx(want_hi, abs=1e-9)
