"""Intervals for a proportion k/n, in closed form (no scipy on the text path).

Tests cross-check every method against statsmodels' ``proportion_confint``.
"""

from __future__ import annotations

import math
from functools import lru_cache
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


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for num in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < eps:
            break
    return h


def beta_cdf(x: float, a: float, b: float) -> float:
    """The regularised incomplete beta function I_x(a, b), the Beta(a, b) CDF."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def _beta_quantile(q: float, a: float, b: float) -> float:
    lo, hi = 0.0, 1.0
    for _ in range(42):  # 2^-42 ≈ 2e-13, far below any written digit
        mid = (lo + hi) / 2
        if beta_cdf(mid, a, b) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@lru_cache(maxsize=1024)
def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact interval from beta quantiles: cost independent of n (the text path
    checks intervals on benchmarks of 14,000 items)."""
    alpha = 1 - confidence
    lo = 0.0 if k <= 0 else _beta_quantile(alpha / 2, k, n - k + 1)
    hi = 1.0 if k >= n else _beta_quantile(1 - alpha / 2, k + 1, n - k)
    return lo, hi


METHODS = {
    "wald": wald,
    "wilson": wilson,
    "agresti-coull": agresti_coull,
    "clopper-pearson": clopper_pearson,
}
