"""Laws the Wilson interval obeys, checked with hypothesis and against statsmodels."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.proportion import proportion_confint

from benchaudit.stats.proportions import wilson


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_contains_estimate_and_stays_in_unit_interval(kn):
    k, n = kn
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n + 1e-12 and k / n - 1e-12 <= hi <= 1.0
    ref = proportion_confint(k, n, method="wilson")
    assert (lo, hi) == pytest.approx(ref, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 300), st.integers(0, 300), st.integers(2, 20))
def test_more_items_never_widen_at_fixed_estimate(n, k, mult):
    k = min(k, n)
    lo1, hi1 = wilson(k, n)
    lo2, hi2 = wilson(k * mult, n * mult)
    assert hi2 - lo2 <= hi1 - lo1 + 1e-12
