"""Paired tests against the worked numbers and against statsmodels / scipy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest
from statsmodels.stats.contingency_tables import mcnemar

from benchaudit.stats.paired import (
    mcnemar_exact,
    mcnemar_exact_many,
    mcnemar_floor,
    paired_diff_ci,
    sign_flip_test,
    unpaired_diff,
)


def test_mcnemar_worked_numbers():
    assert mcnemar_exact(30, 15) == pytest.approx(0.036, abs=5e-4)
    assert mcnemar_exact(17, 0) == pytest.approx(2 * 2**-17, rel=1e-12)
    assert mcnemar_exact(45, 87) == pytest.approx(3.232e-4, rel=1e-3)
    assert mcnemar_exact(90, 70) == pytest.approx(0.133, abs=5e-4)
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(1, 1) == 1.0  # doubled tail capped at 1


@pytest.mark.parametrize(
    "b,c",
    [
        (30, 15),
        (17, 0),
        (45, 87),
        (64, 293),
        (209, 152),
        (43, 499),
        (3, 4),
        (2000, 2100),
        (3100, 2950),
    ],
)
def test_mcnemar_matches_statsmodels_and_scipy(b, c):
    table = [[100, b], [c, 100]]
    ref = mcnemar(table, exact=True).pvalue
    assert mcnemar_exact(b, c) == pytest.approx(ref, rel=1e-9, abs=1e-300)
    assert mcnemar_exact(b, c) == pytest.approx(binomtest(b, b + c, 0.5).pvalue, rel=1e-9)
    assert mcnemar_exact_many([b], [c])[0] == pytest.approx(ref, rel=1e-9)


def test_mcnemar_floor():
    assert mcnemar_floor(5) == 0.0625
    assert mcnemar_floor(6) == 0.03125
    assert mcnemar_floor(0) == 1.0
    for m in range(1, 30):
        assert mcnemar_floor(m) == pytest.approx(mcnemar_exact(m, 0))


def test_paired_interval_worked_example():
    diff, lo, hi = paired_diff_ci(335, 30, 15, 120)
    assert diff == pytest.approx(0.03)
    assert round(100 * lo, 1) == 0.4 and round(100 * hi, 1) == 5.6
    assert (hi - lo) / 2 == pytest.approx(0.026, abs=5e-4)


def test_paired_interval_matches_mean_of_differences():
    d = np.r_[np.ones(30), -np.ones(15), np.zeros(455)]
    se = d.std(ddof=1) / np.sqrt(d.size)
    diff, lo, hi = paired_diff_ci(335, 30, 15, 120)
    assert hi - diff == pytest.approx(1.959964 * se, rel=1e-6)


def test_unpaired_worked_examples():
    diff, lo, hi, z, p = unpaired_diff(0.73, 500, 0.70, 500)
    assert (hi - lo) / 2 == pytest.approx(0.056, abs=5e-4)
    assert p == pytest.approx(0.29, abs=5e-3)
    assert unpaired_diff(0.584, 500, 0.55, 500)[4] == pytest.approx(0.28, abs=5e-3)


def test_unpaired_matches_statsmodels_ztest():
    from statsmodels.stats.proportion import proportions_ztest

    z_ref, p_ref = proportions_ztest([365, 350], [500, 500])
    _, _, _, z, p = unpaired_diff(0.73, 500, 0.70, 500)
    assert z == pytest.approx(z_ref, rel=1e-9)
    assert p == pytest.approx(p_ref, rel=1e-9)


def test_sign_flip_worked_examples():
    d = np.r_[np.ones(30), -np.ones(15), np.zeros(455)]
    assert sign_flip_test(d, seed=0) == pytest.approx(0.038, abs=0.006)
    fixes = np.r_[np.ones(17), np.zeros(483)]
    p = sign_flip_test(fixes, seed=0)
    assert p < 0.01 and p >= 1 / 10001
    assert sign_flip_test(np.zeros(10)) == 1.0


def test_sign_flip_is_seeded_and_matches_scipy():
    from scipy.stats import permutation_test

    rng = np.random.default_rng(3)
    a = rng.uniform(size=60)
    b = a - 0.08 + rng.normal(0, 0.2, size=60)
    d = a - b
    p1 = sign_flip_test(d, resamples=4000, seed=7)
    assert p1 == sign_flip_test(d, resamples=4000, seed=7)
    ref = permutation_test(
        (d,),
        lambda x, axis: np.mean(x, axis=axis),
        permutation_type="samples",
        n_resamples=20000,
        random_state=1,
    ).pvalue
    assert p1 == pytest.approx(ref, abs=0.02)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 400), st.integers(0, 400))
def test_mcnemar_is_a_valid_symmetric_pvalue(b, c):
    p = mcnemar_exact(b, c)
    assert 0.0 < p <= 1.0
    assert p == mcnemar_exact(c, b)
    assert p >= mcnemar_floor(b + c) - 1e-15


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 200), st.integers(0, 50), st.integers(0, 50), st.integers(0, 200))
def test_paired_interval_contains_its_difference(n11, n10, n01, n00):
    if n11 + n10 + n01 + n00 < 2:
        return
    diff, lo, hi = paired_diff_ci(n11, n10, n01, n00)
    assert lo <= diff <= hi


def test_normal_two_sided_many_matches_scipy_small_and_large():
    import numpy as np
    from scipy.stats import norm

    from benchaudit.stats.paired import normal_two_sided_many

    rng = np.random.default_rng(3)
    for size in (7, 2000):  # the stdlib loop and the scipy.special branch
        z = rng.normal(scale=3, size=size)
        z[0], z[1] = 0.0, -40.0
        np.testing.assert_allclose(normal_two_sided_many(z), 2 * norm.sf(np.abs(z)), rtol=1e-12)
    assert np.isnan(normal_two_sided_many([np.nan]))[0]


def test_mcnemar_exact_many_same_on_both_branches():
    import numpy as np

    from benchaudit.stats.paired import mcnemar_exact, mcnemar_exact_many

    rng = np.random.default_rng(5)
    b, c = rng.integers(0, 400, size=(2, 1500))
    b[:3], c[:3] = 0, (0, 1, 5000)
    many = mcnemar_exact_many(b, c)
    few = mcnemar_exact_many(b[:20], c[:20])
    ref = np.array([mcnemar_exact(int(x), int(y)) for x, y in zip(b, c)])
    # Up to 3,000 discordant pairs the stdlib tail is an exact integer sum; scipy's
    # bdtr is within a few 1e-12 of it.
    np.testing.assert_allclose(many, ref, rtol=1e-11)
    np.testing.assert_array_equal(few, ref[:20])


def test_mcnemar_exact_many_shared_counts_same_values():
    """Many pairs over few items take the CDF once per distinct (k, m): the same floats as
    evaluating every pair, in the input's shape."""
    import numpy as np
    from scipy.special import bdtr

    from benchaudit.stats.paired import mcnemar_exact_many

    rng = np.random.default_rng(11)
    m = rng.binomial(60, 0.4, size=(300, 20))
    b = rng.binomial(m, 0.5)
    c = m - b
    b[0, :2], c[0, :2] = 0, 0  # no discordant item: p = 1
    got = mcnemar_exact_many(b, c)
    k, mm = np.minimum(b, c), b + c
    direct = np.where(mm == 0, 1.0, np.minimum(1.0, 2.0 * bdtr(k, np.maximum(mm, 1), 0.5)))
    assert got.shape == b.shape
    np.testing.assert_array_equal(got, direct)
    assert got[0, 0] == 1.0
