"""Sample size and minimum detectable effect for comparing two accuracies.

Closed forms with normal quantiles (no scipy), as in the power analysis of
an eval: decide n before collecting. Tests check the worked numbers and
statsmodels' power functions where they apply.
"""

from __future__ import annotations

import math

from benchaudit.stats.special import norm_ppf, z_for


def _quantiles(alpha: float, power: float) -> tuple[float, float]:
    if not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError("alpha and power must be between 0 and 1")
    return z_for(1 - alpha), norm_ppf(power)


def required_n(p1: float, p2: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Items per model for an unpaired two-proportion z-test to detect p1 vs p2.

    The null term uses the pooled proportion, the power term the two separate
    variances: 388 for 0.5 vs 0.6, 8,080 for 0.70 vs 0.72.
    """
    if p1 == p2:
        raise ValueError("p1 and p2 must differ")
    za, zb = _quantiles(alpha, power)
    pbar = (p1 + p2) / 2
    num = za * math.sqrt(2 * pbar * (1 - pbar)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return math.ceil(num * num / (p1 - p2) ** 2 - 1e-9)


def required_n_paired(
    diff: float, discordance: float, alpha: float = 0.05, power: float = 0.8
) -> int:
    """Items for a paired (McNemar-type) design to detect a gap ``diff``.

    ``discordance`` is the share of items on which the two models disagree
    (psi). The approximation n = (z_a sqrt(psi) + z_b sqrt(psi - d^2))^2 / d^2
    is rounded to the nearest item, as the worked figures are: 3,137 at
    psi = 16% and 1,567 at psi = 8% for a 2-point gap.
    """
    d = abs(diff)
    if d == 0:
        raise ValueError("diff must be non-zero")
    if not d * d < discordance <= 1:
        raise ValueError("discordance must exceed diff squared and be at most 1")
    za, zb = _quantiles(alpha, power)
    num = za * math.sqrt(discordance) + zb * math.sqrt(discordance - d * d)
    return max(1, round(num * num / (d * d)))


def mde_unpaired(p: float, n: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """Smallest gap an unpaired comparison at accuracy ``p`` with n items per model
    detects: (z_a + z_b) sqrt(2 p (1 - p) / n). 0.128 at p = 0.7, n = 200."""
    if n <= 0:
        raise ValueError("n must be positive")
    za, zb = _quantiles(alpha, power)
    return (za + zb) * math.sqrt(2 * p * (1 - p) / n)


def mde_paired(discordance: float, n: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """Smallest gap a paired comparison detects at discordance psi:
    (z_a + z_b) sqrt(psi / n). 0.040 at psi = 0.10, n = 500."""
    if n <= 0:
        raise ValueError("n must be positive")
    za, zb = _quantiles(alpha, power)
    return (za + zb) * math.sqrt(max(discordance, 0.0) / n)


def n_for_halfwidth(halfwidth: float, p: float = 0.5, confidence: float = 0.95) -> int:
    """Items needed for a normal interval of ± ``halfwidth`` at accuracy ``p``:
    385 for ±5 points at p = 0.5, 1,068 for ±3."""
    if halfwidth <= 0:
        raise ValueError("halfwidth must be positive")
    z = z_for(confidence)
    return math.ceil(z * z * p * (1 - p) / (halfwidth * halfwidth) - 1e-9)
