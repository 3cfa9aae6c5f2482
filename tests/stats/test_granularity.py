"""Reachable scores k/(n·s): the golden numbers of the design notes, brute force, and laws."""

from __future__ import annotations

from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchaudit.stats import granularity as G


def test_humaneval_87_3_is_unreachable():
    assert not G.is_reachable("87.3", 164)
    below, above = G.nearest("87.3", 164)
    assert (below.k, below.text, above.k, above.text) == (143, "87.2", 144, "87.8")
    assert G.is_reachable("87.2", 164)
    assert list(G.counts("87.2", 164)) == [143]


def test_500_items_move_in_steps_of_0_2():
    assert not G.is_reachable("49.3", 500)
    assert [G.is_reachable(f"49.{d}", 500) for d in range(10)] == [
        True,
        False,
        True,
        False,
        True,
        False,
        True,
        False,
        True,
        False,
    ]
    assert not G.is_reachable("96.3", 500)


def test_aime_single_pass_vs_averaged():
    assert not G.is_reachable("39.2", 30)
    assert not G.is_reachable("79.8", 30)
    assert G.is_reachable("79.8", 30, samples=64)
    assert 1532 in G.counts("79.8", 30, samples=64)
    assert 1532 / 1920 == pytest.approx(0.7979, abs=1e-4)
    s = G.min_samples("79.8", 30)
    assert s is not None and s <= 64
    assert G.is_reachable("79.8", 30, s) and not any(
        G.is_reachable("79.8", 30, t) for t in range(1, s)
    )


def test_excess_precision_on_20_items():
    assert G.excess_digits("25.03", 20) == 2
    assert G.excess_digits("25", 20) == 0
    assert G.excess_digits("25.0", 20) == 1
    assert (
        G.needed_decimals(20) == 2 and G.needed_decimals(164) == 3 and G.needed_decimals(1000) == 3
    )


def test_ties_round_either_way():
    # 1/8 = 12.5%: "12%" (half-down) and "13%" (half-up) are both fair roundings.
    assert G.is_reachable("13", 8) and G.is_reachable("12", 8)
    assert not G.is_reachable("14", 8)


def test_power_note_threshold():
    # n·s ≥ 10^d: every value is reachable, the check has no power.
    assert not G.can_detect("94.2", 1000)
    assert G.can_detect("94.2", 999)
    assert not G.can_detect("87.3", 30, samples=64)  # 1920 ≥ 1000
    assert G.can_detect("87.30", 30, samples=64)


def test_proportions_and_written_forms():
    assert G.decimals("70.0") == 1 and G.decimals("1,319") == 0
    assert G.proportion_decimals("87.3") == 3 and G.proportion_decimals("0.873", 1) == 3
    assert not G.is_reachable("0.873", 164, scale=1)
    assert G.is_reachable("0.872", 164, scale=1)


def _brute(value: str, n: int, s: int) -> bool:
    d = G.decimals(value)
    q = Decimal(1).scaleb(-d)
    target = Decimal(value)
    for k in range(n * s + 1):
        x = Decimal(k) * 100 / Decimal(n * s)
        if x.quantize(q, ROUND_HALF_UP) == target or x.quantize(q, ROUND_HALF_DOWN) == target:
            return True
    return False


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 200), st.integers(1, 4), st.integers(0, 10000), st.integers(0, 2))
def test_matches_brute_force(n, s, tenths, d):
    value = f"{Decimal(tenths) / 100:.{d}f}"
    assert G.is_reachable(value, n, s) == _brute(value, n, s)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 2000), st.integers(1, 8), st.data(), st.integers(0, 3))
def test_every_k_over_n_rounds_to_a_reachable_value(n, s, data, d):
    k = data.draw(st.integers(0, n * s))
    value = G.format_at(k, n * s, d)
    assert G.is_reachable(value, n, s)
    assert k in G.counts(value, n, s)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 500), st.integers(0, 10000), st.integers(0, 2))
def test_no_power_means_reachable(n, tenths, d):
    value = f"{Decimal(tenths) / 100:.{d}f}"
    if not G.can_detect(value, n):
        assert G.is_reachable(value, n)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 300), st.integers(0, 1000))
def test_neighbours_bracket_an_unreachable_value(n, tenths):
    value = f"{Decimal(tenths) / 10:.1f}"
    if G.is_reachable(value, n):
        return
    below, above = G.nearest(value, n)
    v = Decimal(value)
    assert below is not None and above is not None
    assert Decimal(below.k) * 100 / n < v < Decimal(above.k) * 100 / n
    assert above.k == below.k + 1
