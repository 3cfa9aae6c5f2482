"""Holm's adjustment against the worked example and statsmodels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from benchaudit.stats.multiple import holm, holm_array, holm_reject


def test_worked_example():
    assert holm_reject([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_empty_and_single():
    assert holm([]) == []
    assert holm([0.3]) == [0.3]


pvals = st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=40)


@settings(max_examples=100, deadline=None)
@given(pvals)
def test_matches_statsmodels(ps):
    rej, adj, _, _ = multipletests(ps, alpha=0.05, method="holm")
    assert holm(ps) == pytest.approx(list(adj), abs=1e-12)
    assert holm_array(np.array(ps)) == pytest.approx(list(adj), abs=1e-12)
    assert holm_reject(ps) == list(rej)


@settings(max_examples=100, deadline=None)
@given(pvals)
def test_adjusted_at_least_raw_capped_and_monotone(ps):
    adj = holm(ps)
    assert all(a >= p - 1e-15 and a <= 1.0 for a, p in zip(adj, ps))
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    assert all(adj[order[i]] <= adj[order[i + 1]] for i in range(len(ps) - 1))
