"""Is a stated interval or ``±`` consistent with the item count it was computed on?

A stated interval is compared with what the standard methods give for the
stated score and ``n`` (Wald, Wilson, Agresti–Coull, Clopper–Pearson at the
stated level, 95% when none is stated, or one standard error when the text
says "± 1 SE"). Written numbers stand for every value that rounds to them,
so the score, the bounds and the ``±`` are each a small range; on top of that
a relative slack of :data:`SLACK` of the half-width absorbs bootstrap and
t-based intervals, which differ from the closed forms by a few percent.
Everything here is a proportion (0.942, not 94.2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from benchaudit.stats import granularity as G
from benchaudit.stats import proportions as P

#: The methods that take a fractional success count (p·n).
_FRACTIONAL_K = {"wald": P.wald, "wilson": P.wilson, "agresti-coull": P.agresti_coull}

#: Relative slack on a half-width before an interval counts as inconsistent.
SLACK = 0.10


def _bounds(method: str, p: float, n: int, confidence: float) -> tuple[float, float]:
    if method == "se":
        h = P.standard_error(p, n)
        return p - h, p + h
    if method == "clopper-pearson":
        return P.clopper_pearson(min(n, max(0, round(p * n))), n, confidence)
    return _FRACTIONAL_K[method](p * n, n, confidence)


def expected(p: float, n: int, confidence: float = 0.95) -> dict[str, tuple[float, float]]:
    """The interval of every standard method for ``p`` on ``n`` items."""
    return {m: _bounds(m, p, n, confidence) for m in P.METHODS}


@dataclass
class Verdict:
    """Whether a stated interval fits, and by which method it fits best."""

    consistent: bool
    method: str | None  # the method that fits (or comes closest)
    expected: dict[str, tuple[float, float]] = field(default_factory=dict)
    stated: tuple[float, float] = (0.0, 0.0)
    only_as_se: bool = False  # fits one standard error, though not labelled so


def _value_range(value: str, scale: int) -> list[float]:
    lo, hi = G.rounding_range(value, scale)
    mid = G.exact(value) / scale
    return [float(min(max(x, Fraction(0)), Fraction(1))) for x in (lo, mid, hi)]


def _half(text: str, scale: int) -> float:
    return float(Fraction(1, 10 ** G.decimals(text)) / 2 / scale)


def check_plus_minus(
    value: str,
    pm: str,
    n: int,
    scale: int = 100,
    level: float | None = None,
    kind: str | None = None,
) -> Verdict:
    """Whether ``value ± pm`` is a standard interval (or SE) for ``n`` items."""
    h = float(G.exact(pm)) / scale
    tol = _half(pm, scale)
    ps = _value_range(value, scale)
    methods = ["se"] if kind == "se" else list(P.METHODS)
    conf = level or 0.95
    best, best_gap = None, math.inf
    table: dict[str, tuple[float, float]] = {}
    for m in methods:
        halves = [(b - a) / 2 for a, b in (_bounds(m, p, n, conf) for p in ps)]
        lo_h, hi_h = min(halves) * (1 - SLACK), max(halves) * (1 + SLACK)
        table[m] = _bounds(m, ps[1], n, conf)
        gap = max(lo_h - (h + tol), (h - tol) - hi_h, 0.0)
        if gap < best_gap:
            best, best_gap = m, gap
    verdict = Verdict(best_gap == 0.0, best, table, (ps[1] - h, ps[1] + h))
    if not verdict.consistent and kind is None and level is None:
        se = check_plus_minus(value, pm, n, scale, kind="se")
        verdict.only_as_se = se.consistent
    return verdict


def check_bounds(
    value: str, lo: str, hi: str, n: int, scale: int = 100, level: float | None = None
) -> Verdict:
    """Whether the stated ``[lo, hi]`` is a standard interval for ``value`` on ``n`` items."""
    s_lo, s_hi = float(G.exact(lo)) / scale, float(G.exact(hi)) / scale
    t_lo, t_hi = _half(lo, scale), _half(hi, scale)
    ps = _value_range(value, scale)
    conf = level or 0.95
    best, best_gap = None, math.inf
    table: dict[str, tuple[float, float]] = {}
    for m in P.METHODS:
        got = [_bounds(m, p, n, conf) for p in ps]
        table[m] = got[1]
        slack = SLACK * max((b - a) / 2 for a, b in got)
        los = [a for a, _ in got]
        his = [b for _, b in got]
        gap_lo = max(min(los) - slack - (s_lo + t_lo), (s_lo - t_lo) - (max(los) + slack), 0.0)
        gap_hi = max(min(his) - slack - (s_hi + t_hi), (s_hi - t_hi) - (max(his) + slack), 0.0)
        gap = gap_lo + gap_hi
        if gap < best_gap:
            best, best_gap = m, gap
    return Verdict(best_gap == 0.0, best, table, (s_lo, s_hi))


def implied_n(p: float, half_width: float, confidence: float = 0.95) -> int | None:
    """The n a Wald interval ``p ± half_width`` was computed on: z²·p(1−p)/h²."""
    if half_width <= 0 or not 0 < p < 1:
        return None
    z = P.z_for(confidence)
    return max(1, round(z * z * p * (1 - p) / (half_width * half_width)))
