"""Student's t distribution for whole degrees of freedom, in closed form.

Intervals over a handful of seeds need t(k-1) quantiles (4.30 for 3 seeds,
not 1.96) on the text path, where scipy is not imported. The finite series
for P(|T| <= t) (Abramowitz & Stegun 26.7.3-4) is exact for integer df;
tests compare with ``scipy.stats.t``.
"""

from __future__ import annotations

import math


def t_central(t: float, df: int) -> float:
    """P(|T| <= t) for T ~ t(df), df a positive whole number."""
    if df < 1 or int(df) != df:
        raise ValueError("df must be a positive whole number")
    t = abs(t)
    theta = math.atan(t / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    c2 = c * c
    if df % 2 == 1:
        if df == 1:
            return 2 * theta / math.pi
        term, acc = c, c
        for j in range(1, (df - 1) // 2):
            term *= c2 * (2 * j) / (2 * j + 1)
            acc += term
        return min(1.0, 2 / math.pi * (theta + s * acc))
    term, acc = 1.0, 1.0
    for j in range(1, df // 2):
        term *= c2 * (2 * j - 1) / (2 * j)
        acc += term
    return min(1.0, s * acc)


def t_quantile(confidence: float, df: int) -> float:
    """Two-sided critical value: t with P(|T| <= t) = confidence (4.303 for df 2)."""
    if not 0 < confidence < 1:
        raise ValueError("confidence must be between 0 and 1")
    lo, hi = 0.0, 1.0
    while t_central(hi, df) < confidence:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_central(mid, df) < confidence:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def t_interval(values, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Mean of k values (seeds) with its t(k-1) interval: (mean, lo, hi, sd)."""
    xs = [float(v) for v in values]
    k = len(xs)
    if k < 2:
        raise ValueError("need at least two values for a t interval")
    mean = math.fsum(xs) / k
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (k - 1))
    half = t_quantile(confidence, k - 1) * sd / math.sqrt(k)
    return mean, mean - half, mean + half, sd
