"""Clustered SE, design effect, bootstraps and Student t against worked numbers and scipy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from benchaudit.stats.clustered import (
    bootstrap_mean_ci,
    cluster_bootstrap_ci,
    clustered_se,
    design_effect,
    naive_se,
)
from benchaudit.stats.student import t_central, t_interval, t_quantile


def test_eight_clusters_of_ten_identical_outcomes():
    x = np.repeat([1, 0, 1, 1, 0, 0, 1, 0], 10)
    c = np.repeat(np.arange(8), 10)
    assert clustered_se(x, c) / naive_se(x) == pytest.approx(np.sqrt(10))
    assert clustered_se(x, c) == pytest.approx(0.177, abs=5e-4)
    assert naive_se(x) == pytest.approx(0.056, abs=5e-4)
    assert design_effect(x, c) == pytest.approx(10.0)
    assert clustered_se(x, c, small_sample=True) == pytest.approx(
        clustered_se(x, c) * np.sqrt(8 / 7)
    )


def test_singleton_clusters_give_the_naive_se():
    x = np.random.default_rng(0).integers(0, 2, 300)
    assert clustered_se(x, np.arange(300)) == pytest.approx(naive_se(x))


def test_clustered_se_matches_statsmodels_ols_cluster():
    import statsmodels.api as sm

    rng = np.random.default_rng(1)
    c = np.repeat(np.arange(30), 7)
    x = (rng.normal(size=30)[c] + rng.normal(size=c.size) > 0).astype(float)
    fit = sm.OLS(x, np.ones_like(x)).fit(
        cov_type="cluster", cov_kwds={"groups": c, "use_correction": False}
    )
    assert clustered_se(x, c) == pytest.approx(float(fit.bse[0]), rel=1e-9)


def test_bootstrap_worked_example():
    x = np.r_[np.ones(700), np.zeros(300)]
    assert 1.959964 * x.std(ddof=1) / np.sqrt(1000) == pytest.approx(0.0284, abs=5e-4)
    lo, hi = bootstrap_mean_ci(x, seed=0)
    assert abs(lo - 0.6716) < 0.004 and abs(hi - 0.7284) < 0.004
    assert bootstrap_mean_ci(x, seed=0) == (lo, hi)


def test_bootstrap_matches_scipy():
    rng = np.random.default_rng(2)
    x = rng.beta(2, 3, size=400)
    ref = stats.bootstrap(
        (x,), np.mean, n_resamples=10000, batch=1000, method="percentile", random_state=0
    ).confidence_interval
    lo, hi = bootstrap_mean_ci(x, seed=5)
    assert lo == pytest.approx(ref.low, abs=0.003) and hi == pytest.approx(ref.high, abs=0.003)


def test_cluster_bootstrap_is_wider_under_clustering():
    x = np.repeat([1, 0, 1, 1, 0, 0, 1, 0], 10).astype(float)
    c = np.repeat(np.arange(8), 10)
    lo, hi = cluster_bootstrap_ci(x, c, seed=0)
    nlo, nhi = bootstrap_mean_ci(x, seed=0)
    assert (hi - lo) > 2.5 * (nhi - nlo)
    # Its width tracks the clustered SE.
    assert (hi - lo) / 2 == pytest.approx(1.96 * clustered_se(x, c), rel=0.2)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 7, 10, 30, 101])
def test_t_quantile_matches_scipy(df):
    assert t_quantile(0.95, df) == pytest.approx(stats.t.ppf(0.975, df), rel=1e-10)
    assert t_central(1.3, df) == pytest.approx(1 - 2 * stats.t.sf(1.3, df), abs=1e-12)


def test_t_worked_numbers():
    assert t_quantile(0.95, 2) == pytest.approx(4.30, abs=0.005)
    assert t_quantile(0.95, 4) == pytest.approx(2.78, abs=0.005)
    mean, lo, hi, sd = t_interval([0.70, 0.72, 0.71])
    assert hi - mean == pytest.approx(4.3027 * 0.01 / np.sqrt(3), rel=1e-4)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=5, max_size=60), st.integers(1, 6))
def test_clustered_se_nonnegative_and_finite(xs, size):
    x = np.array(xs, dtype=float)
    c = np.arange(x.size) // size
    se = clustered_se(x, c)
    assert np.isfinite(se) and se >= 0
