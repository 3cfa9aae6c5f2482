"""Chance levels of multiple-choice scoring procedures and chance-corrected agreement."""

from __future__ import annotations

import math


def rotation_chance(options: int, rotations: int, needed: int) -> float:
    """Probability that a uniform random guesser passes an item scored over
    ``rotations`` option orders, needing at least ``needed`` correct answers.

    Each rotation is an independent guess with success 1/options. A majority of
    4 rotations (3 hits) on 4 options: 4·(1/4)^3·(3/4) + (1/4)^4 ≈ 0.051, not 0.25.
    """
    if options < 2 or rotations < 1 or not 0 <= needed <= rotations:
        raise ValueError("need options >= 2 and 0 <= needed <= rotations >= 1")
    p = 1.0 / options
    return math.fsum(
        math.comb(rotations, j) * p**j * (1 - p) ** (rotations - j)
        for j in range(needed, rotations + 1)
    )


def kappa(observed: float, expected: float) -> float:
    """Cohen's kappa from observed and chance agreement: (p_o - p_e) / (1 - p_e)."""
    if expected >= 1:
        raise ValueError("chance agreement must be below 1")
    return (observed - expected) / (1 - expected)


def chance_agreement(rate_a: float, rate_b: float) -> float:
    """Chance agreement of two binary raters who say "yes" at the given rates."""
    return rate_a * rate_b + (1 - rate_a) * (1 - rate_b)
