"""pass@k and pass^k from n samples per problem of which c pass.

The unbiased estimator (Chen et al. 2021) is 1 - C(n-c, k) / C(n, k): the
share of the k-subsets of the n samples drawn that contain at least one pass.
It is computed as the product prod_{j<k} (1 - c / (n - j)), whose factors all
lie in [0, 1], so no binomial coefficient is ever formed (C(2000, 1000) has
601 digits) and it vectorises over problems. The plug-in 1 - (1 - c/n)^k
samples with replacement and underestimates pass@k for k > 1 (Jensen: the
map p -> 1 - (1 - p)^k is concave).

Scalar functions use only the standard library (the text path may call them);
the array functions import numpy inside.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchaudit.stats.special import z_for


def _check(n: int, c: int, k: int) -> None:
    if n < 1 or k < 1:
        raise ValueError(f"need n >= 1 and k >= 1, got n={n}, k={k}")
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got c={c}, n={n}")
    if k > n:
        raise ValueError(f"pass@{k} is undefined with n={n} samples (k > n)")


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k of one problem: 1 - C(n-c, k) / C(n, k)."""
    _check(n, c, k)
    if n - c < k:
        return 1.0  # every k-subset holds a pass
    prod = 1.0
    for j in range(k):
        prod *= 1.0 - c / (n - j)
    return 1.0 - prod


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k of one problem (all k tries succeed): C(c, k) / C(n, k)."""
    _check(n, c, k)
    if c < k:
        return 0.0
    prod = 1.0
    for j in range(k):
        prod *= (c - j) / (n - j)
    return prod


def plugin_pass_at_k(n: int, c: int, k: int) -> float:
    """The biased plug-in 1 - (1 - c/n)^k."""
    if n < 1 or k < 1 or not 0 <= c <= n:
        raise ValueError(f"need n, k >= 1 and 0 <= c <= n, got n={n}, c={c}, k={k}")
    return 1.0 - (1.0 - c / n) ** k


def pass_at_k_array(n: Any, c: Any, k: int) -> Any:
    """Unbiased pass@k per problem for arrays ``n`` and ``c`` (numpy array out).

    Raises ValueError when some problem has fewer than k samples: pass@k is
    undefined there, and silently dropping it would bias the average.
    """
    import numpy as np

    n = np.asarray(n, dtype=np.int64)
    c = np.asarray(c, dtype=np.int64)
    if n.shape != c.shape:
        raise ValueError("n and c must have the same shape")
    if k < 1:
        raise ValueError("k must be at least 1")
    if np.any(c < 0) or np.any(c > n):
        raise ValueError("need 0 <= c <= n for every problem")
    if np.any(n < k):
        raise ValueError(f"pass@{k} is undefined for problems with fewer than {k} samples")
    out = np.empty(n.shape, dtype=np.float64)
    # Chunk over problems so that the (problems x k) factor table stays small.
    step = max(1, 4_000_000 // k)
    j = np.arange(k, dtype=np.float64)
    flat_n, flat_c, flat_out = n.ravel(), c.ravel(), out.reshape(-1)
    for s in range(0, flat_n.size, step):
        nn = flat_n[s : s + step, None].astype(np.float64)
        cc = flat_c[s : s + step, None].astype(np.float64)
        # When n - c < k one factor is 1 - c/c = 0 exactly, so the result is exactly 1.
        factors = 1.0 - cc / (nn - j)
        flat_out[s : s + step] = 1.0 - np.prod(factors, axis=1)
    return out


def pass_hat_k_array(n: Any, c: Any, k: int) -> Any:
    """pass^k per problem for arrays ``n`` and ``c``."""
    import numpy as np

    n = np.asarray(n, dtype=np.float64)
    c = np.asarray(c, dtype=np.float64)
    if np.any(n < k):
        raise ValueError(f"pass^{k} is undefined for problems with fewer than {k} samples")
    j = np.arange(k, dtype=np.float64)
    factors = np.clip((c[..., None] - j) / (n[..., None] - j), 0.0, 1.0)
    return np.prod(factors, axis=-1)


def plugin_array(n: Any, c: Any, k: int) -> Any:
    """The plug-in 1 - (1 - c/n)^k per problem."""
    import numpy as np

    n = np.asarray(n, dtype=np.float64)
    c = np.asarray(c, dtype=np.float64)
    return 1.0 - (1.0 - c / n) ** k


@dataclass(frozen=True)
class PassAtK:
    """pass@k over a set of problems, with its interval and the plug-in beside it."""

    k: int
    estimate: float
    ci_low: float | None
    ci_high: float | None
    plugin: float
    pass_hat_k: float
    n_problems: int
    samples_min: int
    samples_max: int

    @property
    def plugin_gap(self) -> float:
        """Plug-in minus unbiased: negative when the plug-in understates."""
        return self.plugin - self.estimate


def mean_interval(
    values: Any, confidence: float = 0.95
) -> tuple[float, float | None, float | None]:
    """Mean of per-problem values and its normal interval over problems, clipped to [0, 1].

    Problems are the unit of sampling; the samples within a problem only
    sharpen that problem's estimate. With one problem there is no interval.
    """
    import numpy as np

    v = np.asarray(values, dtype=np.float64)
    m = float(v.mean())
    if v.size < 2:
        return m, None, None
    se = float(v.std(ddof=1)) / math.sqrt(v.size)
    z = z_for(confidence)
    return m, max(0.0, m - z * se), min(1.0, m + z * se)


def estimate(n: Any, c: Any, k: int, confidence: float = 0.95) -> PassAtK:
    """Average pass@k over problems, with its interval, pass^k and the plug-in."""
    import numpy as np

    n = np.asarray(n, dtype=np.int64)
    c = np.asarray(c, dtype=np.int64)
    if n.size == 0:
        raise ValueError("no problems")
    per = pass_at_k_array(n, c, k)
    m, lo, hi = mean_interval(per, confidence)
    return PassAtK(
        k=k,
        estimate=m,
        ci_low=lo,
        ci_high=hi,
        plugin=float(plugin_array(n, c, k).mean()),
        pass_hat_k=float(pass_hat_k_array(n, c, k).mean()),
        n_problems=int(n.size),
        samples_min=int(n.min()),
        samples_max=int(n.max()),
    )


def plugin_expectation(p: float, n: int, k: int) -> tuple[float, float, float]:
    """(true pass@k, E[plug-in], E[unbiased]) when each sample passes with probability p.

    Exact expectation over c ~ Binomial(n, p) by summing the probability mass
    function in log space; no simulation.
    """
    if not 0 <= p <= 1:
        raise ValueError("p must be in [0, 1]")
    true = 1.0 - (1.0 - p) ** k
    e_plugin = e_unbiased = 0.0
    for c in range(n + 1):
        w = _binom_pmf(c, n, p)
        if w == 0.0:
            continue
        e_plugin += w * plugin_pass_at_k(n, c, k)
        e_unbiased += w * pass_at_k(n, c, k)
    return true, e_plugin, e_unbiased


def _binom_pmf(c: int, n: int, p: float) -> float:
    if p == 0.0:
        return 1.0 if c == 0 else 0.0
    if p == 1.0:
        return 1.0 if c == n else 0.0
    return math.exp(
        math.lgamma(n + 1)
        - math.lgamma(c + 1)
        - math.lgamma(n - c + 1)
        + c * math.log(p)
        + (n - c) * math.log1p(-p)
    )


def default_ks(samples_min: int, wanted: Sequence[int] = (1, 5, 10, 20, 50, 100)) -> list[int]:
    """The conventional k values that every problem has enough samples for."""
    return [k for k in wanted if k <= samples_min]
