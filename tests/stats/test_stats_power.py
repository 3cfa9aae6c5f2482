"""Sample sizes and minimum detectable effects against the worked tables."""

from __future__ import annotations

import pytest

from benchaudit.stats.power import (
    mde_paired,
    mde_unpaired,
    n_for_halfwidth,
    required_n,
    required_n_paired,
)


@pytest.mark.parametrize(
    "p1,p2,n",
    [
        (0.5, 0.6, 388),
        (0.8, 0.85, 906),
        (0.7, 0.75, 1251),
        (0.9, 0.92, 3213),
        (0.7, 0.72, 8080),
        (0.5, 0.52, 9806),
    ],
)
def test_required_n_table(p1, p2, n):
    assert required_n(p1, p2) == n
    assert required_n(p2, p1) == n


def test_required_n_agrees_with_statsmodels_power():
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize

    # Cohen's h (arcsine) is a different approximation; it lands within a few items.
    h = proportion_effectsize(0.6, 0.5)
    ref = NormalIndPower().solve_power(effect_size=h, alpha=0.05, power=0.8)
    assert abs(required_n(0.5, 0.6) - ref) < 5


def test_required_n_paired():
    assert required_n_paired(0.02, 0.16) == 3137
    assert required_n_paired(0.02, 0.08) == 1567
    with pytest.raises(ValueError):
        required_n_paired(0.3, 0.05)


def test_mde():
    assert 100 * mde_unpaired(0.7, 200) == pytest.approx(12.8, abs=0.05)
    assert 100 * mde_unpaired(0.7, 500) == pytest.approx(8.1, abs=0.05)
    assert 100 * mde_unpaired(0.7, 1000) == pytest.approx(5.7, abs=0.05)
    assert 100 * mde_paired(0.10, 500) == pytest.approx(4.0, abs=0.05)


def test_mde_inverts_the_paired_sample_size():
    n = required_n_paired(0.02, 0.16)
    assert mde_paired(0.16, n) == pytest.approx(0.02, rel=0.03)


def test_n_for_halfwidth():
    assert n_for_halfwidth(0.05) == 385
    assert n_for_halfwidth(0.03) == 1068
    assert n_for_halfwidth(0.02, p=0.7) == 2017
