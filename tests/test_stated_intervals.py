"""Stated intervals against n: golden numbers and statsmodels' intervals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.stats import stated_intervals as I

SM_NAMES = {"wald": "normal", "wilson": "wilson", "agresti-coull": "agresti_coull",
            "clopper-pearson": "beta"}


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
            assert got[method][0] == pytest.approx(max(lo, 0) if method != "wald" else lo, abs=1e-6)
            assert got[method][1] == pytest.approx(min(hi, 1) if method != "wald" else hi, abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(st.integers(10, 3000), st.data())
def test_every_method_is_consistent_with_itself(n, data):
    """An interval computed by any standard method, written to one decimal, passes."""
    k = data.draw(st.integers(1, n - 1))
    p = k / n
    value = f"{100 * p:.1f}"
    for lo, hi in I.expected(p, n).values():
        if lo < 0 or hi > 1:
            continue
        assert I.check_bounds(value, f"{100 * lo:.1f}", f"{100 * hi:.1f}", n).consistent
