"""Standard errors and resampling for items that share a cluster, and the
seeded, batch-chunked bootstrap of a mean. numpy only inside functions."""

from __future__ import annotations

import math
from typing import Any


def clustered_se(values: Any, clusters: Any, small_sample: bool = False) -> float:
    """Cluster-robust SE of the mean: (1/n) sqrt(sum over clusters of (sum of residuals)^2).

    With one item per cluster this is the naive SE with ddof = 0. With
    ``small_sample`` the result is multiplied by sqrt(G / (G - 1)) for G
    clusters, the usual correction when clusters are few.
    """
    import numpy as np

    x = np.asarray(values, dtype=np.float64)
    _, codes = np.unique(np.asarray(clusters), return_inverse=True)
    n = x.size
    if n == 0:
        raise ValueError("no values")
    sums = np.bincount(codes, weights=x - x.mean())
    se = math.sqrt(float(np.dot(sums, sums))) / n
    g = sums.size
    if small_sample and g > 1:
        se *= math.sqrt(g / (g - 1))
    return se


def naive_se(values: Any) -> float:
    """SE of the mean treating items as independent (ddof = 0, to match the clustered form)."""
    import numpy as np

    x = np.asarray(values, dtype=np.float64)
    return float(x.std() / math.sqrt(x.size))


def design_effect(values: Any, clusters: Any) -> float:
    """Variance of the mean under clustering over its naive variance (1 + (m - 1) rho)."""
    naive = naive_se(values)
    if naive == 0.0:
        return 1.0
    return (clustered_se(values, clusters) / naive) ** 2


def _chunk(n: int, resamples: int, budget: int = 4_000_000) -> int:
    return max(1, min(resamples, budget // max(n, 1)))


def bootstrap_mean_ci(
    values: Any, resamples: int = 10000, confidence: float = 0.95, seed: int = 0
) -> tuple[float, float]:
    """Percentile bootstrap interval of a mean, resampling items with replacement.

    Resamples are drawn in chunks so memory stays bounded for large n.
    """
    import numpy as np

    x = np.asarray(values, dtype=np.float64)
    n = x.size
    if n == 0:
        raise ValueError("no values")
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    step = _chunk(n, resamples)
    for start in range(0, resamples, step):
        size = min(step, resamples - start)
        idx = rng.integers(0, n, size=(size, n))
        means[start : start + size] = x[idx].mean(axis=1)
    a = (1 - confidence) / 2
    lo, hi = np.quantile(means, [a, 1 - a])
    return float(lo), float(hi)


def cluster_bootstrap_ci(
    values: Any,
    clusters: Any,
    resamples: int = 10000,
    confidence: float = 0.95,
    seed: int = 0,
    weights: Any = None,
) -> tuple[float, float]:
    """Percentile bootstrap of a (weighted) mean resampling whole clusters, never items.

    A replicate draws G clusters with replacement; its mean is the sum of the
    drawn clusters' totals over the sum of their sizes (or weights). Drawing
    cluster multiplicities from a multinomial makes a replicate cost O(G).
    """
    import numpy as np

    x = np.asarray(values, dtype=np.float64)
    w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=np.float64)
    _, codes = np.unique(np.asarray(clusters), return_inverse=True)
    tot = np.bincount(codes, weights=x)
    size = np.bincount(codes, weights=w)
    g = tot.size
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    step = _chunk(g, resamples)
    probs = np.full(g, 1.0 / g)
    for start in range(0, resamples, step):
        k = min(step, resamples - start)
        counts = rng.multinomial(g, probs, size=k).astype(np.float64)
        means[start : start + k] = (counts @ tot) / (counts @ size)
    a = (1 - confidence) / 2
    lo, hi = np.quantile(means, [a, 1 - a])
    return float(lo), float(hi)


def bootstrap_means_ci(
    values: Any,
    resamples: int = 10000,
    confidence: float = 0.95,
    seed: int = 0,
    progress: Any = None,
) -> tuple[Any, Any]:
    """:func:`bootstrap_mean_ci` for every row of a complete matrix at once.

    All rows share the resampled item multisets (drawn as multinomial counts,
    which is resampling with replacement), so a chunk of replicates is one
    matrix product. ``progress``, if given, is called with the replicates done after
    each chunk. Returns the arrays of lower and upper bounds.
    """
    import numpy as np

    x = np.asarray(values, dtype=np.float64)
    k, n = x.shape
    if n == 0:
        raise ValueError("no values")
    rng = np.random.default_rng(seed)
    means = np.empty((resamples, k))
    step = _chunk(max(n, k), resamples)
    probs = np.full(n, 1.0 / n)
    for start in range(0, resamples, step):
        size = min(step, resamples - start)
        counts = rng.multinomial(n, probs, size=size).astype(np.float64)
        means[start : start + size] = counts @ x.T / n
        if progress is not None:
            progress(size)
    a = (1 - confidence) / 2
    lo, hi = np.quantile(means, [a, 1 - a], axis=0)
    return lo, hi
