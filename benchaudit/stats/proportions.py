"""Intervals for a proportion k/n, in closed form (no scipy on the text path).

Tests cross-check every method against statsmodels' ``proportion_confint``.
"""

from __future__ import annotations

import math
from statistics import NormalDist


def z_for(confidence: float = 0.95) -> float:
    """Two-sided normal quantile: 1.959964 for 95%."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def standard_error(p: float, n: int) -> float:
    """Binomial standard error sqrt(p(1-p)/n)."""
    if n <= 0:
        raise ValueError("n must be positive")
    return math.sqrt(max(p * (1 - p), 0.0) / n)


def wald(k: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The textbook p ± z·SE interval; can leave [0, 1] near the edges."""
    p = k / n
    h = z_for(confidence) * standard_error(p, n)
    return p - h, p + h


def wilson(k: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval; always inside [0, 1]."""
    if n <= 0:
        raise ValueError("n must be positive")
    z = z_for(confidence)
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def agresti_coull(k: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Agresti–Coull: Wald on k + z²/2 successes of n + z² trials."""
    z = z_for(confidence)
    n_t = n + z * z
    p_t = (k + z * z / 2) / n_t
    h = z * math.sqrt(p_t * (1 - p_t) / n_t)
    return max(0.0, p_t - h), min(1.0, p_t + h)


def binom_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p), summed in log space for stability."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if p <= 0:
        return 1.0
    if p >= 1:
        return 0.0
    lp, lq = math.log(p), math.log1p(-p)
    terms = [
        math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq
        for i in range(0, k + 1)
    ]
    m = max(terms)
    return min(1.0, math.exp(m) * sum(math.exp(t - m) for t in terms))


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper–Pearson) interval by bisection on the binomial tail."""
    alpha = 1 - confidence

    def solve(target: float, tail, increasing: bool) -> float:
        lo, hi = 0.0, 1.0
        for _ in range(100):
            mid = (lo + hi) / 2
            if (tail(mid) < target) == increasing:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    # P(X >= k | p) grows with p; P(X <= k | p) falls with p.
    lower = 0.0 if k == 0 else solve(alpha / 2, lambda p: 1 - binom_cdf(k - 1, n, p), True)
    upper = 1.0 if k == n else solve(alpha / 2, lambda p: binom_cdf(k, n, p), False)
    return lower, upper


METHODS = {
    "wald": wald,
    "wilson": wilson,
    "agresti-coull": agresti_coull,
    "clopper-pearson": clopper_pearson,
}
