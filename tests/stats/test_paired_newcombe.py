"""Newcombe's hybrid score interval for a paired difference of proportions.

Worked number: Fagerland, Lydersen & Laake, *Statistical Analysis of Contingency
Tables* (2017), chapter 8, the paired table of Cavo et al. (2012), 59 / 6 / 16 / 80:
the square-and-add (Newcombe) interval of the difference is -0.0621 (-0.1186 to
-0.0046). Beside it an independent computation from statsmodels' Wilson limits,
the vectorised form held to the scalar one bit for bit, and the agreement with
McNemar's exact test over a grid of tables.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

from benchaudit.stats.paired import (
    mcnemar_exact,
    paired_diff_ci,
    paired_diff_newcombe,
    paired_diff_newcombe_many,
)


def reference(n11: int, n10: int, n01: int, n00: int, alpha: float = 0.05) -> tuple[float, float]:
    """Method 10 written out from the paper's definitions, on statsmodels' Wilson limits."""
    n = n11 + n10 + n01 + n00
    table = np.array([[n11, n10], [n01, n00]], dtype=float)
    right_a, right_b = table[0].sum(), table[:, 0].sum()
    la, ua = proportion_confint(right_a, n, alpha=alpha, method="wilson")
    lb, ub = proportion_confint(right_b, n, alpha=alpha, method="wilson")
    pa, pb = right_a / n, right_b / n
    cross = np.linalg.det(table)  # n11 n00 - n10 n01
    margins = np.prod([right_a, n - right_a, right_b, n - right_b])
    if margins == 0 or 0 <= cross <= n / 2:
        phi = 0.0
    else:
        phi = (cross - n / 2 if cross > 0 else cross) / math.sqrt(margins)
    lo = (pa - pb) - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2 - 2 * phi * (pa - la) * (ub - pb))
    hi = (pa - pb) + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2 - 2 * phi * (ua - pa) * (pb - lb))
    return max(-1.0, lo), min(1.0, hi)


def test_worked_number_cavo_2012():
    diff, lo, hi = paired_diff_newcombe(59, 6, 16, 80)
    assert round(diff, 4) == -0.0621
    assert round(lo, 4) == -0.1186
    assert round(hi, 4) == -0.0046


@pytest.mark.parametrize(
    "table",
    [(59, 6, 16, 80), (1, 1, 7, 12), (335, 30, 15, 120), (36, 12, 2, 0), (0, 5, 0, 45), (40, 0, 0, 10), (3, 0, 0, 0)],
)
def test_matches_an_independent_computation(table):
    _, lo, hi = paired_diff_newcombe(*table)
    ref = reference(*table)
    assert lo == pytest.approx(ref[0], abs=1e-12)
    assert hi == pytest.approx(ref[1], abs=1e-12)
    _, lo99, hi99 = paired_diff_newcombe(*table, confidence=0.99)
    ref99 = reference(*table, alpha=0.01)
    assert (lo99, hi99) == pytest.approx(ref99, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 300), st.integers(0, 40), st.integers(0, 40), st.integers(0, 300))
def test_laws_and_independent_agreement(n11, n10, n01, n00):
    if n11 + n10 + n01 + n00 == 0:
        return
    diff, lo, hi = paired_diff_newcombe(n11, n10, n01, n00)
    assert -1.0 <= lo <= diff <= hi <= 1.0
    assert hi > lo  # never of zero width, not even with no discordant item
    ref = reference(n11, n10, n01, n00)
    assert (lo, hi) == pytest.approx(ref, abs=1e-12)
    # Swapping the models mirrors the interval.
    _, lo_s, hi_s = paired_diff_newcombe(n11, n01, n10, n00)
    assert (lo_s, hi_s) == pytest.approx((-hi, -lo), abs=1e-15)


def test_vectorised_equals_scalar_to_the_last_digit():
    rng = np.random.default_rng(11)
    cells = rng.integers(0, 400, size=(4, 3000))
    cells[1:3] //= 8  # few discordant items, the case that matters
    cells[:, :40] = 0
    cells[0, :40] = rng.integers(1, 5, size=40)  # all concordant, one cell
    lo, hi = paired_diff_newcombe_many(*cells)
    for j in range(cells.shape[1]):
        _, l_, h_ = paired_diff_newcombe(*(int(x) for x in cells[:, j]))
        assert (lo[j], hi[j]) == (l_, h_), cells[:, j]


def _grid():
    for n in (20, 50, 100, 200, 500):
        for n10 in range(26):
            for n01 in range(26):
                rest = n - n10 - n01
                if rest < 0:
                    continue
                for share in (0.2, 0.5, 0.8):  # how the concordant items split
                    n11 = round(rest * share)
                    yield n11, n10, n01, rest - n11


def _agreement(alpha: float) -> dict[str, object]:
    rejected, missed, newcombe, normal, worst = 0, [], 0, 0, 0.0
    for t in _grid():
        p = mcnemar_exact(t[1], t[2])
        _, lo, hi = paired_diff_newcombe(*t, confidence=1 - alpha)
        _, nlo, nhi = paired_diff_ci(*t, confidence=1 - alpha)
        if p < alpha:
            rejected += 1
            if not (lo > 0 or hi < 0):
                missed.append(t)
        else:
            if lo > 0 or hi < 0:
                newcombe += 1
                worst = max(worst, p)
            normal += nlo > 0 or nhi < 0
    return {"rejected": rejected, "missed": missed, "newcombe": newcombe, "normal": normal, "worst": worst}


def test_excludes_zero_where_exact_mcnemar_rejects():
    """8,805 tables, n = 20-500 with 0-25 items only A got right and 0-25 only B did.

    At alpha = 0.05 McNemar's exact test rejects on 3,306 and the interval excludes 0
    on every one of them. Of the other 5,499 it excludes 0 on 364 (the normal
    interval on the differences on 510), all with exact p below 0.13: there the
    exact test is the conservative one (it cannot reach 0.05 with five or fewer
    discordant items)."""
    got = _agreement(0.05)
    assert (got["rejected"], got["missed"], got["newcombe"], got["normal"]) == (3306, [], 364, 510)
    assert got["worst"] < 0.13
    ten = _agreement(0.10)
    assert ten["missed"] == [] and ten["newcombe"] < ten["normal"]


def test_at_99_percent_one_table_of_the_grid_disagrees():
    # 8 items only one model got right, none the other way, on 500 items: the exact
    # p is 0.0078 and the 99% interval reaches 0.05 points past 0 (this table, its
    # mirror and its two model swaps). Every other rejection of the 2,250 agrees.
    got = _agreement(0.01)
    assert got["rejected"] == 2250
    assert sorted(got["missed"]) == sorted([(98, 0, 8, 394), (394, 0, 8, 98), (98, 8, 0, 394), (394, 8, 0, 98)])
    assert got["newcombe"] < got["normal"]


def test_the_worked_table_is_one_of_the_converse_cases():
    # 6 vs 16 discordant items: the exact p is 0.052, just above 0.05, while the
    # interval ends below 0 (as does the normal one); the row reports both.
    p = mcnemar([[59, 6], [16, 80]], exact=True).pvalue
    assert p == pytest.approx(mcnemar_exact(6, 16), rel=1e-12)
    assert 0.05 < p < 0.053
    assert paired_diff_newcombe(59, 6, 16, 80)[2] < 0
    assert paired_diff_ci(59, 6, 16, 80)[2] < 0
