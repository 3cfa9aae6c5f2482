"""The mean of a score over items crossed with seeds, and its two-way interval.

A model run with k seeds on n items gives an n x k matrix ``y``. Its mean varies
because the items are a sample of the task *and* because the seeds are a sample of
the runs one could have made. Under the two-way random-effects model
y_ij = mu + a_i + b_j + e_ij,

    Var(mean) = s_a^2 / n + s_b^2 / k + s_e^2 / (n k).

The item means' variance estimates s_a^2 + s_e^2 / k and the seed means' variance
s_b^2 + s_e^2 / n, so their sum over n and k counts the residual twice; the
residual mean square of the two-way table takes one copy out. The interval is
mean +- t(df) sqrt(Var) with Satterthwaite's df for the two parts. A deterministic
model (every seed identical) keeps the item part: never a zero-width interval,
as an interval over seeds alone would give.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from benchaudit.stats.student import t_quantile


@dataclass(frozen=True)
class Crossed:
    """A mean over items and seeds, its interval and the two parts of its variance."""

    mean: float
    ci_low: float
    ci_high: float
    se: float
    item_part: float  # variance of the mean from item sampling
    seed_part: float  # variance of the mean from seed sampling
    df: float


def two_way_interval(values: Any, confidence: float = 0.95) -> Crossed:
    """The mean of an items x seeds matrix with the interval over both (see module doc)."""
    import numpy as np

    y = np.asarray(values, dtype=np.float64)
    if y.ndim != 2 or y.shape[0] < 2 or y.shape[1] < 2:
        raise ValueError("need at least two items and two seeds")
    n, k = y.shape
    mean = float(y.mean())
    item_means = y.mean(axis=1)
    seed_means = y.mean(axis=0)
    resid = y - item_means[:, None] - seed_means[None, :] + mean
    ms_e = float((resid**2).sum() / ((n - 1) * (k - 1)))
    s_items = float(item_means.var(ddof=1))
    s_seeds = float(seed_means.var(ddof=1))
    # Each component estimate kept non-negative (a negative one means the component is 0).
    item_var = max(s_items - ms_e / k, 0.0) / n
    seed_var = max(s_seeds - ms_e / n, 0.0) / k
    var = item_var + seed_var + ms_e / (n * k)
    a = s_items / n
    b = s_seeds / k
    denom = (a * a) / (n - 1) + (b * b) / (k - 1)
    df = (a + b) ** 2 / denom if denom > 0 else float(n - 1)
    se = math.sqrt(var)
    t = t_quantile(confidence, max(1, int(math.floor(df))))
    return Crossed(
        mean=mean,
        ci_low=mean - t * se,
        ci_high=mean + t * se,
        se=se,
        item_part=item_var + ms_e / (n * k),
        seed_part=seed_var,
        df=df,
    )
