"""Student t intervals over a handful of values (seeds, clusters).

Intervals over a few seeds need t(k-1) quantiles (4.30 for 3 seeds, not 1.96)
on the text path, where scipy is not imported; the distribution itself lives
in :mod:`benchaudit.stats.special`, tested against ``scipy.stats.t``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import SupportsFloat

from benchaudit.stats.special import t_central, t_quantile

__all__ = ["t_central", "t_interval", "t_quantile"]


def t_interval(values: Iterable[SupportsFloat], confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Mean of k values (seeds) with its t(k-1) interval: (mean, lo, hi, sd)."""
    xs = [float(v) for v in values]
    k = len(xs)
    if k < 2:
        raise ValueError("need at least two values for a t interval")
    mean = math.fsum(xs) / k
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (k - 1))
    half = t_quantile(confidence, k - 1) * sd / math.sqrt(k)
    return mean, mean - half, mean + half, sd
