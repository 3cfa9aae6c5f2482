"""The item count at which a lead leaves the noise, against the interval it inverts."""

import math

import pytest
from benchaudit.rules._claims import unpaired
from benchaudit.rules.comparisons._bold_leads import items_to_separate
from hypothesis import given
from hypothesis import strategies as st


@pytest.mark.parametrize("a, b", [(67.2, 67.1), (98.89, 98.80), (52.6, 52.4), (25.1, 25.0)])
def test_the_interval_just_excludes_zero_at_that_count(a, b):
    n = items_to_separate(a, b, 0.95)
    assert unpaired(a, b, n, 0.95)["lo"] > 0
    assert unpaired(a, b, n - 1, 0.95)["lo"] <= 0


def test_a_worked_value():
    # z = 1.95996, p1 q1 + p2 q2 = 0.22048 + 0.22131, d = 0.001: 1.7e6 items.
    z = 1.959963984540054
    expected = math.ceil(z * z * (0.672 * 0.328 + 0.671 * 0.329) / 0.001**2)
    assert items_to_separate(67.2, 67.1, 0.95) == expected
    assert 1_690_000 < expected < 1_700_000


@given(
    st.floats(min_value=1.0, max_value=99.0),
    st.floats(min_value=0.05, max_value=5.0),
)
def test_a_smaller_lead_needs_more_items(a, lead):
    b = max(0.5, a - lead)
    assert items_to_separate(a, b, 0.95) >= items_to_separate(a, max(0.25, b - 0.5), 0.95)
