"""Winner's curse from exact binomial order statistics."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom

from benchaudit.stats.selection import expected_max_binomial, winners_curse_inflation


@pytest.mark.parametrize(
    "k,points", [(2, 1.16), (5, 2.37), (10, 3.13), (20, 3.79), (50, 4.55), (100, 5.06)]
)
def test_table(k, points):
    assert 100 * winners_curse_inflation(k, 0.70, 500) == pytest.approx(points, abs=0.005)


def test_one_candidate_has_no_inflation():
    assert winners_curse_inflation(1, 0.7, 500) == pytest.approx(0.0, abs=1e-12)


def test_against_scipy_cdf():
    x = np.arange(500)
    ref = np.sum(1 - binom.cdf(x, 500, 0.7) ** 10)
    assert expected_max_binomial(10, 0.7, 500) == pytest.approx(ref, rel=1e-10)


def test_grows_with_k():
    vals = [winners_curse_inflation(k, 0.5, 200) for k in (1, 2, 4, 8, 16)]
    assert vals[0] == pytest.approx(0.0, abs=1e-12)
    # Strictly: a flat zero (the best of k scored as one candidate) is sorted too.
    assert all(a < b for a, b in zip(vals, vals[1:])), vals
