"""Tests written for the conditions that ``tools/mutation_probe.py`` (seed 0) found no test
could see: each fails when its condition is replaced by a constant."""

from __future__ import annotations

import pytest
from benchaudit.rules.comparisons.p_value_inconsistent import _fmt

from benchaudit.stats.passk import pass_at_k, pass_hat_k


@pytest.mark.parametrize("estimator", [pass_at_k, pass_hat_k])
@pytest.mark.parametrize("c", [-1, 11])
def test_a_count_of_correct_samples_outside_0_to_n_is_refused(estimator, c):
    # passk.py: `if not 0 <= c <= n` (a negative count gave a pass@k above 1)
    with pytest.raises(ValueError, match="0 <= c <= n"):
        estimator(10, c, 1)
    assert estimator(10, 10, 1) == 1.0 and estimator(10, 0, 1) == 0.0


def test_a_suggested_p_value_is_written_so_that_it_stays_readable():
    # p_value_inconsistent.py: `if p < 0.001` (0.0001 written as 0.000 says p = 0)
    assert _fmt(0.00012) == "1.2e-04"
    assert _fmt(0.0312) == "0.031"
    assert _fmt(0.001) == "0.001"
