"""Vectorised comparisons, cluster-level tests and the items x seeds interval against
scipy / statsmodels and brute force."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.formula.api import ols
from statsmodels.stats.anova import anova_lm

from benchaudit.analysis.results import analyse
from benchaudit.inputs._harness import build
from benchaudit.stats.clustered import bootstrap_mean_ci, bootstrap_means_ci
from benchaudit.stats.crossed import two_way_interval
from benchaudit.stats.paired import nonzero_diffs, sign_flip_many, sign_flip_rows


def test_sign_flip_many_agrees_with_scipy_permutation_test():
    rng = np.random.default_rng(1)
    x = np.clip(rng.normal(0.5, 0.25, size=(4, 60)).round(2), 0, 1)
    x[1] = np.clip(x[0] + rng.normal(0.08, 0.1, size=60), 0, 1).round(2)
    ia, ib = np.triu_indices(4, 1)
    p = sign_flip_many(x, ia, ib, resamples=20000, seed=3)
    for j, (a, b) in enumerate(zip(ia, ib)):
        d = x[a] - x[b]
        ref = stats.permutation_test(
            (d,), np.mean, permutation_type="samples", n_resamples=20000, random_state=0
        ).pvalue
        assert p[j] == pytest.approx(ref, abs=0.012)
    assert list(nonzero_diffs(x, ia, ib)) == [
        int(np.count_nonzero(x[a] - x[b])) for a, b in zip(ia, ib)
    ]


def test_sign_flip_many_is_one_for_identical_rows_and_deterministic():
    x = np.array([[0.1, 0.5, 0.9], [0.1, 0.5, 0.9], [0.2, 0.5, 0.8]])
    p = sign_flip_many(x, [0, 0], [1, 2], resamples=500, seed=1)
    assert p[0] == 1.0
    assert list(p) == list(sign_flip_many(x, [0, 0], [1, 2], resamples=500, seed=1))


def test_sign_flip_rows_exact_matches_enumeration():
    t = np.array([[3.0, 2.0, 4.0, 0.0, -1.0, 2.5], [1.0, -1.0, 0.5, 0.5, 0.0, 0.0]])
    p, floor = sign_flip_rows(t, resamples=10000)
    for row, got in zip(t, p):
        obs = abs(row.sum())
        hits = sum(
            abs(np.dot(s, row)) >= obs - 1e-12 for s in itertools.product((-1, 1), repeat=row.size)
        )
        assert got == pytest.approx(hits / 2**row.size)
    assert floor[0] == pytest.approx(2 * 0.5**5)  # five non-zero cluster totals


def test_bootstrap_means_ci_matches_the_one_model_bootstrap_in_distribution():
    rng = np.random.default_rng(2)
    x = rng.beta(2, 3, size=(3, 200))
    lo, hi = bootstrap_means_ci(x, resamples=20000, seed=0)
    for m in range(3):
        slo, shi = bootstrap_mean_ci(x[m], resamples=20000, seed=5)
        ref = stats.bootstrap(
            (x[m],), np.mean, n_resamples=20000, method="percentile", random_state=0
        ).confidence_interval
        assert lo[m] == pytest.approx(ref.low, abs=0.004)
        assert hi[m] == pytest.approx(ref.high, abs=0.004)
        assert lo[m] == pytest.approx(slo, abs=0.004)


def clustered_file():
    """12 passages x 10 questions; b loses to a on every question of 3 passages."""
    rng = np.random.default_rng(1)
    model, item, cluster, score = [], [], [], []
    for g in range(12):
        for q in range(10):
            base = float(rng.random() < 0.5)
            for name, v in (("a", 1.0 if g < 3 else base), ("b", 0.0 if g < 3 else base)):
                model.append(name)
                item.append(f"p{g}q{q}")
                cluster.append(f"p{g}")
                score.append(v)
    return model, item, cluster, score


def test_cluster_comparison_matches_enumeration_and_statsmodels_cluster_se():
    from benchaudit.inputs.resultset import Coded

    model, item, cluster, score = clustered_file()
    rs = build("clusters.csv", model=model, item=item, score=score)
    rs.cluster = Coded.from_values(cluster)
    (c,) = analyse(rs).comparisons
    a = np.array([s for m, s in zip(model, score) if m == "a"])
    b = np.array([s for m, s in zip(model, score) if m == "b"])
    g = np.array([int(c_[1:]) for m, c_ in zip(model, cluster) if m == "a"])
    d = a - b
    totals = np.bincount(g, weights=d)
    hits = sum(
        abs(np.dot(s, totals)) >= abs(totals.sum()) - 1e-12
        for s in itertools.product((-1, 1), repeat=12)
    )
    assert c["test"] == "cluster-sign-flip"
    assert c["p_value"] == pytest.approx(hits / 2**12) == pytest.approx(0.25)
    from statsmodels.stats.contingency_tables import mcnemar

    n10, n01 = int(((a == 1) & (b == 0)).sum()), int(((a == 0) & (b == 1)).sum())
    table = [[int(((a == 1) & (b == 1)).sum()), n10], [n01, int(((a == 0) & (b == 0)).sum())]]
    assert c["p_item_level"] == pytest.approx(mcnemar(table, exact=True).pvalue)
    import statsmodels.api as sm

    fit = sm.OLS(d, np.ones_like(d)).fit(cov_type="cluster", cov_kwds={"groups": g})
    half = stats.t.ppf(0.975, 11) * float(fit.bse[0])
    assert c["ci_high"] - c["diff"] == pytest.approx(half, rel=1e-9)
    naive = d.var() / d.size
    clustered = (totals - np.bincount(g) * d.mean()) @ (totals - np.bincount(g) * d.mean())
    assert c["design_effect"] == pytest.approx(clustered / d.size**2 / naive)
    assert c["clusters_differing"] == 3


def anova_variance(y: np.ndarray) -> float:
    n, k = y.shape
    import pandas as pd

    df = pd.DataFrame(
        {"y": y.ravel(), "item": np.repeat(np.arange(n), k), "seed": np.tile(np.arange(k), n)}
    )
    table = anova_lm(ols("y ~ C(item) + C(seed)", data=df).fit())
    ms = table["sum_sq"] / table["df"]
    return float(ms["C(item)"] + ms["C(seed)"] - ms["Residual"]) / (n * k)


def test_two_way_interval_matches_the_anova_mean_squares():
    rng = np.random.default_rng(4)
    item = rng.normal(0, 0.2, size=(40, 1))
    seed = rng.normal(0, 0.05, size=(1, 5))
    y = 0.6 + item + seed + rng.normal(0, 0.1, size=(40, 5))
    got = two_way_interval(y)
    assert got.se**2 == pytest.approx(anova_variance(y), rel=1e-9)
    a, b = y.mean(axis=1).var(ddof=1) / 40, y.mean(axis=0).var(ddof=1) / 5
    df = (a + b) ** 2 / (a * a / 39 + b * b / 4)
    assert got.df == pytest.approx(df)
    t = stats.t.ppf(0.975, math.floor(df))
    assert got.ci_high - got.mean == pytest.approx(t * got.se, rel=1e-6)


def test_deterministic_seeds_keep_the_item_interval():
    rng = np.random.default_rng(0)
    col = (rng.random(40) < 0.7).astype(float)
    y = np.repeat(col[:, None], 3, axis=1)  # three identical runs
    got = two_way_interval(y)
    assert got.seed_part == pytest.approx(0.0, abs=1e-20)
    assert got.se == pytest.approx(stats.sem(col), rel=1e-9)
    assert got.ci_high > got.ci_low
