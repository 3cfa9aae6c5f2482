"""Recompute p-values from reported test statistics, statcheck-style.

A paper reports ``t(28) = 2.20, p = .04``; this module recomputes the p-value
the statistic implies and decides whether the reported one is consistent with
it. The tail probabilities come from :mod:`benchaudit.stats.special` (the
regularised incomplete beta and gamma functions in the standard library), so
that checking a README never imports scipy; the tests cross-check them against
``scipy.stats``.

Rounding tolerance follows statcheck: a reported statistic ``2.20`` stands for
any value in [2.195, 2.205], and the reported p is consistent when some value
in that range gives a p-value that rounds to the reported digits (or satisfies
the stated ``<`` / ``>`` bound).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from benchaudit.stats.special import betainc, chi2_sf, f_sf, gammaincc, norm_sf, t_two_sided

__all__ = ["TESTS", "Recomputed", "betainc", "check_reported", "decimals", "gammaincc", "recompute"]

def p_from_z(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return min(1.0, 2 * norm_sf(abs(z)))


def p_from_t(t: float, df: float) -> float:
    """Two-sided p-value of Student's t with ``df`` degrees of freedom."""
    return min(1.0, t_two_sided(t, df))


def p_from_chi2(x: float, df: float) -> float:
    """Upper-tail p-value of a chi-square statistic."""
    return chi2_sf(x, df)


def p_from_f(f: float, df1: float, df2: float) -> float:
    """Upper-tail p-value of an F statistic."""
    return f_sf(f, df1, df2)


def p_from_r(r: float, df: float) -> float:
    """Two-sided p-value of a Pearson correlation with ``df`` = n - 2."""
    if abs(r) >= 1:
        return 0.0
    return p_from_t(r * math.sqrt(df / (1 - r * r)), df)


def p_from_mcnemar(b: int, c: int) -> float:
    """Exact McNemar p-value from the two discordant counts."""
    from benchaudit.stats.paired import mcnemar_exact

    return mcnemar_exact(b, c)


#: test name -> (p-value function, is the statistic signed?)
TESTS: dict[str, tuple[Callable[[float, tuple[float, ...]], float], bool]] = {
    "z": (lambda v, df: p_from_z(v), True),
    "t": (lambda v, df: p_from_t(v, df[0]), True),
    "chi2": (lambda v, df: p_from_chi2(v, df[0]), False),
    "F": (lambda v, df: p_from_f(v, df[0], df[1]), False),
    "r": (lambda v, df: p_from_r(v, df[0]), True),
}


def decimals(text: str) -> int:
    """Digits after the decimal point as written: ``"2.20"`` -> 2."""
    text = text.strip().lstrip("+-−")
    return len(text.split(".", 1)[1]) if "." in text else 0


def p_range(test: str, value: str, df: tuple[float, ...] = ()) -> tuple[float, float, float]:
    """(p at the stated value, smallest p, largest p) over the rounding interval."""
    func, signed = TESTS[test]
    v = abs(float(value.replace("−", "-")))
    half = 0.5 * 10 ** -decimals(value)
    lo_v, hi_v = max(v - half, 0.0), v + half
    p = func(v, df)
    # p falls as |statistic| grows, for every test here.
    return p, func(hi_v, df), func(lo_v, df)


@dataclass
class Recomputed:
    """A reported p-value checked against the statistic it comes with."""

    computed: float
    low: float
    high: float
    consistent: bool
    decision_flip: bool
    one_sided: bool = False


def check_reported(
    op: str,
    reported: str,
    low: float,
    high: float,
    computed: float,
    alpha: float = 0.05,
) -> Recomputed:
    """Compare a reported p (``op`` is ``=``, ``<``, ``<=``, ``>``) with the
    range [low, high] the statistic allows."""
    rep = float(reported)
    if op in ("<", "<=", "≤"):
        consistent = low < rep or (op != "<" and low <= rep)
        # A "p < .05" claim flips when every admissible p is at or above it.
        flip = rep <= alpha and low >= alpha
    elif op in (">", ">=", "≥"):
        consistent = high > rep
        flip = rep >= alpha and high < alpha
    else:
        half = 0.5 * 10 ** -decimals(reported)
        consistent = low <= rep + half and high >= rep - half
        if not consistent and rep == 0:
            consistent = low < half
        flip = (rep < alpha) != (computed < alpha) and not consistent
        # A flip needs every admissible value on the other side of alpha.
        if flip:
            flip = (high < alpha) if rep >= alpha else (low >= alpha)
    return Recomputed(computed, low, high, consistent, flip and not consistent)


def recompute(
    test: str,
    value: str,
    df: tuple[float, ...],
    op: str,
    reported: str,
    alpha: float = 0.05,
    one_sided: bool = False,
) -> Recomputed:
    """Recompute a reported ``test(df) = value, p op reported``.

    ``one_sided`` halves the two-sided p of z, t and r (statcheck accepts a
    one-tailed p when the text says so).
    """
    p, low, high = p_range(test, value, df)
    if one_sided and TESTS[test][1]:
        p, low, high = p / 2, low / 2, high / 2
    out = check_reported(op, reported, low, high, p, alpha)
    out.one_sided = one_sided
    return out


def recompute_mcnemar(b: int, c: int, op: str, reported: str, alpha: float = 0.05) -> Recomputed:
    """Check a reported p-value against discordant counts b and c (exact McNemar)."""
    p = p_from_mcnemar(b, c)
    return check_reported(op, reported, p, p, p, alpha)
